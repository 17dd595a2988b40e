use crate::apis::codehost::operation_params::{Finding, report};
use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::{FileContext, Routed};
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct RestParamInvalid {
        name: "rest-param-invalid",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "a code-hosting param or body value of the wrong type, outside its enum, range or length",
        what: "Judges the values a code-hosting request sends against the operation of the \
               host's REST description it calls: an integer path param given a word \
               (`/issues/abc`); query params and JSON body properties, nested objects and \
               arrays included, against their type, enum (with the one close value), \
               minimum and maximum, length and number of items, `null` where the schema is \
               not nullable, and dates and timestamps. A value the host may read as its type \
               (a string of digits for an integer, `true` in a form) is accepted; a value \
               several `oneOf`/`anyOf` alternatives could be meant for is judged only where \
               it fits none and one alternative is its own; other formats and patterns, and \
               values that variables whose values are not known give, are not judged. A \
               value a known variable gives is reported at the variable's definition.",
        why: "The host refuses the request: 422 Unprocessable Entity for a body or query \
              value, 404 for a path that names no resource.",
        source: "GitHub's REST API documentation (https://docs.github.com/en/rest), the parameters and request body schema of each operation, as GitHub's OpenAPI description (https://github.com/github/rest-api-description) gives them",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "an enum value with one close candidate is replaced (`opened` → `open`)",
        }],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("rest-param-invalid/bad.req.yaml"),
        good: example!("rest-param-invalid/good.req.yaml"),
    }
}

impl Rule for RestParamInvalid {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        report(file, routed.index, Finding::Invalid, &META, out);
    }
}

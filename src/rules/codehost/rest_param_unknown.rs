use crate::apis::codehost::operation_params::{Finding, report};
use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::{FileContext, Routed};
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct RestParamUnknown {
        name: "rest-param-unknown",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Warning,
        summary: "a code-hosting query param the operation does not take, or a body property an object that takes no other does not list",
        what: "Finds the operation of the host's REST description (its OpenAPI description) \
               that a code-hosting request calls, and reports each query param the operation \
               does not list (the request line's query string, and `params` of an operation \
               that takes no body, a GET's), with the one close name where there is one; and \
               each property of the JSON body, at any depth, that an object whose schema \
               refuses other properties (`additionalProperties: false`) does not list. An \
               object that lists no properties or allows others is not judged. \
               docs/codehost.md \"Params and bodies\" says how each format's params are read.",
        why: "The host ignores a query param it does not know: a misspelt `stat=closed` lists \
              the open issues. A body property an object does not take is refused with 422.",
        source: "GitHub's REST API documentation (https://docs.github.com/en/rest), the parameters of each operation, as GitHub's OpenAPI description (https://github.com/github/rest-api-description) lists them",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "a misspelt name with one close candidate is renamed (`stat` → `state`)",
        }],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("rest-param-unknown/bad.req.yaml"),
        good: example!("rest-param-unknown/good.req.yaml"),
    }
}

impl Rule for RestParamUnknown {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        report(file, routed.index, Finding::Unknown, &META, out);
    }
}

use crate::apis::codehost::operation_params::{Finding, report};
use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::{FileContext, Routed};
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct RestParamMissing {
        name: "rest-param-missing",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "a code-hosting request without a query param or body property that its operation requires",
        what: "Reports each query param the operation of the host's REST description requires \
               and the request does not send (`q` of a search), and each property of the \
               JSON body that the body or one of its objects requires (`title` to create an \
               issue, `sha` to update a reference). It points at the `params` key (at the \
               request line when there are no params). Nothing is reported missing where \
               the request may send params reqlint cannot see: a body it could not read, a \
               file upload, a body or query string that is a variable whose value is not \
               known; nor where the body may be one of several `oneOf` schemas. A request \
               of reqlint's own format without `params` names a call (for its token's \
               permissions) and says nothing of its body, nor, without a query string, of \
               its query (docs/codehost.md \"Params and bodies\").",
        why: "The host refuses the request with 422 Unprocessable Entity and names the \
              missing field.",
        source: "GitHub's REST API documentation (https://docs.github.com/en/rest), the required parameters and body fields of each operation, as GitHub's OpenAPI description (https://github.com/github/rest-api-description) marks them",
        fixes: &[],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("rest-param-missing/bad.req.yaml"),
        good: example!("rest-param-missing/good.req.yaml"),
    }
}

impl Rule for RestParamMissing {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        report(file, routed.index, Finding::Missing, &META, out);
    }
}

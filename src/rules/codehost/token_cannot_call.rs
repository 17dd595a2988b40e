use crate::apis::codehost::RequestNeed;
use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct TokenCannotCall {
        name: "token-cannot-call",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "the request's fine-grained token cannot call the operation at all",
        what: "A request with a token (every token reqlint reads is a fine-grained personal \
               access token) to an operation the host documents as closed to fine-grained \
               tokens: a GitHub App's own endpoints (`/app/…`, installation tokens), the \
               review of fine-grained token requests, and others. Judged from the host's \
               per-operation access data where reqlint has it (catalog/codehost/access/); an \
               operation without that data is not judged.",
        why: "No permission makes such a call work: the host answers 403 or 404 whatever the \
              token holds. The call needs a GitHub App's token (a JSON Web Token or an \
              installation access token), or, where the host allows it, a personal access \
              token (classic).",
        source: "GitHub's REST API reference: each operation's \"Fine-grained access tokens\" \
                 section (https://docs.github.com/en/rest), which the host keeps as data in \
                 its documentation repository (github/docs, `src/rest/data/<version>/<category>.json`, \
                 `progAccess.fineGrainedPat`); \"Endpoints available for fine-grained personal \
                 access tokens\" (https://docs.github.com/en/rest/authentication/endpoints-available-for-fine-grained-personal-access-tokens)",
        fixes: &[],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("token-cannot-call/bad.req.yaml"),
        good: example!("token-cannot-call/good.req.yaml"),
    }
}

impl Rule for TokenCannotCall {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let r = &crate::apis::codehost::request(file, routed);
        if r.request.token.is_none() {
            return;
        }
        let RequestNeed::NotForFineGrained(operation) =
            crate::apis::codehost::request_need(file, r.index)
        else {
            return;
        };
        let operation = crate::catalog::codehost_operations::get(operation);
        let edition = crate::apis::codehost::edition(r.line, file.config);
        let docs = operation
            .docs_url(edition)
            .map(|url| format!(" ({url})"))
            .unwrap_or_default();
        out.push(
            Diagnostic::new(
                &META,
                r.line.path_span,
                format!(
                    "fine-grained personal access tokens cannot call `{} {}`: the host answers 403 whatever permissions the token holds",
                    operation.method,
                    operation.template()
                ),
            )
            .with_help(format!(
                "call it with a GitHub App's token, or with a token the host documents for it{docs}"
            )),
        );
    }
}

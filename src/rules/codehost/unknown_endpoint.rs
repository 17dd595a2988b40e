use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use super::CodehostRequest;

pub struct UnknownEndpoint;

static META: RuleMeta = RuleMeta {
    name: "unknown-endpoint",
    group: Group::CodeHosting,
    severity: Severity::Warning,
    summary: "a code-hosting path or method that no permission table row lists",
    what: "Matches a code-hosting request's path against the templates of GitHub's reference \"Permissions required for fine-grained personal access tokens\"'s \
           endpoint tables (literal segments win over placeholders; the query string is \
           ignored). A path that no row matches, or a method that the matching path's \
           rows do not list, is reported with the methods the path has.",
    why: "Permission coverage cannot be checked for an endpoint reqlint does not know; \
          a wrong method usually means a wrong call (the API answers 404).",
    source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), \"Endpoints\"",
    inspects: Inspects::CodehostRequests,
    bad: example!("unknown-endpoint/bad.req.yaml"),
    good: example!("unknown-endpoint/good.req.yaml"),
};

impl Rule for UnknownEndpoint {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_request(
        &self,
        file: &FileContext<'_>,
        r: &CodehostRequest<'_>,
        out: &mut Vec<Diagnostic>,
    ) {
        let (i, line) = (r.index, r.line);
        let rows = super::rows(file, i);
        if rows.is_empty() {
            out.push(
                Diagnostic::new(&META, line.path_span, format!("no permission table row matches `{}`; its coverage cannot be checked", line.path))
                    .with_help("check the path against GitHub's reference \"Permissions required for fine-grained personal access tokens\"'s endpoint tables, or silence this rule for the line with `# reqlint: ignore[unknown-endpoint]`"),
            );
            return;
        }
        if rows.iter().any(|e| e.method == line.method) {
            return;
        }
        let mut methods: Vec<&str> = rows.iter().map(|e| e.method.as_str()).collect();
        methods.dedup();
        out.push(
            Diagnostic::new(
                &META,
                line.method_span,
                format!(
                    "no permission table row lists {} for `{}` (it lists {}); its coverage cannot be checked",
                    line.method,
                    rows[0].template,
                    methods.join(", ")
                ),
            )
            .with_help(format!(
                "if the call is meant as {}, fix the method; otherwise silence this line with `# reqlint: ignore[unknown-endpoint]`",
                methods.join(" or ")
            )),
        );
    }
}

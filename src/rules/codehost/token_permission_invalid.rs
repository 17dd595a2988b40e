use std::collections::HashSet;

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Span};
use crate::model::TokenRef;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct TokenPermissionInvalid {
        name: "token-permission-invalid",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "a token written in place names an unknown permission, scope, level or key",
        what: "Checks a token written in a request file: every permission name must be one \
               of GitHub's reference \"Permissions required for fine-grained personal access tokens\"'s permissions at the scope it is listed under (its title such as \
               `Commit statuses`, in any case, with spaces, hyphens or underscores alike, or \
               the host's API slug such as `statuses`); a permission at the wrong scope is \
               reported with the scope it belongs to; levels are `read`, `write` and `admin` (each \
               covers the ones before it); a token's keys are owner, repositories and permissions. \
               Tokens named from .reqlint.yaml are checked when the config is read, and a \
               mistake there stops the run.",
        why: "A misspelt permission is a permission the token does not have: every request \
              that needs it would be refused with 403 while the file looks right.",
        source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), \"Endpoints\" (the three permission tables) and \"Permissions that \
                 exist without an endpoint row\"; reqlint's token format (docs/request-files.md)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("token-permission-invalid/bad.req.yaml"),
        good: example!("token-permission-invalid/good.req.yaml"),
    }
}

fn check_token(
    file: &FileContext<'_>,
    node: &Node,
    seen: &mut HashSet<Span>,
    out: &mut Vec<Diagnostic>,
) {
    if !seen.insert(node.span) {
        return;
    }
    // The token as the code-hosting rules read it once for the file, where a request
    // runs with this very node.
    let runs_with = file
        .model
        .requests
        .iter()
        .position(|r| matches!(r.token, Some(TokenRef::Inline(n)) if std::ptr::eq(n, node)));
    let token = crate::apis::codehost::token_at(file, runs_with, node);
    let errors = crate::apis::codehost::token_errors_of(&token, node);
    for (span, message, help) in errors {
        let mut d = Diagnostic::new(&META, span, message);
        if let Some(h) = help {
            d = d.with_help(h);
        }
        out.push(d);
    }
}

impl Rule for TokenPermissionInvalid {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let mut seen = HashSet::new();
        for doc in &file.model.documents {
            if let Some(node) = doc.root.get_value("token").filter(|n| n.as_map().is_some()) {
                check_token(file, node, &mut seen, out);
            }
        }
        for request in &file.model.requests {
            if let Some(TokenRef::Inline(node)) = request.token {
                check_token(file, node, &mut seen, out);
            }
        }
    }
}

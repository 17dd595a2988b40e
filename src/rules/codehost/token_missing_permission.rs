use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::Method;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use super::CodehostRequest;

use crate::catalog::codehost::{Access, CATALOG};

pub struct TokenMissingPermission;

static META: RuleMeta = RuleMeta {
    name: "token-missing-permission",
    group: Group::CodeHosting,
    severity: Severity::Error,
    summary: "the request's token lacks the permission its endpoint needs",
    what: "Checks each code-hosting request against its token (its own, the file's \
           `token:`, or one named under `tokens:` in the config): the permission that \
           GitHub's reference \"Permissions required for fine-grained personal access tokens\" lists for the endpoint must be granted, at `read` for GET and `write` \
           for PUT, POST, PATCH and DELETE; `write` covers `read`. The help is the line \
           to add to the token. `public: true` on a GET needs no permission; on any other \
           method it is reported here. A request without a token, or whose token or \
           endpoint is unknown, is left to other rules.",
    why: "The call would be refused (403) when it runs, in CI or in a bot, long after \
          the change was merged.",
    source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), \"Endpoints\" and \"Authentication\"; reqlint's token format (docs/request-files.md)",
    inspects: Inspects::CodehostRequests,
    bad: example!("token-missing-permission/bad.req.yaml"),
    good: example!("token-missing-permission/good.req.yaml"),
};

impl Rule for TokenMissingPermission {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_request(
        &self,
        file: &FileContext<'_>,
        r: &CodehostRequest<'_>,
        out: &mut Vec<Diagnostic>,
    ) {
        let (i, request, line) = (r.index, r.request, r.line);
        if let Some((true, span)) = request.public {
            if line.method != Method::Get {
                out.push(
                    Diagnostic::new(&META, span, format!("`public: true` applies to GET only, not {}", line.method))
                        .with_help("remove `public: true`; a request that changes something always needs a permission"),
                );
            } else {
                return;
            }
        }
        let Some(row) = super::rows(file, i)
            .iter()
            .find(|e| e.method == line.method)
        else {
            return;
        };
        let Some(token) = super::token(file, i) else {
            return;
        };
        let needed = row.access;
        let held = token.granted.get(&row.permission).copied();
        if held.is_some_and(|h| h >= needed) {
            return;
        }
        let permission = CATALOG.permission(row.permission);
        let has = match held {
            Some(Access::Read) => "only read".to_string(),
            _ => "none".to_string(),
        };
        let mut d = Diagnostic::new(
            &META,
            request.line_span,
            format!(
                "`{} {}` needs the {} permission `{}` at {needed}; {} has {has}",
                line.method,
                row.template,
                permission.scope,
                permission.title,
                token.describe()
            ),
        )
        .with_help(format!(
            "add this line under `permissions:` → `{}:` of {}:\n  {}: {needed}",
            permission.scope,
            token.describe(),
            permission.title
        ));
        if token.span != request.line_span && token.span.end <= file.text.len() {
            d = d.with_label(token.span, "token given here");
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::catalog::codehost::{Access, CATALOG, Segment};
    use crate::engine::{Settings, lint_bytes};
    use crate::loading::Limits;
    use crate::model::config::Config;
    use crate::model::context::ContextIndex;

    fn settings() -> Settings {
        Settings {
            config: Config::defaults(PathBuf::from(".")),
            context: ContextIndex::default(),
            limits: Limits::DEFAULT,
        }
    }

    fn coverage_errors(yaml: &str) -> Vec<String> {
        let result = lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            yaml.as_bytes().to_vec(),
            &settings(),
        );
        result
            .diagnostics
            .iter()
            .filter(|d| d.rule == "token-missing-permission")
            .map(|d| format!("{}: {}", d.rule, d.message))
            .collect()
    }

    fn file(scope: &str, name: &str, level: Option<&str>, method: &str, path: &str) -> String {
        let grant = match level {
            Some(level) => format!("    {scope}:\n      {name}: {level}\n"),
            None => "    user:\n      Starring: read\n".to_string(),
        };
        format!("token:\n  permissions:\n{grant}requests:\n  - {method} {path}\n")
    }

    /// Every endpoint row of seed 000: refused without its permission, refused at read
    /// when it needs write, allowed at its level and by write.
    #[test]
    fn every_endpoint_row_is_checked_at_its_level() {
        for e in CATALOG.endpoints {
            let path: String = e
                .segments
                .iter()
                .map(|s| match s {
                    Segment::Literal(l) => format!("/{l}"),
                    Segment::Placeholder(p) => format!("/sample-{p}"),
                })
                .collect();
            let p = CATALOG.permission(e.permission);
            let (scope, name, method) = (p.scope.as_str(), p.title, e.method.as_str());
            let missing = coverage_errors(&file(scope, name, None, method, &path));
            assert_eq!(
                missing.len(),
                1,
                "{method} {path} without {name}: {missing:?}"
            );
            assert!(missing[0].contains(name), "{missing:?}");
            let ok = coverage_errors(&file(scope, name, Some(e.access.as_str()), method, &path));
            assert!(ok.is_empty(), "{method} {path} with {name}: {ok:?}");
            let slug = crate::catalog::codehost::normalize(name);
            assert!(coverage_errors(&file(scope, &slug, Some("write"), method, &path)).is_empty());
            if e.access == Access::Write {
                let read = coverage_errors(&file(scope, name, Some("read"), method, &path));
                assert_eq!(read.len(), 1, "{method} {path} with read: {read:?}");
                assert!(read[0].contains("only read"));
            }
        }
    }

    #[test]
    fn public_get_needs_no_permission() {
        let yaml = "token:\n  permissions: {}\nrequests:\n  - request: GET /orgs/acme/campaigns\n    public: true\n";
        assert!(coverage_errors(yaml).is_empty());
        let yaml = "token:\n  permissions: {}\nrequests:\n  - request: DELETE /gists/1\n    public: true\n";
        let errors = coverage_errors(yaml);
        assert!(errors.iter().any(|e| e.contains("GET only")), "{errors:?}");
    }

    #[test]
    fn named_token_from_the_config() {
        let mut s = settings();
        s.config = Config::parse(
            b"tokens:\n  ci-bot:\n    owner: acme\n    permissions:\n      repository: {statuses: write}\n".to_vec(),
            Path::new(".reqlint.yaml"),
            PathBuf::from("."),
            &crate::rules::names(),
        )
        .unwrap();
        let yaml = "token: ci-bot\nrequests:\n  - POST /repos/acme/web/statuses/abc\n  - GET /user/emails\n";
        let r = lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            yaml.as_bytes().to_vec(),
            &s,
        );
        let rules: Vec<&str> = r.diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, vec!["token-missing-permission"]);
        assert!(r.diagnostics[0].message.contains("token `ci-bot`"));
        assert!(
            r.diagnostics[0]
                .help
                .as_deref()
                .unwrap()
                .contains("Email addresses: read")
        );
    }
}

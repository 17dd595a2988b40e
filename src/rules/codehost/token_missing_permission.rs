use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::loading::Span;
use crate::model::Method;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::catalog::codehost::{Access, CATALOG, Endpoint};

use crate::apis::codehost::Coverage;

crate::declare_rule! {
    pub struct TokenMissingPermission {
        name: "token-missing-permission",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "the request's token lacks the permission its endpoint needs",
        what: "Checks each code-hosting request against its token (its own, the file's \
               `token:`, or one named under `tokens:` in the config): the permission that \
               GitHub's reference \"Permissions required for fine-grained personal access tokens\" lists for the endpoint must be granted, at `read` for GET and `write` \
               for PUT, POST, PATCH and DELETE; `write` covers `read`. The help says what to \
               write, as the fix does: the held level raised, a line added to the scope, or \
               the scope added with its line. `public: true` on a GET needs no permission; on any other \
               method it is reported here. A request without a token, or whose token or \
               endpoint is unknown, is left to other rules. A path whose params hold \
               slashes (`contents/src/lib.rs`, `git/refs/heads/feature/x`) is the operation \
               the host's REST description routes it to. A request to an enterprise edition \
               (GitHub Enterprise Cloud, an Enterprise Server release; docs/codehost.md, \
               \"Editions\") is judged with that edition's table, which the host publishes \
               for API version 2022-11-28; for 2026-03-10, with GitHub.com's.",
        why: "The call would be refused (403) when it runs, in CI or in a bot, long after \
              the change was merged.",
        source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), \"Endpoints\" and \"Authentication\"; reqlint's token format (docs/request-files.md)",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "the permission is given to the token where it is written (in the request file, or in `.reqlint.yaml` for a named token), at the level needed: its level raised, or a line after the last permission of that scope (or the scope too, after the last scope) in a YAML block mapping; not where a YAML alias shares the token's permissions with another token",
        }],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("token-missing-permission/bad.req.yaml"),
        good: example!("token-missing-permission/good.req.yaml"),
    }
}

/// The permission an endpoint needs, added to the token where it is written (`text`: the
/// request file's, or the config's with its path as `other`): its level raised where the
/// token holds it lower, else a line after the last permission of that scope, indented
/// as it is (a token in a block mapping only: `line_edits`, see
/// [`crate::model::edits::takes_line_edits`]). `once`: whether a span of `text` is
/// written once (no YAML alias shares it: an edit there would change other tokens too).
fn add_permission(
    text: &str,
    line_edits: bool,
    other: Option<&std::path::Path>,
    token: &crate::apis::codehost::ResolvedToken,
    row: &Endpoint,
    once: &dyn Fn(Span) -> bool,
) -> Option<crate::diagnostic::Fix> {
    use crate::diagnostic::{Applicability, Fix};
    let permission = CATALOG.permission(row.permission);
    let level = row.access.to_string();
    let scope = permission.scope.to_string();
    // Grants of the scope as the API names it (`Repository:` is no scope: a line added
    // under it would not give the permission).
    let same_scope: Vec<&crate::model::token::Grant> = token
        .token
        .grants
        .iter()
        .filter(|g| crate::catalog::codehost::Scope::parse(&g.scope) == Some(permission.scope))
        .collect();
    let held = same_scope
        .iter()
        .find(|g| CATALOG.lookup(permission.scope, &g.name).ok() == Some(row.permission));
    if let Some(g) = held {
        if !once(g.level_span) || !once(g.name_span) || !token.token.written_in_scope(g) {
            return None;
        }
        return crate::model::edits::rename(
            text,
            g.level_span,
            g.level.trim(),
            &level,
            Applicability::Safe,
        )
        .map(|mut f| {
            f.message = format!("raise `{}` to {level}", g.name);
            // The edit is of the text the token is written in: the config's for a
            // named token.
            for e in &mut f.edits {
                e.file = other.map(Into::into);
            }
            f
        });
    }
    // Lines go into block mappings only: inside `{...}` a line would break the flow.
    let flow = |span: Span| text.get(span.range()).is_some_and(|t| t.starts_with('{'));
    if !line_edits || token.token.permissions_span.is_some_and(flow) {
        return None;
    }
    let value_of_scope = |key_span: Span| {
        token
            .token
            .scopes
            .iter()
            .find(|(_, k, _)| *k == key_span)
            .map(|(_, _, value)| *value)
    };
    let indent_of = |at: usize| {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &text[line_start..at];
        indent.chars().all(|c| c == ' ').then_some(indent)
    };
    // The token holds nothing of that scope yet: the scope and the permission, after the
    // last permission of the last scope, indented as those are.
    let (last, new_scope) = match same_scope.iter().max_by_key(|g| g.level_span.end) {
        Some(last) => (*last, None),
        None => {
            // Only where the scope is not written at all (not even as something else, or
            // in another case): a second key would be a duplicate.
            if token
                .token
                .scopes
                .iter()
                .any(|(key, _, _)| key.eq_ignore_ascii_case(&scope))
            {
                return None;
            }
            let last = token.token.grants.iter().max_by_key(|g| g.level_span.end)?;
            let scope_indent = indent_of(last.scope_span.start)?;
            if indent_of(last.name_span.start)?.len() <= scope_indent.len() {
                return None;
            }
            (last, Some(scope_indent))
        }
    };
    if value_of_scope(last.scope_span).is_none_or(flow)
        || !token.token.written_in_scope(last)
        || !once(last.name_span)
        || !once(last.level_span)
        || !once(last.scope_span)
    {
        return None;
    }
    let indent = indent_of(last.name_span.start)?;
    let line_end = text[last.level_span.end..]
        .find('\n')
        .map_or(text.len(), |i| last.level_span.end + i);
    // Nothing but an end-of-line comment after the value.
    let rest = &text[last.level_span.end..line_end];
    if !rest.trim().is_empty() && !rest.trim_start().starts_with('#') {
        return None;
    }
    // A line of its own after that line, its comment (a suppression among them) staying
    // where it is.
    let line = match new_scope {
        None => format!("{indent}{}: {level}", permission.title),
        Some(scope_indent) => format!(
            "{scope_indent}{scope}:{}{indent}{}: {level}",
            crate::model::edits::line_break(text, last.level_span.end),
            permission.title
        ),
    };
    let mut edit = crate::model::edits::insert_line_after(text, last.level_span.end, &line);
    edit.file = other.map(Into::into);
    let message = match new_scope {
        None => format!("add `{}: {level}` to the token", permission.title),
        Some(_) => format!(
            "add `{scope}:` with `{}: {level}` to the token",
            permission.title
        ),
    };
    Some(Fix::safe(message, vec![edit]))
}

impl Rule for TokenMissingPermission {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let r = &crate::apis::codehost::request(file, routed);
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
        let alternatives = crate::apis::codehost::request_alternatives(file, i);
        let Some(&first) = alternatives.first() else {
            return;
        };
        let Some(token) = crate::apis::codehost::token(file, i) else {
            return;
        };
        let label = |mut d: Diagnostic| {
            if token.span != request.line_span && token.span.end <= file.text.len() {
                d = d.with_label(token.span, "token given here");
            }
            d
        };
        let describe = |row: &Endpoint| {
            let p = CATALOG.permission(row.permission);
            format!("the {} permission `{}` at {}", p.scope, p.title, row.access)
        };
        match crate::apis::codehost::coverage(alternatives, token) {
            Coverage::Covered(_) | Coverage::CoveredByAll(_) => {}
            Coverage::Flagged(row) => {
                let docs = row
                    .docs_url()
                    .map(|url| format!(" ({url})"))
                    .unwrap_or_default();
                out.push(label(
                    Diagnostic::new(
                        &META,
                        request.line_span,
                        format!(
                            "`{} {}` may need more than {}: the host marks it as needing additional permissions without saying which",
                            line.method,
                            row.template,
                            describe(row)
                        ),
                    )
                    .with_severity(Severity::Warning)
                    .with_help(flagged_help(alternatives, token, &docs)),
                ));
            }
            Coverage::Missing => {
                let held = alternatives
                    .iter()
                    .find_map(|a| Some((a, *token.granted.get(&a.permission)?)));
                let has = match held {
                    Some((_, level)) if alternatives.len() == 1 => format!("only {level}"),
                    Some((a, level)) => format!(
                        "`{}` at {level} only",
                        CATALOG.permission(a.permission).title
                    ),
                    None => "none".to_string(),
                };
                let needs = if alternatives.len() == 1 {
                    describe(first)
                } else {
                    let all: Vec<String> = alternatives.iter().map(|r| describe(r)).collect();
                    format!("one of {}", all.join(", "))
                };
                // Where the token holds one of the alternatives lower, that one is raised
                // (one permission, not a second one beside it).
                let target = held.map_or(first, |(row, _)| *row);
                // A token named from the config is fixed in the config.
                let fix = match (token.name.as_deref(), &file.config.path) {
                    (Some(_), Some(config)) => add_permission(
                        &file.config.text,
                        true,
                        Some(config),
                        token,
                        target,
                        &|span| crate::model::edits::written_once_in_config(file.config, span),
                    ),
                    (Some(_), None) => None,
                    (None, _) => add_permission(
                        file.text,
                        crate::model::edits::takes_line_edits(file.path),
                        None,
                        token,
                        target,
                        &|span| crate::apis::codehost::token_written_once(file, span),
                    ),
                };
                out.push(label(
                    Diagnostic::new(
                        &META,
                        request.line_span,
                        format!(
                            "`{} {}` needs {needs}; {} has {has}",
                            line.method,
                            first.template,
                            token.describe()
                        ),
                    )
                    .with_help(permission_help(token, target, held.map(|(_, level)| level)))
                    .with_fix_opt(fix),
                ));
            }
        }
    }
}

/// How to clear "may need more": where the host lists the endpoint under several
/// permissions, hold every one (the lines the token lacks); where it lists one, read the
/// endpoint's page and silence the line.
fn flagged_help(
    alternatives: &[&'static Endpoint],
    token: &crate::apis::codehost::ResolvedToken,
    docs: &str,
) -> String {
    let flagged: Vec<&Endpoint> = alternatives.iter().copied().filter(|r| r.flagged).collect();
    if flagged.len() < 2 {
        return format!(
            "check the endpoint's documentation{docs} for the other permissions it needs, then silence this line with `# reqlint: ignore[token-missing-permission]`"
        );
    }
    let lacking: Vec<String> = flagged
        .iter()
        .filter(|r| !token.holds(r))
        .map(|r| {
            let p = CATALOG.permission(r.permission);
            format!("\n  {}: {}: {}", p.scope, p.title, r.access)
        })
        .collect();
    let listed: Vec<String> = flagged
        .iter()
        .map(|r| {
            let p = CATALOG.permission(r.permission);
            format!("`{}` ({} {})", p.title, p.scope, r.access)
        })
        .collect();
    format!(
        "the host lists it under {}; a token that holds every one of them is covered. {} lacks:{}",
        listed.join(", "),
        token.describe(),
        lacking.concat()
    )
}

/// What to write so that the token holds `target`, in the words of what the fix does:
/// the held level raised on its own line, a line added under the scope, or the scope
/// added with the line where the token has none of it.
fn permission_help(
    token: &crate::apis::codehost::ResolvedToken,
    target: &Endpoint,
    held: Option<Access>,
) -> String {
    let permission = CATALOG.permission(target.permission);
    let owner = token.describe();
    if let Some(level) = held {
        return format!(
            "raise the level of this line under `permissions:` → `{}:` of {owner}:\n  {}: {level}  →  {}: {}",
            permission.scope, permission.title, permission.title, target.access
        );
    }
    let has_scope =
        token
            .token
            .grants
            .iter()
            .any(|g| crate::catalog::codehost::Scope::parse(&g.scope) == Some(permission.scope))
            || token.token.scopes.iter().any(|(s, _, _)| {
                crate::catalog::codehost::Scope::parse(s) == Some(permission.scope)
            });
    if has_scope {
        format!(
            "add this line under `permissions:` → `{}:` of {owner}:\n  {}: {}",
            permission.scope, permission.title, target.access
        )
    } else {
        format!(
            "add these lines under `permissions:` of {owner}:\n  {}:\n    {}: {}",
            permission.scope, permission.title, target.access
        )
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::catalog::codehost::{Access, ApiVersion, CATALOG, Scope, Segment, VERSIONS};
    use crate::diagnostic::Severity;
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
        findings(yaml).into_iter().map(|(_, m)| m).collect()
    }

    /// `(severity, "rule: message")` of token-missing-permission on a request file.
    fn findings(yaml: &str) -> Vec<(Severity, String)> {
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
            .map(|d| (d.severity, format!("{}: {}", d.rule, d.message)))
            .collect()
    }

    /// A variable stands for a placeholder's value where the path has one there
    /// (`/user/codespaces/{{codespace}}` is a codespace, not `/user/codespaces/secrets`);
    /// where none fits, a path whose unknown variables may make it one of several
    /// endpoints needs what reqlint cannot tell (`DELETE /repos/acme/web/{{section}}`), and
    /// is judged only where those that take the method need the same.
    #[test]
    fn variables_whose_values_are_not_known() {
        let yaml = "token:\n  permissions:\n    repository: {Issues: read}\nrequests:\n  - DELETE /user/{{what}}\n  - DELETE /repos/acme/web/{{section}}\n  - GET /user/codespaces/{{codespace}}\n  - PATCH /repos/{{owner}}/{{repo}}/issues/{{number}}\n";
        let found = coverage_errors(yaml);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].contains("`GET /user/codespaces/{codespace_name}`"),
            "{found:?}"
        );
        assert!(
            found[1].contains("`PATCH /repos/{owner}/{repo}/issues/{issue_number}`"),
            "{found:?}"
        );
    }

    /// The help of the one token-missing-permission finding of a file, and the file as
    /// its fix leaves it.
    fn help_and_fixed(yaml: &str) -> (String, String) {
        let result = lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            yaml.as_bytes().to_vec(),
            &settings(),
        );
        let found: Vec<_> = result
            .diagnostics
            .iter()
            .filter(|d| d.rule == "token-missing-permission")
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        let fix = found[0].fix.as_ref().expect("a fix");
        let mut fixed = yaml.to_string();
        let mut edits = fix.edits.clone();
        edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        for e in edits {
            fixed.replace_range(e.span.start..e.span.end, &e.replacement);
        }
        (found[0].help.clone().unwrap(), fixed)
    }

    /// An endpoint the host flags and lists under two permissions: one of them is "may
    /// need more", both are covered.
    #[test]
    fn holding_every_permission_a_flagged_endpoint_lists_covers_it() {
        let request = "requests:\n  - PATCH /repos/acme/web/issues/7\n";
        let one = findings(&format!(
            "token:\n  permissions:\n    repository:\n      Issues: write\n{request}"
        ));
        assert_eq!(one.len(), 1, "{one:?}");
        assert_eq!(one[0].0, Severity::Warning);
        let (help, _) = {
            let result = lint_bytes(
                "t.req.yaml",
                Path::new("t.req.yaml"),
                format!("token:\n  permissions:\n    repository:\n      Issues: write\n{request}")
                    .into_bytes(),
                &settings(),
            );
            let d = result
                .diagnostics
                .into_iter()
                .find(|d| d.rule == "token-missing-permission")
                .unwrap();
            (d.help.unwrap(), ())
        };
        assert!(
            help.contains("holds every one of them is covered"),
            "{help}"
        );
        assert!(
            help.ends_with("lacks:\n  repository: Pull requests: write"),
            "{help}"
        );
        let both = findings(&format!(
            "token:\n  permissions:\n    repository:\n      Issues: write\n      Pull requests: write\n{request}"
        ));
        assert!(both.is_empty(), "{both:?}");
        // And neither of the two is unused.
        let result = lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            format!(
                "token:\n  permissions:\n    repository:\n      Issues: write\n      Pull requests: write\n{request}"
            )
            .into_bytes(),
            &settings(),
        );
        assert!(result.diagnostics.is_empty(), "{:?}", result.diagnostics);
    }

    /// The help says what the fix does: raise a held level, add a line to the scope, or
    /// add the scope with its line.
    #[test]
    fn help_and_fix_say_the_same() {
        let request = "requests:\n  - POST /repos/acme/web/statuses/3f2a9c1\n";
        let (help, fixed) = help_and_fixed(&format!(
            "token:\n  permissions:\n    repository:\n      Commit statuses: read\n{request}"
        ));
        assert!(help.starts_with("raise the level of this line"), "{help}");
        assert!(
            help.contains("Commit statuses: read  →  Commit statuses: write"),
            "{help}"
        );
        assert!(fixed.contains("      Commit statuses: write\n"), "{fixed}");
        assert!(!fixed.contains("Commit statuses: read"), "{fixed}");

        let (help, fixed) = help_and_fixed(&format!(
            "token:\n  permissions:\n    repository:\n      Contents: read\n{request}"
        ));
        assert!(
            help.starts_with("add this line under `permissions:` → `repository:`"),
            "{help}"
        );
        assert!(help.ends_with("\n  Commit statuses: write"), "{help}");
        assert!(
            fixed.contains("      Contents: read\n      Commit statuses: write\n"),
            "{fixed}"
        );

        let (help, fixed) = help_and_fixed(&format!(
            "token:\n  permissions:\n    user:\n      Email addresses: read\n{request}"
        ));
        assert!(
            help.starts_with("add these lines under `permissions:`"),
            "{help}"
        );
        assert!(
            help.ends_with("\n  repository:\n    Commit statuses: write"),
            "{help}"
        );
        assert!(
            fixed.contains("    repository:\n      Commit statuses: write\n"),
            "{fixed}"
        );
    }

    fn file(version: &str, grant: &str, method: &str, path: &str) -> String {
        format!(
            "api-version: '{version}'\ntoken:\n  permissions:\n{grant}requests:\n  - {method} {path}\n"
        )
    }

    fn grant(scope: &str, name: &str, level: &str) -> String {
        format!("    {scope}:\n      \"{name}\": {level}\n")
    }

    /// Generated from the catalog: every row of every API version (the host's and the
    /// reference document's). A path filled from the row's template finds the template;
    /// a token without any of the endpoint's permissions is refused; the row's
    /// permission at its level, by title and by key, covers it (with a warning where the
    /// host flags the endpoint); one level below is refused unless another row of the
    /// same permission asks for less.
    #[test]
    fn every_endpoint_row_is_checked_at_its_level() {
        let mut checked = 0;
        for e in CATALOG.endpoints {
            let sample: Vec<String> = e
                .segments
                .iter()
                .map(|s| match s {
                    Segment::Literal(l) => l.to_string(),
                    Segment::Placeholder(p) => format!("sample-{p}"),
                })
                .collect();
            let path = format!("/{}", sample.join("/"));
            let p = CATALOG.permission(e.permission);
            let (scope, method) = (p.scope.as_str(), e.method.as_str());
            for (k, version) in VERSIONS.iter().enumerate() {
                let v = ApiVersion(k as u8);
                if !e.in_version(v) {
                    continue;
                }
                checked += 1;
                let segments: Vec<&str> = sample.iter().map(String::as_str).collect();
                let matched = CATALOG.match_path(&segments, v);
                assert!(
                    matched.iter().any(|m| std::ptr::eq(*m, e)),
                    "{method} {path} ({version}) does not find {}",
                    e.template
                );
                let alternatives: Vec<_> =
                    matched.iter().filter(|m| m.method == e.method).collect();
                // A token with a permission that is none of the endpoint's.
                let other = ["Starring", "Followers", "Gists"]
                    .into_iter()
                    .find(|name| {
                        let id = CATALOG.lookup(Scope::User, name).unwrap();
                        alternatives.iter().all(|a| a.permission != id)
                    })
                    .unwrap();
                let missing = findings(&file(
                    version,
                    &grant("user", other, "write"),
                    method,
                    &path,
                ));
                assert!(
                    missing.len() == 1 && missing[0].0 == Severity::Error,
                    "{method} {path} ({version}) without its permission: {missing:?}"
                );
                let expected = |held: &str| {
                    let covering: Vec<_> = alternatives
                        .iter()
                        .filter(|a| {
                            a.permission == e.permission && Access::parse(held).unwrap() >= a.access
                        })
                        .collect();
                    if covering.is_empty() {
                        Some(Severity::Error)
                    } else if covering.iter().all(|a| a.flagged) {
                        Some(Severity::Warning)
                    } else {
                        None
                    }
                };
                for name in [p.title.as_str(), p.key.as_str()]
                    .into_iter()
                    .filter(|n| !n.is_empty())
                {
                    let got = findings(&file(
                        version,
                        &grant(scope, name, e.access.as_str()),
                        method,
                        &path,
                    ));
                    assert_eq!(
                        got.first().map(|(s, _)| *s),
                        expected(e.access.as_str()),
                        "{method} {path} ({version}) with {name}: {got:?}"
                    );
                }
                let below = match e.access {
                    Access::Admin => Some("write"),
                    Access::Write => Some("read"),
                    Access::Read => None,
                };
                if let Some(below) = below {
                    let got = findings(&file(
                        version,
                        &grant(scope, &p.title, below),
                        method,
                        &path,
                    ));
                    assert_eq!(
                        got.first().map(|(s, _)| *s),
                        expected(below),
                        "{method} {path} ({version}) with {} at {below}: {got:?}",
                        p.title
                    );
                }
            }
        }
        assert!(checked > 1_800, "{checked} rows");
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
            &crate::apis::config_sections(),
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

    /// GitHub lists two organization permissions: "Custom properties" (the repositories'
    /// property schema and values) and "Custom properties for organizations" (the
    /// organization's own values). One does not cover the other's endpoints.
    #[test]
    fn the_two_custom_properties_permissions_are_kept_apart() {
        let request = "requests:\n  - PATCH /organizations/acme/org-properties/values\n  - PATCH /orgs/acme/properties/values\n";
        let repositories_only = coverage_errors(&format!(
            "token:\n  permissions:\n    organization:\n      Custom properties: write\n{request}"
        ));
        assert_eq!(repositories_only.len(), 1, "{repositories_only:?}");
        assert!(
            repositories_only[0].contains("Custom properties for organizations"),
            "{repositories_only:?}"
        );
        let organizations_only = coverage_errors(&format!(
            "token:\n  permissions:\n    organization:\n      Custom properties for organizations: write\n{request}"
        ));
        assert_eq!(organizations_only.len(), 1, "{organizations_only:?}");
        assert!(
            organizations_only[0].contains("/orgs/{org}/properties/values"),
            "{organizations_only:?}"
        );
        let both = coverage_errors(&format!(
            "token:\n  permissions:\n    organization:\n      Custom properties: write\n      Custom properties for organizations: write\n{request}"
        ));
        assert!(both.is_empty(), "{both:?}");
    }
}

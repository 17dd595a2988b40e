use crate::catalog::codehost::{ApiVersion, CATALOG, Segment};
use crate::catalog::codehost_operations::Edition;
use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::Method;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct UnknownEndpoint {
        name: "unknown-endpoint",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Warning,
        summary: "a code-hosting path or method that no permission table row lists",
        what: "Matches a code-hosting request's path against the templates of GitHub's reference \"Permissions required for fine-grained personal access tokens\"'s \
               endpoint tables (literal segments win over placeholders; the query string is \
               ignored). A path that no row matches, or a method that the matching path's \
               rows do not list, is reported with the methods the path has. \
               A path whose variables with unknown values may make it one of several \
               endpoints (`/user/{{what}}`), or that is only such variables, is not judged, \
               nor is `GET /`, the API root, which needs no permission, nor an operation \
               of the host's REST description (its OpenAPI description, any edition) that \
               the tables do not list (`GET /user`, `/search/repositories`: many need no \
               permission).",
        why: "Permission coverage cannot be checked for an endpoint reqlint does not know; \
              a wrong method usually means a wrong call (the API answers 404).",
        source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), \"Endpoints\"; GitHub's REST API OpenAPI description (https://github.com/github/rest-api-description), as the npm package @octokit/openapi carries it",
        fixes: &[],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("unknown-endpoint/bad.req.yaml"),
        good: example!("unknown-endpoint/good.req.yaml"),
    }
}

impl Rule for UnknownEndpoint {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let r = &crate::apis::codehost::request(file, routed);
        let (i, line) = (r.index, r.line);
        let rows = crate::apis::codehost::rows(file, i);
        let version = crate::apis::codehost::api_version(r.request, file.config);
        // A path made of variables whose values are not known (`{{base}}/{{path}}`), or
        // whose variables may make it one of several endpoints (`/user/{{what}}`), says
        // nothing reqlint can judge.
        if crate::apis::codehost::one_of_several(file, i) {
            return;
        }
        // `GET /`, the API root (https://docs.github.com/en/rest/meta/meta#github-api-root),
        // needs no permission: the tables have no row for it, and it is no mistake.
        if line.method == crate::model::Method::Get
            && crate::apis::codehost::path_segments(line).is_empty()
        {
            return;
        }
        // An operation of the host's REST description is no unknown endpoint, even where
        // the permission tables have no row for it (many need no permission). Where the
        // request's host is written out, its edition must have it.
        if (rows.is_empty() || !rows.iter().any(|e| e.method == line.method))
            && crate::apis::codehost::described_operation(line)
        {
            if let Some(edition) = crate::apis::codehost::edition_of_written_host(line, file.config)
                && !crate::apis::codehost::described_in(line, edition)
            {
                let elsewhere: Vec<String> = Edition::all()
                    .filter(|e| crate::apis::codehost::described_in(line, *e))
                    .map(Edition::title)
                    .collect();
                out.push(
                    Diagnostic::new(
                        &META,
                        line.path_span,
                        format!(
                            "{}'s REST API has no `{} {}`: it is an operation of {}",
                            edition.title(),
                            line.method,
                            shown_path(file, line),
                            elsewhere.join(", ")
                        ),
                    )
                    .with_help(
                        "if the host is another edition, name it under `codehost: editions:` in .reqlint.yaml (docs/codehost.md, \"Editions\")",
                    ),
                );
            }
            return;
        }
        if rows.is_empty() {
            let searched = crate::apis::codehost::suggestions_made(file);
            let closest = (searched < MAX_SUGGESTIONS)
                .then(|| {
                    closest_template(
                        &crate::apis::codehost::path_segments(line),
                        line.method,
                        version,
                    )
                })
                .flatten();
            let help = match closest {
                Some((method, template)) => format!(
                    "did you mean `{method} {template}`? Otherwise check the path against GitHub's reference \"Permissions required for fine-grained personal access tokens\", or silence this line with `# reqlint: ignore[unknown-endpoint]`"
                ),
                None => "check the path against GitHub's reference \"Permissions required for fine-grained personal access tokens\", or silence this rule for the line with `# reqlint: ignore[unknown-endpoint]`".to_string(),
            };
            // The host lists every endpoint that works with fine-grained tokens; one that
            // is in no table cannot be called with the token the request gives.
            let message = if r.request.token.is_some() {
                format!(
                    "no permission table row matches `{}` in API version {}, nor does the host's list of endpoints that work with fine-grained tokens: the request's token cannot call it as far as reqlint knows, and its coverage cannot be checked",
                    shown_path(file, line),
                    version.as_str()
                )
            } else {
                format!(
                    "no permission table row matches `{}` in API version {}; its coverage cannot be checked",
                    shown_path(file, line),
                    version.as_str()
                )
            };
            out.push(Diagnostic::new(&META, line.path_span, message).with_help(help));
            return;
        }
        if rows.iter().any(|e| e.method == line.method) {
            return;
        }
        let methods: Vec<&str> = Method::ALL
            .iter()
            .filter(|m| rows.iter().any(|e| e.method == **m))
            .map(|m| m.as_str())
            .collect();
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

/// The path as a message shows it. A workflow's call shows its route as the workflow
/// writes it (`repos/{owner}/{repo}/…`, `repos/$GITHUB_REPOSITORY/…`): the request the
/// reader made of it writes the repository as reqlint's own `{{owner}}`/`{{repo}}`
/// variables, which the workflow never wrote. A request file's path is as its writer
/// wrote it, variables included.
fn shown_path<'t>(file: &FileContext<'t>, line: &'t crate::model::RequestLine) -> &'t str {
    if file.model.workflow.is_none() {
        return &line.path;
    }
    file.text
        .get(line.path_span.range())
        .filter(|written| !written.is_empty())
        .unwrap_or(&line.path)
}

/// Did-you-mean searches per file; the unknown paths after these get the plain help.
const MAX_SUGGESTIONS: usize = 200;

/// The template closest to a concrete path that matches none, in an API version: each
/// template's placeholders are filled with the path's segments at their places, and the
/// texts compared; a template of the same method wins a tie. `None` below a close match.
fn closest_template(
    segments: &[&str],
    method: Method,
    version: ApiVersion,
) -> Option<(Method, &'static str)> {
    let path = format!("/{}", segments.join("/"));
    let mut best: Option<(f64, Method, &'static str)> = None;
    // Only templates that start like the path and have about as many segments: a typo
    // keeps both, and the search stays small.
    let first = segments.first().copied().unwrap_or_default();
    let candidates = CATALOG.endpoints.iter().filter(|e| {
        e.in_version(version)
            && e.segments.len().abs_diff(segments.len()) <= 1
            && matches!(e.segments.first(), Some(Segment::Literal(l))
                if *l == first || crate::suggest::similarity(l, first) >= 0.8)
    });
    for e in candidates {
        let filled: String = e
            .segments
            .iter()
            .enumerate()
            .map(|(k, s)| match s {
                Segment::Literal(l) => format!("/{l}"),
                Segment::Placeholder(p) => match segments.get(k) {
                    Some(given) => format!("/{given}"),
                    None => format!("/{{{p}}}"),
                },
            })
            .collect();
        let mut score = crate::suggest::similarity(&path, &filled);
        if e.method == method {
            score += 0.001;
        }
        if best.is_none_or(|(b, _, _)| score > b) {
            best = Some((score, e.method, e.template.as_str()));
        }
    }
    best.filter(|(score, _, _)| *score >= 0.9)
        .map(|(_, method, template)| (method, template))
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    /// A path whose variables may make it one of several endpoints says nothing reqlint
    /// can judge; one that no text of its variables makes an endpoint is reported.
    #[test]
    fn variables_whose_values_are_not_known() {
        let yaml = "requests:\n  - GET /user/{{what}}\n  - GET /repos/acme/web/{{section}}\n  - GET /repos/{{owner}}/{{repo}}/issues\n  - GET /repoz/{{owner}}/web\n  - GET /repos/{{owner}}/{{repo}}/isues\n";
        assert_eq!(
            spans("unknown-endpoint", "", yaml),
            ["/repoz/{{owner}}/web", "/repos/{{owner}}/{{repo}}/isues"]
        );
    }
}

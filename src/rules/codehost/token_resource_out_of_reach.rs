use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct TokenResourceOutOfReach {
        name: "token-resource-out-of-reach",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "the request reaches an owner or repository its token was not made for",
        what: "A token with `owner` reaches only that owner's resources: a path \
               `/repos/{owner}/…`, `/orgs/{org}/…` or `/organizations/{org}/…` (at the start of \
               the path or further in, as `/users/{username}/events/orgs/{org}`) naming another \
               owner is reported (owners compare without regard to case). A token with \
               `repositories` reaches only those repositories of its owner: \
               `/repos/{owner}/{repo}/…` naming another is reported. \
               A segment that holds a variable whose value is not known (`{{owner}}`, \
               `{{org}}-mirror`) may name any owner or repository and is not judged; one \
               whose value is known is judged on its value, at the variable.",
        why: "A fine-grained token is made for one resource owner and, optionally, a \
              selection of its repositories; any other is refused whatever its permissions.",
        source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), overview (a permission defines which resources \
                 the token may reach); reqlint's token format (docs/request-files.md): `owner`, `repositories`",
        fixes: &[],
        inspects: Inspects::Requests(&crate::apis::codehost::EVERY_REQUEST),
        bad: example!("token-resource-out-of-reach/bad.req.yaml"),
        good: example!("token-resource-out-of-reach/good.req.yaml"),
    }
}

impl Rule for TokenResourceOutOfReach {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let r = &crate::apis::codehost::request(file, routed);
        let (i, line) = (r.index, r.line);
        // The owner is named after `repos`, `orgs` or `organizations`, at the start of
        // the path or further in (`/users/{username}/events/orgs/{org}`).
        let segments = line.segments.as_slice();
        let Some(at) = segments
            .iter()
            .position(|s| matches!(s.text.as_str(), "repos" | "orgs" | "organizations"))
        else {
            return;
        };
        let [first, second, rest @ ..] = &segments[at..] else {
            return;
        };
        let Some(token) = crate::apis::codehost::token(file, i) else {
            return;
        };
        // A segment that holds a variable whose value is not known may name any owner or
        // repository: it is not judged. A known value is judged, at the reference.
        if let Some((owner, _)) = &token.token.owner
            && !second.holds_unknown_variable()
            && !second.text.eq_ignore_ascii_case(owner)
        {
            out.push(
                Diagnostic::new(
                    &META,
                    second.span,
                    format!(
                        "{} was made for `{owner}` and cannot reach `{}`",
                        token.describe(),
                        second.text
                    ),
                )
                .with_help(format!(
                    "use a token made for `{}`, or change the path",
                    second.text
                )),
            );
            return;
        }
        if first.text != "repos" {
            return;
        }
        let (Some(repos), Some(repo)) = (&token.token.repositories, rest.first()) else {
            return;
        };
        if repo.holds_unknown_variable() {
            return;
        }
        if !repos
            .iter()
            .any(|(r, _)| r.eq_ignore_ascii_case(&repo.text))
        {
            let list: Vec<&str> = repos.iter().map(|(r, _)| r.as_str()).collect();
            out.push(
                Diagnostic::new(
                    &META,
                    repo.span,
                    format!(
                        "{} reaches only {}, not `{}`",
                        token.describe(),
                        list.join(", "),
                        repo.text
                    ),
                )
                .with_help(format!("add `{}` to the token's `repositories`", repo.text)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{found, spans};

    const RULE: &str = "token-resource-out-of-reach";

    fn file(variables: &str, requests: &str) -> String {
        format!(
            "x-variables: {{{variables}}}\ntoken:\n  owner: octo-org\n  repositories: [web]\n  permissions:\n    repository: {{Issues: read}}\nrequests:\n{requests}"
        )
    }

    /// A segment that holds a variable whose value is not known, whole or in part, may
    /// name any owner or repository: not judged.
    #[test]
    fn an_unknown_variable_is_not_judged() {
        let yaml = file(
            "",
            "  - GET /repos/{{owner}}/{{repo}}/issues\n  - GET /repos/{{org}}-mirror/web/issues\n  - GET /repos/octo-org/{{repo}}-next/issues\n  - GET /orgs/{{org}}/repos\n  - GET /repos/{{owner}}/infra/issues\n",
        );
        // The repository written out is judged, whoever the owner is.
        assert_eq!(spans(RULE, "", &yaml), ["infra"]);
    }

    /// A variable whose value the file gives is judged on its value, at the reference.
    #[test]
    fn a_known_variable_is_judged_on_its_value() {
        let yaml = file(
            "owner: globex, org: acme, repo: infra, same: octo-org",
            "  - GET /repos/{{owner}}/web/issues\n  - GET /repos/{{org}}-mirror/web/issues\n  - GET /repos/octo-org/{{repo}}/issues\n  - GET /repos/{{same}}/web/issues\n",
        );
        let found = found(RULE, "", &yaml);
        let got: Vec<(&str, &str)> = found
            .iter()
            .map(|f| (f.at.as_str(), f.message.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "{{owner}}",
                    "the request's token was made for `octo-org` and cannot reach `globex`"
                ),
                (
                    "{{org}}-mirror",
                    "the request's token was made for `octo-org` and cannot reach `acme-mirror`"
                ),
                (
                    "{{repo}}",
                    "the request's token reaches only web, not `infra`"
                ),
            ]
        );
    }
}

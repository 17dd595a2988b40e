use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Span;
use crate::model::file::FileContext;
use crate::model::secrets::{self, Found, TokenMatch};
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct LiteralSecret {
        name: "literal-secret",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "a credential is written in the request file",
        what: "Reports a literal credential in a credential position: an `access_token`, \
               `client_secret` or `password` param, an `Authorization`, `Proxy-Authorization` or \
               `X-Api-Key`-like header (in params, in the query string, anywhere in the file, a \
               list or mapping of them too), an auth block (used or not), a Basic-auth pair, or \
               the definition of a variable used in one of those (`@token = …` for \
               `Authorization: Bearer {{token}}`); and any word that has a real credential's \
               shape, wherever it is written (a value, a key, a comment, a line that does not \
               parse): the code-hosting host's tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` \
               and 36 characters, `github_pat_` and 82), the advertising API's user tokens \
               (`EAA…`) and JSON Web Tokens; a value after a known prefix that is cut or too \
               long (`ghp_` and 34 random characters) is reported too in a credential position. \
               References (`${FB_TOKEN}`, `$GH_TOKEN`, `{{token}}`, `<token>`), placeholders \
               (`xxx`, `YOUR_TOKEN`, `ghp_12324`) and stand-ins (a value equal to its key's \
               name, as `\"password\": \"password\"`, or made only of placeholder words such as \
               `password`, `token`, `invalid`, `test` and at most six digits, as \
               `invalidtoken123`) are not credentials, and a value that comes from an \
               environment file is not written in the request file. The secret is never printed back: messages name its kind \
               only, and every output masks it, whether this rule is enabled or not.",
        why: "A token committed to a repository is a leaked token: anyone who can read the \
              repository can call the API as its owner until it is revoked.",
        source: "GitHub Docs, \"About authentication to GitHub\", section \"GitHub's token \
                 formats\" (https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats); \
                 Meta for Developers, \"Access Tokens\" \
                 (https://developers.facebook.com/docs/facebook-login/guides/access-tokens)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("literal-secret/bad.req.yaml"),
        good: example!("literal-secret/good.req.yaml"),
    }
}

/// A literal scalar under a credential key.
fn keyed_diagnostic(span: Span, key: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("literal secret in `{key}`: a credential is written in the file"),
    )
    .with_help("remove it, revoke it, and write a reference such as `${FB_TOKEN}` instead")
    .secret()
}

fn token_diagnostic(span: Span, found: &TokenMatch) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!(
            "literal secret: {} (`{}…`) is written in the file",
            found.what, found.prefix
        ),
    )
    .with_help("remove it, revoke it, and write a reference such as `${GH_TOKEN}` instead")
    .secret()
}

/// The credentials written in an environment file the config names: its words of a real
/// credential's shape. The request files that use its variables are given their values,
/// not their text, so a credential there is reported where it is written.
pub fn in_environment(text: &str) -> Vec<Diagnostic> {
    secrets::find_tokens(text)
        .filter(|m| m.real)
        .map(|m| token_diagnostic(Span::new(m.range.start, m.range.end), &m))
        .collect()
}

impl Rule for LiteralSecret {
    fn check(&self, file: &FileContext<'_>, sink: &mut Vec<Diagnostic>) {
        // Values a duplicate key replaced are no longer in the tree, but still in the
        // file; query parameters are entries of the request line.
        let shadowed = file.problems.iter().filter_map(|p| p.shadowed.as_deref());
        let query = file
            .model
            .requests
            .iter()
            .flat_map(|r| r.line().map(|l| l.query.as_slice()).unwrap_or_default());
        let roots = file.model.documents.iter().map(|d| d.root);
        let mut found: Vec<Diagnostic> =
            secrets::tree_secrets(file.text, roots, shadowed.chain(query))
                .into_iter()
                .filter(|s| s.reported)
                .map(|s| match s.found {
                    Found::Keyed { key } => keyed_diagnostic(s.span, key),
                    Found::Token(m) => token_diagnostic(s.span, &m),
                })
                .collect();
        // Keys, comments and text the parser could not read: a credential there is as leaked.
        found.extend(
            secrets::find_tokens(file.text)
                .filter(|m| m.real)
                .map(|m| token_diagnostic(Span::new(m.range.start, m.range.end), &m)),
        );
        // A secret in a query string is seen both in the request line and as a param, and
        // a token in a value both in the tree and in the text.
        found.sort_by_key(|d| (d.span.start, std::cmp::Reverse(d.span.end)));
        let mut covered_to = 0;
        for d in found {
            if d.span.start >= covered_to || d.span.is_empty() {
                covered_to = covered_to.max(d.span.end);
                sink.push(d);
            }
        }
    }
}

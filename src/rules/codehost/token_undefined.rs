use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::{TokenRef, secrets};
use crate::rules::rule::{Group, Inspects, Rule};
use crate::suggest::did_you_mean;

crate::declare_rule! {
    pub struct TokenUndefined {
        name: "token-undefined",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Warning,
        summary: "a request names a token that .reqlint.yaml does not define",
        what: "Reports `token: NAME` where NAME is not a key of `tokens:` in the config, with \
               the closest defined name. The requests that use it are not checked for \
               permissions.",
        why: "Without the token's permissions reqlint cannot tell whether the calls would \
              be allowed; a typo in the name hides every coverage error.",
        source: "reqlint's request file format (docs/request-files.md): a token is a name defined under `tokens:` in the configuration (docs/configuration.md)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("token-undefined/bad.req.yaml"),
        good: example!("token-undefined/good.req.yaml"),
    }
}

impl Rule for TokenUndefined {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let mut seen = std::collections::HashSet::new();
        for request in &file.model.requests {
            let Some(TokenRef::Named { name, span }) = request.token else {
                continue;
            };
            if file.config.tokens.contains_key(name) || !seen.insert(span) {
                continue;
            }
            // A credential written where a token's name belongs is `literal-secret`'s: a
            // name to define would tell the user to paste the secret into the config.
            if secrets::find_token(name).is_some() {
                continue;
            }
            let help = match did_you_mean(name, file.config.tokens.keys().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "define it under `tokens:` in .reqlint.yaml:\n  tokens:\n    {name}:\n      permissions: ..."
                ),
            };
            out.push(
                Diagnostic::new(
                    &META,
                    span,
                    format!("token `{name}` is not defined in the config"),
                )
                .with_help(help),
            );
        }
    }
}

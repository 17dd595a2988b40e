use std::collections::HashMap;

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Span};
use crate::model::TokenRef;
use crate::model::facts::{RunContext, RunFacts};
use crate::model::file::FileContext;
use crate::model::token::Token;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::codehost::{add_need, request_need};
use crate::catalog::codehost::{Access, CATALOG, Scope};
use crate::model::token::TokenUses;

crate::declare_rule! {
    pub struct TokenOverPrivileged {
        name: "token-over-privileged",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Warning,
        summary: "a token holds a permission its requests do not use, or write where they only read",
        what: "For each token, gathers the permissions its code-hosting requests need (the \
               host's endpoint tables) and reports, on the permission's line, a permission no \
               request uses and `write` where every request only reads. A token written in \
               place is judged over the requests of its file. A token named from \
               .reqlint.yaml is judged over every file of the run, and only when the run \
               walked directories (a pre-commit hook that passes a few files cannot tell what \
               is unused); those diagnostics point into .reqlint.yaml. A token with a request \
               whose endpoint is unknown, or with no request at all, is not judged. The \
               repository permission `Metadata` at read is never reported: the host grants \
               it to every fine-grained token with a repository permission, as mandatory.",
        why: "Least privilege: a leaked token can do only what it holds. A permission kept \
              \"just in case\" is the one an attacker uses.",
        source: "GitHub's reference \"Permissions required for fine-grained personal access tokens\" (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens), overview, and \"Endpoints\"; GitHub's \"Managing your personal access tokens\" (https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/managing-your-personal-access-tokens), fine-grained token permissions; reqlint's token format (docs/request-files.md) and configuration (docs/configuration.md, `tokens`)",
        fixes: &[FixMeta {
            applicability: Applicability::Unsafe,
            what: "the unused permission is removed, its line of a YAML block mapping (with its scope when it was the scope's last, but never the last scope), or lowered to the level the requests need; not where a YAML alias shares it with another token",
        }],
        inspects: Inspects::File,
        bad: example!("token-over-privileged/bad.req.yaml"),
        good: example!("token-over-privileged/good.req.yaml"),
    }
}

/// Reports the grants of `token` that `uses` does not need.
/// `text` is the text the token is written in (the request file's, or the config's).
/// `line_edits`: whether the token's text takes whole-line fixes (see
/// [`crate::model::edits::takes_line_edits`]). `once`: whether a span of `text` is
/// written once (no YAML alias shares it with another token, which a fix would change too).
/// The lines of a text where this rule is silenced, read once per text (a file of many
/// tokens is judged token by token).
struct Silenced {
    lines: Vec<usize>,
    index: Option<crate::loading::LineIndex>,
}

impl Silenced {
    fn of(text: &str) -> Silenced {
        let lines: Vec<usize> = crate::model::suppressions::parse(text)
            .into_iter()
            .filter(|s| s.rules.iter().any(|(name, _)| name == META.name))
            .map(|s| s.line)
            .collect();
        let index = (!lines.is_empty()).then(|| crate::loading::LineIndex::new(text));
        Silenced { lines, index }
    }

    fn at(&self, offset: usize) -> bool {
        self.index
            .as_ref()
            .is_some_and(|index| self.lines.contains(&index.line_of(offset)))
    }
}

#[allow(clippy::too_many_arguments)]
fn judge(
    text: &str,
    line_edits: bool,
    token: &Token,
    uses: &TokenUses,
    who: &str,
    once: &dyn Fn(Span) -> bool,
    silenced: &Silenced,
    out: &mut Vec<Diagnostic>,
) {
    if uses.unknown || uses.requests == 0 {
        return;
    }
    let grants = &token.grants;
    let permission = |g: &crate::model::token::Grant| {
        let scope = Scope::parse(&g.scope)?;
        let level = Access::parse(&g.level)?;
        let id = CATALOG.lookup(scope, &g.name).ok()?;
        // The host grants repository `Metadata` at read to every fine-grained token with
        // a repository permission, and its settings page marks it mandatory: a token
        // cannot do without it, so it is never reported as unused.
        let mandatory = scope == Scope::Repository
            && level == Access::Read
            && CATALOG.permission(id).key == "metadata";
        (!mandatory).then_some((scope, level, id))
    };
    let permissions: Vec<_> = grants.iter().map(permission).collect();
    // The lines where this rule is silenced: their grants stay.
    let silenced_at = |at: usize| silenced.at(at);
    // The grants no request uses, whose lines the fixes remove.
    let unused: Vec<bool> = grants
        .iter()
        .zip(&permissions)
        .map(|(g, p)| {
            p.is_some_and(|(_, _, id)| !uses.needs.contains_key(&id))
                && !silenced_at(g.name_span.start)
        })
        .collect();
    for (i, (grant, &permission)) in grants.iter().zip(&permissions).enumerate() {
        let Some((scope, level, id)) = permission else {
            continue;
        };
        match uses.needs.get(&id) {
            None => out.push(
                Diagnostic::new(
                    &META,
                    grant.name_span,
                    format!(
                        "{who} holds the {scope} permission `{}` but none of its {} request{} uses it",
                        grant.name,
                        uses.requests,
                        if uses.requests == 1 { "" } else { "s" }
                    ),
                )
                .with_help("remove this line")
                .with_fix_opt(
                    removal(text, token, &unused, i)
                        .filter(|_| {
                            line_edits
                                && token.written_in_scope(grant)
                                && once(grant.name_span)
                                && once(grant.level_span)
                                && once(grant.scope_span)
                        })
                        .map(|edit| {
                            crate::diagnostic::Fix::unsafe_(
                                format!("remove `{}` from the token", grant.name),
                                vec![edit],
                            )
                        }),
                ),
            ),
            Some(&needed) if level > needed => out.push(
                Diagnostic::new(
                    &META,
                    grant.level_span,
                    if needed == Access::Read {
                        format!("{who} holds `{}` at {}, but its requests only read", grant.name, grant.level)
                    } else {
                        format!("{who} holds `{}` at {}, but its requests need only {needed}", grant.name, grant.level)
                    },
                )
                .with_help(format!("write `{}: {needed}`", grant.name))
                .with_fix_opt(
                    crate::model::edits::rename(
                        text,
                        grant.level_span,
                        grant.level.trim(),
                        &needed.to_string(),
                        crate::diagnostic::Applicability::Unsafe,
                    )
                    .filter(|_| once(grant.level_span) && token.written_in_scope(grant)),
                ),
            ),
            Some(_) => {}
        }
    }
}

/// The lines that go with the unused grant `i` of `token` (`unused`: which of its
/// grants no request uses): its own, or, where every grant of its scope goes, the
/// scope's with them (a scope left without any, `user:` with nothing under it, is no
/// mapping of permissions; each of these grants' fixes removes the same lines). None
/// where no other scope would stay (`permissions:` would be left empty).
fn removal(
    text: &str,
    token: &Token,
    unused: &[bool],
    i: usize,
) -> Option<crate::diagnostic::Edit> {
    let grant = &token.grants[i];
    let &(_, key_span, value) = token.scopes.iter().find(|s| s.1 == grant.scope_span)?;
    let of = |key_span: Span| {
        token
            .grants
            .iter()
            .zip(unused)
            .filter(move |(g, _)| g.scope_span == key_span)
    };
    let stays = |key_span: Span| {
        let mut grants = of(key_span).peekable();
        grants.peek().is_none() || grants.any(|(_, &unused)| !unused)
    };
    let flow = text.get(value.range()).is_some_and(|t| t.starts_with('{'));
    if stays(key_span) {
        // A line of its own inside `{...}` would leave the flow's commas wrong.
        if flow {
            return None;
        }
        return crate::model::edits::remove_lines(
            text,
            grant.name_span.start,
            grant.level_span.end,
        );
    }
    if !token.scopes.iter().any(|s| s.1 != key_span && stays(s.1)) {
        return None;
    }
    // Every grant of the scope written inside it (none merged in from an anchor
    // elsewhere, whose text the removal would reach).
    if !of(key_span).all(|(g, _)| token.written_in_scope(g)) {
        return None;
    }
    // To the end of its last grant, or of its flow mapping (`user: {Followers: read}`).
    let last = of(key_span)
        .map(|(g, _)| g.level_span.end)
        .max()
        .unwrap_or(grant.level_span.end);
    let end = if flow { value.end.max(last) } else { last };
    crate::model::edits::remove_lines(text, key_span.start, end)
}

impl Rule for TokenOverPrivileged {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        // Each token with the first request that names it.
        let mut tokens: Vec<(&Node, usize, TokenUses)> = Vec::new();
        let mut index: HashMap<Span, usize> = HashMap::new();
        for (r, request) in file.model.requests.iter().enumerate() {
            let Some(TokenRef::Inline(node)) = request.token else {
                continue;
            };
            let i = *index.entry(node.span).or_insert_with(|| {
                tokens.push((node, r, TokenUses::default()));
                tokens.len() - 1
            });
            add_need(&mut tokens[i].2, &request_need(file, r));
        }
        let line_edits = crate::model::edits::takes_line_edits(file.path);
        let once = |span| crate::apis::codehost::token_written_once(file, span);
        if tokens.is_empty() {
            return;
        }
        let silenced = Silenced::of(file.text);
        for (node, first, uses) in &tokens {
            // The token as its first request's was read (the same node).
            let token = crate::apis::codehost::token_at(file, Some(*first), node);
            judge(
                file.text,
                line_edits,
                &token,
                uses,
                "the token",
                &once,
                &silenced,
                out,
            );
        }
    }

    fn collect(&self, file: &FileContext<'_>, facts: &mut RunFacts) {
        for (r, request) in file.model.requests.iter().enumerate() {
            let Some(TokenRef::Named { name, .. }) = request.token else {
                continue;
            };
            if file.config.tokens.contains_key(name) {
                let uses = facts.named_token_uses.entry(name.to_string()).or_default();
                add_need(uses, &request_need(file, r));
            }
        }
    }

    fn check_run(&self, run: &RunContext<'_>, out: &mut Vec<Diagnostic>) {
        if !run.complete {
            return;
        }
        let mut names: Vec<&String> = run.config.tokens.keys().collect();
        names.sort();
        let silenced = Silenced::of(&run.config.text);
        for name in names {
            if let Some(uses) = run.facts.named_token_uses.get(name) {
                judge(
                    &run.config.text,
                    true,
                    &Token::read(&run.config.tokens[name]),
                    uses,
                    &format!("token `{name}`"),
                    &|span| crate::model::edits::written_once_in_config(run.config, span),
                    &silenced,
                    out,
                );
            }
        }
    }
}

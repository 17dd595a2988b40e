//! A token as written (docs/codehost.md): owner, repositories, and permission grants by scope,
//! each with its span. Names are checked against the catalog by the rules.

use crate::loading::{Node, Span, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    pub scope: String,
    pub scope_span: Span,
    pub name: String,
    pub name_span: Span,
    /// The level as written (`read`, `write`, `admin`, anything else).
    pub level: String,
    pub level_span: Span,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Token {
    pub owner: Option<(String, Span)>,
    pub repositories: Option<Vec<(String, Span)>>,
    pub grants: Vec<Grant>,
    /// The keys of `permissions` as written (scopes, known or not): each key, its span and
    /// its value's span.
    pub scopes: Vec<(String, Span, Span)>,
    /// The span of `permissions`' value (a mapping, or whatever was written).
    pub permissions_span: Option<Span>,
    /// What does not fit the shape of a token, with its span.
    pub issues: Vec<(Span, String)>,
}

/// A token's keys; `variables` and `files` (which `{{variable}}` or which files a named
/// token stands for) are read from the config.
pub const TOKEN_KEYS: &[&str] = &["owner", "repositories", "permissions", "variables", "files"];

impl Token {
    /// Whether a grant is written inside its own scope's value: not one a merge key
    /// (`<<: *base`) brings from an anchor elsewhere, where an edit would change that.
    pub fn written_in_scope(&self, grant: &Grant) -> bool {
        self.scopes.iter().any(|(_, key, value)| {
            *key == grant.scope_span
                && value.start <= grant.name_span.start
                && grant.level_span.end <= value.end
        })
    }

    pub fn read(node: &Node) -> Token {
        let mut token = Token::default();
        let Some(entries) = node.as_map() else {
            token.issues.push((
                node.span,
                format!("a token must be a mapping, not {}", node.kind_name()),
            ));
            return token;
        };
        for e in entries {
            match e.key.as_str() {
                "owner" => match e.value.scalar_text() {
                    Some(text) if !matches!(e.value.value, Value::Null) => {
                        token.owner = Some((text.into_owned(), e.value.span));
                    }
                    _ => token.issues.push((
                        e.value.span,
                        "`owner` must be a user or organization name".into(),
                    )),
                },
                "repositories" => match e.value.as_seq() {
                    Some(items) => {
                        let mut repos = Vec::new();
                        for item in items {
                            match item.scalar_text() {
                                Some(t) => repos.push((t.into_owned(), item.span)),
                                None => token
                                    .issues
                                    .push((item.span, "a repository is a name".into())),
                            }
                        }
                        token.repositories = Some(repos);
                    }
                    None => token.issues.push((
                        e.value.span,
                        "`repositories` must be a list of repository names".into(),
                    )),
                },
                "permissions" => {
                    token.permissions_span = Some(e.value.span);
                    match e.value.as_map() {
                        Some(scopes) => {
                            for scope in scopes {
                                token.scopes.push((
                                    scope.key.to_string(),
                                    scope.key_span,
                                    scope.value.span,
                                ));
                                let Some(grants) = scope.value.as_map() else {
                                    token.issues.push((
                                        scope.value.span,
                                        format!(
                                            "`{}` must map permission names to read or write",
                                            scope.key
                                        ),
                                    ));
                                    continue;
                                };
                                for g in grants {
                                    token.grants.push(Grant {
                                        scope: scope.key.to_string(),
                                        scope_span: scope.key_span,
                                        name: g.key.to_string(),
                                        name_span: g.key_span,
                                        level: g
                                            .value
                                            .scalar_text()
                                            .map(|t| t.into_owned())
                                            .unwrap_or_default(),
                                        level_span: g.value.span,
                                    });
                                }
                            }
                        }
                        None => token.issues.push((
                            e.value.span,
                            "`permissions` must map scopes to permissions".into(),
                        )),
                    }
                }
                _ => {}
            }
        }
        token
    }
}

/// The permissions a token's requests need, merged over files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TokenUses {
    pub needs: std::collections::BTreeMap<
        crate::catalog::codehost::PermissionId,
        crate::catalog::codehost::Access,
    >,
    /// Some request's need is unknown: nothing can be called unused.
    pub unknown: bool,
    pub requests: usize,
}

impl TokenUses {
    /// The permission of an endpoint row, at least at its level.
    pub fn need(&mut self, row: &crate::catalog::codehost::Endpoint) {
        let level = self.needs.entry(row.permission).or_insert(row.access);
        *level = (*level).max(row.access);
    }

    pub fn merge(&mut self, other: TokenUses) {
        for (id, access) in other.needs {
            let level = self.needs.entry(id).or_insert(access);
            *level = (*level).max(access);
        }
        self.unknown |= other.unknown;
        self.requests += other.requests;
    }
}

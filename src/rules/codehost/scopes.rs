//! `reqlint scopes`: the least permissions each token's requests need (seed 000).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::loading::{LineIndex, Span};
use crate::model::{FileModel, TokenRef};

use super::catalog::{Access, CATALOG, Scope};

/// One request's need, for the per-request listing.
#[derive(Debug, Serialize)]
pub struct Need {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub method: &'static str,
    pub endpoint: &'static str,
    pub scope: Scope,
    pub permission: &'static str,
    pub access: Access,
}

/// The requests of one token and the least permissions that cover them.
#[derive(Debug, Default, Serialize)]
pub struct TokenNeeds {
    /// `ci-bot` for a named token, `FILE:LINE` for one written in place, `(none)`.
    pub token: String,
    pub permissions: BTreeMap<Scope, BTreeMap<&'static str, Access>>,
    pub requests: Vec<Need>,
}

impl serde::Serialize for Scope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl serde::Serialize for Access {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Adds the needs of one file's requests to `tokens`, keyed by token.
pub fn collect(
    path: &str,
    text: &str,
    model: &FileModel<'_>,
    tokens: &mut BTreeMap<String, TokenNeeds>,
) {
    let index = LineIndex::new(text);
    let at = |span: Span| index.position(text, span.start);
    for request in &model.requests {
        let Some(line) = super::code_hosting_line(request) else {
            continue;
        };
        if request.public.is_some_and(|(public, _)| public)
            && line.method == crate::model::Method::Get
        {
            continue;
        }
        let rows = super::endpoint_rows(line);
        let Some(row) = rows.iter().find(|e| e.method == line.method) else {
            continue;
        };
        let key = match request.token {
            Some(TokenRef::Named { name, .. }) => name.to_string(),
            Some(TokenRef::Inline(node)) => {
                let p = at(node.span);
                format!("{path}:{}", p.line)
            }
            None => "(none)".to_string(),
        };
        let permission = CATALOG.permission(row.permission);
        let needs = tokens.entry(key.clone()).or_insert_with(|| TokenNeeds {
            token: key,
            ..TokenNeeds::default()
        });
        let level = needs
            .permissions
            .entry(permission.scope)
            .or_default()
            .entry(permission.title)
            .or_insert(row.access);
        *level = (*level).max(row.access);
        let p = at(request.line_span);
        needs.requests.push(Need {
            file: path.to_string(),
            line: p.line,
            column: p.column,
            method: row.method.as_str(),
            endpoint: row.template,
            scope: permission.scope,
            permission: permission.title,
            access: row.access,
        });
    }
}

/// The YAML blocks, ready to paste as each token.
pub fn render_yaml(tokens: &BTreeMap<String, TokenNeeds>) -> String {
    let mut out = String::new();
    for needs in tokens.values() {
        out.push_str(&format!(
            "# {}: {} request{}\n",
            if needs.token == "(none)" {
                "requests without a token".to_string()
            } else {
                format!("token {}", needs.token)
            },
            needs.requests.len(),
            if needs.requests.len() == 1 { "" } else { "s" }
        ));
        out.push_str("token:\n  permissions:\n");
        for (scope, perms) in &needs.permissions {
            out.push_str(&format!("    {scope}:\n"));
            for (title, access) in perms {
                out.push_str(&format!("      {title}: {access}\n"));
            }
        }
        out.push_str("# covering each request:\n");
        for n in &needs.requests {
            out.push_str(&format!(
                "#   {}:{}:{}  {} {}  {} `{}`: {}\n",
                n.file, n.line, n.column, n.method, n.endpoint, n.scope, n.permission, n.access
            ));
        }
        out.push('\n');
    }
    if tokens.is_empty() {
        out.push_str("# no code-hosting request with a known endpoint was found\n");
    }
    out
}

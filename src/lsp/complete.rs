//! What the editor offers as completions, from the catalogs: the params of the call a
//! request makes (under its `params:`; a code-hosting request's from the host's REST
//! description), the values of an enum param (after `name: `),
//! permission names (under a token's `repository:`, `organization:` or `user:`) and their
//! levels, and the keys of a request. Read from the line the cursor is on and the keys
//! above it, so that it works while the file is half written.

use std::path::Path;

use lsp_types::{CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse};

use super::positions::{Positions, uri_to_path};
use super::server::Server;
use crate::apis::advertising::endpoint::{Recognized, recognize};
use crate::catalog::codehost::{CATALOG, Scope};
use crate::catalog::graph::{GType, GraphCall, enum_values};
use crate::engine::Settings;
use crate::model::{FileModel, REQUEST_KEYS};

/// One completion: its label, what it is, a detail line.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub label: String,
    pub kind: CompletionItemKind,
    pub detail: String,
}

impl Server {
    /// `textDocument/completion`: the items the catalogs give at the cursor.
    pub(super) fn completion(&mut self, params: CompletionParams) -> Option<CompletionResponse> {
        let at = params.text_document_position;
        let items = self.completion_items(&at.text_document.uri, at.position);
        Some(CompletionResponse::Array(items))
    }

    fn completion_items(
        &mut self,
        uri: &lsp_types::Uri,
        at: lsp_types::Position,
    ) -> Vec<CompletionItem> {
        let Some(text) = self.text_of(uri) else {
            return Vec::new();
        };
        let Some(path) = uri_to_path(uri.as_str()) else {
            return Vec::new();
        };
        let Ok(settings) = self.configs.for_file(&path) else {
            return Vec::new();
        };
        let document = Positions::new(text, self.utf8);
        let text = document.text();
        let offset = document.offset(at);
        let display = path.to_string_lossy();
        let items = complete(text, &display, &settings, offset);
        if items.is_empty() {
            return Vec::new();
        }
        // Shown as every other text about the file: through its redaction.
        let root = crate::run::walk::absolute(Path::new("/"), &settings.config.root);
        let rel = path.strip_prefix(&root).unwrap_or(&path);
        let redactor = crate::engine::file_redactor(&display, rel, text, &settings);
        items
            .into_iter()
            .map(|i| CompletionItem {
                label: redactor.line(&i.label),
                kind: Some(i.kind),
                detail: Some(redactor.line(&i.detail)),
                ..CompletionItem::default()
            })
            .collect()
    }
}

/// The key a line starts with (`  name: x` → `name`), and its indentation.
fn key_of(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let indent = line.len() - t.len();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let (key, _) = t.split_once(':')?;
    let key = key.trim().trim_matches(['"', '\'']);
    (!key.is_empty()).then_some((indent, key))
}

/// The keys above the cursor's line that hold it, innermost first.
fn parents(text: &str, line_start: usize, indent: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut limit = indent;
    for line in text[..line_start].lines().rev() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let t = line.trim_start();
        let line_indent = line.len() - t.len();
        if line_indent < limit
            && let Some((_, key)) = key_of(line)
        {
            out.push(key);
            limit = line_indent;
            if limit == 0 {
                break;
            }
        }
    }
    out
}

pub fn complete(text: &str, display: &str, settings: &Settings, offset: usize) -> Vec<Item> {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..offset];
    let indent = before.len() - before.trim_start().len();
    let parents = parents(text, line_start, indent.max(1));
    let loaded = crate::engine::load_file(
        display,
        Path::new(display),
        text.as_bytes().to_vec(),
        settings,
    );
    let model = FileModel::build(&loaded.documents, &loaded.text);
    // The request the cursor is in: the last one that starts before it.
    let request = model
        .requests
        .iter()
        .rev()
        .find(|r| r.node.span.start <= offset);
    let call = request.and_then(|r| {
        let line = r.line()?;
        if crate::apis::route(crate::apis::APIS, line, &settings.config)
            != Some(crate::apis::advertising::ID)
        {
            return None;
        }
        match recognize(r, &settings.context, false)? {
            Recognized::Call(target, _) => Some(target.graph.get()),
            _ => None,
        }
    });
    // A code-hosting request's params: the rows of the host's REST description.
    let rest = request.and_then(|r| {
        let line = r.line()?;
        if crate::apis::route(crate::apis::APIS, line, &settings.config)
            != Some(crate::apis::codehost::ID)
        {
            return None;
        }
        let (id, edition) =
            crate::apis::codehost::operation_params::operation_of_line(line, &settings.config)?;
        let call = crate::catalog::codehost_operations::get(id);
        Some((
            crate::apis::codehost::operation_params::param_rows(r, id, edition),
            format!("`{} {}`", call.method, call.template()),
        ))
    });
    // After `key: `: the values of the key.
    if let Some((_, key)) = key_of(before)
        && (before.trim_end().ends_with(':') || before.contains(": "))
    {
        if parents.first() == Some(&"params")
            && let Some(call) = call
        {
            return enum_items(call, key);
        }
        if parents.first() == Some(&"params")
            && let Some((rows, call)) = &rest
        {
            return rest_value_items(rows, call, key);
        }
        if parents.get(1) == Some(&"permissions") {
            return ["read", "write", "admin"]
                .iter()
                .map(|l| Item {
                    label: l.to_string(),
                    kind: CompletionItemKind::VALUE,
                    detail: "permission level: write includes read, admin includes write".into(),
                })
                .collect();
        }
        return Vec::new();
    }
    match parents.first().copied() {
        Some("params") => {
            let given: Vec<&str> = request
                .map(|r| r.params().map(|e| e.key.as_str()).collect())
                .unwrap_or_default();
            match (call, &rest) {
                (Some(call), _) => param_items(call, given),
                (None, Some((rows, call))) => rows
                    .iter()
                    .filter(|r| !given.contains(&r.name.as_str()))
                    .map(|r| Item {
                        label: r.name.clone(),
                        kind: CompletionItemKind::FIELD,
                        detail: format!(
                            "{}, {}{} — {call}",
                            r.place,
                            r.kind,
                            if r.required { ", required" } else { "" }
                        ),
                    })
                    .collect(),
                (None, None) => Vec::new(),
            }
        }
        Some(scope) if parents.get(1) == Some(&"permissions") => match Scope::parse(scope) {
            Some(scope) => CATALOG
                .permissions
                .iter()
                .filter(|p| p.scope == scope)
                .map(|p| Item {
                    label: p.title.to_string(),
                    kind: CompletionItemKind::FIELD,
                    detail: format!("{} permission `{}`", p.scope, p.key),
                })
                .collect(),
            None => Vec::new(),
        },
        Some("permissions") => Scope::ALL
            .iter()
            .map(|s| Item {
                label: s.as_str().to_string(),
                kind: CompletionItemKind::KEYWORD,
                detail: "permission scope".into(),
            })
            .collect(),
        _ => REQUEST_KEYS
            .iter()
            .map(|k| Item {
                label: k.to_string(),
                kind: CompletionItemKind::KEYWORD,
                detail: "request key".into(),
            })
            .collect(),
    }
}

fn param_items(call: &GraphCall, given: Vec<&str>) -> Vec<Item> {
    call.params
        .iter()
        .filter(|p| !given.contains(&p.name.as_str()))
        .map(|p| Item {
            label: p.name.to_string(),
            kind: CompletionItemKind::FIELD,
            detail: format!(
                "{}{} — {}",
                p.ty.describe(),
                if p.required { ", required" } else { "" },
                call.describe()
            ),
        })
        .collect()
}

/// The values of a code-hosting param: its enum's, or `true` and `false`.
fn rest_value_items(
    rows: &[crate::apis::codehost::operation_params::ParamRow],
    call: &str,
    key: &str,
) -> Vec<Item> {
    let Some(row) = rows.iter().find(|r| r.name == key) else {
        return Vec::new();
    };
    let values: Vec<String> = if !row.values.is_empty() {
        row.values.clone()
    } else if row.kind == "true or false" {
        vec!["true".into(), "false".into()]
    } else {
        Vec::new()
    };
    values
        .into_iter()
        .map(|v| Item {
            label: v,
            kind: CompletionItemKind::VALUE,
            detail: format!("`{key}` of {call}"),
        })
        .collect()
}

fn enum_items(call: &GraphCall, key: &str) -> Vec<Item> {
    let Some(p) = call.param(key) else {
        return Vec::new();
    };
    match p.ty.item() {
        GType::Enum(e) => enum_values(e)
            .iter()
            .map(|v| Item {
                label: v.to_string(),
                kind: CompletionItemKind::VALUE,
                detail: format!("`{key}` of {}", call.describe()),
            })
            .collect(),
        GType::Bool => ["true", "false"]
            .iter()
            .map(|v| Item {
                label: v.to_string(),
                kind: CompletionItemKind::VALUE,
                detail: format!("`{key}`"),
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::Limits;
    use crate::model::config::Config;
    use crate::model::context::ContextIndex;

    fn settings() -> Settings {
        Settings {
            config: Config::defaults(".".into()),
            context: ContextIndex::default(),
            limits: Limits::DEFAULT,
        }
    }

    fn labels(text: &str) -> Vec<String> {
        let at = text.find('|').unwrap();
        let text = text.replace('|', "");
        complete(&text, "a.req.yaml", &settings(), at)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn params_values_permissions_and_keys() {
        let params = labels("request: POST /v25.0/act_1/campaigns\nparams:\n  name: x\n  |\n");
        assert!(
            params.contains(&"special_ad_categories".to_string()),
            "{params:?}"
        );
        assert!(!params.contains(&"name".to_string()));
        let values = labels("request: POST /v25.0/act_1/campaigns\nparams:\n  objective: |\n");
        assert!(values.contains(&"OUTCOME_SALES".to_string()), "{values:?}");
        let perms =
            labels("token:\n  permissions:\n    repository:\n      |\nrequest: GET /user\n");
        assert!(perms.contains(&"Pull requests".to_string()), "{perms:?}");
        let levels = labels("token:\n  permissions:\n    repository:\n      Issues: |\n");
        assert_eq!(levels, vec!["read", "write", "admin"]);
        let keys = labels("|\n");
        assert!(keys.contains(&"request".to_string()));
    }

    #[test]
    fn code_hosting_params_and_their_values() {
        let query = labels("request: GET /repos/acme/web/issues\nparams:\n  state: open\n  |\n");
        assert!(query.contains(&"labels".to_string()), "{query:?}");
        assert!(query.contains(&"per_page".to_string()), "{query:?}");
        assert!(!query.contains(&"state".to_string()), "{query:?}");
        let body = labels("request: POST /repos/acme/web/pulls\nparams:\n  |\n");
        for name in ["title", "head", "base", "draft"] {
            assert!(body.contains(&name.to_string()), "{body:?}");
        }
        let values = labels("request: GET /repos/acme/web/issues\nparams:\n  state: |\n");
        assert_eq!(values, ["open", "closed", "all"]);
        let values =
            labels("request: PUT /repos/acme/web/issues/1/lock\nparams:\n  lock_reason: |\n");
        assert_eq!(values, ["off-topic", "too heated", "resolved", "spam"]);
        let booleans = labels("request: POST /repos/acme/web/pulls\nparams:\n  draft: |\n");
        assert_eq!(booleans, ["true", "false"]);
    }
}

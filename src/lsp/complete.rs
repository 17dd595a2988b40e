//! What the editor offers as completions, from the catalogs: the params of the call a
//! request makes (under its `params:`), the values of an enum param (after `name: `),
//! permission names (under a token's `repository:`, `organization:` or `user:`) and their
//! levels, and the keys of a request. Read from the line the cursor is on and the keys
//! above it, so that it works while the file is half written.

use std::path::Path;

use crate::catalog::codehost::{CATALOG, Scope};
use crate::catalog::graph::{GType, GraphCall, enum_values};
use crate::engine::Settings;
use crate::model::{Api, FileModel, REQUEST_KEYS};
use crate::rules::advertising::endpoint::{Recognized, recognize};

/// One completion: its label, what it is, a detail line.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub label: String,
    /// LSP `CompletionItemKind`: 5 field, 12 value, 14 keyword.
    pub kind: u8,
    pub detail: String,
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
        if line.api != Api::Advertising {
            return None;
        }
        match recognize(r, &settings.context, false)? {
            Recognized::Call(target, _) => Some(target.graph.get()),
            _ => None,
        }
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
        if parents.get(1) == Some(&"permissions") {
            return ["read", "write", "admin"]
                .iter()
                .map(|l| Item {
                    label: l.to_string(),
                    kind: 12,
                    detail: "permission level: write includes read, admin includes write".into(),
                })
                .collect();
        }
        return Vec::new();
    }
    match parents.first().copied() {
        Some("params") => match call {
            Some(call) => {
                let given: Vec<&str> = request
                    .map(|r| r.params().map(|e| e.key.as_str()).collect())
                    .unwrap_or_default();
                param_items(call, given)
            }
            None => Vec::new(),
        },
        Some(scope) if parents.get(1) == Some(&"permissions") => match Scope::parse(scope) {
            Some(scope) => CATALOG
                .permissions
                .iter()
                .filter(|p| p.scope == scope)
                .map(|p| Item {
                    label: p.title.to_string(),
                    kind: 5,
                    detail: format!("{} permission `{}`", p.scope, p.key),
                })
                .collect(),
            None => Vec::new(),
        },
        Some("permissions") => Scope::ALL
            .iter()
            .map(|s| Item {
                label: s.as_str().to_string(),
                kind: 14,
                detail: "permission scope".into(),
            })
            .collect(),
        _ => REQUEST_KEYS
            .iter()
            .map(|k| Item {
                label: k.to_string(),
                kind: 14,
                detail: "request key".into(),
            })
            .collect(),
    }
}

fn param_items(call: &GraphCall, given: Vec<&str>) -> Vec<Item> {
    call.params
        .iter()
        .filter(|p| !given.contains(&p.name))
        .map(|p| Item {
            label: p.name.to_string(),
            kind: 5,
            detail: format!(
                "{}{} — {}",
                p.ty.describe(),
                if p.required { ", required" } else { "" },
                call.describe()
            ),
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
                kind: 12,
                detail: format!("`{key}` of {}", call.describe()),
            })
            .collect(),
        GType::Bool => ["true", "false"]
            .iter()
            .map(|v| Item {
                label: v.to_string(),
                kind: 12,
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
}

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Value};
use crate::model::file::FileContext;
use crate::model::{DocumentKind, EXTENSION_PREFIX, FILE_KEYS, REQUEST_KEYS};
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};
use crate::suggest::did_you_mean;

crate::declare_rule! {
    pub struct UnknownRequestKey {
        name: "unknown-request-key",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "a request or file has a key that the request file format does not define",
        what: "Reports a key of a request other than request, method, path, url, params, \
               token, object, public, name and description, and a key beside `requests:` \
               other than token, name and description, with the closest known key. Keys \
               starting with `x-` are extensions that rules ignore: a place for anchors \
               shared by several requests, as in other YAML tools.",
        why: "A misspelt key (`parms:`) is silently ignored: the request would be sent \
              without what the author meant to send, and no rule would check it.",
        source: "reqlint's request file format (docs/request-files.md): the keys of one request and of several requests",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "a misspelt key with one close candidate is renamed (`parms` → `params`)",
        }],
        inspects: Inspects::File,
        bad: example!("unknown-request-key/bad.req.yaml"),
        good: example!("unknown-request-key/good.req.yaml"),
    }
}

fn check_keys(
    cx: &FileContext<'_>,
    node: &Node,
    known: &[&str],
    place: &str,
    out: &mut Vec<Diagnostic>,
) {
    let Some(entries) = node.as_map() else { return };
    for e in entries {
        if known.contains(&e.key.as_str()) || e.key.starts_with(EXTENSION_PREFIX) {
            continue;
        }
        let help = match did_you_mean(&e.key, known.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!(
                "known keys here: {}; an `x-` key holds anything, such as anchors",
                known.join(", ")
            ),
        };
        // Not to a key the mapping has, or that another unknown key would become.
        let taken = |s: &str| {
            entries.iter().any(|o| {
                o.key == s
                    || (o.key != e.key
                        && !known.contains(&o.key.as_str())
                        && crate::suggest::only_close(&o.key, known.iter().copied()) == Some(s))
            })
        };
        let fix = crate::suggest::only_close(&e.key, known.iter().copied())
            .filter(|s| !taken(s))
            .and_then(|s| {
                crate::model::edits::rename(
                    cx.text,
                    e.key_span,
                    &e.key,
                    s,
                    crate::diagnostic::Applicability::Safe,
                )
            });
        // Not a key an alias reads (the anchored mapping of other requests).
        let fix = crate::model::edits::written_once_fix(cx, fix);
        out.push(
            Diagnostic::new(
                &META,
                e.key_span,
                format!("unknown key `{}` in {place}", e.key),
            )
            .with_help(help)
            .with_fix_opt(fix),
        );
    }
}

impl Rule for UnknownRequestKey {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for doc in &file.model.documents {
            match doc.kind {
                DocumentKind::Single => check_keys(file, doc.root, REQUEST_KEYS, "a request", out),
                DocumentKind::Multi => {
                    check_keys(file, doc.root, FILE_KEYS, "a file of several requests", out);
                    if let Some(items) = doc.root.get_value("requests").and_then(Node::as_seq) {
                        for item in items.iter().filter(|i| matches!(i.value, Value::Map(_))) {
                            check_keys(file, item, REQUEST_KEYS, "a request", out);
                        }
                    }
                }
                DocumentKind::BareList { .. } => {
                    for item in doc.root.as_seq().unwrap_or_default() {
                        if matches!(item.value, Value::Map(_)) {
                            check_keys(file, item, REQUEST_KEYS, "a request", out);
                        }
                    }
                }
                DocumentKind::NotRequest { .. } => {}
            }
        }
    }
}

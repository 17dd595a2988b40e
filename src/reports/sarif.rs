//! `--format sarif`: SARIF 2.1.0 for code scanning, one run with every rule described.

use std::io::{self, Write};

use serde_json::{Value, json};

use crate::diagnostic::Severity;
use crate::engine::FileResult;
use crate::rules::REGISTRY;

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A path as a relative URI reference with `/` separators, percent-encoding what a URI
/// may not hold.
pub fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let cwd = std::env::current_dir().ok();
    let relative = cwd
        .as_ref()
        .and_then(|c| std::path::Path::new(&path).strip_prefix(c).ok())
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or(path);
    let mut out = String::with_capacity(relative.len());
    for b in relative.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

fn rules() -> Vec<Value> {
    REGISTRY
        .iter()
        .map(|r| {
            let m = r.meta();
            let markdown = format!(
                "{}\n\n**Why:** {}\n\n**Source:** {}\n\nReported (`{}`):\n\n```\n{}\n```\n\nPasses (`{}`):\n\n```\n{}\n```\n\nRun `reqlint explain {}` for more.",
                m.what,
                m.why,
                m.source,
                m.bad.path,
                m.bad.text.trim_end(),
                m.good.path,
                m.good.text.trim_end(),
                m.name
            );
            json!({
                "id": m.name,
                "name": m.name,
                "shortDescription": {"text": m.summary},
                "fullDescription": {"text": m.what},
                "help": {"text": format!("{} Why: {}", m.what, m.why), "markdown": markdown},
                "defaultConfiguration": {"level": level(m.severity)},
                "properties": {"group": m.group.as_str(), "source": m.source},
            })
        })
        .collect()
}

pub fn write(results: &[FileResult], out: &mut dyn Write) -> io::Result<()> {
    let index_of = |rule: &str| REGISTRY.iter().position(|r| r.meta().name == rule);
    let mut sarif_results = Vec::new();
    for r in results {
        for (d, (start, end)) in r.diagnostics.iter().zip(r.positions()) {
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str(&format!("\nhelp: {help}"));
            }
            if let Some(e) = d.api_error {
                match e.subcode {
                    Some(sub) => message.push_str(&format!(
                        "\nthe API answers error {} (subcode {sub})",
                        e.code
                    )),
                    None => message.push_str(&format!("\nthe API answers error {}", e.code)),
                }
            }
            let mut result = json!({
                "ruleId": d.rule,
                "level": level(d.severity),
                "message": {"text": message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(&r.path)},
                        "region": {
                            "startLine": start.line,
                            "startColumn": start.column,
                            "endLine": end.line,
                            "endColumn": end.column,
                            "byteOffset": d.span.start,
                            "byteLength": d.span.len(),
                        }
                    }
                }],
            });
            if let Some(i) = index_of(d.rule) {
                result["ruleIndex"] = json!(i);
            }
            if let Some(e) = d.api_error {
                result["properties"] = json!({"apiError": e});
            }
            sarif_results.push(result);
        }
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "reqlint",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": sarif_results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_with_slashes_and_encoded() {
        assert_eq!(uri("fixtures/a b.req.yaml"), "fixtures/a%20b.req.yaml");
        assert_eq!(uri("dir\\x.req.yaml"), "dir/x.req.yaml");
        assert!(uri("/elsewhere/x.yaml").starts_with("file:///"));
    }
}

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

/// A path as a URI reference (RFC 3986): relative to the working directory where it is
/// below it, every byte outside the unreserved and sub-delimiter characters, `:`, `@` and
/// `/` percent-encoded, `./` before a first segment that holds a `:` (which would read as
/// a scheme: `https:x.req.yaml`), and `file://` before an absolute path. A backslash is a
/// separator only on Windows; elsewhere it is part of the name.
pub fn uri(path: &str) -> String {
    let path = if cfg!(windows) {
        path.replace('\\', "/")
    } else {
        path.to_string()
    };
    let relative = super::relative_to_cwd(std::path::Path::new(&path));
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
    } else if out
        .split('/')
        .next()
        .is_some_and(|first| first.contains(':'))
    {
        format!("./{out}")
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
            // The examples are fixtures, one with a credential-shaped word: shown through
            // the same redaction as everything else.
            let markdown = crate::redact::Redactor::none().lines(&markdown);
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

/// The log around its results, serialized once: the rules' descriptions are the same in
/// every run.
static FRAME: std::sync::LazyLock<Result<(String, String), String>> =
    std::sync::LazyLock::new(|| {
        const RESULTS: &str = "\"@results@\"";
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
                "results": "@results@",
            }],
        });
        let frame = serde_json::to_string_pretty(&log).map_err(|e| e.to_string())?;
        let (head, tail) = frame
            .split_once(RESULTS)
            .ok_or("the SARIF frame lost its results")?;
        Ok((head.to_string(), tail.to_string()))
    });

/// Writes the log with each result serialized as it is made: memory does not grow with
/// the number of findings (it grew by about 9 KB each when the whole log was one value).
pub fn write(results: &[FileResult], out: &mut dyn Write) -> io::Result<()> {
    let (head, tail) = FRAME.as_ref().map_err(|e| io::Error::other(e.clone()))?;
    out.write_all(head.as_bytes())?;
    out.write_all(b"[")?;
    let index_of = |rule: &str| REGISTRY.iter().position(|r| r.meta().name == rule);
    let mut first = true;
    for r in results {
        let artifact = uri(&r.path);
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
                        "artifactLocation": {"uri": artifact},
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
            if let Some(fix) = &d.fix {
                // One change per file: the diagnostic's, or another (the config).
                let mut changes: Vec<(String, Vec<serde_json::Value>)> = Vec::new();
                for e in &fix.edits {
                    let file = e
                        .file
                        .as_ref()
                        .map_or_else(|| artifact.clone(), |f| uri(&f.to_string_lossy()));
                    let replacement = json!({
                        "deletedRegion": {"byteOffset": e.span.start, "byteLength": e.span.len()},
                        "insertedContent": {"text": e.replacement},
                    });
                    match changes.iter_mut().find(|(u, _)| *u == file) {
                        Some((_, list)) => list.push(replacement),
                        None => changes.push((file, vec![replacement])),
                    }
                }
                let changes: Vec<serde_json::Value> = changes
                    .into_iter()
                    .map(|(u, replacements)| {
                        json!({"artifactLocation": {"uri": u}, "replacements": replacements})
                    })
                    .collect();
                result["fixes"] = json!([{
                    "description": {"text": fix.message},
                    "artifactChanges": changes,
                }]);
            }
            out.write_all(if first { b"\n" } else { b",\n" })?;
            first = false;
            serde_json::to_writer(&mut *out, &result)?;
        }
    }
    if !first {
        out.write_all(b"\n")?;
    }
    out.write_all(b"]")?;
    out.write_all(tail.as_bytes())?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_with_slashes_and_encoded() {
        assert_eq!(uri("fixtures/a b.req.yaml"), "fixtures/a%20b.req.yaml");
        if cfg!(windows) {
            assert_eq!(uri("dir\\x.req.yaml"), "dir/x.req.yaml");
        } else {
            assert_eq!(uri("dir\\x.req.yaml"), "dir%5Cx.req.yaml");
        }
        assert!(uri("/elsewhere/x.yaml").starts_with("file:///"));
        // A first segment with a colon would read as a scheme.
        assert_eq!(uri("https:x.req.yaml"), "./https:x.req.yaml");
        assert_eq!(uri("a/https:x.req.yaml"), "a/https:x.req.yaml");
        // Names that differ stay apart.
        assert_ne!(uri("a\\xff.req.yaml"), uri("a\\xfe.req.yaml"));
    }
}

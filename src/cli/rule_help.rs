//! `reqlint rules` and `reqlint explain RULE`: the rules, told from their metadata.

use std::fmt::Write as _;
use std::process::ExitCode;

use crate::docs::rules::capitalized;
use crate::redact::Redactor;
use crate::rules::{self, REGISTRY};
use crate::suggest::did_you_mean;

use super::stdio::write_stdout;

/// `reqlint rules`: a row per rule (name, group, default severity, fixes, summary).
pub(super) fn list_rules() -> Result<ExitCode, String> {
    let width = REGISTRY
        .iter()
        .map(|r| r.meta().name.len())
        .max()
        .unwrap_or(0);
    let mut text = format!(
        "{:width$}  {:12}  {:8}  {:12}  SUMMARY\n",
        "RULE", "GROUP", "SEVERITY", "FIX"
    );
    for rule in REGISTRY {
        let m = rule.meta();
        let _ = writeln!(
            text,
            "{:width$}  {:12}  {:8}  {:12}  {}",
            m.name,
            m.group.as_str(),
            m.severity.as_str(),
            m.fix_kinds(),
            m.summary
        );
    }
    write_stdout(text.as_bytes())
}

/// `reqlint explain RULE`; an unknown name is an error that offers the closest one.
pub(super) fn explain(name: &str) -> Result<ExitCode, String> {
    let Some(rule) = rules::find(name) else {
        return Err(match did_you_mean(name, rules::names()) {
            Some(s) => format!("unknown rule `{name}` (did you mean `{s}`?)"),
            None => format!("unknown rule `{name}`; `reqlint rules` lists them"),
        });
    };
    // The examples are fixtures, a credential-shaped one among them: shown through the
    // same redaction as everything else.
    let text = Redactor::none().lines(&explain_text(rule.meta()));
    write_stdout(text.as_bytes())
}

/// `reqlint explain` text, generated from the rule's metadata.
pub fn explain_text(m: &rules::RuleMeta) -> String {
    let indent = |text: &str| {
        text.lines()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("    {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    format!(
        "{name} ({group}, {severity} by default)\n\n{summary}.\n\n\
         What it checks\n{what}\n\n\
         Why\n{why}\n\n\
         Source\n{source}\n\n\
         Fix\n{fix}\n\n\
         Inspects\n    {inspects}\n\n\
         Example that is reported ({bad_path})\n{bad}\n\n\
         Example that passes ({good_path})\n{good}\n",
        name = m.name,
        group = m.group.as_str(),
        severity = m.severity,
        summary = capitalized(m.summary),
        what = indent(&wrap_prose(m.what)),
        why = indent(&wrap_prose(m.why)),
        source = indent(m.source),
        fix = indent(&m.fix_lines().map_or_else(
            || "none: what it reports is for the author to decide".to_string(),
            |lines| {
                lines
                    .iter()
                    .map(|l| wrap_prose(&l.replace('`', "")))
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        )),
        inspects = m.inspects.describe(),
        bad_path = m.bad.path,
        bad = indent(m.bad.text.trim_end()),
        good_path = m.good.path,
        good = indent(m.good.text.trim_end()),
    )
}

/// Wraps prose at 88 columns.
fn wrap_prose(text: &str) -> String {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 88 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

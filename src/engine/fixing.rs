//! Fixing a file: rounds of its chosen fixes, each round linting the text as it is,
//! until none is left; and the diff of the result as `--diff` shows it.

use crate::diagnostic::{Applicability, Edit};
use crate::fix::{Mode, apply, choose, edits_of_other_files, in_order_once};

/// The unified diff of a file's fix (`--diff`), with the secrets of the text before and
/// after masked byte for byte, in the changed lines and in the context lines alike.
pub fn redacted_diff(
    display: &str,
    rel: &std::path::Path,
    before: &str,
    after: &str,
    settings: &super::Settings,
) -> String {
    let old = super::file_secrets(display, rel, before, settings);
    let new = super::file_secrets(display, rel, after, settings);
    let patch = crate::fix::unified_diff(
        display,
        &crate::redact::mask_spans(before, &old.spans),
        &crate::redact::mask_spans(after, &new.spans),
    );
    let mut all = old;
    all.literals.extend(new.literals);
    crate::redact::Redactor::for_secrets(before, &all).lines(&patch)
}

/// What fixing one file's text did.
#[derive(Debug, Default)]
pub struct Fixed {
    pub text: String,
    /// Fixes applied, over every round.
    pub applied: usize,
    /// Unsafe fixes left that `--unsafe-fixes` would apply.
    pub unsafe_left: usize,
    /// Edits of other files (the config) that the file's fixes need, each once.
    pub config_edits: Vec<Edit>,
    /// What the fixed file tells the run-level rules (the permissions its requests use).
    pub facts: crate::rules::RunFacts,
}

/// Rounds of the chosen fixes of a file's text until none is left (at most ten: a fix
/// never undoes another, but a file is not rewritten forever).
pub fn fix_text(
    display: &str,
    rel: &std::path::Path,
    text: &str,
    settings: &super::Settings,
    mode: Mode,
) -> Fixed {
    const ROUNDS: usize = 10;
    let mut text = text.to_string();
    let mut applied = 0;
    let mut others: Vec<Edit> = Vec::new();
    // Each round lints the text as it is. The last (nothing left to apply, or out of
    // rounds) gives what is left and what the run learns of the file: the permissions
    // its requests need, of the text as it now is.
    let mut round = 0;
    let (last, facts) = loop {
        let result = super::lint_bytes(display, rel, text.clone().into_bytes(), settings);
        for e in edits_of_other_files(&result.diagnostics, mode) {
            if !others.contains(&e) {
                others.push(e);
            }
        }
        let chosen = if round < ROUNDS {
            choose(&result.diagnostics, mode, text.len())
        } else {
            Vec::new()
        };
        let next = (!chosen.is_empty()).then(|| {
            apply(
                &text,
                &in_order_once(chosen.iter().flat_map(|f| f.edits.iter())),
            )
        });
        match next {
            Some(next) if next != text => {
                applied += chosen.len();
                text = next;
                round += 1;
            }
            _ => break (result.diagnostics, result.facts),
        }
    };
    let unsafe_left = last
        .iter()
        .filter(|d| {
            d.fix
                .as_ref()
                .is_some_and(|f| f.applicability == Applicability::Unsafe)
        })
        .count();
    Fixed {
        text,
        applied,
        unsafe_left: if mode == Mode::Unsafe { 0 } else { unsafe_left },
        config_edits: others,
        facts,
    }
}

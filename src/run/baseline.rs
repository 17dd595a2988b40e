//! A baseline for gradual adoption: the findings a project accepts for now, written once
//! (`--write-baseline FILE`) and left out of later runs (`--baseline FILE`). Entries are
//! keyed by file, rule and message, with a count, not by line: a line added above a
//! finding does not bring it back. The file is its path relative to the config's
//! directory, so that a run from another directory, or with absolute paths, matches the
//! same entries.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::engine::FileResult;

#[derive(Serialize, Deserialize, Debug, Default, PartialEq)]
pub struct Baseline {
    pub version: u32,
    pub entries: Vec<Entry>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
pub struct Entry {
    pub file: String,
    pub rule: String,
    pub message: String,
    pub count: usize,
}

/// The baseline of a run's results; `file_key` gives a result's path as entries name it.
pub fn of(results: &[FileResult], file_key: impl Fn(&str) -> String) -> Baseline {
    let mut counts: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for r in results {
        for d in &r.diagnostics {
            *counts
                .entry((file_key(&r.path), d.rule.to_string(), d.message.clone()))
                .or_default() += 1;
        }
    }
    Baseline {
        version: 1,
        entries: counts
            .into_iter()
            .map(|((file, rule, message), count)| Entry {
                file,
                rule,
                message,
                count,
            })
            .collect(),
    }
}

/// Leaves out of `results` the findings the baseline holds (as many of each as it
/// counts); returns how many were left out. Of identical findings in a file, the first
/// ones are taken for those the baseline counts.
pub fn apply(
    baseline: &Baseline,
    results: &mut [FileResult],
    file_key: impl Fn(&str) -> String,
) -> usize {
    let mut left: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    for e in &baseline.entries {
        *left
            .entry((e.file.clone(), e.rule.clone(), e.message.clone()))
            .or_default() += e.count;
    }
    let mut dropped = 0;
    for r in results.iter_mut() {
        let file = file_key(&r.path);
        let mut kept = Vec::with_capacity(r.diagnostics.len());
        for d in r.diagnostics.drain(..) {
            let key = (file.clone(), d.rule.to_string(), d.message.clone());
            match left.get_mut(&key) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    dropped += 1;
                }
                _ => kept.push(d),
            }
        }
        r.diagnostics = kept;
    }
    dropped
}

/// Reads a baseline file.
pub fn read(path: &std::path::Path) -> Result<Baseline, String> {
    let bytes = crate::loading::read_bounded(path, 64 * 1024 * 1024, "baseline")?;
    let baseline: Baseline = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}: not a reqlint baseline: {e}", path.display()))?;
    if baseline.version != 1 {
        return Err(format!(
            "{}: baseline version {} is not one this reqlint reads",
            path.display(),
            baseline.version
        ));
    }
    Ok(baseline)
}

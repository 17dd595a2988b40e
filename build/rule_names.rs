//! The rule names the tables may name, read from the rule files' metadata.

use std::collections::BTreeSet;
use std::path::Path;

/// The names of the rules (`name: "..."` of each rule file's metadata), which the
/// tables may name.
pub fn read(dir: &Path) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                for line in text.lines() {
                    if let Some(rest) = line.trim().strip_prefix("name: \"")
                        && let Some(name) = rest.strip_suffix("\",")
                    {
                        names.insert(name.to_string());
                    }
                }
            }
        }
    }
    names
}

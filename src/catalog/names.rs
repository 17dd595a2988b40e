//! How permission names compare: ignoring case, with spaces, hyphens and underscores
//! alike. The build step (build/codehost.rs) includes this file to index the names the
//! same way the lookups normalize them; it imports nothing.

/// `Commit statuses`, `commit-statuses` and `COMMIT_STATUSES` → `commit_statuses`.
pub fn normalize(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            ' ' | '-' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

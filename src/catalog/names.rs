//! How permission names compare: ignoring case, with spaces, hyphens and underscores
//! alike. The build step (build/codehost.rs) includes this file to index the names the
//! same way the lookups normalize them; it imports nothing.

/// `Commit statuses`, `commit-statuses` and `COMMIT_STATUSES` → `commit_statuses`.
pub fn normalize(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match u8::try_from(c) {
            Ok(b) if b.is_ascii() => char::from(normalized_byte(b)),
            _ => c,
        })
        .collect()
}

/// A byte of a name as [`normalize`] writes it: an ASCII letter lowered, a space or a
/// hyphen an underscore; the bytes of other characters as they are, as `normalize`
/// leaves the characters (a lookup normalizes a name byte by byte on the stack).
pub fn normalized_byte(b: u8) -> u8 {
    match b {
        b' ' | b'-' => b'_',
        b => b.to_ascii_lowercase(),
    }
}

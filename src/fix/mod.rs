//! Applying fixes: the edits of the fixes chosen for a file, in rounds until none is left
//! (a fix may only become possible once another is applied, and two fixes never touch
//! the same bytes in one round), and the unified diff of the result.

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::loading::Span;

/// Which fixes are applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--fix`: the safe ones.
    Safe,
    /// `--fix --unsafe-fixes`: the unsafe ones too.
    Unsafe,
}

impl Mode {
    pub fn takes(self, fix: &Fix) -> bool {
        fix.applicability == Applicability::Safe || self == Mode::Unsafe
    }
}

/// The fixes of `diagnostics` that `mode` takes and that do not overlap each other, in
/// the order of their first edit; a fix whose edits overlap one chosen before it waits
/// for the next round.
pub fn choose(diagnostics: &[Diagnostic], mode: Mode, text_len: usize) -> Vec<&Fix> {
    let mut fixes: Vec<&Fix> = diagnostics
        .iter()
        .filter_map(|d| d.fix.as_ref())
        .filter(|f| {
            mode.takes(f) && !f.edits.is_empty() && f.edits.iter().all(|e| e.file.is_none())
        })
        .filter(|f| {
            f.edits
                .iter()
                .all(|e| e.span.end <= text_len && e.span.start <= e.span.end)
        })
        .collect();
    fixes.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min());
    let mut taken: Vec<Span> = Vec::new();
    let mut chosen: Vec<&Fix> = Vec::new();
    for fix in fixes {
        // Edits that fixes chosen already make (the lines of a token's scope, which each
        // of its unused permissions' fixes removes): this fix is made by them too.
        if fix
            .edits
            .iter()
            .all(|e| chosen.iter().any(|c| c.edits.contains(e)))
        {
            chosen.push(fix);
            continue;
        }
        let overlaps = fix
            .edits
            .iter()
            .any(|e| taken.iter().any(|&t| touches(t, e.span)));
        let self_overlap = fix.edits.iter().enumerate().any(|(i, a)| {
            fix.edits[i + 1..]
                .iter()
                .any(|b| a.span.start < b.span.end && b.span.start < a.span.end)
        });
        if overlaps || self_overlap {
            continue;
        }
        taken.extend(fix.edits.iter().map(|e| e.span));
        chosen.push(fix);
    }
    chosen
}

/// Whether two edits' spans may not be made in one round: ranges that share a byte, two
/// insertions at one place, or an insertion at either end of a removed or replaced range
/// (a line added after a scope whose lines go would land in the scope before it).
fn touches(a: Span, b: Span) -> bool {
    let shares = a.start < b.end && b.start < a.end;
    let same_insertion = a == b;
    let at_edge = |insert: Span, range: Span| {
        insert.is_empty()
            && !range.is_empty()
            && (insert.start == range.start || insert.start == range.end)
    };
    shares || same_insertion || at_edge(a, b) || at_edge(b, a)
}

/// `text` with `edits` applied (they do not overlap): where the rules' own edits are
/// applied too, below the rules.
pub use crate::diagnostic::apply_edits as apply;

/// The unified diff of a file's text before and after its fixes.
pub fn unified_diff(path: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// The edits of other files that the chosen fixes of `diagnostics` need.
pub fn edits_of_other_files(diagnostics: &[Diagnostic], mode: Mode) -> Vec<Edit> {
    let mut out: Vec<Edit> = Vec::new();
    for fix in diagnostics.iter().filter_map(|d| d.fix.as_ref()) {
        if !mode.takes(fix) || fix.edits.iter().any(|e| e.file.is_none()) {
            continue;
        }
        for e in &fix.edits {
            if !out.contains(e) {
                out.push(e.clone());
            }
        }
    }
    out
}

/// How the APIs rank the levels a config line may give a key (`Issues: write`): `None`
/// for a word that is no level.
pub type LevelRank<'a> = &'a dyn Fn(&str) -> Option<u8>;

/// Applies edits of another file (the config) gathered from every file's fixes: each
/// once, in order, an edit that overlaps one before it left for the next run. Edits of
/// one place that write one key at different levels (a file needs `Issues: read`,
/// another `Issues: write`: two lines added after the same line, or one level raised to
/// two) are merged into the highest by `rank`, else the key would be written twice.
/// Returns the new text and how many edits were applied.
pub fn apply_config_edits(text: &str, edits: &[Edit], rank: LevelRank<'_>) -> (String, usize) {
    let leveled = |replacement| leveled_line(replacement, rank);
    let sorted = in_order_once(edits.iter());
    let mut merged: Vec<&Edit> = Vec::with_capacity(sorted.len());
    for e in sorted {
        let key = leveled(&e.replacement);
        let same = merged.iter().position(|m| {
            m.span == e.span
                && key.is_some()
                && leveled(&m.replacement).map(|k| k.0) == key.map(|k| k.0)
        });
        match (same, key) {
            (Some(i), Some((_, level))) => {
                if leveled(&merged[i].replacement).is_some_and(|(_, held)| level > held) {
                    merged[i] = e;
                }
            }
            _ => merged.push(e),
        }
    }
    // Insertions at one place that each start the same new scope (`user:` and a
    // permission under it, from two files) become one block, else the scope's key would
    // be written twice.
    let mut blocks: Vec<(Edit, usize)> = Vec::with_capacity(merged.len());
    fn head(replacement: &str) -> Option<&str> {
        block_lines(replacement).map(|(head, _)| head)
    }
    for e in merged {
        let opens = |c: &Edit| {
            c.span == e.span
                && e.span.is_empty()
                && head(&c.replacement).is_some()
                && head(&c.replacement) == head(&e.replacement)
        };
        match blocks.iter_mut().find(|(c, _)| opens(c)) {
            Some((c, n)) => {
                c.replacement = merge_block(&c.replacement, &e.replacement, rank);
                *n += 1;
            }
            None => blocks.push((e.clone(), 1)),
        }
    }
    let mut chosen: Vec<&Edit> = Vec::new();
    let mut count = 0;
    // Insertions (the permissions tokens lack) before removals and replacements: a
    // removal that one touches waits for the next run, not the permission a request
    // needs (the config is edited once a run, without rounds).
    let (insertions, others): (Vec<_>, Vec<_>) =
        blocks.iter().partition(|(e, _)| e.span.is_empty());
    for (e, n) in insertions.into_iter().chain(others) {
        if e.span.end > text.len() {
            continue;
        }
        // (Lines added at one place, after one permission, all go in: in the order of
        // their text.)
        let overlaps = chosen
            .iter()
            .any(|c| touches(c.span, e.span) && !(c.span == e.span && c.span.is_empty()));
        if !overlaps {
            chosen.push(e);
            count += n;
        }
    }
    (apply(text, &chosen), count)
}

/// The edits by place (then text), each once: an edit that several fixes make is made
/// once.
pub fn in_order_once<'e>(edits: impl Iterator<Item = &'e Edit>) -> Vec<&'e Edit> {
    let mut sorted: Vec<&Edit> = edits.collect();
    sorted.sort_by(|a, b| {
        (a.span.start, a.span.end, &a.replacement).cmp(&(b.span.start, b.span.end, &b.replacement))
    });
    sorted.dedup();
    sorted
}

/// A replacement of several lines: its first line (the scope's key) and the rest.
fn block_lines(replacement: &str) -> Option<(&str, Vec<&str>)> {
    let mut lines = replacement.lines().filter(|l| !l.trim().is_empty());
    let head = lines.next()?;
    let rest: Vec<&str> = lines.collect();
    (!rest.is_empty()).then_some((head, rest))
}

/// Two blocks of one new scope as one: the first's lines, then each of the second's
/// permissions the first lacks, a permission both give at the higher level.
fn merge_block(first: &str, second: &str, rank: LevelRank<'_>) -> String {
    let eol = if first.contains("\r\n") { "\r\n" } else { "\n" };
    let (Some((head, mut lines)), Some((_, more))) = (block_lines(first), block_lines(second))
    else {
        return first.to_string();
    };
    for line in more {
        let Some((name, level)) = leveled_line(line, rank) else {
            continue;
        };
        match lines
            .iter()
            .position(|l| leveled_line(l, rank).is_some_and(|(n, _)| n == name))
        {
            Some(i) => {
                if leveled_line(lines[i], rank).is_some_and(|(_, held)| level > held) {
                    lines[i] = line;
                }
            }
            None => lines.push(line),
        }
    }
    let leading = &first[..first.len() - first.trim_start_matches(['\r', '\n']).len()];
    let trailing = if first.ends_with('\n') { eol } else { "" };
    let body: Vec<&str> = std::iter::once(head).chain(lines).collect();
    format!("{leading}{}{trailing}", body.join(eol))
}

/// The key and the rank of the level a replacement writes: a line `  Issues: write` (the
/// key, and its level), or a level alone (`write`, raising the one written: no key).
fn leveled_line<'r>(replacement: &'r str, rank: LevelRank<'_>) -> Option<(&'r str, u8)> {
    let line = replacement.trim_matches(['\r', '\n']);
    if line.contains('\n') {
        return None;
    }
    let (name, level) = match line.rsplit_once(':') {
        Some((name, level)) => (name.trim(), level.trim()),
        None => ("", line.trim()),
    };
    Some((name, rank(level)?))
}

/// Writes a fixed file in place, through [`crate::files::replace`]: to a temporary file
/// beside it (created exclusively, under an unpredictable name), with its permissions,
/// then renamed over it, so that a reader never sees half a file. The file's content is
/// read again just before the rename and the file is left as it is when it changed since
/// `read` (an editor saved it meanwhile). A symbolic link stays a link, the file it
/// points to is the one rewritten, but only inside the project `root`: a link in the
/// project that leads out of it is refused.
pub fn write_in_place(
    path: &std::path::Path,
    root: &std::path::Path,
    read: &[u8],
    fixed: &str,
) -> Result<(), String> {
    write_in_place_checked(path, root, read, fixed, || {})
}

/// [`write_in_place`], with `before_check` run once the fixed text is written beside the
/// file and before its content is compared (a test saves an edit there).
fn write_in_place_checked(
    path: &std::path::Path,
    root: &std::path::Path,
    read: &[u8],
    fixed: &str,
    before_check: impl FnOnce(),
) -> Result<(), String> {
    let changed = || {
        format!(
            "{} changed while it was being fixed; it was left as it is",
            path.display()
        )
    };
    crate::files::check_link_stays_inside(path, root)
        .map_err(|e| format!("{e}; {} was not fixed", path.display()))?;
    let unchanged = |file: &std::path::Path| {
        // Read no more than the text it must equal: a file that grew meanwhile (or became
        // a FIFO) is not read whole.
        crate::loading::read_regular_file(file, read.len() as u64).map(|now| match now {
            crate::loading::ReadFile::Bytes(now) => now == read,
            crate::loading::ReadFile::TooLarge(_) => false,
        })
    };
    if !unchanged(path).map_err(|e| format!("cannot read {}: {e}", path.display()))? {
        return Err(changed());
    }
    let target =
        std::fs::canonicalize(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let permissions = std::fs::metadata(&target)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?
        .permissions();
    let mut edited = false;
    let written = crate::files::replace(&target, fixed.as_bytes(), Some(permissions), || {
        before_check();
        if !unchanged(&target)? {
            edited = true;
            return Err(std::io::Error::other("changed"));
        }
        Ok(())
    });
    match written {
        Ok(()) => Ok(()),
        Err(_) if edited => Err(changed()),
        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which rule a diagnostic comes from does not matter to choosing fixes.
    struct SomeRule;

    static SOME_RULE: SomeRule = SomeRule;

    impl crate::diagnostic::Reporter for SomeRule {
        fn rule_name(&self) -> &'static str {
            "some-rule"
        }

        fn default_severity(&self) -> crate::diagnostic::Severity {
            crate::diagnostic::Severity::Warning
        }
    }
    use crate::loading::Span;

    fn edit(start: usize, end: usize, text: &str) -> Edit {
        Edit {
            span: Span::new(start, end),
            replacement: text.into(),
            file: None,
        }
    }

    #[test]
    fn edits_apply_in_order_and_keep_the_rest() {
        let text = "name: nmae\nkind: POST\n";
        let a = edit(6, 10, "name");
        let b = edit(0, 0, "# fixed\n");
        assert_eq!(apply(text, &[&a, &b]), "# fixed\nname: name\nkind: POST\n");
    }

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let d = |start, end, text: &str| {
            Diagnostic::new(&SOME_RULE, Span::new(start, end), "x")
                .with_fix(Fix::safe("x", vec![edit(start, end, text)]))
        };
        let diags = [d(0, 4, "a"), d(2, 6, "b"), d(8, 9, "c")];
        let chosen = choose(&diags, Mode::Safe, 10);
        assert_eq!(chosen.len(), 2);
        let unsafe_one = Diagnostic::new(&SOME_RULE, Span::new(0, 1), "x")
            .with_fix(Fix::unsafe_("drop", vec![edit(0, 1, "")]));
        assert!(choose(std::slice::from_ref(&unsafe_one), Mode::Safe, 10).is_empty());
        assert_eq!(
            choose(std::slice::from_ref(&unsafe_one), Mode::Unsafe, 10).len(),
            1
        );
    }

    /// Levels as the code-hosting API ranks a permission's.
    fn rank(word: &str) -> Option<u8> {
        ["read", "write", "admin"]
            .iter()
            .position(|w| *w == word)
            .map(|i| i as u8)
    }

    /// Two files' needs of one permission of a named token, at two levels: one line, at
    /// the higher level; needs of two permissions: both lines; one level raised to two:
    /// the higher.
    #[test]
    fn config_edits_of_one_permission_merge_into_the_highest() {
        let text = "      repository:\n        Pull requests: read\n";
        let at = text.len();
        let config = |e: Edit| Edit {
            file: Some("c".into()),
            ..e
        };
        let read = config(edit(at, at, "        Issues: read\n"));
        let write = config(edit(at, at, "        Issues: write\n"));
        let other = config(edit(at, at, "        Contents: read\n"));
        let (fixed, n) =
            apply_config_edits(text, &[read.clone(), write.clone(), read.clone()], &rank);
        assert_eq!(fixed, format!("{text}        Issues: write\n"));
        assert_eq!(n, 1);
        let (fixed, n) = apply_config_edits(text, &[write, other, read], &rank);
        assert_eq!(
            fixed,
            format!("{text}        Contents: read\n        Issues: write\n")
        );
        assert_eq!(n, 2);
        let level = text.find("read").unwrap();
        let (fixed, _) = apply_config_edits(
            text,
            &[
                config(edit(level, level + 4, "write")),
                config(edit(level, level + 4, "admin")),
            ],
            &rank,
        );
        assert_eq!(fixed, text.replace("read", "admin"));
    }

    /// Fixes that make the same edits (each unused permission of a scope removes the
    /// scope's lines) are all applied, by one edit.
    #[test]
    fn fixes_making_the_same_edit_are_applied_once() {
        let d = |start| {
            Diagnostic::new(&SOME_RULE, Span::new(start, start + 1), "x")
                .with_fix(Fix::unsafe_("drop", vec![edit(0, 6, "")]))
        };
        let diags = [d(1), d(3)];
        let chosen = choose(&diags, Mode::Unsafe, 10);
        assert_eq!(chosen.len(), 2);
    }

    #[test]
    fn diffs() {
        let d = unified_diff("a.req.yaml", "a: 1\nb: 2\n", "a: 1\nb: 3\n");
        assert!(d.contains("--- a/a.req.yaml"), "{d}");
        assert!(d.contains("-b: 2\n+b: 3"), "{d}");
    }
}

#[cfg(test)]
mod write_tests {
    use super::*;

    /// An edit saved after the fixed text is written and before it replaces the file is
    /// kept: the file is left as the editor saved it, and no temporary file stays.
    #[test]
    fn an_edit_saved_while_fixing_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.req.yaml");
        std::fs::write(&path, "request: get /user\n").unwrap();
        let read = std::fs::read(&path).unwrap();
        let edit = "request: GET /user\n# saved by the editor\n";
        let refused =
            write_in_place_checked(&path, dir.path(), &read, "request: GET /user\n", || {
                std::fs::write(&path, edit).unwrap();
            });
        let message = refused.unwrap_err();
        assert!(
            message.contains("changed while it was being fixed"),
            "{message}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edit);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // The same length, other bytes (a time-and-size check would miss it).
        std::fs::write(&path, "request: get /user\n").unwrap();
        let same_length = "request: got /user\n";
        let refused =
            write_in_place_checked(&path, dir.path(), &read, "request: GET /user\n", || {
                std::fs::write(&path, same_length).unwrap();
            });
        assert!(refused.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), same_length);
        // Unchanged: fixed.
        std::fs::write(&path, "request: get /user\n").unwrap();
        write_in_place(&path, dir.path(), &read, "request: GET /user\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "request: GET /user\n"
        );
    }
}

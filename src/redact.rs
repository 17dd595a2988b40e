//! The one step that every text shown to a user passes: secrets masked, control
//! characters made visible.
//!
//! What a secret is comes from [`crate::model::secrets`], the scanner the
//! `literal-secret` rule reads too; masking here does not depend on that rule being
//! enabled or its diagnostic surviving a suppression. A message, help, label, error line,
//! `scopes` block or LSP message is cleaned with the secrets of the file it came from (the
//! literal values written under `access_token` and `Authorization`) and with every
//! credential-shaped word, wherever it came from.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::loading::Span;
use crate::model::secrets;

/// What masks a secret in a message: the secret's length is not told.
const MASK: &str = "****";

/// A file's literal secrets shorter than this are not looked for in messages: a
/// one-letter `access_token` would mask every such letter. Credential-shaped words are
/// masked whatever their length.
const MIN_LITERAL: usize = 4;

/// Masks the secrets of one file (or of none) in the texts shown about it.
#[derive(Clone, Debug, Default)]
pub struct Redactor {
    /// The file's secret texts, found in one pass, a longer one before a part of it.
    literals: Option<aho_corasick::AhoCorasick>,
    /// There were too many to search for: every text is withheld.
    withhold: bool,
}

impl Redactor {
    /// A redactor that knows no file: it masks credential-shaped words only.
    pub fn none() -> Redactor {
        Redactor::default()
    }

    /// A redactor for texts about a file whose secrets are at `spans`.
    pub fn for_text(text: &str, spans: &[Span]) -> Redactor {
        Redactor::for_secrets(
            text,
            &secrets::FileSecrets {
                spans: spans.to_vec(),
                ..Default::default()
            },
        )
    }

    /// A redactor for texts about a file with these secrets: the values at their spans
    /// (with and without their quotes and auth scheme) and the values the file is given
    /// from elsewhere.
    pub fn for_secrets(text: &str, secrets: &secrets::FileSecrets) -> Redactor {
        Redactor::for_literals(secret_texts(text, secrets))
    }

    /// A redactor for texts about several files, of which these are the secret texts
    /// ([`secret_texts`]).
    pub fn for_literals(mut literals: Vec<String>) -> Redactor {
        literals.retain(|s| s.chars().count() >= MIN_LITERAL);
        literals.sort_unstable();
        literals.dedup();
        if literals.is_empty() {
            return Redactor::none();
        }
        let finder = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostLongest)
            .kind(Some(aho_corasick::AhoCorasickKind::NoncontiguousNFA))
            .build(&literals);
        match finder {
            Ok(finder) => Redactor {
                literals: Some(finder),
                withhold: false,
            },
            // Too many to search for at once: every message of the file is withheld
            // rather than shown with a secret in it.
            Err(_) => Redactor {
                literals: None,
                withhold: true,
            },
        }
    }

    /// `text` with secrets masked, as one line: every control character escaped,
    /// line breaks included.
    pub fn line(&self, text: &str) -> String {
        escape_controls(&self.mask(text), false).into_owned()
    }

    /// `text` with secrets masked and control characters escaped, line breaks kept.
    pub fn lines(&self, text: &str) -> String {
        escape_controls(&self.mask(text), true).into_owned()
    }

    /// `text` with secrets masked (control characters as they are).
    pub fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.withhold {
            return Cow::Borrowed(MASK);
        }
        let masked = mask_tokens(text);
        match &self.literals {
            Some(finder) if finder.is_match(masked.as_ref()) => {
                let mut out = String::with_capacity(masked.len());
                finder.replace_all_with(masked.as_ref(), &mut out, |_, _, dst| {
                    dst.push_str(MASK);
                    true
                });
                Cow::Owned(out)
            }
            _ => masked,
        }
    }
}

/// The texts a file's secrets are written with, to be looked for in what is shown about
/// it: the values at their spans, with and without their quotes and auth scheme, and
/// the values the file is given from elsewhere.
pub fn secret_texts(text: &str, secrets: &secrets::FileSecrets) -> Vec<String> {
    secrets
        .spans
        .iter()
        .filter_map(|s| text.get(s.start..s.end))
        .flat_map(|s| {
            let unquoted = s.trim().trim_matches(['"', '\'', '\\']).trim();
            [s.trim(), unquoted, secrets::without_scheme(unquoted)]
        })
        .chain(secrets.literals.iter().map(|l| l.trim()))
        .filter(|s| s.chars().count() >= MIN_LITERAL)
        .map(str::to_string)
        .collect()
}

/// Every credential-shaped word masked, keeping its public prefix (`ghp_****`) so that a
/// reader knows what was there.
pub fn mask_tokens(text: &str) -> Cow<'_, str> {
    let mut found = secrets::find_tokens(text).peekable();
    if found.peek().is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for m in found {
        out.push_str(&text[at..m.range.start]);
        out.push_str(m.prefix);
        out.push_str(MASK);
        at = m.range.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// A one-line text for standard error or a log: secrets masked, control characters
/// escaped, and nothing a CI runner would take for a command of its own.
pub fn log_line(text: &str) -> String {
    neutralize_workflow_commands(&Redactor::none().line(text)).into_owned()
}

/// The file's text with every secret span replaced by `*`, one per byte, so that every
/// other offset stays where it was.
pub fn mask_spans(text: &str, spans: &[Span]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for s in spans {
        let start = text.floor_char_boundary(s.start.max(at));
        let end = text.ceil_char_boundary(s.end);
        if start >= end {
            continue;
        }
        out.push_str(&text[at..start]);
        out.extend(std::iter::repeat_n('*', end - start));
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether a character must not reach a terminal as it is: C0 and C1 controls, DEL, and
/// the characters that reorder or hide text (bidirectional overrides and isolates, line
/// and paragraph separators).
pub fn is_hostile_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// Printable ASCII, tabs and (when kept) line feeds only: what nearly every message is,
/// told by bytes without decoding characters. A carriage return is left to the full
/// check, which keeps it only before a line feed.
fn is_printable_ascii(text: &str, keep_newlines: bool) -> bool {
    text.bytes()
        .all(|b| matches!(b, b' '..=b'~' | b'\t') || (keep_newlines && b == b'\n'))
}

/// Control characters written as visible escapes (`\x1b`, `\r`, `\u{202e}`); a tab stays,
/// and line breaks stay when `keep_newlines`.
pub fn escape_controls(text: &str, keep_newlines: bool) -> Cow<'_, str> {
    // With line breaks kept, a CRLF's carriage return stays too: right before the line
    // feed it cannot overwrite anything (and a patch of a CRLF file stays one).
    let keep = |c: char, next: Option<&char>| {
        c == '\t' || (keep_newlines && (c == '\n' || (c == '\r' && next == Some(&'\n'))))
    };
    if is_printable_ascii(text, keep_newlines) {
        return Cow::Borrowed(text);
    }
    let mut chars = text.chars().peekable();
    let mut clean = true;
    while let Some(c) = chars.next() {
        if is_hostile_char(c) && !keep(c, chars.peek()) {
            clean = false;
            break;
        }
    }
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !is_hostile_char(c) || keep(c, chars.peek()) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// A line that the GitHub Actions runner will not read as a command: its legacy parser
/// takes `##[` anywhere in a line, and `::` at the start of one (after white space).
pub fn neutralize_workflow_commands(line: &str) -> Cow<'_, str> {
    let starts_with_command = line.trim_start().starts_with("::");
    if !starts_with_command && !line.contains("##[") {
        return Cow::Borrowed(line);
    }
    let mut out = line.replace("##[", "#\\#[");
    if starts_with_command {
        out.insert(0, '\\');
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GHP: &str = "ghp_R3qlint_Fak3_T0ken_00000000000000000";

    #[test]
    fn the_ascii_quick_path_accepts_only_what_the_full_check_keeps() {
        for keep_newlines in [false, true] {
            for byte in 0u8..=0x7f {
                let c = char::from(byte);
                let kept = !is_hostile_char(c) || c == '\t' || (keep_newlines && c == '\n');
                let text = format!("a{c}b");
                if is_printable_ascii(&text, keep_newlines) {
                    assert!(kept, "{byte:#x} passed the quick path");
                }
                assert_eq!(
                    escape_controls(&text, keep_newlines) == text,
                    kept,
                    "{byte:#x}"
                );
            }
        }
        assert!(!is_printable_ascii("caf\u{e9}", false));
        assert_eq!(escape_controls("caf\u{e9}", false), "caf\u{e9}");
        assert_eq!(escape_controls("a\r\nb", true), "a\r\nb");
        assert_eq!(escape_controls("a\rb", true), "a\\rb");
    }

    #[test]
    fn tokens_are_masked_wherever_they_are() {
        let text = format!("token `{GHP}` is not defined; define `{GHP}`");
        assert_eq!(
            Redactor::none().line(&text),
            "token `ghp_****` is not defined; define `ghp_****`"
        );
    }

    #[test]
    fn a_files_literal_secrets_are_masked() {
        let text = "access_token: s3cr3t-v4lue\nname: x\n";
        let r = Redactor::for_text(text, &[Span::new(14, 26)]);
        assert_eq!(
            r.line("param `s3cr3t-v4lue` is unknown"),
            "param `****` is unknown"
        );
        // Too short to be looked for in messages.
        let short = Redactor::for_text("access_token: ab\n", &[Span::new(14, 16)]);
        assert_eq!(short.line("a b ab"), "a b ab");
    }

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(
            Redactor::none().line("a\x1b[2Jb\rc\nd\u{202e}e\u{7f}\u{85}\tf"),
            "a\\x1b[2Jb\\rc\\nd\\u{202e}e\\x7f\\u{85}\tf"
        );
        assert_eq!(Redactor::none().lines("a\nb\x08"), "a\nb\\x08");
    }

    #[test]
    fn spans_are_masked_byte_for_byte() {
        let text = "a: é secret b";
        let masked = mask_spans(text, &[Span::new(6, 12)]);
        assert_eq!(masked, "a: é ****** b");
        assert_eq!(masked.len(), text.len());
        // A span that cuts a character masks the whole character.
        assert_eq!(mask_spans("é", &[Span::new(1, 2)]), "**");
        assert_eq!(mask_spans("ab", &[Span::new(1, 9)]), "a*");
    }

    #[test]
    fn workflow_commands_are_neutralized() {
        assert_eq!(log_line("x ##[error]y"), "x #\\#[error]y");
        assert_eq!(log_line("::add-mask::x"), "\\::add-mask::x");
        assert_eq!(log_line("a\n::stop-commands::t"), "a\\n::stop-commands::t");
        assert_eq!(log_line("plain"), "plain");
    }
}

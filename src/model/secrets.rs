//! What a file's secrets are and where: the one scanner that both the `literal-secret`
//! rule and the redaction of every output (src/redact.rs) read, so that masking never
//! depends on a rule being enabled, a diagnostic being suppressed or a file parsing.

use std::ops::Range;

use crate::loading::encoded::SourceMap;
use crate::loading::{Entry, Node, Problem, Span, Value};

/// Keys whose value is a credential whatever it looks like (compared case-insensitively).
pub const SECRET_KEYS: &[&str] = &["access_token", "authorization"];

/// Credential formats: (prefix, shortest body after it, what it is).
const TOKEN_FORMATS: &[(&str, usize, &str)] = &[
    (
        "github_pat_",
        22,
        "a fine-grained personal access token of the code-hosting host",
    ),
    (
        "ghp_",
        30,
        "a personal access token of the code-hosting host",
    ),
    ("gho_", 30, "an OAuth token of the code-hosting host"),
    (
        "ghu_",
        30,
        "a user-to-server token of the code-hosting host",
    ),
    (
        "ghs_",
        30,
        "a server-to-server token of the code-hosting host",
    ),
    ("ghr_", 30, "a refresh token of the code-hosting host"),
    ("EAA", 30, "an access token of the advertising API"),
];

/// A credential-shaped word found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenMatch {
    /// Byte range of the whole word in the text searched.
    pub range: Range<usize>,
    /// The format's public prefix (`ghp_`), which may be shown.
    pub prefix: &'static str,
    /// What kind of credential it is, for messages.
    pub what: &'static str,
}

fn token_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Every credential-shaped word of `text`, in order, without overlaps.
pub fn find_tokens(text: &str) -> impl Iterator<Item = TokenMatch> + '_ {
    let bytes = text.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        while from < bytes.len() {
            let start = from;
            from += 1;
            // A token starts a word with the first letter of one of the prefixes.
            if !matches!(bytes[start], b'g' | b'E') || (start > 0 && token_char(bytes[start - 1])) {
                continue;
            }
            if let Some(found) = token_at(bytes, start) {
                from = found.range.end;
                return Some(found);
            }
        }
        None
    })
}

/// The first credential-shaped word of `text`.
pub fn find_token(text: &str) -> Option<TokenMatch> {
    find_tokens(text).next()
}

fn token_at(bytes: &[u8], start: usize) -> Option<TokenMatch> {
    for (prefix, min_body, what) in TOKEN_FORMATS {
        if !bytes[start..].starts_with(prefix.as_bytes()) {
            continue;
        }
        let mut end = start + prefix.len();
        while end < bytes.len() && token_char(bytes[end]) {
            end += 1;
        }
        let body = &bytes[start + prefix.len()..end];
        // A real token mixes letters and digits; an identifier like EAA_SETTINGS does not.
        let random_looking =
            body.iter().any(u8::is_ascii_digit) && body.iter().any(u8::is_ascii_alphabetic);
        if body.len() >= *min_body && random_looking {
            return Some(TokenMatch {
                range: start..end,
                prefix,
                what,
            });
        }
    }
    None
}

/// Whether `key` names a credential (`access_token`, `Authorization`).
pub fn is_secret_key(key: &str) -> bool {
    SECRET_KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// A value without the auth scheme it may start with (`Bearer x` → `x`).
fn without_scheme(value: &str) -> &str {
    let v = value.trim();
    match v.split_once(char::is_whitespace) {
        Some((scheme, rest))
            if ["bearer", "token", "basic", "oauth"]
                .contains(&scheme.to_ascii_lowercase().as_str()) =>
        {
            rest.trim()
        }
        _ => v,
    }
}

/// `${X}`, `$X`, `{{x}}`, `<x>`, or an auth scheme followed by one of those.
pub fn is_reference(value: &str) -> bool {
    let v = without_scheme(value);
    let var = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (v.starts_with("${") && v.ends_with('}'))
        || v.strip_prefix('$').is_some_and(var)
        || (v.starts_with("{{") && v.ends_with("}}"))
        || (v.starts_with('<') && v.ends_with('>'))
}

/// Whether a scalar written as a credential's value is a literal credential.
pub fn is_literal_value(node: &Node) -> bool {
    match &node.value {
        Value::String(s) => !s.trim().is_empty() && !is_reference(s),
        Value::Number(_) => true,
        _ => false,
    }
}

/// How a secret of the parsed documents was recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found<'a> {
    /// A literal scalar under a credential key (the key as written).
    Keyed { key: &'a str },
    /// A credential-shaped word inside a string.
    Token(TokenMatch),
}

/// A secret of the parsed documents and where the file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret<'a> {
    pub span: Span,
    pub found: Found<'a>,
}

/// The secrets that the parsed documents hold: every literal scalar under a credential
/// key (lists and mappings included) and every credential-shaped word inside the other
/// strings (JSON-encoded ones decoded), in `roots` and in the `extra` entries (values a
/// duplicate key replaced, a request line's query parameters). A value under a
/// credential key is a secret whole: it is not searched for words again.
pub fn tree_secrets<'a>(
    text: &str,
    roots: impl IntoIterator<Item = &'a Node>,
    extra: impl IntoIterator<Item = &'a Entry>,
) -> Vec<Secret<'a>> {
    let mut out = Vec::new();
    let mut stack: Vec<&'a Node> = Vec::new();
    let visit = |entry: &'a Entry, stack: &mut Vec<&'a Node>, out: &mut Vec<Secret<'a>>| {
        if !is_secret_key(&entry.key) {
            stack.push(&entry.value);
            return;
        }
        entry.value.walk(|node| {
            if is_literal_value(node) {
                out.push(Secret {
                    span: node.span,
                    found: Found::Keyed { key: &entry.key },
                });
            }
        });
    };
    for entry in extra {
        visit(entry, &mut stack, &mut out);
    }
    stack.extend(roots);
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Map(entries) => {
                for e in entries.iter().rev() {
                    visit(e, &mut stack, &mut out);
                }
            }
            Value::Seq(items) => stack.extend(items.iter().rev()),
            Value::EncodedJson { decoded, .. } => stack.push(decoded),
            Value::String(s) => {
                for m in find_tokens(s) {
                    out.push(Secret {
                        span: SourceMap::for_scalar(text, node.span, s).span(m.range.clone()),
                        found: Found::Token(m),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Every span of `text` that holds a secret, sorted and merged: credential-shaped words
/// anywhere (values, keys, comments, broken lines), the values of credential keys as the
/// text writes them, the secrets of the parsed documents ([`tree_secrets`]), and every
/// other place the same literal is written again.
pub fn secret_spans(text: &str, documents: &[Node], problems: &[Problem]) -> Vec<Span> {
    let mut spans = text_spans(text);
    let shadowed = problems.iter().filter_map(|p| p.shadowed.as_deref());
    spans.extend(
        tree_secrets(text, documents, shadowed)
            .into_iter()
            .map(|s| s.span),
    );
    let mut spans = merge(spans);
    add_repeats(text, &mut spans);
    spans
}

/// A secret written twice is masked twice: the literal values found are looked for
/// everywhere else in the text (those of four characters or more, as in messages).
fn add_repeats(text: &str, spans: &mut Vec<Span>) {
    let mut literals: Vec<&str> = spans
        .iter()
        .filter_map(|s| text.get(s.start..s.end))
        .map(|s| s.trim_matches(['"', '\'', ' ']))
        .filter(|s| s.chars().count() >= 4)
        .collect();
    literals.sort_unstable();
    literals.dedup();
    let mut more = Vec::new();
    for literal in literals {
        more.extend(
            text.match_indices(literal)
                .map(|(at, _)| Span::new(at, at + literal.len())),
        );
    }
    if !more.is_empty() {
        spans.extend(more);
        *spans = merge(std::mem::take(spans));
    }
}

/// The secret spans found in the text alone, so that a file that does not parse has
/// them too: credential-shaped words and the values written after credential keys.
fn text_spans(text: &str) -> Vec<Span> {
    let mut spans: Vec<Span> = find_tokens(text)
        .map(|m| Span::new(m.range.start, m.range.end))
        .collect();
    spans.extend(keyed_values(text));
    spans
}

/// Values written after a credential key (`access_token: x`, `"Authorization": "x"`,
/// `?access_token=x`), read from the text alone so that a file that does not parse
/// still has them masked.
fn keyed_values(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let lower_first = |b: u8| matches!(b, b'a' | b'A');
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !lower_first(bytes[i]) || (i > 0 && token_char(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let Some(key) = SECRET_KEYS.iter().find(|k| {
            bytes.len() >= i + k.len() && bytes[i..i + k.len()].eq_ignore_ascii_case(k.as_bytes())
        }) else {
            i += 1;
            continue;
        };
        let mut j = i + key.len();
        i = j;
        if j < bytes.len() && token_char(bytes[j]) {
            continue;
        }
        // The key's closing quote (escaped inside a JSON-encoded string), then `:` or `=`.
        while j < bytes.len() && matches!(bytes[j], b'"' | b'\'' | b'\\' | b' ' | b'\t') {
            j += 1;
        }
        if j >= bytes.len() || !matches!(bytes[j], b':' | b'=') {
            continue;
        }
        j += 1;
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        let mut quote = None;
        if j < bytes.len() && matches!(bytes[j], b'"' | b'\'') {
            quote = Some(bytes[j]);
            j += 1;
        }
        let start = j;
        while j < bytes.len() {
            let b = bytes[j];
            let ends = match quote {
                Some(q) => b == q || b == b'\n' || b == b'\r' || b == b'\\',
                None => {
                    matches!(b, b'\n' | b'\r' | b'&' | b',' | b'}' | b']' | b'"' | b'\\')
                        || (b == b'#' && j > start && matches!(bytes[j - 1], b' ' | b'\t'))
                }
            };
            if ends {
                break;
            }
            j += 1;
        }
        let value = text[start..j].trim_end();
        let structural = value
            .bytes()
            .next()
            .is_none_or(|b| matches!(b, b'[' | b'{' | b'|' | b'>' | b'&' | b'*' | b'!'));
        if !structural && !looks_like_reference(value) && value != "null" && value != "~" {
            out.push(Span::new(start, start + value.len()));
        }
        i = j.max(i);
    }
    out
}

/// A value read from the text alone may have been cut at a `}` of its own (`${X}`): a
/// value that starts like a reference is taken for one.
fn looks_like_reference(value: &str) -> bool {
    let v = without_scheme(value);
    is_reference(v) || v.starts_with("${") || v.starts_with("{{") || v.starts_with('<')
}

fn merge(mut spans: Vec<Span>) -> Vec<Span> {
    spans.retain(|s| !s.is_empty());
    spans.sort_by_key(|s| (s.start, s.end));
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, load};

    fn spans_of(text: &str) -> Vec<&str> {
        let loaded = load(text.as_bytes().to_vec(), Format::Yaml, &Limits::DEFAULT);
        secret_spans(&loaded.text, &loaded.documents, &loaded.problems)
            .into_iter()
            .map(|s| &text[s.start..s.end])
            .collect()
    }

    const GHP: &str = "ghp_R3qlint_Fak3_T0ken_00000000000000000";

    #[test]
    fn token_formats() {
        let t = format!("ghp_{}", "a1".repeat(18));
        assert!(find_token(&t).is_some());
        assert!(find_token(&format!("Bearer {t}")).is_some());
        assert!(find_token(GHP).is_some());
        assert!(find_token("ghp_short").is_none());
        assert!(find_token("EAA_SETTINGS_ARE_NOT_TOKENS_AT_ALL_REALLY").is_none());
        assert!(find_token(&format!("EAAB{}", "x9".repeat(40))).is_some());
        assert!(find_token(&format!("xEAAB{}", "x9".repeat(40))).is_none());
        let two = format!("{t} and {t}");
        assert_eq!(find_tokens(&two).count(), 2);
    }

    #[test]
    fn references() {
        for r in [
            "${FB_TOKEN}",
            "$GH_TOKEN",
            "{{token}}",
            "<token>",
            "Bearer ${GH}",
            "token $GH",
        ] {
            assert!(is_reference(r), "{r}");
        }
        for r in ["abc", "Bearer abc", "$", "${X"] {
            assert!(!is_reference(r), "{r}");
        }
    }

    #[test]
    fn secrets_anywhere_in_the_text() {
        // A key, a comment, a suppression comment, a value.
        let text = format!(
            "{GHP}: 1\n# old token {GHP}\nname: x # reqlint: ignore[{GHP}]\ntoken: {GHP}\n"
        );
        assert_eq!(spans_of(&text), vec![GHP; 4]);
    }

    #[test]
    fn values_of_credential_keys_in_any_shape() {
        let text = "params:\n  access_token: [s3cr3t-value]\n  Authorization: \"Bearer abc.def\"\n  other: ok\n";
        assert_eq!(spans_of(text), vec!["s3cr3t-value", "\"Bearer abc.def\""]);
        let refs = "params:\n  access_token: ${FB_TOKEN}\n  authorization: Bearer {{t}}\n";
        assert!(spans_of(refs).is_empty());
        let query = "request: GET /v24.0/me?fields=id&access_token=abc123&x=1\n";
        assert_eq!(spans_of(query), vec!["abc123"]);
    }

    #[test]
    fn a_file_that_does_not_parse_still_has_its_secrets() {
        let text = "params:\n  access_token: s3cr3t\n  : [ broken\n";
        assert_eq!(spans_of(text), vec!["s3cr3t"]);
        let json = "{\"access_token\": \"s3cr3t\", \"x\": [}";
        let loaded = load(json.as_bytes().to_vec(), Format::Json, &Limits::DEFAULT);
        let spans = secret_spans(&loaded.text, &loaded.documents, &loaded.problems);
        assert_eq!(
            spans
                .iter()
                .map(|s| &json[s.start..s.end])
                .collect::<Vec<_>>(),
            vec!["s3cr3t"]
        );
    }

    #[test]
    fn json_encoded_strings() {
        let text = "params:\n  targeting: '{\"access_token\": \"s3cr3t\"}'\n";
        assert_eq!(spans_of(text), vec!["s3cr3t"]);
    }

    #[test]
    fn a_secret_written_twice_is_masked_twice() {
        let text = "params:\n  access_token: s3cr3t-v4lue\n  name: s3cr3t-v4lue\n";
        assert_eq!(spans_of(text), vec!["s3cr3t-v4lue", "s3cr3t-v4lue"]);
    }

    #[test]
    fn overlapping_spans_merge() {
        let spans = merge(vec![Span::new(5, 9), Span::new(0, 3), Span::new(2, 6)]);
        assert_eq!(spans, vec![Span::new(0, 9)]);
    }
}

//! What a file's secrets are and where: the one scanner that both the `literal-secret`
//! rule and the redaction of every output (src/redact.rs) read, so that masking never
//! depends on a rule being enabled, a diagnostic being suppressed or a file parsing.
//!
//! A file's secrets are (a) the values of credential positions: the values of credential
//! keys and headers (`access_token`, `Authorization`, `Cookie`, `X-Api-Key`, …), the
//! credentials a reader knows of (auth blocks, disabled headers, Basic-auth pairs; the
//! document's [`SECRETS_KEY`]), and the definitions of every variable whose value is used
//! in one of those (found in the parsed documents, and in the text alone so that a file
//! that does not parse has them too); and (b) every credential-shaped word, anywhere.
//! The values of the environment's variables that are used in a credential position, or
//! named like a credential, are secrets of the file too, though the file does not hold
//! them: they are masked in every message.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::loading::encoded::{SourceMap, find_doubled, has_reference};
use crate::loading::{Entry, Node, Problem, Span, Value};

pub use crate::loading::credentials::{SECRET_KEYS, is_secret_key};
use crate::loading::credentials::{key_ends_with, key_eq};
pub use crate::loading::readers::SECRETS_KEY;

/// Keys whose literal value is masked but not reported: a cookie may hold a consent flag
/// as well as a session.
const MASKED_ONLY_KEYS: &[&str] = &["cookie"];

/// Of the endings of [`crate::loading::credentials::SECRET_KEY_ENDINGS`], those whose literal value is reported: a
/// `…_token` param may be an opaque reference of the API's own (the advertising API's
/// `story_token`, `page_token`), masked only, where `…_access_token` and `…_auth_token`
/// are credentials.
const REPORTED_KEY_ENDINGS: &[&str] = &[
    "_api_key",
    "_apikey",
    "_secret",
    "_password",
    "_access_token",
    "_auth_token",
];

/// A credential format: a public prefix, then a body of token characters.
struct TokenFormat {
    prefix: &'static str,
    /// The length of a real credential's body (`None`: it varies, at least `masked`).
    body: Option<usize>,
    /// The shortest body that is masked: a cut or mistyped credential is still one.
    masked: usize,
    /// Underscores may be part of the body.
    underscore: bool,
    what: &'static str,
}

/// The credential formats, as their vendors document them: the code-hosting host's tokens
/// are a prefix and 36 characters (30 random ones and a checksum), its fine-grained ones
/// `github_pat_` and 82 characters ("About authentication to GitHub", "GitHub's token
/// formats"); the advertising API's user tokens start with `EAA` and vary in length
/// (Meta for Developers, "Access Tokens").
const TOKEN_FORMATS: &[TokenFormat] = &[
    TokenFormat {
        prefix: "github_pat_",
        body: Some(82),
        masked: 22,
        underscore: true,
        what: "a fine-grained personal access token of the code-hosting host",
    },
    TokenFormat {
        prefix: "ghp_",
        body: Some(36),
        masked: 20,
        underscore: true,
        what: "a personal access token of the code-hosting host",
    },
    TokenFormat {
        prefix: "gho_",
        body: Some(36),
        masked: 20,
        underscore: true,
        what: "an OAuth token of the code-hosting host",
    },
    TokenFormat {
        prefix: "ghu_",
        body: Some(36),
        masked: 20,
        underscore: true,
        what: "a user-to-server token of the code-hosting host",
    },
    TokenFormat {
        prefix: "ghs_",
        body: Some(36),
        masked: 20,
        underscore: true,
        what: "a server-to-server token of the code-hosting host",
    },
    TokenFormat {
        prefix: "ghr_",
        body: Some(36),
        masked: 20,
        underscore: true,
        what: "a refresh token of the code-hosting host",
    },
    TokenFormat {
        prefix: "EAA",
        body: None,
        masked: 20,
        underscore: false,
        what: "an access token of the advertising API",
    },
];

/// The shortest body of a reported `EAA…` token.
const EAA_REPORTED: usize = 30;

const JWT_WHAT: &str = "a JSON Web Token";
/// Parts of a JSON Web Token: a header and a payload (base64url JSON, so `eyJ`), the
/// signature.
const JWT_PREFIX: &str = "eyJ";
const JWT_MIN_PART: usize = 8;
const JWT_MIN_SIGNATURE: usize = 16;

/// A credential-shaped word found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenMatch {
    /// Byte range of the whole word in the text searched.
    pub range: Range<usize>,
    /// The format's public prefix (`ghp_`), which may be shown.
    pub prefix: &'static str,
    /// What kind of credential it is, for messages.
    pub what: &'static str,
    /// It has a real credential's shape (length and all): reported as a literal secret.
    /// A shorter or longer word after a known prefix is masked only.
    pub real: bool,
}

fn token_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn base64url_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// The shortest credential-shaped word: a JSON Web Token's header and payload and the
/// `.` between them (every prefixed format is longer).
const SHORTEST_TOKEN: usize = {
    let mut shortest = 2 * JWT_MIN_PART + 1;
    let mut i = 0;
    while i < TOKEN_FORMATS.len() {
        let len = TOKEN_FORMATS[i].prefix.len() + TOKEN_FORMATS[i].masked;
        if len < shortest {
            shortest = len;
        }
        i += 1;
    }
    shortest
};

/// The pairs of letters a credential-shaped word starts with: every prefix starts with
/// `gh` or `gi` (`ghp_`, `github_pat_`) or `EA` (`EAA`), a JSON Web Token with `ey`. No
/// pair's second letter is another's first, so their places never overlap.
const FIRST_PAIRS: [&str; 4] = ["gh", "gi", "EA", "ey"];

/// A search of [`FIRST_PAIRS`] together, in blocks of the text: a text asked for its
/// words holds the first letters (`g`, `E`, `e`) dozens of times, each a restart of a
/// search of single letters, where the pairs are few.
static PAIR_SEARCH: std::sync::LazyLock<Option<aho_corasick::packed::Searcher>> =
    std::sync::LazyLock::new(|| aho_corasick::packed::Searcher::new(FIRST_PAIRS));

/// Where the next of [`FIRST_PAIRS`] starts, at `from` or after.
fn next_pair(bytes: &[u8], mut from: usize) -> Option<usize> {
    if let Some(search) = PAIR_SEARCH.as_ref()
        && bytes.len() - from >= search.minimum_len()
    {
        return search
            .find_in(bytes, aho_corasick::Span::from(from..bytes.len()))
            .map(|m| m.start());
    }
    // A short string: a search of the first letters costs less than setting up blocks.
    while let Some(offset) = memchr::memchr3(b'g', b'E', b'e', &bytes[from..]) {
        let at = from + offset;
        let pair_second = match bytes[at] {
            b'g' => matches!(bytes.get(at + 1), Some(b'h' | b'i')),
            b'E' => bytes.get(at + 1) == Some(&b'A'),
            _ => bytes.get(at + 1) == Some(&b'y'),
        };
        if pair_second {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Every credential-shaped word of `text`, in order, without overlaps.
pub fn find_tokens(text: &str) -> impl Iterator<Item = TokenMatch> + '_ {
    let bytes = text.as_bytes();
    // Most strings of a file are shorter than any credential.
    let mut from = if bytes.len() < SHORTEST_TOKEN {
        bytes.len()
    } else {
        0
    };
    std::iter::from_fn(move || {
        while from < bytes.len() {
            let Some(start) = next_pair(bytes, from) else {
                from = bytes.len();
                break;
            };
            from = start + 1;
            // A token starts a word; a JSON Web Token does not start inside another's
            // parts (`-`, `.`), so that each run of its characters is read once.
            let starts_word = if bytes[start] == b'e' {
                start == 0 || !(base64url_char(bytes[start - 1]) || bytes[start - 1] == b'.')
            } else {
                start == 0 || !token_char(bytes[start - 1])
            };
            if !starts_word {
                continue;
            }
            if let Some(found) = token_at(bytes, start).or_else(|| jwt_at(bytes, start)) {
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
    for format in TOKEN_FORMATS {
        if !bytes[start..].starts_with(format.prefix.as_bytes()) {
            continue;
        }
        let body_start = start + format.prefix.len();
        let mut end = body_start;
        while end < bytes.len() && token_char(bytes[end]) {
            end += 1;
        }
        let body = &bytes[body_start..end];
        if !format.underscore && body.contains(&b'_') {
            continue;
        }
        // A real token mixes letters and digits; an identifier like EAA_SETTINGS does not.
        let random_looking =
            body.iter().any(u8::is_ascii_digit) && body.iter().any(u8::is_ascii_alphabetic);
        if body.len() < format.masked || !random_looking {
            continue;
        }
        let real = match format.body {
            Some(n) => body.len() == n,
            None => body.len() >= EAA_REPORTED,
        };
        return Some(TokenMatch {
            range: start..end,
            prefix: format.prefix,
            what: format.what,
            real,
        });
    }
    None
}

/// A JSON Web Token: `eyJ…` header, `.`, `eyJ…` payload, and a signature after a second
/// `.` (a token without one is masked, not reported).
fn jwt_at(bytes: &[u8], start: usize) -> Option<TokenMatch> {
    let part = |from: usize| {
        let mut end = from;
        while end < bytes.len() && base64url_char(bytes[end]) {
            end += 1;
        }
        end
    };
    if !bytes[start..].starts_with(JWT_PREFIX.as_bytes()) {
        return None;
    }
    let header_end = part(start);
    if header_end - start < JWT_MIN_PART || bytes.get(header_end) != Some(&b'.') {
        return None;
    }
    let payload = header_end + 1;
    if !bytes[payload..].starts_with(JWT_PREFIX.as_bytes()) {
        return None;
    }
    let payload_end = part(payload);
    if payload_end - payload < JWT_MIN_PART {
        return None;
    }
    let (end, real) = if bytes.get(payload_end) == Some(&b'.') {
        let signature_end = part(payload_end + 1);
        let signed = signature_end - (payload_end + 1) >= JWT_MIN_SIGNATURE;
        (signature_end, signed)
    } else {
        (payload_end, false)
    };
    Some(TokenMatch {
        range: start..end,
        prefix: JWT_PREFIX,
        what: JWT_WHAT,
        real,
    })
}

/// Compares a key with a lower-case, `_`-separated name, ignoring case and taking `-`
/// for `_`.
/// Whether a literal under `key` is reported as a literal secret (not only masked).
pub fn reports_literal(key: &str) -> bool {
    let k = key.trim().as_bytes();
    if MASKED_ONLY_KEYS.iter().any(|name| key_eq(k, name)) {
        return false;
    }
    SECRET_KEYS.iter().any(|name| key_eq(k, name))
        || REPORTED_KEY_ENDINGS.iter().any(|e| key_ends_with(k, e))
        || !is_secret_key(key)
}

/// Whether a variable's name says it holds a credential (`token`, `gh_token`,
/// `authToken`, `client_secret`, `password`): its value is masked wherever it is shown.
pub fn is_secret_name(name: &str) -> bool {
    if is_secret_key(name) {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    lower.ends_with("token")
        || [
            "secret",
            "password",
            "passwd",
            "apikey",
            "api_key",
            "api-key",
            "bearer",
            "credential",
            "jwt",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

/// A value without the auth scheme it may start with (`Bearer x` → `x`).
pub fn without_scheme(value: &str) -> &str {
    let v = value.trim();
    match v.split_once(char::is_whitespace) {
        Some((scheme, rest))
            if ["bearer", "token", "basic", "oauth", "digest"]
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

/// The longest variable name looked for: a longer "name" is no reference.
const MAX_NAME: usize = 128;

/// The names of the `{{name}}` references in a text (`{{ name }}` too; the request
/// clients' generated values, `{{$guid}}`, are left out).
pub fn references(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || {
        loop {
            let open = find_doubled(rest, b'{')?;
            let after = &rest[open + 2..];
            let Some(close) = find_doubled(after, b'}') else {
                rest = "";
                return None;
            };
            let name = after[..close].trim();
            rest = &after[close + 2..];
            let plain = !name.is_empty()
                && name.len() <= MAX_NAME
                && !name.starts_with('$')
                && !name.contains(['{', '\n', '\r', ' ', '\t']);
            if plain {
                return Some(name);
            }
        }
    })
}

/// Words that say a value is a placeholder for a credential, not one.
const PLACEHOLDER_WORDS: &[&str] = &[
    "your",
    "placeholder",
    "example",
    "changeme",
    "change_me",
    "change-me",
    "replace",
    "redacted",
    "dummy",
    "insert",
    "xxx",
    "...",
    "…",
    "todo",
];

/// The shortest literal taken for a credential: a shorter value under a credential key
/// (`abc`, `test`) is a placeholder.
const MIN_CREDENTIAL: usize = 8;

/// Whether a value written in a credential position stands for a credential rather than
/// being one: empty, a reference, short, one character repeated (`xxxx`, `****`), a name in
/// capitals (`FB_ACCESS_TOKEN`), words such as `YOUR_TOKEN` or `<token>`, or a known
/// prefix with a body no credential has (`ghp_12324`). Such a value is masked like any
/// other in a credential position, but never reported as a literal secret.
pub fn is_placeholder(value: &str) -> bool {
    let v = without_scheme(value).trim_matches(['"', '\'', ' ', '\t']);
    if has_real_shape(v) {
        return false;
    }
    if v.is_empty() || is_reference(v) || v.chars().count() < MIN_CREDENTIAL {
        return true;
    }
    let mut chars = v.chars();
    let first = chars.next().unwrap_or(' ');
    if chars.all(|c| c == first) {
        return true;
    }
    let wrapped = |open: char, close: char| v.starts_with(open) && v.ends_with(close);
    if wrapped('<', '>') || wrapped('[', ']') || wrapped('(', ')') || wrapped('{', '}') {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w)) {
        return true;
    }
    let name_in_capitals =
        v.contains('_') && v.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
    if name_in_capitals {
        return true;
    }
    // A known fixed-length prefix followed by no credential's body (`ghp_12324`): too
    // short, or letters or digits only. A body of random characters of another length
    // is a cut or mistyped credential, and one all the same in a credential position.
    TOKEN_FORMATS
        .iter()
        .filter(|f| f.body.is_some())
        .any(|f| v.starts_with(f.prefix) && find_token(v).is_none_or(|m| m.range.start != 0))
}

/// Whether the whole value has a real credential's shape (`ghp_` and 36 characters,
/// `github_pat_` and 82, `EAA…`, a signed JSON Web Token): a secret whatever else it
/// looks like, and whatever its key.
fn has_real_shape(value: &str) -> bool {
    find_token(value).is_some_and(|m| m.real && m.range == (0..value.len()))
}

/// Words that, alone or together and followed by at most [`MAX_STAND_IN_DIGITS`]
/// digits, make a value that only stands in for a credential (`password`,
/// `invalidtoken123`, `Test-Secret-1`, `my_api_key`).
pub const STAND_IN_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "api",
    "access",
    "auth",
    "bearer",
    "invalid",
    "wrong",
    "bad",
    "expired",
    "revoked",
    "dummy",
    "fake",
    "test",
    "example",
    "sample",
    "demo",
    "changeme",
    "placeholder",
    "my",
    "your",
    "some",
    "new",
    "old",
    "value",
    "string",
    "foo",
    "bar",
    "here",
];

/// The most digits a stand-in value ends with (`password123456`).
pub const MAX_STAND_IN_DIGITS: usize = 6;

/// Longer stand-ins are not looked for: the words are short.
const MAX_STAND_IN: usize = 64;

/// Whether a value written in a credential position holds nothing to hide: its own key's
/// name (`"password": "password"`, compared ignoring case, `_` and `-`), or only
/// [`STAND_IN_WORDS`], written together or apart (`_`, `-`, `.`, a space), then at most
/// [`MAX_STAND_IN_DIGITS`] digits (`invalidtoken123`). Such a value is neither reported
/// nor masked: masking it would hide every key and word it is spelled like. A value of a
/// real credential's shape is never one.
pub fn holds_no_secret(key: &str, value: &str) -> bool {
    let v = without_scheme(value).trim_matches(['"', '\'', ' ', '\t']);
    // A workflow's `permissions:` key for the OIDC token takes a level, not a credential
    // (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions).
    if key.trim().eq_ignore_ascii_case("id-token") && matches!(v, "write" | "read" | "none") {
        return true;
    }
    if v.is_empty() || v.len() > MAX_STAND_IN || has_real_shape(v) {
        return false;
    }
    let folded = |s: &str| -> Vec<u8> {
        s.bytes()
            .filter(|b| !matches!(b, b'_' | b'-'))
            .map(|b| b.to_ascii_lowercase())
            .collect()
    };
    let name = folded(key.trim());
    if !name.is_empty() && folded(v) == name {
        return true;
    }
    let words = v.trim_end_matches(|c: char| c.is_ascii_digit());
    if v.len() - words.len() > MAX_STAND_IN_DIGITS {
        return false;
    }
    let letters: Vec<u8> = words
        .bytes()
        .filter(|b| !matches!(b, b'_' | b'-' | b'.' | b' '))
        .map(|b| b.to_ascii_lowercase())
        .collect();
    if letters.is_empty() || !letters.iter().all(u8::is_ascii_lowercase) {
        return false;
    }
    // Whether the letters split into stand-in words: `reach[i]`, the first `i` do.
    let mut reach = vec![false; letters.len() + 1];
    reach[0] = true;
    for i in 0..letters.len() {
        if !reach[i] {
            continue;
        }
        for word in STAND_IN_WORDS {
            if letters[i..].starts_with(word.as_bytes()) {
                reach[i + word.len()] = true;
            }
        }
    }
    reach[letters.len()]
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
    /// A literal scalar in a credential position: under a credential key (the key as
    /// written), or the definition of a variable used in one (the variable's name).
    Keyed { key: &'a str },
    /// A credential-shaped word inside a string.
    Token(TokenMatch),
}

/// A secret of the parsed documents and where the file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret<'a> {
    pub span: Span,
    pub found: Found<'a>,
    /// A literal credential the `literal-secret` rule reports; the others (placeholders,
    /// cookies, values of variables only named like credentials) are masked only.
    pub reported: bool,
}

/// What the parsed documents say about a file's credentials.
#[derive(Default)]
struct TreeScan<'a> {
    secrets: Vec<Secret<'a>>,
    /// Credential values that are not written where the tree says (a value substituted
    /// for a reference, an environment's value): masked wherever they are shown.
    literals: Vec<String>,
    /// The variables whose value is used in a credential position.
    names: BTreeSet<String>,
}

impl<'a> TreeScan<'a> {
    /// Every scalar of a credential position's value: a secret where the file writes
    /// it, a literal to mask where it came from elsewhere; the variables it refers to
    /// become credential variables. `reported`: a literal here (not a placeholder) is a
    /// literal secret.
    fn credential(&mut self, text: &str, key: &'a str, value: &'a Node, reported: bool) {
        value.walk(|node| {
            if matches!(node.value, Value::Map(_) | Value::Seq(_)) {
                return;
            }
            let written = text.get(node.span.range()).unwrap_or("");
            let scalar = node.scalar_text();
            for name in references(written).chain(scalar.iter().flat_map(|s| references(s))) {
                self.names.insert(name.to_string());
            }
            if !is_literal_value(node) {
                return;
            }
            let value = scalar.unwrap_or_default();
            if holds_no_secret(key, &value) {
                return;
            }
            // Not written here: an environment's value, or one substituted for a
            // reference, whose definition is found on its own.
            if node.span.is_empty() || has_reference(written) {
                self.literals.push(value.trim().to_string());
                return;
            }
            // Decoded (percent-encoding, JSON escapes), a message may show it otherwise
            // than the text writes it.
            if value.trim() != written.trim_matches(['"', '\'']) {
                self.literals.push(value.trim().to_string());
            }
            self.secrets.push(Secret {
                span: node.span,
                found: Found::Keyed { key },
                reported: reported && !is_placeholder(&value),
            });
        });
    }
}

/// The secrets that the parsed documents hold: every literal scalar in a credential
/// position (lists and mappings included), the definitions of the variables used in one,
/// and every credential-shaped word inside the other strings (JSON-encoded ones
/// decoded), in `roots` and in the `extra` entries (values a duplicate key replaced, a
/// request line's query parameters). A value in a credential position is a secret
/// whole: it is not searched for words again.
pub fn tree_secrets<'a>(
    text: &str,
    roots: impl IntoIterator<Item = &'a Node>,
    extra: impl IntoIterator<Item = &'a Entry>,
) -> Vec<Secret<'a>> {
    // The names are the `{{variables}}` written in credential positions: a text without
    // `{{` has none, and most files have none (the text scan is a fifth of a lint).
    let text_has_reference = has_reference(text);
    let names = if text_has_reference {
        scan_text(text, &BTreeSet::new()).1
    } else {
        BTreeSet::new()
    };
    scan_tree(text, text_has_reference, roots, extra, names).secrets
}

/// `text_has_reference`: whether `text` holds a `{{` (asked once by the caller).
fn scan_tree<'a>(
    text: &str,
    text_has_reference: bool,
    roots: impl IntoIterator<Item = &'a Node>,
    extra: impl IntoIterator<Item = &'a Entry>,
    names: BTreeSet<String>,
) -> TreeScan<'a> {
    let mut scan = TreeScan {
        names,
        ..TreeScan::default()
    };
    let mut definitions: Vec<&'a Entry> = Vec::new();
    let mut stack: Vec<&'a Node> = Vec::new();
    let mut visit = |entry: &'a Entry, stack: &mut Vec<&'a Node>, scan: &mut TreeScan<'a>| {
        let key = entry.key.as_str();
        if key == SECRETS_KEY {
            // What a reader knows holds a credential: `[{key: value}, …]`.
            for item in entry.value.as_seq().unwrap_or_default() {
                for e in item.as_map().unwrap_or_default() {
                    scan.credential(text, &e.key, &e.value, reports_literal(&e.key));
                }
            }
        } else if key == crate::loading::readers::VARIABLES {
            definitions.extend(entry.value.as_map().unwrap_or_default());
        } else if is_secret_key(key) {
            scan.credential(text, &entry.key, &entry.value, reports_literal(&entry.key));
        } else {
            stack.push(&entry.value);
        }
    };
    for entry in extra {
        visit(entry, &mut stack, &mut scan);
    }
    stack.extend(roots);
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Map(entries) => {
                for e in entries.iter().rev() {
                    visit(e, &mut stack, &mut scan);
                }
            }
            Value::Seq(items) => stack.extend(items.iter().rev()),
            Value::EncodedJson { decoded, .. } => stack.push(decoded),
            // A value substituted for a reference (`{{jwt}}`) is not written here: a
            // credential in it is masked as any other, and reported where it is written.
            // Most strings are shorter than any credential, and most texts have no `{{`:
            // neither is searched.
            Value::String(s)
                if s.len() >= SHORTEST_TOKEN
                    && !(text_has_reference
                        && text.get(node.span.range()).is_some_and(has_reference)) =>
            {
                for m in find_tokens(s) {
                    scan.secrets.push(Secret {
                        span: SourceMap::for_scalar(text, node.span, s).span(m.range.clone()),
                        reported: m.real,
                        found: Found::Token(m),
                    });
                }
            }
            _ => {}
        }
    }
    // The definitions of the variables used in a credential position (a variable's value
    // may use another in turn), then those only named like a credential, each once.
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, def) in definitions.iter().enumerate() {
        by_name.entry(def.key.as_str()).or_default().push(i);
    }
    let mut done = vec![false; definitions.len()];
    let mut work: Vec<(String, bool)> = scan.names.iter().map(|n| (n.clone(), true)).collect();
    work.extend(
        definitions
            .iter()
            .filter(|d| !scan.names.contains(d.key.as_str()) && is_secret_name(&d.key))
            .map(|d| (d.key.to_string(), false)),
    );
    // Used ones first, so that a definition is reported if any use is a credential's.
    work.reverse();
    while let Some((name, used)) = work.pop() {
        for &i in by_name
            .get(name.as_str())
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if done[i] {
                continue;
            }
            done[i] = true;
            let def = definitions[i];
            let known = scan.names.len();
            scan.credential(text, &def.key, &def.value, used);
            if scan.names.len() > known {
                let inner: Vec<String> = references(text.get(def.value.span.range()).unwrap_or(""))
                    .chain(def.value.as_str().into_iter().flat_map(references))
                    .map(str::to_string)
                    .collect();
                work.extend(inner.into_iter().map(|n| (n, used)));
            }
        }
    }
    scan
}

/// A file's secrets: where its text holds them, and the values it is given from
/// elsewhere (an environment's) that are masked in every message about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSecrets {
    /// Sorted and merged.
    pub spans: Vec<Span>,
    /// Secret values that messages may show though the text does not hold them there.
    pub literals: Vec<String>,
    /// The environment's variables this file uses in a credential position: their values
    /// are secrets of every file of the run, which may use them as ordinary values.
    pub credential_variables: Vec<String>,
}

/// How many rounds of variables defined through other variables are followed in the
/// text alone (`@auth = Bearer {{token}}`, `@token = {{real}}`, …).
const TEXT_ROUNDS: usize = 8;

/// Every span of `text` that holds a secret, sorted and merged: see [`file_secrets`].
pub fn secret_spans(text: &str, documents: &[Node], problems: &[Problem]) -> Vec<Span> {
    file_secrets(text, documents, problems, &BTreeMap::new()).spans
}

/// A file's secrets: credential-shaped words anywhere (values, keys, comments, broken
/// lines); the values of credential positions and the definitions of the variables used
/// there, as the text writes them and as the parsed documents ([`tree_secrets`]) hold
/// them; every other place the same literal is written again; and the values of the
/// `environment`'s variables that the file uses in a credential position or that are
/// named like a credential.
pub fn file_secrets(
    text: &str,
    documents: &[Node],
    problems: &[Problem],
    environment: &BTreeMap<String, Option<String>>,
) -> FileSecrets {
    let mut spans: Vec<Span> = find_tokens(text)
        .map(|m| Span::new(m.range.start, m.range.end))
        .collect();
    let (keyed, names) = scan_text(text, &BTreeSet::new());
    // A query's value as a message shows it: percent-decoded.
    let decoded: Vec<String> = keyed
        .iter()
        .filter_map(|s| text.get(s.range()))
        .filter(|v| v.contains('%'))
        .map(crate::loading::encoded::percent_decode)
        .collect();
    spans.extend(keyed);
    spans.extend(url_passwords(text));
    let shadowed = problems.iter().filter_map(|p| p.shadowed.as_deref());
    let tree = scan_tree(text, has_reference(text), documents, shadowed, names);
    spans.extend(tree.secrets.iter().map(|s| s.span));
    let mut literals = tree.literals;
    literals.extend(decoded);
    let mut names = tree.names;
    // The definitions of those variables as the text writes them, so that a file that
    // does not parse has them too.
    for _ in 0..TEXT_ROUNDS {
        if names.is_empty() {
            break;
        }
        let (found, more) = scan_text(text, &names);
        spans.extend(found);
        let known = names.len();
        names.extend(more);
        if names.len() == known {
            break;
        }
    }
    // A stand-in value (`password` for `password`) is no secret of any file.
    let credential_variables: Vec<String> = environment
        .iter()
        .filter(|(name, value)| {
            names.contains(*name)
                && value
                    .as_deref()
                    .is_some_and(|value| !holds_no_secret(name, value))
        })
        .map(|(name, _)| name.clone())
        .collect();
    for (name, value) in environment {
        if let Some(value) = value
            && !holds_no_secret(name, value)
            && (names.contains(name) || is_secret_name(name) || may_be_credential(value))
        {
            literals.push(value.trim().to_string());
            literals.push(without_scheme(value).to_string());
        }
    }
    let mut spans = merge(spans);
    literals.retain(|l| l.chars().count() >= MIN_REPEATED);
    literals.sort_unstable();
    literals.dedup();
    add_repeats(text, &mut spans, &literals);
    FileSecrets {
        spans,
        literals,
        credential_variables,
    }
}

/// Whether an environment's value may be a credential: not a name, a number, an id, a
/// version, a date, a URL or words, but a string of 8 characters or more, without
/// spaces, that mixes letters and digits (a key, a token, a password). Such a value is
/// masked in every message about every file, whether or not that file uses it as a
/// credential (another file may); the values of the other kinds stay readable in messages
/// about the paths and params they are substituted into.
pub fn may_be_credential(value: &str) -> bool {
    let v = value.trim();
    if v.chars().count() < MIN_CREDENTIAL || v.contains(char::is_whitespace) || v.contains("://") {
        return false;
    }
    let has = |f: fn(&u8) -> bool| v.as_bytes().iter().any(f);
    if !has(u8::is_ascii_alphabetic) || !has(u8::is_ascii_digit) {
        return false;
    }
    // An ad account (`act_123`), a version (`v25.0`), a date or an ISO time.
    let digits_after = |prefix: &str| {
        v.strip_prefix(prefix)
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
    };
    let date = v
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b':' | b'T' | b'Z' | b'.' | b'+'));
    !(digits_after("act_") || digits_after("v") || date)
}

/// Literals shorter than this are not looked for again in the text or in messages: a
/// one-letter `access_token` would mask every such letter.
pub const MIN_REPEATED: usize = 4;

/// A secret written twice is masked twice: the literal values found (and `more`) are
/// looked for everywhere else in the text, in one pass; but not where the same text is
/// a key (`"password": …`, `{"key": "password", …}`, `password=…`), which names a field
/// and hides no secret. (A credential-shaped key is masked all the same: it is found as
/// a word, not as a repeat.)
fn add_repeats(text: &str, spans: &mut Vec<Span>, more: &[String]) {
    let mut literals: Vec<&str> = spans
        .iter()
        .filter_map(|s| text.get(s.start..s.end))
        .flat_map(|s| {
            let s = s.trim_matches(['"', '\'', ' ']);
            [s, without_scheme(s)]
        })
        .chain(more.iter().map(String::as_str))
        .filter(|s| s.chars().count() >= MIN_REPEATED)
        .collect();
    literals.sort_unstable();
    literals.dedup();
    if literals.is_empty() {
        return;
    }
    let Ok(finder) = aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .kind(Some(aho_corasick::AhoCorasickKind::NoncontiguousNFA))
        .build(&literals)
    else {
        return;
    };
    let found: Vec<Span> = finder
        .find_iter(text)
        .filter(|m| !is_key_at(text.as_bytes(), m.start(), m.end()))
        .map(|m| Span::new(m.start(), m.end()))
        .collect();
    if !found.is_empty() {
        spans.extend(found);
        *spans = merge(std::mem::take(spans));
    }
}

/// Whether `start..end` of the text is a whole key: a word (quoted, or quoted inside a
/// JSON-encoded string) followed by `:` or `=`, or the name of a `{"key": …, "value":
/// …}` pair. A value is followed by neither; an unquoted word before a `:` is a key only
/// if white space or the end follows (`password: x`, not `user:password@host`).
fn is_key_at(bytes: &[u8], start: usize, end: usize) -> bool {
    if start > 0 && key_char(bytes[start - 1]) || bytes.get(end).copied().is_some_and(key_char) {
        return false;
    }
    let word = match bytes.get(start) {
        Some(b'"') => start + 1,
        _ => start,
    };
    if pair_key(bytes, word) {
        return true;
    }
    let mut j = end;
    let mut quoted = false;
    while j < bytes.len() && matches!(bytes[j], b'"' | b'\'' | b'\\') {
        quoted |= bytes[j] != b'\\';
        j += 1;
    }
    while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
        j += 1;
    }
    match bytes.get(j) {
        Some(b'=') => true,
        Some(b':') => quoted || bytes.get(j + 1).is_none_or(|b| b.is_ascii_whitespace()),
        _ => false,
    }
}

/// The passwords of URLs written with a Basic-auth pair (`https://user:password@host/`).
fn url_passwords(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = memchr::memmem::find(&bytes[from..], b"://") {
        let start = from + at + 3;
        let mut end = start;
        while end < bytes.len()
            && !matches!(
                bytes[end],
                b'/' | b'?' | b'#' | b'"' | b'\'' | b'<' | b'>' | b'\\' | b'`'
            )
            && !bytes[end].is_ascii_whitespace()
        {
            end += 1;
        }
        let authority = &text[start..end];
        if let Some(user_end) = authority.rfind('@')
            && let Some(colon) = authority[..user_end].find(':')
        {
            out.push(Span::new(start + colon + 1, start + user_end));
        }
        from = end.max(start);
    }
    out
}

/// Keys whose value is a credential in a `{"key": …, "value": …}` pair (a Postman
/// collection's headers, auth blocks and variables): an auth block's `token`, an OAuth
/// block's `accessToken`, an API-key block's `value`.
const PAIR_KEYS: &[&str] = &["token", "accesstoken", "value"];

fn key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// The values written after a credential key (`access_token: x`, `"Authorization": "x"`,
/// `?access_token=x`, `{"key": "Authorization", "value": "x"}`) or after a name of
/// `names` (the definitions of credential variables: `@token = x`, `token: x`,
/// `variable: token=x`, `{"key": "token", "value": "x"}`), read from the text alone so
/// that a file that does not parse still has them masked; and the variables those values
/// refer to. One pass over the text.
fn scan_text(text: &str, names: &BTreeSet<String>) -> (Vec<Span>, BTreeSet<String>) {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut refs = BTreeSet::new();
    // A word inside a value already read is no key.
    let mut read_to = 0;
    for (start, end) in keyed_words(bytes, names.is_empty()) {
        if start < read_to {
            continue;
        }
        let Some((value, secret)) = value_of_key(text, start..end, names, &mut refs) else {
            continue;
        };
        if secret {
            spans.push(Span::new(value.start, value.end));
        }
        read_to = read_to.max(value.end);
    }
    (spans, refs)
}

/// The value written after the word at `word` when the word is a key (a credential key,
/// a name of `names`, or a pair's `"key"`), and whether that value is a secret (not a
/// reference, a structure or an empty word); `None` where no value follows or the value
/// holds none. The variables the value refers to go into `refs`. Inlined: it is asked
/// for every word a `:` or `=` follows, and most are no key.
#[inline(always)]
fn value_of_key(
    text: &str,
    word: Range<usize>,
    names: &BTreeSet<String>,
    refs: &mut BTreeSet<String>,
) -> Option<(Range<usize>, bool)> {
    let bytes = text.as_bytes();
    let (start, end) = (word.start, word.end);
    let word = &text[word];
    let named = is_secret_key(word) || names.contains(word);
    let pair = pair_key(bytes, start);
    let paired = pair && (named || PAIR_KEYS.iter().any(|k| word.eq_ignore_ascii_case(k)));
    if !named && !paired {
        return None;
    }
    let at = if paired {
        match pair_value(bytes, end) {
            Some(at) => at,
            None if named => end,
            None => return None,
        }
    } else {
        end
    };
    let value = value_after(bytes, at)?;
    let written = &text[value.clone()];
    refs.extend(references(written).map(str::to_string));
    if holds_no_secret(word, written) {
        return None;
    }
    let structural = written
        .bytes()
        .next()
        .is_none_or(|b| matches!(b, b'[' | b'{' | b'|' | b'>' | b'&' | b'*' | b'!'));
    let secret =
        !structural && !looks_like_reference(written) && written != "null" && written != "~";
    Some((value, secret))
}

/// The words of the text that a value may follow, as byte ranges in order: a word
/// followed by `:` or `=` (after quotes, backslashes and blanks, as [`value_after`]
/// reads them), and a word that is a pair's key ([`pair_key`]). A value follows no other
/// word, so the scan looks only at these: it finds them by their `:` or `=` and by the
/// `"key"` of a pair, without reading the text word by word.
///
/// `no_names`: no variable's name is a key ([`scan_text`]'s first round), so a word is a
/// key only if it ends as a credential key or a pair's key does: the others are left
/// before their start is looked for (most words a `:` follows are such keys).
fn keyed_words(bytes: &[u8], no_names: bool) -> impl Iterator<Item = (usize, usize)> + '_ {
    let before_separator = memchr::memchr2_iter(b':', b'=', bytes).filter_map(move |at| {
        let mut end = at;
        while end > 0 && matches!(bytes[end - 1], b'"' | b'\'' | b'\\' | b' ' | b'\t') {
            end -= 1;
        }
        if no_names && !may_end_a_key(bytes, end) {
            return None;
        }
        let mut start = end;
        while start > 0 && key_char(bytes[start - 1]) {
            start -= 1;
        }
        (start < end).then_some((start, end))
    });
    // `key"` and the quote before it: `"key"` overlaps itself (`"key"key"`), and an
    // iterator of non-overlapping matches would miss the second.
    let pair_keys = memchr::memmem::find_iter(bytes, b"key\"").filter_map(move |at| {
        if at == 0 || bytes[at - 1] != b'"' {
            return None;
        }
        let rest = bytes[at + b"key\"".len()..].trim_ascii_start();
        let rest = rest.strip_prefix(b":")?.trim_ascii_start();
        let rest = rest.strip_prefix(b"\"")?;
        let start = bytes.len() - rest.len();
        let len = rest.iter().take_while(|&&b| key_char(b)).count();
        (len > 0).then_some((start, start + len))
    });
    merge_ordered(before_separator, pair_keys)
}

/// Whether the word that ends at `end` may be a credential key or a pair's key
/// ([`PAIR_KEYS`]) by its last two bytes: each is as long as two at least.
fn may_end_a_key(bytes: &[u8], end: usize) -> bool {
    let Some(last_two) = end.checked_sub(2).map(|start| &bytes[start..end]) else {
        return false;
    };
    if !last_two.iter().all(|&b| key_char(b)) {
        return false;
    }
    crate::loading::credentials::ends_like_a_name(last_two)
        || PAIR_KEYS
            .iter()
            .any(|k| k.as_bytes()[k.len() - 2..].eq_ignore_ascii_case(last_two))
}

/// Two iterators of ranges ordered by start merged into one, a range in both given once.
fn merge_ordered(
    a: impl Iterator<Item = (usize, usize)>,
    b: impl Iterator<Item = (usize, usize)>,
) -> impl Iterator<Item = (usize, usize)> {
    let mut a = a.peekable();
    let mut b = b.peekable();
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if x.0 == y.0 => {
            b.next();
            a.next()
        }
        (Some(x), Some(y)) if y.0 < x.0 => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

/// Whether the word at `start` is the value of a `"key"` (`"key": "Authorization"`).
fn pair_key(bytes: &[u8], start: usize) -> bool {
    let before = &bytes[..start];
    let Some(before) = before.strip_suffix(b"\"") else {
        return false;
    };
    let before = before.trim_ascii_end();
    let Some(before) = before.strip_suffix(b":") else {
        return false;
    };
    before.trim_ascii_end().ends_with(b"\"key\"")
}

/// After a pair's key (`"key": "Authorization`), where its `"value"` key is: the offset
/// of the `"value"` key's last letter, as if the value were written after it.
fn pair_value(bytes: &[u8], end: usize) -> Option<usize> {
    let rest = bytes.get(end..)?.strip_prefix(b"\"")?.trim_ascii_start();
    let rest = rest.strip_prefix(b",")?.trim_ascii_start();
    let rest_len = rest.len();
    rest.strip_prefix(b"\"value")?;
    Some(bytes.len() - rest_len + "\"value".len())
}

/// The value written after a key that ends at `at`: its quote (escaped inside a
/// JSON-encoded string) and `:` or `=`, then the value up to its end.
fn value_after(bytes: &[u8], at: usize) -> Option<Range<usize>> {
    let mut j = at;
    while j < bytes.len() && matches!(bytes[j], b'"' | b'\'' | b'\\' | b' ' | b'\t') {
        j += 1;
    }
    if j >= bytes.len() || !matches!(bytes[j], b':' | b'=') {
        return None;
    }
    j += 1;
    while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
        j += 1;
    }
    // An escaped quote opens a value inside a JSON-encoded string.
    if j + 1 < bytes.len() && bytes[j] == b'\\' && matches!(bytes[j + 1], b'"' | b'\'') {
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
        // A `{{reference}}` is part of the value, its braces too.
        if b == b'{'
            && bytes.get(j + 1) == Some(&b'{')
            && let Some(close) = bytes[j..]
                .iter()
                .take(MAX_NAME + 4)
                .take_while(|&&c| c != b'\n')
                .position(|&c| c == b'}')
            && bytes.get(j + close + 1) == Some(&b'}')
        {
            j += close + 2;
            continue;
        }
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
    let value = std::str::from_utf8(&bytes[start..j]).ok()?;
    Some(start..start + value.trim_end().len())
}

/// A value read from the text alone may have been cut at a `}` of its own (`${X}`): a
/// value that starts like a reference is taken for one.
fn looks_like_reference(value: &str) -> bool {
    let v = without_scheme(value);
    is_reference(v) || v.starts_with("${") || v.starts_with("{{") || v.starts_with('<')
}

/// Spans sorted, the empty ones left out, the overlapping ones merged.
pub fn merge(mut spans: Vec<Span>) -> Vec<Span> {
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
        assert!(find_token(&t).is_some_and(|m| m.real));
        assert!(find_token(&format!("Bearer {t}")).is_some());
        assert!(find_token(GHP).is_some_and(|m| m.real));
        assert!(find_token("ghp_short").is_none());
        assert!(find_token("EAA_SETTINGS_ARE_NOT_TOKENS_AT_ALL_REALLY").is_none());
        assert!(find_token(&format!("EAAB{}", "x9".repeat(40))).is_some_and(|m| m.real));
        assert!(find_token(&format!("xEAAB{}", "x9".repeat(40))).is_none());
        let two = format!("{t} and {t}");
        assert_eq!(find_tokens(&two).count(), 2);
        // A body of the wrong length after a fixed-length prefix: masked, not reported.
        let long = format!("ghp_{}", "a1".repeat(19));
        assert!(find_token(&long).is_some_and(|m| !m.real));
        let pat = format!("github_pat_{}_{}", "A1".repeat(11), "b2c".repeat(19) + "dd");
        assert_eq!(pat.len(), "github_pat_".len() + 82);
        assert!(find_token(&pat).is_some_and(|m| m.real));
    }

    /// `find_tokens` looks only at these first two letters.
    /// A word of the shortest length a credential has is found: shorter strings are not
    /// searched.
    #[test]
    fn the_shortest_token_is_found() {
        let shortest = "eyJabcde.eyJabcde";
        assert_eq!(shortest.len(), SHORTEST_TOKEN);
        assert_eq!(
            find_token(shortest).map(|m| m.range),
            Some(0..SHORTEST_TOKEN)
        );
    }

    /// The search of credential-shaped words as it was written first, letter by letter:
    /// the oracle of the search by pairs.
    fn find_tokens_by_letters(text: &str) -> Vec<TokenMatch> {
        let bytes = text.as_bytes();
        let mut found = Vec::new();
        let mut from = 0;
        while from < bytes.len() {
            let Some(offset) = memchr::memchr3(b'g', b'E', b'y', &bytes[from..]) else {
                break;
            };
            let hit = from + offset;
            let start = if bytes[hit] == b'y' {
                if hit == from || bytes[hit - 1] != b'e' {
                    from = hit + 1;
                    continue;
                }
                hit - 1
            } else {
                hit
            };
            from = hit + 1;
            let second = bytes.get(start + 1).copied();
            let starts_word = match (bytes[start], second) {
                (b'g', Some(b'h' | b'i')) | (b'E', Some(b'A')) => {
                    start == 0 || !token_char(bytes[start - 1])
                }
                (b'e', Some(b'y')) => {
                    start == 0 || !(base64url_char(bytes[start - 1]) || bytes[start - 1] == b'.')
                }
                _ => false,
            };
            if !starts_word {
                continue;
            }
            if let Some(m) = token_at(bytes, start).or_else(|| jwt_at(bytes, start)) {
                from = m.range.end;
                found.push(m);
            }
        }
        found
    }

    /// Texts made of the pieces credentials and the words around them are made of, of
    /// every length (shorter and longer than a block of the search by pairs).
    fn generated_texts(count: usize) -> Vec<String> {
        const PIECES: &[&str] = &[
            "g",
            "h",
            "i",
            "E",
            "A",
            "e",
            "y",
            "J",
            "_",
            ".",
            "-",
            " ",
            "\"",
            ":",
            "=",
            "/",
            "a",
            "Z",
            "7",
            "0",
            "gh",
            "gi",
            "EA",
            "ey",
            "eyJ",
            "ghp_",
            "gho_",
            "github_pat_",
            "EAA",
            "EAAB",
            "eyJhbGciOiJIUzI1NiJ9",
            "a1b2c3d4e5",
            "A1B2C3D4E5F6G7H8",
            "x9x9x9x9",
            "\u{e9}",
            "\n",
        ];
        let mut next = crate::testing::xorshift(0x2545_f491_4f6c_dd1d);
        (0..count)
            .map(|_| {
                let pieces = (next() % 80) as usize;
                (0..pieces)
                    .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_search_by_pairs_finds_what_the_search_by_letters_finds() {
        let ghp = format!("ghp_{}", "a1".repeat(18));
        let pat = format!("github_pat_{}", "A1b".repeat(27) + "c");
        let eaa = format!("EAAB{}", "x9".repeat(20));
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        let mut texts = generated_texts(20_000);
        for (i, text) in generated_texts(2_000).into_iter().enumerate() {
            let token = [ghp.as_str(), &pat, &eaa, jwt][i % 4];
            let cut = text.len() / 2;
            let cut = (0..=cut)
                .rev()
                .find(|&c| text.is_char_boundary(c))
                .unwrap_or(0);
            texts.push(format!("{}{token}{}", &text[..cut], &text[cut..]));
        }
        let mut found = 0;
        for text in &texts {
            let expected = find_tokens_by_letters(text);
            found += expected.len();
            assert_eq!(find_tokens(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
        // The inputs hold credentials enough for the comparison to mean something.
        assert!(found > 1_000, "{found}");
    }

    #[test]
    fn every_prefix_starts_with_a_pair_the_scan_looks_at() {
        for prefix in TOKEN_FORMATS.iter().map(|f| f.prefix).chain([JWT_PREFIX]) {
            assert!(
                FIRST_PAIRS.iter().any(|pair| prefix.starts_with(pair)),
                "{prefix}"
            );
        }
        // Places of the pairs never overlap: no second letter is a first one.
        for pair in FIRST_PAIRS {
            assert!(
                FIRST_PAIRS
                    .iter()
                    .all(|other| other.as_bytes()[0] != pair.as_bytes()[1]),
                "{pair}"
            );
        }
    }

    #[test]
    fn json_web_tokens() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        let m = find_token(&format!("Bearer {jwt} x")).unwrap();
        assert!(m.real);
        assert_eq!(m.range.end - m.range.start, jwt.len());
        let unsigned = "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0";
        assert!(find_token(unsigned).is_some_and(|m| !m.real));
        assert!(find_token("eyJ.eyJ").is_none());
    }

    #[test]
    fn a_workflow_permission_level_is_no_credential() {
        assert!(holds_no_secret("id-token", "write"));
        assert!(holds_no_secret("id-token", "none"));
        assert!(!holds_no_secret(
            "id-token",
            "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
        ));
    }

    #[test]
    fn placeholders_are_not_credentials() {
        for p in [
            "ghp_12324",
            "<token>",
            "xxx",
            "xxxxxxxxxxxx",
            "YOUR_TOKEN",
            "Bearer YOUR_TOKEN",
            "FB_ACCESS_TOKEN",
            "{{token}}",
            "${GH_TOKEN}",
            "abc",
            "replace-me-with-a-token",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "****************",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for real in [
            "s3cr3t-plain-v4lue-not-shaped",
            "EAAGm0PX4ZCpsBAOtzZBcTkZD",
            GHP,
            "Bearer abcdef123456",
        ] {
            assert!(!is_placeholder(real), "{real}");
        }
    }

    #[test]
    fn a_cut_token_in_a_credential_position_is_no_placeholder() {
        // A known prefix and a random body two characters short (as published in a
        // collection's auth block): a cut or mistyped credential.
        let cut = format!("ghp_{}", "aB3".repeat(11) + "x");
        assert_eq!(cut.len(), 4 + 34);
        assert!(find_token(&cut).is_some_and(|m| !m.real));
        assert!(!is_placeholder(&cut));
        let text = format!("params:\n  access_token: {cut}\n");
        let loaded = load(text.as_bytes().to_vec(), Format::Yaml, &Limits::DEFAULT);
        let reported: Vec<_> = tree_secrets(&text, loaded.documents.iter(), [])
            .into_iter()
            .filter(|s| s.reported)
            .collect();
        assert_eq!(reported.len(), 1);
        assert_eq!(&text[reported[0].span.range()], cut);
    }

    #[test]
    fn stand_in_values_hold_no_secret() {
        for (key, value) in [
            ("password", "password"),
            ("Password", "PASSWORD"),
            ("client_secret", "client-secret"),
            ("X-Api-Key", "x_api_key"),
            ("token", "invalidtoken123"),
            ("password", "Password123"),
            ("Authorization", "Bearer test-token"),
            ("secret", "my_secret_key_1"),
            ("pw", "changeme"),
            ("token", "fake.token"),
            ("password", "dummy password 42"),
            ("api_key", "api-key-here"),
        ] {
            assert!(holds_no_secret(key, value), "{key}: {value}");
        }
        for (key, value) in [
            // A reqres.in demo password: not made of stand-in words.
            ("password", "cityslicka"),
            ("password", "hunter2hunter2"),
            ("token", "tokenize-me-9f8e7d"),
            // Seven digits: past the stand-in's few.
            ("password", "password1234567"),
            ("password", "12345678"),
            ("password", ""),
            ("token", "{{token}}"),
        ] {
            assert!(!holds_no_secret(key, value), "{key}: {value}");
        }
        // A real credential's shape is a secret whatever its key.
        let ghp = format!("ghp_{}", "a1".repeat(18));
        assert!(!holds_no_secret(&ghp, &ghp));
        assert!(!is_placeholder(&ghp));
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        assert!(!holds_no_secret("jwt", jwt) && !is_placeholder(jwt));
    }

    #[test]
    fn stand_in_values_are_neither_reported_nor_masked() {
        let text = "params:\n  password: password\n  access_token: invalidtoken123\nbody: '{\"password\": \"password\"}'\n";
        assert!(spans_of(text).is_empty(), "{:?}", spans_of(text));
        let json = r#"{"info": {"schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
"auth": {"type": "basic", "basic": [{"key": "password", "value": "password"}]}, "item": []}"#;
        let loaded = load(
            json.as_bytes().to_vec(),
            Format::Read(crate::loading::readers::Reader::Postman),
            &Limits::DEFAULT,
        );
        assert!(secret_spans(&loaded.text, &loaded.documents, &loaded.problems).is_empty());
    }

    #[test]
    fn a_secret_written_again_as_a_key_masks_the_value_only() {
        // The secret's text is also a key: in YAML, in JSON, in a JSON-encoded body, in
        // a Postman pair, in a query. The keys stay readable; every value is masked.
        let text = "params:\n  access_token: s3cr3t_v4lue\n  s3cr3t_v4lue: 1\n  other: s3cr3t_v4lue\nbody: '{\"s3cr3t_v4lue\": \"s3cr3t_v4lue\"}'\nx: {\"key\": \"s3cr3t_v4lue\", \"value\": \"s3cr3t_v4lue\"}\nrequest: GET /x?s3cr3t_v4lue=s3cr3t_v4lue\n";
        let spans = secret_spans(text, &[], &[]);
        let masked = crate::redact::mask_spans(text, &spans);
        assert_eq!(
            masked,
            "params:\n  access_token: ************\n  s3cr3t_v4lue: 1\n  other: ************\nbody: '{\"s3cr3t_v4lue\": \"************\"}'\nx: {\"key\": \"s3cr3t_v4lue\", \"value\": \"************\"}\nrequest: GET /x?s3cr3t_v4lue=************\n"
        );
        // Not a key: a URL's user name, a word of a sentence before a colon.
        for (text, shown) in [
            (
                "access_token: s3cr3t_v4lue\nurl: https://s3cr3t_v4lue:x@h/\n",
                "access_token: ************\nurl: https://************:*@h/\n",
            ),
            (
                "access_token: s3cr3t_v4lue\nnote: s3cr3t_v4lue:old\n",
                "access_token: ************\nnote: ************:old\n",
            ),
        ] {
            let spans = secret_spans(text, &[], &[]);
            assert_eq!(crate::redact::mask_spans(text, &spans), shown);
        }
    }

    #[test]
    fn credential_keys() {
        for k in [
            "access_token",
            "Authorization",
            "Proxy-Authorization",
            "cookie",
            "X-Api-Key",
            "x-auth-token",
            "client_secret",
            "password",
            "github_token",
        ] {
            assert!(is_secret_key(k), "{k}");
        }
        for k in ["token", "name", "Content-Type", "tokens", "page"] {
            assert!(!is_secret_key(k), "{k}");
        }
        assert!(is_secret_name("token") && is_secret_name("authToken"));
        // Masked, but a literal is reported only where it is a credential's.
        assert!(reports_literal("X-Auth-Token") && reports_literal("page_access_token"));
        assert!(!reports_literal("story_token") && !reports_literal("Cookie"));
        // A variable's name: its definition is reported when used as a credential.
        assert!(reports_literal("t"));
        assert!(!is_secret_name("base_url"));
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
        let names: Vec<&str> = super::references("a {{x}} {{ y }} {{$guid}} {{z").collect();
        assert_eq!(names, ["x", "y"]);
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
        let headers = "x-headers:\n  X-Api-Key: k3y-v4lue\n  Cookie: session=c00kie\n";
        assert_eq!(spans_of(headers), vec!["k3y-v4lue", "session=c00kie"]);
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
    fn postman_pairs_and_variables_in_the_text_alone() {
        // Broken JSON: a header pair, a bearer pair using a variable, the variable.
        let json = r#"{"header": [{"key": "Authorization", "value": "Bearer h3ader-s3cret", "disabled": true}],
 "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{tok}}"}]},
 "variable": [{"key": "tok", "value": "v4riable-s3cret"}], ]"#;
        let (spans, _) = {
            let (mut spans, names) = scan_text(json, &BTreeSet::new());
            assert!(names.contains("tok"), "{names:?}");
            spans.extend(scan_text(json, &names).0);
            (merge(spans), names)
        };
        let found: Vec<&str> = spans.iter().map(|s| &json[s.range()]).collect();
        assert_eq!(found, ["Bearer h3ader-s3cret", "v4riable-s3cret"]);
    }

    #[test]
    fn definitions_of_credential_variables() {
        let text = "x-variables:\n  auth: Bearer {{token}}\n  token: '{{real}}'\n  real: d33p-s3cret-value\n  base: https://x\nrequests:\n  - request: GET /user/emails\n    x-headers: {Authorization: '{{auth}}'}\n";
        assert_eq!(spans_of(text), vec!["d33p-s3cret-value"]);
    }

    #[test]
    fn environment_values_used_as_credentials_are_literals() {
        let env: BTreeMap<String, Option<String>> = [
            ("t".to_string(), Some("env-s3cret-value".to_string())),
            ("gh_token".to_string(), Some("another-s3cret".to_string())),
            ("base".to_string(), Some("https://example.com".to_string())),
        ]
        .into();
        let text = "GET https://api.github.com/user?access_token={{t}}\n";
        let loaded = load(
            text.as_bytes().to_vec(),
            Format::Read(crate::loading::readers::Reader::Http),
            &Limits::DEFAULT,
        );
        let secrets = file_secrets(&loaded.text, &loaded.documents, &loaded.problems, &env);
        assert!(secrets.literals.contains(&"env-s3cret-value".to_string()));
        assert!(secrets.literals.contains(&"another-s3cret".to_string()));
        assert!(!secrets.literals.iter().any(|l| l.contains("example")));
        // A value that may be a credential is masked in every file, used there or not.
        let env: BTreeMap<String, Option<String>> = [
            ("k", "Zq81kLmP0xY7tRw2Vb"),
            ("p", "hunter2hunter2"),
            ("account", "act_1234567890123456"),
            ("version", "v25.0"),
            ("since", "2024-01-01T00:00:00Z"),
            ("repo", "my-repository-name"),
            ("id", "23850000000000001"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Some(v.to_string())))
        .collect();
        let secrets = file_secrets("", &[], &[], &env);
        assert_eq!(secrets.literals, ["Zq81kLmP0xY7tRw2Vb", "hunter2hunter2"]);
    }

    /// The scans read each byte a bounded number of times: hostile runs of prefixes,
    /// keys and references of a few hundred kilobytes are read at once. (A watchdog, not
    /// a timing: a quadratic scan would take hours here.)
    #[test]
    fn scans_are_linear_in_the_text() {
        for unit in [
            "eyJ-",
            "eyJabcdefghij.",
            "ghp_a1-",
            "{{",
            "{{a",
            "access_token=",
            "access_token: x\n",
            "- access_token: x\n",
            "\"key\": \"token\", ",
            "\"key\": \"",
            "://a:b",
            "@t = {{t}}\n",
        ] {
            let text = unit.repeat(50_000);
            let (done, finished) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let loaded = load(text.clone().into_bytes(), Format::Yaml, &Limits::DEFAULT);
                let env: BTreeMap<String, Option<String>> =
                    [("t".to_string(), Some(text.clone()))].into();
                let secrets = file_secrets(&text, &loaded.documents, &loaded.problems, &env);
                let _ = crate::redact::Redactor::for_secrets(&text, &secrets).line(&text);
                let _ = done.send(());
            });
            assert!(
                finished
                    .recv_timeout(std::time::Duration::from_secs(120))
                    .is_ok(),
                "{unit:?} repeated does not finish"
            );
        }
    }

    /// The text scan as it read the text before it looked only at the words a `:`, `=` or
    /// a pair's `"key"` follows: word by word, each word asked whether it is a key (what
    /// follows a key is read by the same [`value_of_key`]).
    fn scan_text_word_by_word(
        text: &str,
        names: &BTreeSet<String>,
    ) -> (Vec<Span>, BTreeSet<String>) {
        let bytes = text.as_bytes();
        let mut spans = Vec::new();
        let mut refs = BTreeSet::new();
        let mut i = 0;
        while i < bytes.len() {
            if !key_char(bytes[i]) || (i > 0 && key_char(bytes[i - 1])) {
                i += 1;
                continue;
            }
            let mut end = i;
            while end < bytes.len() && key_char(bytes[end]) {
                end += 1;
            }
            let word = i..end;
            i = end;
            let Some((value, secret)) = value_of_key(text, word, names, &mut refs) else {
                continue;
            };
            if secret {
                spans.push(Span::new(value.start, value.end));
            }
            i = i.max(value.end);
        }
        (spans, refs)
    }

    /// The scan that looks only at the words a value may follow finds what reading every
    /// word finds, in texts made of the pieces keys, pairs, values and references are
    /// written with (a fixed pseudo-random sequence, so that a failure repeats).
    #[test]
    fn the_keyed_words_scan_finds_what_the_word_by_word_scan_finds() {
        const PIECES: &[&str] = &[
            "access_token",
            "Authorization",
            "token",
            "value",
            "key",
            "\"key\"",
            "\"value\"",
            "password",
            "X-Api-Key",
            "name",
            "t",
            "\"",
            "'",
            "\\",
            ":",
            "=",
            " ",
            "\t",
            "\n",
            ",",
            "{",
            "}",
            "[",
            "]",
            "&",
            "#",
            " #",
            "{{t}}",
            "{{",
            "}}",
            "Bearer ",
            "s3cr3t-v4lue",
            "ghp_",
            "é",
            "?",
            "@t = ",
            "-",
            "_",
            "null",
            "~",
            "${X}",
            "|",
            "x1y2z3w4",
            "\"key\": \"",
            "\", \"value\": \"",
            "\"key\"key\":\"",
            "\",\"value",
            "access_token: ",
            "AccessToken",
            "VALUE",
            "Token",
            "client_secret",
            "api-key",
            "Cookie",
            "my_auth_token",
            "en",
            "ue",
        ];
        let names: BTreeSet<String> = ["t".to_string(), "name".to_string()].into();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..4_000 {
            let mut text = String::new();
            let len = 1 + (state >> 60) as usize * 3;
            for _ in 0..len {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                text.push_str(PIECES[(state >> 33) as usize % PIECES.len()]);
            }
            for names in [&BTreeSet::new(), &names] {
                assert_eq!(
                    scan_text(&text, names),
                    scan_text_word_by_word(&text, names),
                    "{text:?}"
                );
            }
        }
    }

    /// The quick refusal of the text scan's first round never refuses a word that is a
    /// credential key or a pair's key, on words made of the keys' own pieces in every
    /// case and spelling.
    #[test]
    fn the_first_round_refuses_no_key() {
        let pieces: Vec<String> = SECRET_KEYS
            .iter()
            .chain(crate::loading::credentials::SECRET_KEY_ENDINGS)
            .chain(PAIR_KEYS)
            .flat_map(|k| [k.to_string(), k.to_uppercase(), k.replace('_', "-")])
            .chain(["x", "_", "-", "9", "T", "ke", "n"].map(String::from))
            .collect();
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut word = String::new();
            for _ in 0..1 + next() % 3 {
                word.push_str(&pieces[(next() % pieces.len() as u64) as usize]);
            }
            let key =
                is_secret_key(&word) || PAIR_KEYS.iter().any(|k| word.eq_ignore_ascii_case(k));
            if key {
                assert!(may_end_a_key(word.as_bytes(), word.len()), "{word:?}");
            }
        }
    }

    #[test]
    fn passwords_in_urls() {
        let text =
            "url: https://alice:p4ss-w0rd@example.com/x?y=1 and ftp://a@b and http://h:80/\n";
        assert_eq!(spans_of(text), vec!["p4ss-w0rd"]);
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

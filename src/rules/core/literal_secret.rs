use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::encoded::SourceMap;
use crate::loading::{Entry, Node, Value};
use crate::rules::{FileContext, Group, Rule, RuleMeta};

pub struct LiteralSecret;

static META: RuleMeta = RuleMeta {
    name: "literal-secret",
    group: Group::Files,
    severity: Severity::Error,
    summary: "a credential is written in the request file",
    what: "Reports an `access_token` param or an `Authorization` value (in params, in \
           the query string, anywhere in the file) that is a literal rather than a \
           reference such as `${FB_TOKEN}`, `$GH_TOKEN`, `{{token}}` or `<token>`, and \
           any string that looks like a real credential: the code-hosting host's tokens \
           (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`) and the advertising \
           API's user tokens (`EAA…`). The secret is never printed back: messages name \
           its kind only, and code frames mask it.",
    why: "A token committed to a repository is a leaked token: anyone who can read the \
          repository can call the API as its owner until it is revoked.",
    source: "SPEC 1.3 (a literal secret is never a token)",
    bad: example!("literal-secret/bad.req.yaml"),
    good: example!("literal-secret/good.req.yaml"),
};

/// Keys whose value is a credential whatever it looks like (compared case-insensitively).
const SECRET_KEYS: &[&str] = &["access_token", "authorization"];

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

fn token_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Finds a credential-shaped word in `text`: its byte range and description.
fn find_token(text: &str) -> Option<(std::ops::Range<usize>, &'static str, &'static str)> {
    let bytes = text.as_bytes();
    // One pass: a token starts a word with the first letter of one of the prefixes.
    for (start, &b) in bytes.iter().enumerate() {
        if !matches!(b, b'g' | b'E') || (start > 0 && token_char(bytes[start - 1])) {
            continue;
        }
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
                return Some((start..end, prefix, what));
            }
        }
    }
    None
}

/// `${X}`, `$X`, `{{x}}`, `<x>`, or an auth scheme followed by one of those.
fn is_reference(value: &str) -> bool {
    let v = value.trim();
    let v = match v.split_once(char::is_whitespace) {
        Some((scheme, rest))
            if ["bearer", "token", "basic", "oauth"]
                .contains(&scheme.to_ascii_lowercase().as_str()) =>
        {
            rest.trim()
        }
        _ => v,
    };
    let var = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (v.starts_with("${") && v.ends_with('}'))
        || v.strip_prefix('$').is_some_and(var)
        || (v.starts_with("{{") && v.ends_with("}}"))
        || (v.starts_with('<') && v.ends_with('>'))
}

impl LiteralSecret {
    fn check_entry(&self, entry: &Entry, out: &mut Vec<Diagnostic>) -> bool {
        let key = entry.key.to_ascii_lowercase();
        if !SECRET_KEYS.contains(&key.as_str()) {
            return false;
        }
        let value = &entry.value;
        let literal = match &value.value {
            Value::String(s) => !s.trim().is_empty() && !is_reference(s),
            Value::Number(_) => true,
            _ => false,
        };
        if literal {
            out.push(
                Diagnostic::new(
                    &META,
                    value.span,
                    format!(
                        "literal secret in `{}`: a credential is written in the file",
                        entry.key
                    ),
                )
                .with_help(
                    "remove it, revoke it, and write a reference such as `${FB_TOKEN}` instead",
                )
                .secret(),
            );
        }
        true
    }

    fn check_string(&self, file: &FileContext<'_>, node: &Node, out: &mut Vec<Diagnostic>) {
        let Some(text) = node.as_str() else { return };
        if let Some((range, prefix, what)) = find_token(text) {
            let span = SourceMap::for_scalar(file.text, node.span, text).span(range);
            out.push(
                Diagnostic::new(
                    &META,
                    span,
                    format!("literal secret: {what} (`{prefix}…`) is written in the file"),
                )
                .with_help(
                    "remove it, revoke it, and write a reference such as `${GH_TOKEN}` instead",
                )
                .secret(),
            );
        }
    }
}

impl Rule for LiteralSecret {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check(&self, file: &FileContext<'_>, sink: &mut Vec<Diagnostic>) {
        let mut found = Vec::new();
        let out = &mut found;
        // Values a duplicate key replaced are no longer in the tree, but still in the file.
        let shadowed = file.problems.iter().filter_map(|p| p.shadowed.as_deref());
        let mut stack: Vec<&Node> = file.model.documents.iter().map(|d| d.root).collect();
        for entry in shadowed {
            if !self.check_entry(entry, out) {
                stack.push(&entry.value);
            }
        }
        while let Some(node) = stack.pop() {
            match &node.value {
                Value::Map(entries) => {
                    for e in entries.iter().rev() {
                        if !self.check_entry(e, out) {
                            stack.push(&e.value);
                        }
                    }
                }
                Value::Seq(items) => stack.extend(items.iter().rev()),
                Value::EncodedJson { decoded, .. } => stack.push(decoded),
                Value::String(_) => self.check_string(file, node, out),
                _ => {}
            }
        }
        for request in &file.model.requests {
            for q in request
                .line()
                .map(|l| l.query.as_slice())
                .unwrap_or_default()
            {
                if !self.check_entry(q, out) {
                    self.check_string(file, &q.value, out);
                }
            }
        }
        // A secret in a query string is seen both in the request line and as a param.
        found.sort_by_key(|d| (d.span.start, std::cmp::Reverse(d.span.end)));
        let mut covered_to = 0;
        for d in found {
            if d.span.start >= covered_to || d.span.is_empty() {
                covered_to = covered_to.max(d.span.end);
                sink.push(d);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_formats() {
        let t = format!("ghp_{}", "a1".repeat(18));
        assert!(find_token(&t).is_some());
        assert!(find_token(&format!("Bearer {t}")).is_some());
        assert!(find_token("ghp_short").is_none());
        assert!(find_token("EAA_SETTINGS_ARE_NOT_TOKENS_AT_ALL_REALLY").is_none());
        assert!(find_token(&format!("EAAB{}", "x9".repeat(40))).is_some());
        assert!(find_token(&format!("xEAAB{}", "x9".repeat(40))).is_none());
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
}

//! The text a diagnostic of reqlint's JSON report points at: the one span helper of the
//! integration tests (the rules' unit tests have theirs in src/testing.rs).

use serde_json::Value;

/// The text of `text` that a JSON report's diagnostic covers (its span's byte `offset`
/// and `length`).
pub fn spanned<'t>(text: &'t str, diagnostic: &Value) -> &'t str {
    let offset = diagnostic["span"]["offset"].as_u64().unwrap() as usize;
    let length = diagnostic["span"]["length"].as_u64().unwrap() as usize;
    &text[offset..offset + length]
}

/// (rule, the text its span covers) of each diagnostic of a JSON report on `text`, in
/// the report's order.
pub fn rules_and_texts(text: &str, report: &Value) -> Vec<(String, String)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                spanned(text, d).to_string(),
            )
        })
        .collect()
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Span, Value};
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AdSetTimeRangeInvalid {
        name: "adset-time-range-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an ad set read whose `time_range` the API would ignore",
        what: "For an ad set read, reports a `time_range` (a mapping, a JSON-encoded string, or \
               a JSON object in the query string) whose `since` or `until` is not a date \
               written YYYY-MM-DD (a real calendar date), at that value, and a range whose \
               `since` is after its `until`, at `since`; in the query string too, the \
               diagnostic points inside the JSON.",
        why: "The API ignores an invalid range silently: the read returns statistics for a \
              window the caller did not ask for, with no error to tell.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Read an ad set (time_range)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetRead]),
        bad: example!("adset-time-range-invalid/bad.req.yaml"),
        good: example!("adset-time-range-invalid/good.req.yaml"),
    }
}

/// Text shaped YYYY-MM-DD (digits and hyphens), whether or not the date exists.
fn is_date_shape(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// A date written YYYY-MM-DD that is on the calendar.
pub fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = &text[r];
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let days = crate::model::time::days_in_month(i64::from(y), i64::from(m));
    (1..=days).contains(&i64::from(d))
}

/// A date of the range: its text (a string; a number or other value is the type
/// checker's) and where to point.
fn bound(range: &Node, key: &str) -> Option<(String, Span)> {
    let node = range.get_value(key)?;
    let text = match &node.value {
        Value::String(s) => s.to_string(),
        _ => return None,
    };
    Some((text, node.span))
}

impl Rule for AdSetTimeRangeInvalid {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(entry) = request.param("time_range") else {
            return;
        };
        // A mapping, or JSON in a string or in the query string, decoded with spans.
        let range = entry.value.resolved();
        if range.as_map().is_none() {
            return;
        }
        let since = bound(range, "since");
        let until = bound(range, "until");
        let mut bad = false;
        for (key, b) in [("since", &since), ("until", &until)] {
            if let Some((text, span)) = b
                && !is_date(text)
            {
                bad = true;
                let what = if is_date_shape(text) {
                    "is not a date of the calendar"
                } else {
                    "is not a date written YYYY-MM-DD"
                };
                out.push(
                    Diagnostic::new(
                        &META,
                        *span,
                        format!(
                            "`time_range.{key}` `{text}` {what}; the API ignores the range silently"
                        ),
                    )
                    .with_help("write a date as YYYY-MM-DD, for example 2025-06-01"),
                );
            }
        }
        if bad {
            return;
        }
        if let (Some((s, s_span)), Some((u, u_span))) = (&since, &until)
            && s > u
        {
            let mut d = Diagnostic::new(
                &META,
                *s_span,
                format!("`time_range` starts on {s}, after it ends on {u}; the API ignores the range silently"),
            )
            .with_help("swap `since` and `until`");
            if u_span != s_span {
                d = d.with_label(*u_span, "ends here");
            }
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_dates() {
        for ok in ["2025-06-01", "2024-02-29", "2000-02-29", "1999-12-31"] {
            assert!(is_date(ok), "{ok}");
        }
        for bad in [
            "2025-6-1",
            "2025-02-29",
            "1900-02-29",
            "2025-13-01",
            "2025-04-31",
            "2025-00-10",
            "2025-01-00",
            "2025/01/01",
            "2025-01-01T00:00:00",
            "+025-01-01",
            "today",
            "",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
        assert!(is_date_shape("2025-02-30") && !is_date_shape("2025-2-30"));
    }
}

#[cfg(test)]
mod rule_tests {
    use crate::testing::spans;

    const CONTEXT: &str = "ad_sets:\n  - {id: '901'}\n";

    #[test]
    fn mappings_json_and_query_strings() {
        let yaml = "requests:\n  - GET /v24.0/901?time_range={\"since\":\"2025-07-01\",\"until\":\"2025-06-01\"}\n  - GET /v24.0/901?time_range={\"since\":\"2025-06-01\",\"until\":\"2025-07-01\"}\n  - request: GET /v24.0/901\n    params: {time_range: {since: '2025-7-1', until: 2025-02-29}}\n  - request: GET /v24.0/901\n    params: {time_range: {since: 2025-06-01}}\n  - request: GET /v24.0/901\n    params: {time_range: {since: 20250601, until: 2025-06-02}}\n  - request: GET /v24.0/901\n    params: {time_range: {since: 2025-06-01, until: 2025-06-01}}\n";
        assert_eq!(
            spans("adset-time-range-invalid", CONTEXT, yaml),
            vec!["\"2025-07-01\"", "'2025-7-1'", "2025-02-29"]
        );
    }
}

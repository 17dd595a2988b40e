//! What the param checkers find, and how the API reads a form field's value: shared by
//! the checks of the reference documents' tables and of the vendor's specs.

use crate::catalog::advertising::ParamRule;
use crate::loading::{Node, Span, Value};

/// What the checker found about one param.
#[derive(Debug, Clone, PartialEq)]
pub enum IssueKind {
    /// Wrong type, not in the enum, out of range, too long: reported by `rule`.
    Invalid { rule: ParamRule },
    /// A value outside an enum whose list the reference says is incomplete.
    OutsideOpenEnum,
    /// The endpoint's table does not list the param.
    Unknown,
    /// Create takes it, the update list omits it.
    NotUpdatable,
    /// The call requires it and the request does not give it.
    Missing,
    /// One value where the API takes a list (`special_ad_categories: NONE`).
    NotAList,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub kind: IssueKind,
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
    /// A type or enum judgement of the reference documents' tables, which the vendor's
    /// specs may overrule (they accept the value): not a limit or a refused value.
    pub graph_may_accept: bool,
    /// How to fix it, where there is one right answer (or a removal).
    pub fix: Option<IssueFix>,
    /// Where the request uses the variable whose definition holds the value judged at
    /// `span` (`objective={{objective}}` for `@objective = OUTCOME_SALE`).
    pub used_at: Option<Span>,
}

/// A fix of a param finding, made into text edits by the rule that reports it.
#[derive(Debug, Clone, PartialEq)]
pub enum IssueFix {
    /// The one close name or value for the misspelt one written at the issue's span.
    Rename { old: String, new: String },
    /// Remove the param: its entry from the key's start to the value's end.
    Remove { start: usize, end: usize },
    /// Make the one value written at the issue's span, right after its key `key`, a
    /// list of one: `[NONE]` in YAML, `["HOUSING"]` in JSON, `["NONE"]` in a query string
    /// or a form body.
    WrapInList { key: String },
}

/// A value sent empty: a key without a value (`?status`, `status=`), a blank string, or
/// a YAML null. A string param takes an empty string; every other type is refused with
/// error 100, whichever table types it, so both checkers judge it here.
pub fn is_empty_value(node: &Node) -> bool {
    match &node.value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// The finding about an empty value of a param that is `expected` (`an integer`).
pub fn empty_value(name: &str, expected: &str, span: Span, rule: ParamRule) -> Issue {
    Issue {
        used_at: None,
        kind: IssueKind::Invalid { rule },
        span,
        message: format!("`{name}` is empty"),
        help: Some(format!(
            "the API refuses an empty value: give {expected}, or leave the param out"
        )),
        graph_may_accept: false,
        fix: None,
    }
}

/// Whether a number as written is an integer (digits, with a sign).
pub fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// An integer as the API reads a form field: a number, or a string of digits.
pub fn integer(node: &Node) -> Option<Result<i64, ()>> {
    match &node.value {
        Value::Number(_) => Some(node.as_i64().ok_or(())),
        Value::String(s) => digits_value(s.trim()),
        _ => None,
    }
}

/// The value of optional `-` and digits, read in one pass (ids are sent as strings of
/// up to twenty digits, and every one is read): `None` for other text, an error for a
/// value that does not fit.
fn digits_value(text: &str) -> Option<Result<i64, ()>> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    let mut fits = true;
    for b in digits.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        let digit = i64::from(b - b'0');
        // Toward the sign: the least value has no positive counterpart.
        let next = value.checked_mul(10).and_then(|v| {
            if negative {
                v.checked_sub(digit)
            } else {
                v.checked_add(digit)
            }
        });
        match next {
            Some(v) => value = v,
            None => fits = false,
        }
    }
    Some(if fits { Ok(value) } else { Err(()) })
}

pub fn is_datetime(text: &str) -> bool {
    let b = text.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    (b.len() >= 10 && digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10))
        || (!text.is_empty() && text.bytes().all(|c| c.is_ascii_digit()))
}

/// A value that stands for one the request is sent with (`${CAMPAIGN_ID}`, `$TOKEN`,
/// `{{account_id}}`, `<ad set id>`), or a string that holds a variable whose value is not
/// known (`OUTCOME_{{goal}}`; known ones are substituted before rules see the value):
/// never judged.
pub fn is_placeholder(node: &Node) -> bool {
    let Some(text) = node.as_str() else {
        return false;
    };
    // Every placeholder starts with a `$` or a `<`, or holds a `{`; most values do
    // neither: one search tells them (counted as the search for references would).
    let first = text.trim_start().as_bytes().first();
    if !matches!(first, Some(b'$' | b'<')) && memchr::memchr(b'{', text.as_bytes()).is_none() {
        if matches!(node.value, Value::String(_)) {
            crate::loading::work::count(text.len());
        }
        return false;
    }
    if matches!(node.value, Value::String(_))
        && crate::loading::encoded::references(text).next().is_some()
    {
        return true;
    }
    let t = text.trim();
    let wrapped = |open: &str, close: &str| {
        t.len() > open.len() + close.len() && t.starts_with(open) && t.ends_with(close)
    };
    wrapped("${", "}")
        || wrapped("{{", "}}")
        || wrapped("<", ">")
        || t.strip_prefix('$').is_some_and(|n| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
}

/// The params that are amounts of money: integers in the minor unit of the account's
/// currency (cents of USD, yen), "the currency's offset" (Meta's Marketing API
/// reference, Currencies, https://developers.facebook.com/docs/marketing-api/currencies/;
/// the ad set and campaign references type them `int64`/`uint32`).
pub const MONEY_PARAMS: &[&str] = &[
    "bid_amount",
    "daily_budget",
    "daily_min_spend_target",
    "daily_spend_cap",
    "lifetime_budget",
    "lifetime_min_spend_target",
    "lifetime_spend_cap",
    "spend_cap",
];

/// `100.00` as written in a money param: its whole and fraction digits.
pub fn decimal_amount(text: &str) -> Option<(&str, &str)> {
    let (whole, fraction) = text.trim().split_once('.')?;
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    (!whole.is_empty() && digits(whole) && digits(fraction)).then_some((whole, fraction))
}

/// An amount written with a decimal point in units of a currency whose offset is
/// `offset` (100: cents; 1: no minor unit), as the integer the API takes: `100.00` at
/// 100 is `10000`. None where it is not a whole number of minor units (`1.005` in
/// USD, `1500.5` in JPY) or would not fit.
pub fn in_minor_units(whole: &str, fraction: &str, offset: i64) -> Option<i64> {
    let places = match offset {
        1 => 0,
        10 => 1,
        100 => 2,
        1000 => 3,
        _ => return None,
    };
    let kept = fraction.trim_end_matches('0');
    if kept.len() > places {
        return None;
    }
    let mut padded = kept.to_string();
    while padded.len() < places {
        padded.push('0');
    }
    let whole: i64 = whole.parse().ok()?;
    let minor: i64 = if padded.is_empty() {
        0
    } else {
        padded.parse().ok()?
    };
    whole.checked_mul(offset)?.checked_add(minor)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Digits read in one pass give what the validation and `str::parse` gave.
    #[test]
    fn digits_read_as_parse_reads_them() {
        let by_parse = |t: &str| {
            let digits = t.strip_prefix('-').unwrap_or(t);
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<i64>().map_err(|_| ()))
        };
        let max = i64::MAX.to_string();
        let min = i64::MIN.to_string();
        let above = "9223372036854775808";
        let below = "-9223372036854775809";
        for t in [
            "",
            "-",
            "+5",
            "0",
            "-0",
            "007",
            "42",
            "-42",
            "12027218009990279",
            "1.5",
            "1e3",
            "12a",
            "a12",
            "--1",
            "- 1",
            "٣",
            &max,
            &min,
            above,
            below,
            "99999999999999999999999",
            "-99999999999999999999999",
            "99999999999999999999x",
        ] {
            assert_eq!(digits_value(t), by_parse(t), "{t}");
        }
    }

    #[test]
    fn decimals_in_minor_units() {
        assert_eq!(decimal_amount("100.00"), Some(("100", "00")));
        assert_eq!(decimal_amount("100"), None);
        assert_eq!(decimal_amount(".5"), None);
        assert_eq!(decimal_amount("1e3"), None);
        assert_eq!(in_minor_units("100", "00", 100), Some(10000));
        assert_eq!(in_minor_units("12", "5", 100), Some(1250));
        assert_eq!(in_minor_units("1", "005", 100), None);
        assert_eq!(in_minor_units("1500", "00", 1), Some(1500));
        assert_eq!(in_minor_units("1500", "5", 1), None);
        assert_eq!(in_minor_units("99999999999999999", "0", 100), None);
    }
}

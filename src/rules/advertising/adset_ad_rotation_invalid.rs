use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Value};
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{Operation, params};

crate::declare_rule! {
    pub struct AdSetAdRotationInvalid {
        name: "adset-ad-rotation-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "time based ad rotation that breaks the reference's limits",
        what: "For an ad set create or update that sends `time_based_ad_rotation_intervals` or \
               `time_based_ad_rotation_id_blocks`: fewer than two date ranges; a number of id \
               blocks other than one per interval (when both are sent); a first interval \
               timestamp other than the `start_time` of the same request; a last interval \
               timestamp less than one hour before the `end_time` of the same request. \
               start_time and end_time may be UNIX timestamps or ISO 8601 date-times with a UTC \
               offset (`Z`, `+0200`, `+02:00`); a date-time without an offset is not judged, \
               nor is what the request does not show. An empty list is not judged.",
        why: "Time based ad rotation shows each block of ads in its own date range: the ranges \
              start at the start, the last begins at least an hour before the end, and there \
              are at least two. The API refuses other rotations with error 100.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Limits\" (time based ad rotation) and \"Endpoints\": Create an ad set \
                 (time_based_ad_rotation_id_blocks, time_based_ad_rotation_intervals)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-ad-rotation-invalid/bad.req.yaml"),
        good: example!("adset-ad-rotation-invalid/good.req.yaml"),
    }
}

use crate::model::time::{civil_from_days, days_from_civil, days_in_month};

/// An ISO 8601 date-time with a UTC offset (`2025-06-01T00:00:00+0000`,
/// `2025-06-01T02:00:00+02:00`, `2025-06-01T00:00Z`) as a UNIX timestamp; `None` for
/// anything else, a date-time without an offset included (its zone is unknown).
pub fn iso_to_unix(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b'T' | b't' | b' '))
    {
        return None;
    }
    let (h, mi) = (num(11..13)?, num(14..16)?);
    if b.get(13) != Some(&b':') {
        return None;
    }
    let mut i = 16;
    let mut s = 0;
    if b.get(i) == Some(&b':') {
        s = num(17..19)?;
        i = 19;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
        }
    }
    let offset = match &text[i..] {
        "Z" | "z" => 0,
        rest => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let digits = rest[1..].replacen(':', "", 1);
            if !digits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            let (oh, om) = match digits.len() {
                2 => (digits.parse::<i64>().ok()?, 0),
                4 => (
                    digits[..2].parse::<i64>().ok()?,
                    digits[2..].parse::<i64>().ok()?,
                ),
                _ => return None,
            };
            if oh > 23 || om > 59 {
                return None;
            }
            sign * (oh * 3600 + om * 60)
        }
    };
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    Some(days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset)
}

/// A start_time or end_time as a UNIX timestamp: a number, a string of digits, or an
/// ISO 8601 date-time with an offset.
pub fn unix_time(node: &Node) -> Option<i64> {
    match &node.value {
        Value::Number(_) => node.as_i64(),
        Value::String(s) => {
            let t = s.trim();
            if !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()) {
                t.parse().ok()
            } else {
                iso_to_unix(t)
            }
        }
        _ => None,
    }
}

/// `2025-06-01 00:00 UTC` for messages.
fn utc(ts: i64) -> String {
    let days = ts.div_euclid(86_400);
    let secs = ts.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

impl Rule for AdSetAdRotationInvalid {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let intervals = request.param("time_based_ad_rotation_intervals");
        let blocks = request.param("time_based_ad_rotation_id_blocks");
        let interval_items = intervals.and_then(|e| e.value.as_seq());
        let block_items = blocks.and_then(|e| e.value.as_seq());
        // Fewer than two ranges: counted by the intervals, else by the id blocks.
        let counted = match (intervals, interval_items) {
            (Some(e), Some(items)) => Some((e, items.len(), "interval")),
            _ => blocks
                .zip(block_items)
                .map(|(e, items)| (e, items.len(), "id block")),
        };
        if let Some((entry, n, what)) = counted
            && n == 1
        {
            out.push(
                Diagnostic::new(
                    &META,
                    entry.value.span,
                    format!("{} gives 1 {what}: time based ad rotation needs at least two date ranges", entry.key),
                )
                .with_help("give at least two date ranges, each with its block of ad IDs, or drop time based ad rotation")
                .with_api_error(100, None),
            );
        }
        if let (Some(ints), Some(blks), Some(blocks)) = (interval_items, block_items, blocks)
            && !ints.is_empty()
            && !blks.is_empty()
            && ints.len() != blks.len()
        {
            let mut d = Diagnostic::new(
                &META,
                blocks.value.span,
                format!(
                    "{} id blocks for {} intervals: time based ad rotation takes one block of ad IDs per date range",
                    blks.len(),
                    ints.len()
                ),
            )
            .with_help("give each interval (date range) its own list of ad IDs, in the same order")
            .with_api_error(100, None);
            if let Some(e) = intervals {
                d = d.with_label(e.key_span, "the intervals");
            }
            out.push(d);
        }
        let Some(items) = interval_items.filter(|i| !i.is_empty()) else {
            return;
        };
        let stamps: Option<Vec<i64>> = items
            .iter()
            .map(|n| params::integer(n).and_then(Result::ok))
            .collect();
        let Some(stamps) = stamps else { return };
        let (first, last) = (stamps[0], stamps[stamps.len() - 1]);
        if let Some(start) = request.param("start_time")
            && let Some(start_ts) = unix_time(&start.value)
            && first != start_ts
        {
            out.push(
                Diagnostic::new(
                    &META,
                    items[0].span,
                    format!(
                        "the first rotation interval starts at {first} ({}), not at start_time {start_ts} ({}): the first date range must begin at the start",
                        utc(first),
                        utc(start_ts)
                    ),
                )
                .with_label(start.value.span, "start_time")
                .with_help(format!("make the first interval {start_ts}"))
                .with_api_error(100, None),
            );
        }
        if let Some(end) = request.param("end_time")
            && let Some(end_ts) = unix_time(&end.value)
            && last > end_ts - 3600
        {
            out.push(
                Diagnostic::new(
                    &META,
                    items[items.len() - 1].span,
                    format!(
                        "the last rotation interval starts at {last} ({}), less than one hour before end_time {end_ts} ({})",
                        utc(last),
                        utc(end_ts)
                    ),
                )
                .with_label(end.value.span, "end_time")
                .with_help(format!(
                    "start the last date range at {} or earlier, or end the ad set later",
                    end_ts - 3600
                ))
                .with_api_error(100, None),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::engine::{Settings, lint_bytes};
    use crate::loading::Limits;
    use crate::model::config::Config;
    use crate::model::context::ContextIndex;

    #[test]
    fn iso_date_times_with_offsets() {
        assert_eq!(iso_to_unix("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(iso_to_unix("2025-06-01T00:00:00+0000"), Some(1_748_736_000));
        assert_eq!(
            iso_to_unix("2025-06-01T02:00:00+02:00"),
            Some(1_748_736_000)
        );
        assert_eq!(iso_to_unix("2025-05-31T19:00:00-05"), Some(1_748_736_000));
        assert_eq!(iso_to_unix("2025-06-01T00:00Z"), Some(1_748_736_000));
        assert_eq!(
            iso_to_unix("2025-06-01 00:00:00.250+0000"),
            Some(1_748_736_000)
        );
        assert_eq!(iso_to_unix("2024-02-29T12:00:00Z"), Some(1_709_208_000));
        // No offset, a date alone, impossible dates: not a known instant.
        assert_eq!(iso_to_unix("2025-06-01T00:00:00"), None);
        assert_eq!(iso_to_unix("2025-06-01"), None);
        assert_eq!(iso_to_unix("2025-02-29T00:00:00Z"), None);
        assert_eq!(iso_to_unix("2025-13-01T00:00:00Z"), None);
        assert_eq!(iso_to_unix("2025-06-01T00:00:00+2500"), None);
        assert_eq!(iso_to_unix("next week"), None);
        assert_eq!(utc(1_748_736_000), "2025-06-01 00:00:00 UTC");
    }

    fn messages(params: &str) -> Vec<String> {
        let settings = Settings {
            config: Config::defaults(PathBuf::from(".")),
            context: ContextIndex::default(),
            limits: Limits::DEFAULT,
        };
        let yaml = format!("request: POST /v24.0/act_1/adsets\nparams:\n{params}");
        lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            yaml.into_bytes(),
            &settings,
        )
        .diagnostics
        .iter()
        .filter(|d| d.rule == META.name)
        .map(|d| d.message.clone())
        .collect()
    }

    #[test]
    fn ranges_blocks_start_and_end() {
        let ok = "  start_time: 2025-06-01T02:00:00+02:00\n  end_time: 1749945600\n  time_based_ad_rotation_intervals: [1748736000, 1749340800]\n  time_based_ad_rotation_id_blocks: [[1, 2], [3]]\n";
        assert!(messages(ok).is_empty(), "{:?}", messages(ok));
        // The last range may start exactly one hour before the end.
        let edge = "  end_time: 1749344400\n  time_based_ad_rotation_intervals: [1748736000, 1749340800]\n";
        assert!(messages(edge).is_empty());
        let late = "  end_time: 1749344399\n  time_based_ad_rotation_intervals: [1748736000, 1749340800]\n";
        assert_eq!(messages(late).len(), 1);
        let one = "  time_based_ad_rotation_intervals: [1748736000]\n  time_based_ad_rotation_id_blocks: [[1]]\n";
        assert_eq!(
            messages(one),
            vec![
                "time_based_ad_rotation_intervals gives 1 interval: time based ad rotation needs at least two date ranges"
            ]
        );
        let blocks_only = "  time_based_ad_rotation_id_blocks: [[1]]\n";
        assert_eq!(messages(blocks_only).len(), 1);
        let mismatch = "  time_based_ad_rotation_intervals: [1748736000, 1749340800]\n  time_based_ad_rotation_id_blocks: [[1], [2], [3]]\n";
        assert_eq!(
            messages(mismatch),
            vec![
                "3 id blocks for 2 intervals: time based ad rotation takes one block of ad IDs per date range"
            ]
        );
        let start = "  start_time: '1748736001'\n  time_based_ad_rotation_intervals: ['1748736000', 1749340800]\n";
        assert_eq!(messages(start).len(), 1);
        // What the request does not show is not judged.
        for quiet in [
            "  start_time: 2025-06-01T00:00:01\n  time_based_ad_rotation_intervals: [1748736000, 1749340800]\n",
            "  time_based_ad_rotation_intervals: []\n  time_based_ad_rotation_id_blocks: []\n",
            "  start_time: 1\n  time_based_ad_rotation_intervals: [soon, 1749340800]\n",
            "  name: no rotation\n",
        ] {
            assert!(messages(quiet).is_empty(), "{quiet}");
        }
    }
}

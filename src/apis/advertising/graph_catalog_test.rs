//! Tests generated from the catalog: every call of the vendor's specs, written as a
//! request with its required params, is recognized as that call and raises no param
//! finding; every enum param given a value outside its enum is an error on that value.

use serde_json::{Value as Json, json};

use crate::catalog::graph::{GCallId, GType, GraphCall, enum_values};
use crate::loading::encoded_params::decode_encoded_params;
use crate::loading::{Format, Limits, parse_text};
use crate::model::FileModel;
use crate::model::context::ContextIndex;

use super::endpoint::{Recognized, recognize};
use super::params::{IssueKind, check_call};

/// A valid value of a type.
fn sample(ty: GType) -> Json {
    match ty {
        GType::String => json!("x"),
        GType::Int | GType::UInt => json!(1),
        GType::Float => json!(1.5),
        GType::Bool => json!(true),
        GType::Datetime => json!("2026-01-01T00:00:00+0000"),
        GType::File => json!("file.bin"),
        GType::Object | GType::Map | GType::Node(_) => json!({}),
        GType::List(item) => json!([sample(*item)]),
        GType::Enum(e) => json!(enum_values(e)[0]),
    }
}

/// A value outside an enum, in the shape of the type (a list of it for a list).
fn outside(ty: GType) -> Option<Json> {
    match ty {
        GType::Enum(_) => Some(json!("NOT_A_VALUE_ZZ")),
        GType::List(item) => outside(*item).map(|v| json!([v])),
        _ => None,
    }
}

/// The request line of a call, and the `object:` it needs.
fn line_of(call: &GraphCall) -> (String, Option<&'static str>) {
    let node = call.node.name();
    let base = if node == "ad_account" {
        "/v25.0/act_1234567890".to_string()
    } else {
        "/v25.0/1234567890".to_string()
    };
    let path = if call.edge.is_empty() {
        base
    } else {
        format!("{base}/{}", call.edge)
    };
    let object = (node != "ad_account").then_some(node);
    (format!("{} {path}", call.method), object)
}

fn request(call: &GraphCall, params: serde_json::Map<String, Json>) -> String {
    let (line, object) = line_of(call);
    let mut r = json!({"request": line, "params": params});
    if let Some(o) = object {
        r["object"] = json!(o);
    }
    serde_json::to_string_pretty(&r).unwrap()
}

fn required(call: &GraphCall) -> serde_json::Map<String, Json> {
    call.params
        .iter()
        .filter(|p| p.required)
        .map(|p| (p.name.to_string(), sample(p.ty)))
        .collect()
}

/// Recognizes the one request of `text` and checks its params.
fn lint(text: &str) -> Result<(GCallId, Vec<super::params::Issue>), String> {
    let (mut docs, problems) = parse_text(text, Format::Json, &Limits::DEFAULT);
    assert!(problems.is_empty(), "{problems:?}");
    decode_encoded_params(
        &mut docs,
        text,
        &Limits::DEFAULT,
        &crate::engine::Registry::builtin().json_encoded_params,
    );
    let model = FileModel::build(&docs, text);
    let context = ContextIndex::default();
    let r = &model.requests[0];
    match recognize(r, &context, true) {
        Some(Recognized::Call(target, _)) => Ok((target.graph, check_call(target, r, None))),
        Some(Recognized::UnknownKind(..)) => Err("unknown kind".into()),
        Some(Recognized::NoEndpoint { reason, .. }) => Err(format!("no endpoint: {reason}")),
        None => Err("not advertising".into()),
    }
}

#[test]
fn every_call_with_its_required_params_is_recognized_and_clean() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for id in GCallId::all() {
        let call = id.get();
        let text = request(call, required(call));
        match lint(&text) {
            Ok((found, _)) if found != id => failures.push(format!(
                "{}: recognized as {}",
                call.describe(),
                found.get().describe()
            )),
            Ok((_, issues)) => {
                let wrong: Vec<String> = issues.iter().map(|i| i.message.clone()).collect();
                if !wrong.is_empty() {
                    failures.push(format!(
                        "{} ({}): {wrong:?}",
                        call.describe(),
                        call.node.name()
                    ));
                }
            }
            Err(e) => failures.push(format!("{} ({}): {e}", call.describe(), call.node.name())),
        }
        checked += 1;
    }
    assert!(checked >= 1460);
    assert!(
        failures.is_empty(),
        "{} of {checked} calls fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_enum_param_refuses_a_value_outside_its_enum() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for id in GCallId::all() {
        let call = id.get();
        for p in call.params {
            let Some(bad) = outside(p.ty) else {
                continue;
            };
            let mut params = required(call);
            params.insert(p.name.to_string(), bad);
            let text = request(call, params);
            let at = text.find("NOT_A_VALUE_ZZ").unwrap();
            let line = text[..at].lines().count();
            match lint(&text) {
                Ok((_, issues)) => {
                    let on_value = issues.iter().any(|i| {
                        matches!(i.kind, IssueKind::Invalid { .. })
                            && i.span.start <= at
                            && at < i.span.end
                            && text[..i.span.start].lines().count() == line
                    });
                    if !on_value {
                        failures.push(format!("{} {}: {issues:?}", call.describe(), p.name));
                    }
                }
                Err(e) => failures.push(format!("{} {}: {e}", call.describe(), p.name)),
            }
            checked += 1;
        }
    }
    assert!(checked >= 780, "{checked}");
    assert!(
        failures.is_empty(),
        "{} of {checked} enum params fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One edit of a value, in its middle: a character dropped, two neighbours swapped, a
/// character doubled.
fn one_edit_misspellings(value: &str) -> Vec<String> {
    let chars: Vec<char> = value.chars().collect();
    let at = chars.len() / 2;
    let mut dropped = chars.clone();
    dropped.remove(at);
    let mut swapped = chars.clone();
    swapped.swap(at - 1, at);
    let mut doubled = chars.clone();
    doubled.insert(at, chars[at]);
    [dropped, swapped, doubled]
        .into_iter()
        .map(|c| c.into_iter().collect::<String>())
        .filter(|m| m != value)
        .collect()
}

/// The value of `values` at most one edit from `typo` (case aside), when it is the only
/// one: the misspellings a fix can take back without doubt.
fn the_one_value_an_edit_from<'v>(typo: &str, values: &'v [&'v str]) -> Option<&'v &'v str> {
    let lower = typo.to_lowercase();
    let mut near = values
        .iter()
        .filter(|v| v.len().abs_diff(lower.len()) <= 1)
        .filter(|v| strsim::damerau_levenshtein(&lower, &v.to_lowercase()) <= 1);
    let first = near.next()?;
    near.next().is_none().then_some(first)
}

/// Every value of every enum of the specs, misspelt by one edit, is fixed back, wherever
/// it is the one value of its enum that one edit away: the request is linted as users
/// write it, and the finding on the value must carry the rename to it.
#[test]
fn every_enum_value_misspelt_once_is_fixed_back() {
    use super::params::IssueFix;
    let mut seen_enums = std::collections::HashSet::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    for id in GCallId::all() {
        let call = id.get();
        for p in call.params {
            let (enum_id, listed) = match p.ty {
                GType::Enum(e) => (e, false),
                GType::List(item) => match *item {
                    GType::Enum(e) => (e, true),
                    _ => continue,
                },
                _ => continue,
            };
            if !seen_enums.insert(enum_id) {
                continue;
            }
            let values = enum_values(enum_id);
            // Every value of a short enum, a sample of a long one's (each value of every
            // enum is misspelt three ways in `suggest`'s own test below), and one of the
            // three edits a value in turn: the whole catalog stays a few thousand lints.
            let step = values.len().div_ceil(12);
            let sample = values
                .iter()
                .enumerate()
                .filter(|(i, v)| i % step == 0 && v.chars().count() >= 4);
            for (i, value) in sample {
                let edits = one_edit_misspellings(value);
                for typo in edits.into_iter().skip(i % 3).take(1) {
                    if the_one_value_an_edit_from(&typo, values) != Some(value) {
                        continue; // another value is as close, or the typo is a value
                    }
                    let mut params = required(call);
                    let written = if listed { json!([typo]) } else { json!(typo) };
                    params.insert(p.name.to_string(), written);
                    let fixed = match lint(&request(call, params)) {
                        Ok((_, issues)) => issues.iter().any(|i| {
                            matches!(&i.fix, Some(IssueFix::Rename { old, new })
                                if *old == typo && new == value)
                        }),
                        Err(_) => false,
                    };
                    if !fixed {
                        failures.push(format!("{} {}: {typo} → {value}", call.describe(), p.name));
                    }
                    checked += 1;
                }
            }
        }
    }
    eprintln!("{checked} misspellings linted");
    assert!(checked >= 1_000, "{checked}");
    assert!(
        failures.is_empty(),
        "{} of {checked} misspellings not fixed back:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// `suggest::only_close` on every value of every distinct enum of the specs (of the few
/// with hundreds of values, one in so many), misspelt three ways: the value comes back
/// wherever no other value of its enum is as close.
#[test]
fn every_value_of_every_enum_misspelt_three_ways_comes_back() {
    let mut checked = 0;
    let mut seen = std::collections::HashSet::new();
    for (_, values) in crate::catalog::graph::GRAPH_ENUMS {
        // Many params share one list of values; a list of hundreds (time zones) is
        // sampled, as each misspelling is compared with every value of its list.
        if !seen.insert(*values) {
            continue;
        }
        let step = values.len().div_ceil(100);
        for value in values
            .iter()
            .step_by(step)
            .filter(|v| v.chars().count() >= 4)
        {
            for typo in one_edit_misspellings(value) {
                if the_one_value_an_edit_from(&typo, values) != Some(value) {
                    continue;
                }
                assert_eq!(
                    crate::suggest::only_close(&typo, values.iter().copied()),
                    Some(*value),
                    "{typo}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8_000, "{checked}");
}

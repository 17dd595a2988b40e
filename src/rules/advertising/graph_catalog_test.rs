//! Tests generated from the catalog: every call of the vendor's specs, written as a
//! request with its required params, is recognized as that call and raises no param
//! finding; every enum param given a value outside its enum is an error on that value.

use serde_json::{Value as Json, json};

use crate::catalog::graph::{GCallId, GType, GraphCall, enum_values};
use crate::loading::{Format, Limits, parse_text};
use crate::model::context::ContextIndex;
use crate::model::{FileModel, decode_encoded_params};

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
    decode_encoded_params(&mut docs, text, &Limits::DEFAULT);
    let model = FileModel::build(&docs, text);
    let context = ContextIndex::default();
    let r = &model.requests[0];
    match recognize(r, &context, true) {
        Some(Recognized::Call(target, _)) => Ok((target.graph, check_call(target, r))),
        Some(Recognized::UnknownKind(_)) => Err("unknown kind".into()),
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

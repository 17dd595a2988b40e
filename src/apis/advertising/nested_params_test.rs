//! Generated from the vendor's specs: for every param that holds a node type in the calls
//! that create or update campaigns, ad sets, ads, creatives and audiences, a nested field
//! of each scalar type and each enum its node types have, however deep, is sent wrong
//! (one finding, an error at the value) and right (no finding), in a mapping and in a
//! JSON-encoded string.

use crate::catalog::graph::{GNode, GType, enum_values};
use crate::loading::{Format, Limits, Value, parse_text};
use crate::model::Method;

use super::graph_types::{Reading, check_as};
use super::values::IssueKind;

/// The calls of the brief: create on the account's edges, update on the node itself.
fn writes() -> Vec<(GNode, &'static str)> {
    let account = GNode::parse("ad_account").unwrap();
    let mut calls: Vec<(GNode, &str)> = [
        "campaigns",
        "adsets",
        "ads",
        "adcreatives",
        "customaudiences",
    ]
    .into_iter()
    .map(|e| (account, e))
    .collect();
    for node in ["campaign", "ad_set", "ad", "ad_creative", "custom_audience"] {
        calls.push((GNode::parse(node).unwrap(), ""));
    }
    calls
}

/// A field reached from a param: the keys on the way (each with whether it is a list
/// there) and the field's type.
struct Leaf {
    path: Vec<(&'static str, usize)>,
    ty: GType,
}

/// A kind of scalar type, or an enum: one field of each is tried.
fn kind(ty: GType) -> Option<String> {
    Some(match ty.item() {
        GType::Int => "int".into(),
        GType::UInt => "uint".into(),
        GType::Float => "float".into(),
        GType::Bool => "bool".into(),
        GType::Datetime => "datetime".into(),
        GType::Enum(e) => format!("enum {e}"),
        _ => return None,
    })
}

fn list_depth(mut ty: GType) -> usize {
    let mut depth = 0;
    while let GType::List(inner) = ty {
        depth += 1;
        ty = *inner;
    }
    depth
}

/// One field of each kind under `root`, the first found breadth first.
fn leaves(root: GNode) -> Vec<Leaf> {
    let mut found: Vec<(String, Leaf)> = Vec::new();
    let mut seen = vec![root];
    let mut queue = std::collections::VecDeque::from([(root, Vec::new())]);
    while let Some((node, path)) = queue.pop_front() {
        for &(name, ty) in node.info().fields {
            let name = name.as_str();
            let mut here: Vec<(&'static str, usize)> = path.clone();
            here.push((name, list_depth(ty)));
            if let Some(k) = kind(ty) {
                if !found.iter().any(|(f, _)| *f == k) {
                    found.push((k, Leaf { path: here, ty }));
                }
            } else if let Some(inner) = ty.node()
                && !seen.contains(&inner)
            {
                seen.push(inner);
                queue.push_back((inner, here));
            }
        }
    }
    found.into_iter().map(|(_, l)| l).collect()
}

/// A wrong and a right value of a scalar type or an enum, as JSON.
fn values(ty: GType) -> (String, String) {
    let (wrong, right) = match ty.item() {
        GType::Int | GType::UInt => ("\"several\"".to_string(), "5".to_string()),
        GType::Float => ("\"wide\"".into(), "1.5".into()),
        GType::Bool => ("\"maybe\"".into(), "true".into()),
        GType::Datetime => ("\"tomorrow\"".into(), "\"2025-06-01T00:00:00+0000\"".into()),
        GType::Enum(e) => (
            "\"NOT_ONE_OF_THEM\"".into(),
            serde_json::Value::String(enum_values(e)[0].into()).to_string(),
        ),
        other => panic!("{other:?}"),
    };
    (wrong, right)
}

/// `{"a": [{"b": VALUE}]}` for the path a[].b, the leaf as deep in lists as its type.
fn nest(path: &[(&str, usize)], value: &str) -> String {
    let mut text = value.to_string();
    for (i, (name, depth)) in path.iter().enumerate().rev() {
        // The leaf's own lists hold the value; a list on the way holds an object.
        let _ = i;
        for _ in 0..*depth {
            text = format!("[{text}]");
        }
        text = format!("{{\"{name}\": {text}}}");
    }
    text
}

/// The findings of `param: <value>`, written as is or as a JSON-encoded string.
fn findings(
    ty: GType,
    param: &str,
    value: &str,
    encoded: bool,
) -> (String, Vec<(IssueKind, String)>) {
    let yaml = if encoded {
        format!("{param}: '{value}'\n")
    } else {
        format!("{param}: {value}\n")
    };
    let (mut docs, problems) = parse_text(&yaml, Format::Yaml, &Limits::DEFAULT);
    assert!(problems.is_empty(), "{yaml}: {problems:?}");
    if let Value::Map(entries) = &mut docs[0].value {
        for e in entries {
            crate::loading::encoded::decode_in_place(&mut e.value, &yaml, &Limits::DEFAULT);
        }
    }
    let entry = &docs[0].as_map().unwrap()[0];
    let mut out = Vec::new();
    check_as(ty, param, &entry.value, Reading::of_call(true), &mut out);
    let found = out
        .into_iter()
        .map(|i| (i.kind, yaml[i.span.range()].to_string()))
        .collect();
    (yaml, found)
}

#[test]
fn every_nested_scalar_and_enum_of_the_write_calls_is_judged() {
    let mut params = 0;
    let mut cases = 0;
    let mut enums = 0;
    for (node, edge) in writes() {
        let call = node.call(Method::Post, edge).unwrap().get();
        for p in call.params {
            let Some(root) = p.ty.node() else { continue };
            params += 1;
            for leaf in leaves(root) {
                let (wrong, right) = values(leaf.ty);
                // The param itself may be a list of objects.
                let top = list_depth(p.ty);
                let wrap = |v: String| (0..top).fold(v, |t, _| format!("[{t}]"));
                for encoded in [false, true] {
                    let (yaml, found) =
                        findings(p.ty, &p.name, &wrap(nest(&leaf.path, &wrong)), encoded);
                    assert_eq!(found.len(), 1, "{yaml}{found:?}");
                    assert!(
                        matches!(found[0].0, IssueKind::Invalid { .. }),
                        "{yaml}{found:?}"
                    );
                    assert_eq!(found[0].1, wrong, "{yaml}");
                    let (yaml, found) =
                        findings(p.ty, &p.name, &wrap(nest(&leaf.path, &right)), encoded);
                    assert!(found.is_empty(), "{yaml}{found:?}");
                    cases += 2;
                }
                if matches!(leaf.ty.item(), GType::Enum(_)) {
                    enums += 1;
                }
            }
        }
    }
    // The counts of the specs of Graph API v25.0: they grow with the specs, never shrink.
    assert!(params >= 58, "{params} params");
    assert!(enums >= 430, "{enums} enums");
    assert!(cases >= 2180, "{cases} cases");
    eprintln!("{params} node-typed params, {enums} nested enums, {cases} cases");
}

/// Unknown keys, at any depth, with the closest field; an ad's `creative` also takes
/// `creative_id`; one value where a key takes a list.
#[test]
fn unknown_keys_and_single_values_inside() {
    let account = GNode::parse("ad_account").unwrap();
    let param = |edge: &str, name: &str| {
        account
            .call(Method::Post, edge)
            .unwrap()
            .get()
            .param(name)
            .unwrap()
            .ty
    };
    let targeting = param("adsets", "targeting");
    let (_, found) = findings(
        targeting,
        "targeting",
        r#"{"geo_locations": {"countries": ["US"], "citis": [{"key": "1"}]}, "publisher_platform": ["facebook"]}"#,
        true,
    );
    assert_eq!(
        found,
        [
            (IssueKind::Unknown, "\"citis\"".to_string()),
            (IssueKind::Unknown, "\"publisher_platform\"".to_string())
        ]
    );
    let (_, found) = findings(
        targeting,
        "targeting",
        r#"{"geo_locations": {"countries": "US"}}"#,
        false,
    );
    assert_eq!(found, [(IssueKind::NotAList, "\"US\"".to_string())]);
    let creative = param("ads", "creative");
    let (_, found) = findings(creative, "creative", r#"{"creative_id": "120"}"#, true);
    assert!(found.is_empty(), "{found:?}");
    // A customization rule's `picture`, which Meta's own examples send.
    let story = param("adcreatives", "object_story_spec");
    let (_, found) = findings(
        story,
        "object_story_spec",
        r#"{"link_data": {"customization_rules_spec": [{"customization_spec": {"language": "fr_XX"}, "picture": "https://example.com/fr.png"}]}}"#,
        true,
    );
    assert!(found.is_empty(), "{found:?}");
    let (_, found) = findings(creative, "creative", r#"{"creative_idd": "120"}"#, true);
    assert_eq!(found.len(), 1, "{found:?}");
    // promoted_object is typed `Object` for the call, AdPromotedObject for the field it sets.
    let promoted = param("adsets", "promoted_object");
    assert_eq!(
        promoted.node().map(|n| n.info().spec.as_str()),
        Some("AdPromotedObject")
    );
    let (_, found) = findings(
        promoted,
        "promoted_object",
        r#"{"pixel_id": "1", "custom_event_type": "PURCHASEE"}"#,
        true,
    );
    assert_eq!(
        found,
        [(
            IssueKind::Invalid {
                rule: crate::catalog::advertising::DEFAULT_RULE
            },
            "\"PURCHASEE\"".to_string()
        )]
    );
}

/// The list of one is written only where it reads as meant: a YAML word or a quoted
/// string after its key, a query string's value in a block; never a flow list of text
/// that YAML would read as something else, nor brackets inside a flow mapping.
#[test]
fn one_value_is_made_a_list_only_where_it_reads_as_meant() {
    let fixes = |yaml: &str| -> Vec<Option<String>> {
        crate::testing::diagnostics(
            "ad-param-not-a-list",
            crate::model::config::Config::defaults(".".into()),
            "",
            yaml,
        )
        .into_iter()
        .map(|d| d.fix.map(|f| f.edits[0].replacement.clone()))
        .collect()
    };
    let campaign =
        "request: POST /v25.0/act_1/campaigns\nparams:\n  name: x\n  objective: OUTCOME_SALES\n";
    assert_eq!(
        fixes(&format!("{campaign}  special_ad_categories: NONE\n")),
        [Some("[NONE]".to_string())]
    );
    assert_eq!(
        fixes(&format!("{campaign}  special_ad_categories: 'NONE'\n")),
        [Some("['NONE']".to_string())]
    );
    // A plain scalar a flow list would read as a mapping: no fix.
    assert_eq!(
        fixes(&format!("{campaign}  special_ad_categories: -{{ x}}\n")),
        [None]
    );
    assert_eq!(
        fixes("request: POST /v25.0/act_1/campaigns?name=x&special_ad_categories=NONE\n"),
        [Some("[\"NONE\"]".to_string())]
    );
    // The request line inside a flow mapping: brackets would end it.
    assert_eq!(
        fixes(
            "requests: [{request: POST /v25.0/act_1/campaigns?name=x&special_ad_categories=NONE}]\n"
        ),
        [None]
    );
}

/// An object of many unknown keys (each looked for among the node's fields and, for a
/// rename, among the keys the object holds) costs what it is long: the work of 10 n keys is about ten
/// times that of n, counted, never timed.
#[test]
fn an_object_of_many_keys_is_checked_in_linear_work() {
    let account = GNode::parse("ad_account").unwrap();
    let targeting = account
        .call(Method::Post, "adsets")
        .unwrap()
        .get()
        .param("targeting")
        .unwrap()
        .ty;
    let work = |n: usize| {
        let keys: Vec<String> = (0..n).map(|i| format!("\"age_mi{i}\": 1")).collect();
        let value = format!("{{{}}}", keys.join(", "));
        let ((_, found), work) =
            crate::loading::work::measure(|| findings(targeting, "targeting", &value, false));
        assert_eq!(found.len(), n);
        work
    };
    let (small, large) = (work(200), work(2000));
    assert!(large <= small * 12, "{small} then {large}");
}

/// The same cases through the whole lint, where the reference documents' tables of ad
/// sets and audiences also judge the param: for every node-typed param of the create and
/// update calls, each nested field's wrong value is one `ad-param-invalid` finding at the
/// value, a right one none, as a mapping and as a JSON-encoded string.
#[test]
fn nested_values_are_judged_through_the_whole_lint() {
    let mut cases = 0;
    for (node, edge) in writes() {
        let call = node.call(Method::Post, edge).unwrap().get();
        let line = if edge.is_empty() {
            format!(
                "request: POST /v25.0/120210000000000009\nobject: {}\n",
                node.name()
            )
        } else {
            format!("request: POST /v25.0/act_1234567890/{edge}\n")
        };
        for p in call.params {
            let Some(root) = p.ty.node() else { continue };
            let top = list_depth(p.ty);
            let wrap = |v: String| (0..top).fold(v, |t, _| format!("[{t}]"));
            for leaf in leaves(root) {
                let (wrong, right) = values(leaf.ty);
                for encoded in [false, true] {
                    let yaml = |value: &str| {
                        let value = wrap(nest(&leaf.path, value));
                        let value = if encoded { format!("'{value}'") } else { value };
                        format!("{line}params:\n  {}: {value}\n", p.name)
                    };
                    let bad = yaml(&wrong);
                    let found = crate::testing::spans("ad-param-invalid", "", &bad);
                    assert_eq!(found, std::slice::from_ref(&wrong), "{bad}");
                    let good = yaml(&right);
                    let found = crate::testing::spans("ad-param-invalid", "", &good);
                    assert!(found.is_empty(), "{good}{found:?}");
                    cases += 2;
                }
            }
        }
    }
    assert!(cases >= 2180, "{cases} cases");
}

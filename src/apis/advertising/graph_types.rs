//! A param's value against its type in the vendor's specs (the graph's `GType`): the
//! checks every call of the Marketing API gets. Values are judged as the form-encoded
//! API reads them: numbers may come as strings of digits, lists and objects as JSON, an
//! object of a node type as a mapping or a JSON-encoded string.

use crate::catalog::graph::{GNode, GType, enum_name, enum_values};
use crate::loading::{Node, Value};
use crate::suggest::did_you_mean;

use super::values::{
    Issue, IssueFix, IssueKind, empty_value, integer, is_datetime, is_empty_value, is_placeholder,
};
use crate::catalog::advertising::DEFAULT_RULE;

fn issue(node: &Node, message: String, help: Option<String>) -> Issue {
    Issue {
        used_at: None,
        kind: IssueKind::Invalid { rule: DEFAULT_RULE },
        span: node.span,
        message,
        help,
        graph_may_accept: false,
        fix: None,
    }
}

/// The values of an enum as a help line: all of them when few, else a count.
pub fn values_help(values: &[&str]) -> String {
    if values.len() <= 12 {
        format!("the values are {}", values.join(", "))
    } else {
        format!(
            "the values are {}, ... ({} in all)",
            values[..8].join(", "),
            values.len()
        )
    }
}

/// How a value is read: whether the call writes (a POST, whose list params take JSON
/// arrays only) and whether the value sits inside an object param.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub write: bool,
    pub nested: bool,
    /// Whether the keys of objects of a node type are checked.
    pub keys: bool,
}

impl Reading {
    /// A value of a call that reads (a GET): lists may come comma-separated.
    pub const READ: Reading = Reading {
        write: false,
        nested: false,
        keys: true,
    };

    /// A param's value in a call of `method`, its objects checked inside.
    pub fn of_call(write: bool) -> Reading {
        Reading {
            write,
            nested: false,
            keys: true,
        }
    }
}

/// Where a value sits: a param, or a key of an object that sits somewhere. Written out
/// (`targeting.geo_locations.countries`) only for a finding: most values have none, and
/// a key path built for every key of every nested object was a good part of its cost.
#[derive(Clone, Copy)]
enum Path<'a> {
    Param(&'a str),
    Key(&'a Path<'a>, &'a str),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Param(name) => f.write_str(name),
            Path::Key(outer, key) => write!(f, "{outer}.{key}"),
        }
    }
}

/// Checks only what is inside `node`, the value of param `name` of type `ty`: the keys
/// and values of its objects of a node type (of each item of a list of them), not the
/// value itself.
pub fn check_inside(ty: GType, name: &str, node: &Node, reading: Reading, out: &mut Vec<Issue>) {
    if !is_placeholder(node) {
        inside(ty, &Path::Param(name), node, reading, out);
    }
}

/// What [`check_as`] finds in `node`, the value of param `name`, without looking inside
/// its objects (into `shallow`, where given), and what [`check_inside`] finds (into
/// `inside_found`); the caller has found `node` is no placeholder: the one test of the
/// value of every param, made once.
pub fn check_param_value(
    ty: GType,
    name: &str,
    node: &Node,
    reading: Reading,
    shallow: Option<&mut Vec<Issue>>,
    inside_found: &mut Vec<Issue>,
) {
    let path = Path::Param(name);
    if let Some(out) = shallow {
        let shallow = Reading {
            keys: false,
            ..reading
        };
        judge(ty, &path, node, shallow, out);
    }
    inside(ty, &path, node, reading, inside_found);
}

/// [`check_inside`] of a value that is no placeholder.
fn inside(ty: GType, path: &Path<'_>, node: &Node, reading: Reading, out: &mut Vec<Issue>) {
    let resolved = node.resolved();
    match (ty, &resolved.value) {
        (GType::Node(n), Value::Map(entries)) => check_keys(n, path, entries, reading, out),
        // Only objects and lists are looked inside, and no placeholder is either (nor
        // decodes to one: JSON starts with none of `$`, `<`, `{{`).
        (GType::List(item), Value::Seq(items)) => {
            for it in items {
                inside(*item, path, it, reading, out);
            }
        }
        _ => {}
    }
}

/// Checks `node`, the value of param `name`, against `ty`, as a call that reads.
pub fn check(ty: GType, name: &str, node: &Node, out: &mut Vec<Issue>) {
    check_as(ty, name, node, Reading::READ, out);
}

/// Checks `node`, the value of param `name` (or of the key path `name` inside one),
/// against `ty`; objects of a node type are checked key by key against the node's
/// fields, as deep as they go.
pub fn check_as(ty: GType, name: &str, node: &Node, reading: Reading, out: &mut Vec<Issue>) {
    check_at(ty, &Path::Param(name), node, reading, out);
}

/// [`check_as`] of the value at `name`.
fn check_at(ty: GType, name: &Path<'_>, node: &Node, reading: Reading, out: &mut Vec<Issue>) {
    if !(judges_a_written_string(ty) && is_placeholder(node)) {
        judge(ty, name, node, reading, out);
    }
}

/// Whether a string that is not blank can be refused by `ty`. A placeholder is such a
/// string: for a type that refuses none (a string, any object, a file, a node type's
/// object, which may come JSON-encoded) whether a value is one need not be asked, as it
/// is not for most values nested in objects.
fn judges_a_written_string(ty: GType) -> bool {
    !matches!(
        ty,
        GType::String | GType::Object | GType::File | GType::Node(_)
    )
}

/// [`check_as`] of a value that is no placeholder.
fn judge(ty: GType, name: &Path<'_>, node: &Node, reading: Reading, out: &mut Vec<Issue>) {
    // Inside an object a null is a key left unset, not a value to judge.
    if reading.nested && matches!(node.resolved().value, Value::Null) {
        return;
    }
    let wrong = |out: &mut Vec<Issue>| {
        out.push(issue(
            node,
            format!(
                "`{name}` must be {}, not {}",
                ty.describe(),
                node.kind_name()
            ),
            None,
        ));
    };
    // A string takes an empty string (a null is no string, below); a file is an upload,
    // not a form value.
    let takes_empty = matches!(ty, GType::String) && !matches!(node.value, Value::Null);
    if is_empty_value(node) && !takes_empty && ty != GType::File {
        out.push(empty_value(
            &name.to_string(),
            &ty.describe(),
            node.span,
            DEFAULT_RULE,
        ));
        return;
    }
    let resolved = node.resolved();
    match ty {
        GType::File | GType::Object => {}
        GType::String => {
            // Lists and mappings are sent JSON-encoded: the specs type many such params
            // (an audience's `rule`) as strings.
            if matches!(node.value, Value::Null) {
                wrong(out);
            }
        }
        GType::Int | GType::UInt => match integer(node) {
            Some(Ok(v)) if ty == GType::UInt && v < 0 => out.push(issue(
                node,
                format!("`{name}` is {v}; the API takes an unsigned integer (0 or more)"),
                None,
            )),
            Some(Ok(_)) => {}
            Some(Err(()))
                if node
                    .as_number_text()
                    .is_some_and(|t| t.contains(['.', 'e', 'E'])) =>
            {
                out.push(issue(
                    node,
                    format!(
                        "`{name}` must be an integer, not {}",
                        node.as_number_text().unwrap_or_default()
                    ),
                    None,
                ))
            }
            Some(Err(())) => out.push(issue(
                node,
                format!("`{name}` is too large for a 64-bit integer"),
                None,
            )),
            None => wrong(out),
        },
        GType::Float => {
            let ok = match &node.value {
                Value::Number(_) => true,
                Value::String(s) => s.trim().parse::<f64>().is_ok_and(f64::is_finite),
                _ => false,
            };
            if !ok {
                wrong(out);
            }
        }
        GType::Bool => {
            let ok = node.as_bool().is_some()
                || matches!(
                    node.scalar_text().as_deref(),
                    Some("true" | "false" | "0" | "1")
                );
            if !ok {
                wrong(out);
            }
        }
        GType::Datetime => {
            let ok = match &node.value {
                Value::Number(_) => node.as_i64().is_some(),
                Value::String(s) => is_datetime(s.trim()),
                _ => false,
            };
            if !ok {
                out.push(issue(
                    node,
                    format!("`{name}` must be an ISO 8601 date-time or a UNIX timestamp"),
                    Some("for example 2025-06-01T00:00:00+0000".into()),
                ));
            }
        }
        GType::Map => match &resolved.value {
            Value::Map(_) => {}
            // JSON that does not parse is reported by invalid-syntax, where it is one of
            // the JSON-encoded params, or taken as the API would see it.
            Value::String(s) if crate::loading::encoded::looks_like_json(s) => {}
            _ => wrong(out),
        },
        GType::Node(n) => match &resolved.value {
            Value::Map(entries) if reading.keys => check_keys(n, name, entries, reading, out),
            Value::Map(_) | Value::String(_) | Value::Number(_) => {}
            _ => wrong(out),
        },
        // One value where the API takes an array (`special_ad_categories: NONE`): a call
        // that writes refuses it, as does a key of an object (JSON has arrays).
        GType::List(_) if (reading.write || reading.nested) && single_value(resolved).is_some() => {
            out.push(Issue {
                used_at: None,
                kind: IssueKind::NotAList,
                span: resolved.span,
                message: format!(
                    "`{name}` takes a list; `{}` is one value",
                    single_value(resolved).unwrap_or_default()
                ),
                help: Some(format!(
                    "the API takes an array here ({}), even of one value",
                    ty.describe()
                )),
                graph_may_accept: false,
                fix: Some(IssueFix::WrapInList {
                    key: {
                        let name = name.to_string();
                        name.rsplit('.').next().unwrap_or(&name).to_string()
                    },
                }),
            });
            // The one value is still judged as an item.
            let GType::List(item) = ty else { return };
            let as_item = Node::new(resolved.span, resolved.value.clone());
            check_at(*item, name, &as_item, reading, out);
        }
        GType::List(item) => match &resolved.value {
            Value::Seq(items) => {
                for it in items {
                    check_at(*item, name, it, reading, out);
                }
            }
            Value::String(s) if crate::loading::encoded::looks_like_json(s) => {}
            // A comma-separated list, as query strings carry them (`breakdowns=age,gender`):
            // each item is judged, at the whole string.
            Value::String(s) if item.judges_values() || *item == GType::String => {
                for piece in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    let piece = Node::new(resolved.span, Value::String(piece.into()));
                    check_at(*item, name, &piece, reading, out);
                }
            }
            Value::Number(_) if matches!(*item, GType::Int | GType::UInt | GType::Float) => {}
            // A read's query string carries a list as words (`metric=page_impressions,
            // page_fans` on a Page's insights, which the specs type as a list of objects):
            // what the API makes of words for objects, reqlint cannot tell.
            Value::String(_) if !reading.write && matches!(*item, GType::Object | GType::Map) => {}
            _ => wrong(out),
        },
        GType::Enum(e) => {
            let Some(text) = resolved
                .scalar_text()
                .filter(|_| !matches!(resolved.value, Value::Null))
            else {
                wrong(out);
                return;
            };
            let values = enum_values(e);
            if values.binary_search(&text.as_ref()).is_ok() {
                return;
            }
            let help = match did_you_mean(&text, values.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => values_help(values),
            };
            let mut found = issue(
                resolved,
                format!("`{name}` `{text}` is not a valid value"),
                Some(format!("{help} (the enum `{}`)", enum_name(e))),
            );
            found.fix = crate::suggest::only_close(&text, values.iter().copied()).map(|new| {
                IssueFix::Rename {
                    old: text.to_string(),
                    new: new.to_string(),
                }
            });
            out.push(found);
        }
    }
}

/// The text of a value that is one scalar where a list is due: a number, a boolean or
/// a string that is no JSON and no comma-separated list.
fn single_value(node: &Node) -> Option<std::borrow::Cow<'_, str>> {
    match &node.value {
        Value::String(s) if crate::loading::encoded::looks_like_json(s) => None,
        Value::String(s) if s.trim().is_empty() || s.contains(',') => None,
        Value::String(_) | Value::Number(_) | Value::Bool(_) => node.scalar_text(),
        _ => None,
    }
}

/// Keys a write takes in an object of a node type besides the node's fields, as the
/// vendor says: an ad's `creative` is a creative spec or `{"creative_id": <id>}` (Meta's
/// Marketing API reference, Ad, "Creating",
/// https://developers.facebook.com/docs/marketing-api/reference/adgroup/); a
/// customization rule of a creative's link or video data takes the `picture` of its
/// language (Meta's Business SDK examples,
/// AdAccountAdCreativesPostCreateAdCreativeCustomizationCanvasImage and …Video, which
/// send it).
const WRITE_KEYS: &[(&str, &str)] = &[
    ("AdCreative", "creative_id"),
    ("AdCustomizationRuleSpec", "picture"),
];

/// Checks the keys of an object of node type `node`, the value of `name`: each known
/// key's value against its field's type, and an unknown key with the closest field.
fn check_keys(
    node: GNode,
    name: &Path<'_>,
    entries: &[crate::loading::Entry],
    reading: Reading,
    out: &mut Vec<Issue>,
) {
    // A node the specs give no fields says nothing of its keys.
    if !node.has_fields() {
        return;
    }
    let inside = Reading {
        nested: true,
        ..reading
    };
    let spec = node.info().spec.as_str();
    // The keys the object holds, gathered once per object and only when a key is unknown
    // (most objects have none): a rename must not make a key twice, and an object of many
    // keys stays linear.
    let held = std::cell::OnceCell::new();
    let held = || {
        held.get_or_init(|| {
            crate::loading::work::count(entries.len());
            entries
                .iter()
                .map(|e| e.key.as_str())
                .collect::<std::collections::HashSet<&str>>()
        })
    };
    let node_fields = node.fields();
    for entry in entries {
        crate::loading::work::count(1);
        if let Some(ty) = node_fields.get(&entry.key) {
            check_at(ty, &Path::Key(name, &entry.key), &entry.value, inside, out);
            continue;
        }
        if WRITE_KEYS.contains(&(spec, entry.key.as_str())) {
            continue;
        }
        let fields = || node_fields.names();
        let help = match did_you_mean(&entry.key, fields()) {
            Some(s) => format!(
                "did you mean `{s}`? ({} in Meta's Marketing API reference)",
                spec
            ),
            None => format!("{spec} in Meta's Marketing API reference has no such field"),
        };
        // A rename only to a key the object does not hold already.
        let fix = crate::suggest::only_close(&entry.key, fields())
            .filter(|new| !held().contains(new))
            .map(|new| IssueFix::Rename {
                old: entry.key.to_string(),
                new: new.to_string(),
            });
        out.push(Issue {
            used_at: None,
            kind: IssueKind::Unknown,
            span: entry.key_span,
            message: format!("unknown key `{}` in `{name}` ({spec})", entry.key),
            help: Some(help),
            graph_may_accept: false,
            fix,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, parse_text};
    use crate::model::Method;

    fn found(node: &str, method: Method, edge: &str, yaml: &str) -> Vec<String> {
        let call = GNode::parse(node)
            .unwrap()
            .call(method, edge)
            .unwrap()
            .get();
        let (mut docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        if let Value::Map(entries) = &mut docs[0].value {
            for e in entries {
                crate::loading::encoded::decode_in_place(&mut e.value, yaml, &Limits::DEFAULT);
            }
        }
        let mut out = Vec::new();
        for e in docs[0].as_map().unwrap() {
            let p = call.param(&e.key).unwrap();
            check(p.ty, &e.key, &e.value, &mut out);
        }
        out.iter()
            .map(|i| format!("{} @ {}", i.message, &yaml[i.span.range()]))
            .collect()
    }

    #[test]
    fn campaign_create_types() {
        let ok = "name: Spring\nspecial_ad_categories: [NONE]\nspend_cap: \"10000\"\nobjective: OUTCOME_SALES\nstatus: PAUSED\nis_skadnetwork_attribution: false\n";
        assert_eq!(
            found("ad_account", Method::Post, "campaigns", ok),
            Vec::<String>::new()
        );
        let bad = "special_ad_categories: [HOUSNG]\nobjective: SALES\nspend_cap: 1.5\nstatus: ~\n";
        let f = found("ad_account", Method::Post, "campaigns", bad);
        assert_eq!(f.len(), 4, "{f:?}");
        assert!(f[0].ends_with("@ HOUSNG"), "{f:?}");
        assert!(f[1].contains("`objective` `SALES`"), "{f:?}");
        assert!(f[2].contains("must be an integer"), "{f:?}");
    }

    #[test]
    fn empty_values_are_refused_but_for_strings() {
        let yaml = "name: ''\nobjective: ''\nspend_cap: ''\nis_skadnetwork_attribution: ''\nspecial_ad_categories: ''\nstart_time: ''\n";
        let f = found("ad_account", Method::Post, "campaigns", yaml);
        let names: Vec<&str> = f
            .iter()
            .map(|m| m.split('`').nth(1).unwrap_or_default())
            .collect();
        assert_eq!(
            names,
            [
                "objective",
                "spend_cap",
                "is_skadnetwork_attribution",
                "special_ad_categories",
                "start_time"
            ],
            "{f:?}"
        );
        assert!(f.iter().all(|m| m.contains("is empty")), "{f:?}");
        // A null is no string either; an object of a node type and a JSON object neither.
        let f = found("ad_account", Method::Post, "campaigns", "name: ~\n");
        assert_eq!(f.len(), 1, "{f:?}");
        let f = found(
            "ad_account",
            Method::Post,
            "adsets",
            "promoted_object: ''\n",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].starts_with("`promoted_object` is empty"), "{f:?}");
    }

    #[test]
    fn comma_separated_lists() {
        let node = "ad_account";
        let ok = "breakdowns: age,gender\n";
        assert!(found(node, Method::Get, "insights", ok).is_empty());
        let bad = "breakdowns: age, gendr\n";
        let f = found(node, Method::Get, "insights", bad);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].contains("`gendr`"), "{f:?}");
        assert!(f[0].ends_with("@ age, gendr"), "{f:?}");
    }

    /// A Page's insights take `metric=page_impressions,page_fans`, which the specs type
    /// as a list of objects: words for objects on a read are not judged.
    #[test]
    fn words_for_a_list_of_objects_on_a_read_are_not_judged() {
        let yaml = "metric: page_impressions,page_fans\n";
        assert!(found("page", Method::Get, "insights", yaml).is_empty());
    }

    #[test]
    fn json_in_strings_and_placeholders() {
        let yaml = "special_ad_categories: '[\"NONE\"]'\nspend_cap: ${CAP}\n";
        assert!(found("ad_account", Method::Post, "campaigns", yaml).is_empty());
        let yaml = "special_ad_categories: '[\"NONE\", \"NOPE\"]'\n";
        let f = found("ad_account", Method::Post, "campaigns", yaml);
        assert_eq!(f.len(), 1);
        assert!(f[0].ends_with("@ \"NOPE\""), "{f:?}");
    }

    /// The types whose placeholder test is skipped refuse no placeholder: skipping it
    /// changes no finding.
    #[test]
    fn types_that_refuse_no_written_string_refuse_no_placeholder() {
        let node_type = GType::Node(GNode::parse("targeting").unwrap());
        let placeholders = [
            "${AUDIENCE}",
            "$TOKEN",
            "{{audience}}",
            "<audience id>",
            "OUTCOME_{{goal}}",
        ];
        for ty in [GType::String, GType::Object, GType::File, node_type] {
            assert!(!judges_a_written_string(ty), "{ty:?}");
            for text in placeholders {
                let node = Node::new(crate::loading::Span::new(0, 0), Value::String(text.into()));
                assert!(is_placeholder(&node), "{text}");
                for reading in [Reading::READ, Reading::of_call(true)] {
                    for nested in [false, true] {
                        let mut out = Vec::new();
                        let reading = Reading { nested, ..reading };
                        judge(ty, &Path::Param("p"), &node, reading, &mut out);
                        assert!(out.is_empty(), "{ty:?} {text}: {out:?}");
                    }
                }
            }
        }
        assert!(judges_a_written_string(GType::Int));
        assert!(judges_a_written_string(GType::Map));
    }
}

//! A param's value against its type in the vendor's specs (the graph's `GType`): the
//! checks every call of the Marketing API gets. Values are judged as the form-encoded
//! API reads them: numbers may come as strings of digits, lists and objects as JSON, an
//! object of a node type as a mapping or a JSON-encoded string.

use crate::catalog::graph::{GType, enum_name, enum_values};
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

/// Checks `node`, the value of param `name`, against `ty`.
pub fn check(ty: GType, name: &str, node: &Node, out: &mut Vec<Issue>) {
    if is_placeholder(node) {
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
        out.push(empty_value(name, &ty.describe(), node.span, DEFAULT_RULE));
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
        GType::Node(_) => match &resolved.value {
            Value::Map(_) | Value::String(_) | Value::Number(_) => {}
            _ => wrong(out),
        },
        GType::List(item) => match &resolved.value {
            Value::Seq(items) => {
                for it in items {
                    check(*item, name, it, out);
                }
            }
            Value::String(s) if crate::loading::encoded::looks_like_json(s) => {}
            // A comma-separated list, as query strings carry them (`breakdowns=age,gender`):
            // each item is judged, at the whole string.
            Value::String(s) if item.judges_values() || *item == GType::String => {
                for piece in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    let piece = Node::new(resolved.span, Value::String(piece.into()));
                    check(*item, name, &piece, out);
                }
            }
            Value::Number(_) if matches!(item, GType::Int | GType::UInt | GType::Float) => {}
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::graph::GNode;
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

    #[test]
    fn json_in_strings_and_placeholders() {
        let yaml = "special_ad_categories: '[\"NONE\"]'\nspend_cap: ${CAP}\n";
        assert!(found("ad_account", Method::Post, "campaigns", yaml).is_empty());
        let yaml = "special_ad_categories: '[\"NONE\", \"NOPE\"]'\n";
        let f = found("ad_account", Method::Post, "campaigns", yaml);
        assert_eq!(f.len(), 1);
        assert!(f[0].ends_with("@ \"NOPE\""), "{f:?}");
    }
}

//! Lookups shared by the ad set rules of group C: the context snapshots of
//! ad sets, campaigns, audiences and custom conversions, the audiences a targeting
//! spec names, and the version of a request.

use crate::loading::{Node, Value};
use crate::model::context::{ContextIndex, Kind};
use crate::model::{Request, Segment, Version};

use super::{AdCall, Operation};

/// The context snapshot of an ad set, when the context holds it.
pub fn ad_set<'c>(context: &'c ContextIndex, id: &str) -> Option<&'c Node> {
    context.get(Kind::AdSets, id)
}

/// The context snapshot of a campaign, when the context holds it.
pub fn campaign<'c>(context: &'c ContextIndex, id: &str) -> Option<&'c Node> {
    context.get(Kind::Campaigns, id)
}

/// The context snapshot of a custom conversion, when the context holds it.
pub fn custom_conversion<'c>(context: &'c ContextIndex, id: &str) -> Option<&'c Node> {
    context.get(Kind::CustomConversions, id)
}

/// A string field of a snapshot object or a param value (`status`, `objective`, ...).
pub fn text<'n>(node: &'n Node, field: &str) -> Option<&'n str> {
    node.get_value(field).and_then(Node::as_str)
}

/// An id as written: a string or a number.
pub fn id_text(node: &Node) -> Option<String> {
    match &node.value {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|t| !t.is_empty())
}

/// A boolean as the form-encoded API reads it: `true`, or the string `"true"`.
pub fn truthy(node: &Node) -> Option<bool> {
    node.as_bool().or(match node.as_str() {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    })
}

/// The keys of a targeting spec that name custom (and lookalike) audiences.
pub const AUDIENCE_KEYS: [&str; 2] = ["custom_audiences", "excluded_custom_audiences"];

/// The audience ids a targeting spec names (`{id: ...}` items, or bare ids), with the
/// key that names them. `targeting` may be a JSON-encoded string.
pub fn targeted_audiences(targeting: &Node) -> Vec<(&'static str, &Node)> {
    let mut out = Vec::new();
    for key in AUDIENCE_KEYS {
        let items = targeting
            .resolved()
            .get_value(key)
            .and_then(Node::as_seq)
            .unwrap_or_default();
        for item in items {
            let id = match &item.value {
                Value::Map(_) => item.get_value("id"),
                Value::String(_) | Value::Number(_) => Some(item),
                _ => None,
            };
            if let Some(id) = id {
                out.push((key, id));
            }
        }
    }
    out
}

/// `promoted_object.custom_conversion_id`; `promoted_object` may be a JSON-encoded string.
pub fn custom_conversion_id(promoted_object: &Node) -> Option<&Node> {
    promoted_object.resolved().get_value("custom_conversion_id")
}

/// Where an ad set's param comes from: the request (create, update), or for a copy,
/// the context snapshot of the source ad set, which the copy takes over.
pub enum Origin<'r> {
    Request,
    /// The copy's source ad set, as its path segment.
    Copied(&'r Segment),
}

/// The value of an ad set param that a create, update or copy would set: the request's
/// own param (create and update), or for a copy, the field of the source ad set in the
/// context (a copy takes no targeting or promoted_object of its own).
pub fn set_by<'r>(
    request: &'r Request<'_>,
    endpoint: Operation,
    call: &AdCall<'r>,
    context: &'r ContextIndex,
    name: &str,
) -> Option<(&'r Node, Origin<'r>)> {
    match endpoint {
        Operation::AdSetCreate | Operation::AdSetUpdate => {
            request.param(name).map(|e| (&e.value, Origin::Request))
        }
        Operation::AdSetCopy => {
            let source = call.object?;
            let value = ad_set(context, &source.text)?.get_value(name)?;
            Some((value, Origin::Copied(source)))
        }
        _ => None,
    }
}

/// The version of an advertising request line.
pub fn version(request: &Request<'_>) -> Option<Version> {
    request.line()?.version.map(|(v, _)| v)
}

/// `v<major>.0`.
pub const fn major(major: u32) -> Version {
    Version { major, minor: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, parse_text};

    fn doc(yaml: &str) -> Node {
        let (mut docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        docs.remove(0)
    }

    #[test]
    fn audiences_as_items_and_bare_ids() {
        let t = doc(
            "custom_audiences: [{id: '1'}, 2, {name: x}]\nexcluded_custom_audiences: [{id: 3}]\nflexible_spec: [{custom_audiences: [{id: '4'}]}]\n",
        );
        let found: Vec<(&str, String)> = targeted_audiences(&t)
            .into_iter()
            .map(|(k, n)| (k, id_text(n).unwrap()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("custom_audiences", "1".to_string()),
                ("custom_audiences", "2".to_string()),
                ("excluded_custom_audiences", "3".to_string()),
            ]
        );
    }

    #[test]
    fn booleans_as_form_fields() {
        assert_eq!(truthy(&doc("true")), Some(true));
        assert_eq!(truthy(&doc("'true'")), Some(true));
        assert_eq!(truthy(&doc("'false'")), Some(false));
        assert_eq!(truthy(&doc("1")), None);
    }
}

//! Which advertising operation a request calls, from its method and path, routed by
//! the compiled operation table (`catalog/advertising/operations.tsv`); and for a path
//! that names an object by id alone, which node type: from `object:`, else the
//! context, else the params.

use crate::catalog::advertising::{BY_ID, COMMON, Node};
use crate::model::context::{ContextIndex, Kind as ContextKind};
use crate::model::{Method, Request, RequestLine, Segment};

/// The operation a call addresses (generated from the catalog).
pub use crate::catalog::advertising::Op as Endpoint;

/// An advertising request and what it calls.
#[derive(Debug)]
pub struct AdCall<'r> {
    pub line: &'r RequestLine,
    /// The `act_<id>` segment of an account path.
    pub account: Option<&'r Segment>,
    /// The object id segment of an object path.
    pub object: Option<&'r Segment>,
}

/// What the path of an advertising request is.
#[derive(Debug)]
pub enum Recognized<'r> {
    Call(Endpoint, AdCall<'r>),
    /// `/{v}/{id}` whose kind nothing tells: rules that depend on the kind stay silent.
    UnknownKind(AdCall<'r>),
    /// No endpoint of the seeds: the reason says what was expected.
    NoEndpoint {
        line: &'r RequestLine,
        reason: String,
    },
}

fn is_account(s: &Segment) -> bool {
    s.text
        .strip_prefix("act_")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn is_id(s: &Segment) -> bool {
    !s.text.is_empty() && s.text.bytes().all(|b| b.is_ascii_digit())
}

/// Recognizes an advertising request; `None` for any other request.
pub fn recognize<'r>(request: &'r Request<'_>, context: &ContextIndex) -> Option<Recognized<'r>> {
    let line = request
        .line()
        .filter(|l| l.api == crate::model::Api::Advertising)?;
    let rest = &line.segments[1..];
    let method = line.method;
    let no = |reason: String| Some(Recognized::NoEndpoint { line, reason });
    let call = |account, object| AdCall {
        line,
        account,
        object,
    };
    let methods = |list: &[Method]| {
        let names: Vec<&str> = list.iter().map(|m| m.as_str()).collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    };
    match rest {
        [account, edge] if is_account(account) => {
            match Endpoint::of_edge(true, &edge.text, method) {
                Some(Ok(op)) => Some(Recognized::Call(op, call(Some(account), None))),
                Some(Err(list)) => no(format!(
                    "the references list only {} for `/act_<id>/{}`",
                    methods(&list),
                    edge.text
                )),
                None => no(format!("the references list no `/act_<id>/{}` endpoint", edge.text)),
            }
        }
        [id, edge] if is_id(id) && Endpoint::of_edge(false, &edge.text, method).is_some() => {
            match Endpoint::of_edge(false, &edge.text, method)? {
                Ok(op) => Some(Recognized::Call(op, call(None, Some(id)))),
                Err(list) => {
                    let node = edge_node(&edge.text);
                    no(format!(
                        "the references list only {} for `/<{} id>/{}`",
                        methods(&list),
                        node.map_or("object", Node::title),
                        edge.text
                    ))
                }
            }
        }
        [id] if is_id(id) => {
            let mut by_id: Vec<Method> = Vec::new();
            for (_, m, _) in BY_ID {
                if !by_id.contains(m) {
                    by_id.push(*m);
                }
            }
            if !by_id.contains(&method) {
                return no(format!(
                    "an object by id takes {}, not {method}",
                    methods(&by_id)
                ));
            }
            match object_kind(request, &id.text, context) {
                Some(kind) => {
                    let endpoint = Endpoint::by_id(kind, method)?;
                    Some(Recognized::Call(endpoint, call(None, Some(id))))
                }
                None => Some(Recognized::UnknownKind(call(None, Some(id)))),
            }
        }
        _ => no("the references list no such path: audiences are `/act_<id>/customaudiences` and `/<id>`, ad sets `/act_<id>/adsets`, `/<id>` and `/<id>/copies`".into()),
    }
}

/// The node type whose objects have this edge.
fn edge_node(edge: &str) -> Option<Node> {
    Endpoint::ALL
        .iter()
        .find(|op| op.path().strip_prefix("/{id}/") == Some(edge))
        .map(|op| op.node())
}

/// What `/{v}/{id}` addresses (SPEC 1.1 `object`).
fn object_kind(request: &Request<'_>, id: &str, context: &ContextIndex) -> Option<Node> {
    if let Some((kind, _)) = request.object {
        return Some(kind);
    }
    for &node in Node::ALL {
        let kind = ContextKind::parse(node.context_key());
        if kind.is_some_and(|k| context.get(k, id).is_some()) {
            return Some(node);
        }
    }
    // The params, when only one node type takes them all.
    let method = request.method()?;
    let names: Vec<&str> = request
        .params()
        .map(|e| e.key.as_str())
        .filter(|n| !COMMON.contains(n))
        .collect();
    if names.is_empty() {
        return None;
    }
    let takes = |node: Node| {
        Endpoint::by_id(node, method).is_some_and(|e| {
            // What create takes also tells the kind, even where an update cannot change it.
            let table = e.params();
            names
                .iter()
                .all(|n| table.takes(n) || table.create.is_some_and(|c| c.params().takes(n)))
        })
    };
    let mut taking = Node::ALL.iter().copied().filter(|&n| takes(n));
    match (taking.next(), taking.next()) {
        (Some(node), None) => Some(node),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::loading::{Format, Limits, parse_text};
    use crate::model::FileModel;

    fn recognized(yaml: &str, context: &ContextIndex) -> Vec<String> {
        let (docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        let model = FileModel::build(&docs, yaml);
        model
            .requests
            .iter()
            .map(|r| match recognize(r, context) {
                Some(Recognized::Call(e, _)) => e.name().to_string(),
                Some(Recognized::UnknownKind(_)) => "unknown kind".into(),
                Some(Recognized::NoEndpoint { .. }) => "no endpoint".into(),
                None => "not advertising".into(),
            })
            .collect()
    }

    #[test]
    fn every_node_has_a_context_list() {
        for node in Node::ALL {
            assert!(ContextKind::parse(node.context_key()).is_some(), "{node:?}");
        }
    }

    #[test]
    fn paths_and_methods() {
        let yaml = "requests:\n  - POST /v24.0/act_1/customaudiences\n  - DELETE /v24.0/act_1/usersofanyaudience\n  - POST /v24.0/act_1/adsets\n  - POST /v24.0/2385/copies\n  - GET /v24.0/act_1/adsets\n  - POST /v24.0/act_1/campaigns\n  - GET /user/emails\n  - DELETE /v24.0/2385\n";
        assert_eq!(
            recognized(yaml, &ContextIndex::default()),
            vec![
                "audience_create",
                "audience_opt_out",
                "ad_set_create",
                "ad_set_copy",
                "no endpoint",
                "no endpoint",
                "not advertising",
                "unknown kind"
            ]
        );
    }

    #[test]
    fn object_kind_from_object_context_and_params() {
        let mut context = ContextIndex::default();
        context
            .add_text(
                b"custom_audiences: [{id: '111'}]\nad_sets: [{id: '222'}]\n".to_vec(),
                Path::new("s.yaml"),
            )
            .unwrap();
        let yaml = "requests:\n  - {request: DELETE /v24.0/333, object: ad_set}\n  - DELETE /v24.0/111\n  - GET /v24.0/222\n  - {request: POST /v24.0/333, params: {retention_days: 30}}\n  - {request: POST /v24.0/333, params: {billing_event: IMPRESSIONS}}\n  - {request: POST /v24.0/333, params: {name: x}}\n  - GET /v24.0/333?date_preset=last_7d\n";
        assert_eq!(
            recognized(yaml, &context),
            vec![
                "ad_set_delete",
                "audience_delete",
                "ad_set_read",
                "audience_update",
                "ad_set_update",
                "unknown kind",
                "ad_set_read"
            ]
        );
    }
}

//! Which call of the Marketing API a request makes, from its method and path, routed by
//! the compiled graph (`catalog/advertising/graph/`, every node, edge and call of the
//! vendor's specs) and, where the reference documents describe the call too, by the
//! operation table (`catalog/advertising/operations.tsv`) that their rules address. For
//! a path that names an object by id, the node type comes from `object:`, else the
//! context snapshots, else the params (when only one node type takes them).

use crate::catalog::advertising::{COMMON, Node};
use crate::catalog::graph::{self, GCallId, GNode};
use crate::loading::Span;
use crate::model::context::{ContextIndex, Kind as ContextKind};
use crate::model::{Method, Request, RequestLine, Segment};
use crate::suggest::did_you_mean;

/// The operation a call addresses (generated from the catalog).
pub use crate::catalog::advertising::Operation;

/// An advertising request and what it calls.
#[derive(Debug)]
pub struct AdCall<'r> {
    pub line: &'r RequestLine,
    /// The `act_<id>` segment of an account path.
    pub account: Option<&'r Segment>,
    /// The object id segment of an object path.
    pub object: Option<&'r Segment>,
}

/// What a recognized call is: the graph's call, and the operation of the reference
/// documents where they describe it (their rules layer on top of the generic checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub graph: GCallId,
    pub op: Option<Operation>,
}

/// What the path of an advertising request is.
#[derive(Debug)]
pub enum Recognized<'r> {
    Call(Target, AdCall<'r>),
    /// A path of the API whose node type nothing tells (`/<id>` with no `object:`, an
    /// edge that several node types have, or a path at the root such as `/search`):
    /// rules that depend on it stay silent. The calls it may be (for an edge several
    /// node types have): what all of them share is judged all the same.
    UnknownKind(AdCall<'r>, Vec<GCallId>),
    /// No call of the catalog: the reason says what was expected, at the part of the
    /// request line that is wrong (the method, an edge, or the whole path).
    NoEndpoint {
        line: &'r RequestLine,
        span: Span,
        reason: String,
        /// The one close edge, for the segment at `span`.
        fix: Option<String>,
        /// Where the catalog holds every call (under an ad account or an ads node), a
        /// call it lacks is wrong; elsewhere on the Graph API it is only not checked.
        complete: bool,
    },
}

/// The node types whose every call the catalog holds (with the ad account): what Meta's
/// Marketing API reference documents as the ads objects, a campaign, an ad set, an ad,
/// a creative, a custom audience and a pixel
/// (https://developers.facebook.com/docs/marketing-api/reference/). A path under one of
/// them that the catalog lacks is a mistake; any other path of the Graph API (Pages,
/// Instagram, WhatsApp, a user's videos) may be a call of another API.
pub const ADS_NODES: [&str; 7] = [
    "ad_account",
    "campaign",
    "ad_set",
    "ad",
    "ad_creative",
    "custom_audience",
    "ads_pixel",
];

/// Whether the catalog holds every call of a node type ([`ADS_NODES`]).
pub fn is_ads_node(node: GNode) -> bool {
    ADS_NODES.contains(&node.name())
}

/// A variable whose value is not known (`{{ad_account_id}}`): it matches any one segment.
fn variable(text: &str) -> Option<&str> {
    text.strip_prefix("{{")?.strip_suffix("}}").map(str::trim)
}

/// An ad account: `act_<digits>`, `act_{{variable}}`, or a variable named for an account
/// (`{{ad_account_id}}`, `{{act}}`).
fn is_account(s: &Segment) -> bool {
    if let Some(name) = variable(&s.text) {
        let name = name.to_ascii_lowercase();
        return name.contains("account") || name.starts_with("act");
    }
    s.text.strip_prefix("act_").is_some_and(|d| {
        (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) || variable(d).is_some()
    })
}

/// An object id: digits, or digits `_` digits (a page post), `me` (the token's user), or
/// a variable whose value is not known.
fn is_id(s: &Segment) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if variable(&s.text).is_some() {
        return true;
    }
    match s.text.split_once('_') {
        Some((a, b)) => digits(a) && digits(b),
        None => digits(&s.text) || s.text == "me",
    }
}

/// Paths at the Graph API's root that are no node's calls in the vendor's specs, and
/// that reqlint recognizes without judging: the targeting search
/// (`/search?type=adinterest&q=...`, Meta's Marketing API reference, "Targeting Search")
/// and the token inspection (`/debug_token`, Meta's Graph API reference).
const ROOT_PATHS: [&str; 2] = ["search", "debug_token"];

/// The methods the Graph API serves.
const GRAPH_METHODS: [Method; 3] = [Method::Get, Method::Post, Method::Delete];

fn methods(list: &[Method]) -> String {
    let mut list = list.to_vec();
    list.sort_by_key(|m| Method::ALL.iter().position(|x| x == m));
    list.dedup();
    let names: Vec<&str> = list.iter().map(|m| m.as_str()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Recognizes an advertising request; `None` for any other request. `suggest`: look for
/// the closest edge of a path no call matches (a file bounds how often it searches).
pub fn recognize<'r>(
    request: &'r Request<'_>,
    context: &ContextIndex,
    suggest: bool,
) -> Option<Recognized<'r>> {
    let line = request.line()?;
    // A version given by a variable whose value is not known (`{{api_version}}`) is
    // a version all the same.
    let version_variable = line.segments.first().is_some_and(|s| {
        variable(&s.text).is_some_and(|n| n.to_ascii_lowercase().contains("version"))
    });
    let rest = match line.version {
        Some(_) => &line.segments[1..],
        None if version_variable => &line.segments[1..],
        None => &line.segments[..],
    };
    let method = line.method;
    // Under an ad account, or an object the request says is an ads node, the catalog
    // is complete; elsewhere a call it lacks may be another API's.
    let first_node = match rest.first() {
        Some(first) if is_id(first) && !is_account(first) => {
            object_node(request, &first.text, context)
        }
        _ => None,
    };
    let ads_path = rest.first().is_some_and(is_account) || first_node.is_some_and(is_ads_node);
    let no_fix = |span: Span, complete: bool, (reason, fix): (String, Option<String>)| {
        Some(Recognized::NoEndpoint {
            line,
            span,
            reason,
            // A rename sends the call elsewhere: only where the catalog is complete.
            fix: fix.filter(|_| complete),
            complete,
        })
    };
    let no_at = |span: Span, complete: bool, reason: String| no_fix(span, complete, (reason, None));
    let no = |reason: String| no_at(line.path_span, ads_path, reason);
    let wrong_method_in =
        |complete: bool, reason: String| no_at(line.method_span, complete, reason);
    let wrong_method = |reason: String| wrong_method_in(ads_path, reason);
    let call = |account, object| AdCall {
        line,
        account,
        object,
    };
    if !GRAPH_METHODS.contains(&method) {
        return wrong_method(format!(
            "the Marketing API takes GET, POST and DELETE, not {method}"
        ));
    }
    let found = |graph: GCallId, account, object| {
        let target = Target {
            graph,
            op: reference_operation(graph),
        };
        Some(Recognized::Call(target, call(account, object)))
    };
    match rest {
        // `GET /?ids=1,2&fields=...`: several objects at once, of the node `object:` names.
        [] if method == Method::Get && request.param("ids").is_some() => {
            match request.object.and_then(|(n, _)| n.call(Method::Get, "")) {
                Some(read) => found(read, None, None),
                None => Some(Recognized::UnknownKind(call(None, None), Vec::new())),
            }
        }
        // `GET /insights?ids=1,2`: an edge of several objects at once ("Using the Graph
        // API", multiple ID read requests), of the node `object:` names, else of every
        // node type that has the edge.
        [edge]
            if method == Method::Get
                && request.param("ids").is_some()
                && graph::edge_calls(false, &edge.text).is_some() =>
        {
            let with_edge: Vec<GCallId> = graph::edge_calls(false, &edge.text)
                .into_iter()
                .flatten()
                .filter(|c| c.get().method == method)
                .collect();
            if let Some(c) = request
                .object
                .and_then(|(node, _)| node.call(method, &edge.text))
            {
                return found(c, None, None);
            }
            match by_params(request, &with_edge) {
                Some(c) => found(c, None, None),
                None => Some(Recognized::UnknownKind(call(None, None), with_edge)),
            }
        }
        [account] if is_account(account) => {
            let node = GNode::parse("ad_account")?;
            match node.call(method, "") {
                Some(c) => found(c, Some(account), None),
                None => wrong_method(format!(
                    "an ad account takes {}, not {method}",
                    methods(&node_methods(node, ""))
                )),
            }
        }
        [account, edge] if is_account(account) => {
            let Some(calls) = graph::edge_calls(true, &edge.text) else {
                return no_fix(
                    edge.span,
                    true,
                    unknown_edge(
                        suggest,
                    "/act_<id>",
                        &edge.text,
                        graph::edge_names(true),
                    ),
                );
            };
            let calls: Vec<GCallId> = calls.collect();
            match calls.iter().find(|c| c.get().method == method) {
                Some(&c) => found(c, Some(account), None),
                None => wrong_method(format!(
                    "`/act_<id>/{}` takes {}, not {method}",
                    edge.text,
                    methods(&calls.iter().map(|c| c.get().method).collect::<Vec<_>>())
                )),
            }
        }
        [id, edge] if is_id(id) => {
            let Some(with_edge) = graph::edge_calls(false, &edge.text) else {
                let reason = match first_node {
                    Some(node) if is_ads_node(node) => unknown_edge(
                        suggest,
                        &format!("/<{} id>", node.name()),
                        &edge.text,
                        node.calls().map(|c| c.get().edge.as_str()),
                    ),
                    _ => not_in_catalog(),
                };
                return no_fix(edge.span, ads_path, reason);
            };
            let with_edge: Vec<GCallId> = with_edge.collect();
            if let Some(node) = first_node {
                return match node.call(method, &edge.text) {
                    Some(c) => found(c, None, Some(id)),
                    None if with_edge.iter().any(|c| c.get().node == node) => wrong_method(format!(
                        "`/<{} id>/{}` takes {}, not {method}",
                        node.name(),
                        edge.text,
                        methods(&node_methods(node, &edge.text))
                    )),
                    None if is_ads_node(node) => no_fix(
                        edge.span,
                        true,
                        unknown_edge(
                            suggest,
                            &format!("/<{} id>", node.name()),
                            &edge.text,
                            node.calls().map(|c| c.get().edge.as_str()),
                        ),
                    ),
                    None => no_fix(edge.span, false, not_in_catalog()),
                };
            }
            let candidates: Vec<GCallId> = with_edge
                .iter()
                .copied()
                .filter(|c| c.get().method == method)
                .collect();
            if candidates.is_empty() {
                // Only the ads nodes have the edge: whatever the id, the method is wrong.
                let only_ads = with_edge.iter().all(|c| is_ads_node(c.get().node));
                return wrong_method_in(
                    only_ads,
                    format!(
                        "`/<id>/{}` takes {}, not {method}",
                        edge.text,
                        methods(&with_edge.iter().map(|c| c.get().method).collect::<Vec<_>>())
                    ),
                );
            }
            // Where several node types have the call and nothing tells which the id is,
            // none is chosen: what all of them share is judged (an ad's copies are not an
            // ad set's).
            match by_params(request, &candidates) {
                Some(c) => found(c, None, Some(id)),
                None => Some(Recognized::UnknownKind(call(None, Some(id)), candidates)),
            }
        }
        [id] if is_id(id) => {
            if let Some(node) = first_node {
                return match node.call(method, "") {
                    Some(c) => found(c, None, Some(id)),
                    None => wrong_method(format!(
                        "`/<{} id>` takes {}, not {method}",
                        node.name(),
                        methods(&node_methods(node, ""))
                    )),
                };
            }
            let candidates: Vec<GCallId> = graph::own_calls(method)
                .iter()
                .map(|&c| GCallId(c))
                .collect();
            let chosen = by_params(request, &candidates).or_else(|| {
                reference_object_kind(request)
                    .and_then(|node| GNode::parse(node.name()))
                    .and_then(|node| node.call(method, ""))
            });
            match chosen {
                Some(c) => found(c, None, Some(id)),
                None => Some(Recognized::UnknownKind(call(None, Some(id)), Vec::new())),
            }
        }
        [root, ..] if ROOT_PATHS.contains(&root.text.as_str()) => {
            Some(Recognized::UnknownKind(call(None, None), Vec::new()))
        }
        _ if ads_path => no(
            "the Marketing API's paths are `/act_<id>`, `/act_<id>/<edge>`, `/<id>` and `/<id>/<edge>`, after an optional version (`/v25.0`)"
                .into(),
        ),
        _ => no_fix(line.path_span, false, not_in_catalog()),
    }
}

/// The help for a Graph API path outside the Marketing API catalog.
fn not_in_catalog() -> (String, Option<String>) {
    (
        "the Graph API serves more than the Marketing API (Pages, Instagram, WhatsApp, videos); reqlint checks only the Marketing API's calls".into(),
        None,
    )
}

/// The help for an edge the catalog does not have.
fn unknown_edge<'a>(
    suggest: bool,
    prefix: &str,
    edge: &str,
    names: impl Iterator<Item = &'a str>,
) -> (String, Option<String>) {
    let names: Vec<&str> = if suggest {
        names.filter(|n| !n.is_empty()).collect()
    } else {
        Vec::new()
    };
    let closest = did_you_mean(edge, names.iter().copied());
    let fix = crate::suggest::only_close(edge, names.iter().copied()).map(str::to_string);
    let reason = match closest {
        Some(s) => format!("did you mean `{prefix}/{s}`? No `{prefix}/{edge}` is in the catalog"),
        None => format!("the catalog lists no `{prefix}/{edge}` edge"),
    };
    (reason, fix)
}

/// The methods a node takes on an edge (`""`: on itself).
fn node_methods(node: GNode, edge: &str) -> Vec<Method> {
    node.calls()
        .filter(|c| c.get().edge == edge)
        .map(|c| c.get().method)
        .collect()
}

/// The operation of the reference documents that a call of the graph is, if any.
pub fn reference_operation(call: GCallId) -> Option<Operation> {
    let c = call.get();
    let node = c.node.name();
    Operation::ALL.iter().copied().find(|op| {
        if op.method() != c.method {
            return false;
        }
        let path = op.path();
        if let Some(edge) = path.strip_prefix("/act_{account}/") {
            node == "ad_account" && edge == c.edge
        } else if let Some(edge) = path.strip_prefix("/{id}/") {
            op.node().name() == node && edge == c.edge
        } else {
            op.node().name() == node && c.edge.is_empty()
        }
    })
}

/// The node type of an object id: from `object:`, the context, or `me`.
fn object_node(request: &Request<'_>, id: &str, context: &ContextIndex) -> Option<GNode> {
    if let Some((node, _)) = request.object {
        return Some(node);
    }
    if id == "me" {
        return GNode::parse("user");
    }
    ContextKind::ALL
        .iter()
        .find(|(kind, _, _)| context.get(*kind, id).is_some())
        .and_then(|(_, _, node)| GNode::parse(node))
}

/// The names of a request's params that not every call takes.
fn own_param_names<'a>(request: &'a Request<'_>) -> Vec<&'a str> {
    request
        .params()
        .map(|e| e.key.as_str())
        .filter(|n| !COMMON.contains(n))
        .collect()
}

/// The one call of `candidates` (sorted by index) that takes every param the request
/// gives, when one alone does (or one alone of the main node types that have context
/// snapshots). An update counts what create takes: it tells the kind too, even where an
/// update cannot change it.
fn by_params(request: &Request<'_>, candidates: &[GCallId]) -> Option<GCallId> {
    if let [only] = candidates {
        return Some(*only);
    }
    let names = own_param_names(request);
    if names.is_empty() {
        return None;
    }
    // The calls each name allows, shortest list first: the candidates are looked for in
    // it (a few hundred calls on a node itself against a few that take a rare param).
    let mut allowed: Vec<&[u16]> = names.iter().map(|n| graph::calls_with_param(n)).collect();
    allowed.sort_by_key(|calls| calls.len());
    let (fewest, others) = allowed.split_first()?;
    debug_assert!(candidates.is_sorted_by_key(|c| c.0));
    let taking: Vec<GCallId> = fewest
        .iter()
        .filter(|&c| {
            candidates.binary_search_by_key(c, |k| k.0).is_ok()
                && others.iter().all(|calls| calls.binary_search(c).is_ok())
        })
        .map(|&c| GCallId(c))
        .collect();
    match taking.as_slice() {
        [one] => Some(*one),
        [] => None,
        several => {
            let main: Vec<GCallId> = several
                .iter()
                .copied()
                .filter(|c| {
                    ContextKind::ALL
                        .iter()
                        .any(|(_, _, n)| *n == c.get().node.name())
                })
                .collect();
            match main.as_slice() {
                [one] => Some(*one),
                _ => None,
            }
        }
    }
}

/// The reference documents' way to tell the kind of `/<id>` from params, between the
/// two node types they describe; used where the graph finds several.
fn reference_object_kind(request: &Request<'_>) -> Option<Node> {
    let method = request.method()?;
    let names = own_param_names(request);
    if names.is_empty() {
        return None;
    }
    let takes = |node: Node| {
        Operation::by_id(node, method).is_some_and(|e| {
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
        let config = crate::model::config::Config::defaults(".".into());
        model
            .requests
            .iter()
            .map(|r| {
                let line = r.line()?;
                (crate::apis::route(crate::apis::APIS, line, &config) == Some(super::super::ID))
                    .then_some(r)
            })
            .map(|r| match r.and_then(|r| recognize(r, context, true)) {
                Some(Recognized::Call(t, _)) => match t.op {
                    Some(op) => op.name().to_string(),
                    None => t.graph.get().describe(),
                },
                Some(Recognized::UnknownKind(_, candidates)) if candidates.is_empty() => {
                    "unknown kind".into()
                }
                Some(Recognized::UnknownKind(_, candidates)) => {
                    format!("unknown kind of {} candidates", candidates.len())
                }
                Some(Recognized::NoEndpoint {
                    reason,
                    complete: true,
                    ..
                }) => format!("no endpoint: {reason}"),
                Some(Recognized::NoEndpoint { fix: Some(_), .. }) => {
                    unreachable!("a rename only where the catalog is complete")
                }
                Some(Recognized::NoEndpoint { .. }) => "not checked".into(),
                None => "not advertising".into(),
            })
            .collect()
    }

    #[test]
    fn every_reference_operation_is_a_call_of_the_graph() {
        for &op in Operation::ALL {
            let call = GCallId::all().find(|&c| reference_operation(c) == Some(op));
            assert!(call.is_some(), "{op:?} has no call in the graph");
        }
    }

    #[test]
    fn paths_and_methods() {
        let yaml = "requests:\n  - POST /v24.0/act_1/customaudiences\n  - DELETE /v24.0/act_1/usersofanyaudience\n  - POST /v24.0/act_1/adsets\n  - POST /v24.0/2385/copies\n  - GET /v24.0/act_1/adsets\n  - POST /v24.0/act_1/campaigns\n  - GET /user/emails\n  - DELETE /v24.0/2385\n  - POST /act_1/campaigns\n  - GET https://graph.facebook.com/v25.0/act_1/insights\n  - PUT /v25.0/act_1/ads\n  - POST /v25.0/act_1/ad_sets\n  - GET /v25.0/me/adaccounts\n  - GET /v25.0/act_1\n  - GET /v25.0/search?type=adinterest&q=yoga\n";
        assert_eq!(
            recognized(yaml, &ContextIndex::default()),
            vec![
                "audience_create",
                "audience_opt_out",
                "ad_set_create",
                // An ad, an ad set and a campaign have copies: nothing tells which.
                "unknown kind of 3 candidates",
                "GET /act_<id>/adsets",
                "POST /act_<id>/campaigns",
                "not advertising",
                "unknown kind",
                "POST /act_<id>/campaigns",
                "GET /act_<id>/insights",
                "no endpoint: the Marketing API takes GET, POST and DELETE, not PUT",
                "no endpoint: did you mean `/act_<id>/adsets`? No `/act_<id>/ad_sets` is in the catalog",
                "GET /<user id>/adaccounts",
                "GET /act_<id>",
                "unknown kind",
            ]
        );
    }

    /// Under an ad account or an ads node the catalog is complete (a warning, a rename
    /// for a near spelling); elsewhere on the Graph API a call it lacks is only not
    /// checked, with no rename (`/me/video_reels` is no misspelt `/me/videos`).
    #[test]
    fn the_rest_of_the_graph_is_not_checked() {
        let yaml = "requests:\n  - GET /v25.0/me/video_reels\n  - POST /v25.0/{{phone_number_id}}/register\n  - PUT /v25.0/{{phone_number_id}}/messages\n  - GET /v25.0/me/videos/uploaded\n  - {request: GET /v25.0/9/insigths, object: campaign}\n  - {request: GET /v25.0/9/feed, object: campaign}\n  - {request: PUT /v25.0/9, object: ad_set}\n  - GET /v25.0/act_1/adsets/extra\n  - DELETE /v25.0/9/copies\n  - {request: GET /v25.0/9/video_reels, object: page}\n  - GET /v25.0/insights?ids=1,2&date_preset=last_7d\n  - {request: \"GET /v25.0/insights?ids=1,2\", object: campaign}\n  - GET /v25.0/9/insights\n";
        assert_eq!(
            recognized(yaml, &ContextIndex::default()),
            vec![
                "not checked",
                "not checked",
                "not checked",
                "not checked",
                "no endpoint: did you mean `/<campaign id>/insights`? No `/<campaign id>/insigths` is in the catalog",
                "no endpoint: the catalog lists no `/<campaign id>/feed` edge",
                "no endpoint: the Marketing API takes GET, POST and DELETE, not PUT",
                "no endpoint: the Marketing API's paths are `/act_<id>`, `/act_<id>/<edge>`, `/<id>` and `/<id>/<edge>`, after an optional version (`/v25.0`)",
                "no endpoint: `/<id>/copies` takes GET or POST, not DELETE",
                "GET /<page id>/video_reels",
                "unknown kind of 15 candidates",
                "GET /<campaign id>/insights",
                "unknown kind of 15 candidates",
            ]
        );
    }

    #[test]
    fn object_kind_from_object_context_and_params() {
        let mut context = ContextIndex::default();
        context
            .add_text(
                b"custom_audiences: [{id: '111'}]\nad_sets: [{id: '222'}]\ncampaigns: [{id: '444'}]\n"
                    .to_vec(),
                Path::new("s.yaml"),
            )
            .unwrap();
        let yaml = "requests:\n  - {request: DELETE /v24.0/333, object: ad_set}\n  - DELETE /v24.0/111\n  - GET /v24.0/222\n  - {request: POST /v24.0/333, params: {retention_days: 30}}\n  - {request: POST /v24.0/333, params: {billing_event: IMPRESSIONS}}\n  - {request: POST /v24.0/333, params: {name: x}}\n  - GET /v24.0/333?date_preset=last_7d\n  - {request: POST /v24.0/333/copies, object: ad_set}\n  - GET /v25.0/444/insights\n  - {request: GET /v25.0/333, object: campaign}\n  - {request: POST /v25.0/333/adsets, object: ad_creative}\n  - {request: \"GET /v25.0/?ids=1,2&fields=name\", object: campaign}\n";
        assert_eq!(
            recognized(yaml, &context),
            vec![
                "ad_set_delete",
                "audience_delete",
                "ad_set_read",
                "audience_update",
                "ad_set_update",
                "unknown kind",
                "ad_set_read",
                "ad_set_copy",
                "GET /<campaign id>/insights",
                "GET /<campaign id>",
                "no endpoint: the catalog lists no `/<ad_creative id>/adsets` edge",
                "GET /<campaign id>",
            ]
        );
    }
}

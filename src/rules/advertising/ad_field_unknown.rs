use crate::catalog::edge_fields;
use crate::catalog::graph::{GNode, GType};
use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::encoded::SourceMap;
use crate::model::Method;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};
use crate::suggest::did_you_mean;

use crate::apis::advertising::Operation;
use crate::apis::advertising::field_list::{self, FieldItem};

crate::declare_rule! {
    pub struct AdFieldUnknown {
        name: "ad-field-unknown",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "a read's `fields` names a field or edge that the node does not have",
        what: "For every read of the Marketing API (`GET /<id>`, `GET /act_<id>/<edge>`, \
               `GET /?ids=...` with `object:`), splits `fields` (as a param or in the query \
               string) into names and checks each against the node the call returns: its \
               fields and its edges, in the vendor's specs. Expansions are followed: in \
               `creative{id,title}` the names inside the braces are checked against the \
               field's node type (AdCreative), in `insights.date_preset(last_7d){spend}` \
               against what the edge returns (AdsInsights). An edge may add fields to the \
               nodes it returns, which the specs leave out (`/act_<id>/assigned_users` \
               returns users with `tasks` and `permitted_tasks`): a read of the edge, or \
               its expansion, takes them too (catalog/advertising/edge_fields.tsv, from \
               the edges' reference pages). The span is the name inside the string, with \
               the closest field. The top-level names of an ad set read are \
               adset-read-unknown-field's.",
        why: "The API refuses a read that asks for a field the node does not have (error \
              100, \"Tried accessing nonexisting field\"), or the caller works without the \
              data it meant to ask for.",
        source: "Meta's Graph API reference, \"Using the Graph API\" (field expansion), and the fields of each node in Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), as Meta's Business SDK codegen specs list them",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("ad-field-unknown/bad.req.yaml"),
        good: example!("ad-field-unknown/good.req.yaml"),
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The node type a field or an edge of `node` holds, for the names inside its braces.
fn inner_node(node: GNode, name: &str) -> Option<GNode> {
    node.field(name)
        .and_then(GType::node)
        .or_else(|| node.edge_returns(name).and_then(GType::node))
        .filter(|n| n.has_fields())
}

struct Walk<'a> {
    value: &'a str,
    map: &'a SourceMap,
    out: &'a mut Vec<Diagnostic>,
}

/// The edge a list of names is read through (`/act_<id>/assigned_users`, or
/// `assigned_users{...}` in an ad account's fields): its node type and edge, for the
/// fields the edge adds to the nodes it returns.
type Via = Option<(GNode, &'static str)>;

impl Walk<'_> {
    fn items(&mut self, node: GNode, via: Via, items: &[FieldItem], judge_top: bool) {
        let added = via.map_or(&[][..], |(owner, edge)| {
            edge_fields::added_fields(owner.name(), edge)
        });
        for item in items {
            let name = &self.value[item.start..item.end];
            if !is_name(name) {
                continue;
            }
            let known = name == "id"
                || node.field(name).is_some()
                || node.edge_returns(name).is_some()
                || added.iter().any(|f| f.field.get() == name);
            if !known && judge_top {
                let edges = node
                    .calls()
                    .filter(|c| c.get().method == Method::Get && !c.get().edge.is_empty())
                    .map(|c| c.get().edge.as_str());
                let names = node
                    .info()
                    .fields
                    .iter()
                    .map(|(f, _)| f.as_str())
                    .chain(edges)
                    .chain(added.iter().map(|f| f.field.get()));
                let spec = node.info().spec;
                let help = match did_you_mean(name, names) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "the Marketing API reference lists no field or edge `{name}` of {spec} (Graph API {})",
                        crate::catalog::graph::GRAPH_VERSION
                    ),
                };
                self.out.push(
                    Diagnostic::new(
                        &META,
                        self.map.span(item.start..item.end),
                        format!("`{name}` is not a field or an edge of {spec}"),
                    )
                    .with_help(help),
                );
                continue;
            }
            if let (Some(children), Some(inner)) = (&item.children, inner_node(node, name)) {
                // An edge's expansion may name the fields the edge adds.
                let via = match node.field(name) {
                    Some(_) => None,
                    None => node
                        .call(Method::Get, name)
                        .map(|c| (node, c.get().edge.as_str())),
                };
                self.items(inner, via, children, true);
            }
        }
    }
}

impl Rule for AdFieldUnknown {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for (request, target, _) in crate::apis::advertising::graph_calls(file) {
            let call = target.graph.get();
            if call.method != Method::Get {
                continue;
            }
            let node = if call.edge.is_empty() {
                Some(call.node)
            } else {
                call.returns.node()
            };
            let Some(node) = node.filter(|n| n.has_fields()) else {
                continue;
            };
            let Some(entry) = request.param("fields") else {
                continue;
            };
            let Some(value) = entry.value.as_str() else {
                continue;
            };
            let map = SourceMap::for_scalar(file.text, entry.value.span, value);
            let items = field_list::parse(value);
            let judge_top = target.op != Some(Operation::AdSetRead);
            let via = (!call.edge.is_empty()).then_some((call.node, call.edge.as_str()));
            Walk {
                value,
                map: &map,
                out,
            }
            .items(node, via, &items, judge_top);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    fn found(yaml: &str) -> Vec<String> {
        spans("ad-field-unknown", "", yaml)
    }

    #[test]
    fn names_expansions_and_edges() {
        let yaml = "requests:\n  - GET /v25.0/act_1/campaigns?fields=id,name,objectve,adsets{name,daily_budgt},insights.date_preset(last_7d){spend,clicks,impresions}\n  - {request: GET /v25.0/9, object: ad, params: {fields: \"creative{id,titel},adset{nmae}\"}}\n";
        assert_eq!(
            found(yaml),
            vec!["objectve", "daily_budgt", "impresions", "titel", "nmae"]
        );
    }

    #[test]
    fn ad_set_top_level_names_are_left_to_the_ad_set_rule() {
        let yaml = "request: GET /v25.0/9?fields=nmae,campaign{nmae}\nobject: ad_set\n";
        assert_eq!(found(yaml), vec!["nmae"]);
    }

    /// The fields an edge adds (its reference page, "The following fields will be added
    /// to each node that is returned"), read through the edge or its expansion only.
    #[test]
    fn fields_an_edge_adds() {
        let yaml = "requests:\n  - GET /v25.0/act_1/assigned_users?business=2&fields=id,name,tasks,permitted_tasks,taks\n  - GET /v25.0/act_1/agencies?fields=name,access_status,permitted_tasks\n  - GET /v25.0/act_1?fields=assigned_users{tasks,permitted_tasks},agencies{access_status}\n  - GET /v25.0/act_1/users?fields=name,permitted_tasks\n";
        // An ad account's users have `tasks` of their own, but no `permitted_tasks`.
        assert_eq!(found(yaml), vec!["taks", "permitted_tasks"]);
    }

    #[test]
    fn unknown_nodes_and_posts_are_not_judged() {
        let yaml = "requests:\n  - GET /v25.0/9?fields=anything\n  - POST /v25.0/act_1/campaigns?fields=whatever&special_ad_categories=[]\n";
        assert!(found(yaml).is_empty());
    }
}

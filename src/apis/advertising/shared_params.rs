//! The params of a call whose node type nothing tells (`GET /<id>/insights`,
//! `POST /<id>/copies` with no `object:`), judged on what every call it may be shares: a
//! value is wrong when every candidate refuses it, those that take the param by its
//! type or enum at the same place (a type that judges values: a number, a boolean, a
//! date, an enum, or a list of them), those that do not by not taking it
//! (`date_preset=month_to_date` is in no insights edge's enum). A value one candidate
//! accepts is not judged: which node the id is, reqlint does not know. A param no
//! candidate takes is unknown only where every candidate is an ads node, whose calls the
//! catalog holds whole (`POST /<id>/copies`: an ad's, an ad set's, a campaign's); an
//! insights edge may be another API's node's.

use crate::catalog::advertising::COMMON;
use crate::catalog::graph::{GCallId, GType};
use crate::loading::Entry;
use crate::model::Request;
use crate::suggest::did_you_mean;

use super::endpoint::is_ads_node;
use super::graph_types;
use super::values::{Issue, IssueFix, IssueKind};

/// The findings every candidate call agrees on, for each param the request sends.
pub fn check(candidates: &[GCallId], request: &Request<'_>) -> Vec<Issue> {
    let mut issues = Vec::new();
    if candidates.is_empty() {
        return issues;
    }
    for entry in request.params() {
        let start = issues.len();
        shared_findings(candidates, entry, &mut issues);
        let value = entry.value.span;
        for issue in &mut issues[start..] {
            if let Some(u) = request.variable_use_at(entry, issue.span) {
                issue.used_at = (u.used != u.value).then_some(u.used);
                issue.fix = None;
            }
            if value.is_empty() && issue.span == value {
                issue.span = entry.key_span.cover(value);
            }
        }
    }
    issues
}

fn shared_findings(candidates: &[GCallId], entry: &Entry, out: &mut Vec<Issue>) {
    let name = entry.key.as_str();
    // The distinct types the candidates that take the param give it.
    let mut types: Vec<GType> = Vec::new();
    for p in candidates.iter().filter_map(|c| c.get().param(name)) {
        // A type that tells no valid value from an invalid one (a string, an object, a
        // list of objects: the specs type a Page's insights `metric` so) is taken to
        // accept the value: the specs type such params loosely.
        if !p.ty.judges_values() {
            return;
        }
        if !types.contains(&p.ty) {
            types.push(p.ty);
        }
    }
    let findings: Vec<Vec<Issue>> = types
        .iter()
        .map(|&ty| {
            let mut found = Vec::new();
            graph_types::check(ty, name, &entry.value, &mut found);
            found
        })
        .collect();
    let Some((first, others)) = findings.split_first() else {
        unknown_to_all(candidates, entry, out);
        return;
    };
    for issue in first {
        let at_same_place: Vec<&Issue> = others
            .iter()
            .filter_map(|f| f.iter().find(|o| o.span == issue.span))
            .collect();
        if at_same_place.len() != others.len() {
            continue;
        }
        let mut shared = issue.clone();
        if at_same_place.iter().any(|o| o.message != issue.message) {
            shared.message = format!("`{name}` is refused by every node type that has this call");
        }
        if at_same_place.iter().any(|o| o.help != issue.help) {
            shared.help = Some(format!(
                "no node type that has this call takes this value of `{name}` (Meta's Marketing API reference, Graph API {})",
                crate::catalog::graph::GRAPH_VERSION
            ));
        }
        let same_fix = |f: &Option<IssueFix>| *f == issue.fix;
        if !at_same_place.iter().all(|o| same_fix(&o.fix)) {
            shared.fix = None;
        }
        out.push(shared);
    }
}

/// A param no candidate takes, where every candidate is an ads node.
fn unknown_to_all(candidates: &[GCallId], entry: &Entry, out: &mut Vec<Issue>) {
    let name = entry.key.as_str();
    if COMMON.contains(&name) || !candidates.iter().all(|c| is_ads_node(c.get().node)) {
        return;
    }
    let first = candidates[0].get();
    let call = match (first.node.name(), first.edge.as_str()) {
        (_, "") => format!("{} /<id>", first.method),
        (_, edge) => format!("{} /<id>/{edge}", first.method),
    };
    let nodes: Vec<&str> = candidates
        .iter()
        .map(|c| c.get().node.info().spec.as_str())
        .collect();
    let known = candidates
        .iter()
        .flat_map(|c| c.get().params.iter().map(|p| p.name.as_str()));
    let help = match did_you_mean(name, known) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!(
            "no {call} call takes it ({}; Meta's Marketing API reference, Graph API {})",
            nodes.join(", "),
            crate::catalog::graph::GRAPH_VERSION
        ),
    };
    out.push(Issue {
        used_at: None,
        kind: IssueKind::Unknown,
        span: entry.key_span,
        message: format!("unknown param `{name}` for {call}, whichever node the id is"),
        help: Some(help),
        graph_may_accept: false,
        fix: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, parse_text};
    use crate::model::{FileModel, Method};

    fn issues(yaml: &str, edge: &str, method: Method) -> Vec<String> {
        let (docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        let model = FileModel::build(&docs, yaml);
        let candidates: Vec<GCallId> = crate::catalog::graph::edge_calls(false, edge)
            .unwrap()
            .filter(|c| c.get().method == method)
            .collect();
        assert!(candidates.len() > 1, "{edge}: several node types have it");
        check(&candidates, &model.requests[0])
            .into_iter()
            .map(|i| format!("{} @ {}", i.message, &yaml[i.span.range()]))
            .collect()
    }

    /// The work of a shared judgement is candidates × params: the candidates are the
    /// calls of one edge and method, 15 at most (SECURITY.md, the bounded work).
    #[test]
    fn candidates_are_bounded_by_one_edge() {
        let mut most = 0;
        for call in GCallId::all().filter(|c| !c.get().edge.is_empty()) {
            let c = call.get();
            let same = crate::catalog::graph::edge_calls(false, &c.edge)
                .unwrap()
                .filter(|o| o.get().method == c.method)
                .count();
            most = most.max(same);
        }
        assert_eq!(most, 15);
    }

    #[test]
    fn a_value_no_insights_edge_takes_is_judged() {
        let found = issues(
            "request: GET /v25.0/9/insights?date_preset=month_to_date&time_increment=1\n",
            "insights",
            Method::Get,
        );
        assert_eq!(
            found,
            ["`date_preset` `month_to_date` is not a valid value @ month_to_date"]
        );
        // A value every insights edge takes is clean.
        assert!(
            issues(
                "request: GET /v25.0/9/insights?date_preset=last_7d\n",
                "insights",
                Method::Get
            )
            .is_empty()
        );
    }

    #[test]
    fn copies_are_judged_only_on_what_every_candidate_shares() {
        // `deep_copy` is an ad set's and a campaign's, not an ad's: a boolean is
        // judged by neither, a word is refused by all three.
        assert!(
            issues(
                "request: POST /v25.0/9/copies\nparams: {deep_copy: true, adset_id: '5', access_token: x}\n",
                "copies",
                Method::Post
            )
            .is_empty()
        );
        // A param no copies call takes: the catalog holds every call of the ads nodes.
        assert_eq!(
            issues(
                "request: POST /v25.0/9/copies\nparams: {status_optoin: PAUSED}\n",
                "copies",
                Method::Post
            ),
            [
                "unknown param `status_optoin` for POST /<id>/copies, whichever node the id is @ status_optoin"
            ]
        );
        // An insights edge may be another API's node's: no param is unknown there.
        assert!(
            issues(
                "request: GET /v25.0/9/insights?metric=page_impressions&period=day\n",
                "insights",
                Method::Get
            )
            .is_empty()
        );
        assert_eq!(
            issues(
                "request: POST /v25.0/9/copies\nparams: {deep_copy: maybe}\n",
                "copies",
                Method::Post
            ),
            ["`deep_copy` must be true or false, not a string @ maybe"]
        );
        // `status_option` every copies call takes, with the same enum.
        assert_eq!(
            issues(
                "request: POST /v25.0/9/copies\nparams: {status_option: PAUSE}\n",
                "copies",
                Method::Post
            ),
            ["`status_option` `PAUSE` is not a valid value @ PAUSE"]
        );
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Node;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

/// The minimum size of an origin audience (Meta's Marketing API reference for custom
/// audiences, https://developers.facebook.com/docs/marketing-api/reference/custom-audience/).
const MIN_ORIGIN_SIZE: i64 = 100;

crate::declare_rule! {
    pub struct AudienceOriginTooSmall {
        name: "audience-origin-too-small",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "the origin audience of a lookalike has fewer than 100 people",
        what: "Looks up `origin_audience_id` (a create param, or inside `lookalike_spec`) in \
               the context snapshots and reports it when the audience's approximate size \
               (`approximate_count`, else `approximate_count_upper_bound`) is under 100. An \
               audience the context does not hold, or whose size is -1 (an inactive \
               lookalike), is not judged.",
        why: "The origin audience must have a minimum size of 100; the lookalike cannot be \
              built from a smaller one.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Create an audience (origin_audience_id) and \"Limits\"",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceCreate]),
        bad: example!("audience-origin-too-small/bad.req.yaml"),
        good: example!("audience-origin-too-small/good.req.yaml"),
    }
}

fn size(audience: &Node) -> Option<i64> {
    ["approximate_count", "approximate_count_upper_bound"]
        .iter()
        .find_map(|f| audience.get_value(f).and_then(Node::as_i64))
        .filter(|&n| n >= 0)
}

impl Rule for AudienceOriginTooSmall {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let in_spec = request
            .param("lookalike_spec")
            .and_then(|s| s.value.resolved().get_value("origin_audience_id"));
        let ids = request
            .param("origin_audience_id")
            .map(|e| &e.value)
            .into_iter()
            .chain(in_spec);
        for id_node in ids {
            let Some(id) = id_node.scalar_text() else {
                continue;
            };
            let Some(n) = crate::apis::advertising::audience(file.context, &id).and_then(size)
            else {
                continue;
            };
            if n < MIN_ORIGIN_SIZE {
                out.push(
                    Diagnostic::new(&META, id_node.span, format!("origin audience {id} has about {n} people; a lookalike needs at least {MIN_ORIGIN_SIZE}"))
                        .with_help("choose a larger origin audience, or let this one grow first"),
                );
            }
        }
    }
}

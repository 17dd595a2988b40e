use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::advertising::params::IssueKind;

crate::declare_rule! {
    pub struct AdParamNotUpdatable {
        name: "ad-param-not-updatable",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an update sends a param that only create takes",
        what: "Reports a param of an update (`POST /<id>`) that a call creating that node type \
               takes but the update takes not, in the vendor's specs and, for custom \
               audiences and ad sets, in the reference's tables (a custom audience's subtype, \
               pixel_id, prefill, origin_audience_id, ...; an ad set's campaign_id; a \
               campaign's buying_type): it cannot be changed after creation.",
        why: "The update does not change it; the author expects a change that never happens.",
        source: "Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), each node's update endpoint against the edge that creates it, as Meta's Business SDK codegen specs list them; Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Update an audience against Create an audience",
        fixes: &[FixMeta {
            applicability: Applicability::Unsafe,
            what: "the param an update does not take is removed (its lines of a YAML block mapping)",
        }],
        inspects: Inspects::File,
        bad: example!("ad-param-not-updatable/bad.req.yaml"),
        good: example!("ad-param-not-updatable/good.req.yaml"),
    }
}

impl Rule for AdParamNotUpdatable {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_param_issues(
            file,
            &META,
            |k| *k == IssueKind::NotUpdatable,
            None,
            out,
        );
    }
}

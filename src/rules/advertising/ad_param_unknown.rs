use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::advertising::params::IssueKind;

crate::declare_rule! {
    pub struct AdParamUnknown {
        name: "ad-param-unknown",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an advertising param that the call does not take, a key its object does not have, or an enum value the reference omits",
        what: "Reports a param that neither the vendor's specs of the call nor, for custom \
               audiences and ad sets, the reference's parameter tables list, with the closest \
               known name; a key inside an object param that its node type in the specs does \
               not have (`targeting.publisher_platform`, `geo_locations.citis`), at any depth, \
               with the closest field; and a value outside an enum whose list the reference says is \
               incomplete (destination_type) and the specs do not list either. A warning, not \
               an error: the API ignores some unknown params. `access_token`, \
               `appsecret_proof` and the Graph API's own params (`fields`, `ids`, `filtering`, `limit`, \
               `after`, `before`, `offset`, `since`, `until`, `summary`, `pretty`, `locale`, \
               `date_format`, `suppress_http_code`, `include_headers`) are taken by every call.",
        why: "A misspelt param is silently ignored, or refused: the object is created without \
              what the author meant to set.",
        source: "Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), the parameters of each endpoint and the fields of each node type, as Meta's Business SDK codegen specs list them; Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/) and for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\"",
        fixes: &[
            FixMeta {
                applicability: Applicability::Safe,
                what: "a misspelt param or key with one close candidate is renamed (`retention_day` → `retention_days`, `publisher_platform` → `publisher_platforms`)",
            },
            FixMeta {
                applicability: Applicability::Unsafe,
                what: "an unknown param with no close candidate is removed (its lines of a YAML block mapping)",
            },
        ],
        inspects: Inspects::File,
        bad: example!("ad-param-unknown/bad.req.yaml"),
        good: example!("ad-param-unknown/good.req.yaml"),
    }
}

impl Rule for AdParamUnknown {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_param_issues(
            file,
            &META,
            |k| matches!(k, IssueKind::Unknown | IssueKind::OutsideOpenEnum),
            None,
            out,
        );
    }
}

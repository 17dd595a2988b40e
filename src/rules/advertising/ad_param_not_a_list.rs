use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::advertising::params::IssueKind;

crate::declare_rule! {
    pub struct AdParamNotAList {
        name: "ad-param-not-a-list",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "one value where an advertising param or key takes a list",
        what: "Reports a single value (a string, a number, a boolean) given to a param that the \
               vendor's specs type as a list, in a call that writes (a POST: \
               `special_ad_categories: NONE`), and to a key typed as a list inside an object \
               param (`targeting.geo_locations.countries: US`). A comma-separated string in a \
               call that reads (`breakdowns=age,gender`) is a list as the API reads it, and is \
               not reported; nor is a JSON-encoded list.",
        why: "The API takes the field as an array: the call is refused (\"must be an array\"), \
              or the value is not read as meant.",
        source: "Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), the parameters of each endpoint and the fields of each node type, as Meta's Business SDK codegen specs list them (`list<…>`); \"Using the Graph API\" (https://developers.facebook.com/docs/graph-api/using-graph-api/), arrays in parameters are sent JSON-encoded",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "the value is made a list of one: `NONE` → `[NONE]` in YAML, `\"HOUSING\"` → `[\"HOUSING\"]` in JSON, `NONE` → `[\"NONE\"]` in a query string or a form body",
        }],
        inspects: Inspects::File,
        bad: example!("ad-param-not-a-list/bad.req.yaml"),
        good: example!("ad-param-not-a-list/good.req.yaml"),
    }
}

impl Rule for AdParamNotAList {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_param_issues(
            file,
            &META,
            |k| *k == IssueKind::NotAList,
            None,
            out,
        );
    }
}

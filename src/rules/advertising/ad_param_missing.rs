use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::params::IssueKind;

crate::declare_rule! {
    pub struct AdParamMissing {
        name: "ad-param-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an advertising call without a param that the call requires",
        what: "For every call of the Marketing API that reqlint recognizes, reports each param \
               the vendor's specs mark as required and the request does not give, as a param or \
               in the query string: `special_ad_categories` to create a campaign, `name` and \
               `creative` to create an ad, `q` to search targeting, `delete_strategy` to delete \
               an account's campaigns. It points at the `params` key (at the request line when \
               there are no params). Where a rule of its own reports a missing param (an ad \
               set's `name`: adset-name-missing), that rule does. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "The API refuses the whole call with error 100 (invalid parameter) and says \
              which param it requires.",
        source: "Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), the parameter table of each endpoint (\"Required\"), as Meta's Business SDK codegen specs list them",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("ad-param-missing/bad.req.yaml"),
        good: example!("ad-param-missing/good.req.yaml"),
    }
}

impl Rule for AdParamMissing {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_param_issues(
            file,
            &META,
            |k| *k == IssueKind::Missing,
            Some(100),
            out,
        );
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct InvalidRequestField {
        name: "invalid-request-field",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "a known request key has a value of the wrong shape",
        what: "Reports `params` that is not a mapping, `requests` that is not a list (or an \
               item that is neither a request line nor a mapping), `token` that is neither a \
               name nor a mapping, `object` other than `custom_audience` or `ad_set`, \
               `public` that is not true or false, and `request` beside `method`/`path` or \
               `requests`.",
        why: "A value of the wrong shape is left out of every other check, so the request \
              would be linted as if it were not there.",
        source: "reqlint's request file format (docs/request-files.md): requests and tokens",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("invalid-request-field/bad.req.yaml"),
        good: example!("invalid-request-field/good.req.yaml"),
    }
}

impl Rule for InvalidRequestField {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for issue in &file.model.shape_issues {
            let mut d = Diagnostic::new(&META, issue.span, issue.message.clone());
            if let Some(help) = &issue.help {
                d = d.with_help(help.clone());
            }
            out.push(d);
        }
    }
}

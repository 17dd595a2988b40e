use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AudienceRetentionDaysNotCustomerFile {
        name: "audience-retention-days-not-customer-file",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "`retention_days` on an audience that is not a customer file audience",
        what: "Reports `retention_days` on an audience create whose `subtype` is given and is \
               not CUSTOM (customer file audiences, including those from CRM data, are of \
               subtype CUSTOM).",
        why: "The reference says retention_days applies only to customer file audiences; on any \
              other audience it does not do what its author expects (a website audience keeps \
              people by the retention in its rule).",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Resources and their fields\" (retention_days: only for customer \
                 file audiences)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceCreate]),
        bad: example!("audience-retention-days-not-customer-file/bad.req.yaml"),
        good: example!("audience-retention-days-not-customer-file/good.req.yaml"),
    }
}

impl Rule for AudienceRetentionDaysNotCustomerFile {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let (Some(retention), Some(subtype)) = (
            request.param("retention_days"),
            crate::apis::advertising::valid_param(file, request, "subtype"),
        ) else {
            return;
        };
        let Some(kind) = subtype.value.as_str().filter(|s| *s != "CUSTOM") else {
            return;
        };
        out.push(
            Diagnostic::new(&META, retention.key_span, format!("`retention_days` applies only to customer file audiences, not to subtype {kind}"))
                .with_label(subtype.value.span, "subtype given here")
                .with_help("remove `retention_days`; a website audience keeps people by the retention in its rule"),
        );
    }
}

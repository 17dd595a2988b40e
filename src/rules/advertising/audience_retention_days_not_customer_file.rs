use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::rules::{FileContext, Group, Inspects, Rule, RuleMeta};

use crate::apis::advertising::{Call, Endpoint};

pub struct AudienceRetentionDaysNotCustomerFile;

static META: RuleMeta = RuleMeta {
    name: "audience-retention-days-not-customer-file",
    group: Group::Advertising,
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
    inspects: Inspects::Operations(&[Endpoint::AudienceCreate]),
    bad: example!("audience-retention-days-not-customer-file/bad.req.yaml"),
    good: example!("audience-retention-days-not-customer-file/good.req.yaml"),
};

impl Rule for AudienceRetentionDaysNotCustomerFile {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_call(&self, file: &FileContext<'_>, c: &Call<'_>, out: &mut Vec<Diagnostic>) {
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

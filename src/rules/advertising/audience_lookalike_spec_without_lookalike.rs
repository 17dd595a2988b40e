use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;

crate::declare_rule! {
    pub struct AudienceLookalikeSpecWithoutLookalike {
        name: "audience-lookalike-spec-without-lookalike",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "`lookalike_spec` on an audience whose subtype is not LOOKALIKE",
        what: "Reports `lookalike_spec` on an audience create whose `subtype` is given and is \
               not LOOKALIKE.",
        why: "The reference says a lookalike_spec is present only when the subtype is LOOKALIKE: \
              on any other audience it is not what the author meant.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Resources and their fields\" (lookalike_spec: present only when \
                 subtype is LOOKALIKE)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceCreate]),
        bad: example!("audience-lookalike-spec-without-lookalike/bad.req.yaml"),
        good: example!("audience-lookalike-spec-without-lookalike/good.req.yaml"),
    }
}

impl Rule for AudienceLookalikeSpecWithoutLookalike {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let (Some(spec), Some(subtype)) = (
            request.param("lookalike_spec"),
            crate::apis::advertising::valid_param(file, request, "subtype"),
        ) else {
            return;
        };
        let Some(kind) = subtype.value.as_str().filter(|s| *s != "LOOKALIKE") else {
            return;
        };
        out.push(
            Diagnostic::new(
                &META,
                spec.key_span,
                format!("`lookalike_spec` is given but the subtype is {kind}, not LOOKALIKE"),
            )
            .with_label(subtype.value.span, "subtype given here")
            .with_help("set `subtype: LOOKALIKE`, or remove `lookalike_spec`"),
        );
    }
}

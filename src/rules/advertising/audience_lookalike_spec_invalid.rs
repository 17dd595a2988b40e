use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AudienceLookalikeSpecInvalid {
        name: "audience-lookalike-spec-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "`lookalike_spec` is not a JSON object",
        what: "Reports a `lookalike_spec` that is neither a mapping nor a JSON-encoded string holding a JSON object. JSON that does not parse inside the string is reported by `invalid-syntax`, pointing inside the string.",
        why: "The API refuses the call with error 100 (invalid parameter).",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\": Create an audience (lookalike_spec: JSON-encoded string); reqlint's request file format (docs/request-files.md): JSON-encoded strings",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("audience-lookalike-spec-invalid/bad.req.yaml"),
        good: example!("audience-lookalike-spec-invalid/good.req.yaml"),
    }
}

impl Rule for AudienceLookalikeSpecInvalid {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_routed(
            file,
            &META,
            crate::catalog::advertising::ParamRule::AudienceLookalikeSpecInvalid,
            100,
            out,
        );
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{
    Origin, custom_conversion, custom_conversion_id, id_text, set_by, text, truthy,
};

crate::declare_rule! {
    pub struct AdSetFlaggedConversion {
        name: "adset-flagged-conversion",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set that optimizes for a flagged custom conversion",
        what: "For an ad set create or update, reads the custom conversion the ad set \
               references, `promoted_object.custom_conversion_id` (`promoted_object` may be a \
               JSON-encoded string), looks it up in the context snapshots (`custom_conversions`) \
               and reports it at its id when the snapshot says `flagged: true`. For a copy, the \
               source ad set's `promoted_object` in the context is read and the diagnostic \
               points at the source's id in the path. An update that does not send \
               `promoted_object`, and a conversion the context does not hold, are not judged.",
        why: "Since 2025-09-02 custom conversions that suggest health conditions or financial \
              status are flagged; the API refuses to create or modify an ad set that holds one \
              (error_subcode 246004, naming the restricted custom conversion id).",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), overview, \"Errors\" (flagged assets) and \"States \
                 and transitions\"",
        fixes: &[],
        inspects: Inspects::Requests(&[
            Operation::AdSetCreate,
            Operation::AdSetUpdate,
            Operation::AdSetCopy,
        ]),
        bad: example!("adset-flagged-conversion/bad.req.yaml"),
        good: example!("adset-flagged-conversion/good.req.yaml"),
    }
}

impl Rule for AdSetFlaggedConversion {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint, call) = (c.request, c.endpoint, &c.call);

        let Some((promoted, origin)) =
            set_by(request, endpoint, call, file.context, "promoted_object")
        else {
            return;
        };
        let Some(id_node) = custom_conversion_id(promoted) else {
            return;
        };
        let Some(id) = id_text(id_node) else { return };
        let Some(conversion) = custom_conversion(file.context, &id) else {
            return;
        };
        if conversion.get_value("flagged").and_then(truthy) != Some(true) {
            return;
        }
        let named = match text(conversion, "name") {
            Some(name) => format!("custom conversion {id} ({name})"),
            None => format!("custom conversion {id}"),
        };
        let d = match origin {
            Origin::Request => Diagnostic::new(
                &META,
                id_node.span,
                format!("{named} is flagged; the API refuses an ad set that holds it"),
            ),
            Origin::Copied(source) => Diagnostic::new(
                &META,
                source.span,
                format!(
                    "ad set {} optimizes for flagged {named}; the API refuses a copy that takes it over",
                    source.text
                ),
            ),
        };
        let help = match origin {
            Origin::Request => {
                "optimize for another custom conversion; a flagged one cannot be used while \
                 its rule suggests health conditions or financial status"
            }
            Origin::Copied(_) => {
                "change the source ad set's `promoted_object` first, or create a new ad set \
                 that optimizes for another custom conversion"
            }
        };
        out.push(d.with_help(help).with_api_error(100, Some(246_004)));
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::spans;

    const CONTEXT: &str = "custom_conversions:\n  - {id: '81', flagged: true}\n  - {id: '82', flagged: 'true'}\n  - {id: '83', flagged: false}\n  - {id: '84'}\nad_sets:\n  - {id: '901', promoted_object: {custom_conversion_id: 81}}\n  - {id: '902', promoted_object: {pixel_id: '5'}}\n";

    fn found(yaml: &str) -> Vec<String> {
        spans("adset-flagged-conversion", CONTEXT, yaml)
    }

    #[test]
    fn promoted_object_as_mapping_or_json() {
        let yaml = "requests:\n  - request: POST /v24.0/act_1/adsets\n    params: {promoted_object: '{\"pixel_id\":\"5\",\"custom_conversion_id\":\"82\"}'}\n  - request: POST /v24.0/act_1/adsets\n    params: {promoted_object: {custom_conversion_id: 81}}\n  - request: POST /v24.0/act_1/adsets\n    params: {promoted_object: {custom_conversion_id: 83}}\n  - request: POST /v24.0/act_1/adsets\n    params: {promoted_object: {custom_conversion_id: 84}}\n  - request: POST /v24.0/act_1/adsets\n    params: {promoted_object: {custom_conversion_id: 85}}\n";
        assert_eq!(found(yaml), vec!["\"82\"", "81"]);
    }

    #[test]
    fn copies_and_updates() {
        let yaml = "requests:\n  - POST /v24.0/901/copies\n  - POST /v24.0/902/copies\n  - request: POST /v24.0/901\n    params: {name: x}\n";
        assert_eq!(found(yaml), vec!["901"]);
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{FLAGGED, Operation};

crate::declare_rule! {
    pub struct AudienceFlaggedEdit {
        name: "audience-flagged-edit",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an edit of a flagged audience that the API refuses",
        what: "For an audience update whose audience the context shows flagged \
               (`operation_status.code` 471): a lookalike audience, or a customer file \
               audience (subtype CUSTOM with a `customer_file_source`), cannot be edited at \
               all (error 100, subcode 1713228); any other flagged audience can be edited only \
               by changing a field listed in its `fields_violating_integrity_policy` (error \
               100, subcode 1713231 otherwise, naming the fields to change). \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "Since 2025-09-02 audiences that suggest health conditions or financial status \
              are flagged; the API refuses these edits, and a flagged audience cannot run ads \
              until it is resolved.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), overview, and \"Endpoints\": Update an \
                 audience (flag rules)",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AudienceUpdate]),
        bad: example!("audience-flagged-edit/bad.req.yaml"),
        good: example!("audience-flagged-edit/good.req.yaml"),
    }
}

impl Rule for AudienceFlaggedEdit {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, call) = (c.request, &c.call);
        let Some(id) = call.object else { return };
        let Some(audience) = crate::apis::advertising::audience(file.context, &id.text) else {
            return;
        };
        if crate::apis::advertising::operation_status(audience) != Some(FLAGGED) {
            return;
        }
        let subtype = audience.get_value("subtype").and_then(|s| s.as_str());
        let customer_file =
            subtype == Some("CUSTOM") && audience.get_value("customer_file_source").is_some();
        if subtype == Some("LOOKALIKE") || customer_file {
            let what = if customer_file {
                "customer file"
            } else {
                "lookalike"
            };
            out.push(
                Diagnostic::new(&META, id.span, format!("audience {} is a flagged {what} audience and cannot be edited", id.text))
                    .with_help(if customer_file {
                        "create or choose a different audience, or request a review in the audience tool"
                    } else {
                        "resolve its seed (origin) audience, or create a new lookalike audience"
                    })
                    .with_api_error(100, Some(1_713_228)),
            );
            return;
        }
        let fields =
            crate::apis::advertising::string_list(audience, "fields_violating_integrity_policy");
        // An edit that changes one of them, or may (a body that could not be read).
        if fields.is_empty()
            || !fields
                .iter()
                .all(|f| crate::apis::advertising::absent(request, f))
        {
            return;
        }
        let span = request.params.map_or(request.line_span, |p| p.key_span);
        out.push(
            Diagnostic::new(
                &META,
                span,
                format!(
                    "audience {} is flagged; an edit must change {}",
                    id.text,
                    fields
                        .iter()
                        .map(|f| format!("`{f}`"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            )
            .with_label(id.span, "flagged audience")
            .with_help(format!(
                "remove the prohibited information from {}",
                fields.join(", ")
            ))
            .with_api_error(100, Some(1_713_231)),
        );
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::FLAGGED;
use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{Origin, id_text, set_by, targeted_audiences, text};

crate::declare_rule! {
    pub struct AdSetFlaggedAudience {
        name: "adset-flagged-audience",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set that uses a flagged custom or lookalike audience",
        what: "For an ad set create or update, looks up every audience of `targeting` \
               (`custom_audiences` and `excluded_custom_audiences`, `{id: ...}` items; \
               `targeting` may be a JSON-encoded string) in the context snapshots and reports \
               one whose `operation_status.code` is 471 (flagged for integrity reasons), at \
               its id. For a copy, which takes the source ad set's targeting, the source's \
               `targeting` in the context is read and the diagnostic points at the source's \
               id in the path. An update that does not send `targeting` changes an ad set that \
               still uses its audiences: the ad set's `targeting` in the context is read, and \
               the diagnostic points at its id in the path (an update that only sets \
               `status: DELETED` is not judged). An audience the context does not hold is not \
               judged. \
               An update whose body reqlint could not read, or whose query string is a \
               variable whose value is not known, is not judged on the ad set's snapshot: \
               it may send the param (docs/formats.md).",
        why: "Since 2025-09-02 custom and lookalike audiences that suggest health conditions \
              or financial status are flagged; the API refuses to create or modify an ad set \
              that uses one (error_subcode 246003, listing the restricted audience ids).",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), overview and \"Errors\" (flagged assets); Meta's \
                 Marketing API reference for custom audiences, operation_status codes (471)",
        fixes: &[],
        inspects: Inspects::Requests(&[
            Operation::AdSetCreate,
            Operation::AdSetUpdate,
            Operation::AdSetCopy,
        ]),
        bad: example!("adset-flagged-audience/bad.req.yaml"),
        good: example!("adset-flagged-audience/good.req.yaml"),
    }
}

impl Rule for AdSetFlaggedAudience {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint, call) = (c.request, c.endpoint, &c.call);

        // The API refuses every change to an ad set that uses a flagged audience, not
        // only a change of its targeting.
        let kept = (endpoint == Operation::AdSetUpdate
            && crate::apis::advertising::absent(request, "targeting")
            && !only_deletes(request))
        .then(|| {
            let id = call.object?;
            let targeting = crate::apis::advertising::adset_lookup::ad_set(file.context, &id.text)?
                .get_value("targeting")?;
            Some((targeting.resolved(), id))
        })
        .flatten();
        if let Some((targeting, id)) = kept {
            for (key, _, audience_id, _) in flagged(file, targeting) {
                out.push(
                    Diagnostic::new(
                        &META,
                        id.span,
                        format!(
                            "ad set {} uses flagged custom audience {audience_id} in `{key}`; the API refuses any change to it",
                            id.text
                        ),
                    )
                    .with_help(
                        "send `targeting` without the flagged audience in this update, or create a new ad set with another audience",
                    )
                    .with_api_error(100, Some(246_003)),
                );
            }
            return;
        }
        let Some((targeting, origin)) = set_by(request, endpoint, call, file.context, "targeting")
        else {
            return;
        };
        for (key, id_node, id, audience) in flagged(file, targeting) {
            let named = match text(audience, "name") {
                Some(name) => format!("custom audience {id} ({name})"),
                None => format!("custom audience {id}"),
            };
            let help = match origin {
                Origin::Request => format!(
                    "remove it from `{key}` and choose another audience; a flagged audience \
                     cannot run ads until the prohibited information is removed"
                ),
                Origin::Copied(_) => format!(
                    "remove it from the source ad set's `{key}` first, or create a new ad \
                     set with another audience"
                ),
            };
            let d = match origin {
                Origin::Request => {
                    let d = Diagnostic::new(
                        &META,
                        id_node.span,
                        format!(
                            "{named} is flagged (operation_status 471); the API refuses an ad set that uses it"
                        ),
                    );
                    // An id a variable gave: the finding names where it is used.
                    match request.param("targeting") {
                        Some(param) => request.label_variable_use(param, id_node.span, d),
                        None => d,
                    }
                }
                Origin::Copied(source) => Diagnostic::new(
                    &META,
                    source.span,
                    format!(
                        "ad set {} uses flagged {named} in `{key}`; the API refuses a copy that takes it over",
                        source.text
                    ),
                ),
            };
            out.push(d.with_help(help).with_api_error(100, Some(246_003)));
        }
    }
}

/// The flagged audiences a targeting uses: the key that names each, its id node and text,
/// and its snapshot. Audiences the context does not hold are not judged.
fn flagged<'a>(
    file: &'a FileContext<'_>,
    targeting: &'a crate::loading::Node,
) -> impl Iterator<
    Item = (
        &'static str,
        &'a crate::loading::Node,
        String,
        &'a crate::loading::Node,
    ),
> + 'a {
    targeted_audiences(targeting)
        .into_iter()
        .filter_map(move |(key, id_node)| {
            let id = id_text(id_node)?;
            let audience = crate::apis::advertising::audience(file.context, &id)?;
            (crate::apis::advertising::operation_status(audience) == Some(FLAGGED))
                .then_some((key, id_node, id, audience))
        })
}

/// An update that sets nothing but `status: DELETED`: deleting the ad set is how one is
/// rid of it.
fn only_deletes(request: &crate::model::Request<'_>) -> bool {
    let mut params = request.params();
    let first = params.next();
    params.next().is_none()
        && first.is_some_and(|e| e.key == "status" && e.value.as_str() == Some("DELETED"))
}

#[cfg(test)]
mod tests {
    use crate::testing::{lint, spans};

    const CONTEXT: &str = "custom_audiences:\n  - {id: '71', operation_status: {code: 471}}\n  - {id: '72', operation_status: {code: 200}}\nad_sets:\n  - {id: '901', targeting: {custom_audiences: [{id: '71'}]}}\n  - {id: '902', targeting: {excluded_custom_audiences: [{id: '71'}]}}\n  - {id: '903'}\n";

    fn found(yaml: &str) -> Vec<String> {
        spans("adset-flagged-audience", CONTEXT, yaml)
    }

    #[test]
    fn items_bare_ids_numbers_and_exclusions() {
        let yaml = "request: POST /v24.0/act_1/adsets\nparams:\n  targeting:\n    custom_audiences: [{id: '72'}, '71', 71]\n    excluded_custom_audiences: [{id: 71, name: x}, {id: '99'}]\n";
        assert_eq!(found(yaml), vec!["'71'", "71", "71"]);
    }

    #[test]
    fn an_id_a_variable_gives_is_found_at_its_definition_naming_its_use() {
        let yaml = "x-variables:\n  flagged: '71'\nrequest: POST /v24.0/act_1/adsets\nparams:\n  targeting:\n    custom_audiences: [{id: '{{flagged}}'}, {id: '{{unknown}}'}]\n";
        let found = crate::testing::found("adset-flagged-audience", CONTEXT, yaml);
        assert_eq!(found.len(), 1, "{}", found.len());
        assert_eq!(found[0].at, "'71'");
        assert_eq!(found[0].labels, ["'{{flagged}}'"]);
    }

    #[test]
    fn updates_that_send_targeting() {
        let yaml = "requests:\n  - request: POST /v24.0/903\n    params: {targeting: '{\"custom_audiences\":[{\"id\":71}]}'}\n";
        assert_eq!(found(yaml), vec!["71"]);
    }

    #[test]
    fn every_change_to_an_ad_set_that_uses_a_flagged_audience() {
        // A change that does not touch targeting is refused too; targeting sent without
        // the audience, and a deletion, are not.
        let yaml = "requests:\n  - request: POST /v24.0/901\n    params: {status: PAUSED}\n  - request: POST /v24.0/901\n    params: {name: Renamed}\n  - request: POST /v24.0/901\n    params: {targeting: {custom_audiences: [{id: '72'}]}}\n  - request: POST /v24.0/901\n    params: {status: DELETED}\n  - request: POST /v24.0/903\n    params: {name: Fine}\n";
        let found = lint("adset-flagged-audience", CONTEXT, yaml);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found
                .iter()
                .all(|(m, at)| at == "901" && m.contains("refuses any change"))
        );
    }

    #[test]
    fn copies_take_the_source_targeting() {
        let yaml = "requests:\n  - POST /v24.0/901/copies\n  - POST /v24.0/902/copies\n  - POST /v24.0/903/copies\n  - POST /v24.0/904/copies\n";
        let found = lint("adset-flagged-audience", CONTEXT, yaml);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].1, "901");
        assert!(
            found[1].0.contains("in `excluded_custom_audiences`"),
            "{found:?}"
        );
    }
}

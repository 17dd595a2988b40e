use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::Node;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::FLAGGED;
use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{Origin, id_text, set_by, targeted_audiences, text};

crate::declare_rule! {
    pub struct AdSetAudienceUnusable {
        name: "adset-audience-unusable",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an ad set that uses an expiring or unusable custom audience",
        what: "For an ad set create or update (and for a copy, the source ad set's targeting \
               in the context), looks up every audience of `targeting` (`custom_audiences` and \
               `excluded_custom_audiences`) in the context snapshots and reports one whose \
               `delivery_status.code` is 300 or more (not usable in ads), or whose \
               `operation_status.code` is 100 (expiring). A flagged audience (operation_status \
               471) is `adset-flagged-audience`'s, and an audience the context does not hold \
               is not judged.",
        why: "An audience that is not usable does not deliver (or, excluded, excludes nobody), \
              and an expiring audience has gone unused for two years and is deleted after 90 \
              more unused days: the ad set may not reach the people it was meant for.",
        source: "Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), overview, CustomAudienceStatus (delivery_status \
                 codes) and operation_status codes; Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Targeting rules\"",
        fixes: &[],
        inspects: Inspects::Requests(&[
            Operation::AdSetCreate,
            Operation::AdSetUpdate,
            Operation::AdSetCopy,
        ]),
        bad: example!("adset-audience-unusable/bad.req.yaml"),
        good: example!("adset-audience-unusable/good.req.yaml"),
    }
}

/// operation_status of an audience unused for over two years.
const EXPIRING: i64 = 100;
/// delivery_status codes from here on are not usable in ads.
const NOT_USABLE: i64 = 300;

fn status<'a>(audience: &'a Node, field: &str) -> Option<(i64, Option<&'a str>)> {
    let s = audience.get_value(field)?;
    Some((s.get_value("code")?.as_i64()?, text(s, "description")))
}

/// Why the audience should not be relied on, if it should not.
fn problem(audience: &Node) -> Option<String> {
    if crate::apis::advertising::operation_status(audience) == Some(FLAGGED) {
        return None;
    }
    if let Some((code, description)) =
        status(audience, "delivery_status").filter(|(c, _)| *c >= NOT_USABLE)
    {
        let meaning = description.unwrap_or(if code == NOT_USABLE {
            "smaller than it should be, inactive"
        } else {
            "not usable, for example for a policy violation"
        });
        return Some(format!(
            "is not usable in ads (delivery_status {code}: {meaning})"
        ));
    }
    if let Some((EXPIRING, _)) = status(audience, "operation_status") {
        return Some(
            "is expiring (operation_status 100): unused in an active ad set for over two \
             years, it is deleted after 90 more unused days"
                .into(),
        );
    }
    None
}

impl Rule for AdSetAudienceUnusable {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint, call) = (c.request, c.endpoint, &c.call);

        let Some((targeting, origin)) = set_by(request, endpoint, call, file.context, "targeting")
        else {
            return;
        };
        for (key, id_node) in targeted_audiences(targeting) {
            let Some(id) = id_text(id_node) else { continue };
            let Some(audience) = crate::apis::advertising::audience(file.context, &id) else {
                continue;
            };
            let Some(why) = problem(audience) else {
                continue;
            };
            let named = match text(audience, "name") {
                Some(name) => format!("custom audience {id} ({name})"),
                None => format!("custom audience {id}"),
            };
            let d = match origin {
                Origin::Request => {
                    let d =
                        Diagnostic::new(&META, id_node.span, format!("{named} in `{key}` {why}"));
                    // An id a variable gave: the finding names where it is used.
                    match request.param("targeting") {
                        Some(param) => request.label_variable_use(param, id_node.span, d),
                        None => d,
                    }
                }
                Origin::Copied(source) => Diagnostic::new(
                    &META,
                    source.span,
                    format!("ad set {} has {named} in `{key}`, which {why}", source.text),
                ),
            };
            out.push(d.with_help(
                "check the audience in the audience tool, refresh or rebuild it, or choose \
                 another one",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::lint;

    const CONTEXT: &str = "custom_audiences:\n  - {id: '71', operation_status: {code: 471}, delivery_status: {code: 400}}\n  - {id: '72', operation_status: {code: 100}}\n  - {id: '73', delivery_status: {code: 400}}\n  - {id: '74', operation_status: {code: 100}, delivery_status: {code: 300}}\n  - {id: '75', operation_status: {code: 200}, delivery_status: {code: 200}}\n  - {id: '76', operation_status: {code: 450}}\n";

    #[test]
    fn expiring_and_not_usable_but_not_flagged() {
        let yaml = "request: POST /v24.0/act_1/adsets\nparams:\n  targeting:\n    custom_audiences: [{id: '71'}, {id: '72'}, {id: '73'}, {id: '75'}, {id: '76'}]\n    excluded_custom_audiences: [{id: '74'}]\n";
        let found = lint("adset-audience-unusable", CONTEXT, yaml);
        let texts: Vec<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(texts, vec!["'72'", "'73'", "'74'"]);
        assert!(found[0].0.contains("expiring"), "{found:?}");
        assert!(found[1].0.contains("delivery_status 400"), "{found:?}");
        // Both: the one that stops delivery is told.
        assert!(found[2].0.contains("delivery_status 300"), "{found:?}");
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Entry, Value};
use crate::model::context::Kind;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::adset_geo::{
    context_targeting, eu_place, geo_locations, item_text, normalize,
};
use crate::apis::advertising::{Operation, Sent};

crate::declare_rule! {
    pub struct AdSetDsaNotEu {
        name: "adset-dsa-not-eu",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Info,
        summary: "dsa_payor or dsa_beneficiary on an ad set that targets no EU country",
        what: "For an ad set create or update that sets `dsa_payor` or `dsa_beneficiary`, \
               reads the targeting (the request's, else, for an update, the ad set's in the \
               context) and reports the first of the two keys when \
               `targeting.geo_locations.countries` lists countries and none is in the EU (the \
               member states and the parts of the Union with ISO codes of their own, as for \
               adset-dsa-payor-missing). Targeting whose geo_locations also holds other places \
               (regions, cities, zips, country groups) or a country code that cannot be read \
               is not judged. \
               An update whose body reqlint could not read, or whose query string is a \
               variable whose value is not known, is not judged on the ad set's snapshot: \
               it may send the param (docs/formats.md).",
        why: "The payor and the beneficiary apply only to ad sets that target the EU or \
              associated territories: elsewhere they do nothing, which often means the \
              targeting is not the one that was meant.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Payor and beneficiary\"",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-dsa-not-eu/bad.req.yaml"),
        good: example!("adset-dsa-not-eu/good.req.yaml"),
    }
}

/// Keys of geo_locations that do not name places.
const NOT_PLACES: &[&str] = &["countries", "location_types"];

impl Rule for AdSetDsaNotEu {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint, call) = (c.request, c.endpoint, &c.call);
        let dsa: Vec<&Entry> = ["dsa_payor", "dsa_beneficiary"]
            .iter()
            .filter_map(|p| request.param(p))
            .filter(|e| !matches!(e.value.value, Value::Null))
            .collect();
        let Some(first) = dsa.first() else { return };
        let (targeting, in_request) = match crate::apis::advertising::sent(request, "targeting") {
            Sent::Given(t) => (&t.value, true),
            // An update that surely sends no targeting keeps the ad set's.
            Sent::Absent if endpoint == Operation::AdSetUpdate => {
                let Some(t) = call
                    .object
                    .and_then(|o| file.context.get(Kind::AdSets, &o.text))
                    .and_then(context_targeting)
                else {
                    return;
                };
                (t, false)
            }
            Sent::Absent | Sent::Unknown => return,
        };
        let Some(geo) = geo_locations(targeting) else {
            return;
        };
        let Some(keys) = geo.value.as_map() else {
            return;
        };
        if keys.iter().any(|e| !NOT_PLACES.contains(&e.key.as_str())) {
            return;
        }
        let Some(list) = geo.value.get_value("countries") else {
            return;
        };
        let Some(items) = list.as_seq().filter(|i| !i.is_empty()) else {
            return;
        };
        let Some(codes) = items
            .iter()
            .map(|n| item_text(n).and_then(|t| normalize(&t)))
            .collect::<Option<Vec<&str>>>()
        else {
            return;
        };
        if codes.iter().any(|c| eu_place(c).is_some()) {
            return;
        }
        let shown = if codes.len() > 5 {
            format!("{}, …", codes[..5].join(", "))
        } else {
            codes.join(", ")
        };
        let mut d = Diagnostic::new(
            &META,
            first.key_span,
            format!(
                "{} applies only to ad sets that target the EU; this one targets {shown}",
                first.key
            ),
        )
        .with_help(
            "remove dsa_payor and dsa_beneficiary, or check that the targeting is the one \
             meant",
        );
        if in_request {
            d = d.with_label(list.span, "no EU country");
        }
        if let Some(second) = dsa.get(1) {
            d = d.with_label(second.key_span, "applies only to the EU too");
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use crate::apis::advertising::adset_geo::testing::CONTEXT;
    use crate::testing::{found as lint, spans};

    const RULE: &str = "adset-dsa-not-eu";

    fn create(geo: &str, dsa: &str) -> String {
        format!(
            "request: POST /v24.0/act_1/adsets\nparams:\n  name: x\n  targeting: {{geo_locations: {geo}}}\n{dsa}"
        )
    }

    #[test]
    fn only_when_every_country_is_read_and_outside_the_eu() {
        let both = "  dsa_payor: P\n  dsa_beneficiary: B\n";
        let found = lint(RULE, CONTEXT, &create("{countries: [US, CA]}", both));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].at, "dsa_payor");
        assert_eq!(found[0].labels, ["[US, CA]", "dsa_beneficiary"]);
        assert_eq!(
            spans(
                RULE,
                CONTEXT,
                &create("{countries: [US]}", "  dsa_beneficiary: B\n")
            ),
            ["dsa_beneficiary"]
        );
        for silent in [
            create("{countries: [US, DE]}", both),
            create("{countries: [US, gp]}", both),
            create("{countries: [US, EL]}", both),
            // A code that cannot be read may be anywhere.
            create("{countries: [US, XX]}", both),
            // Cities or regions may be in the EU.
            create("{countries: [US], cities: [{key: '2947453'}]}", both),
            create("{countries: []}", both),
            create("{countries: [US]}", ""),
            create("{countries: [US]}", "  dsa_payor: null\n"),
        ] {
            assert!(spans(RULE, CONTEXT, &silent).is_empty(), "{silent}");
        }
    }

    #[test]
    fn updates_read_the_ad_set_targeting_when_they_do_not_set_it() {
        let update = |id: &str| format!("request: POST /v24.0/{id}\nparams: {{dsa_payor: P}}\n");
        // 13 targets the US (JSON-encoded in the context), 11 the Netherlands.
        assert_eq!(spans(RULE, CONTEXT, &update("13")), ["dsa_payor"]);
        assert!(lint(RULE, CONTEXT, &update("13"))[0].labels.is_empty());
        assert!(spans(RULE, CONTEXT, &update("11")).is_empty());
        assert!(spans(RULE, CONTEXT, &update("77")).is_empty());
        let copy = "request: POST /v24.0/13/copies\nparams: {deep_copy: false}\n";
        assert!(spans(RULE, CONTEXT, copy).is_empty());
    }
}

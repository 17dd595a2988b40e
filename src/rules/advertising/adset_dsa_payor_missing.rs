use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::adset_geo::{DsaField, report_dsa_gaps};

crate::declare_rule! {
    pub struct AdSetDsaPayorMissing {
        name: "adset-dsa-payor-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set that targets the EU without a payor (dsa_payor)",
        what: "For an ad set create, a copy, and an update that sets targeting, whose \
               `targeting.geo_locations.countries` names an EU country (the 27 member states, \
               and Åland, French Guiana, Guadeloupe, Martinique, Mayotte, Réunion and Saint \
               Martin, the parts of the Union with ISO codes of their own; not the overseas \
               countries and territories such as Greenland or New Caledonia; catalog/geo/eu_countries.tsv), \
               reports a missing or blank `dsa_payor` at the first EU country. The ad \
               account's `default_dsa_payor` fills it in: the create's `act_<id>` account, or \
               the `account_id` of the ad set in the context. An update is not reported when \
               the context shows the ad set already has a payor or its account a default; an \
               ad set the context does not hold is judged on the request alone. A copy takes \
               its source's targeting and payor, so it is judged only when the context holds \
               the source ad set (the diagnostic points at its id). Targeting may be a mapping \
               or a JSON-encoded string. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "Since 2023-05-16 ad sets that target the European Union or associated \
              territories must name who pays for their ads, and the name is shown to the \
              people who see them; the API refuses the call with error 100, subcode \
              3858079, and since 2023-08-16 ads without a payor are not published.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), overview, \"Payor and beneficiary\" and \
                 \"Errors\" (3858079)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("adset-dsa-payor-missing/bad.req.yaml"),
        good: example!("adset-dsa-payor-missing/good.req.yaml"),
    }
}

impl Rule for AdSetDsaPayorMissing {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        report_dsa_gaps(&META, DsaField::Payor, file, out);
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::adset_geo::{DsaField, report_dsa_gaps};

crate::declare_rule! {
    pub struct AdSetDsaBeneficiaryMissing {
        name: "adset-dsa-beneficiary-missing",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set that targets the EU without a beneficiary (dsa_beneficiary)",
        what: "For an ad set create, a copy, and an update that sets targeting, whose \
               `targeting.geo_locations.countries` names an EU country (the member states and \
               the parts of the Union with ISO codes of their own, as for \
               adset-dsa-payor-missing), reports a missing or blank `dsa_beneficiary` at the \
               first EU country. The ad account's `default_dsa_beneficiary` fills it in (the \
               create's `act_<id>` account, or the `account_id` of the ad set in the context), \
               never `dsa_payor`: a create that names only a payor, in an account without a \
               default beneficiary, is reported. An update is not reported when the context \
               shows the ad set already has a beneficiary or its account a default; a copy is \
               judged only when the context holds its source ad set. \
               Nothing is reported missing where the request may send params reqlint \
               cannot see: a body it could not read or that is one variable, a query \
               string that is a variable whose value is not known (docs/formats.md).",
        why: "Since 2023-05-16 ad sets that target the European Union or associated \
              territories must name who benefits from their ads, shown to the people who see \
              them; the API refuses the call with error 100, subcode 3858081, and since \
              2023-08-16 ads without a beneficiary are not published.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), overview, \"Payor and beneficiary\" and \
                 \"Errors\" (3858081)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("adset-dsa-beneficiary-missing/bad.req.yaml"),
        good: example!("adset-dsa-beneficiary-missing/good.req.yaml"),
    }
}

impl Rule for AdSetDsaBeneficiaryMissing {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        report_dsa_gaps(&META, DsaField::Beneficiary, file, out);
    }
}

//! What the ad set rules of group A share: the country tables (`catalog/geo/`:
//! ISO and EU), readers of `targeting.geo_locations`, and the payor and
//! beneficiary check (dsa_payor and dsa_beneficiary in Meta's Marketing API reference
//! for ad sets, https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/).

use std::borrow::Cow;

use crate::diagnostic::Diagnostic;
use crate::loading::{Entry, Node, Span, Value};
use crate::model::Request;
use crate::model::context::Kind;
use crate::model::file::FileContext;
use crate::suggest::did_you_mean;

use super::Operation;

pub use crate::catalog::geo::{COUNTRIES, Country, EU, EuPlace, country, eu_place_of};

/// Why a code that is not an alpha-2 code stands for one, and which.
#[derive(Debug, PartialEq)]
pub enum Fix {
    /// `de` for `DE`.
    Case(&'static str),
    /// A code in common use that is not the ISO one: `UK` for `GB`, `EL` for `GR`.
    Alias(&'static str, &'static str),
    /// The alpha-3 code (`DEU`) or the name (`Germany`) of a country.
    Spelled(&'static str, &'static str),
    /// A close alpha-2 code, by edit distance.
    Similar(&'static str),
}

/// Codes people write for a country that ISO 3166-1 names otherwise.
const ALIASES: &[(&str, &str, &str)] = &[
    (
        "UK",
        "GB",
        "the United Kingdom's ISO 3166-1 code is GB, not UK",
    ),
    (
        "EL",
        "GR",
        "Greece's ISO 3166-1 code is GR (EL is the EU's own abbreviation)",
    ),
];

/// What a code that is not an ISO 3166-1 alpha-2 code most likely stands for.
pub fn suggest(code: &str) -> Option<Fix> {
    let upper = code.trim().to_uppercase();
    if let Some(&(_, to, why)) = ALIASES.iter().find(|(from, _, _)| *from == upper) {
        return Some(Fix::Alias(to, why));
    }
    if let Some(c) = country(&upper) {
        return Some(Fix::Case(c.alpha2.as_str()));
    }
    let lower = code.trim().to_lowercase();
    if let Some(c) = COUNTRIES
        .iter()
        .find(|c| c.alpha3.as_str() == upper || c.name.to_lowercase() == lower)
    {
        return Some(Fix::Spelled(c.alpha2.as_str(), c.name.as_str()));
    }
    did_you_mean(code, COUNTRIES.iter().map(|c| c.alpha2.as_str())).map(Fix::Similar)
}

/// The alpha-2 code a written code stands for beyond doubt: itself, or with a case,
/// alias, alpha-3 or name fix. Not a mere similar code.
pub fn normalize(code: &str) -> Option<&'static str> {
    if let Some(c) = country(code) {
        return Some(c.alpha2.as_str());
    }
    match suggest(code)? {
        Fix::Case(c) | Fix::Alias(c, _) | Fix::Spelled(c, _) => Some(c),
        Fix::Similar(_) => None,
    }
}

/// The EU place a written code stands for.
pub fn eu_place(code: &str) -> Option<&'static EuPlace> {
    // Asked for every country an ad set targets, by several rules: most are written as
    // their code, which the tables find by its letters.
    if country(code).is_some() {
        return eu_place_of(code);
    }
    eu_place_of(normalize(code)?)
}

/// The text of a country item as written: a scalar's text (a number or boolean too).
pub fn item_text(node: &Node) -> Option<Cow<'_, str>> {
    match node.value {
        Value::Null | Value::Seq(_) | Value::Map(_) => None,
        _ => node.scalar_text(),
    }
}

/// `geo_locations` of a targeting value (a mapping or a JSON-encoded string).
pub fn geo_locations(targeting: &Node) -> Option<&Entry> {
    targeting.resolved().get("geo_locations")
}

/// The items of `targeting.geo_locations.countries`, when it is a list.
pub fn countries(targeting: &Node) -> Option<&[Node]> {
    geo_locations(targeting)?
        .value
        .get_value("countries")?
        .as_seq()
}

/// The targeting of an ad set in the context: a mapping, or a JSON-encoded string as a
/// form-encoded request sends it, which the snapshot loader decoded. A string that did
/// not decode reads as no targeting.
pub fn context_targeting(ad_set: &Node) -> Option<&Node> {
    let targeting = ad_set.get_value("targeting")?.resolved();
    let undecoded =
        matches!(&targeting.value, Value::String(text) if text.trim_start().starts_with('{'));
    (!undecoded).then_some(targeting)
}

/// The first country of a list that is in the EU, with its place.
pub fn first_eu(countries: &[Node]) -> Option<(&Node, &'static EuPlace)> {
    countries
        .iter()
        .find_map(|n| Some((n, eu_place(&item_text(n)?)?)))
}

/// How a message names an EU place: `the EU (DE)`, `the EU (RE, Réunion)`.
pub fn describe(place: &EuPlace) -> String {
    if place.member {
        format!("the EU ({})", place.code)
    } else {
        format!("the EU ({}, {})", place.code, place.name)
    }
}

/// A value that names someone: a string that is not blank.
fn names(node: Option<&Node>) -> bool {
    node.and_then(Node::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

/// The payor or the beneficiary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DsaField {
    Payor,
    Beneficiary,
}

impl DsaField {
    /// The ad set param and field.
    pub fn param(self) -> &'static str {
        match self {
            DsaField::Payor => "dsa_payor",
            DsaField::Beneficiary => "dsa_beneficiary",
        }
    }

    /// The ad account's default.
    pub fn default_field(self) -> &'static str {
        match self {
            DsaField::Payor => "default_dsa_payor",
            DsaField::Beneficiary => "default_dsa_beneficiary",
        }
    }

    /// The error_subcode of code 100 when it is missing (the reference's errors).
    pub fn subcode(self) -> u32 {
        match self {
            DsaField::Payor => 3_858_079,
            DsaField::Beneficiary => 3_858_081,
        }
    }
}

/// A payor or beneficiary that an ad set in the EU would lack.
#[derive(Debug)]
pub struct DsaGap {
    pub span: Span,
    pub message: String,
    pub help: String,
    pub labels: Vec<(Span, String)>,
}

/// Whether an ad account (by id, `act_` or not) has the default of `field`; `None` when
/// the context does not hold the account.
fn account_default(file: &FileContext<'_>, id: Option<&str>, field: DsaField) -> Option<bool> {
    let account = super::account(file.context, id?)?;
    Some(names(account.get_value(field.default_field())))
}

/// The ad set param `field` of a request: whether it names someone, or may (a body that
/// could not be read may hold it), and its value when it is there at all (blank or null
/// included).
fn given<'r>(request: &'r Request<'_>, field: DsaField) -> (bool, Option<&'r Node>) {
    match super::sent(request, field.param()) {
        super::Sent::Given(e) => (names(Some(&e.value)), Some(&e.value)),
        super::Sent::Absent => (false, None),
        super::Sent::Unknown => (true, None),
    }
}

/// Every create, copy and targeting update of an ad set in the EU that lacks `field` after
/// the ad account's default (`default_dsa_payor`, `default_dsa_beneficiary`) fills in.
pub fn dsa_gaps(file: &FileContext<'_>, field: DsaField) -> Vec<DsaGap> {
    let param = field.param();
    let default = field.default_field();
    let mut gaps = Vec::new();
    for (request, endpoint, call) in super::calls(file) {
        match endpoint {
            Operation::AdSetCreate => {
                let Some(targeting) = request.param("targeting") else {
                    continue;
                };
                let Some((country, place)) = countries(&targeting.value).and_then(first_eu) else {
                    continue;
                };
                let (named, value) = given(request, field);
                let account = call.account.map(|a| a.text.as_str());
                let has_default = account_default(file, account, field);
                if named || has_default == Some(true) {
                    continue;
                }
                let mut labels = Vec::new();
                if let Some(v) = value {
                    labels.push((v.span, format!("{param} is blank")));
                }
                if let (Some(a), Some(false)) = (call.account, has_default) {
                    labels.push((a.span, format!("ad account {} has no {default}", a.text)));
                }
                let mut help = format!("add {param}, or set {default} on the ad account");
                if field == DsaField::Beneficiary
                    && names(request.param("dsa_payor").map(|e| &e.value))
                {
                    help.push_str(
                        " (the beneficiary is never taken from dsa_payor: it comes from the \
                         account's default_dsa_beneficiary)",
                    );
                }
                gaps.push(DsaGap {
                    span: country.span,
                    message: format!("ad set targets {} but names no {param}", describe(place)),
                    help,
                    labels,
                });
            }
            Operation::AdSetUpdate => {
                let Some(targeting) = request.param("targeting") else {
                    continue;
                };
                let Some((country, place)) = countries(&targeting.value).and_then(first_eu) else {
                    continue;
                };
                let (named, value) = given(request, field);
                if named {
                    continue;
                }
                let id = call.object.map(|o| o.text.as_str());
                let ad_set = id.and_then(|id| file.context.get(Kind::AdSets, id));
                if ad_set.is_some_and(|s| names(s.get_value(param))) {
                    continue;
                }
                let account = ad_set
                    .and_then(|s| s.get_value("account_id"))
                    .and_then(Node::scalar_text);
                if account_default(file, account.as_deref(), field) == Some(true) {
                    continue;
                }
                let mut labels = Vec::new();
                if let Some(v) = value {
                    labels.push((v.span, format!("{param} is blank")));
                }
                if let (Some(o), Some(_)) = (call.object, ad_set) {
                    labels.push((o.span, format!("ad set {} has no {param}", o.text)));
                }
                gaps.push(DsaGap {
                    span: country.span,
                    message: format!(
                        "targeting update reaches {} but the ad set names no {param}",
                        describe(place)
                    ),
                    help: format!(
                        "add {param} to the update, or set {default} on the ad set's ad account"
                    ),
                    labels,
                });
            }
            Operation::AdSetCopy => {
                // The copy takes its source's targeting and payor and beneficiary: only the
                // context can tell them.
                let Some(source) = call.object else { continue };
                let Some(ad_set) = file.context.get(Kind::AdSets, &source.text) else {
                    continue;
                };
                let Some(targeting) = context_targeting(ad_set) else {
                    continue;
                };
                let Some((_, place)) = countries(targeting).and_then(first_eu) else {
                    continue;
                };
                if names(ad_set.get_value(param)) {
                    continue;
                }
                let account = ad_set.get_value("account_id").and_then(Node::scalar_text);
                if account_default(file, account.as_deref(), field) == Some(true) {
                    continue;
                }
                gaps.push(DsaGap {
                    span: source.span,
                    message: format!(
                        "ad set {} targets {} but has no {param}, so its copy names none",
                        source.text,
                        describe(place)
                    ),
                    help: format!(
                        "set {param} on ad set {} before copying it, or set {default} on its ad account",
                        source.text
                    ),
                    labels: Vec::new(),
                });
            }
            _ => {}
        }
    }
    gaps
}

/// Reports the gaps of `field` as diagnostics of `meta`'s rule, with the API's error.
pub fn report_dsa_gaps(
    meta: &'static (impl crate::diagnostic::Reporter + Sync),
    field: DsaField,
    file: &FileContext<'_>,
    out: &mut Vec<Diagnostic>,
) {
    for gap in dsa_gaps(file, field) {
        let mut d = Diagnostic::new(meta, gap.span, gap.message)
            .with_help(gap.help)
            .with_api_error(100, Some(field.subcode()));
        for (span, label) in gap.labels {
            d = d.with_label(span, label);
        }
        out.push(d);
    }
}

/// The context snapshot that group A's unit tests lint with.
#[cfg(test)]
pub mod testing {
    /// The context of the tests: accounts with both defaults (1), none (2), a payor
    /// only (3); ad sets in the EU without (11) and with (12) payor and beneficiary, and
    /// outside the EU (13, its targeting JSON-encoded); in an account with both defaults
    /// (14); in the EU, JSON-encoded, without payor and beneficiary (15).
    pub const CONTEXT: &str = "ad_accounts:
  - {id: act_1, default_dsa_payor: P, default_dsa_beneficiary: B}
  - {id: act_2}
  - {id: act_3, default_dsa_payor: P}
ad_sets:
  - {id: '11', account_id: '2', targeting: {geo_locations: {countries: [NL]}}}
  - {id: '12', account_id: '2', targeting: {geo_locations: {countries: [NL]}}, dsa_payor: P, dsa_beneficiary: B}
  - {id: '13', account_id: '2', targeting: '{\"geo_locations\":{\"countries\":[\"US\"]}}'}
  - {id: '14', account_id: '1', targeting: {geo_locations: {countries: [FR]}}}
  - {id: '15', account_id: '2', targeting: '{\"geo_locations\":{\"countries\":[\"PT\"]}}'}
";
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::testing::CONTEXT;
    use crate::testing::{found as lint, spans};

    const PAYOR: &str = "adset-dsa-payor-missing";
    const BENEFICIARY: &str = "adset-dsa-beneficiary-missing";

    /// The search finds the row the table holds for every code, and none for a code
    /// outside the EU.
    #[test]
    fn eu_place_finds_the_table_s_row() {
        for country in COUNTRIES {
            let code = country.alpha2.as_str();
            let row = EU.iter().find(|p| p.code == code);
            assert_eq!(
                eu_place(code).map(|p| p.code.as_str()),
                row.map(|p| p.code.as_str())
            );
            assert_eq!(eu_place(code).map(|p| p.member), row.map(|p| p.member));
        }
        assert!(
            EU.iter()
                .all(|p| eu_place(p.code.as_str()).is_some_and(|f| std::ptr::eq(f, p)))
        );
        assert_eq!(eu_place("de").map(|p| p.code.as_str()), Some("DE"));
        assert!(eu_place("US").is_none());
    }

    fn create(account: &str, extra: &str) -> String {
        format!(
            "request: POST /v24.0/act_{account}/adsets\nparams:\n  name: x\n  targeting: {{geo_locations: {{countries: [US, DE, FR]}}}}\n{extra}"
        )
    }

    #[test]
    fn account_defaults_fill_in_at_create() {
        for (account, extra, payor, beneficiary) in [
            ("1", "", 0, 0),
            ("2", "", 1, 1),
            ("9", "", 1, 1),
            ("3", "", 0, 1),
            // Only a payor: the beneficiary is not taken from it.
            ("2", "  dsa_payor: P\n", 0, 1),
            ("3", "  dsa_payor: P\n", 0, 1),
            ("2", "  dsa_beneficiary: B\n", 1, 0),
            ("2", "  dsa_payor: P\n  dsa_beneficiary: B\n", 0, 0),
        ] {
            let yaml = create(account, extra);
            assert_eq!(spans(PAYOR, CONTEXT, &yaml).len(), payor, "{yaml}");
            assert_eq!(
                spans(BENEFICIARY, CONTEXT, &yaml).len(),
                beneficiary,
                "{yaml}"
            );
        }
    }

    #[test]
    fn points_at_the_first_eu_country_and_names_the_gap() {
        let found = lint(BENEFICIARY, CONTEXT, &create("3", "  dsa_payor: P\n"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].at, "DE");
        assert_eq!(
            found[0].message,
            "ad set targets the EU (DE) but names no dsa_beneficiary"
        );
        assert_eq!(found[0].labels, ["act_3"]);
        assert!(found[0].help.contains("never taken from dsa_payor"));
        // Unknown account: no label about it.
        let found = lint(PAYOR, CONTEXT, &create("9", ""));
        assert!(found[0].labels.is_empty());
        assert_eq!(
            found[0].help,
            "add dsa_payor, or set default_dsa_payor on the ad account"
        );
    }

    #[test]
    fn blank_values_territories_case_and_encoded_targeting() {
        let yaml = "request: POST /v24.0/act_2/adsets\nparams:\n  name: x\n  targeting: '{\"geo_locations\":{\"countries\":[\"US\",\"re\"]}}'\n  dsa_payor: ' '\n  dsa_beneficiary: null\n";
        let found = lint(PAYOR, CONTEXT, yaml);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].at, "\"re\"");
        assert_eq!(
            found[0].message,
            "ad set targets the EU (RE, Réunion) but names no dsa_payor"
        );
        assert!(found[0].labels.contains(&"' '".to_string()));
        assert_eq!(spans(BENEFICIARY, CONTEXT, yaml), ["\"re\""]);
        // EL is Greece; outside the EU, nothing is required.
        let el = create("2", "").replace("[US, DE, FR]", "[EL]");
        assert_eq!(spans(PAYOR, CONTEXT, &el), ["EL"]);
        let out = create("2", "").replace("[US, DE, FR]", "[US, NO, CH, GL, GB]");
        assert!(
            spans(PAYOR, CONTEXT, &out).is_empty() && spans(BENEFICIARY, CONTEXT, &out).is_empty()
        );
        // No targeting, or targeting that is not a mapping: nothing to judge here.
        let none = "request: POST /v24.0/act_2/adsets\nparams: {name: x}\n";
        assert!(spans(PAYOR, CONTEXT, none).is_empty());
    }

    #[test]
    fn updates_use_the_ad_set_and_its_account() {
        let update = |id: &str, extra: &str| {
            format!(
                "request: POST /v24.0/{id}\nobject: ad_set\nparams:\n  targeting: {{geo_locations: {{countries: [IT]}}}}\n{extra}"
            )
        };
        // The ad set has no payor and its account no default.
        assert_eq!(spans(PAYOR, CONTEXT, &update("11", "")), ["IT"]);
        assert_eq!(lint(PAYOR, CONTEXT, &update("11", ""))[0].labels, ["11"]);
        assert!(spans(PAYOR, CONTEXT, &update("11", "  dsa_payor: P\n")).is_empty());
        // It has both already.
        assert!(spans(PAYOR, CONTEXT, &update("12", "")).is_empty());
        assert!(spans(BENEFICIARY, CONTEXT, &update("12", "")).is_empty());
        // Its account has both defaults.
        assert!(spans(PAYOR, CONTEXT, &update("14", "")).is_empty());
        // An ad set the context does not hold: only the request tells.
        assert_eq!(spans(BENEFICIARY, CONTEXT, &update("77", "")), ["IT"]);
        assert!(
            spans(
                BENEFICIARY,
                CONTEXT,
                &update("77", "  dsa_beneficiary: B\n")
            )
            .is_empty()
        );
        // An update that does not set targeting is not judged.
        let no_targeting = "request: POST /v24.0/11\nparams: {name: y}\n";
        assert!(spans(PAYOR, CONTEXT, no_targeting).is_empty());
    }

    #[test]
    fn copies_take_their_source() {
        let copy =
            |id: &str| format!("request: POST /v24.0/{id}/copies\nparams: {{deep_copy: false}}\n");
        let found = lint(PAYOR, CONTEXT, &copy("11"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].at, "11");
        assert!(
            found[0].message.contains("the EU (NL)"),
            "{}",
            found[0].message
        );
        assert_eq!(spans(BENEFICIARY, CONTEXT, &copy("11")), ["11"]);
        assert_eq!(spans(PAYOR, CONTEXT, &copy("15")), ["15"]);
        for silent in ["12", "13", "14", "77"] {
            assert!(spans(PAYOR, CONTEXT, &copy(silent)).is_empty(), "{silent}");
            assert!(
                spans(BENEFICIARY, CONTEXT, &copy(silent)).is_empty(),
                "{silent}"
            );
        }
    }

    #[test]
    fn iso_table_holds_the_249_official_codes() {
        let official: Vec<&Country> = COUNTRIES.iter().filter(|c| c.official).collect();
        assert_eq!(official.len(), 249);
        let mut seen = std::collections::HashSet::new();
        for c in COUNTRIES.iter() {
            assert!(seen.insert(c.alpha2), "{} twice", c.alpha2);
            assert!(
                c.alpha2.len() == 2 && c.alpha2.bytes().all(|b| b.is_ascii_uppercase()),
                "{}",
                c.alpha2
            );
            assert!(c.alpha3.len() == 3 && !c.name.is_empty(), "{}", c.alpha2);
        }
        for code in ["GB", "GR", "DE", "US", "AX", "RE", "MF"] {
            assert!(country(code).is_some_and(|c| c.official), "{code}");
        }
        for code in ["UK", "EL", "EU", "IC", "EA"] {
            assert!(country(code).is_none(), "{code}");
        }
    }

    #[test]
    fn eu_table_holds_27_members_and_coded_territories() {
        let members: Vec<&str> = EU
            .iter()
            .filter(|p| p.member)
            .map(|p| p.code.as_str())
            .collect();
        assert_eq!(members.len(), 27);
        let territories: Vec<&str> = EU
            .iter()
            .filter(|p| !p.member)
            .map(|p| p.code.as_str())
            .collect();
        assert_eq!(territories, ["AX", "GF", "GP", "MQ", "RE", "MF", "YT"]);
        for p in EU.iter() {
            let c = country(&p.code).unwrap_or_else(|| panic!("{} is not ISO", p.code));
            assert!(c.official);
            assert_eq!(c.name, p.name, "{}", p.code);
        }
        // Associated with the Union but not part of it, or outside it.
        for code in [
            "GL", "NC", "PF", "BL", "FO", "GI", "NO", "IS", "LI", "CH", "GB",
        ] {
            assert!(eu_place(code).is_none(), "{code}");
        }
    }

    /// The error subcodes of Meta's Marketing API reference for ad sets
    /// (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/): code
    /// 100 with 3858079 when dsa_payor is missing, 3858081 when dsa_beneficiary is.
    #[test]
    fn subcodes_are_the_references() {
        assert_eq!(DsaField::Payor.subcode(), 3_858_079);
        assert_eq!(DsaField::Beneficiary.subcode(), 3_858_081);
    }

    /// The list of countries whose minimum budgets double (the budget table,
    /// catalog/advertising/adset_budget_minimums.yaml) names EU members and others: each
    /// must be an ISO country of the table, and in the EU table exactly when it is a
    /// member state.
    #[test]
    fn tables_agree_with_each_other() {
        let eu_names = [
            "Austria",
            "Belgium",
            "Denmark",
            "Finland",
            "France",
            "Germany",
            "Greece",
            "Italy",
            "Netherlands",
            "Spain",
            "Sweden",
        ];
        let doubled = &crate::catalog::advertising::DOUBLED_COUNTRIES;
        assert_eq!(doubled.len(), 24);
        for (code, name) in doubled {
            let (code, name) = (code.as_str(), name.as_str());
            let c = country(code).unwrap_or_else(|| panic!("{code} is not in iso_countries.tsv"));
            assert!(c.official, "{code}");
            let member = eu_place(code).is_some_and(|p| p.member);
            assert_eq!(member, eu_names.contains(&name), "{name}");
            assert_eq!(eu_place(code).is_some(), member, "{name}: a territory?");
        }
        assert_eq!(
            doubled
                .iter()
                .filter(|(c, _)| eu_place(c).is_some())
                .count(),
            eu_names.len()
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("UK"), Some(Fix::Alias("GB", ALIASES[0].2)));
        assert_eq!(suggest("el"), Some(Fix::Alias("GR", ALIASES[1].2)));
        assert_eq!(suggest("de"), Some(Fix::Case("DE")));
        assert_eq!(suggest("DEU"), Some(Fix::Spelled("DE", "Germany")));
        assert_eq!(suggest("germany"), Some(Fix::Spelled("DE", "Germany")));
        assert_eq!(suggest("DEE"), Some(Fix::Similar("DE")));
        assert_eq!(suggest("QQ"), None);
        assert_eq!(normalize("DEE"), None);
        assert_eq!(normalize("fr"), Some("FR"));
        assert!(eu_place("EL").is_some_and(|p| p.code == "GR"));
        assert!(eu_place("re").is_some_and(|p| !p.member));
        assert!(eu_place("US").is_none());
    }
}

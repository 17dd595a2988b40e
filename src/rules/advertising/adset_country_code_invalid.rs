use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_geo::{Fix, country, item_text, suggest};
use crate::apis::advertising::values::is_placeholder;

crate::declare_rule! {
    pub struct AdSetCountryCodeInvalid {
        name: "adset-country-code-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "a targeted country that is not an ISO 3166-1 alpha-2 code",
        what: "For an ad set create or update, checks every item of \
               `targeting.geo_locations.countries` and `targeting.excluded_geo_locations.countries` \
               against the 249 officially assigned ISO 3166-1 alpha-2 codes (catalog/geo/iso_countries.tsv; \
               XK, Kosovo, a user-assigned code the API takes, is not reported). The help \
               names the code meant where it is clear: GB for UK, GR for EL, DE for `de`, \
               `DEU` or `Germany`, else a close code.",
        why: "The API reads countries as ISO 3166-1 alpha-2 codes and answers error 100 \
              (invalid parameter) for any other value; UK and EL in particular are common \
              abbreviations that are not ISO codes.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Create an ad set (targeting: geo_locations \
                 {countries: list<string>}) and Update an ad set",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "a country code in lower case is written in capitals, an alias becomes the code it stands for (`UK` → `GB`), a country written by name its code (`Germany` → `DE`), also inside a JSON-encoded targeting",
        }],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-country-code-invalid/bad.req.yaml"),
        good: example!("adset-country-code-invalid/good.req.yaml"),
    }
}

/// The lists of countries inside targeting.
const LISTS: &[&str] = &["geo_locations", "excluded_geo_locations"];

impl Rule for AdSetCountryCodeInvalid {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let request = c.request;
        let Some(param) = request.param("targeting") else {
            return;
        };
        let targeting = param.value.resolved();
        for list in LISTS {
            let Some(items) = targeting
                .get_value(list)
                .and_then(|g| g.get_value("countries"))
                .and_then(|c| c.as_seq())
            else {
                continue;
            };
            for item in items {
                let Some(code) = item_text(item).filter(|_| !is_placeholder(item)) else {
                    continue;
                };
                if country(&code).is_some() {
                    continue;
                }
                let suggestion = suggest(&code);
                // The code in capitals, the one an alias stands for, the code of a country
                // written by name: one right answer each.
                let fixed = match &suggestion {
                    Some(Fix::Case(c)) | Some(Fix::Alias(c, _)) | Some(Fix::Spelled(c, _)) => {
                        crate::model::edits::rename(
                            file.text,
                            item.span,
                            &code,
                            c,
                            crate::diagnostic::Applicability::Safe,
                        )
                    }
                    _ => None,
                };
                let fixed = crate::model::edits::written_once_fix(file, fixed);
                let help = match suggestion {
                    Some(Fix::Case(c)) => format!("write it in capitals: {c}"),
                    Some(Fix::Alias(c, why)) => format!("use {c}: {why}"),
                    Some(Fix::Spelled(c, name)) => {
                        format!("use {c}, the alpha-2 code of {name}")
                    }
                    Some(Fix::Similar(c)) => format!("did you mean {c}?"),
                    None => "use a two-letter ISO 3166-1 code, such as DE or US".into(),
                };
                let finding = Diagnostic::new(
                    &META,
                    item.span,
                    format!(
                        "`{code}` is not an ISO 3166-1 alpha-2 country code, which the \
                         API requires"
                    ),
                )
                .with_help(help)
                .with_api_error(100, None)
                .with_fix_opt(fixed);
                out.push(request.label_variable_use(param, item.span, finding));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::apis::advertising::adset_geo::testing::CONTEXT;
    use crate::testing::found as lint;

    const RULE: &str = "adset-country-code-invalid";

    #[test]
    fn every_wrong_code_with_the_fix_meant() {
        let yaml = "request: POST /v24.0/act_1/adsets\nparams:\n  name: x\n  targeting:\n    geo_locations: {countries: [UK, EL, de, DEU, Germany, DEE, QQ, 12, XK, US]}\n    excluded_geo_locations: {countries: [uk]}\n";
        let found = lint(RULE, CONTEXT, yaml);
        let got: Vec<(&str, &str)> = found
            .iter()
            .map(|f| (f.at.as_str(), f.help.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "UK",
                    "use GB: the United Kingdom's ISO 3166-1 code is GB, not UK"
                ),
                (
                    "EL",
                    "use GR: Greece's ISO 3166-1 code is GR (EL is the EU's own abbreviation)"
                ),
                ("de", "write it in capitals: DE"),
                ("DEU", "use DE, the alpha-2 code of Germany"),
                ("Germany", "use DE, the alpha-2 code of Germany"),
                ("DEE", "did you mean DE?"),
                ("QQ", "use a two-letter ISO 3166-1 code, such as DE or US"),
                ("12", "use a two-letter ISO 3166-1 code, such as DE or US"),
                (
                    "uk",
                    "use GB: the United Kingdom's ISO 3166-1 code is GB, not UK"
                ),
            ]
        );
        assert_eq!(
            found[0].message,
            "`UK` is not an ISO 3166-1 alpha-2 country code, which the API requires"
        );
    }

    #[test]
    fn a_variable_is_judged_at_its_definition_naming_its_use_without_a_fix() {
        let yaml = "x-variables:\n  home: de\n  far: USA\nrequest: POST /v24.0/act_1/adsets\nparams:\n  name: x\n  targeting:\n    geo_locations: {countries: ['{{home}}', 'x{{far}}', '{{nowhere}}']}\n";
        let found = lint(RULE, CONTEXT, yaml);
        let got: Vec<(&str, &[String])> = found
            .iter()
            .map(|f| (f.at.as_str(), f.labels.as_slice()))
            .collect();
        assert_eq!(
            got,
            [
                ("de", &["'{{home}}'".to_string()][..]),
                ("'x{{far}}'", &[][..]),
            ]
        );
        assert_eq!(
            found[1].message,
            "`xUSA` is not an ISO 3166-1 alpha-2 country code, which the API requires"
        );
        let fixes = crate::testing::diagnostics(
            RULE,
            crate::model::config::Config::defaults(std::path::PathBuf::from(".")),
            CONTEXT,
            yaml,
        );
        assert!(fixes.iter().all(|d| d.fix.is_none()));
    }

    #[test]
    fn updates_and_encoded_targeting_too() {
        let update = "request: POST /v24.0/11\nparams:\n  targeting: '{\"geo_locations\":{\"countries\":[\"UK\"]}}'\n";
        let found = lint(RULE, CONTEXT, update);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].at, "\"UK\"");
        // A copy takes no targeting.
        let copy = "request: POST /v24.0/11/copies\nparams: {deep_copy: false}\n";
        assert!(lint(RULE, CONTEXT, copy).is_empty());
    }
}

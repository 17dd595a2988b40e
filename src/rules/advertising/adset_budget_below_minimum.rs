use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Span};
use crate::model::Request;
use crate::model::context::Kind;
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::{Operation, Sent, params};

crate::declare_rule! {
    pub struct AdSetBudgetBelowMinimum {
        name: "adset-budget-below-minimum",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an ad set's `daily_budget` is below the minimum daily budget",
        what: "For an ad set create, and for an update that changes `daily_budget`, compares \
               the daily budget with the reference's minimum daily budget table \
               (catalog/advertising/adset_budget_minimums.yaml): under \
               LOWEST_COST_WITHOUT_CAP, USD 0.50 billed on IMPRESSIONS and USD 2.50 billed on \
               clicks, likes or video views (CLICKS, LINK_CLICKS, PAGE_LIKES, THRUPLAY); under \
               LOWEST_COST_WITH_BID_CAP, one times `bid_amount` billed on IMPRESSIONS and five \
               times `bid_amount` billed on clicks or actions. The minimums are doubled for ad \
               accounts whose `business_country_code` is one of the reference's countries (AU, AT, \
               BE, CA, DK, FI, FR, DE, GR, HK, IL, IT, JP, NL, NZ, NO, SG, KR, ES, SE, CH, TW, \
               GB, US). The ad account comes from the path (create) or from the context's ad \
               set `account_id` (update); `bid_strategy`, `billing_event` and `bid_amount` \
               from the request, else from the context's ad set. The budget is in the account \
               currency's minor unit (cents of USD): USD minimums are judged for USD accounts, \
               and for other accounts only where `advertising.currency-rates` in .reqlint.yaml \
               gives the rate (for example `{EUR: 0.92}`). Not judged: an account the context \
               does not hold, COST_CAP and LOWEST_COST_WITH_MIN_ROAS (no row), billing events \
               the reference does not place in a row (NONE; POST_ENGAGEMENT, APP_INSTALLS, \
               OFFER_CLAIMS, PURCHASE and LISTING_INTERACTION under LOWEST_COST_WITHOUT_CAP, \
               whose \"Low-frequency Actions\" the reference does not define). The reference does not \
               show what quantity the bid-cap multiples apply to; the rule takes `daily_budget`. \
               An update whose body reqlint could not read, or whose query string is a \
               variable whose value is not known, is not judged on the ad set's snapshot: \
               it may send the param (docs/formats.md).",
        why: "Since version 2.4 ad sets have a minimum budget, and budget changes must respect \
              it: the API refuses a smaller daily budget with error 100.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Limits\" (minimum daily budget, doubled countries), \"Endpoints\": \
                 Update an ad set, and \"Versioning\"",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate]),
        bad: example!("adset-budget-below-minimum/bad.req.yaml"),
        good: example!("adset-budget-below-minimum/good.req.yaml"),
    }
}

/// A row's minimum, before doubling.
pub use crate::catalog::advertising::{Minimum, MinimumRow as Row};
use crate::catalog::advertising::{currency_unit, is_doubled_country, minimum_row};

/// A field of the ad set: the request's param, else the context's ad set field.
struct Field<'a> {
    node: &'a Node,
    /// Written in this request (a span to label), not read from the context.
    in_request: bool,
}

/// A field the ad set will have: the request's, else (an update that surely does not
/// send it) the ad set's in the context.
fn field<'a>(request: &'a Request<'a>, ad_set: Option<&'a Node>, name: &str) -> Option<Field<'a>> {
    match crate::apis::advertising::sent(request, name) {
        Sent::Given(e) => Some(Field {
            node: &e.value,
            in_request: true,
        }),
        Sent::Absent => ad_set?.get_value(name).map(|node| Field {
            node,
            in_request: false,
        }),
        Sent::Unknown => None,
    }
}

fn integer(node: &Node) -> Option<i64> {
    params::integer(node)?.ok()
}

/// `1234` in a currency of `unit` budget units: `USD 12.34`, `JPY 1234`.
fn money(amount: i64, currency: &str, unit: Option<i64>) -> String {
    match unit {
        Some(100) => format!("{currency} {}.{:02}", amount / 100, amount % 100),
        Some(1) => format!("{currency} {amount}"),
        _ => format!("{amount} in {currency}'s budget unit"),
    }
}

/// What the minimum is in the account's budget units, and how it was found.
struct Judged {
    minimum: i64,
    /// "about": converted with a configured rate.
    approximate: bool,
    how: String,
}

impl Rule for AdSetBudgetBelowMinimum {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, endpoint, call) = (c.request, c.endpoint, &c.call);

        let (account_id, ad_set) = match endpoint {
            Operation::AdSetCreate => match call.account {
                Some(a) => (a.text.to_string(), None),
                None => return,
            },
            Operation::AdSetUpdate => {
                let Some(ad_set) = call
                    .object
                    .and_then(|id| file.context.get(Kind::AdSets, &id.text))
                else {
                    return;
                };
                let Some(id) = ad_set.get_value("account_id").and_then(|a| a.scalar_text()) else {
                    return;
                };
                (id.into_owned(), Some(ad_set))
            }
            _ => return,
        };
        let Some(budget_entry) = request.param("daily_budget") else {
            return;
        };
        let Some(budget) = integer(&budget_entry.value) else {
            return;
        };
        // A daily budget of 0 beside a lifetime budget switches budgets: not judged.
        if budget == 0 && !crate::apis::advertising::absent(request, "lifetime_budget") {
            return;
        }
        let Some(account) = crate::apis::advertising::account(file.context, &account_id) else {
            return;
        };
        let (Some(strategy), Some(billing)) = (
            field(request, ad_set, "bid_strategy"),
            field(request, ad_set, "billing_event"),
        ) else {
            return;
        };
        let (Some(strategy_name), Some(billing_name)) =
            (strategy.node.as_str(), billing.node.as_str())
        else {
            return;
        };
        let Some(row) = minimum_row(strategy_name, billing_name) else {
            return;
        };
        let country = account
            .get_value("business_country_code")
            .and_then(Node::as_str);
        let doubled = row.doubled && country.is_some_and(is_doubled_country);
        let factor = if doubled { 2 } else { 1 };
        let currency = account.get_value("currency").and_then(Node::as_str);
        let unit = currency.and_then(currency_unit);
        let mut bid_label = None;
        let judged = match row.minimum {
            Minimum::TimesBidAmount(times) => {
                let Some(bid) = field(request, ad_set, "bid_amount") else {
                    return;
                };
                let Some(amount) = integer(bid.node).filter(|&b| b > 0) else {
                    return;
                };
                if bid.in_request {
                    bid_label = Some(bid.node.span);
                }
                Judged {
                    minimum: times * amount * factor,
                    approximate: false,
                    how: format!("{times} × bid_amount {amount}"),
                }
            }
            Minimum::UsdCents(cents) => {
                let (Some(currency), Some(unit)) = (currency, unit) else {
                    return;
                };
                if currency == "USD" {
                    Judged {
                        minimum: cents * factor,
                        approximate: false,
                        how: money(cents, "USD", Some(100)),
                    }
                } else {
                    let Some(rate) = crate::apis::advertising::settings::settings(file.config)
                        .currency_rates
                        .get(currency)
                    else {
                        return;
                    };
                    let converted = cents as f64 / 100.0 * rate * unit as f64;
                    Judged {
                        // Rounding noise must not raise the minimum: lenient by a millionth.
                        minimum: (converted * factor as f64 + 1e-6).floor() as i64,
                        approximate: true,
                        how: format!(
                            "{} at {rate} {currency} per USD (advertising.currency-rates)",
                            money(cents, "USD", Some(100))
                        ),
                    }
                }
            }
        };
        if budget >= judged.minimum {
            return;
        }
        let currency_name = currency.unwrap_or("the account currency");
        let in_currency = currency
            .map(|c| format!(" ({})", money(judged.minimum, c, unit)))
            .unwrap_or_default();
        let doubled_note = match (doubled, country) {
            (true, Some(c)) => format!(", doubled for ad accounts in {c}"),
            _ => String::new(),
        };
        let message = format!(
            "daily_budget {budget} is below the minimum daily budget of {}{}{in_currency} for {strategy_name} billed on {billing_name}: {}{doubled_note}",
            if judged.approximate { "about " } else { "" },
            judged.minimum,
            judged.how,
        );
        let unit_note = match unit {
            Some(100) => format!("cents of {currency_name}"),
            _ => format!("the budget unit of {currency_name}"),
        };
        let mut d = Diagnostic::new(&META, budget_entry.value.span, message)
            .with_help(format!(
                "raise daily_budget to at least {} (amounts are in {unit_note}){}",
                judged.minimum,
                if endpoint == Operation::AdSetUpdate {
                    "; budget changes must respect the minimum"
                } else {
                    ""
                }
            ))
            .with_api_error(100, None);
        let labels: [(Option<Span>, &str); 3] = [
            (
                strategy.in_request.then_some(strategy.node.span),
                "bid strategy",
            ),
            (
                billing.in_request.then_some(billing.node.span),
                "billing event",
            ),
            (bid_label, "bid amount"),
        ];
        for (span, what) in labels {
            if let Some(span) = span {
                d = d.with_label(span, what);
            }
        }
        out.push(d);
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::catalog::advertising::{BILLING_EVENTS, DOUBLED_COUNTRIES};

    /// The minimum daily budget table of Meta's Marketing API reference for ad sets
    /// (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/,
    /// "Limits"), row by row: bid strategy, billing event as the table writes it, the
    /// minimum, and whether it doubles in the countries below.
    const REFERENCE_ROWS: [(&str, &str, Minimum, bool); 5] = [
        (
            "LOWEST_COST_WITHOUT_CAP",
            "Impressions",
            Minimum::UsdCents(50),
            true,
        ),
        (
            "LOWEST_COST_WITHOUT_CAP",
            "Clicks, Likes, Video Views",
            Minimum::UsdCents(250),
            true,
        ),
        (
            "LOWEST_COST_WITHOUT_CAP",
            "Low-frequency Actions",
            Minimum::UsdCents(4000),
            false,
        ),
        (
            "LOWEST_COST_WITH_BID_CAP",
            "Impressions",
            Minimum::TimesBidAmount(1),
            true,
        ),
        (
            "LOWEST_COST_WITH_BID_CAP",
            "Clicks, Actions",
            Minimum::TimesBidAmount(5),
            true,
        ),
    ];

    /// The countries of ad accounts whose minimums double, as the reference names them,
    /// in its order.
    const REFERENCE_DOUBLED: [&str; 24] = [
        "Australia",
        "Austria",
        "Belgium",
        "Canada",
        "Denmark",
        "Finland",
        "France",
        "Germany",
        "Greece",
        "Hong Kong",
        "Israel",
        "Italy",
        "Japan",
        "Netherlands",
        "New Zealand",
        "Norway",
        "Singapore",
        "South Korea",
        "Spain",
        "Sweden",
        "Switzerland",
        "Taiwan",
        "United Kingdom",
        "United States of America",
    ];

    #[test]
    fn table_matches_the_reference() {
        let rows = &crate::catalog::advertising::MINIMUM_ROWS;
        assert_eq!(rows.len(), REFERENCE_ROWS.len());
        for (row, (strategy, billing, minimum, doubled)) in rows.iter().zip(REFERENCE_ROWS) {
            assert_eq!(
                (
                    row.bid_strategy.as_str(),
                    row.billing.as_str(),
                    row.minimum,
                    row.doubled
                ),
                (strategy, billing, minimum, doubled)
            );
        }
        // The amounts as the table writes them, which the messages quote.
        let written: Vec<&str> = rows.iter().map(|r| r.written.as_str()).collect();
        assert_eq!(written, ["0.50", "2.50", "40", "1", "5"]);
    }

    #[test]
    fn billing_events_are_the_enums() {
        // Every billing_event value that params.yaml takes has a mapping, and no other.
        let Some(spec) = crate::catalog::advertising::Operation::AdSetCreate
            .params()
            .param("billing_event")
        else {
            panic!("params.yaml: no ad_set_create.billing_event");
        };
        let crate::catalog::advertising::ParamType::Enum { values, .. } = &spec.ty else {
            panic!("billing_event is not an enum");
        };
        let mut enum_values: Vec<&str> = values.strs().collect();
        let mut ours: Vec<&str> = BILLING_EVENTS.iter().map(|(e, _)| e.as_str()).collect();
        enum_values.sort();
        ours.sort();
        assert_eq!(ours, enum_values);
        assert_eq!(ours.len(), 11);
        let bid_cap = "LOWEST_COST_WITH_BID_CAP";
        assert_eq!(
            minimum_row(bid_cap, "IMPRESSIONS").unwrap().billing,
            "Impressions"
        );
        assert_eq!(
            minimum_row(bid_cap, "PURCHASE").unwrap().billing,
            "Clicks, Actions"
        );
        assert!(minimum_row("LOWEST_COST_WITHOUT_CAP", "APP_INSTALLS").is_none());
        assert!(minimum_row("LOWEST_COST_WITHOUT_CAP", "NONE").is_none());
        assert!(minimum_row("COST_CAP", "IMPRESSIONS").is_none());
    }

    #[test]
    fn doubled_countries_are_the_references() {
        let names: Vec<&str> = DOUBLED_COUNTRIES.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, REFERENCE_DOUBLED);
        // Each code is the ISO code of the name (catalog/geo/iso_countries.tsv), the
        // reference's long name for the United States aside.
        for (code, name) in &DOUBLED_COUNTRIES {
            let (code, name) = (code.as_str(), name.as_str());
            let iso = crate::catalog::geo::country(code)
                .unwrap_or_else(|| panic!("{code} is not an ISO code"));
            let expected = match name {
                "United States of America" => "United States",
                name => name,
            };
            assert_eq!(iso.name, expected, "{code}");
        }
        assert!(is_doubled_country("NO"));
        assert!(is_doubled_country("GB"));
        assert!(!is_doubled_country("BR"));
    }

    #[test]
    fn currency_units_follow_the_reference() {
        // The field table's bid_amount: cents for currencies like USD and EUR, the basic
        // unit for currencies like JPY and KRW.
        let unit = |c| currency_unit(c).unwrap();
        assert_eq!((unit("USD"), unit("EUR")), (100, 100));
        assert_eq!((unit("JPY"), unit("KRW")), (1, 1));
    }

    const CONTEXT: &str = "ad_accounts:\n  - {id: act_1, currency: USD, business_country_code: US}\n  - {id: act_2, currency: USD, business_country_code: BR}\n  - {id: act_3, currency: USD}\n  - {id: act_4, currency: EUR, business_country_code: DE}\n  - {id: act_5, currency: JPY, business_country_code: JP}\n  - {id: act_6, currency: XYZ, business_country_code: US}\nad_sets:\n  - {id: '901', account_id: '1', bid_strategy: LOWEST_COST_WITH_BID_CAP, billing_event: LINK_CLICKS, bid_amount: 300}\n  - {id: '902', account_id: '2'}\n  - {id: '903'}\n";

    use crate::testing::diagnostics_with_rates as lint;

    fn messages(yaml: &str, rates: &[(&str, f64)]) -> Vec<String> {
        lint(META.name, yaml, CONTEXT, rates)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    fn create(account: &str, params: &str) -> String {
        format!("request: POST /v24.0/act_{account}/adsets\nparams: {{{params}}}\n")
    }

    #[test]
    fn fixed_minimums_doubled_by_country() {
        let imp = "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: IMPRESSIONS";
        // US doubles: 0.50 → 1.00.
        assert_eq!(
            messages(&create("1", &format!("{imp}, daily_budget: 99")), &[]),
            vec![
                "daily_budget 99 is below the minimum daily budget of 100 (USD 1.00) for LOWEST_COST_WITHOUT_CAP billed on IMPRESSIONS: USD 0.50, doubled for ad accounts in US"
            ]
        );
        assert!(messages(&create("1", &format!("{imp}, daily_budget: 100")), &[]).is_empty());
        // BR does not double; an account without a country is judged undoubled.
        assert!(messages(&create("2", &format!("{imp}, daily_budget: 50")), &[]).is_empty());
        assert_eq!(
            messages(&create("2", &format!("{imp}, daily_budget: '49'")), &[]).len(),
            1
        );
        assert!(messages(&create("3", &format!("{imp}, daily_budget: 50")), &[]).is_empty());
        assert_eq!(
            messages(&create("3", &format!("{imp}, daily_budget: 49")), &[]).len(),
            1
        );
        // Clicks: 2.50, doubled 5.00.
        let clicks = "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: THRUPLAY";
        assert_eq!(
            messages(&create("1", &format!("{clicks}, daily_budget: 499")), &[]).len(),
            1
        );
        assert!(messages(&create("1", &format!("{clicks}, daily_budget: 500")), &[]).is_empty());
    }

    #[test]
    fn not_judged_where_unsure() {
        let imp = "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: IMPRESSIONS";
        // No account in the context, unknown billing row, no strategy, COST_CAP.
        assert!(messages(&create("99", &format!("{imp}, daily_budget: 1")), &[]).is_empty());
        for p in [
            "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: APP_INSTALLS, daily_budget: 1",
            "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: POST_ENGAGEMENT, daily_budget: 1",
            "bid_strategy: COST_CAP, billing_event: IMPRESSIONS, bid_amount: 500, daily_budget: 1",
            "billing_event: IMPRESSIONS, daily_budget: 1",
            "bid_strategy: LOWEST_COST_WITHOUT_CAP, daily_budget: 1",
            "bid_strategy: LOWEST_COST_WITH_BID_CAP, billing_event: IMPRESSIONS, daily_budget: 1",
            "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: IMPRESSIONS, daily_budget: 0, lifetime_budget: 100000",
            "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: IMPRESSIONS, daily_budget: cheap",
        ] {
            assert!(messages(&create("1", p), &[]).is_empty(), "{p}");
        }
        // A currency without a rate, or without a known unit, is not judged.
        assert!(messages(&create("4", &format!("{imp}, daily_budget: 1")), &[]).is_empty());
        assert!(
            messages(
                &create("6", &format!("{imp}, daily_budget: 1")),
                &[("XYZ", 2.0)]
            )
            .is_empty()
        );
    }

    #[test]
    fn converted_with_a_configured_rate() {
        let imp = "bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: IMPRESSIONS";
        // EUR in DE: 0.50 USD × 0.92 = 0.46 EUR, doubled 0.92 EUR = 92 cents.
        assert_eq!(
            messages(
                &create("4", &format!("{imp}, daily_budget: 91")),
                &[("EUR", 0.92)]
            ),
            vec![
                "daily_budget 91 is below the minimum daily budget of about 92 (EUR 0.92) for LOWEST_COST_WITHOUT_CAP billed on IMPRESSIONS: USD 0.50 at 0.92 EUR per USD (advertising.currency-rates), doubled for ad accounts in DE"
            ]
        );
        assert!(
            messages(
                &create("4", &format!("{imp}, daily_budget: 92")),
                &[("EUR", 0.92)]
            )
            .is_empty()
        );
        // JPY has no minor unit: 0.50 USD × 150 = 75 yen, doubled 150.
        assert_eq!(
            messages(
                &create("5", &format!("{imp}, daily_budget: 149")),
                &[("JPY", 150.0)]
            )
            .len(),
            1
        );
        assert!(
            messages(
                &create("5", &format!("{imp}, daily_budget: 150")),
                &[("JPY", 150.0)]
            )
            .is_empty()
        );
    }

    #[test]
    fn bid_cap_multiples() {
        let p =
            "bid_strategy: LOWEST_COST_WITH_BID_CAP, billing_event: LINK_CLICKS, bid_amount: 300";
        // 5 × 300, doubled in US: 3000; in BR 1500. Any currency: bid_amount is in it.
        assert_eq!(
            messages(&create("1", &format!("{p}, daily_budget: 2999")), &[]),
            vec![
                "daily_budget 2999 is below the minimum daily budget of 3000 (USD 30.00) for LOWEST_COST_WITH_BID_CAP billed on LINK_CLICKS: 5 × bid_amount 300, doubled for ad accounts in US"
            ]
        );
        assert!(messages(&create("2", &format!("{p}, daily_budget: 1500")), &[]).is_empty());
        assert_eq!(
            messages(&create("4", &format!("{p}, daily_budget: 2999")), &[]).len(),
            1
        );
        let imp =
            "bid_strategy: LOWEST_COST_WITH_BID_CAP, billing_event: IMPRESSIONS, bid_amount: 300";
        assert!(messages(&create("2", &format!("{imp}, daily_budget: 300")), &[]).is_empty());
        assert_eq!(
            messages(&create("2", &format!("{imp}, daily_budget: 299")), &[]).len(),
            1
        );
    }

    #[test]
    fn updates_read_the_ad_set_from_the_context() {
        let update = |id: &str, params: &str| {
            format!("request: POST /v24.0/{id}\nobject: ad_set\nparams: {{{params}}}\n")
        };
        // Ad set 901: account 1 (US), bid cap 300 on link clicks: at least 3000.
        assert_eq!(messages(&update("901", "daily_budget: 2000"), &[]).len(), 1);
        assert!(messages(&update("901", "daily_budget: 3000"), &[]).is_empty());
        // The request's own values win over the context's.
        assert!(messages(&update("901", "daily_budget: 2000, bid_amount: 200"), &[]).is_empty());
        // Ad set 902: account 2, no strategy known; 903: no account; 904: not in context.
        assert!(messages(&update("902", "daily_budget: 1"), &[]).is_empty());
        let p =
            "daily_budget: 1, bid_strategy: LOWEST_COST_WITHOUT_CAP, billing_event: IMPRESSIONS";
        assert_eq!(messages(&update("902", p), &[]).len(), 1);
        assert!(messages(&update("903", p), &[]).is_empty());
        assert!(messages(&update("904", p), &[]).is_empty());
    }
}

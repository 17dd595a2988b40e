//! The advertising API's section of the config (docs/configuration.md, `advertising:`):
//! the minimum version the project's calls may use, and the currency rates that the
//! budget minimums are converted with.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use crate::loading::{Node, Span};
use crate::model::Version;
use crate::model::config::{Config, ConfigSection, Reach, unknown_key};

/// What `advertising:` says.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct AdvertisingSettings {
    /// `min-version`: calls below it are reported.
    pub min_version: Option<Version>,
    /// `currency-rates`: `{EUR: 0.92, JPY: 151}`, units of each currency per USD.
    pub currency_rates: HashMap<String, f64>,
    /// `hosts` and `base-variables`: where else the API is reached.
    pub reach: Reach,
    /// `currency`: the ad account's currency (ISO 4217), where the context does not give
    /// it: money params written with a decimal point get the integer they mean.
    pub currency: Option<String>,
}

/// The keys `advertising:` takes.
pub const KEYS: &[&str] = &[
    "min-version",
    "currency-rates",
    "hosts",
    "base-variables",
    "currency",
];

/// The section as the config's parse sees it.
pub struct Section;

pub static SECTION: Section = Section;

impl ConfigSection for Section {
    fn key(&self) -> &'static str {
        "advertising"
    }

    fn keys(&self) -> &'static [&'static str] {
        KEYS
    }

    fn read(&self, value: &Node) -> Result<Arc<dyn Any + Send + Sync>, (Span, String)> {
        let Some(items) = value.as_map() else {
            return Err((value.span, "`advertising` must be a mapping".into()));
        };
        let mut settings = AdvertisingSettings::default();
        for item in items {
            if let Some(read) = settings.reach.read(&item.key, &item.value) {
                read?;
                continue;
            }
            if item.key == "currency-rates" {
                settings.currency_rates = currency_rates(&item.value)?;
                continue;
            }
            if item.key == "currency" {
                settings.currency = Some(currency_code(&item.value)?);
                continue;
            }
            if item.key != "min-version" {
                return Err((item.key_span, unknown_key("advertising", &item.key, KEYS)));
            }
            let version = item
                .value
                .scalar_text()
                .and_then(|t| Version::parse(&t))
                .ok_or_else(|| {
                    (
                        item.value.span,
                        "`min-version` must be a version such as v22.0".to_string(),
                    )
                })?;
            settings.min_version = Some(version);
        }
        Ok(Arc::new(settings))
    }

    fn schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {
            "min-version": {"type": "string", "pattern": "^v[0-9]+\\.[0-9]+$", "description": "older versions are an error (2635)"},
            "currency-rates": {"type": "object", "additionalProperties": {"type": "number", "exclusiveMinimum": 0}, "description": "units of each currency that make one USD"},
            "hosts": {"type": "array", "items": {"type": "string"}, "description": "other hosts that serve the Marketing API (a mock server, a proxy), with or without a port"},
            "base-variables": {"type": "array", "items": {"type": "string"}, "description": "variables that stand for the Marketing API's base URL ({{base_url}}/...)"},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$", "description": "the ad account's currency where the context does not give it: money params written with a decimal point get the integer they mean"},
        }, "additionalProperties": false})
    }
}

/// What the config's `advertising:` says (every default when it has none).
pub fn settings(config: &Config) -> &AdvertisingSettings {
    static DEFAULT: LazyLock<AdvertisingSettings> = LazyLock::new(AdvertisingSettings::default);
    config
        .section::<AdvertisingSettings>(SECTION.key())
        .unwrap_or(&DEFAULT)
}

/// `advertising.currency`: a currency whose offset is known (Meta's Marketing API
/// reference, Currencies).
fn currency_code(node: &Node) -> Result<String, (Span, String)> {
    node.as_str()
        .filter(|c| crate::catalog::advertising::currency_unit(c).is_some())
        .map(str::to_string)
        .ok_or_else(|| {
            (
                node.span,
                "`currency` must be the ad account's currency, an ISO 4217 code of Meta's Currencies list such as USD".into(),
            )
        })
}

/// `advertising.currency-rates`: `{EUR: 0.92, JPY: 151}`, units of the currency per USD.
fn currency_rates(node: &Node) -> Result<HashMap<String, f64>, (Span, String)> {
    let Some(items) = node.as_map() else {
        return Err((
            node.span,
            "`currency-rates` must map ISO currency codes to how many units make one USD, such as {EUR: 0.92}".into(),
        ));
    };
    let mut rates = HashMap::new();
    for item in items {
        if item.key.len() != 3 || !item.key.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err((
                item.key_span,
                format!(
                    "`{}` is not an ISO 4217 currency code such as EUR",
                    item.key
                ),
            ));
        }
        let rate = item
            .value
            .as_f64()
            .filter(|r| r.is_finite() && *r > 0.0)
            .ok_or_else(|| {
                (
                    item.value.span,
                    format!(
                        "the rate of {} must be a positive number: how many {} make one USD",
                        item.key, item.key
                    ),
                )
            })?;
        rates.insert(item.key.to_string(), rate);
    }
    Ok(rates)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(
            text.as_bytes().to_vec(),
            Path::new(".reqlint.yaml"),
            PathBuf::from("."),
            &[],
            &[&SECTION],
        )
    }

    #[test]
    fn min_version() {
        let c = parse("advertising:\n  min-version: v22.0\n").unwrap();
        assert_eq!(
            settings(&c).min_version,
            Some(Version {
                major: 22,
                minor: 0
            })
        );
        let e = parse("advertising:\n  min-version: 22\n").unwrap_err();
        assert!(e.contains("must be a version such as v22.0"), "{e}");
        let e = parse("advertising: 3\n").unwrap_err();
        assert!(e.contains("`advertising` must be a mapping"), "{e}");
    }

    #[test]
    fn currency() {
        let c = parse("advertising:\n  currency: JPY\n").unwrap();
        assert_eq!(settings(&c).currency.as_deref(), Some("JPY"));
        assert_eq!(
            settings(&Config::defaults(PathBuf::from("."))).currency,
            None
        );
        // Only a currency whose offset Meta's Currencies list gives.
        let e = parse("advertising:\n  currency: XYZ\n").unwrap_err();
        assert!(
            e.contains("`currency` must be the ad account's currency"),
            "{e}"
        );
        let e = parse("advertising:\n  currency: usd\n").unwrap_err();
        assert!(e.contains("ISO 4217"), "{e}");
    }

    #[test]
    fn currency_rates() {
        let c = parse("advertising:\n  currency-rates: {EUR: 0.92, JPY: 151}\n").unwrap();
        assert_eq!(settings(&c).currency_rates.get("EUR"), Some(&0.92));
        assert_eq!(settings(&c).currency_rates.get("JPY"), Some(&151.0));
        assert!(
            settings(&Config::defaults(PathBuf::from(".")))
                .currency_rates
                .is_empty()
        );
        let e = parse("advertising:\n  currency-rates: {eur: 0.92}\n").unwrap_err();
        assert_eq!(
            e,
            ".reqlint.yaml:2:20: `eur` is not an ISO 4217 currency code such as EUR"
        );
        let e = parse("advertising:\n  currency-rates: {EUR: 0}\n").unwrap_err();
        assert!(
            e.contains("the rate of EUR must be a positive number"),
            "{e}"
        );
        let e = parse("advertising:\n  currency-rates: {EUR: cheap}\n").unwrap_err();
        assert!(e.contains("positive number"), "{e}");
        let e = parse("advertising:\n  currency-rates: 0.92\n").unwrap_err();
        assert!(e.contains("`currency-rates` must map"), "{e}");
        let e = parse("advertising:\n  currency-rate: {}\n").unwrap_err();
        assert!(e.contains("did you mean `currency-rates`"), "{e}");
    }
}

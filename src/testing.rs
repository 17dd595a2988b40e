//! What unit tests share: the one helper the rules' tests lint with (a YAML request file
//! through the whole pipeline: engine, every rule, suppressions, with a config and a
//! context snapshot), and a seeded number stream for generated inputs.

use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::model::config::Config;
use crate::model::context::ContextIndex;

/// The diagnostics of `rule` on a YAML request file.
pub fn diagnostics(rule: &str, config: Config, context_yaml: &str, yaml: &str) -> Vec<Diagnostic> {
    let mut context = ContextIndex::default();
    context
        .add_text(context_yaml.as_bytes().to_vec(), Path::new("c.yaml"))
        .expect("the test's context snapshot is valid");
    let settings = crate::engine::Settings {
        config,
        context,
        limits: crate::loading::Limits::DEFAULT,
    };
    crate::engine::lint_bytes(
        "t.req.yaml",
        Path::new("t.req.yaml"),
        yaml.as_bytes().to_vec(),
        &settings,
    )
    .diagnostics
    .into_iter()
    .filter(|d| d.rule == rule)
    .collect()
}

/// The diagnostics of `rule` with the default config but for currency rates
/// (`advertising.currency-rates`).
pub fn diagnostics_with_rates(
    rule: &str,
    yaml: &str,
    context_yaml: &str,
    rates: &[(&str, f64)],
) -> Vec<Diagnostic> {
    let mut config = Config::defaults(PathBuf::from("."));
    let section = crate::apis::advertising::settings::AdvertisingSettings {
        currency_rates: rates.iter().map(|(c, r)| (c.to_string(), *r)).collect(),
        ..Default::default()
    };
    config.set_section("advertising", section);
    diagnostics(rule, config, context_yaml, yaml)
}

/// One of `rule`'s diagnostics as the tests compare it: its message, the text it points
/// at, its labels' texts and its help.
#[derive(Debug)]
pub struct Found {
    pub message: String,
    pub at: String,
    pub labels: Vec<String>,
    pub help: String,
}

/// `rule`'s diagnostics on a YAML request file linted with the default config and a
/// context snapshot.
pub fn found(rule: &str, context_yaml: &str, yaml: &str) -> Vec<Found> {
    diagnostics(
        rule,
        Config::defaults(PathBuf::from(".")),
        context_yaml,
        yaml,
    )
    .iter()
    .map(|d| Found {
        message: d.message.clone(),
        at: yaml[d.span.range()].to_string(),
        labels: d
            .labels
            .iter()
            .map(|l| yaml[l.span.range()].to_string())
            .collect(),
        help: d.help.clone().unwrap_or_default(),
    })
    .collect()
}

/// `(message, the text it points at)` of each of `rule`'s diagnostics ([`found`]).
pub fn lint(rule: &str, context_yaml: &str, yaml: &str) -> Vec<(String, String)> {
    found(rule, context_yaml, yaml)
        .into_iter()
        .map(|f| (f.message, f.at))
        .collect()
}

/// The texts that `rule`'s diagnostics point at ([`found`]).
pub fn spans(rule: &str, context_yaml: &str, yaml: &str) -> Vec<String> {
    found(rule, context_yaml, yaml)
        .into_iter()
        .map(|f| f.at)
        .collect()
}

/// A deterministic stream of pseudo-random numbers (xorshift64) from `seed` (not 0), for
/// tests that compare a quick path with its oracle on many generated inputs.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

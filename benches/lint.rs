//! Per-file costs: the spanned loaders, the model and whole files through every rule, for
//! each kind of request file.
//! `cargo bench --bench lint`. Targets live here, never in timed unit tests.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use divan::{Bencher, black_box};
use reqlint::catalog::codehost::{ApiVersion, CATALOG, Endpoint, Segment};
use reqlint::engine::{Settings, lint_bytes};
use reqlint::loading::encoded_params::decode_encoded_params;
use reqlint::loading::{Format, Limits, load};
use reqlint::model::FileModel;
use reqlint::model::config::Config;
use reqlint::model::context::ContextIndex;

// The same allocator as the binary, so that the figures are the binary's.
#[global_allocator]
static GLOBAL: reqlint::allocator::Mimalloc = reqlint::allocator::Mimalloc;

fn main() {
    divan::main();
}

fn settings() -> Settings {
    Settings {
        config: Config::defaults(PathBuf::from(".")),
        context: ContextIndex::default(),
        limits: Limits::DEFAULT,
    }
}

const AD_SET: &str = "request: POST /v24.0/act_1234567890/adsets
params:
  name: Spring sale DE
  campaign_id: \"120210000000000001\"
  daily_budget: 2000
  billing_event: IMPRESSIONS
  optimization_goal: REACH
  bid_strategy: LOWEST_COST_WITHOUT_CAP
  targeting:
    geo_locations:
      countries: [DE, AT]
    age_min: 25
    age_max: 65
    publisher_platforms: [facebook, instagram]
    flexible_spec:
      - interests:
          - {id: \"6003107902433\", name: Cooking}
          - {id: \"6003020834693\", name: Travel}
  dsa_payor: Acme GmbH
  dsa_beneficiary: Acme GmbH
  status: PAUSED
";

const AUDIENCE: &str = r#"description: "audience create"
request: POST /v24.0/act_7876085448/customaudiences
params:
  name: Promo Sale website
  subtype: WEBSITE
  description: Flash brand members launch winter b2b webinar holiday
  pixel_id: "11005338100786054"
  retention_days: 60
  rule: "{\"inclusions\":{\"operator\":\"or\",\"rules\":[{\"event_sources\":[{\"id\":\"11005338100786054\",\"type\":\"pixel\"}],\"retention_seconds\":5184000,\"filter\":{\"operator\":\"and\",\"filters\":[{\"field\":\"url\",\"operator\":\"i_contains\",\"value\":\"spring\"}]}}]}}"
  prefill: false
"#;

/// Calls of the whole Marketing API: campaigns, ads, insights, reads with expansions.
const MARKETING: &str = "requests:
  - request: POST /v25.0/act_1234567890/campaigns
    params: {name: Spring sale, objective: OUTCOME_SALES, special_ad_categories: [], status: PAUSED}
  - request: POST /v25.0/act_1234567890/ads
    params: {name: Carousel, adset_id: \"23851000000000001\", creative: {creative_id: \"1203\"}, status: PAUSED}
  - GET /v25.0/act_1234567890/insights?fields=campaign_name,spend,impressions,actions&date_preset=last_7d&level=campaign
  - request: GET /v25.0/120210000000000001
    object: campaign
    params: {fields: \"name,adsets{name,daily_budget,targeting},ads{creative{title,body}}\"}
  - request: POST /v25.0/120210000000000001
    object: campaign
    params: {status: ACTIVE, spend_cap: 100000}
  - GET /v25.0/act_1234567890/adcreatives?fields=name,object_story_spec,thumbnail_url&limit=50
  - request: POST /v25.0/act_1234567890/adimages
    params: {bytes: iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==}
  - GET /v25.0/me/adaccounts?fields=name,account_status,currency
";

/// One file of each kind the corpus holds: (file name, text).
fn file_of_kind(kind: &str) -> (&'static str, String) {
    match kind {
        "ad set" => ("a.req.yaml", AD_SET.to_string()),
        "ad set, JSON" => {
            let (docs, _) = reqlint::loading::parse_text(AD_SET, Format::Yaml, &Limits::DEFAULT);
            ("a.req.json", docs[0].to_json())
        }
        "audience" => ("c.req.yaml", AUDIENCE.to_string()),
        "token, 20 requests" => ("t.req.yaml", token_file(20)),
        "Marketing API, 8 calls" => ("m.req.yaml", MARKETING.to_string()),
        "Postman collection, 7 requests" => (
            "a.postman_collection.json",
            include_str!("../fixtures/formats/postman/marketing-api.postman_collection.json")
                .to_string(),
        ),
        ".http, 4 requests" => (
            "a.http",
            include_str!("../fixtures/formats/http/marketing-api.http").to_string(),
        ),
        "Bruno, 1 request" => (
            "a.bru",
            include_str!("../fixtures/formats/bruno/marketing-api/Campaigns/create-campaign.bru")
                .to_string(),
        ),
        "Hurl, 3 requests" => (
            "a.hurl",
            include_str!("../fixtures/formats/hurl/marketing-api.hurl").to_string(),
        ),
        _ => unreachable!("no file of kind {kind}"),
    }
}

const KINDS: [&str; 9] = [
    "ad set",
    "ad set, JSON",
    "audience",
    "token, 20 requests",
    "Marketing API, 8 calls",
    "Postman collection, 7 requests",
    ".http, 4 requests",
    "Bruno, 1 request",
    "Hurl, 3 requests",
];

/// The whole pipeline on one file of each kind: load, model, every rule.
#[divan::bench(args = KINDS)]
fn whole_file(b: Bencher, kind: &str) {
    let s = settings();
    let (name, text) = file_of_kind(kind);
    b.bench(|| {
        lint_bytes(
            name,
            Path::new(name),
            black_box(text.clone().into_bytes()),
            &s,
        )
    });
}

/// The model alone (requests, tokens, decoded JSON strings) over loaded documents; the
/// rules' share is `whole_file` less `load_file` and this.
#[divan::bench(args = KINDS)]
fn model_of_file(b: Bencher, kind: &str) {
    let (name, text) = file_of_kind(kind);
    let format = Format::from_path(name);
    b.with_inputs(|| reqlint::loading::parse_text(&text, format, &Limits::DEFAULT).0)
        .bench_local_refs(|docs| {
            decode_encoded_params(
                docs,
                &text,
                &Limits::DEFAULT,
                &reqlint::engine::Registry::builtin().json_encoded_params,
            );
            black_box(FileModel::build(docs, &text).requests.len())
        });
}

/// Loading alone (UTF-8 check, parse, spans) of one file of each kind.
#[divan::bench(args = KINDS)]
fn load_file(b: Bencher, kind: &str) {
    let (name, text) = file_of_kind(kind);
    let format = Format::from_path(name);
    b.with_inputs(|| text.clone().into_bytes())
        .bench_values(|bytes| load(bytes, format, &Limits::DEFAULT));
}

/// The catalog's rows of the host's default API version that it does not flag as
/// needing more permissions: a token holding their permissions covers them.
fn plain_rows() -> impl Iterator<Item = &'static Endpoint> + Clone {
    CATALOG
        .endpoints
        .iter()
        .filter(|e| e.in_version(ApiVersion::DEFAULT) && !e.flagged)
}

/// A token file with `n` code-hosting requests over the catalog's endpoints, and the
/// token that covers them.
fn token_file(n: usize) -> String {
    let mut requests = String::new();
    for e in plain_rows().cycle().take(n) {
        let path: String = e
            .segments
            .iter()
            .map(|s| match s {
                Segment::Literal(l) => format!("/{l}"),
                Segment::Placeholder(p) => format!("/x-{p}"),
            })
            .collect();
        let _ = writeln!(requests, "  - {} {path}", e.method);
    }
    // Repeated scope keys would be duplicates: group them.
    let mut grouped: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for e in plain_rows().cycle().take(n) {
        let p = CATALOG.permission(e.permission);
        let titles = grouped.entry(p.scope.as_str()).or_default();
        if !titles.contains(&p.title.as_str()) {
            titles.push(p.title.as_str());
        }
    }
    let mut token = String::from("token:\n  permissions:\n");
    for (scope, titles) in grouped {
        let _ = writeln!(token, "    {scope}:");
        for t in titles {
            let _ = writeln!(token, "      \"{t}\": admin");
        }
    }
    format!("{token}requests:\n{requests}")
}

#[divan::bench]
fn ad_set_file(b: Bencher) {
    let s = settings();
    b.bench(|| {
        lint_bytes(
            "a.req.yaml",
            Path::new("a.req.yaml"),
            black_box(AD_SET.as_bytes().to_vec()),
            &s,
        )
    });
}

#[divan::bench(args = [40, 200])]
fn token_file_requests(b: Bencher, n: usize) {
    let s = settings();
    let text = token_file(n);
    let result = lint_bytes(
        "t.req.yaml",
        Path::new("t.req.yaml"),
        text.clone().into_bytes(),
        &s,
    );
    assert!(
        result
            .diagnostics
            .iter()
            .all(|d| d.rule != "token-missing-permission"),
        "{:?}",
        result.diagnostics
    );
    b.bench(|| {
        lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            black_box(text.clone().into_bytes()),
            &s,
        )
    });
}

/// Loader throughput over about 1 MB of request documents.
#[divan::bench(args = ["yaml", "json"])]
fn loader_1mb(b: Bencher, format: &str) {
    let one = if format == "yaml" {
        AD_SET.to_string()
    } else {
        let (docs, _) = reqlint::loading::parse_text(AD_SET, Format::Yaml, &Limits::DEFAULT);
        docs[0].to_json()
    };
    let copies = 1_000_000 / one.len();
    let text = if format == "yaml" {
        vec![one.as_str(); copies].join("---\n")
    } else {
        format!("[{}]", vec![one.as_str(); copies].join(","))
    };
    let fmt = if format == "yaml" {
        Format::Yaml
    } else {
        Format::Json
    };
    // The copy of the input each sample takes is made outside the timing: it is the
    // loader's throughput, not memcpy's and the page faults of a fresh megabyte.
    b.with_inputs(|| text.clone().into_bytes())
        .input_counter(|bytes: &Vec<u8>| divan::counter::BytesCount::new(bytes.len()))
        .bench_values(|bytes| load(bytes, fmt, &Limits::DEFAULT));
}

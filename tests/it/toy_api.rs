//! A third API added the way docs/adding-an-api.md says, without touching the engine: a
//! toy "widgets" API (its wing: routing, operations, a config section; one rule) is
//! registered beside the built-in ones, and the engine routes its requests, runs its
//! rule, reads its config section and keeps the other APIs' judgements as they were.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reqlint::apis::{APIS, Api, ApiId, FileContext, OperationSet, Routed};
use reqlint::diagnostic::{Diagnostic, Severity};
use reqlint::engine::{Registry, Settings, lint_bytes_with};
use reqlint::loading::{Limits, Node, Span};
use reqlint::model::config::{Config, ConfigSection};
use reqlint::model::context::ContextIndex;
use reqlint::rules::REGISTRY;

/// The toy API's wing.
mod widgets {
    use super::*;

    pub const ID: ApiId = ApiId("widgets");

    /// Its operations, as it numbers them.
    pub const GET_WIDGET: u32 = 0;
    pub const CREATE_WIDGET: u32 = 1;

    pub struct Widgets;

    pub static WIDGETS: Widgets = Widgets;

    impl Api for Widgets {
        fn id(&self) -> ApiId {
            ID
        }

        fn serves_host(&self, host: &str, _host_port: &str, _config: &Config) -> bool {
            host == "api.widgets.example"
        }

        fn operation_count(&self) -> u32 {
            2
        }

        fn operations(&self, file: &FileContext<'_>) -> Vec<Routed> {
            file.requests_of(ID)
                .filter_map(|(index, request)| {
                    let line = request.line()?;
                    let segments: Vec<&str> =
                        line.segments.iter().map(|s| s.text.as_str()).collect();
                    let operation = match (line.method.as_str(), segments.as_slice()) {
                        ("GET", ["widgets", _]) => GET_WIDGET,
                        ("POST", ["widgets"]) => CREATE_WIDGET,
                        _ => return None,
                    };
                    Some(Routed { index, operation })
                })
                .collect()
        }

        fn config_section(&self) -> Option<&'static dyn ConfigSection> {
            Some(&SECTION)
        }
    }

    /// What `widgets:` in the config says: colours besides the API's own.
    #[derive(Debug, Default)]
    pub struct WidgetSettings {
        pub extra_colors: Vec<String>,
    }

    pub struct Section;

    pub static SECTION: Section = Section;

    impl ConfigSection for Section {
        fn key(&self) -> &'static str {
            "widgets"
        }

        fn keys(&self) -> &'static [&'static str] {
            &["colors"]
        }

        fn read(&self, value: &Node) -> Result<Arc<dyn Any + Send + Sync>, (Span, String)> {
            let colors = value
                .get_value("colors")
                .and_then(Node::as_seq)
                .ok_or((value.span, "`widgets` takes `colors`, a list".to_string()))?;
            let extra_colors = colors
                .iter()
                .filter_map(|c| c.scalar_text().map(|t| t.into_owned()))
                .collect();
            Ok(Arc::new(WidgetSettings { extra_colors }))
        }

        fn schema(&self) -> serde_json::Value {
            serde_json::json!({"type": "object"})
        }
    }

    /// The operations a rule inspects.
    pub struct Operations(pub &'static [u32]);

    impl OperationSet for Operations {
        fn api(&self) -> ApiId {
            ID
        }

        fn includes(&self, operation: u32) -> bool {
            self.0.contains(&operation)
        }

        fn describe(&self) -> String {
            "widget calls".into()
        }
    }
}

/// The toy API's one rule, in a module of its own as a rule file is.
mod widget_color_invalid {
    use super::*;
    use reqlint::rules::rule::{Example, Group, Inspects, Rule};

    reqlint::declare_rule! {
        pub struct WidgetColorInvalid {
            name: "widget-color-invalid",
            group: Group::of(widgets::ID),
            severity: Severity::Error,
            summary: "a widget created in a colour the API does not make",
            what: "Reports `color` of a widget create outside red, green, blue and the config's `widgets.colors`.",
            why: "The toy API refuses other colours.",
            source: "the toy API of reqlint's tests",
            fixes: &[],
            inspects: Inspects::Requests(&widgets::Operations(&[widgets::CREATE_WIDGET])),
            bad: Example { path: "toy/bad.req.yaml", text: "" },
            good: Example { path: "toy/good.req.yaml", text: "" },
        }
    }

    impl Rule for WidgetColorInvalid {
        fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
            let request = &file.model.requests[routed.index];
            let Some(color) = request.param("color") else {
                return;
            };
            let text = color.value.scalar_text().unwrap_or_default();
            let extra = file
                .config
                .section::<widgets::WidgetSettings>("widgets")
                .map_or(&[][..], |s| s.extra_colors.as_slice());
            if !["red", "green", "blue"].contains(&text.as_ref())
                && !extra.iter().any(|c| *c == text)
            {
                out.push(Diagnostic::new(
                    &META,
                    color.value.span,
                    format!("the API makes no `{text}` widget"),
                ));
            }
        }
    }
}

static WIDGET_COLOR_INVALID: widget_color_invalid::WidgetColorInvalid =
    widget_color_invalid::WidgetColorInvalid;

/// The built-in APIs with the toy one asked first, and the built-in rules with its rule.
fn registry() -> Registry {
    let mut apis: Vec<&'static dyn Api> = vec![&widgets::WIDGETS];
    apis.extend(APIS.iter().copied());
    let mut rules = REGISTRY.to_vec();
    rules.push(&WIDGET_COLOR_INVALID);
    Registry::new(apis, rules)
}

fn settings(config_text: &str, rule_names: &[&str]) -> Settings {
    let mut sections = reqlint::apis::config_sections();
    sections.push(&widgets::SECTION);
    let config = Config::parse(
        config_text.as_bytes().to_vec(),
        Path::new(".reqlint.yaml"),
        PathBuf::from("."),
        rule_names,
        &sections,
    )
    .unwrap();
    Settings {
        config,
        context: ContextIndex::default(),
        limits: Limits::DEFAULT,
    }
}

const FILE: &str = "\
requests:
  - request: POST https://api.widgets.example/widgets
    params:
      color: purple
  - request: GET https://api.widgets.example/widgets/7
  - request: POST /v25.0/act_1/adsets
    params:
      name: Spring
      daily_budget: 1000
      lifetime_budget: 20000
      bogus_param: 1
";

/// (rule, text the diagnostic points at) of each diagnostic.
fn findings(registry: &Registry, settings: &Settings) -> Vec<(String, String)> {
    let result = lint_bytes_with(
        registry,
        "toy.req.yaml",
        Path::new("toy.req.yaml"),
        FILE.as_bytes().to_vec(),
        settings,
    );
    result
        .diagnostics
        .iter()
        .map(|d| (d.rule.to_string(), FILE[d.span.range()].to_string()))
        .collect()
}

#[test]
fn a_registered_api_routes_its_requests_to_its_rules() {
    let registry = registry();
    let found = findings(&registry, &settings("", &registry.rule_names));
    assert!(
        found.contains(&("widget-color-invalid".into(), "purple".into())),
        "{found:?}"
    );
    // Its requests are its own: no other API judges them.
    for (rule, text) in &found {
        assert!(
            !text.contains("widgets") || rule == "widget-color-invalid",
            "{rule} judged a widget request: {found:?}"
        );
    }
    // The advertising API still judges its call in the same file, as without the toy.
    let builtin = findings(
        Registry::builtin(),
        &settings("", &Registry::builtin().rule_names),
    );
    let advertising = |found: &[(String, String)]| -> Vec<(String, String)> {
        found
            .iter()
            .filter(|(rule, _)| rule.starts_with("adset-") || rule.starts_with("ad-"))
            .cloned()
            .collect()
    };
    assert!(!advertising(&builtin).is_empty(), "{builtin:?}");
    assert_eq!(advertising(&found), advertising(&builtin));
}

#[test]
fn a_registered_api_reads_its_config_section() {
    let registry = registry();
    let found = findings(
        &registry,
        &settings("widgets:\n  colors: [purple]\n", &registry.rule_names),
    );
    assert!(
        !found.iter().any(|(rule, _)| rule == "widget-color-invalid"),
        "{found:?}"
    );
    // Without the section's API registered the key is unknown, as any other.
    let e = Config::parse(
        b"widgets:\n  colors: [purple]\n".to_vec(),
        Path::new(".reqlint.yaml"),
        PathBuf::from("."),
        &Registry::builtin().rule_names,
        &reqlint::apis::config_sections(),
    )
    .unwrap_err();
    assert!(e.contains("unknown key `widgets` in the config"), "{e}");
}

#[test]
fn a_registered_api_routes_nothing_it_does_not_know() {
    let registry = registry();
    let file = "request: DELETE https://api.widgets.example/gadgets/1\n";
    let result = lint_bytes_with(
        &registry,
        "toy.req.yaml",
        Path::new("toy.req.yaml"),
        file.as_bytes().to_vec(),
        &settings("", &registry.rule_names),
    );
    // Claimed by the toy API, which knows no such operation: no rule of any API runs on it.
    assert!(result.diagnostics.is_empty(), "{:?}", result.diagnostics);
}

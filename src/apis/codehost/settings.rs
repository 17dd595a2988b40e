//! The code-hosting API's section of the config (docs/configuration.md, `codehost:`):
//! the API version requests are judged in when they name none.

use std::any::Any;
use std::sync::Arc;

use crate::catalog::codehost::{ApiVersion, VERSIONS};
use crate::loading::{Node, Span};
use crate::model::config::{Config, ConfigSection, Reach, unknown_key};
use crate::suggest::did_you_mean;

/// What `codehost:` says.
#[derive(Debug, Clone, PartialEq)]
pub struct CodehostSettings {
    /// `api-version`: the version of requests that name none.
    pub api_version: ApiVersion,
    /// `hosts` (an enterprise server, `https://HOST/api/v3/…`; a mock server, a proxy)
    /// and `base-variables`: where else the API is reached.
    pub reach: Reach,
}

impl Default for CodehostSettings {
    fn default() -> Self {
        CodehostSettings {
            api_version: ApiVersion::DEFAULT,
            reach: Reach::default(),
        }
    }
}

/// The keys `codehost:` takes.
pub const KEYS: &[&str] = &["api-version", "hosts", "base-variables"];

/// The section as the config's parse sees it.
pub struct Section;

pub static SECTION: Section = Section;

impl ConfigSection for Section {
    fn key(&self) -> &'static str {
        "codehost"
    }

    fn keys(&self) -> &'static [&'static str] {
        KEYS
    }

    fn read(&self, value: &Node) -> Result<Arc<dyn Any + Send + Sync>, (Span, String)> {
        let Some(items) = value.as_map() else {
            return Err((value.span, "`codehost` must be a mapping".into()));
        };
        let mut settings = CodehostSettings::default();
        for item in items {
            if let Some(read) = settings.reach.read(&item.key, &item.value) {
                read?;
                continue;
            }
            if item.key != "api-version" {
                return Err((item.key_span, unknown_key("codehost", &item.key, KEYS)));
            }
            let text = item.value.scalar_text().unwrap_or_default();
            settings.api_version = ApiVersion::parse(&text).ok_or_else(|| {
                let hint = did_you_mean(&text, VERSIONS.iter().copied())
                    .map(|v| format!(" (did you mean `{v}`?)"))
                    .unwrap_or_default();
                (
                    item.value.span,
                    format!(
                        "`api-version` must be one of {}, not `{text}`{hint}",
                        VERSIONS.join(", ")
                    ),
                )
            })?;
        }
        Ok(Arc::new(settings))
    }

    fn schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {"api-version": {
            "enum": VERSIONS,
            "description": "the code-hosting API version its endpoints and permissions are judged in (X-GitHub-Api-Version)",
        },
            "hosts": {"type": "array", "items": {"type": "string"}, "description": "other hosts that serve the code-hosting API: an enterprise server (https://HOST/api/v3/...), a mock server, a proxy; with or without a port"},
            "base-variables": {"type": "array", "items": {"type": "string"}, "description": "variables that stand for the code-hosting API's base URL ({{base_url}}/...)"},
        }, "additionalProperties": false})
    }
}

/// What the config's `codehost:` says (every default when it has none).
pub fn settings(config: &Config) -> &CodehostSettings {
    static DEFAULT: std::sync::LazyLock<CodehostSettings> =
        std::sync::LazyLock::new(CodehostSettings::default);
    config
        .section::<CodehostSettings>(SECTION.key())
        .unwrap_or(&DEFAULT)
}

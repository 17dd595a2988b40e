//! The code-hosting API's section of the config (docs/configuration.md, `codehost:`):
//! the API version requests are judged in when they name none, the hosts that serve the
//! API, and the edition (cloud, enterprise cloud, an enterprise server release) of each.

use std::any::Any;
use std::sync::Arc;

use crate::catalog::codehost::{ApiVersion, VERSIONS};
use crate::catalog::codehost_operations::{EDITIONS, Edition};
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
    /// `editions`: the edition each host serves (`ghe.acme.com: ghes-3.18`), lower case.
    pub editions: Vec<(String, Edition)>,
    /// `workflow-permissions`: the repository's default for the `GITHUB_TOKEN` of a
    /// workflow job without a `permissions:` block: `permissive` (read and write) when
    /// true, else the host's current default, `restricted` (docs/workflows.md).
    pub workflow_permissive: bool,
}

impl Default for CodehostSettings {
    fn default() -> Self {
        CodehostSettings {
            api_version: ApiVersion::DEFAULT,
            reach: Reach::default(),
            editions: Vec::new(),
            workflow_permissive: false,
        }
    }
}

/// The keys `codehost:` takes.
pub const KEYS: &[&str] = &[
    "api-version",
    "hosts",
    "base-variables",
    "editions",
    "workflow-permissions",
];

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
            if item.key == "editions" {
                settings.editions = read_editions(&item.value)?;
                continue;
            }
            if item.key == "workflow-permissions" {
                settings.workflow_permissive = match item.value.scalar_text().as_deref() {
                    Some("restricted") => false,
                    Some("permissive") => true,
                    _ => {
                        return Err((
                            item.value.span,
                            "`workflow-permissions` is `restricted` (the host's default) or `permissive`".into(),
                        ));
                    }
                };
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
            "workflow-permissions": {"enum": ["restricted", "permissive"], "description": "the repository's default permissions for the GITHUB_TOKEN of a workflow job without a permissions block (Settings > Actions > Workflow permissions); restricted unless said"},
            "editions": {"type": "object", "additionalProperties": {"enum": EDITIONS}, "description": "the edition each host serves: fpt (GitHub.com), ghec (GitHub Enterprise Cloud), ghes-3.17 to ghes-3.19 (a GitHub Enterprise Server release); a host not named here is judged as docs/codehost.md says"},
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

/// `editions:`: a mapping of host to edition name.
fn read_editions(value: &Node) -> Result<Vec<(String, Edition)>, (Span, String)> {
    let Some(items) = value.as_map() else {
        return Err((
            value.span,
            "`editions` must be a mapping of host to edition (`ghe.acme.com: ghes-3.19`)".into(),
        ));
    };
    let mut editions = Vec::new();
    for item in items {
        let host = item.key.trim().to_ascii_lowercase();
        if host.is_empty() || host.contains(['/', ' ']) {
            return Err((item.key_span, format!("`{}` is not a host", item.key)));
        }
        let text = item.value.scalar_text().unwrap_or_default();
        let edition = Edition::parse(&text).ok_or_else(|| {
            let hint = did_you_mean(&text, EDITIONS.iter().copied())
                .map(|e| format!(" (did you mean `{e}`?)"))
                .unwrap_or_default();
            (
                item.value.span,
                format!(
                    "an edition is one of {}, not `{text}`{hint}",
                    EDITIONS.join(", ")
                ),
            )
        })?;
        editions.push((host, edition));
    }
    Ok(editions)
}

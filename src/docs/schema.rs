//! JSON Schemas for request files and `.reqlint.yaml`, built from the same key lists,
//! enums and tables the loader and the rules use, so that an editor validates and
//! completes what reqlint reads.

use serde_json::{Map, Value, json};

use crate::catalog::codehost::{CATALOG, Scope};
use crate::catalog::graph::GNode;
use crate::model::config::top_keys;
use crate::model::context::Kind;
use crate::model::token::TOKEN_KEYS;
use crate::model::{EXTENSION_PREFIX, FILE_KEYS, Method, REQUEST_KEYS};

const DRAFT: &str = "http://json-schema.org/draft-07/schema#";

/// Stable ids of the published schemas (`schemas/` in the repository).
pub const ID_REQUEST: &str =
    "https://raw.githubusercontent.com/reqlint/reqlint/main/schemas/request.schema.json";
pub const ID_CONFIG: &str =
    "https://raw.githubusercontent.com/reqlint/reqlint/main/schemas/config.schema.json";

fn methods() -> Vec<&'static str> {
    Method::ALL.iter().map(|m| m.as_str()).collect()
}

fn request_line() -> Value {
    json!({
        "type": "string",
        "description": "METHOD PATH; PATH may be a full URL and carry a query string",
        "pattern": format!("^\\s*({})\\s+\\S+\\s*$", methods().join("|")),
    })
}

fn token() -> Value {
    let mut scopes = Map::new();
    for scope in Scope::ALL {
        let mut perms = Map::new();
        for p in CATALOG.permissions.iter().filter(|p| p.scope == scope) {
            perms.insert(p.title.to_string(), json!({"$ref": "#/definitions/level"}));
        }
        scopes.insert(
            scope.as_str().to_string(),
            json!({
                "type": "object",
                "description": format!("{scope} permissions: the reference's titles (any case; spaces, hyphens and underscores alike) or the host's slugs"),
                "properties": perms,
                "additionalProperties": {"$ref": "#/definitions/level"},
            }),
        );
    }
    let mut props = Map::new();
    for key in TOKEN_KEYS {
        let schema = match *key {
            "owner" => {
                json!({"type": "string", "description": "the resource owner the token was made for"})
            }
            "repositories" => {
                json!({"type": "array", "items": {"type": "string"}, "description": "the repositories it may reach; absent = all of the owner's"})
            }
            "permissions" => {
                json!({"type": "object", "properties": scopes, "additionalProperties": false})
            }
            "variables" => {
                json!({"type": "array", "items": {"type": "string"}, "description": "config only: the `{{variables}}` of collections, .http, Bruno and Hurl files that stand for this token"})
            }
            "files" => {
                json!({"type": "array", "items": {"type": "string"}, "description": "config only: globs of the files whose requests run with this token"})
            }
            other => unreachable!("token key {other} has no schema"),
        };
        props.insert(key.to_string(), schema);
    }
    json!({
        "oneOf": [
            {"type": "string", "description": "a token defined under `tokens:` in .reqlint.yaml"},
            {"type": "object", "properties": props, "additionalProperties": false},
        ]
    })
}

fn request_object() -> Value {
    let mut props = Map::new();
    for key in REQUEST_KEYS {
        let schema = match *key {
            "request" => json!({"$ref": "#/definitions/requestLine"}),
            "method" => json!({"enum": methods()}),
            "path" | "url" => json!({"type": "string", "description": "the path, or a full URL"}),
            "params" => {
                json!({"type": ["object", "null"], "description": "form fields, query parameters or JSON body; a value may be a JSON-encoded string"})
            }
            "token" => json!({"$ref": "#/definitions/token"}),
            "object" => {
                let nodes: Vec<&str> = GNode::all().map(GNode::name).collect();
                json!({"enum": nodes, "description": "advertising API: the node type of the object `/{version}/{id}` (or `/{id}/<edge>`, or `?ids=`) addresses, in snake_case: campaign, ad_set, ad, ad_creative, custom_audience, ..."})
            }
            "public" => {
                json!({"type": "boolean", "description": "code-hosting GET of a public resource: no permission needed"})
            }
            "api-version" => api_version(),
            "name" | "description" => json!({"type": "string"}),
            other => unreachable!("request key {other} has no schema"),
        };
        props.insert(key.to_string(), schema);
    }
    json!({
        "type": "object",
        "properties": props,
        "patternProperties": {format!("^{EXTENSION_PREFIX}"): {}},
        "additionalProperties": false,
    })
}

/// A path a config names: relative, and not out of the config's directory (as
/// `files::check_config_relative` checks: no root, no drive, no `..`).
fn inside_config_dir() -> Value {
    json!({"type": "string", "not": {"pattern": "^([/\\\\]|[A-Za-z]:)|(^|[/\\\\])\\.\\.([/\\\\#]|$)"}})
}

/// `api-version`: a version of the code-hosting API.
fn api_version() -> Value {
    json!({
        "enum": crate::catalog::codehost::VERSIONS,
        "description": "the code-hosting API version its endpoints and permissions are judged in (X-GitHub-Api-Version)",
    })
}

/// The schema of a request file: `reqlint schema request`.
pub fn request() -> Value {
    let mut file_props = Map::new();
    for key in FILE_KEYS {
        let schema = match *key {
            "requests" => {
                json!({"type": "array", "items": {"anyOf": [{"$ref": "#/definitions/requestLine"}, {"$ref": "#/definitions/request"}]}})
            }
            "token" => json!({"$ref": "#/definitions/token"}),
            "api-version" => api_version(),
            "name" | "description" => json!({"type": "string"}),
            other => unreachable!("file key {other} has no schema"),
        };
        file_props.insert(key.to_string(), schema);
    }
    json!({
        "$schema": DRAFT,
        "$id": ID_REQUEST,
        "title": "reqlint request file",
        "description": "One request (`request: METHOD PATH`) or several (`requests:`): see docs/request-files.md",
        "definitions": {
            "requestLine": request_line(),
            "request": request_object(),
            "token": token(),
            "level": {"enum": ["read", "write", "admin"]},
        },
        "anyOf": [
            {"$ref": "#/definitions/request"},
            {
                "type": "object",
                "properties": file_props,
                "required": ["requests"],
                "patternProperties": {format!("^{EXTENSION_PREFIX}"): {}},
                "additionalProperties": false,
            },
        ],
    })
}

/// The schema of `.reqlint.yaml` (docs/configuration.md): `reqlint schema config`.
pub fn config() -> Value {
    let names = crate::rules::names();
    // YAML 1.1 readers turn `off` into false; reqlint accepts both.
    let severity = json!({"enum": ["error", "warning", "info", "off", false]});
    let mut rules = Map::new();
    for rule in crate::rules::REGISTRY {
        let m = rule.meta();
        let mut s = severity.clone();
        s["description"] = json!(format!("{} (default {})", m.summary, m.severity));
        rules.insert(m.name.to_string(), s);
    }
    let kinds: Vec<&str> = Kind::ALL.iter().map(|(_, n, _)| *n).collect();
    let globs = json!({"type": "array", "items": {"type": "string"}});
    let mut props = Map::new();
    let sections = crate::apis::config_sections();
    for key in top_keys(&sections) {
        let schema = match key {
            "include" | "exclude" => globs.clone(),
            "rules" => {
                json!({"type": "object", "properties": rules, "additionalProperties": false})
            }
            "select" | "extend-select" | "ignore" => {
                let what = match key {
                    "select" => "only these rules run",
                    "extend-select" => "these rules run too",
                    _ => "these rules do not run",
                };
                let choices: Vec<&str> = names
                    .iter()
                    .copied()
                    .chain(crate::rules::GROUP_NAMES.iter().copied())
                    .collect();
                json!({"type": "array", "items": {"enum": choices}, "description": format!("{what}: rule names, groups (files, code-hosting, advertising) or ALL; --select, --extend-select and --ignore apply over them")})
            }
            "min-severity" => {
                json!({"enum": ["error", "warning", "info"], "description": "report only diagnostics of this severity or above (--min-severity overrides it)"})
            }
            "per-file-ignores" => {
                json!({"type": "object", "additionalProperties": {"type": "array", "items": {"enum": names}}})
            }
            "tokens" => {
                json!({"type": "object", "additionalProperties": {"$ref": "#/definitions/token"}})
            }
            "context" => {
                json!({"type": "array", "items": inside_config_dir(), "description": format!("snapshot files or globs, relative to the config's directory and inside it (no absolute path, no `..`, no link out of it; --context names others); their kinds: {}", kinds.join(", "))})
            }
            "variables" => {
                json!({"type": "object", "additionalProperties": {"type": ["string", "number", "boolean", "null"]}, "description": "values of `{{name}}` in collections, .http, Bruno and Hurl files; null: a name whose value is secret"})
            }
            "environments" => {
                json!({"type": "array", "items": inside_config_dir(), "description": "environment files whose variables apply, relative to the config's directory and inside it (no absolute path, no `..`, no link out of it): Postman (*.postman_environment.json), http-client.env.json (append #name for one environment), http-client.private.env.json (names only), Bruno (environments/*.bru)"})
            }
            other => match sections.iter().find(|s| s.key() == other) {
                Some(section) => section.schema(),
                None => unreachable!("config key {other} has no schema"),
            },
        };
        props.insert(key.to_string(), schema);
    }
    let token = token();
    json!({
        "$schema": DRAFT,
        "$id": ID_CONFIG,
        "title": "reqlint config (.reqlint.yaml)",
        "type": "object",
        "definitions": {
            "token": token["oneOf"][1].clone(),
            "level": {"enum": ["read", "write", "admin"]},
        },
        "properties": props,
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_name_every_key_the_loader_reads() {
        let r = request();
        let props = r["definitions"]["request"]["properties"]
            .as_object()
            .unwrap();
        assert_eq!(props.len(), REQUEST_KEYS.len());
        let c = config();
        assert_eq!(
            c["properties"].as_object().unwrap().len(),
            top_keys(&crate::apis::config_sections()).len()
        );
        assert_eq!(
            c["properties"]["rules"]["properties"]
                .as_object()
                .unwrap()
                .len(),
            crate::rules::REGISTRY.len()
        );
    }

    /// `object:` takes every node type of the Marketing API's catalog, and only those.
    #[test]
    fn object_takes_every_node_type() {
        let r = request();
        let values: Vec<&str> = r["definitions"]["request"]["properties"]["object"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(values.len(), GNode::all().count());
        for node in [
            "campaign",
            "ad_set",
            "ad",
            "ad_creative",
            "custom_audience",
            "ads_pixel",
        ] {
            assert!(values.contains(&node), "{node}");
        }
        assert!(!values.contains(&"adset"));
    }
}

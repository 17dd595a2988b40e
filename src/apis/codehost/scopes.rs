//! `reqlint scopes`: the least permissions each token's requests need, as a block in the
//! shape of where the token is defined.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::loading::{LineIndex, Span};
use crate::model::{FileModel, TokenRef};

use crate::catalog::codehost::{Access, CATALOG, Scope};

/// One request's need, for the per-request listing.
#[derive(Debug, Serialize)]
pub struct Need {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub method: &'static str,
    pub endpoint: &'static str,
    pub scope: Scope,
    pub permission: &'static str,
    pub access: Access,
    /// The host marks the endpoint as needing or accepting more permissions without
    /// saying which: the block may not be enough for it.
    pub flagged: bool,
    /// The endpoint's docs page, where the host has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docs: Option<String>,
}

/// A request whose permission reqlint cannot tell: the block does not cover it.
#[derive(Debug, Serialize)]
pub struct Unresolved {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub request: String,
    pub reason: &'static str,
}

/// A request to an operation the host documents as needing no permission: any token
/// covers it.
#[derive(Debug, Serialize)]
pub struct Open {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub method: &'static str,
    pub endpoint: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub docs: Option<String>,
}

/// Where a token is defined, which decides the shape of the block to paste.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Defined {
    /// Under `tokens:` in .reqlint.yaml, by name.
    Config,
    /// Written in place in a request file (`token:` with a mapping).
    #[default]
    Inline,
    /// The requests name no token.
    None,
}

/// The requests of one token and the least permissions that cover them.
#[derive(Debug, Default, Serialize)]
pub struct TokenNeeds {
    /// `ci-bot` for a named token, `FILE:LINE` for one written in place, `(none)`.
    pub token: String,
    pub defined: Defined,
    /// The token's `owner` and `repositories` as it gives them, kept in the block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repositories: Option<Vec<String>>,
    pub permissions: BTreeMap<Scope, BTreeMap<&'static str, Access>>,
    pub requests: Vec<Need>,
    /// Requests that need no permission: covered by any token.
    pub no_permission: Vec<Open>,
    /// Requests whose endpoint is unknown: what the block cannot cover.
    pub unresolved: Vec<Unresolved>,
}

impl serde::Serialize for Scope {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl serde::Serialize for Access {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Adds the needs of one file's requests to `tokens`, keyed by token.
pub fn collect(
    path: &str,
    text: &str,
    model: &FileModel<'_>,
    config: &crate::model::config::Config,
    tokens: &mut BTreeMap<String, TokenNeeds>,
) {
    let index = LineIndex::new(text);
    let at = |span: Span| index.position(text, span.start);
    let lines: Vec<_> = model.requests.iter().map(|r| r.line()).collect();
    let routes = crate::apis::route_file(crate::apis::APIS, &lines, config);
    for (request, route) in model.requests.iter().zip(routes) {
        let Some(line) = request.line().filter(|_| route == Some(super::ID)) else {
            continue;
        };
        // A workflow job's call runs with the job's token: its block is the job's
        // (`collect_jobs`).
        if request.job().is_some() {
            continue;
        }
        if request.public.is_some_and(|(public, _)| public)
            && line.method == crate::model::Method::Get
        {
            continue;
        }
        let (key, defined, definition) = match request.token {
            Some(TokenRef::Named { name, .. }) => (
                name.to_string(),
                Defined::Config,
                config
                    .tokens
                    .get(name)
                    .map(crate::model::token::Token::read),
            ),
            Some(TokenRef::Inline(node)) => {
                let p = at(node.span);
                (
                    format!("{path}:{}", p.line),
                    Defined::Inline,
                    Some(crate::model::token::Token::read(node)),
                )
            }
            None => ("(none)".to_string(), Defined::None, None),
        };
        let needs = tokens.entry(key.clone()).or_insert_with(|| TokenNeeds {
            token: key,
            defined,
            owner: definition
                .as_ref()
                .and_then(|t| t.owner.as_ref().map(|(o, _)| o.clone())),
            repositories: definition.as_ref().and_then(|t| {
                t.repositories
                    .as_ref()
                    .map(|r| r.iter().map(|(name, _)| name.clone()).collect())
            }),
            ..TokenNeeds::default()
        });
        let (version, edition) = (
            super::api_version(request, config),
            super::edition(line, config),
        );
        let rows = super::endpoint_rows(line, version, edition);
        let Some(row) = rows.iter().find(|e| e.method == line.method) else {
            let p = at(request.line_span);
            let access = super::operation_access(line, version, edition);
            if let Some((operation, access)) = access
                && access.fine_grained
                && access.permissionless
            {
                let operation = crate::catalog::codehost_operations::get(operation);
                needs.no_permission.push(Open {
                    file: path.to_string(),
                    line: p.line,
                    column: p.column,
                    method: operation.method.as_str(),
                    endpoint: operation.template(),
                    docs: operation.docs_url(edition),
                });
                continue;
            }
            needs.unresolved.push(Unresolved {
                file: path.to_string(),
                line: p.line,
                column: p.column,
                // A workflow's call is shown as the workflow writes it, not with the
                // `{{owner}}` variables its reader wrote for the repository.
                request: match (&model.workflow, text.get(line.path_span.range())) {
                    (Some(_), Some(written)) if !written.is_empty() => {
                        format!("{} {written}", line.method.as_str())
                    }
                    _ => format!("{} {}", line.method.as_str(), line.path),
                },
                reason: match access {
                    Some((_, access)) if !access.fine_grained => {
                        "fine-grained tokens cannot call it"
                    }
                    _ if super::described_operation(line) => {
                        "the host's description has it, but reqlint has no word on its permission"
                    }
                    _ if rows.is_empty() => "unknown endpoint",
                    _ => "the endpoint does not take this method",
                },
            });
            continue;
        };
        let permission = CATALOG.permission(row.permission);
        let level = needs
            .permissions
            .entry(permission.scope)
            .or_default()
            .entry(permission.title.as_str())
            .or_insert(row.access);
        *level = (*level).max(row.access);
        let p = at(request.line_span);
        needs.requests.push(Need {
            file: path.to_string(),
            line: p.line,
            column: p.column,
            method: row.method.as_str(),
            endpoint: row.template.as_str(),
            scope: permission.scope,
            permission: permission.title.as_str(),
            access: row.access,
            flagged: row.flagged,
            docs: row.docs_url(),
        });
    }
}

/// The YAML blocks, ready to paste where each token is defined: a `tokens:` entry of
/// .reqlint.yaml for a named token, a `token:` block for one written in place (or for
/// requests that name none), with the token's `owner` and `repositories` kept, and the
/// requests the block cannot cover said.
pub fn render_yaml(tokens: &BTreeMap<String, TokenNeeds>) -> String {
    let mut out = String::new();
    for needs in tokens.values() {
        let what = match needs.defined {
            Defined::None => "requests without a token; add this block to them".to_string(),
            Defined::Config => format!(
                "token {} (paste under `tokens:` in .reqlint.yaml)",
                needs.token
            ),
            Defined::Inline => format!("token {}", needs.token),
        };
        let count = needs.requests.len() + needs.no_permission.len() + needs.unresolved.len();
        out.push_str(&format!(
            "# {what}: {count} request{}\n",
            if count == 1 { "" } else { "s" }
        ));
        let indent = if needs.defined == Defined::Config {
            out.push_str(&format!("tokens:\n  {}:\n", yaml_key(&needs.token)));
            "    "
        } else {
            out.push_str("token:\n");
            "  "
        };
        if let Some(owner) = &needs.owner {
            out.push_str(&format!("{indent}owner: {}\n", yaml_key(owner)));
        }
        if let Some(repositories) = &needs.repositories {
            let list: Vec<String> = repositories.iter().map(|r| yaml_key(r)).collect();
            out.push_str(&format!("{indent}repositories: [{}]\n", list.join(", ")));
        }
        out.push_str(&format!("{indent}permissions:\n"));
        for (scope, perms) in &needs.permissions {
            out.push_str(&format!("{indent}  {scope}:\n"));
            for (title, access) in perms {
                out.push_str(&format!("{indent}    {title}: {access}\n"));
            }
        }
        if !needs.requests.is_empty() {
            out.push_str("# covering each request:\n");
        }
        for n in &needs.requests {
            out.push_str(&format!(
                "#   {}:{}:{}  {} {}  {} `{}`: {}\n",
                n.file, n.line, n.column, n.method, n.endpoint, n.scope, n.permission, n.access
            ));
        }
        let flagged: Vec<&Need> = needs.requests.iter().filter(|n| n.flagged).collect();
        if !flagged.is_empty() {
            out.push_str("# may need more: the host marks these endpoints as needing additional permissions without saying which\n");
        }
        for n in flagged {
            out.push_str(&format!(
                "#   {}:{}:{}  {} {}  {}\n",
                n.file,
                n.line,
                n.column,
                n.method,
                n.endpoint,
                n.docs.as_deref().unwrap_or("")
            ));
        }
        if !needs.no_permission.is_empty() {
            out.push_str("# needs no permission (any token covers it):\n");
        }
        for n in &needs.no_permission {
            out.push_str(&format!(
                "#   {}:{}:{}  {} {}\n",
                n.file, n.line, n.column, n.method, n.endpoint
            ));
        }
        if !needs.unresolved.is_empty() {
            out.push_str("# NOT covered by this block (why, for each):\n");
        }
        for u in &needs.unresolved {
            out.push_str(&format!(
                "#   {}:{}:{}  {}  ({})\n",
                u.file, u.line, u.column, u.request, u.reason
            ));
        }
        out.push('\n');
    }
    if tokens.is_empty() {
        out.push_str("# no code-hosting request was found\n");
    }
    out
}

/// The least-privilege `permissions:` of one workflow job, with what it covers.
#[derive(Debug, Serialize)]
pub struct JobBlock {
    pub file: String,
    pub job: String,
    pub line: usize,
    /// The block to write into the job: permission key → level.
    pub permissions: BTreeMap<&'static str, &'static str>,
    /// Each call or step and what it needs: `FILE:LINE:COLUMN`, what, `key: level`.
    pub covers: Vec<(String, String, String)>,
    /// What reqlint cannot tell about the job's token, each where it is: the block may
    /// need more.
    pub not_told: Vec<(String, String)>,
    /// Calls the job's token can never make.
    pub never: Vec<(String, String)>,
}

/// The blocks of a workflow's jobs (none for a file that is not a workflow).
pub fn collect_jobs(
    path: &str,
    text: &str,
    model: &FileModel<'_>,
    config: &crate::model::config::Config,
) -> Vec<JobBlock> {
    let Some(workflow) = &model.workflow else {
        return Vec::new();
    };
    let index = LineIndex::new(text);
    let at = |span: Span| {
        let p = index.position(text, span.start);
        format!("{path}:{}:{}", p.line, p.column)
    };
    let lines: Vec<_> = model.requests.iter().map(|r| r.line()).collect();
    let routes = crate::apis::route_file(crate::apis::APIS, &lines, config);
    workflow
        .jobs
        .iter()
        .map(|job| {
            let needs = super::workflow_token::job_needs(model, &routes, config, job);
            JobBlock {
                file: path.to_string(),
                job: job.id.clone(),
                line: index.position(text, job.key_span.start).line,
                permissions: needs
                    .least_privilege()
                    .into_iter()
                    .map(|(key, level)| (key.name(), level.as_str()))
                    .collect(),
                covers: needs
                    .needs
                    .iter()
                    .map(|n| (at(n.span), n.what.clone(), n.describe()))
                    .collect(),
                not_told: needs
                    .not_told
                    .iter()
                    .map(|(span, why)| (at(*span), why.clone()))
                    .collect(),
                never: needs
                    .never
                    .iter()
                    .map(|(span, what, why)| (at(*span), format!("{what}: {why}")))
                    .collect(),
            }
        })
        .collect()
}

/// Each job's block, ready to paste into the job, with what it covers and what it cannot.
pub fn render_jobs_yaml(jobs: &[JobBlock]) -> String {
    let mut out = String::new();
    for job in jobs {
        out.push_str(&format!(
            "# workflow {}, job {} (line {}): paste into the job
",
            job.file, job.job, job.line
        ));
        if job.permissions.is_empty() {
            out.push_str(
                "permissions: {}
",
            );
        } else {
            out.push_str(
                "permissions:
",
            );
            for (key, level) in &job.permissions {
                out.push_str(&format!(
                    "  {key}: {level}
"
                ));
            }
        }
        if !job.covers.is_empty() {
            out.push_str(
                "# covering each call:
",
            );
        }
        for (at, what, need) in &job.covers {
            out.push_str(&format!(
                "#   {at}  {what}  {need}
"
            ));
        }
        if !job.never.is_empty() {
            out.push_str(
                "# the job's token can never make these calls:
",
            );
        }
        for (at, why) in &job.never {
            out.push_str(&format!(
                "#   {at}  {why}
"
            ));
        }
        if !job.not_told.is_empty() {
            out.push_str(
                "# NOT told (the block may need more):
",
            );
        }
        for (at, why) in &job.not_told {
            out.push_str(&format!(
                "#   {at}  {why}
"
            ));
        }
        out.push('\n');
    }
    out
}

/// A name as a YAML key or plain value: quoted when YAML would read it otherwise.
fn yaml_key(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !text.starts_with(['-', '.'])
        && !matches!(
            text,
            "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~"
        );
    if plain {
        text.to_string()
    } else {
        serde_json::to_string(text).unwrap_or_default()
    }
}

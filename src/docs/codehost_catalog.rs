//! The operations reference of the code-hosting API (`docs/codehost-catalog.md`),
//! generated from the compiled REST description, permission tables and access data:
//! every operation with its editions, params, body fields, what a fine-grained token
//! needs to call it, and a link to the host's page. `tests/it/docs.rs` fails when the
//! committed page is stale.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::catalog::codehost::{ApiVersion, CATALOG};
use crate::catalog::codehost_access::access;
use crate::catalog::codehost_operations::{EDITIONS, Edition, Location, Operation, operations};

/// `docs/codehost-catalog.md`.
pub fn catalog_page() -> String {
    let version = ApiVersion::DEFAULT;
    let mut by_category: BTreeMap<&str, Vec<&'static Operation>> = BTreeMap::new();
    for (_, operation) in operations() {
        by_category
            .entry(operation.category())
            .or_default()
            .push(operation);
    }
    let total: usize = by_category.values().map(Vec::len).sum();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The code-hosting API catalog\n\n\
         Every operation of GitHub's REST API that reqlint knows, generated from \
         `catalog/codehost/` (the host's OpenAPI description as `@octokit/openapi` carries \
         it, its fine-grained token permission tables and its per-operation access data; see \
         [catalog/codehost/README.md](../catalog/codehost/README.md)). Do not edit: \
         `UPDATE_DOCS=1 cargo test --test it docs::` writes it. [Back to the code-hosting \
         API](codehost.md).\n\n\
         {total} operation rows in {} categories. Editions: {} (`all` when every one has \
         the row). A param or body field in **bold** is required. *Fine-grained token* is \
         what such a token needs in API version {}: the permission table's rows (one of \
         them suffices; `+` where the host says the endpoint may need more), `no permission` \
         or `not callable` from the host's access data, `—` where reqlint has no word on it.\n",
        by_category.len(),
        EDITIONS.join(", "),
        version.as_str()
    );
    for (category, mut rows) in by_category {
        rows.sort_by_key(|op| (op.template(), op.method.as_str()));
        let _ = writeln!(
            out,
            "## {category}\n\n| operation | editions | params | body | fine-grained token |\n|---|---|---|---|---|"
        );
        for operation in rows {
            let edition = Edition::all()
                .find(|e| operation.in_edition(*e))
                .unwrap_or(Edition::CLOUD);
            let call = format!("`{} {}`", operation.method, operation.template());
            let call = match operation.docs_url(edition) {
                Some(url) => format!("[{call}]({url})"),
                None => call,
            };
            let _ = writeln!(
                out,
                "| {call} | {} | {} | {} | {} |",
                editions(operation),
                params(operation, edition),
                body(operation, edition),
                needs(operation, version)
            );
        }
        out.push('\n');
    }
    out
}

fn editions(operation: &Operation) -> String {
    let names: Vec<&str> = Edition::all()
        .filter(|e| operation.in_edition(*e))
        .map(Edition::as_str)
        .collect();
    if names.len() == EDITIONS.len() {
        "all".into()
    } else {
        names.join(", ")
    }
}

fn required(name: &str, required: bool) -> String {
    if required {
        format!("**{name}**")
    } else {
        format!("`{name}`")
    }
}

/// The query params (path params are in the template).
fn params(operation: &Operation, edition: Edition) -> String {
    let query: Vec<String> = operation
        .params(edition)
        .filter(|p| matches!(p.location, Location::Query))
        .map(|p| format!("{}: {}", required(p.name(), p.required), p.kind()))
        .collect();
    if query.is_empty() {
        "—".into()
    } else {
        query.join(", ")
    }
}

/// The body's top-level fields.
fn body(operation: &Operation, edition: Edition) -> String {
    let fields: Vec<String> = operation
        .body_schema(edition)
        .filter_map(|node| {
            let name = node.property().strip_prefix("$.")?;
            (!name.contains(['.', '[', '{', '|'])).then(|| required(name, node.required))
        })
        .collect();
    match (fields.is_empty(), operation.body_param()) {
        (false, _) => fields.join(", "),
        (true, Some(name)) => format!(
            "{} (the whole body)",
            required(name, operation.body_required())
        ),
        (true, None) if operation.body_schema(edition).next().is_some() => "JSON".into(),
        (true, None) => "—".into(),
    }
}

fn needs(operation: &Operation, version: ApiVersion) -> String {
    let template: Vec<&str> = operation
        .template()
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let mut rows: Vec<String> = CATALOG
        .match_path(&template, version)
        .into_iter()
        .filter(|row| row.method == operation.method && row.template == operation.template())
        .map(|row| {
            let permission = CATALOG.permission(row.permission);
            format!(
                "{} `{}`: {}{}",
                permission.scope,
                permission.title,
                row.access,
                if row.flagged { " +" } else { "" }
            )
        })
        .collect();
    rows.dedup();
    if !rows.is_empty() {
        return rows.join("; ");
    }
    match access(version.as_str(), operation.method, operation.template()) {
        Some(a) if !a.fine_grained => "not callable".into(),
        Some(a) if a.permissionless => "no permission".into(),
        _ => "—".into(),
    }
}

//! `catalog/codehost/` → the permission table, the endpoint rows of every API version, the
//! name index (keys, titles and slugs, normalized, sorted for binary search) and the path
//! router (a trie of literal and placeholder segments).
//!
//! `endpoints.tsv` (generated from the host's tables) comes first; `permissions.tsv` (the
//! reference document) adds its names, its permissions without rows and the endpoint rows
//! the host's tables lack.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use crate::names::normalize;
use crate::source::{METHODS, Source, TextBlob, lit, table_lines};

const SCOPES: [(&str, &str); 3] = [
    ("organization", "Organization"),
    ("repository", "Repository"),
    ("user", "User"),
];
/// The host's API versions, oldest first; the first is its default.
pub const VERSIONS: [&str; 2] = ["2022-11-28", "2026-03-10"];

#[derive(Default)]
struct TrieNode {
    literals: BTreeMap<String, usize>,
    placeholder: Option<usize>,
    endpoints: Vec<usize>,
}

struct Permission {
    scope: &'static str,
    key: String,
    title: String,
}

struct Row {
    method: &'static str,
    template: String,
    permission: usize,
    access: &'static str,
    versions: u8,
    flagged: bool,
    docs: String,
    from_reference: bool,
}

fn scope_of(src: &Source, line: usize, text: &str) -> &'static str {
    SCOPES
        .iter()
        .find(|(s, _)| *s == text)
        .unwrap_or_else(|| {
            src.fail(
                line,
                &format!("unknown scope `{text}` (organization, repository or user)"),
            )
        })
        .1
}

fn method_of(src: &Source, line: usize, text: &str) -> &'static str {
    METHODS
        .iter()
        .find(|(m, _)| *m == text)
        .unwrap_or_else(|| src.fail(line, &format!("unknown method `{text}`")))
        .1
}

fn access_of(src: &Source, line: usize, text: &str) -> &'static str {
    match text {
        "read" => "Read",
        "write" => "Write",
        "admin" => "Admin",
        other => src.fail(
            line,
            &format!("unknown access `{other}` (read, write or admin)"),
        ),
    }
}

fn access_rank(access: &str) -> u8 {
    match access {
        "Read" => 0,
        "Write" => 1,
        _ => 2,
    }
}

/// `/repos/{owner}/{repo}` → `/repos/{}/{}`: rows of the same shape end at one router node.
fn shape(template: &str) -> String {
    template
        .split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

pub fn generate(root: &Path) -> String {
    let mut permissions: Vec<Permission> = Vec::new();
    let mut names: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut rows: Vec<Row> = Vec::new();
    let add_name = |names: &mut BTreeMap<String, Vec<usize>>, name: &str, id: usize| {
        let ids = names.entry(normalize(name)).or_default();
        if !ids.contains(&id) {
            ids.push(id);
        }
    };

    // The tables: the cloud's, one per API version (`endpoints.tsv`), then each
    // enterprise edition's (`editions.tsv`), a row's bit its table's index here.
    let vendor = Source::read(root, "codehost/endpoints.tsv");
    let enterprise = Source::read(root, "codehost/editions.tsv");
    let mut tables: Vec<(String, String, usize)> = VERSIONS
        .iter()
        .enumerate()
        .map(|(i, v)| (v.to_string(), "fpt".to_string(), i))
        .collect();
    let api_version = |src: &Source, line: usize, version: &str| {
        VERSIONS
            .iter()
            .position(|v| *v == version)
            .unwrap_or_else(|| {
                src.fail(
                    line,
                    &format!("unknown API version `{version}` ({})", VERSIONS.join(", ")),
                )
            })
    };
    let mut all_rows: Vec<(&Source, usize, usize, &[&str])> = Vec::new();
    let vendor_rows = vendor.rows("version", 9, 9);
    for (line, cells) in &vendor_rows {
        all_rows.push((
            &vendor,
            *line,
            api_version(&vendor, *line, cells[0]),
            &cells[1..],
        ));
    }
    let enterprise_rows = enterprise.rows("edition", 10, 10);
    for (line, cells) in &enterprise_rows {
        let (edition, version) = (cells[0], cells[1]);
        if !(edition == "ghec" || edition.starts_with("ghes-")) {
            enterprise.fail(*line, &format!("`{edition}` is not an enterprise edition"));
        }
        let version = api_version(&enterprise, *line, version);
        let name = format!("{edition}-{}", VERSIONS[version]);
        let bit = match tables.iter().position(|(n, _, _)| *n == name) {
            Some(bit) => bit,
            None => {
                tables.push((name, edition.to_string(), version));
                tables.len() - 1
            }
        };
        all_rows.push((&enterprise, *line, bit, &cells[2..]));
    }
    if tables.len() > 8 {
        crate::source::fail(
            "catalog/codehost/editions.tsv",
            0,
            "more than 8 tables: widen `Endpoint::versions`",
        );
    }
    let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
    let mut merged: BTreeMap<(String, String, usize, String, bool, String), usize> =
        BTreeMap::new();
    for (vendor, line, bit, cells) in all_rows {
        let [scope, key, title, method, template, access, flags, docs] = cells[..] else {
            unreachable!("eight cells after the table's")
        };
        // Enterprise Cloud's enterprise-level permissions: reqlint's tokens have the
        // organization, repository and user scopes only, so those endpoints are not
        // judged (docs/codehost.md, "Editions").
        if scope == "enterprise" && vendor.shown.ends_with("editions.tsv") {
            continue;
        }
        let scope = scope_of(vendor, line, scope);
        let id = *by_key.entry(key.to_string()).or_insert_with(|| {
            permissions.push(Permission {
                scope,
                key: key.to_string(),
                title: title.to_string(),
            });
            permissions.len() - 1
        });
        if permissions[id].scope != scope || permissions[id].title != title {
            vendor.fail(line, &format!("`{key}` has another scope or title above"));
        }
        add_name(&mut names, title, id);
        add_name(&mut names, key, id);
        let method = method_of(vendor, line, method);
        let access = access_of(vendor, line, access);
        let flagged = match flags {
            "-" | "not-fine-grained" => false,
            "additional" | "additional,not-fine-grained" => true,
            other => vendor.fail(line, &format!("unknown flags `{other}`")),
        };
        if !template.starts_with('/') {
            vendor.fail(
                line,
                &format!("the path `{template}` does not start with `/`"),
            );
        }
        let row_key = (
            method.to_string(),
            template.to_string(),
            id,
            access.to_string(),
            flagged,
            docs.to_string(),
        );
        match merged.get(&row_key) {
            Some(&at) => rows[at].versions |= 1 << bit,
            None => {
                merged.insert(row_key, rows.len());
                rows.push(Row {
                    method,
                    template: template.to_string(),
                    permission: id,
                    access,
                    versions: 1 << bit,
                    flagged,
                    docs: docs.to_string(),
                    from_reference: false,
                });
            }
        }
    }

    // The reference document's rows hold in every table.
    let all_tables: u8 = ((1u16 << tables.len()) - 1) as u8;
    let reference = Source::read(root, "codehost/permissions.tsv");
    let table = reference.rows("kind", 3, 6);
    // The reference's names for the host's permissions, first: its rows use them.
    let mut same: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for (line, cells) in &table {
        if cells[0] != "same" {
            continue;
        }
        if cells.len() != 4 {
            reference.fail(*line, "a `same` row has four cells");
        }
        let scope = scope_of(&reference, *line, cells[1]);
        let id = *by_key.get(cells[3]).unwrap_or_else(|| {
            reference.fail(
                *line,
                &format!("`{}` is not a key of endpoints.tsv", cells[3]),
            )
        });
        if permissions[id].scope != scope {
            reference.fail(
                *line,
                &format!("`{}` is not a {} permission", cells[3], cells[1]),
            );
        }
        same.insert((scope, cells[2].to_string()), id);
        add_name(&mut names, cells[2], id);
    }
    for (line, cells) in &table {
        let line = *line;
        let scope = scope_of(&reference, line, cells[1]);
        let title = cells[2];
        if title.trim().is_empty() || title.trim() != title {
            reference.fail(
                line,
                "a permission title without surrounding spaces is expected",
            );
        }
        let id = match same.get(&(scope, title.to_string())) {
            Some(&id) => id,
            None => match permissions
                .iter()
                .position(|p| p.scope == scope && p.title == title)
            {
                Some(id) => id,
                None => {
                    permissions.push(Permission {
                        scope,
                        key: String::new(),
                        title: title.to_string(),
                    });
                    let id = permissions.len() - 1;
                    add_name(&mut names, title, id);
                    id
                }
            },
        };
        match (cells[0], cells.len()) {
            ("endpoint", 6) => {
                let method = method_of(&reference, line, cells[3]);
                let template = cells[4];
                if !template.starts_with('/') {
                    reference.fail(
                        line,
                        &format!("the path `{template}` does not start with `/`"),
                    );
                }
                let access = access_of(&reference, line, cells[5]);
                // A row the host has at the same or a lower level says it already; one
                // the reference gives at a lower level is kept (accept what either accepts).
                let known = rows.iter().any(|r| {
                    r.method == method
                        && r.permission == id
                        && shape(&r.template) == shape(template)
                        && access_rank(r.access) <= access_rank(access)
                });
                if !known {
                    rows.push(Row {
                        method,
                        template: template.to_string(),
                        permission: id,
                        access,
                        versions: all_tables,
                        flagged: false,
                        docs: String::new(),
                        from_reference: true,
                    });
                }
            }
            ("permission", 3) | ("same", 4) => {}
            ("alias", 4) => add_name(&mut names, cells[3], id),
            ("endpoint" | "permission" | "alias" | "same", n) => {
                reference.fail(line, &format!("a `{}` row with {n} cells", cells[0]))
            }
            (other, _) => reference.fail(
                line,
                &format!("unknown row kind `{other}` (endpoint, permission, alias or same)"),
            ),
        }
    }

    // The router, over every row. Strings are byte ranges of one text and lists ranges
    // of one table each, so that the rows hold no pointer for the loader to relocate.
    let mut text = TextBlob::default();
    let mut trie: Vec<TrieNode> = vec![TrieNode::default()];
    let mut segment_rows: Vec<String> = Vec::new();
    let mut endpoint_rows: Vec<String> = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        let mut node = 0;
        let first_segment = segment_rows.len();
        for segment in row.template.split('/').filter(|s| !s.is_empty()) {
            let placeholder = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
            let next = trie.len();
            node = match placeholder {
                Some(name) if !name.is_empty() && !name.contains(['{', '}']) => {
                    segment_rows.push(format!(
                        "Segment::Placeholder({})",
                        text.range("CText", name)
                    ));
                    *trie[node].placeholder.get_or_insert(next)
                }
                None if !segment.contains(['{', '}']) => {
                    segment_rows.push(format!(
                        "Segment::Literal({})",
                        text.range("CText", segment)
                    ));
                    *trie[node]
                        .literals
                        .entry(segment.to_string())
                        .or_insert(next)
                }
                _ => crate::source::fail(
                    "catalog/codehost",
                    0,
                    &format!("a malformed placeholder in `{}`", row.template),
                ),
            };
            if node == next {
                trie.push(TrieNode::default());
            }
        }
        trie[node].endpoints.push(index);
        endpoint_rows.push(format!(
            "Endpoint {{ method: Method::{}, template: {}, segments: Slice::new({first_segment}, {}), permission: {}, access: Access::{}, versions: {}, flagged: {}, docs: {}, from_reference: {} }}",
            row.method,
            text.range("CText", &row.template),
            segment_rows.len(),
            row.permission,
            row.access,
            row.versions,
            row.flagged,
            text.range("CText", &row.docs),
            row.from_reference,
        ));
    }

    let mut out = String::from(
        "// Generated by build/codehost.rs from catalog/codehost/endpoints.tsv and permissions.tsv.\n\n",
    );
    let versions: Vec<String> = VERSIONS.iter().map(|v| lit(v)).collect();
    writeln!(
        out,
        "/// The host's API versions, oldest first; the first is its default.\npub static VERSIONS: &[&str] = &[{}];\n",
        versions.join(", ")
    )
    .unwrap();
    let table_rows: Vec<String> = tables
        .iter()
        .map(|(name, edition, version)| format!("({}, {}, {version})", lit(name), lit(edition)))
        .collect();
    writeln!(
        out,
        "/// The permission tables, `(name, edition, index of its API version)`: the cloud's, one per\n/// API version in the order of `VERSIONS`, then the enterprise editions'.\npub static TABLES: &[(&str, &str, u8)] = &[{}];\n",
        table_rows.join(", ")
    )
    .unwrap();
    let permission_rows: Vec<String> = permissions
        .iter()
        .map(|p| {
            format!(
                "Permission {{ scope: Scope::{}, title: {}, key: {} }}",
                p.scope,
                text.range("CText", &p.title),
                text.range("CText", &p.key)
            )
        })
        .collect();
    table_lines(
        &mut out,
        "The permissions.",
        "PERMISSIONS",
        "Permission",
        &permission_rows,
    );
    table_lines(
        &mut out,
        "The endpoint rows.",
        "ENDPOINTS",
        "Endpoint",
        &endpoint_rows,
    );
    table_lines(
        &mut out,
        "The segments of the endpoint rows' templates, row after row.",
        "SEGMENTS",
        "Segment",
        &segment_rows,
    );
    // The permissions a name names and the rows a router node ends, one list after another.
    let mut indexes: Vec<usize> = Vec::new();
    let mut index_list = |list: &[usize]| -> String {
        let start = indexes.len();
        indexes.extend_from_slice(list);
        format!("Slice::new({start}, {})", indexes.len())
    };
    let name_rows: Vec<String> = names
        .iter()
        .map(|(name, ids)| format!("({}, {})", text.range("CText", name), index_list(ids)))
        .collect();
    table_lines(
        &mut out,
        "Normalized keys, titles and slugs, sorted, with the permissions they name.",
        "NAMES",
        "(CText, Slice<PermissionId>)",
        &name_rows,
    );
    let mut literal_rows: Vec<String> = Vec::new();
    let mut router_rows: Vec<String> = Vec::new();
    for node in &trie {
        let start = literal_rows.len();
        for (s, n) in &node.literals {
            literal_rows.push(format!("({}, {n})", text.range("CText", s)));
        }
        router_rows.push(format!(
            "RouteNode {{ literals: Slice::new({start}, {}), placeholder: {:?}, endpoints: {} }}",
            literal_rows.len(),
            node.placeholder,
            index_list(&node.endpoints)
        ));
    }
    table_lines(
        &mut out,
        "The path router: node 0 is the root.",
        "ROUTER",
        "RouteNode",
        &router_rows,
    );
    table_lines(
        &mut out,
        "The literal children of the router's nodes, node after node, each node's sorted.",
        "ROUTE_LITERALS",
        "(CText, usize)",
        &literal_rows,
    );
    let index_rows: Vec<String> = indexes.iter().map(|i| i.to_string()).collect();
    table_lines(
        &mut out,
        "The lists of permissions (of a name) and of endpoint rows (of a router node).",
        "INDEXES",
        "usize",
        &index_rows,
    );
    writeln!(
        out,
        "/// The strings of the tables, each written once.\npub const CODEHOST_TEXT: &str = {};\n",
        lit(&text.text)
    )
    .unwrap();
    out
}

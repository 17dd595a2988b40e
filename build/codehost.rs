//! `catalog/codehost/permissions.tsv` → the permission table, the endpoint rows, the
//! name index (titles and slugs, normalized, sorted for binary search) and the path
//! router (a trie of literal and placeholder segments).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use crate::names::normalize;
use crate::source::{METHODS, Source, lit};

const SCOPES: [(&str, &str); 3] = [
    ("organization", "Organization"),
    ("repository", "Repository"),
    ("user", "User"),
];

#[derive(Default)]
struct TrieNode {
    literals: BTreeMap<String, usize>,
    placeholder: Option<usize>,
    endpoints: Vec<usize>,
}

pub fn generate(root: &Path) -> String {
    let src = Source::read(root, "codehost/permissions.tsv");
    let mut permissions: Vec<(&str, &str)> = Vec::new();
    let mut names: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut endpoints = String::new();
    let mut trie: Vec<TrieNode> = vec![TrieNode::default()];
    let mut count = 0;
    for (line, cells) in src.rows("kind", 3, 6) {
        let scope = SCOPES
            .iter()
            .find(|(s, _)| *s == cells[1])
            .unwrap_or_else(|| {
                src.fail(
                    line,
                    &format!(
                        "unknown scope `{}` (organization, repository or user)",
                        cells[1]
                    ),
                )
            })
            .1;
        let title = cells[2];
        if title.trim().is_empty() || title.trim() != title {
            src.fail(
                line,
                "a permission title without surrounding spaces is expected",
            );
        }
        let id = match permissions
            .iter()
            .position(|&(s, t)| s == scope && t == title)
        {
            Some(id) => id,
            None => {
                permissions.push((scope, title));
                let id = permissions.len() - 1;
                names.entry(normalize(title)).or_default().push(id);
                id
            }
        };
        match (cells[0], cells.len()) {
            ("endpoint", 6) => {
                let method = METHODS
                    .iter()
                    .find(|(m, _)| *m == cells[3])
                    .unwrap_or_else(|| src.fail(line, &format!("unknown method `{}`", cells[3])))
                    .1;
                let template = cells[4];
                if !template.starts_with('/') {
                    src.fail(
                        line,
                        &format!("the path `{template}` does not start with `/`"),
                    );
                }
                // The host's `admin` is its highest level, which is write here.
                let access = match cells[5] {
                    "read" => "Read",
                    "write" | "admin" => "Write",
                    other => src.fail(
                        line,
                        &format!("unknown access `{other}` (read, write or admin)"),
                    ),
                };
                let mut node = 0;
                let mut segments = String::new();
                for segment in template.split('/').filter(|s| !s.is_empty()) {
                    let placeholder = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}'));
                    let next = trie.len();
                    node = match placeholder {
                        Some(name) => {
                            if name.is_empty() || name.contains(['{', '}']) {
                                src.fail(line, &format!("a malformed placeholder in `{template}`"));
                            }
                            write!(segments, "Segment::Placeholder({}), ", lit(name)).unwrap();
                            *trie[node].placeholder.get_or_insert(next)
                        }
                        None => {
                            if segment.contains(['{', '}']) {
                                src.fail(line, &format!("a malformed placeholder in `{template}`"));
                            }
                            write!(segments, "Segment::Literal({}), ", lit(segment)).unwrap();
                            *trie[node]
                                .literals
                                .entry(segment.to_string())
                                .or_insert(next)
                        }
                    };
                    if node == next {
                        trie.push(TrieNode::default());
                    }
                }
                trie[node].endpoints.push(count);
                writeln!(
                    endpoints,
                    "    Endpoint {{ method: Method::{method}, template: {}, segments: &[{segments}], permission: {id}, access: Access::{access} }},",
                    lit(template)
                )
                .unwrap();
                count += 1;
            }
            ("permission", 3) => {}
            ("alias", 4) => {
                let slug = normalize(cells[3]);
                let ids = names.entry(slug).or_default();
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            ("endpoint" | "permission" | "alias", n) => {
                src.fail(line, &format!("a `{}` row with {n} cells", cells[0]))
            }
            (other, _) => src.fail(
                line,
                &format!("unknown row kind `{other}` (endpoint, permission or alias)"),
            ),
        }
    }
    let mut out = String::from(
        "// Generated by build/codehost.rs from catalog/codehost/permissions.tsv.\n\n",
    );
    out.push_str("pub static PERMISSIONS: &[Permission] = &[\n");
    for (scope, title) in &permissions {
        writeln!(
            out,
            "    Permission {{ scope: Scope::{scope}, title: {} }},",
            lit(title)
        )
        .unwrap();
    }
    out.push_str("];\n\npub static ENDPOINTS: &[Endpoint] = &[\n");
    out.push_str(&endpoints);
    out.push_str("];\n\n/// Normalized titles and slugs, sorted, with the permissions they name.\npub static NAMES: &[(&str, &[PermissionId])] = &[\n");
    for (name, ids) in &names {
        writeln!(out, "    ({}, &{ids:?}),", lit(name)).unwrap();
    }
    out.push_str(
        "];\n\n/// The path router: node 0 is the root.\npub static ROUTER: &[RouteNode] = &[\n",
    );
    for node in &trie {
        let literals: Vec<String> = node
            .literals
            .iter()
            .map(|(s, n)| format!("({}, {n})", lit(s)))
            .collect();
        writeln!(
            out,
            "    RouteNode {{ literals: &[{}], placeholder: {:?}, endpoints: &{:?} }},",
            literals.join(", "),
            node.placeholder,
            node.endpoints
        )
        .unwrap();
    }
    out.push_str("];\n");
    out
}

//! `catalog/codehost/openapi/` (generated from the host's OpenAPI description) → the
//! operations of every edition, their path and query params, their JSON request bodies'
//! schema nodes, and a router over the path templates, laid out without a pointer per row: every string is a range of one text
//! blob, every link an index, so the tables need no relocation when the binary loads.
//!
//! The router is a trie: each node has literal children (sorted for binary search), a
//! placeholder child (one segment) and a multi-segment child (a param the host marks
//! `x-multi-segment`, whose value may hold slashes).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::path::Path;

use crate::source::{METHODS, Source, lit};

/// The editions, in the order of their bits in a row's edition set.
pub const EDITIONS: [&str; 5] = ["fpt", "ghec", "ghes-3.17", "ghes-3.18", "ghes-3.19"];
const NONE: u32 = u32::MAX;

/// One text blob, each string written once.
#[derive(Default)]
struct Blob {
    text: String,
    at: HashMap<String, (u32, u32)>,
}

impl Blob {
    /// `Text { start, end }` of a string in the blob; `-` (the tables' "none") is empty.
    fn text(&mut self, s: &str) -> String {
        let s = if s == "-" { "" } else { s };
        let (start, end) = match self.at.get(s) {
            Some(&range) => range,
            None => {
                let start = self.text.len() as u32;
                self.text.push_str(s);
                let range = (start, self.text.len() as u32);
                self.at.insert(s.to_string(), range);
                range
            }
        };
        format!("Text({start}, {end})")
    }
}

#[derive(Default)]
struct TrieNode {
    literals: BTreeMap<String, usize>,
    placeholder: Option<usize>,
    multi: Option<usize>,
    operations: Vec<usize>,
}

fn editions_of(src: &Source, line: usize, cell: &str) -> u8 {
    if cell == "*" {
        return (1 << EDITIONS.len()) - 1;
    }
    let mut bits = 0;
    for name in cell.split(',') {
        let bit = EDITIONS.iter().position(|e| *e == name).unwrap_or_else(|| {
            src.fail(
                line,
                &format!("unknown edition `{name}` ({})", EDITIONS.join(", ")),
            )
        });
        bits |= 1 << bit;
    }
    bits
}

fn method_of(src: &Source, line: usize, text: &str) -> &'static str {
    METHODS
        .iter()
        .find(|(m, _)| *m == text)
        .unwrap_or_else(|| src.fail(line, &format!("unknown method `{text}`")))
        .1
}

/// The placeholder name of a `{name}` segment; `None` for a literal one. A segment
/// that mixes text and placeholders (the enterprise editions' `{base}...{head}`) is
/// routed as one placeholder: it matches any one segment.
fn placeholder<'a>(src: &Source, line: usize, segment: &'a str) -> Option<&'a str> {
    if segment.is_empty() {
        src.fail(line, "an empty path segment");
    }
    let mut names = Vec::new();
    let mut rest = segment;
    while let Some(open) = rest.find('{') {
        let close = rest[open..].find('}').map(|c| open + c);
        match close {
            Some(close) if close > open + 1 && !rest[open + 1..close].contains('{') => {
                names.push(&rest[open + 1..close]);
                rest = &rest[close + 1..];
            }
            _ => src.fail(line, &format!("a malformed path segment `{segment}`")),
        }
    }
    if rest.contains('}') {
        src.fail(line, &format!("a malformed path segment `{segment}`"));
    }
    match names[..] {
        [] => None,
        [name] if segment.len() == name.len() + 2 => Some(name),
        _ => Some(""),
    }
}

pub fn generate(root: &Path) -> String {
    let mut blob = Blob::default();

    // Params first: the router needs to know which placeholders are multi-segment.
    let params_src = Source::read(root, "codehost/openapi/params.tsv");
    let mut params_of: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut multi: BTreeSet<(String, String, String)> = BTreeSet::new();
    for (line, cells) in params_src.rows("editions", 12, 12) {
        let [
            editions,
            method,
            path,
            location,
            name,
            required,
            kind,
            format,
            values,
            default,
            constraints,
            flags,
        ] = cells[..]
        else {
            unreachable!("twelve cells")
        };
        let editions = editions_of(&params_src, line, editions);
        method_of(&params_src, line, method);
        let location = match location {
            "path" => "Path",
            "query" => "Query",
            other => params_src.fail(line, &format!("unknown location `{other}` (path or query)")),
        };
        let required = match required {
            "required" => true,
            "-" => false,
            other => params_src.fail(line, &format!("`{other}` is not `required` or `-`")),
        };
        let mut multi_segment = false;
        let mut deprecated = false;
        for flag in flags.split(',').filter(|f| *f != "-") {
            match flag {
                "multi-segment" => multi_segment = true,
                "deprecated" => deprecated = true,
                other => params_src.fail(line, &format!("unknown param flag `{other}`")),
            }
        }
        if location == "Path" {
            if !path.contains(&format!("{{{name}}}")) {
                params_src.fail(line, &format!("the path param `{name}` is not in `{path}`"));
            }
            // (The host also marks a query param, `ref`, from the same shared
            // definition; a query value may hold slashes anyway.)
            if multi_segment {
                multi.insert((method.to_string(), path.to_string(), name.to_string()));
            }
        }
        let row = format!(
            "    Param {{ editions: {editions}, location: Location::{location}, name: {}, required: {required}, multi_segment: {multi_segment}, deprecated: {deprecated}, kind: {}, format: {}, values: {}, default: {}, constraints: {} }},",
            blob.text(name),
            blob.text(kind),
            blob.text(format),
            blob.text(values),
            blob.text(default),
            blob.text(constraints),
        );
        params_of
            .entry((method.to_string(), path.to_string()))
            .or_default()
            .push(row);
    }

    // Request bodies: one row per schema node, grouped by operation like the params.
    let bodies_src = Source::read(root, "codehost/openapi/bodies.tsv");
    let mut nodes_of: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for (line, cells) in bodies_src.rows("editions", 11, 11) {
        let [
            editions,
            method,
            path,
            property,
            kind,
            required,
            format,
            values,
            default,
            constraints,
            flags,
        ] = cells[..]
        else {
            unreachable!("eleven cells")
        };
        let editions = editions_of(&bodies_src, line, editions);
        method_of(&bodies_src, line, method);
        if !property.starts_with('$') {
            bodies_src.fail(
                line,
                &format!("the property `{property}` does not start with `$`"),
            );
        }
        let required = match required {
            "required" => true,
            "-" => false,
            other => bodies_src.fail(line, &format!("`{other}` is not `required` or `-`")),
        };
        let mut bits = Vec::new();
        for flag in flags.split(',').filter(|f| *f != "-") {
            bits.push(match flag {
                "nullable" => "NULLABLE",
                "closed" => "CLOSED",
                "open" => "OPEN",
                "deprecated" => "DEPRECATED",
                "read-only" => "READ_ONLY",
                "write-only" => "WRITE_ONLY",
                other => bodies_src.fail(line, &format!("unknown body flag `{other}`")),
            });
        }
        let row = format!(
            "    BodyNode {{ editions: {editions}, property: {}, kind: {}, required: {required}, flags: {}, format: {}, values: {}, default: {}, constraints: {} }},",
            blob.text(property),
            blob.text(kind),
            flag_bits("BodyNode", &bits),
            blob.text(format),
            blob.text(values),
            blob.text(default),
            blob.text(constraints),
        );
        nodes_of
            .entry((method.to_string(), path.to_string()))
            .or_default()
            .push(row);
    }

    let src = Source::read(root, "codehost/openapi/operations.tsv");
    let mut body_nodes = String::new();
    let mut body_count = 0usize;
    let mut body_range: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut trie: Vec<TrieNode> = vec![TrieNode::default()];
    let mut operations = String::new();
    let mut params = String::new();
    let mut param_count = 0usize;
    let mut param_range: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    let mut seen: BTreeMap<(String, String), u8> = BTreeMap::new();
    let mut count = 0usize;
    for (line, cells) in src.rows("editions", 10, 10) {
        let [
            editions,
            method,
            path,
            operation,
            category,
            subcategory,
            docs,
            server,
            body,
            flags,
        ] = cells[..]
        else {
            unreachable!("ten cells")
        };
        let editions = editions_of(&src, line, editions);
        let variant = method_of(&src, line, method);
        if !path.starts_with('/') {
            src.fail(line, &format!("the path `{path}` does not start with `/`"));
        }
        let key = (method.to_string(), path.to_string());
        let before = seen.entry(key.clone()).or_default();
        if *before & editions != 0 {
            src.fail(
                line,
                &format!("{method} {path} has two rows in one edition"),
            );
        }
        *before |= editions;
        let mut bits = Vec::new();
        let mut body_param = "-";
        for flag in flags.split(',').filter(|f| *f != "-") {
            match flag {
                "apps" => bits.push("APPS"),
                "cloud-only" => bits.push("CLOUD_ONLY"),
                "deprecated" => bits.push("DEPRECATED"),
                other => match other.strip_prefix("body-param=") {
                    Some(name) if !name.is_empty() => body_param = name,
                    _ => src.fail(line, &format!("unknown operation flag `{other}`")),
                },
            }
        }
        let (body, body_required) = match body.strip_suffix('!') {
            Some(media) => (media, true),
            None => (body, false),
        };
        if body_required {
            bits.push("BODY_REQUIRED");
        }
        let flags = flag_bits("Operation", &bits);
        let (body_first, body_last) = *body_range.entry(key.clone()).or_insert_with(|| {
            let rows = nodes_of.remove(&key).unwrap_or_default();
            let first = body_count;
            for row in &rows {
                body_nodes.push_str(row);
                body_nodes.push('\n');
            }
            body_count += rows.len();
            (first, body_count)
        });
        // An operation's params, written once for all its rows (each param keeps its
        // own editions).
        let (first, last) = *param_range.entry(key.clone()).or_insert_with(|| {
            let rows = params_of.remove(&key).unwrap_or_default();
            let first = param_count;
            for row in &rows {
                params.push_str(row);
                params.push('\n');
            }
            param_count += rows.len();
            (first, param_count)
        });

        let mut node = 0;
        let segments = path.split('/').skip(1).filter(|_| path != "/");
        for segment in segments {
            let next = trie.len();
            let child = match placeholder(&src, line, segment) {
                Some(name) => {
                    let spread =
                        multi.contains(&(method.to_string(), path.to_string(), name.to_string()));
                    let slot = if spread {
                        &mut trie[node].multi
                    } else {
                        &mut trie[node].placeholder
                    };
                    *slot.get_or_insert(next)
                }
                None => *trie[node]
                    .literals
                    .entry(segment.to_string())
                    .or_insert(next),
            };
            if child == next {
                trie.push(TrieNode::default());
            }
            node = child;
        }
        trie[node].operations.push(count);
        writeln!(
            operations,
            "    Operation {{ editions: {editions}, method: Method::{variant}, template: {}, id: {}, category: {}, subcategory: {}, docs: {}, server: {}, media: {}, body_param: {}, flags: {flags}, params: ({first}, {last}), body: ({body_first}, {body_last}) }},",
            blob.text(path),
            blob.text(operation),
            blob.text(category),
            blob.text(subcategory),
            blob.text(docs),
            blob.text(server),
            blob.text(body),
            blob.text(body_param),
        )
        .unwrap();
        count += 1;
    }
    if let Some(((method, path), _)) = nodes_of.iter().next() {
        bodies_src.fail(
            0,
            &format!("a body of {method} {path}, which operations.tsv lacks"),
        );
    }
    if let Some(((method, path), _)) = params_of.iter().next() {
        params_src.fail(
            0,
            &format!("params of {method} {path}, which operations.tsv lacks"),
        );
    }
    if count > u16::MAX as usize {
        src.fail(0, "more operations than a router node's u16 indices hold");
    }

    let mut nodes = String::new();
    let mut literals = String::new();
    let mut node_operations: Vec<usize> = Vec::new();
    let mut literal_count = 0usize;
    for node in &trie {
        let first = literal_count;
        for (segment, child) in &node.literals {
            writeln!(literals, "    ({}, {child}),", blob.text(segment)).unwrap();
            literal_count += 1;
        }
        let ops = node_operations.len();
        node_operations.extend(&node.operations);
        let index = |o: Option<usize>| o.map_or(NONE, |i| i as u32);
        writeln!(
            nodes,
            "    RouteNode {{ literals: ({first}, {literal_count}), placeholder: {}, multi: {}, operations: ({ops}, {}) }},",
            index(node.placeholder),
            index(node.multi),
            node_operations.len(),
        )
        .unwrap();
    }

    let mut out = String::from(
        "// Generated by build/openapi.rs from catalog/codehost/openapi/operations.tsv, params.tsv and bodies.tsv.\n\n",
    );
    let editions: Vec<String> = EDITIONS.iter().map(|e| lit(e)).collect();
    writeln!(
        out,
        "/// The editions, in the order of their bits in an edition set.\npub static EDITIONS: [&str; {}] = [{}];\n",
        EDITIONS.len(),
        editions.join(", ")
    )
    .unwrap();
    writeln!(
        out,
        "/// Every string of the tables below; a `Text` is a range of it.\npub static BLOB: &str = {};\n",
        lit(&blob.text)
    )
    .unwrap();
    writeln!(
        out,
        "pub static OPERATIONS: [Operation; {count}] = [\n{operations}];\n"
    )
    .unwrap();
    writeln!(
        out,
        "pub static PARAMS: [Param; {param_count}] = [\n{params}];\n"
    )
    .unwrap();
    writeln!(
        out,
        "/// Every JSON request body's schema, one row per node, each operation's together.\npub static BODY_NODES: [BodyNode; {body_count}] = [\n{body_nodes}];\n"
    )
    .unwrap();
    writeln!(
        out,
        "/// The router's nodes; node 0 is the root.\npub static NODES: [RouteNode; {}] = [\n{nodes}];\n",
        trie.len()
    )
    .unwrap();
    writeln!(
        out,
        "/// The literal children of every node, each node's sorted.\npub static LITERALS: [(Text, u32); {literal_count}] = [\n{literals}];\n"
    )
    .unwrap();
    writeln!(
        out,
        "/// The operations whose template ends at each node.\npub static NODE_OPERATIONS: [u16; {}] = {:?};",
        node_operations.len(),
        node_operations
    )
    .unwrap();
    out
}

/// `0`, or the named bit constants of `owner` or-ed together.
fn flag_bits(owner: &str, bits: &[&str]) -> String {
    if bits.is_empty() {
        return "0".to_string();
    }
    bits.iter()
        .map(|b| format!("{owner}::{b}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

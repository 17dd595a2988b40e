//! `catalog/codehost/octokit/methods.tsv` (Octokit's `github.rest.<namespace>.<name>`
//! methods, generated from its npm package) → a namespace index and the method rows,
//! sorted by namespace and name for binary search. Every string is a range of one text
//! blob and every link an index, so the loader relocates nothing in them.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::path::Path;

use crate::source::{METHODS, Source, lit};

/// The row flags `src/catalog/codehost_methods.rs` reads.
const DEPRECATED: u8 = 1;
/// A row that names no other row.
const NO_ROW: u16 = u16::MAX;

struct Row {
    line: usize,
    variant: &'static str,
    /// The path template, without the package's trailing `{?…}` query expansion.
    path: String,
    flags: u8,
    renamed_to: Option<(String, String)>,
}

/// A JavaScript identifier as the package names namespaces and methods (`createComment`).
fn is_identifier(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric())
}

/// The path of a route cell (`/repos/{owner}/{repo}/actions/caches{?key,ref}` →
/// `/repos/{owner}/{repo}/actions/caches`), or what is wrong with it.
fn path_of(route: &str) -> Result<&str, String> {
    let (path, query) = match route.find("{?") {
        Some(at) => (&route[..at], Some(&route[at + 2..])),
        None => (route, None),
    };
    if !path.starts_with('/') || path.contains(char::is_whitespace) || path.contains("//") {
        return Err(format!("`{route}` is not a path template"));
    }
    for segment in path.split('/').skip(1) {
        if !placeholders_well_formed(segment) {
            return Err(format!(
                "`{segment}` in `{route}` has a malformed placeholder"
            ));
        }
    }
    if let Some(query) = query {
        let names = query
            .strip_suffix('}')
            .ok_or_else(|| format!("the query expansion of `{route}` is not closed"))?;
        if names
            .split(',')
            .any(|n| n.is_empty() || !is_identifier_or_snake(n))
        {
            return Err(format!(
                "`{{?{names}}}` in `{route}` is not a list of params"
            ));
        }
    }
    Ok(path)
}

/// Every `{` of a segment opens a placeholder name (letters, digits, `_`, `-`) that a
/// `}` closes; text may stand around them (`{base}...{head}`).
fn placeholders_well_formed(segment: &str) -> bool {
    let mut rest = segment;
    while let Some(open) = rest.find(['{', '}']) {
        let Some(inner) = rest[open..].strip_prefix('{') else {
            return false;
        };
        let Some(close) = inner.find('}') else {
            return false;
        };
        let name = &inner[..close];
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return false;
        }
        rest = &inner[close + 1..];
    }
    true
}

fn is_identifier_or_snake(name: &str) -> bool {
    name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

pub fn generate(root: &Path) -> String {
    let src = Source::read(root, "codehost/octokit/methods.tsv");
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    for (line, cells) in src.rows("namespace", 5, 5) {
        let [namespace, name, method, route, flags] = cells[..] else {
            unreachable!("five cells")
        };
        for part in [namespace, name] {
            if !is_identifier(part) {
                src.fail(line, &format!("`{part}` is not a method or namespace name"));
            }
        }
        let variant = METHODS
            .iter()
            .find(|(m, _)| *m == method)
            .unwrap_or_else(|| src.fail(line, &format!("unknown method `{method}`")))
            .1;
        let path = path_of(route).unwrap_or_else(|what| src.fail(line, &what));
        let mut row = Row {
            line,
            variant,
            path: path.to_string(),
            flags: 0,
            renamed_to: None,
        };
        for flag in flags.split(',').filter(|f| *f != "-") {
            let (key, value) = flag.split_once('=').unwrap_or((flag, ""));
            match (key, value) {
                ("deprecated", "") => row.flags |= DEPRECATED,
                ("renamed-to", target) => match target.split_once('.') {
                    Some((ns, to)) if is_identifier(ns) && is_identifier(to) => {
                        row.renamed_to = Some((ns.to_string(), to.to_string()));
                    }
                    _ => src.fail(line, &format!("`{target}` is not NAMESPACE.NAME")),
                },
                // What the package does to the request beyond its route: checked for
                // form, not compiled (nothing reads it yet).
                ("renamed-param", pair) | ("header", pair)
                    if pair.split_once(':').is_some_and(|(a, b)| {
                        !a.is_empty() && !b.is_empty() && !a.contains(char::is_whitespace)
                    }) => {}
                ("map-to-data", param) if is_identifier_or_snake(param) && !param.is_empty() => {}
                ("base-url", url) if url.starts_with("https://") => {}
                _ => src.fail(line, &format!("unknown or malformed flag `{flag}`")),
            }
        }
        if rows
            .insert((namespace.to_string(), name.to_string()), row)
            .is_some()
        {
            src.fail(line, &format!("`{namespace}.{name}` has a row already"));
        }
    }
    if rows.len() >= NO_ROW as usize {
        src.fail(0, "more rows than the table's u16 links hold");
    }
    let index: HashMap<&(String, String), usize> =
        rows.keys().enumerate().map(|(i, k)| (k, i)).collect();

    let mut blob = String::new();
    let mut namespaces = String::new();
    let mut namespace_count = 0;
    let mut table = String::new();
    let mut current: Option<&str> = None;
    let mut first = 0;
    let mut flush_namespace = |blob: &mut String, name: &str, first: usize, last: usize| {
        let start = blob.len();
        blob.push_str(name);
        writeln!(
            namespaces,
            "    Namespace {{ name: Text({start}, {}), rows: ({first}, {last}) }},",
            blob.len()
        )
        .unwrap();
        namespace_count += 1;
    };
    for (i, ((namespace, name), row)) in rows.iter().enumerate() {
        if current != Some(namespace.as_str()) {
            if let Some(previous) = current {
                flush_namespace(&mut blob, previous, first, i);
            }
            current = Some(namespace);
            first = i;
        }
        let renamed = match &row.renamed_to {
            None => NO_ROW as usize,
            Some(target) => *index.get(target).unwrap_or_else(|| {
                src.fail(
                    row.line,
                    &format!("renamed to `{}.{}`, which has no row", target.0, target.1),
                )
            }),
        };
        let name_start = blob.len();
        blob.push_str(name);
        let path_start = blob.len();
        blob.push_str(&row.path);
        writeln!(
            table,
            "    Row {{ name: Text({name_start}, {path_start}), method: Method::{}, route: Text({path_start}, {}), flags: {}, renamed_to: {renamed} }},",
            row.variant,
            blob.len(),
            row.flags,
        )
        .unwrap();
    }
    if let Some(last) = current {
        flush_namespace(&mut blob, last, first, rows.len());
    }
    format!(
        "// Generated by build/octokit.rs from catalog/codehost/octokit/methods.tsv.\n\
         pub static BLOB: &str = {};\n\
         /// Sorted by name.\n\
         pub static NAMESPACES: [Namespace; {namespace_count}] = [\n{namespaces}];\n\
         /// Sorted by namespace, then name.\n\
         pub static ROWS: [Row; {}] = [\n{table}];\n",
        lit(&blob),
        rows.len()
    )
}

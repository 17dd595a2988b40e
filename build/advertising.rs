//! `catalog/advertising/` → node types, operations (method, path template, node, verb)
//! and their routing tables, the param tables, the version calendar and the ad set
//! tables of single rules (budget minimums, objective mapping, read fields).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;
use std::path::Path;

use crate::geo::Countries;
use crate::source::{
    METHODS, Source, TextBlob, Value, Yaml, camel, hash_slots, is_snake, lit, option, table_lines,
};

const VERBS: [&str; 6] = ["read", "create", "update", "delete", "copy", "opt_out"];
const TYPES: [&str; 11] = [
    "string",
    "numeric_string",
    "int32",
    "int64",
    "uint32",
    "bool",
    "enum",
    "list",
    "object",
    "json_string",
    "datetime",
];
const DEFAULT_RULE: &str = "ad-param-invalid";

/// The rules that params.yaml routes findings to (`rule:`, `missing:`), gathered as the
/// tables are read and emitted as the typed `ParamRule`: the registry's tests hold every
/// one of them to a rule of that name, so a misspelt name fails the tests, not a lookup.
#[derive(Default)]
pub struct Routes(RefCell<BTreeSet<String>>);

impl Routes {
    /// The `ParamRule` expression of a rule name at `line`, which must be kebab-case.
    fn route(&self, src: &Source, line: usize, name: &str) -> String {
        let kebab = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            && !name.starts_with('-')
            && !name.ends_with('-')
            && !name.contains("--");
        if !kebab {
            src.fail(line, &format!("`{name}` is not a rule name (kebab-case)"));
        }
        self.0.borrow_mut().insert(name.to_string());
        format!("ParamRule::{}", camel(&name.replace('-', "_")))
    }

    fn emit(&self, out: &mut String) {
        let names = self.0.borrow();
        out.push_str("/// A rule that the param tables route findings to (catalog/advertising/params.yaml).\n");
        out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub enum ParamRule {\n");
        for name in names.iter() {
            writeln!(out, "    {},", camel(&name.replace('-', "_"))).unwrap();
        }
        out.push_str("}\n\nimpl ParamRule {\n    pub const ALL: &'static [ParamRule] = &[");
        for name in names.iter() {
            write!(out, "ParamRule::{}, ", camel(&name.replace('-', "_"))).unwrap();
        }
        out.push_str("];\n\n    /// The rule's name.\n    pub fn name(self) -> &'static str {\n        match self {\n");
        for name in names.iter() {
            writeln!(
                out,
                "            ParamRule::{} => {},",
                camel(&name.replace('-', "_")),
                lit(name)
            )
            .unwrap();
        }
        out.push_str("        }\n    }\n}\n\n");
    }
}

/// The tables that the rows without pointers range over (src/catalog/packed.rs): the
/// one text of the strings, the lists of strings, the refused enum values, the params
/// (of operations and of objects, each list one range), the item specs of list params and
/// the operations of the edges. A list is written once however many rows name it.
#[derive(Default)]
struct Packed {
    text: RefCell<TextBlob>,
    text_lists: RefCell<Vec<String>>,
    list_at: RefCell<HashMap<Vec<String>, String>>,
    refused: RefCell<Vec<String>>,
    params: RefCell<Vec<String>>,
    /// The open-addressing indexes of the operations' params, one range each.
    param_slots: RefCell<Vec<String>>,
    items: RefCell<Vec<String>>,
    edge_operations: RefCell<Vec<String>>,
    billing_strategies: RefCell<Vec<String>>,
}

impl Packed {
    /// An `AText` of the one text.
    fn text(&self, s: &str) -> String {
        self.text.borrow_mut().range("AText", s)
    }

    /// A `Slice<AText>` of these strings.
    fn text_list<S: AsRef<str>>(&self, strings: &[S]) -> String {
        let texts: Vec<String> = strings.iter().map(|s| self.text(s.as_ref())).collect();
        if texts.is_empty() {
            return "Slice::new(0, 0)".into();
        }
        if let Some(slice) = self.list_at.borrow().get(&texts) {
            return slice.clone();
        }
        let mut lists = self.text_lists.borrow_mut();
        let start = lists.len();
        lists.extend(texts.iter().cloned());
        let slice = format!("Slice::new({start}, {})", lists.len());
        self.list_at.borrow_mut().insert(texts, slice.clone());
        slice
    }

    /// A `Slice<T>` of these rows, appended to `table` as one range.
    fn rows(table: &RefCell<Vec<String>>, rows: Vec<String>) -> String {
        let mut table = table.borrow_mut();
        let start = table.len();
        table.extend(rows);
        format!("Slice::new({start}, {})", table.len())
    }

    /// A `Slice<NameSlot>` of the open-addressing index of these names (an operation's
    /// params, in the order of their rows), appended to the slots as one range.
    fn slots(&self, names: &[&str]) -> String {
        let slots = hash_slots(names)
            .iter()
            .map(|s| format!("NameSlot({s})"))
            .collect();
        Packed::rows(&self.param_slots, slots)
    }

    /// A `Slice<(AText, ParamSpec)>` of these (name, spec) rows, appended to the params as
    /// one range.
    fn param_rows(&self, rows: Vec<(String, String)>) -> String {
        let rows = rows
            .into_iter()
            .map(|(name, spec)| format!("({}, {spec})", self.text(&name)))
            .collect();
        Packed::rows(&self.params, rows)
    }

    /// `pub const NAME: Names = …;`: a list of names.
    fn names<S: AsRef<str>>(&self, name: &str, doc: &str, values: &[S]) -> String {
        format!(
            "/// {doc}\npub const {name}: Names = Names({});\n\n",
            self.text_list(values)
        )
    }

    fn emit(&self, out: &mut String) {
        table_lines(
            out,
            "The lists of strings (enum values, the names an operation takes), one after another.",
            "TEXT_LISTS",
            "AText",
            &self.text_lists.borrow(),
        );
        table_lines(
            out,
            "The values enums refuse, with why, enum by enum.",
            "REFUSED",
            "(AText, AText)",
            &self.refused.borrow(),
        );
        table_lines(
            out,
            "The params of the operations and the fields of object params, each list one range.",
            "PARAMS",
            "(AText, ParamSpec)",
            &self.params.borrow(),
        );
        table_lines(
            out,
            "The open-addressing indexes of the operations' params (each 0, or 1 + a row of the\n/// operation's params), a range for each operation.",
            "PARAM_NAME_SLOTS",
            "NameSlot",
            &self.param_slots.borrow(),
        );
        table_lines(
            out,
            "The item specs of the list params.",
            "LIST_ITEMS",
            "ParamSpec",
            &self.items.borrow(),
        );
        table_lines(
            out,
            "The bid strategies of the billing events, event by event: the name and the row of\n/// [`MINIMUM_ROWS`].",
            "BILLING_STRATEGIES",
            "(AText, u16)",
            &self.billing_strategies.borrow(),
        );
        table_lines(
            out,
            "The operations of the edges, edge by edge.",
            "EDGE_OPERATIONS",
            "(Method, Operation)",
            &self.edge_operations.borrow(),
        );
        writeln!(
            out,
            "/// The strings of the advertising tables, each written once.\npub const ADVERTISING_TEXT: &str = {};",
            lit(&self.text.borrow().text)
        )
        .unwrap();
    }
}

struct Operation {
    name: String,
    node: String,
    verb: String,
    method: &'static str,
    path: String,
}

pub fn generate(root: &Path, countries: &Countries) -> String {
    let mut out =
        String::from("// Generated by build/advertising.rs from catalog/advertising/.\n\n");
    let packed = Packed::default();
    let nodes = nodes(root, &packed, &mut out);
    let ops = operations(root, &nodes, &packed, &mut out);
    let rules = Routes::default();
    rules.0.borrow_mut().insert(DEFAULT_RULE.to_string());
    params(root, &ops, &rules, &packed, &mut out);
    rules.emit(&mut out);
    versions(root, &mut out);
    minimums(root, countries, &packed, &mut out);
    objectives(root, &packed, &mut out);
    read_fields(root, &packed, &mut out);
    packed.emit(&mut out);
    out
}

fn nodes(root: &Path, packed: &Packed, out: &mut String) -> Vec<String> {
    let src = Source::read(root, "advertising/nodes.tsv");
    let rows = src.rows("node", 3, 3);
    let mut names = Vec::new();
    for (line, cells) in &rows {
        if !is_snake(cells[0]) {
            src.fail(
                *line,
                &format!("`{}` is not a snake_case node name", cells[0]),
            );
        }
        if names.contains(&cells[0].to_string()) {
            src.fail(*line, &format!("`{}` is listed twice", cells[0]));
        }
        names.push(cells[0].to_string());
    }
    out.push_str("/// A node type of the advertising API: what `/{version}/{id}` addresses.\n");
    out.push_str(
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\npub enum Node {\n",
    );
    for n in &names {
        writeln!(out, "    {},", camel(n)).unwrap();
    }
    out.push_str("}\n\nimpl Node {\n    pub const ALL: &'static [Node] = &[");
    for n in &names {
        write!(out, "Node::{}, ", camel(n)).unwrap();
    }
    out.push_str("];\n\n    /// The name `object:` takes, snake_case.\n    pub fn name(self) -> &'static str {\n        NODE_TEXTS[self as usize].0.as_str()\n    }\n\n");
    out.push_str("    /// As the reference writes it: `ad set`.\n    pub fn title(self) -> &'static str {\n        NODE_TEXTS[self as usize].1.as_str()\n    }\n\n");
    out.push_str("    /// Its list in context snapshots.\n    pub fn context_key(self) -> &'static str {\n        NODE_TEXTS[self as usize].2.as_str()\n    }\n}\n\n");
    let texts: Vec<String> = rows
        .iter()
        .map(|(_, cells)| {
            format!(
                "({}, {}, {})",
                packed.text(cells[0]),
                packed.text(cells[1]),
                packed.text(cells[2])
            )
        })
        .collect();
    table_lines(
        out,
        "Each node's name, title and context key, in the order of `Node::ALL`.",
        "NODE_TEXTS",
        "(AText, AText, AText)",
        &texts,
    );
    names
}

fn operations(root: &Path, nodes: &[String], packed: &Packed, out: &mut String) -> Vec<Operation> {
    let src = Source::read(root, "advertising/operations.tsv");
    let mut ops: Vec<Operation> = Vec::new();
    for (line, cells) in src.rows("operation", 5, 5) {
        let (name, node, verb, method, path) = (cells[0], cells[1], cells[2], cells[3], cells[4]);
        if !is_snake(name) {
            src.fail(
                line,
                &format!("`{name}` is not a snake_case operation name"),
            );
        }
        if ops.iter().any(|o| o.name == name) {
            src.fail(line, &format!("the operation `{name}` is listed twice"));
        }
        if !nodes.iter().any(|n| n == node) {
            src.fail(
                line,
                &format!("unknown node `{node}` (see advertising/nodes.tsv)"),
            );
        }
        if !VERBS.contains(&verb) {
            src.fail(
                line,
                &format!("unknown verb `{verb}` ({})", VERBS.join(", ")),
            );
        }
        let method = METHODS
            .iter()
            .find(|(m, _)| *m == method)
            .unwrap_or_else(|| src.fail(line, &format!("unknown method `{method}`")))
            .1;
        let edge = path
            .strip_prefix("/act_{account}/")
            .or_else(|| path.strip_prefix("/{id}/"));
        let shaped = path == "/{id}" || edge.is_some_and(|e| !e.is_empty() && is_snake(e));
        if !shaped {
            src.fail(
                line,
                &format!(
                    "`{path}` is not `/act_{{account}}/<edge>`, `/{{id}}/<edge>` or `/{{id}}`"
                ),
            );
        }
        let clash = ops
            .iter()
            .find(|o| o.method == method && o.path == path && (path != "/{id}" || o.node == node));
        if let Some(other) = clash {
            src.fail(
                line,
                &format!("`{}` has the same method and path", other.name),
            );
        }
        ops.push(Operation {
            name: name.to_string(),
            node: node.to_string(),
            verb: verb.to_string(),
            method,
            path: path.to_string(),
        });
    }
    out.push_str(
        "/// An operation of the advertising API: a method on a path template of a node.\n",
    );
    out.push_str(
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\npub enum Operation {\n",
    );
    for o in &ops {
        writeln!(out, "    {},", camel(&o.name)).unwrap();
    }
    out.push_str("}\n\nimpl Operation {\n    pub const ALL: &'static [Operation] = &[");
    for o in &ops {
        write!(out, "Operation::{}, ", camel(&o.name)).unwrap();
    }
    writeln!(out, "];\n    pub const COUNT: usize = {};\n", ops.len()).unwrap();
    let column = |out: &mut String, f: &str, ty: &str, value: &dyn Fn(&Operation) -> String| {
        writeln!(
            out,
            "    pub fn {f}(self) -> {ty} {{\n        match self {{"
        )
        .unwrap();
        for o in &ops {
            writeln!(
                out,
                "            Operation::{} => {},",
                camel(&o.name),
                value(o)
            )
            .unwrap();
        }
        out.push_str("        }\n    }\n\n");
    };
    out.push_str("    pub fn name(self) -> &'static str {\n        OPERATION_TEXTS[self as usize].0.as_str()\n    }\n\n");
    column(out, "node", "Node", &|o| {
        format!("Node::{}", camel(&o.node))
    });
    out.push_str("    pub fn verb(self) -> &'static str {\n        OPERATION_TEXTS[self as usize].1.as_str()\n    }\n\n");
    column(out, "method", "Method", &|o| {
        format!("Method::{}", o.method)
    });
    out.push_str("    pub fn path(self) -> &'static str {\n        OPERATION_TEXTS[self as usize].2.as_str()\n    }\n}\n\n");
    let texts: Vec<String> = ops
        .iter()
        .map(|o| {
            format!(
                "({}, {}, {})",
                packed.text(&o.name),
                packed.text(&o.verb),
                packed.text(&o.path)
            )
        })
        .collect();
    table_lines(
        out,
        "Each operation's name, verb and path template, in the order of `Operation::ALL`.",
        "OPERATION_TEXTS",
        "(AText, AText, AText)",
        &texts,
    );
    let edges = |prefix: &str| {
        let mut by_edge: BTreeMap<&str, Vec<&Operation>> = BTreeMap::new();
        for o in &ops {
            if let Some(edge) = o.path.strip_prefix(prefix) {
                by_edge.entry(edge).or_default().push(o);
            }
        }
        let mut rows = Vec::new();
        for (edge, list) in by_edge {
            let calls: Vec<String> = list
                .iter()
                .map(|o| format!("(Method::{}, Operation::{})", o.method, camel(&o.name)))
                .collect();
            let calls = Packed::rows(&packed.edge_operations, calls);
            rows.push(format!("({}, {calls})", packed.text(edge)));
        }
        rows
    };
    let ty = "(AText, Slice<(Method, Operation)>)";
    let account = edges("/act_{account}/");
    table_lines(
        out,
        "`/act_<id>/<edge>`: the operations of each edge, sorted by edge.",
        "ACCOUNT_EDGES",
        ty,
        &account,
    );
    let object = edges("/{id}/");
    table_lines(
        out,
        "`/<id>/<edge>`: the operations of each edge, sorted by edge.",
        "OBJECT_EDGES",
        ty,
        &object,
    );
    let by_id: Vec<String> = ops
        .iter()
        .filter(|o| o.path == "/{id}")
        .map(|o| {
            format!(
                "(Node::{}, Method::{}, Operation::{})",
                camel(&o.node),
                o.method,
                camel(&o.name)
            )
        })
        .collect();
    table_lines(
        out,
        "`/<id>`: the operation of each node and method.",
        "BY_ID",
        "(Node, Method, Operation)",
        &by_id,
    );
    ops
}

/// The Rust expression of a param spec; `inherited` is the rule of its parent.
fn spec(src: &Source, node: &Yaml, inherited: &str, rules: &Routes, packed: &Packed) -> String {
    if let Some(name) = node.scalar() {
        return format!(
            "ParamSpec {{ ty: {}, rule: {}, required: false, missing: None }}",
            type_of(src, name, node, inherited, rules, packed),
            rules.route(src, node.line, inherited)
        );
    }
    for (key, line, _) in node.entries(src) {
        const KEYS: [&str; 12] = [
            "type",
            "rule",
            "required",
            "missing",
            "max_chars",
            "min",
            "max",
            "values",
            "refused",
            "open",
            "items",
            "fields",
        ];
        if !KEYS.contains(&key.as_str()) {
            src.fail(*line, &format!("unknown key `{key}` in a param"));
        }
    }
    let name = node.get("type").map_or("any", |t| t.text(src));
    let rule = match node.get("rule") {
        Some(r) => r.text(src).to_string(),
        None => inherited.to_string(),
    };
    let required = node.get("required").is_some_and(|r| r.bool(src));
    // `missing: <rule>`: the rule that reports the param's absence, in place of the
    // generic check of the params a call requires.
    let missing = node
        .get("missing")
        .map(|m| format!("Some({})", rules.route(src, node.line, m.text(src))));
    format!(
        "ParamSpec {{ ty: {}, rule: {}, required: {required}, missing: {} }}",
        type_of(src, name, node, &rule, rules, packed),
        rules.route(src, node.line, &rule),
        missing.unwrap_or_else(|| "None".into())
    )
}

fn type_of(
    src: &Source,
    name: &str,
    node: &Yaml,
    rule: &str,
    rules: &Routes,
    packed: &Packed,
) -> String {
    let int = |key: &str| node.get(key).map(|v| v.int(src));
    let bound = |v: Option<i64>| option(v.map(|v| v.to_string()));
    match name {
        "string" => format!(
            "ParamType::String {{ max_chars: {} }}",
            option(int("max_chars").map(|v| v.to_string()))
        ),
        "numeric_string" => "ParamType::NumericString".into(),
        "int32" => format!(
            "ParamType::Int {{ min: {}, max: {} }}",
            bound(int("min").or(Some(i32::MIN as i64))),
            bound(int("max").or(Some(i32::MAX as i64)))
        ),
        "int64" => format!(
            "ParamType::Int {{ min: {}, max: {} }}",
            bound(int("min")),
            bound(int("max"))
        ),
        "uint32" => format!(
            "ParamType::Int {{ min: {}, max: {} }}",
            bound(int("min").or(Some(0))),
            bound(int("max").or(Some(u32::MAX as i64)))
        ),
        "bool" => "ParamType::Bool".into(),
        "enum" => {
            let values = node
                .get("values")
                .unwrap_or_else(|| src.fail(node.line, "an enum without `values`"))
                .strings(src);
            let mut seen = BTreeSet::new();
            for v in &values {
                if !seen.insert(v) {
                    src.fail(node.line, &format!("the enum value `{v}` is listed twice"));
                }
            }
            let refused: Vec<String> = node
                .get("refused")
                .map(|r| {
                    r.entries(src)
                        .iter()
                        .map(|(k, _, why)| {
                            format!("({}, {})", packed.text(k), packed.text(why.text(src)))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let open = node.get("open").is_some_and(|o| o.bool(src));
            format!(
                "ParamType::Enum {{ values: {}, refused: {}, open: {open} }}",
                packed.text_list(&values),
                Packed::rows(&packed.refused, refused)
            )
        }
        "list" => {
            let items = match node.get("items") {
                Some(items) => spec(src, items, rule, rules, packed),
                None => format!(
                    "ParamSpec {{ ty: ParamType::Any, rule: {}, required: false, missing: None }}",
                    rules.route(src, node.line, rule)
                ),
            };
            let mut table = packed.items.borrow_mut();
            table.push(items);
            format!("ParamType::List(ItemOf({}))", table.len() - 1)
        }
        "object" => {
            // The fields' own nested rows first: the fields are then one range.
            let fields: Vec<(String, String)> = node
                .get("fields")
                .map(|f| {
                    f.entries(src)
                        .iter()
                        .map(|(k, _, v)| (k.clone(), spec(src, v, rule, rules, packed)))
                        .collect()
                })
                .unwrap_or_default();
            format!(
                "ParamType::Object {{ fields: {} }}",
                packed.param_rows(fields)
            )
        }
        "json_string" => "ParamType::JsonString".into(),
        "datetime" => "ParamType::Datetime".into(),
        "any" => "ParamType::Any".into(),
        other => src.fail(
            node.line,
            &format!("unknown type `{other}` ({}, any)", TYPES.join(", ")),
        ),
    }
}

fn params(root: &Path, ops: &[Operation], rules: &Routes, packed: &Packed, out: &mut String) {
    let src = Source::read(root, "advertising/params.yaml");
    let doc = src.yaml();
    for (key, line, _) in doc.entries(&src) {
        if !["common", "endpoints", "ad_set_fields", "json_encoded"].contains(&key.as_str()) {
            src.fail(*line, &format!("unknown key `{key}`"));
        }
    }
    let names = |key: &str| -> Vec<String> {
        match doc.get(key) {
            Some(n) if matches!(n.value, Value::Map(_)) => {
                n.entries(&src).iter().map(|(k, _, _)| k.clone()).collect()
            }
            Some(n) => n.strings(&src),
            None => src.fail(doc.line, &format!("`{key}` is missing")),
        }
    };
    let common = names("common");
    let ad_set_fields = names("ad_set_fields");
    let json_encoded = names("json_encoded");
    let endpoints = doc
        .get("endpoints")
        .unwrap_or_else(|| src.fail(doc.line, "`endpoints` is missing"));
    let tables = endpoints.entries(&src);
    for (name, line, _) in tables {
        if !ops.iter().any(|o| o.name == *name) {
            src.fail(
                *line,
                &format!("`{name}` is not an operation of advertising/operations.tsv"),
            );
        }
    }
    let table_of = |name: &str, line: usize| table_in(&src, tables, name, line);
    let mut tables_out = Vec::new();
    for op in ops {
        let table = table_of(&op.name, 0);
        for (key, line, _) in table.entries(&src) {
            if !["source", "params", "open", "create", "like"].contains(&key.as_str()) {
                src.fail(
                    *line,
                    &format!("unknown key `{key}` in an operation's table"),
                );
            }
        }
        let source = table
            .get("source")
            .map(|s| s.text(&src))
            .unwrap_or_else(|| src.fail(table.line, "a table names its `source`"));
        let op_ref = |key: &str| {
            option(table.get(key).map(|v| {
                let other = v.text(&src);
                table_of(other, v.line);
                format!("Operation::{}", camel(other))
            }))
        };
        let mut params = Vec::new();
        for (pname, line, p) in table
            .get("params")
            .map(|p| p.entries(&src))
            .unwrap_or_default()
        {
            let spec_node = match p.get("same_as") {
                Some(other) => table_of(other.text(&src), other.line)
                    .get("params")
                    .and_then(|ps| ps.get(pname))
                    .unwrap_or_else(|| {
                        src.fail(
                            *line,
                            &format!("`{}` has no param `{pname}`", other.text(&src)),
                        )
                    }),
                None => p,
            };
            let spec = spec(&src, spec_node, DEFAULT_RULE, rules, packed);
            params.push((pname.to_string(), *line, spec));
        }
        // Sorted by name, as they are listed; a param is looked up by its hash, once for
        // every param of every request.
        params.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some(w) = params.windows(2).find(|w| w[0].0 == w[1].0) {
            src.fail(w[1].1, &format!("`{}` is listed twice", w[1].0));
        }
        let slots = packed.slots(&params.iter().map(|p| p.0.as_str()).collect::<Vec<_>>());
        let params = packed.param_rows(
            params
                .into_iter()
                .map(|(pname, _, spec)| (pname, spec))
                .collect(),
        );
        let mut known: Vec<String> = known(&src, tables, &op.name, &ad_set_fields, 0);
        known.extend(common.iter().cloned());
        known.sort();
        known.dedup();
        tables_out.push(format!(
            "OperationTable {{ op: Operation::{}, source: {}, open: {}, create: {}, like: {}, params: {params}, param_slots: {slots}, known: {} }}",
            camel(&op.name),
            packed.text(source),
            table.get("open").is_some_and(|o| o.bool(&src)),
            op_ref("create"),
            op_ref("like"),
            packed.text_list(&known)
        ));
    }
    table_lines(
        out,
        "The param table of each operation, in the order of `Operation::ALL`.",
        "PARAM_TABLES",
        "OperationTable",
        &tables_out,
    );
    out.push_str(&packed.names("COMMON", "Params every call carries.", &common));
    out.push_str(&packed.names(
        "AD_SET_FIELDS",
        "Fields an ad set update may send and a read may ask for.",
        &ad_set_fields,
    ));
    // The `Api` trait hands these out as a slice of `&str`: three pointers.
    let json_encoded: Vec<String> = json_encoded.iter().map(|v| lit(v)).collect();
    writeln!(
        out,
        "/// Params the form-encoded API takes as JSON-encoded strings.\npub static JSON_ENCODED: &[&str] = &[{}];\n",
        json_encoded.join(", ")
    )
    .unwrap();
}

fn date(src: &Source, line: usize, text: &str) -> String {
    let parts: Vec<&str> = text.split('-').collect();
    let ok = parts.len() == 3
        && parts[0].len() == 4
        && parts[1].len() == 2
        && parts[2].len() == 2
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    let (y, m, d): (i32, u32, u32) = if ok {
        (
            parts[0].parse().unwrap(),
            parts[1].parse().unwrap(),
            parts[2].parse().unwrap(),
        )
    } else {
        (0, 0, 0)
    };
    if !ok || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        src.fail(line, &format!("`{text}` is not a date (YYYY-MM-DD)"));
    }
    format!("({y}, {m}, {d})")
}

fn versions(root: &Path, out: &mut String) {
    let src = Source::read(root, "advertising/versions.tsv");
    let checked = src
        .text
        .lines()
        .find_map(|l| l.strip_prefix("# checked: "))
        .map(|l| l.split('.').next().unwrap_or(l).to_string())
        .unwrap_or_else(|| src.fail(0, "a `# checked: YYYY-MM-DD.` line is missing"));
    writeln!(out, "/// When the version table was last checked against the vendor's pages.\npub const VERSIONS_CHECKED: &str = {};\n", lit(&checked)).unwrap();
    out.push_str("pub const RELEASES: &[Release] = &[\n");
    let mut last = (0, 0);
    for (line, cells) in src.rows("version", 2, 3) {
        let version = cells[0]
            .strip_prefix('v')
            .and_then(|v| v.split_once('.'))
            .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
            .unwrap_or_else(|| src.fail(line, &format!("`{}` is not a version (vNN.N)", cells[0])));
        if version <= last {
            src.fail(line, "versions are listed oldest first");
        }
        last = version;
        let ends = cells.get(2).map(|e| e.trim()).filter(|e| !e.is_empty());
        let estimated = ends.is_some_and(|e| e.starts_with('~'));
        let ends = option(ends.map(|e| date(&src, line, e.trim_start_matches('~'))));
        writeln!(
            out,
            "    Release {{ version: {version:?}, released: {}, ends: {ends}, ends_estimated: {estimated} }},",
            date(&src, line, cells[1].trim())
        )
        .unwrap();
    }
    out.push_str("];\n\n");
}

fn minimums(root: &Path, countries: &Countries, packed: &Packed, out: &mut String) {
    let src = Source::read(root, "advertising/adset_budget_minimums.yaml");
    let doc = src.yaml();
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut minimum_rows = Vec::new();
    for row in doc
        .get("minimums")
        .unwrap_or_else(|| src.fail(doc.line, "`minimums` is missing"))
        .items(&src)
    {
        let field = |k: &str| row.get(k).map(|v| v.text(&src).to_string());
        let bid_strategy = field("bid_strategy")
            .unwrap_or_else(|| src.fail(row.line, "a row needs `bid_strategy`"));
        let billing =
            field("billing").unwrap_or_else(|| src.fail(row.line, "a row needs `billing`"));
        let (minimum, written) = match (field("usd"), field("times_bid_amount")) {
            (Some(usd), None) => {
                let (whole, frac) = usd.split_once('.').unwrap_or((&usd, ""));
                let cents = (frac.len() <= 2 && frac.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| {
                        Some(
                            whole.parse::<i64>().ok()? * 100
                                + format!("{frac:0<2}").parse::<i64>().ok()?,
                        )
                    })
                    .flatten()
                    .unwrap_or_else(|| {
                        src.fail(row.line, &format!("`{usd}` is not an amount in USD"))
                    });
                (format!("Minimum::UsdCents({cents})"), usd)
            }
            (None, Some(k)) => {
                let times: i64 = k
                    .parse()
                    .unwrap_or_else(|_| src.fail(row.line, &format!("`{k}` is not an integer")));
                (format!("Minimum::TimesBidAmount({times})"), k)
            }
            _ => src.fail(row.line, "a row needs `usd` or `times_bid_amount`"),
        };
        let doubled = row.get("doubled").is_none_or(|d| d.bool(&src));
        minimum_rows.push(format!(
            "MinimumRow {{ bid_strategy: {}, billing: {}, minimum: {minimum}, written: {}, doubled: {doubled} }}",
            packed.text(&bid_strategy),
            packed.text(&billing),
            packed.text(&written)
        ));
        rows.push((bid_strategy, billing));
    }
    table_lines(
        out,
        "The rows of the minimum daily budget table.",
        "MINIMUM_ROWS",
        "MinimumRow",
        &minimum_rows,
    );
    let mut events: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    let event_node = doc
        .get("billing_events")
        .unwrap_or_else(|| src.fail(doc.line, "`billing_events` is missing"));
    for (event, _, strategies) in event_node.entries(&src) {
        let entry = events.entry(event).or_default();
        for (strategy, line, billing) in strategies.entries(&src) {
            let billing = billing.text(&src);
            let index = rows
                .iter()
                .position(|(s, b)| s == strategy && b == billing)
                .unwrap_or_else(|| src.fail(*line, &format!("no row {strategy} / {billing}")));
            entry.insert(strategy, index);
        }
    }
    let mut event_rows = Vec::new();
    for (event, by_strategy) in &events {
        let pairs: Vec<String> = by_strategy
            .iter()
            .map(|(s, i)| format!("({}, {i})", packed.text(s)))
            .collect();
        let pairs = Packed::rows(&packed.billing_strategies, pairs);
        event_rows.push(format!("({}, {pairs})", packed.text(event)));
    }
    table_lines(
        out,
        "billing_event → bid_strategy → row of MINIMUM_ROWS, both sorted.",
        "BILLING_EVENTS",
        "(AText, Slice<(AText, u16)>)",
        &event_rows,
    );
    let mut doubled = Vec::new();
    for (code, line, name) in doc
        .get("doubled_countries")
        .unwrap_or_else(|| src.fail(doc.line, "`doubled_countries` is missing"))
        .entries(&src)
    {
        if !countries.codes.contains(code) {
            src.fail(*line, &format!("`{code}` is not in geo/iso_countries.tsv"));
        }
        doubled.push(format!(
            "({}, {})",
            packed.text(code),
            packed.text(name.text(&src))
        ));
    }
    table_lines(
        out,
        "ISO code and the reference's name, in the reference's order.",
        "DOUBLED_COUNTRIES",
        "(AText, AText)",
        &doubled,
    );
    let mut units = BTreeMap::new();
    for (code, line, unit) in doc
        .get("currency_units")
        .unwrap_or_else(|| src.fail(doc.line, "`currency_units` is missing"))
        .entries(&src)
    {
        if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
            src.fail(*line, &format!("`{code}` is not an ISO 4217 code"));
        }
        units.insert(code.as_str(), unit.int(&src));
    }
    let units: Vec<String> = units
        .into_iter()
        .map(|(code, unit)| format!("({}, {unit})", packed.text(code)))
        .collect();
    table_lines(
        out,
        "Budget units per unit of a currency, sorted by currency.",
        "CURRENCY_UNITS",
        "(AText, i64)",
        &units,
    );
}

fn objectives(root: &Path, packed: &Packed, out: &mut String) {
    let src = Source::read(root, "advertising/adset_objective_goals.yaml");
    let doc = src.yaml();
    let section = |key: &str| {
        doc.get(key)
            .unwrap_or_else(|| src.fail(doc.line, &format!("`{key}` is missing")))
            .entries(&src)
    };
    let words: BTreeMap<&str, Vec<String>> = section("words")
        .iter()
        .map(|(w, _, goals)| (w.as_str(), goals.strings(&src)))
        .collect();
    let unmapped: Vec<&str> = section("unmapped")
        .iter()
        .map(|(w, _, _)| w.as_str())
        .collect();
    let word_rows: Vec<String> = words
        .iter()
        .map(|(w, goals)| format!("({}, Names({}))", packed.text(w), packed.text_list(goals)))
        .collect();
    table_lines(
        out,
        "The goal words of the objective table and the optimization_goal values they mean, sorted.",
        "GOAL_WORDS",
        "(AText, Names)",
        &word_rows,
    );
    out.push_str(&packed.names(
        "UNMAPPED_GOAL_WORDS",
        "Goal words that name no optimization_goal value.",
        &unmapped,
    ));
    let mut objectives = BTreeMap::new();
    for (objective, _, o) in section("objectives") {
        let name = o.get("name").map(|s| s.text(&src)).unwrap_or_default();
        let list = o.get("words").map(|w| w.strings(&src)).unwrap_or_default();
        for w in &list {
            if !words.contains_key(w.as_str()) && !unmapped.contains(&w.as_str()) {
                src.fail(
                    o.line,
                    &format!("the goal word `{w}` is neither under `words` nor `unmapped`"),
                );
            }
        }
        objectives.insert(
            objective.as_str(),
            format!(
                "Objective {{ name: {}, words: Names({}) }}",
                packed.text(name),
                packed.text_list(&list)
            ),
        );
    }
    let rows: Vec<String> = objectives
        .into_iter()
        .map(|(objective, o)| format!("({}, {o})", packed.text(objective)))
        .collect();
    table_lines(
        out,
        "Each outcome-driven objective with its goal words, sorted.",
        "OBJECTIVES",
        "(AText, Objective)",
        &rows,
    );
}

fn read_fields(root: &Path, packed: &Packed, out: &mut String) {
    let src = Source::read(root, "advertising/adset_read_fields.yaml");
    let doc = src.yaml();
    for key in ["read_only", "described_unnamed"] {
        let values = doc
            .get(key)
            .unwrap_or_else(|| src.fail(doc.line, &format!("`{key}` is missing")))
            .strings(&src);
        out.push_str(&packed.names(
            &key.to_ascii_uppercase(),
            &format!("`{key}` of catalog/advertising/adset_read_fields.yaml."),
            &values,
        ));
    }
}

fn table_in<'a>(
    src: &Source,
    tables: &'a [(String, usize, Yaml)],
    name: &str,
    line: usize,
) -> &'a Yaml {
    tables
        .iter()
        .find(|(n, _, _)| n == name)
        .map(|(_, _, t)| t)
        .unwrap_or_else(|| src.fail(line, &format!("no table `{name}`")))
}

/// Every name an operation takes: its params, and through `like` those of the other
/// table and the ad set fields.
fn known(
    src: &Source,
    tables: &[(String, usize, Yaml)],
    name: &str,
    ad_set_fields: &[String],
    depth: usize,
) -> Vec<String> {
    let table = table_in(src, tables, name, 0);
    if depth > 4 {
        src.fail(table.line, "`like` goes round in a circle");
    }
    let mut names: Vec<String> = table
        .get("params")
        .map(|p| p.entries(src).iter().map(|(k, _, _)| k.clone()).collect())
        .unwrap_or_default();
    if let Some(like) = table.get("like") {
        names.extend(known(src, tables, like.text(src), ad_set_fields, depth + 1));
        names.extend(ad_set_fields.iter().cloned());
    }
    names
}

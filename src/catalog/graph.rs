//! The whole Marketing API graph (`catalog/advertising/graph/`, generated from Meta's
//! Business SDK codegen specs): every node type with its fields, every call on a node
//! and its edges with its params, and the enums those params take and the fields of
//! their node types take (however deep). Compiled by build/graph.rs; the lookups here
//! are binary searches over static tables, or hashed (fields and params). A param the
//! specs type as a bare object that sets a node-typed field of the node its call writes
//! has that field's type.

use crate::catalog::Method;
use crate::catalog::packed::{Blob, Rows, Slice, Text, find_hashed};

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/graph.rs"));
}

pub use generated::{
    GRAPH_ACCOUNT_EDGES, GRAPH_CALLS, GRAPH_NODES, GRAPH_OBJECT_EDGES, GRAPH_VERSION,
};

/// The one text the graph's names are byte ranges of.
#[derive(Debug)]
pub struct GraphText;

impl Blob for GraphText {
    const TEXT: &'static str = generated::GRAPH_TEXT;
}

/// A string of the graph's tables (no pointer: the loader relocates nothing in the rows
/// however large the graph grows); it reads as a `&'static str`.
pub type GText = Text<GraphText>;

/// A list of the graph's tables: a range of the table of its rows.
pub type GSlice<T> = Slice<T>;

impl Rows for (GText, GType) {
    fn table() -> &'static [Self] {
        &generated::GRAPH_FIELDS
    }
}

impl Rows for GraphParam {
    fn table() -> &'static [Self] {
        &generated::GRAPH_PARAMS
    }
}

impl Rows for u16 {
    fn table() -> &'static [Self] {
        &generated::GRAPH_CALL_LISTS
    }
}

/// A slot of the open-addressing index of a node's fields or a call's params: 0, or 1 +
/// the index of a row of its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GSlot(u16);

impl From<GSlot> for u16 {
    fn from(slot: GSlot) -> u16 {
        slot.0
    }
}

impl Rows for GSlot {
    fn table() -> &'static [Self] {
        &generated::GRAPH_NAME_SLOTS
    }
}

/// The item type of a list type: an index into the table of item types (no pointer),
/// read as a `&GType`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct GListOf(u16);

impl std::ops::Deref for GListOf {
    type Target = GType;

    fn deref(&self) -> &'static GType {
        &generated::GRAPH_LIST_ITEMS[self.0 as usize]
    }
}

impl std::fmt::Debug for GListOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// Every enum that a param or a field of a param's node type names, as (name, values),
/// sorted by name, values sorted: a slice of the compiled enums, read from their text on
/// first use (the compiled tables hold offsets, not pointers).
pub const GRAPH_ENUMS: GraphEnums = GraphEnums;

/// The enums as a slice: see [`GRAPH_ENUMS`].
#[derive(Clone, Copy, Debug)]
pub struct GraphEnums;

type EnumEntry = (&'static str, &'static [&'static str]);

fn enums() -> &'static [EnumEntry] {
    use std::sync::LazyLock;
    static VALUES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        generated::GRAPH_ENUM_VALUES
            .iter()
            .map(|&(start, end)| &generated::GRAPH_ENUM_TEXT[start as usize..end as usize])
            .collect()
    });
    static ENUMS: LazyLock<Vec<EnumEntry>> = LazyLock::new(|| {
        let values: &'static [&'static str] = &VALUES;
        generated::GRAPH_ENUM_INDEX
            .iter()
            .map(|&(name_start, name_end, first, end)| {
                (
                    &generated::GRAPH_ENUM_TEXT[name_start as usize..name_end as usize],
                    &values[first as usize..end as usize],
                )
            })
            .collect()
    });
    &ENUMS
}

impl std::ops::Deref for GraphEnums {
    type Target = [EnumEntry];

    fn deref(&self) -> &Self::Target {
        enums()
    }
}

impl IntoIterator for GraphEnums {
    type Item = &'static EnumEntry;
    type IntoIter = std::slice::Iter<'static, EnumEntry>;

    fn into_iter(self) -> Self::IntoIter {
        enums().iter()
    }
}

/// A node type of the graph: an index into [`GRAPH_NODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GNode(pub u16);

/// A call of the graph: an index into [`GRAPH_CALLS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GCallId(pub u16);

/// The type of a param or a field, as the vendor's specs give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GType {
    String,
    Int,
    UInt,
    Float,
    Bool,
    Datetime,
    File,
    /// Any JSON object (`Object` in the specs), or a list given as `list` alone.
    Object,
    /// A JSON object of names to values (`map`, `map<string, T>`).
    Map,
    /// Its item type (the build writes each item type once, so equal lists are equal).
    List(GListOf),
    /// An index into [`GRAPH_ENUMS`].
    Enum(u16),
    /// A node type given whole, as a JSON object (an ad's `creative`, a `targeting`).
    Node(GNode),
}

#[derive(Debug)]
pub struct GraphNode {
    pub name: GText,
    /// The node's name in the vendor's specs (`AdSet`).
    pub spec: GText,
    /// Sorted by name.
    pub fields: GSlice<(GText, GType)>,
    /// The open-addressing index of the fields' names.
    pub field_slots: GSlice<GSlot>,
    /// The range of its calls in [`GRAPH_CALLS`].
    pub calls: (usize, usize),
    /// The calls that create it (a POST on an edge that returns it).
    pub created_by: GSlice<u16>,
}

#[derive(Debug)]
pub struct GraphParam {
    pub name: GText,
    pub required: bool,
    pub ty: GType,
}

#[derive(Debug)]
pub struct GraphCall {
    pub node: GNode,
    pub method: Method,
    /// `""` for a call on the node itself.
    pub edge: GText,
    pub returns: GType,
    /// Sorted by name.
    pub params: GSlice<GraphParam>,
    /// The open-addressing index of the params' names.
    pub param_slots: GSlice<GSlot>,
}

impl GNode {
    pub fn parse(name: &str) -> Option<GNode> {
        GRAPH_NODES
            .binary_search_by(|n| n.name.cmp_str(name))
            .ok()
            .map(|i| GNode(i as u16))
    }

    pub fn info(self) -> &'static GraphNode {
        &GRAPH_NODES[self.0 as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name.as_str()
    }

    pub fn field(self, name: &str) -> Option<GType> {
        self.fields().get(name)
    }

    /// The node's fields, read from the tables once for all the keys of an object.
    pub fn fields(self) -> Fields {
        let info = self.info();
        Fields {
            rows: info.fields.as_slice(),
            slots: info.field_slots.as_slice(),
        }
    }

    /// The node's calls.
    pub fn calls(self) -> impl Iterator<Item = GCallId> {
        let (start, end) = self.info().calls;
        (start..end).map(|i| GCallId(i as u16))
    }

    /// Its call by method and edge (`""`: the node itself).
    pub fn call(self, method: Method, edge: &str) -> Option<GCallId> {
        self.calls()
            .find(|c| c.get().method == method && c.get().edge == edge)
    }

    /// The node type an edge of this node returns on read, for `fields` expansions
    /// (`campaign{name}`, `insights{spend}`).
    pub fn edge_returns(self, edge: &str) -> Option<GType> {
        self.call(Method::Get, edge).map(|c| c.get().returns)
    }

    /// Whether a call that creates this node takes a param of this name.
    pub fn created_with(self, name: &str) -> bool {
        self.info()
            .created_by
            .iter()
            .any(|&c| GCallId(c).get().param(name).is_some())
    }

    /// Whether objects of this node type can be read or expanded field by field: it has
    /// fields of its own.
    pub fn has_fields(self) -> bool {
        !self.info().fields.is_empty()
    }

    pub fn all() -> impl Iterator<Item = GNode> {
        (0..GRAPH_NODES.len()).map(|i| GNode(i as u16))
    }
}

/// The fields of a node type (sorted by name) with the index of their names.
#[derive(Clone, Copy, Debug)]
pub struct Fields {
    rows: &'static [(GText, GType)],
    slots: &'static [GSlot],
}

impl Fields {
    /// The type of the field `name`.
    pub fn get(&self, name: &str) -> Option<GType> {
        find_hashed(self.rows, self.slots, name, |f, name| f.0.is(name)).map(|f| f.1)
    }

    /// The fields' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + Clone {
        self.rows.iter().map(|(f, _)| f.as_str())
    }
}

impl GCallId {
    pub fn get(self) -> &'static GraphCall {
        &GRAPH_CALLS[self.0 as usize]
    }

    pub fn all() -> impl Iterator<Item = GCallId> {
        (0..GRAPH_CALLS.len()).map(|i| GCallId(i as u16))
    }
}

/// The catalog's Graph API version as (major, minor).
pub fn graph_version() -> (u32, u32) {
    let v = GRAPH_VERSION.trim_start_matches('v');
    let (major, minor) = v.split_once('.').unwrap_or((v, "0"));
    (major.parse().unwrap_or(0), minor.parse().unwrap_or(0))
}

impl GraphCall {
    pub fn param(&self, name: &str) -> Option<&'static GraphParam> {
        find_hashed(
            self.params.as_slice(),
            self.param_slots.as_slice(),
            name,
            |p, name| p.name.is(name),
        )
    }

    /// `POST /act_<id>/campaigns`, `GET /<ad id>/insights`, `POST /<campaign id>`.
    pub fn describe(&self) -> String {
        let node = self.node.name();
        match (node, self.edge.as_str()) {
            ("ad_account", "") => format!("{} /act_<id>", self.method),
            ("ad_account", edge) => format!("{} /act_<id>/{edge}", self.method),
            (node, "") => format!("{} /<{node} id>", self.method),
            (node, edge) => format!("{} /<{node} id>/{edge}", self.method),
        }
    }
}

impl GType {
    /// The element type of lists within lists, and how deep they go.
    pub fn item(self) -> GType {
        match self {
            GType::List(inner) => inner.item(),
            t => t,
        }
    }

    /// The node type this type holds (a node or a list of them).
    pub fn node(self) -> Option<GNode> {
        match self.item() {
            GType::Node(n) => Some(n),
            _ => None,
        }
    }

    /// Whether the type tells valid values from invalid ones (numbers, booleans, dates,
    /// enums, and lists of them), rather than accepting any string or object.
    pub fn judges_values(self) -> bool {
        matches!(
            self.item(),
            GType::Int
                | GType::UInt
                | GType::Float
                | GType::Bool
                | GType::Datetime
                | GType::Enum(_)
        )
    }

    /// How the type reads in a message: `a list of unsigned integers`.
    pub fn describe(self) -> String {
        match self {
            GType::String => "a string".into(),
            GType::Int => "an integer".into(),
            GType::UInt => "an unsigned integer".into(),
            GType::Float => "a number".into(),
            GType::Bool => "true or false".into(),
            GType::Datetime => "a date-time or a UNIX timestamp".into(),
            GType::File => "a file".into(),
            GType::Object => "a JSON object".into(),
            GType::Map => "a JSON object (a map)".into(),
            GType::List(inner) => format!("a list of {}", inner.describe_plural()),
            GType::Enum(e) => format!("one of the values of `{}`", enum_name(e)),
            GType::Node(n) => format!("a {} object", n.info().spec),
        }
    }

    fn describe_plural(self) -> String {
        match self {
            GType::String => "strings".into(),
            GType::Int => "integers".into(),
            GType::UInt => "unsigned integers".into(),
            GType::Float => "numbers".into(),
            GType::Bool => "booleans".into(),
            GType::Datetime => "date-times".into(),
            GType::File => "files".into(),
            GType::Object | GType::Map => "JSON objects".into(),
            GType::List(inner) => format!("lists of {}", inner.describe_plural()),
            GType::Enum(e) => format!("values of `{}`", enum_name(e)),
            GType::Node(n) => format!("{} objects", n.info().spec),
        }
    }
}

pub fn enum_name(index: u16) -> &'static str {
    let (name_start, name_end, _, _) = generated::GRAPH_ENUM_INDEX[index as usize];
    &generated::GRAPH_ENUM_TEXT[name_start as usize..name_end as usize]
}

/// The values of one enum, read from the compiled text the first time it is asked for:
/// reading every enum's values at once was a fifth of a one-file check's work.
pub fn enum_values(index: u16) -> &'static [&'static str] {
    use std::sync::{LazyLock, OnceLock};
    type Values = OnceLock<Box<[&'static str]>>;
    static VALUES: LazyLock<Box<[Values]>> = LazyLock::new(|| {
        (0..generated::GRAPH_ENUM_INDEX.len())
            .map(|_| OnceLock::new())
            .collect()
    });
    VALUES[index as usize].get_or_init(|| {
        let (_, _, first, end) = generated::GRAPH_ENUM_INDEX[index as usize];
        generated::GRAPH_ENUM_VALUES[first as usize..end as usize]
            .iter()
            .map(|&(start, end)| &generated::GRAPH_ENUM_TEXT[start as usize..end as usize])
            .collect()
    })
}

/// The calls of `/act_<id>/<edge>` (`account`) or `/<id>/<edge>` on any node.
pub fn edge_calls(account: bool, edge: &str) -> Option<impl Iterator<Item = GCallId>> {
    let table: &'static [(GText, GSlice<u16>)] = if account {
        &GRAPH_ACCOUNT_EDGES
    } else {
        &GRAPH_OBJECT_EDGES
    };
    table
        .binary_search_by(|(e, _)| e.cmp_str(edge))
        .ok()
        .map(|i| table[i].1.into_iter().map(|&c| GCallId(c)))
}

/// The calls that take a param `name`, and the updates (a POST on the node itself) of
/// the node types a call that takes it creates: sorted indexes into [`GRAPH_CALLS`].
pub fn calls_with_param(name: &str) -> &'static [u16] {
    find_hashed(
        &generated::GRAPH_PARAM_CALLS,
        &generated::GRAPH_PARAM_CALL_SLOTS,
        name,
        |(p, _), name| p.is(name),
    )
    .map_or(&[], |(_, calls)| calls.as_slice())
}

/// The calls of `method` on a node itself (`/<id>`): sorted indexes into [`GRAPH_CALLS`].
pub fn own_calls(method: Method) -> &'static [u16] {
    generated::GRAPH_OWN_CALLS
        .iter()
        .find(|(m, _)| *m == method)
        .map_or(&[], |(_, calls)| calls.as_slice())
}

/// Every edge name (of ad accounts, or of any node), for "did you mean".
pub fn edge_names(account: bool) -> impl Iterator<Item = &'static str> {
    let table: &'static [(GText, GSlice<u16>)] = if account {
        &GRAPH_ACCOUNT_EDGES
    } else {
        &GRAPH_OBJECT_EDGES
    };
    table.iter().map(|(e, _)| e.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_ranges_hold_their_node() {
        assert!(GRAPH_NODES.is_sorted_by_key(|n| n.name));
        assert!(GRAPH_ENUMS.is_sorted_by_key(|e| e.0));
        assert!(GRAPH_ACCOUNT_EDGES.is_sorted_by_key(|e| e.0));
        assert!(GRAPH_OBJECT_EDGES.is_sorted_by_key(|e| e.0));
        for node in GNode::all() {
            assert!(node.info().fields.is_sorted_by_key(|f| f.0));
            for c in node.calls() {
                assert_eq!(c.get().node, node);
                assert!(c.get().params.is_sorted_by_key(|p| p.name));
            }
        }
        assert_eq!(GRAPH_VERSION, "v25.0");
    }

    /// The enums are read from offsets into one text: every range lands on its own name
    /// and values, in order, and covers the text once.
    #[test]
    fn enums_read_from_their_text() {
        let mut covered = 0;
        for (i, &(name_start, name_end, first, end)) in
            generated::GRAPH_ENUM_INDEX.iter().enumerate()
        {
            assert_eq!(name_start as usize, covered);
            covered = name_end as usize;
            for &(start, stop) in &generated::GRAPH_ENUM_VALUES[first as usize..end as usize] {
                assert_eq!(start as usize, covered);
                covered = stop as usize;
            }
            let (name, values) = GRAPH_ENUMS[i];
            assert_eq!(enum_name(i as u16), name);
            assert!(!values.is_empty() && values.is_sorted(), "{name}");
            assert_eq!(enum_values(i as u16), values);
        }
        assert_eq!(covered, generated::GRAPH_ENUM_TEXT.len());
        assert_eq!(GRAPH_ENUMS.into_iter().count(), GRAPH_ENUMS.len());
    }

    /// Names a list does not hold but that are close to those it holds: cut short, grown
    /// by a byte, sharing the first or the last eight bytes, of every short length.
    fn absent_near(names: &[&str]) -> Vec<String> {
        let mut near: Vec<String> = ["", "a", "ab", "abc", "abcd", "abcdefg", "zzzzzzzzzz"]
            .map(String::from)
            .to_vec();
        for name in names {
            near.push(format!("{name}_"));
            near.push(format!("{name}\0"));
            near.push(format!("_{name}"));
            near.push(name[..name.len() - 1].to_string());
            near.push(format!("{}~", &name[..name.len().min(8)]));
            near.push(format!("~{}", &name[name.len().saturating_sub(8)..]));
        }
        near
    }

    /// The hashed lookups find what a search of the rows finds, for every name of every
    /// node's fields and every call's params, and for names close to them that the list
    /// does not hold; every index is a power of two of slots, at most half of them used.
    #[test]
    fn hashed_lookups_find_what_a_search_finds() {
        let index_holds = |slots: &[GSlot], rows: usize| {
            let used = slots.iter().filter(|s| s.0 != 0).count();
            assert_eq!(used, rows);
            assert!(slots.is_empty() || slots.len().is_power_of_two() && used * 2 <= slots.len());
        };
        for node in GNode::all() {
            let info = node.info();
            index_holds(&info.field_slots, info.fields.len());
            let names: Vec<&str> = info.fields.iter().map(|(f, _)| f.as_str()).collect();
            for (name, ty) in info.fields.iter() {
                assert_eq!(node.field(name), Some(*ty), "{name}");
            }
            for probe in absent_near(&names) {
                let searched = info.fields.iter().find(|(f, _)| f.as_str() == probe);
                assert_eq!(node.field(&probe), searched.map(|f| f.1), "{probe}");
            }
        }
        for call in GRAPH_CALLS.iter() {
            index_holds(&call.param_slots, call.params.len());
            let names: Vec<&str> = call.params.iter().map(|p| p.name.as_str()).collect();
            for param in call.params.iter() {
                assert!(std::ptr::eq(call.param(&param.name).unwrap(), param));
            }
            for probe in absent_near(&names) {
                let searched = call.params.iter().find(|p| p.name.as_str() == probe);
                assert_eq!(
                    call.param(&probe).map(|p| p as *const GraphParam),
                    searched.map(|p| p as *const GraphParam),
                    "{probe}"
                );
            }
        }
    }

    /// The index of param names answers as asking every call would.
    #[test]
    fn calls_with_param_agree_with_the_calls() {
        let mut names: Vec<&str> = GRAPH_CALLS
            .iter()
            .flat_map(|c| c.params.iter().map(|p| p.name.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names.push("no_call_takes_this");
        let near = absent_near(&names);
        names.extend(near.iter().map(String::as_str));
        let slots = &generated::GRAPH_PARAM_CALL_SLOTS;
        assert!(slots.len().is_power_of_two());
        assert_eq!(
            slots.iter().filter(|&&s| s != 0).count(),
            generated::GRAPH_PARAM_CALLS.len()
        );
        for name in names {
            let expected: Vec<u16> = GCallId::all()
                .filter(|c| {
                    let call = c.get();
                    call.param(name).is_some()
                        || (call.method == Method::Post
                            && call.edge.is_empty()
                            && call.node.created_with(name))
                })
                .map(|c| c.0)
                .collect();
            assert_eq!(calls_with_param(name), expected, "{name}");
        }
        for method in [Method::Get, Method::Post, Method::Delete, Method::Put] {
            let expected: Vec<u16> = GCallId::all()
                .filter(|c| c.get().method == method && c.get().edge.is_empty())
                .map(|c| c.0)
                .collect();
            assert_eq!(own_calls(method), expected, "{method}");
        }
    }

    #[test]
    fn the_whole_graph_is_here() {
        assert!(GRAPH_NODES.len() >= 990, "{}", GRAPH_NODES.len());
        assert!(GRAPH_CALLS.len() >= 1460, "{}", GRAPH_CALLS.len());
        let params: usize = GRAPH_CALLS.iter().map(|c| c.params.len()).sum();
        assert!(params >= 4800, "{params}");
        let fields: usize = GRAPH_NODES.iter().map(|n| n.fields.len()).sum();
        assert!(fields >= 8500, "{fields}");
    }

    #[test]
    fn lookups() {
        let campaigns: Vec<_> = edge_calls(true, "campaigns").unwrap().collect();
        assert!(campaigns.iter().any(|c| c.get().method == Method::Post));
        let ad_set = GNode::parse("ad_set").unwrap();
        assert_eq!(ad_set.info().spec, "AdSet");
        assert!(ad_set.field("daily_budget").is_some());
        assert!(ad_set.call(Method::Post, "").is_some());
        let ad = GNode::parse("ad").unwrap();
        assert_eq!(
            ad.edge_returns("insights")
                .and_then(GType::node)
                .map(GNode::name),
            Some("ads_insights")
        );
        let create = GNode::parse("ad_account")
            .unwrap()
            .call(Method::Post, "campaigns")
            .unwrap()
            .get();
        let cats = create.param("special_ad_categories").unwrap();
        assert!(cats.required);
        let GType::List(item) = cats.ty else {
            panic!("{:?}", cats.ty)
        };
        let GType::Enum(e) = *item else {
            panic!("{:?}", cats.ty)
        };
        assert!(enum_values(e).contains(&"HOUSING"));
        assert_eq!(create.describe(), "POST /act_<id>/campaigns");
    }
}

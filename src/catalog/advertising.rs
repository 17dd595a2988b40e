//! The advertising API's tables (`catalog/advertising/`): node types, operations and
//! their routes, each operation's params with their types and enums, the version
//! calendar, and the ad set tables that single rules judge by.

use std::fmt;

use crate::catalog::Method;
use crate::catalog::packed::{Blob, Rows, Slice, Text, find_hashed};

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/advertising.rs"));
}

/// The one text the strings of the node, operation and param tables are byte ranges of.
#[derive(Debug)]
pub struct AdvertisingText;

impl Blob for AdvertisingText {
    const TEXT: &'static str = generated::ADVERTISING_TEXT;
}

/// A string of the node, operation and param tables (no pointer: the loader relocates
/// nothing in their rows however many operations the catalog has); it reads as a
/// `&'static str`.
pub type AText = Text<AdvertisingText>;

impl Rows for AText {
    fn table() -> &'static [Self] {
        &generated::TEXT_LISTS
    }
}

impl Rows for (AText, AText) {
    fn table() -> &'static [Self] {
        &generated::REFUSED
    }
}

impl Rows for (AText, ParamSpec) {
    fn table() -> &'static [Self] {
        &generated::PARAMS
    }
}

/// A slot of the open-addressing index of an operation's params: 0, or 1 + the index
/// of a row of its params.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameSlot(u16);

impl From<NameSlot> for u16 {
    fn from(slot: NameSlot) -> u16 {
        slot.0
    }
}

impl Rows for NameSlot {
    fn table() -> &'static [Self] {
        &generated::PARAM_NAME_SLOTS
    }
}

impl Rows for (Method, Operation) {
    fn table() -> &'static [Self] {
        &generated::EDGE_OPERATIONS
    }
}

impl Rows for (AText, u16) {
    fn table() -> &'static [Self] {
        &generated::BILLING_STRATEGIES
    }
}

/// A list of names of the tables (no pointer), read as `&'static str`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names(Slice<AText>);

impl Names {
    /// Whether the list holds this name.
    pub fn contains<S: AsRef<str> + ?Sized>(self, name: &S) -> bool {
        let name = name.as_ref();
        self.0.strs().any(|n| n == name)
    }

    pub fn iter(self) -> impl Iterator<Item = &'static str> + Clone {
        self.0.strs()
    }

    pub fn len(self) -> usize {
        self.0.len()
    }

    pub fn is_empty(self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for Names {
    type Item = &'static str;
    type IntoIter = std::iter::Map<std::slice::Iter<'static, AText>, fn(&AText) -> &'static str>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.as_slice().iter().map(|t| t.as_str())
    }
}

/// `[(key, value)]` sorted by key: the value of a key.
fn text_get<V>(table: &'static [(AText, V)], key: &str) -> Option<&'static V> {
    table
        .binary_search_by(|(k, _)| k.cmp_str(key))
        .ok()
        .map(|i| &table[i].1)
}

/// The item spec of a list param: an index into the table of item specs (no pointer),
/// read as a `&ParamSpec`.
#[derive(Clone, Copy)]
pub struct ItemOf(u16);

impl std::ops::Deref for ItemOf {
    type Target = ParamSpec;

    fn deref(&self) -> &'static ParamSpec {
        &generated::LIST_ITEMS[self.0 as usize]
    }
}

impl fmt::Debug for ItemOf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for ItemOf {
    fn eq(&self, other: &ItemOf) -> bool {
        **self == **other
    }
}

pub use generated::{
    ACCOUNT_EDGES, AD_SET_FIELDS, BILLING_EVENTS, BY_ID, COMMON, CURRENCY_UNITS, DESCRIBED_UNNAMED,
    DOUBLED_COUNTRIES, GOAL_WORDS, JSON_ENCODED, MINIMUM_ROWS, Node, OBJECT_EDGES, OBJECTIVES,
    Operation, PARAM_TABLES, ParamRule, READ_ONLY, RELEASES, UNMAPPED_GOAL_WORDS, VERSIONS_CHECKED,
};

/// The rule that reports a param's type, enum and range errors unless its table names another.
pub const DEFAULT_RULE: ParamRule = ParamRule::AdParamInvalid;

#[derive(Debug, Clone, PartialEq)]
pub enum ParamType {
    String {
        max_chars: Option<usize>,
    },
    NumericString,
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    Bool,
    Enum {
        values: Slice<AText>,
        /// Values the API will not take, with why.
        refused: Slice<(AText, AText)>,
        /// The reference omits some values: others are only a warning.
        open: bool,
    },
    List(ItemOf),
    Object {
        fields: Slice<(AText, ParamSpec)>,
    },
    JsonString,
    Datetime,
    Any,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParamSpec {
    pub ty: ParamType,
    pub rule: ParamRule,
    pub required: bool,
    /// The rule that reports the param's absence, where the reference documents have one.
    pub missing: Option<ParamRule>,
}

/// An operation's param table.
#[derive(Debug)]
pub struct OperationTable {
    pub op: Operation,
    pub source: AText,
    /// Sorted by name.
    pub params: Slice<(AText, ParamSpec)>,
    /// The open-addressing index of the params' names.
    pub param_slots: Slice<NameSlot>,
    /// Params the reference does not name are accepted without a warning.
    pub open: bool,
    /// For an update: the create operation, whose params the update list omits.
    pub create: Option<Operation>,
    /// Takes its param types from another operation (the reference shows none of its own).
    pub like: Option<Operation>,
    /// Every name the operation takes, sorted.
    pub known: Slice<AText>,
}

impl OperationTable {
    /// The spec of a param (through `like`).
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        find_hashed(
            self.params.as_slice(),
            self.param_slots.as_slice(),
            name,
            |(n, _), name| n.is(name),
        )
        .map(|(_, spec)| spec)
        .or_else(|| self.like.and_then(|l| l.params().param(name)))
    }

    /// Whether the operation is known to take a param of this name.
    pub fn takes(&self, name: &str) -> bool {
        self.known.binary_search_by(|k| k.cmp_str(name)).is_ok()
    }
}

impl Operation {
    pub fn params(self) -> &'static OperationTable {
        &PARAM_TABLES[self as usize]
    }

    /// The operation of `/act_<id>/<edge>` or `/<id>/<edge>` by method, and the methods
    /// the edge has; `None` for an edge no operation has.
    pub fn of_edge(
        account: bool,
        edge: &str,
        method: Method,
    ) -> Option<Result<Operation, Vec<Method>>> {
        let table: &'static [(AText, Slice<(Method, Operation)>)] = if account {
            &ACCOUNT_EDGES
        } else {
            &OBJECT_EDGES
        };
        let at = table.binary_search_by(|(e, _)| e.cmp_str(edge)).ok()?;
        let calls = table[at].1;
        Some(
            calls
                .iter()
                .find(|(m, _)| *m == method)
                .map(|(_, op)| *op)
                .ok_or_else(|| calls.iter().map(|(m, _)| *m).collect()),
        )
    }

    /// The operation of `/<id>` on a node by method.
    pub fn by_id(node: Node, method: Method) -> Option<Operation> {
        BY_ID
            .iter()
            .find(|(n, m, _)| *n == node && *m == method)
            .map(|(_, _, op)| *op)
    }
}

impl Node {
    pub fn parse(text: &str) -> Option<Node> {
        Node::ALL.iter().copied().find(|n| n.name() == text)
    }
}

/// A calendar date, comparable as (year, month, day).
pub type Date = (i32, u32, u32);

/// A version of the advertising API.
#[derive(Debug)]
pub struct Release {
    /// (major, minor)
    pub version: (u32, u32),
    pub released: Date,
    /// The date calls to it stop working, where it is stated.
    pub ends: Option<Date>,
    /// The end date is the project's estimate (written `~YYYY-MM-DD`), not the vendor's.
    pub ends_estimated: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Minimum {
    UsdCents(i64),
    TimesBidAmount(i64),
}

/// A row of the minimum daily budget table.
#[derive(Debug)]
pub struct MinimumRow {
    pub bid_strategy: AText,
    /// The reference's "Billing event" cell.
    pub billing: AText,
    pub minimum: Minimum,
    /// The minimum as the reference writes it (`0.50`).
    pub written: AText,
    /// Doubled for the listed countries (all rows but one).
    pub doubled: bool,
}

/// The row an ad set with this strategy and billing event falls under.
pub fn minimum_row(bid_strategy: &str, billing_event: &str) -> Option<&'static MinimumRow> {
    let by_strategy = text_get(&BILLING_EVENTS, billing_event)?.as_slice();
    text_get(by_strategy, bid_strategy).map(|&i| &MINIMUM_ROWS[i as usize])
}

pub fn is_doubled_country(code: &str) -> bool {
    DOUBLED_COUNTRIES.iter().any(|(c, _)| *c == code)
}

/// Budget units per unit of a currency (100 for cents).
pub fn currency_unit(currency: &str) -> Option<i64> {
    text_get(&CURRENCY_UNITS, currency).copied()
}

/// An outcome-driven objective: the reference's name for it and its goal words.
#[derive(Debug)]
pub struct Objective {
    pub name: AText,
    pub words: Names,
}

pub fn objective(name: &str) -> Option<&'static Objective> {
    text_get(&OBJECTIVES, name)
}

/// The goals an objective offers, in the order of its words; `None` for an objective
/// that is not outcome-driven.
pub fn goals(objective_name: &str) -> Option<Vec<&'static str>> {
    let o = objective(objective_name)?;
    let mut goals: Vec<&'static str> = Vec::new();
    for w in o.words {
        for g in text_get(&GOAL_WORDS, w).into_iter().flat_map(|g| g.iter()) {
            if !goals.contains(&g) {
                goals.push(g);
            }
        }
    }
    Some(goals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_in_op_order_and_sorted() {
        for (i, op) in Operation::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i);
            assert_eq!(op.params().op, *op);
            assert!(op.params().known.is_sorted());
            // Looked up by binary search: sorted, each name once.
            let names: Vec<&str> = op.params().params.iter().map(|(n, _)| n.as_str()).collect();
            assert!(names.is_sorted(), "{op:?}");
            assert!(names.windows(2).all(|w| w[0] != w[1]), "{op:?}");
            for (name, spec) in op.params().params {
                assert!(std::ptr::eq(op.params().param(name).unwrap(), spec));
            }
        }
        assert!(ACCOUNT_EDGES.is_sorted_by_key(|(e, _)| *e));
        assert!(BILLING_EVENTS.is_sorted_by_key(|(e, _)| *e));
        assert!(OBJECTIVES.is_sorted_by_key(|(e, _)| *e));
    }

    #[test]
    fn param_lookup_by_hash_finds_what_a_search_by_name_finds() {
        fn by_search(table: &OperationTable, name: &str) -> Option<&'static ParamSpec> {
            let rows = table.params.as_slice();
            rows.iter()
                .find(|(n, _)| n.as_str() == name)
                .map(|(_, spec)| spec)
                .or_else(|| table.like.and_then(|l| by_search(l.params(), name)))
        }
        // Each operation's index: a power of two of slots, at most half of them used,
        // one for each of its params.
        for table in PARAM_TABLES.iter() {
            let slots = table.param_slots.as_slice();
            let used = slots.iter().filter(|s| u16::from(**s) != 0).count();
            assert_eq!(used, table.params.len(), "{:?}", table.op);
            assert!(slots.is_empty() || slots.len().is_power_of_two() && used * 2 <= slots.len());
        }
        // Every name of every table, and absent names next to them: cut short, grown
        // by a byte, sharing the first or the last eight bytes, empty.
        let mut names: Vec<String> = vec![String::new(), "~".into(), "a".into()];
        for table in PARAM_TABLES.iter() {
            for (name, _) in table.params {
                let name = name.as_str();
                names.push(name.to_string());
                names.push(format!("{name}_"));
                names.push(format!("{name}\0"));
                names.push(name[..name.len() - 1].to_string());
                names.push(name.chars().take(8).collect());
                names.push(format!("{}~", name.chars().take(8).collect::<String>()));
                names.push(format!("~{}", &name[name.len().saturating_sub(8)..]));
            }
        }
        let mut found = 0;
        for table in PARAM_TABLES.iter() {
            for name in &names {
                let by_hash = table.param(name);
                let searched = by_search(table, name);
                assert_eq!(
                    by_hash.map(|s| s as *const ParamSpec),
                    searched.map(|s| s as *const ParamSpec),
                    "{:?} {name:?}",
                    table.op
                );
                found += usize::from(by_hash.is_some());
            }
        }
        assert!(found > PARAM_TABLES.len());
    }

    #[test]
    fn routes() {
        assert_eq!(
            Operation::of_edge(true, "adsets", Method::Post),
            Some(Ok(Operation::AdSetCreate))
        );
        assert_eq!(
            Operation::of_edge(true, "adsets", Method::Get),
            Some(Err(vec![Method::Post]))
        );
        assert_eq!(Operation::of_edge(true, "campaigns", Method::Post), None);
        assert_eq!(
            Operation::by_id(Node::AdSet, Method::Delete),
            Some(Operation::AdSetDelete)
        );
        assert_eq!(Node::parse("custom_audience"), Some(Node::CustomAudience));
    }
}

//! The APIs' tables, compiled from the data under `catalog/` by the build step
//! (build/main.rs): static arrays, sorted indexes and routers, with the few functions
//! that look things up in them. Nothing here is parsed at run time, and this module
//! imports nothing of the crate but the name suggester; it owns the small types the
//! tables and the request model share (the HTTP [`Method`]).

pub mod advertising;
pub mod codehost;
pub mod codehost_access;
pub mod codehost_methods;
pub mod codehost_operations;
pub mod codehost_workflows;
pub mod edge_fields;
pub mod geo;
pub mod graph;
mod method;
pub mod name_hash;
pub mod names;
pub mod packed;

pub use method::Method;

/// `&[(key, value)]` sorted by key: the value of a key.
pub fn sorted_get<'t, V>(table: &'t [(&str, V)], key: &str) -> Option<&'t V> {
    table
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|i| &table[i].1)
}

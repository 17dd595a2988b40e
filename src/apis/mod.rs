//! The APIs reqlint knows, one wing each: how a request is routed to one of its
//! operations, its catalog access, its config section, and what its rules share about a
//! file. Rules live in `crate::rules`, one folder an API; the engine names no API.

pub mod advertising;
pub mod codehost;

/// The params that the APIs take as JSON-encoded strings only: a string of one that does
/// not hold JSON is a problem of the file (see `loading::encoded_params`).
pub fn json_encoded_params() -> &'static [&'static str] {
    crate::catalog::advertising::JSON_ENCODED
}

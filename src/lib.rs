//! reqlint: an offline linter for API request files.
//!
//! Data flows one way: [`loading`] (bytes to spanned trees) → [`model`] (requests,
//! tokens, config, context) → [`apis`] (each API's wing: routing, operations, its config
//! section) → [`rules`] (diagnostics) → [`reports`] (output). The [`engine`] runs one
//! file through them, iterating the registered APIs and rules; [`run`] walks the files
//! and keeps the cache; [`cli`] and [`lsp`] tie it up. [`catalog`] holds the APIs'
//! tables, compiled from `catalog/` at build time. docs/development.md draws the house.

pub mod allocator;
pub mod apis;
pub mod catalog;
pub mod cli;
pub mod diagnostic;
pub mod docs;
pub mod engine;
pub mod files;
pub mod fix;
#[doc(hidden)]
pub mod invariants;
pub mod loading;
pub mod lsp;
pub mod model;
pub mod redact;
pub mod reports;
pub mod rules;
pub mod run;
pub mod suggest;
#[cfg(test)]
pub mod testing;

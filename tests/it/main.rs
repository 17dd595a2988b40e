//! reqlint's integration tests, in one test binary (each file of `tests/` was a binary of
//! its own that linked the whole crate). One module per subject; `cargo test --test it
//! fixtures::` runs one module, `cargo test --test it fixtures::no_stray_expectations`
//! one test. What the modules share is in `support/`.

mod bounds;
mod catalog_build;
mod cli;
mod cli_conventions;
mod codehost;
mod distribution;
mod docs;
mod environments;
mod fixes;
mod fixtures;
mod formats;
mod fuzz_replay;
mod hostile;
mod inputs;
mod lsp;
mod neovim;
mod readers;
mod redaction;
mod reliability;
mod reports;
mod rules_trust;
mod secrets_formats;
mod spans_property;
mod support;
mod toy_api;
mod valid_samples;
mod workflow_tables;
mod workflows;
mod writes;
mod yaml_readers;

// The catalog build's modules name each other from their crate's root
// (`crate::source::Source`), as in build/main.rs: here they are catalog_build's, seen
// from the root under the same names.
use catalog_build::{geo, name_hash, names, source};

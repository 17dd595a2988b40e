//! reqlint: an offline linter for API request files.
//!
//! Data flows one way: [`loading`] (bytes to spanned trees) → [`model`] (requests,
//! tokens, config, context) → [`rules`] (diagnostics) → [`reports`] (output).

pub mod loading;

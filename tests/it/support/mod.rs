//! What the test modules share.

pub mod lsp_client;
pub mod project;
pub mod spans;
pub mod watchdog;

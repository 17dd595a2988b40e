//! What reqlint writes about itself, generated from its metadata and catalogs: the rule
//! pages, the catalog pages and the JSON schemas of its files.

pub mod catalog;
pub mod codehost_catalog;
pub mod rules;
pub mod schema;
pub mod workflow_tables;

//! What a run keeps between files and between runs.

pub mod cache;

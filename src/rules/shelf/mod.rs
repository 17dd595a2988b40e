//! Helpers that rules of any API share (not rules themselves): calendar arithmetic and
//! the building of fixes.
//! Each API's own shared layer lives beside its rules (`advertising/mod.rs` and its
//! non-rule modules, `codehost/mod.rs`); no rule file is a library for another.

pub mod fix;
pub mod time;

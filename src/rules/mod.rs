//! Rules: each a small struct with its metadata and one `check`, in a file of its own.
//! The [`REGISTRY`] lists them; `reqlint rules` and `reqlint explain` read it.

pub mod codehost;
pub mod core;

use crate::diagnostic::{Diagnostic, Severity};
use crate::loading::Problem;
use crate::model::FileModel;
use crate::model::config::Config;
use crate::model::context::ContextIndex;

/// Which part of the product a rule belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Request files themselves (SPEC 1).
    Files,
    /// The code-hosting API (seed 000).
    CodeHosting,
    /// The advertising API (seeds 001 and 002).
    Advertising,
}

impl Group {
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Files => "files",
            Group::CodeHosting => "code-hosting",
            Group::Advertising => "advertising",
        }
    }
}

/// A fixture shown as an example in `reqlint explain`; the tests lint the same file.
#[derive(Debug)]
pub struct Example {
    /// Path from the repository root.
    pub path: &'static str,
    pub text: &'static str,
}

/// `example!("rule-name/bad.req.yaml")`: a fixture under `fixtures/`, compiled in.
#[macro_export]
macro_rules! example {
    ($path:literal) => {
        $crate::rules::Example {
            path: concat!("fixtures/", $path),
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/", $path)),
        }
    };
}

/// Everything said about a rule, in one place.
#[derive(Debug)]
pub struct RuleMeta {
    /// kebab-case, stable: configs and suppressions name it.
    pub name: &'static str,
    pub group: Group,
    pub severity: Severity,
    pub summary: &'static str,
    /// What it checks.
    pub what: &'static str,
    /// Why it matters.
    pub why: &'static str,
    /// The SPEC or seed section it comes from.
    pub source: &'static str,
    pub bad: Example,
    pub good: Example,
}

/// What a rule sees of one file.
pub struct FileContext<'a> {
    pub path: &'a str,
    pub text: &'a str,
    /// What the loader found wrong with the file.
    pub problems: &'a [Problem],
    pub model: &'a FileModel<'a>,
    pub config: &'a Config,
    pub context: &'a ContextIndex,
}

pub trait Rule: Sync + Send {
    fn meta(&self) -> &'static RuleMeta;
    /// Adds this rule's diagnostics for one file. Rules never print.
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>);
}

/// Every rule, in the order `reqlint rules` lists them.
pub static REGISTRY: &[&dyn Rule] = &[
    &core::invalid_syntax::InvalidSyntax,
    &core::limit_exceeded::LimitExceeded,
    &core::duplicate_key::DuplicateKey,
    &core::not_a_request_file::NotARequestFile,
    &core::unknown_request_key::UnknownRequestKey,
    &core::malformed_request_line::MalformedRequestLine,
    &core::invalid_request_field::InvalidRequestField,
    &core::literal_secret::LiteralSecret,
    &codehost::token_permission_invalid::TokenPermissionInvalid,
    &codehost::token_undefined::TokenUndefined,
    &codehost::unknown_endpoint::UnknownEndpoint,
    &codehost::token_missing_permission::TokenMissingPermission,
    &codehost::token_resource_out_of_reach::TokenResourceOutOfReach,
];

pub fn find(name: &str) -> Option<&'static dyn Rule> {
    REGISTRY.iter().copied().find(|r| r.meta().name == name)
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|r| r.meta().name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in REGISTRY {
            let m = rule.meta();
            assert!(seen.insert(m.name), "duplicate rule {}", m.name);
            assert!(
                m.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{} is not kebab-case",
                m.name
            );
            assert!(
                !m.summary.ends_with('.'),
                "{}: a summary is a phrase",
                m.name
            );
            assert!(!m.what.is_empty() && !m.why.is_empty() && !m.source.is_empty());
            assert!(m.bad.path.contains(m.name) && m.good.path.contains(m.name));
        }
    }
}

//! What a rule is: its metadata, declared once with [`declare_rule!`](crate::declare_rule),
//! and the hooks the engine calls it with. This module is below the rules; the registry
//! (`rules/mod.rs`) is above them.

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::model::facts::{RunContext, RunFacts};
use crate::model::file::{ApiId, FileContext, OperationSet, Routed};

/// Which part of the product a rule belongs to: request files themselves, or one API
/// (its group is named as the API is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group(&'static str);

impl Group {
    /// Request files themselves (docs/request-files.md), whatever API they call.
    pub const FILES: Group = Group("files");

    /// The rules of an API.
    pub const fn of(api: ApiId) -> Group {
        Group(api.0)
    }

    pub fn as_str(self) -> &'static str {
        self.0
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
        $crate::rules::rule::Example {
            path: concat!("fixtures/", $path),
            text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/", $path)),
        }
    };
}

/// Declares a rule: its unit struct and its metadata, once. `reqlint rules`, `explain`,
/// the rule pages, the SARIF report and the engine read the metadata; the rule's file
/// then implements [`Rule`] with only the hooks its [`Inspects`] names.
///
/// ```ignore
/// declare_rule! {
///     /// What the struct is.
///     pub struct MyRule {
///         name: "my-rule",
///         group: Group::FILES,
///         // … every field of `RuleMeta`
///     }
/// }
/// ```
#[macro_export]
macro_rules! declare_rule {
    ($(#[$attr:meta])* $vis:vis struct $rule:ident { $($field:ident: $value:expr),* $(,)? }) => {
        $(#[$attr])*
        $vis struct $rule;

        /// The rule's metadata.
        pub static META: $crate::rules::rule::RuleMeta = $crate::rules::rule::RuleMeta {
            $($field: $value,)*
        };

        impl $crate::rules::rule::Declared for $rule {
            fn metadata(&self) -> &'static $crate::rules::rule::RuleMeta {
                &META
            }
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
    /// The vendor's public reference (page and section) it comes from.
    pub source: &'static str,
    /// The fixes its findings may carry (none for most rules): `reqlint explain`, the
    /// docs and `reqlint rules` say them.
    pub fixes: &'static [FixMeta],
    /// What the engine calls the rule with.
    pub inspects: Inspects,
    pub bad: Example,
    pub good: Example,
}

impl RuleMeta {
    /// `safe`, `unsafe`, `safe, unsafe` or `` (no fix): the column of `reqlint rules`.
    pub fn fix_kinds(&self) -> String {
        let mut kinds: Vec<&str> = Vec::new();
        for f in self.fixes {
            let kind = match f.applicability {
                Applicability::Safe => "safe",
                Applicability::Unsafe => "unsafe",
            };
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds.join(", ")
    }

    /// One line a fix: `--fix: WHAT` or `--unsafe-fixes: WHAT`; `None` without fixes.
    pub fn fix_lines(&self) -> Option<Vec<String>> {
        if self.fixes.is_empty() {
            return None;
        }
        Some(
            self.fixes
                .iter()
                .map(|f| match f.applicability {
                    Applicability::Safe => format!("`--fix` (safe): {}", f.what),
                    Applicability::Unsafe => format!("`--unsafe-fixes` (unsafe): {}", f.what),
                })
                .collect(),
        )
    }
}

impl crate::diagnostic::Reporter for RuleMeta {
    fn rule_name(&self) -> &'static str {
        self.name
    }

    fn default_severity(&self) -> Severity {
        self.severity
    }
}

/// A fix a rule's findings may carry, where there is one right answer: what it does,
/// and whether `--fix` applies it (safe: the request means what it meant) or only
/// `--unsafe-fixes` (unsafe: the request then does something else).
#[derive(Debug)]
pub struct FixMeta {
    pub applicability: Applicability,
    pub what: &'static str,
}

/// What a rule inspects. The engine walks a file's requests once and calls each rule
/// with what it asked for, so that a rule does not walk the file again to find the
/// calls it wants, and a file's cost does not grow with the rules that do not care.
#[derive(Clone, Copy)]
pub enum Inspects {
    /// The whole file, once: [`Rule::check`].
    File,
    /// Each request an API routed to one of these operations: [`Rule::check_request`].
    Requests(&'static dyn OperationSet),
}

impl std::fmt::Debug for Inspects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Inspects {
    /// One line for `reqlint explain`.
    pub fn describe(&self) -> String {
        match self {
            Inspects::File => "each request file as a whole".into(),
            Inspects::Requests(operations) => operations.describe(),
        }
    }
}

/// The metadata half of a rule, implemented by [`declare_rule!`](crate::declare_rule).
pub trait Declared {
    fn metadata(&self) -> &'static RuleMeta;
}

/// The hooks a rule implements, as its metadata's [`Inspects`] says. Rules never print.
pub trait Rule: Declared + Sync + Send {
    fn meta(&self) -> &'static RuleMeta {
        self.metadata()
    }

    /// Adds this rule's diagnostics for one file ([`Inspects::File`]).
    fn check(&self, _file: &FileContext<'_>, _out: &mut Vec<Diagnostic>) {}

    /// Adds this rule's diagnostics for one request routed to an operation it named
    /// ([`Inspects::Requests`]); the API's wing gives what the request means.
    fn check_request(&self, _file: &FileContext<'_>, _request: Routed, _out: &mut Vec<Diagnostic>) {
    }

    /// Records what this file tells a run-level judgement.
    fn collect(&self, _file: &FileContext<'_>, _facts: &mut RunFacts) {}

    /// Adds diagnostics that only the whole run can tell; their spans are in the config
    /// file (`run.config.text`).
    fn check_run(&self, _run: &RunContext<'_>, _out: &mut Vec<Diagnostic>) {}
}

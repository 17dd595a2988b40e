//! Rules: each a small struct with its metadata and one `check`, in a file of its own.
//! The [`REGISTRY`] lists them; `reqlint rules` and `reqlint explain` read it.

use std::collections::BTreeMap;

pub mod advertising;
pub mod codehost;
pub mod core;

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::loading::Problem;
use crate::model::FileModel;
use crate::model::config::Config;
use crate::model::context::ContextIndex;

/// Which part of the product a rule belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    /// Request files themselves (docs/request-files.md).
    Files,
    /// The code-hosting API (fine-grained token permissions).
    CodeHosting,
    /// The advertising API (the Marketing API).
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
#[derive(Debug, Clone, Copy)]
pub enum Inspects {
    /// The whole file, once: [`Rule::check`].
    File,
    /// Each advertising call of these operations: [`Rule::check_call`].
    Operations(&'static [crate::apis::advertising::Endpoint]),
    /// Each code-hosting request: [`Rule::check_request`].
    CodehostRequests,
}

impl Inspects {
    /// Whether the rule inspects calls of this operation.
    pub fn operation(&self, op: crate::apis::advertising::Endpoint) -> bool {
        matches!(self, Inspects::Operations(ops) if ops.contains(&op))
    }

    /// One line for `reqlint explain`.
    pub fn describe(&self) -> String {
        match self {
            Inspects::File => "each request file as a whole".into(),
            Inspects::CodehostRequests => "each code-hosting request".into(),
            Inspects::Operations(ops) => {
                let names: Vec<String> = ops
                    .iter()
                    .map(|op| format!("{} {}", op.node().title(), op.verb().replace('_', " ")))
                    .collect();
                format!("advertising calls: {}", names.join(", "))
            }
        }
    }
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
    /// What the advertising rules compute once per file.
    pub advertising: crate::apis::advertising::FileCache,
    /// What the code-hosting rules compute once per file.
    pub codehost: crate::apis::codehost::FileCache<'a>,
}

/// What files tell the rules that judge a whole run, gathered file by file and merged
/// after all files are linted (files themselves are dropped as soon as they are done).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RunFacts {
    /// Per named token (from the config): the permissions the run's requests need.
    pub named_token_uses: BTreeMap<String, crate::apis::codehost::TokenUses>,
    /// The config's variables some file uses in a credential position: their values are
    /// masked in what is shown of every file (`model::secrets`).
    pub credential_variables: std::collections::BTreeSet<String>,
}

impl RunFacts {
    pub fn merge(&mut self, other: RunFacts) {
        for (name, uses) in other.named_token_uses {
            self.named_token_uses.entry(name).or_default().merge(uses);
        }
        self.credential_variables.extend(other.credential_variables);
    }
}

/// What a rule that judges the whole run sees.
pub struct RunContext<'a> {
    pub config: &'a Config,
    pub facts: &'a RunFacts,
    /// The run walked directories, so it saw every request file, not a chosen few (as
    /// a pre-commit hook passes): only then can "unused" be judged.
    pub complete: bool,
}

/// The hooks a rule implements, as its metadata's [`Inspects`] says. Rules never print.
pub trait Rule: Sync + Send {
    fn meta(&self) -> &'static RuleMeta;

    /// Adds this rule's diagnostics for one file ([`Inspects::File`]).
    fn check(&self, _file: &FileContext<'_>, _out: &mut Vec<Diagnostic>) {}

    /// Adds this rule's diagnostics for one advertising call of an operation it named
    /// ([`Inspects::Operations`]).
    fn check_call(
        &self,
        _file: &FileContext<'_>,
        _call: &crate::apis::advertising::Call<'_>,
        _out: &mut Vec<Diagnostic>,
    ) {
    }

    /// Adds this rule's diagnostics for one code-hosting request
    /// ([`Inspects::CodehostRequests`]).
    fn check_request(
        &self,
        _file: &FileContext<'_>,
        _request: &crate::apis::codehost::CodehostRequest<'_>,
        _out: &mut Vec<Diagnostic>,
    ) {
    }

    /// Records what this file tells a run-level judgement.
    fn collect(&self, _file: &FileContext<'_>, _facts: &mut RunFacts) {}

    /// Adds diagnostics that only the whole run can tell; their spans are in the config
    /// file (`run.config.text`).
    fn check_run(&self, _run: &RunContext<'_>, _out: &mut Vec<Diagnostic>) {}
}

/// Every rule, in the order `reqlint rules` lists them.
pub static REGISTRY: &[&dyn Rule] = &[
    &core::invalid_syntax::InvalidSyntax,
    &core::limit_exceeded::LimitExceeded,
    &core::duplicate_key::DuplicateKey,
    &core::not_a_request_file::NotARequestFile,
    &core::request_list_without_key::RequestListWithoutKey,
    &core::unknown_request_key::UnknownRequestKey,
    &core::malformed_request_line::MalformedRequestLine,
    &core::invalid_request_field::InvalidRequestField,
    &core::literal_secret::LiteralSecret,
    &core::unknown_suppressed_rule::UnknownSuppressedRule,
    &codehost::token_permission_invalid::TokenPermissionInvalid,
    &codehost::token_undefined::TokenUndefined,
    &codehost::unknown_endpoint::UnknownEndpoint,
    &codehost::token_missing_permission::TokenMissingPermission,
    &codehost::token_resource_out_of_reach::TokenResourceOutOfReach,
    &codehost::token_over_privileged::TokenOverPrivileged,
    &advertising::ad_unknown_endpoint::AdUnknownEndpoint,
    &advertising::ad_version_deprecated::AdVersionDeprecated,
    &advertising::ad_version_newer_than_catalog::AdVersionNewerThanCatalog,
    &advertising::ad_param_invalid::AdParamInvalid,
    &advertising::ad_param_missing::AdParamMissing,
    &advertising::ad_param_unknown::AdParamUnknown,
    &advertising::ad_param_not_updatable::AdParamNotUpdatable,
    &advertising::ad_field_unknown::AdFieldUnknown,
    &advertising::audience_retention_days_range::AudienceRetentionDaysRange,
    &advertising::audience_retention_days_not_customer_file::AudienceRetentionDaysNotCustomerFile,
    &advertising::audience_subtype_invalid::AudienceSubtypeInvalid,
    &advertising::audience_travel_content_type_missing::AudienceTravelContentTypeMissing,
    &advertising::audience_event_sources_invalid::AudienceEventSourcesInvalid,
    &advertising::audience_lookalike_spec_invalid::AudienceLookalikeSpecInvalid,
    &advertising::audience_lookalike_spec_without_lookalike::AudienceLookalikeSpecWithoutLookalike,
    &advertising::audience_origin_too_small::AudienceOriginTooSmall,
    &advertising::audience_flagged_edit::AudienceFlaggedEdit,
    &advertising::audience_delete_with_lookalikes::AudienceDeleteWithLookalikes,
    &advertising::audience_delete_permanent::AudienceDeletePermanent,
    &advertising::audience_tos_not_accepted::AudienceTosNotAccepted,
    &advertising::audience_opt_out_empty::AudienceOptOutEmpty,
    // ad set rules, group A: EU payor and beneficiary, create basics
    &advertising::adset_name_missing::AdSetNameMissing,
    &advertising::adset_countries_missing::AdSetCountriesMissing,
    &advertising::adset_country_code_invalid::AdSetCountryCodeInvalid,
    &advertising::adset_dsa_payor_missing::AdSetDsaPayorMissing,
    &advertising::adset_dsa_beneficiary_missing::AdSetDsaBeneficiaryMissing,
    &advertising::adset_dsa_not_eu::AdSetDsaNotEu,
    // ad set rules, group B: budgets, promoted_object, time based ad rotation
    &advertising::adset_budget_below_minimum::AdSetBudgetBelowMinimum,
    &advertising::adset_bid_amount_missing::AdSetBidAmountMissing,
    &advertising::adset_lifetime_budget_without_end_time::AdSetLifetimeBudgetWithoutEndTime,
    &advertising::adset_both_budgets::AdSetBothBudgets,
    &advertising::adset_spend_cap_unlimited::AdSetSpendCapUnlimited,
    &advertising::adset_promoted_object_missing::AdSetPromotedObjectMissing,
    &advertising::adset_ad_rotation_invalid::AdSetAdRotationInvalid,
    // ad set rules, group C: states, flagged assets, copies, versions, reads, objectives
    &advertising::adset_archived_edit::AdSetArchivedEdit,
    &advertising::adset_flagged_audience::AdSetFlaggedAudience,
    &advertising::adset_flagged_conversion::AdSetFlaggedConversion,
    &advertising::adset_audience_unusable::AdSetAudienceUnusable,
    &advertising::adset_deep_copy_too_many::AdSetDeepCopyTooMany,
    &advertising::adset_date_preset_lifetime::AdSetDatePresetLifetime,
    &advertising::adset_impressions_on_post::AdSetImpressionsOnPost,
    &advertising::adset_read_unknown_field::AdSetReadUnknownField,
    &advertising::adset_time_range_invalid::AdSetTimeRangeInvalid,
    &advertising::adset_goal_not_for_objective::AdSetGoalNotForObjective,
];

pub fn find(name: &str) -> Option<&'static dyn Rule> {
    REGISTRY.iter().copied().find(|r| r.meta().name == name)
}

/// The rules that inspect calls of each operation, as indexes into [`REGISTRY`], in
/// the order of `Endpoint::ALL`: computed once from the metadata.
pub fn by_operation() -> &'static [Vec<usize>] {
    static TABLE: std::sync::LazyLock<Vec<Vec<usize>>> = std::sync::LazyLock::new(|| {
        crate::apis::advertising::Endpoint::ALL
            .iter()
            .map(|&op| {
                (0..REGISTRY.len())
                    .filter(|&i| REGISTRY[i].meta().inspects.operation(op))
                    .collect()
            })
            .collect()
    });
    &TABLE
}

pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|r| r.meta().name).collect()
}

/// The rules that say a file could not be read whole. A `select` keeps them, as ruff
/// reports syntax errors whatever is selected: a file that was not read must not pass
/// in silence. `ignore` or `off` still turn them off.
pub const ALWAYS_SELECTED: &[&str] = &["invalid-syntax", "limit-exceeded"];

/// The names `select`, `extend-select` and `ignore` take besides a rule's: its group's,
/// or `ALL`.
pub const GROUP_NAMES: &[&str] = &["files", "code-hosting", "advertising", "ALL"];

/// The rules a name in `select`, `extend-select` or `ignore` stands for: a rule, a
/// group, or `ALL` (in any case).
pub fn named(name: &str) -> Result<Vec<&'static str>, String> {
    let name = name.trim();
    if name.eq_ignore_ascii_case("all") {
        return Ok(names());
    }
    let group: Vec<&'static str> = REGISTRY
        .iter()
        .filter(|r| r.meta().group.as_str() == name)
        .map(|r| r.meta().name)
        .collect();
    if !group.is_empty() {
        return Ok(group);
    }
    if let Some(rule) = find(name) {
        return Ok(vec![rule.meta().name]);
    }
    let candidates = names().into_iter().chain(GROUP_NAMES.iter().copied());
    Err(match crate::suggest::did_you_mean(name, candidates) {
        Some(s) => format!("unknown rule or group `{name}` (did you mean `{s}`?)"),
        None => format!("unknown rule or group `{name}`; `reqlint rules` lists them"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apis::advertising::Endpoint;

    /// Which rules look at a call is a question of the metadata, answered by the
    /// dispatch table the engine uses.
    #[test]
    fn rules_by_operation() {
        let names = |op: Endpoint| -> Vec<&str> {
            by_operation()[op as usize]
                .iter()
                .map(|&i| REGISTRY[i].meta().name)
                .collect()
        };
        let create = names(Endpoint::AdSetCreate);
        assert!(create.contains(&"adset-name-missing"));
        assert!(create.contains(&"adset-budget-below-minimum"));
        assert!(!create.contains(&"adset-archived-edit"));
        assert!(!create.contains(&"audience-flagged-edit"));
        assert_eq!(
            names(Endpoint::AudienceOptOut),
            vec!["audience-opt-out-empty"]
        );
        assert!(names(Endpoint::AdSetDelete).is_empty());
        for rule in REGISTRY {
            if let Inspects::Operations(ops) = rule.meta().inspects {
                assert!(!ops.is_empty(), "{}", rule.meta().name);
            }
        }
        assert_eq!(
            find("adset-both-budgets")
                .unwrap()
                .meta()
                .inspects
                .describe(),
            "advertising calls: ad set create, ad set update"
        );
    }

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

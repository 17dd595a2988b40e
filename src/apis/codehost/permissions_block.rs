//! Whether a workflow's `permissions:` block is one GitHub accepts (docs/workflows.md):
//! `read-all`, `write-all`, or a mapping of the keys the host lists to the levels each
//! key takes. GitHub refuses a workflow whose block is anything else, so no job of it
//! runs; the job-token rules do not judge calls against such a block.
//!
//! The keys and levels are the host's: the workflow syntax's `permissions`
//! (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions)
//! and the schema of GitHub's workflow parser (actions/languageservices
//! `workflow-parser/src/workflow-v1.0.json`: `permissions-mapping`, where `id-token` and
//! `copilot-requests` take `write` or `none`, `models` and `vulnerability-alerts` `read`
//! or `none`), as catalog/codehost/workflows/keys.tsv holds them.

use crate::catalog::codehost_workflows::{self as table, Level, WorkflowKey};
use crate::loading::Span;
use crate::model::workflow::{Grant, Permissions, Written};

/// The host's page listing the keys and their levels.
pub const SYNTAX_DOCS: &str = "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions";

/// One thing in a block that GitHub refuses.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockProblem {
    /// The key or the value at fault.
    pub span: Span,
    pub message: String,
    pub help: String,
    /// What was surely meant, when exactly one thing is: the text that replaces `span`.
    pub meant: Option<String>,
    /// The entry is meant away (`metadata: read`, which the token always has): from
    /// `span`'s start to here, the entry whose line goes, when the block keeps another.
    pub remove_to: Option<usize>,
}

/// The keys a block may write (every key of the table but those always held).
fn writable_keys() -> impl Iterator<Item = WorkflowKey> {
    table::workflow_keys().filter(|k| k.always().is_none())
}

fn levels_of(key: WorkflowKey) -> Vec<&'static str> {
    [Level::Read, Level::Write, Level::None]
        .into_iter()
        .filter(|&l| key.accepts(l))
        .map(Level::as_str)
        .collect()
}

/// "`read`, `write` or `none`".
fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// A word as one would mean it: case aside, `_` and spaces for `-`.
fn normalized(word: &str) -> String {
    word.trim().to_lowercase().replace(['_', ' '], "-")
}

/// The one candidate `word` surely means: the same word written otherwise (case, `_`,
/// a plural `s` more or less), else the one close misspelling.
fn meant<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let word = normalized(word);
    let same = |w: &str| candidates.iter().copied().find(|c| *c == w);
    same(&word)
        .or_else(|| same(&format!("{word}s")))
        .or_else(|| word.strip_suffix('s').and_then(same))
        .or_else(|| crate::suggest::only_close(&word, candidates.iter().copied()))
}

/// What GitHub refuses in `block`; empty when the block is valid.
pub fn block_problems(block: &Permissions) -> Vec<BlockProblem> {
    match &block.written {
        Written::All { .. } => Vec::new(),
        Written::Map(grants) => grants
            .iter()
            .filter_map(|g| grant_problem(g, grants))
            .collect(),
        Written::Word(word) => {
            // `read` for `read-all`: the word is the level every key would get.
            let wanted = match normalized(word).as_str() {
                "read" => Some("read-all"),
                "write" => Some("write-all"),
                "none" => Some("{}"),
                _ => meant(word, &["read-all", "write-all"]),
            };
            vec![BlockProblem {
                span: block.value_span,
                message: format!(
                    "`permissions: {word}` is not a block GitHub accepts: it takes `read-all`, `write-all`, `{{}}` or a mapping of keys to levels"
                ),
                help: match wanted {
                    Some(w) => format!(
                        "did you mean `{w}`? GitHub refuses the workflow, and none of its jobs runs (source: {SYNTAX_DOCS})"
                    ),
                    None => format!(
                        "GitHub refuses the workflow, and none of its jobs runs (source: {SYNTAX_DOCS})"
                    ),
                },
                meant: wanted.map(str::to_string),
                remove_to: None,
            }]
        }
        Written::Other(kind) => vec![BlockProblem {
            span: block.value_span,
            message: format!(
                "`permissions:` is {kind}: it takes `read-all`, `write-all`, `{{}}` or a mapping of keys to levels"
            ),
            help: format!(
                "GitHub refuses the workflow, and none of its jobs runs (source: {SYNTAX_DOCS})"
            ),
            meant: None,
            remove_to: None,
        }],
    }
}

fn grant_problem(grant: &Grant, grants: &[Grant]) -> Option<BlockProblem> {
    let Some(key) = table::workflow_key(&grant.key) else {
        let keys: Vec<&str> = writable_keys().map(WorkflowKey::name).collect();
        // Renaming to a key the block already writes would write it twice.
        let wanted = meant(&grant.key, &keys).filter(|w| grants.iter().all(|g| g.key != *w));
        let help = match wanted {
            Some(w) => format!("did you mean `{w}`? (source: {SYNTAX_DOCS})"),
            None => format!("the keys are {} (source: {SYNTAX_DOCS})", one_of(&keys)),
        };
        return Some(BlockProblem {
            span: grant.key_span,
            message: format!(
                "`{}` is not a key of a `permissions:` block: it grants nothing, and GitHub refuses the workflow",
                grant.key
            ),
            help,
            meant: wanted.map(str::to_string),
            remove_to: None,
        });
    };
    if let Some(always) = key.always() {
        return Some(BlockProblem {
            span: grant.key_span,
            message: format!(
                "`{}` cannot be written in a `permissions:` block: the job's token always has `{}: {}`",
                grant.key,
                grant.key,
                always.as_str()
            ),
            help: format!("remove the line: GitHub refuses the workflow (source: {SYNTAX_DOCS})"),
            meant: None,
            // Removing the block's only entry would leave `permissions:` without a value.
            remove_to: (grants.len() > 1).then_some(grant.level_span.end),
        });
    }
    if Level::parse(&grant.level).is_some_and(|l| key.accepts(l)) {
        return None;
    }
    let levels = levels_of(key);
    let written = grant.level.trim();
    // `read-all` or `Write` for a key's level: the level it names, if the key takes it.
    let bare = normalized(written);
    let bare = bare.strip_suffix("-all").unwrap_or(&bare);
    let wanted = Level::parse(bare)
        .filter(|&l| key.accepts(l))
        .map(Level::as_str)
        .or_else(|| {
            // A level the key does not take (`id-token: read`) is no misspelling of
            // another one: which was meant is the writer's choice.
            Level::parse(bare)
                .is_none()
                .then(|| meant(bare, &levels))
                .flatten()
        });
    let message = if written.is_empty() {
        format!("`{}` has no level: it takes {}", grant.key, one_of(&levels))
    } else {
        format!(
            "`{written}` is not a level of `{}`: it takes {}",
            grant.key,
            one_of(&levels)
        )
    };
    Some(BlockProblem {
        // No level written: the key is where it is missing.
        span: if grant.level_span.start == grant.level_span.end {
            grant.key_span
        } else {
            grant.level_span
        },
        message,
        help: match wanted {
            Some(w) => {
                format!("did you mean `{w}`? GitHub refuses the workflow (source: {SYNTAX_DOCS})")
            }
            None => format!("GitHub refuses the workflow (source: {SYNTAX_DOCS})"),
        },
        meant: wanted.map(str::to_string),
        remove_to: None,
    })
}

/// Whether GitHub accepts the block.
pub fn block_is_valid(block: &Permissions) -> bool {
    block_problems(block).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> Permissions {
        Permissions {
            key_span: Span::new(0, 11),
            value_span: Span::new(12, 13),
            written: Written::Map(
                pairs
                    .iter()
                    .map(|(k, l)| Grant {
                        key: k.to_string(),
                        key_span: Span::new(20, 21),
                        level: l.to_string(),
                        level_span: Span::new(30, 31),
                    })
                    .collect(),
            ),
        }
    }

    fn meant_of(pairs: &[(&str, &str)]) -> Vec<Option<String>> {
        block_problems(&map(pairs))
            .into_iter()
            .map(|p| p.meant)
            .collect()
    }

    #[test]
    fn every_key_at_every_level_it_takes_is_valid() {
        assert!(block_is_valid(&map(&[
            ("actions", "read"),
            ("artifact-metadata", "write"),
            ("attestations", "write"),
            ("checks", "none"),
            ("contents", "write"),
            ("copilot-requests", "write"),
            ("deployments", "read"),
            ("discussions", "write"),
            ("id-token", "write"),
            ("issues", "write"),
            ("models", "read"),
            ("packages", "read"),
            ("pages", "write"),
            ("pull-requests", "write"),
            ("repository-projects", "read"),
            ("security-events", "write"),
            ("statuses", "write"),
            ("vulnerability-alerts", "read"),
        ])));
        assert!(block_is_valid(&map(&[])));
    }

    #[test]
    fn a_misspelt_key_or_level_is_meant_once() {
        for (key, level, meant) in [
            ("pull-request", "write", "pull-requests"),
            ("pull_requests", "write", "pull-requests"),
            ("Contents", "read", "contents"),
            ("contents", "Read", "read"),
            ("contents", "read-all", "read"),
            ("contents", "wirte", "write"),
        ] {
            assert_eq!(
                meant_of(&[(key, level)]),
                [Some(meant.to_string())],
                "{key}: {level}"
            );
        }
        // Nothing surely meant: no fix.
        assert_eq!(meant_of(&[("contents", "admin")]), [None]);
        assert_eq!(meant_of(&[("id-token", "read")]), [None]);
        assert_eq!(meant_of(&[("models", "write")]), [None]);
        assert_eq!(meant_of(&[("frobnicate", "read")]), [None]);
        // The key it would be renamed to is already written.
        assert_eq!(
            meant_of(&[("pull-request", "write"), ("pull-requests", "read")]),
            [None]
        );
    }

    #[test]
    fn metadata_cannot_be_written() {
        let problems = block_problems(&map(&[("metadata", "read")]));
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("always has `metadata: read`"));
        // Its line goes only where the block keeps another key.
        assert_eq!(problems[0].remove_to, None);
        let problems = block_problems(&map(&[("metadata", "read"), ("contents", "read")]));
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].remove_to, Some(31));
    }

    #[test]
    fn a_word_is_the_shorthand_it_stands_for() {
        let word = |w: &str| Permissions {
            key_span: Span::new(0, 11),
            value_span: Span::new(13, 17),
            written: Written::Word(w.to_string()),
        };
        let meant = |w: &str| block_problems(&word(w))[0].meant.clone();
        assert_eq!(meant("read").as_deref(), Some("read-all"));
        assert_eq!(meant("write").as_deref(), Some("write-all"));
        assert_eq!(meant("none").as_deref(), Some("{}"));
        assert_eq!(meant("read_all").as_deref(), Some("read-all"));
        assert_eq!(meant("admin"), None);
    }
}

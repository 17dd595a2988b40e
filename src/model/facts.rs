//! What files tell the judgements that only a whole run can make, gathered file by file
//! and merged once every file is linted (files themselves are dropped as soon as they
//! are done).

use std::collections::{BTreeMap, BTreeSet};

use super::config::Config;
use super::token::TokenUses;

/// What one file, or the run so far, tells the run-level rules.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct RunFacts {
    /// Per named token (from the config): the permissions the run's requests need.
    pub named_token_uses: BTreeMap<String, TokenUses>,
    /// The config's variables some file uses in a credential position: their values are
    /// masked in what is shown of every file (`model::secrets`).
    pub credential_variables: BTreeSet<String>,
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

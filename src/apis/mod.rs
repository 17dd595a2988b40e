//! The APIs reqlint knows, one wing each: how a request is routed to one of its
//! operations, its catalog access, its config section, and what its rules share about a
//! file. Rules live in the rules folder, one folder an API; the engine iterates [`APIS`]
//! and names none (docs/adding-an-api.md).

pub mod advertising;
pub mod codehost;

use crate::model::RequestLine;
use crate::model::config::ConfigSection;
pub use crate::model::file::{ApiId, FileContext, OperationSet, Routed};

/// An API's wing as the engine sees it.
pub trait Api: Sync {
    fn id(&self) -> ApiId;

    /// Whether a request line calls this API. The registry asks the APIs in order and
    /// the first that claims a line gets it.
    fn claims(&self, line: &RequestLine) -> bool;

    /// How many operations the API numbers for [`Routed::operation`] (at least one).
    fn operation_count(&self) -> u32;

    /// The file's requests routed to this API that it recognizes as one of its
    /// operations, in the order of the file; rules that inspect its requests are called
    /// with each.
    fn operations(&self, file: &FileContext<'_>) -> Vec<Routed>;

    /// The params it takes as JSON-encoded strings only (a string of one that does not
    /// hold JSON is a problem of the file).
    fn json_encoded_params(&self) -> &'static [&'static str] {
        &[]
    }

    /// The rank of a level its config lines give a key (`Issues: write`), so that two
    /// fixes writing one key at two levels merge into the higher; `None` for a word that
    /// is none of its levels.
    fn config_level_rank(&self, _word: &str) -> Option<u8> {
        None
    }

    /// Checks what the config says that concerns it beyond its section (the code-hosting
    /// API: the permissions of the config's tokens); an error stops the run as any
    /// config error does.
    fn check_config(&self, _config: &crate::model::config::Config) -> Result<(), String> {
        Ok(())
    }

    /// Its section of the config, if it has one.
    fn config_section(&self) -> Option<&'static dyn ConfigSection> {
        None
    }
}

/// Every API, in the order they are asked to claim a request: the code-hosting API
/// takes what no other claims (docs/request-files.md says how a request is routed).
pub static APIS: &[&dyn Api] = &[&advertising::ADVERTISING, &codehost::CODE_HOSTING];

/// The API a request line is routed to among `apis`.
pub fn route(apis: &[&dyn Api], line: &RequestLine) -> Option<ApiId> {
    apis.iter().find(|api| api.claims(line)).map(|api| api.id())
}

/// The rank of a config line's level among the registered APIs' levels
/// ([`Api::config_level_rank`]).
pub fn config_level_rank(word: &str) -> Option<u8> {
    APIS.iter().find_map(|api| api.config_level_rank(word))
}

/// Every registered API's [`Api::check_config`], in their order: the first error.
pub fn check_config(config: &crate::model::config::Config) -> Result<(), String> {
    APIS.iter().try_for_each(|api| api.check_config(config))
}

/// The config sections of the registered APIs, in their order.
pub fn config_sections() -> Vec<&'static dyn ConfigSection> {
    APIS.iter().filter_map(|api| api.config_section()).collect()
}

/// The params that the registered APIs take as JSON-encoded strings only.
pub fn json_encoded_params() -> &'static [&'static str] {
    static ALL: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        APIS.iter()
            .flat_map(|api| api.json_encoded_params().iter().copied())
            .collect()
    });
    &ALL
}

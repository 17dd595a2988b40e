//! The APIs reqlint knows, one wing each: how a request is routed to one of its
//! operations, its catalog access, its config section, and what its rules share about a
//! file. Rules live in the rules folder, one folder an API; the engine iterates [`APIS`]
//! and names none (docs/adding-an-api.md).

pub mod advertising;
pub mod codehost;

use crate::model::RequestLine;
use crate::model::config::{Config, ConfigSection};
pub use crate::model::file::{ApiId, FileContext, OperationSet, Routed};

/// An API's wing as the engine sees it.
pub trait Api: Sync {
    fn id(&self) -> ApiId;

    /// Whether it serves `host` (lower case, without port or user part; `host_port` with
    /// its port): the vendor's hosts, and those the config gives it.
    fn serves_host(&self, _host: &str, _host_port: &str, _config: &Config) -> bool {
        false
    }

    /// Whether the config gives it a variable that stands for the base URL
    /// (`{{base_url}}/…`).
    fn owns_base_variable(&self, _name: &str, _config: &Config) -> bool {
        false
    }

    /// What a request line's path alone says of this API (see [`Evidence`]).
    fn path_evidence(&self, _line: &RequestLine) -> Evidence {
        Evidence::None
    }

    /// Whether a request to one of its hosts is its to judge: a host may serve another
    /// API beside it (the code-hosting host's GraphQL API at `/graphql`), which reqlint
    /// does not judge and counts as it counts requests to other hosts.
    fn serves_path(&self, _line: &RequestLine) -> bool {
        true
    }

    /// Whether it reads the query string's params and the body's as one list (the Graph
    /// API: a param may be given in either), so that a name in both is given twice. The
    /// code-hosting API reads them apart (a body property is not a query param).
    fn reads_query_and_body_as_one(&self) -> bool {
        false
    }

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

/// What a path alone says of an API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Evidence {
    /// Nothing.
    None,
    /// It may be the API's: enough for a bare path of reqlint's own format (the API is
    /// then inferred from the path, docs/request-files.md).
    Likely,
    /// Only the API has such paths (`/v25.0/…`, `/act_1/…`, `/repos/…`): enough to place
    /// the requests of a file that share a base variable.
    Sure,
}

/// Every API, in the order they are asked: for a bare path, the first the path makes
/// likely (the code-hosting API, last, takes any bare path; docs/request-files.md).
pub static APIS: &[&dyn Api] = &[&advertising::ADVERTISING, &codehost::CODE_HOSTING];

/// Where a request line sends the request, as routing reads it.
enum Destination<'l> {
    /// A host written out (`https://api.github.com/…`), lower case, without port and
    /// user part, and with its port.
    Host(String, String),
    /// A variable that stands for the base URL or the host (`{{base_url}}/…`,
    /// `https://{{host}}/…`), its value unknown.
    Variable(&'l str),
    /// A path alone (`/repos/o/r`), as reqlint's own format writes it.
    Path,
}

fn destination(line: &RequestLine) -> Destination<'_> {
    if let Some(name) = &line.base_variable {
        return Destination::Variable(name);
    }
    let Some(host) = &line.host else {
        return Destination::Path;
    };
    let host = host.rsplit('@').next().unwrap_or(host);
    if host.contains("{{") {
        return Destination::Variable(host);
    }
    let host_port = host.to_ascii_lowercase();
    let bare = match host_port.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name.to_string(),
        _ => host_port.clone(),
    };
    Destination::Host(bare, host_port)
}

/// The host a request line writes out, lower case, without port and user part, and
/// with its port; `None` for a bare path or a host that is a variable.
pub fn written_host(line: &RequestLine) -> Option<(String, String)> {
    match destination(line) {
        Destination::Host(host, host_port) => Some((host, host_port)),
        Destination::Variable(_) | Destination::Path => None,
    }
}

/// The API a request line is routed to among `apis` when it is read alone: by its
/// host, else by its path (a request behind a base variable is placed by its path only
/// when the path is sure of an API). [`route_file`] routes a whole file.
pub fn route(apis: &[&dyn Api], line: &RequestLine, config: &Config) -> Option<ApiId> {
    let api = match destination(line) {
        Destination::Host(host, host_port) => apis
            .iter()
            .find(|api| api.serves_host(&host, &host_port, config)),
        Destination::Variable(name) => apis
            .iter()
            .find(|api| api.owns_base_variable(name, config))
            .or_else(|| {
                apis.iter()
                    .find(|api| api.path_evidence(line) == Evidence::Sure)
            }),
        Destination::Path => apis
            .iter()
            .find(|api| api.path_evidence(line) >= Evidence::Likely),
    }?;
    api.serves_path(line).then(|| api.id())
}

/// The API each request line of a file is routed to (`None`: no line, or not an API
/// reqlint checks). A host written out decides; a path alone is inferred; requests that
/// share a base variable share its API: the config's, else the one their paths are sure
/// of, when they are sure of one only (a file that mixes APIs behind one variable, or
/// gives no clue, is not judged: reqlint never guesses).
pub fn route_file(
    apis: &[&dyn Api],
    lines: &[Option<&RequestLine>],
    config: &Config,
) -> Vec<Option<ApiId>> {
    // Per base variable: the one API the paths behind it are sure of, or `None` once
    // two are (or until one is).
    let mut by_variable: std::collections::HashMap<&str, Option<ApiId>> =
        std::collections::HashMap::new();
    let mut mixed: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for line in lines.iter().flatten() {
        let Destination::Variable(name) = destination(line) else {
            continue;
        };
        let sure = apis
            .iter()
            .find(|api| api.path_evidence(line) == Evidence::Sure)
            .map(|api| api.id());
        let known = by_variable.entry(name).or_insert(None);
        match (*known, sure) {
            (_, None) => {}
            (None, Some(api)) => *known = Some(api),
            (Some(seen), Some(api)) if seen != api => {
                mixed.insert(name);
            }
            _ => {}
        }
    }
    lines
        .iter()
        .map(|line| {
            let line = (*line)?;
            match destination(line) {
                Destination::Variable(name) => apis
                    .iter()
                    .find(|api| api.owns_base_variable(name, config))
                    .or_else(|| {
                        let id = by_variable.get(name).copied().flatten()?;
                        (!mixed.contains(name))
                            .then(|| apis.iter().find(|api| api.id() == id))
                            .flatten()
                    })
                    .filter(|api| api.serves_path(line))
                    .map(|api| api.id()),
                _ => route(apis, line, config),
            }
        })
        .collect()
}

/// Where a request that no API checks goes, as the summary lists it: its host (without
/// a user part), or its base variable (`{{base_url}}`).
pub fn destination_shown(line: &RequestLine) -> String {
    match destination(line) {
        // A host an API serves, on a path it leaves to another (`api.github.com/graphql`).
        Destination::Host(_, host_port) if APIS.iter().any(|api| !api.serves_path(line)) => {
            format!("{host_port}{}", line.path)
        }
        Destination::Host(_, host_port) => host_port,
        Destination::Variable(name) if name.contains("{{") => name.to_string(),
        Destination::Variable(name) => format!("{{{{{name}}}}}"),
        Destination::Path => line.path.clone(),
    }
}

/// Whether the registered API `id` reads query and body params as one list
/// ([`Api::reads_query_and_body_as_one`]); an API not registered here is taken to.
pub fn reads_query_and_body_as_one(id: ApiId) -> bool {
    APIS.iter()
        .find(|api| api.id() == id)
        .is_none_or(|api| api.reads_query_and_body_as_one())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, parse_text};
    use crate::model::FileModel;

    /// The API of each request of a YAML request file, by name (`-`: not judged).
    fn routes(yaml: &str, config: &Config) -> Vec<&'static str> {
        let (docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        let model = FileModel::build(&docs, yaml);
        let lines: Vec<_> = model.requests.iter().map(|r| r.line()).collect();
        route_file(APIS, &lines, config)
            .into_iter()
            .map(|api| api.map_or("-", ApiId::as_str))
            .collect()
    }

    fn no_config() -> Config {
        Config::defaults(".".into())
    }

    #[test]
    fn a_written_host_decides() {
        let yaml = "requests:
  - GET https://api.github.com/repos/a/b
  - GET https://uploads.github.com/repos/a/b/releases/1/assets
  - GET https://api.octo.ghe.com/repos/a/b
  - GET https://graph.facebook.com/v25.0/act_1/campaigns
  - GET https://graph-video.facebook.com/v25.0/1/videos
  - GET http://localhost:8080/repos/a/b
  - GET https://example.com/v25.0/act_1
  - GET https://graph.instagram.com/me
  - GET https://rupload.facebook.com/x
  - GET https://user:pw@API.GITHUB.COM:443/user
";
        assert_eq!(
            routes(yaml, &no_config()),
            [
                "code-hosting",
                "code-hosting",
                "code-hosting",
                "advertising",
                "advertising",
                "-",
                "-",
                "-",
                "-",
                "code-hosting"
            ]
        );
    }

    /// The GraphQL API shares the code-hosting hosts; reqlint judges only the REST API
    /// there, and lists the GraphQL requests among those it does not check.
    #[test]
    fn graphql_on_a_code_hosting_host_is_not_judged() {
        let yaml = "requests:
  - POST https://api.github.com/graphql
  - POST https://ghe.example.com/api/graphql
  - POST /graphql
  - GET https://api.github.com/repos/o/r/graphql
";
        let config = Config::parse(
            b"codehost:\n  hosts: [ghe.example.com]\n".to_vec(),
            std::path::Path::new(".reqlint.yaml"),
            ".".into(),
            &[],
            &config_sections(),
        )
        .unwrap();
        assert_eq!(routes(yaml, &config), ["-", "-", "-", "code-hosting"]);
        let (docs, _) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        let model = FileModel::build(&docs, yaml);
        let shown: Vec<String> = model
            .requests
            .iter()
            .filter_map(|r| r.line().map(destination_shown))
            .collect();
        assert_eq!(shown[0], "api.github.com/graphql");
        assert_eq!(shown[1], "ghe.example.com/api/graphql");
    }

    #[test]
    fn bare_paths_keep_their_inference() {
        let yaml = "requests:
  - GET /repos/a/b
  - GET /act_1/campaigns
  - GET /v25.0/me
  - GET /120210000000000001/insights
  - GET /{{adset_id}}
";
        assert_eq!(
            routes(yaml, &no_config()),
            [
                "code-hosting",
                "advertising",
                "advertising",
                "advertising",
                "code-hosting"
            ]
        );
    }

    #[test]
    fn requests_behind_one_base_variable_share_the_api_their_paths_are_sure_of() {
        let yaml = "requests:
  - GET {{graph}}/act_1/campaigns
  - GET {{graph}}/{{adset_id}}
  - GET {{graph}}/{{api_version}}/{{adset_id}}
  - GET {{mixed}}/act_1/campaigns
  - GET {{mixed}}/repos/a/b/issuez
  - GET {{none}}/{{thing}}/stuff
  - GET https://{{host}}/repos/a/b/issuez
  - GET https://{{host}}/{{whatever}}
";
        assert_eq!(
            routes(yaml, &no_config()),
            [
                "advertising",
                "advertising",
                "advertising",
                "-",
                "-",
                "-",
                "code-hosting",
                "code-hosting"
            ]
        );
    }

    #[test]
    fn the_config_maps_hosts_and_base_variables() {
        let config = Config::parse(
            b"codehost:\n  hosts: [ghe.example.com, 'localhost:8080']\n  base-variables: ['{{gh}}']\nadvertising:\n  base-variables: [meta]\n".to_vec(),
            std::path::Path::new(".reqlint.yaml"),
            ".".into(),
            &[],
            &config_sections(),
        )
        .unwrap();
        let yaml = "requests:
  - GET https://ghe.example.com/api/v3/repos/a/b
  - GET http://localhost:8080/user
  - GET http://localhost:9090/user
  - GET {{gh}}/{{x}}
  - GET {{meta}}/{{x}}
  - GET {{meta}}/repos/a/b
";
        assert_eq!(
            routes(yaml, &config),
            [
                "code-hosting",
                "code-hosting",
                "-",
                "code-hosting",
                "advertising",
                "advertising"
            ]
        );
    }
}

//! Every operation of the code-hosting REST API, in each of its editions, compiled by the
//! build from the host's OpenAPI description (catalog/codehost/openapi/, see its
//! README): the operation's template, docs page and params, and a router from a concrete
//! path to its operation.
//!
//! The tables hold no pointers: strings are ranges of one text blob and links are
//! indices, so the loader has nothing to relocate in them however large they grow.

use std::fmt;

use crate::catalog::Method;

/// A string of the tables: a byte range of [`generated::BLOB`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text(u32, u32);

impl Text {
    fn get(self) -> &'static str {
        &generated::BLOB[self.0 as usize..self.1 as usize]
    }

    /// Orders the text against `other` as `str` does, by bytes: the router's binary
    /// search compares several literals per segment, most of which differ at the first
    /// byte, and slicing the bytes skips the checks of character boundaries.
    fn cmp_str(self, other: &str) -> std::cmp::Ordering {
        let bytes = &generated::BLOB.as_bytes()[self.0 as usize..self.1 as usize];
        match (bytes.first(), other.as_bytes().first()) {
            (Some(a), Some(b)) if a != b => a.cmp(b),
            _ => bytes.cmp(other.as_bytes()),
        }
    }
}

/// An edition of the API: an index into [`EDITIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edition(u8);

impl Edition {
    /// api.github.com.
    pub const CLOUD: Edition = Edition(0);

    /// `fpt` (api.github.com), `ghec`, `ghes-3.17`, `ghes-3.18`, `ghes-3.19`.
    pub fn parse(name: &str) -> Option<Edition> {
        EDITIONS
            .iter()
            .position(|e| *e == name)
            .map(|i| Edition(i as u8))
    }

    pub fn as_str(self) -> &'static str {
        EDITIONS[self.0 as usize]
    }

    /// The edition's product name, as the host's docs say it.
    pub fn title(self) -> String {
        match self.as_str() {
            "fpt" => "GitHub.com".to_string(),
            "ghec" => "GitHub Enterprise Cloud".to_string(),
            other => match other.strip_prefix("ghes-") {
                Some(release) => format!("GitHub Enterprise Server {release}"),
                None => other.to_string(),
            },
        }
    }

    /// The newest enterprise server release the description has.
    pub fn newest_server() -> Edition {
        Edition::all()
            .filter(|e| e.as_str().starts_with("ghes-"))
            .max_by_key(|e| {
                let release = e.as_str().trim_start_matches("ghes-");
                let (major, minor) = release.split_once('.').unwrap_or((release, "0"));
                (
                    major.parse::<u32>().unwrap_or(0),
                    minor.parse::<u32>().unwrap_or(0),
                )
            })
            .unwrap_or(Edition::CLOUD)
    }

    pub fn all() -> impl Iterator<Item = Edition> {
        (0..EDITIONS.len() as u8).map(Edition)
    }

    fn bit(self) -> u8 {
        1 << self.0
    }

    /// The segments before an operation's path on the edition's API server: none on
    /// api.github.com, `api/v3` on an enterprise server.
    pub fn api_prefix(self) -> &'static [&'static str] {
        if self.as_str().starts_with("ghes-") {
            &["api", "v3"]
        } else {
            &[]
        }
    }

    /// The root of the edition's docs pages, which relative docs paths continue.
    fn docs_root(self) -> String {
        match self.as_str() {
            "fpt" => "https://docs.github.com/".to_string(),
            "ghec" => "https://docs.github.com/enterprise-cloud@latest/".to_string(),
            ghes => format!(
                "https://docs.github.com/enterprise-server@{}/",
                ghes.trim_start_matches("ghes-")
            ),
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The editions, in the order of their bits.
pub static EDITIONS: [&str; 5] = generated::EDITIONS;

/// Index of an operation row in the table (one row per operation and set of editions
/// that describe it alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OperationId(u16);

#[derive(Debug)]
pub struct Operation {
    editions: u8,
    pub method: Method,
    template: Text,
    id: Text,
    category: Text,
    subcategory: Text,
    docs: Text,
    server: Text,
    media: Text,
    body_param: Text,
    flags: u8,
    params: (u32, u32),
    body: (u32, u32),
}

impl Operation {
    const APPS: u8 = 1;
    const CLOUD_ONLY: u8 = 2;
    const DEPRECATED: u8 = 4;
    const BODY_REQUIRED: u8 = 8;

    pub fn in_edition(&self, edition: Edition) -> bool {
        self.editions & edition.bit() != 0
    }

    /// The path template, as `/repos/{owner}/{repo}/contents/{path}`.
    pub fn template(&self) -> &'static str {
        self.template.get()
    }

    /// The host's operationId, as `repos/get-content`.
    pub fn operation_id(&self) -> &'static str {
        self.id.get()
    }

    pub fn category(&self) -> &'static str {
        self.category.get()
    }

    pub fn subcategory(&self) -> &'static str {
        self.subcategory.get()
    }

    /// The operation's page in the edition's REST docs.
    pub fn docs_url(&self, edition: Edition) -> Option<String> {
        let docs = self.docs.get();
        match docs {
            "" => None,
            absolute if absolute.starts_with("https://") => Some(absolute.to_string()),
            relative => Some(edition.docs_root() + relative),
        }
    }

    /// The server the operation is sent to when it is not the edition's API root (the
    /// release asset upload's `https://uploads.github.com`).
    pub fn server(&self) -> Option<&'static str> {
        Some(self.server.get()).filter(|s| !s.is_empty())
    }

    /// The segments before the operation's path on its server in an edition: its own
    /// server's path (`api/uploads` for an enterprise server's asset upload, none for
    /// its management console), else the edition's [`Edition::api_prefix`].
    pub fn path_prefix(&self, edition: Edition) -> Vec<&'static str> {
        self.path_prefix_segments(edition).collect()
    }

    fn path_prefix_segments(&self, edition: Edition) -> impl Iterator<Item = &'static str> {
        let (own, default) = match self.server() {
            Some(server) => {
                let after_scheme = server.split_once("://").map_or(server, |(_, rest)| rest);
                (
                    after_scheme.split_once('/').map_or("", |(_, path)| path),
                    &[][..],
                )
            }
            None => ("", edition.api_prefix()),
        };
        own.split('/')
            .filter(|s| !s.is_empty())
            .chain(default.iter().copied())
    }

    /// The request body's media types, comma-separated; empty when it takes none.
    pub fn body_media_types(&self) -> &'static str {
        self.media.get()
    }

    pub fn body_required(&self) -> bool {
        self.flags & Operation::BODY_REQUIRED != 0
    }

    /// The name the host gives a body that is not an object (`labels`, `names`).
    pub fn body_param(&self) -> Option<&'static str> {
        Some(self.body_param.get()).filter(|s| !s.is_empty())
    }

    pub fn enabled_for_apps(&self) -> bool {
        self.flags & Operation::APPS != 0
    }

    pub fn cloud_only(&self) -> bool {
        self.flags & Operation::CLOUD_ONLY != 0
    }

    pub fn deprecated(&self) -> bool {
        self.flags & Operation::DEPRECATED != 0
    }

    /// The nodes of the operation's JSON request body schema in an edition, the body
    /// itself (`$`) first; none when it takes no JSON body.
    pub fn body_schema(&self, edition: Edition) -> impl Iterator<Item = &'static BodyNode> {
        generated::BODY_NODES[self.body.0 as usize..self.body.1 as usize]
            .iter()
            .filter(move |n| n.editions & edition.bit() != 0)
    }

    /// The operation's path and query params in an edition.
    pub fn params(&self, edition: Edition) -> impl Iterator<Item = &'static Param> {
        generated::PARAMS[self.params.0 as usize..self.params.1 as usize]
            .iter()
            .filter(move |p| p.editions & edition.bit() != 0)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
}

#[derive(Debug)]
pub struct Param {
    editions: u8,
    pub location: Location,
    name: Text,
    pub required: bool,
    /// The value may hold slashes (`x-multi-segment`).
    pub multi_segment: bool,
    pub deprecated: bool,
    kind: Text,
    format: Text,
    values: Text,
    default: Text,
    constraints: Text,
}

impl Param {
    pub fn name(&self) -> &'static str {
        self.name.get()
    }

    /// `string`, `integer`, `number`, `boolean`, `object`, `array<T>`, `T|U`.
    pub fn kind(&self) -> &'static str {
        self.kind.get()
    }

    /// The schema's `format` (`date-time`, …); empty when it has none.
    pub fn format(&self) -> &'static str {
        self.format.get()
    }

    /// The allowed values as a compact JSON array (an array param's items'); empty when
    /// any value of the type is allowed.
    pub fn values_json(&self) -> &'static str {
        self.values.get()
    }

    /// The default as compact JSON; empty when none is given.
    pub fn default_json(&self) -> &'static str {
        self.default.get()
    }

    /// `minimum`, `maximum`, `pattern`, … as a compact JSON object; empty when none.
    pub fn constraints_json(&self) -> &'static str {
        self.constraints.get()
    }
}

/// A node of a JSON request body's schema (catalog/codehost/README.md describes the
/// grammar of its property path and type).
#[derive(Debug)]
pub struct BodyNode {
    editions: u8,
    property: Text,
    kind: Text,
    /// The enclosing object requires the property.
    pub required: bool,
    flags: u8,
    format: Text,
    values: Text,
    default: Text,
    constraints: Text,
}

impl BodyNode {
    const NULLABLE: u8 = 1;
    const CLOSED: u8 = 2;
    const OPEN: u8 = 4;
    const DEPRECATED: u8 = 8;
    const READ_ONLY: u8 = 16;
    const WRITE_ONLY: u8 = 32;

    /// `$` the body, `.name` a property, `[]` an array's items, `{}` the values of an
    /// object's other properties, `|N` the Nth alternative: `$.labels[]|2.name`.
    pub fn property(&self) -> &'static str {
        self.property.get()
    }

    /// `string`, `integer`, `number`, `boolean`, `object`, `array`, `null`, `any`,
    /// `one-of:N`, `any-of:N`, `recursive:NAME`, or several types comma-separated.
    pub fn kind(&self) -> &'static str {
        self.kind.get()
    }

    pub fn format(&self) -> &'static str {
        self.format.get()
    }

    /// The allowed values as a compact JSON array; empty when any value is allowed.
    pub fn values_json(&self) -> &'static str {
        self.values.get()
    }

    pub fn default_json(&self) -> &'static str {
        self.default.get()
    }

    /// `minLength`, `maxItems`, `pattern`, … as a compact JSON object; empty when none.
    pub fn constraints_json(&self) -> &'static str {
        self.constraints.get()
    }

    pub fn nullable(&self) -> bool {
        self.flags & BodyNode::NULLABLE != 0
    }

    /// `additionalProperties: false`: properties other than the listed ones are refused.
    pub fn closed(&self) -> bool {
        self.flags & BodyNode::CLOSED != 0
    }

    /// `additionalProperties` allowed explicitly (`true` or `{}`).
    pub fn open(&self) -> bool {
        self.flags & BodyNode::OPEN != 0
    }

    pub fn deprecated(&self) -> bool {
        self.flags & BodyNode::DEPRECATED != 0
    }

    pub fn read_only(&self) -> bool {
        self.flags & BodyNode::READ_ONLY != 0
    }

    pub fn write_only(&self) -> bool {
        self.flags & BodyNode::WRITE_ONLY != 0
    }
}

#[derive(Debug)]
pub struct RouteNode {
    literals: (u32, u32),
    placeholder: u32,
    multi: u32,
    operations: (u32, u32),
}

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/openapi.rs"));
}

/// A concrete path of an operation, as segments: each placeholder filled with a word
/// (`v-owner`), a multi-segment one with three segments (`a/b/c`), the text of a mixed
/// segment kept (`v-base...v-head`). For tests and examples.
pub fn example_path(op: &Operation, edition: Edition) -> Vec<String> {
    let spread: Vec<&str> = op
        .params(edition)
        .filter(|p| p.multi_segment)
        .map(|p| p.name())
        .collect();
    let mut out = Vec::new();
    for segment in op.template().split('/').skip(1).filter(|s| !s.is_empty()) {
        match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) if spread.contains(&name) => out.extend(["a", "b", "c"].map(String::from)),
            Some(name) => out.push(format!("v-{name}")),
            // `{base}...{head}`: each placeholder filled, the text kept.
            None => out.push(segment.replace('{', "v-").replace('}', "")),
        }
    }
    out
}

const NO_CHILD: u32 = u32::MAX;

/// Every operation row.
pub fn operations() -> impl Iterator<Item = (OperationId, &'static Operation)> {
    generated::OPERATIONS
        .iter()
        .enumerate()
        .map(|(i, op)| (OperationId(i as u16), op))
}

pub fn get(id: OperationId) -> &'static Operation {
    &generated::OPERATIONS[id.0 as usize]
}

/// The operation a request's method and path segments (without the edition's API
/// prefix, split at `/`) call in an edition. At each segment a literal wins over a
/// placeholder, and a placeholder over a multi-segment one, which takes as few segments
/// as lets the rest of the path match: `branches/feature/x/protection` is the
/// protection of branch `feature/x`, not branch `feature/x/protection`.
pub fn operation(method: Method, segments: &[&str], edition: Edition) -> Option<OperationId> {
    operation_where(method, segments, edition, &|_| true)
}

/// The operation a request calls from the whole path it sends to the edition's server
/// (every segment after the host): on an enterprise server `api/v3/…` for the REST
/// API, `api/uploads/…` for the asset upload and `manage/v1/…` (no prefix) for the
/// management console; on api.github.com the path itself. Which host the request goes
/// to (api.github.com or uploads.github.com) is the caller's: [`Operation::server`].
pub fn operation_sent(method: Method, segments: &[&str], edition: Edition) -> Option<OperationId> {
    let prefixes: [&[&str]; 3] = [edition.api_prefix(), &["api", "uploads"], &[]];
    prefixes.iter().enumerate().find_map(|(i, prefix)| {
        if prefixes[..i].contains(prefix) {
            return None;
        }
        let rest = segments.strip_prefix(*prefix)?;
        let served_here =
            |op: &Operation| op.path_prefix_segments(edition).eq(prefix.iter().copied());
        operation_where(method, rest, edition, &served_here)
    })
}

fn operation_where(
    method: Method,
    segments: &[&str],
    edition: Edition,
    accept: &dyn Fn(&Operation) -> bool,
) -> Option<OperationId> {
    let ends = |op: &Operation| op.method == method && op.in_edition(edition) && accept(op);
    let node = route(0, segments, &ends, &mut 0)?;
    node_operations(node)
        .find(|&i| ends(&generated::OPERATIONS[i as usize]))
        .map(OperationId)
}

/// The operations of the template a path matches in an edition, whatever their method
/// (to tell "no such path" from "not this method").
pub fn operations_at(segments: &[&str], edition: Edition) -> Vec<OperationId> {
    let ends = |op: &Operation| op.in_edition(edition);
    let Some(node) = route(0, segments, &ends, &mut 0) else {
        return Vec::new();
    };
    node_operations(node)
        .filter(|&i| ends(&generated::OPERATIONS[i as usize]))
        .map(OperationId)
        .collect()
}

fn node_operations(node: usize) -> impl Iterator<Item = u16> {
    let (first, last) = generated::NODES[node].operations;
    generated::NODE_OPERATIONS[first as usize..last as usize]
        .iter()
        .copied()
}

/// The router node where the path ends at an operation `ends` accepts. Each call goes
/// one node down the trie, so the recursion is as deep as the longest template, however
/// long the path; a multi-segment child tries each split of the rest once. `visits`
/// counts the nodes visited.
fn route(
    node: usize,
    segments: &[&str],
    ends: &dyn Fn(&Operation) -> bool,
    visits: &mut usize,
) -> Option<usize> {
    *visits += 1;
    let here = &generated::NODES[node];
    let Some((first, rest)) = segments.split_first() else {
        return node_operations(node)
            .any(|i| ends(&generated::OPERATIONS[i as usize]))
            .then_some(node);
    };
    if first.is_empty() {
        return None;
    }
    let literals = &generated::LITERALS[here.literals.0 as usize..here.literals.1 as usize];
    if let Ok(i) = literals.binary_search_by(|(l, _)| l.cmp_str(first))
        && let Some(found) = route(literals[i].1 as usize, rest, ends, visits)
    {
        return Some(found);
    }
    if here.placeholder != NO_CHILD
        && let Some(found) = route(here.placeholder as usize, rest, ends, visits)
    {
        return Some(found);
    }
    if here.multi != NO_CHILD {
        let child = here.multi as usize;
        for taken in 1..=segments.len() {
            if segments[taken - 1].is_empty() {
                return None;
            }
            if let Some(found) = route(child, &segments[taken..], ends, visits) {
                return Some(found);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A path filled from a template: `{x}` becomes `v-x` (no template has a literal
    /// starting with `v-`), a multi-segment param `a/b/c`.
    fn find(method: Method, path: &str, edition: Edition) -> Option<&'static str> {
        // The API root, `/`, is the path of no segment.
        let segments: Vec<&str> = path.split('/').skip(1).filter(|_| path != "/").collect();
        operation(method, &segments, edition).map(|id| get(id).operation_id())
    }

    #[test]
    fn every_operation_filled_in_is_found_as_itself() {
        let mut checked = 0;
        let mut multi = 0;
        for (id, op) in operations() {
            for edition in Edition::all().filter(|&e| op.in_edition(e)) {
                let path = example_path(op, edition);
                let segments: Vec<&str> = path.iter().map(String::as_str).collect();
                assert_eq!(
                    operation(op.method, &segments, edition),
                    Some(id),
                    "{} {} in {edition} (filled as /{})",
                    op.method,
                    op.template(),
                    path.join("/")
                );
                checked += 1;
                multi += usize::from(op.params(edition).any(|p| p.multi_segment));
            }
        }
        // Every row in every edition it has: more than the 1,223 operations of the
        // cloud alone, and the multi-segment ones among them.
        assert!(checked > 5_000, "{checked}");
        assert!(multi > 150, "{multi}");
        assert!(operations().count() > 1_500);
    }

    #[test]
    fn a_slash_in_a_multi_segment_value_and_literals_winning() {
        let cloud = Edition::CLOUD;
        use Method::*;
        for (method, path, expected) in [
            (
                Delete,
                "/repos/o/r/git/refs/heads/feature/x",
                "git/delete-ref",
            ),
            (
                Patch,
                "/repos/o/r/git/refs/heads/feature/x",
                "git/update-ref",
            ),
            (Get, "/repos/o/r/git/ref/tags/v1.2.0", "git/get-ref"),
            (
                Get,
                "/repos/o/r/git/matching-refs/heads/feature",
                "git/list-matching-refs",
            ),
            (Get, "/repos/o/r/contents/src/lib.rs", "repos/get-content"),
            (Get, "/repos/o/r/branches/feature/x", "repos/get-branch"),
            // The literal `protection` wins over a branch named `feature/x/protection`.
            (
                Get,
                "/repos/o/r/branches/feature/x/protection",
                "repos/get-branch-protection",
            ),
            (
                Get,
                "/repos/o/r/branches/feature/x/protection/restrictions/users",
                "repos/get-users-with-access-to-protected-branch",
            ),
            (
                Post,
                "/repos/o/r/branches/feature/x/rename",
                "repos/rename-branch",
            ),
            (
                Get,
                "/repos/o/r/compare/main...feature/x",
                "repos/compare-commits-with-basehead",
            ),
            (
                Get,
                "/repos/o/r/compare/main...feature",
                "repos/compare-commits",
            ),
            (
                Get,
                "/repos/o/r/commits/abc123/comments",
                "repos/list-comments-for-commit",
            ),
            (
                Get,
                "/repos/o/r/commits/heads/main/status",
                "repos/get-combined-status-for-ref",
            ),
            // Static over param: `/user/following` is not `/users/{username}`-like.
            (Get, "/user", "users/get-authenticated"),
            (Get, "/rate_limit", "rate-limit/get"),
            (Get, "/", "meta/root"),
            (
                Get,
                "/repos/o/r/releases/latest",
                "repos/get-latest-release",
            ),
            (Get, "/repos/o/r/releases/17", "repos/get-release"),
        ] {
            assert_eq!(find(method, path, cloud), Some(expected), "{method} {path}");
        }
        // `refs/{ref}` takes no GET: no other template catches it.
        assert_eq!(
            find(Get, "/repos/o/r/git/refs/heads/feature/x", cloud),
            None
        );
        assert_eq!(find(Get, "/repos/o/r/contents//x", cloud), None);
        assert_eq!(find(Get, "/nothing/here", cloud), None);
        let at = operations_at(&["repos", "o", "r", "git", "refs", "heads", "x"], cloud);
        let mut methods: Vec<&str> = at.iter().map(|&id| get(id).method.as_str()).collect();
        methods.sort();
        assert_eq!(methods, ["DELETE", "PATCH"]);
    }

    #[test]
    fn editions_servers_docs_and_params() {
        let upload = ["repos", "o", "r", "releases", "1", "assets"];
        let cloud = get(operation(Method::Post, &upload, Edition::CLOUD).unwrap());
        assert_eq!(cloud.operation_id(), "repos/upload-release-asset");
        assert_eq!(cloud.server(), Some("https://uploads.github.com"));
        let ghes = Edition::parse("ghes-3.19").unwrap();
        let on_ghes = get(operation(Method::Post, &upload, ghes).unwrap());
        assert_eq!(on_ghes.server(), Some("https://HOSTNAME/api/uploads"));

        let op = get(operation(Method::Get, &["rate_limit"], Edition::CLOUD).unwrap());
        assert_eq!(
            op.docs_url(Edition::CLOUD).as_deref(),
            Some(
                "https://docs.github.com/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user"
            )
        );
        let on_ghes = get(operation(Method::Get, &["rate_limit"], ghes).unwrap());
        assert!(
            on_ghes
                .docs_url(ghes)
                .unwrap()
                .starts_with("https://docs.github.com/enterprise-server@3.19/rest/"),
        );
        // The enterprise server's own management API is not the cloud's.
        assert!(operation(Method::Get, &["manage", "v1", "version"], ghes).is_some());
        assert!(operation(Method::Get, &["manage", "v1", "version"], Edition::CLOUD).is_none());

        let issues = ["repos", "o", "r", "issues"];
        let list = get(operation(Method::Get, &issues, Edition::CLOUD).unwrap());
        let state = list
            .params(Edition::CLOUD)
            .find(|p| p.name() == "state")
            .unwrap();
        assert_eq!(state.location, Location::Query);
        assert_eq!(state.kind(), "string");
        assert_eq!(state.values_json(), r#"["open","closed","all"]"#);
        assert_eq!(state.default_json(), r#""open""#);
        let per_page = list
            .params(Edition::CLOUD)
            .find(|p| p.name() == "per_page")
            .unwrap();
        assert_eq!(per_page.kind(), "integer");
        let create = get(operation(Method::Post, &issues, Edition::CLOUD).unwrap());
        assert!(create.body_required());
        assert_eq!(create.body_media_types(), "application/json");
        let path = get(operation(
            Method::Get,
            &["repos", "o", "r", "contents", "a"],
            Edition::CLOUD,
        )
        .unwrap())
        .params(Edition::CLOUD)
        .find(|p| p.name() == "path")
        .unwrap();
        assert!(path.multi_segment && path.required && path.location == Location::Path);
    }

    #[test]
    fn paths_as_sent_to_an_enterprise_server() {
        let ghes = Edition::parse("ghes-3.18").unwrap();
        let sent = |method: Method, path: &str, edition: Edition| {
            let segments: Vec<&str> = path.split('/').skip(1).collect();
            operation_sent(method, &segments, edition).map(|id| get(id).operation_id())
        };
        let refs = "/api/v3/repos/o/r/git/refs/heads/feature/x";
        assert_eq!(sent(Method::Delete, refs, ghes), Some("git/delete-ref"));
        assert_eq!(sent(Method::Delete, &refs[7..], ghes), None);
        let upload = "/api/uploads/repos/o/r/releases/1/assets";
        assert_eq!(
            sent(Method::Post, upload, ghes),
            Some("repos/upload-release-asset")
        );
        assert_eq!(
            sent(Method::Post, "/api/v3/repos/o/r/releases/1/assets", ghes),
            None
        );
        let manage = sent(Method::Get, "/manage/v1/version", ghes).unwrap();
        assert!(manage.starts_with("enterprise-admin/"), "{manage}");
        assert_eq!(sent(Method::Get, "/api/v3/manage/v1/version", ghes), None);
        // The cloud's paths carry no prefix; its upload goes to another host, the same path.
        let cloud = Edition::CLOUD;
        assert_eq!(
            sent(Method::Delete, &refs[7..], cloud),
            Some("git/delete-ref")
        );
        assert_eq!(sent(Method::Delete, refs, cloud), None);
        assert_eq!(
            sent(Method::Post, &upload[12..], cloud),
            Some("repos/upload-release-asset")
        );
        // Every operation of every edition, filled and prefixed as its server wants it.
        for (id, op) in operations() {
            for edition in Edition::all().filter(|&e| op.in_edition(e)) {
                let mut path = op
                    .path_prefix(edition)
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>();
                path.extend(example_path(op, edition));
                let segments: Vec<&str> = path.iter().map(String::as_str).collect();
                assert_eq!(
                    operation_sent(op.method, &segments, edition),
                    Some(id),
                    "/{}",
                    path.join("/")
                );
            }
        }
    }

    #[test]
    fn request_bodies() {
        let cloud = Edition::CLOUD;
        let create = get(operation(Method::Post, &["repos", "o", "r", "issues"], cloud).unwrap());
        let nodes: Vec<&BodyNode> = create.body_schema(cloud).collect();
        assert_eq!(nodes[0].property(), "$");
        assert_eq!(nodes[0].kind(), "object");
        let node = |p: &str| nodes.iter().find(|n| n.property() == p).copied();
        let title = node("$.title").unwrap();
        assert!(title.required);
        assert_eq!(title.kind(), "one-of:2");
        assert_eq!(node("$.title|1").unwrap().kind(), "string");
        assert_eq!(node("$.title|2").unwrap().kind(), "integer");
        assert!(!node("$.body").unwrap().required);
        assert!(node("$.assignee").unwrap().nullable());
        assert_eq!(node("$.labels[]|2.name").unwrap().kind(), "string");
        assert!(node("$.issue_field_values[]").unwrap().closed());

        let update = get(operation(
            Method::Patch,
            &["repos", "o", "r", "git", "refs", "heads", "x"],
            cloud,
        )
        .unwrap());
        let sha = update
            .body_schema(cloud)
            .find(|n| n.property() == "$.sha")
            .unwrap();
        assert!(sha.required && sha.kind() == "string");
        let force = update
            .body_schema(cloud)
            .find(|n| n.property() == "$.force")
            .unwrap();
        assert_eq!(force.default_json(), "false");

        // A body's enum, and one that is not an object at all (its name given apart).
        let lock = get(operation(
            Method::Put,
            &["repos", "o", "r", "issues", "1", "lock"],
            cloud,
        )
        .unwrap());
        let reason = lock
            .body_schema(cloud)
            .find(|n| n.property() == "$.lock_reason")
            .unwrap();
        assert_eq!(
            reason.values_json(),
            r#"["off-topic","too heated","resolved","spam"]"#
        );

        // Every operation with a JSON body has its root node in each of its editions, and
        // only those do.
        let mut with_json = 0;
        for (_, op) in operations() {
            for edition in Edition::all().filter(|&e| op.in_edition(e)) {
                let root = op.body_schema(edition).next();
                if op
                    .body_media_types()
                    .split(',')
                    .any(|m| m == "application/json")
                {
                    assert_eq!(
                        root.map(BodyNode::property),
                        Some("$"),
                        "{} {}",
                        op.method,
                        op.template()
                    );
                    with_json += 1;
                } else {
                    assert!(root.is_none(), "{} {}", op.method, op.template());
                }
            }
        }
        assert!(with_json > 1_000, "{with_json}");
    }

    /// The nodes the router visits for a path of `n` segments under a multi-segment
    /// param: linear in `n` (each split of the rest is tried once and fails at once).
    #[test]
    fn the_router_work_grows_linearly_with_a_long_path() {
        let visits = |literal: &'static str, n: usize, method: Method| {
            let mut path = vec!["repos", "o", "r", literal];
            path.extend(std::iter::repeat_n("x", n));
            let ends = |op: &Operation| op.method == method && op.in_edition(Edition::CLOUD);
            let mut visits = 0;
            let found = route(0, &path, &ends, &mut visits);
            (found.is_some(), visits)
        };
        for (literal, method) in [
            ("contents", Method::Get),
            ("branches", Method::Get),
            ("git", Method::Put),
        ] {
            let (found_small, small) = visits(literal, 1_000, method);
            let (found_large, large) = visits(literal, 10_000, method);
            assert_eq!(found_small, found_large, "{literal}");
            assert!(large <= 10 * small + 100, "{literal}: {small} then {large}");
            assert!(large <= 3 * 10_000 + 100, "{literal}: {large}");
        }
    }
}

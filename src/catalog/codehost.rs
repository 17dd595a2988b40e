//! The code-hosting permission catalog, compiled from `catalog/codehost/` by the build
//! (see catalog/README.md): the permissions, their endpoint rows, the names users write
//! for them, and a router from a concrete path to its rows. Nothing is parsed at run time.

use std::fmt;

use crate::model::request_line::Method;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    Organization,
    Repository,
    User,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Organization, Scope::Repository, Scope::User];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Organization => "organization",
            Scope::Repository => "repository",
            Scope::User => "user",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    Read,
    Write,
    /// The host's highest level, which a few endpoints need.
    Admin,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Admin => "admin",
        }
    }

    pub fn parse(text: &str) -> Option<Access> {
        match text {
            "read" => Some(Access::Read),
            "write" => Some(Access::Write),
            "admin" => Some(Access::Admin),
            _ => None,
        }
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Index of a permission in [`Catalog::permissions`].
pub type PermissionId = usize;

#[derive(Debug)]
pub struct Permission {
    pub scope: Scope,
    /// The host's title, as `Commit statuses` (or the reference document's).
    pub title: &'static str,
    /// The host's key, as `statuses`; empty for a permission only the reference names.
    pub key: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Literal(&'static str),
    Placeholder(&'static str),
}

#[derive(Debug)]
pub struct Endpoint {
    pub method: Method,
    pub template: &'static str,
    pub segments: &'static [Segment],
    pub permission: PermissionId,
    pub access: Access,
    /// The API versions that have the row: bit `i` for `VERSIONS[i]`.
    pub versions: u8,
    /// The host marks the endpoint as needing or accepting more than this permission
    /// ("additional permissions"), without saying which.
    pub flagged: bool,
    /// The row's docs page, `category/subcategory#slug` under https://docs.github.com/rest/.
    pub docs: &'static str,
    /// A row of the reference document that the host's tables do not have.
    pub from_reference: bool,
}

impl Endpoint {
    pub fn in_version(&self, version: ApiVersion) -> bool {
        self.versions & (1 << version.0) != 0
    }

    /// The row's page in the host's REST docs.
    pub fn docs_url(&self) -> Option<String> {
        (!self.docs.is_empty()).then(|| format!("https://docs.github.com/rest/{}", self.docs))
    }
}

/// An API version of the host: an index into [`VERSIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApiVersion(pub u8);

impl ApiVersion {
    /// The host's default version (the oldest it still serves).
    pub const DEFAULT: ApiVersion = ApiVersion(0);

    pub fn parse(text: &str) -> Option<ApiVersion> {
        VERSIONS
            .iter()
            .position(|v| *v == text)
            .map(|i| ApiVersion(i as u8))
    }

    pub fn as_str(self) -> &'static str {
        VERSIONS[self.0 as usize]
    }
}

/// The host's API versions, oldest first.
pub static VERSIONS: &[&str] = generated::VERSIONS;

/// A node of the path router: its literal children (sorted for binary search), its
/// placeholder child and the endpoint rows whose template ends here.
#[derive(Debug)]
pub struct RouteNode {
    pub literals: &'static [(&'static str, usize)],
    pub placeholder: Option<usize>,
    pub endpoints: &'static [usize],
}

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/codehost.rs"));
}

#[derive(Debug)]
pub struct Catalog {
    pub permissions: &'static [Permission],
    pub endpoints: &'static [Endpoint],
    /// Normalized name (title or slug) to the permissions it names, one per scope.
    names: &'static [(&'static str, &'static [PermissionId])],
    router: &'static [RouteNode],
}

pub static CATALOG: Catalog = Catalog {
    permissions: generated::PERMISSIONS,
    endpoints: generated::ENDPOINTS,
    names: generated::NAMES,
    router: generated::ROUTER,
};

pub use super::names::normalize;

/// Why a permission name was not accepted at a scope.
#[derive(Debug, PartialEq)]
pub enum NameError {
    Unknown { suggestion: Option<&'static str> },
    WrongScope { belongs_to: Vec<Scope> },
}

impl Catalog {
    pub fn permission(&self, id: PermissionId) -> &Permission {
        &self.permissions[id]
    }

    fn named(&self, name: &str) -> Option<&'static [PermissionId]> {
        let key = normalize(name);
        self.names
            .binary_search_by(|(n, _)| (*n).cmp(key.as_str()))
            .ok()
            .map(|i| self.names[i].1)
    }

    /// The permission a name means at a scope.
    pub fn lookup(&self, scope: Scope, name: &str) -> Result<PermissionId, NameError> {
        match self.named(name) {
            Some(ids) => ids
                .iter()
                .copied()
                .find(|&id| self.permissions[id].scope == scope)
                .ok_or_else(|| NameError::WrongScope {
                    belongs_to: ids.iter().map(|&id| self.permissions[id].scope).collect(),
                }),
            None => {
                let titles = self
                    .permissions
                    .iter()
                    .filter(|p| p.scope == scope)
                    .map(|p| p.title);
                Err(NameError::Unknown {
                    suggestion: crate::suggest::did_you_mean(name, titles),
                })
            }
        }
    }

    /// The endpoint rows of the templates a concrete path matches, in an API version.
    /// Literal segments win over placeholders, position by position.
    pub fn match_path(&self, segments: &[&str], version: ApiVersion) -> Vec<&'static Endpoint> {
        let endpoints: &'static [Endpoint] = self.endpoints;
        let Some(node) = self.route(0, segments, version) else {
            return Vec::new();
        };
        self.router[node]
            .endpoints
            .iter()
            .map(|&i| &endpoints[i])
            .filter(|e| e.in_version(version))
            .collect()
    }

    /// The router node where a path ends with endpoint rows, trying the literal child
    /// before the placeholder at each segment.
    fn route(&self, node: usize, segments: &[&str], version: ApiVersion) -> Option<usize> {
        let here = &self.router[node];
        let Some((first, rest)) = segments.split_first() else {
            let rows = here.endpoints.iter();
            return rows
                .map(|&i| &self.endpoints[i])
                .any(|e| e.in_version(version))
                .then_some(node);
        };
        if let Ok(i) = here.literals.binary_search_by(|(l, _)| (*l).cmp(first))
            && let Some(found) = self.route(here.literals[i].1, rest, version)
        {
            return Some(found);
        }
        match here.placeholder {
            Some(child) if !first.is_empty() => self.route(child, rest, version),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../seeds/000_85e8071d2173106c.txt");

    #[test]
    fn every_endpoint_row_of_the_seed_is_in_the_table() {
        let rows: Vec<&str> = SEED
            .lines()
            .filter(|l| {
                l.starts_with("| ")
                    && ["| GET |", "| POST |", "| PUT |", "| PATCH |", "| DELETE |"]
                        .iter()
                        .any(|m| l.contains(m))
            })
            .collect();
        assert_eq!(rows.len(), 79);
        let shape = |t: &str| -> String {
            t.split('/')
                .map(|s| if s.starts_with('{') { "{}" } else { s })
                .collect::<Vec<_>>()
                .join("/")
        };
        for row in rows {
            let cols: Vec<&str> = row.split('|').map(str::trim).collect();
            let (title, method, path, access) = (cols[1], cols[2], cols[3], cols[4]);
            // The reference's own name for the permission resolves to the row's.
            let named = |e: &Endpoint| {
                let p = CATALOG.permission(e.permission);
                Scope::ALL
                    .iter()
                    .any(|&s| s == p.scope && CATALOG.lookup(s, title) == Ok(e.permission))
            };
            // Every version accepts the row at its level (or a lower one).
            for version in 0..VERSIONS.len() {
                let version = ApiVersion(version as u8);
                assert!(
                    CATALOG.endpoints.iter().any(|e| e.in_version(version)
                        && shape(e.template) == shape(path)
                        && e.method.as_str() == method
                        && e.access <= Access::parse(access).unwrap()
                        && named(e)),
                    "missing row {row} in {}",
                    version.as_str()
                );
            }
        }
    }

    #[test]
    fn every_permission_without_rows_is_in_the_table() {
        let mut count = 0;
        for line in SEED.lines() {
            let Some((scope, list)) = line
                .strip_prefix("- ")
                .and_then(|l| l.split_once(" scope: "))
            else {
                continue;
            };
            let scope = Scope::parse(&scope.to_lowercase()).unwrap();
            for title in list.trim_end_matches('.').split("; ") {
                count += 1;
                let id = CATALOG.lookup(scope, title).unwrap();
                assert_eq!(CATALOG.permission(id).scope, scope);
            }
        }
        assert_eq!(count, 42);
    }

    #[test]
    fn names_titles_slugs_and_scopes() {
        let id = CATALOG
            .lookup(Scope::Repository, "Commit statuses")
            .unwrap();
        assert_eq!(CATALOG.lookup(Scope::Repository, "commit_statuses"), Ok(id));
        assert_eq!(CATALOG.lookup(Scope::Repository, "COMMIT-statuses"), Ok(id));
        assert_eq!(CATALOG.lookup(Scope::Repository, "statuses"), Ok(id));
        for (scope, slug, title) in [
            (Scope::User, "emails", "Email addresses"),
            (Scope::User, "keys", "Git SSH keys"),
            (
                Scope::User,
                "git_signing_ssh_public_keys",
                "SSH signing keys",
            ),
            (Scope::User, "blocking", "Block another user"),
            (
                Scope::Organization,
                "organization_user_blocking",
                "Blocking users",
            ),
            (
                Scope::Organization,
                "organization_custom_org_roles",
                "Custom organization roles",
            ),
            (Scope::Organization, "organization_events", "Events"),
            (
                Scope::Organization,
                "organization_custom_properties",
                "Custom properties",
            ),
            (
                Scope::Organization,
                "Custom properties for organizations",
                "Custom properties",
            ),
            (
                Scope::Organization,
                "assistant Business",
                "GitHub Copilot Business",
            ),
            (Scope::Repository, "Devenv metadata", "Codespaces metadata"),
        ] {
            let id = CATALOG.lookup(scope, slug).unwrap();
            assert_eq!(CATALOG.permission(id).title, title);
        }
        assert_eq!(
            CATALOG.lookup(Scope::Organization, "Gists"),
            Err(NameError::WrongScope {
                belongs_to: vec![Scope::User]
            })
        );
        assert_eq!(
            CATALOG.lookup(Scope::Repository, "Comit statuses"),
            Err(NameError::Unknown {
                suggestion: Some("Commit statuses")
            })
        );
    }

    #[test]
    fn literal_segments_win() {
        let v = ApiVersion::DEFAULT;
        let rows = CATALOG.match_path(&["user", "following"], v);
        assert!(rows.iter().all(|e| e.template == "/user/following"));
        let rows = CATALOG.match_path(&["user", "following", "octocat"], v);
        assert!(
            rows.iter()
                .all(|e| e.template == "/user/following/{username}")
        );
        let mut methods: Vec<&str> = rows.iter().map(|e| e.method.as_str()).collect();
        methods.sort();
        methods.dedup();
        assert_eq!(methods, ["DELETE", "GET", "PUT"]);
        let rows = CATALOG.match_path(&["repos", "acme", "web", "statuses", "3f2a9c1"], v);
        assert_eq!(rows[0].template, "/repos/{owner}/{repo}/statuses/{sha}");
        assert!(CATALOG.match_path(&["nothing", "here"], v).is_empty());
    }

    proptest::proptest! {
        /// A path filled from any row's template, with any placeholder values, finds
        /// that template's rows in every version that has the row.
        #[test]
        fn a_filled_template_routes_to_its_rows(
            index in 0..CATALOG.endpoints.len(),
            values in proptest::collection::vec("p-[a-z0-9_.]{1,12}", 8),
        ) {
            let e = &CATALOG.endpoints[index];
            let mut next = values.iter();
            let path: Vec<String> = e
                .segments
                .iter()
                .map(|s| match s {
                    Segment::Literal(l) => l.to_string(),
                    Segment::Placeholder(_) => next.next().cloned().unwrap_or_else(|| "p-x".into()),
                })
                .collect();
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            for k in 0..VERSIONS.len() {
                let version = ApiVersion(k as u8);
                if e.in_version(version) {
                    let rows = CATALOG.match_path(&path, version);
                    proptest::prop_assert!(
                        rows.iter().any(|r| std::ptr::eq(*r, e)),
                        "{:?} in {} does not find {}", path, version.as_str(), e.template
                    );
                }
            }
        }
    }
}

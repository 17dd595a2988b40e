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
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
        }
    }

    /// `admin` is the host's name for the highest level, which is write here.
    pub fn parse(text: &str) -> Option<Access> {
        match text {
            "read" => Some(Access::Read),
            "write" | "admin" => Some(Access::Write),
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
    /// The seed's title, as `Commit statuses`.
    pub title: &'static str,
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
}

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

    /// The endpoint rows of the template a concrete path matches. Literal segments
    /// win over placeholders, position by position.
    pub fn match_path(&self, segments: &[&str]) -> Vec<&'static Endpoint> {
        let Some(node) = self.route(0, segments) else {
            return Vec::new();
        };
        let endpoints: &'static [Endpoint] = self.endpoints;
        let rows = self.router[node].endpoints;
        let template = endpoints[rows[0]].template;
        rows.iter()
            .map(|&i| &endpoints[i])
            .filter(|e| e.template == template)
            .collect()
    }

    /// The router node where a path ends with endpoint rows, trying the literal child
    /// before the placeholder at each segment.
    fn route(&self, node: usize, segments: &[&str]) -> Option<usize> {
        let here = &self.router[node];
        let Some((first, rest)) = segments.split_first() else {
            return (!here.endpoints.is_empty()).then_some(node);
        };
        if let Ok(i) = here.literals.binary_search_by(|(l, _)| (*l).cmp(first))
            && let Some(found) = self.route(here.literals[i].1, rest)
        {
            return Some(found);
        }
        match here.placeholder {
            Some(child) if !first.is_empty() => self.route(child, rest),
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
        assert_eq!(CATALOG.endpoints.len(), rows.len());
        for row in rows {
            let cols: Vec<&str> = row.split('|').map(str::trim).collect();
            let (title, method, path, access) = (cols[1], cols[2], cols[3], cols[4]);
            assert!(
                CATALOG.endpoints.iter().any(|e| e.template == path
                    && e.method.as_str() == method
                    && e.access.as_str() == access
                    && CATALOG.permission(e.permission).title == title),
                "missing row {row}"
            );
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
                assert_eq!(CATALOG.permission(id).title, title);
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
                "Custom properties for organizations",
            ),
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
        let rows = CATALOG.match_path(&["user", "following"]);
        assert!(rows.iter().all(|e| e.template == "/user/following"));
        let rows = CATALOG.match_path(&["user", "following", "octocat"]);
        assert!(
            rows.iter()
                .all(|e| e.template == "/user/following/{username}")
        );
        assert_eq!(rows.len(), 3);
        let rows = CATALOG.match_path(&["repos", "acme", "web", "statuses", "3f2a9c1"]);
        assert_eq!(rows[0].template, "/repos/{owner}/{repo}/statuses/{sha}");
        assert!(CATALOG.match_path(&["nothing", "here"]).is_empty());
    }
}

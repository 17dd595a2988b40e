//! The code-hosting permission catalog (seed 000) as data: `permissions.tsv`, parsed
//! once. Code here only indexes it and matches paths to its templates.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use crate::model::Method;

const TABLE: &str = include_str!("permissions.tsv");

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
    pub segments: Vec<Segment>,
    pub permission: PermissionId,
    pub access: Access,
}

#[derive(Debug)]
pub struct Catalog {
    pub permissions: Vec<Permission>,
    pub endpoints: Vec<Endpoint>,
    /// Normalized name (title or slug) to the permissions it names, one per scope.
    names: HashMap<String, Vec<PermissionId>>,
}

/// Names match ignoring case, with spaces, hyphens and underscores alike (SPEC 1.3).
pub fn normalize(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            ' ' | '-' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Why a permission name was not accepted at a scope.
#[derive(Debug, PartialEq)]
pub enum NameError {
    Unknown { suggestion: Option<&'static str> },
    WrongScope { belongs_to: Vec<Scope> },
}

pub static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog::parse(TABLE));

impl Catalog {
    fn parse(table: &'static str) -> Catalog {
        let mut catalog = Catalog {
            permissions: Vec::new(),
            endpoints: Vec::new(),
            names: HashMap::new(),
        };
        let mut ids: HashMap<(Scope, &str), PermissionId> = HashMap::new();
        let mut id_of =
            |catalog: &mut Catalog, scope: Scope, title: &'static str| -> PermissionId {
                *ids.entry((scope, title)).or_insert_with(|| {
                    catalog.permissions.push(Permission { scope, title });
                    let id = catalog.permissions.len() - 1;
                    catalog.names.entry(normalize(title)).or_default().push(id);
                    id
                })
            };
        for line in table
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let cols: Vec<&'static str> = line.split('\t').collect();
            let scope = Scope::parse(cols[1]).unwrap_or_else(|| panic!("bad scope in {line}"));
            let id = id_of(&mut catalog, scope, cols[2]);
            match cols[0] {
                "endpoint" => {
                    let template = cols[4];
                    catalog.endpoints.push(Endpoint {
                        method: Method::parse(cols[3])
                            .unwrap_or_else(|| panic!("bad method in {line}")),
                        template,
                        segments: template
                            .split('/')
                            .filter(|s| !s.is_empty())
                            .map(
                                |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                                    Some(name) => Segment::Placeholder(name),
                                    None => Segment::Literal(s),
                                },
                            )
                            .collect(),
                        permission: id,
                        access: Access::parse(cols[5])
                            .unwrap_or_else(|| panic!("bad access in {line}")),
                    });
                }
                "permission" => {}
                "alias" => {
                    let names = catalog.names.entry(normalize(cols[3])).or_default();
                    if !names.contains(&id) {
                        names.push(id);
                    }
                }
                other => panic!("unknown row kind {other}"),
            }
        }
        catalog
    }

    pub fn permission(&self, id: PermissionId) -> &Permission {
        &self.permissions[id]
    }

    /// The permission a name means at a scope.
    pub fn lookup(&self, scope: Scope, name: &str) -> Result<PermissionId, NameError> {
        match self.names.get(&normalize(name)) {
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
                    suggestion: crate::diagnostic::did_you_mean(name, titles),
                })
            }
        }
    }

    /// The endpoint rows of the template a concrete path matches. Literal segments
    /// win over placeholders, position by position.
    pub fn match_path<'a>(&'a self, segments: &[&str]) -> Vec<&'a Endpoint> {
        let matches = |e: &Endpoint| {
            e.segments.len() == segments.len()
                && e.segments.iter().zip(segments).all(|(t, s)| match t {
                    Segment::Literal(l) => l == s,
                    Segment::Placeholder(_) => !s.is_empty(),
                })
        };
        let literal_mask = |e: &Endpoint| -> Vec<bool> {
            e.segments
                .iter()
                .map(|s| matches!(s, Segment::Literal(_)))
                .collect()
        };
        let candidates: Vec<&Endpoint> = self.endpoints.iter().filter(|e| matches(e)).collect();
        let Some(best) = candidates.iter().map(|e| literal_mask(e)).max() else {
            return Vec::new();
        };
        let template = candidates
            .iter()
            .find(|e| literal_mask(e) == best)
            .map(|e| e.template)
            .unwrap_or_default();
        candidates
            .into_iter()
            .filter(|e| e.template == template)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../../seeds/000_85e8071d2173106c.txt");

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

//! The code-hosting permission catalog, compiled from `catalog/codehost/` by the build
//! (see catalog/README.md): the permissions, their endpoint rows, the names users write
//! for them, and a router from a concrete path to its rows. Nothing is parsed at run time.

use std::fmt;

use crate::catalog::Method;
use crate::catalog::packed::{Blob, Rows, Slice, Text};

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
    pub title: CText,
    /// The host's key, as `statuses`; empty for a permission only the reference names.
    pub key: CText,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Literal(CText),
    Placeholder(CText),
}

/// The one text the catalog's strings are byte ranges of.
#[derive(Debug)]
pub struct CatalogText;

impl Blob for CatalogText {
    const TEXT: &'static str = generated::CODEHOST_TEXT;
}

/// A string of the catalog (no pointer: the loader relocates nothing in the rows); it
/// reads as a `&'static str`.
pub type CText = Text<CatalogText>;

impl Rows for Segment {
    fn table() -> &'static [Self] {
        &generated::SEGMENTS
    }
}

impl Rows for usize {
    fn table() -> &'static [Self] {
        &generated::INDEXES
    }
}

impl Rows for (CText, usize) {
    fn table() -> &'static [Self] {
        &generated::ROUTE_LITERALS
    }
}

#[derive(Debug)]
pub struct Endpoint {
    pub method: Method,
    pub template: CText,
    pub segments: Slice<Segment>,
    pub permission: PermissionId,
    pub access: Access,
    /// The API versions that have the row: bit `i` for `VERSIONS[i]`.
    pub versions: u8,
    /// The host marks the endpoint as needing or accepting more than this permission
    /// ("additional permissions"), without saying which.
    pub flagged: bool,
    /// The row's docs page, `category/subcategory#slug` under https://docs.github.com/rest/.
    pub docs: CText,
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

/// An API version of the host, as one of its permission tables: an index into
/// [`TABLES`]. The cloud's tables come first, one per version in the order of
/// [`VERSIONS`]; an enterprise edition's table is the same API version as the host's
/// enterprise edition serves it ([`ApiVersion::in_edition`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApiVersion(pub u8);

impl ApiVersion {
    /// The host's default version (the oldest it still serves).
    pub const DEFAULT: ApiVersion = ApiVersion(0);

    /// A version as a request or the config names it (the cloud's table).
    pub fn parse(text: &str) -> Option<ApiVersion> {
        VERSIONS
            .iter()
            .position(|v| *v == text)
            .map(|i| ApiVersion(i as u8))
    }

    /// The API version's name, `2022-11-28`, whichever edition's table it is.
    pub fn as_str(self) -> &'static str {
        VERSIONS[TABLES[self.0 as usize].2 as usize]
    }

    /// The edition whose table it is: `fpt`, `ghec`, `ghes-3.19`.
    pub fn edition(self) -> &'static str {
        TABLES[self.0 as usize].1
    }

    /// The same API version in an edition's table, where the host publishes one for it;
    /// else the cloud's (its enterprise releases follow the cloud's for what they share).
    pub fn in_edition(self, edition: &str) -> ApiVersion {
        let version = TABLES[self.0 as usize].2;
        TABLES
            .iter()
            .position(|&(_, e, v)| e == edition && v == version)
            .map_or(ApiVersion(version), |i| ApiVersion(i as u8))
    }
}

/// The permission tables: `(name, edition, index into VERSIONS)`.
pub static TABLES: &[(&str, &str, u8)] = generated::TABLES;

/// The host's API versions, oldest first.
pub static VERSIONS: &[&str] = generated::VERSIONS;

/// A node of the path router: its literal children (sorted for binary search), its
/// placeholder child and the endpoint rows whose template ends here.
#[derive(Debug)]
pub struct RouteNode {
    pub literals: Slice<(CText, usize)>,
    pub placeholder: Option<usize>,
    pub endpoints: Slice<usize>,
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
    names: &'static [(CText, Slice<PermissionId>)],
    router: &'static [RouteNode],
}

pub static CATALOG: Catalog = Catalog {
    permissions: &generated::PERMISSIONS,
    endpoints: &generated::ENDPOINTS,
    names: &generated::NAMES,
    router: &generated::ROUTER,
};

pub use super::names::normalize;
use super::names::normalized_byte;

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
        // Every grant of every token is looked up, several times per file: a name of
        // the usual length is normalized on the stack, as `normalize` writes it.
        let mut buffer = [0u8; 64];
        let trimmed = name.trim().as_bytes();
        let owned;
        let key: &[u8] = match buffer.get_mut(..trimmed.len()) {
            Some(key) => {
                for (to, &b) in key.iter_mut().zip(trimmed) {
                    *to = normalized_byte(b);
                }
                key
            }
            None => {
                owned = normalize(name);
                owned.as_bytes()
            }
        };
        // Only ASCII bytes were changed, each into another: still UTF-8.
        let key = std::str::from_utf8(key).ok()?;
        self.names
            .binary_search_by(|(n, _)| n.cmp_str(key))
            .ok()
            .map(|i| self.names[i].1.as_slice())
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
                    .map(|p| p.title.as_str());
                Err(NameError::Unknown {
                    suggestion: crate::suggest::did_you_mean(name, titles),
                })
            }
        }
    }

    /// Whether some template's path starts with this literal segment (`repos`, `orgs`,
    /// `user`, …), in any API version.
    pub fn is_first_segment(&self, segment: &str) -> bool {
        self.router
            .first()
            .is_some_and(|root| root.literals.iter().any(|(literal, _)| *literal == segment))
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

    /// The endpoint rows of each template a path with open segments may match, in an API
    /// version, one list per template path. `may_be(k, literal)` tells an open segment
    /// `k` (one that may be any of several texts: `Some`, and whether it may be the
    /// literal) from a concrete one (`None`, routed as [`Catalog::match_path`] routes it).
    /// An open segment may be any literal it fits and any placeholder. Each router node
    /// is reached by one path of choices, so the work is bounded by the router's size.
    pub fn match_open_path(
        &self,
        segments: &[&str],
        version: ApiVersion,
        may_be: &dyn Fn(usize, &str) -> Option<bool>,
    ) -> Vec<Vec<&'static Endpoint>> {
        let mut ends = Vec::new();
        self.reach(0, segments, 0, version, may_be, &mut ends);
        ends.iter()
            .map(|&node| {
                self.router[node]
                    .endpoints
                    .iter()
                    .map(|&i| &self.endpoints[i])
                    .filter(|e| e.in_version(version))
                    .collect()
            })
            .collect()
    }

    /// Every router node where a path with open segments may end with endpoint rows
    /// (`at`: the index of the first of `segments` in the path).
    fn reach(
        &self,
        node: usize,
        segments: &[&str],
        at: usize,
        version: ApiVersion,
        may_be: &dyn Fn(usize, &str) -> Option<bool>,
        ends: &mut Vec<usize>,
    ) {
        let here = &self.router[node];
        let Some((first, rest)) = segments.split_first() else {
            if here
                .endpoints
                .iter()
                .any(|&i| self.endpoints[i].in_version(version))
            {
                ends.push(node);
            }
            return;
        };
        let next = at + 1;
        if may_be(at, "").is_none() {
            // A concrete segment: its literal child wins where the path ends there.
            let before = ends.len();
            if let Ok(i) = here.literals.binary_search_by(|(l, _)| l.cmp_str(first)) {
                self.reach(here.literals[i].1, rest, next, version, may_be, ends);
            }
            if ends.len() == before
                && let Some(child) = here.placeholder.filter(|_| !first.is_empty())
            {
                self.reach(child, rest, next, version, may_be, ends);
            }
            return;
        }
        // The placeholder first: an open segment is most often meant as its value.
        if let Some(child) = here.placeholder {
            self.reach(child, rest, next, version, may_be, ends);
        }
        for &(literal, child) in here.literals {
            if may_be(at, &literal) == Some(true) {
                self.reach(child, rest, next, version, may_be, ends);
            }
        }
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
        if let Ok(i) = here.literals.binary_search_by(|(l, _)| l.cmp_str(first))
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

    /// The rows of the catalog's own table of GitHub's reference "Permissions required for
    /// fine-grained personal access tokens"
    /// (https://docs.github.com/en/rest/authentication/permissions-required-for-fine-grained-personal-access-tokens),
    /// the data the build compiled `CATALOG` from.
    const REFERENCE_ROWS: &str = include_str!("../../catalog/codehost/permissions.tsv");

    fn rows(kind: &str) -> Vec<Vec<&'static str>> {
        REFERENCE_ROWS
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|cols| cols[0] == kind)
            .collect()
    }

    #[test]
    fn every_endpoint_row_of_the_reference_is_in_the_table() {
        let rows = rows("endpoint");
        // The reference's three endpoint tables: 21 organization rows, 11 repository
        // rows, 47 user rows, under these permission titles.
        assert_eq!(rows.len(), 79);
        let mut per_title: Vec<(&str, &str, usize)> = Vec::new();
        for cols in &rows {
            assert_eq!(cols.len(), 6, "{cols:?}");
            match per_title
                .iter_mut()
                .find(|(s, t, _)| *s == cols[1] && *t == cols[2])
            {
                Some(entry) => entry.2 += 1,
                None => per_title.push((cols[1], cols[2], 1)),
            }
        }
        per_title.sort();
        assert_eq!(
            per_title,
            [
                ("organization", "Blocking users", 4),
                ("organization", "Campaigns", 5),
                ("organization", "Custom organization roles", 2),
                ("organization", "Custom properties for organizations", 2),
                ("organization", "Events", 1),
                ("organization", "Issue Types", 4),
                ("organization", "Organization devenv settings", 3),
                ("repository", "Commit statuses", 3),
                ("repository", "Custom properties", 1),
                ("repository", "Depalert alerts", 4),
                ("repository", "Devenv metadata", 3),
                ("user", "Block another user", 4),
                ("user", "Email addresses", 5),
                ("user", "Followers", 5),
                ("user", "GPG keys", 4),
                ("user", "Gists", 9),
                ("user", "Git SSH keys", 5),
                ("user", "Interaction limits", 3),
                ("user", "Plan", 3),
                ("user", "Profile", 3),
                ("user", "SSH signing keys", 4),
                ("user", "Watching", 2),
            ]
        );
        let shape = |t: &str| -> String {
            t.split('/')
                .map(|s| if s.starts_with('{') { "{}" } else { s })
                .collect::<Vec<_>>()
                .join("/")
        };
        for cols in rows {
            let (scope, title, method, path, access) =
                (cols[1], cols[2], cols[3], cols[4], cols[5]);
            let scope = Scope::parse(scope).unwrap();
            // The reference's own name for the permission resolves to the row's.
            let named = |e: &Endpoint| {
                let p = CATALOG.permission(e.permission);
                p.scope == scope && CATALOG.lookup(scope, title) == Ok(e.permission)
            };
            // Every version accepts the row at its level (or a lower one): a row the
            // build dropped because the host lists it must be covered by the host's.
            for version in 0..VERSIONS.len() {
                let version = ApiVersion(version as u8);
                assert!(
                    CATALOG.endpoints.iter().any(|e| e.in_version(version)
                        && shape(&e.template) == shape(path)
                        && e.method.as_str() == method
                        && e.access <= Access::parse(access).unwrap()
                        && named(e)),
                    "missing row {cols:?} in {}",
                    version.as_str()
                );
            }
        }
        // Spot checks written out: the reference's rows as it gives them.
        for (method, path, access) in [
            ("GET", "/users/{username}/events/orgs/{org}", "read"),
            (
                "PATCH",
                "/organizations/{org}/org-properties/values",
                "write",
            ),
            ("POST", "/repos/{owner}/{repo}/statuses/{sha}", "write"),
            (
                "GET",
                "/users/{username}/settings/billing/usage/summary",
                "read",
            ),
        ] {
            assert!(
                REFERENCE_ROWS
                    .lines()
                    .any(|l| l.ends_with(&format!("\t{method}\t{path}\t{access}"))),
                "{method} {path}"
            );
        }
    }

    #[test]
    fn every_permission_without_rows_is_in_the_table() {
        let rows = rows("permission");
        let mut per_scope = [0; 3];
        for cols in &rows {
            assert_eq!(cols.len(), 3, "{cols:?}");
            let scope = Scope::parse(cols[1]).unwrap();
            let id = CATALOG
                .lookup(scope, cols[2])
                .unwrap_or_else(|e| panic!("{cols:?}: {e:?}"));
            assert_eq!(CATALOG.permission(id).scope, scope);
            per_scope[Scope::ALL.iter().position(|&s| s == scope).unwrap()] += 1;
        }
        // The reference's permissions that exist without an endpoint row: 17 of
        // organizations, 22 of repositories, 3 of users.
        assert_eq!(rows.len(), 42);
        let count = |s: Scope| per_scope[Scope::ALL.iter().position(|&x| x == s).unwrap()];
        assert_eq!(
            (
                count(Scope::Organization),
                count(Scope::Repository),
                count(Scope::User)
            ),
            (17, 22, 3)
        );
        for (scope, title) in [
            (Scope::Organization, "Team discussions"),
            (Scope::Organization, "assistant Business"),
            (Scope::Repository, "Devenv lifecycle admin"),
            (Scope::User, "Starring"),
        ] {
            assert!(CATALOG.lookup(scope, title).is_ok(), "{title}");
        }
    }

    /// The lookup normalizes a name byte by byte as `normalize` writes it, on the stack
    /// or (a long one) on the heap: every indexed name, written in other cases, with
    /// spaces, hyphens, blanks around it, other characters, cut, lengthened or longer
    /// than the stack's buffer, names what the index says it names.
    #[test]
    fn names_compare_as_normalize_writes_them() {
        let mut written: Vec<String> = Vec::new();
        for (name, _) in CATALOG.names {
            let name = name.as_str();
            written.push(name.to_string());
            written.push(format!("  {}\t", name.to_uppercase().replace('_', " ")));
            written.push(name.replace('_', "-"));
            written.push(format!("{name}é"));
            written.push(format!("{name}_"));
            written.push(name[..name.len() / 2].to_string());
            written.push(format!("{}{name}", " ".repeat(70)));
            written.push(format!("{name}{}", "_x".repeat(40)));
        }
        written.extend(["", " ", "É", "~", "zzz", "Ω-x"].map(String::from));
        for name in &written {
            let by_bytes: Vec<u8> = name.trim().bytes().map(normalized_byte).collect();
            assert_eq!(by_bytes, normalize(name).into_bytes(), "{name:?}");
            let found = CATALOG.named(name).map(<[PermissionId]>::to_vec);
            let expected = CATALOG
                .names
                .iter()
                .find(|(n, _)| n.as_str() == normalize(name))
                .map(|(_, ids)| ids.as_slice().to_vec());
            assert_eq!(found, expected, "{name:?}");
        }
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
                "Custom properties for organizations",
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

//! Octokit's REST methods: what `github.rest.<namespace>.<name>(…)` sends, as the
//! `actions/github-script` action's client maps it, compiled by the build from
//! catalog/codehost/octokit/methods.tsv (generated from the npm package
//! `@octokit/plugin-rest-endpoint-methods`; see catalog/codehost/README.md).
//!
//! The tables hold no pointers: strings are ranges of one text blob and links are
//! indices, so the loader has nothing to relocate in them. Rows are sorted by namespace
//! and name, so a lookup is two binary searches.

use crate::catalog::Method;

/// A string of the tables: a byte range of [`generated::BLOB`].
#[derive(Clone, Copy, Debug)]
struct Text(u32, u32);

impl Text {
    fn get(self) -> &'static str {
        &generated::BLOB[self.0 as usize..self.1 as usize]
    }
}

/// A namespace (`issues`) and the range of its methods in [`generated::ROWS`].
struct Namespace {
    name: Text,
    rows: (u16, u16),
}

/// One method's row: its name, request, flags and the row it was renamed to.
struct Row {
    name: Text,
    method: Method,
    route: Text,
    flags: u8,
    renamed_to: u16,
}

/// The `flags` bit of a method the package marks deprecated.
const DEPRECATED: u8 = 1;
/// `renamed_to` of a row that was not renamed.
const NO_ROW: u16 = u16::MAX;

/// One of Octokit's REST methods, `github.rest.<namespace>.<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RestMethod(u16);

impl RestMethod {
    fn row(self) -> &'static Row {
        &generated::ROWS[self.0 as usize]
    }

    /// The namespace, `issues` in `github.rest.issues.createComment`.
    pub fn namespace(&self) -> &'static str {
        let at = generated::NAMESPACES.partition_point(|ns| ns.rows.1 <= self.0);
        generated::NAMESPACES[at].name.get()
    }

    /// The method's name in its namespace, `createComment`.
    pub fn name(&self) -> &'static str {
        self.row().name.get()
    }

    /// The HTTP method of the request it sends.
    pub fn method(&self) -> Method {
        self.row().method
    }

    /// The path template of the request (`/repos/{owner}/{repo}/issues/{issue_number}/comments`),
    /// as the host's REST description writes templates. The package's query expansion
    /// (`{?name,label}`) is not part of it.
    pub fn route(&self) -> &'static str {
        self.row().route.get()
    }

    /// The package marks the method deprecated (it warns when it is called).
    pub fn deprecated(&self) -> bool {
        self.row().flags & DEPRECATED != 0
    }

    /// The `(namespace, name)` the package renamed the method to: the old name still
    /// works, sends the same request and warns.
    pub fn renamed_to(&self) -> Option<(&'static str, &'static str)> {
        let to = self.row().renamed_to;
        (to != NO_ROW).then(|| {
            let target = RestMethod(to);
            (target.namespace(), target.name())
        })
    }
}

fn namespace_rows(namespace: &str) -> Option<(u16, u16)> {
    let at = generated::NAMESPACES
        .binary_search_by(|ns| ns.name.get().cmp(namespace))
        .ok()?;
    Some(generated::NAMESPACES[at].rows)
}

/// The method `github.rest.<namespace>.<name>`; `None` when the package has none of
/// that name (names are case-sensitive, as in JavaScript).
pub fn rest_method(namespace: &str, name: &str) -> Option<RestMethod> {
    let (first, last) = namespace_rows(namespace)?;
    let rows = &generated::ROWS[first as usize..last as usize];
    let at = rows.binary_search_by(|row| row.name.get().cmp(name)).ok()?;
    Some(RestMethod(first + at as u16))
}

/// The methods of a namespace, sorted by name (none for an unknown namespace): the
/// candidates for "did you mean" when a name is not found.
pub fn methods_of(namespace: &str) -> impl Iterator<Item = RestMethod> + use<> {
    let (first, last) = namespace_rows(namespace).unwrap_or((0, 0));
    (first..last).map(RestMethod)
}

/// Every namespace, sorted.
pub fn namespaces() -> impl Iterator<Item = &'static str> {
    generated::NAMESPACES.iter().map(|ns| ns.name.get())
}

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/codehost_methods.rs"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::codehost_operations::{self, Edition};

    fn request(namespace: &str, name: &str) -> (Method, &'static str) {
        let m = rest_method(namespace, name).unwrap_or_else(|| panic!("{namespace}.{name}"));
        assert_eq!((m.namespace(), m.name()), (namespace, name));
        (m.method(), m.route())
    }

    /// The calls workflows make most, as the host documents their endpoints.
    #[test]
    fn common_methods_send_their_documented_requests() {
        assert_eq!(
            request("issues", "createComment"),
            (
                Method::Post,
                "/repos/{owner}/{repo}/issues/{issue_number}/comments"
            )
        );
        assert_eq!(
            request("pulls", "create"),
            (Method::Post, "/repos/{owner}/{repo}/pulls")
        );
        assert_eq!(
            request("repos", "createRelease"),
            (Method::Post, "/repos/{owner}/{repo}/releases")
        );
        assert_eq!(
            request("issues", "addLabels"),
            (
                Method::Post,
                "/repos/{owner}/{repo}/issues/{issue_number}/labels"
            )
        );
        assert_eq!(
            request("actions", "deleteActionsCacheByKey"),
            (Method::Delete, "/repos/{owner}/{repo}/actions/caches"),
            "the query expansion is not part of the route"
        );
        assert_eq!(
            request("repos", "uploadReleaseAsset"),
            (
                Method::Post,
                "/repos/{owner}/{repo}/releases/{release_id}/assets"
            )
        );
        let comment = rest_method("issues", "createComment").unwrap();
        assert!(!comment.deprecated());
        assert_eq!(comment.renamed_to(), None);
    }

    #[test]
    fn renamed_methods_name_their_new_method_which_sends_the_same_request() {
        let old = rest_method("repos", "updateStatusCheckPotection").unwrap();
        assert_eq!(
            old.renamed_to(),
            Some(("repos", "updateStatusCheckProtection"))
        );
        let new = rest_method("repos", "updateStatusCheckProtection").unwrap();
        assert_eq!((old.method(), old.route()), (new.method(), new.route()));
        assert_eq!(new.renamed_to(), None);
        let mut renamed = 0;
        for ns in namespaces() {
            for m in methods_of(ns) {
                if let Some((to_ns, to_name)) = m.renamed_to() {
                    renamed += 1;
                    let to = rest_method(to_ns, to_name).unwrap();
                    assert_eq!(
                        (m.method(), m.route()),
                        (to.method(), to.route()),
                        "{ns}.{}",
                        m.name()
                    );
                }
            }
        }
        // @octokit/plugin-rest-endpoint-methods 18.0.0 keeps 29 old names; none is
        // marked deprecated.
        assert_eq!(renamed, 29);
        assert!(namespaces().flat_map(methods_of).all(|m| !m.deprecated()));
    }

    #[test]
    fn unknown_names_are_none_and_lookups_are_exact() {
        assert_eq!(rest_method("issues", "createcomment"), None);
        assert_eq!(rest_method("Issues", "createComment"), None);
        assert_eq!(rest_method("issue", "createComment"), None);
        assert_eq!(rest_method("", ""), None);
        assert_eq!(methods_of("nope").count(), 0);
        let issues: Vec<&str> = methods_of("issues").map(|m| m.name()).collect();
        assert!(issues.contains(&"createComment") && issues.contains(&"update"));
        assert!(issues.windows(2).all(|w| w[0] < w[1]), "sorted by name");
    }

    /// Every row is found again by its own names, the namespaces are sorted and
    /// distinct, and each row belongs to the namespace whose range holds it.
    #[test]
    fn every_row_is_found_by_its_names() {
        let all: Vec<&str> = namespaces().collect();
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(all.len(), 42);
        let mut rows = 0;
        for ns in &all {
            for m in methods_of(ns) {
                rows += 1;
                assert_eq!(m.namespace(), *ns);
                assert_eq!(rest_method(ns, m.name()), Some(m));
                assert!(m.route().starts_with('/'));
            }
        }
        assert_eq!(rows, generated::ROWS.len());
        assert_eq!(rows, 1044);
    }

    /// Every route is an operation of the cloud edition of the host's REST description,
    /// except the ones the package still has and the description no longer (or never)
    /// lists for api.github.com: listed here so that a change on either side is seen.
    #[test]
    fn every_route_is_an_operation_of_the_cloud_description() {
        let cloud: std::collections::HashSet<(Method, &str)> = codehost_operations::operations()
            .filter(|(_, op)| op.in_edition(Edition::CLOUD))
            .map(|(_, op)| (op.method, op.template()))
            .collect();
        let mut missing: Vec<String> = namespaces()
            .flat_map(methods_of)
            .filter(|m| !cloud.contains(&(m.method(), m.route())))
            .map(|m| {
                format!(
                    "{}.{} {} {}",
                    m.namespace(),
                    m.name(),
                    m.method(),
                    m.route()
                )
            })
            .collect();
        missing.sort();
        let expected = [
            // Retired Copilot metrics (the description has the `…/metrics/reports/…` ones).
            "copilot.copilotMetricsForOrganization GET /orgs/{org}/copilot/metrics",
            "copilot.copilotMetricsForTeam GET /orgs/{org}/team/{team_slug}/copilot/metrics",
            // The description has these at `/orgs/{org}/…`.
            "dependabot.repositoryAccessForOrg GET /organizations/{org}/dependabot/repository-access",
            "dependabot.setRepositoryAccessDefaultLevel PUT /organizations/{org}/dependabot/repository-access/default-level",
            "dependabot.updateRepositoryAccessForOrg PATCH /organizations/{org}/dependabot/repository-access",
            // Enterprise Cloud only in the description.
            "orgs.customPropertiesForOrgsCreateOrUpdateOrganizationValues PATCH /organizations/{org}/org-properties/values",
            "orgs.customPropertiesForOrgsGetOrganizationValues GET /organizations/{org}/org-properties/values",
            // Team discussions, which the description no longer has.
            "reactions.createForTeamDiscussionCommentInOrg POST /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}/reactions",
            "reactions.createForTeamDiscussionInOrg POST /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/reactions",
            "reactions.deleteForTeamDiscussion DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/reactions/{reaction_id}",
            "reactions.deleteForTeamDiscussionComment DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}/reactions/{reaction_id}",
            "reactions.listForTeamDiscussionCommentInOrg GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}/reactions",
            "reactions.listForTeamDiscussionInOrg GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/reactions",
            "teams.createDiscussionCommentInOrg POST /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments",
            "teams.createDiscussionInOrg POST /orgs/{org}/teams/{team_slug}/discussions",
            "teams.deleteDiscussionCommentInOrg DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}",
            "teams.deleteDiscussionInOrg DELETE /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}",
            "teams.getDiscussionCommentInOrg GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}",
            "teams.getDiscussionInOrg GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}",
            "teams.listDiscussionCommentsInOrg GET /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments",
            "teams.listDiscussionsInOrg GET /orgs/{org}/teams/{team_slug}/discussions",
            "teams.updateDiscussionCommentInOrg PATCH /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}/comments/{comment_number}",
            "teams.updateDiscussionInOrg PATCH /orgs/{org}/teams/{team_slug}/discussions/{discussion_number}",
        ];
        assert_eq!(missing, expected);
        assert_eq!(missing.len(), 23);
    }
}

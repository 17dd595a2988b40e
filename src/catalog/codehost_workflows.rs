//! What the `GITHUB_TOKEN` of a GitHub Actions job may hold and what its calls need,
//! compiled by the build from catalog/codehost/workflows/ (see its README): the keys of a
//! workflow's `permissions:` block with the GitHub App permission each grants and the
//! host's two defaults; the endpoints an installation token may call, from the host's
//! GitHub App table; the `gh` subcommands and first-party actions whose needs are sourced.
//!
//! A job's token is a GitHub App installation token, so what an operation needs is read
//! from the app table (`server-to-server: true` rows), not from the fine-grained token
//! tables. The tables hold no pointers: strings are ranges of one text blob and links are
//! indices, so the loader has nothing to relocate in them.

use std::fmt;

use crate::catalog::Method;

/// A string of the tables: a byte range of the generated blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Text(u32, u32);

impl Text {
    fn get(self) -> &'static str {
        &generated::BLOB[self.0 as usize..self.1 as usize]
    }
}

/// The text of a cell, `None` where the table leaves it empty (`-`).
fn non_empty(text: Text) -> Option<&'static str> {
    Some(text.get()).filter(|s| !s.is_empty())
}

/// The level a workflow grants a key, ordered: `None < Read < Write` (`write` includes
/// `read`, as the host's docs say).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    None,
    Read,
    Write,
}

impl Level {
    /// `none`, `read` or `write`, as a `permissions:` block writes them.
    pub fn parse(text: &str) -> Option<Level> {
        match text {
            "none" => Some(Level::None),
            "read" => Some(Level::Read),
            "write" => Some(Level::Write),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Read => "read",
            Level::Write => "write",
        }
    }

    /// The build's level codes (build/workflows.rs); `None` for any other code.
    fn from_code(code: u8) -> Option<Level> {
        match code {
            0 => Some(Level::None),
            1 => Some(Level::Read),
            2 => Some(Level::Write),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A key of a workflow's `permissions:` block (`contents`, `pull-requests`, …): an index
/// into the keys table, ordered by name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct WorkflowKey(u8);

impl WorkflowKey {
    fn row(self) -> &'static KeyRow {
        &generated::KEYS[self.0 as usize]
    }

    /// The key as a `permissions:` block writes it: `pull-requests`.
    pub fn name(self) -> &'static str {
        self.row().name.get()
    }

    /// The host's title for it: the app table's title of the permission it grants
    /// (`Pull requests`, `Code scanning alerts`), else the docs' words for it.
    pub fn title(self) -> &'static str {
        self.row().title.get()
    }

    /// Whether a `permissions:` block may give the key this level (`id-token` takes
    /// `write` or `none`; `models` and `vulnerability-alerts` take `read` or `none`;
    /// `metadata` takes none: it cannot be written in a block).
    pub fn accepts(self, level: Level) -> bool {
        self.row().accepts & (1 << level as u8) != 0
    }

    /// The level the job's token always holds whatever its block says: `read` for
    /// `metadata`, `None` for every other key.
    pub fn always(self) -> Option<Level> {
        Level::from_code(self.row().always)
    }

    /// The key of the GitHub App permission it grants, as the host's app table names it
    /// (`pull_requests`); `None` where the table has none (`id-token`, which only lets the
    /// job ask for an OIDC token; `discussions`, `models`, `packages`,
    /// `repository-projects`, whose calls are not REST endpoints of the table).
    pub fn app_permission(self) -> Option<&'static str> {
        non_empty(self.row().app)
    }

    /// Whether GitHub.com accepts the key (`repository-projects` is for GitHub Enterprise
    /// Server 3.16 and older only).
    pub fn on_cloud(self) -> bool {
        self.row().cloud
    }

    /// The host's page that lists the key.
    pub fn docs(self) -> &'static str {
        self.row().url.get()
    }

    /// The github/docs files (`repo path@commit`, `; ` between several) the row was read from.
    pub fn source(self) -> &'static str {
        self.row().source.get()
    }

    /// What the table notes about the key, if anything.
    pub fn note(self) -> Option<&'static str> {
        non_empty(self.row().note)
    }
}

impl fmt::Display for WorkflowKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every key, in name order.
pub fn workflow_keys() -> impl Iterator<Item = WorkflowKey> {
    (0..generated::KEYS.len()).map(|i| WorkflowKey(i as u8))
}

/// The key a `permissions:` block writes as `name` (exactly, as the host spells it).
pub fn workflow_key(name: &str) -> Option<WorkflowKey> {
    generated::KEYS
        .binary_search_by(|row| row.name.get().cmp(name))
        .ok()
        .map(|i| WorkflowKey(i as u8))
}

/// The key's level in the host's default for jobs without a `permissions:` block: the
/// "permissive" default when `permissive`, else the "restricted" one. `None` where the
/// host's defaults table does not list the key (`artifact-metadata`,
/// `vulnerability-alerts`).
pub fn default_level(key: WorkflowKey, permissive: bool) -> Option<Level> {
    let row = key.row();
    Level::from_code(if permissive {
        row.permissive
    } else {
        row.restricted
    })
}

/// The access an app-table row asks for. `Admin` is above anything a workflow key grants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AppAccess {
    Read,
    Write,
    Admin,
}

impl AppAccess {
    pub fn as_str(self) -> &'static str {
        match self {
            AppAccess::Read => "read",
            AppAccess::Write => "write",
            AppAccess::Admin => "admin",
        }
    }
}

/// One app permission at one access that an operation is listed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Requirement {
    /// The app permission's key (`pull_requests`, `workflows`).
    pub app_permission: &'static str,
    /// Its scope: `enterprise`, `organization`, `repository` or `user`.
    pub scope: &'static str,
    pub access: AppAccess,
    /// The workflow key and level that grant it; `None` when no key of a `permissions:`
    /// block grants it (an organization permission, `workflows`, or `admin` access): the
    /// job's token can never hold it.
    pub grant: Option<(WorkflowKey, Level)>,
}

/// What a job's token needs for one operation, as the host's app table lists it.
///
/// The table lists an operation under every app permission that can grant it. Rows
/// without the host's "additional permissions" flag are alternatives: holding any one is
/// enough ([`Needs::any_of`]). Flagged rows ([`Needs::flagged`]) mean the operation needs
/// more than that one permission without the host saying which; holding every flagged
/// requirement is all the host lists, holding only some is "may need more". This is how
/// the fine-grained tables are read too (catalog/codehost/README.md).
#[derive(Clone, Copy, Debug)]
pub struct Needs {
    rows: (usize, usize),
}

/// How a set of held levels meets an operation's [`Needs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// An unflagged requirement is held, or every flagged one is.
    Covered,
    /// Some flagged requirements are held but not all: the host says more is needed
    /// without saying which.
    MayNeedMore,
    /// No requirement is held.
    Missing,
}

impl Needs {
    fn rows(&self) -> &'static [EndpointRow] {
        &generated::ENDPOINTS[self.rows.0..self.rows.1]
    }

    fn requirement(row: &EndpointRow) -> Requirement {
        let app = &generated::APPS[row.app as usize];
        let access = match row.access {
            1 => AppAccess::Read,
            2 => AppAccess::Write,
            _ => AppAccess::Admin,
        };
        let key = (app.key != NO_KEY).then_some(WorkflowKey(app.key));
        let level = Level::from_code(row.access);
        Requirement {
            app_permission: app.name.get(),
            scope: SCOPES[row.scope as usize],
            access,
            grant: key.zip(level),
        }
    }

    /// The requirements the host lists without the "additional permissions" flag: any
    /// one of them is enough.
    pub fn any_of(&self) -> impl Iterator<Item = Requirement> {
        self.rows()
            .iter()
            .filter(|r| !r.additional)
            .map(Needs::requirement)
    }

    /// The requirements the host flags as needing additional permissions.
    pub fn flagged(&self) -> impl Iterator<Item = Requirement> {
        self.rows()
            .iter()
            .filter(|r| r.additional)
            .map(Needs::requirement)
    }

    /// Every requirement, unflagged first.
    pub fn all(&self) -> impl Iterator<Item = Requirement> {
        self.any_of().chain(self.flagged())
    }

    /// The operation's page in the host's REST docs.
    pub fn docs_url(&self) -> String {
        let docs = self
            .rows()
            .first()
            .map(|r| r.docs.get())
            .unwrap_or_default();
        format!("https://docs.github.com/rest/{docs}")
    }

    /// The most a job's token can reach: its coverage with every key at `write`.
    /// `Missing` means no `permissions:` block lets a job call the operation (it is listed
    /// only under permissions no key grants); `MayNeedMore` means a block reaches some of
    /// the flagged permissions but never all (a release also needs `workflows`).
    pub fn best(&self) -> Coverage {
        self.coverage(|_| Level::Write)
    }

    /// How a job whose token holds `held(key)` for each key meets these needs (`metadata`
    /// is held at `read` whatever `held` says).
    pub fn coverage(&self, held: impl Fn(WorkflowKey) -> Level) -> Coverage {
        let holds = |r: &Requirement| match r.grant {
            Some((key, level)) => key.always().unwrap_or(Level::None).max(held(key)) >= level,
            None => false,
        };
        if self.any_of().any(|r| holds(&r)) {
            return Coverage::Covered;
        }
        let flagged: Vec<Requirement> = self.flagged().collect();
        let held_flagged = flagged.iter().filter(|r| holds(r)).count();
        match held_flagged {
            0 => Coverage::Missing,
            n if n == flagged.len() => Coverage::Covered,
            _ => Coverage::MayNeedMore,
        }
    }
}

/// What a job's token needs for an operation of the cloud description, by the
/// operation's method and path template as the OpenAPI description writes it
/// (`/repos/{owner}/{repo}/issues`); `None` when the app table does not list it for
/// installation tokens.
pub fn operation_needs(method: Method, template: &str) -> Option<Needs> {
    let m = method_code(method);
    let rows = &generated::ENDPOINTS;
    let start = rows.partition_point(|r| (r.template.get(), r.method) < (template, m));
    let end = rows.partition_point(|r| (r.template.get(), r.method) <= (template, m));
    (start < end).then_some(Needs { rows: (start, end) })
}

/// Every `(method, template)` the app table lists for installation tokens, each once.
pub fn app_operations() -> impl Iterator<Item = (Method, &'static str)> {
    let rows = &generated::ENDPOINTS;
    rows.iter().enumerate().filter_map(move |(i, r)| {
        let first = i == 0 || {
            let p = &rows[i - 1];
            (p.template, p.method) != (r.template, r.method)
        };
        first.then(|| (Method::ALL[r.method as usize], r.template.get()))
    })
}

fn method_code(method: Method) -> u8 {
    Method::ALL
        .iter()
        .position(|m| *m == method)
        .unwrap_or_default() as u8
}

/// One `key=level` of a subcommand's or an action's needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    /// Needs of the same alternative are all needed; any one alternative is enough.
    pub alternative: u8,
    pub key: WorkflowKey,
    pub level: Level,
}

fn needs_in(range: (u16, u16)) -> impl Iterator<Item = Need> {
    generated::NEEDS[range.0 as usize..range.1 as usize]
        .iter()
        .map(|n| Need {
            alternative: n.alternative,
            key: WorkflowKey(n.key),
            level: Level::from_code(n.level).unwrap_or(Level::None),
        })
}

/// A `gh` subcommand whose need is sourced (catalog/codehost/workflows/gh_commands.tsv).
#[derive(Clone, Copy, Debug)]
pub struct Command(&'static CommandRow);

impl Command {
    /// `pr create`.
    pub fn name(self) -> &'static str {
        self.0.name.get()
    }

    /// What the job's token needs: any one alternative, each needing all its keys.
    pub fn needs(self) -> impl Iterator<Item = Need> {
        needs_in(self.0.needs)
    }

    /// What gh sends: `REST POST /repos/{owner}/{repo}/releases` or
    /// `GraphQL createPullRequest`.
    pub fn operation(self) -> &'static str {
        self.0.operation.get()
    }

    /// The REST route whose app-table rows give the need; for a GraphQL mutation, the
    /// REST route doing the same thing ([`Command::calls_route`] says which).
    pub fn route(self) -> (Method, &'static str) {
        (Method::ALL[self.0.method as usize], self.0.template.get())
    }

    /// Every REST route whose rows give the need, as the table writes them (`GET /a`, or
    /// `GET /a + GET /b` when the need spans two, all needed); the first is
    /// [`Command::route`].
    pub fn routes(self) -> &'static str {
        self.0.routes.get()
    }

    /// Whether gh calls [`Command::route`] itself (else it sends a GraphQL mutation, for
    /// which the host publishes no permission table).
    pub fn calls_route(self) -> bool {
        self.0.rest
    }

    /// The cli/cli files (`cli/cli path@commit`) that name the call.
    pub fn source(self) -> &'static str {
        self.0.source.get()
    }

    /// The command's manual page.
    pub fn docs(self) -> &'static str {
        self.0.url.get()
    }

    /// Flags that make it call more, and the like.
    pub fn note(self) -> Option<&'static str> {
        non_empty(self.0.note)
    }
}

/// The subcommand written as `sub` (`pr create`, words separated by one space).
pub fn gh_command(sub: &str) -> Option<Command> {
    generated::COMMANDS
        .binary_search_by(|row| row.name.get().cmp(sub))
        .ok()
        .map(|i| Command(&generated::COMMANDS[i]))
}

/// Every sourced subcommand, in name order.
pub fn gh_commands() -> impl Iterator<Item = Command> {
    generated::COMMANDS.iter().map(Command)
}

/// A first-party action whose GITHUB_TOKEN needs its docs state
/// (catalog/codehost/workflows/actions.tsv).
#[derive(Clone, Copy, Debug)]
pub struct Action(&'static ActionRow);

impl Action {
    /// `actions/checkout`, lower-case.
    pub fn uses(self) -> &'static str {
        self.0.uses.get()
    }

    /// What it always needs (all of them); empty where its docs state none.
    pub fn needs(self) -> impl Iterator<Item = Need> {
        needs_in(self.0.needs)
    }

    /// What it needs more when [`Action::condition`] holds.
    pub fn conditional_needs(self) -> impl Iterator<Item = Need> {
        needs_in(self.0.conditional)
    }

    /// When the conditional needs apply (`private repositories`).
    pub fn condition(self) -> Option<&'static str> {
        non_empty(self.0.condition)
    }

    /// When the condition is an input of the step's `with:`: the input's name, and whether
    /// it must be `true` (else given at all). `None` for a condition no step shows
    /// (private repositories, the repository's labels).
    pub fn condition_input(self) -> Option<(&'static str, bool)> {
        let input = non_empty(self.0.condition_input)?;
        Some(match input.strip_suffix("=true") {
            Some(name) => (name, true),
            None => (input, false),
        })
    }

    /// The input that takes a token (`token`, `github-token`), whose default is the job's
    /// token.
    pub fn token_input(self) -> Option<&'static str> {
        non_empty(self.0.token_input)
    }

    /// Whether its needs are those of the calls its script makes (`actions/github-script`).
    pub fn needs_from_script(self) -> bool {
        self.0.from_script
    }

    /// The files (`repo path@commit`, `; ` between several) the row was read from.
    pub fn source(self) -> &'static str {
        self.0.source.get()
    }

    /// The public page stating the needs.
    pub fn docs(self) -> &'static str {
        self.0.url.get()
    }

    pub fn note(self) -> Option<&'static str> {
        non_empty(self.0.note)
    }
}

/// The action a step `uses:` (`actions/checkout`, `github/codeql-action/upload-sarif`),
/// owner and repository in any case; an `@ref` is ignored.
pub fn action(uses: &str) -> Option<Action> {
    let name = uses
        .split('@')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    generated::ACTIONS
        .binary_search_by(|row| row.uses.get().cmp(name.as_str()))
        .ok()
        .map(|i| Action(&generated::ACTIONS[i]))
}

/// Every action of the table, in name order.
pub fn actions() -> impl Iterator<Item = Action> {
    generated::ACTIONS.iter().map(Action)
}

const NO_KEY: u8 = 255;
const SCOPES: [&str; 4] = ["enterprise", "organization", "repository", "user"];

#[derive(Debug)]
struct KeyRow {
    name: Text,
    title: Text,
    app: Text,
    accepts: u8,
    restricted: u8,
    permissive: u8,
    always: u8,
    cloud: bool,
    source: Text,
    url: Text,
    note: Text,
}

#[derive(Debug)]
struct AppRow {
    name: Text,
    key: u8,
}

#[derive(Debug)]
struct EndpointRow {
    template: Text,
    method: u8,
    app: u16,
    access: u8,
    additional: bool,
    scope: u8,
    docs: Text,
}

#[derive(Debug)]
struct NeedRow {
    alternative: u8,
    key: u8,
    level: u8,
}

#[derive(Debug)]
struct CommandRow {
    name: Text,
    needs: (u16, u16),
    operation: Text,
    method: u8,
    template: Text,
    routes: Text,
    rest: bool,
    source: Text,
    url: Text,
    note: Text,
}

#[derive(Debug)]
struct ActionRow {
    uses: Text,
    needs: (u16, u16),
    conditional: (u16, u16),
    condition: Text,
    condition_input: Text,
    token_input: Text,
    from_script: bool,
    source: Text,
    url: Text,
    note: Text,
}

mod generated {
    use super::{ActionRow, AppRow, CommandRow, EndpointRow, KeyRow, NeedRow, Text};
    include!(concat!(env!("OUT_DIR"), "/codehost_workflows.rs"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> WorkflowKey {
        workflow_key(name).unwrap_or_else(|| panic!("no key {name}"))
    }

    fn grants(needs: impl Iterator<Item = Requirement>) -> Vec<(String, Level)> {
        needs
            .filter_map(|r| r.grant)
            .map(|(k, l)| (k.name().to_string(), l))
            .collect()
    }

    #[test]
    fn keys_read_as_the_host_documents_them() {
        let names: Vec<&str> = workflow_keys().map(|k| k.name()).collect();
        for expected in [
            "actions",
            "attestations",
            "checks",
            "contents",
            "deployments",
            "discussions",
            "id-token",
            "issues",
            "metadata",
            "models",
            "packages",
            "pages",
            "pull-requests",
            "security-events",
            "statuses",
        ] {
            assert!(
                names.contains(&expected),
                "{expected} missing from {names:?}"
            );
        }
        assert!(names.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(key("pull-requests").app_permission(), Some("pull_requests"));
        assert_eq!(
            key("security-events").app_permission(),
            Some("security_events")
        );
        assert_eq!(key("security-events").title(), "Code scanning alerts");
        assert_eq!(key("id-token").app_permission(), None);
        assert!(key("id-token").accepts(Level::Write) && !key("id-token").accepts(Level::Read));
        assert!(key("models").accepts(Level::Read) && !key("models").accepts(Level::Write));
        assert_eq!(key("metadata").always(), Some(Level::Read));
        assert!(
            !key("metadata").accepts(Level::Read),
            "a block cannot set it"
        );
        assert_eq!(key("contents").always(), None);
        assert!(!key("repository-projects").on_cloud());
        assert_eq!(workflow_key("pull_requests"), None);
        assert!(
            key("contents")
                .docs()
                .starts_with("https://docs.github.com/")
        );
    }

    /// The host's defaults table: restricted gives `contents` and `packages` read and
    /// `metadata` read, nothing else; permissive gives read/write but `models: read` and
    /// `id-token: none`.
    #[test]
    fn defaults_follow_the_hosts_table() {
        assert_eq!(default_level(key("contents"), false), Some(Level::Read));
        assert_eq!(default_level(key("packages"), false), Some(Level::Read));
        assert_eq!(default_level(key("issues"), false), Some(Level::None));
        assert_eq!(default_level(key("issues"), true), Some(Level::Write));
        assert_eq!(default_level(key("models"), true), Some(Level::Read));
        assert_eq!(default_level(key("id-token"), true), Some(Level::None));
        assert_eq!(default_level(key("metadata"), false), Some(Level::Read));
        assert_eq!(default_level(key("vulnerability-alerts"), true), None);
    }

    /// `POST …/issues/{issue_number}/comments` is listed under `issues` and
    /// `pull_requests` at write, both flagged: either key at write holds a listed
    /// permission and "may need more"; both hold all the host lists.
    #[test]
    fn an_issue_comment_needs_issues_or_pull_requests_write_flagged() {
        let needs = operation_needs(
            Method::Post,
            "/repos/{owner}/{repo}/issues/{issue_number}/comments",
        )
        .unwrap();
        assert_eq!(needs.any_of().count(), 0);
        assert_eq!(
            grants(needs.flagged()),
            [
                ("issues".to_string(), Level::Write),
                ("pull-requests".to_string(), Level::Write)
            ]
        );
        let only = |name: &'static str| {
            move |k: WorkflowKey| {
                if k.name() == name {
                    Level::Write
                } else {
                    Level::None
                }
            }
        };
        assert_eq!(needs.coverage(only("issues")), Coverage::MayNeedMore);
        assert_eq!(needs.coverage(|_| Level::Read), Coverage::Missing);
        assert_eq!(needs.coverage(|_| Level::Write), Coverage::Covered);
        assert!(
            needs
                .docs_url()
                .ends_with("issues/comments#create-an-issue-comment")
        );
    }

    /// Creating a release is listed under `contents` and `workflows`, both flagged; no
    /// workflow key grants `workflows`, so a job can hold `contents` only.
    #[test]
    fn a_release_names_the_permission_no_key_grants() {
        let needs = operation_needs(Method::Post, "/repos/{owner}/{repo}/releases").unwrap();
        let flagged: Vec<Requirement> = needs.flagged().collect();
        assert_eq!(flagged.len(), 2);
        let workflows = flagged
            .iter()
            .find(|r| r.app_permission == "workflows")
            .unwrap();
        assert_eq!(workflows.grant, None);
        assert_eq!(workflows.access, AppAccess::Write);
        assert_eq!(needs.coverage(|_| Level::Write), Coverage::MayNeedMore);
        assert_eq!(needs.best(), Coverage::MayNeedMore);
        let org = operation_needs(Method::Patch, "/orgs/{org}").unwrap();
        assert_eq!(org.best(), Coverage::Missing);
    }

    #[test]
    fn unflagged_alternatives_and_plain_rows() {
        let issues = operation_needs(Method::Post, "/repos/{owner}/{repo}/issues").unwrap();
        assert_eq!(
            grants(issues.any_of()),
            [("issues".to_string(), Level::Write)]
        );
        assert_eq!(
            issues.coverage(|k| if k.name() == "issues" {
                Level::Write
            } else {
                Level::None
            }),
            Coverage::Covered
        );
        // The repository itself needs `metadata: read`, always held.
        let repo = operation_needs(Method::Get, "/repos/{owner}/{repo}").unwrap();
        assert_eq!(repo.coverage(|_| Level::None), Coverage::Covered);
        // Merging a pull request is a `contents` write, not `pull-requests`.
        let merge = operation_needs(
            Method::Put,
            "/repos/{owner}/{repo}/pulls/{pull_number}/merge",
        )
        .unwrap();
        assert_eq!(
            grants(merge.any_of()),
            [("contents".to_string(), Level::Write)]
        );
        // An organization permission: no workflow key grants it.
        let org = operation_needs(Method::Patch, "/orgs/{org}").unwrap();
        assert!(
            org.all()
                .all(|r| r.grant.is_none() && r.scope == "organization")
        );
        // Rows only user access tokens may call are left out.
        assert!(operation_needs(Method::Post, "/user/repos").is_none());
        assert!(operation_needs(Method::Get, "/no/such/path").is_none());
    }

    #[test]
    fn gh_commands_name_their_call_and_need() {
        let create = gh_command("pr create").unwrap();
        assert_eq!(create.operation(), "GraphQL createPullRequest");
        assert!(!create.calls_route());
        assert_eq!(
            create.route(),
            (Method::Post, "/repos/{owner}/{repo}/pulls")
        );
        let needs: Vec<Need> = create.needs().collect();
        assert_eq!(needs.len(), 1);
        assert_eq!(
            (needs[0].key.name(), needs[0].level),
            ("pull-requests", Level::Write)
        );
        assert!(
            create
                .source()
                .starts_with("cli/cli pkg/cmd/pr/create/create.go@")
        );

        let label = gh_command("label create").unwrap();
        let alternatives: Vec<(u8, &str)> = label
            .needs()
            .map(|n| (n.alternative, n.key.name()))
            .collect();
        assert_eq!(alternatives, [(0, "issues"), (1, "pull-requests")]);
        assert!(label.calls_route());

        let rerun = gh_command("run rerun").unwrap();
        assert_eq!(
            rerun
                .needs()
                .map(|n| (n.key.name(), n.level))
                .collect::<Vec<_>>(),
            [("actions", Level::Write)]
        );
        assert!(
            gh_command("release upload").is_none(),
            "its endpoint is not in the host's tables"
        );
        assert!(gh_command("pr  create").is_none());
        // Every subcommand's route is listed for installation tokens.
        for c in gh_commands() {
            let (method, template) = c.route();
            assert!(operation_needs(method, template).is_some(), "{}", c.name());
        }
    }

    #[test]
    fn actions_read_case_insensitively() {
        let checkout = action("Actions/Checkout").unwrap();
        assert_eq!(
            checkout
                .needs()
                .map(|n| (n.key.name(), n.level))
                .collect::<Vec<_>>(),
            [("contents", Level::Read)]
        );
        assert_eq!(checkout.token_input(), Some("token"));
        assert!(action("actions/checkout@v4").is_some());

        let script = action("actions/github-script").unwrap();
        assert!(script.needs_from_script());
        assert_eq!(script.token_input(), Some("github-token"));
        assert_eq!(script.needs().count(), 0);

        let sarif = action("github/codeql-action/upload-sarif").unwrap();
        assert_eq!(
            sarif.needs().map(|n| n.key.name()).collect::<Vec<_>>(),
            ["security-events"]
        );
        assert_eq!(
            sarif
                .conditional_needs()
                .map(|n| (n.key.name(), n.level))
                .collect::<Vec<_>>(),
            [("actions", Level::Read), ("contents", Level::Read)]
        );
        assert_eq!(sarif.condition(), Some("private repositories"));

        let pages = action("actions/deploy-pages").unwrap();
        let mut keys: Vec<&str> = pages.needs().map(|n| n.key.name()).collect();
        keys.sort();
        assert_eq!(keys, ["id-token", "pages"]);
        assert_eq!(
            action("actions/upload-pages-artifact")
                .unwrap()
                .token_input(),
            None
        );
        assert!(action("actions/unknown").is_none());
        assert!(action("github/codeql-action").is_none());
    }

    #[test]
    fn common_ci_steps_have_rows() {
        let keys = |needs: &mut dyn Iterator<Item = Need>| -> Vec<(&'static str, Level)> {
            needs.map(|n| (n.key.name(), n.level)).collect()
        };
        // No token input and no permission stated: known, needing nothing.
        for uses in [
            "actions/cache",
            "actions/cache/restore",
            "actions/cache/save",
            "actions/upload-artifact",
        ] {
            let a = action(uses).unwrap();
            assert_eq!(a.needs().count() + a.conditional_needs().count(), 0);
            assert!(!a.needs_from_script());
            assert_eq!(a.token_input(), None, "{uses}");
        }
        // Another run's artifacts need `actions: read`, only when `github-token` is given.
        let download = action("actions/download-artifact").unwrap();
        assert_eq!(download.needs().count(), 0);
        assert_eq!(
            keys(&mut download.conditional_needs()),
            [("actions", Level::Read)]
        );
        assert_eq!(download.token_input(), Some("github-token"));
        for setup in ["node", "python", "go", "java", "dotnet"] {
            let a = action(&format!("actions/setup-{setup}")).unwrap();
            assert_eq!(keys(&mut a.needs()), [("contents", Level::Read)]);
        }
        let stale = action("actions/stale").unwrap();
        assert_eq!(
            keys(&mut stale.conditional_needs()),
            [("contents", Level::Write)]
        );
        for step in ["init", "autobuild", "analyze"] {
            let a = action(&format!("github/codeql-action/{step}")).unwrap();
            assert_eq!(keys(&mut a.needs()), [("security-events", Level::Write)]);
            assert_eq!(a.condition().map(|c| c.starts_with("private")), Some(true));
        }
        // Read-only subcommands.
        for (sub, need) in [
            ("run view", ("actions", Level::Read)),
            ("run download", ("actions", Level::Read)),
            ("release download", ("contents", Level::Read)),
            ("issue list", ("issues", Level::Read)),
            ("pr list", ("pull-requests", Level::Read)),
        ] {
            assert_eq!(keys(&mut gh_command(sub).unwrap().needs()), [need], "{sub}");
        }
        // A need spanning two routes, and the pull request read either way.
        let checks = gh_command("pr checks").unwrap();
        assert_eq!(
            checks.routes(),
            "GET /repos/{owner}/{repo}/commits/{ref}/check-runs + GET /repos/{owner}/{repo}/commits/{ref}/status + GET /repos/{owner}/{repo}/pulls/{pull_number}"
        );
        assert_eq!(
            checks.route(),
            (
                Method::Get,
                "/repos/{owner}/{repo}/commits/{ref}/check-runs"
            )
        );
        assert!(
            gh_command("release upload").is_none(),
            "the host documents no permission for uploading an asset"
        );
        assert_eq!(stale.condition_input(), Some(("delete-branch", true)));
        assert_eq!(download.condition_input(), Some(("github-token", false)));
        assert_eq!(action("actions/labeler").unwrap().condition_input(), None);
        assert!(
            gh_command("auth status").is_none(),
            "no table row for what it calls"
        );
    }
}

#[cfg(test)]
mod description_tests {
    use super::*;
    use crate::catalog::codehost_operations::{Edition, operations};
    use std::collections::HashSet;

    /// Every route of the app table is an operation of the cloud description, but for the
    /// few the description lacks (listed in catalog/codehost/workflows/README.md); the
    /// count is pinned so that a change in either is seen.
    #[test]
    fn app_routes_are_operations_of_the_cloud_description() {
        let described: HashSet<(Method, &str)> = operations()
            .map(|(_, op)| op)
            .filter(|op| op.in_edition(Edition::CLOUD))
            .map(|op| (op.method, op.template()))
            .collect();
        let missing: Vec<String> = app_operations()
            .filter(|op| !described.contains(op))
            .map(|(m, t)| format!("{m} {t}"))
            .collect();
        assert_eq!(missing.len(), 8, "{missing:#?}");
        assert!(missing.contains(&"GET /orgs/{org}/copilot/metrics".to_string()));
        assert!(app_operations().count() > 700);
    }
}

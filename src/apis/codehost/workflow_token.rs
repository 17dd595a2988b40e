//! The `GITHUB_TOKEN` of a workflow job (docs/workflows.md): what its `permissions:`
//! grant (the job's block, else the workflow's, else the repository's default), what its
//! calls and steps need (the host's GitHub App table, catalog/codehost/workflows/), and
//! the least-privilege block that covers them.

use std::collections::BTreeMap;

use crate::catalog::codehost_operations as ops;
use crate::catalog::codehost_workflows::{self as table, Level, WorkflowKey};
use crate::diagnostic::Edit;
use crate::loading::Span;
use crate::model::config::Config;
use crate::model::file::{ApiId, FileContext};
use crate::model::workflow::{Input, Job, Permissions, TableStep, Workflow, Written};
use crate::model::{FileModel, Request};

/// Where a job's token permissions come from.
#[derive(Clone, Copy, Debug)]
pub enum GrantSource<'w> {
    Job(&'w Permissions),
    Workflow(&'w Permissions),
    /// Neither has a block: the repository's default (`codehost.workflow-permissions`).
    Default {
        permissive: bool,
    },
    /// Neither has a block, and the workflow is only called by others: the caller's
    /// permissions, which cannot be told from this file.
    Caller,
}

/// What a job's token may do.
#[derive(Debug)]
pub struct JobToken<'w> {
    pub source: GrantSource<'w>,
    levels: BTreeMap<WorkflowKey, Level>,
}

impl JobToken<'_> {
    /// Whether the block the grant is written in is one GitHub refuses (an unknown key,
    /// a level the key does not take): the workflow does not run at all, so the job's
    /// calls are not judged against it (`job-permissions-invalid` reports the block).
    pub fn refused(&self) -> bool {
        self.block()
            .is_some_and(|b| !super::permissions_block::block_is_valid(b))
    }
}

impl JobToken<'_> {
    pub fn level(&self, key: WorkflowKey) -> Level {
        if let Some(always) = key.always() {
            return always;
        }
        self.levels.get(&key).copied().unwrap_or(Level::None)
    }

    /// Where the grant is written, for a message: "the job's `permissions:`".
    pub fn describe(&self) -> String {
        match self.source {
            GrantSource::Job(_) => "the job's `permissions:`".into(),
            GrantSource::Workflow(_) => "the workflow's `permissions:`".into(),
            // Only the config makes the default permissive; restricted is the host's
            // default for new repositories, assumed when the config says nothing.
            GrantSource::Default { permissive: true } => "the repository's default (permissive, as the config's `codehost.workflow-permissions` says: no `permissions:` is written)".into(),
            GrantSource::Default { permissive: false } => "the repository's default (restricted, assumed: no `permissions:` is written)".into(),
            GrantSource::Caller => "the calling workflow's `permissions:`".into(),
        }
    }

    /// The block the grant is written in.
    pub fn block(&self) -> Option<&Permissions> {
        match self.source {
            GrantSource::Job(p) | GrantSource::Workflow(p) => Some(p),
            GrantSource::Default { .. } | GrantSource::Caller => None,
        }
    }
}

/// The permissions a job's token holds.
pub fn job_token<'w>(workflow: &'w Workflow, job: &'w Job, config: &Config) -> JobToken<'w> {
    let source = match (&job.permissions, &workflow.permissions) {
        (Some(p), _) => GrantSource::Job(p),
        (None, Some(p)) => GrantSource::Workflow(p),
        (None, None) if workflow.called => GrantSource::Caller,
        (None, None) => GrantSource::Default {
            permissive: super::settings::settings(config).workflow_permissive,
        },
    };
    let mut levels = BTreeMap::new();
    match source {
        GrantSource::Job(p) | GrantSource::Workflow(p) => match &p.written {
            Written::All { write } => {
                for key in table::workflow_keys() {
                    let level = if *write && key.accepts(Level::Write) {
                        Level::Write
                    } else if key.accepts(Level::Read) {
                        Level::Read
                    } else {
                        Level::None
                    };
                    levels.insert(key, level);
                }
            }
            Written::Map(grants) => {
                for grant in grants {
                    if let (Some(key), Some(level)) =
                        (table::workflow_key(&grant.key), Level::parse(&grant.level))
                    {
                        levels.insert(key, level);
                    }
                }
            }
            // A block GitHub refuses grants nothing.
            Written::Word(_) | Written::Other(_) => {}
        },
        // Not known: nothing is judged against it.
        GrantSource::Caller => {}
        GrantSource::Default { permissive } => {
            for key in table::workflow_keys() {
                levels.insert(
                    key,
                    table::default_level(key, permissive).unwrap_or(Level::None),
                );
            }
        }
    }
    JobToken { source, levels }
}

/// One thing a job's token must be able to do: any one of its options suffices (the host
/// lists an operation under two permissions when either lets the token call it).
#[derive(Clone, Debug)]
pub struct Need {
    pub options: Vec<(WorkflowKey, Level)>,
    /// The call or step that needs it.
    pub span: Span,
    /// How a message names the call or step: "`POST /repos/{owner}/{repo}/issues`",
    /// "`actions/checkout`".
    pub what: String,
    /// Where the need is documented.
    pub source: String,
    /// A need only in some repositories (an action's for private ones): never reported
    /// missing, but what it names is not unused either.
    pub soft: bool,
    /// The host lists the options without saying which a call needs: one held is enough,
    /// and none of them is unused.
    pub ambiguous: bool,
}

impl Need {
    /// "`issues: write`", or "`issues: write` or `pull-requests: write`".
    pub fn describe(&self) -> String {
        self.options
            .iter()
            .map(|(k, l)| format!("`{}: {}`", k.name(), l.as_str()))
            .collect::<Vec<_>>()
            .join(" or ")
    }

    /// Whether levels (a token's) cover it.
    pub fn met(&self, level_of: impl Fn(WorkflowKey) -> Level) -> bool {
        self.options.iter().any(|&(k, l)| level_of(k) >= l)
    }

    /// The option to grant: one `prefer` already covers, else the first.
    pub fn choice(&self, prefer: impl Fn(WorkflowKey) -> Level) -> (WorkflowKey, Level) {
        self.options
            .iter()
            .copied()
            .find(|&(k, l)| prefer(k) >= l)
            .unwrap_or(self.options[0])
    }
}

/// What a job's calls and steps need, and what cannot be told.
#[derive(Debug, Default)]
pub struct JobNeeds {
    pub needs: Vec<Need>,
    /// Calls the job's token can never make (the app permission they need is not one a
    /// workflow can grant), each with its call and the permission.
    pub never: Vec<(Span, String, String)>,
    /// What reqlint cannot tell about the job's token, each where it is and why: while
    /// there is any, no permission is unused and no least-privilege block is given.
    pub not_told: Vec<(Span, String)>,
}

impl JobNeeds {
    /// Whether some call or step has needs reqlint cannot tell.
    pub fn unknown(&self) -> bool {
        !self.not_told.is_empty()
    }

    /// The lowest level of each key that covers every need, choosing among a need's
    /// options one that `granted` (the levels a block already gives) or another need
    /// already covers (metadata left out: always granted).
    pub fn least_privilege_given(
        &self,
        granted: impl Fn(WorkflowKey) -> Level,
    ) -> BTreeMap<WorkflowKey, Level> {
        let mut levels: BTreeMap<WorkflowKey, Level> = BTreeMap::new();
        let raise = |levels: &mut BTreeMap<WorkflowKey, Level>, key: WorkflowKey, level| {
            if key.always().is_none() && level != Level::None {
                let at = levels.entry(key).or_insert(Level::None);
                *at = (*at).max(level);
            }
        };
        for need in self.needs.iter().filter(|n| n.options.len() == 1) {
            let (key, level) = need.options[0];
            raise(&mut levels, key, level);
        }
        for need in self.needs.iter().filter(|n| n.options.len() > 1) {
            let chosen = |k: WorkflowKey| levels.get(&k).copied().unwrap_or(Level::None);
            if need.met(chosen) {
                continue;
            }
            let (key, level) = need.choice(&granted);
            raise(&mut levels, key, level);
        }
        levels
    }

    /// What a block may hold without any of it being unused: the least privilege given
    /// the block, and every option of a need whose options the host leaves open.
    pub fn possibly_used(
        &self,
        granted: impl Fn(WorkflowKey) -> Level,
    ) -> BTreeMap<WorkflowKey, Level> {
        let mut levels = self.least_privilege_given(granted);
        for need in self.needs.iter().filter(|n| n.ambiguous || n.soft) {
            for &(key, level) in &need.options {
                let at = levels.entry(key).or_insert(Level::None);
                *at = (*at).max(level);
            }
        }
        levels
    }

    /// [`JobNeeds::least_privilege_given`] with nothing granted.
    pub fn least_privilege(&self) -> BTreeMap<WorkflowKey, Level> {
        self.least_privilege_given(|_| Level::None)
    }
}

/// The host's page on the permissions of the `GITHUB_TOKEN`.
pub const TOKEN_DOCS: &str = "https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#permissions-for-the-github_token";

/// The needs of a job: its calls with the job's token (the file's requests naming the
/// job), and its table-judged steps.
pub fn job_needs(
    model: &FileModel<'_>,
    routes: &[Option<ApiId>],
    config: &Config,
    job: &Job,
) -> JobNeeds {
    let mut out = JobNeeds {
        not_told: job.unknown.clone(),
        ..JobNeeds::default()
    };
    for (index, request) in model.requests.iter().enumerate() {
        if request.job().is_none_or(|(id, _)| id != job.id) {
            continue;
        }
        let routed = routes.get(index).copied().flatten() == Some(super::ID);
        match call_needs(request, routed, config) {
            CallNeeds::Needs(needs) => out.needs.extend(needs),
            CallNeeds::Never(span, what, permission) => out.never.push((span, what, permission)),
            CallNeeds::Unknown => out.not_told.push((
                request.line_span,
                match request.line() {
                    Some(line) => format!(
                        "`{} /{}`: reqlint does not know what it needs (the host's GitHub App table does not list it, or the operation is unknown)",
                        line.method,
                        // The reader writes the repository as reqlint's own `{{owner}}`
                        // variables; the workflow wrote `{owner}` or its like.
                        line.path
                            .trim_start_matches('/')
                            .replace("{{", "{")
                            .replace("}}", "}")
                    ),
                    None => "a call whose request line cannot be read".to_string(),
                },
            )),
        }
    }
    for step in &job.steps {
        match step_needs(step) {
            Some(needs) => out.needs.extend(needs),
            None => out.not_told.push((
                step.span(),
                match step {
                    TableStep::Action { name, .. } => format!(
                        "the action `{name}` gets the job's token, and reqlint's table of actions does not say what it needs"
                    ),
                    _ => format!(
                        "`{}`: reqlint's table does not say what it needs",
                        step.describe()
                    ),
                },
            )),
        }
    }
    out
}

/// What one call with a job's token needs.
pub enum CallNeeds {
    Needs(Vec<Need>),
    /// The job's token can never make the call: the call, the operation, why.
    Never(Span, String, String),
    /// Not known: an operation reqlint does not know, or one the table does not list.
    Unknown,
}

/// What a call with a job's token needs (`routed`: the code-hosting API claims it).
pub fn call_needs(request: &Request<'_>, routed: bool, config: &Config) -> CallNeeds {
    if !routed {
        return CallNeeds::Unknown;
    }
    let Some(line) = request.line() else {
        return CallNeeds::Unknown;
    };
    let Some((operation, _)) = super::operation_params::operation_of_line(line, config) else {
        return CallNeeds::Unknown;
    };
    let operation = ops::get(operation);
    let what = format!("`{} {}`", operation.method, operation.template());
    let span = line.path_span;
    let Some(needs) = table::operation_needs(operation.method, operation.template()) else {
        if !operation.enabled_for_apps() {
            return CallNeeds::Never(
                span,
                what,
                "the host does not let GitHub App tokens call it, and the job's token is one"
                    .into(),
            );
        }
        return CallNeeds::Unknown;
    };
    let source = operation
        .docs_url(ops::Edition::parse("fpt").unwrap_or_else(ops::Edition::newest_server))
        .unwrap_or_else(|| needs.docs_url());
    let need = |options: Vec<(WorkflowKey, Level)>| Need {
        options,
        span,
        what: what.clone(),
        source: source.clone(),
        soft: false,
        ambiguous: false,
    };
    let never = |r: &table::Requirement| {
        CallNeeds::Never(
            span,
            what.clone(),
            format!(
                "the host lists it under the app permission `{}` ({} {}), which no `permissions:` key of a workflow grants",
                r.app_permission,
                r.scope,
                r.access.as_str()
            ),
        )
    };
    // Unflagged rows are alternatives: any one is enough.
    let any_of: Vec<table::Requirement> = needs.any_of().collect();
    if let Some(first) = any_of.first() {
        let options: Vec<_> = any_of.iter().filter_map(|r| r.grant).collect();
        if options.is_empty() {
            return never(first);
        }
        return CallNeeds::Needs(vec![need(options)]);
    }
    // Only flagged rows ("additional permissions"): the host lists the operation under
    // each without saying which a call needs (a comment on an issue takes `issues`, one on
    // a pull request `pull_requests`): one held is enough to call it, and none of them is
    // ever called unused.
    let flagged: Vec<table::Requirement> = needs.flagged().collect();
    let options: Vec<_> = flagged.iter().filter_map(|r| r.grant).collect();
    match flagged.first() {
        Some(first) if options.is_empty() => never(first),
        Some(_) => CallNeeds::Needs(vec![Need {
            ambiguous: true,
            ..need(options)
        }]),
        None => CallNeeds::Unknown,
    }
}

/// A table's `key=level` needs as [`Need`]s: needs of one alternative are all needed,
/// any one alternative is enough. Alternatives that differ in one pair each (one pair
/// apiece, or pairs they all share and one more: `checks=read+contents=read|
/// checks=read+pull-requests=read`) become the shared pairs, each needed, and one need
/// whose options are the differing pairs; other alternatives are not in the tables (the
/// first is taken).
fn needs_of(
    pairs: impl Iterator<Item = table::Need>,
    make: impl Fn(Vec<(WorkflowKey, Level)>) -> Need,
) -> Vec<Need> {
    let pairs: Vec<table::Need> = pairs.collect();
    let mut alternatives: Vec<u8> = pairs.iter().map(|n| n.alternative).collect();
    alternatives.dedup();
    let of = |a: u8| pairs.iter().filter(move |n| n.alternative == a);
    if alternatives.len() > 1 {
        let shared: Vec<(WorkflowKey, Level)> = of(alternatives[0])
            .map(|n| (n.key, n.level))
            .filter(|&(k, l)| {
                alternatives
                    .iter()
                    .all(|&a| of(a).any(|n| (n.key, n.level) == (k, l)))
            })
            .collect();
        let differing: Option<Vec<(WorkflowKey, Level)>> = alternatives
            .iter()
            .map(|&a| {
                let mut own = of(a)
                    .map(|n| (n.key, n.level))
                    .filter(|pair| !shared.contains(pair));
                match (own.next(), own.next()) {
                    (Some(pair), None) => Some(pair),
                    _ => None,
                }
            })
            .collect();
        if let Some(options) = differing {
            let mut needs: Vec<Need> = shared.into_iter().map(|p| make(vec![p])).collect();
            needs.push(make(options));
            return needs;
        }
    }
    match alternatives.first() {
        Some(&first) => of(first).map(|n| make(vec![(n.key, n.level)])).collect(),
        None => Vec::new(),
    }
}

/// What a table-judged step needs; `None` when the tables do not know it.
pub fn step_needs(step: &TableStep) -> Option<Vec<Need>> {
    let span = step.span();
    let what = format!("`{}`", step.describe());
    let make = |source: &str, soft: bool| {
        let what = what.clone();
        let source = source.to_string();
        move |options| Need {
            options,
            span,
            what: what.clone(),
            source: source.clone(),
            soft,
            ambiguous: false,
        }
    };
    match step {
        TableStep::Action { name, inputs, .. } => {
            let action = table::action(name)?;
            if action.needs_from_script() {
                return Some(Vec::new());
            }
            let mut needs = needs_of(action.needs(), make(action.source(), false));
            for need in &mut needs {
                need.soft |= reads_contents_only(need);
            }
            if let Some(soft) = conditional_needs_hold(action, inputs) {
                needs.extend(needs_of(
                    action.conditional_needs(),
                    make(action.source(), soft),
                ));
            }
            Some(needs)
        }
        TableStep::Gh { sub, .. } => {
            let command = table::gh_command(sub)?;
            Some(needs_of(command.needs(), make(command.source(), false)))
        }
        TableStep::Git { sub, .. } => {
            let contents = table::workflow_key("contents")?;
            let level = if sub == "push" {
                Level::Write
            } else {
                Level::Read
            };
            // `git fetch` reads a public repository with any token, as checkout does.
            Some(vec![make(CHECKOUT_DOCS, level == Level::Read)(vec![(
                contents, level,
            )])])
        }
    }
}

/// Whether an action's conditional needs hold for a step with these inputs: `None` when
/// they do not (the input they hang on is not given, or not `true`), `Some(false)` when
/// they surely do (reported missing like any need), `Some(true)` when they may (an input
/// given as an expression; a condition no step shows, such as a private repository):
/// then they are never reported missing, never called unused, and are in the
/// least-privilege block.
fn conditional_needs_hold(action: table::Action, inputs: &[(String, Input)]) -> Option<bool> {
    let Some((name, must_be_true)) = action.condition_input() else {
        return Some(true);
    };
    let given = inputs.iter().find(|(n, _)| n == name).map(|&(_, v)| v)?;
    match given {
        _ if !must_be_true => Some(false),
        Input::True => Some(false),
        Input::Expression => Some(true),
        Input::False | Input::Given => None,
    }
}

/// Whether a step's need is only to read the repository's contents: a public repository
/// is read with any token, so the need holds only in private ones (the host says so of
/// the checkout before a SARIF upload, "`contents: read` only for private repositories":
/// https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/uploading-a-sarif-file-to-github#uploading-a-code-scanning-analysis-with-github-actions).
/// Such a need is never reported missing, and stays in the least-privilege block.
fn reads_contents_only(need: &Need) -> bool {
    need.options
        .iter()
        .all(|&(key, level)| key.name() == "contents" && level == Level::Read)
}

/// actions/checkout on the credentials it leaves for `git`.
pub const CHECKOUT_DOCS: &str = "https://github.com/actions/checkout#usage";

/// The lines of a `permissions:` block holding `levels`, each indented by `indent`
/// (the block's own key not included): `contents: read`.
pub fn block_lines(levels: &BTreeMap<WorkflowKey, Level>, indent: &str) -> Vec<String> {
    levels
        .iter()
        .map(|(key, level)| format!("{indent}{}: {}", key.name(), level.as_str()))
        .collect()
}

/// The block as one would write it in a job: `permissions:` and its lines, or
/// `permissions: {}` when nothing is needed.
pub fn block_text(levels: &BTreeMap<WorkflowKey, Level>, indent: &str) -> String {
    if levels.is_empty() {
        return format!("{indent}permissions: {{}}");
    }
    let mut text = format!("{indent}permissions:");
    for line in block_lines(levels, &format!("{indent}  ")) {
        text.push('\n');
        text.push_str(&line);
    }
    text
}

/// The column a span starts at, as indentation.
pub fn indent_at(text: &str, at: usize) -> String {
    let line_start = text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    " ".repeat(at.saturating_sub(line_start))
}

/// The edit that writes `levels` as a job's own block, right after the job's key line:
/// the job's keys are indented as its first key is.
pub fn insert_job_block(
    text: &str,
    job: &Job,
    levels: &BTreeMap<WorkflowKey, Level>,
) -> Option<Edit> {
    // A job written in flow style (`build: {runs-on: x}`) has no line to add to.
    if text.get(job.span.start..job.span.start + 1) == Some("{") {
        return None;
    }
    let indent = indent_at(text, job.span.start);
    Some(crate::model::edits::insert_line_after(
        text,
        job.key_span.end,
        &block_text(levels, &indent),
    ))
}

/// The edit that gives `key` the level `level` in a block written as a mapping: its
/// level replaced when the key is written, else a line added after the last key (or, in
/// a flow mapping, the pair added before its closing brace).
pub fn set_in_block(
    text: &str,
    block: &Permissions,
    key: WorkflowKey,
    level: Level,
) -> Option<Edit> {
    let Written::Map(grants) = &block.written else {
        return None;
    };
    if let Some(grant) = grants.iter().find(|g| g.key == key.name()) {
        return Some(Edit {
            span: grant.level_span,
            replacement: level.as_str().to_string(),
            file: None,
        });
    }
    let value = text.get(block.value_span.range())?;
    if value.starts_with('{') {
        let close = block.value_span.end.checked_sub(1)?;
        let pair = format!("{}: {}", key.name(), level.as_str());
        let replacement = if grants.is_empty() {
            pair
        } else {
            format!(", {pair}")
        };
        // Before the closing brace, after any space the block leaves there.
        let inner_end = text[..close].trim_end().len();
        return Some(Edit {
            span: Span::empty(inner_end),
            replacement,
            file: None,
        });
    }
    let last = grants.last()?;
    let indent = indent_at(text, grants.first()?.key_span.start);
    Some(crate::model::edits::insert_line_after(
        text,
        last.level_span.end,
        &format!("{indent}{}: {}", key.name(), level.as_str()),
    ))
}

/// Each job's needs (in the order of the workflow's jobs), computed once per file.
#[derive(Default)]
struct Judged(std::cell::OnceCell<Vec<JobNeeds>>);

/// The needs of every job of the file's workflow (empty when it is not a workflow).
pub fn every_job_needs<'f>(file: &'f FileContext<'_>) -> &'f [JobNeeds] {
    file.memo.get::<Judged>().0.get_or_init(|| {
        file.model
            .workflow
            .iter()
            .flat_map(|w| w.jobs.iter())
            .map(|job| job_needs(file.model, &file.routes, file.config, job))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needs(step: TableStep) -> Vec<(String, bool)> {
        step_needs(&step)
            .unwrap()
            .iter()
            .map(|n| (n.describe(), n.soft))
            .collect()
    }

    #[test]
    fn a_need_tied_to_an_input_holds_only_when_the_step_gives_it() {
        let span = Span::new(0, 1);
        let step = |name: &str, inputs: &[(&str, Input)]| TableStep::Action {
            name: name.into(),
            span,
            inputs: inputs.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        };
        let contents_write = ("`contents: write`".to_string(), false);
        let stale = |inputs: &[(&str, Input)]| needs(step("actions/stale", inputs));
        assert!(!stale(&[]).iter().any(|(d, _)| d == "`contents: write`"));
        assert!(
            !stale(&[("delete-branch", Input::False)])
                .iter()
                .any(|(d, _)| d == "`contents: write`")
        );
        assert!(stale(&[("delete-branch", Input::True)]).contains(&contents_write));
        assert!(
            stale(&[("delete-branch", Input::Expression)])
                .contains(&("`contents: write`".to_string(), true))
        );
        let download = |inputs: &[(&str, Input)]| needs(step("actions/download-artifact", inputs));
        assert_eq!(download(&[]), []);
        assert_eq!(
            download(&[("github-token", Input::Expression)]),
            [("`actions: read`".to_string(), false)]
        );
        // A condition no step shows stays a need that may hold.
        assert!(
            needs(step("actions/labeler", &[])).contains(&("`issues: write`".to_string(), true))
        );
    }

    #[test]
    fn alternatives_differing_in_one_key_share_the_rest() {
        let step = TableStep::Gh {
            sub: "pr checks".into(),
            span: Span::new(0, 1),
        };
        assert_eq!(
            needs(step),
            [
                ("`checks: read`".to_string(), false),
                ("`statuses: read`".to_string(), false),
                (
                    "`contents: read` or `pull-requests: read`".to_string(),
                    false
                ),
            ]
        );
    }

    #[test]
    fn reading_the_repository_is_needed_only_when_it_is_private() {
        let span = Span::new(0, 1);
        let action = |name: &str| TableStep::Action {
            name: name.into(),
            span,
            inputs: Vec::new(),
        };
        let git = |sub: &str| TableStep::Git {
            sub: sub.into(),
            span,
        };
        assert_eq!(
            needs(action("actions/checkout")),
            [("`contents: read`".to_string(), true)]
        );
        assert_eq!(
            needs(git("fetch")),
            [("`contents: read`".to_string(), true)]
        );
        assert_eq!(
            needs(git("push")),
            [("`contents: write`".to_string(), false)]
        );
        assert_eq!(
            needs(action("actions/deploy-pages")),
            [
                ("`pages: write`".to_string(), false),
                ("`id-token: write`".to_string(), false)
            ]
        );
    }
}

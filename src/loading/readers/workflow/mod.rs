//! The reader of GitHub Actions workflows (`.github/workflows/*.yml`): the calls each job's
//! steps make to the code-hosting API, as requests of reqlint's shape (docs/workflows.md).
//!
//! A workflow is YAML; its jobs' steps run shell scripts ([`shell`]), JavaScript for
//! `actions/github-script` ([`github_script`]) and actions. Each call found becomes a
//! request whose spans point into the step's script (block scalars included), and says
//! whose token it runs with:
//!
//! ```yaml
//! requests:
//!   - name: "triage: gh api"                           # the job and the call's form
//!     method: POST                                      # the method as written, or the form's default
//!     url: [https://api.github.com/, repos/, "{{owner}}", …]  # pieces, each spanning what it stands for
//!     params: {body: hello}                             # -f/-F fields, a script call's arguments
//!     x-job: triage                                     # runs with the job's GITHUB_TOKEN
//!     token: release-pat                                # or a named token of the config
//! x-workflow:
//!   permissions: {contents: read}                       # the workflow's block, as written
//!   jobs:
//!     triage:
//!       permissions: {issues: write}                    # the job's block, as written
//!       steps: ["action actions/stale delete-branch=true", "gh pr create", "git push"]  # table-judged steps, an action with its inputs
//!       unknown: ["`npm` runs with the job's token in its environment"]  # what cannot be told
//! ```
//!
//! The reader decides nothing about permissions: the code-hosting wing judges the
//! requests and steps against the job's block.

pub mod github_script;
pub mod shell;

use std::ops::Range;

use super::{ReadOptions, entry, string};
use crate::loading::encoded::SourceMap;
use crate::loading::{Entry, Limits, Node, Problem, Span, Text, Value};

/// The key of the workflow's facts in the document the reader writes.
pub const WORKFLOW_KEY: &str = "x-workflow";
/// Under [`WORKFLOW_KEY`]: `true` when the workflow is only ever called by another.
pub const CALLED_KEY: &str = "called";
/// The key of a request that runs with its job's `GITHUB_TOKEN`: the job's id.
pub const JOB_KEY: &str = "x-job";
/// The key of a request's call form (`gh api`, `curl`, `github-script`).
pub const CALL_KEY: &str = "x-call";
/// The host the job's token calls unless an enterprise host is written.
const CLOUD_API: &str = "https://api.github.com";

/// Whether a path is a workflow file: directly in a `.github/workflows` folder, `.yml` or
/// `.yaml`.
pub fn is_workflow_path(path: &str) -> bool {
    use super::ends_with_ignoring_case as ends;
    if !(ends(path, ".yml") || ends(path, ".yaml")) {
        return false;
    }
    let separator = |b: u8| b == b'/' || b == b'\\';
    let bytes = path.as_bytes();
    let Some(dir_end) = memchr::memrchr2(b'/', b'\\', bytes) else {
        return false;
    };
    let dir = &bytes[..dir_end];
    const FOLDER: &[u8] = b".github/workflows";
    let Some(tail_start) = dir.len().checked_sub(FOLDER.len()) else {
        return false;
    };
    let same = dir[tail_start..]
        .iter()
        .zip(FOLDER)
        .all(|(&b, &f)| b.to_ascii_lowercase() == f || (separator(b) && f == b'/'));
    same && (tail_start == 0 || separator(dir[tail_start - 1]))
}

/// Reads a workflow's text into one request document.
pub fn read(text: &str, limits: &Limits, options: &ReadOptions) -> (Vec<Node>, Vec<Problem>) {
    let (documents, problems) = crate::loading::yaml::parse(text, limits);
    let Some(root) = documents.first() else {
        return (Vec::new(), problems);
    };
    let Some(jobs) = root.get("jobs").filter(|j| j.value.as_map().is_some()) else {
        // Not a workflow (a config of another tool kept beside them): nothing to judge.
        return (Vec::new(), problems);
    };
    let mut reader = WorkflowReader {
        text,
        options,
        requests: Vec::new(),
        jobs: Vec::new(),
    };
    let workflow_env = Env::of(root.get_value("env"), &Env::default());
    for job in jobs.value.as_map().unwrap_or_default() {
        reader.read_job(job, &workflow_env);
    }
    let mut entries = Vec::new();
    let requests_span = jobs.key_span;
    entries.push(entry(
        "requests",
        requests_span,
        Node::new(jobs.value.span, Value::Seq(reader.requests)),
    ));
    let mut facts = Vec::new();
    if let Some(p) = root.get("permissions") {
        facts.push(p.clone());
    }
    if let Some(on) = root.get("on").filter(|on| only_called(&on.value)) {
        facts.push(entry(
            CALLED_KEY,
            on.key_span,
            Node::new(on.key_span, Value::Bool(true)),
        ));
    }
    facts.push(entry(
        "jobs",
        jobs.key_span,
        Node::new(jobs.value.span, Value::Map(reader.jobs)),
    ));
    entries.push(entry(
        WORKFLOW_KEY,
        root.span,
        Node::new(root.span, Value::Map(facts)),
    ));
    (vec![Node::new(root.span, Value::Map(entries))], problems)
}

struct WorkflowReader<'t, 'o> {
    text: &'t str,
    options: &'o ReadOptions<'o>,
    requests: Vec<Node>,
    jobs: Vec<Entry>,
}

/// Whose credential a value is.
#[derive(Clone, Debug, PartialEq)]
enum Credential {
    /// The job's `GITHUB_TOKEN` (`secrets.GITHUB_TOKEN`, `github.token`).
    Job,
    /// Another secret, by name.
    Secret(String),
    /// Something else (a step's output, a literal): not known.
    Unknown,
}

impl Credential {
    /// The credential a value written in a workflow stands for, when it is one
    /// expression whole (`${{ secrets.GITHUB_TOKEN }}`).
    fn of_value(value: &str) -> Option<Credential> {
        let value = value.trim();
        let inner = value.strip_prefix("${{")?.strip_suffix("}}")?.trim();
        Some(Credential::of_expression(inner))
    }

    fn of_expression(expr: &str) -> Credential {
        let expr = expr.trim();
        // Secret names and context properties are not case-sensitive
        // (https://docs.github.com/en/actions/security-for-github-actions/security-guides/using-secrets-in-github-actions#naming-your-secrets).
        if expr.eq_ignore_ascii_case("secrets.GITHUB_TOKEN")
            || expr.eq_ignore_ascii_case("github.token")
        {
            return Credential::Job;
        }
        match expr.strip_prefix("secrets.") {
            Some(name) if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Credential::Secret(name.to_string())
            }
            _ => Credential::Unknown,
        }
    }
}

/// The environment variables a step sees that hold a credential.
#[derive(Clone, Debug, Default)]
struct Env {
    vars: Vec<(String, Credential)>,
    /// Variables set to something else (kept so that a later level can shadow a token).
    others: Vec<String>,
}

impl Env {
    /// This level's `env:` over the outer one.
    fn of(node: Option<&Node>, outer: &Env) -> Env {
        let mut env = outer.clone();
        for e in node.and_then(Node::as_map).unwrap_or_default() {
            let value = e.value.scalar_text().unwrap_or_default();
            env.set(&e.key, Credential::of_value(&value));
        }
        env
    }

    fn set(&mut self, name: &str, credential: Option<Credential>) {
        self.vars.retain(|(n, _)| n != name);
        self.others.retain(|n| n != name);
        match credential {
            Some(c) => self.vars.push((name.to_string(), c)),
            None => self.others.push(name.to_string()),
        }
    }

    fn get(&self, name: &str) -> Option<&Credential> {
        self.vars.iter().find(|(n, _)| n == name).map(|(_, c)| c)
    }

    /// The token `gh` uses: `GH_TOKEN`, else `GITHUB_TOKEN`.
    fn gh_token(&self) -> Option<&Credential> {
        if self.others.iter().any(|n| n == "GH_TOKEN") {
            return Some(&Credential::Unknown);
        }
        self.get("GH_TOKEN").or_else(|| self.get("GITHUB_TOKEN"))
    }

    /// Whether a program the step runs could read the job's token from its environment.
    fn holds_job_token(&self) -> bool {
        self.vars.iter().any(|(_, c)| *c == Credential::Job)
    }
}

/// Programs that make no authenticated call to the host, whatever their environment:
/// a step made of these and of calls reqlint reads is understood whole.
const QUIET_PROGRAMS: &[&str] = &[
    "echo",
    "printf",
    "cd",
    "ls",
    "cat",
    "mkdir",
    "cp",
    "mv",
    "rm",
    "touch",
    "set",
    "test",
    "[",
    "[[",
    "true",
    "false",
    "jq",
    "yq",
    "sed",
    "awk",
    "grep",
    "sort",
    "uniq",
    "head",
    "tail",
    "wc",
    "tee",
    "date",
    "sleep",
    "pwd",
    "basename",
    "dirname",
    "chmod",
    "tr",
    "cut",
    "exit",
    "return",
    "shift",
    "read",
    "local",
    "declare",
    "unset",
    "printenv",
    "sha256sum",
    "shasum",
    "md5sum",
    "tar",
    "zip",
    "unzip",
    "gzip",
    "base64",
    "mktemp",
    "seq",
    "ln",
    "realpath",
    "stat",
    "diff",
    "cmp",
    "find",
    "du",
    "df",
    "uname",
    "whoami",
    "id",
    "hostname",
    "env",
    ":",
    "wait",
    "trap",
];

/// One job's facts as the reader writes them under `x-workflow.jobs`.
#[derive(Default)]
struct JobFacts {
    /// Steps judged by a table: `action OWNER/REPO`, `gh SUB`, `git SUB`.
    steps: Vec<Node>,
    /// What the reader cannot tell about the job's token, each where it is.
    unknown: Vec<Node>,
}

impl JobFacts {
    fn unknown(&mut self, span: Span, why: impl Into<String>) {
        self.unknown.push(string(span, &why.into()));
    }
}

impl WorkflowReader<'_, '_> {
    fn read_job(&mut self, job: &Entry, workflow_env: &Env) {
        let mut facts = JobFacts::default();
        let job_id = job.key.as_str();
        if let Some(uses) = job.value.get("uses") {
            facts.unknown(
                uses.value.span,
                format!(
                    "the job calls the reusable workflow `{}`: its steps are judged in that file",
                    uses.value.scalar_text().unwrap_or_default()
                ),
            );
        }
        let env = Env::of(job.value.get_value("env"), workflow_env);
        let mut checkout_persists = false;
        for step in job
            .value
            .get_value("steps")
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            let step_env = Env::of(step.get_value("env"), &env);
            if let Some(uses) = step.get("uses") {
                let written = uses.value.scalar_text().unwrap_or_default();
                let action = written.split('@').next().unwrap_or_default().trim();
                if action.eq_ignore_ascii_case("actions/checkout") {
                    checkout_persists = checkout_leaves_job_token(step.get_value("with"));
                }
                self.read_action(job, step, action, &uses.value, &mut facts);
            } else if let Some(run) = step.get("run") {
                self.read_run(
                    job,
                    step,
                    &run.value,
                    &step_env,
                    checkout_persists,
                    &mut facts,
                );
            }
        }
        let mut fields = Vec::new();
        if let Some(p) = job.value.get("permissions") {
            fields.push(p.clone());
        }
        if !facts.steps.is_empty() {
            fields.push(entry(
                "steps",
                job.key_span,
                Node::new(job.key_span, Value::Seq(facts.steps)),
            ));
        }
        if !facts.unknown.is_empty() {
            fields.push(entry(
                "unknown",
                job.key_span,
                Node::new(job.key_span, Value::Seq(facts.unknown)),
            ));
        }
        self.jobs.push(entry(
            job_id,
            job.key_span,
            Node::new(job.value.span, Value::Map(fields)),
        ));
    }

    /// A `uses:` step: `actions/github-script`'s calls are read; another action is judged by
    /// the table of first-party actions when its token is the job's, else cannot be told.
    fn read_action(
        &mut self,
        job: &Entry,
        step: &Node,
        action: &str,
        uses: &Node,
        facts: &mut JobFacts,
    ) {
        let with = step.get_value("with");
        let token_input = with.and_then(|w| {
            ["github-token", "token", "repo-token"]
                .iter()
                .find_map(|k| w.get_value(k))
        });
        let credential = match token_input {
            None => Credential::Job,
            Some(v) => Credential::of_value(&v.scalar_text().unwrap_or_default())
                .unwrap_or(Credential::Unknown),
        };
        if action.eq_ignore_ascii_case("actions/github-script") {
            let Some(script) = with.and_then(|w| w.get_value("script")) else {
                return;
            };
            self.read_github_script(job, script, &credential, facts);
            return;
        }
        if action.starts_with("./") || action.starts_with("docker://") || !action.contains('/') {
            if credential == Credential::Job {
                facts.unknown(
                    uses.span,
                    format!(
                        "the action `{action}` may use the job's token: what it calls is not known"
                    ),
                );
            }
            return;
        }
        match credential {
            Credential::Job => facts.steps.push(string(
                uses.span,
                &format!("action {action}{}", given_inputs(with)),
            )),
            Credential::Unknown => facts.unknown(
                uses.span,
                format!("the action `{action}` is given a token reqlint cannot tell"),
            ),
            // Another secret: the step's calls are not the job token's.
            Credential::Secret(_) => {}
        }
    }

    fn read_github_script(
        &mut self,
        job: &Entry,
        script: &Node,
        credential: &Credential,
        facts: &mut JobFacts,
    ) {
        let Some(source) = script.as_str() else {
            facts.unknown(script.span, "the script is not a string");
            return;
        };
        let map = SourceMap::for_scalar(self.text, script.span, source);
        let found = github_script::calls(source);
        let at = |r: &Range<usize>| map.span(r.clone());
        for (range, why) in &found.unreadable {
            if !matches!(credential, Credential::Secret(_)) {
                facts.unknown(at(range), why.clone());
            }
        }
        for call in &found.calls {
            // A client the script makes itself (`getOctokit(token)`) runs with that token.
            let credential = &if call.client == "github" {
                credential.clone()
            } else {
                Credential::Unknown
            };
            let (method, route, line_span) = match &call.target {
                github_script::Target::Rest {
                    namespace, method, ..
                } => {
                    let Some(row) =
                        crate::catalog::codehost_methods::rest_method(&namespace.0, &method.0)
                    else {
                        facts.unknown(
                            at(&call.span),
                            format!(
                                "`github.rest.{}.{}` is not a method of Octokit's REST API",
                                namespace.0, method.0
                            ),
                        );
                        continue;
                    };
                    (
                        row.method().as_str().to_string(),
                        row.route().to_string(),
                        at(&namespace.1).cover(at(&method.1)),
                    )
                }
                github_script::Target::Request { route } => {
                    let Some((verb, path)) = route.0.trim().split_once(' ') else {
                        facts.unknown(at(&route.1), "a request without a method");
                        continue;
                    };
                    if has_white_space_outside_expressions(path.trim()) {
                        facts.unknown(
                            at(&route.1),
                            "a route with white space in it: not one reqlint can read",
                        );
                        continue;
                    }
                    (
                        verb.trim().to_string(),
                        path.trim().to_string(),
                        at(&route.1),
                    )
                }
                github_script::Target::Graphql => {
                    if *credential == Credential::Job {
                        facts.unknown(
                            at(&call.span),
                            "a GraphQL call: reqlint does not know what GraphQL operations need",
                        );
                    }
                    continue;
                }
            };
            let mut params = Vec::new();
            let mut given: Vec<&str> = Vec::new();
            let mut body_unread = false;
            for spread in &call.spreads {
                match spread.as_str() {
                    "context.repo" => given.extend(["owner", "repo"]),
                    "context.issue" => given.extend(["owner", "repo", "issue_number"]),
                    _ => body_unread = true,
                }
            }
            for arg in &call.args {
                given.push(&arg.name);
                if OCTOKIT_OPTIONS.contains(&arg.name.as_str())
                    || route_has_param(&route, &arg.name)
                {
                    continue;
                }
                // A string stays a string whatever it holds (`'+1'`, `"000000"`); a
                // chain of names (`config.perPage`) is a value not known here.
                let quoted = arg
                    .value_span
                    .start
                    .checked_sub(1)
                    .and_then(|before| source.as_bytes().get(before))
                    .is_some_and(|b| matches!(b, b'\'' | b'"' | b'`'));
                let value = match &arg.value {
                    Some(v) if quoted => string(at(&arg.value_span), v),
                    Some(v) if is_script_literal(v) => literal_node(at(&arg.value_span), v),
                    _ => string(at(&arg.value_span), &format!("{{{{{}}}}}", arg.name)),
                };
                params.push(entry(&arg.name, at(&arg.name_span), value));
            }
            let url = route_pieces(&route, line_span);
            self.push_request(RequestOut {
                job,
                form: "github-script",
                method: (method, line_span),
                url,
                params,
                body_unread,
                credential: credential.clone(),
                span: at(&call.span),
            });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn read_run(
        &mut self,
        job: &Entry,
        step: &Node,
        run: &Node,
        env: &Env,
        checkout_persists: bool,
        facts: &mut JobFacts,
    ) {
        let Some(script) = run.as_str() else {
            return;
        };
        let shell = step
            .get_value("shell")
            .and_then(Node::scalar_text)
            .map(|s| s.trim().to_string());
        if let Some(shell) = &shell
            && !(shell.starts_with("bash") || shell.starts_with("sh"))
        {
            if env.holds_job_token() || script.contains("github.token") {
                facts.unknown(
                    run.span,
                    format!("a `{shell}` script: reqlint reads bash scripts only"),
                );
            }
            return;
        }
        let map = SourceMap::for_scalar(self.text, run.span, script);
        let at = |r: &Range<usize>| map.span(r.clone());
        let mut env = env.clone();
        for command in shell::commands(script) {
            match command {
                shell::Command::Assignment(a) => {
                    env.set(&a.name, self.credential_of_text(&a.value, &env));
                }
                shell::Command::Call(call) => self.read_shell_call(job, &call, &env, &map, facts),
                shell::Command::Gh {
                    sub,
                    span,
                    assignments,
                    ..
                } => {
                    let mut env = env.clone();
                    for a in &assignments {
                        env.set(&a.name, self.credential_of_text(&a.value, &env));
                    }
                    match env.gh_token() {
                        Some(Credential::Job) => {
                            facts.steps.push(string(at(&span), &format!("gh {sub}")));
                        }
                        Some(Credential::Unknown) => {
                            facts.unknown(
                                at(&span),
                                format!("`gh {sub}` runs with a token reqlint cannot tell"),
                            );
                        }
                        _ => {}
                    }
                }
                shell::Command::Git { sub, span } => {
                    if checkout_persists
                        && matches!(
                            sub.as_str(),
                            "push" | "fetch" | "pull" | "clone" | "ls-remote" | "submodule"
                        )
                    {
                        facts.steps.push(string(at(&span), &format!("git {sub}")));
                    }
                }
                shell::Command::Other { name, span } => {
                    let base = name.rsplit('/').next().unwrap_or(&name);
                    if QUIET_PROGRAMS.contains(&base) {
                        continue;
                    }
                    if env.holds_job_token() {
                        facts.unknown(
                            at(&span),
                            format!("`{name}` runs with the job's token in its environment: what it calls is not known"),
                        );
                    } else if checkout_persists {
                        facts.unknown(
                            at(&span),
                            format!("`{name}` runs where actions/checkout left the job's token for git: what it does is not known"),
                        );
                    }
                }
                shell::Command::Unreadable { span, why } => {
                    if env.holds_job_token() || checkout_persists {
                        facts.unknown(at(&span), why);
                    }
                }
            }
        }
    }

    /// The credential a shell value holds: an expression (`${{ secrets.X }}`) or another
    /// variable (`$GITHUB_TOKEN`).
    fn credential_of_text(&self, value: &str, env: &Env) -> Option<Credential> {
        if let Some(c) = Credential::of_value(value) {
            return Some(c);
        }
        let name = value
            .trim()
            .trim_start_matches('$')
            .trim_start_matches('{')
            .trim_end_matches('}');
        if value.trim().starts_with('$') && !name.is_empty() {
            return Some(env.get(name).cloned().unwrap_or(Credential::Unknown));
        }
        None
    }

    fn read_shell_call(
        &mut self,
        job: &Entry,
        call: &shell::Call,
        env: &Env,
        map: &SourceMap,
        facts: &mut JobFacts,
    ) {
        let at = |r: &Range<usize>| map.span(r.clone());
        let mut env = env.clone();
        for a in &call.assignments {
            env.set(&a.name, self.credential_of_text(&a.value, &env));
        }
        let credential = match (&call.form, &call.token) {
            (shell::Form::GhApi, None) => env.gh_token().cloned(),
            (_, Some(shell::TokenSource::Unknown)) => Some(Credential::Unknown),
            (_, Some(shell::TokenSource::Variable(name))) => {
                Some(env.get(name).cloned().unwrap_or(Credential::Unknown))
            }
            (_, Some(shell::TokenSource::Expression(expr))) => {
                Some(Credential::of_expression(expr))
            }
            (_, Some(shell::TokenSource::Literal)) => Some(Credential::Unknown),
            (_, None) => None,
        };
        let Some((target, target_range)) = &call.target else {
            if credential == Some(Credential::Job) {
                facts.unknown(at(&call.span), "a call whose URL reqlint cannot find");
            }
            return;
        };
        // No route or URL holds white space: this one ran on past a quote left open, and
        // bash stops at such a script before running any of it.
        if has_white_space_outside_expressions(target) {
            if credential == Some(Credential::Job) {
                facts.unknown(
                    at(&call.span),
                    "a URL with white space in it (a quote left open?): not a route reqlint can read",
                );
            }
            return;
        }
        let target_span = at(target_range);
        let raw = map_raw(self.text, target_span, target);
        let path = match call.form {
            shell::Form::GhApi => {
                if call.hostname.is_some() {
                    // An enterprise host: its edition is not known here.
                    return;
                }
                if target.trim_start_matches('/') == "graphql" {
                    if credential == Some(Credential::Job) {
                        facts.unknown(
                            at(&call.span),
                            "a GraphQL call: reqlint does not know what GraphQL operations need",
                        );
                    }
                    return;
                }
                Some(target.trim_start_matches('/').to_string())
            }
            _ => api_path_of_url(target),
        };
        let Some(path) = path else {
            // Another host: not the code-hosting API's.
            return;
        };
        let offset = raw.map(|r| r + (target.len() - path.len()));
        let method = match &call.method {
            Some((m, r)) => (m.to_ascii_uppercase(), at(r)),
            None => (call.implied_method.to_string(), target_span),
        };
        let url = path_pieces(&path, offset, target_span);
        // A body the tool sends but that reqlint did not read (`--input -`, `-d "$BODY"`)
        // shows only in the POST it implies: it may hold every required field.
        let body_given = call.implied_method == "POST";
        let (params, body_unread) = match call.form {
            shell::Form::GhApi => {
                let (params, unread) = fields_as_params(&call.fields, &at);
                (params, unread || (call.fields.is_empty() && body_given))
            }
            _ => (
                Vec::new(),
                call.input.is_some() || !call.fields.is_empty() || body_given,
            ),
        };
        let body_unread = body_unread || call.input.is_some();
        self.push_request(RequestOut {
            job,
            form: match call.form {
                shell::Form::GhApi => "gh api",
                shell::Form::Curl => "curl",
                shell::Form::Wget => "wget",
                shell::Form::Httpie => "httpie",
            },
            method,
            url,
            params,
            body_unread,
            credential: credential.unwrap_or(Credential::Unknown),
            span: at(&call.span),
        });
    }

    fn push_request(&mut self, out: RequestOut) {
        let mut fields = vec![
            entry(
                "name",
                out.span,
                string(out.span, &format!("{}: {}", out.job.key, out.form)),
            ),
            entry("method", out.method.1, string(out.method.1, &out.method.0)),
            entry("url", out.url.span, out.url),
        ];
        match &out.credential {
            Credential::Job => fields.push(entry(
                JOB_KEY,
                out.job.key_span,
                string(out.job.key_span, &out.job.key),
            )),
            Credential::Secret(name) => {
                if let Some(token) = self.options.token_variables.get(name) {
                    fields.push(entry("token", out.span, string(out.span, token)));
                }
            }
            Credential::Unknown => {}
        }
        if !out.params.is_empty() {
            let span = out.params[0]
                .key_span
                .cover(out.params[out.params.len() - 1].value.span);
            fields.push(entry(
                "params",
                span,
                Node::new(span, Value::Map(out.params)),
            ));
        }
        if out.body_unread {
            fields.push(entry(
                super::BODY_UNREAD_KEY,
                out.span,
                Node::new(out.span, Value::Bool(true)),
            ));
        }
        fields.push(entry(CALL_KEY, out.span, string(out.span, out.form)));
        self.requests.push(Node::new(out.span, Value::Map(fields)));
    }
}

struct RequestOut<'j> {
    job: &'j Entry,
    form: &'static str,
    method: (String, Span),
    url: Node,
    params: Vec<Entry>,
    body_unread: bool,
    credential: Credential,
    span: Span,
}

/// Options of an Octokit call that are not the operation's params.
const OCTOKIT_OPTIONS: &[&str] = &[
    "headers",
    "request",
    "mediaType",
    "baseUrl",
    "method",
    "url",
];

/// Whether `text` has white space but inside `${{ … }}` (which the runner replaces).
fn has_white_space_outside_expressions(text: &str) -> bool {
    let mut rest = text;
    loop {
        let (before, after) = match rest.split_once("${{") {
            Some((before, after)) => (before, Some(after)),
            None => (rest, None),
        };
        if before.contains(char::is_whitespace) {
            return true;
        }
        match after.and_then(|a| a.split_once("}}")) {
            Some((_, next)) => rest = next,
            None => return false,
        }
    }
}

fn route_has_param(route: &str, name: &str) -> bool {
    route.contains(&format!("{{{name}}}"))
}

/// Whether a workflow's `on:` is `workflow_call` alone: its jobs without a block then take
/// the calling workflow's permissions, not the repository's default
/// (https://docs.github.com/en/actions/sharing-automations/reusing-workflows#access-and-permissions).
fn only_called(on: &Node) -> bool {
    let is_call = |n: &Node| n.scalar_text().is_some_and(|t| t.trim() == "workflow_call");
    match &on.value {
        Value::Seq(items) => !items.is_empty() && items.iter().all(is_call),
        Value::Map(entries) => {
            !entries.is_empty() && entries.iter().all(|e| e.key.trim() == "workflow_call")
        }
        _ => is_call(on),
    }
}

/// The inputs a step's `with:` gives, as the facts write them after the action's name:
/// ` NAME=true`, ` NAME=false`, ` NAME=expression` (`${{ … }}`, told only when the job
/// runs) or ` NAME=given`; an input left empty is not given. A conditional need of an
/// action can hang on one (`actions/stale`'s `delete-branch`).
fn given_inputs(with: Option<&Node>) -> String {
    let mut out = String::new();
    for input in with.and_then(Node::as_map).unwrap_or_default() {
        let name = input.key.to_string();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '=') {
            continue;
        }
        let Some(text) = input.value.scalar_text() else {
            out.push_str(&format!(" {name}=given"));
            continue;
        };
        let text = text.trim();
        let class = if text.contains("${{") {
            "expression"
        } else if text.eq_ignore_ascii_case("true") {
            "true"
        } else if text.eq_ignore_ascii_case("false") {
            "false"
        } else if text.is_empty() || matches!(input.value.value, Value::Null) {
            continue;
        } else {
            "given"
        };
        out.push_str(&format!(" {name}={class}"));
    }
    out
}

/// Whether an `actions/checkout` step with these inputs leaves the job's token for later
/// `git` commands: unless `persist-credentials: false`, or another credential is given
/// (`token` of another secret, or an `ssh-key`), which `git` then uses instead
/// (https://github.com/actions/checkout#usage).
fn checkout_leaves_job_token(with: Option<&Node>) -> bool {
    let input = |name: &str| {
        with.and_then(|w| w.get_value(name))
            .and_then(Node::scalar_text)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    input("persist-credentials").is_none_or(|v| v != "false")
        && input("ssh-key").is_none()
        && input("token").is_none_or(|v| Credential::of_value(&v) == Some(Credential::Job))
}

/// Whether `gh api -F` sends a value as JSON other than a string.
fn is_gh_typed_literal(value: &str) -> bool {
    matches!(value, "true" | "false" | "null") || value.parse::<i64>().is_ok()
}

/// Whether an unquoted value of a script is a literal (`3`, `true`, `null`), not a chain
/// of names.
fn is_script_literal(value: &str) -> bool {
    matches!(value, "true" | "false" | "null") || value.parse::<f64>().is_ok()
}

/// A literal of a script (`'text'`, `3`, `true`) as a node.
fn literal_node(span: Span, value: &str) -> Node {
    match value {
        "true" => Node::new(span, Value::Bool(true)),
        "false" => Node::new(span, Value::Bool(false)),
        "null" => Node::new(span, Value::Null),
        v if v.parse::<f64>().is_ok() && !v.is_empty() => {
            Node::new(span, Value::Number(Text::from(v)))
        }
        v => string(span, v),
    }
}

/// Where the text of a value starts in the file, when the file holds it as written
/// (unquoted, or inside one pair of quotes): then each byte of it has its own span.
fn map_raw(file: &str, span: Span, value: &str) -> Option<usize> {
    let raw = file.get(span.range())?;
    if raw == value {
        return Some(span.start);
    }
    let inner = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))?;
    (inner == value).then_some(span.start + 1)
}

/// The path (without the leading slash) a URL calls on the code-hosting API: its cloud
/// host or the host a workflow names (`${{ github.api_url }}`, `$GITHUB_API_URL`); `None`
/// for another host.
fn api_path_of_url(url: &str) -> Option<String> {
    let url = url.trim();
    for prefix in [
        "https://api.github.com/",
        "${{ github.api_url }}/",
        "${{github.api_url}}/",
        "$GITHUB_API_URL/",
        "${GITHUB_API_URL}/",
    ] {
        if let Some(rest) = url.strip_prefix(prefix) {
            return Some(rest.to_string());
        }
    }
    None
}

/// A route's pieces (`/repos/{owner}/{repo}/issues`), with `{name}` placeholders as
/// `{{name}}` references, all spanning `span`.
fn route_pieces(route: &str, span: Span) -> Node {
    let mut pieces = vec![string(Span::empty(span.start), CLOUD_API)];
    let text = route
        .split('/')
        .map(|segment| {
            if segment.starts_with('{') && segment.ends_with('}') && !segment.starts_with("{{") {
                format!("{{{segment}}}")
            } else {
                segment.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    pieces.push(string(span, &text));
    Node::new(span, Value::Seq(pieces))
}

/// A path as a script writes it (`repos/{owner}/{repo}/issues/$N/comments`) in pieces:
/// its text as written, each piece spanning where it is written when `written_at` says
/// where that is; `{owner}`/`{repo}`, `$GITHUB_REPOSITORY`, `${{ github.repository }}`,
/// other variables and expressions become `{{name}}` references (values not known).
fn path_pieces(path: &str, written_at: Option<usize>, whole: Span) -> Node {
    let mut pieces = vec![string(Span::empty(whole.start), &format!("{CLOUD_API}/"))];
    let span_of = |r: Range<usize>| match written_at {
        Some(base) => Span::new(base + r.start, base + r.end),
        None => whole,
    };
    let bytes = path.as_bytes();
    let mut literal_start = 0;
    let mut i = 0;
    let flush = |pieces: &mut Vec<Node>, from: usize, to: usize| {
        if from < to {
            pieces.push(string(span_of(from..to), &path[from..to]));
        }
    };
    while i < bytes.len() {
        let rest = &path[i..];
        let found: Option<(usize, String)> = if rest.starts_with("${{") {
            rest.find("}}").map(|end| {
                let expr = rest[3..end].trim();
                let name = if expr == "github.repository" {
                    "{{owner}}/{{repo}}".to_string()
                } else if expr == "github.repository_owner" {
                    "{{owner}}".to_string()
                } else {
                    format!("{{{{{expr}}}}}")
                };
                (end + 2, name)
            })
        } else if rest.starts_with("${") {
            rest.find('}')
                .map(|end| (end + 1, variable_reference(&rest[2..end])))
        } else if let Some(name) = rest.strip_prefix('$') {
            let len = name
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(rest.len(), |n| n + 1);
            (len > 1).then(|| (len, variable_reference(&rest[1..len])))
        } else if rest.starts_with('{') && !rest.starts_with("{{") {
            rest.find('}')
                .map(|end| (end + 1, format!("{{{{{}}}}}", &rest[1..end])))
        } else {
            None
        };
        match found {
            Some((len, reference)) => {
                flush(&mut pieces, literal_start, i);
                pieces.push(string(span_of(i..i + len), &reference));
                i += len;
                literal_start = i;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    flush(&mut pieces, literal_start, bytes.len());
    Node::new(whole, Value::Seq(pieces))
}

fn variable_reference(name: &str) -> String {
    match name {
        "GITHUB_REPOSITORY" => "{{owner}}/{{repo}}".to_string(),
        "GITHUB_REPOSITORY_OWNER" => "{{owner}}".to_string(),
        _ => format!("{{{{{name}}}}}"),
    }
}

/// `gh api`'s `-f`/`-F` fields as params: `name=value`, `labels[]=bug` (a list),
/// `a[b]=c` (an object). A value with a variable or expression is not known; `-F`
/// values are typed (`true`, `3`, `null`, `@file`). Fields nested deeper are not read:
/// the body is then marked unread.
fn fields_as_params(
    fields: &[shell::Field],
    at: &dyn Fn(&Range<usize>) -> Span,
) -> (Vec<Entry>, bool) {
    let mut params: Vec<Entry> = Vec::new();
    let mut unread = false;
    for field in fields {
        let name_span = at(&field.name_span);
        let value_span = at(&field.value_span);
        let value = match &field.value {
            None => {
                unread = true;
                continue;
            }
            Some(v) if v.contains('$') => string(value_span, "{{value}}"),
            Some(v) if field.typed && v.starts_with('@') => {
                unread = true;
                continue;
            }
            // `-F` converts `true`, `false`, `null` and integers only (`gh help api`):
            // `1.0` is sent as the string it is.
            Some(v) if field.typed && is_gh_typed_literal(v) => literal_node(value_span, v),
            Some(v) => string(value_span, v),
        };
        let (base, rest) = match field.name.find('[') {
            Some(i) => (&field.name[..i], &field.name[i..]),
            None => (field.name.as_str(), ""),
        };
        match rest {
            "" => params.push(entry(base, name_span, value)),
            "[]" => match params.iter_mut().find(|e| e.key == base) {
                Some(Entry {
                    value:
                        Node {
                            value: Value::Seq(items),
                            span,
                        },
                    ..
                }) => {
                    *span = span.cover(value.span);
                    items.push(value);
                }
                Some(_) => unread = true,
                None => {
                    let span = value.span;
                    params.push(entry(
                        base,
                        name_span,
                        Node::new(span, Value::Seq(vec![value])),
                    ));
                }
            },
            _ => {
                let key = rest
                    .strip_prefix('[')
                    .and_then(|r| r.strip_suffix(']'))
                    .filter(|k| !k.contains(['[', ']']));
                let Some(key) = key else {
                    unread = true;
                    continue;
                };
                let inner = entry(key, name_span, value);
                match params.iter_mut().find(|e| e.key == base) {
                    Some(Entry {
                        value:
                            Node {
                                value: Value::Map(entries),
                                span,
                            },
                        ..
                    }) => {
                        *span = span.cover(inner.value.span);
                        entries.push(inner);
                    }
                    Some(_) => unread = true,
                    None => {
                        let span = inner.key_span.cover(inner.value.span);
                        params.push(entry(
                            base,
                            name_span,
                            Node::new(span, Value::Map(vec![inner])),
                        ));
                    }
                }
            }
        }
    }
    (params, unread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_paths() {
        assert!(is_workflow_path(".github/workflows/ci.yml"));
        assert!(is_workflow_path("repo/.github/workflows/release.yaml"));
        assert!(!is_workflow_path(".github/workflows/sub/ci.yml"));
        assert!(!is_workflow_path(".github/dependabot.yml"));
        assert!(!is_workflow_path("workflows/ci.yml"));
        assert!(is_workflow_path("C:\\repo\\.github\\workflows\\CI.YML"));
        assert!(is_workflow_path("repo/.GitHub/Workflows/ci.Yaml"));
        assert!(!is_workflow_path("repo/x.github/workflows/ci.yml"));
        assert!(!is_workflow_path("ci.yml"));
        assert!(!is_workflow_path(".github/workflows/ci.json"));
    }

    #[test]
    fn credentials_of_values() {
        assert_eq!(
            Credential::of_value("${{ secrets.GITHUB_TOKEN }}"),
            Some(Credential::Job)
        );
        assert_eq!(
            Credential::of_value("${{github.token}}"),
            Some(Credential::Job)
        );
        assert_eq!(
            Credential::of_value("${{ secrets.RELEASE_PAT }}"),
            Some(Credential::Secret("RELEASE_PAT".into()))
        );
        assert_eq!(
            Credential::of_value("${{ steps.app.outputs.token }}"),
            Some(Credential::Unknown)
        );
        assert_eq!(
            Credential::of_value("${{ secrets.github_token }}"),
            Some(Credential::Job)
        );
        assert_eq!(Credential::of_value("plain"), None);
    }

    #[test]
    fn workflows_only_called_by_others() {
        let on = |text: &str| {
            let (docs, _) = crate::loading::yaml::parse(text, &Limits::default());
            only_called(docs[0].get_value("on").unwrap())
        };
        assert!(on("on: workflow_call\n"));
        assert!(on("on: [workflow_call]\n"));
        assert!(on("on:\n  workflow_call:\n    inputs: {}\n"));
        assert!(!on("on: [push, workflow_call]\n"));
        assert!(!on("on:\n  workflow_call:\n  workflow_dispatch:\n"));
        assert!(!on("on: push\n"));
        assert!(!on("on: []\n"));
    }

    #[test]
    fn white_space_of_a_route_but_in_expressions() {
        assert!(!has_white_space_outside_expressions(
            "repos/${{ github.repository }}/issues/${{ github.event.number }}"
        ));
        assert!(has_white_space_outside_expressions(
            "repos/{owner}/{repo}/issues -f 'title=x\ncurl"
        ));
        assert!(has_white_space_outside_expressions("repos/${{ a }}/x y"));
        assert!(!has_white_space_outside_expressions("repos/${{ a "));
    }

    #[test]
    fn path_pieces_keep_spans_of_what_is_written() {
        let node = path_pieces(
            "repos/$GITHUB_REPOSITORY/issues/{n}",
            Some(100),
            Span::new(100, 135),
        );
        let pieces = node.as_seq().unwrap();
        let texts: Vec<&str> = pieces.iter().map(|p| p.as_str().unwrap()).collect();
        assert_eq!(
            texts,
            [
                "https://api.github.com/",
                "repos/",
                "{{owner}}/{{repo}}",
                "/issues/",
                "{{n}}"
            ]
        );
        assert_eq!(pieces[1].span, Span::new(100, 106));
        assert_eq!(pieces[2].span, Span::new(106, 124));
    }
}

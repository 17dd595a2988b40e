//! A GitHub Actions workflow as its reader found it (docs/workflows.md): the
//! `permissions:` blocks of the workflow and of each job, as written with their spans,
//! the steps a table judges (first-party actions, `gh` subcommands, `git`), and what
//! cannot be told about a job's token. The calls themselves are the file's requests,
//! each naming its job ([`super::Request::job`]).

use crate::loading::readers::workflow::{CALLED_KEY, JOB_KEY, WORKFLOW_KEY};
use crate::loading::{Node, Span, Value};

#[derive(Debug, Default, PartialEq)]
pub struct Workflow {
    /// The workflow's own `permissions:`, which jobs without one take.
    pub permissions: Option<Permissions>,
    /// Only ever called by another workflow (`on: workflow_call`): a job without any block
    /// takes the caller's permissions.
    pub called: bool,
    pub jobs: Vec<Job>,
}

#[derive(Debug, PartialEq)]
pub struct Job {
    pub id: String,
    pub key_span: Span,
    /// Where the job's mapping is (a block written into it goes after its key).
    pub span: Span,
    pub permissions: Option<Permissions>,
    pub steps: Vec<TableStep>,
    /// What the reader could not tell about the job's token, each where it is: while a
    /// job has any, no permission of it is called unused.
    pub unknown: Vec<(Span, String)>,
}

/// A step judged by what a table says it needs.
#[derive(Clone, Debug, PartialEq)]
pub enum TableStep {
    /// A first-party action (`actions/checkout`), at its `uses:` value, with the inputs
    /// its `with:` gives.
    Action {
        name: String,
        span: Span,
        inputs: Vec<(String, Input)>,
    },
    /// A `gh` subcommand (`pr create`), at the command.
    Gh { sub: String, span: Span },
    /// A `git` command that uses the credentials `actions/checkout` left (`push`).
    Git { sub: String, span: Span },
}

/// What a step's `with:` gives an input, as far as the file tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    True,
    False,
    /// `${{ … }}`: told only when the job runs.
    Expression,
    /// Any other value.
    Given,
}

impl Input {
    fn parse(text: &str) -> Option<Input> {
        match text {
            "true" => Some(Input::True),
            "false" => Some(Input::False),
            "expression" => Some(Input::Expression),
            "given" => Some(Input::Given),
            _ => None,
        }
    }
}

impl TableStep {
    pub fn span(&self) -> Span {
        match self {
            TableStep::Action { span, .. }
            | TableStep::Gh { span, .. }
            | TableStep::Git { span, .. } => *span,
        }
    }

    /// How a message names the step (`actions/checkout`, `gh pr create`, `git push`).
    pub fn describe(&self) -> String {
        match self {
            TableStep::Action { name, .. } => name.clone(),
            TableStep::Gh { sub, .. } => format!("gh {sub}"),
            TableStep::Git { sub, .. } => format!("git {sub}"),
        }
    }
}

/// A `permissions:` block as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Permissions {
    pub key_span: Span,
    pub value_span: Span,
    pub written: Written,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Written {
    /// `read-all` / `write-all`.
    All { write: bool },
    /// `{}` or a mapping: each key, its level, their spans.
    Map(Vec<Grant>),
    /// Another word (`read`, `write`): GitHub refuses it; it grants nothing.
    Word(String),
    /// Anything else (a number, a list): what it is.
    Other(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Grant {
    pub key: String,
    pub key_span: Span,
    /// The level as written; empty when there is none or it is no word (a list).
    pub level: String,
    pub level_span: Span,
}

impl Permissions {
    fn read(key_span: Span, node: &Node) -> Permissions {
        let written = match &node.value {
            Value::String(s) if s.trim() == "read-all" => Written::All { write: false },
            Value::String(s) if s.trim() == "write-all" => Written::All { write: true },
            Value::Map(entries) => Written::Map(
                entries
                    .iter()
                    .map(|e| Grant {
                        key: e.key.to_string(),
                        key_span: e.key_span,
                        // No level (`contents:`), or one that is no word: empty.
                        level: match e.value.value {
                            Value::Null => String::new(),
                            _ => e.value.scalar_text().unwrap_or_default().trim().to_string(),
                        },
                        level_span: e.value.span,
                    })
                    .collect(),
            ),
            Value::Null => Written::Map(Vec::new()),
            Value::String(s) => Written::Word(s.trim().to_string()),
            _ => Written::Other(node.kind_name().to_string()),
        };
        Permissions {
            key_span,
            value_span: node.span,
            written,
        }
    }
}

impl Workflow {
    /// The facts a workflow's reader wrote beside its requests, if the document has them.
    pub fn read(root: &Node) -> Option<Workflow> {
        let facts = root.get_value(WORKFLOW_KEY)?;
        let permissions = facts
            .get("permissions")
            .map(|p| Permissions::read(p.key_span, &p.value));
        let jobs = facts
            .get_value("jobs")
            .and_then(Node::as_map)
            .unwrap_or_default()
            .iter()
            .map(|job| Job {
                id: job.key.to_string(),
                key_span: job.key_span,
                span: job.value.span,
                permissions: job
                    .value
                    .get("permissions")
                    .map(|p| Permissions::read(p.key_span, &p.value)),
                steps: job
                    .value
                    .get_value("steps")
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(table_step)
                    .collect(),
                unknown: job
                    .value
                    .get_value("unknown")
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                    .iter()
                    .map(|n| (n.span, n.as_str().unwrap_or_default().to_string()))
                    .collect(),
            })
            .collect();
        let called = facts
            .get_value(CALLED_KEY)
            .is_some_and(|c| matches!(c.value, Value::Bool(true)));
        Some(Workflow {
            permissions,
            called,
            jobs,
        })
    }

    pub fn job(&self, id: &str) -> Option<&Job> {
        self.jobs.iter().find(|j| j.id == id)
    }
}

fn table_step(node: &Node) -> Option<TableStep> {
    let text = node.as_str()?;
    let (kind, rest) = text.split_once(' ')?;
    let span = node.span;
    match kind {
        "action" => {
            let mut words = rest.split(' ');
            let name = words.next().unwrap_or_default().to_string();
            let inputs = words
                .filter_map(|w| {
                    let (input, class) = w.rsplit_once('=')?;
                    Some((input.to_string(), Input::parse(class)?))
                })
                .collect();
            Some(TableStep::Action { name, span, inputs })
        }
        "gh" => Some(TableStep::Gh {
            sub: rest.to_string(),
            span,
        }),
        "git" => Some(TableStep::Git {
            sub: rest.to_string(),
            span,
        }),
        _ => None,
    }
}

/// The job a request's call runs in with the job's `GITHUB_TOKEN`, and the span of the
/// job's key.
pub fn job_of(request: &Node) -> Option<(&str, Span)> {
    let e = request.get(JOB_KEY)?;
    Some((e.value.as_str()?, e.value.span))
}

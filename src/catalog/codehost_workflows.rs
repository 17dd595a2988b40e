//! TEMPORARY STUB (replaced by the workflow-data helper's module).
use crate::catalog::Method;
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    None,
    Read,
    Write,
}
impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        match s {
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
}
const KEYS: &[&str] = &[
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
    "repository-projects",
    "security-events",
    "statuses",
];
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct WorkflowKey(u8);
impl WorkflowKey {
    pub fn name(self) -> &'static str {
        KEYS[self.0 as usize]
    }
    pub fn title(self) -> &'static str {
        KEYS[self.0 as usize]
    }
    pub fn accepts(self, _level: Level) -> bool {
        true
    }
    pub fn always(self) -> Option<Level> {
        (self.name() == "metadata").then_some(Level::Read)
    }
    pub fn docs(self) -> &'static str {
        "https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions"
    }
}
pub fn workflow_keys() -> impl Iterator<Item = WorkflowKey> {
    (0..KEYS.len() as u8).map(WorkflowKey)
}
pub fn workflow_key(name: &str) -> Option<WorkflowKey> {
    KEYS.iter()
        .position(|k| *k == name)
        .map(|i| WorkflowKey(i as u8))
}
pub fn default_level(key: WorkflowKey, permissive: bool) -> Level {
    if permissive {
        if key.name() == "id-token" {
            Level::None
        } else {
            Level::Write
        }
    } else if matches!(key.name(), "contents" | "packages" | "metadata") {
        Level::Read
    } else {
        Level::None
    }
}
pub struct Needs {
    pub all: Vec<(WorkflowKey, Level)>,
    pub unreachable: Vec<&'static str>,
}
impl Needs {
    pub fn keys(&self) -> impl Iterator<Item = (WorkflowKey, Level)> + '_ {
        self.all.iter().copied()
    }
    pub fn all_of(&self) -> impl Iterator<Item = std::vec::IntoIter<(WorkflowKey, Level)>> + '_ {
        self.all.iter().map(|p| vec![*p].into_iter())
    }
    pub fn unreachable(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.unreachable.iter().copied()
    }
}
pub fn operation_needs(method: Method, template: &str) -> Option<Needs> {
    if template == "/repos/{owner}/{repo}/issues/{issue_number}/comments" && method == Method::Post
    {
        return Some(Needs {
            all: vec![(workflow_key("issues").unwrap(), Level::Write)],
            unreachable: vec![],
        });
    }
    if template == "/repos/{owner}/{repo}/issues/{issue_number}" && method == Method::Get {
        return Some(Needs {
            all: vec![(workflow_key("issues").unwrap(), Level::Read)],
            unreachable: vec![],
        });
    }
    None
}
pub struct Command {
    pub needs: Vec<(WorkflowKey, Level)>,
    pub source: &'static str,
}
impl Command {
    pub fn needs(&self) -> impl Iterator<Item = (WorkflowKey, Level)> + '_ {
        self.needs.iter().copied()
    }
    pub fn source(&self) -> &'static str {
        self.source
    }
}
pub fn gh_command(sub: &str) -> Option<Command> {
    match sub {
        "pr create" => Some(Command {
            needs: vec![(workflow_key("pull-requests").unwrap(), Level::Write)],
            source: "https://cli.github.com/manual/gh_pr_create",
        }),
        _ => None,
    }
}
pub struct Action {
    pub needs: Vec<(WorkflowKey, Level)>,
    pub from_script: bool,
    pub source: &'static str,
}
impl Action {
    pub fn needs(&self) -> impl Iterator<Item = (WorkflowKey, Level)> + '_ {
        self.needs.iter().copied()
    }
    pub fn needs_from_script(&self) -> bool {
        self.from_script
    }
    pub fn source(&self) -> &'static str {
        self.source
    }
}
pub fn action(uses: &str) -> Option<Action> {
    match uses.to_ascii_lowercase().as_str() {
        "actions/checkout" => Some(Action {
            needs: vec![(workflow_key("contents").unwrap(), Level::Read)],
            from_script: false,
            source: "https://github.com/actions/checkout",
        }),
        _ => None,
    }
}

//! The GITHUB_TOKEN reference (`docs/workflow-permissions.md`), generated from the
//! compiled workflow tables (catalog/codehost/workflows/): the keys of a `permissions:`
//! block with the GitHub App permission each grants and the host's defaults, the `gh`
//! subcommands and first-party actions with what they need, each row with its source.
//! `tests/it/docs.rs` fails when the committed page is stale.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::catalog::codehost_workflows::{
    Level, Need, actions, app_operations, default_level, gh_commands, operation_needs,
    workflow_keys,
};

fn level(level: Option<Level>) -> &'static str {
    level.map_or("not stated", Level::as_str)
}

/// `a: write + b: read`, alternatives joined by ` or `.
fn needs_text(needs: impl Iterator<Item = Need>) -> String {
    let mut alternatives: BTreeMap<u8, Vec<String>> = BTreeMap::new();
    for need in needs {
        alternatives
            .entry(need.alternative)
            .or_default()
            .push(format!("`{}: {}`", need.key.name(), need.level));
    }
    if alternatives.is_empty() {
        return "none stated".to_string();
    }
    alternatives
        .values()
        .map(|set| set.join(" + "))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A table cell: no newline, and `|` escaped.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// `docs/workflow-permissions.md`.
pub fn permissions_page() -> String {
    // How many operations an installation token may call under each app permission.
    let mut per_app: BTreeMap<&str, usize> = BTreeMap::new();
    let mut operations = 0;
    for (method, template) in app_operations() {
        operations += 1;
        if let Some(needs) = operation_needs(method, template) {
            let mut seen: Vec<&str> = needs.all().map(|r| r.app_permission).collect();
            seen.sort_unstable();
            seen.dedup();
            for app in seen {
                *per_app.entry(app).or_default() += 1;
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# GITHUB_TOKEN permissions of workflow jobs\n\n\
         What the `GITHUB_TOKEN` of a GitHub Actions job may hold and what the calls of its \
         steps need, generated from `catalog/codehost/workflows/` (see \
         [its README](../catalog/codehost/workflows/README.md) for every source and how to \
         check it again). Do not edit: `UPDATE_DOCS=1 cargo test --test it docs::` writes it.\n\n\
         A job's token is a GitHub App installation token: what an operation needs is read \
         from the host's GitHub App permission table, {operations} operations of which an \
         installation token may call. The job holds `metadata: read` always; every other key \
         is what its `permissions:` block says (a key left out of a block is `none`), else \
         the workflow's block, else the repository's default (restricted or permissive).\n"
    );
    let _ = writeln!(
        out,
        "## Keys of a `permissions:` block\n\n\
         | key | levels | GitHub App permission | operations | restricted default | permissive default | source |\n\
         |---|---|---|---|---|---|---|"
    );
    for key in workflow_keys() {
        let levels: Vec<&str> = [Level::None, Level::Read, Level::Write]
            .into_iter()
            .filter(|l| key.accepts(*l))
            .map(Level::as_str)
            .collect();
        let levels = match key.always() {
            Some(always) => format!("always `{always}`"),
            None => levels.join(", "),
        };
        let app = key.app_permission();
        let count = app.and_then(|a| per_app.get(a)).copied().unwrap_or(0);
        let mut source = format!("[docs]({})", key.docs());
        if !key.on_cloud() {
            source.push_str("; not on GitHub.com");
        }
        if let Some(note) = key.note() {
            let _ = write!(source, "; {}", cell(note));
        }
        let _ = writeln!(
            out,
            "| `{}` | {levels} | {} | {count} | {} | {} | {source} |",
            key.name(),
            app.map_or("none".to_string(), |a| format!("`{a}` ({})", key.title())),
            level(default_level(key, false)),
            level(default_level(key, true)),
        );
    }
    let _ = writeln!(
        out,
        "\nApp permissions no key grants (organization and user permissions, `workflows`, \
         `admin` access) can never be held by a job's token: an operation listed only under \
         them is out of its reach. Where the app table lists an operation under several \
         permissions, any one of the rows without the host's \"additional permissions\" flag \
         is enough; flagged rows mean the host says more is needed without saying which.\n"
    );
    let _ = writeln!(
        out,
        "## `gh` subcommands\n\n\
         What a step's `gh` call needs from the job's token (`GH_TOKEN` set to it). \
         *GraphQL* rows send a mutation, for which the host publishes no permission table: \
         their need is that of the REST route doing the same thing, named in the row.\n\n\
         | command | needs | operation | REST route of the need | source |\n\
         |---|---|---|---|---|"
    );
    for command in gh_commands() {
        let routes = command.routes().replace(" + ", "` and `");
        let mut source = format!("[manual]({}); {}", command.docs(), command.source());
        if let Some(note) = command.note() {
            let _ = write!(source, "; {}", cell(note));
        }
        let _ = writeln!(
            out,
            "| `gh {}` | {} | {} | `{routes}` | {} |",
            command.name(),
            needs_text(command.needs()),
            cell(command.operation()),
            cell(&source),
        );
    }
    let _ = writeln!(
        out,
        "\n## Actions\n\n\
         First-party actions whose docs state what they need from the job's token. Their \
         token input defaults to the job's token; a step that gives it another token does \
         not use the job's.\n\n\
         | uses | needs | also needs, when | token input | source |\n\
         |---|---|---|---|---|"
    );
    for action in actions() {
        let needs = if action.needs_from_script() {
            "those of the calls in its script".to_string()
        } else {
            needs_text(action.needs())
        };
        let conditional = match action.condition() {
            Some(condition) => format!(
                "{} ({})",
                needs_text(action.conditional_needs()),
                cell(condition)
            ),
            None => "—".to_string(),
        };
        let mut source = format!("[docs]({}); {}", action.docs(), action.source());
        if let Some(note) = action.note() {
            let _ = write!(source, "; {}", cell(note));
        }
        let _ = writeln!(
            out,
            "| `{}` | {needs} | {conditional} | {} | {} |",
            action.uses(),
            action
                .token_input()
                .map_or("none".to_string(), |t| format!("`{t}`")),
            cell(&source),
        );
    }
    out
}

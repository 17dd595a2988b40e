use crate::apis::codehost::permissions_block::block_is_valid;
use crate::apis::codehost::workflow_token::{GrantSource, JobNeeds, every_job_needs, job_token};
use crate::catalog::codehost_workflows::{Level, workflow_key};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::workflow::{Permissions, Written};
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct JobTokenUnusedPermission {
        name: "job-token-unused-permission",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Warning,
        summary: "a workflow's `permissions:` grant the GITHUB_TOKEN something no call of its jobs uses",
        what: "For a job's own `permissions:` mapping, and for the workflow's when every job \
               that takes it is judged, reports each permission no call or step of those jobs \
               needs, and `write` where they only read. Only judged when reqlint reads every \
               step of those jobs: a step whose calls it cannot tell (a third-party action, a \
               program run with the token in its environment, a GraphQL call) means it \
               cannot tell what is unused, and nothing is reported.",
        why: "Least privilege: a compromised step (a dependency, an action) can do only what the \
              job's token holds. A permission kept \"just in case\" is the one an attacker uses.",
        source: "GitHub's \"Automatic token authentication\", modifying the permissions for the GITHUB_TOKEN \
                 (https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#modifying-the-permissions-for-the-github_token); \
                 \"Security hardening for GitHub Actions\" (https://docs.github.com/en/actions/security-for-github-actions/security-guides/security-hardening-for-github-actions)",
        fixes: &[FixMeta {
            applicability: Applicability::Unsafe,
            what: "the permission's line is removed from a block mapping, or its level lowered to what the calls need",
        }],
        inspects: Inspects::File,
        bad: example!("job-token-unused-permission/.github/workflows/bad.yml"),
        good: example!("job-token-unused-permission/.github/workflows/good.yml"),
    }
}

impl Rule for JobTokenUnusedPermission {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(workflow) = &file.model.workflow else {
            return;
        };
        let judged = every_job_needs(file);
        for (job, needs) in workflow.jobs.iter().zip(judged) {
            if let GrantSource::Job(block) = job_token(workflow, job, file.config).source {
                report_block(file, block, &[needs], &format!("job `{}`", job.id), out);
            }
        }
        // The workflow's block, judged over the jobs that take it.
        if let Some(block) = &workflow.permissions {
            let takers: Vec<&JobNeeds> = workflow
                .jobs
                .iter()
                .zip(judged)
                .filter(|(job, _)| job.permissions.is_none())
                .map(|(_, needs)| needs)
                .collect();
            if !takers.is_empty() {
                report_block(file, block, &takers, "the jobs that take it", out);
            }
        }
    }
}

fn report_block(
    file: &FileContext<'_>,
    block: &Permissions,
    jobs: &[&JobNeeds],
    whose: &str,
    out: &mut Vec<Diagnostic>,
) {
    // A block GitHub refuses is `job-permissions-invalid`'s to report first.
    if jobs.iter().any(|n| n.unknown()) || !block_is_valid(block) {
        return;
    }
    let Written::Map(grants) = &block.written else {
        return;
    };
    let granted = |key| {
        grants
            .iter()
            .find(|g| workflow_key(&g.key) == Some(key))
            .and_then(|g| Level::parse(&g.level))
            .unwrap_or(Level::None)
    };
    let mut needed = std::collections::BTreeMap::new();
    for needs in jobs {
        for (key, level) in needs.possibly_used(granted) {
            let at = needed.entry(key).or_insert(Level::None);
            *at = (*at).max(level);
        }
    }
    let line_edits = crate::model::edits::takes_line_edits(file.path);
    // When no grant of the block is needed, each fix empties the block (`{}`, the same
    // edit for all): removing its lines one by one would leave `permissions:` with no
    // value, which is not an empty block.
    let needed_at = |g: &crate::model::workflow::Grant| {
        workflow_key(&g.key).map_or(Level::Write, |k| {
            needed.get(&k).copied().unwrap_or(Level::None)
        })
    };
    let emptied = grants
        .iter()
        .all(|g| needed_at(g) == Level::None)
        .then(|| Edit {
            span: crate::loading::Span::new(block.key_span.end, block.value_span.end),
            replacement: ": {}".to_string(),
            file: None,
        });
    for grant in grants {
        let (Some(key), Some(level)) = (workflow_key(&grant.key), Level::parse(&grant.level))
        else {
            continue;
        };
        let need = needed.get(&key).copied().unwrap_or(Level::None);
        if level <= need {
            continue;
        }
        let (message, fix) = if need == Level::None {
            let removal = match &emptied {
                Some(edit) => Some(edit.clone()),
                None => line_edits
                    .then(|| {
                        crate::model::edits::remove_lines(
                            file.text,
                            grant.key_span.start,
                            grant.level_span.end,
                        )
                    })
                    .flatten()
                    .filter(|_| !file.text[block.value_span.range()].starts_with('{')),
            };
            (
                format!(
                    "`{}: {}` is granted, and no call of {whose} needs `{}`",
                    grant.key, grant.level, grant.key
                ),
                removal.map(|edit| {
                    Fix::unsafe_(
                        format!("remove `{}: {}`", grant.key, grant.level),
                        vec![edit],
                    )
                }),
            )
        } else {
            (
                format!(
                    "`{}: {}` is granted, and the calls of {whose} only need `{}: {}`",
                    grant.key,
                    grant.level,
                    grant.key,
                    need.as_str()
                ),
                Some(Fix::unsafe_(
                    format!("lower `{}` to `{}`", grant.key, need.as_str()),
                    vec![Edit {
                        span: grant.level_span,
                        replacement: need.as_str().to_string(),
                        file: None,
                    }],
                )),
            )
        };
        out.push(
            Diagnostic::new(&META, grant.key_span.cover(grant.level_span), message)
                .with_help("a compromised step can use what the token holds: grant only what the calls need")
                .with_fix_opt(crate::model::edits::written_once_fix(file, fix)),
        );
    }
}

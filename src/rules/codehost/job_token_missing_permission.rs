use std::collections::BTreeSet;

use crate::apis::codehost::workflow_token::{
    GrantSource, TOKEN_DOCS, every_job_needs, insert_job_block, job_token, set_in_block,
};
use crate::diagnostic::{Applicability, Diagnostic, Fix, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct JobTokenMissingPermission {
        name: "job-token-missing-permission",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "a workflow job calls the code-hosting API with a GITHUB_TOKEN whose permissions do not cover the call",
        what: "In a GitHub Actions workflow, each call a job's steps make with the job's \
               `GITHUB_TOKEN` (`gh api`, `curl`/`wget`/HTTPie with the token in a header, \
               `actions/github-script`, the common `gh` subcommands, `git push` after \
               `actions/checkout`, first-party actions) is judged against the token's \
               permissions: the job's `permissions:`, else the workflow's, else the \
               repository's default (`codehost.workflow-permissions`, restricted unless \
               said). What each operation needs comes from the host's GitHub App \
               permission table; a call the table does not list is not judged. Also \
               reported: a call the job's token can never make (an operation closed to \
               GitHub App tokens, or one needing an app permission no workflow key grants).",
        why: "The job fails at run time: the host answers 403 \"Resource not accessible by \
              integration\". Seen before the commit, it is one line in the block.",
        source: "GitHub's \"Automatic token authentication\", permissions for the GITHUB_TOKEN \
                 (https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#permissions-for-the-github_token); \
                 workflow syntax, `permissions` (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions); \
                 \"Permissions required for GitHub Apps\" (https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps)",
        fixes: &[
            FixMeta {
                applicability: Applicability::Safe,
                what: "the permission is added to the job's own `permissions:` mapping (or its level raised)",
            },
            FixMeta {
                applicability: Applicability::Unsafe,
                what: "a job that takes the workflow's block or the default, and whose every call reqlint reads, gets a block of its own with what its calls need",
            },
        ],
        inspects: Inspects::File,
        bad: example!("job-token-missing-permission/.github/workflows/bad.yml"),
        good: example!("job-token-missing-permission/.github/workflows/good.yml"),
    }
}

impl Rule for JobTokenMissingPermission {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(workflow) = &file.model.workflow else {
            return;
        };
        for (job, needs) in workflow.jobs.iter().zip(every_job_needs(file)) {
            let token = job_token(workflow, job, file.config);
            // The caller's permissions are not in this file: no need is judged against them
            // (a call no job token can make still is).
            let caller = matches!(token.source, GrantSource::Caller);
            // A block GitHub refuses runs no job: it is `job-permissions-invalid`'s to
            // report, and the calls are judged once it is one GitHub accepts.
            let refused = token.refused();
            // One fix per job and key: two calls needing `issues: write` get one line.
            let mut fixed = BTreeSet::new();
            let mut block_written = false;
            for need in &needs.needs {
                if caller || refused || need.soft || need.met(|k| token.level(k)) {
                    continue;
                }
                let (key, level) = need.choice(|k| token.level(k));
                let wanted = format!("{}: {}", key.name(), level.as_str());
                let fix = if !fixed.insert(key) {
                    None
                } else {
                    match token.source {
                        GrantSource::Job(block) => {
                            set_in_block(file.text, block, key, level).map(|edit| {
                                Fix::safe(
                                    format!("add `{wanted}` to the job's `permissions:`"),
                                    vec![edit],
                                )
                            })
                        }
                        _ if !needs.unknown() && !block_written => {
                            block_written = true;
                            insert_job_block(file.text, job, &needs.least_privilege()).map(|edit| {
                                Fix::unsafe_(
                                    "give the job a `permissions:` block of its own with what its calls need",
                                    vec![edit],
                                )
                            })
                        }
                        _ => None,
                    }
                };
                let has: Vec<String> = need
                    .options
                    .iter()
                    .map(|(k, _)| format!("`{}: {}`", k.name(), token.level(*k).as_str()))
                    .collect();
                let mut d = Diagnostic::new(
                    &META,
                    need.span,
                    format!(
                        "{} needs {}, and job `{}`'s GITHUB_TOKEN has {} ({})",
                        need.what,
                        need.describe(),
                        job.id,
                        has.join(" and "),
                        token.describe()
                    ),
                )
                .with_help(format!(
                    "{}; without it the host answers 403 \"Resource not accessible by integration\" (source: {})",
                    match token.source {
                        GrantSource::Job(_) => format!("add `{wanted}` to the job's `permissions:`"),
                        GrantSource::Workflow(_) => format!(
                            "give the job a `permissions:` of its own with `{wanted}` (it takes the workflow's now), or add it to the workflow's"
                        ),
                        GrantSource::Default { .. } | GrantSource::Caller => {
                            format!("give the job a `permissions:` block with `{wanted}`")
                        }
                    },
                    need.source
                ))
                .with_fix_opt(fix);
                if let Some(block) = token.block() {
                    d = d.with_label(block.key_span, "the token's permissions are set here");
                }
                out.push(d);
            }
            for (span, what, why) in &needs.never {
                out.push(
                    Diagnostic::new(
                        &META,
                        *span,
                        format!("job `{}`'s GITHUB_TOKEN can never call {what}: {why}", job.id),
                    )
                    .with_help(format!(
                        "call it with another token (a GitHub App's, or a personal access token kept in a secret); see {TOKEN_DOCS}"
                    )),
                );
            }
        }
    }
}

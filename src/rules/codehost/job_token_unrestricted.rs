use crate::apis::codehost::workflow_token::{
    GrantSource, block_lines, block_text, every_job_needs, indent_at, insert_job_block, job_token,
};
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::model::workflow::Written;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct JobTokenUnrestricted {
        name: "job-token-unrestricted",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Warning,
        summary: "a workflow job's GITHUB_TOKEN has no `permissions:` block, or `write-all`",
        what: "A job whose token takes the repository's default (neither the job nor the \
               workflow writes `permissions:`), or `write-all` (the job's or the workflow's). \
               The help gives the least-privilege block computed from the job's calls when \
               reqlint reads every step of the job (`reqlint scopes` prints it for every job), \
               and says what it cannot tell otherwise.",
        why: "The default depends on a setting outside the repository (permissive in older \
              repositories and organizations: write to almost everything), and `write-all` \
              hands every step write access to the repository, its releases, packages and \
              workflows. A block written in the workflow is reviewed with it.",
        source: "GitHub's workflow syntax, `permissions` (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions); \
                 \"Automatic token authentication\" \
                 (https://docs.github.com/en/actions/security-for-github-actions/security-guides/automatic-token-authentication#permissions-for-the-github_token)",
        fixes: &[FixMeta {
            applicability: Applicability::Unsafe,
            what: "the least-privilege block is written into the job (or replaces `write-all`), when reqlint reads every step of the job",
        }],
        inspects: Inspects::File,
        bad: example!("job-token-unrestricted/.github/workflows/bad.yml"),
        good: example!("job-token-unrestricted/.github/workflows/good.yml"),
    }
}

impl Rule for JobTokenUnrestricted {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(workflow) = &file.model.workflow else {
            return;
        };
        for (job, needs) in workflow.jobs.iter().zip(every_job_needs(file)) {
            let token = job_token(workflow, job, file.config);
            let least = needs.least_privilege();
            let (span, message, fix) = match token.source {
                GrantSource::Default { .. } => (
                    job.key_span,
                    format!(
                        "job `{}` has no `permissions:`: its GITHUB_TOKEN takes {}",
                        job.id,
                        token.describe()
                    ),
                    insert_job_block(file.text, job, &least),
                ),
                GrantSource::Job(block) | GrantSource::Workflow(block)
                    if block.written == (Written::All { write: true }) =>
                {
                    let whose = if matches!(token.source, GrantSource::Job(_)) {
                        "its own"
                    } else {
                        "the workflow's"
                    };
                    // Only the job's own `write-all` is replaced: the workflow's is other jobs' too.
                    let fix = matches!(token.source, GrantSource::Job(_)).then(|| {
                        let indent = format!("{}  ", indent_at(file.text, block.key_span.start));
                        let replacement = if least.is_empty() {
                            ": {}".to_string()
                        } else {
                            let lines = block_lines(&least, &indent);
                            format!(":\n{}", lines.join("\n"))
                        };
                        Edit {
                            span: crate::loading::Span::new(
                                block.key_span.end,
                                block.value_span.end,
                            ),
                            replacement,
                            file: None,
                        }
                    });
                    (
                        block.value_span,
                        format!(
                            "job `{}`'s GITHUB_TOKEN has `write-all` ({whose} `permissions:`)",
                            job.id
                        ),
                        fix,
                    )
                }
                _ => continue,
            };
            let help = if needs.unknown() {
                match needs.not_told.first() {
                    Some((_, why)) => format!(
                        "write the block the job needs; reqlint cannot tell all of it: {why}"
                    ),
                    None => "write the block the job needs; reqlint cannot tell all of it: a call's operation or its permission is not known to it".to_string(),
                }
            } else {
                format!("what its calls need:\n{}", block_text(&least, ""))
            };
            let fix = fix.filter(|_| !needs.unknown()).map(|edit| {
                Fix::unsafe_(
                    "write the least-privilege `permissions:` into the job",
                    vec![edit],
                )
            });
            out.push(
                Diagnostic::new(&META, span, message)
                    .with_help(help)
                    .with_fix_opt(fix),
            );
        }
    }
}

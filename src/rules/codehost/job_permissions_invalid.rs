use crate::apis::codehost::permissions_block::block_problems;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct JobPermissionsInvalid {
        name: "job-permissions-invalid",
        group: Group::of(crate::apis::codehost::ID),
        severity: Severity::Error,
        summary: "a workflow's `permissions:` block has an unknown key, a level its key does not take, or is not a block",
        what: "Checks the workflow's and each job's `permissions:`: it is `read-all`, \
               `write-all`, `{}` or a mapping whose keys are the ones the host lists \
               (`actions`, `contents`, `pull-requests`, …; `metadata` cannot be written: it is \
               always `read`) and whose levels are those the key takes (`read`, `write` or \
               `none`; `id-token` and `copilot-requests` take `write` or `none`, `models` and \
               `vulnerability-alerts` `read` or `none`). The help names the key or level \
               meant when one is close. While a job's block is refused, the other job-token \
               rules do not judge its calls against it.",
        why: "GitHub refuses the whole workflow (\"Invalid workflow file\") and none of its \
              jobs runs; a misspelt key (`pull-request`) would grant nothing even if it ran.",
        source: "GitHub's workflow syntax, `permissions` (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions); \
                 the schema of GitHub's workflow parser, `permissions-mapping` \
                 (https://github.com/actions/languageservices/blob/main/workflow-parser/src/workflow-v1.0.json)",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "the key or level is replaced by the one meant, when exactly one is (`pull-request` → `pull-requests`, `Read` → `read`, `permissions: read` → `read-all`); a `metadata` line, which the token always has, is removed from a block that keeps another key",
        }],
        inspects: Inspects::File,
        bad: example!("job-permissions-invalid/.github/workflows/bad.yml"),
        good: example!("job-permissions-invalid/.github/workflows/good.yml"),
    }
}

impl Rule for JobPermissionsInvalid {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let Some(workflow) = &file.model.workflow else {
            return;
        };
        let blocks = workflow
            .permissions
            .iter()
            .chain(workflow.jobs.iter().filter_map(|j| j.permissions.as_ref()));
        for block in blocks {
            for problem in block_problems(block) {
                let removal = problem
                    .remove_to
                    .filter(|_| crate::model::edits::takes_line_edits(file.path))
                    .and_then(|end| {
                        let written = file.text.get(problem.span.start..end)?;
                        let edit =
                            crate::model::edits::remove_lines(file.text, problem.span.start, end)?;
                        Some(Fix::safe(format!("remove `{written}`"), vec![edit]))
                    });
                let fix = problem
                    .meant
                    .map(|meant| {
                        Fix::safe(
                            format!("write `{meant}`"),
                            vec![Edit {
                                span: problem.span,
                                replacement: meant,
                                file: None,
                            }],
                        )
                    })
                    .or(removal);
                out.push(
                    Diagnostic::new(&META, problem.span, problem.message)
                        .with_help(problem.help)
                        .with_fix_opt(fix),
                );
            }
        }
    }
}

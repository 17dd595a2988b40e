use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Format, Node};
use crate::model::file::FileContext;
use crate::model::suppressions;
use crate::rules::rule::{Group, Inspects, Rule};
use crate::suggest::did_you_mean;

crate::declare_rule! {
    pub struct UnknownSuppressedRule {
        name: "unknown-suppressed-rule",
        group: Group::FILES,
        severity: Severity::Warning,
        summary: "a `# reqlint: ignore[...]` comment names a rule that does not exist",
        what: "Reports every name in an inline suppression comment (`# reqlint: \
               ignore[rule-a, rule-b]`) that is not the name of a rule, with the closest \
               rule name. The comment still silences the rules it names correctly.",
        why: "A misspelt name silences nothing: the diagnostic the comment was written for is \
              still reported, and nothing else says why the comment did not work.",
        source: "reqlint's suppression comments (docs/usage.md, \"Suppressing diagnostics\")",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("unknown-suppressed-rule/bad.req.yaml"),
        good: example!("unknown-suppressed-rule/good.req.yaml"),
    }
}

impl Rule for UnknownSuppressedRule {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        // Suppression comments are YAML's; JSON has no comments.
        if file.format != Format::Yaml {
            return;
        }
        let roots: Vec<&Node> = file.model.documents.iter().map(|d| d.root).collect();
        for suppression in suppressions::comments(file.text, &roots) {
            for (name, span) in &suppression.rules {
                if file.rule_names.contains(&name.as_str()) {
                    continue;
                }
                let help = match did_you_mean(name, file.rule_names.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "`reqlint rules` lists every rule".to_string(),
                };
                out.push(
                    Diagnostic::new(&META, *span, format!("no rule is named `{name}`"))
                        .with_help(help),
                );
            }
        }
    }
}

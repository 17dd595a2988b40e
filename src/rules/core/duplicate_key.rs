use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::ProblemKind;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct DuplicateKey {
        name: "duplicate-key",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "a mapping gives the same key twice",
        what: "Reports a key given a second time in the same mapping, pointing at both. \
               Keys merged in with `<<: *anchor` may be overridden without a diagnostic.",
        why: "YAML 1.2 and JSON parsers disagree on which value wins; the API sees one of \
              them and the other edit is silently lost. reqlint's rules read the last one.",
        source: "reqlint's request file format (docs/request-files.md); YAML 1.2 §3.2.1.1 (keys are unique)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("duplicate-key/bad.req.yaml"),
        good: example!("duplicate-key/good.req.yaml"),
    }
}

impl Rule for DuplicateKey {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for p in file.problems {
            if p.kind == ProblemKind::DuplicateKey {
                let mut d = Diagnostic::new(&META, p.span, p.message.clone())
                    .with_help("remove one of the two; the last one is the one that counts");
                if let Some(first) = p.related {
                    d = d.with_label(first, "first given here");
                }
                out.push(d);
            }
        }
    }
}

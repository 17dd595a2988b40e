use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::ProblemKind;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct InvalidSyntax {
        name: "invalid-syntax",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "file is not valid YAML or JSON, or not UTF-8 text",
        what: "Reports a file that cannot be read: invalid YAML or strict JSON (no comments, \
               trailing commas or single quotes), invalid UTF-8, a binary file, and a \
               JSON-encoded `targeting`, `lookalike_spec` or `promoted_object` string that is \
               not valid JSON. The span points at the first byte that could not be read.",
        why: "Nothing else in the file can be checked, and the API would refuse the body \
              (a JSON-encoded param that does not parse is answered with error 100).",
        source: "reqlint's request file format (docs/request-files.md): request files are UTF-8 YAML or JSON, and JSON-encoded strings",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("invalid-syntax/bad.req.json"),
        good: example!("invalid-syntax/good.req.json"),
    }
}

impl Rule for InvalidSyntax {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for p in file.problems {
            if matches!(p.kind, ProblemKind::Syntax | ProblemKind::Encoding) {
                out.push(Diagnostic::new(&META, p.span, p.message.clone()));
            }
        }
    }
}

use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::model::DocumentKind;
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct NotARequestFile {
        name: "not-a-request-file",
        group: Group::FILES,
        severity: Severity::Warning,
        summary: "a document holds no request",
        what: "Reports a document whose top level is not a mapping (a list, a scalar), or a \
               mapping with neither `request` (or `method` and `path`) nor `requests`. An \
               empty document beside request documents, such as a trailing `---`, is fine. A \
               `.http` file in the dialect of dothttp (a `#!/usr/bin/env dothttp` line, or \
               quoted URLs: `GET \"https://…\"`) is not read, which is said once, as an info.",
        why: "A file that matches the include globs but holds no request is usually a \
              mistake in the globs or in the file; nothing in it is checked.",
        source: "reqlint's request file format (docs/request-files.md): one request, several requests",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("not-a-request-file/bad.req.yaml"),
        good: example!("not-a-request-file/good.req.yaml"),
    }
}

impl Rule for NotARequestFile {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        let docs = &file.model.documents;
        let any_request = docs
            .iter()
            .any(|d| !matches!(d.kind, DocumentKind::NotRequest { .. }));
        let only_empty = docs
            .iter()
            .all(|d| matches!(d.root.value, crate::loading::Value::Null));
        if let Some(p) = file
            .problems
            .iter()
            .find(|p| p.kind == crate::loading::ProblemKind::OtherDialect)
        {
            out.push(
                Diagnostic::new(&META, p.span, p.message.clone())
                    .with_severity(Severity::Info)
                    .with_help(
                        "exclude the file in .reqlint.yaml (`exclude:`) to leave it out of the run",
                    ),
            );
            return;
        }
        if docs.is_empty() && file.problems.is_empty() {
            out.push(
                Diagnostic::new(
                    &META,
                    crate::loading::Span::empty(0),
                    "file holds no request: it is empty",
                )
                .with_help("add `request: METHOD PATH`, or exclude the file in .reqlint.yaml"),
            );
            return;
        }
        for doc in docs {
            if let DocumentKind::NotRequest { reason, span } = &doc.kind {
                let empty = matches!(doc.root.value, crate::loading::Value::Null);
                if empty && (any_request || !only_empty || docs.len() > 1) {
                    continue;
                }
                out.push(
                    Diagnostic::new(&META, *span, format!("not a request: {reason}"))
                        .with_help("a request document has `request: METHOD PATH` or a `requests:` list; exclude other files in .reqlint.yaml"),
                );
            }
        }
    }
}

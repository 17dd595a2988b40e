use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct MalformedRequestLine {
        name: "malformed-request-line",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "the request line is not `METHOD PATH` with a known method and a path from `/`",
        what: "Reports a request line whose method is not one of GET, POST, PUT, PATCH and \
               DELETE (in capitals), whose path does not start with `/` (a full URL is fine), \
               that has no method, no path or no space between them, and a request with \
               `method` but no `path` or the other way round. The help gives the corrected line.",
        why: "Every other rule starts from the method and the path; a request whose line \
              cannot be read is not checked at all, and the API would not route it.",
        source: "reqlint's request file format (docs/request-files.md): `request: \"METHOD PATH\"`, or `method`, `path`, `url`",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "a method in lower case is written in capitals (`post` → `POST`)",
        }],
        inspects: Inspects::File,
        bad: example!("malformed-request-line/bad.req.yaml"),
        good: example!("malformed-request-line/good.req.yaml"),
    }
}

impl Rule for MalformedRequestLine {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for request in &file.model.requests {
            if let Err(e) = &request.line {
                let mut d = Diagnostic::new(&META, e.span, e.message.clone());
                if let Some(help) = &e.help {
                    d = d.with_help(help.clone());
                }
                // The method in capitals: the span is the method as written.
                if let Some(fixed) = &e.fix
                    && let Some(written) = file.text.get(e.span.range())
                {
                    d = d.with_fix_opt(crate::model::edits::written_once_fix(
                        file,
                        crate::model::edits::rename(
                            file.text,
                            e.span,
                            written.trim().trim_matches(['"', '\'']),
                            fixed,
                            crate::diagnostic::Applicability::Safe,
                        ),
                    ));
                }
                out.push(d);
            }
        }
    }
}

use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::example;
use crate::loading::Span;
use crate::loading::readers::UNSEPARATED_KEY;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct HttpRequestNotSeparated {
        name: "http-request-not-separated",
        group: Group::FILES,
        severity: Severity::Warning,
        summary: "a request line of an `.http` file has no `###` line between it and the request above",
        what: "Reports, in an `.http` or `.rest` file, a request line (`METHOD URL`, the \
               method in capitals, from the start of the line) that comes after another \
               request's line with no `###` separator line between the two: in the headers \
               or in the body of the request above.",
        why: "The clients start a request only after a `###` line: the line and everything \
              below it up to the next separator are sent as the body of the request above, \
              and the request it was meant to be is never sent. reqlint reads the file as \
              the clients send it, so the second request is not checked either.",
        source: "JetBrains HTTP Client, \"HTTP request syntax\" (https://www.jetbrains.com/help/idea/exploring-http-syntax.html): \
                 requests are separated by `###`; VS Code REST Client README, \"Usage\" \
                 (https://github.com/Huachao/vscode-restclient#usage): several requests in \
                 one file are separated by a `###` line",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "a `###` line is inserted above the request line (and above the comments and \
                   variables just over it), where nothing but headers, blank lines and comments \
                   stand between it and the request above",
        }],
        inspects: Inspects::File,
        bad: example!("http-request-not-separated/bad.http"),
        good: example!("http-request-not-separated/good.http"),
    }
}

impl Rule for HttpRequestNotSeparated {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for request in &file.model.requests {
            let Some(lines) = request
                .node
                .get_value(UNSEPARATED_KEY)
                .and_then(|n| n.as_seq())
            else {
                continue;
            };
            for unseparated in lines {
                let Some(line) = unseparated.get_value("line") else {
                    continue;
                };
                let mut d = Diagnostic::new(
                    &META,
                    line.span,
                    "no `###` line above this request line: the clients send it as the body of \
                     the request above",
                )
                .with_label(request.line_span, "the request it is sent with")
                .with_help("start each request after a line of `###` (a name may follow it)");
                if let Some(at) = unseparated.get_value("separator-at") {
                    d = d.with_fix(Fix::safe(
                        "insert a `###` line above the request",
                        vec![Edit {
                            span: Span::empty(at.span.start),
                            replacement: separator_line(file.text, at.span.start),
                            file: None,
                        }],
                    ));
                }
                out.push(d);
            }
        }
    }
}

/// `###` and the line break of the line above `at` (a line start).
fn separator_line(text: &str, at: usize) -> String {
    if text[..at].ends_with("\r\n") {
        "###\r\n".into()
    } else {
        "###\n".into()
    }
}

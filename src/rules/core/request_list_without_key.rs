use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::example;
use crate::loading::{Format, Span};
use crate::model::DocumentKind;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct RequestListWithoutKey {
        name: "request-list-without-key",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "requests are listed at the top level instead of under `requests:`",
        what: "Reports a document whose top level is a list whose items look like requests \
               (a mapping with `request` or `method`, or a string such as `GET /user`): a \
               file of several requests holds them under `requests:`. The items are still \
               checked as requests, so their own findings are reported too.",
        why: "Tools that send request files read the list under `requests:`; a bare list is \
              no request file to them. Reported only as a file that holds no request, it \
              would pass a CI lint step with every request in it unchecked.",
        source: "reqlint's request file format: several requests in one file (the \
                 `requests:` key), docs/request-files.md",
        fixes: &[FixMeta {
            applicability: Applicability::Safe,
            what: "the list of requests written at the top level is put under `requests:`",
        }],
        inspects: Inspects::File,
        bad: example!("request-list-without-key/bad.req.yaml"),
        good: example!("request-list-without-key/good.req.yaml"),
    }
}

/// The list under `requests:`: a YAML block list at the start of its lines takes the key
/// on the line above (YAML lets a list stand at its key's indentation, and the line takes
/// the file's line ending), a flow list at the start of its line takes it before it, its
/// other lines indented under the key (a flow collection inside a block mapping is more
/// indented than its key), a JSON list goes into an object.
fn wrap(file: &FileContext<'_>, list: Span) -> Option<Fix> {
    let text = file.text;
    let insert = |at: usize, what: &str| Edit {
        span: Span::empty(at),
        replacement: what.to_string(),
        file: None,
    };
    let at_line_start = list.start == 0 || text[..list.start].ends_with('\n');
    let edits = if file.format == Format::Json {
        vec![insert(list.start, "{\"requests\": "), insert(list.end, "}")]
    } else if !at_line_start {
        return None;
    } else if text[list.start..].starts_with('[') {
        let mut edits = vec![insert(list.start, "requests: ")];
        let body = text.get(list.range())?;
        edits.extend(
            body.match_indices('\n')
                .map(|(i, _)| list.start + i + 1)
                .filter(|&at| at < list.end && !text[at..].starts_with(['\n', '\r']))
                .map(|at| insert(at, "  ")),
        );
        // The list as it would read under the key: a flow list over several lines is
        // offered only where that still reads without a problem.
        if edits.len() > 1 {
            let local: Vec<Edit> = edits
                .iter()
                .map(|e| Edit {
                    span: Span::empty(e.span.start - list.start),
                    ..e.clone()
                })
                .collect();
            let wrapped = crate::diagnostic::apply_edits(body, &local.iter().collect::<Vec<_>>());
            let (docs, problems) = crate::loading::parse_text(
                &wrapped,
                Format::Yaml,
                &crate::loading::Limits::DEFAULT,
            );
            if !problems.is_empty() || docs.len() != 1 {
                return None;
            }
        }
        edits
    } else {
        let eol = crate::model::edits::line_break(text, list.start);
        vec![insert(list.start, &format!("requests:{eol}"))]
    };
    Some(Fix::safe("put the list under `requests:`", edits))
}

impl Rule for RequestListWithoutKey {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for doc in &file.model.documents {
            let DocumentKind::BareList { span } = doc.kind else {
                continue;
            };
            // The start of the list's first item: the whole list may be the whole file.
            let at = doc
                .root
                .as_seq()
                .and_then(|items| items.first())
                .map_or(span, |item| match item.as_map().and_then(|e| e.first()) {
                    Some(first) => first.key_span,
                    None => item.span,
                });
            out.push(
                Diagnostic::new(
                    &META,
                    at,
                    "requests are listed at the top level; a file of several requests holds them under `requests:`",
                )
                .with_help("write `requests:` on the first line and indent the list under it")
                .with_fix_opt(wrap(file, doc.root.span)),
            );
        }
    }
}

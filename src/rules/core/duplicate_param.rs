use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix, Severity};
use crate::example;
use crate::loading::readers::Reader;
use crate::loading::{Entry, Format, Node, Span, Value};
use crate::model::file::FileContext;
use crate::model::{Request, repeated_in};
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct DuplicateParam {
        name: "duplicate-param",
        group: Group::FILES,
        severity: Severity::Warning,
        summary: "a request sends the same param twice",
        what: "Reports a param that a request sends more than once: a name repeated in the \
               query string (`?status&...&status=PAUSED`, a key without a value that a \
               client such as Postman leaves behind, then the value), a query param and a body \
               param of the same name, or a key repeated in a form body. It points at each \
               earlier occurrence, with a label at the one sent last, which is the one \
               reqlint's other rules judge. A key repeated inside a YAML or JSON mapping is \
               `duplicate-key`'s, and a name that ends with `[]` is a list written one item \
               a pair, not a repetition. A query param and a body property of the same name \
               are two things to the code-hosting API, which reads them apart, and are not \
               reported there. Requests to hosts reqlint does not check are not judged.",
        why: "Both values are sent and the API reads only one of them: the Graph API the last \
              one, so an edit of the other is silently lost, and a key left without a value \
              looks like a param set to nothing. Meta does not document which occurrence it \
              reads; sending each param once leaves no doubt.",
        source: "WHATWG URL Standard, application/x-www-form-urlencoded parsing (https://url.spec.whatwg.org/#urlencoded-parsing): every pair is kept, a repeated name included, in order; Meta's Graph API overview, \"Using the Graph API\" (https://developers.facebook.com/docs/graph-api/using-graph-api/): params are given in the query string or the body",
        fixes: &[FixMeta {
            applicability: Applicability::Unsafe,
            what: "the earlier occurrence is removed where it is a whole `key` or `key=value` pair of a query string written once in a YAML request file, a `.http` or a Hurl file (`?status&limit=5&status=PAUSED` → `?limit=5&status=PAUSED`)",
        }],
        inspects: Inspects::File,
        bad: example!("duplicate-param/bad.req.yaml"),
        good: example!("duplicate-param/good.req.yaml"),
    }
}

impl Rule for DuplicateParam {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for (index, request) in file.model.requests.iter().enumerate() {
            let Some(api) = file.routes.get(index).copied().flatten() else {
                continue;
            };
            let repeated = if crate::apis::reads_query_and_body_as_one(api) {
                request.repeated_params()
            } else {
                let query = request.line().map_or(0, |l| l.query.len());
                let params: Vec<&Entry> = request.every_param().collect();
                let (in_query, in_body) = params.split_at(query.min(params.len()));
                let mut both = repeated_in(in_query);
                both.extend(repeated_in(in_body));
                both
            };
            for (earlier, sent) in repeated {
                if earlier.key.ends_with("[]") {
                    continue;
                }
                let help = if earlier.value.value == sent.value.value {
                    "both give the same value: remove the earlier one"
                } else if is_empty_value(&earlier.value) {
                    "this one has no value: remove it"
                } else {
                    "keep the value you mean, once"
                };
                let d = Diagnostic::new(
                    &META,
                    earlier.key_span,
                    format!(
                        "`{}` is sent again later; the API reads only the last one",
                        earlier.key
                    ),
                )
                .with_label(sent.key_span, "sent again here: the value the API reads")
                .with_help(help)
                .with_fix_opt(crate::model::edits::written_once_fix(
                    file,
                    removal(file, request, earlier),
                ));
                out.push(d);
            }
        }
    }
}

/// A key without a value (`?status&`), an empty string, a null.
fn is_empty_value(node: &Node) -> bool {
    match &node.value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

/// The earlier occurrence removed with one `&` beside it (or with its `?`, where it is
/// the whole query string), where it is a whole pair of the
/// request line's query string and the query string is the only place that sends it: not
/// in a JSON file (a Postman collection keeps its query twice, in `raw` and in `query`)
/// nor in a Bruno file (its `params:query` block).
fn removal(file: &FileContext<'_>, request: &Request<'_>, earlier: &Entry) -> Option<Fix> {
    let alone = matches!(
        file.format,
        Format::Yaml | Format::Read(Reader::Http | Reader::Hurl)
    );
    if !alone {
        return None;
    }
    let start = earlier.key_span.start;
    let end = earlier.key_span.end.max(earlier.value.span.end);
    let line = request.line_span;
    if start < line.start || end > line.end || start >= end {
        return None;
    }
    let pair = file.text.get(start..end)?;
    if pair.contains(|c: char| "&?#\"'\\".contains(c) || c.is_whitespace()) {
        return None;
    }
    let bytes = file.text.as_bytes();
    let before = (start > line.start).then(|| bytes[start - 1]);
    let whole_query = end == line.end || matches!(bytes.get(end), Some(b'#' | b'"' | b'\''));
    let span = if bytes.get(end) == Some(&b'&') && end < line.end {
        Span::new(start, end + 1)
    } else if before == Some(b'&') || (before == Some(b'?') && whole_query) {
        Span::new(start - 1, end)
    } else {
        return None;
    };
    Some(Fix::unsafe_(
        format!("remove the earlier `{}`", earlier.key),
        vec![Edit {
            span,
            replacement: String::new(),
            file: None,
        }],
    ))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::diagnostic::Diagnostic;
    use crate::testing::found;

    const RULE: &str = "duplicate-param";

    fn lint_as(path: &str, text: &str) -> Vec<Diagnostic> {
        let settings = crate::engine::Settings {
            config: crate::model::config::Config::defaults(".".into()),
            context: Default::default(),
            limits: crate::loading::Limits::DEFAULT,
        };
        crate::engine::lint_bytes(path, Path::new(path), text.as_bytes().to_vec(), &settings)
            .diagnostics
            .into_iter()
            .filter(|d| d.rule == RULE)
            .collect()
    }

    fn fixed(text: &str, d: &Diagnostic) -> String {
        let fix = d.fix.as_ref().expect("a fix");
        let edits: Vec<_> = fix.edits.iter().collect();
        crate::diagnostic::apply_edits(text, &edits)
    }

    #[test]
    fn a_key_without_a_value_then_the_value() {
        let yaml = "request: GET /v24.0/act_1/campaigns?status&limit=5&status=PAUSED\n";
        let f = found(RULE, "", yaml);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].at, "status");
        assert_eq!(f[0].labels, ["status"]);
        assert_eq!(f[0].help, "this one has no value: remove it");
        let d = &crate::testing::diagnostics(
            RULE,
            crate::model::config::Config::defaults(".".into()),
            "",
            yaml,
        )[0];
        assert_eq!(d.span.start, yaml.find("status").unwrap());
        assert_eq!(d.labels[0].span.start, yaml.rfind("status").unwrap());
        assert_eq!(
            fixed(yaml, d),
            "request: GET /v24.0/act_1/campaigns?limit=5&status=PAUSED\n"
        );
    }

    #[test]
    fn a_query_param_and_a_body_param() {
        let yaml = "request: POST /v24.0/act_1/campaigns?status=ACTIVE\nparams:\n  name: x\n  status: PAUSED\n";
        let d = lint_as("t.req.yaml", yaml);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(&yaml[d[0].span.range()], "status");
        assert_eq!(d[0].span.start, yaml.find("status").unwrap());
        assert_eq!(d[0].labels[0].span.start, yaml.rfind("status").unwrap());
        // The whole query string: removed with its `?`.
        assert_eq!(fixed(yaml, &d[0]), yaml.replace("?status=ACTIVE", ""));
    }

    #[test]
    fn three_times_points_at_the_two_that_are_not_read() {
        let yaml = "request: GET /v24.0/act_1/campaigns?limit=1&limit=2&limit=3\n";
        let d = lint_as("t.req.yaml", yaml);
        assert_eq!(d.len(), 2, "{d:?}");
        let last = yaml.rfind("limit").unwrap();
        assert!(d.iter().all(|d| d.labels[0].span.start == last));
        assert_eq!(&yaml[d[0].span.start..d[0].span.start + 7], "limit=1");
        assert_eq!(&yaml[d[1].span.start..d[1].span.start + 7], "limit=2");
        assert_eq!(d[0].help.as_deref(), Some("keep the value you mean, once"));
    }

    #[test]
    fn a_mapping_key_twice_is_duplicate_key_s_alone() {
        let yaml =
            "request: POST /v24.0/act_1/campaigns\nparams:\n  status: ACTIVE\n  status: PAUSED\n";
        assert!(lint_as("t.req.yaml", yaml).is_empty());
        let all = crate::testing::diagnostics(
            "duplicate-key",
            crate::model::config::Config::defaults(".".into()),
            "",
            yaml,
        );
        assert_eq!(all.len(), 1);
    }

    #[test]
    fn list_pairs_and_distinct_names_are_not_repetitions() {
        for yaml in [
            "request: GET /v24.0/act_1/campaigns?ids[]=1&ids[]=2\n",
            "request: GET /v24.0/act_1/campaigns?status=PAUSED&limit=5\n",
            "request: GET /v24.0/act_1/campaigns\nparams:\n  limit: 5\n",
        ] {
            assert!(lint_as("t.req.yaml", yaml).is_empty(), "{yaml}");
        }
    }

    #[test]
    fn a_form_body_key_twice_in_an_http_file() {
        let http = "POST https://graph.facebook.com/v24.0/act_1/campaigns\nContent-Type: application/x-www-form-urlencoded\n\nname=x&status=ACTIVE&status=PAUSED\n";
        let d = lint_as("t.http", http);
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].span.start, http.find("status").unwrap());
        // A body, not the request line's query string: not removed.
        assert!(d[0].fix.is_none());
    }

    #[test]
    fn no_removal_where_the_query_is_kept_twice() {
        let http =
            "GET https://graph.facebook.com/v24.0/act_1/campaigns?status&limit=5&status=PAUSED\n";
        let d = lint_as("t.http", http);
        assert_eq!(d.len(), 1);
        assert_eq!(
            fixed(http, &d[0]),
            "GET https://graph.facebook.com/v24.0/act_1/campaigns?limit=5&status=PAUSED\n"
        );
        let json = r#"{"request": "GET /v24.0/act_1/campaigns?status&limit=5&status=PAUSED"}"#;
        let d = lint_as("t.req.json", json);
        assert_eq!(d.len(), 1);
        assert!(d[0].fix.is_none());
    }
}

//! Which operation of the host's REST description (its OpenAPI description, compiled in
//! `crate::catalog::codehost_operations`) a code-hosting request calls, its params split as
//! the host receives them (path, query string, JSON body), and each judged against the
//! operation's: what the rules `rest-param-unknown`, `rest-param-invalid` and
//! `rest-param-missing` report. docs/codehost.md "Params and bodies" says how a request
//! file's params are read.
//!
//! What the description leaves loose is not judged: a property of an object that lists
//! none or allows others, a `oneOf`/`anyOf` value several alternatives could be meant
//! for, a `format` other than a date, a `pattern`; nor is a value that a variable whose
//! value is not known gives.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;

use crate::catalog::codehost_operations::{
    self as ops, BodyNode, Edition, Location, Operation, OperationId, Param,
};
use crate::loading::{Entry, Node, Span, Value};
use crate::model::file::FileContext;
use crate::model::{Request, Segment};

/// What a finding about a param is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A query param the operation does not take, or a body property an object that
    /// refuses others does not list.
    Unknown,
    /// A value of the wrong type, outside its enum, range or length.
    Invalid,
    /// A required query param or body property the request does not send.
    Missing,
}

/// A finding about one param of a request.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamIssue {
    pub finding: Finding,
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
    /// The one close name or value for the misspelt one written at `span`: `(old, new)`.
    pub rename: Option<(String, String)>,
    /// Where the request uses the variable whose definition holds the value judged at
    /// `span`.
    pub used_at: Option<Span>,
}

/// What the params rules of one file share, computed once for all of them.
#[derive(Default)]
struct OperationCache {
    operations: OnceCell<Vec<Option<(OperationId, Edition)>>>,
    issues: OnceCell<Vec<Vec<ParamIssue>>>,
}

/// The operation of the host's REST description request `index` calls, and the edition
/// that describes it; `None` when it is not a code-hosting request, when its path is no
/// operation, or when variables whose values are not known may make it one of several.
pub fn operation_of(file: &FileContext<'_>, index: usize) -> Option<(OperationId, Edition)> {
    let all = file
        .memo
        .get::<OperationCache>()
        .operations
        .get_or_init(|| {
            (0..file.model.requests.len())
                .map(|i| find_operation(file, i))
                .collect()
        });
    all.get(index).copied().flatten()
}

fn find_operation(file: &FileContext<'_>, index: usize) -> Option<(OperationId, Edition)> {
    if !file.routed_to(index, super::ID) {
        return None;
    }
    let line = file.model.requests[index].line()?;
    if super::one_of_several(file, index) {
        return None;
    }
    let (id, edition) = operation_of_line(line, file.config)?;
    // `/user/followings` is no `GET /user/{account_id}` (an unknown path, which
    // unknown-endpoint reports); `/repos/o/r/issues/abc` is an issue whose number is a
    // word, where the permission tables list the path.
    let listed = super::rows(file, index)
        .iter()
        .any(|row| row.method == line.method);
    let operation = ops::get(id);
    if !listed
        && !path_values(
            operation,
            edition,
            operation_segments(line, operation, edition),
        )
        .iter()
        .all(|(param, segment)| integer_fits(param, segment))
    {
        return None;
    }
    Some((id, edition))
}

/// The segments of a request line that are the operation's path: without its server's
/// prefix (`api/v3`, `api/uploads`) where the line has it, else without an enterprise
/// server's `api/v3`.
fn operation_segments<'l>(
    line: &'l crate::model::RequestLine,
    operation: &Operation,
    edition: Edition,
) -> &'l [Segment] {
    let prefix = operation.path_prefix(edition);
    let has_prefix = line.segments.len() >= prefix.len()
        && line.segments.iter().zip(&prefix).all(|(s, p)| s.text == *p);
    let skip = if has_prefix {
        prefix.len()
    } else {
        line.segments.len() - super::path_segments(line).len()
    };
    &line.segments[skip..]
}

/// The request's path params: each single-segment param of the template with the segment
/// that gives its value (a multi-segment one, `{path}`, and a segment that mixes text and
/// params, `{base}...{head}`, are strings and left out).
fn path_values<'s>(
    operation: &Operation,
    edition: Edition,
    segments: &'s [Segment],
) -> Vec<(&'static Param, &'s Segment)> {
    fn placeholder(written: &str) -> Option<&str> {
        written
            .strip_prefix('{')
            .and_then(|n| n.strip_suffix('}'))
            .filter(|n| !n.contains(['{', '}']))
    }
    // `/user`, `/rate_limit`: a template without params pairs nothing.
    if !operation.template().contains('{') {
        return Vec::new();
    }
    // Each segment of the template, with the path param it is when it is one alone
    // (each looked up once).
    let template: Vec<Option<&'static Param>> = operation
        .template()
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|written| {
            let name = placeholder(written)?;
            operation
                .params(edition)
                .find(|p| p.location == Location::Path && p.name() == name)
        })
        .collect();
    let multi = template
        .iter()
        .position(|p| p.is_some_and(|p| p.multi_segment));
    // Before a multi-segment param the segments line up from the start, after it from
    // the end; without one, the path's last segments are the template's.
    let mut values = Vec::new();
    let mut pair = |params: &[Option<&'static Param>], given: &'s [Segment]| {
        for (param, segment) in params.iter().zip(given) {
            if let Some(param) = param
                && !param.multi_segment
            {
                values.push((*param, segment));
            }
        }
    };
    match multi {
        Some(m) => {
            pair(&template[..m], segments);
            let after = template.len() - m - 1;
            if segments.len() >= m + 1 + after {
                pair(&template[m + 1..], &segments[segments.len() - after..]);
            }
        }
        None if segments.len() >= template.len() => {
            pair(&template, &segments[segments.len() - template.len()..]);
        }
        None => {}
    }
    values
}

/// Whether a path segment fits its integer param: digits, or a variable.
fn integer_fits(param: &Param, segment: &Segment) -> bool {
    param.kind() != "integer" || segment.holds_unknown_variable() || is_integer_text(&segment.text)
}

/// Where the params a request writes in `params` go (docs/codehost.md, "Params and
/// bodies").
#[derive(Debug, Default)]
pub struct SentParams<'r> {
    /// Path params with the segment that gives each.
    pub path: Vec<(&'static Param, &'r Segment)>,
    /// The query string's pairs, then the `params` that go to the query string.
    pub query: Vec<&'r Entry>,
    /// The `params` that are the JSON body's properties.
    pub body: Vec<&'r Entry>,
    /// The `params` entry that is the whole body (an operation whose body is an array,
    /// which the host names: `labels`).
    pub whole_body: Option<&'r Entry>,
    /// Every query param the request sends is known (no query string or `params` that
    /// is a variable whose value is not known).
    pub query_known: bool,
    /// The whole body is known (none left unread, no `params` that is a variable whose
    /// value is not known, no upload).
    pub body_known: bool,
}

/// The request's params as the host receives them for `operation`: the query string's
/// pairs are query params; a `params` mapping is the query string of an operation that
/// takes no body (a GET's), else the JSON body, but for names that are the operation's
/// query params and not its body's properties. `lists_calls`: the request is written in
/// reqlint's own format, where a request without `params` names a call (for its token's
/// permissions) and says nothing of its body, nor, without a query string, of its query.
pub fn sent_params<'r>(
    request: &'r Request<'_>,
    id: OperationId,
    edition: Edition,
    lists_calls: bool,
) -> SentParams<'r> {
    let operation = ops::get(id);
    let seen = !request.may_send_unknown_params();
    let Some(line) = request.line() else {
        return SentParams::default();
    };
    let unwritten = lists_calls && request.params.is_none();
    let mut sent = SentParams {
        query_known: seen && !(unwritten && line.query.is_empty()),
        body_known: seen && !unwritten,
        ..SentParams::default()
    };
    sent.path = path_values(
        operation,
        edition,
        operation_segments(line, operation, edition),
    );
    sent.query.extend(line.query.iter());
    let mapped: &[Entry] = match (&request.substituted_params, request.params) {
        (Some(entries), _) => entries,
        (None, Some(params)) => match params.value.as_map() {
            Some(entries) => entries,
            None => {
                // `params: "{{body}}"`: what it holds is not known.
                sent.query_known = false;
                sent.body_known = false;
                return sent;
            }
        },
        (None, None) => &[],
    };
    let root = operation.body_schema(edition).next();
    let media = operation.body_media_types();
    // An operation has a few path and query params: a walk over them costs less than a
    // set of their names would.
    let is_param = |name: &str, location: Location| {
        operation
            .params(edition)
            .any(|p| p.location == location && p.name() == name)
    };
    let is_query = |name: &str| is_param(name, Location::Query);
    let is_path = |name: &str| is_param(name, Location::Path);
    // The body's own properties and its alternatives' (`$.name`, `$|2.name`), for the
    // params there are.
    let properties = (!mapped.is_empty()).then(|| root_properties(id, edition));
    let root_property = |name: &str| properties.as_ref().is_some_and(|p| p.contains(name));
    for entry in mapped {
        let name = entry.key.as_str();
        if is_path(name) && !root_property(name) {
            // A path param written again as a param (as Octokit takes them): the path
            // says it.
        } else if root.is_none() {
            if media.is_empty() || is_query(name) {
                sent.query.push(entry);
            } else {
                // A body the description does not give as JSON (an upload, raw text).
                sent.query_known = false;
                sent.body_known = false;
            }
        } else if is_query(name) && !root_property(name) {
            sent.query.push(entry);
        } else if operation.body_param() == Some(name) && !root_property(name) {
            sent.whole_body = Some(entry);
        } else {
            sent.body.push(entry);
        }
    }
    // Of a query param given more than once, the host reads the last (duplicate-param
    // warns at the others).
    if sent.query.len() > 1 {
        let mut last: HashMap<&str, usize> = HashMap::new();
        for (at, entry) in sent.query.iter().enumerate() {
            last.insert(entry.key.as_str(), at);
        }
        let mut at = 0;
        sent.query.retain(|entry| {
            at += 1;
            last.get(entry.key.as_str()) == Some(&(at - 1))
        });
    }
    sent
}

thread_local! {
    /// The names of the properties of the operations' bodies and of their alternatives,
    /// for the operations this thread has read params for (see [`SCHEMAS`]).
    static ROOT_PROPERTIES: RootProperties = RootProperties::default();
}

type RootProperties = std::cell::RefCell<
    HashMap<(OperationId, Edition), std::rc::Rc<std::collections::HashSet<Cow<'static, str>>>>,
>;

/// The names of the properties of operation `id`'s body and of its alternatives in
/// `edition` (`$.name`, `$|2.name`), gathered once per thread.
fn root_properties(
    id: OperationId,
    edition: Edition,
) -> std::rc::Rc<std::collections::HashSet<Cow<'static, str>>> {
    ROOT_PROPERTIES.with(|all| {
        std::rc::Rc::clone(all.borrow_mut().entry((id, edition)).or_insert_with(|| {
            std::rc::Rc::new(
                ops::get(id)
                    .body_schema(edition)
                    .filter_map(|n| root_property_name(n.property()))
                    .collect(),
            )
        }))
    })
}

/// The name of a property of the body itself or of one of its alternatives (`$.name`,
/// `$|2.name` → `name`); `None` for a deeper one. A body may have hundreds of nodes: only
/// an alternative's property is written anew.
fn root_property_name(property: &'static str) -> Option<Cow<'static, str>> {
    let name_of = |p: &str| {
        p.strip_prefix("$.")
            .filter(|name| !name.contains(['.', '[', '{']))
            .map(str::len)
    };
    if property.contains('|') {
        let stripped = strip_alternative(property);
        let len = name_of(&stripped)?;
        Some(Cow::Owned(stripped[stripped.len() - len..].to_string()))
    } else {
        let len = name_of(property)?;
        Some(Cow::Borrowed(&property[property.len() - len..]))
    }
}

/// `$|2.name` → `$.name`: a property of an alternative, as the body's own.
fn strip_alternative(property: &str) -> String {
    let mut out = String::with_capacity(property.len());
    let mut chars = property.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '|' {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The param findings of request `index` (none when [`operation_of`] finds no
/// operation).
pub fn issues<'f>(file: &'f FileContext<'_>, index: usize) -> &'f [ParamIssue] {
    let all = file.memo.get::<OperationCache>().issues.get_or_init(|| {
        let lists_calls = !matches!(
            crate::loading::Format::from_path(file.path),
            crate::loading::Format::Read(_)
        );
        (0..file.model.requests.len())
            .map(|i| match operation_of(file, i) {
                Some((id, edition)) => {
                    check_request(&file.model.requests[i], id, edition, lists_calls)
                }
                None => Vec::new(),
            })
            .collect()
    });
    all.get(index).map(Vec::as_slice).unwrap_or_default()
}

/// Every finding about a request's params for `operation` in `edition`.
pub fn check_request(
    request: &Request<'_>,
    id: OperationId,
    edition: Edition,
    lists_calls: bool,
) -> Vec<ParamIssue> {
    let operation = ops::get(id);
    let sent = sent_params(request, id, edition, lists_calls);
    let call = Call { operation, edition };
    let mut out = Vec::new();
    for (param, segment) in &sent.path {
        if !integer_fits(param, segment) {
            out.push(call.issue(
                Finding::Invalid,
                segment.span,
                format!(
                    "`{}` must be an integer, not `{}`: the API answers 404 Not Found",
                    param.name(),
                    segment.text
                ),
                None,
            ));
        }
    }
    for entry in &sent.query {
        let start = out.len();
        call.check_query_param(&sent.query, entry, &mut out);
        attribute_variables(request, entry, &mut out[start..]);
    }
    // The body's schema is asked only about a body the request sends or is known not
    // to send.
    let judges_body = sent.whole_body.is_some() || !sent.body.is_empty() || sent.body_known;
    let schema = judges_body.then(|| schema_of(id, edition));
    if let Some(schema) = &schema
        && let Some(root) = schema.root
    {
        if let Some(entry) = sent.whole_body {
            let start = out.len();
            schema.check(
                &call,
                root,
                entry.key.as_str(),
                &entry.value,
                Some(entry.key_span),
                &mut out,
            );
            attribute_variables(request, entry, &mut out[start..]);
        } else if !sent.body.is_empty() {
            let at = request.params.map_or(request.line_span, |e| e.key_span);
            let mut found = Vec::new();
            schema.check_fields(&call, root, "", &sent.body, at, sent.body_known, &mut found);
            // The entry an issue is about is the last that starts at or before it (in the
            // order written: a merge key's entries stand where their anchor is).
            let mut written = sent.body.clone();
            written.sort_by_key(|e| e.key_span.start);
            for issue in &mut found {
                let after = written.partition_point(|e| e.key_span.start <= issue.span.start);
                if let Some(entry) = after.checked_sub(1).map(|k| written[k]) {
                    let whole = entry.key_span.cover(entry.value.span);
                    if whole.start <= issue.span.start && issue.span.end <= whole.end {
                        attribute_variables(request, entry, std::slice::from_mut(issue));
                    }
                }
            }
            out.extend(found);
        } else if sent.body_known && schema.describes_fields(root) {
            let at = request.params.map_or(request.line_span, |e| e.key_span);
            schema.check_fields(&call, root, "", &[], at, true, &mut out);
        }
    }
    if sent.query_known {
        let at = request.params.map_or(request.line_span, |e| e.key_span);
        for param in operation
            .params(edition)
            .filter(|p| p.location == Location::Query && p.required)
        {
            if !sent.query.iter().any(|e| e.key == param.name()) {
                out.push(call.issue(
                    Finding::Missing,
                    at,
                    format!(
                        "{} requires the query param `{}`: the API answers 422 Unprocessable Entity",
                        call.describe(),
                        param.name()
                    ),
                    Some(format!("add `{}`, {}", param.name(), describe_kind(param.kind()))),
                ));
            }
        }
    }
    out
}

thread_local! {
    /// The body schemas of the operations this thread has judged requests of: derived
    /// from the compiled tables alone, so the same for every request that calls an
    /// operation (at most one per operation and edition).
    static SCHEMAS: std::cell::RefCell<HashMap<(OperationId, Edition), std::rc::Rc<Schema>>> =
        std::cell::RefCell::default();
}

/// [`Schema::of`] operation `id` in `edition`, built once per thread.
fn schema_of(id: OperationId, edition: Edition) -> std::rc::Rc<Schema> {
    SCHEMAS.with(|schemas| {
        std::rc::Rc::clone(
            schemas
                .borrow_mut()
                .entry((id, edition))
                .or_insert_with(|| std::rc::Rc::new(Schema::of(ops::get(id), edition))),
        )
    })
}

/// A value variables gave: a finding about it points at the definition where the file
/// holds it, naming the use, and has no fix (an edit of the definition changes every
/// use).
fn attribute_variables(request: &Request<'_>, entry: &Entry, issues: &mut [ParamIssue]) {
    for issue in issues {
        if let Some(u) = request.variable_use_at(entry, issue.span) {
            issue.used_at = (u.used != u.value).then_some(u.used);
            issue.rename = None;
        }
    }
}

/// The operation a request calls, for messages.
struct Call<'o> {
    operation: &'o Operation,
    edition: Edition,
}

impl Call<'_> {
    fn describe(&self) -> String {
        format!("`{} {}`", self.operation.method, self.operation.template())
    }

    fn issue(
        &self,
        finding: Finding,
        span: Span,
        message: String,
        help: Option<String>,
    ) -> ParamIssue {
        // Written only for a finding: most requests have none.
        let docs = self.operation.docs_url(self.edition);
        let docs = docs.as_deref();
        let help = match (help, docs) {
            (Some(h), Some(d)) => Some(format!("{h} ({d})")),
            (Some(h), None) => Some(h),
            (None, Some(d)) => Some(format!("see {d}")),
            (None, None) => None,
        };
        ParamIssue {
            finding,
            span,
            message,
            help,
            rename: None,
            used_at: None,
        }
    }

    /// `sent`: the query params the request sends, which a rename may not take.
    fn check_query_param(&self, sent: &[&Entry], entry: &Entry, out: &mut Vec<ParamIssue>) {
        let name = entry.key.as_str();
        let params: Vec<&'static Param> = self
            .operation
            .params(self.edition)
            .filter(|p| p.location == Location::Query)
            .collect();
        let Some(param) = params.iter().find(|p| p.name() == name) else {
            let names: Vec<&str> = params.iter().map(|p| p.name()).collect();
            let close = crate::suggest::only_close(name, names.iter().copied())
                .filter(|new| !sent.iter().any(|e| e.key == *new));
            let help = match (close, names.is_empty()) {
                (Some(new), _) => format!("did you mean `{new}`?"),
                (None, true) => format!("{} takes no query params", self.describe()),
                (None, false) => format!("it takes {}", list(&names)),
            };
            let mut issue = self.issue(
                Finding::Unknown,
                entry.key_span,
                format!(
                    "unknown query param `{name}` for {}: the API ignores it",
                    self.describe()
                ),
                Some(help),
            );
            issue.rename = close.map(|new| (name.to_string(), new.to_string()));
            out.push(issue);
            return;
        };
        let value = &entry.value;
        // `?state=` or `?state`: the host reads an empty value as none given.
        if is_empty_text(value) || is_placeholder(value) {
            return;
        }
        let kind = param.kind();
        let items: Vec<&Node> = match (&value.value, kind.starts_with("array<")) {
            (Value::Seq(items), true) => items.iter().collect(),
            (_, true) => return,
            _ => vec![value],
        };
        let item_kind = kind
            .strip_prefix("array<")
            .and_then(|k| k.strip_suffix('>'))
            .unwrap_or(kind);
        for item in items {
            if is_placeholder(item) {
                continue;
            }
            let rule = Rule {
                kind: item_kind,
                as_text: true,
                format: param.format(),
                values: param.values_json(),
                constraints: param.constraints_json(),
                nullable: false,
            };
            self.check_scalar(&rule, name, item, out);
        }
    }

    /// A value against a scalar rule (`kind` one type or `T|U`).
    fn check_scalar(&self, rule: &Rule<'_>, name: &str, value: &Node, out: &mut Vec<ParamIssue>) {
        if matches!(value.value, Value::Null) {
            if !rule.nullable
                && !rule
                    .kind
                    .split(['|', ','])
                    .any(|k| k == "null" || k == "any")
            {
                out.push(self.issue(
                    Finding::Invalid,
                    value.span,
                    format!(
                        "`{name}` must be {}, not null: the API answers 422 Unprocessable Entity",
                        describe_kind(rule.kind)
                    ),
                    None,
                ));
            }
            return;
        }
        let text = rule.as_text && matches!(value.value, Value::Number(_) | Value::Bool(_));
        if !rule
            .kind
            .split(['|', ','])
            .any(|k| fits_type(k, value) || (text && k == "string"))
        {
            out.push(self.issue(
                Finding::Invalid,
                value.span,
                format!(
                    "`{name}` must be {}, not {}: the API answers 422 Unprocessable Entity",
                    describe_kind(rule.kind),
                    value.kind_name()
                ),
                None,
            ));
            return;
        }
        if let Some(issue) = self.enum_issue(rule.values, name, value) {
            out.push(issue);
            return;
        }
        if let Some(issue) = self.constraint_issue(rule.constraints, name, value) {
            out.push(issue);
            return;
        }
        if matches!(rule.format, "date-time" | "date")
            && let Value::String(text) = &value.value
            && !is_date(text)
        {
            out.push(self.issue(
                Finding::Invalid,
                value.span,
                format!(
                    "`{name}` must be an ISO 8601 {}, not `{text}`: the API answers 422 Unprocessable Entity",
                    if rule.format == "date" { "date" } else { "timestamp" }
                ),
                Some("as `2026-01-31T12:00:00Z`".into()),
            ));
        }
    }

    fn enum_issue(&self, values_json: &str, name: &str, value: &Node) -> Option<ParamIssue> {
        if values_json.is_empty() {
            return None;
        }
        let values: Vec<serde_json::Value> = serde_json::from_str(values_json).ok()?;
        let text = value.scalar_text()?;
        if values.iter().any(|v| same_scalar(v, &text)) {
            return None;
        }
        let words: Vec<&str> = values
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect();
        let close = matches!(value.value, Value::String(_))
            .then(|| crate::suggest::only_close(&text, words.iter().copied()))
            .flatten();
        let shown: Vec<String> = values.iter().map(scalar_shown).collect();
        let help = match crate::suggest::did_you_mean(&text, words.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!(
                "the values are {}",
                list(&shown.iter().map(String::as_str).collect::<Vec<_>>())
            ),
        };
        let mut issue = self.issue(
            Finding::Invalid,
            value.span,
            format!("`{name}` `{text}` is not one of its values: the API answers 422 Unprocessable Entity"),
            Some(help),
        );
        issue.rename = close.map(|new| (text.to_string(), new.to_string()));
        Some(issue)
    }

    fn constraint_issue(&self, constraints: &str, name: &str, value: &Node) -> Option<ParamIssue> {
        if constraints.is_empty() {
            return None;
        }
        let limits: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(constraints).ok()?;
        let limit = |key: &str| limits.get(key).and_then(serde_json::Value::as_f64);
        let invalid = |message: String| {
            Some(self.issue(
                Finding::Invalid,
                value.span,
                format!("{message}: the API answers 422 Unprocessable Entity"),
                None,
            ))
        };
        let number = match &value.value {
            Value::Number(_) => value.as_f64(),
            Value::String(s) if is_number_text(s) => s.trim().parse().ok(),
            _ => None,
        };
        if let Some(n) = number {
            let text = value.scalar_text().unwrap_or_default();
            if let Some(min) = limit("minimum").filter(|&m| n < m) {
                return invalid(format!(
                    "`{name}` is {text}; the API takes at least {}",
                    shown_number(min)
                ));
            }
            if let Some(max) = limit("maximum").filter(|&m| n > m) {
                return invalid(format!(
                    "`{name}` is {text}; the API takes at most {}",
                    shown_number(max)
                ));
            }
        }
        if let Value::String(s) = &value.value {
            let chars = s.chars().count() as f64;
            if let Some(min) = limit("minLength").filter(|&m| chars < m) {
                return invalid(format!(
                    "`{name}` is {chars} characters long; the API takes at least {}",
                    shown_number(min)
                ));
            }
            if let Some(max) = limit("maxLength").filter(|&m| chars > m) {
                return invalid(format!(
                    "`{name}` is {chars} characters long; the API takes at most {}",
                    shown_number(max)
                ));
            }
        }
        if let Value::Seq(items) = &value.value {
            let n = items.len() as f64;
            if let Some(min) = limit("minItems").filter(|&m| n < m) {
                return invalid(format!(
                    "`{name}` has {n} items; the API takes at least {}",
                    shown_number(min)
                ));
            }
            if let Some(max) = limit("maxItems").filter(|&m| n > m) {
                return invalid(format!(
                    "`{name}` has {n} items; the API takes at most {}",
                    shown_number(max)
                ));
            }
        }
        None
    }
}

/// What a value must be, as the description's param or node says it.
struct Rule<'s> {
    kind: &'s str,
    /// A query string's value: text, whatever YAML type it is written with.
    as_text: bool,
    format: &'s str,
    values: &'s str,
    constraints: &'s str,
    nullable: bool,
}

/// One step of a body node's property path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step<'p> {
    Property(&'p str),
    Items,
    Others,
    Alternative,
}

/// A JSON body's schema nodes, linked parent to children.
struct Schema {
    nodes: Vec<&'static BodyNode>,
    root: Option<usize>,
    children: HashMap<usize, Vec<(Step<'static>, usize)>>,
}

impl Schema {
    fn of(operation: &Operation, edition: Edition) -> Schema {
        let nodes: Vec<&'static BodyNode> = operation.body_schema(edition).collect();
        let at: HashMap<&'static str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.property(), i))
            .collect();
        let mut children: HashMap<usize, Vec<(Step<'static>, usize)>> = HashMap::new();
        for (i, node) in nodes.iter().enumerate() {
            if let Some((parent, step)) = parent_step(node.property())
                && let Some(&p) = at.get(parent)
            {
                children.entry(p).or_default().push((step, i));
            }
        }
        let root = at.get("$").copied();
        Schema {
            nodes,
            root,
            children,
        }
    }

    fn node_kind(&self, node: usize) -> &'static str {
        self.nodes[node].kind()
    }

    fn children(&self, node: usize) -> impl Iterator<Item = (Step<'static>, usize)> + '_ {
        self.children.get(&node).into_iter().flatten().copied()
    }

    fn property(&self, node: usize, name: &str) -> Option<usize> {
        self.children(node)
            .find(|(s, _)| *s == Step::Property(name))
            .map(|(_, i)| i)
    }

    fn child(&self, node: usize, step: Step<'_>) -> Option<usize> {
        self.children(node)
            .find(|(s, _)| *s == step)
            .map(|(_, i)| i)
    }

    fn alternatives(&self, node: usize) -> Vec<usize> {
        self.children(node)
            .filter(|(s, _)| *s == Step::Alternative)
            .map(|(_, i)| i)
            .collect()
    }

    /// `value`, named `name` in messages, against schema node `node`. `key`: the key
    /// span of the entry whose value it is, where a missing property is reported.
    fn check(
        &self,
        call: &Call<'_>,
        node: usize,
        name: &str,
        value: &Node,
        key: Option<Span>,
        out: &mut Vec<ParamIssue>,
    ) {
        crate::loading::work::count(1);
        if is_placeholder(value) {
            return;
        }
        let schema = self.nodes[node];
        let kind = schema.kind();
        if matches!(value.value, Value::Null) && (schema.nullable() || kind == "any") {
            return;
        }
        if let Value::Map(entries) = &value.value
            && self.describes_fields(node)
        {
            let entries: Vec<&Entry> = entries.iter().collect();
            let at = key.unwrap_or(value.span);
            self.check_fields(call, node, name, &entries, at, true, out);
            return;
        }
        if is_alternatives(kind) {
            self.check_alternatives(call, node, name, value, key, out);
            return;
        }
        if kind.is_empty() || kind == "any" || kind.starts_with("recursive:") {
            return;
        }
        match (&value.value, kind) {
            (Value::Seq(items), "array") => {
                if let Some(issue) = call.constraint_issue(schema.constraints_json(), name, value) {
                    out.push(issue);
                }
                if let Some(child) = self.child(node, Step::Items) {
                    for (k, item) in items.iter().enumerate() {
                        self.check(call, child, &format!("{name}[{k}]"), item, None, out);
                    }
                }
            }
            _ => {
                let rule = Rule {
                    kind,
                    as_text: false,
                    format: schema.format(),
                    values: schema.values_json(),
                    constraints: schema.constraints_json(),
                    nullable: schema.nullable(),
                };
                call.check_scalar(&rule, name, value, out);
            }
        }
    }

    /// A value that one of several schemas describes: it is judged where it fits none,
    /// and only against the one alternative it can have been meant for (the one of its
    /// type, or the one object alternative that lists each of its keys).
    fn check_alternatives(
        &self,
        call: &Call<'_>,
        node: usize,
        name: &str,
        value: &Node,
        key: Option<Span>,
        out: &mut Vec<ParamIssue>,
    ) {
        let alternatives = self.alternatives(node);
        let mut judged = Vec::new();
        for &alternative in &alternatives {
            let mut found = Vec::new();
            self.check(call, alternative, name, value, key, &mut found);
            if found.is_empty() {
                return;
            }
            judged.push((alternative, found));
        }
        let loose = |k: &str| k.is_empty() || k == "any" || k.starts_with("recursive:");
        if alternatives.is_empty() || alternatives.iter().any(|&a| loose(self.node_kind(a))) {
            return;
        }
        let of_type: Vec<&(usize, Vec<ParamIssue>)> = judged
            .iter()
            .filter(|(a, _)| self.may_be_meant(*a, value))
            .collect();
        match of_type.as_slice() {
            [] => {
                let kinds: Vec<&str> = alternatives.iter().map(|&a| self.node_kind(a)).collect();
                if kinds.iter().any(|k| k.contains('-')) {
                    return;
                }
                out.push(call.issue(
                    Finding::Invalid,
                    value.span,
                    format!(
                        "`{name}` must be {}, not {}: the API answers 422 Unprocessable Entity",
                        describe_kind(&kinds.join("|")),
                        value.kind_name()
                    ),
                    None,
                ));
            }
            [(_, found)] => out.extend(found.iter().cloned()),
            _ => {}
        }
    }

    /// Whether `value` can have been meant for alternative `node`: it is of its type,
    /// and a mapping's keys are all the alternative's properties.
    fn may_be_meant(&self, node: usize, value: &Node) -> bool {
        let kind = self.node_kind(node);
        if !kind.split(',').any(|k| fits_type(k, value)) {
            return false;
        }
        match &value.value {
            Value::Map(entries) if kind == "object" => {
                entries
                    .iter()
                    .all(|e| self.property(node, &e.key).is_some())
                    || self.child(node, Step::Others).is_some()
            }
            _ => true,
        }
    }

    /// Whether node `node` says what an object's fields are: an object, a schema that
    /// lists properties beside its alternatives or without a type, or alternatives of
    /// which one is an object.
    fn describes_fields(&self, node: usize) -> bool {
        let kind = self.node_kind(node);
        kind == "object"
            || !self.own_properties(node).is_empty()
            || (is_alternatives(kind)
                && self
                    .alternatives(node)
                    .iter()
                    .any(|&a| self.describes_fields(a)))
    }

    fn own_properties(&self, node: usize) -> Vec<(&'static str, usize)> {
        self.children(node)
            .filter_map(|(s, i)| match s {
                Step::Property(p) => Some((p, i)),
                _ => None,
            })
            .collect()
    }

    /// An object's fields against node `node` (`prefix` names it in messages, empty for
    /// the body itself; `at` is where a missing property is reported): its own
    /// properties, then its alternatives.
    #[allow(clippy::too_many_arguments)]
    fn check_fields(
        &self,
        call: &Call<'_>,
        node: usize,
        prefix: &str,
        entries: &[&Entry],
        at: Span,
        complete: bool,
        out: &mut Vec<ParamIssue>,
    ) {
        let kind = self.node_kind(node);
        let alternatives = if is_alternatives(kind) {
            self.alternatives(node)
        } else {
            Vec::new()
        };
        let own = self.own_properties(node);
        if kind == "object" || !own.is_empty() {
            let others = self.child(node, Step::Others);
            let closed = self.nodes[node].closed() && others.is_none();
            let mut listed: Vec<&str> = own.iter().map(|(p, _)| *p).collect();
            for &alternative in &alternatives {
                listed.extend(self.own_properties(alternative).iter().map(|(p, _)| *p));
            }
            let keys: std::collections::HashSet<&str> =
                entries.iter().map(|e| e.key.as_str()).collect();
            let loose_alternative = alternatives
                .iter()
                .any(|&a| self.node_kind(a) != "object" || self.child(a, Step::Others).is_some());
            for entry in entries {
                let key = entry.key.as_str();
                let name = if prefix.is_empty() {
                    key.to_string()
                } else {
                    format!("{prefix}.{key}")
                };
                match self.property(node, key).or(others) {
                    Some(child) => {
                        self.check(call, child, &name, &entry.value, Some(entry.key_span), out)
                    }
                    None if closed && !loose_alternative && !listed.contains(&key) => {
                        out.push(self.unknown_property(call, prefix, &keys, entry, &listed));
                    }
                    None => {}
                }
            }
            if complete {
                self.missing_properties(call, node, prefix, &keys, at, out);
            }
        }
        if !alternatives.is_empty() {
            self.fields_against_alternatives(
                call,
                &alternatives,
                prefix,
                entries,
                at,
                complete,
                out,
            );
        }
    }

    fn unknown_property(
        &self,
        call: &Call<'_>,
        prefix: &str,
        keys: &std::collections::HashSet<&str>,
        entry: &Entry,
        listed: &[&str],
    ) -> ParamIssue {
        let key = entry.key.as_str();
        let close = crate::suggest::only_close(key, listed.iter().copied())
            .filter(|new| !keys.contains(new));
        let help = match close {
            Some(new) => format!("did you mean `{new}`?"),
            None => format!("it takes {}", list(listed)),
        };
        let place = if prefix.is_empty() {
            "the body".to_string()
        } else {
            format!("`{prefix}`")
        };
        let mut issue = call.issue(
            Finding::Unknown,
            entry.key_span,
            format!(
                "unknown property `{key}` in {place} of {}, which takes no other: the API answers 422 Unprocessable Entity",
                call.describe()
            ),
            Some(help),
        );
        issue.rename = close.map(|new| (key.to_string(), new.to_string()));
        issue
    }

    /// An object's fields against the alternatives of a `oneOf`/`anyOf`: nothing where one
    /// takes them; else the findings of the one they were meant for, told by a property
    /// each alternative gives its own values (`type: creation` of a ruleset's rule) or by
    /// their keys, and a value of that property that no alternative has.
    #[allow(clippy::too_many_arguments)]
    fn fields_against_alternatives(
        &self,
        call: &Call<'_>,
        alternatives: &[usize],
        prefix: &str,
        entries: &[&Entry],
        at: Span,
        complete: bool,
        out: &mut Vec<ParamIssue>,
    ) {
        if alternatives.iter().any(|&a| !self.describes_fields(a)) {
            return;
        }
        let mut judged = Vec::new();
        for &alternative in alternatives {
            let mut found = Vec::new();
            self.check_fields(call, alternative, prefix, entries, at, complete, &mut found);
            if found.is_empty() {
                return;
            }
            judged.push((alternative, found));
        }
        // A property whose values tell the alternatives apart.
        let enum_of = |alternative: usize, name: &str| -> Option<Vec<serde_json::Value>> {
            let property = self.property(alternative, name)?;
            serde_json::from_str(self.nodes[property].values_json()).ok()
        };
        for entry in entries {
            let Some(text) = entry.value.as_str() else {
                continue;
            };
            let values: Option<Vec<Vec<serde_json::Value>>> = alternatives
                .iter()
                .map(|&a| enum_of(a, &entry.key))
                .collect();
            let Some(values) = values else {
                continue;
            };
            if is_placeholder(&entry.value) {
                return;
            }
            let meant: Vec<usize> = (0..alternatives.len())
                .filter(|&k| values[k].iter().any(|v| same_scalar(v, text)))
                .collect();
            match meant.as_slice() {
                [] => {
                    let all: Vec<serde_json::Value> = values.into_iter().flatten().collect();
                    let json = serde_json::Value::Array(all).to_string();
                    let name = if prefix.is_empty() {
                        entry.key.to_string()
                    } else {
                        format!("{prefix}.{}", entry.key)
                    };
                    out.extend(call.enum_issue(&json, &name, &entry.value));
                    return;
                }
                [k] => {
                    out.extend(judged[*k].1.iter().cloned());
                    return;
                }
                _ => {}
            }
        }
        let meant: Vec<&(usize, Vec<ParamIssue>)> = judged
            .iter()
            .filter(|(a, _)| {
                entries.iter().all(|e| {
                    self.property(*a, &e.key).is_some() || self.child(*a, Step::Others).is_some()
                })
            })
            .collect();
        if let [(_, found)] = meant.as_slice() {
            out.extend(found.iter().cloned());
        }
    }

    fn missing_properties(
        &self,
        call: &Call<'_>,
        node: usize,
        prefix: &str,
        keys: &std::collections::HashSet<&str>,
        at: Span,
        out: &mut Vec<ParamIssue>,
    ) {
        for (step, child) in self.children(node) {
            let Step::Property(name) = step else {
                continue;
            };
            let schema = self.nodes[child];
            if !schema.required || schema.read_only() || keys.contains(name) {
                continue;
            }
            let whose = if prefix.is_empty() {
                format!("{} requires `{name}` in its body", call.describe())
            } else {
                format!("`{prefix}` requires `{name}`")
            };
            out.push(call.issue(
                Finding::Missing,
                at,
                format!("{whose}: the API answers 422 Unprocessable Entity"),
                Some(format!("add `{name}`, {}", self.describe_node(child))),
            ));
        }
    }

    fn describe_node(&self, node: usize) -> String {
        let kind = self.node_kind(node);
        if kind.starts_with("one-of:") || kind.starts_with("any-of:") {
            let kinds: Vec<&str> = self
                .alternatives(node)
                .iter()
                .map(|&a| self.node_kind(a))
                .collect();
            return describe_kind(&kinds.join("|"));
        }
        let values = self.nodes[node].values_json();
        if !values.is_empty()
            && let Ok(values) = serde_json::from_str::<Vec<serde_json::Value>>(values)
        {
            let shown: Vec<String> = values.iter().map(scalar_shown).collect();
            return format!(
                "one of {}",
                list(&shown.iter().map(String::as_str).collect::<Vec<_>>())
            );
        }
        describe_kind(kind)
    }
}

fn is_alternatives(kind: &str) -> bool {
    kind.starts_with("one-of:") || kind.starts_with("any-of:")
}

/// The parent of a body node's property path and the last step to it.
fn parent_step(path: &str) -> Option<(&str, Step<'_>)> {
    if let Some(parent) = path.strip_suffix("[]") {
        return Some((parent, Step::Items));
    }
    if let Some(parent) = path.strip_suffix("{}") {
        return Some((parent, Step::Others));
    }
    if let Some(bar) = path.rfind('|') {
        let digits = &path[bar + 1..];
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            return Some((&path[..bar], Step::Alternative));
        }
    }
    let dot = path.rfind('.')?;
    let name = &path[dot + 1..];
    (!name.contains(['[', '{', '|'])).then(|| (&path[..dot], Step::Property(name)))
}

/// Whether `value` is of the JSON type `kind` as the host reads it: a string of digits
/// passes for an integer, `true`/`false` for a boolean (a form body's or a query
/// string's values are all strings; reqlint does not claim the host refuses one).
fn fits_type(kind: &str, value: &Node) -> bool {
    match (kind, &value.value) {
        ("any" | "", _) => true,
        (k, _) if k.starts_with("recursive:") || k.contains('-') => true,
        ("string", Value::String(_) | Value::EncodedJson { .. }) => true,
        ("integer", Value::Number(n)) => is_integer_text(n),
        ("integer", Value::String(s)) => is_integer_text(s.trim()),
        ("number", Value::Number(_)) => true,
        ("number", Value::String(s)) => is_number_text(s),
        ("boolean", Value::Bool(_)) => true,
        ("boolean", Value::String(s)) => matches!(s.trim(), "true" | "false"),
        ("array", Value::Seq(_)) => true,
        (k, Value::Seq(_)) if k.starts_with("array<") => true,
        ("object", Value::Map(_)) => true,
        ("null", Value::Null) => true,
        _ => false,
    }
}

fn describe_kind(kind: &str) -> String {
    let one = |k: &str| -> String {
        match k {
            "string" => "a string".into(),
            "integer" => "an integer".into(),
            "number" => "a number".into(),
            "boolean" => "true or false".into(),
            "object" => "an object".into(),
            "array" => "an array".into(),
            "null" => "null".into(),
            other => match other
                .strip_prefix("array<")
                .and_then(|k| k.strip_suffix('>'))
            {
                Some(item) => format!("an array of {item}s"),
                None => format!("`{other}`"),
            },
        }
    };
    let mut kinds: Vec<String> = Vec::new();
    for k in kind.split(['|', ',']).map(one) {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    match kinds.as_slice() {
        [only] => only.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        [] => "a value".into(),
    }
}

fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    if quoted.len() <= 12 {
        quoted.join(", ")
    } else {
        format!("{}, ... ({} in all)", quoted[..8].join(", "), quoted.len())
    }
}

fn same_scalar(allowed: &serde_json::Value, text: &str) -> bool {
    match allowed {
        serde_json::Value::String(s) => s == text,
        serde_json::Value::Number(n) => n
            .as_f64()
            .is_some_and(|n| text.trim().parse::<f64>() == Ok(n)),
        serde_json::Value::Bool(b) => text == if *b { "true" } else { "false" },
        serde_json::Value::Null => text == "null",
        _ => false,
    }
}

fn scalar_shown(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn shown_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_number_text(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && t.parse::<f64>().is_ok_and(f64::is_finite)
}

/// `2026-01-31`, `2026-01-31T12:00:00Z`: what the host reads as an ISO 8601 date or
/// timestamp starts with a date.
fn is_date(text: &str) -> bool {
    let b = text.trim().as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| b.get(i).is_some_and(u8::is_ascii_digit));
    b.len() >= 10 && digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)
}

fn is_empty_text(value: &Node) -> bool {
    matches!(&value.value, Value::String(s) if s.trim().is_empty())
}

/// A value that stands for another (`{{id}}`, `${ID}`, `$TOKEN`, `<id>`) or a string that
/// holds a variable whose value is not known (`v{{n}}`; known ones are substituted
/// before): never judged.
fn is_placeholder(value: &Node) -> bool {
    let Value::String(text) = &value.value else {
        return false;
    };
    if crate::loading::encoded::references(text).next().is_some() {
        return true;
    }
    let t = text.trim();
    let wrapped = |open: &str, close: &str| {
        t.len() > open.len() + close.len() && t.starts_with(open) && t.ends_with(close)
    };
    wrapped("${", "}")
        || wrapped("<", ">")
        || t.strip_prefix('$').is_some_and(|n| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
}

/// Reports the findings of `finding` about request `index`'s params as `meta`'s rule: a
/// rename of a misspelt name or value with one close candidate as a safe fix.
pub fn report(
    file: &FileContext<'_>,
    index: usize,
    finding: Finding,
    meta: &'static (impl crate::diagnostic::Reporter + Sync),
    out: &mut Vec<crate::diagnostic::Diagnostic>,
) {
    use crate::diagnostic::{Applicability, Diagnostic};
    for issue in issues(file, index).iter().filter(|i| i.finding == finding) {
        let mut d = Diagnostic::new(meta, issue.span, issue.message.clone());
        let fix = issue.rename.as_ref().and_then(|(old, new)| {
            crate::model::edits::rename(file.text, issue.span, old, new, Applicability::Safe)
        });
        d = d.with_fix_opt(crate::model::edits::written_once_fix(file, fix));
        if let Some(help) = &issue.help {
            d = d.with_help(help.clone());
        }
        if let Some(used) = issue.used_at {
            d = d.with_label(used, crate::model::USE_LABEL);
        }
        out.push(d);
    }
}

/// The operation a request line calls, in the description of its host's edition
/// ([`super::edition`]); a bare path, whose host is not written, in the first edition
/// that has it (the cloud's first).
pub fn operation_of_line(
    line: &crate::model::RequestLine,
    config: &crate::model::config::Config,
) -> Option<(OperationId, Edition)> {
    let segments = super::path_segments(line);
    let in_edition = |edition: Edition| {
        ops::operation_sent(line.method, &segments, edition).map(|id| (id, edition))
    };
    match super::edition_of_written_host(line, config) {
        Some(edition) => in_edition(edition),
        None => {
            let first = super::edition(line, config);
            in_edition(first).or_else(|| {
                Edition::all()
                    .filter(|&edition| edition != first)
                    .find_map(in_edition)
            })
        }
    }
}

/// A param of an operation as the editor shows it: where it goes, its type, whether it
/// is required, its values and default.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamRow {
    pub name: String,
    /// `query param`, `path param` or `body property`.
    pub place: &'static str,
    /// `a string`, `an integer or a string`, …
    pub kind: String,
    pub required: bool,
    pub values: Vec<String>,
    pub default: Option<String>,
}

impl ParamRow {
    fn of_param(param: &Param) -> ParamRow {
        ParamRow {
            name: param.name().to_string(),
            place: match param.location {
                Location::Path => "path param",
                Location::Query => "query param",
            },
            kind: describe_kind(param.kind()),
            required: param.required,
            values: json_values(param.values_json()),
            default: shown_default(param.default_json()),
        }
    }

    fn of_node(schema: &Schema, node: usize, name: &str) -> ParamRow {
        let n = schema.nodes[node];
        let mut values = json_values(n.values_json());
        let kind = schema.node_kind(node);
        if values.is_empty() && is_alternatives(kind) {
            for alternative in schema.alternatives(node) {
                values.extend(json_values(schema.nodes[alternative].values_json()));
            }
        }
        ParamRow {
            name: name.to_string(),
            place: "body property",
            kind: schema.describe_node(node),
            required: n.required,
            values,
            default: shown_default(n.default_json()),
        }
    }

    /// The row as one markdown paragraph.
    pub fn markdown(&self, operation: &str) -> String {
        let mut out = format!("`{}`: {}, {}", self.name, self.place, self.kind);
        if !self.values.is_empty() && !self.kind.starts_with("one of") {
            let shown: Vec<&str> = self.values.iter().map(String::as_str).collect();
            out.push_str(&format!(", one of {}", list(&shown)));
        }
        if let Some(default) = &self.default {
            out.push_str(&format!(" (default `{default}`)"));
        }
        out.push_str(if self.required {
            "; required"
        } else {
            "; optional"
        });
        out.push_str(&format!(" — {operation}"));
        out
    }
}

/// A default as compact JSON, shown as written in a request (`open`, not `"open"`).
fn shown_default(default_json: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(default_json).ok()?;
    Some(scalar_shown(&value))
}

fn json_values(values_json: &str) -> Vec<String> {
    serde_json::from_str::<Vec<serde_json::Value>>(values_json)
        .map(|values| values.iter().map(scalar_shown).collect())
        .unwrap_or_default()
}

/// What `request`'s `params` may give for operation `id`: its query params for an
/// operation without a JSON body, else its body's properties and its query params (as
/// [`sent_params`] reads them).
pub fn param_rows(request: &Request<'_>, id: OperationId, edition: Edition) -> Vec<ParamRow> {
    let operation = ops::get(id);
    let mut rows = Vec::new();
    let schema = Schema::of(operation, edition);
    if let Some(root) = schema.root {
        let mut own = schema.own_properties(root);
        for alternative in schema.alternatives(root) {
            own.extend(schema.own_properties(alternative));
        }
        for (name, node) in own {
            if !schema.nodes[node].read_only() && !rows.iter().any(|r: &ParamRow| r.name == name) {
                rows.push(ParamRow::of_node(&schema, node, name));
            }
        }
    }
    for param in operation.params(edition) {
        let given_in_line = request
            .line()
            .is_some_and(|l| l.query.iter().any(|e| e.key == param.name()));
        if param.location == Location::Query
            && !given_in_line
            && !rows.iter().any(|r| r.name == param.name())
        {
            rows.push(ParamRow::of_param(param));
        }
    }
    rows
}

/// What the editor shows of the param or body property of `request` whose key or value
/// holds `offset` (nested properties of the body included): its row, the operation, and
/// the operation's docs page.
pub fn hover_at(
    request: &Request<'_>,
    offset: usize,
    config: &crate::model::config::Config,
) -> Option<String> {
    let line = request.line()?;
    let (id, edition) = operation_of_line(line, config)?;
    let operation = ops::get(id);
    let call = format!("`{} {}`", operation.method, operation.template());
    let row = param_row_at(request, offset, id, edition)?;
    let docs = operation
        .docs_url(edition)
        .map(|u| format!("\n\n[Documentation]({u})"))
        .unwrap_or_default();
    Some(format!(
        "{}{docs}\n\nGitHub's REST API description (`@octokit/openapi`)",
        row.markdown(&call)
    ))
}

fn param_row_at(
    request: &Request<'_>,
    offset: usize,
    id: OperationId,
    edition: Edition,
) -> Option<ParamRow> {
    let operation = ops::get(id);
    let within = |span: Span| span.start <= offset && offset <= span.end && !span.is_empty();
    let entry = request
        .every_param()
        .find(|e| within(e.key_span) || within(e.value.span))?;
    let sent = sent_params(request, id, edition, false);
    if sent.query.iter().any(|e| std::ptr::eq(*e, entry)) {
        let param = operation
            .params(edition)
            .find(|p| p.location == Location::Query && p.name() == entry.key.as_str())?;
        return Some(ParamRow::of_param(param));
    }
    let schema = Schema::of(operation, edition);
    let mut node = schema.root?;
    let mut name = entry.key.to_string();
    node = schema.field(node, &entry.key)?;
    let mut value = &entry.value;
    // Down the value to the innermost key that holds the offset.
    loop {
        let inner = match &value.value {
            Value::Map(entries) => entries
                .iter()
                .find(|e| within(e.key_span) || within(e.value.span))
                .and_then(|e| Some((schema.field(node, &e.key)?, e))),
            Value::Seq(items) => {
                let Some(item) = items.iter().find(|i| within(i.span)) else {
                    break;
                };
                let Some(items_node) = schema.items(node) else {
                    break;
                };
                node = items_node;
                value = item;
                name.push_str("[]");
                continue;
            }
            _ => None,
        };
        let Some((child, e)) = inner else { break };
        node = child;
        name = format!("{name}.{}", e.key);
        value = &e.value;
    }
    Some(ParamRow::of_node(&schema, node, &name))
}

impl Schema {
    /// The node of property `name` of an object node: its own, its other properties',
    /// or the first alternative's that lists it.
    fn field(&self, node: usize, name: &str) -> Option<usize> {
        if let Some(found) = self.property(node, name).or(self.child(node, Step::Others)) {
            return Some(found);
        }
        self.alternatives(node)
            .into_iter()
            .find_map(|a| self.field(a, name))
    }

    /// The items node of an array node, or of its first alternative that has one.
    fn items(&self, node: usize) -> Option<usize> {
        self.child(node, Step::Items).or_else(|| {
            self.alternatives(node)
                .into_iter()
                .find_map(|a| self.items(a))
        })
    }
}

#[cfg(test)]
mod tests {
    //! Generated from the host's description: every operation, filled with valid values,
    //! is recognised and clean; each required body property left out, each body enum
    //! given a value outside it, is reported where it is written.

    use std::collections::HashSet;
    use std::path::{Path, PathBuf};

    use serde_json::{Value as Json, json};

    use super::*;
    use crate::catalog::codehost_operations::operations;

    const RULES: [&str; 3] = [
        "rest-param-unknown",
        "rest-param-invalid",
        "rest-param-missing",
    ];
    const OUTSIDE: &str = "zz-outside-the-enum";

    /// A valid value of body node `node`: every property an object lists, one item of an
    /// array (as many as it needs), the first value of an enum, the first alternative
    /// unless `prefer` names another; `replace` puts a value of its own at one node.
    fn valid(
        schema: &Schema,
        node: usize,
        prefer: &HashSet<usize>,
        replace: Option<(usize, &Json)>,
    ) -> Json {
        if let Some((at, value)) = replace
            && at == node
        {
            return value.clone();
        }
        let n = schema.nodes[node];
        if let Ok(values) = serde_json::from_str::<Vec<Json>>(n.values_json())
            && let Some(first) = values.into_iter().find(|v| !v.is_null())
        {
            return first;
        }
        let limits: serde_json::Map<String, Json> =
            serde_json::from_str(n.constraints_json()).unwrap_or_default();
        let limit = |k: &str| limits.get(k).and_then(Json::as_f64);
        let kind = n.kind().split(',').next().unwrap_or_default();
        let own = schema.own_properties(node);
        let own = (kind == "object" || !own.is_empty()).then(|| {
            let mut map = serde_json::Map::new();
            for (name, child) in own {
                if !schema.nodes[child].read_only() {
                    map.insert(name.to_string(), valid(schema, child, prefer, replace));
                }
            }
            map
        });
        if is_alternatives(kind) {
            let alternatives = schema.alternatives(node);
            let chosen = alternatives
                .iter()
                .copied()
                .find(|a| prefer.contains(a))
                .unwrap_or(alternatives[0]);
            return match (own, valid(schema, chosen, prefer, replace)) {
                (Some(mut own), Json::Object(more)) => {
                    own.extend(more);
                    Json::Object(own)
                }
                (Some(own), _) => Json::Object(own),
                (None, value) => value,
            };
        }
        if let Some(own) = own {
            return Json::Object(own);
        }
        match kind {
            "array" => {
                let count = limit("minItems").unwrap_or(1.0).max(1.0) as usize;
                let item = schema.child(node, Step::Items);
                Json::Array(
                    (0..count)
                        .map(|k| match item {
                            // Distinct items, for `uniqueItems`.
                            Some(i) => distinct(valid(schema, i, prefer, replace), k),
                            None => json!(k),
                        })
                        .collect(),
                )
            }
            "integer" | "number" => {
                let low = limit("minimum").unwrap_or(1.0).max(1.0);
                json!(limit("maximum").map_or(low, |high| low.min(high)) as i64)
            }
            "boolean" => json!(true),
            "null" => Json::Null,
            "string" => match n.format() {
                "date-time" => json!("2026-01-31T12:00:00Z"),
                "date" => json!("2026-01-31"),
                _ => json!("v".repeat(limit("minLength").unwrap_or(1.0).max(1.0) as usize)),
            },
            _ => json!({}),
        }
    }

    fn distinct(value: Json, k: usize) -> Json {
        match value {
            Json::String(s) if k > 0 => Json::String(format!("{s}{k}")),
            other => other,
        }
    }

    /// A query value for a param.
    fn query_value(param: &Param) -> String {
        if let Ok(values) = serde_json::from_str::<Vec<Json>>(param.values_json())
            && let Some(first) = values.first()
        {
            return scalar_shown(first);
        }
        match (param.kind(), param.format()) {
            (_, "date") => "2026-01-31".into(),
            (_, "date-time") => "2026-01-31T12:00:00Z".into(),
            ("integer" | "number", _) => "1".into(),
            ("boolean", _) => "true".into(),
            _ => "v".into(),
        }
    }

    /// The request line's path and query for an operation: placeholders filled (an
    /// integer with `1`, a multi-segment param with `a/b/c`), required query params given.
    fn filled_url(op: &Operation, edition: Edition, host: bool) -> String {
        let mut path = String::new();
        if host {
            path.push_str(op.server().unwrap_or("https://api.github.com"));
        }
        for prefix in op.path_prefix(edition) {
            path.push('/');
            path.push_str(prefix);
        }
        for segment in op.template().split('/').filter(|s| !s.is_empty()) {
            path.push('/');
            let mut rest = segment;
            while let Some(open) = rest.find('{') {
                path.push_str(&rest[..open]);
                let close = rest[open..].find('}').unwrap() + open;
                let name = &rest[open + 1..close];
                let p = op.params(edition).find(|p| p.name() == name);
                path.push_str(match p {
                    Some(p) if p.multi_segment => "a/b/c",
                    Some(p) if p.kind() == "integer" => "1",
                    _ => "v-x",
                });
                rest = &rest[close + 1..];
            }
            path.push_str(rest);
        }
        if op.template() == "/" && !host {
            path.push('/');
        }
        let query: Vec<String> = op
            .params(edition)
            .filter(|p| p.location == Location::Query && p.required)
            .map(|p| format!("{}={}", p.name(), query_value(p)))
            .collect();
        if !query.is_empty() {
            path.push('?');
            path.push_str(&query.join("&"));
        }
        path
    }

    /// A request file for an operation with `body` as its params.
    fn request_file(op: &Operation, edition: Edition, host: bool, body: Option<&Json>) -> String {
        let mut text = format!("request: {} {}\n", op.method, filled_url(op, edition, host));
        if let Some(body) = body {
            let params = match (op.body_param(), body) {
                (Some(name), value) if !value.is_object() => json!({ name: value }),
                (_, value) => value.clone(),
            };
            text.push_str(&format!("params: {params}\n"));
        }
        text
    }

    fn valid_body(op: &Operation, edition: Edition) -> Option<Json> {
        let schema = Schema::of(op, edition);
        let root = schema.root?;
        Some(valid(&schema, root, &HashSet::new(), None))
    }

    /// The findings about the one request of a YAML request file, as operation `id` in
    /// `edition`.
    fn model_issues(text: &str, id: OperationId, edition: Edition) -> Vec<ParamIssue> {
        let (docs, problems) = crate::loading::parse_text(
            text,
            crate::loading::Format::Yaml,
            &crate::loading::Limits::DEFAULT,
        );
        assert!(problems.is_empty(), "{problems:?}\n{text}");
        let model = crate::model::FileModel::build(&docs, text);
        let request = &model.requests[0];
        let line = request.line().expect(text);
        let segments: Vec<&str> = line.segments.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(
            ops::operation_sent(line.method, &segments, edition),
            Some(id),
            "not recognised in {edition}: {text}"
        );
        check_request(request, id, edition, true)
    }

    fn lint(text: &str) -> Vec<crate::diagnostic::Diagnostic> {
        let settings = crate::engine::Settings {
            config: crate::model::config::Config::defaults(PathBuf::from(".")),
            context: Default::default(),
            limits: crate::loading::Limits::DEFAULT,
        };
        crate::engine::lint_bytes(
            "t.req.yaml",
            Path::new("t.req.yaml"),
            text.as_bytes().to_vec(),
            &settings,
        )
        .diagnostics
    }

    #[test]
    fn every_operation_filled_with_valid_values_is_recognised_and_clean() {
        let mut checked = 0;
        let mut with_body = 0;
        for (id, op) in operations() {
            for edition in Edition::all().filter(|&e| op.in_edition(e)) {
                let body = valid_body(op, edition);
                with_body += usize::from(body.is_some());
                let text = request_file(op, edition, false, body.as_ref());
                let found = model_issues(&text, id, edition);
                assert!(found.is_empty(), "{text}{found:#?}");
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
        assert!(with_body > 1_500, "{with_body}");
    }

    /// The cloud's operations through the whole pipeline (routing by host, every rule).
    #[test]
    fn every_cloud_operation_through_the_linter_is_clean() {
        let mut checked = 0;
        for (id, op) in operations().filter(|(_, op)| op.in_edition(Edition::CLOUD)) {
            let body = valid_body(op, Edition::CLOUD);
            let text = request_file(op, Edition::CLOUD, true, body.as_ref());
            let found: Vec<String> = lint(&text)
                .into_iter()
                .filter(|d| RULES.contains(&d.rule) || d.rule == "unknown-endpoint")
                .map(|d| format!("{}: {}", d.rule, d.message))
                .collect();
            assert!(found.is_empty(), "{id:?} {text}{found:#?}");
            checked += 1;
        }
        assert_eq!(checked, 1_223);
    }

    #[test]
    fn every_required_body_property_left_out_is_missing_at_the_params_key() {
        let mut checked = 0;
        let mut operations_with_one = HashSet::new();
        for (id, op) in operations() {
            for edition in Edition::all().filter(|&e| op.in_edition(e)) {
                let schema = Schema::of(op, edition);
                let Some(root) = schema.root else { continue };
                if schema.node_kind(root) != "object" {
                    continue;
                }
                let Some(Json::Object(body)) = valid_body(op, edition) else {
                    continue;
                };
                for (step, child) in schema.children(root) {
                    let Step::Property(name) = step else { continue };
                    if !schema.nodes[child].required || schema.nodes[child].read_only() {
                        continue;
                    }
                    let mut without = body.clone();
                    without.remove(name);
                    let text = request_file(op, edition, false, Some(&Json::Object(without)));
                    let found = model_issues(&text, id, edition);
                    let at = text.find("params").unwrap();
                    assert!(
                        found.iter().any(|i| i.finding == Finding::Missing
                            && i.span == Span::new(at, at + "params".len())
                            && i.message.contains(&format!("`{name}`"))),
                        "{text}{found:#?}"
                    );
                    checked += 1;
                    operations_with_one.insert((op.method, op.template()));
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
        assert!(
            operations_with_one.len() > 250,
            "{}",
            operations_with_one.len()
        );
    }

    /// The same through the linter for the cloud, with a `params` key to point at.
    #[test]
    fn a_required_body_property_left_out_through_the_linter() {
        let mut checked = 0;
        for (_, op) in operations().filter(|(_, op)| op.in_edition(Edition::CLOUD)) {
            let schema = Schema::of(op, Edition::CLOUD);
            let Some(root) = schema.root else { continue };
            if schema.node_kind(root) != "object" {
                continue;
            }
            let Some(Json::Object(mut body)) = valid_body(op, Edition::CLOUD) else {
                continue;
            };
            let Some(name) = schema.children(root).find_map(|(s, c)| match s {
                Step::Property(n) if schema.nodes[c].required && !schema.nodes[c].read_only() => {
                    Some(n)
                }
                _ => None,
            }) else {
                continue;
            };
            body.remove(name);
            body.insert("x-keep".into(), json!(1));
            let text = request_file(op, Edition::CLOUD, true, Some(&Json::Object(body)));
            let missing: Vec<_> = lint(&text)
                .into_iter()
                .filter(|d| d.rule == "rest-param-missing")
                .collect();
            assert!(
                missing
                    .iter()
                    .any(|d| &text[d.span.range()] == "params" && d.message.contains(name)),
                "{text}{missing:#?}"
            );
            checked += 1;
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn every_body_enum_given_a_value_outside_it_is_invalid_where_it_is_written() {
        let outside = json!(OUTSIDE);
        let (mut direct, mut under_alternatives, mut accepted_by_another) = (0, 0, 0);
        let mut unwritten = 0;
        for (id, op) in operations() {
            for edition in Edition::all().filter(|&e| op.in_edition(e)) {
                let schema = Schema::of(op, edition);
                let Some(root) = schema.root else { continue };
                for (node, n) in schema.nodes.iter().enumerate() {
                    if n.values_json().is_empty() || n.property().contains("{}") {
                        continue;
                    }
                    // The alternatives on the way to it are the ones taken.
                    let mut prefer = HashSet::new();
                    let mut at = n.property();
                    while let Some((parent, step)) = parent_step(at) {
                        if step == Step::Alternative
                            && let Some(i) = schema.nodes.iter().position(|x| x.property() == at)
                        {
                            prefer.insert(i);
                        }
                        at = parent;
                    }
                    let body = valid(&schema, root, &prefer, Some((node, &outside)));
                    let text = request_file(op, edition, false, Some(&body));
                    let found = model_issues(&text, id, edition);
                    // Under a property a request does not send (read-only): no value.
                    let Some(written) = text.find(&format!("\"{OUTSIDE}\"")) else {
                        unwritten += 1;
                        continue;
                    };
                    let span = Span::new(written, written + OUTSIDE.len() + 2);
                    let reported = found
                        .iter()
                        .any(|i| i.finding == Finding::Invalid && i.span == span);
                    if prefer.is_empty() {
                        assert!(reported, "{text}{found:#?}");
                        direct += 1;
                    } else if reported {
                        under_alternatives += 1;
                    } else {
                        // Several alternatives could be meant: judged only where one is.
                        accepted_by_another += 1;
                    }
                }
            }
        }
        assert!(direct > 500, "{direct}");
        assert!(unwritten < 20, "{unwritten}");
        // Measured: 1,933 direct, 810 under alternatives reported, 49 left to another
        // alternative that takes the body as written, 5 under a read-only property.
        assert!(
            under_alternatives > 10 * accepted_by_another,
            "{under_alternatives} / {accepted_by_another}"
        );
    }

    /// `(rule, the text it points at)` of the params rules' findings on a request file.
    fn findings(yaml: &str) -> Vec<(String, String)> {
        lint(yaml)
            .into_iter()
            .filter(|d| RULES.contains(&d.rule))
            .map(|d| (d.rule.to_string(), yaml[d.span.range()].to_string()))
            .collect()
    }

    #[test]
    fn what_the_host_reads_is_judged_and_what_reqlint_cannot_see_is_not() {
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        // The last of a repeated query param is the one read.
        assert_eq!(
            findings("request: GET /repos/o/r/issues?state=bogus&state=open\n"),
            []
        );
        assert_eq!(
            findings("request: GET /repos/o/r/issues?state=open&state=bogus\n"),
            pairs(&[("rest-param-invalid", "bogus")])
        );
        // A GET's params are its query; a POST's its body, but for its query params.
        assert_eq!(
            findings("request: GET /repos/o/r/issues\nparams: {state: bogus}\n"),
            pairs(&[("rest-param-invalid", "bogus")])
        );
        assert_eq!(
            findings("request: POST /repos/o/r/issues\nparams: {title: 1, milestone: [1]}\n"),
            pairs(&[("rest-param-invalid", "[1]")])
        );
        // Path params written again as params are the path's (Octokit's way).
        assert_eq!(
            findings(
                "request: DELETE /repos/o/r/issues/1/lock\nparams: {owner: o, repo: r, issue_number: 1}\n"
            ),
            []
        );
        // Nothing sent is known: a call listed without params, a body that is a variable.
        assert_eq!(
            findings("requests: [POST /repos/o/r/issues, GET /search/code]\n"),
            []
        );
        assert_eq!(
            findings(
                "x-variables: {t: '{{x}}'}\nrequest: POST /repos/o/r/issues\nparams: {title: '{{t}}', state: '{{x}}'}\n"
            ),
            []
        );
        // Lenient: digits for an integer, `true` for a boolean; strict: a word.
        assert_eq!(
            findings(
                "request: POST /repos/o/r/pulls\nparams: {title: t, head: h, base: b, draft: 'true', issue: '5'}\n"
            ),
            []
        );
        // A query value is text, whatever its YAML type.
        assert_eq!(
            findings("request: GET /repos/o/r/commits\nparams: {sha: 1234567, path: true}\n"),
            []
        );
        assert_eq!(
            findings("request: GET /repos/o/r/pulls?per_page=ten\n"),
            pairs(&[("rest-param-invalid", "ten")])
        );
        // Null where the schema is nullable, and where it is not.
        assert_eq!(
            findings(
                "request: PATCH /repos/o/r/issues/1\nparams: {milestone: null, state: null}\n"
            ),
            pairs(&[("rest-param-invalid", "null")])
        );
    }

    /// A body of n rules of a ruleset, each one of 21 alternatives, costs what it is long:
    /// each item is judged against each alternative once.
    #[test]
    fn the_work_grows_linearly_with_the_body() {
        let work = |n: usize| {
            let rules: Vec<String> = (0..n)
                .map(|k| {
                    format!(
                        "{{type: {}}}",
                        if k % 2 == 0 { "creation" } else { "bogus" }
                    )
                })
                .collect();
            let text = format!(
                "request: POST /repos/o/r/rulesets\nparams: {{name: n, enforcement: active, rules: [{}]}}\n",
                rules.join(", ")
            );
            let (docs, _) = crate::loading::parse_text(
                &text,
                crate::loading::Format::Yaml,
                &crate::loading::Limits::DEFAULT,
            );
            let model = crate::model::FileModel::build(&docs, &text);
            let line = model.requests[0].line().unwrap();
            let (id, edition) =
                operation_of_line(line, &crate::model::config::Config::defaults(".".into()))
                    .unwrap();
            let (found, work) = crate::loading::work::measure(|| {
                check_request(&model.requests[0], id, edition, true)
            });
            assert_eq!(found.len(), n / 2, "{found:#?}");
            work
        };
        let (small, large) = (work(100), work(1_000));
        assert!(small >= 100, "{small}");
        assert!(large <= 11 * small, "{small} then {large}");
    }

    #[test]
    fn a_word_for_an_integer_path_param_is_invalid_at_its_segment() {
        let mut checked = 0;
        for (id, op) in operations() {
            let edition = Edition::all().find(|&e| op.in_edition(e)).unwrap();
            let Some(param) = op.params(edition).find(|p| {
                p.location == Location::Path && p.kind() == "integer" && !p.multi_segment
            }) else {
                continue;
            };
            let body = valid_body(op, edition);
            let text = request_file(op, edition, false, body.as_ref());
            // The first integer segment, `1`, made a word.
            let template: Vec<&str> = op.template().split('/').collect();
            let k = template
                .iter()
                .position(|s| *s == format!("{{{}}}", param.name()))
                .unwrap();
            let line_end = text.find('\n').unwrap();
            let mut segments: Vec<String> = text[..line_end].split('/').map(String::from).collect();
            let offset = segments.len() - template.len();
            if segments[k + offset] != "1" {
                continue;
            }
            segments[k + offset] = "abc".into();
            let text = format!("{}{}", segments.join("/"), &text[line_end..]);
            let (docs, _) = crate::loading::parse_text(
                &text,
                crate::loading::Format::Yaml,
                &crate::loading::Limits::DEFAULT,
            );
            let model = crate::model::FileModel::build(&docs, &text);
            let found = check_request(&model.requests[0], id, edition, true);
            assert!(
                found.iter().any(|i| i.finding == Finding::Invalid
                    && &text[i.span.range()] == "abc"
                    && i.message.contains(param.name())),
                "{text}{found:#?}"
            );
            checked += 1;
        }
        assert!(checked > 500, "{checked}");
    }
}

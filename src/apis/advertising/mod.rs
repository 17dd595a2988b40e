//! Rules of the advertising API (Meta's Marketing API; its references for custom
//! audiences and ad sets, and its specs in catalog/advertising/): the shared layer
//! (endpoints, parameter tables, versions, context lookups) and the rules built on it.

#[cfg(test)]
mod absent_params_test;
pub mod endpoint;
pub mod field_list;
#[cfg(test)]
mod graph_catalog_test;
pub mod graph_types;
#[cfg(test)]
mod nested_params_test;
pub mod params;
pub mod routing;
pub mod settings;
pub mod shared_params;
pub mod values;
pub mod versions;

#[cfg(test)]
mod adset_enums_test;
pub mod adset_geo;
pub mod adset_lookup;

use std::cell::OnceCell;

use crate::diagnostic::Diagnostic;
use crate::diagnostic::Reporter;
use crate::loading::Node;
use crate::model::Request;
use crate::model::config::Config;
use crate::model::context::{ContextIndex, Kind};
use crate::model::file::{ApiId, FileContext, OperationSet, Routed};

pub use endpoint::{AdCall, Operation, Recognized, Target};

/// The advertising API's name: its config section and its rules' group.
pub const ID: ApiId = ApiId("advertising");

/// The advertising API's wing, as the engine sees it.
pub struct Advertising;

pub static ADVERTISING: Advertising = Advertising;

impl crate::apis::Api for Advertising {
    fn id(&self) -> ApiId {
        ID
    }

    fn serves_host(&self, host: &str, host_port: &str, config: &Config) -> bool {
        routing::is_graph_host(host) || settings::settings(config).reach.serves(host, host_port)
    }

    fn owns_base_variable(&self, name: &str, config: &Config) -> bool {
        settings::settings(config).reach.owns_variable(name)
    }

    fn path_evidence(&self, line: &crate::model::RequestLine) -> crate::apis::Evidence {
        routing::evidence(line)
    }

    fn operation_count(&self) -> u32 {
        Operation::ALL.len() as u32
    }

    fn operations(&self, file: &FileContext<'_>) -> Vec<Routed> {
        recognitions(file)
            .iter()
            .filter_map(|c| {
                let op = c.target?.op?;
                file.model.requests[c.request].line()?;
                Some(Routed {
                    index: c.request,
                    operation: op as u32,
                })
            })
            .collect()
    }

    fn json_encoded_params(&self) -> &'static [&'static str] {
        crate::catalog::advertising::JSON_ENCODED
    }

    /// "Using the Graph API" (https://developers.facebook.com/docs/graph-api/using-graph-api/):
    /// a param is given in the query string or the body alike.
    fn reads_query_and_body_as_one(&self) -> bool {
        true
    }

    fn config_section(&self) -> Option<&'static dyn crate::model::config::ConfigSection> {
        Some(&settings::SECTION)
    }
}

/// The operations of the reference documents a rule inspects:
/// `Inspects::Requests(&[Operation::AdSetCreate, Operation::AdSetUpdate])`.
impl<const N: usize> OperationSet for [Operation; N] {
    fn api(&self) -> ApiId {
        ID
    }

    fn includes(&self, operation: u32) -> bool {
        self.iter().any(|&op| op as u32 == operation)
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self
            .iter()
            .map(|op| format!("{} {}", op.node().title(), op.verb().replace('_', " ")))
            .collect();
        format!("advertising calls: {}", names.join(", "))
    }
}

/// The call a routed request makes, as the engine handed it to a rule.
pub fn call<'f>(file: &'f FileContext<'_>, routed: Routed) -> Call<'f> {
    let recognitions = recognitions(file);
    let at = recognitions.partition_point(|c| c.request < routed.index);
    let c = &recognitions[at];
    let request = &file.model.requests[c.request];
    let line = request
        .line()
        .expect("only requests with a readable line are routed");
    Call {
        request,
        endpoint: Operation::ALL[routed.operation as usize],
        call: AdCall {
            line,
            account: c.account.map(|k| &line.segments[k]),
            object: c.object.map(|k| &line.segments[k]),
        },
    }
}

/// How one advertising request of a file was recognized, kept once for all rules.
struct Recognition {
    request: usize,
    /// `None`: a path of the API whose node type nothing tells.
    target: Option<Target>,
    account: Option<usize>,
    object: Option<usize>,
    /// Why no call of the catalog matches, where, and the one close edge.
    no_endpoint: Option<NoEndpoint>,
    /// The calls a path whose node type nothing tells may be (an edge several node
    /// types have): what they all share is judged.
    candidates: Vec<crate::catalog::graph::GCallId>,
}

struct NoEndpoint {
    span: crate::loading::Span,
    reason: String,
    fix: Option<String>,
    complete: bool,
}

/// How many paths of a file get a "did you mean" edge.
const MAX_EDGE_SEARCHES: usize = 200;

fn recognitions<'f>(file: &'f FileContext<'_>) -> &'f [Recognition] {
    let requests = &file.model.requests;
    file.memo.get::<FileCache>().calls.get_or_init(|| {
        let index_of = |line: &crate::model::RequestLine, seg: Option<&crate::model::Segment>| {
            seg.and_then(|s| line.segments.iter().position(|x| std::ptr::eq(x, s)))
        };
        // A file of many misspelt paths must stay linear: the closest edge is looked
        // for in the first few only.
        let mut searches = 0;
        requests
            .iter()
            .enumerate()
            .filter(|(i, _)| file.routed_to(*i, ID))
            .filter_map(|(i, r)| {
                let found = endpoint::recognize(r, file.context, searches < MAX_EDGE_SEARCHES)?;
                if matches!(found, Recognized::NoEndpoint { .. }) {
                    searches += 1;
                }
                let (target, call, no_endpoint, candidates) = match found {
                    Recognized::Call(t, call) => (Some(t), Some(call), None, Vec::new()),
                    Recognized::UnknownKind(call, candidates) => {
                        (None, Some(call), None, candidates)
                    }
                    Recognized::NoEndpoint {
                        span,
                        reason,
                        fix,
                        complete,
                        ..
                    } => (
                        None,
                        None,
                        Some(NoEndpoint {
                            span,
                            reason,
                            fix,
                            complete,
                        }),
                        Vec::new(),
                    ),
                };
                Some(Recognition {
                    request: i,
                    target,
                    account: call.as_ref().and_then(|c| index_of(c.line, c.account)),
                    object: call.as_ref().and_then(|c| index_of(c.line, c.object)),
                    no_endpoint,
                    candidates,
                })
            })
            .collect()
    })
}

/// Every recognized advertising call of a file: its request, what it calls, its segments.
pub fn graph_calls<'f>(
    file: &'f FileContext<'_>,
) -> impl Iterator<Item = (&'f Request<'f>, Target, AdCall<'f>)> {
    let requests = &file.model.requests;
    recognitions(file).iter().filter_map(move |c| {
        let request = &requests[c.request];
        let line = request.line()?;
        let call = AdCall {
            line,
            account: c.account.map(|k| &line.segments[k]),
            object: c.object.map(|k| &line.segments[k]),
        };
        Some((request, c.target?, call))
    })
}

/// Every advertising request of a file that calls an operation of the reference
/// documents, with that operation.
pub fn calls<'f>(
    file: &'f FileContext<'_>,
) -> impl Iterator<Item = (&'f Request<'f>, Operation, AdCall<'f>)> {
    graph_calls(file).filter_map(|(request, target, call)| Some((request, target.op?, call)))
}

/// An advertising request that no call of the catalog matches.
pub struct UnknownEndpoint<'f> {
    pub line: &'f crate::model::RequestLine,
    /// The part of its request line that is wrong.
    pub span: crate::loading::Span,
    pub reason: &'f str,
    /// The one close edge for a misspelt one.
    pub fix: Option<&'f str>,
}

/// Every advertising request that no call of the catalog matches, where the catalog
/// holds every call (under an ad account or an ads node).
pub fn unknown_endpoints<'f>(
    file: &'f FileContext<'_>,
) -> impl Iterator<Item = UnknownEndpoint<'f>> {
    endpoints_not_in_catalog(file, true)
}

/// Every Graph API request outside the Marketing API catalog, where the catalog does not
/// hold every call (Pages, Instagram, WhatsApp, a user's videos): not checked.
pub fn unchecked_calls<'f>(file: &'f FileContext<'_>) -> impl Iterator<Item = UnknownEndpoint<'f>> {
    endpoints_not_in_catalog(file, false)
}

fn endpoints_not_in_catalog<'f>(
    file: &'f FileContext<'_>,
    complete: bool,
) -> impl Iterator<Item = UnknownEndpoint<'f>> {
    let requests = &file.model.requests;
    recognitions(file).iter().filter_map(move |c| {
        let no = c.no_endpoint.as_ref().filter(|n| n.complete == complete)?;
        Some(UnknownEndpoint {
            line: requests[c.request].line()?,
            span: no.span,
            reason: no.reason.as_str(),
            fix: no.fix.as_deref(),
        })
    })
}

/// An advertising call as a rule's `check_request` sees it ([`call`]).
pub struct Call<'f> {
    pub request: &'f Request<'f>,
    pub endpoint: Operation,
    pub call: AdCall<'f>,
}

/// What the advertising rules of one file share, computed once for all of them (kept in
/// the file's memo).
#[derive(Default)]
struct FileCache {
    calls: OnceCell<Vec<Recognition>>,
    issues: OnceCell<Vec<params::Issue>>,
}

/// The param findings of every advertising call of the file.
fn param_issues<'f>(file: &'f FileContext<'_>) -> &'f [params::Issue] {
    file.memo.get::<FileCache>().issues.get_or_init(|| {
        let requests = &file.model.requests;
        let mut issues: Vec<params::Issue> = graph_calls(file)
            .flat_map(|(request, target, call)| {
                params::check_call(target, request, currency(file, &call).as_deref())
            })
            .collect();
        for c in recognitions(file) {
            if c.target.is_none() && !c.candidates.is_empty() {
                issues.extend(shared_params::check(&c.candidates, &requests[c.request]));
            }
        }
        issues
    })
}

/// The currency of the account a call is made in: the context's snapshot of the ad
/// account its path names, else `advertising.currency` of the config.
fn currency(file: &FileContext<'_>, call: &AdCall<'_>) -> Option<String> {
    call.account
        .and_then(|a| account(file.context, &a.text))
        .and_then(|a| a.get_value("currency"))
        .and_then(Node::as_str)
        .map(str::to_string)
        .or_else(|| settings::settings(file.config).currency.clone())
}

/// The edits of a param finding's fix: a rename in place (safe), or the removal of the
/// param's whole lines (unsafe: the request then does something else).
fn issue_fix(
    text: &str,
    format: crate::loading::Format,
    line_edits: bool,
    span: crate::loading::Span,
    fix: &params::IssueFix,
) -> Option<crate::diagnostic::Fix> {
    use crate::diagnostic::{Applicability, Fix};
    use crate::model::edits::{remove_lines, rename};
    match fix {
        params::IssueFix::Rename { old, new } => rename(text, span, old, new, Applicability::Safe),
        params::IssueFix::Remove { start, end } if line_edits => {
            let edit = remove_lines(text, *start, *end)?;
            Some(Fix::unsafe_("remove the param", vec![edit]))
        }
        params::IssueFix::Remove { .. } => None,
        params::IssueFix::WrapInList { key } => {
            use crate::loading::Format;
            let written = text.get(span.range())?;
            if written.contains(['\n', '\r']) {
                return None;
            }
            let before = text[..span.start].trim_end();
            let quoted = written.len() >= 2
                && (written.starts_with('"') && written.ends_with('"')
                    || written.starts_with('\'') && written.ends_with('\''));
            let (k, form) = match before.strip_suffix('=') {
                Some(k) => (k, true),
                // A key's value in a YAML or JSON mapping, or a form field of a Hurl or
                // Bruno file (`key: value`), written right after its key.
                None => (
                    before.strip_suffix(':')?.trim_end(),
                    !quoted && !matches!(format, Format::Yaml | Format::Json),
                ),
            };
            if !k
                .trim_end_matches(['"', '\'', '\\'])
                .ends_with(key.as_str())
            {
                return None;
            }
            let new = if form {
                // A query string's or a form's value: a JSON-encoded list.
                if written.contains(['%', '+', '\\', '"', '\'', '[', ']', '{', '}']) {
                    return None;
                }
                let line = &text[text[..span.start].rfind('\n').map_or(0, |i| i + 1)..span.start];
                let quote = match format {
                    // A request line of a YAML file: only in a plain scalar of a block,
                    // where brackets and quotes are text.
                    Format::Yaml if line.contains(['{', '[', '"', '\'']) => return None,
                    // A JSON string holds the line: its quotes escaped.
                    Format::Json | Format::Read(crate::loading::readers::Reader::Postman) => "\\\"",
                    _ => "\"",
                };
                format!("[{quote}{written}{quote}]")
            } else if quoted || is_plain_word(written) {
                format!("[{written}]")
            } else {
                // A YAML plain scalar that a flow list would read otherwise.
                return None;
            };
            Some(Fix {
                applicability: Applicability::Safe,
                message: format!("replace `{written}` with `{new}`"),
                edits: vec![crate::diagnostic::Edit {
                    span,
                    replacement: new,
                    file: None,
                }],
            })
        }
    }
}

/// A YAML plain scalar that reads the same inside a flow list (`NONE`, `US`, `2.5`).
fn is_plain_word(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphanumeric())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/' | b'+'))
}

/// Reports the param-table findings of `kind` for every advertising call.
pub fn report_param_issues(
    file: &FileContext<'_>,
    meta: &'static (impl Reporter + Sync),
    wanted: impl Fn(&params::IssueKind) -> bool,
    api_error: Option<u32>,
    out: &mut Vec<Diagnostic>,
) {
    for issue in param_issues(file).iter().filter(|i| wanted(&i.kind)) {
        let mut d = Diagnostic::new(meta, issue.span, issue.message.clone());
        let line_edits = crate::model::edits::takes_line_edits(file.path);
        d = d.with_fix_opt(
            issue
                .fix
                .as_ref()
                .and_then(|fix| {
                    let format = crate::loading::Format::from_path(file.path);
                    issue_fix(file.text, format, line_edits, issue.span, fix)
                })
                .and_then(|fix| crate::model::edits::written_once_fix(file, Some(fix))),
        );
        if let Some(help) = &issue.help {
            d = d.with_help(help.clone());
        }
        if let Some(used) = issue.used_at {
            d = d.with_label(used, crate::model::USE_LABEL);
        }
        if let Some(code) = api_error {
            d = d.with_api_error(code, None);
        }
        out.push(d);
    }
}

/// Reports the param-table findings routed to `meta`'s rule by params.yaml.
pub fn report_routed(
    file: &FileContext<'_>,
    meta: &'static (impl Reporter + Sync),
    route: crate::catalog::advertising::ParamRule,
    api_error: u32,
    out: &mut Vec<Diagnostic>,
) {
    report_param_issues(
        file,
        meta,
        |k| matches!(k, params::IssueKind::Invalid { rule } if *rule == route),
        Some(api_error),
        out,
    );
}

/// What a request tells of one param, for a rule that reports what the request lacks
/// (or judges a combination from a param's absence).
#[derive(Clone, Copy, Debug)]
pub enum Sent<'r> {
    /// The request sends it: the entry the API reads (the last one given).
    Given(&'r crate::loading::Entry),
    /// The request surely does not send it: every param it sends is known.
    Absent,
    /// The request does not name it but may send it: its body could not be read (a file
    /// a `.http` request sends, a body that is one variable), or its query string holds a
    /// variable whose value is not known (`?{{report_params}}`). What reqlint cannot
    /// see, it does not report missing.
    Unknown,
}

impl<'r> Sent<'r> {
    /// The entry, when the request sends it.
    pub fn given(self) -> Option<&'r crate::loading::Entry> {
        match self {
            Sent::Given(entry) => Some(entry),
            Sent::Absent | Sent::Unknown => None,
        }
    }
}

/// What `request` tells of its param `name`: the one way the advertising rules ask
/// whether a param is absent.
pub fn sent<'r>(request: &'r Request<'_>, name: &str) -> Sent<'r> {
    match request.param(name) {
        Some(entry) => Sent::Given(entry),
        None if sends_only_known_params(request) => Sent::Absent,
        None => Sent::Unknown,
    }
}

/// Whether `request` surely does not send the param `name`.
pub fn absent(request: &Request<'_>, name: &str) -> bool {
    matches!(sent(request, name), Sent::Absent)
}

/// Whether every param `request` sends is known: no body left unread, no query string
/// that is a variable whose value is not known.
pub fn sends_only_known_params(request: &Request<'_>) -> bool {
    !request.may_send_unknown_params()
}

/// A request's param, unless the param tables find its value invalid (outside its enum,
/// of the wrong type): a rule that depends on the value stays silent then, since the value
/// is reported already and anything judged from it would be noise.
pub fn valid_param<'r>(
    file: &FileContext<'_>,
    request: &'r Request<'_>,
    name: &str,
) -> Option<&'r crate::loading::Entry> {
    let entry = request.param(name)?;
    let value = entry.value.span;
    let invalid = param_issues(file).iter().any(|i| {
        matches!(
            i.kind,
            params::IssueKind::Invalid { .. } | params::IssueKind::OutsideOpenEnum
        ) && ((i.span.start >= value.start && i.span.end <= value.end)
            // An empty value is pointed at with its key.
            || (value.is_empty() && i.span == entry.key_span.cover(value)))
    });
    (!invalid).then_some(entry)
}

/// The context snapshot of an audience, when the context holds it.
pub fn audience<'c>(context: &'c ContextIndex, id: &str) -> Option<&'c Node> {
    context.get(Kind::CustomAudiences, id)
}

/// The context snapshot of an ad account, by `act_<id>` or `<id>`.
pub fn account<'c>(context: &'c ContextIndex, id: &str) -> Option<&'c Node> {
    context.get(Kind::AdAccounts, id)
}

/// `operation_status.code` of an audience flagged for integrity reasons.
pub const FLAGGED: i64 = 471;

/// An audience's `operation_status.code`.
pub fn operation_status(audience: &Node) -> Option<i64> {
    audience
        .get_value("operation_status")?
        .get_value("code")?
        .as_i64()
}

/// The strings of a list field of a snapshot object (`lookalike_audience_ids`, ...).
pub fn string_list(object: &Node, field: &str) -> Vec<String> {
    object
        .get_value(field)
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| n.scalar_text().map(|t| t.into_owned()))
        .collect()
}

/// A request's `daily_budget` and `lifetime_budget` when both are set (present, not null,
/// not 0), in the order written: the ad set and campaign calls refuse them together.
pub fn both_budgets<'r>(
    request: &'r Request<'_>,
) -> Option<(&'r crate::loading::Entry, &'r crate::loading::Entry)> {
    let set = |name: &str| {
        request.param(name).filter(|e| {
            !matches!(e.value.value, crate::loading::Value::Null)
                && params::integer(&e.value) != Some(Ok(0))
        })
    };
    let (daily, lifetime) = (set("daily_budget")?, set("lifetime_budget")?);
    Some(if daily.key_span.start <= lifetime.key_span.start {
        (daily, lifetime)
    } else {
        (lifetime, daily)
    })
}

//! The checker that walks a request's params against its call: the graph's params (the
//! vendor's specs, every call) and, for the operations the reference documents describe,
//! their param tables (compiled from `catalog/advertising/params.yaml`), which add
//! limits, refused values and rules of their own. Where the two disagree on a type or an
//! enum, a value either accepts is accepted. Rules choose which findings they report.

use crate::catalog::advertising::{COMMON, Operation, ParamSpec, ParamType, currency_unit};
use crate::catalog::graph::{GType, GraphCall};
use crate::loading::{Entry, Node, Span, Value};
use crate::model::{Method, Request};
use crate::suggest::did_you_mean;

use super::endpoint::Target;
use super::graph_types;
pub use super::values::{Issue, IssueFix, IssueKind, integer, is_datetime};
use super::values::{
    MONEY_PARAMS, decimal_amount, empty_value, in_minor_units, is_empty_value, is_integer_text,
    is_placeholder,
};

pub use crate::catalog::advertising::DEFAULT_RULE;

/// Checks every param of a request against an endpoint's table.
pub fn check_params<'a>(op: Operation, params: impl Iterator<Item = &'a Entry>) -> Vec<Issue> {
    let table = op.params();
    let mut issues = Vec::new();
    for entry in params {
        match table.param(&entry.key) {
            Some(spec) => check_value(spec, &entry.key, &entry.value, &mut issues),
            None if COMMON.contains(&entry.key.as_str()) || table.open => {}
            None => {
                let not_updatable = table
                    .create
                    .and_then(|c| c.params().param(&entry.key))
                    .is_some();
                if not_updatable {
                    issues.push(Issue {
                        used_at: None,
                        kind: IssueKind::NotUpdatable,
                        graph_may_accept: false,
                        fix: None,
                        span: entry.key_span,
                        message: format!("`{}` cannot be changed after creation", entry.key),
                        help: Some(format!(
                            "the update call does not take `{}`; create a new object to change it",
                            entry.key
                        )),
                    });
                    continue;
                }
                let help = match did_you_mean(&entry.key, table.known.strs()) {
                    Some(s) => format!("did you mean `{s}`? ({})", table.source),
                    None => format!(
                        "{} does not list it; the reference's tables are not complete",
                        table.source
                    ),
                };
                issues.push(Issue {
                    used_at: None,
                    kind: IssueKind::Unknown,
                    graph_may_accept: false,
                    fix: None,
                    span: entry.key_span,
                    message: format!("unknown param `{}`", entry.key),
                    help: Some(help),
                });
            }
        }
    }
    issues
}

/// Checks every param of a recognized call: against the graph's params, and against the
/// reference documents' table where the call is one of their operations; then the
/// params the call requires.
pub fn check_call(target: Target, request: &Request<'_>, currency: Option<&str>) -> Vec<Issue> {
    let mut issues = Vec::new();
    for entry in request.params() {
        let start = issues.len();
        check_param(target, request, entry, &mut issues);
        money_with_decimals(target, entry, currency, &mut issues[start..]);
        // A value variables gave, whole or nested: a finding about it points at the
        // definition where the file holds it, naming the use, or at the value as
        // written, and has no fix (an edit of the definition changes every use; the use
        // is references, or text around them).
        let value = entry.value.span;
        for issue in &mut issues[start..] {
            if let Some(u) = request.variable_use_at(entry, issue.span) {
                issue.used_at = (u.used != u.value).then_some(u.used);
                issue.fix = None;
            }
        }
        // A value with no text (`?status`, `status:`) is pointed at with its key.
        if value.is_empty() {
            for issue in &mut issues[start..] {
                if issue.span == value {
                    issue.span = entry.key_span.cover(value);
                }
            }
        }
    }
    missing_params(target, request, &mut issues);
    issues
}

/// A money param written with a decimal point (`daily_budget: "100.00"`): its type
/// finding says what is wrong (budgets are integers in the currency's minor unit) and,
/// where the account's currency is known, gives the integer (`10000`).
fn money_with_decimals(
    target: Target,
    entry: &Entry,
    currency: Option<&str>,
    issues: &mut [Issue],
) {
    let name = entry.key.as_str();
    // Few params are money: the table is asked only for those.
    if !MONEY_PARAMS.contains(&name) {
        return;
    }
    let integer_typed = target
        .graph
        .get()
        .param(name)
        .is_some_and(|p| matches!(p.ty, GType::Int | GType::UInt));
    if !integer_typed {
        return;
    }
    let value = entry.value.resolved();
    let Some(text) = value
        .scalar_text()
        .filter(|_| matches!(value.value, Value::String(_) | Value::Number(_)))
    else {
        return;
    };
    let Some((whole, fraction)) = decimal_amount(&text) else {
        return;
    };
    let Some(issue) = issues
        .iter_mut()
        .find(|i| i.span == value.span && matches!(i.kind, IssueKind::Invalid { .. }))
    else {
        return;
    };
    let written = text.trim();
    let offset = currency.and_then(|c| currency_unit(c).map(|o| (c, o)));
    issue.message = format!(
        "`{name}` {written} has a decimal point: amounts are integers in the minor unit of the account's currency"
    );
    let source = "Meta's Marketing API reference, Currencies";
    match offset.map(|(c, o)| (c, o, in_minor_units(whole, fraction, o))) {
        Some((c, o, Some(minor))) => {
            issue.help = Some(format!(
                "{written} {c} is {minor} ({c}'s offset is {o}; {source})"
            ));
            issue.fix = Some(IssueFix::Rename {
                old: written.to_string(),
                new: minor.to_string(),
            });
        }
        Some((c, o, None)) => {
            issue.help = Some(format!(
                "{written} {c} is no whole number of {c}'s minor unit ({c}'s offset is {o}; {source})"
            ));
        }
        None => {
            issue.help = Some(format!(
                "multiply by the currency's offset: 100.00 is 10000 where the offset is 100 (USD, EUR), 100 where it is 1 (JPY, KRW) ({source}); the fix needs the account's currency: an ad account in the context, or `advertising.currency` in .reqlint.yaml"
            ));
        }
    }
}

/// The findings about one param the request sends.
fn check_param(target: Target, request: &Request<'_>, entry: &Entry, issues: &mut Vec<Issue>) {
    let call = target.graph.get();
    let seed = target.op.map(Operation::params);
    let name = entry.key.as_str();
    let graph_param = call.param(name);
    let reading = graph_types::Reading::of_call(call.method == Method::Post);
    let table_param = seed.and_then(|t| t.param(name));
    // Neither table judges a placeholder: one test for all the checks of the value.
    if (table_param.is_some() || graph_param.is_some()) && is_placeholder(&entry.value) {
        return;
    }
    if let Some(spec) = table_param {
        let mut found = Vec::new();
        check_value_written(spec, name, &entry.value, &mut found);
        let mut all = Vec::new();
        let mut inside = Vec::new();
        if let Some(p) = graph_param {
            // What the specs find of the value itself is read only for a type that
            // judges values, or for a list (one value where it takes a list).
            let shallow_read = p.ty.judges_values() || matches!(p.ty, GType::List(_));
            graph_types::check_param_value(
                p.ty,
                name,
                &entry.value,
                reading,
                shallow_read.then_some(&mut all),
                &mut inside,
            );
        }
        // What the tables cannot say: one value where the specs take a list, and the
        // keys and values inside an object of a node type.
        let (mut own, all): (Vec<Issue>, Vec<Issue>) = if all.is_empty() {
            (Vec::new(), all)
        } else {
            all.into_iter().partition(|i| i.kind == IssueKind::NotAList)
        };
        own.extend(inside);
        // The tables' own findings stand where both find something: where a value is
        // percent-encoded, every finding inside it points at the whole value.
        let tables_found: Vec<Span> = found.iter().map(|f| f.span).collect();
        for issue in own {
            if issue.kind == IssueKind::NotAList {
                found.retain(|f| !(f.graph_may_accept && f.span == issue.span));
            } else if tables_found.contains(&issue.span) {
                continue;
            }
            found.push(issue);
        }
        // Only a type that says something of values takes part: the specs type
        // numeric ids as strings and objects without their keys, the tables many
        // lists as lists of strings.
        let graph = graph_param.filter(|p| p.ty.judges_values()).map(|_| all);
        match graph {
            // Accepted by the specs: the tables' type and enum judgements yield.
            Some(g) if g.is_empty() => found.retain(|i| !i.graph_may_accept),
            // Refused by both, or judged by the specs alone: an enum the tables call
            // incomplete is no excuse, and the specs' findings stand where the tables
            // have none at the same place.
            Some(g) => {
                let tables_judge = judges_values(spec);
                found.retain(|i| i.kind != IssueKind::OutsideOpenEnum);
                for issue in g {
                    // Refused by both at one place: the tables' finding stands, but
                    // where only the specs know a value close to what was written
                    // (the tables list fewer values), their fix and help are taken.
                    if let Some(f) = found.iter_mut().find(|f| f.span == issue.span) {
                        if f.fix.is_none() && issue.fix.is_some() {
                            f.fix = issue.fix;
                            f.help = issue.help;
                        }
                        continue;
                    }
                    if !tables_judge || spec_is_open_enum(spec) {
                        found.push(issue);
                    }
                }
            }
            None => {}
        }
        issues.extend(found);
        return;
    }
    if let Some(p) = graph_param {
        let mut g = Vec::new();
        graph_types::check_as(p.ty, name, &entry.value, reading, &mut g);
        // An update the specs let change what the reference's update list omits
        // (an audience's retention_days): the reference's limits of create still hold.
        let create = seed
            .and_then(|t| t.create)
            .and_then(|c| c.params().param(name));
        if let Some(spec) = create {
            let mut limits = Vec::new();
            check_value(spec, name, &entry.value, &mut limits);
            limits.retain(|i| !i.graph_may_accept);
            g.retain(|gi| !limits.iter().any(|l| l.span == gi.span));
            issues.extend(limits);
        }
        issues.extend(g);
        return;
    }
    if COMMON.contains(&name) || seed.is_some_and(|t| t.open) {
        return;
    }
    let seed_create = seed
        .and_then(|t| t.create)
        .is_some_and(|c| c.params().param(name).is_some());
    let is_update = call.method == Method::Post && call.edge.is_empty();
    if seed_create || (is_update && call.node.created_with(name)) {
        issues.push(Issue {
            used_at: None,
            kind: IssueKind::NotUpdatable,
            span: entry.key_span,
            message: format!("`{name}` cannot be changed after creation"),
            help: Some(format!(
                "the update call does not take `{name}`; create a new object to change it"
            )),
            graph_may_accept: false,
            fix: Some(IssueFix::Remove {
                start: entry.key_span.start,
                end: entry.value.span.end,
            }),
        });
        return;
    }
    let known = call
        .params
        .iter()
        .map(|p| p.name.as_str())
        .chain(seed.into_iter().flat_map(|t| t.known.strs()));
    let help = match did_you_mean(name, known) {
        Some(s) => format!("did you mean `{s}`? ({})", source(call)),
        None if call.params.is_empty() && seed.is_none_or(|t| t.known.is_empty()) => {
            format!("{} takes no params", call.describe())
        }
        None => format!(
            "Meta's Marketing API reference lists no such param for {} (Graph API {})",
            call.describe(),
            crate::catalog::graph::GRAPH_VERSION
        ),
    };
    let known: Vec<&str> = call
        .params
        .iter()
        .map(|p| p.name.as_str())
        .chain(seed.into_iter().flat_map(|t| t.known.strs()))
        .collect();
    // A rename only where the value fits the param it was meant to be: else the fix
    // would trade one finding for another.
    let fits = |new: &str| {
        // JSON that did not parse stays a string: under a JSON-encoded name it would be
        // reported as broken JSON.
        if crate::catalog::advertising::JSON_ENCODED.contains(&new)
            && matches!(&entry.value.value, Value::String(t) if crate::loading::encoded::looks_like_json(t))
        {
            return false;
        }
        let mut found = Vec::new();
        if let Some(p) = call.param(new) {
            graph_types::check(p.ty, new, &entry.value, &mut found);
        }
        if let Some(spec) = seed.and_then(|t| t.param(new)) {
            check_value(spec, new, &entry.value, &mut found);
        }
        found.is_empty()
    };
    // Nor where another param of the request would be renamed the same: the two
    // would make one key twice.
    let alone = |new: &str| {
        !request.every_param().any(|other| {
            other.key != name
                && call.param(&other.key).is_none()
                && crate::suggest::only_close(&other.key, known.iter().copied()) == Some(new)
        })
    };
    let fix = match crate::suggest::only_close(name, known.iter().copied()) {
        Some(new) if request.param(new).is_none() && fits(new) && alone(new) => IssueFix::Rename {
            old: name.to_string(),
            new: new.to_string(),
        },
        _ => IssueFix::Remove {
            start: entry.key_span.start,
            end: entry.value.span.end,
        },
    };
    issues.push(Issue {
        used_at: None,
        kind: IssueKind::Unknown,
        span: entry.key_span,
        message: format!("unknown param `{name}` for {}", call.describe()),
        help: Some(help),
        graph_may_accept: false,
        fix: Some(fix),
    });
}

/// The params the call requires that the request does not send.
fn missing_params(target: Target, request: &Request<'_>, issues: &mut Vec<Issue>) {
    let call = target.graph.get();
    let seed = target.op.map(Operation::params);
    for p in call.params.iter().filter(|p| p.required) {
        // Sent, or maybe sent: a body a reader could not read, a query that is a
        // variable, may hold any param.
        if !super::absent(request, &p.name) {
            continue;
        }
        // The reference documents' rules report these themselves (adset-name-missing).
        if seed
            .and_then(|t| t.param(&p.name))
            .is_some_and(|s| s.missing.is_some())
        {
            continue;
        }
        let span = request.params.map_or(request.line_span, |e| e.key_span);
        issues.push(Issue {
            used_at: None,
            kind: IssueKind::Missing,
            span,
            message: format!("{} requires `{}`", call.describe(), p.name),
            help: Some(format!(
                "add `{}`, {} ({})",
                p.name,
                p.ty.describe(),
                source(call)
            )),
            graph_may_accept: false,
            fix: None,
        });
    }
}

/// Whether a table's type tells valid values from invalid ones (an enum, a number, a
/// boolean, a date, or a list of them), rather than taking any string.
fn judges_values(spec: &ParamSpec) -> bool {
    match &spec.ty {
        ParamType::List(item) => judges_values(item),
        ParamType::Enum { .. }
        | ParamType::Int { .. }
        | ParamType::Bool
        | ParamType::Datetime
        | ParamType::NumericString => true,
        _ => false,
    }
}

/// An enum whose list the reference says is incomplete.
fn spec_is_open_enum(spec: &ParamSpec) -> bool {
    match &spec.ty {
        ParamType::List(item) => spec_is_open_enum(item),
        ParamType::Enum { open, .. } => *open,
        _ => false,
    }
}

/// Where the graph's params of a call come from, for help lines.
fn source(call: &GraphCall) -> String {
    format!(
        "Meta's Marketing API reference, {}, Graph API {}",
        call.describe(),
        crate::catalog::graph::GRAPH_VERSION
    )
}

/// A limit, a refused value or a missing field: the tables' own judgement.
fn invalid(
    spec: &ParamSpec,
    span: Span,
    message: String,
    help: Option<String>,
    out: &mut Vec<Issue>,
) {
    judged(spec, span, message, help, false, out);
}

/// A value of the wrong type or outside the table's enum, which the specs may accept.
fn mismatch(
    spec: &ParamSpec,
    span: Span,
    message: String,
    help: Option<String>,
    out: &mut Vec<Issue>,
) {
    judged(spec, span, message, help, true, out);
}

fn judged(
    spec: &ParamSpec,
    span: Span,
    message: String,
    help: Option<String>,
    graph_may_accept: bool,
    out: &mut Vec<Issue>,
) {
    out.push(Issue {
        used_at: None,
        kind: IssueKind::Invalid { rule: spec.rule },
        span,
        message,
        help,
        graph_may_accept,
        fix: None,
    });
}

/// What a value of a table's type is, for the finding about an empty one; none where
/// the type takes it: a string takes an empty string (not a null), a param the table
/// does not type anything.
fn refused_when_empty(ty: &ParamType, node: &Node) -> Option<&'static str> {
    Some(match ty {
        ParamType::Any => return None,
        ParamType::String { .. } if matches!(node.value, Value::Null) => "a string",
        ParamType::String { .. } => return None,
        ParamType::NumericString => "a numeric ID (digits)",
        ParamType::Int { .. } => "an integer",
        ParamType::Bool => "true or false",
        ParamType::Enum { .. } => "one of its values",
        ParamType::List(_) => "a list",
        ParamType::Object { .. } => "a mapping (a JSON object)",
        ParamType::JsonString => "a JSON-encoded object",
        ParamType::Datetime => "an ISO 8601 date-time or a UNIX timestamp",
    })
}

fn check_value(spec: &ParamSpec, name: &str, node: &Node, out: &mut Vec<Issue>) {
    if !is_placeholder(node) {
        check_value_written(spec, name, node, out);
    }
}

/// [`check_value`] of a value that is no placeholder.
fn check_value_written(spec: &ParamSpec, name: &str, node: &Node, out: &mut Vec<Issue>) {
    if is_empty_value(node)
        && let Some(expected) = refused_when_empty(&spec.ty, node)
    {
        out.push(empty_value(name, expected, node.span, spec.rule));
        return;
    }
    let wrong_type = |expected: &str, out: &mut Vec<Issue>| {
        mismatch(
            spec,
            node.span,
            format!("`{name}` must be {expected}, not {}", node.kind_name()),
            None,
            out,
        );
    };
    match &spec.ty {
        ParamType::Any => {}
        ParamType::String { max_chars } => match node.scalar_text() {
            Some(text) => {
                let chars = text.chars().count();
                if let Some(max) = max_chars.filter(|&m| chars > m) {
                    invalid(
                        spec,
                        node.span,
                        format!("`{name}` is {chars} characters long; the API takes at most {max}"),
                        Some(format!("shorten it by {} characters", chars - max)),
                        out,
                    );
                }
            }
            // A mapping or a list is sent JSON-encoded, as the form-encoded API takes a
            // JSON value in a string param (an audience's `rule`).
            None if matches!(node.resolved().value, Value::Map(_) | Value::Seq(_)) => {}
            None => wrong_type("a string", out),
        },
        ParamType::NumericString => match integer(node) {
            Some(Ok(_)) => {}
            Some(Err(())) if node.as_str().is_some() => {}
            _ => wrong_type("a numeric ID (digits)", out),
        },
        ParamType::Int { min, max } => match integer(node) {
            Some(Ok(v)) => {
                let below = min.is_some_and(|m| v < m);
                let above = max.is_some_and(|m| v > m);
                if below || above {
                    let range = match (min, max) {
                        (Some(a), Some(b)) => format!("{a} to {b}"),
                        (Some(a), None) => format!("at least {a}"),
                        (None, Some(b)) => format!("at most {b}"),
                        (None, None) => String::new(),
                    };
                    invalid(
                        spec,
                        node.span,
                        format!("`{name}` is {v}; the API takes {range}"),
                        None,
                        out,
                    );
                }
            }
            // A number that is no integer (`90.5`, `1e3`) is not out of range: it is not
            // an integer at all.
            Some(Err(())) if node.as_number_text().is_some_and(|t| !is_integer_text(t)) => {
                mismatch(
                    spec,
                    node.span,
                    format!(
                        "`{name}` must be an integer, not {}",
                        node.as_number_text().unwrap_or_default()
                    ),
                    None,
                    out,
                )
            }
            Some(Err(())) => invalid(
                spec,
                node.span,
                format!("`{name}` is too large for a 64-bit integer"),
                None,
                out,
            ),
            None => wrong_type("an integer", out),
        },
        ParamType::Bool => {
            let ok = node.as_bool().is_some() || matches!(node.as_str(), Some("true" | "false"));
            if !ok {
                wrong_type("true or false", out);
            }
        }
        ParamType::Enum {
            values,
            refused,
            open,
        } => {
            let Some(text) = node
                .scalar_text()
                .filter(|_| !matches!(node.value, Value::Null))
            else {
                wrong_type("one of the listed values", out);
                return;
            };
            // A value is compared by bytes, most by its first only: an enum of a few
            // dozen values is scanned for every value of it a request sends.
            if values.iter().any(|v| v.cmp_str(&text).is_eq()) {
                return;
            }
            if let Some((_, why)) = refused.iter().find(|(v, _)| v.cmp_str(&text).is_eq()) {
                invalid(
                    spec,
                    node.span,
                    format!("`{name}` `{text}` is refused through the API: {why}"),
                    None,
                    out,
                );
                return;
            }
            let suggestion = did_you_mean(&text, values.strs());
            let help = match suggestion {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "the values are {}",
                    values.strs().collect::<Vec<_>>().join(", ")
                ),
            };
            if *open {
                out.push(Issue {
                    used_at: None,
                    kind: IssueKind::OutsideOpenEnum,
                    graph_may_accept: true,
                    fix: None,
                    span: node.span,
                    message: format!(
                        "`{name}` `{text}` is not among the values the reference lists (it omits some)"
                    ),
                    help: Some(help),
                });
            } else {
                mismatch(
                    spec,
                    node.span,
                    format!("`{name}` `{text}` is not a valid value"),
                    Some(help),
                    out,
                );
                if let (Some(new), Some(issue)) = (
                    crate::suggest::only_close(&text, values.strs()),
                    out.last_mut(),
                ) {
                    issue.fix = Some(IssueFix::Rename {
                        old: text.to_string(),
                        new: new.to_string(),
                    });
                }
            }
        }
        ParamType::List(item) => match node.as_seq() {
            Some(items) => {
                for it in items {
                    check_value(item, name, it, out);
                }
            }
            None => wrong_type("a list", out),
        },
        ParamType::Object { fields } => match node.resolved().as_map() {
            Some(entries) => {
                for (field, fspec) in fields.iter() {
                    match entries.iter().find(|e| e.key == field.as_str()) {
                        Some(e) => check_value(fspec, &format!("{name}.{field}"), &e.value, out),
                        None if fspec.required => invalid(
                            fspec,
                            node.span,
                            format!("`{name}` needs `{field}`"),
                            Some(format!("add `{field}`")),
                            out,
                        ),
                        None => {}
                    }
                }
            }
            None if matches!(node.value, Value::String(_)) => mismatch(
                spec,
                node.span,
                format!("`{name}` is a string that does not hold a JSON object"),
                Some("write it as a mapping, or as a JSON-encoded object".into()),
                out,
            ),
            None => wrong_type("a mapping (a JSON object)", out),
        },
        ParamType::JsonString => match &node.value {
            Value::EncodedJson { decoded, .. } if decoded.as_map().is_some() => {}
            Value::Map(_) => {}
            Value::EncodedJson { decoded, .. } => mismatch(
                spec,
                decoded.span,
                format!(
                    "`{name}` must hold a JSON object, not {}",
                    decoded.kind_name()
                ),
                None,
                out,
            ),
            // JSON that does not parse is reported by invalid-syntax, inside the string.
            Value::String(s) if crate::loading::encoded::looks_like_json(s) => {}
            _ => wrong_type("a JSON-encoded object", out),
        },
        ParamType::Datetime => {
            let ok = match &node.value {
                Value::Number(_) => node.as_i64().is_some(),
                Value::String(s) => is_datetime(s.trim()),
                _ => false,
            };
            if !ok {
                mismatch(
                    spec,
                    node.span,
                    format!("`{name}` must be an ISO 8601 date-time or a UNIX timestamp"),
                    Some("for example 2025-06-01T00:00:00+0000".into()),
                    out,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::advertising::PARAM_TABLES;
    use crate::loading::{self, Format, Limits};

    fn op(name: &str) -> Operation {
        *Operation::ALL.iter().find(|o| o.name() == name).unwrap()
    }

    #[test]
    fn tables_load_and_resolve_same_as_and_like() {
        assert!(PARAM_TABLES.len() >= 10);
        let update = Operation::AudienceUpdate
            .params()
            .param("claim_objective")
            .unwrap();
        assert!(matches!(update.ty, ParamType::Enum { .. }));
        assert!(
            Operation::AdSetUpdate
                .params()
                .param("billing_event")
                .is_some()
        );
        assert!(!Operation::AdSetUpdate.params().takes("issues_info"));
        assert!(Operation::AdSetUpdate.params().takes("bid_constraints"));
    }

    /// The names of a param table of catalog/advertising/params.yaml, sorted.
    fn table_names(table: &str) -> Vec<&'static str> {
        let mut names: Vec<&str> = op(table)
            .params()
            .params
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        names.sort_unstable();
        names
    }

    /// The parameter table of "Create an audience" in Meta's Marketing API reference
    /// for custom audiences
    /// (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/):
    /// all 26 names, and no other.
    #[test]
    fn audience_create_table_is_complete() {
        let mut reference = vec![
            "allowed_domains",
            "claim_objective",
            "content_type",
            "customer_file_source",
            "dataset_id",
            "description",
            "enable_fetch_or_create",
            "event_source_group",
            "event_sources",
            "platform_page_id",
            "is_value_based",
            "list_of_accounts",
            "lookalike_spec",
            "name",
            "opt_out_link",
            "origin_audience_id",
            "pixel_id",
            "prefill",
            "product_set_id",
            "retention_days",
            "rule",
            "rule_aggregation",
            "subscription_info",
            "subtype",
            "use_for_products",
            "use_in_campaigns",
        ];
        reference.sort_unstable();
        assert_eq!(reference.len(), 26);
        assert_eq!(table_names("audience_create"), reference);
    }

    /// The parameter tables of creating and copying an ad set in Meta's Marketing API
    /// reference for ad sets
    /// (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/): every
    /// name, and besides them only `autobid`, which the reference's samples send. The
    /// dynamic creative flag is described there without a name and is not listed.
    #[test]
    fn ad_set_create_and_copy_tables_are_complete() {
        let mut create = vec![
            "name",
            "adlabels",
            "adset_schedule",
            "anchor_event_attribution_window_days",
            "attribution_spec",
            "automatic_manual_state",
            "bid_amount",
            "bid_strategy",
            "billing_event",
            "budget_schedule_specs",
            "budget_source",
            "budget_split_set_id",
            "campaign_attribution",
            "campaign_id",
            "campaign_spec",
            "contextual_bundling_spec",
            "creative_sequence",
            "daily_budget",
            "daily_imps",
            "daily_min_spend_target",
            "daily_spend_cap",
            "destination_type",
            "dsa_beneficiary",
            "dsa_payor",
            "end_time",
            "execution_options",
            "existing_customer_budget_percentage",
            "frequency_control_specs",
            "is_sac_cfca_terms_certified",
            "lifetime_budget",
            "lifetime_imps",
            "lifetime_min_spend_target",
            "lifetime_spend_cap",
            "max_budget_spend_percentage",
            "min_budget_spend_percentage",
            "multi_optimization_goal_weight",
            "optimization_goal",
            "optimization_sub_event",
            "pacing_type",
            "promoted_object",
            "rf_prediction_id",
            "source_adset_id",
            "start_time",
            "status",
            "targeting",
            "time_based_ad_rotation_id_blocks",
            "time_based_ad_rotation_intervals",
            "time_start",
            "time_stop",
            "tune_for_category",
            "value_rule_set_id",
            "value_rules_applied",
        ];
        assert_eq!(create.len(), 52);
        create.push("autobid");
        create.sort_unstable();
        assert_eq!(table_names("ad_set_create"), create);
        let mut copy = vec![
            "campaign_id",
            "deep_copy",
            "end_time",
            "rename_options",
            "start_time",
            "status_option",
        ];
        copy.sort_unstable();
        assert_eq!(table_names("ad_set_copy"), copy);
    }

    fn issues(endpoint: &str, yaml: &str) -> Vec<Issue> {
        let (docs, problems) = loading::parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        check_params(op(endpoint), docs[0].as_map().unwrap().iter())
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        let ok = format!("name: \"{}\"\n", "é".repeat(400));
        assert!(issues("ad_set_create", &ok).is_empty());
        let long = format!("name: \"{}\"\n", "é".repeat(401));
        let found = issues("ad_set_create", &long);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains("401 characters"), "{found:?}");
    }

    #[test]
    fn form_fields_take_numbers_as_strings() {
        assert!(
            issues(
                "ad_set_create",
                "daily_budget: \"2000\"\nbid_amount: 150\ncampaign_id: 1202\n"
            )
            .is_empty()
        );
        assert!(
            issues(
                "audience_create",
                "retention_days: \"30\"\nprefill: \"true\"\n"
            )
            .is_empty()
        );
        let found = issues("audience_create", "retention_days: 0\nprefill: maybe\n");
        assert_eq!(found.len(), 2);
        assert_eq!(
            found[0].kind,
            IssueKind::Invalid {
                rule: crate::catalog::advertising::ParamRule::AudienceRetentionDaysRange
            }
        );
        assert_eq!(found[1].kind, IssueKind::Invalid { rule: DEFAULT_RULE });
    }

    #[test]
    fn enums_suggest_and_open_enums_warn() {
        let found = issues(
            "ad_set_create",
            "billing_event: IMPRESSION\ndestination_type: MESSENGER\n",
        );
        assert_eq!(
            found[0].help.as_deref(),
            Some("did you mean `IMPRESSIONS`?")
        );
        assert_eq!(found[1].kind, IssueKind::OutsideOpenEnum);
    }

    /// The params that `rule` reports as empty on a request file, by name.
    fn empty_params(rule: &str, yaml: &str) -> Vec<String> {
        crate::testing::lint(rule, "", yaml)
            .into_iter()
            .filter_map(|(message, _)| {
                let name = message.strip_prefix('`')?.strip_suffix("` is empty")?;
                Some(name.to_string())
            })
            .collect()
    }

    /// An empty value (a blank string, a key without a value, a null) is refused for
    /// every type but a string, whichever of the tables or the specs types the param.
    #[test]
    fn empty_values_are_judged_alike_for_every_type() {
        let ad_set = "request: POST /v24.0/act_1/adsets\nparams:\n  name: ''\n  campaign_id: ''\n  daily_budget: ''\n  billing_event: IMPRESSIONS\n  optimization_goal: REACH\n  bid_strategy: ''\n  execution_options: ''\n  end_time:\n  promoted_object: ''\n  is_sac_cfca_terms_certified: ''\n  targeting: {geo_locations: {countries: [DE]}}\n";
        assert_eq!(
            empty_params("ad-param-invalid", ad_set),
            [
                "campaign_id",
                "daily_budget",
                "bid_strategy",
                "execution_options",
                "end_time",
                "promoted_object",
                "is_sac_cfca_terms_certified",
            ]
        );
        // A string takes an empty string; a null is none.
        let audience = "request: POST /v24.0/act_1/customaudiences\nparams:\n  name: x\n  subtype: CUSTOM\n  customer_file_source: USER_PROVIDED_ONLY\n  description: ''\n  rule:\n  prefill: ''\n";
        assert_eq!(
            empty_params("ad-param-invalid", audience),
            ["rule", "prefill"]
        );
        // A JSON string (the table's own rule reports it).
        let lookalike = "request: POST /v24.0/act_1/customaudiences\nparams:\n  name: x\n  subtype: LOOKALIKE\n  origin_audience_id: '1'\n  lookalike_spec: ''\n";
        assert_eq!(
            empty_params("audience-lookalike-spec-invalid", lookalike),
            ["lookalike_spec"]
        );
        // In a query string: `?status` and `?status=` are empty; nested fields too.
        let query = "request: POST /v24.0/act_1/campaigns?name=x&objective=OUTCOME_SALES&special_ad_categories=&status&spend_cap=\n";
        assert_eq!(
            empty_params("ad-param-invalid", query),
            ["special_ad_categories", "status", "spend_cap"]
        );
        // A value with no text is pointed at with its key.
        assert_eq!(
            crate::testing::spans("ad-param-invalid", "", query),
            ["special_ad_categories=", "status", "spend_cap="]
        );
    }

    /// A value a variable of the file gives is judged at its definition, names its use,
    /// and gets no fix (an edit of the definition would change every use).
    #[test]
    fn a_variable_s_value_is_judged_at_its_definition() {
        let yaml = "x-variables:\n  objective: OUTCOME_SALE\nrequest: POST /v24.0/act_1/campaigns\nparams:\n  name: x\n  special_ad_categories: '[]'\n  objective: '{{objective}}'\n";
        let found = crate::testing::found("ad-param-invalid", "", yaml);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].at, "OUTCOME_SALE");
        assert_eq!(found[0].labels.len(), 1);
        assert_eq!(found[0].labels[0].trim_matches('\''), "{{objective}}");
        let all = crate::testing::diagnostics(
            "ad-param-invalid",
            crate::model::config::Config::defaults(".".into()),
            "",
            yaml,
        );
        assert!(all[0].fix.is_none());
        // Written in place, the same value has its fix.
        let yaml = "request: POST /v24.0/act_1/campaigns\nparams:\n  name: x\n  special_ad_categories: '[]'\n  objective: OUTCOME_SALE\n";
        let all = crate::testing::diagnostics(
            "ad-param-invalid",
            crate::model::config::Config::defaults(".".into()),
            "",
            yaml,
        );
        assert!(all[0].fix.is_some());
    }

    /// Two params that use one variable: each finding names its own use.
    #[test]
    fn each_use_of_a_variable_is_named() {
        let yaml = "x-variables:\n  v: NOPE\nrequest: POST /v24.0/act_1/campaigns?objective={{v}}\nparams:\n  name: x\n  special_ad_categories: '[]'\n  status: '{{v}}'\n";
        let found = crate::testing::found("ad-param-invalid", "", yaml);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().all(|f| f.at == "NOPE"));
        let mut uses: Vec<usize> = crate::testing::diagnostics(
            "ad-param-invalid",
            crate::model::config::Config::defaults(".".into()),
            "",
            yaml,
        )
        .iter()
        .map(|d| d.labels[0].span.start)
        .collect();
        uses.sort_unstable();
        assert_eq!(
            uses,
            [
                yaml.find("{{v}}").unwrap(),
                yaml.rfind("{{v}}").unwrap() - 1
            ]
        );
    }

    /// No rule's fix edits a variable's definition a param's value was taken from: it is
    /// read wherever the variable is used.
    #[test]
    fn no_fix_edits_a_variable_s_definition() {
        let config = || crate::model::config::Config::defaults(".".into());
        let line = "request: GET /v24.0/23863000000000004?fields=name&date_preset=";
        let written = format!("{line}lifetime\n");
        let d = crate::testing::diagnostics("adset-date-preset-lifetime", config(), "", &written);
        assert!(d[0].fix.is_some());
        let from_variable = format!("x-variables:\n  preset: lifetime\n{line}{{{{preset}}}}\n");
        let d =
            crate::testing::diagnostics("adset-date-preset-lifetime", config(), "", &from_variable);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].span.start, from_variable.find("lifetime").unwrap());
        assert!(d[0].fix.is_none());
    }

    /// Of a param given twice, the value sent last is judged, never the empty first one.
    #[test]
    fn the_value_sent_last_is_judged() {
        let yaml = "request: POST /v24.0/1202?status&name=x&status=PAUSED\nobject: campaign\n";
        assert!(crate::testing::lint("ad-param-invalid", "", yaml).is_empty());
        let yaml =
            "request: POST /v24.0/1202?status=PAUSED&name=x&status=PAUSD\nobject: campaign\n";
        assert_eq!(
            crate::testing::spans("ad-param-invalid", "", yaml),
            ["PAUSD"]
        );
    }

    #[test]
    fn unknown_and_not_updatable() {
        let found = issues(
            "audience_update",
            "subtype: CUSTOM\nnmae: x\naccess_token: ${T}\n",
        );
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].kind, IssueKind::NotUpdatable);
        assert_eq!(found[1].kind, IssueKind::Unknown);
        assert!(
            found[1]
                .help
                .as_deref()
                .unwrap()
                .starts_with("did you mean `name`?")
        );
    }
}

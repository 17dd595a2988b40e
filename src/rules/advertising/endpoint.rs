//! Which advertising endpoint a request calls, from its method and path (seeds 001
//! and 002, "Endpoints"), and for a path that names an object by id alone, which kind
//! of object: from `object:`, else the context, else the params.

use crate::model::context::{ContextIndex, Kind as ContextKind};
use crate::model::{Method, ObjectKind, Request, RequestLine, Segment};

use super::params::TABLES_DATA;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    AudienceRead,
    AudienceCreate,
    AudienceUpdate,
    AudienceDelete,
    AudienceOptOut,
    AdSetRead,
    AdSetCreate,
    AdSetUpdate,
    AdSetDelete,
    AdSetCopy,
}

impl Endpoint {
    /// Its table in params.yaml.
    pub fn table(self) -> &'static str {
        match self {
            Endpoint::AudienceRead => "audience_read",
            Endpoint::AudienceCreate => "audience_create",
            Endpoint::AudienceUpdate => "audience_update",
            Endpoint::AudienceDelete => "audience_delete",
            Endpoint::AudienceOptOut => "audience_opt_out",
            Endpoint::AdSetRead => "ad_set_read",
            Endpoint::AdSetCreate => "ad_set_create",
            Endpoint::AdSetUpdate => "ad_set_update",
            Endpoint::AdSetDelete => "ad_set_delete",
            Endpoint::AdSetCopy => "ad_set_copy",
        }
    }

    pub fn is_audience(self) -> bool {
        matches!(
            self,
            Endpoint::AudienceRead
                | Endpoint::AudienceCreate
                | Endpoint::AudienceUpdate
                | Endpoint::AudienceDelete
                | Endpoint::AudienceOptOut
        )
    }

    fn by_id(kind: ObjectKind, method: Method) -> Option<Endpoint> {
        Some(match (kind, method) {
            (ObjectKind::CustomAudience, Method::Get) => Endpoint::AudienceRead,
            (ObjectKind::CustomAudience, Method::Post) => Endpoint::AudienceUpdate,
            (ObjectKind::CustomAudience, Method::Delete) => Endpoint::AudienceDelete,
            (ObjectKind::AdSet, Method::Get) => Endpoint::AdSetRead,
            (ObjectKind::AdSet, Method::Post) => Endpoint::AdSetUpdate,
            (ObjectKind::AdSet, Method::Delete) => Endpoint::AdSetDelete,
            _ => return None,
        })
    }
}

/// An advertising request and what it calls.
#[derive(Debug)]
pub struct AdCall<'r> {
    pub line: &'r RequestLine,
    /// The `act_<id>` segment of an account path.
    pub account: Option<&'r Segment>,
    /// The object id segment of an object path.
    pub object: Option<&'r Segment>,
}

/// What the path of an advertising request is.
#[derive(Debug)]
pub enum Recognized<'r> {
    Call(Endpoint, AdCall<'r>),
    /// `/{v}/{id}` whose kind nothing tells: rules that depend on the kind stay silent.
    UnknownKind(AdCall<'r>),
    /// No endpoint of the seeds: the reason says what was expected.
    NoEndpoint {
        line: &'r RequestLine,
        reason: String,
    },
}

fn is_account(s: &Segment) -> bool {
    s.text
        .strip_prefix("act_")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn is_id(s: &Segment) -> bool {
    !s.text.is_empty() && s.text.bytes().all(|b| b.is_ascii_digit())
}

/// Recognizes an advertising request; `None` for any other request.
pub fn recognize<'r>(request: &'r Request<'_>, context: &ContextIndex) -> Option<Recognized<'r>> {
    let line = request
        .line()
        .filter(|l| l.api == crate::model::Api::Advertising)?;
    let rest = &line.segments[1..];
    let method = line.method;
    let no = |reason: String| Some(Recognized::NoEndpoint { line, reason });
    let call = |account, object| AdCall {
        line,
        account,
        object,
    };
    match rest {
        [account, edge] if is_account(account) => {
            let endpoint = match (edge.text.as_str(), method) {
                ("customaudiences", Method::Post) => Endpoint::AudienceCreate,
                ("usersofanyaudience", Method::Delete) => Endpoint::AudienceOptOut,
                ("adsets", Method::Post) => Endpoint::AdSetCreate,
                ("customaudiences" | "adsets", _) => {
                    return no(format!("the references list only POST for `/act_<id>/{}`", edge.text));
                }
                ("usersofanyaudience", _) => {
                    return no("the references list only DELETE for `/act_<id>/usersofanyaudience`".into());
                }
                _ => return no(format!("the references list no `/act_<id>/{}` endpoint", edge.text)),
            };
            Some(Recognized::Call(endpoint, call(Some(account), None)))
        }
        [id, edge] if is_id(id) && edge.text == "copies" => {
            if method == Method::Post {
                Some(Recognized::Call(Endpoint::AdSetCopy, call(None, Some(id))))
            } else {
                no("the references list only POST for `/<ad set id>/copies`".into())
            }
        }
        [id] if is_id(id) => {
            if !matches!(method, Method::Get | Method::Post | Method::Delete) {
                return no(format!("an object by id takes GET, POST or DELETE, not {method}"));
            }
            match object_kind(request, &id.text, context) {
                Some(kind) => {
                    let endpoint = Endpoint::by_id(kind, method)?;
                    Some(Recognized::Call(endpoint, call(None, Some(id))))
                }
                None => Some(Recognized::UnknownKind(call(None, Some(id)))),
            }
        }
        _ => no("the references list no such path: audiences are `/act_<id>/customaudiences` and `/<id>`, ad sets `/act_<id>/adsets`, `/<id>` and `/<id>/copies`".into()),
    }
}

/// What `/{v}/{id}` addresses (SPEC 1.1 `object`).
fn object_kind(request: &Request<'_>, id: &str, context: &ContextIndex) -> Option<ObjectKind> {
    if let Some((kind, _)) = request.object {
        return Some(kind);
    }
    if context.get(ContextKind::CustomAudiences, id).is_some() {
        return Some(ObjectKind::CustomAudience);
    }
    if context.get(ContextKind::AdSets, id).is_some() {
        return Some(ObjectKind::AdSet);
    }
    // The params, when only one kind takes them all.
    let method = request.method()?;
    let names: Vec<&str> = request
        .params()
        .map(|e| e.key.as_str())
        .filter(|n| !TABLES_DATA.common.iter().any(|c| c == n))
        .collect();
    if names.is_empty() {
        return None;
    }
    let takes = |kind: ObjectKind| {
        Endpoint::by_id(kind, method).is_some_and(|e| {
            // What create takes also tells the kind, even where an update cannot change it.
            let create = TABLES_DATA.endpoint(e.table()).create.as_deref();
            names.iter().all(|n| {
                TABLES_DATA.takes(e.table(), n) || create.is_some_and(|c| TABLES_DATA.takes(c, n))
            })
        })
    };
    match (takes(ObjectKind::CustomAudience), takes(ObjectKind::AdSet)) {
        (true, false) => Some(ObjectKind::CustomAudience),
        (false, true) => Some(ObjectKind::AdSet),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::loading::{Format, Limits, parse_text};
    use crate::model::FileModel;

    fn recognized(yaml: &str, context: &ContextIndex) -> Vec<String> {
        let (docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        let model = FileModel::build(&docs, yaml);
        model
            .requests
            .iter()
            .map(|r| match recognize(r, context) {
                Some(Recognized::Call(e, _)) => e.table().to_string(),
                Some(Recognized::UnknownKind(_)) => "unknown kind".into(),
                Some(Recognized::NoEndpoint { .. }) => "no endpoint".into(),
                None => "not advertising".into(),
            })
            .collect()
    }

    #[test]
    fn paths_and_methods() {
        let yaml = "requests:\n  - POST /v24.0/act_1/customaudiences\n  - DELETE /v24.0/act_1/usersofanyaudience\n  - POST /v24.0/act_1/adsets\n  - POST /v24.0/2385/copies\n  - GET /v24.0/act_1/adsets\n  - POST /v24.0/act_1/campaigns\n  - GET /user/emails\n  - DELETE /v24.0/2385\n";
        assert_eq!(
            recognized(yaml, &ContextIndex::default()),
            vec![
                "audience_create",
                "audience_opt_out",
                "ad_set_create",
                "ad_set_copy",
                "no endpoint",
                "no endpoint",
                "not advertising",
                "unknown kind"
            ]
        );
    }

    #[test]
    fn object_kind_from_object_context_and_params() {
        let mut context = ContextIndex::default();
        context
            .add_text(
                b"custom_audiences: [{id: '111'}]\nad_sets: [{id: '222'}]\n".to_vec(),
                Path::new("s.yaml"),
            )
            .unwrap();
        let yaml = "requests:\n  - {request: DELETE /v24.0/333, object: ad_set}\n  - DELETE /v24.0/111\n  - GET /v24.0/222\n  - {request: POST /v24.0/333, params: {retention_days: 30}}\n  - {request: POST /v24.0/333, params: {billing_event: IMPRESSIONS}}\n  - {request: POST /v24.0/333, params: {name: x}}\n  - GET /v24.0/333?date_preset=last_7d\n";
        assert_eq!(
            recognized(yaml, &context),
            vec![
                "ad_set_delete",
                "audience_delete",
                "ad_set_read",
                "audience_update",
                "ad_set_update",
                "unknown kind",
                "ad_set_read"
            ]
        );
    }
}

//! JSON-encoded string params (docs/request-files.md), decoded in place in the loaded
//! documents before the request model borrows them.

use super::encoded::decode_in_place;
use super::{Limits, Node, Problem, Value};

/// Decodes JSON-encoded string params in place (docs/request-files.md), before requests borrow the
/// documents. Returns the problems of strings that should hold JSON but do not: those of
/// `json_params`, the params the APIs take as JSON-encoded strings only.
pub fn decode_encoded_params(
    documents: &mut [Node],
    file: &str,
    limits: &Limits,
    json_params: &[&str],
) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut decode_params = |request: &mut Node| {
        let Value::Map(entries) = &mut request.value else {
            return;
        };
        let Some(params) = entries.iter_mut().find(|e| e.key == "params") else {
            return;
        };
        let Value::Map(params) = &mut params.value.value else {
            return;
        };
        for param in params.iter_mut() {
            if let Some(problem) = decode_in_place(&mut param.value, file, limits)
                && json_params.contains(&param.key.as_str())
            {
                problems.push(problem);
            }
        }
    };
    for doc in documents.iter_mut() {
        let Value::Map(entries) = &mut doc.value else {
            continue;
        };
        if let Some(requests) = entries.iter_mut().find(|e| e.key == "requests") {
            if let Value::Seq(items) = &mut requests.value.value {
                items.iter_mut().for_each(&mut decode_params);
            }
        } else {
            decode_params(doc);
        }
    }
    problems
}

//! The JSON-RPC envelope of a message body, and writing messages out.
//!
//! lsp-server's `Message` is what the server acts on and what it sends. What a client
//! may write that `Message` cannot hold is sorted out here first, so that it is
//! answered as before rather than dropped: a batch (an array of messages), a body that is
//! not JSON, a message that is no request, notification or response, and a request whose
//! id is neither a string nor an integer LSP allows (32 bits). Their answers carry the id
//! as the client wrote it, or null, which lsp-server's `Response` cannot: those (and a
//! batch's answer) are the only messages framed here rather than by lsp-server.

use std::io::{self, Write};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError};
use serde_json::Value;

/// What one body holds.
pub enum Body {
    One(Value),
    /// A batch (JSON-RPC 2.0): answered with the batch of the answers to its requests.
    Batch(Vec<Value>),
    /// Not JSON, or an empty batch.
    Unreadable(Answer),
}

/// One message of a body, sorted.
pub enum Received {
    Request(Request),
    Notification(Notification),
    /// A response to a request of the server's own (a registration): nothing to do.
    Response,
    /// A message the server cannot act on, and its answer.
    Invalid(Answer),
}

/// The server's answer to one message.
#[derive(Debug)]
pub enum Answer {
    Response(Response),
    /// An error about a message without an id lsp-server can hold: the id as the client
    /// wrote it, or null where none could be read.
    Error {
        id: Value,
        error: ResponseError,
    },
}

impl Answer {
    pub fn error(id: Value, code: ErrorCode, message: impl Into<String>) -> Answer {
        Answer::Error {
            id,
            error: ResponseError {
                code: code as i32,
                message: message.into(),
                data: None,
            },
        }
    }

    /// The message as it is written: JSON-RPC 2.0.
    fn into_value(self) -> Value {
        let mut value = match self {
            Answer::Response(response) => {
                serde_json::to_value(Message::Response(response)).unwrap_or(Value::Null)
            }
            Answer::Error { id, error } => serde_json::json!({"id": id, "error": error}),
        };
        if let Value::Object(fields) = &mut value {
            fields.insert("jsonrpc".into(), "2.0".into());
        }
        value
    }
}

/// Reads a body: one message or a batch of them.
pub fn parse(body: &[u8]) -> Body {
    match serde_json::from_slice(body) {
        Err(e) => Body::Unreadable(Answer::error(
            Value::Null,
            ErrorCode::ParseError,
            format!("cannot parse the message: {e}"),
        )),
        Ok(Value::Array(items)) if items.is_empty() => Body::Unreadable(Answer::error(
            Value::Null,
            ErrorCode::InvalidRequest,
            "an empty batch",
        )),
        Ok(Value::Array(items)) => Body::Batch(items),
        Ok(one) => Body::One(one),
    }
}

/// Sorts one message: a request has a method and an id, a notification a method only,
/// a response an id and a result or an error.
pub fn sort(message: Value) -> Received {
    let Value::Object(mut fields) = message else {
        return Received::Invalid(Answer::error(
            Value::Null,
            ErrorCode::InvalidRequest,
            "a message must be an object",
        ));
    };
    let id = fields.remove("id");
    let Some(Value::String(method)) = fields.remove("method") else {
        if id.is_some() && (fields.contains_key("result") || fields.contains_key("error")) {
            return Received::Response;
        }
        return Received::Invalid(Answer::error(
            id.unwrap_or(Value::Null),
            ErrorCode::InvalidRequest,
            "a message without a method",
        ));
    };
    let params = fields.remove("params").unwrap_or(Value::Null);
    let Some(id) = id else {
        return Received::Notification(Notification { method, params });
    };
    match serde_json::from_value::<RequestId>(id.clone()) {
        Ok(id) => Received::Request(Request { id, method, params }),
        Err(_) => Received::Invalid(Answer::error(
            id,
            ErrorCode::InvalidRequest,
            "an id must be a string or a 32-bit integer",
        )),
    }
}

pub fn write_answer(out: &mut impl Write, answer: Answer) -> io::Result<()> {
    match answer {
        Answer::Response(response) => Message::Response(response).write(out),
        error => write_value(out, &error.into_value()),
    }
}

pub fn write_batch(out: &mut impl Write, answers: Vec<Answer>) -> io::Result<()> {
    let answers = answers.into_iter().map(Answer::into_value).collect();
    write_value(out, &Value::Array(answers))
}

/// The same framing as lsp-server's writer, for what its `Message` cannot hold.
fn write_value(out: &mut impl Write, message: &Value) -> io::Result<()> {
    let body = serde_json::to_string(message)?;
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The messages written to `out`, read back.
    fn written(out: &[u8]) -> Vec<Value> {
        let mut reader = io::BufReader::new(out);
        let mut messages = Vec::new();
        while let Some(Message::Response(r)) = Message::read(&mut reader).unwrap() {
            messages.push(serde_json::to_value(r).unwrap());
        }
        messages
    }

    #[test]
    fn messages_are_sorted_as_json_rpc_says() {
        let request = sort(json!({"jsonrpc": "2.0", "id": 7, "method": "m", "params": [1]}));
        assert!(
            matches!(&request, Received::Request(r) if r.id == 7.into() && r.params == json!([1]))
        );
        let string_id = sort(json!({"id": "a", "method": "m"}));
        assert!(matches!(&string_id, Received::Request(r) if r.id == "a".to_string().into()));
        assert!(matches!(
            sort(json!({"method": "m"})),
            Received::Notification(n) if n.params.is_null()
        ));
        assert!(matches!(
            sort(json!({"id": 1, "result": null})),
            Received::Response
        ));
        assert!(matches!(
            sort(json!({"id": 1, "error": {"code": 1, "message": "x"}})),
            Received::Response
        ));
        // Answered with the id as written, which lsp-server's RequestId cannot hold.
        for (message, id) in [
            (json!([1]), Value::Null),
            (json!({"id": 4}), json!(4)),
            (json!({"method": 3}), Value::Null),
            (json!({"id": null, "method": "m"}), Value::Null),
            (
                json!({"id": 4294967296_u64, "method": "m"}),
                json!(4294967296_u64),
            ),
            (json!({"id": 1.5, "method": "m"}), json!(1.5)),
        ] {
            let Received::Invalid(answer) = sort(message.clone()) else {
                panic!("{message} is not answered as invalid");
            };
            let value = answer.into_value();
            assert_eq!(value["id"], id, "{message}");
            assert_eq!(value["error"]["code"], -32600, "{message}");
            assert_eq!(value["jsonrpc"], "2.0");
        }
    }

    #[test]
    fn answers_are_framed_one_by_one_or_as_a_batch() {
        let mut out = Vec::new();
        write_answer(&mut out, Answer::Response(Response::new_ok(3.into(), ()))).unwrap();
        let first = written(&out);
        assert_eq!(first, [json!({"id": 3, "result": null})]);
        assert!(String::from_utf8_lossy(&out).contains("\"jsonrpc\":\"2.0\""));
        let mut out = Vec::new();
        write_batch(
            &mut out,
            vec![
                Answer::Response(Response::new_ok(1.into(), "x")),
                Answer::error(Value::Null, ErrorCode::ParseError, "bad"),
            ],
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let (header, body) = text.split_once("\r\n\r\n").unwrap();
        assert_eq!(header, format!("Content-Length: {}", body.len()));
        assert_eq!(
            serde_json::from_str::<Value>(body).unwrap(),
            json!([
                {"jsonrpc": "2.0", "id": 1, "result": "x"},
                {"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "bad"}},
            ])
        );
        assert!(matches!(parse(b"[]"), Body::Unreadable(_)));
        assert!(matches!(parse(b"{x"), Body::Unreadable(_)));
        assert!(matches!(parse(b"[{}, 1]"), Body::Batch(items) if items.len() == 2));
    }
}

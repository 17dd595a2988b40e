//! A language-server client for the tests: `reqlint server` started with piped standard
//! input and output, and JSON-RPC messages framed with `Content-Length`.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

pub struct Client {
    pub stdin: ChildStdin,
    pub stdout: BufReader<ChildStdout>,
}

/// `reqlint server`, in `dir` when given.
pub fn start_server(dir: Option<&Path>) -> (Child, Client) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reqlint"));
    command
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command.spawn().unwrap();
    let c = Client {
        stdin: child.stdin.take().unwrap(),
        stdout: BufReader::new(child.stdout.take().unwrap()),
    };
    (child, c)
}

impl Client {
    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed its output"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length:") {
                length = v.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// The next diagnostics published for `uri` (other messages are passed over).
    pub fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    /// The answer to the request `id` (other messages are passed over).
    pub fn response_to(&mut self, id: &Value) -> Value {
        loop {
            let m = self.receive();
            if &m["id"] == id {
                return m;
            }
        }
    }

    /// Opens a document with this text and waits for its diagnostics.
    pub fn open(&mut self, uri: &str, language: &str, text: &str) -> Vec<Value> {
        self.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}}));
        self.diagnostics_for(uri)
    }

    pub fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn framed(&mut self, body: &[u8]) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.raw(body);
    }

    pub fn initialize(&mut self, params: Value) {
        self.send(
            json!({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params}),
        );
        assert_eq!(self.receive()["id"], "init");
        self.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    }
}

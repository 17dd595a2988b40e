//! The server's state, its life cycle (`initialize`, `shutdown`, `exit`), and the
//! handler each method goes to.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Exit, Initialized, Notification as _,
};
use lsp_types::request::{
    CodeActionRequest, Completion, HoverRequest, Initialize, RegisterCapability, Request as _,
    Shutdown,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern,
    HoverProviderCapability, InitializeParams, InitializeResult, PositionEncodingKind,
    Registration, RegistrationParams, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use serde_json::Value;

use super::configs::Configs;
use super::dispatch::{NotificationDispatch, RequestDispatch};
use super::jsonrpc::{self, Answer, Body, Received};
use super::positions::uri_to_path;

/// The code action kind of "fix all safe fixes in the file", which the server announces.
pub const FIX_ALL_KIND: &str = "source.fixAll.reqlint";

/// A document's last lint: the text it was made from, the result, the settings and the
/// path relative to the config's root. Diagnostics, hover and code actions of the same
/// text share it, so that a request lints a document at most once.
pub struct Linted {
    pub text: String,
    pub result: crate::engine::FileResult,
    pub settings: std::sync::Arc<crate::engine::Settings>,
    pub rel: std::path::PathBuf,
}

/// What the server knows of the client and its documents.
pub struct Server {
    pub(super) configs: Configs,
    /// The text the editor holds of each open document.
    pub(super) documents: HashMap<Uri, String>,
    /// The last lint of each open document.
    pub(super) lints: HashMap<Uri, Rc<Linted>>,
    initialized: bool,
    pub(super) shut_down: bool,
    /// The client registers file watchers on request (LSP dynamic registration).
    can_watch: bool,
    next_id: u64,
    /// Positions count UTF-8 bytes (the client offered `utf-8`), else UTF-16 code units.
    pub(super) utf8: bool,
    /// What the server sends besides answers (diagnostics, a registration), written
    /// before the answer to the message that made it.
    outbox: Vec<Message>,
}

/// What the server does after a message.
pub enum Flow {
    Continue,
    Exit(ExitCode),
}

impl Server {
    pub fn new() -> Server {
        Server {
            configs: Configs::default(),
            documents: HashMap::new(),
            lints: HashMap::new(),
            initialized: false,
            shut_down: false,
            can_watch: false,
            next_id: 1,
            utf8: false,
            outbox: Vec::new(),
        }
    }

    /// The exit code of `exit`, or of the end of the input: 0 after `shutdown`, 1
    /// otherwise (LSP).
    pub fn exit_code(&self) -> ExitCode {
        if self.shut_down {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }
    }

    /// Sends a notification, after the message being handled.
    pub(super) fn notify<N: lsp_types::notification::Notification>(&mut self, params: N::Params) {
        let notification = Notification::new(N::METHOD.to_string(), params);
        self.outbox.push(notification.into());
    }

    fn send_outbox(&mut self, out: &mut impl Write) -> io::Result<()> {
        for message in self.outbox.drain(..) {
            message.write(out)?;
        }
        Ok(())
    }

    /// One body, a message or a batch of them (JSON-RPC 2.0): answers what it asks.
    pub fn handle(&mut self, out: &mut impl Write, body: &[u8]) -> io::Result<Flow> {
        match jsonrpc::parse(body) {
            Body::Unreadable(answer) => {
                jsonrpc::write_answer(out, answer)?;
                Ok(Flow::Continue)
            }
            Body::One(message) => {
                let (answer, flow) = self.handle_one(message);
                self.send_outbox(out)?;
                if let Some(answer) = answer {
                    jsonrpc::write_answer(out, answer)?;
                }
                Ok(flow)
            }
            Body::Batch(messages) => {
                let mut answers = Vec::new();
                let mut flow = Flow::Continue;
                for message in messages {
                    let (answer, f) = self.handle_one(message);
                    self.send_outbox(out)?;
                    answers.extend(answer);
                    if let Flow::Exit(code) = f {
                        flow = Flow::Exit(code);
                        break;
                    }
                }
                if !answers.is_empty() {
                    jsonrpc::write_batch(out, answers)?;
                }
                Ok(flow)
            }
        }
    }

    /// One message: its answer if it is a request, and whether to go on.
    fn handle_one(&mut self, message: Value) -> (Option<Answer>, Flow) {
        match jsonrpc::sort(message) {
            Received::Request(request) => self.on_request(request),
            Received::Notification(notification) => (None, self.on_notification(notification)),
            Received::Response => (None, Flow::Continue),
            Received::Invalid(answer) => (Some(answer), Flow::Continue),
        }
    }

    /// Whether the life cycle lets a message through: nothing but `initialize` before
    /// it, nothing after `shutdown` (`exit` is let through before this is asked).
    fn refusal(&self, method: &str) -> Option<(ErrorCode, &'static str)> {
        if !self.initialized && method != Initialize::METHOD {
            return Some((
                ErrorCode::ServerNotInitialized,
                "the server is not initialized",
            ));
        }
        self.shut_down
            .then_some((ErrorCode::InvalidRequest, "the server is shut down"))
    }

    fn on_request(&mut self, request: Request) -> (Option<Answer>, Flow) {
        if request.method == Exit::METHOD {
            return (None, Flow::Exit(self.exit_code()));
        }
        if let Some((code, message)) = self.refusal(&request.method) {
            let response = Response::new_err(request.id, code as i32, message.into());
            return (Some(Answer::Response(response)), Flow::Continue);
        }
        let response = match request.method.as_str() {
            Initialize::METHOD => self.initialize(request),
            Shutdown::METHOD => {
                // Its params are void: whatever the client wrote there is not read.
                self.shut_down = true;
                Response::new_ok(request.id, ())
            }
            _ => RequestDispatch::new(self, request)
                .on::<HoverRequest>(Server::hover)
                .on::<Completion>(Server::completion)
                .on::<CodeActionRequest>(|server, params| Some(server.code_actions(params)))
                .finish(),
        };
        (Some(Answer::Response(response)), Flow::Continue)
    }

    fn on_notification(&mut self, notification: Notification) -> Flow {
        if notification.method == Exit::METHOD {
            return Flow::Exit(self.exit_code());
        }
        // LSP: a notification before `initialize` is dropped.
        if self.refusal(&notification.method).is_some() {
            return Flow::Continue;
        }
        if notification.method == Initialized::METHOD {
            // Its params are empty: whatever the client wrote there is not read.
            self.register_watchers();
            return Flow::Continue;
        }
        NotificationDispatch::new(self, notification)
            .on::<DidChangeWatchedFiles>(Server::watched_files_changed)
            .on::<DidOpenTextDocument>(Server::opened)
            .on::<DidChangeTextDocument>(Server::changed)
            .on::<DidSaveTextDocument>(Server::saved)
            .on::<DidCloseTextDocument>(Server::closed);
        Flow::Continue
    }

    fn initialize(&mut self, request: Request) -> Response {
        if self.initialized {
            let message = "the server is initialized already".to_string();
            return Response::new_err(request.id, ErrorCode::InvalidRequest as i32, message);
        }
        // Params it cannot read are taken as a client that says nothing (no workspace,
        // no capabilities), as a missing field is: `initialize` is never refused.
        let params: InitializeParams = serde_json::from_value(request.params).unwrap_or_default();
        self.initialized = true;
        self.configs.workspace = workspace_root(&params);
        let capabilities = &params.capabilities;
        self.can_watch = capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files)
            .and_then(|w| w.dynamic_registration)
            == Some(true);
        self.utf8 = capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
        let result = InitializeResult {
            capabilities: capabilities_offered(self.utf8),
            server_info: Some(ServerInfo {
                name: "reqlint".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        Response::new_ok(request.id, result)
    }

    /// Configs and snapshots change outside the editor too (a checkout): the server asks
    /// the client to tell, where it can.
    fn register_watchers(&mut self) {
        if !self.can_watch {
            return;
        }
        let id = RequestId::from(format!("reqlint-{}", self.next_id));
        self.next_id += 1;
        let watchers = ["**/.reqlint.yaml", "**/*.{yaml,yml,json}"]
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.into()),
                kind: None,
            })
            .to_vec();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "reqlint-watch".into(),
                method: DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        let request = Request::new(id, RegisterCapability::METHOD.into(), params);
        self.outbox.push(request.into());
    }
}

/// What the server offers, positions in the encoding agreed on.
fn capabilities_offered(utf8: bool) -> ServerCapabilities {
    let code_action_kinds = vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL_KIND)];
    ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(true),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(code_action_kinds),
            ..CodeActionOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// The workspace root of an `initialize` request: its first workspace folder, else its
/// `rootUri`, else its `rootPath`.
fn workspace_root(params: &InitializeParams) -> Option<PathBuf> {
    // `rootUri` and `rootPath` are deprecated, and still what some clients send alone.
    #[allow(deprecated)]
    let (root_uri, root_path) = (&params.root_uri, &params.root_path);
    params
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .map(|f| &f.uri)
        .or(root_uri.as_ref())
        .and_then(|uri| uri_to_path(uri.as_str()))
        .or_else(|| root_path.as_ref().map(PathBuf::from))
}

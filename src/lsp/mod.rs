//! `reqlint server`: a Language Server Protocol server over standard input and output.
//! It publishes diagnostics when a document is opened, changed or saved, from the text
//! the editor holds (not the disk), with the config found for each file.
//!
//! The protocol's types are `lsp-types`' and its messages `lsp-server`'s (rust-analyzer's
//! crates); reading the input is bounded and done here (`framing.rs`), and so is the
//! JSON-RPC envelope that `lsp-server`'s `Message` cannot hold (`jsonrpc.rs`).

mod code_actions;
pub mod complete;
mod configs;
mod dispatch;
mod documents;
mod framing;
pub mod hover;
mod jsonrpc;
mod positions;
mod server;
#[cfg(test)]
mod tests;

use std::io::{self, BufReader};
use std::process::ExitCode;

pub use positions::{lsp_position, path_to_uri, uri_to_path};

use framing::{Incoming, MessageReader};
use jsonrpc::Answer;
use server::{Flow, Server};

/// Runs the server until `exit`. Exit code 0 after `shutdown`, 1 otherwise (LSP). A
/// message it cannot read is answered with an error and the server goes on.
pub fn run() -> Result<ExitCode, String> {
    let stdin = io::stdin();
    let mut messages = MessageReader::new(BufReader::new(stdin.lock()));
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut server = Server::new();
    let io_error = |e: io::Error| format!("language server: {e}");
    while let Some(incoming) = messages.next_message().map_err(io_error)? {
        let flow = match incoming {
            Incoming::Body(body) => server.handle(&mut out, &body).map_err(io_error)?,
            Incoming::Unreadable(why) => {
                let answer = Answer::error(
                    serde_json::Value::Null,
                    lsp_server::ErrorCode::ParseError,
                    why,
                );
                jsonrpc::write_answer(&mut out, answer).map_err(io_error)?;
                Flow::Continue
            }
        };
        if let Flow::Exit(code) = flow {
            return Ok(code);
        }
    }
    Ok(server.exit_code())
}

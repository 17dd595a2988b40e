//! Reading messages off the input, every length bounded.
//!
//! Hand-written rather than lsp-server's `Message::read` (0.10), which trusts what a
//! header says: it allocates and zeroes the body at the size its `Content-Length` claims
//! before a byte of it arrives (2 GB for `2000000000`; `18446744073709551615` panics),
//! keeps a header line of any length, takes only `\r\n` line ends, and fails at the first
//! malformed header, which ends lsp-server's connection. This reader answers such a
//! message and finds the next one. The bodies it reads become lsp-server's `Request`s
//! and `Notification`s (`jsonrpc.rs`).

use std::io::{self, BufRead};

/// The largest message body the server reads (a document is at most 10 MiB, JSON escaping
/// can double it); a larger one is skipped without being held.
const MAX_BODY: u64 = 32 * 1024 * 1024;
/// The longest header line kept; the rest of a longer one is read and dropped.
const MAX_HEADER_LINE: usize = 8 * 1024;

/// What one read of the input gives.
#[derive(Debug, PartialEq)]
pub enum Incoming {
    /// A message's body.
    Body(Vec<u8>),
    /// A message that cannot be read (no length, too long): answered with an error, and
    /// the server goes on with the next one.
    Unreadable(String),
}

/// Which end of a header line longer than the limit is kept.
#[derive(Clone, Copy, PartialEq)]
enum Keep {
    Head,
    /// The end: where the header of the next message starts after a body that was not
    /// read (`{…}Content-Length: 52`).
    Tail,
}

/// Reads one line (up to `\n`) keeping at most `max` bytes of it; `None` at the end.
fn read_header_line(
    reader: &mut impl BufRead,
    max: usize,
    keep: Keep,
) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (taken, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        match keep {
            Keep::Head => {
                let room = max.saturating_sub(line.len());
                line.extend_from_slice(&buf[..taken.min(room)]);
            }
            Keep::Tail => {
                line.extend_from_slice(&buf[..taken]);
                // Dropped in halves, so that each byte is moved a bounded number of times.
                if line.len() > 2 * max {
                    line.drain(..line.len() - max);
                }
            }
        }
        reader.consume(taken);
        if done {
            return Ok(Some(line));
        }
    }
}

/// The header that starts a message.
const LENGTH_HEADER: &str = "content-length:";

/// Reads one message (`Content-Length` framing, header names in any case); `None` at the
/// end of the input. Every length is bounded: a header line by [`MAX_HEADER_LINE`], a body
/// by [`MAX_BODY`]; a body is held as its bytes arrive, never allocated at the size its
/// header claims.
///
/// A message whose length is missing, invalid (`-1`) or over the limit is answered at
/// once, before its body (the server cannot know where that ends), and `resync` is set:
/// the next read skips what follows up to the next `Content-Length` header, which a
/// client writes right after the body (`{…}Content-Length: 52`), so that the next
/// request is answered rather than taken for the rest of the bad one.
fn read_message(reader: &mut impl BufRead, resync: &mut bool) -> io::Result<Option<Incoming>> {
    let mut length: Option<Result<u64, String>> = None;
    let mut any_header = false;
    loop {
        let keep = if *resync { Keep::Tail } else { Keep::Head };
        let Some(line) = read_header_line(reader, MAX_HEADER_LINE, keep)? else {
            return Ok(None);
        };
        let line = String::from_utf8_lossy(&line);
        let mut line = line.trim_end_matches(['\r', '\n']);
        if *resync {
            // The header is ASCII: its offset in the lower-cased line is its offset here.
            let Some(at) = line.to_ascii_lowercase().rfind(LENGTH_HEADER) else {
                continue;
            };
            line = &line[at..];
            *resync = false;
        }
        if line.is_empty() {
            if any_header {
                break;
            }
            // Blank lines between messages are tolerated.
            continue;
        }
        any_header = true;
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = Some(
                value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| format!("invalid Content-Length `{}`", value.trim())),
            );
        }
    }
    let length = match length {
        None => Err("a message without Content-Length".to_string()),
        Some(Err(e)) => Err(e),
        Some(Ok(n)) if n > MAX_BODY => Err(format!(
            "a message of {n} bytes, over the limit of {MAX_BODY}"
        )),
        Some(Ok(n)) => Ok(n as usize),
    };
    let length = match length {
        Ok(n) => n,
        Err(why) => {
            *resync = true;
            return Ok(Some(Incoming::Unreadable(why)));
        }
    };
    let mut body = Vec::new();
    while body.len() < length {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(None);
        }
        let taken = buf.len().min(length - body.len());
        body.extend_from_slice(&buf[..taken]);
        reader.consume(taken);
    }
    Ok(Some(Incoming::Body(body)))
}

/// The messages of an input, one after the other.
pub struct MessageReader<R> {
    input: R,
    /// Skip what follows up to the next `Content-Length` header (see [`read_message`]).
    resync: bool,
}

impl<R: BufRead> MessageReader<R> {
    pub fn new(input: R) -> MessageReader<R> {
        MessageReader {
            input,
            resync: false,
        }
    }

    /// The next message; `None` at the end of the input.
    pub fn next_message(&mut self) -> io::Result<Option<Incoming>> {
        read_message(&mut self.input, &mut self.resync)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing() {
        let input = b"Content-Length: 17\r\n\r\n{\"jsonrpc\":\"2.0\"}";
        let mut reader = io::BufReader::new(&input[..]);
        let mut resync = false;
        assert_eq!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Body(b"{\"jsonrpc\":\"2.0\"}".to_vec()))
        );
        assert_eq!(read_message(&mut reader, &mut resync).unwrap(), None);
    }

    /// The bodies read from `input`, `None` for each message answered as unreadable.
    fn bodies(input: &[u8]) -> Vec<Option<String>> {
        let mut messages = MessageReader::new(io::BufReader::with_capacity(64, input));
        let mut out = Vec::new();
        while let Some(m) = messages.next_message().unwrap() {
            out.push(match m {
                Incoming::Body(b) => Some(String::from_utf8(b).unwrap()),
                Incoming::Unreadable(_) => None,
            });
        }
        out
    }

    #[test]
    fn a_message_without_a_usable_length_does_not_take_the_next_one() {
        let next = "Content-Length: 2\r\n\r\n{}";
        let long = format!("{{\"text\": \"{}\"}}", "x".repeat(3 * MAX_HEADER_LINE));
        for (header, body) in [
            ("X-Other: 1\r\n", "{\"id\": 1}"),
            ("Content-Length: -1\r\n", "{\"id\": 1}"),
            ("Content-Length: 99999999999999\r\n", "{\"id\": 1}"),
            ("Content-Length: many\r\n", "{\"a\":\r\n\r\n 1}"),
            ("Content-Type: x\r\n", long.as_str()),
        ] {
            let input = format!("{header}\r\n{body}{next}{next}");
            assert_eq!(
                bodies(input.as_bytes()),
                [None, Some("{}".into()), Some("{}".into())],
                "{header}"
            );
        }
    }

    #[test]
    fn line_ends_may_be_bare_line_feeds() {
        let input = b"Content-Length: 2\n\n{}Content-Length: 3\r\n\r\n[1]";
        assert_eq!(bodies(input), [Some("{}".into()), Some("[1]".into())]);
    }

    #[test]
    fn a_body_is_held_as_it_arrives() {
        // Announced 30 MiB, 10 bytes sent: the end of the input, after 10 bytes held.
        assert_eq!(bodies(b"Content-Length: 31457280\r\n\r\n0123456789"), []);
    }

    #[test]
    fn framing_is_bounded_and_forgiving() {
        // A lower-case header name; a message without a length; a length too large to
        // hold; an endless header line.
        let mut input = b"content-length: 2\r\n\r\n{}".to_vec();
        input.extend_from_slice(b"X-Other: 1\r\n\r\n");
        input.extend_from_slice(b"Content-Length: 18446744073709551615\r\n\r\n{}");
        let mut reader = io::BufReader::new(&input[..]);
        let mut resync = false;
        assert_eq!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Body(b"{}".to_vec()))
        );
        assert!(matches!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Unreadable(_))
        ));
        // A length too large: answered at once, and what follows is skipped up to the
        // next header (there is none: the end).
        assert!(matches!(
            read_message(&mut reader, &mut resync).unwrap(),
            Some(Incoming::Unreadable(_))
        ));
        assert_eq!(read_message(&mut reader, &mut resync).unwrap(), None);
        let endless = vec![b'x'; 10 * MAX_HEADER_LINE];
        for keep in [Keep::Head, Keep::Tail] {
            let mut reader = io::BufReader::new(&endless[..]);
            let line = read_header_line(&mut reader, MAX_HEADER_LINE, keep)
                .unwrap()
                .unwrap();
            assert!(line.len() <= 2 * MAX_HEADER_LINE);
        }
    }
}

//! The commands of a bash script as a workflow's `run:` step holds it, and among them the
//! calls to an HTTP API (`gh api`, `curl`, `wget`, HTTPie), with the span of every part,
//! so that a rule can say which permission a step's call needs at the very word that
//! makes it.
//!
//! This is not a shell: it splits the script the way bash would (quotes, escapes, line
//! continuations, comments, substitutions, heredocs, compound commands) and reads the
//! words of each simple command as written. GitHub expressions (`${{ … }}`) are
//! substituted by the runner before bash sees the script, so each is one opaque part of
//! the word it stands in. Nothing is expanded: a word that holds `$X` keeps it. The
//! script of `bash -c '…'` (or `sh -c`) is read as a script too, its spans in the outer
//! one, three levels deep.
//!
//! One pass over the script, with the nesting of substitutions bounded: any text, however
//! hostile, is read in time linear in its length and never panics; what cannot be split
//! (an unterminated quote, nesting past the bound) is an [`Command::Unreadable`] with its
//! span, so that a rule says "cannot tell" instead of guessing.

use std::ops::Range;

/// How deep substitutions (`$(…)`, backticks, `<(…)`) may nest: bash scripts in workflows
/// nest two or three; the bound keeps a hostile script from exhausting the stack.
const MAX_DEPTH: usize = 32;

/// One simple command of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An HTTP call (`gh api`, or `curl`/`wget`/HTTPie to an `http(s)` URL or to a URL
    /// held in a variable): which API it reaches is for the caller to decide by host.
    Call(Call),
    /// A `gh` subcommand other than `gh api`, by its first two words (`pr create`): its
    /// needs come from a table of subcommands, not from a route.
    Gh {
        sub: String,
        /// The words after `gh` other than the subcommand's own (its flags and
        /// arguments, global flags such as `-R` included).
        words: Vec<Word>,
        span: Range<usize>,
        assignments: Vec<Assignment>,
    },
    /// A `git` command by its subcommand (`push`, `fetch`, `clone`): it uses the job's
    /// token through the credentials `actions/checkout` leaves behind.
    Git { sub: String, span: Range<usize> },
    /// `VAR=value` alone, or one assignment of `export`/`declare`/`local`/`readonly`.
    Assignment(Assignment),
    /// Any other command, by its first word as written.
    Other { name: String, span: Range<usize> },
    /// What could not be split: from the command it starts in to the end of the script.
    Unreadable { span: Range<usize>, why: String },
}

/// The tool that makes a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    GhApi,
    Curl,
    Wget,
    Httpie,
}

/// An HTTP call as its command line writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub form: Form,
    /// The whole simple command, its assignments and redirections included.
    pub span: Range<usize>,
    /// The method as written (`-X POST`, `--method=PATCH`, `http PUT …`).
    pub method: Option<(String, Range<usize>)>,
    /// What the tool sends when no method is written, from the flags given (a body
    /// makes `gh api` and `curl` send POST).
    pub implied_method: &'static str,
    /// The route (`gh api`) or the URL, unquoted, expansions as written.
    pub target: Option<(String, Range<usize>)>,
    pub fields: Vec<Field>,
    pub headers: Vec<Header>,
    /// The credential the call sends, where the command line shows it.
    pub token: Option<TokenSource>,
    /// The body's file (`--input FILE`, `-d @file`) or the heredoc the call reads as its
    /// body.
    pub input: Option<Range<usize>>,
    /// `VAR=value` written before the command (or after `env`): they hold the call's
    /// token for `gh` (`GH_TOKEN=… gh api …`).
    pub assignments: Vec<Assignment>,
    /// `gh api --hostname`: the host the call goes to instead of github.com.
    pub hostname: Option<String>,
    pub paginate: bool,
}

/// Where a call's credential comes from. Never the credential itself: a literal value
/// is only said to be literal, so that no text built from this shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenSource {
    /// A shell variable (`$GITHUB_TOKEN`, `${MY_PAT}`): its value comes from `env:`.
    Variable(String),
    /// A GitHub expression, without `${{ }}` (`secrets.GITHUB_TOKEN`, `github.token`).
    Expression(String),
    /// A value written in the script.
    Literal,
    /// A value computed when the step runs (`$(gh auth token)`, `x$Y`): which token it is
    /// cannot be told.
    Unknown,
}

/// A body field: `gh api -f/-F`, a curl form or JSON body's top-level key, an HTTPie
/// data item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The name as written: nested names (`a[b]`, `a[]`) are not taken apart.
    pub name: String,
    pub name_span: Range<usize>,
    /// The value, unquoted (a JSON string without its quotes); `None` where there is
    /// none (`-f name`) or it is not a scalar (a JSON object, a file's content).
    pub value: Option<String>,
    pub value_span: Range<usize>,
    /// Sent with its JSON type (`gh api -F`, HTTPie `:=`) rather than as a string.
    pub typed: bool,
}

/// A header as written. The value of an `Authorization` header is kept as written and
/// may be a credential: show it only through the redaction step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub span: Range<usize>,
}

/// `NAME=value`, its value unquoted with expansions as written. A literal value may be
/// a credential (`GH_TOKEN=ghp_…`): show it only through the redaction step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub name: String,
    pub value: String,
    pub span: Range<usize>,
}

/// A word of a command: its text without quotes and escapes, expansions as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    /// The word as written, its quotes included.
    pub span: Range<usize>,
    /// It holds an expansion (`$X`, `${X}`, `$(…)`, a backtick, `${{ … }}`): its value is
    /// known only when the step runs.
    pub expanded: bool,
}

/// The commands of a script, in the order their text ends (a substitution's commands
/// before the command that holds them).
pub fn commands(script: &str) -> Vec<Command> {
    commands_within(script, 0)
}

/// How deep `bash -c '…'` scripts are read inside each other: each level reads its
/// script's text again.
const MAX_SHELL_DEPTH: usize = 3;

fn commands_within(script: &str, shell_depth: usize) -> Vec<Command> {
    let mut parser = Parser {
        shell_depth,
        src: script,
        bytes: script.as_bytes(),
        pos: 0,
        found: Vec::new(),
        next_id: 0,
        pending_heredocs: Vec::new(),
        heredoc_bodies: Vec::new(),
        double_bracket: false,
        peeked: None,
        outer_start: None,
    };
    if let Err(fatal) = parser.list(0, Term::Eof) {
        let start = parser.outer_start.unwrap_or(fatal.at).min(fatal.at);
        parser.found.push(Found {
            id: usize::MAX,
            command: Command::Unreadable {
                span: start..script.len(),
                why: fatal.why,
            },
            reads_stdin: false,
        });
    }
    crate::loading::work::count(parser.found.len());
    let Parser {
        mut found,
        heredoc_bodies,
        ..
    } = parser;
    let mut first_of_id = std::collections::HashMap::new();
    for (index, f) in found.iter().enumerate() {
        first_of_id.entry(f.id).or_insert(index);
    }
    for (id, body) in heredoc_bodies {
        if let Some(f) = first_of_id.get(&id).and_then(|&i| found.get_mut(i))
            && f.reads_stdin
            && let Command::Call(call) = &mut f.command
            && call.input.is_none()
        {
            call.input = Some(body);
        }
    }
    found.into_iter().map(|f| f.command).collect()
}

/// A word as the lexer read it: with the source offset of each byte of its text, so
/// that a part of it (a field's name inside `-f 'name=value'`) keeps its span.
#[derive(Clone, Debug)]
struct RawWord {
    text: String,
    offsets: Vec<usize>,
    span: Range<usize>,
    expanded: bool,
}

impl RawWord {
    /// The span in the script of the text's bytes `from..to`.
    fn sub_span(&self, from: usize, to: usize) -> Range<usize> {
        if from >= to || from >= self.offsets.len() {
            let at = self.offsets.get(from).copied().unwrap_or(self.span.end);
            return at..at;
        }
        let last = to.min(self.offsets.len()) - 1;
        self.offsets[from]..self.offsets[last] + 1
    }

    fn word(&self) -> Word {
        Word {
            text: self.text.clone(),
            span: self.span.clone(),
            expanded: self.expanded,
        }
    }

    /// The word as an unquoted keyword (`then`, `esac`): quoting a keyword makes it a
    /// plain word.
    fn keyword<'s>(&self, src: &'s str) -> Option<&'s str> {
        let written = src.get(self.span.clone())?;
        (written == self.text && !self.expanded).then_some(written)
    }
}

/// A part of a word from a byte of its text on: a flag's value written in the same
/// word (`-XPOST`, `--method=POST`) or the whole next word.
#[derive(Clone, Copy)]
struct Part<'w> {
    word: &'w RawWord,
    from: usize,
}

impl<'w> Part<'w> {
    fn whole(word: &'w RawWord) -> Self {
        Part { word, from: 0 }
    }

    fn text(&self) -> &'w str {
        self.word.text.get(self.from..).unwrap_or("")
    }

    fn span(&self) -> Range<usize> {
        self.word.sub_span(self.from, self.word.text.len())
    }

    /// The span of the part's bytes `a..b` (relative to the part).
    fn span_of(&self, a: usize, b: usize) -> Range<usize> {
        self.word.sub_span(self.from + a, self.from + b)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    Eof,
    Paren,
    Backtick,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    Newline,
    Semi,
    And,
    Or,
    Pipe,
    Amp,
    /// `;;`, `;&`, `;;&`: the end of a `case` item.
    CaseItem,
}

#[derive(Debug)]
enum Tok {
    Word(RawWord),
    Sep(Sep),
    Open,
    Close,
    CloseBacktick,
    /// A redirection operator; `Some(strip_tabs)` for a heredoc (`<<`, `<<-`).
    Redirect {
        heredoc: Option<bool>,
        start: usize,
        end: usize,
    },
    Eof,
}

struct Fatal {
    at: usize,
    why: String,
}

struct PendingHeredoc {
    delimiter: String,
    strip_tabs: bool,
    command: usize,
}

struct Found {
    /// The command being built when it was found, to give it the heredoc body read
    /// after it.
    id: usize,
    command: Command,
    /// The call reads its body from its standard input (`--input -`, `-d @-`).
    reads_stdin: bool,
}

/// A simple command as its tokens come.
struct Builder {
    id: usize,
    span: Option<Range<usize>>,
    assignments: Vec<(RawWord, Assignment)>,
    words: Vec<RawWord>,
}

impl Builder {
    fn is_empty(&self) -> bool {
        self.words.is_empty() && self.assignments.is_empty()
    }

    fn cover(&mut self, range: Range<usize>) {
        self.span = Some(match self.span.take() {
            None => range,
            Some(s) => s.start.min(range.start)..s.end.max(range.end),
        });
    }
}

struct Parser<'a> {
    /// How many `bash -c` scripts this one is inside.
    shell_depth: usize,
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    found: Vec<Found>,
    next_id: usize,
    pending_heredocs: Vec<PendingHeredoc>,
    heredoc_bodies: Vec<(usize, Range<usize>)>,
    /// Inside `[[ … ]]`, where `<`, `>`, `(`, `)`, `|`, `&&` are operators of the test,
    /// not of the shell.
    double_bracket: bool,
    peeked: Option<Tok>,
    /// Where the top-level command being read starts: an unreadable part covers it.
    outer_start: Option<usize>,
}

fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of the UTF-8 character that starts with `b`.
fn char_len(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

impl Parser<'_> {
    fn new_builder(&mut self) -> Builder {
        self.next_id += 1;
        Builder {
            id: self.next_id,
            span: None,
            assignments: Vec::new(),
            words: Vec::new(),
        }
    }

    fn at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn fatal(&self, at: usize, why: &str) -> Fatal {
        Fatal {
            at,
            why: why.to_string(),
        }
    }

    /// The commands up to the end of the script, a substitution's `)` or its closing
    /// backtick.
    fn list(&mut self, depth: usize, term: Term) -> Result<(), Fatal> {
        let mut cmd = self.new_builder();
        let mut subshells = 0usize;
        let mut cases = 0usize;
        let mut case_head = false;
        let mut in_pattern = false;
        let mut skip_to_separator = false;
        let mut function_name_next = false;
        let mut function_parens = false;
        loop {
            let tok = match self.peeked.take() {
                Some(t) => t,
                None => self.next_token(depth, term)?,
            };
            match tok {
                Tok::Word(w) => {
                    if depth == 0 && self.outer_start.is_none() {
                        self.outer_start = Some(w.span.start);
                    }
                    let keyword = w.keyword(self.src).map(str::to_string);
                    let keyword = keyword.as_deref();
                    if in_pattern {
                        if keyword == Some("esac") {
                            cases = cases.saturating_sub(1);
                            in_pattern = false;
                        }
                        continue;
                    }
                    if case_head {
                        if keyword == Some("in") {
                            case_head = false;
                            in_pattern = true;
                            cases += 1;
                        }
                        continue;
                    }
                    if skip_to_separator {
                        continue;
                    }
                    if function_name_next {
                        function_name_next = false;
                        function_parens = true;
                        continue;
                    }
                    if cmd.is_empty() {
                        match keyword {
                            Some(
                                "if" | "then" | "elif" | "else" | "do" | "while" | "until" | "!"
                                | "{" | "fi" | "done" | "}",
                            ) => continue,
                            Some("esac") => {
                                cases = cases.saturating_sub(1);
                                continue;
                            }
                            Some("for" | "select") => {
                                skip_to_separator = true;
                                continue;
                            }
                            Some("case") => {
                                case_head = true;
                                continue;
                            }
                            Some("function") => {
                                function_name_next = true;
                                continue;
                            }
                            Some("[[") => self.double_bracket = true,
                            _ => {}
                        }
                    }
                    if keyword == Some("]]") {
                        self.double_bracket = false;
                    }
                    function_parens = false;
                    cmd.cover(w.span.clone());
                    if cmd.words.is_empty()
                        && let Some(a) = assignment_of(self.src, &w)
                    {
                        cmd.assignments.push((w, a));
                    } else {
                        cmd.words.push(w);
                    }
                }
                Tok::Redirect {
                    heredoc,
                    start,
                    end,
                } => {
                    if depth == 0 && self.outer_start.is_none() {
                        self.outer_start = Some(start);
                    }
                    cmd.cover(start..end);
                    match self.next_token(depth, term)? {
                        Tok::Word(target) => {
                            cmd.cover(target.span.clone());
                            if let Some(strip_tabs) = heredoc {
                                self.pending_heredocs.push(PendingHeredoc {
                                    delimiter: target.text,
                                    strip_tabs,
                                    command: cmd.id,
                                });
                            } else if self
                                .src
                                .get(start..end)
                                .is_some_and(|op| op.ends_with("<<<"))
                            {
                                // `<<< word`: the word is the standard input, as a
                                // heredoc's body is.
                                let body = Part::whole(&target).span();
                                self.heredoc_bodies.push((cmd.id, body));
                            }
                        }
                        other => self.peeked = Some(other),
                    }
                }
                Tok::Open => {
                    if in_pattern || case_head {
                        continue;
                    }
                    if function_parens {
                        continue;
                    }
                    if cmd.assignments.is_empty() && cmd.words.len() == 1 {
                        // `name() { …; }`: a function's definition, not a command.
                        cmd = self.new_builder();
                        function_parens = true;
                    } else if cmd.is_empty() {
                        subshells += 1;
                    }
                }
                Tok::Close => {
                    if function_parens {
                        function_parens = false;
                        continue;
                    }
                    if in_pattern {
                        in_pattern = false;
                        continue;
                    }
                    let fresh = self.new_builder();
                    self.finish(std::mem::replace(&mut cmd, fresh), depth);
                    if subshells > 0 {
                        subshells -= 1;
                    } else if term == Term::Paren {
                        return Ok(());
                    }
                }
                Tok::CloseBacktick => {
                    self.finish(cmd, depth);
                    return Ok(());
                }
                Tok::Sep(sep) => {
                    if in_pattern {
                        continue;
                    }
                    if case_head && sep == Sep::Newline {
                        continue;
                    }
                    let fresh = self.new_builder();
                    self.finish(std::mem::replace(&mut cmd, fresh), depth);
                    skip_to_separator = false;
                    function_parens = false;
                    if matches!(sep, Sep::Newline | Sep::Semi) {
                        self.double_bracket = false;
                    }
                    if sep == Sep::CaseItem && cases > 0 {
                        in_pattern = true;
                    }
                }
                Tok::Eof => {
                    self.finish(cmd, depth);
                    return match term {
                        Term::Eof => Ok(()),
                        Term::Paren => Err(self.fatal(self.pos, "a `$(` or `(` is never closed")),
                        Term::Backtick => Err(self.fatal(self.pos, "a backtick is never closed")),
                    };
                }
            }
        }
    }

    /// Skips blanks, line continuations and comments, then reads one token.
    fn next_token(&mut self, depth: usize, term: Term) -> Result<Tok, Fatal> {
        loop {
            crate::loading::work::count(1);
            let Some(c) = self.at(0) else {
                return Ok(Tok::Eof);
            };
            match c {
                b' ' | b'\t' | b'\r' | 0x0c | 0x0b => self.pos += 1,
                b'\\' if self.at(1) == Some(b'\n') => self.pos += 2,
                b'#' => {
                    let end = memchr(b'\n', &self.bytes[self.pos..])
                        .map_or(self.bytes.len(), |i| self.pos + i);
                    self.pos = end;
                }
                b'\n' => {
                    self.pos += 1;
                    self.read_heredoc_bodies();
                    return Ok(Tok::Sep(Sep::Newline));
                }
                b';' => {
                    return Ok(Tok::Sep(match (self.at(1), self.at(2)) {
                        (Some(b';'), Some(b'&')) => {
                            self.pos += 3;
                            Sep::CaseItem
                        }
                        (Some(b';' | b'&'), _) => {
                            self.pos += 2;
                            Sep::CaseItem
                        }
                        _ => {
                            self.pos += 1;
                            Sep::Semi
                        }
                    }));
                }
                b'&' | b'|' if self.double_bracket && self.at(1) == Some(c) => {
                    return self.word(depth, term).map(Tok::Word);
                }
                b'&' => {
                    let start = self.pos;
                    return Ok(match self.at(1) {
                        Some(b'&') => {
                            self.pos += 2;
                            Tok::Sep(Sep::And)
                        }
                        Some(b'>') => {
                            self.pos += if self.at(2) == Some(b'>') { 3 } else { 2 };
                            Tok::Redirect {
                                heredoc: None,
                                start,
                                end: self.pos,
                            }
                        }
                        _ => {
                            self.pos += 1;
                            Tok::Sep(Sep::Amp)
                        }
                    });
                }
                b'|' if !self.double_bracket => {
                    return Ok(Tok::Sep(match self.at(1) {
                        Some(b'|') => {
                            self.pos += 2;
                            Sep::Or
                        }
                        Some(b'&') => {
                            self.pos += 2;
                            Sep::Pipe
                        }
                        _ => {
                            self.pos += 1;
                            Sep::Pipe
                        }
                    }));
                }
                b'(' if !self.double_bracket => {
                    if self.at(1) == Some(b'(') {
                        // `(( … ))`: arithmetic, a command that calls nothing.
                        let start = self.pos;
                        self.pos = self.arithmetic_end(start + 2)?;
                        return Ok(Tok::Word(self.raw_word(start, self.pos)));
                    }
                    self.pos += 1;
                    return Ok(Tok::Open);
                }
                b')' if !self.double_bracket => {
                    self.pos += 1;
                    return Ok(Tok::Close);
                }
                b'`' if term == Term::Backtick => {
                    self.pos += 1;
                    return Ok(Tok::CloseBacktick);
                }
                b'<' | b'>' if self.at(1) == Some(b'(') => {
                    return self.word(depth, term).map(Tok::Word);
                }
                b'<' | b'>' if !self.double_bracket => return Ok(self.redirect(self.pos)),
                b'0'..=b'9' => {
                    let digits = self.bytes[self.pos..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let after = self.at(digits);
                    if matches!(after, Some(b'<' | b'>'))
                        && !self.double_bracket
                        && self.at(digits + 1) != Some(b'(')
                    {
                        let start = self.pos;
                        self.pos += digits;
                        return Ok(self.redirect(start));
                    }
                    return self.word(depth, term).map(Tok::Word);
                }
                _ => return self.word(depth, term).map(Tok::Word),
            }
        }
    }

    /// A redirection operator at `self.pos` (its file descriptor, if any, from `start`).
    fn redirect(&mut self, start: usize) -> Tok {
        let c = self.at(0).unwrap_or(b'>');
        let heredoc = if c == b'<' && self.at(1) == Some(b'<') {
            if self.at(2) == Some(b'<') {
                self.pos += 3;
                None
            } else if self.at(2) == Some(b'-') {
                self.pos += 3;
                Some(true)
            } else {
                self.pos += 2;
                Some(false)
            }
        } else {
            self.pos += 1;
            if matches!(self.at(0), Some(b'>' | b'&' | b'|'))
                || (c == b'<' && self.at(0) == Some(b'>'))
            {
                self.pos += 1;
            }
            None
        };
        Tok::Redirect {
            heredoc,
            start,
            end: self.pos,
        }
    }

    /// After a newline: the bodies of the heredocs its line opened, skipped (they are
    /// data, not commands) and kept for the command that reads them.
    fn read_heredoc_bodies(&mut self) {
        for doc in std::mem::take(&mut self.pending_heredocs) {
            let body_start = self.pos;
            loop {
                if self.pos >= self.bytes.len() {
                    self.heredoc_bodies
                        .push((doc.command, body_start..self.bytes.len()));
                    break;
                }
                let line_end = memchr(b'\n', &self.bytes[self.pos..])
                    .map_or(self.bytes.len(), |i| self.pos + i);
                let mut line = &self.src[self.pos..line_end];
                if doc.strip_tabs {
                    line = line.trim_start_matches('\t');
                }
                let line = line.strip_suffix('\r').unwrap_or(line);
                if line == doc.delimiter {
                    self.heredoc_bodies
                        .push((doc.command, body_start..self.pos));
                    self.pos = (line_end + 1).min(self.bytes.len());
                    break;
                }
                self.pos = (line_end + 1).min(self.bytes.len());
            }
        }
    }

    /// The end of `(( … ))` or `$(( … ))` whose inside starts at `from`.
    fn arithmetic_end(&self, from: usize) -> Result<usize, Fatal> {
        let mut depth = 0usize;
        let mut i = from;
        while i < self.bytes.len() {
            match self.bytes[i] {
                b'(' => depth += 1,
                b')' if depth > 0 => depth -= 1,
                b')' if self.bytes.get(i + 1) == Some(&b')') => {
                    crate::loading::work::count(i - from);
                    return Ok(i + 2);
                }
                b')' => {
                    crate::loading::work::count(i - from);
                    return Ok(i + 1);
                }
                _ => {}
            }
            i += 1;
        }
        Err(self.fatal(from, "an arithmetic `((` is never closed"))
    }

    /// The end of the parenthesis opened at `open`: after its `)`.
    fn paren_end(&self, open: usize) -> Result<usize, Fatal> {
        let mut depth = 0usize;
        for (i, &b) in self.bytes.iter().enumerate().skip(open) {
            match b {
                b'(' => depth += 1,
                b')' if depth <= 1 => {
                    crate::loading::work::count(i - open);
                    return Ok(i + 1);
                }
                b')' => depth -= 1,
                _ => {}
            }
        }
        Err(self.fatal(open, "a `(` is never closed"))
    }

    fn raw_word(&self, start: usize, end: usize) -> RawWord {
        RawWord {
            text: self.src[start..end].to_string(),
            offsets: (start..end).collect(),
            span: start..end,
            expanded: true,
        }
    }

    /// One word: unquoted, escaped, quoted and expanded parts up to a blank or an
    /// operator.
    fn word(&mut self, depth: usize, term: Term) -> Result<RawWord, Fatal> {
        let start = self.pos;
        if depth == 0 && self.outer_start.is_none() {
            self.outer_start = Some(start);
        }
        let mut w = RawWord {
            text: String::new(),
            offsets: Vec::new(),
            span: start..start,
            expanded: false,
        };
        while let Some(c) = self.at(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | b';' | 0x0c | 0x0b => break,
                b'&' if self.double_bracket && self.at(1) == Some(b'&') => {
                    self.push_source(&mut w, self.pos, self.pos + 2);
                    self.pos += 2;
                }
                b'|' if self.double_bracket => {
                    let len = if self.at(1) == Some(b'|') { 2 } else { 1 };
                    self.push_source(&mut w, self.pos, self.pos + len);
                    self.pos += len;
                }
                b'&' | b'|' => break,
                b'(' if assignment_prefix(&w.text)
                    && self.src.get(start..self.pos) == Some(&w.text[..]) =>
                {
                    // `NAME=(a b c)`: an array's values.
                    let end = self.paren_end(self.pos)?;
                    self.push_source(&mut w, self.pos, end);
                    self.pos = end;
                }
                b'<' | b'>' if self.at(1) == Some(b'(') && w.text.is_empty() => {
                    // `<(cmd)`: process substitution, a word whose commands run.
                    let part = self.pos;
                    self.pos += 2;
                    self.substitution(depth, Term::Paren)?;
                    self.push_source(&mut w, part, self.pos);
                    w.expanded = true;
                }
                b'(' | b')' | b'<' | b'>' if !self.double_bracket => break,
                b'`' if term == Term::Backtick => break,
                b'`' => {
                    let part = self.pos;
                    self.pos += 1;
                    self.substitution(depth, Term::Backtick)?;
                    self.push_source(&mut w, part, self.pos);
                    w.expanded = true;
                }
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(next) => {
                        let len = char_len(next);
                        let to = (self.pos + 1 + len).min(self.bytes.len());
                        self.push_source(&mut w, self.pos + 1, to);
                        self.pos = to;
                    }
                    None => {
                        self.push_source(&mut w, self.pos, self.pos + 1);
                        self.pos += 1;
                    }
                },
                b'\'' => self.single_quoted(&mut w)?,
                b'"' => self.double_quoted(&mut w, depth)?,
                b'$' => self.dollar(&mut w, depth, false)?,
                _ => {
                    let len = char_len(c);
                    let to = (self.pos + len).min(self.bytes.len());
                    self.push_source(&mut w, self.pos, to);
                    self.pos = to;
                }
            }
        }
        if self.pos == start {
            // Whatever the dispatch missed is one character of a word: the scan moves on.
            let to = (start + self.at(0).map_or(1, char_len)).min(self.bytes.len());
            self.push_source(&mut w, start, to);
            self.pos = to;
        }
        w.span = start..self.pos;
        crate::loading::work::count(self.pos - start);
        Ok(w)
    }

    fn push_source(&self, w: &mut RawWord, from: usize, to: usize) {
        let Some(text) = self.src.get(from..to) else {
            return;
        };
        w.text.push_str(text);
        w.offsets.extend(from..to);
    }

    /// The commands of `$(…)`, a backtick or `<(…)` whose inside starts at `self.pos`.
    fn substitution(&mut self, depth: usize, term: Term) -> Result<(), Fatal> {
        if depth + 1 >= MAX_DEPTH {
            return Err(self.fatal(self.pos, "substitutions nest deeper than reqlint reads"));
        }
        let saved = (self.double_bracket, self.peeked.take());
        self.double_bracket = false;
        let result = self.list(depth + 1, term);
        self.double_bracket = saved.0;
        self.peeked = saved.1;
        result
    }

    /// A single-quoted part. The runner substitutes a `${{ … }}` before bash reads the
    /// script, so one written inside single quotes is opaque too, quotes and all
    /// (`'${{ github.ref == 'refs/heads/main' }}'` is one quoted part).
    fn single_quoted(&mut self, w: &mut RawWord) -> Result<(), Fatal> {
        let open = self.pos;
        let mut i = open + 1;
        // The next quote after `i`: found again only once an expression ran past it, so
        // that no byte is scanned twice.
        let mut quote = None;
        loop {
            let next = match quote {
                Some(q) if q >= i => q,
                _ => match memchr(b'\'', &self.bytes[i..]) {
                    Some(n) => i + n,
                    None => return Err(self.fatal(open, "a single quote is never closed")),
                },
            };
            quote = Some(next);
            let expression =
                find(&self.bytes[..next], b"${{", i).and_then(|e| find(self.bytes, b"}}", e + 3));
            match expression {
                Some(close) => {
                    self.push_source(w, i, close + 2);
                    w.expanded = true;
                    i = close + 2;
                }
                None => {
                    self.push_source(w, i, next);
                    self.pos = next + 1;
                    return Ok(());
                }
            }
        }
    }

    fn double_quoted(&mut self, w: &mut RawWord, depth: usize) -> Result<(), Fatal> {
        let open = self.pos;
        self.pos += 1;
        loop {
            let Some(c) = self.at(0) else {
                return Err(self.fatal(open, "a double quote is never closed"));
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => match self.at(1) {
                    Some(b'\n') => self.pos += 2,
                    Some(b'$' | b'`' | b'"' | b'\\') => {
                        self.push_source(w, self.pos + 1, self.pos + 2);
                        self.pos += 2;
                    }
                    _ => {
                        self.push_source(w, self.pos, self.pos + 1);
                        self.pos += 1;
                    }
                },
                b'$' => self.dollar(w, depth, true)?,
                b'`' => {
                    let part = self.pos;
                    self.pos += 1;
                    self.substitution(depth, Term::Backtick)?;
                    self.push_source(w, part, self.pos);
                    w.expanded = true;
                }
                _ => {
                    let to = (self.pos + char_len(c)).min(self.bytes.len());
                    self.push_source(w, self.pos, to);
                    self.pos = to;
                }
            }
        }
    }

    /// A `$` and what it expands, kept as written.
    fn dollar(&mut self, w: &mut RawWord, depth: usize, quoted: bool) -> Result<(), Fatal> {
        let start = self.pos;
        match (self.at(1), self.at(2)) {
            (Some(b'{'), Some(b'{')) => {
                let Some(close) = find(self.bytes, b"}}", start + 3) else {
                    return Err(self.fatal(start, "a `${{` expression is never closed"));
                };
                self.pos = close + 2;
            }
            (Some(b'('), Some(b'(')) => self.pos = self.arithmetic_end(start + 3)?,
            (Some(b'('), _) => {
                self.pos += 2;
                self.substitution(depth, Term::Paren)?;
            }
            (Some(b'{'), _) => {
                let mut depth_braces = 0usize;
                let mut i = start + 2;
                loop {
                    match self.bytes.get(i) {
                        None => return Err(self.fatal(start, "a `${` is never closed")),
                        Some(b'\\') => i += 1,
                        Some(b'{') => depth_braces += 1,
                        Some(b'}') if depth_braces == 0 => break,
                        Some(b'}') => depth_braces -= 1,
                        _ => {}
                    }
                    i += 1;
                }
                crate::loading::work::count(i - start);
                self.pos = (i + 1).min(self.bytes.len());
            }
            (Some(b'\''), _) if !quoted => {
                // `$'…'`: a quoted string with C escapes, kept undecoded.
                let mut i = start + 2;
                loop {
                    match self.bytes.get(i) {
                        None => return Err(self.fatal(start, "a `$'` quote is never closed")),
                        Some(b'\\') => i += 2,
                        Some(b'\'') => break,
                        _ => i += 1,
                    }
                }
                crate::loading::work::count(i - start);
                self.push_source(w, start + 2, i.min(self.bytes.len()));
                self.pos = (i + 1).min(self.bytes.len());
                return Ok(());
            }
            (Some(b'"'), _) if !quoted => {
                self.pos += 1;
                return self.double_quoted(w, depth);
            }
            (Some(c), _) if is_name_start(c) => {
                let len = self.bytes[start + 1..]
                    .iter()
                    .take_while(|b| is_name_byte(**b))
                    .count();
                self.pos = start + 1 + len;
            }
            (Some(c), _) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => self.pos += 2,
            _ => {
                self.push_source(w, start, start + 1);
                self.pos += 1;
                return Ok(());
            }
        }
        self.push_source(w, start, self.pos);
        w.expanded = true;
        Ok(())
    }

    /// Reads what a finished simple command is and records it.
    fn finish(&mut self, cmd: Builder, depth: usize) {
        if depth == 0 {
            self.outer_start = None;
        }
        if cmd.is_empty() {
            return;
        }
        let span = cmd.span.clone().unwrap_or(0..0);
        crate::loading::work::count(cmd.words.len() + cmd.assignments.len());
        let id = cmd.id;
        let (command, reads_stdin) = classify(self.src, cmd, span, self.shell_depth);
        for c in command {
            self.found.push(Found {
                id,
                command: c,
                reads_stdin,
            });
        }
    }
}

/// Every scan counts the bytes it looks at (see [`crate::loading::work`]): a test then
/// shows that no byte is looked at more than a bounded number of times.
fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    let found = hay.iter().position(|&b| b == needle);
    crate::loading::work::count(found.map_or(hay.len(), |i| i + 1));
    found
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let found = hay
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle);
    crate::loading::work::count(found.map_or(hay.len().saturating_sub(from), |i| i + 1));
    found.map(|i| from + i)
}

/// `NAME=`, `NAME+=` or `NAME[…]=` at the start of a text: the length of the name.
fn assignment_name_len(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    if !b.first().is_some_and(|c| is_name_start(*c)) {
        return None;
    }
    let name = b.iter().take_while(|c| is_name_byte(**c)).count();
    let mut i = name;
    if b.get(i) == Some(&b'[') {
        i += memchr(b']', &b[i..])? + 1;
    }
    if b.get(i) == Some(&b'+') {
        i += 1;
    }
    (b.get(i) == Some(&b'=')).then_some((name, i + 1))
}

fn assignment_prefix(text: &str) -> bool {
    assignment_name_len(text).is_some_and(|(_, eq)| eq == text.len())
}

/// The assignment a word is, when its name is written unquoted.
fn assignment_of(src: &str, w: &RawWord) -> Option<Assignment> {
    let (name_len, value_at) = assignment_name_len(&w.text)?;
    let written = src.get(w.span.clone())?;
    if !written.starts_with(&w.text[..value_at]) {
        return None;
    }
    Some(Assignment {
        name: w.text[..name_len].to_string(),
        value: w.text[value_at..].to_string(),
        span: w.span.clone(),
    })
}

/// What a credential's text is: `${{ secrets.X }}`, `$X`, a literal, or computed.
fn token_source(text: &str) -> Option<TokenSource> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    if let Some(inner) = t.strip_prefix("${{").and_then(|r| r.strip_suffix("}}"))
        && !inner.contains("}}")
    {
        return Some(TokenSource::Expression(inner.trim().to_string()));
    }
    let name = t
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| t.strip_prefix('$'));
    if let Some(name) = name
        && name.bytes().next().is_some_and(is_name_start)
        && name.bytes().all(is_name_byte)
    {
        return Some(TokenSource::Variable(name.to_string()));
    }
    if t.contains('$') || t.contains('`') {
        return Some(TokenSource::Unknown);
    }
    Some(TokenSource::Literal)
}

/// The credential of an `Authorization` header's value (`Bearer X`, `token X`).
fn header_token(value: &str) -> Option<TokenSource> {
    let v = value.trim();
    let (scheme, rest) = v.split_once([' ', '\t']).unwrap_or((v, ""));
    if scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("token") {
        token_source(rest)
    } else if v.starts_with("${{") || v.starts_with('$') {
        // The whole header's value from elsewhere: scheme and all.
        token_source(v).map(|t| match t {
            TokenSource::Literal => TokenSource::Unknown,
            other => other,
        })
    } else {
        Some(TokenSource::Unknown)
    }
}

/// The credential of `user:password` (curl `-u`, HTTPie `-a`): the code-hosting API
/// takes a token as the password, or as the user with no password.
fn user_token(value: &str) -> Option<TokenSource> {
    match value.split_once(':') {
        Some((_, password)) if !password.is_empty() => token_source(password),
        Some((user, _)) => token_source(user),
        None => token_source(value),
    }
}

fn classify(
    src: &str,
    cmd: Builder,
    span: Range<usize>,
    shell_depth: usize,
) -> (Vec<Command>, bool) {
    let mut assignments: Vec<Assignment> = cmd.assignments.into_iter().map(|(_, a)| a).collect();
    let words = cmd.words;
    let mut i = 0;
    // Commands that run the command after them: `env A=1 gh …`, `sudo curl …`.
    while let Some(w) = words.get(i) {
        match w.keyword(src) {
            Some("env") => {
                i += 1;
                while let Some(w) = words.get(i) {
                    if w.text.starts_with('-') {
                        let takes = matches!(
                            w.text.as_str(),
                            "-u" | "--unset" | "-C" | "--chdir" | "-S" | "--split-string"
                        );
                        i += if takes { 2 } else { 1 };
                    } else if let Some(a) = assignment_of(src, w) {
                        assignments.push(a);
                        i += 1;
                    } else {
                        break;
                    }
                }
            }
            Some("sudo") => {
                i += 1;
                while let Some(w) = words.get(i) {
                    if w.text.starts_with('-') {
                        let takes = matches!(
                            w.text.as_str(),
                            "-u" | "-g" | "-p" | "-C" | "-h" | "-r" | "-t" | "-U" | "-T"
                        );
                        i += if takes { 2 } else { 1 };
                    } else if let Some(a) = assignment_of(src, w) {
                        assignments.push(a);
                        i += 1;
                    } else {
                        break;
                    }
                }
            }
            Some("command" | "exec" | "nohup" | "time" | "builtin") => {
                i += 1;
                while words.get(i).is_some_and(|w| w.text.starts_with('-')) {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    let Some(name_word) = words.get(i) else {
        return (
            assignments.into_iter().map(Command::Assignment).collect(),
            false,
        );
    };
    let args = &words[i + 1..];
    let other_span = span.clone();
    let other = move |name: &str| Command::Other {
        name: name.to_string(),
        span: other_span.clone(),
    };
    match name_word.keyword(src) {
        Some(name @ ("export" | "declare" | "local" | "readonly" | "typeset")) => {
            let found: Vec<Command> = args
                .iter()
                .filter_map(|w| assignment_of(src, w))
                .map(Command::Assignment)
                .collect();
            if found.is_empty() {
                (vec![other(name)], false)
            } else {
                (found, false)
            }
        }
        Some(name @ ("bash" | "sh" | "dash" | "zsh" | "ksh")) => {
            let mut found = vec![other(name)];
            if shell_depth < MAX_SHELL_DEPTH
                && let Some(script) = shell_script_argument(args)
            {
                found.extend(
                    commands_within(&script.text, shell_depth + 1)
                        .into_iter()
                        .map(|c| remap(c, &|r: Range<usize>| script.sub_span(r.start, r.end))),
                );
            }
            (found, false)
        }
        Some("gh") => gh(args, span, assignments),
        Some("git") => (vec![git(args, span)], false),
        Some(name @ "curl") => wrap(curl(args, &span, assignments), || other(name)),
        Some(name @ "wget") => wrap(wget(args, &span, assignments), || other(name)),
        Some(name @ ("http" | "https" | "xh" | "xhs")) => {
            wrap(httpie(args, &span, assignments), || other(name))
        }
        _ => (vec![other(&name_word.text)], false),
    }
}

/// The script of `bash -c SCRIPT` (`-c` alone or bundled, `-ec`).
fn shell_script_argument(args: &[RawWord]) -> Option<&RawWord> {
    let mut k = 0;
    let mut command = false;
    while let Some(w) = args.get(k) {
        k += 1;
        let t = w.text.as_str();
        if t == "-o" || t == "+o" || t == "-O" || t == "+O" {
            k += 1;
        } else if t.starts_with('-') && !t.starts_with("--") && t.len() > 1 {
            command |= t.contains('c');
        } else if t.starts_with("--") {
            continue;
        } else {
            return command.then_some(w);
        }
    }
    None
}

/// A command read from a script inside a word (`bash -c '…'`), its spans moved from the
/// word's text into the script.
fn remap(command: Command, to: &dyn Fn(Range<usize>) -> Range<usize>) -> Command {
    let assignment = |a: Assignment| Assignment {
        span: to(a.span.clone()),
        ..a
    };
    match command {
        Command::Call(c) => Command::Call(Call {
            span: to(c.span),
            method: c.method.map(|(m, r)| (m, to(r))),
            target: c.target.map(|(t, r)| (t, to(r))),
            fields: c
                .fields
                .into_iter()
                .map(|f| Field {
                    name_span: to(f.name_span.clone()),
                    value_span: to(f.value_span.clone()),
                    ..f
                })
                .collect(),
            headers: c
                .headers
                .into_iter()
                .map(|h| Header {
                    span: to(h.span.clone()),
                    ..h
                })
                .collect(),
            input: c.input.map(to),
            assignments: c.assignments.into_iter().map(assignment).collect(),
            ..c
        }),
        Command::Gh {
            sub,
            words,
            span,
            assignments,
        } => Command::Gh {
            sub,
            words: words
                .into_iter()
                .map(|w| Word {
                    span: to(w.span.clone()),
                    ..w
                })
                .collect(),
            span: to(span),
            assignments: assignments.into_iter().map(assignment).collect(),
        },
        Command::Git { sub, span } => Command::Git {
            sub,
            span: to(span),
        },
        Command::Assignment(a) => Command::Assignment(assignment(a)),
        Command::Other { name, span } => Command::Other {
            name,
            span: to(span),
        },
        Command::Unreadable { span, why } => Command::Unreadable {
            span: to(span),
            why,
        },
    }
}

fn wrap(call: Option<(Call, bool)>, otherwise: impl FnOnce() -> Command) -> (Vec<Command>, bool) {
    match call {
        Some((call, stdin)) => (vec![Command::Call(call)], stdin),
        None => (vec![otherwise()], false),
    }
}

fn new_call(form: Form, span: &Range<usize>, assignments: Vec<Assignment>) -> Call {
    Call {
        form,
        span: span.clone(),
        method: None,
        implied_method: "GET",
        target: None,
        fields: Vec::new(),
        headers: Vec::new(),
        token: None,
        input: None,
        assignments,
        hostname: None,
        paginate: false,
    }
}

/// Reads the flags of a command line the way getopt and its kin do: `--name value`,
/// `--name=value`, `-x value`, `-xvalue`, bundled `-sSfL`, `--` ending them.
/// `takes_value(flag)` says whether a flag (`-X`, `--method`) takes a value; `on_flag`
/// gets each flag with its value, `on_positional` each other word.
fn options<'w>(
    args: &'w [RawWord],
    takes_value: impl Fn(&str) -> bool,
    mut on_flag: impl FnMut(&str, Option<Part<'w>>),
    mut on_positional: impl FnMut(&'w RawWord),
) {
    let mut k = 0;
    let mut flags_ended = false;
    while k < args.len() {
        let w = &args[k];
        k += 1;
        let t = w.text.as_str();
        crate::loading::work::count(t.len() + 1);
        if flags_ended || !t.starts_with('-') || t == "-" {
            on_positional(w);
            continue;
        }
        if t == "--" {
            flags_ended = true;
            continue;
        }
        if t.starts_with("--") {
            let (name, inline) = match t.find('=') {
                Some(eq) => (
                    &t[..eq],
                    Some(Part {
                        word: w,
                        from: eq + 1,
                    }),
                ),
                None => (t, None),
            };
            if takes_value(name) {
                let value = inline.or_else(|| {
                    let next = args.get(k).map(Part::whole);
                    k += 1;
                    next
                });
                on_flag(name, value);
            } else {
                on_flag(name, inline);
            }
            continue;
        }
        let bytes = t.as_bytes();
        let mut j = 1;
        while j < bytes.len() {
            let c = bytes[j];
            if !c.is_ascii() {
                break;
            }
            let flag = format!("-{}", c as char);
            if takes_value(&flag) {
                let value = if j + 1 < bytes.len() {
                    Some(Part {
                        word: w,
                        from: j + 1,
                    })
                } else {
                    let next = args.get(k).map(Part::whole);
                    k += 1;
                    next
                };
                on_flag(&flag, value);
                break;
            }
            on_flag(&flag, None);
            j += 1;
        }
    }
}

fn header_of(part: Part) -> Option<Header> {
    let text = part.text();
    let colon = text.find(':')?;
    Some(Header {
        name: text[..colon].trim().to_string(),
        value: text[colon + 1..].trim().to_string(),
        span: part.span(),
    })
}

/// `name=value` (or `name` alone) as a field.
fn field_of(part: Part, typed: bool) -> Field {
    let text = part.text();
    match text.find('=') {
        Some(eq) => Field {
            name: text[..eq].to_string(),
            name_span: part.span_of(0, eq),
            value: Some(text[eq + 1..].to_string()),
            value_span: part.span_of(eq + 1, text.len()),
            typed,
        },
        None => Field {
            name: text.to_string(),
            name_span: part.span_of(0, text.len()),
            value: None,
            value_span: part.span_of(text.len(), text.len()),
            typed,
        },
    }
}

fn gh(args: &[RawWord], span: Range<usize>, assignments: Vec<Assignment>) -> (Vec<Command>, bool) {
    crate::loading::work::count(args.iter().map(|w| w.text.len() + 1).sum());
    let mut sub: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < args.len() && sub.len() < 2 {
        let t = args[k].text.as_str();
        if t == "-R" || t == "--repo" {
            k += 2;
            continue;
        }
        if t.starts_with('-') {
            if sub.is_empty() || t.starts_with("--repo=") || t.starts_with("-R") {
                k += 1;
                continue;
            }
            break;
        }
        sub.push(k);
        k += 1;
        if args[sub[0]].text == "api" {
            break;
        }
    }
    if sub.first().is_some_and(|&s| args[s].text == "api") {
        let rest: Vec<RawWord> = args
            .iter()
            .enumerate()
            .filter(|(i, _)| !sub.contains(i))
            .map(|(_, w)| w.clone())
            .collect();
        let (call, stdin) = gh_api(&rest, &span, assignments);
        return (vec![Command::Call(call)], stdin);
    }
    let sub_text = sub
        .iter()
        .map(|&s| args[s].text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let words = args
        .iter()
        .enumerate()
        .filter(|(i, _)| !sub.contains(i))
        .map(|(_, w)| w.word())
        .collect();
    (
        vec![Command::Gh {
            sub: sub_text,
            words,
            span,
            assignments,
        }],
        false,
    )
}

/// The token `gh` sends: from `GH_TOKEN`, else `GITHUB_TOKEN` (the enterprise variables
/// for another host), set before the command.
fn gh_token(assignments: &[Assignment], enterprise: bool) -> Option<TokenSource> {
    let order: &[&str] = if enterprise {
        &["GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"]
    } else {
        &["GH_TOKEN", "GITHUB_TOKEN"]
    };
    order.iter().find_map(|name| {
        assignments
            .iter()
            .rev()
            .find(|a| a.name == *name)
            .and_then(|a| token_source(&a.value))
    })
}

fn gh_api(args: &[RawWord], span: &Range<usize>, assignments: Vec<Assignment>) -> (Call, bool) {
    let mut call = new_call(Form::GhApi, span, assignments);
    let mut body = false;
    let mut stdin = false;
    let takes = |f: &str| {
        matches!(
            f,
            "-X" | "--method"
                | "-R"
                | "--repo"
                | "-H"
                | "--header"
                | "-f"
                | "--raw-field"
                | "-F"
                | "--field"
                | "--input"
                | "--hostname"
                | "-q"
                | "--jq"
                | "-t"
                | "--template"
                | "--cache"
                | "-p"
                | "--preview"
        )
    };
    let mut target = None;
    options(
        args,
        takes,
        |flag, value| match (flag, value) {
            ("-X" | "--method", Some(v)) => call.method = Some((v.text().to_string(), v.span())),
            ("-H" | "--header", Some(v)) => call.headers.extend(header_of(v)),
            ("-f" | "--raw-field", Some(v)) => {
                body = true;
                call.fields.push(field_of(v, false));
            }
            ("-F" | "--field", Some(v)) => {
                body = true;
                call.fields.push(field_of(v, true));
            }
            ("--input", Some(v)) => {
                body = true;
                if v.text() == "-" {
                    stdin = true;
                } else {
                    call.input = Some(v.span());
                }
            }
            ("--hostname", Some(v)) => call.hostname = Some(v.text().to_string()),
            ("--paginate", _) => call.paginate = true,
            _ => {}
        },
        |w| {
            if target.is_none() {
                target = Some((w.text.clone(), Part::whole(w).span()));
            }
        },
    );
    call.target = target;
    call.implied_method = if body { "POST" } else { "GET" };
    let enterprise = call
        .hostname
        .as_deref()
        .is_some_and(|h| !h.eq_ignore_ascii_case("github.com"));
    call.token = authorization(&call.headers).or_else(|| gh_token(&call.assignments, enterprise));
    (call, stdin)
}

fn authorization(headers: &[Header]) -> Option<TokenSource> {
    headers
        .iter()
        .rev()
        .find(|h| h.name.eq_ignore_ascii_case("authorization"))
        .and_then(|h| header_token(&h.value))
}

fn git(args: &[RawWord], span: Range<usize>) -> Command {
    let mut k = 0;
    while let Some(w) = args.get(k) {
        let t = w.text.as_str();
        if matches!(
            t,
            "-C" | "-c"
                | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--exec-path"
                | "--config-env"
        ) {
            k += 2;
        } else if t.starts_with('-') {
            k += 1;
        } else {
            return Command::Git {
                sub: t.to_string(),
                span,
            };
        }
    }
    Command::Git {
        sub: String::new(),
        span,
    }
}

/// Whether a target is a URL a call goes to: `http(s)://…`, or a URL held in a variable
/// or an expression (the caller decides by host which API it is).
fn is_url(text: &str) -> bool {
    let lower = text.get(..8).unwrap_or(text).to_ascii_lowercase();
    lower.starts_with("http://")
        || lower.starts_with("https://")
        || text.starts_with('$')
        || text.starts_with('`')
}

/// The fields of a body as curl and wget send it: a literal JSON object's top-level keys,
/// else form pairs `a=1&b=2`.
fn body_fields(part: Part, out: &mut Vec<Field>) {
    let text = part.text();
    if text.trim_start().starts_with('{') {
        json_fields(part, out);
        return;
    }
    if part.word.expanded {
        // A body made when the step runs (`-d "$(jq -n …)"`): its fields are not known.
        return;
    }
    let mut at = 0;
    for pair in text.split('&') {
        if !pair.is_empty() {
            let eq = pair.find('=');
            let name_end = eq.unwrap_or(pair.len());
            let value_start = eq.map_or(pair.len(), |e| e + 1);
            out.push(Field {
                name: pair[..name_end].to_string(),
                name_span: part.span_of(at, at + name_end),
                value: eq.map(|_| pair[value_start..].to_string()),
                value_span: part.span_of(at + value_start, at + pair.len()),
                typed: false,
            });
        }
        at += pair.len() + 1;
    }
}

/// The top-level keys of a JSON object, with their scalar values: one pass, nested
/// values skipped by counting brackets.
fn json_fields(part: Part, out: &mut Vec<Field>) {
    let b = part.text().as_bytes();
    let text = part.text();
    crate::loading::work::count(b.len());
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    // The end of a JSON string whose opening quote is at `i`.
    let string_end = |mut i: usize| -> Option<usize> {
        i += 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => return Some(i),
                _ => i += 1,
            }
        }
        None
    };
    skip_ws(&mut i);
    if b.get(i) != Some(&b'{') {
        return;
    }
    i += 1;
    loop {
        skip_ws(&mut i);
        if b.get(i) != Some(&b'"') {
            return;
        }
        let Some(key_end) = string_end(i) else { return };
        let name = (i + 1, key_end);
        i = key_end + 1;
        skip_ws(&mut i);
        if b.get(i) != Some(&b':') {
            return;
        }
        i += 1;
        skip_ws(&mut i);
        let (value, value_range) = match b.get(i) {
            None => return,
            Some(b'"') => {
                let Some(end) = string_end(i) else { return };
                let v = (text.get(i + 1..end).map(str::to_string), (i + 1, end));
                i = end + 1;
                v
            }
            Some(b'{' | b'[') => {
                let start = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'"' => match string_end(i) {
                            Some(end) => i = end,
                            None => return,
                        },
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                (None, (start, i))
            }
            Some(_) => {
                let start = i;
                while i < b.len() && !matches!(b[i], b',' | b'}') && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                let written = text.get(start..i).unwrap_or("");
                let scalar = written == "true"
                    || written == "false"
                    || written == "null"
                    || (!written.is_empty()
                        && written
                            .bytes()
                            .all(|c| c.is_ascii_digit() || b"+-.eE".contains(&c)));
                (scalar.then(|| written.to_string()), (start, i))
            }
        };
        out.push(Field {
            name: text.get(name.0..name.1).unwrap_or("").to_string(),
            name_span: part.span_of(name.0, name.1),
            value,
            value_span: part.span_of(value_range.0, value_range.1),
            typed: true,
        });
        skip_ws(&mut i);
        match b.get(i) {
            Some(b',') => i += 1,
            _ => return,
        }
    }
}

fn curl(
    args: &[RawWord],
    span: &Range<usize>,
    assignments: Vec<Assignment>,
) -> Option<(Call, bool)> {
    let mut call = new_call(Form::Curl, span, assignments);
    let (mut body, mut get, mut head, mut upload, mut stdin) = (false, false, false, false, false);
    let mut urls: Vec<&RawWord> = Vec::new();
    let mut url_flags: Vec<(String, Range<usize>)> = Vec::new();
    let takes = |f: &str| {
        if let Some(short) = f.strip_prefix('-').filter(|s| s.len() == 1) {
            return "AbcCdDeEFHKmoPQrTuUwxXyYzt".contains(short);
        }
        CURL_LONG_WITH_VALUE.contains(&f) || f.starts_with("--expand-")
    };
    options(
        args,
        takes,
        |flag, value| {
            let flag = flag
                .strip_prefix("--expand-")
                .map_or(flag.to_string(), |f| format!("--{f}"));
            match (flag.as_str(), value) {
                ("-X" | "--request", Some(v)) => {
                    call.method = Some((v.text().to_string(), v.span()))
                }
                ("-H" | "--header", Some(v)) if !v.text().starts_with('@') => {
                    call.headers.extend(header_of(v));
                }
                (
                    "-d" | "--data" | "--data-ascii" | "--data-binary" | "--data-raw" | "--json",
                    Some(v),
                ) => {
                    body = true;
                    if flag != "--data-raw" && v.text().starts_with('@') {
                        if v.text() == "@-" {
                            stdin = true;
                        } else {
                            call.input = Some(v.span_of(1, v.text().len()));
                        }
                    } else {
                        body_fields(v, &mut call.fields);
                    }
                }
                ("--data-urlencode", Some(v)) => {
                    body = true;
                    let f = field_of(v, false);
                    if !f.name.is_empty() {
                        call.fields.push(f);
                    }
                }
                ("-F" | "--form" | "--form-string", Some(v)) => {
                    body = true;
                    call.fields.push(field_of(v, false));
                }
                ("-T" | "--upload-file", Some(v)) => {
                    upload = true;
                    if v.text() == "-" {
                        stdin = true;
                    } else {
                        call.input = Some(v.span());
                    }
                }
                ("-G" | "--get", _) => get = true,
                ("-I" | "--head", _) => head = true,
                ("-u" | "--user", Some(v)) => call.token = user_token(v.text()),
                ("--oauth2-bearer", Some(v)) => call.token = token_source(v.text()),
                ("--url", Some(v)) => url_flags.push((v.text().to_string(), v.span())),
                _ => {}
            }
        },
        |w| urls.push(w),
    );
    let target = url_flags
        .into_iter()
        .chain(
            urls.into_iter()
                .map(|w| (w.text.clone(), Part::whole(w).span())),
        )
        .find(|(t, _)| is_url(t))?;
    call.target = Some(target);
    call.implied_method = if head {
        "HEAD"
    } else if get {
        "GET"
    } else if upload {
        "PUT"
    } else if body {
        "POST"
    } else {
        "GET"
    };
    call.token = authorization(&call.headers).or(call.token.take());
    Some((call, stdin))
}

/// curl's long options that take a value (`curl --help all`).
const CURL_LONG_WITH_VALUE: &[&str] = &[
    "--abstract-unix-socket",
    "--alt-svc",
    "--aws-sigv4",
    "--cacert",
    "--capath",
    "--cert",
    "--cert-type",
    "--ciphers",
    "--config",
    "--connect-timeout",
    "--connect-to",
    "--continue-at",
    "--cookie",
    "--cookie-jar",
    "--create-file-mode",
    "--crlfile",
    "--curves",
    "--data",
    "--data-ascii",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--delegation",
    "--dns-interface",
    "--dns-ipv4-addr",
    "--dns-ipv6-addr",
    "--dns-servers",
    "--doh-url",
    "--dump-header",
    "--ech",
    "--egd-file",
    "--engine",
    "--etag-compare",
    "--etag-save",
    "--expect100-timeout",
    "--form",
    "--form-string",
    "--ftp-account",
    "--ftp-alternative-to-user",
    "--ftp-method",
    "--ftp-port",
    "--ftp-ssl-ccc-mode",
    "--happy-eyeballs-timeout-ms",
    "--haproxy-clientip",
    "--header",
    "--hostpubmd5",
    "--hostpubsha256",
    "--hsts",
    "--interface",
    "--ip-tos",
    "--ipfs-gateway",
    "--json",
    "--keepalive-cnt",
    "--keepalive-time",
    "--key",
    "--key-type",
    "--krb",
    "--libcurl",
    "--limit-rate",
    "--local-port",
    "--login-options",
    "--mail-auth",
    "--mail-from",
    "--mail-rcpt",
    "--max-filesize",
    "--max-redirs",
    "--max-time",
    "--netrc-file",
    "--noproxy",
    "--oauth2-bearer",
    "--output",
    "--output-dir",
    "--parallel-max",
    "--pass",
    "--pinnedpubkey",
    "--preproxy",
    "--proto",
    "--proto-default",
    "--proto-redir",
    "--proxy",
    "--proxy-cacert",
    "--proxy-capath",
    "--proxy-cert",
    "--proxy-cert-type",
    "--proxy-ciphers",
    "--proxy-crlfile",
    "--proxy-header",
    "--proxy-key",
    "--proxy-key-type",
    "--proxy-pass",
    "--proxy-pinnedpubkey",
    "--proxy-service-name",
    "--proxy-tls13-ciphers",
    "--proxy-tlsauthtype",
    "--proxy-tlspassword",
    "--proxy-tlsuser",
    "--proxy-user",
    "--proxy1.0",
    "--pubkey",
    "--quote",
    "--random-file",
    "--range",
    "--rate",
    "--referer",
    "--request",
    "--request-target",
    "--resolve",
    "--retry",
    "--retry-delay",
    "--retry-max-time",
    "--sasl-authzid",
    "--service-name",
    "--socks4",
    "--socks4a",
    "--socks5",
    "--socks5-gssapi-service",
    "--socks5-hostname",
    "--speed-limit",
    "--speed-time",
    "--stderr",
    "--telnet-option",
    "--tftp-blksize",
    "--time-cond",
    "--tls-max",
    "--tls13-ciphers",
    "--tlsauthtype",
    "--tlspassword",
    "--tlsuser",
    "--trace",
    "--trace-ascii",
    "--trace-config",
    "--unix-socket",
    "--upload-file",
    "--url",
    "--url-query",
    "--user",
    "--user-agent",
    "--variable",
    "--write-out",
];

fn wget(
    args: &[RawWord],
    span: &Range<usize>,
    assignments: Vec<Assignment>,
) -> Option<(Call, bool)> {
    let mut call = new_call(Form::Wget, span, assignments);
    let mut body = false;
    let mut urls: Vec<&RawWord> = Vec::new();
    let takes = |f: &str| {
        if let Some(short) = f.strip_prefix('-').filter(|s| s.len() == 1) {
            return "OoaitTwPUeBQlARDXI".contains(short);
        }
        WGET_LONG_WITH_VALUE.contains(&f)
    };
    // `-nv`, `-nc`, `-nd`, `-nH`, `-np`: two-letter flags that take nothing.
    let filtered: Vec<RawWord> = args
        .iter()
        .filter(|w| !(w.text.len() == 3 && w.text.starts_with("-n")))
        .cloned()
        .collect();
    options(
        &filtered,
        takes,
        |flag, value| match (flag, value) {
            ("--method", Some(v)) => call.method = Some((v.text().to_string(), v.span())),
            ("--header", Some(v)) => call.headers.extend(header_of(v)),
            ("--post-data" | "--body-data", Some(v)) => {
                body |= flag == "--post-data";
                body_fields(v, &mut call.fields);
            }
            ("--post-file" | "--body-file", Some(v)) => {
                body |= flag == "--post-file";
                call.input = Some(v.span());
            }
            ("--password" | "--http-password", Some(v)) => call.token = token_source(v.text()),
            _ => {}
        },
        |w| urls.push(w),
    );
    let target = urls.into_iter().find(|w| is_url(&w.text))?;
    call.target = Some((target.text.clone(), Part::whole(target).span()));
    call.implied_method = if body { "POST" } else { "GET" };
    if let Some(t) = authorization(&call.headers) {
        call.token = Some(t);
    }
    Some((call, false))
}

/// wget's long options that take a value (`wget --help`).
const WGET_LONG_WITH_VALUE: &[&str] = &[
    "--output-document",
    "--output-file",
    "--append-output",
    "--input-file",
    "--tries",
    "--timeout",
    "--wait",
    "--directory-prefix",
    "--user-agent",
    "--execute",
    "--base",
    "--quota",
    "--level",
    "--accept",
    "--reject",
    "--domains",
    "--exclude-directories",
    "--include-directories",
    "--header",
    "--post-data",
    "--post-file",
    "--method",
    "--body-data",
    "--body-file",
    "--user",
    "--password",
    "--http-user",
    "--http-password",
    "--referer",
    "--load-cookies",
    "--save-cookies",
    "--ca-certificate",
    "--ca-directory",
    "--certificate",
    "--private-key",
    "--limit-rate",
    "--dns-timeout",
    "--connect-timeout",
    "--read-timeout",
    "--waitretry",
    "--bind-address",
    "--proxy-user",
    "--proxy-password",
    "--config",
    "--local-encoding",
    "--remote-encoding",
    "--restrict-file-names",
    "--secure-protocol",
    "--default-page",
    "--max-redirect",
    "--retry-on-http-error",
    "--progress",
    "--output",
];

/// HTTPie's options that take a value (`http --help`).
const HTTPIE_WITH_VALUE: &[&str] = &[
    "-a",
    "--auth",
    "-A",
    "--auth-type",
    "-o",
    "--output",
    "-p",
    "--print",
    "-P",
    "--history-print",
    "-s",
    "--style",
    "--verify",
    "--cert",
    "--cert-key",
    "--cert-key-pass",
    "--session",
    "--session-read-only",
    "--proxy",
    "--timeout",
    "--max-redirects",
    "--pretty",
    "--format-options",
    "--boundary",
    "--ssl",
    "--ciphers",
    "--default-scheme",
    "--max-headers",
    "--response-charset",
    "--response-mime",
    "--raw",
    "--unix-socket",
    "--bearer",
];

/// HTTPie's item separators, longest first at a position.
const HTTPIE_SEPARATORS: &[&str] = &[":=@", "==", "=@", ":=", "=", "@", ":"];

fn httpie(
    args: &[RawWord],
    span: &Range<usize>,
    assignments: Vec<Assignment>,
) -> Option<(Call, bool)> {
    let mut call = new_call(Form::Httpie, span, assignments);
    let mut positionals: Vec<&RawWord> = Vec::new();
    let mut auth: Option<String> = None;
    let mut bearer = false;
    let mut raw_body = false;
    options(
        args,
        |f| HTTPIE_WITH_VALUE.contains(&f),
        |flag, value| match (flag, value) {
            ("-a" | "--auth", Some(v)) => auth = Some(v.text().to_string()),
            ("-A" | "--auth-type", Some(v)) => bearer = v.text().eq_ignore_ascii_case("bearer"),
            ("--bearer", Some(v)) => {
                auth = Some(v.text().to_string());
                bearer = true;
            }
            ("--raw", Some(_)) => raw_body = true,
            _ => {}
        },
        |w| positionals.push(w),
    );
    let mut rest = positionals.into_iter().peekable();
    let first = rest.next()?;
    let url = if first.text.bytes().all(|b| b.is_ascii_alphabetic())
        && !first.text.is_empty()
        && rest.peek().is_some()
    {
        call.method = Some((first.text.clone(), Part::whole(first).span()));
        rest.next()?
    } else {
        first
    };
    let host = url.text.split('/').next().unwrap_or("");
    if !(is_url(&url.text) || host.contains('.') || host.starts_with(':')) {
        return None;
    }
    call.target = Some((url.text.clone(), Part::whole(url).span()));
    let mut data = raw_body;
    for item in rest {
        let part = Part::whole(item);
        let text = item.text.as_str();
        crate::loading::work::count(text.len() * HTTPIE_SEPARATORS.len());
        let Some((at, sep)) = text.char_indices().find_map(|(i, _)| {
            HTTPIE_SEPARATORS
                .iter()
                .find(|s| text[i..].starts_with(**s))
                .map(|s| (i, *s))
        }) else {
            continue;
        };
        let after = at + sep.len();
        match sep {
            ":" => call.headers.push(Header {
                name: text[..at].trim().to_string(),
                value: text[after..].trim().to_string(),
                span: item.span.clone(),
            }),
            "==" => {}
            _ => {
                data = true;
                let from_file = sep.ends_with('@');
                call.fields.push(Field {
                    name: text[..at].to_string(),
                    name_span: part.span_of(0, at),
                    value: (!from_file).then(|| text[after..].to_string()),
                    value_span: part.span_of(after, text.len()),
                    typed: sep.starts_with(":="),
                });
            }
        }
    }
    call.implied_method = if data { "POST" } else { "GET" };
    call.token = authorization(&call.headers).or_else(|| {
        auth.as_deref().and_then(|a| {
            if bearer {
                token_source(a)
            } else {
                user_token(a)
            }
        })
    });
    // With no data item, HTTPie sends its standard input as the body.
    Some((call, !data))
}

#[cfg(test)]
mod tests;

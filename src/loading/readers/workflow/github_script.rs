//! The code-hosting API calls in the `script:` of an `actions/github-script` step: the
//! REST methods of its client (`github.rest.issues.createComment({…})`, the older
//! `github.issues.createComment` of version 4 and before, a method handed to
//! `github.paginate`), `github.request('POST /route')` and `github.graphql(…)`, with the
//! span of each part, so that a rule can say which permission the step needs at the call
//! that needs it.
//!
//! The script is JavaScript; it is not parsed, only split into tokens (comments, strings,
//! template literals with their `${…}`, regular expressions told from division by the
//! token before them) and the calls read from the tokens. Whatever else reaches the
//! client (`github.hook`, `github` handed to a function or a variable, a computed
//! `github.rest[ns][m]`) is reported as unreadable, with its span: what it calls cannot
//! be told, and a rule must not call the step's needs known. One pass, no recursion:
//! any text is read in time linear in its length and never panics.

use std::ops::Range;

/// What a script calls.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptCalls {
    pub calls: Vec<ScriptCall>,
    /// Uses of the client whose calls cannot be read, and why.
    pub unreadable: Vec<(Range<usize>, String)>,
}

/// Which endpoint a call reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A REST method of the client: `rest.<namespace>.<method>`, or, `legacy`, the
    /// `<namespace>.<method>` that github-script 4 and before exposed without `rest`.
    Rest {
        namespace: (String, Range<usize>),
        method: (String, Range<usize>),
        legacy: bool,
    },
    /// `request('VERB /route')`, or `request({method, url})` as `VERB /route`
    /// (`GET` where no method is written); a template literal's `${…}` kept as written.
    Request {
        route: (String, Range<usize>),
    },
    Graphql,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptCall {
    pub target: Target,
    /// The call expression (`github.rest.issues.create({…})`, the whole `paginate(…)`),
    /// or the method's name where the method is referred to and not called here.
    pub span: Range<usize>,
    /// The keys of the parameters object (the first argument; the second for
    /// `paginate`, `request` and `graphql`), when it is an object literal.
    pub args: Vec<Arg>,
    /// What the parameters object spreads, as written (`context.repo`, `context.issue`):
    /// `context.repo` gives `owner` and `repo`, `context.issue` also `issue_number`.
    pub spreads: Vec<String>,
    /// The object the call goes through: `github` (the client made with the step's
    /// `github-token`) or `octokit` (most often one made with another token).
    pub client: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    pub name: String,
    pub name_span: Range<usize>,
    /// A literal's value (a string without its quotes, a number, `true`), or a chain of
    /// names as written (`context.repo.owner`); `None` for any other expression and for
    /// a shorthand `{ owner }`.
    pub value: Option<String>,
    /// The value (a string's inside, without quotes); a shorthand's name.
    pub value_span: Range<usize>,
}

/// The calls of a github-script `script:`.
pub fn calls(script: &str) -> ScriptCalls {
    let tokens = tokenize(script);
    crate::loading::work::count(tokens.len());
    let close = matching_brackets(script, &tokens);
    let mut reader = Reader {
        src: script,
        tokens: &tokens,
        close: &close,
        consumed: vec![false; tokens.len()],
        out: ScriptCalls::default(),
    };
    for i in 0..tokens.len() {
        reader.client_use(i);
    }
    reader.out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Punct,
    /// A string, or a template literal with no `${…}`.
    Str,
    Num,
    /// The opening backtick of a template literal with `${…}` in it.
    TemplateOpen,
    /// Its closing backtick.
    TemplateClose,
    Regex,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    /// A template literal's opening token: the index of its closing one.
    pair: Option<usize>,
    span: Range<usize>,
    /// A string's inside, without its quotes.
    inner: Range<usize>,
}

/// What a `}` closes: a block or object, or the `${` of a template literal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    Brace,
    TemplateExpression,
}

/// Members of the client that are not REST namespaces (`github.hook.wrap` is no method
/// `wrap` of a namespace `hook`).
const NOT_NAMESPACES: &[&str] = &[
    "rest", "hook", "auth", "plugin", "request", "graphql", "paginate", "log",
];

/// Keywords after which a `/` starts a regular expression, not a division.
const BEFORE_REGEX: &[&str] = &[
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "instanceof",
    "yield",
    "await",
];

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

fn tokenize(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut tokens: Vec<Token> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // The template literals open around the current position: the index of each one's
    // opening token.
    let mut templates: Vec<usize> = Vec::new();
    let mut i = 0;
    // Set when a `}` closed a template's `${`: the template's text goes on at `i`.
    let mut in_template = false;
    let mut counted = 0;
    while i < b.len() {
        // Each branch looks at the bytes it consumes: the work is the bytes consumed.
        crate::loading::work::count(1 + i - counted);
        counted = i;
        if in_template {
            in_template = false;
            match template_text(b, i) {
                TemplatePart::Expression(next) => {
                    frames.push(Frame::TemplateExpression);
                    i = next;
                }
                TemplatePart::End(next) => {
                    let close = closing_backtick(b, next);
                    tokens.push(Token {
                        pair: None,
                        kind: Kind::TemplateClose,
                        span: close..next,
                        inner: close..next,
                    });
                    if let Some(open) = templates.pop() {
                        let close = tokens.len() - 1;
                        tokens[open].pair = Some(close);
                    }
                    i = next;
                }
            }
            continue;
        }
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = b[i..]
                    .iter()
                    .position(|&x| x == b'\n')
                    .map_or(b.len(), |p| i + p);
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = find(b, b"*/", i + 2).map_or(b.len(), |p| p + 2);
            }
            b'/' if regex_allowed(src, tokens.last()) => {
                let start = i;
                i = regex_end(b, i);
                tokens.push(Token {
                    pair: None,
                    kind: Kind::Regex,
                    span: start..i,
                    inner: start..i,
                });
            }
            b'\'' | b'"' => {
                let start = i;
                let mut j = i + 1;
                while j < b.len() && b[j] != c && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                let end = j.min(b.len());
                i = if end < b.len() && b[end] == c {
                    end + 1
                } else {
                    end
                };
                tokens.push(Token {
                    pair: None,
                    kind: Kind::Str,
                    span: start..i,
                    inner: start + 1..end.max(start + 1),
                });
            }
            b'`' => {
                let start = i;
                match template_text(b, i + 1) {
                    TemplatePart::End(next) => {
                        tokens.push(Token {
                            pair: None,
                            kind: Kind::Str,
                            span: start..next,
                            inner: start + 1..closing_backtick(b, next).max(start + 1),
                        });
                        i = next;
                    }
                    TemplatePart::Expression(next) => {
                        templates.push(tokens.len());
                        tokens.push(Token {
                            pair: None,
                            kind: Kind::TemplateOpen,
                            span: start..start + 1,
                            inner: start + 1..start + 1,
                        });
                        frames.push(Frame::TemplateExpression);
                        i = next;
                    }
                }
            }
            b'{' => {
                frames.push(Frame::Brace);
                tokens.push(punct(i, 1));
                i += 1;
            }
            b'}' => {
                if frames.pop() == Some(Frame::TemplateExpression) {
                    i += 1;
                    in_template = true;
                } else {
                    tokens.push(punct(i, 1));
                    i += 1;
                }
            }
            b'0'..=b'9' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_')
                {
                    i += 1;
                }
                tokens.push(Token {
                    pair: None,
                    kind: Kind::Num,
                    span: start..i,
                    inner: start..i,
                });
            }
            b'.' if b.get(i + 1) == Some(&b'.') && b.get(i + 2) == Some(&b'.') => {
                tokens.push(punct(i, 3));
                i += 3;
            }
            b'?' if b.get(i + 1) == Some(&b'.')
                && !b.get(i + 2).is_some_and(u8::is_ascii_digit) =>
            {
                // `?.` reads as `.` for a chain of names.
                tokens.push(Token {
                    pair: None,
                    kind: Kind::Punct,
                    span: i..i + 2,
                    inner: i + 1..i + 2,
                });
                i += 2;
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or(' ');
                if is_ident_start(ch) {
                    let start = i;
                    i += src[i..]
                        .char_indices()
                        .find(|&(_, c)| !is_ident_char(c))
                        .map_or(src.len() - i, |(p, _)| p);
                    tokens.push(Token {
                        pair: None,
                        kind: Kind::Ident,
                        span: start..i,
                        inner: start..i,
                    });
                } else {
                    tokens.push(punct(i, ch.len_utf8()));
                    i += ch.len_utf8();
                }
            }
        }
    }
    // Templates left open: their opening token stands alone.
    tokens
}

fn punct(at: usize, len: usize) -> Token {
    Token {
        pair: None,
        kind: Kind::Punct,
        span: at..at + len,
        inner: at..at + len,
    }
}

/// Where the closing backtick of a template literal that ends at `end` is: `end` itself
/// for one the script ends inside of.
fn closing_backtick(b: &[u8], end: usize) -> usize {
    if end > 0 && b.get(end - 1) == Some(&b'`') {
        end - 1
    } else {
        end
    }
}

enum TemplatePart {
    /// A `${` ends the text: the expression starts at the position given.
    Expression(usize),
    /// The closing backtick (or the end of the script): after it.
    End(usize),
}

/// A template literal's text from `i` to its next `${` or its end.
fn template_text(b: &[u8], mut i: usize) -> TemplatePart {
    while i < b.len() {
        crate::loading::work::count(1);
        match b[i] {
            b'\\' => i += 2,
            b'`' => return TemplatePart::End(i + 1),
            b'$' if b.get(i + 1) == Some(&b'{') => return TemplatePart::Expression(i + 2),
            _ => i += 1,
        }
    }
    TemplatePart::End(b.len())
}

fn regex_allowed(src: &str, before: Option<&Token>) -> bool {
    let Some(t) = before else { return true };
    let text = src.get(t.span.clone()).unwrap_or("");
    match t.kind {
        Kind::Ident => BEFORE_REGEX.contains(&text),
        Kind::Punct => !matches!(text, ")" | "]" | "}"),
        Kind::TemplateOpen => true,
        _ => false,
    }
}

/// The end of a regular expression literal starting at `i` (its flags included); at the
/// end of the line where it is not closed.
fn regex_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    let mut in_class = false;
    while i < b.len() {
        crate::loading::work::count(1);
        match b[i] {
            b'\\' => i += 1,
            b'\n' => return i,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => {
                i += 1;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                return i;
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let found = hay
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle);
    crate::loading::work::count(found.map_or(hay.len().saturating_sub(from), |i| i + 1));
    found.map(|i| from + i)
}

/// For each opening bracket token, the index of its closing one. A closer that does not
/// match the innermost opener is left alone, so that one stray bracket does not pair
/// every other wrongly.
fn matching_brackets(src: &str, tokens: &[Token]) -> Vec<Option<usize>> {
    let mut close = vec![None; tokens.len()];
    let mut open: Vec<(usize, u8)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Punct || t.span.len() != 1 {
            continue;
        }
        let c = src.as_bytes()[t.span.start];
        let opener = match c {
            b'(' | b'[' | b'{' => {
                open.push((i, c));
                continue;
            }
            b')' => b'(',
            b']' => b'[',
            b'}' => b'{',
            _ => continue,
        };
        if open.last().is_some_and(|&(_, o)| o == opener)
            && let Some((at, _)) = open.pop()
        {
            close[at] = Some(i);
        }
    }
    close
}

struct Reader<'a> {
    src: &'a str,
    tokens: &'a [Token],
    close: &'a [Option<usize>],
    /// Client names already read as part of another call (a method handed to
    /// `paginate`).
    consumed: Vec<bool>,
    out: ScriptCalls,
}

impl Reader<'_> {
    fn text(&self, i: usize) -> &str {
        self.tokens
            .get(i)
            .and_then(|t| self.src.get(t.span.clone()))
            .unwrap_or("")
    }

    fn is(&self, i: usize, kind: Kind, text: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == kind) && self.text(i) == text
    }

    fn is_dot(&self, i: usize) -> bool {
        self.tokens
            .get(i)
            .is_some_and(|t| t.kind == Kind::Punct && self.src.get(t.inner.clone()) == Some("."))
    }

    /// The names of `a.b.c` from token `i`: each with its token index.
    fn chain(&self, i: usize) -> Vec<usize> {
        let mut names = vec![i];
        let mut j = i + 1;
        crate::loading::work::count(1);
        while self.is_dot(j)
            && self
                .tokens
                .get(j + 1)
                .is_some_and(|t| t.kind == Kind::Ident)
        {
            names.push(j + 1);
            j += 2;
            crate::loading::work::count(1);
        }
        names
    }

    fn named(&self, i: usize) -> (String, Range<usize>) {
        (self.text(i).to_string(), self.tokens[i].span.clone())
    }

    fn unreadable(&mut self, span: Range<usize>, why: &str) {
        self.out.unreadable.push((span, why.to_string()));
    }

    /// The end of the call whose `(` is token `open`.
    fn call_end(&self, open: usize) -> usize {
        self.close
            .get(open)
            .copied()
            .flatten()
            .and_then(|c| self.tokens.get(c))
            .or_else(|| self.tokens.last())
            .map_or(self.src.len(), |t| t.span.end)
    }

    /// The token indexes of a call's arguments, each from its first token to the one
    /// after its last.
    fn arguments(&self, open: usize) -> Vec<Range<usize>> {
        // An unclosed call's arguments are not read: each would run to the end.
        let Some(end) = self.close.get(open).copied().flatten() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut start = open + 1;
        let mut j = open + 1;
        while j < end {
            crate::loading::work::count(1);
            if self.is(j, Kind::Punct, ",") {
                out.push(start..j);
                start = j + 1;
                j += 1;
                continue;
            }
            j = self
                .close
                .get(j)
                .copied()
                .flatten()
                .map_or(j + 1, |c| c + 1);
        }
        if start < end {
            out.push(start..end);
        }
        out
    }

    /// Token `i` if it is a client's name (`github`, `octokit`) that is not a member of
    /// something else.
    fn client_at(&self, i: usize) -> bool {
        let t = &self.tokens[i];
        // `const octokit = getOctokit(…)` names the client; it does not use one.
        let declared = i > 0
            && self.tokens[i - 1].kind == Kind::Ident
            && matches!(self.text(i - 1), "const" | "let" | "var");
        let key = self.is(i + 1, Kind::Punct, ":")
            && i > 0
            && (self.is(i - 1, Kind::Punct, "{") || self.is(i - 1, Kind::Punct, ","));
        t.kind == Kind::Ident
            && matches!(self.text(i), "github" | "octokit")
            && !(i > 0 && self.is_dot(i - 1))
            && !key
            && !declared
    }

    fn client_use(&mut self, i: usize) {
        if !self.client_at(i) || self.consumed[i] {
            return;
        }
        let client = self.text(i).to_string();
        let chain = self.chain(i);
        let after = chain[chain.len() - 1] + 1;
        let called = self.is(after, Kind::Punct, "(");
        let start = self.tokens[i].span.start;
        let chain_end = self.tokens[chain[chain.len() - 1]].span.end;
        let names: Vec<String> = chain.iter().map(|&k| self.text(k).to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        if self.is(after, Kind::Punct, "[") {
            self.unreadable(
                start..chain_end,
                "a computed member of the client: the method it names cannot be read",
            );
            return;
        }
        let end = if called {
            self.call_end(after)
        } else {
            chain_end
        };
        match names.as_slice() {
            [_] => self.unreadable(
                start..chain_end,
                "the client is used as a value: the calls made through it cannot be followed",
            ),
            [_, "log", ..] => {}
            [_, "rest", _, _] => self.rest_call(&chain, false, called, after, start..end, client),
            [_, ns, _] if !NOT_NAMESPACES.contains(ns) => {
                self.rest_call(&chain, true, called, after, start..end, client);
            }
            [_, "request"] if called => {
                let arguments = self.arguments(after);
                match self.route(arguments.first()) {
                    Some(route) => {
                        let args = self.object_argument(after, 1);
                        self.push(Target::Request { route }, start..end, args, client);
                    }
                    None => self.unreadable(
                        start..end,
                        "a request whose route is not written as a literal",
                    ),
                }
            }
            [_, "graphql"] | [_, "graphql", "paginate"] if called => {
                let args = self.object_argument(after, 1);
                self.push(Target::Graphql, start..end, args, client);
            }
            [_, "paginate"] | [_, "paginate", "iterator"] if called => {
                self.paginate(after, start..end, client)
            }
            _ => self.unreadable(start..end, "a use of the client whose calls cannot be read"),
        }
    }

    /// A REST method (`rest.ns.m`, or the legacy `ns.m`) called or referred to.
    fn rest_call(
        &mut self,
        chain: &[usize],
        legacy: bool,
        called: bool,
        open: usize,
        span: Range<usize>,
        client: String,
    ) {
        let (ns, m) = if legacy {
            (chain[1], chain[2])
        } else {
            (chain[2], chain[3])
        };
        let args = if called {
            self.object_argument(open, 0)
        } else {
            (Vec::new(), Vec::new())
        };
        self.push(
            Target::Rest {
                namespace: self.named(ns),
                method: self.named(m),
                legacy,
            },
            span,
            args,
            client,
        );
    }

    fn push(
        &mut self,
        target: Target,
        span: Range<usize>,
        (args, spreads): (Vec<Arg>, Vec<String>),
        client: String,
    ) {
        self.out.calls.push(ScriptCall {
            target,
            span,
            args,
            spreads,
            client,
        });
    }

    /// `paginate(github.rest.ns.method, {…})` or `paginate('GET /route', {…})`.
    fn paginate(&mut self, open: usize, span: Range<usize>, client: String) {
        let arguments = self.arguments(open);
        let Some(first) = arguments.first().cloned() else {
            self.unreadable(span, "a paginate call without the method it pages");
            return;
        };
        let args = self.object_argument(open, 1);
        if let Some(route) = self.route(Some(&first)) {
            self.push(Target::Request { route }, span, args, client);
            return;
        }
        let i = first.start;
        if first.len() > 1 && i < self.tokens.len() && self.client_at(i) {
            let chain = self.chain(i);
            if chain.len() + (chain.len() - 1) == first.len() {
                let names: Vec<String> = chain.iter().map(|&k| self.text(k).to_string()).collect();
                let target = match names
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .as_slice()
                {
                    [_, "rest", _, _] => Some((chain[2], chain[3], false)),
                    [_, ns, _] if !NOT_NAMESPACES.contains(ns) => Some((chain[1], chain[2], true)),
                    _ => None,
                };
                if let Some((ns, m, legacy)) = target {
                    self.consumed[i] = true;
                    self.push(
                        Target::Rest {
                            namespace: self.named(ns),
                            method: self.named(m),
                            legacy,
                        },
                        span,
                        args,
                        client,
                    );
                    return;
                }
            }
        }
        self.unreadable(span, "a paginate call whose method cannot be read");
    }

    /// A route written as one literal string (`'GET /repos/{owner}/{repo}'`, a template
    /// literal), or an object literal's `method` and `url`.
    fn route(&self, argument: Option<&Range<usize>>) -> Option<(String, Range<usize>)> {
        let argument = argument?;
        let first = self.tokens.get(argument.start)?;
        match first.kind {
            Kind::Str if argument.len() == 1 => Some((
                self.src.get(first.inner.clone())?.to_string(),
                first.inner.clone(),
            )),
            Kind::TemplateOpen => {
                let close = first.pair?;
                let inner = first.span.end..self.tokens[close].span.start;
                Some((self.src.get(inner.clone())?.to_string(), inner))
            }
            Kind::Punct if self.text(argument.start) == "{" => {
                let (args, _) = self.object(argument.start);
                let method = args
                    .iter()
                    .find(|a| a.name == "method")
                    .map_or(Some("GET".to_string()), |a| a.value.clone())?;
                let url = args.iter().find(|a| a.name == "url")?;
                Some((
                    format!("{} {}", method, url.value.as_deref()?),
                    url.value_span.clone(),
                ))
            }
            _ => None,
        }
    }

    /// The keys of the call's argument number `n` when it is an object literal, else of
    /// the first argument from `n` on that is one.
    fn object_argument(&self, open: usize, n: usize) -> (Vec<Arg>, Vec<String>) {
        self.arguments(open)
            .into_iter()
            .skip(n)
            .find(|a| a.len() >= 2 && self.is(a.start, Kind::Punct, "{"))
            .map(|a| self.object(a.start))
            .unwrap_or_default()
    }

    /// The entries of the object literal whose `{` is token `open`.
    fn object(&self, open: usize) -> (Vec<Arg>, Vec<String>) {
        let mut args = Vec::new();
        let mut spreads = Vec::new();
        let Some(end) = self.close.get(open).copied().flatten() else {
            return (args, spreads);
        };
        let mut entries = Vec::new();
        let mut start = open + 1;
        let mut j = open + 1;
        while j < end {
            crate::loading::work::count(1);
            if self.is(j, Kind::Punct, ",") {
                entries.push(start..j);
                start = j + 1;
                j += 1;
                continue;
            }
            j = self
                .close
                .get(j)
                .copied()
                .flatten()
                .map_or(j + 1, |c| c + 1);
        }
        if start < end {
            entries.push(start..end);
        }
        for e in entries {
            if e.is_empty() {
                continue;
            }
            let k = e.start;
            if self.is(k, Kind::Punct, "...") {
                if let (Some(a), Some(b)) = (self.tokens.get(k + 1), self.tokens.get(e.end - 1)) {
                    spreads.push(
                        self.src
                            .get(a.span.start..b.span.end)
                            .unwrap_or("")
                            .to_string(),
                    );
                }
                continue;
            }
            let key = &self.tokens[k];
            let name = match key.kind {
                Kind::Ident | Kind::Num => self.text(k).to_string(),
                Kind::Str => self.src.get(key.inner.clone()).unwrap_or("").to_string(),
                _ => continue,
            };
            let name_span = if key.kind == Kind::Str {
                key.inner.clone()
            } else {
                key.span.clone()
            };
            if e.len() == 1 && key.kind == Kind::Ident {
                args.push(Arg {
                    name,
                    name_span: name_span.clone(),
                    value: None,
                    value_span: name_span,
                });
                continue;
            }
            if !self.is(k + 1, Kind::Punct, ":") || e.len() < 3 {
                continue;
            }
            let value = k + 2..e.end;
            let first = &self.tokens[value.start];
            let last = &self.tokens[value.end - 1];
            let (text, span) = if value.len() == 1 && first.kind == Kind::Str {
                (
                    self.src.get(first.inner.clone()).map(str::to_string),
                    first.inner.clone(),
                )
            } else if value.len() == 1
                && (first.kind == Kind::Num
                    || matches!(self.text(value.start), "true" | "false" | "null"))
            {
                (Some(self.text(value.start).to_string()), first.span.clone())
            } else {
                let names = value.clone().enumerate().all(|(n, t)| {
                    if n % 2 == 0 {
                        self.tokens[t].kind == Kind::Ident
                    } else {
                        self.is_dot(t)
                    }
                }) && value.len() % 2 == 1;
                let span = first.span.start..last.span.end;
                (
                    names.then(|| self.src.get(span.clone()).unwrap_or("").to_string()),
                    span,
                )
            };
            args.push(Arg {
                name,
                name_span,
                value: text,
                value_span: span,
            });
        }
        (args, spreads)
    }
}

#[cfg(test)]
mod tests;

//! TEMPORARY STUB (replaced by the workflow-calls helper's module).
use std::ops::Range;
#[derive(Clone, Debug)]
pub enum Command {
    Call(Call),
    Gh {
        sub: String,
        words: Vec<Word>,
        span: Range<usize>,
        assignments: Vec<Assignment>,
    },
    Git {
        sub: String,
        span: Range<usize>,
    },
    Assignment(Assignment),
    Other {
        name: String,
        span: Range<usize>,
    },
    Unreadable {
        span: Range<usize>,
        why: String,
    },
}
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    GhApi,
    Curl,
    Wget,
    Httpie,
}
#[derive(Clone, Debug)]
pub struct Call {
    pub form: Form,
    pub span: Range<usize>,
    pub method: Option<(String, Range<usize>)>,
    pub implied_method: &'static str,
    pub target: Option<(String, Range<usize>)>,
    pub fields: Vec<Field>,
    pub headers: Vec<Header>,
    pub token: Option<TokenSource>,
    pub input: Option<Range<usize>>,
    pub assignments: Vec<Assignment>,
    pub hostname: Option<String>,
    pub paginate: bool,
}
#[derive(Clone, Debug, PartialEq)]
pub enum TokenSource {
    Variable(String),
    Expression(String),
    Literal,
}
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub name_span: Range<usize>,
    pub value: Option<String>,
    pub value_span: Range<usize>,
    pub typed: bool,
}
#[derive(Clone, Debug)]
pub struct Header {
    pub name: String,
    pub value: String,
    pub span: Range<usize>,
}
#[derive(Clone, Debug)]
pub struct Assignment {
    pub name: String,
    pub value: String,
    pub span: Range<usize>,
}
#[derive(Clone, Debug)]
pub struct Word {
    pub text: String,
    pub span: Range<usize>,
    pub expanded: bool,
}
pub fn commands(_script: &str) -> Vec<Command> {
    Vec::new()
}

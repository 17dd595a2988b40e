//! TEMPORARY STUB (replaced by the workflow-calls helper's module).
use std::ops::Range;
#[derive(Clone, Debug, Default)]
pub struct ScriptCalls {
    pub calls: Vec<ScriptCall>,
    pub unreadable: Vec<(Range<usize>, String)>,
}
#[derive(Clone, Debug)]
pub enum Target {
    Rest {
        namespace: (String, Range<usize>),
        method: (String, Range<usize>),
        legacy: bool,
    },
    Request {
        route: (String, Range<usize>),
    },
    Graphql,
}
#[derive(Clone, Debug)]
pub struct ScriptCall {
    pub target: Target,
    pub span: Range<usize>,
    pub args: Vec<Arg>,
    pub spreads: Vec<String>,
}
#[derive(Clone, Debug)]
pub struct Arg {
    pub name: String,
    pub name_span: Range<usize>,
    pub value: Option<String>,
    pub value_span: Range<usize>,
}
pub fn calls(_script: &str) -> ScriptCalls {
    ScriptCalls::default()
}

//! The values of a document's `{{name}}` references (its `x-variables`, which the
//! readers fill from the file and the config's environments), with the references they
//! hold resolved in turn (`{{base_url}}` = `https://graph.facebook.com/{{version}}`).
//!
//! Resolution is lazy, done once per variable and kept, and without recursion: a chain
//! of 50,000 variables costs no stack. A reference back to a variable being resolved
//! (a cycle: `a = {{b}}`, `b = {{a}}`) stays as written. What substitution may produce
//! is bounded by [`Limits`]: a value that would take more than
//! `max_substituted_value_bytes` of variable text, or a file past
//! `max_substituted_file_bytes` in all, keeps its references as written and gets a
//! `limit-exceeded` problem at the place it was met, so that no input chooses how much
//! is allocated: a few lines that nest 40 references 5 deep cost what they are, not 40⁵
//! copies.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::loading::encoded::{Lookup, Substitution, references};
use crate::loading::{Entry, Limits, Node, Problem, ProblemKind, Span, Value, work};

/// What one file's substitutions may still spend, and the problems of the limits met.
pub struct Budget {
    limits: Limits,
    spent: Cell<usize>,
    exhausted: Cell<bool>,
    /// Bytes of substituted values decoded as JSON, and whether that was cut.
    decoded: Cell<usize>,
    decoding_cut: Cell<bool>,
    problems: RefCell<Vec<Problem>>,
}

impl Budget {
    pub fn new(limits: &Limits) -> Budget {
        Budget {
            limits: *limits,
            spent: Cell::new(0),
            exhausted: Cell::new(false),
            decoded: Cell::new(0),
            decoding_cut: Cell::new(false),
            problems: RefCell::new(Vec::new()),
        }
    }

    /// The limits it spends within.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The bytes of values that substitution made JSON (`targeting={{targeting}}`) one
    /// file may decode: sixteen values at their limit. Decoded nodes take many times the
    /// bytes of their text, and one definition may be used by every request.
    pub fn decoding_limit(&self) -> usize {
        self.limits.max_substituted_value_bytes.saturating_mul(16)
    }

    /// Spends `bytes` of the JSON one file may decode from substituted values; `false`,
    /// and one problem for the file, once spent: the value stays a string.
    pub fn spend_decoding(&self, bytes: usize, span: Span) -> bool {
        let decoded = self.decoded.get().saturating_add(bytes);
        if self.decoding_cut.get() || decoded > self.decoding_limit() {
            if !self.decoding_cut.replace(true) {
                self.report(
                    span,
                    format!(
                        "the JSON that variables make in this file's params comes to more than \
                         {} bytes, the limit for one file; from here on it is not decoded",
                        self.decoding_limit()
                    ),
                );
            }
            return false;
        }
        self.decoded.set(decoded);
        true
    }

    /// Spends `bytes` of the file's budget for a substitution at `span`; `false`, and
    /// one problem for the file, once it is spent.
    fn spend(&self, bytes: usize, span: Span) -> bool {
        let spent = self.spent.get().saturating_add(bytes);
        if self.exhausted.get() || spent > self.limits.max_substituted_file_bytes {
            if !self.exhausted.replace(true) {
                self.report(
                    span,
                    format!(
                        "the variables substituted in this file come to more than {} bytes, \
                         the limit for one file; from here on their references are left as written",
                        self.limits.max_substituted_file_bytes
                    ),
                );
            }
            return false;
        }
        self.spent.set(spent);
        true
    }

    fn report(&self, span: Span, message: String) {
        self.problems
            .borrow_mut()
            .push(Problem::new(ProblemKind::Limit, span, message));
    }

    /// The problems of the limits met.
    pub fn into_problems(self) -> Vec<Problem> {
        self.problems.into_inner()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    Unresolved,
    Resolving,
    Resolved,
}

/// A document's variables.
pub struct Variables<'a, 'b> {
    /// Each variable's entry, by name; the first of a name given twice, as a lookup of
    /// the mapping finds it.
    index: HashMap<&'a str, usize>,
    entries: &'a [Entry],
    state: RefCell<Vec<State>>,
    /// Each resolved variable's value; `None`: not known (empty, secret, or over a limit).
    values: RefCell<Vec<Option<Rc<str>>>>,
    /// Variables whose substitution into a value went over the limit for one value, and
    /// were reported once for it.
    too_large: RefCell<HashSet<usize>>,
    budget: &'b Budget,
}

impl<'a, 'b> Variables<'a, 'b> {
    /// The variables of a document's `x-variables` mapping (none without one).
    pub fn of(node: Option<&'a Node>, budget: &'b Budget) -> Variables<'a, 'b> {
        let entries = node.and_then(Node::as_map).unwrap_or_default();
        let mut index = HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            index.entry(e.key.as_str()).or_insert(i);
        }
        work::count(entries.len());
        Variables {
            index,
            entries,
            state: RefCell::new(vec![State::Unresolved; entries.len()]),
            values: RefCell::new(vec![None; entries.len()]),
            too_large: RefCell::new(HashSet::new()),
            budget,
        }
    }

    /// A variable's value as given; an empty one is a value to be filled in (Postman
    /// keeps the current value out of the collection), as unknown as a secret's.
    fn written(&self, i: usize) -> Option<&'a str> {
        let value = &self.entries[i].value;
        match &value.value {
            Value::Null | Value::Seq(_) | Value::Map(_) => None,
            Value::Bool(b) => Some(if *b { "true" } else { "false" }),
            Value::String(s) | Value::Number(s) | Value::EncodedJson { text: s, .. } => {
                Some(s.as_str()).filter(|t| !t.trim().is_empty())
            }
        }
    }

    /// The value of variable `i` with its references resolved, resolving the variables
    /// it needs first, deepest first, with a stack of its own rather than the call
    /// stack's.
    fn resolve(&self, i: usize) -> Option<Rc<str>> {
        if self.state.borrow()[i] == State::Resolved {
            return self.values.borrow()[i].clone();
        }
        if self.state.borrow()[i] == State::Resolving {
            return None;
        }
        // Each variable on the stack, and how far its references have been looked at.
        let mut stack = vec![(i, 0usize)];
        self.state.borrow_mut()[i] = State::Resolving;
        while let Some(&(v, from)) = stack.last() {
            let written = self.written(v).unwrap_or_default();
            let next = references(&written[from..])
                .map(|(range, name)| (from + range.end, self.index.get(name).copied()))
                .find(|&(_, j)| {
                    j.is_some_and(|j| {
                        self.state.borrow()[j] == State::Unresolved && self.written(j).is_some()
                    })
                });
            match next {
                Some((end, Some(j))) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 = end;
                    }
                    self.state.borrow_mut()[j] = State::Resolving;
                    stack.push((j, 0));
                }
                _ => {
                    stack.pop();
                    let value = self.expand(v);
                    self.values.borrow_mut()[v] = value;
                    self.state.borrow_mut()[v] = State::Resolved;
                }
            }
        }
        self.values.borrow()[i].clone()
    }

    /// Variable `v`'s written value with the references to resolved variables
    /// substituted (a reference to one being resolved, a cycle, stays as written);
    /// `None` over a limit.
    fn expand(&self, v: usize) -> Option<Rc<str>> {
        let written = self.written(v)?;
        let mut out = String::new();
        let mut at = 0;
        let mut substituted = 0usize;
        let span = self.entries[v].value.span;
        for (range, name) in references(written) {
            let Some(&j) = self.index.get(name) else {
                continue;
            };
            if self.state.borrow()[j] != State::Resolved {
                continue;
            }
            let Some(value) = self.values.borrow()[j].clone() else {
                continue;
            };
            substituted = substituted.saturating_add(value.len());
            if substituted > self.budget.limits.max_substituted_value_bytes {
                self.budget.report(
                    span,
                    format!(
                        "`{}` with its variables substituted is more than {} bytes, the limit \
                         for one value; its references are left as written",
                        self.entries[v].key, self.budget.limits.max_substituted_value_bytes
                    ),
                );
                return None;
            }
            if !self.budget.spend(value.len(), span) {
                return None;
            }
            out.push_str(&written[at..range.start]);
            out.push_str(&value);
            at = range.end;
        }
        out.push_str(&written[at..]);
        Some(Rc::from(out))
    }
}

impl Lookup for Variables<'_, '_> {
    fn substitution(&self, name: &str, reference: Span, substituted: usize) -> Substitution {
        work::count(1);
        let Some(value) = self
            .index
            .get(name)
            .and_then(|&i| Some((i, self.resolve(i)?)))
        else {
            return Substitution::Unknown;
        };
        let (i, value) = value;
        if substituted.saturating_add(value.len()) > self.budget.limits.max_substituted_value_bytes
        {
            // Once for the value (the rest of its references stay as they are), and
            // once for the variable, however many values use it.
            if self.too_large.borrow_mut().insert(i) {
                self.budget.report(
                    reference,
                    format!(
                        "substituting `{name}` here makes more than {} bytes of variables in one \
                         value, the limit; it and the references after it are left as written",
                        self.budget.limits.max_substituted_value_bytes
                    ),
                );
            }
            return Substitution::Stop;
        }
        if self.budget.spend(value.len(), reference) {
            Substitution::Value(value)
        } else {
            Substitution::Stop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::encoded::{SourceMap, substitute};
    use crate::loading::{Format, parse_text};

    fn variables_doc(text: &str) -> Node {
        let (mut docs, problems) = parse_text(text, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty(), "{problems:?}");
        docs.remove(0)
    }

    fn expanded(vars: &Variables<'_, '_>, value: &str) -> String {
        substitute(value, &SourceMap::Verbatim { base: 0 }, vars)
            .map_or_else(|| value.to_string(), |(out, _)| out)
    }

    #[test]
    fn references_resolve_in_turn_and_cycles_stay_as_written() {
        let doc = variables_doc(
            "x-variables:\n  base: https://graph.facebook.com/{{version}}\n  version: v25.0\n  a: '{{b}}!'\n  b: '{{a}}?'\n  self: 'x{{self}}'\n  empty: ''\n",
        );
        let budget = Budget::new(&Limits::DEFAULT);
        let vars = Variables::of(doc.get_value("x-variables"), &budget);
        assert_eq!(
            expanded(&vars, "{{base}}/me"),
            "https://graph.facebook.com/v25.0/me"
        );
        assert_eq!(expanded(&vars, "{{a}}"), "{{a}}?!");
        assert_eq!(expanded(&vars, "{{self}}"), "x{{self}}");
        assert_eq!(expanded(&vars, "{{empty}}/{{nope}}"), "{{empty}}/{{nope}}");
        assert!(budget.into_problems().is_empty());
    }

    /// Variables that nest `wide` references `deep` levels down: `v0` is 10 bytes, each
    /// next level `wide` references to the one below.
    fn nested(wide: usize, deep: usize) -> String {
        let mut text = String::from("x-variables:\n  v0: 'xxxxxxxxxx'\n");
        for level in 1..=deep {
            let refs = format!("{{{{v{}}}}}", level - 1).repeat(wide);
            text.push_str(&format!("  v{level}: '{refs}'\n"));
        }
        text
    }

    #[test]
    fn nesting_that_explodes_is_cut_at_the_limit_and_reported_at_its_definition() {
        let text = nested(40, 5);
        let doc = variables_doc(&text);
        let budget = Budget::new(&Limits::DEFAULT);
        let vars = Variables::of(doc.get_value("x-variables"), &budget);
        let ((), work) = work::measure(|| {
            // v5 would be 10 × 40⁵ bytes: v2 (16,000) fits, v3 (640,000) does not, and
            // the levels above keep their references to it as written.
            assert_eq!(
                expanded(&vars, "/{{v5}}"),
                format!("/{}", "{{v3}}".repeat(40 * 40))
            );
            assert_eq!(expanded(&vars, "/{{v2}}").len(), 16_001);
        });
        assert!(work < 100_000, "{work}");
        let problems = budget.into_problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].kind, ProblemKind::Limit);
        assert_eq!(
            &text[problems[0].span.range()],
            &format!("'{}'", "{{v2}}".repeat(40))
        );
    }

    #[test]
    fn a_large_value_used_often_spends_the_file_budget_once() {
        let big = "y".repeat(40 * 1024);
        let text = format!("x-variables:\n  big: {big}\n");
        let doc = variables_doc(&text);
        let budget = Budget::new(&Limits::DEFAULT);
        let vars = Variables::of(doc.get_value("x-variables"), &budget);
        // Two uses in one value pass the limit for one value: the second stays.
        assert_eq!(expanded(&vars, "{{big}}{{big}}").len(), big.len() + 7);
        let ((), work) = work::measure(|| {
            for _ in 0..4000 {
                let _ = expanded(&vars, "/{{big}}");
            }
        });
        // 16 MiB of substitution, 409 uses, then the references stay as written.
        assert!(work < 100_000, "{work}");
        let problems = budget.into_problems();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[1].message.contains("the limit for one file"));
    }

    #[test]
    fn a_chain_of_many_variables_resolves_without_recursion() {
        let n = 50_000;
        let mut text = String::from("x-variables:\n");
        for i in 0..n {
            text.push_str(&format!("  v{i}: '{{{{v{}}}}}'\n", i + 1));
        }
        text.push_str(&format!("  v{n}: end\n"));
        let doc = variables_doc(&text);
        let budget = Budget::new(&Limits::DEFAULT);
        let vars = Variables::of(doc.get_value("x-variables"), &budget);
        assert_eq!(expanded(&vars, "{{v0}}"), "end");
        assert!(budget.into_problems().is_empty());
    }
}

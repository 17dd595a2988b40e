use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Limits, ProblemKind};
use crate::model::file::FileContext;
use crate::rules::rule::{Group, Inspects, Rule};

crate::declare_rule! {
    pub struct LimitExceeded {
        name: "limit-exceeded",
        group: Group::FILES,
        severity: Severity::Error,
        summary: "file is too large, too deep or expands too many aliases to be read safely",
        what: "Reports a file over one of reqlint's reading limits: 10 MiB, 128 levels of \
               nesting, 1,000,000 values, aliases that expand to more than 100,000 values \
               (an alias bomb), or more than 10,000 YAML documents; and variables \
               (`{{name}}`) whose substitution would put more than 64 KiB into one value or \
               16 MiB into one file (references nested 40 wide and 5 deep). The file is read \
               up to the limit and no further; a reference over a limit is left as written.",
        why: "Anyone can commit a file; a linter that runs on every save and commit must \
              stay fast and small whatever it is given. No real request file comes near \
              these limits.",
        source: "reqlint's limits (docs/limits-and-secrets.md)",
        fixes: &[],
        inspects: Inspects::File,
        bad: example!("limit-exceeded/bad.req.yaml"),
        good: example!("limit-exceeded/good.req.yaml"),
    }
}

impl Rule for LimitExceeded {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for p in file.problems {
            if p.kind == ProblemKind::Limit {
                out.push(Diagnostic::new(&META, p.span, p.message.clone()).with_help(format!(
                    "split the file, or remove the anchors that expand into each other; limits: {} levels, {} aliased values",
                    Limits::DEFAULT.max_depth,
                    Limits::DEFAULT.max_alias_nodes
                )));
            }
        }
        // Variables met while reading the requests: the other requests are read as usual.
        for p in &file.model.problems {
            out.push(Diagnostic::new(&META, p.span, p.message.clone()).with_help(format!(
                "give the variable a shorter value, or reference it less; limits: {} bytes of variables in one value, {} in one file",
                Limits::DEFAULT.max_substituted_value_bytes,
                Limits::DEFAULT.max_substituted_file_bytes
            )));
        }
    }
}

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

crate::declare_rule! {
    pub struct AdUnknownEndpoint {
        name: "ad-unknown-endpoint",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "an advertising path or method that no call of the Marketing API matches",
        what: "Recognizes every call of Meta's Marketing API that the vendor's specs list \
               (993 node types, 1,469 calls): an ad account's edges (`/act_<id>/<edge>`), the \
               account itself (`/act_<id>`), an object's edges (`/<id>/<edge>`) and the object \
               itself (`GET|POST|DELETE /<id>`), after an optional version (`/v25.0`) and host \
               (`https://graph.facebook.com`); several objects at once (`GET /?ids=a,b`, \
               `GET /insights?ids=a,b`). The node type of an id comes from `object:`, the \
               context snapshots or the params. Where the catalog holds every call, under an \
               ad account or an ads node (a campaign, an ad set, an ad, a creative, a custom \
               audience or a pixel), reports an edge the node does not have (at the edge, \
               with the closest edge: `adsets` for `ad_sets`), a method the call does not \
               take (at the method), and a path of no shape the API has. Any other path of \
               the Graph API the catalog lacks (Pages, Instagram, WhatsApp, a user's reels) \
               is `ad-call-not-checked`'s info instead. An edge several node types have, \
               with nothing to tell which, is not reported.",
        why: "A typo in the path sends the call nowhere (the API answers an unknown path \
              error, or `Unsupported post request`), and reqlint cannot check what it does \
              not recognize.",
        source: "Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), the \"Edges\" and \"Endpoints\" of each node, as Meta's Business SDK codegen specs list them",
        fixes: &[FixMeta {
            applicability: Applicability::Unsafe,
            what: "a misspelt edge with one near spelling among the node's edges is renamed (`ad_sets` → `adsets`), under an ad account or an ads node only: the call then goes somewhere it did not",
        }],
        inspects: Inspects::File,
        bad: example!("ad-unknown-endpoint/bad.req.yaml"),
        good: example!("ad-unknown-endpoint/good.req.yaml"),
    }
}

impl Rule for AdUnknownEndpoint {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        for unknown in crate::apis::advertising::unknown_endpoints(file) {
            let line = unknown.line;
            let fix = unknown.fix.and_then(|edge| {
                let written = file.text.get(unknown.span.range())?;
                crate::model::edits::rename(
                    file.text,
                    unknown.span,
                    written,
                    edge,
                    // The call then goes somewhere: it does what it did not.
                    crate::diagnostic::Applicability::Unsafe,
                )
            });
            let fix = crate::model::edits::written_once_fix(file, fix);
            out.push(
                Diagnostic::new(
                    &META,
                    unknown.span,
                    format!(
                        "no call of the Marketing API matches `{} {}`",
                        line.method, line.path
                    ),
                )
                .with_help(unknown.reason.to_string())
                .with_fix_opt(fix),
            );
        }
    }
}

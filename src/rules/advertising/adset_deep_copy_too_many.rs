use crate::diagnostic::{Diagnostic, Severity};
use crate::example;
use crate::loading::{Node, Value};
use crate::model::file::FileContext;
use crate::model::file::Routed;
use crate::rules::rule::{Group, Inspects, Rule};

use crate::apis::advertising::Operation;
use crate::apis::advertising::adset_lookup::{ad_set, truthy};

crate::declare_rule! {
    pub struct AdSetDeepCopyTooMany {
        name: "adset-deep-copy-too-many",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Warning,
        summary: "a deep copy of an ad set with more child ads than a synchronous copy takes",
        what: "For an ad set copy with `deep_copy` true, reads the source ad set in the context \
               snapshots and reports `deep_copy` when the ad set has more than 3 ads. The ads \
               are the snapshot's `ads` field as the API returns the edge when a read asks \
               for `fields=ads.summary(true)`: `ads: {data: [...], summary: {total_count: N}}` \
               (the total count, else the number of items in `data`), or a plain list of ads. \
               An ad set the context does not hold, or whose snapshot has no `ads`, is not \
               judged.",
        why: "A synchronous copy copies at most 3 child ads; a deep copy of up to 51 needs an \
              asynchronous call, and more than 51 cannot be deep-copied at all.",
        source: "Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\": Copy an ad set (deep_copy) and \"Limits\"",
        fixes: &[],
        inspects: Inspects::Requests(&[Operation::AdSetCopy]),
        bad: example!("adset-deep-copy-too-many/bad.req.yaml"),
        good: example!("adset-deep-copy-too-many/good.req.yaml"),
    }
}

/// Children of a synchronous deep copy.
const SYNC_LIMIT: i64 = 3;
/// Children of an asynchronous deep copy.
const ASYNC_LIMIT: i64 = 51;

/// The number of ads of an ad set snapshot (at least that many, for a page of `data`).
pub fn ad_count(ad_set: &Node) -> Option<i64> {
    let ads = ad_set.get_value("ads")?;
    if let Some(total) = ads
        .get_value("summary")
        .and_then(|s| s.get_value("total_count"))
        .and_then(Node::as_i64)
    {
        return Some(total);
    }
    let list = match &ads.resolved().value {
        Value::Map(_) => ads.get_value("data")?,
        _ => ads,
    };
    list.as_seq().map(|items| items.len() as i64)
}

impl Rule for AdSetDeepCopyTooMany {
    fn check_request(&self, file: &FileContext<'_>, routed: Routed, out: &mut Vec<Diagnostic>) {
        let c = &crate::apis::advertising::call(file, routed);
        let (request, call) = (c.request, &c.call);
        let Some(deep) = request.param("deep_copy") else {
            return;
        };
        if truthy(&deep.value) != Some(true) {
            return;
        }
        let Some(source) = call.object else { return };
        let Some(n) = ad_set(file.context, &source.text).and_then(ad_count) else {
            return;
        };
        if n <= SYNC_LIMIT {
            return;
        }
        let help = if n <= ASYNC_LIMIT {
            format!(
                "make the copy an asynchronous call (up to {ASYNC_LIMIT} children), or copy \
                 without `deep_copy` and copy the ads in smaller groups"
            )
        } else {
            format!(
                "even an asynchronous deep copy takes at most {ASYNC_LIMIT} children: copy \
                 without `deep_copy` and copy the ads separately"
            )
        };
        out.push(
            Diagnostic::new(
                &META,
                deep.value.span,
                format!(
                    "ad set {} has {n} ads; a synchronous deep copy copies at most {SYNC_LIMIT}",
                    source.text
                ),
            )
            .with_label(source.span, format!("{n} ads"))
            .with_help(help),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::{Format, Limits, parse_text};

    fn count(yaml: &str) -> Option<i64> {
        let (docs, problems) = parse_text(yaml, Format::Yaml, &Limits::DEFAULT);
        assert!(problems.is_empty());
        ad_count(&docs[0])
    }

    #[test]
    fn counts_from_summary_data_or_list() {
        assert_eq!(
            count("ads: {data: [{id: '1'}], summary: {total_count: 12}}"),
            Some(12)
        );
        assert_eq!(count("ads: {data: [{id: '1'}, {id: '2'}]}"), Some(2));
        assert_eq!(count("ads: [{id: '1'}, {id: '2'}, {id: '3'}]"), Some(3));
        assert_eq!(count("ads: {paging: {}}"), None);
        assert_eq!(count("name: x"), None);
    }
}

#[cfg(test)]
mod rule_tests {
    use crate::testing::lint;

    const CONTEXT: &str = "ad_sets:\n  - {id: '901', ads: {data: [], summary: {total_count: 60}}}\n  - {id: '902', ads: [{id: '1'}, {id: '2'}, {id: '3'}]}\n  - {id: '903', ads: {data: [{id: '1'}, {id: '2'}, {id: '3'}, {id: '4'}]}}\n  - {id: '904'}\n";

    #[test]
    fn over_three_children() {
        let yaml = "requests:\n  - request: POST /v24.0/901/copies\n    params: {deep_copy: 'true'}\n  - request: POST /v24.0/902/copies\n    params: {deep_copy: true}\n  - request: POST /v24.0/903/copies\n    params: {deep_copy: true}\n  - request: POST /v24.0/903/copies\n    params: {deep_copy: false}\n  - request: POST /v24.0/904/copies\n    params: {deep_copy: true}\n  - request: POST /v24.0/905/copies\n    params: {deep_copy: true}\n";
        let found = lint("adset-deep-copy-too-many", CONTEXT, yaml);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].0.contains("has 60 ads"));
        assert_eq!(found[0].1, "'true'");
        assert!(found[1].0.contains("has 4 ads"));
    }
}

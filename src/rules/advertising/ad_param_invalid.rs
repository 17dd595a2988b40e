use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::example;
use crate::model::file::FileContext;
use crate::rules::rule::{FixMeta, Group, Inspects, Rule};

use crate::apis::advertising::params::{DEFAULT_RULE, IssueKind};

crate::declare_rule! {
    pub struct AdParamInvalid {
        name: "ad-param-invalid",
        group: Group::of(crate::apis::advertising::ID),
        severity: Severity::Error,
        summary: "an advertising param has the wrong type, a value outside its enum or range, or is too long",
        what: "Walks the params of every advertising call against the call's params in the \
               vendor's specs: strings, integers and unsigned integers (a number or a string of \
               digits: the API takes form fields), numbers, booleans, date-times (ISO 8601 or \
               a UNIX timestamp), lists and their items, maps, objects of a node type (a \
               mapping or a JSON-encoded string, checked inside key by key against the node type's \
               fields, as deep as they go: `targeting.age_min`, \
               `promoted_object.custom_event_type`, \
               `object_story_spec.link_data.call_to_action.type`) and enums (with the closest \
               value). A money param written with a decimal point (`daily_budget: \"100.00\"`) \
               is told that amounts are integers in the minor unit of the account's currency, \
               and given the integer where that currency is known. For \
               custom audiences and ad sets it also walks the reference's tables (kept as data \
               in catalog/advertising/params.yaml): numeric IDs, ranges, lengths counted in \
               characters and refused values; where the two disagree on a type or an enum, a \
               value either accepts is accepted. A value that stands for another (`${ID}`, \
               `{{id}}`, `<id>`) is not judged. Params with a rule of their own \
               (retention_days, subtype, ...) are reported by that rule instead.",
        why: "The API refuses the whole call with error 100 (invalid parameter).",
        source: "Meta's Marketing API reference (https://developers.facebook.com/docs/marketing-api/reference/), the parameters of each endpoint and the fields of each node type, as Meta's Business SDK codegen specs list them; Meta's Marketing API reference, Currencies (https://developers.facebook.com/docs/marketing-api/currencies/), each currency's offset; Meta's Marketing API reference for custom audiences (https://developers.facebook.com/docs/marketing-api/reference/custom-audience/), \"Endpoints\" (read, create, update); Meta's Marketing API reference for ad sets (https://developers.facebook.com/docs/marketing-api/reference/ad-campaign/), \"Endpoints\" (read, create, copy)",
        fixes: &[
            FixMeta {
                applicability: Applicability::Safe,
                what: "an enum value with one close candidate is replaced (`IMPRESSION` → `IMPRESSIONS`), also inside an object, a JSON-encoded string or a comma-separated list",
            },
            FixMeta {
                applicability: Applicability::Safe,
                what: "a money amount with a decimal point becomes the integer in the currency's minor unit where the account's currency is known (`100.00` → `10000` in USD), from the context's ad account or `advertising.currency`",
            },
        ],
        inspects: Inspects::File,
        bad: example!("ad-param-invalid/bad.req.yaml"),
        good: example!("ad-param-invalid/good.req.yaml"),
    }
}

impl Rule for AdParamInvalid {
    fn check(&self, file: &FileContext<'_>, out: &mut Vec<Diagnostic>) {
        crate::apis::advertising::report_param_issues(
            file,
            &META,
            |k| matches!(k, IssueKind::Invalid { rule } if *rule == DEFAULT_RULE),
            Some(100),
            out,
        );
    }
}

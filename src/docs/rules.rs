//! The rules' documentation pages (`docs/rules/`), generated from the same metadata as
//! `reqlint rules` and `reqlint explain`; `tests/it/docs.rs` fails when the committed pages
//! are stale (`UPDATE_DOCS=1 cargo test --test it docs::` writes them).

use crate::rules::{REGISTRY, RuleMeta};

/// `docs/rules/<rule>.md`. `bad_output` is the concise output of the bad example (the docs test
/// lints it), shown as what the rule reports.
pub fn rule_page(m: &RuleMeta, bad_output: &str) -> String {
    let lang = |path: &str| {
        if path.ends_with(".json") {
            "json"
        } else {
            "yaml"
        }
    };
    let mut page = format!(
        "# {name}\n\n\
         <!-- Generated from the rule's metadata (src/rules/); edit it there and run `UPDATE_DOCS=1 cargo test --test it docs::`. -->\n\n\
         {summary}.\n\n\
         | | |\n|---|---|\n| Group | {group} |\n| Default severity | {severity} |\n| Fix | {fix_kinds} |\n| Inspects | {inspects} |\n\n\
         ## What it checks\n\n{what}\n\n\
         ## Why\n\n{why}\n\n\
         ## Fix\n\n{fix}\n\n\
         ## Example\n\n\
         Reported (`{bad_path}`):\n\n```{bad_lang}\n{bad}\n```\n\n",
        name = m.name,
        summary = capitalized(m.summary),
        group = m.group.as_str(),
        severity = m.severity,
        inspects = m.inspects.describe(),
        fix_kinds = match m.fix_kinds().as_str() {
            "" => "none".to_string(),
            kinds => kinds.to_string(),
        },
        fix = m.fix_lines().map_or_else(
            || "None: what it reports is for the author to decide.".to_string(),
            |lines| {
                let list: Vec<String> = lines.iter().map(|l| format!("- {l}")).collect();
                format!(
                    "{}\n\nSee [fixes](../usage.md#fixes) for how fixes are applied.",
                    list.join("\n")
                )
            }
        ),
        what = m.what.split_whitespace().collect::<Vec<_>>().join(" "),
        why = m.why.split_whitespace().collect::<Vec<_>>().join(" "),
        bad_path = m.bad.path,
        bad_lang = lang(m.bad.path),
        bad = m.bad.text.trim_end(),
    );
    if !bad_output.is_empty() {
        page.push_str(&format!(
            "`reqlint check --format concise` says:\n\n```text\n{}\n```\n\n",
            bad_output.trim_end()
        ));
    }
    page.push_str(&format!(
        "Passes (`{good_path}`):\n\n```{good_lang}\n{good}\n```\n\n\
         More cases, each with its expected output: [`fixtures/{name}/`](../../fixtures/{name}/).\n\n\
         ## Source\n\n{source}\n\n\
         ## Configuration\n\n\
         Change its severity or turn it off in `.reqlint.yaml`:\n\n\
         ```yaml\nrules:\n  {name}: warning   # or error, info, off\n```\n\n\
         turn it off for some files with `per-file-ignores`, or silence one line with \
         `# reqlint: ignore[{name}]`; see [configuration](../configuration.md) and \
         [suppressing diagnostics](../usage.md#suppressing-diagnostics).\n",
        good_path = m.good.path,
        good_lang = lang(m.good.path),
        good = m.good.text.trim_end(),
        name = m.name,
        source = m.source.split_whitespace().collect::<Vec<_>>().join(" "),
    ));
    page
}

/// `docs/rules/README.md`: every rule, in the order `reqlint rules` lists them.
pub fn index_page() -> String {
    let mut page = String::from(
        "# Rules\n\n\
         <!-- Generated from the rules' metadata (src/rules/); run `UPDATE_DOCS=1 cargo test --test it docs::`. -->\n\n\
         Every rule reqlint has, in the order `reqlint rules` lists them. `reqlint explain RULE` \
         prints a rule's page in the terminal.\n\n\
         `Fix`: `safe` where `--fix` fixes some of its findings, `unsafe` where \
         `--unsafe-fixes` does ([fixes](../usage.md#fixes)).\n\n\
         | Rule | Group | Severity | Fix | Summary |\n|---|---|---|---|---|\n",
    );
    for rule in REGISTRY {
        let m = rule.meta();
        page.push_str(&format!(
            "| [{name}]({name}.md) | {group} | {severity} | {fix} | {summary} |\n",
            name = m.name,
            group = m.group.as_str(),
            severity = m.severity,
            fix = m.fix_kinds(),
            summary = m.summary.replace('|', "\\|"),
        ));
    }
    page.push_str(
        "\n## Fixes\n\n\
         What `--fix` (safe fixes) and `--unsafe-fixes` (unsafe ones too) do, rule by rule. \
         A finding carries a fix only where there is one right answer; \
         [fixes](../usage.md#fixes) says how they are applied.\n\n\
         | Rule | Fix | What it does |\n|---|---|---|\n",
    );
    for rule in REGISTRY {
        let m = rule.meta();
        for f in m.fixes {
            page.push_str(&format!(
                "| [{name}]({name}.md) | {kind} | {what} |\n",
                name = m.name,
                kind = match f.applicability {
                    crate::diagnostic::Applicability::Safe => "safe",
                    crate::diagnostic::Applicability::Unsafe => "unsafe",
                },
                what = f.what.replace('|', "\\|"),
            ));
        }
    }
    page
}

/// `an ad set` → `An ad set`.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Where a rule's documentation is published (the page this module writes).
pub fn rule_docs_url(rule: &str) -> String {
    format!("https://github.com/reqlint/reqlint/blob/main/docs/rules/{rule}.md")
}

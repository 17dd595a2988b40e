//! What the editor shows on hover: at a diagnostic, its rule's summary and docs; at a
//! param of an advertising call, its type, whether the call requires it, its values and
//! where they come from; at a param or body property of a code-hosting request, its row
//! of the host's REST description (type, values, required); at a request line, the call
//! (advertising) or the permission and level the endpoint needs (code-hosting). Markdown; read from the catalogs, never
//! printed by a rule.

use std::path::Path;

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use super::positions::Positions;
use super::server::{Linted, Server};
use crate::apis::advertising::endpoint::{Recognized, recognize};
use crate::catalog::codehost::CATALOG;
use crate::catalog::graph::{GType, GraphCall, enum_name, enum_values};
use crate::engine::{FileResult, Settings};
use crate::loading::Span;
use crate::model::{FileModel, Request};

impl Server {
    /// `textDocument/hover`: markdown, or null where there is nothing to say.
    pub(super) fn hover(&mut self, params: HoverParams) -> Option<Hover> {
        let at = params.text_document_position_params;
        let text = self.text_of(&at.text_document.uri)?;
        let linted = self.lint_document(&at.text_document.uri, &text)?;
        let Linted {
            result,
            settings,
            rel,
            ..
        } = &*linted;
        let document = Positions::new(text, self.utf8);
        let text = document.text();
        let offset = document.offset(at.position);
        let markdown = hover(text, &rel.to_string_lossy(), settings, result, offset)?;
        let redactor = crate::engine::file_redactor(&result.path, rel, text, settings);
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: redactor.lines(&markdown),
            }),
            range: None,
        })
    }
}

fn within(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end && !span.is_empty()
}

/// The hover text at `offset` of a document, if there is something to say.
pub fn hover(
    text: &str,
    display: &str,
    settings: &Settings,
    result: &FileResult,
    offset: usize,
) -> Option<String> {
    if let Some(d) = result.diagnostics.iter().find(|d| within(d.span, offset)) {
        let meta = crate::rules::find(d.rule)?.meta();
        return Some(format!(
            "**{}** ({}): {}.\n\n{}\n\n[Documentation]({})",
            meta.name,
            d.severity,
            crate::docs::rules::capitalized(meta.summary),
            d.message,
            crate::docs::rules::rule_docs_url(meta.name)
        ));
    }
    let loaded = crate::engine::load_file(
        display,
        Path::new(display),
        text.as_bytes().to_vec(),
        settings,
    );
    let model = FileModel::build(&loaded.documents, &loaded.text);
    if let Some(info) = workflow_step_hover(&model, offset) {
        return Some(info);
    }
    for request in &model.requests {
        if let Some(info) = request_hover(request, settings, &loaded.text, offset) {
            return Some(info);
        }
    }
    None
}

fn request_hover(
    request: &Request<'_>,
    settings: &Settings,
    text: &str,
    offset: usize,
) -> Option<String> {
    let line = request.line()?;
    let on_line = within(request.line_span, offset) || within(line.path_span, offset);
    let on_param = request
        .params()
        .find(|e| within(e.key_span, offset) || within(e.value.span, offset));
    if !on_line && on_param.is_none() {
        return None;
    }
    let api = crate::apis::route(crate::apis::APIS, line, &settings.config);
    match api {
        Some(crate::apis::advertising::ID) => {
            let Some(Recognized::Call(target, _)) = recognize(request, &settings.context, true)
            else {
                return None;
            };
            let call = target.graph.get();
            match on_param {
                Some(entry) if entry.key == "fields" && within(entry.value.span, offset) => {
                    field_hover(call, entry, text, offset)
                }
                Some(entry) => Some(param_hover(call, &entry.key)),
                None => Some(call_hover(call)),
            }
        }
        Some(crate::apis::codehost::ID) if on_line && request.job().is_some() => {
            job_call_hover(request, &settings.config)
        }
        Some(crate::apis::codehost::ID) if on_param.is_some() => {
            crate::apis::codehost::operation_params::hover_at(request, offset, &settings.config)
        }
        Some(crate::apis::codehost::ID) if on_line => {
            let version = request.api_version.map_or(
                crate::apis::codehost::settings::settings(&settings.config).api_version,
                |(v, _)| v,
            );
            let edition = crate::apis::codehost::edition(line, &settings.config);
            let version = version.in_edition(edition.as_str());
            let rows: Vec<_> = crate::apis::codehost::endpoint_rows(line, version, edition)
                .into_iter()
                .filter(|row| row.method == line.method)
                .collect();
            let Some(first) = rows.first() else {
                return codehost_access_hover(line, version, edition);
            };
            let needs: Vec<String> = rows
                .iter()
                .map(|r| {
                    let p = CATALOG.permission(r.permission);
                    format!("the {} permission `{}` at {}", p.scope, p.title, r.access)
                })
                .collect();
            Some(format!(
                "`{} {}`\n\nA fine-grained token needs {} (API version {}).{}",
                line.method,
                first.template,
                if needs.len() == 1 {
                    needs[0].clone()
                } else {
                    format!("one of {}", needs.join(", "))
                },
                version.as_str(),
                first
                    .docs_url()
                    .map(|u| format!("\n\n[Documentation]({u})"))
                    .unwrap_or_default()
            ))
        }
        _ => None,
    }
}

/// A workflow call made with its job's `GITHUB_TOKEN`: the operation and what the token needs.
fn job_call_hover(request: &Request<'_>, config: &crate::model::config::Config) -> Option<String> {
    use crate::apis::codehost::workflow_token::{CallNeeds, call_needs};
    let (job, _) = request.job()?;
    let text = match call_needs(request, true, config) {
        CallNeeds::Needs(needs) => {
            let what = needs.first().map(|n| n.what.clone())?;
            let levels: Vec<String> = needs.iter().map(|n| n.describe()).collect();
            format!(
                "{what}\n\nRuns with job `{job}`'s GITHUB_TOKEN, which needs {}.\n\n[Documentation]({})",
                if levels.is_empty() {
                    "no permission".to_string()
                } else {
                    levels.join(" and ")
                },
                needs[0].source
            )
        }
        CallNeeds::Never(_, what, why) => {
            format!("{what}\n\nJob `{job}`'s GITHUB_TOKEN can never call it: {why}.")
        }
        CallNeeds::Unknown => format!(
            "Runs with job `{job}`'s GITHUB_TOKEN; reqlint does not know what this call needs."
        ),
    };
    Some(text)
}

/// A workflow step a table judges (an action, `gh pr create`, `git push`): what it needs.
fn workflow_step_hover(model: &FileModel<'_>, offset: usize) -> Option<String> {
    let workflow = model.workflow.as_ref()?;
    let (job, step) = workflow
        .jobs
        .iter()
        .flat_map(|job| job.steps.iter().map(move |step| (job, step)))
        .find(|(_, step)| within(step.span(), offset))?;
    let needs = crate::apis::codehost::workflow_token::step_needs(step);
    Some(match needs {
        Some(needs) if needs.is_empty() => format!(
            "`{}` in job `{}`: needs no permission of its own.",
            step.describe(),
            job.id
        ),
        Some(needs) => {
            let levels: Vec<String> = needs.iter().map(|n| n.describe()).collect();
            format!(
                "`{}` in job `{}` needs {} of the job's GITHUB_TOKEN.\n\n[Source]({})",
                step.describe(),
                job.id,
                levels.join(" and "),
                needs[0].source
            )
        }
        None => format!(
            "`{}` in job `{}`: reqlint's tables do not say what it needs.",
            step.describe(),
            job.id
        ),
    })
}

/// A code-hosting operation that no permission row lists: what the host's access data
/// says of it, where reqlint has it.
fn codehost_access_hover(
    line: &crate::model::RequestLine,
    version: crate::catalog::codehost::ApiVersion,
    edition: crate::catalog::codehost_operations::Edition,
) -> Option<String> {
    let (operation, access) = crate::apis::codehost::operation_access(line, version, edition)?;
    let operation = crate::catalog::codehost_operations::get(operation);
    let needs = if !access.fine_grained {
        "Fine-grained personal access tokens cannot call it"
    } else if access.permissionless {
        "A fine-grained token calls it with no permission"
    } else {
        return None;
    };
    Some(format!(
        "`{} {}`\n\n{needs} (API version {}).{}",
        operation.method,
        operation.template(),
        version.as_str(),
        operation
            .docs_url(edition)
            .map(|u| format!("\n\n[Documentation]({u})"))
            .unwrap_or_default()
    ))
}

/// A name of a read's `fields`: its type on the node the call returns (following the
/// expansions it sits in).
fn field_hover(
    call: &GraphCall,
    entry: &crate::loading::Entry,
    text: &str,
    offset: usize,
) -> Option<String> {
    use crate::apis::advertising::field_list::{self, FieldItem};
    let value = entry.value.as_str()?;
    let map = crate::loading::encoded::SourceMap::for_scalar(text, entry.value.span, value);
    let mut node = if call.edge.is_empty() {
        call.node
    } else {
        call.returns.node()?
    };
    let mut items: Vec<FieldItem> = field_list::parse(value);
    loop {
        // The item whose name, or whose expansion, holds the offset.
        fn region_end(item: &FieldItem) -> usize {
            item.children
                .iter()
                .flatten()
                .map(region_end)
                .max()
                .unwrap_or(item.end)
                .max(item.end)
        }
        let item = items.into_iter().find(|i| {
            let span = map.span(i.start..region_end(i));
            span.start <= offset && offset <= span.end
        })?;
        let name = &value[item.start..item.end];
        let ty = node.field(name).or_else(|| node.edge_returns(name));
        if within(map.span(item.start..item.end), offset) {
            let ty = ty?;
            return Some(format!(
                "`{name}`: {} — a field or edge of {}\n\nMeta's Marketing API reference, Graph API {}",
                ty.describe(),
                node.info().spec,
                crate::catalog::graph::GRAPH_VERSION
            ));
        }
        node = ty?.node()?;
        items = item.children?;
    }
}

fn call_hover(call: &GraphCall) -> String {
    let required: Vec<&str> = call
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name.as_str())
        .collect();
    format!(
        "`{}` ({} params{}), returns {}\n\nMeta's Marketing API reference, Graph API {}",
        call.describe(),
        call.params.len(),
        if required.is_empty() {
            String::new()
        } else {
            format!("; requires `{}`", required.join("`, `"))
        },
        call.returns.describe(),
        crate::catalog::graph::GRAPH_VERSION
    )
}

fn param_hover(call: &GraphCall, name: &str) -> String {
    let Some(p) = call.param(name) else {
        return format!(
            "`{name}`: not a param of `{}` in the catalog",
            call.describe()
        );
    };
    let mut text = format!(
        "`{name}`: {}{} — `{}`",
        p.ty.describe(),
        if p.required { ", required" } else { "" },
        call.describe()
    );
    if let GType::Enum(e) = p.ty.item() {
        let values = enum_values(e);
        let shown: Vec<&str> = values.iter().take(30).copied().collect();
        text.push_str(&format!(
            "\n\nValues ({}): `{}`{}",
            enum_name(e),
            shown.join("`, `"),
            if values.len() > shown.len() {
                format!(" and {} more", values.len() - shown.len())
            } else {
                String::new()
            }
        ));
    }
    text.push_str(&format!(
        "\n\nMeta's Marketing API reference, Graph API {}",
        crate::catalog::graph::GRAPH_VERSION
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loading::Limits;
    use crate::model::config::Config;
    use crate::model::context::ContextIndex;

    fn at(text: &str, marker: &str) -> Option<String> {
        let settings = Settings {
            config: Config::defaults(".".into()),
            context: ContextIndex::default(),
            limits: Limits::DEFAULT,
        };
        let result = crate::engine::lint_bytes(
            "a.req.yaml",
            Path::new("a.req.yaml"),
            text.as_bytes().to_vec(),
            &settings,
        );
        let offset = text.find(marker).unwrap() + 1;
        hover(text, "a.req.yaml", &settings, &result, offset)
    }

    #[test]
    fn fields_and_their_expansions() {
        let text =
            "request: GET /v25.0/act_1/campaigns?fields=name,adsets{daily_budget,targeting}\n";
        let h = at(text, "name").unwrap();
        assert!(h.contains("`name`") && h.contains("Campaign"), "{h}");
        let h = at(text, "daily_budget").unwrap();
        assert!(h.contains("`daily_budget`") && h.contains("AdSet"), "{h}");
        let h = at(text, "targeting").unwrap();
        assert!(h.contains("Targeting"), "{h}");
    }

    /// A code-hosting request line: the permission its method needs (not the other
    /// methods' of the same path), or the host's word on operations without a row.
    #[test]
    fn code_hosting_request_lines() {
        let h = at("request: GET /repos/acme/web/contents/src/lib.rs\n", "GET").unwrap();
        assert!(h.contains("`Contents` at read"), "{h}");
        assert!(!h.contains("write"), "{h}");
        let h = at("request: GET /rate_limit\n", "GET").unwrap();
        assert!(h.contains("with no permission"), "{h}");
        let h = at(
            "request: GET /orgs/acme/personal-access-token-requests\n",
            "GET",
        )
        .unwrap();
        assert!(h.contains("cannot call it"), "{h}");
    }

    #[test]
    fn code_hosting_params_and_body_properties() {
        let text = "request: GET https://api.github.com/repos/acme/web/issues?state=closed\n";
        let h = at(text, "state").unwrap();
        assert!(
            h.starts_with("`state`: query param, a string, one of `open`, `closed`, `all` (default `open`); optional — `GET /repos/{owner}/{repo}/issues`"),
            "{h}"
        );
        assert!(h.contains("https://docs.github.com/rest/issues/issues#list-repository-issues"));
        let text = "request: POST /repos/acme/web/issues\nparams:\n  title: Flaky\n  labels: [{name: bug}]\n";
        let h = at(text, "title").unwrap();
        assert!(
            h.starts_with("`title`: body property, a string or an integer; required"),
            "{h}"
        );
        let h = at(text, "name").unwrap();
        assert!(
            h.starts_with("`labels[].name`: body property, a string"),
            "{h}"
        );
    }
}

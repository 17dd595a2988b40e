//! What the editor shows on hover: at a diagnostic, its rule's summary and docs; at a
//! param of an advertising call, its type, whether the call requires it, its values and
//! where they come from; at a request line, the call (advertising) or the permission and
//! level the endpoint needs (code-hosting). Markdown; read from the catalogs, never
//! printed by a rule.

use std::path::Path;

use crate::catalog::codehost::CATALOG;
use crate::catalog::graph::{GType, GraphCall, enum_name, enum_values};
use crate::engine::{FileResult, Settings};
use crate::loading::{self, Format, Span};
use crate::model::{Api, FileModel, Request, decode_encoded_params};
use crate::rules::advertising::endpoint::{Recognized, recognize};

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
            crate::rule_docs::capitalized(meta.summary),
            d.message,
            crate::rule_docs::rule_docs_url(meta.name)
        ));
    }
    let format = Format::from_path(display);
    let options = crate::engine::read_options(&settings.config, &[Path::new(display)]);
    let mut loaded =
        loading::load_with(text.as_bytes().to_vec(), format, &settings.limits, &options);
    decode_encoded_params(&mut loaded.documents, &loaded.text, &settings.limits);
    let model = FileModel::build(&loaded.documents, &loaded.text);
    for request in &model.requests {
        if let Some(info) = request_hover(request, settings, offset) {
            return Some(info);
        }
    }
    None
}

fn request_hover(request: &Request<'_>, settings: &Settings, offset: usize) -> Option<String> {
    let line = request.line()?;
    let on_line = within(request.line_span, offset) || within(line.path_span, offset);
    let on_param = request
        .params()
        .find(|e| within(e.key_span, offset) || within(e.value.span, offset));
    if !on_line && on_param.is_none() {
        return None;
    }
    match line.api {
        Api::Advertising => {
            let Some(Recognized::Call(target, _)) = recognize(request, &settings.context, true)
            else {
                return None;
            };
            let call = target.graph.get();
            match on_param {
                Some(entry) => Some(param_hover(call, &entry.key)),
                None => Some(call_hover(call)),
            }
        }
        Api::CodeHosting if on_line => {
            let version = request
                .api_version
                .map_or(settings.config.api_version, |(v, _)| v);
            let rows = crate::rules::codehost::endpoint_rows(line, version);
            let first = rows.first()?;
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
        Api::CodeHosting => None,
    }
}

fn call_hover(call: &GraphCall) -> String {
    let required: Vec<&str> = call
        .params
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name)
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

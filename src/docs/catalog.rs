//! The catalog reference of the Marketing API (`docs/marketing-api-catalog.md` and
//! `docs/marketing-api-enums.md`), generated from the compiled graph: every call with its
//! params, every node with its fields, every enum the params take. `tests/it/docs.rs`
//! fails when the committed pages are stale.

use std::fmt::Write;

use crate::catalog::graph::{GNode, GRAPH_ENUMS, GRAPH_VERSION, GType, enum_name};

/// A type as the pages write it: `list of string`, an enum as a link to its values.
fn short(ty: GType) -> String {
    match ty {
        GType::String => "string".into(),
        GType::Int => "int".into(),
        GType::UInt => "unsigned int".into(),
        GType::Float => "float".into(),
        GType::Bool => "bool".into(),
        GType::Datetime => "datetime".into(),
        GType::File => "file".into(),
        GType::Object => "object".into(),
        GType::Map => "map".into(),
        GType::List(inner) => format!("list of {}", short(*inner)),
        GType::Enum(e) => format!(
            "[{}](marketing-api-enums.md#{})",
            enum_name(e),
            enum_name(e)
        ),
        GType::Node(n) => n.info().spec.to_string(),
    }
}

/// `docs/marketing-api-catalog.md`.
pub fn catalog_page() -> String {
    let mut out = String::new();
    let calls: usize = GNode::all().map(|n| n.calls().count()).sum();
    let _ = writeln!(
        out,
        "# The Marketing API catalog\n\n\
         Every call and node of Meta's Marketing API that reqlint knows (Graph API {GRAPH_VERSION}), \
         generated from `catalog/advertising/graph/` (Meta's Business SDK codegen specs; see \
         [catalog/advertising/README.md](../catalog/advertising/README.md)). Do not edit: \
         `UPDATE_DOCS=1 cargo test --test it docs::` writes it. [Back to the advertising API](advertising.md).\n\n\
         {calls} calls on {} node types. A param in **bold** is required (`ad-param-missing`); \
         the `object:` value of a node is its name in snake_case. Enums link to their values in \
         [the enum list](marketing-api-enums.md).\n",
        GNode::all().count()
    );
    let _ = writeln!(
        out,
        "## Calls\n\n| call | returns | params |\n|---|---|---|"
    );
    for node in GNode::all() {
        for c in node.calls() {
            let call = c.get();
            let params: Vec<String> = call
                .params
                .iter()
                .map(|p| {
                    let name = if p.required {
                        format!("**{}**", p.name)
                    } else {
                        format!("`{}`", p.name)
                    };
                    format!("{name}: {}", short(p.ty))
                })
                .collect();
            let _ = writeln!(
                out,
                "| `{}` | {} | {} |",
                call.describe(),
                short(call.returns),
                if params.is_empty() {
                    "none".into()
                } else {
                    params.join(", ")
                }
            );
        }
    }
    let _ = writeln!(
        out,
        "\n## Nodes and their fields\n\nWhat a read's `fields` may name (`ad-field-unknown`), besides the node's edges.\n\n| `object:` | node | fields |\n|---|---|---|"
    );
    for node in GNode::all() {
        let info = node.info();
        let fields: Vec<&str> = info.fields.iter().map(|(f, _)| f.as_str()).collect();
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            info.name,
            info.spec,
            if fields.is_empty() {
                "none".into()
            } else {
                fields.join(", ")
            }
        );
    }
    out
}

/// `docs/marketing-api-enums.md`.
pub fn enums_page() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The Marketing API's enums\n\n\
         The values of every enum that a param of the [catalog](marketing-api-catalog.md) takes \
         (Graph API {GRAPH_VERSION}), as Meta's Business SDK codegen specs list them. Do not \
         edit: `UPDATE_DOCS=1 cargo test --test it docs::` writes it. A value outside its enum is \
         `ad-param-invalid`.\n"
    );
    for (name, values) in GRAPH_ENUMS {
        let _ = writeln!(
            out,
            "<a id=\"{name}\"></a>\n**{name}**: {}\n",
            values
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

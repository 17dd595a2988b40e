//! The fields an edge adds to the nodes it returns (`catalog/advertising/edge_fields.tsv`,
//! from the edges' reference pages): `/act_<id>/assigned_users` returns users with their
//! `tasks` on the account, which no user has elsewhere. Compiled by build/edge_fields.rs
//! into one text blob and rows of ranges in it; the lookups are binary searches.

mod generated {
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/edge_fields.rs"));
}

pub use generated::EDGE_FIELDS;

/// A string of the table: a byte range of the text blob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text(u32, u32);

impl Text {
    pub fn get(self) -> &'static str {
        &generated::EDGE_FIELD_TEXT[self.0 as usize..self.1 as usize]
    }
}

/// One field an edge adds: the node type that has the edge (its snake_case name), the
/// edge, the field, its type (in the grammar of `catalog/advertising/graph/`), and the
/// reference page that lists it.
#[derive(Debug)]
pub struct EdgeField {
    pub node: Text,
    pub edge: Text,
    pub field: Text,
    pub ty: Text,
    pub source: Text,
}

/// The fields the edge `edge` of the node type `node` adds to the nodes it returns.
pub fn added_fields(node: &str, edge: &str) -> &'static [EdgeField] {
    let key = |e: &EdgeField| (e.node.get(), e.edge.get());
    let start = EDGE_FIELDS.partition_point(|e| key(e) < (node, edge));
    let end = EDGE_FIELDS.partition_point(|e| key(e) <= (node, edge));
    &EDGE_FIELDS[start..end]
}

/// The added field `field` of the edge, if it adds one.
pub fn added_field(node: &str, edge: &str, field: &str) -> Option<&'static EdgeField> {
    added_fields(node, edge)
        .iter()
        .find(|e| e.field.get() == field)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of Meta's reference pages, as the table holds them.
    #[test]
    fn the_reference_pages_rows() {
        let names = |node, edge| -> Vec<&str> {
            added_fields(node, edge)
                .iter()
                .map(|e| e.field.get())
                .collect()
        };
        assert_eq!(
            names("ad_account", "assigned_users"),
            ["permitted_tasks", "tasks"]
        );
        assert_eq!(
            names("ad_account", "agencies"),
            [
                "access_requested_time",
                "access_status",
                "access_updated_time",
                "permitted_tasks"
            ]
        );
        assert!(names("ad_account", "campaigns").is_empty());
        assert!(names("zzz", "assigned_users").is_empty());
        let tasks = added_field("ad_account", "assigned_users", "tasks").unwrap();
        assert_eq!(tasks.ty.get(), "list<string>");
        assert_eq!(
            tasks.source.get(),
            "https://developers.facebook.com/docs/marketing-api/reference/ad-account/assigned_users/"
        );
        assert_eq!(EDGE_FIELDS.len(), 22);
    }

    /// Sorted, so the binary searches find every row; each row's node has the edge, and
    /// the node the edge returns lacks the field (else the row says nothing).
    #[test]
    fn rows_are_sorted_and_add_what_the_specs_lack() {
        use crate::catalog::Method;
        use crate::catalog::graph::GNode;
        for pair in EDGE_FIELDS.windows(2) {
            let key = |e: &EdgeField| (e.node.get(), e.edge.get(), e.field.get());
            assert!(key(&pair[0]) < key(&pair[1]));
        }
        for e in EDGE_FIELDS {
            let node = GNode::parse(e.node.get()).unwrap();
            let read = node.call(Method::Get, e.edge.get()).unwrap();
            let returned = read.get().returns.node().unwrap();
            assert!(returned.field(e.field.get()).is_none(), "{}", e.field.get());
            assert_eq!(
                added_field(e.node.get(), e.edge.get(), e.field.get()).map(|f| f.field),
                Some(e.field)
            );
        }
    }
}

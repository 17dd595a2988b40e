//! Context snapshots (docs/request-files.md#context-snapshots): objects that already exist, indexed by kind and id.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::loading::{self, Format, Limits, LineIndex, Node, Value};
use crate::suggest::did_you_mean;

/// A kind of context snapshot: a list of objects of one node type of the Marketing API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    AdAccounts,
    CustomAudiences,
    AdSets,
    Campaigns,
    CustomConversions,
    Ads,
    AdCreatives,
    AdsPixels,
    AdImages,
    AdVideos,
    AdLabels,
    AdRules,
    AdStudies,
    SavedAudiences,
    ProductCatalogs,
    ProductSets,
    Businesses,
    Pages,
}

impl Kind {
    /// Each kind: its key in a snapshot and the node type of its objects (snake_case, as
    /// in `object:`).
    pub const ALL: [(Kind, &'static str, &'static str); 18] = [
        (Kind::AdAccounts, "ad_accounts", "ad_account"),
        (Kind::CustomAudiences, "custom_audiences", "custom_audience"),
        (Kind::AdSets, "ad_sets", "ad_set"),
        (Kind::Campaigns, "campaigns", "campaign"),
        (
            Kind::CustomConversions,
            "custom_conversions",
            "custom_conversion",
        ),
        (Kind::Ads, "ads", "ad"),
        (Kind::AdCreatives, "ad_creatives", "ad_creative"),
        (Kind::AdsPixels, "ads_pixels", "ads_pixel"),
        (Kind::AdImages, "ad_images", "ad_image"),
        (Kind::AdVideos, "ad_videos", "ad_video"),
        (Kind::AdLabels, "ad_labels", "ad_label"),
        (Kind::AdRules, "ad_rules", "ad_rule"),
        (Kind::AdStudies, "ad_studies", "ad_study"),
        (Kind::SavedAudiences, "saved_audiences", "saved_audience"),
        (Kind::ProductCatalogs, "product_catalogs", "product_catalog"),
        (Kind::ProductSets, "product_sets", "product_set"),
        (Kind::Businesses, "businesses", "business"),
        (Kind::Pages, "pages", "page"),
    ];

    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|(k, _, _)| *k)
    }

    /// The key of its list in a snapshot (`ad_sets`).
    pub fn key(self) -> &'static str {
        Kind::ALL[self as usize].1
    }

    /// The node type of its objects (`ad_set`).
    pub fn node_name(self) -> &'static str {
        Kind::ALL[self as usize].2
    }
}

/// Every object of every snapshot, by kind and id. Shared by the settings of every
/// directory whose environments a run discovers: a copy costs a pointer, not the
/// snapshots.
#[derive(Debug, Default, Clone)]
pub struct ContextIndex {
    objects: std::sync::Arc<HashMap<(Kind, String), Node>>,
    /// A hash of every snapshot read, path and bytes, in order: what the result cache
    /// keys the context by.
    digest: u64,
}

/// Ad account ids are written `act_123` in paths and often `123` in snapshots.
fn normalize(kind: Kind, id: &str) -> &str {
    match kind {
        Kind::AdAccounts => id.strip_prefix("act_").unwrap_or(id),
        _ => id,
    }
}

impl ContextIndex {
    pub fn get(&self, kind: Kind, id: &str) -> Option<&Node> {
        // Most runs have no snapshot: no key is built to find nothing.
        if self.objects.is_empty() {
            return None;
        }
        self.objects.get(&(kind, normalize(kind, id).to_string()))
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// Reads one snapshot file into the index. Errors are one line, with a position.
    pub fn add_file(&mut self, path: &Path) -> Result<(), String> {
        let bytes = loading::read_bounded(path, Limits::DEFAULT.max_file_bytes, "context")?;
        self.add_text(bytes, path)
    }

    /// A hash of the snapshots the index was built from.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    pub fn add_text(&mut self, bytes: Vec<u8>, path: &Path) -> Result<(), String> {
        {
            use std::hash::{Hash, Hasher};
            let mut h = std::hash::DefaultHasher::new();
            (self.digest, path, &bytes).hash(&mut h);
            self.digest = h.finish();
        }
        let loaded = loading::load(
            bytes,
            Format::from_path(&path.to_string_lossy()),
            &Limits::DEFAULT,
        );
        let text = &loaded.text;
        let at = |offset: usize, message: String| {
            let pos = LineIndex::new(text).position(text, offset);
            format!("{}:{}:{}: {message}", path.display(), pos.line, pos.column)
        };
        if let Some(p) = loaded.problems.first() {
            return Err(at(p.span.start, p.message.clone()));
        }
        for doc in &loaded.documents {
            let Some(entries) = doc.as_map() else {
                if matches!(doc.value, Value::Null) {
                    continue;
                }
                return Err(at(
                    doc.span.start,
                    "a context snapshot must map kinds to lists of objects".into(),
                ));
            };
            for entry in entries {
                let Some(kind) = Kind::parse(&entry.key) else {
                    let names = Kind::ALL.map(|(_, n, _)| n);
                    let hint = match did_you_mean(&entry.key, names) {
                        Some(s) => format!(" (did you mean `{s}`?)"),
                        None => format!("; kinds: {}", names.join(", ")),
                    };
                    return Err(at(
                        entry.key_span.start,
                        format!("unknown context kind `{}`{hint}", entry.key),
                    ));
                };
                // A saved list response: `{data: [...]}`.
                let list = entry.value.get_value("data").unwrap_or(&entry.value);
                let Some(items) = list.as_seq() else {
                    return Err(at(
                        list.span.start,
                        format!("`{}` must be a list of objects or `data: [...]`", entry.key),
                    ));
                };
                for item in items {
                    let id = item
                        .get_value("id")
                        .and_then(|id| id.scalar_text().map(|t| t.into_owned()))
                        .filter(|_| item.as_map().is_some())
                        .ok_or_else(|| {
                            at(
                                item.span.start,
                                format!("an object of `{}` needs an `id`", entry.key),
                            )
                        })?;
                    // Fields saved as JSON-encoded strings (a targeting) read like mappings.
                    let mut item = item.clone();
                    if let Value::Map(fields) = &mut item.value {
                        for field in fields {
                            let _ = crate::loading::encoded::decode_in_place(
                                &mut field.value,
                                text,
                                &Limits::DEFAULT,
                            );
                        }
                    }
                    std::sync::Arc::make_mut(&mut self.objects)
                        .insert((kind, normalize(kind, &id).to_string()), item);
                }
            }
        }
        Ok(())
    }
}

/// The most directory entries a `context:` glob may walk, and the most files it may
/// name: a glob such as `/**` must end with an error, not walk the whole filesystem.
const MAX_CONTEXT_WALK: usize = 100_000;
const MAX_CONTEXT_FILES: usize = 10_000;

/// The files a `context:` entry names: a path, or a glob relative to the config root,
/// walked below its literal prefix and bounded; none outside the root.
pub fn expand_context_glob(root: &Path, pattern: &str) -> Result<Vec<PathBuf>, String> {
    use crate::model::config::{GLOB_CHARS, build_globs};
    // Files outside the project are read only when named on the command line
    // (`--context`): neither the entry's text nor a link may lead out of `root`.
    if !pattern.contains(GLOB_CHARS) {
        let path = crate::files::named_by_config(root, pattern)
            .map_err(|e| format!("context file: {e}"))?;
        if path.symlink_metadata().is_err() {
            return Err(format!("context file {} does not exist", path.display()));
        }
        return Ok(vec![path]);
    }
    crate::files::check_config_relative(pattern).map_err(|e| format!("context glob: {e}"))?;
    let set = build_globs([pattern])?;
    let literal: PathBuf = Path::new(pattern)
        .components()
        .take_while(|c| !c.as_os_str().to_string_lossy().contains(GLOB_CHARS))
        .collect();
    let start = root.join(&literal);
    let mut files = Vec::new();
    if !start.is_dir() {
        return Ok(files);
    }
    for (walked, entry) in ignore::WalkBuilder::new(&start)
        .standard_filters(false)
        .follow_links(false)
        .build()
        .flatten()
        .enumerate()
    {
        if walked >= MAX_CONTEXT_WALK {
            return Err(format!(
                "context glob `{pattern}` walks more than {MAX_CONTEXT_WALK} entries; name the snapshots more narrowly"
            ));
        }
        if entry.file_type().is_some_and(|t| t.is_file()) {
            let candidate = entry.path().strip_prefix(root).unwrap_or(entry.path());
            if set.is_match(candidate) {
                // The walk follows no link, but the directory it starts from may be one.
                crate::files::check_inside(entry.path(), root)
                    .map_err(|e| format!("context glob `{pattern}`: {e}"))?;
                files.push(entry.path().to_path_buf());
                if files.len() > MAX_CONTEXT_FILES {
                    return Err(format!(
                        "context glob `{pattern}` names more than {MAX_CONTEXT_FILES} files"
                    ));
                }
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_saved_responses() {
        let mut idx = ContextIndex::default();
        idx.add_text(
            b"ad_accounts:\n  - id: act_1234\n    currency: USD\ncustom_audiences:\n  data:\n    - id: \"2385\"\n      operation_status: {code: 471}\nad_sets:\n  - {id: 99, status: ARCHIVED}\n".to_vec(),
            Path::new("state.yaml"),
        )
        .unwrap();
        assert_eq!(idx.len(), 3);
        assert!(idx.get(Kind::AdAccounts, "act_1234").is_some());
        assert!(idx.get(Kind::AdAccounts, "1234").is_some());
        let a = idx.get(Kind::CustomAudiences, "2385").unwrap();
        assert_eq!(
            a.get_value("operation_status")
                .unwrap()
                .get_value("code")
                .unwrap()
                .as_i64(),
            Some(471)
        );
        assert!(idx.get(Kind::AdSets, "99").is_some());
    }

    #[test]
    fn json_encoded_fields_are_decoded() {
        let mut idx = ContextIndex::default();
        idx.add_text(
            br#"ad_sets:
  - id: '7'
    targeting: '{"geo_locations": {"countries": ["DE"]}}'
"#
            .to_vec(),
            Path::new("s.yaml"),
        )
        .unwrap();
        let t = idx
            .get(Kind::AdSets, "7")
            .unwrap()
            .get_value("targeting")
            .unwrap();
        assert!(t.resolved().get_value("geo_locations").is_some());
    }

    #[test]
    fn kinds_are_in_order_and_name_graph_nodes() {
        for (i, (kind, key, node)) in Kind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, i);
            assert_eq!(kind.key(), *key);
            assert!(
                crate::catalog::graph::GNode::parse(node).is_some(),
                "{node} is not a node of the graph"
            );
        }
    }

    #[test]
    fn unknown_kind_is_an_error() {
        let mut idx = ContextIndex::default();
        let e = idx
            .add_text(b"adsets: []\n".to_vec(), Path::new("s.yaml"))
            .unwrap_err();
        assert_eq!(
            e,
            "s.yaml:1:1: unknown context kind `adsets` (did you mean `ad_sets`?)"
        );
    }
}

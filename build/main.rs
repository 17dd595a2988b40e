//! The build step of reqlint's catalogs: reads the data under `catalog/` (see
//! catalog/README.md), checks every reference in it (rule names, node and operation
//! names, enum values, countries), and writes Rust tables into OUT_DIR that
//! `src/catalog/` includes. A broken table fails the build with its file and line;
//! nothing is parsed when reqlint runs.
//!
//! `REQLINT_CATALOG_DIR` points the build at another catalog folder (the catalog-size
//! benchmark builds with a generated one).

mod access;
mod advertising;
mod codehost;
mod edge_fields;
mod geo;
mod graph;
#[path = "../src/catalog/name_hash.rs"]
mod name_hash;
#[path = "../src/catalog/names.rs"]
mod names;
mod octokit;
mod openapi;
mod source;
mod workflows;

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-env-changed=REQLINT_CATALOG_DIR");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = std::env::var_os("REQLINT_CATALOG_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("catalog"));
    println!("cargo:rerun-if-changed={}", root.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let (geo, countries) = geo::generate(&root);
    write(&out, "geo.rs", &geo);
    write(&out, "codehost.rs", &codehost::generate(&root));
    write(&out, "openapi.rs", &openapi::generate(&root));
    write(&out, "codehost_access.rs", &access::generate(&root));
    write(&out, "codehost_methods.rs", &octokit::generate(&root));
    write(&out, "graph.rs", &graph::generate(&root));
    write(&out, "edge_fields.rs", &edge_fields::generate(&root));
    write(&out, "codehost_workflows.rs", &workflows::generate(&root));
    write(
        &out,
        "advertising.rs",
        &advertising::generate(&root, &countries),
    );
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    // Unchanged tables keep their timestamp, so the crate is not rebuilt for nothing.
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
        std::fs::write(&path, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

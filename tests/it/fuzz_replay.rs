//! Replays the kept fuzz inputs (`fuzz/regressions/<target>/`: crashes fixed, and the
//! inputs chosen from the full corpora by fuzz/select_regressions.py) through the same
//! invariant checks as the fuzz targets, and the full corpora too where they were
//! restored into `fuzz/corpus/` (fuzz/corpus.sh; they are not in the repository).
//! Fuzzing itself runs outside CI; see fuzz/README.md.

use std::path::PathBuf;

use reqlint::invariants;
use reqlint::loading::Format;

fn inputs(kind: &str, target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, Vec<u8>)> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            let data = std::fs::read(&p).unwrap();
            (p, data)
        })
        .collect();
    files.sort();
    files
}

fn replay(target: &str, run: impl Fn(&[u8])) {
    let mut count = 0;
    for kind in ["corpus", "regressions"] {
        for (path, data) in inputs(kind, target) {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&data)));
            assert!(
                outcome.is_ok(),
                "{target}: {} breaks an invariant",
                path.display()
            );
            count += 1;
        }
    }
    assert!(
        count > 0,
        "no kept inputs for {target} in fuzz/regressions/"
    );
    eprintln!("{target}: {count} inputs replayed");
}

#[test]
fn yaml_loader() {
    replay("yaml_loader", |d| invariants::loader(d, Format::Yaml));
}

#[test]
fn json_loader() {
    replay("json_loader", |d| invariants::loader(d, Format::Json));
}

#[test]
fn encoded_string() {
    replay("encoded_string", invariants::encoded_string);
}

#[test]
fn request_model() {
    replay("request_model", invariants::request_model);
}

#[test]
fn whole_check() {
    replay("whole_check", |d| {
        if let Some((&kind, file)) = d.split_first() {
            let name = if kind & 1 == 0 {
                "f.req.yaml"
            } else {
                "f.req.json"
            };
            invariants::whole_check(file, name);
        }
    });
}

#[test]
fn readers() {
    use reqlint::loading::readers::Reader;
    for (target, reader) in [
        ("postman_reader", Reader::Postman),
        ("http_reader", Reader::Http),
        ("bruno_reader", Reader::Bruno),
        ("hurl_reader", Reader::Hurl),
    ] {
        replay(target, |d| invariants::reader(d, reader));
    }
}

#[test]
fn variable_expansion() {
    replay("variable_expansion", invariants::variable_expansion);
}

#[test]
fn body_scan() {
    replay("body_scan", invariants::body_scan);
}

#[test]
fn workflow_scripts() {
    replay("workflow_scripts", invariants::workflow_scripts);
}

//! The quick YAML reader (src/loading/yaml_block.rs) against saphyr-parser: wherever the
//! quick reader takes a text, both must build the same trees with the same spans and
//! problems. Checked on every fixture, on generated request-like texts, and on
//! generated texts full of the characters where YAML is subtle.
//!
//! `REQLINT_YAML_DIR=<dir> cargo test --test it yaml_readers::` also checks every `.yaml`
//! file under a directory (a generated benchmark corpus, say).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use reqlint::invariants::yaml_readers_agree;
use reqlint::loading::{Limits, yaml};

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// Checks every file and returns how many the quick reader took.
fn check_dir(dir: &Path) -> (usize, usize) {
    let mut files = Vec::new();
    yaml_files(dir, &mut files);
    files.sort();
    let mut taken = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let outcome = std::panic::catch_unwind(|| yaml_readers_agree(&text));
        assert!(outcome.is_ok(), "{}: the readers disagree", path.display());
        if yaml::both_readers(&text, &Limits::DEFAULT).is_some() {
            taken += 1;
        }
    }
    (taken, files.len())
}

#[test]
fn fixtures_read_alike() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let (taken, total) = check_dir(&root.join("fixtures"));
    // The fixtures are written as request files are: most must take the quick path, or
    // the agreement above says little.
    assert!(total > 100, "only {total} fixtures");
    assert!(
        taken * 10 >= total * 8,
        "the quick reader took only {taken} of {total} fixtures"
    );
}

#[test]
fn a_directory_reads_alike() {
    let Some(dir) = std::env::var_os("REQLINT_YAML_DIR") else {
        return;
    };
    let (taken, total) = check_dir(Path::new(&dir));
    eprintln!("{taken} of {total} files took the quick reader");
}

#[test]
fn the_subset_is_taken() {
    for text in [
        "a: 1\n",
        "---\n# c\nname: a b  # x\nreq: \"q\\\"x\"\nlist: [A, \"b\"]\nnest:\n  k: 1\n  s:\n  - x\n  - y: 1\n    z: 2\nm: {id: \"1\", n: Cook}\n",
        "a:\n- - x\n  - y\n- [a]\n\"q k\": 's''t'\nb:\n  # c\n\n  - 1\n",
        "a: 1\n---\n- b\n",
        "requests:\n  - GET /user\n  - request: POST /x\n    params: {a: 1}\n",
        "k: -5\nurl: http://x.example/a?b=c#d\nemoji: \"\\u00e9 é 😀\"\n",
    ] {
        assert!(
            yaml::both_readers(text, &Limits::DEFAULT).is_some(),
            "not taken: {text:?}"
        );
        yaml_readers_agree(text);
    }
}

#[test]
fn everything_else_is_left_to_saphyr() {
    for text in [
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: |\n  text\n",
        "a: b\n  c\n",
        "a:\n",
        "a: [1,\n 2]\n",
        "a:\tb\n",
        "a: b\r\n",
        "%YAML 1.2\n---\na: 1\n",
        "? a\n: b\n",
        "",
        "# only a comment\n",
        "---\n---\na: 1\n",
        "a: [1, 2, ]\n",
        "a: \"\\ud83d\\ude00\"\n",
        "a: 'two\n  lines'\n",
        "- \n- a\n",
        "a: b: c\n",
        "a: 1\n...\n",
        "a: {b :{c: d}}\n",
        "a: {b:[c]}\n",
        "a: {b: c -,d: e}\n",
        "a: [c -]\n",
    ] {
        assert!(
            yaml::both_readers(text, &Limits::DEFAULT).is_none(),
            "taken: {text:?}"
        );
    }
}

/// Request-like texts: keys, values of every style, nesting by indentation.
fn request_like() -> impl Strategy<Value = String> {
    let scalar = prop_oneof![
        "[a-z][a-z_ ]{0,8}",
        "-?[0-9]{1,4}(\\.[0-9]{1,2})?",
        Just("true".to_string()),
        Just("null".to_string()),
        Just("~".to_string()),
        "\"[a-z #:'\\\\\"]{0,6}\"".prop_map(|s| s.replace("\\\"\"", "\"")),
        "'[a-z #:\"]{0,6}'",
        "[A-Z]{2}",
        "https?://[a-z.]{1,8}/[a-z#?=]{0,6}",
    ];
    let line = (
        0usize..4,
        prop_oneof![Just("- "), Just(""), Just("- - "), Just("#"), Just("---"),],
        "[a-z_]{1,6}",
        prop_oneof![Just(": "), Just(":"), Just(""), Just(" : "), Just(":  "),],
        prop_oneof![
            scalar.clone(),
            Just(String::new()),
            proptest::collection::vec(scalar.clone(), 0..4)
                .prop_map(|v| format!("[{}]", v.join(", "))),
            proptest::collection::vec(("[a-z]{1,4}", scalar), 0..3).prop_map(|v| {
                let pairs: Vec<String> = v.iter().map(|(k, s)| format!("{k}: {s}")).collect();
                format!("{{{}}}", pairs.join(", "))
            }),
        ],
        prop_oneof![Just(""), Just(" # note"), Just("  "), Just("#x")],
    )
        .prop_map(|(indent, lead, key, colon, value, tail)| {
            format!("{}{lead}{key}{colon}{value}{tail}", "  ".repeat(indent))
        });
    proptest::collection::vec(line, 1..12).prop_map(|lines| lines.join("\n") + "\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn request_like_texts_read_alike(text in request_like()) {
        yaml_readers_agree(&text);
    }

    #[test]
    fn tricky_characters_read_alike(text in "[a-c:#\\-\\[\\]{},'\" \n?&*!|>.~0-9]{0,40}") {
        yaml_readers_agree(&text);
    }
}

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the file kind; the rest is the file.
    if let Some((&kind, file)) = data.split_first() {
        let name = if kind & 1 == 0 { "f.req.yaml" } else { "f.req.json" };
        reqlint::invariants::whole_check(file, name);
    }
});

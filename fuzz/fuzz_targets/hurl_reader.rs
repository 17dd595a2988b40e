#![no_main]

use libfuzzer_sys::fuzz_target;
use reqlint::loading::readers::Reader;

fuzz_target!(|data: &[u8]| {
    reqlint::invariants::reader(data, Reader::Hurl);
});

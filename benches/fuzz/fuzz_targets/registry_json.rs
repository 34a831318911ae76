//! `cargo fuzz run registry_json`: [`benches::fuzz::registry_json`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| benches::fuzz::registry_json(data));

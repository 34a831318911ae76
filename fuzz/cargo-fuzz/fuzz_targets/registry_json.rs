//! `cargo fuzz run registry_json`: [`fuzz::registry_json`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::registry_json(data));

//! `cargo fuzz run restore_json`: [`fuzz::restore_json`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::restore_json(data));

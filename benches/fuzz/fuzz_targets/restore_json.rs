//! `cargo fuzz run restore_json`: [`benches::fuzz::restore_json`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| benches::fuzz::restore_json(data));

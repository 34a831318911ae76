//! `cargo fuzz run rps_actions`: [`benches::fuzz::rps_actions`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| benches::fuzz::rps_actions(data));

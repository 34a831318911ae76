//! `cargo fuzz run rps_actions`: [`fuzz::rps_actions`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::rps_actions(data));

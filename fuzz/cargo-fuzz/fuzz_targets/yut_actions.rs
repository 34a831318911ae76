//! `cargo fuzz run yut_actions`: [`fuzz::yut_actions`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::yut_actions(data));

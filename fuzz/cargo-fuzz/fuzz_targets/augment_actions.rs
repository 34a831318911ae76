//! `cargo fuzz run augment_actions`: [`fuzz::augment_actions`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::augment_actions(data));

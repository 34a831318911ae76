//! `cargo fuzz run one_card_actions`: [`fuzz::one_card_actions`] under libFuzzer.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz::one_card_actions(data));

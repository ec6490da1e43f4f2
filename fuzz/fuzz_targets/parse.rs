//! Parsing and syntax diagnostics in every syntax: `[selector] text` (see
//! `ludeme_analysis::fuzzing::parse_input`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ludeme_analysis::fuzzing::parse_input(bytes));

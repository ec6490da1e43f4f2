//! Lowering, every check, symbols, folding, semantic tokens and English in every syntax:
//! `[selector] text` (see `ludeme_analysis::fuzzing::check_input`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ludeme_analysis::fuzzing::check_input(bytes));

//! The formatters of every syntax, GDL to both KIF and infix: `[selector] text` (see
//! `ludeme_analysis::fuzzing::format_input`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ludeme_analysis::fuzzing::format_input(bytes));

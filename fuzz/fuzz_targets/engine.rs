//! The playable game of every language under small budgets, and GDL's two reasoners against
//! each other: `[selector] text` (see `ludeme_analysis::fuzzing::engine_input`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ludeme_analysis::fuzzing::engine_input(bytes));

//! Hover, completion, definitions, references, rename and the other editor features at a few
//! offsets: `[selector] text 0xFF offsets` (see `ludeme_analysis::fuzzing::ide_input`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ludeme_analysis::fuzzing::ide_input(bytes));

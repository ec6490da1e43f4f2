//! Ludeme trees and the distance between two games: `[selector] first 0xFF second` (see
//! `ludeme_analysis::fuzzing::distance_input`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| ludeme_analysis::fuzzing::distance_input(bytes));

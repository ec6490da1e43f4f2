//! Arbitrary bytes through the ludi parser and every analysis of the language.
#![no_main]

use ludeme_analysis::Syntax;
use ludeme_analysis::fuzzing::analyse_bytes;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| analyse_bytes(Syntax::Ludi, bytes));

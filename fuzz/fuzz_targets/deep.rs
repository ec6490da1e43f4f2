//! Deep nesting, runs of unclosed openers and huge fact sets (`ludeme_fuzz::deep`) through
//! parsing, the checks and the formatters of each syntax.
#![no_main]

use ludeme_analysis::fuzzing::{Fuzzed, check_stage, format_stage, parse_stage};
use ludeme_fuzz::deep::Deep;

libfuzzer_sys::fuzz_target!(|deep: Deep| {
    let (syntax, text) = (deep.language().syntax(), deep.text());
    let fuzzed = Fuzzed::new(syntax, &text);
    parse_stage(&fuzzed.analysis, fuzzed.file, 0b011_010);
    check_stage(&fuzzed.analysis, fuzzed.file);
    format_stage(&fuzzed.analysis, fuzzed.file);
});

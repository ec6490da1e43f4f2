//! Deep nesting, runs of unclosed openers and many facts (`ludeme_fuzz::deep`) through parsing,
//! the checks and the formatters of each syntax, on a thread with the stack a worker thread
//! gives an analysis (see `ludeme_fuzz::deep` for the sizes and why).
#![no_main]

use ludeme_analysis::fuzzing::{Fuzzed, check_stage, format_stage, parse_stage};
use ludeme_fuzz::deep::{Deep, on_the_stage_stack};

libfuzzer_sys::fuzz_target!(|deep: Deep| {
    let (syntax, text) = (deep.language().syntax(), deep.text());
    on_the_stage_stack(|| {
        let fuzzed = Fuzzed::new(syntax, &text);
        parse_stage(&fuzzed.analysis, fuzzed.file, 0b011_010);
        check_stage(&fuzzed.analysis, fuzzed.file);
        format_stage(&fuzzed.analysis, fuzzed.file);
    });
});

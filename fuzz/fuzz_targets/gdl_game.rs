//! Arbitrary GDL games (`ludeme_fuzz::gdl_game`) through the checks, the English, conversion to
//! the other syntax and the engines.
#![no_main]

use ludeme_analysis::Syntax;
use ludeme_analysis::fuzzing::{Fuzzed, check_stage, engine_stage, format_stage};
use ludeme_fuzz::gdl_game::GdlGame;

libfuzzer_sys::fuzz_target!(|game: GdlGame| {
    let text = game.text();
    let syntax = if game.infix {
        Syntax::GdlInfix
    } else {
        Syntax::GdlKif
    };
    let fuzzed = Fuzzed::new(syntax, &text);
    check_stage(&fuzzed.analysis, fuzzed.file);
    format_stage(&fuzzed.analysis, fuzzed.file);
    engine_stage(&fuzzed.analysis, fuzzed.file, text.len() as u64);
});

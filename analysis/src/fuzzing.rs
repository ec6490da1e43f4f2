//! The entry points of the fuzz targets (`fuzz/`) and of the property tests
//! (`tests/robustness.rs`): each stage of the analyses on arbitrary input, checking the
//! invariants the front ends rely on. A stage panics when an analysis panics or an invariant
//! fails: that is what a fuzzer looks for.
//!
//! The stages, each a function of its own so that a fuzz target runs only what it is about:
//!
//! - [`parse_stage`]: parsing and syntax diagnostics, the fast KIF reader against the grammar,
//!   re-parsing after an edit against a fresh parse;
//! - [`check_stage`]: lowering and every check ([`file_diagnostics`]), document symbols,
//!   folding, semantic tokens and the English explanation;
//! - [`format_stage`]: the formatter of each syntax, GDL both to KIF and to infix: the output
//!   parses without errors, formats to itself, and a formatter never calls itself unstable;
//! - [`distance_stage`]: the ludeme trees of two games, their distance and the project's
//!   nearest-game and duplicate questions;
//! - [`engine_stage`]: the game on its engine through [`PlayableGame`], a few random moves under
//!   small budgets; a GDL game that grounds is played on both reasoners, which must agree;
//! - [`ide_stage`]: the editor features at a handful of offsets.
//!
//! The invariants checked everywhere: every range an answer holds lies inside the text and on
//! character boundaries (the server converts them to protocol positions); edits of one answer do
//! not overlap; semantic tokens come sorted and disjoint (the protocol's relative encoding
//! subtracts each token's start from the next).
//!
//! The `*_input` functions decode the byte layouts the fuzz targets use: a first byte that
//! chooses the syntax ([`syntax_of`]), then the text; see each for the rest.

use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use ludeme_engine::Game;
use ludeme_engine::gdl::grounded::GroundingLimits;
use ludeme_engine::gdl::{Budget, Reasoner, ReasonerMove, ReasonerState};
use ludeme_engine::playout::{Playout, step_by_step_playout};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::analysis::{Analysis, DiagnosticDepth};
use crate::play::{EngineOptions, MatchSettings, MoveBudget, PlayableGame};
use crate::syntax::{MAX_FORMATTED_TREE_DEPTH, nests_deeper_than};
use crate::{
    AnalysisHost, Change, Db, Diagnostic, EditedTree, Severity, SourceFile, Syntax, TextEdit,
    TextRange, decode_source, document_symbols, file_diagnostics, parse, parse_text,
    syntax_diagnostics,
};

/// At most this many offsets are asked about by [`ide_stage`] in one run.
pub const MAX_IDE_OFFSETS: usize = 8;

/// The byte that separates the parts of a fuzz input: never part of UTF-8 text.
pub const SEPARATOR: u8 = 0xFF;

/// Decodes `bytes` and, if they are text, runs every analysis of `syntax` on them (see
/// [`analyse_text`]).
pub fn analyse_bytes(syntax: Syntax, bytes: &[u8]) {
    if let Ok(text) = decode_source(bytes) {
        analyse_text(syntax, text);
    }
}

/// The stages of parsing, checking and formatting on `text`, in one database, and hovers and
/// references at every offset a cursor can be at (GDL). For small texts: the cost grows with
/// the square of the length. (The property tests call this; [`ide_stage`] is left out until
/// `fuzz/regressions/ide-egg-format-range-multibyte-end` passes.)
pub fn analyse_text(syntax: Syntax, text: &str) {
    let fuzzed = Fuzzed::new(syntax, text);
    let (analysis, file) = (&fuzzed.analysis, fuzzed.file);
    parse_stage(analysis, file, 0b010_011);
    check_stage(analysis, file);
    format_stage(analysis, file);
    if matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix) {
        let db = analysis.db();
        for offset in (0..=text.len()).filter(|&offset| text.is_char_boundary(offset)) {
            if let Some(hover) = crate::ide::hover(db, file, offset) {
                check_range(text, hover.range, &hover);
            }
            for reference in crate::ide::references(db, file, offset) {
                check_range(text, reference.range, &reference);
            }
        }
    }
}

/// One file in a fresh host, and a snapshot to ask it questions.
pub struct Fuzzed {
    /// Kept so that the snapshot is never cancelled.
    _host: AnalysisHost,
    pub analysis: Analysis,
    pub file: SourceFile,
}

impl Fuzzed {
    pub fn new(syntax: Syntax, text: &str) -> Self {
        Self::with_files(&[(syntax, text)], false).pop_first()
    }

    /// Several files in one host (named `fuzz0.ext`, `fuzz1.ext`, ...); with `workspace`, they
    /// are the project's workspace, so that each is a known game to the others.
    fn with_files(files: &[(Syntax, &str)], workspace: bool) -> FuzzedFiles {
        let mut host = AnalysisHost::new();
        let mut change = Change::new();
        let mut keys = Vec::new();
        for (index, &(syntax, text)) in files.iter().enumerate() {
            let key = format!("fuzz{index}.{}", extension(syntax));
            change.set_file(key.clone(), syntax, Arc::from(text), None);
            keys.push(key.into());
        }
        if workspace {
            change.set_workspace(keys);
        }
        let files = host.apply_change(change).files;
        FuzzedFiles {
            analysis: host.snapshot(),
            host,
            files,
        }
    }
}

struct FuzzedFiles {
    host: AnalysisHost,
    analysis: Analysis,
    files: Vec<SourceFile>,
}

impl FuzzedFiles {
    fn pop_first(self) -> Fuzzed {
        Fuzzed {
            file: self.files[0],
            analysis: self.analysis,
            _host: self.host,
        }
    }
}

fn extension(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Egg => "egg",
        Syntax::Ludi => "ludi",
        Syntax::GdlKif => "kif",
        Syntax::GdlInfix => "hrf",
    }
}

// ---------------------------------------------------------------------------------------------
// Inputs

/// The syntax a selector byte chooses: its two low bits.
pub fn syntax_of(selector: u8) -> Syntax {
    Syntax::ALL[usize::from(selector & 3)]
}

/// The selector byte and the text of a fuzz input laid out as `[selector] text`; `None` when
/// the input is empty or the rest is not text.
pub fn selector_and_text(bytes: &[u8]) -> Option<(u8, &str)> {
    let (&selector, rest) = bytes.split_first()?;
    Some((selector, decode_source(rest).ok()?))
}

/// `[selector] text`: [`parse_stage`] in the selector's syntax, the edit chosen by its high bits.
pub fn parse_input(bytes: &[u8]) {
    if let Some((selector, text)) = selector_and_text(bytes) {
        let fuzzed = Fuzzed::new(syntax_of(selector), text);
        parse_stage(&fuzzed.analysis, fuzzed.file, selector >> 2);
    }
}

/// `[selector] text`: [`check_stage`].
pub fn check_input(bytes: &[u8]) {
    if let Some((selector, text)) = selector_and_text(bytes) {
        let fuzzed = Fuzzed::new(syntax_of(selector), text);
        check_stage(&fuzzed.analysis, fuzzed.file);
    }
}

/// `[selector] text`: [`format_stage`].
pub fn format_input(bytes: &[u8]) {
    if let Some((selector, text)) = selector_and_text(bytes) {
        let fuzzed = Fuzzed::new(syntax_of(selector), text);
        format_stage(&fuzzed.analysis, fuzzed.file);
    }
}

/// `[selector] first 0xFF second`: [`distance_stage`] between two games, the first in the
/// syntax of the selector's bits 0–1, the second in that of bits 2–3. Without a separator the
/// game is compared with itself.
pub fn distance_input(bytes: &[u8]) {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let (first, second) = match rest.iter().position(|&b| b == SEPARATOR) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, rest),
    };
    let (Ok(first), Ok(second)) = (decode_source(first), decode_source(second)) else {
        return;
    };
    distance_stage(
        (syntax_of(selector), first),
        (syntax_of(selector >> 2), second),
    );
}

/// `[selector] text`: [`engine_stage`], seeded by the selector's high bits.
pub fn engine_input(bytes: &[u8]) {
    if let Some((selector, text)) = selector_and_text(bytes) {
        let fuzzed = Fuzzed::new(syntax_of(selector), text);
        engine_stage(&fuzzed.analysis, fuzzed.file, u64::from(selector >> 2));
    }
}

/// `[selector] text 0xFF offsets`: [`ide_stage`] at the offsets the bytes after the separator
/// give (two bytes each, at most [`MAX_IDE_OFFSETS`]; see [`offsets_from`]), or without a
/// separator at offsets spread over the text.
pub fn ide_input(bytes: &[u8]) {
    let Some((&selector, rest)) = bytes.split_first() else {
        return;
    };
    let (text, picks) = match rest.iter().position(|&b| b == SEPARATOR) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let Ok(text) = decode_source(text) else {
        return;
    };
    let offsets = match picks {
        Some(picks) => offsets_from(text, picks),
        None => spread_offsets(text),
    };
    let fuzzed = Fuzzed::new(syntax_of(selector), text);
    ide_stage(&fuzzed.analysis, fuzzed.file, &offsets);
}

/// Offsets into `text` from `picks`, two bytes (little-endian) each, at most
/// [`MAX_IDE_OFFSETS`]: the value modulo the length plus one for texts shorter than 64 KiB,
/// scaled over the text for longer ones; moved back to a character boundary.
pub fn offsets_from(text: &str, picks: &[u8]) -> Vec<usize> {
    let len = text.len();
    picks
        .chunks(2)
        .take(MAX_IDE_OFFSETS)
        .map(|pair| {
            let value = usize::from(pair[0]) | pair.get(1).map_or(0, |&b| usize::from(b) << 8);
            let offset = if len < 0x1_0000 {
                value % (len + 1)
            } else {
                value * (len + 1) / 0x1_0000
            };
            floor_char_boundary(text, offset)
        })
        .collect()
}

/// [`MAX_IDE_OFFSETS`] offsets evenly spread over `text`, both ends included.
pub fn spread_offsets(text: &str) -> Vec<usize> {
    let last = MAX_IDE_OFFSETS - 1;
    (0..=last)
        .map(|k| floor_char_boundary(text, text.len() * k / last))
        .collect()
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

// ---------------------------------------------------------------------------------------------
// Invariants

/// `range` is a range of `text`: in order, inside it, on character boundaries.
pub fn check_range(text: &str, range: TextRange, what: &dyn Debug) {
    assert!(
        range.start <= range.end && range.end <= text.len(),
        "range {range:?} outside the text of {} bytes: {what:?}",
        text.len()
    );
    assert!(
        text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
        "range {range:?} not on character boundaries: {what:?}"
    );
}

/// Edits of one answer (a fix, a code action, a rename): each a range of `text`, and no two
/// overlapping (an editor applies them together).
fn check_edits<'a>(text: &str, edits: impl IntoIterator<Item = &'a TextRange>, what: &dyn Debug) {
    let mut ranges: Vec<TextRange> = edits.into_iter().copied().collect();
    for &range in &ranges {
        check_range(text, range, what);
    }
    ranges.sort_by_key(|range| (range.start, range.end));
    for pair in ranges.windows(2) {
        assert!(
            pair[0].end <= pair[1].start && pair[0] != pair[1],
            "overlapping edits {:?} and {:?}: {what:?}",
            pair[0],
            pair[1]
        );
    }
}

fn check_diagnostic(text: &str, diagnostic: &Diagnostic) {
    check_range(text, diagnostic.range, diagnostic);
    for label in &diagnostic.labels {
        check_range(text, label.range, diagnostic);
    }
    for fix in &diagnostic.fixes {
        check_edits(text, fix.edits.iter().map(|(range, _)| range), diagnostic);
    }
}

fn check_symbols(text: &str, symbols: &[crate::DocumentSymbol]) {
    for symbol in symbols {
        check_range(text, symbol.range, symbol);
        check_range(text, symbol.selection_range, symbol);
        // Editors refuse a symbol whose name is not inside it (VS Code throws).
        assert!(
            symbol.range.start <= symbol.selection_range.start
                && symbol.selection_range.end <= symbol.range.end,
            "selection range outside the symbol: {symbol:?}"
        );
        check_symbols(text, &symbol.children);
    }
}

fn has_syntax_errors(db: &dyn Db, file: SourceFile) -> bool {
    parse(db, file).root().has_error()
        || syntax_diagnostics(db, file)
            .iter()
            .any(|d| d.severity == Severity::Error)
}

// ---------------------------------------------------------------------------------------------
// Stages

/// Parsing: the tree and the syntax diagnostics of `text`. A tree with an error has an error
/// diagnostic; the fast KIF reader accepts only text the grammar reads without error, as the
/// grammar reads it; re-parsing after deleting a stretch (chosen by `edit`) gives the fresh
/// parse's tree when the new text has no error.
pub fn parse_stage(analysis: &Analysis, file: SourceFile, edit: u8) {
    let db = analysis.db();
    let (syntax, text) = (file.syntax(db), &**file.text(db));
    let diagnostics = syntax_diagnostics(db, file);
    for diagnostic in diagnostics {
        check_diagnostic(text, diagnostic);
    }
    let tree = parse(db, file);
    let root = tree.root();
    if root.has_error() {
        assert!(
            diagnostics.iter().any(|d| d.severity == Severity::Error),
            "a tree with errors but no error diagnostic"
        );
    }
    let shallow = !nests_deeper_than(root, MAX_FORMATTED_TREE_DEPTH);
    if syntax == Syntax::GdlKif
        && let Some(forms) = crate::kif_forms::read_kif(text)
    {
        let tree = parse_text(Syntax::GdlKif, text, None);
        assert!(
            !tree.root().has_error(),
            "the fast reader accepted text with errors"
        );
        assert!(
            forms == crate::kif_forms::Forms::from_tree(tree.root()),
            "the fast reader and the grammar read different forms"
        );
    }
    // Delete `text[start..end]`, a stretch chosen by `edit`, and re-parse incrementally: valid
    // text must give the very tree a fresh parse gives. (Tree-sitter may shape the error
    // regions of broken text differently, so broken text is not re-parsed.) Comparing trees
    // prints them, which recurses along the depth: only shallow trees are compared.
    let len = text.len();
    let start = floor_char_boundary(text, len * usize::from(edit & 7) / 8);
    let end = floor_char_boundary(text, start + len * usize::from((edit >> 3) & 7) / 8);
    if start >= end || !shallow || len > 1 << 16 {
        return;
    }
    let edited = format!("{}{}", &text[..start], &text[end..]);
    let fresh = parse_text(syntax, &edited, None);
    if fresh.root().has_error() || nests_deeper_than(fresh.root(), MAX_FORMATTED_TREE_DEPTH) {
        return;
    }
    let mut old = EditedTree::parse_for_editing(syntax, text);
    let point = |offset: usize| {
        let before = &text[..offset];
        let row = before.matches('\n').count();
        let column = offset - before.rfind('\n').map_or(0, |at| at + 1);
        (offset, row, column)
    };
    old.edit(&TextEdit::new(point(start), point(end), point(start)));
    // The language server's way: the new text with the old tree, edited, as a hint.
    let mut host = AnalysisHost::new();
    let mut change = Change::new();
    change.set_file("edited", syntax, Arc::from(edited.as_str()), Some(old));
    let file = host.apply_change(change).files[0];
    let incremental = parse(host.db(), file);
    assert!(
        !incremental.root().has_error(),
        "an incremental re-parse found errors a fresh parse does not: {edited:?}"
    );
    assert_eq!(
        incremental.root().to_sexp(),
        fresh.root().to_sexp(),
        "an incremental re-parse differs from a fresh parse: {edited:?}"
    );
}

/// Lowering and every check, document symbols, folding, semantic tokens and the English
/// explanation of `file`.
pub fn check_stage(analysis: &Analysis, file: SourceFile) {
    let db = analysis.db();
    let text = file.text(db);
    for diagnostic in file_diagnostics(db, file) {
        check_diagnostic(text, &diagnostic);
    }
    let shown = analysis
        .diagnostics(file, &DiagnosticDepth::Static)
        .expect("nothing cancels the fuzzer's snapshot");
    for diagnostic in &shown {
        check_diagnostic(text, diagnostic);
    }
    check_symbols(text, document_symbols(db, file));
    for range in crate::ide::folding_ranges(db, file) {
        check_range(text, range, &range);
    }
    let tokens = crate::ide::semantic_tokens(db, file);
    for token in &tokens {
        check_range(text, token.range, token);
    }
    for pair in tokens.windows(2) {
        assert!(
            pair[0].range.end <= pair[1].range.start,
            "semantic tokens out of order or overlapping: {pair:?}"
        );
    }
    let explanation = analysis
        .explain(file)
        .expect("nothing cancels the fuzzer's snapshot");
    match &explanation {
        crate::Explanation::Gdl(explanation) => {
            for item in explanation.sections.iter().flat_map(|s| &s.items) {
                for &range in &item.ranges {
                    check_range(text, range, item);
                }
            }
        }
        crate::Explanation::Ludi(sheet) => {
            for sentence in &sheet.sentences {
                for &range in &sentence.ranges {
                    check_range(text, range, sentence);
                }
            }
        }
        crate::Explanation::Egg(sheet) => {
            for sentence in sheet.sections.iter().flat_map(|s| &s.sentences) {
                for origin in sentence.origins.iter().filter(|o| o.file == file) {
                    check_range(text, origin.range, sentence);
                }
            }
        }
    }
    let _ = explanation.to_plain_text(72);
}

/// The formatters: the whole file in its own syntax and, for GDL, in the other one. What a
/// formatter returns parses without syntax errors in the target syntax and formats to itself;
/// no formatter reports its own output as unstable (a bug by its own account).
pub fn format_stage(analysis: &Analysis, file: SourceFile) {
    let db = analysis.db();
    let source = file.syntax(db);
    let targets: &[Syntax] = match source {
        Syntax::GdlKif | Syntax::GdlInfix => &[Syntax::GdlKif, Syntax::GdlInfix],
        Syntax::Ludi => &[Syntax::Ludi],
        Syntax::Egg => &[Syntax::Egg],
    };
    let input_has_errors = has_syntax_errors(db, file);
    let too_deep = nests_deeper_than(parse(db, file).root(), MAX_FORMATTED_TREE_DEPTH);
    for &target in targets {
        let formatted = analysis
            .format(file, Some(target))
            .expect("nothing cancels the fuzzer's snapshot");
        let output = match formatted {
            Ok(output) => output,
            Err(crate::gdl::FormatError::Unstable(message)) => {
                panic!("the formatter to {target:?} calls its output unstable: {message}")
            }
            Err(crate::gdl::FormatError::SyntaxErrors(_)) => {
                // Ludi's and EGGG's formatters also refuse trees deeper than they walk, and
                // (a bug) output that does not read back as the input: the facade reports
                // either as a syntax error.
                assert!(
                    input_has_errors || too_deep,
                    "formatting to {target:?} reports syntax errors the parse does not have"
                );
                continue;
            }
            Err(_) => continue,
        };
        assert!(!input_has_errors, "a text with syntax errors was formatted");
        let parsed = parse_text(target, &output, None);
        assert!(
            !parsed.root().has_error()
                && !crate::syntax::syntax_diagnostics_of(&parsed, &output)
                    .iter()
                    .any(|d| d.severity == Severity::Error),
            "the output of formatting to {target:?} has syntax errors: {output:?}"
        );
        let twice = match target {
            Syntax::GdlKif | Syntax::GdlInfix => {
                crate::gdl::format_gdl_text(&output, target, target).ok()
            }
            Syntax::Ludi => crate::ludi::format::format_ludi(&output),
            Syntax::Egg => crate::egg::format::format_egg(&output),
        };
        assert!(
            twice.as_ref() == Some(&output),
            "formatting to {target:?} twice changes the text: {output:?} then {twice:?}"
        );
    }
}

/// The ludeme trees of two games and the distances between them, and the project's questions
/// over them as known games (the nearest game, a duplicate).
pub fn distance_stage(first: (Syntax, &str), second: (Syntax, &str)) {
    use crate::distance::{classic_measures, compare, distance, ludeme_tree};
    let fuzzed = Fuzzed::with_files(&[first, second], true);
    let (analysis, files) = (&fuzzed.analysis, &fuzzed.files);
    let db = analysis.db();
    let (a, b) = (ludeme_tree(db, files[0]), ludeme_tree(db, files[1]));
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9;
    let ab = distance(a, b);
    assert!((0.0..=1.0).contains(&ab), "distance {ab} outside [0, 1]");
    let ba = distance(b, a);
    assert!(close(ab, ba), "distance not symmetric: {ab} and {ba}");
    for tree in [a, b] {
        let itself = distance(tree, tree);
        assert!(close(itself, 0.0), "distance {itself} of a game to itself");
    }
    let comparison = compare(a, b);
    assert!(
        close(comparison.distance, ab),
        "compare says {} and distance {ab}",
        comparison.distance
    );
    for difference in &comparison.differences {
        assert!(difference.weight.is_finite(), "{difference:?}");
        let _ = difference.to_string();
    }
    // The classic tree edit distance costs the product of the sizes squared at worst: on small
    // trees only (its code is the same on large ones), or it would take most of the run.
    if a.len() * b.len() > 1 << 12 {
        return distance_stage_project(analysis, files);
    }
    let classic = classic_measures(a, b);
    assert!(
        (0.0..=1.0).contains(&classic.jaccard_distance),
        "{classic:?}"
    );
    // Over the larger tree's size, the edit distance may exceed 1: a chain and a star of the
    // same size share only their root and one other node.
    if let Some(normalised) = classic.tree_edit_distance_normalised {
        assert!(normalised.is_finite() && normalised >= 0.0, "{classic:?}");
    }
    distance_stage_project(analysis, files);
}

/// The project's questions over known games: each game's nearest, duplicates.
fn distance_stage_project(analysis: &Analysis, files: &[SourceFile]) {
    let db = analysis.db();
    for &file in files {
        let nearest = analysis
            .nearest(file, 2, true)
            .expect("nothing cancels the fuzzer's snapshot");
        for neighbour in nearest.workspace.iter().chain(&nearest.corpus) {
            assert!(neighbour.file != file, "a game is its own nearest game");
            assert!((0.0..=1.0).contains(&neighbour.distance), "{neighbour:?}");
        }
        let text = file.text(db);
        let full = DiagnosticDepth::Full { simulation: None };
        for diagnostic in analysis
            .diagnostics(file, &full)
            .expect("nothing cancels the fuzzer's snapshot")
        {
            check_diagnostic(text, &diagnostic);
        }
    }
}

/// Work limits of [`engine_stage`]: small, so that one run takes milliseconds.
const GDL_BUDGET: Budget = Budget {
    max_steps: 200_000,
    max_facts: 20_000,
    deadline: None,
};

/// How long [`engine_stage`] lets any one engine take: a safety net behind the step budgets.
const ENGINE_TIME: Duration = Duration::from_secs(2);

/// Plies of the random matches and walks of [`engine_stage`].
const ENGINE_PLIES: usize = 12;

/// The game of `text` on its engine, when it has one: a random match through
/// [`PlayableGame::play_match`], a random walk through the [`Game`] methods, the engines' fast
/// playout against the step-by-step one where they promise the same draws (EGGG), and for a
/// GDL game that grounds under small limits, the grounded reasoner against the interpreter
/// state by state.
pub fn engine_stage(analysis: &Analysis, file: SourceFile, seed: u64) {
    let syntax = analysis.syntax(file);
    let deadline = Some(ludeme_engine::cpu_time::CpuDeadline::after(ENGINE_TIME));
    let playable = match syntax {
        // The facade's own construction, with smaller budgets than the editor's: the program
        // of the file, grounded under small limits or else interpreted.
        Syntax::GdlKif | Syntax::GdlInfix => {
            let program = analysis
                .with_db(|db| crate::gdl::engine::program_for(db, file))
                .expect("nothing cancels the fuzzer's snapshot");
            let Ok(program) = program else {
                return;
            };
            let budget = Budget {
                deadline,
                ..GDL_BUDGET
            };
            let limits = GroundingLimits {
                max_terms: 20_000,
                max_ground_rules: 50_000,
                max_literals: 200_000,
                max_steps: 2_000_000,
                deadline,
                ..GroundingLimits::default()
            };
            let Ok(reasoner) = Reasoner::with_limits(program.clone(), budget.clone(), &limits)
            else {
                return;
            };
            if reasoner.engine_name() == "grounded"
                && let Ok(oracle) = Reasoner::interpreted(program, budget)
            {
                reasoners_agree(&oracle, &reasoner, seed);
            }
            PlayableGame::Gdl(reasoner)
        }
        Syntax::Ludi | Syntax::Egg => {
            let options = EngineOptions {
                deadline,
                interpreter: false,
            };
            match analysis
                .playable(file, &options)
                .expect("nothing cancels the fuzzer's snapshot")
            {
                Ok(playable) => playable,
                Err(_) => return,
            }
        }
    };
    let roles = playable.roles().len();
    let _ = (playable.engine_name(), playable.fallback_reason());
    let _ = playable.circuit_size();
    let settings = MatchSettings {
        move_budget: MoveBudget::nodes(32),
        max_plies: ENGINE_PLIES,
        cancel: None,
        // `play_match` draws chance from the match's seed.
        chance_seed: 0,
    };
    let (result, players) = playable.play_match(&[], seed, &settings);
    assert_eq!(players.len(), roles, "{result:?}");
    assert!(result.plies <= ENGINE_PLIES, "{result:?}");
    if let Some(goals) = &result.goals {
        assert_eq!(goals.len(), roles, "{result:?}");
    }
    let _ = playable.describe_end(&result.end);
    match &playable {
        PlayableGame::Gdl(reasoner) => random_walk(reasoner, seed),
        PlayableGame::Ludi(game) => random_walk(&**game, seed),
        PlayableGame::Egg(game) => {
            random_walk(&**game, seed);
            let start = game.initial_state();
            let fast =
                game.random_playout(&start, &mut SmallRng::seed_from_u64(seed), ENGINE_PLIES);
            let slow = step_by_step_playout(
                &**game,
                &start,
                &mut SmallRng::seed_from_u64(seed),
                ENGINE_PLIES,
            );
            assert_playouts_agree(&fast, &slow);
        }
    }
}

fn assert_playouts_agree(fast: &Playout, slow: &Playout) {
    assert_eq!(
        fast, slow,
        "the fast playout and the step-by-step one differ"
    );
}

/// Random joint moves through the [`Game`] methods: every role's goal in a terminal state.
fn random_walk<G: Game>(game: &G, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let roles = game.roles().len();
    let mut state = game.initial_state();
    for _ in 0..ENGINE_PLIES {
        if game.is_terminal(&state) || game.failure().is_some() {
            break;
        }
        let Ok(joint) = ludeme_engine::playout::random_joint_move(game, &state, &mut rng) else {
            break;
        };
        assert_eq!(joint.len(), roles);
        state = game.next_state(&state, &joint);
    }
    if game.failure().is_none() && game.is_terminal(&state) {
        let goals = game.goals(&state);
        if game.failure().is_none() {
            assert_eq!(goals.len(), roles, "goals of a terminal state: {goals:?}");
        }
    }
}

/// The grounded reasoner against the interpreter on one random trajectory: the same fluents,
/// terminal test, goals and legal moves (as text) in every state, and the playouts' move sets
/// the same as the legal moves. Stops where either engine gives up.
fn reasoners_agree(oracle: &Reasoner, grounded: &Reasoner, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let roles = oracle.roles().len();
    assert_eq!(oracle.roles(), grounded.roles());
    let (mut expected, mut actual) = (oracle.initial_state(), grounded.initial_state());
    let failed = || oracle.failure().is_some() || grounded.failure().is_some();
    for ply in 0..ENGINE_PLIES {
        let fluents = oracle.render_state(&expected);
        let terminal = oracle.is_terminal(&expected);
        let goals = oracle.try_goal_values(&expected);
        let legal: Vec<Vec<String>> = (0..roles)
            .map(|role| moves_as_text(oracle, &expected, role))
            .collect();
        if failed() || goals.is_err() {
            return;
        }
        assert_eq!(grounded.render_state(&actual), fluents, "ply {ply}: states");
        assert_eq!(
            grounded.is_terminal(&actual),
            terminal,
            "ply {ply}: terminal"
        );
        let grounded_goals = grounded.try_goal_values(&actual);
        if failed() {
            return;
        }
        assert_eq!(grounded_goals.ok(), goals.ok(), "ply {ply}: goals");
        for (role, expected_moves) in legal.iter().enumerate() {
            assert_eq!(
                &moves_as_text(grounded, &actual, role),
                expected_moves,
                "ply {ply}: legal moves of role {role}"
            );
            assert_eq!(
                grounded.playout_legal_moves(&actual, role),
                grounded.legal_moves(&actual, role),
                "ply {ply}: playout moves of role {role}"
            );
        }
        if failed() || terminal || legal.iter().any(Vec::is_empty) {
            return;
        }
        let chosen: Vec<&String> = legal
            .iter()
            .map(|moves| &moves[rand::RngExt::random_range(&mut rng, 0..moves.len())])
            .collect();
        let joint = |game: &Reasoner, state: &ReasonerState| -> Vec<ReasonerMove> {
            chosen
                .iter()
                .enumerate()
                .map(|(role, text)| {
                    game.legal_moves(state, role)
                        .into_iter()
                        .find(|m| game.render_move(m) == **text)
                        .expect("the move was listed")
                })
                .collect()
        };
        let (expected_joint, actual_joint) = (joint(oracle, &expected), joint(grounded, &actual));
        expected = oracle.next_state(&expected, &expected_joint);
        actual = grounded.next_state(&actual, &actual_joint);
    }
}

fn moves_as_text(game: &Reasoner, state: &ReasonerState, role: usize) -> Vec<String> {
    let mut moves: Vec<String> = game
        .legal_moves(state, role)
        .iter()
        .map(|m| game.render_move(m))
        .collect();
    moves.sort();
    moves
}

/// The editor features at each of `offsets` (at most [`MAX_IDE_OFFSETS`] are used): hover,
/// completion, signature help, definitions, references, rename, selection ranges; and over the
/// span between the first two offsets, range formatting, code actions and inlay hints.
pub fn ide_stage(analysis: &Analysis, file: SourceFile, offsets: &[usize]) {
    let db = analysis.db();
    let text = file.text(db);
    let offsets = &offsets[..offsets.len().min(MAX_IDE_OFFSETS)];
    for &offset in offsets {
        if let Some(hover) = crate::ide::hover(db, file, offset) {
            check_range(text, hover.range, &hover);
        }
        let completions = crate::ide::completions(db, file, offset);
        assert!(
            completions.items.len() <= crate::ide::COMPLETION_LIMIT,
            "{} completions",
            completions.items.len()
        );
        let _ = crate::ide::signature_help(db, file, offset);
        for target in crate::ide::goto_definition(db, file, offset) {
            check_range(target.file.text(db), target.range, &target);
        }
        for range in crate::ide::definitions(db, file, offset) {
            check_range(text, range, &range);
        }
        for reference in crate::ide::references(db, file, offset) {
            check_range(text, reference.range, &reference);
        }
        for reference in crate::ide::workspace_references(db, file, offset) {
            check_range(reference.file.text(db), reference.range, &reference);
        }
        if let Ok(range) = crate::ide::prepare_rename(db, file, offset) {
            check_range(text, range, &range);
            if let Ok(edits) = crate::ide::rename_in_workspace(db, file, offset, "renamed") {
                let here = edits.iter().filter(|edit| edit.file == file);
                check_edits(text, here.map(|edit| &edit.range), &edits);
            }
        }
    }
    for chain in crate::ide::selection_ranges(db, file, offsets) {
        for range in &chain {
            check_range(text, *range, &chain);
        }
    }
    let span = match offsets {
        [] => TextRange::new(0, text.len()),
        [only] => TextRange::empty(*only),
        [a, b, ..] => TextRange::new(*a.min(b), *a.max(b)),
    };
    if let Some((range, _)) = analysis
        .format_range(file, span)
        .expect("nothing cancels the fuzzer's snapshot")
    {
        check_range(text, range, &range);
    }
    for action in crate::ide::code_actions(db, file, span) {
        check_edits(text, action.edits.iter().map(|(range, _)| range), &action);
    }
    let options = crate::ide::InlayOptions { english: true };
    for hint in crate::ide::inlay_hints(db, file, span, options) {
        check_range(text, TextRange::empty(hint.offset), &hint);
    }
}

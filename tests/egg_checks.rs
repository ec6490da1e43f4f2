//! Every EGGG check has test games in `tests/fixtures/egg/` (the `is like` loop in `cycle/`),
//! annotated where each diagnostic must be: `# error: egg/code` at the end of a line gives the
//! line; a comment line of carets, `#      ^^^^ error: egg/code`, gives the exact columns on the
//! line above. The diagnostics of each game must be exactly those; the human output is
//! snapshotted so that messages are reviewed. The games of `corpus/egg` (the seed's examples)
//! lower without errors, and EGGG-like text of any shape never makes an analysis panic.

mod support;

use std::path::Path;
use std::sync::Arc;

use ludeme_analysis::egg::{
    egg_classification, egg_diagnostics, egg_explanation, set_egg_workspace,
};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};

use support::check_json;

#[test]
fn every_fixture_gets_exactly_its_annotated_diagnostics_at_their_ranges() {
    let root = support::project_root();
    let fixtures = support::files_with_extensions(&root.join("tests/fixtures/egg"), &["egg"]);
    assert!(fixtures.len() >= 10);
    let outputs = support::assert_fixtures_match_annotations(
        &fixtures,
        |text| support::annotated_ranges(text, "#"),
        ludeme_analysis::egg::rules().map(|rule| rule.code),
    );
    for (name, output) in outputs {
        insta::assert_snapshot!(name, output);
    }
}

/// The seed's examples lower without errors. What remains are warnings that are true of the
/// transcriptions: the paper prints only the hexagonal board's three statements (no players, no
/// goal) and the first three of Mammon's 63 (no goal); and the information that the games other
/// than rock-paper-scissors and tic-tac-toe are outside the EGGG engine's core.
#[test]
fn the_seeds_games_lower_without_errors() {
    let root = support::project_root();
    let mut found: Vec<(String, String)> = check_json(&root.join("corpus/egg"))
        .iter()
        .map(|d| {
            let file = Path::new(d["file"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (
                file,
                format!(
                    "{}: {}",
                    d["severity"].as_str().unwrap(),
                    d["code"].as_str().unwrap()
                ),
            )
        })
        .collect();
    found.sort();
    let expected = [
        ("bounce-fast.egg", "info: egg/not-executable"),
        ("bounce-tris.egg", "info: egg/not-executable"),
        ("deducto.egg", "info: egg/not-executable"),
        ("hexagon-board.egg", "warning: egg/missing-goal"),
        ("hexagon-board.egg", "warning: egg/missing-players"),
        ("mammon.egg", "warning: egg/missing-goal"),
        ("poker.egg", "info: egg/not-executable"),
        ("pong.egg", "info: egg/not-executable"),
        ("side-tetris.egg", "info: egg/not-executable"),
        ("square-bounce.egg", "info: egg/not-executable"),
        ("tetris.egg", "info: egg/not-executable"),
        ("two-player-tetris.egg", "info: egg/not-executable"),
    ]
    .map(|(file, code)| (file.to_owned(), code.to_owned()));
    assert_eq!(found, expected);
    assert_eq!(
        support::files_with_extensions(&root.join("corpus/egg"), &["egg"]).len(),
        13,
        "the seed's thirteen EGGG games"
    );
}

/// A file checked on its own still finds its bases: beside it, and in the project's corpus. (The
/// one diagnostic left says that Tetris's moves, inherited, are outside the engine's core: a
/// base that was not found would give a warning instead.)
#[test]
fn a_variation_checked_alone_finds_its_bases() {
    let codes = |path: &Path| -> Vec<String> {
        check_json(path)
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    let root = support::project_root();
    let pong = root.join("corpus/egg/pong.egg");
    assert_eq!(codes(&pong), ["egg/not-executable"]);
    // From a folder of its own, a variation of a corpus game finds the corpus through the
    // nearest ancestor with a `corpus/egg`: a copy of the project's, in a temporary project
    // (the system's temporary folder, never a path under the repository or its `target`).
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus/egg");
    std::fs::create_dir_all(&corpus).unwrap();
    for game in support::files_with_extensions(&root.join("corpus/egg"), &["egg"]) {
        std::fs::copy(&game, corpus.join(game.file_name().unwrap())).unwrap();
    }
    let folder = dir.path().join("variations");
    std::fs::create_dir(&folder).unwrap();
    let variation = folder.join("fast-pong.egg");
    std::fs::write(&variation, "FastPong is like Pong\nspeed doubles\n").unwrap();
    assert_eq!(codes(&variation), ["egg/not-executable"]);
}

#[test]
fn every_egg_code_has_a_long_explanation() {
    for rule in ludeme_analysis::egg::rules() {
        let output = support::ludeme(&["explain", rule.code]);
        assert_eq!(output.status.code(), Some(0), "{}", rule.code);
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(
            text.starts_with(rule.code) && text.contains("Fix:"),
            "{text}"
        );
    }
}

/// EGGG-like text: statement words, values, connectives, continuation lines.
fn egg_like_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "game",
        "is",
        "are",
        "means",
        "like",
        "players",
        "player",
        "turns",
        "alternate",
        "synchronize",
        "move",
        "choose",
        "pieces",
        "board",
        "starts",
        "goal",
        "highest(hand)",
        "Beat",
        "opponent(Rock)",
        "player(Rock)",
        "Rock",
        "and",
        "or",
        "if",
        "assert",
        "V:",
        "6..2",
        "2..6",
        "3 × 3",
        "grid",
        "[",
        "]",
        "(R, S)",
        "(R-1, s)",
        "(",
        ")",
        ",",
        "5-N",
        "hand",
        "five",
        "cards",
        "score",
        "increments",
        "ends",
        "port",
        "10900",
        "\n",
        "\n  ",
        " ",
        "#",
        "x",
        "Tot++;",
        "\"",
        "é",
    ]);
    prop::collection::vec(pieces.prop_map(|p| format!("{p} ")), 0..60)
        .prop_map(|parts| parts.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// Any text, as a game and as the base of another, lowers, checks, explains and classifies
    /// without panicking, with every range inside its file.
    #[test]
    fn egg_like_text_never_panics(base in egg_like_text(), variation in egg_like_text()) {
        let mut db = RootDatabase::default();
        let base = new_file(&db, "w/base.egg", format!("game is base\n{base}"));
        let variation = format!("Variation is like Base\n{variation}");
        let variation = new_file(&db, "w/variation.egg", variation);
        set_egg_workspace(&mut db, vec![base, variation]);
        for file in [base, variation] {
            let length = file.text(&db).len();
            for diagnostic in egg_diagnostics(&db, file) {
                proptest::prop_assert!(diagnostic.range.end <= length);
            }
            let explanation = egg_explanation(&db, file);
            for sentence in explanation.sections.iter().flat_map(|s| &s.sentences) {
                for origin in &sentence.origins {
                    proptest::prop_assert!(origin.range.end <= origin.file.text(&db).len());
                }
            }
            proptest::prop_assert_eq!(egg_classification(&db, file).attributes.len(), 12);
        }
    }
}

fn new_file(db: &RootDatabase, path: &str, text: String) -> SourceFile {
    SourceFile::new(db, path.into(), Syntax::Egg, Arc::from(text), None)
}

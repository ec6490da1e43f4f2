//! `ludeme explain FILE.ludi`: Ludi games as rules sheets. Every game of `corpus/ludi` is
//! snapshotted (each snapshot read against the seed's rules), the seed's games are checked for
//! the sentences that state their rules, and a game using every ludeme of the schema renders
//! each of them.

mod support;

use std::sync::Arc;

use ludeme_analysis::ludi::schema::LUDEMES;
use ludeme_analysis::ludi::{ludi_explanation, ludi_tree};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};

use support::{explain, ludeme};

/// The sheet's sentences, one per line, without bullets and wrapping.
fn sentences(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(support::project_root().join(path)).unwrap();
    let db = RootDatabase::default();
    let file = SourceFile::new(
        &db,
        path.into(),
        Syntax::Ludi,
        Arc::from(text.as_str()),
        None,
    );
    ludi_explanation(&db, file)
        .sentences
        .iter()
        .map(|s| s.text.clone())
        .collect()
}

#[test]
fn every_corpus_game_in_english() {
    let root = support::project_root();
    for game in support::files_with_extensions(&root.join("corpus/ludi"), &["ludi"]) {
        let relative = game
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let name = relative.replace(['/', '.'], "_");
        insta::assert_snapshot!(name, explain(&relative));
    }
}

#[test]
fn tic_tac_toe_says_the_seeds_rules() {
    // Section III-A: "played between White and Black on a 3 × 3 square grid with orthogonal
    // and diagonal adjacency, and is won by the player to make a line of three pieces of their
    // color"; "players take turns placing a piece of their color on an empty board cell".
    assert_eq!(
        sentences("corpus/ludi/tic-tac-toe.ludi"),
        [
            "White and Black play on a 3×3 square board, with diagonal adjacency.",
            "Players take turns, White first, placing a piece of their colour on an empty cell.",
            "A player wins by making a line of 3.",
        ]
    );
}

#[test]
fn yavalath_wins_by_four_and_loses_by_three() {
    assert_eq!(
        sentences("corpus/ludi/yavalath.ludi"),
        [
            "White and Black play on a hexagonal board of side 5.",
            "Players take turns, White first, placing a piece of their colour on an empty cell.",
            "A player wins by making a line of 4.",
            "A player loses by making a line of 3 and not making a line of 4.",
        ]
    );
}

#[test]
fn end_clauses_are_never_run_together() {
    // Valion has two end clauses: two sentences, one per clause.
    let valion = sentences("corpus/ludi/valion.ludi");
    assert!(
        valion.contains(&"A player wins by making a line of 3.".to_owned()),
        "{valion:#?}"
    );
    assert!(
        valion.contains(&"A player loses by making a line of 4 or forming a connected group of all their pieces.".to_owned()),
        "{valion:#?}"
    );
}

#[test]
fn gorodruir_moves_read_as_its_rules() {
    let text = sentences("corpus/ludi/gorodruir.ludi").join("\n");
    for expected in [
        "A move with a stone: put the piece on the destination, when the destination is empty.",
        "the piece's state plus 1 equals the distance from the origin to the destination; then add 1 to the piece's state.",
        "Each player's stones in hand at the start: 5.",
        "A player loses by having no move on their turn.",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn every_ludeme_of_the_schema_has_a_rendering() {
    // The `every-*.ludi` fixtures (one board each) use every entry of the schema between them...
    let root = support::project_root();
    let fixtures: Vec<_> =
        support::files_with_extensions(&root.join("tests/fixtures/ludi"), &["ludi"])
            .into_iter()
            .filter(|path| {
                path.file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with("every-")
            })
            .collect();
    let mut used = vec![false; LUDEMES.len()];
    for path in &fixtures {
        let text = std::fs::read_to_string(path).unwrap();
        let db = RootDatabase::default();
        let file = SourceFile::new(
            &db,
            path.clone(),
            Syntax::Ludi,
            Arc::from(text.as_str()),
            None,
        );
        if let Some(game) = &ludi_tree(&db, file).game {
            game.walk(&mut |node| used[node.entry] = true);
        }
        // ... and their English has no template left unfilled.
        let relative = path
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let sheet = explain(&relative);
        assert!(!sheet.contains(['{', '}', '[', ']']), "{sheet}");
        insta::assert_snapshot!(relative.replace(['/', '.'], "_"), sheet);
    }
    let unused: Vec<_> = LUDEMES
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|(l, _)| (l.name, l.kind))
        .collect();
    assert!(unused.is_empty(), "no every-*.ludi fixture uses {unused:?}");
}

#[test]
fn json_gives_sentences_with_ranges() {
    let output = ludeme(&[
        "explain",
        "--literal",
        "--format",
        "json",
        "corpus/ludi/yavalath.ludi",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["title"], "Yavalath");
    let last = &json["sentences"][3];
    assert_eq!(
        last["text"],
        "A player loses by making a line of 3 and not making a line of 4."
    );
    // The clause `(All lose (and ...))` is on line 9 of the file (after three comment lines).
    assert_eq!(last["ranges"][0]["start"]["line"], 9);
}

#[test]
fn a_file_without_a_game_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.ludi");
    std::fs::write(&path, "; only a comment\n(players White Black)\n").unwrap();
    let output = ludeme(&["explain", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("no `(game NAME ...)` to explain"),
        "{stderr}"
    );
}

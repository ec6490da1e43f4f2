//! `ludeme explain FILE.egg`: EGGG games as instructions. Poker, rock-paper-scissors and
//! tic-tac-toe are snapshotted (each snapshot read as instructions a player could follow), and
//! so is Pong, whose rules come through five variations from Tetris. The sentences the seed
//! itself gives are checked word for word.

mod support;

use std::path::PathBuf;
use std::sync::Arc;

use ludeme_analysis::egg::model::{Players, StatementKind};
use ludeme_analysis::egg::{egg_explanation, egg_file, egg_game, egg_lineage, load_egg_workspace};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use serde_json::Value;

use support::{explain, ludeme};

/// Every sentence of the instructions of `text`, a game on its own.
fn sentences(text: &str) -> Vec<String> {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, "game.egg".into(), Syntax::Egg, Arc::from(text), None);
    egg_explanation(&db, file)
        .sections
        .iter()
        .flat_map(|section| section.sentences.iter().map(|s| s.text.clone()))
        .collect()
}

#[test]
fn poker_in_english() {
    insta::assert_snapshot!(explain("corpus/egg/poker.egg"));
}

#[test]
fn rock_paper_scissors_in_english() {
    insta::assert_snapshot!(explain("corpus/egg/rock-paper-scissors.egg"));
}

#[test]
fn tic_tac_toe_in_english() {
    insta::assert_snapshot!(explain("corpus/egg/tic-tac-toe.egg"));
}

#[test]
fn pong_in_english_through_its_bases() {
    insta::assert_snapshot!(explain("corpus/egg/pong.egg"));
}

#[test]
fn the_seeds_own_sentence_ignores_the_order_of_names() {
    // The seed: "players are white and black is interpreted identically to players are black
    // and white ... this line would be translated into the English sentence 'The two players
    // are black and white'".
    for text in [
        "players are white and black\n",
        "Players are Black and White\n",
    ] {
        let first = sentences(text).into_iter().next().unwrap();
        assert_eq!(first.to_lowercase(), "the two players are black and white.");
    }
}

#[test]
fn every_statement_kind_has_a_sentence() {
    let text = "\
game is sampler
networked multiplayer text game
port 10900
2..4 players
board is hexagon
squares are hexagons
5 × 5 grid
board starts [[A, B]]
pieces are A and B
turns alternate clockwise
move is place
game is Shuffle(deck) and Deal(cards, 5)
Tester(1) is Tot++ if grid[x][y]; return Tot > 12
Win means three pieces in a row
goal is Win
score increments
game ends if board is full
pieces fall from top to bottom
assert Vote: lastmove(\"Understand\")
hand is five cards
hands are [Pair]
Pair is (R, s) and (R, s)
";
    let all = sentences(text);
    let said = |fragment: &str| {
        assert!(
            all.iter().any(|s| s.contains(fragment)),
            "no sentence says {fragment:?}: {all:#?}"
        );
    };
    said("Sampler is a networked multiplayer text game, served on port 10900.");
    said("Sampler is played by two to four players.");
    said("The board is a hexagon divided into a 5 × 5 grid of hexagons");
    said("At the start, the board holds A and B");
    said("The pieces are A and B.");
    said("Players take turns in clockwise order.");
    said("On your turn, place a piece on an empty square.");
    said("1. Shuffle the deck.");
    said("2. Deal 5 cards to each player.");
    said("Tester(1) is computed by code");
    said("The goal is Win: three pieces in a row.");
    said("Each time you reach the goal, your score goes up by one.");
    said("The game ends when board is full.");
    said("Pieces fall from top to bottom.");
    said("Vote works only when the last move was “Understand”.");
    said("A hand is five cards.");
    said("The kinds of hand are pair.");
    said("A pair is two cards of the same rank.");
}

/// The paper's chain: "SideTetris is like Tetris", "TwoPlayerTetris is like SideTetris", ...,
/// "Pong is like SquareBounce". Each file says what changed; the later statement wins.
#[test]
fn the_tetris_to_pong_chain_resolves_through_its_files() {
    let root = support::project_root();
    let mut db = RootDatabase::default();
    let pong_path: PathBuf = root.join("corpus/egg/pong.egg");
    let pong = load_egg_workspace(&mut db, std::slice::from_ref(&pong_path))[&pong_path];
    let lineage = egg_lineage(&db, pong);
    assert!(lineage.is_complete());
    let names: Vec<&str> = lineage.links.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Pong",
            "SquareBounce",
            "BounceFast",
            "BounceTris",
            "TwoPlayerTetris",
            "SideTetris",
            "Tetris"
        ]
    );
    let files: Vec<String> = lineage
        .links
        .iter()
        .map(|l| {
            l.file
                .path(&db)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        files,
        [
            "pong.egg",
            "square-bounce.egg",
            "bounce-fast.egg",
            "bounce-tris.egg",
            "two-player-tetris.egg",
            "side-tetris.egg",
            "tetris.egg"
        ]
    );
    let game = egg_game(&db, pong);
    // TwoPlayerTetris: "changed from one player to two" (over Tetris's `1 player`).
    assert!(matches!(
        game.players.as_ref().map(|p| &p.value),
        Some(Players::Count { min: 2, max: 2, .. })
    ));
    // SquareBounce: "The pieces were all made square" (over Tetris's seven pieces).
    let pieces: Vec<&str> = game
        .pieces
        .as_ref()
        .unwrap()
        .value
        .iter()
        .map(|p| p.text.as_str())
        .collect();
    assert_eq!(pieces, ["Square"]);
    // SideTetris: "pieces went from left to right instead of from top to bottom".
    let rules: Vec<String> = game.rules.iter().map(|r| r.value.key.clone()).collect();
    assert_eq!(rules.iter().filter(|k| *k == "piece fall").count(), 1);
    let fall = game
        .rules
        .iter()
        .find(|r| r.value.key == "piece fall")
        .unwrap();
    assert_eq!(
        fall.origin.file.path(&db).file_name().unwrap(),
        "side-tetris.egg"
    );
    // Tetris's board and goal come through unchanged.
    assert_eq!(game.grid.as_ref().unwrap().value, [10, 20]);
    assert_eq!(
        game.goal
            .as_ref()
            .unwrap()
            .origin
            .file
            .path(&db)
            .file_name()
            .unwrap(),
        "tetris.egg"
    );
}

#[test]
fn json_gives_sentences_with_the_files_they_come_from() {
    let output = ludeme(&[
        "explain",
        "--literal",
        "--format",
        "json",
        "corpus/egg/side-tetris.egg",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["title"], "Side Tetris");
    let origins: Vec<&Value> = json["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["sentences"].as_array().unwrap())
        .flat_map(|s| s["origins"].as_array().unwrap())
        .collect();
    let from = |name: &str| {
        origins
            .iter()
            .any(|o| o["file"].as_str().unwrap().ends_with(name))
    };
    assert!(
        from("side-tetris.egg") && from("/tetris.egg"),
        "{origins:#?}"
    );
    // `pieces fall from left to right` is line 7 of side-tetris.egg.
    assert!(
        origins
            .iter()
            .any(|o| o["file"].as_str().unwrap().ends_with("side-tetris.egg")
                && o["range"]["start"]["line"] == 7)
    );
    assert_eq!(json["classification"].as_array().unwrap().len(), 12);
}

/// Every statement of every EGGG game of `corpus/` is in the literal level: some sentence of
/// the instructions renders it (its origins hold the statement's range in the game's own file),
/// or, for `game is NAME`, the title is the name.
#[test]
fn every_corpus_statement_is_in_the_literal_level() {
    let root = support::project_root();
    let paths = support::files_with_extensions(&root.join("corpus/egg"), &["egg"]);
    assert!(paths.len() >= 10, "{paths:?}");
    let mut db = RootDatabase::default();
    let files = load_egg_workspace(&mut db, &paths);
    let mut missing = Vec::new();
    for path in &paths {
        let file = files[path];
        let sheet = egg_explanation(&db, file);
        let origins: Vec<_> = sheet
            .sections
            .iter()
            .flat_map(|section| &section.sentences)
            .flat_map(|sentence| &sentence.origins)
            .filter(|origin| origin.file == file)
            .collect();
        let text = file.text(&db);
        for statement in &egg_file(&db, file).statements {
            let range = statement.range;
            // `game is poker` is the title.
            if let StatementKind::GameName(name) = &statement.kind
                && sheet.title.to_lowercase() == name.text.to_lowercase()
            {
                continue;
            }
            if !origins
                .iter()
                .any(|o| o.range.start <= range.start && range.end <= o.range.end)
            {
                missing.push(format!(
                    "{}: `{}` is in no sentence",
                    path.display(),
                    &text[range.start..range.end]
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

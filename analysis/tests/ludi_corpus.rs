//! Conformance of `corpus/ludi/` (issue 5, item 6): at least 40 games, each headed by a comment
//! naming the game and where its rules come from, each lowered to an engine game whose random
//! playouts end within the seed's 120-move limit; and the games that cannot be drawn by their
//! rules are never drawn. That each is free of error diagnostics (`ludeme check`) is the root
//! `tests/ludi_corpus.rs`.

mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::ludi::ludi_game;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use ludeme_engine::Game;
use ludeme_engine::ludi::{LudiGame, MAX_LENGTH};
use ludeme_engine::playout::{PlayoutEnd, random_playout, random_playouts};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn corpus_games() -> Vec<PathBuf> {
    let folder = support::project_root().join("corpus/ludi");
    support::files_with_extensions(&folder, &["ludi"])
        .into_iter()
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !support::LUDI_DELIBERATELY_DAMAGED.contains(&name)
        })
        .collect()
}

fn source(db: &RootDatabase, path: &Path) -> SourceFile {
    let text = std::fs::read_to_string(path).expect("readable");
    SourceFile::new(db, path.to_path_buf(), Syntax::Ludi, Arc::from(text), None)
}

fn load(path: &Path) -> LudiGame {
    let db = RootDatabase::default();
    ludi_engine_for(&db, source(&db, path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_corpus_has_at_least_forty_games() {
    let games = corpus_games();
    assert!(games.len() >= 40, "{} games in corpus/ludi", games.len());
}

#[test]
fn every_game_says_what_it_is_and_where_its_rules_come_from() {
    for path in corpus_games() {
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = text
            .lines()
            .take_while(|line| line.starts_with(';'))
            .collect();
        assert!(
            header.len() >= 2,
            "{}: no comment header before the game",
            path.display()
        );
        // The header's words, as one line: its sentences wrap over comment lines.
        let header: Vec<&str> = header
            .iter()
            .flat_map(|line| line.trim_start_matches(';').split_whitespace())
            .collect();
        let header = header.join(" ");
        assert!(
            header.contains("Browne & Maire")
                || header.contains("Transcribed for this project")
                || header.contains("Written for this project"),
            "{}: the header does not say where the rules come from",
            path.display()
        );
    }
}

#[test]
fn every_game_lowers_and_plays_to_an_end_within_the_move_limit() {
    let mut rng = SmallRng::seed_from_u64(40);
    for path in corpus_games() {
        let db = RootDatabase::default();
        let file = source(&db, &path);
        let game = ludi_game(&db, file)
            .as_ref()
            .unwrap_or_else(|| panic!("{} lowers", path.display()));
        let engine =
            ludi_engine_for(&db, file).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            engine.roles().len(),
            game.players.len(),
            "{}",
            path.display()
        );
        for _ in 0..10 {
            // A limit far beyond the rule's: the game itself must stop at 120 moves.
            let playout = random_playout(&engine, &engine.initial_state(), &mut rng, 10_000);
            assert_eq!(playout.end, PlayoutEnd::Terminal, "{}", path.display());
            assert!(
                playout.plies <= usize::from(MAX_LENGTH),
                "{}: {} plies",
                path.display(),
                playout.plies
            );
        }
    }
}

/// Games whose rules leave no room for a draw, and why: every completed random game has a
/// winner. (Hex and its misère Rex on 11×11 are not here: their 121 cells exceed the 120-move
/// limit, after which the seed calls the game drawn.)
#[test]
fn games_that_cannot_be_drawn_never_are() {
    let never_drawn = [
        // A full Hex board always holds exactly one winning chain (the Hex theorem), and 49
        // or 81 cells fill within 120 moves.
        "hex-7x7.ludi",
        "hex-9x9.ludi",
        // Likewise a full Y board (45 cells) holds a chain of exactly one player joining all
        // three sides.
        "y.ludi",
        "y-misere.ludi",
        // Every Clobber move removes a stone, so the game ends by a player having no move,
        // who loses.
        "clobber.ludi",
        // Hexapawn: a player who cannot move loses, and pawns only advance.
        "hexapawn.ludi",
    ];
    let folder = support::project_root().join("corpus/ludi");
    for name in never_drawn {
        let game = load(&folder.join(name));
        let mut rng = SmallRng::seed_from_u64(7);
        let stats = random_playouts(&game, &mut rng, 300, 1_000);
        assert_eq!(stats.completed, 300, "{name}");
        for role in 0..game.roles().len() {
            assert_eq!(stats.frequency(role, 50), 0.0, "{name}: a draw");
        }
    }
}

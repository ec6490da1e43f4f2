//! A probe stops when asked: its stop flag ends the move being searched and the game under
//! way, and the games finished by then are measured (what a Ctrl-C or an editor's request
//! relies on).

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use ludeme_engine::ludi::LudiGame;
use ludeme_engine::players::Heuristic;
use ludeme_engine::probe::{ProbeSettings, probe};
use ludeme_engine::{Reward, RoleIndex};

fn tic_tac_toe() -> LudiGame {
    let path = support::project_root().join("corpus/ludi/tic-tac-toe.ludi");
    let text = std::fs::read_to_string(&path).expect("readable");
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path, Syntax::Ludi, Arc::from(text), None);
    ludi_engine_for(&db, file).unwrap_or_else(|e| panic!("{e}"))
}

/// Knows nothing of the game, and raises the stop flag at its `stop_after`th look at a position:
/// the flag goes up in the middle of a search, at the same point in every run.
struct RaisesTheFlag {
    looks: AtomicUsize,
    stop_after: usize,
    flag: Arc<AtomicBool>,
}

impl Heuristic<LudiGame> for RaisesTheFlag {
    fn value(
        &self,
        _game: &LudiGame,
        _state: &<LudiGame as ludeme_engine::Game>::State,
        _role: RoleIndex,
    ) -> Reward {
        if self.looks.fetch_add(1, Ordering::Relaxed) + 1 == self.stop_after {
            self.flag.store(true, Ordering::Relaxed);
        }
        50
    }
}

fn settings(flag: &Arc<AtomicBool>) -> ProbeSettings {
    ProbeSettings {
        games: 20,
        nodes_per_move: 50,
        stop: Some(Arc::clone(flag)),
        ..ProbeSettings::default()
    }
}

#[test]
fn a_probe_stopped_before_it_starts_plays_no_game() {
    let flag = Arc::new(AtomicBool::new(true));
    let heuristic = RaisesTheFlag {
        looks: AtomicUsize::new(0),
        stop_after: usize::MAX,
        flag: Arc::clone(&flag),
    };
    let report = probe(&tic_tac_toe(), &heuristic, &settings(&flag));
    assert_eq!(report.games, 0);
    assert_eq!(
        heuristic.looks.load(Ordering::Relaxed),
        0,
        "no position was searched"
    );
}

#[test]
fn a_probe_stopped_mid_search_keeps_the_games_finished_and_searches_no_further() {
    let game = tic_tac_toe();
    // How many looks the whole probe takes when nothing stops it.
    let never = Arc::new(AtomicBool::new(false));
    let counting = RaisesTheFlag {
        looks: AtomicUsize::new(0),
        stop_after: usize::MAX,
        flag: Arc::clone(&never),
    };
    let whole = probe(&game, &counting, &settings(&never));
    assert_eq!(whole.games, 20);
    let all_looks = counting.looks.load(Ordering::Relaxed);

    let flag = Arc::new(AtomicBool::new(false));
    let stopping = RaisesTheFlag {
        looks: AtomicUsize::new(0),
        stop_after: all_looks / 2,
        flag: Arc::clone(&flag),
    };
    let report = probe(&game, &stopping, &settings(&flag));
    assert!(
        report.games > 0 && report.games < 20,
        "stopped half-way: {} games",
        report.games
    );
    // The search that saw the flag go up ended at its next state: a few looks more, not the
    // rest of the probe.
    let looks = stopping.looks.load(Ordering::Relaxed);
    assert!(
        looks < all_looks / 2 + 10,
        "{looks} looks after the stop at {} (a whole probe: {all_looks})",
        all_looks / 2
    );
}

//! `ludeme probe`: the seed's judgements of its own games, by self-play between search players.

mod support;

use serde_json::Value;
use support::ludeme;

fn probe(game: &str, games: &str) -> Value {
    let path = support::project_root().join("corpus/ludi").join(game);
    let path = path.to_str().expect("a UTF-8 path");
    let output = ludeme(&["probe", path, "--games", games, "--format", "json"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

fn reasons(report: &Value) -> String {
    report["reasons"].to_string()
}

#[test]
fn the_report_has_the_documented_keys() {
    let report = probe("tic-tac-toe.ludi", "4");
    for key in [
        "games",
        "completion",
        "drawishness",
        "timeouts",
        "balance",
        "first_move_advantage",
        "avg_length",
        "viable",
        "reasons",
        "drama",
        "uncertainty",
        "lead_change",
        "decisiveness",
        "branching_factor",
        "length_spread",
    ] {
        assert!(report.get(key).is_some(), "{key} in {report}");
    }
    assert_eq!(report["games"], 4);
}

/// Tic-Tac-Toe is a draw with correct play, and the search players play it correctly.
#[test]
fn tic_tac_toe_between_search_players_is_drawish() {
    let report = probe("tic-tac-toe.ludi", "20");
    assert_eq!(report["viable"], false);
    assert!(report["drawishness"].as_f64().expect("number") > 0.5);
    assert!(reasons(&report).contains("draws"), "{report}");
}

/// No line of three fits on a 2×2 board.
#[test]
fn a_two_by_two_board_never_produces_a_winner() {
    let report = probe("tic-tac-toe-2x2.ludi", "10");
    assert_eq!(report["completion"], 0.0);
    assert_eq!(report["viable"], false);
}

/// Two in a row: the first player's second stone always has a free neighbour of the first.
#[test]
fn two_in_a_row_is_trivially_won_by_the_first_player() {
    let report = probe("tic-tac-toe-in-a-row-2.ludi", "20");
    assert_eq!(report["first_move_advantage"], 1.0);
    assert_eq!(report["avg_length"], 3.0);
    assert_eq!(report["viable"], false);
    assert!(reasons(&report).contains("first player"), "{report}");
}

#[test]
fn yavalath_is_viable() {
    let report = probe("yavalath.ludi", "100");
    assert_eq!(report["viable"], true, "{report}");
    assert_eq!(report["games"], 100);
}

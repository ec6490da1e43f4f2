//! `ludeme play`: matches between the players on the project's tic-tac-toe.

mod support;

use serde_json::Value;

use support::ludeme;

fn play_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["play", "corpus/gdl/ticTacToe.kif", "--format", "json"];
    all.extend_from_slice(args);
    let output = ludeme(&all);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let report = serde_json::from_str(&stdout).unwrap_or_else(|error| {
        panic!(
            "JSON output ({error}): {stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().expect("exited"), report)
}

#[test]
fn alpha_beta_never_loses_tic_tac_toe_to_random() {
    let (status, report) = play_json(&[
        "--player",
        "alphabeta",
        "--player",
        "random",
        "--games",
        "6",
        "--move-seconds",
        "30",
    ]);
    assert_eq!(status, 0);
    let alpha_beta = &report["players"][0];
    assert_eq!(alpha_beta["name"], "alphabeta");
    assert_eq!(alpha_beta["losses"], 0);
    assert_eq!(alpha_beta["unfinished"], 0);
    let games = alpha_beta["wins"].as_u64().unwrap() + alpha_beta["draws"].as_u64().unwrap();
    assert_eq!(games, 6);
    // The players took turns at both roles.
    let matches = report["matches"].as_array().unwrap();
    assert_eq!(
        matches[0]["players"],
        serde_json::json!(["alphabeta", "random"])
    );
    assert_eq!(
        matches[1]["players"],
        serde_json::json!(["random", "alphabeta"])
    );
}

#[test]
fn alpha_beta_against_itself_draws_tic_tac_toe() {
    let (status, report) = play_json(&[
        "--player",
        "alphabeta",
        "--player",
        "iterative",
        "--games",
        "2",
        "--move-seconds",
        "30",
    ]);
    assert_eq!(status, 0);
    for player in report["players"].as_array().unwrap() {
        assert_eq!(player["draws"], 2, "{player}");
        assert_eq!(player["average_goal"], 50.0);
    }
}

#[test]
fn a_node_budget_makes_mcts_games_repeatable() {
    let args = [
        "--games",
        "2",
        "--move-nodes",
        "200",
        "--move-seconds",
        "60",
        "--seed",
        "9",
    ];
    let (_, first) = play_json(&args);
    let (_, second) = play_json(&args);
    assert_eq!(first["matches"], second["matches"]);
    // Unnamed seats are played by random.
    assert_eq!(first["players"][1]["name"], "random");
}

#[test]
fn bad_players_and_clocks_are_usage_errors() {
    for args in [
        &["--player", "deep-blue"][..],
        &["--player", "mcts", "--player", "mcts", "--player", "mcts"],
        &["--move-seconds", "0"],
        &["--move-seconds", "-1"],
    ] {
        let mut all = vec!["play", "corpus/gdl/ticTacToe.kif"];
        all.extend_from_slice(args);
        let output = ludeme(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
}

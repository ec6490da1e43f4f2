//! `ludeme bench` and `ludeme probe` run EGGG games through the binary, and refuse a game outside
//! the engine's core naming the statement. The EGGG engine itself (the odds of random play, the
//! refusals, the property test) is tested in `analysis/tests/egg_engine.rs`.

mod support;

use serde_json::Value;
use support::random_tic_tac_toe::X_WINS;

fn run_json(args: &[&str]) -> Value {
    let output = support::ludeme(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

#[test]
fn bench_runs_eggg_games_through_the_binary() {
    let report = run_json(&[
        "bench",
        "corpus/egg/tic-tac-toe.egg",
        "--seconds",
        "0.5",
        "--format",
        "json",
    ]);
    assert_eq!(report["engine"], "eggg");
    assert!(report["playouts"].as_u64().unwrap() > 1_000);
    let plies = report["avg_plies"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&plies), "{plies}");
    let x = report["outcomes"]["x"]["100"].as_f64().unwrap();
    assert!((x - X_WINS).abs() < 0.05, "{report}");

    let report = run_json(&[
        "bench",
        "corpus/egg/rock-paper-scissors.egg",
        "--seconds",
        "0.2",
        "--format",
        "json",
    ]);
    assert_eq!(report["avg_plies"], 1.0);
    let draws = report["outcomes"]["player"]["50"].as_f64().unwrap();
    assert!((draws - 1.0 / 3.0).abs() < 0.05, "{report}");
}

#[test]
fn bench_refuses_a_game_outside_the_core_and_names_the_statement() {
    let output = support::ludeme(&["bench", "corpus/egg/tetris.egg", "--seconds", "0.1"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`move is rotate or shift`"), "{stderr}");
}

/// Tic-tac-toe is a draw with correct play, and the search players play it correctly: from the
/// start (no random opening, which can hand a game away) every game is drawn.
#[test]
fn probe_runs_eggg_games_through_the_binary() {
    let report = run_json(&[
        "probe",
        "corpus/egg/tic-tac-toe.egg",
        "--games",
        "10",
        "--random-plies",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(report["games"], 10);
    assert_eq!(report["viable"], false, "{report}");
    assert_eq!(report["drawishness"].as_f64(), Some(1.0), "{report}");

    let report = run_json(&[
        "probe",
        "corpus/egg/rock-paper-scissors.egg",
        "--games",
        "10",
        "--format",
        "json",
    ]);
    assert_eq!(report["games"], 10);
    assert_eq!(report["avg_length"], 1.0, "{report}");
}

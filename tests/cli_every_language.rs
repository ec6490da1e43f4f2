//! Every command that takes a game takes it in every language the analyses and engines support:
//! `fmt`, `play`, `probe`, `bench`, `explain` and `nearest` accept a `.ludi` game and a playable
//! `.egg` game as they accept a `.kif` one, and say in one line why a game cannot be played.

mod support;

use std::process::Output;

use support::ludeme;

const KIF: &str = "corpus/gdl/ticTacToe.kif";
const LUDI: &str = "corpus/ludi/tic-tac-toe.ludi";
const EGG: &str = "corpus/egg/tic-tac-toe.egg";
/// An EGGG game whose moves the EGGG engine cannot make (`move is rotate or shift`).
const UNPLAYABLE_EGG: &str = "corpus/egg/tetris.egg";

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn succeeds(args: &[&str]) -> String {
    let output = ludeme(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "ludeme {}: {}",
        args.join(" "),
        stderr(&output)
    );
    stdout(&output)
}

#[test]
fn bench_plays_random_tic_tac_toe_in_every_language() {
    for (game, engine) in [(KIF, "grounded"), (LUDI, "ludi"), (EGG, "eggg")] {
        let report: serde_json::Value = serde_json::from_str(&succeeds(&[
            "bench",
            game,
            "--seconds",
            "0.3",
            "--format",
            "json",
        ]))
        .expect("a JSON report");
        assert_eq!(report["engine"], engine, "{game}: {report}");
        assert!(
            report["playouts"].as_u64().unwrap() > 100,
            "{game}: {report}"
        );
        // Uniformly random tic-tac-toe lasts 3203/420 ≈ 7.63 plies (see support).
        let plies = report["avg_plies"].as_f64().unwrap();
        assert!((plies - 7.626).abs() < 0.3, "{game}: {plies} plies");
    }
}

#[test]
fn play_runs_matches_in_every_language() {
    for game in [KIF, LUDI, EGG] {
        let report: serde_json::Value = serde_json::from_str(&succeeds(&[
            "play", game, "--player", "random", "--player", "legal", "--games", "2", "--format",
            "json",
        ]))
        .expect("a JSON report");
        let matches = report["matches"].as_array().expect("matches");
        assert_eq!(matches.len(), 2, "{game}: {report}");
        // Tic-tac-toe ends within nine plies, with a goal for each role.
        for played in matches {
            assert!(played["plies"].as_u64().unwrap() <= 9, "{game}: {played}");
            assert_eq!(played["goals"].as_array().map(Vec::len), Some(2), "{game}");
        }
    }
}

#[test]
fn probe_judges_every_language() {
    for game in [KIF, LUDI, EGG] {
        let report: serde_json::Value = serde_json::from_str(&succeeds(&[
            "probe", game, "--games", "4", "--format", "json",
        ]))
        .expect("a JSON report");
        assert_eq!(report["games"], 4, "{game}: {report}");
        // Searching players draw tic-tac-toe: the probe finds it drawish, hence not viable.
        assert_eq!(report["viable"], false, "{game}: {report}");
    }
}

#[test]
fn explain_reads_every_language_back() {
    assert!(succeeds(&["explain", KIF]).contains("xplayer"));
    assert!(succeeds(&["explain", LUDI]).contains("3×3"));
    assert!(
        succeeds(&["explain", EGG])
            .to_lowercase()
            .contains("tic-tac-toe")
    );
}

#[test]
fn nearest_compares_with_the_games_beside_by_default() {
    // No `--corpus`: the games of the game's project (its own folder, without a ludeme.toml).
    let ludi = succeeds(&["nearest", LUDI, "-n", "2"]);
    assert!(ludi.contains("Tic-Tac-Toe-"), "{ludi}");
    let egg = succeeds(&["nearest", EGG, "-n", "2"]);
    assert!(egg.lines().count() == 3, "{egg}");
    let kif = succeeds(&["nearest", KIF, "-n", "1"]);
    assert!(kif.contains("ticTacToe.hrf"), "{kif}");
}

#[test]
fn fmt_formats_every_language() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for game in [KIF, LUDI, EGG] {
        let name = std::path::Path::new(game).file_name().unwrap();
        std::fs::copy(support::project_root().join(game), dir.path().join(name)).unwrap();
    }
    let output = support::ludeme_in(&["fmt", "."], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let again = support::ludeme_in(&["fmt", "--check", "."], dir.path());
    assert_eq!(again.status.code(), Some(0), "{}", stdout(&again));
    assert!(
        stderr(&again).contains("0 files would change, 3 unchanged"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn an_unplayable_game_gets_one_line_saying_why() {
    for command in ["bench", "play", "probe"] {
        let output = ludeme(&[command, UNPLAYABLE_EGG]);
        assert_eq!(output.status.code(), Some(2), "{command}");
        let message = stderr(&output);
        assert_eq!(
            message.trim_end().lines().count(),
            1,
            "{command}: {message}"
        );
        assert!(
            message.starts_with(&format!("ludeme {command}: {UNPLAYABLE_EGG}: "))
                && message.contains("rotate or shift"),
            "{command}: {message}"
        );
    }
}

#[test]
fn a_run_that_checks_nothing_prints_no_empty_summary() {
    let output = ludeme(&["check", "no-such-game.kif"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "", "nothing was checked: no summary");
    assert!(stderr(&output).contains("no-such-game.kif: cannot read it"));
}

#[test]
fn help_speaks_of_games_not_of_seed_papers() {
    for command in ["check", "probe", "play", "bench", "fmt", "nearest"] {
        let help = succeeds(&[command, "--help"]);
        assert!(!help.contains("seed 0"), "ludeme {command} --help: {help}");
    }
    let help = succeeds(&["--help"]);
    assert!(!help.contains("seed 0"), "{help}");
}

#[test]
fn the_probe_time_limit_comes_from_ludeme_toml() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::copy(
        support::project_root().join(LUDI),
        dir.path().join("game.ludi"),
    )
    .unwrap();
    // A tiny time limit from the settings stops the probe long before its thousand games.
    std::fs::write(dir.path().join("ludeme.toml"), "[probe]\nseconds = 0.2\n").unwrap();
    let output = support::ludeme_in(
        &["probe", "game.ludi", "--games", "1000", "--format", "json"],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report["games"].as_u64().unwrap() < 1000, "{report}");
    assert!(report["seconds"].as_f64().unwrap() < 5.0, "{report}");
}

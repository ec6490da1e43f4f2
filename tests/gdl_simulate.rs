//! The simulation checks (`ludeme check --simulate`). Every game in `tests/fixtures/simulate/`
//! has one known fault that only play reveals (or none: ticTacToe), annotated where its
//! diagnostic must start, as in the static checks' fixtures. A fixture may give its own options
//! on a `; simulate: --option value ...` line; the others play 20 games of at most 60 plies,
//! which is plenty for these tiny games, with time to spare so that the clock never decides.

mod support;

use std::path::Path;

use std::sync::Arc;

use ludeme_analysis::gdl::simulate::{SimulationOptions, simulate};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use serde_json::Value;

use support::ludeme;

/// The options every fixture is simulated with unless its `simulate:` line says otherwise.
const DEFAULT_OPTIONS: [(&str, &str); 3] = [
    ("--playouts", "20"),
    ("--max-plies", "60"),
    ("--simulate-seconds", "30"),
];

fn fixtures() -> Vec<std::path::PathBuf> {
    support::files_with_extensions(
        &support::project_root().join("tests/fixtures/simulate"),
        &["kif", "hrf"],
    )
}

/// `check --simulate` arguments for `file` (relative to the project root), its own options
/// first.
fn simulate_args(file: &Path, text: &str) -> Vec<String> {
    let own: Vec<String> = text
        .lines()
        .find_map(|line| {
            line.trim_start_matches([';', '%', ' '])
                .strip_prefix("simulate:")
        })
        .map(|options| options.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let mut args = vec!["check".to_owned(), "--simulate".to_owned()];
    for (option, value) in DEFAULT_OPTIONS {
        if !own.iter().any(|given| given == option) {
            args.extend([option.to_owned(), value.to_owned()]);
        }
    }
    args.extend(own);
    args.push(file.to_string_lossy().into_owned());
    args
}

fn run(args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ludeme(&args)
}

fn json(output: &std::process::Output) -> Vec<Value> {
    let value: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "JSON output ({error}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    value.as_array().expect("an array").clone()
}

#[test]
fn every_fixture_gets_exactly_its_annotated_diagnostics() {
    let root = support::project_root();
    let fixtures = fixtures();
    assert!(fixtures.len() >= 9, "{fixtures:?}");
    let mut failures = Vec::new();
    for file in &fixtures {
        let text = std::fs::read_to_string(file).unwrap();
        let relative = file.strip_prefix(&root).unwrap();
        let mut expected = support::annotated_expectations(&text, ";");
        expected.sort();
        let mut args = simulate_args(relative, &text);
        args.splice(1..1, ["--format".to_owned(), "json".to_owned()]);
        let mut actual: Vec<(usize, String)> = json(&run(&args))
            .iter()
            .map(support::line_and_code)
            .collect();
        actual.sort();
        if actual != expected {
            failures.push(format!(
                "{}\n  expected {expected:?}\n  actual   {actual:?}",
                file.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Messages and ranges of one problem game, reviewed as a whole: what was found, where play
/// was, the summary line.
#[test]
fn human_output_of_a_role_without_moves() {
    let file = Path::new("tests/fixtures/simulate/no-legal-move.kif");
    let text = std::fs::read_to_string(support::project_root().join(file)).unwrap();
    let mut args = simulate_args(file, &text);
    args.splice(1..1, ["--color".to_owned(), "never".to_owned()]);
    let output = run(&args);
    insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
}

#[test]
fn exit_codes_follow_the_findings() {
    let exit_code = |file: &str| {
        let path = Path::new("tests/fixtures/simulate").join(file);
        let text = std::fs::read_to_string(support::project_root().join(&path)).unwrap();
        run(&simulate_args(&path, &text)).status.code()
    };
    // A clean game, a game with warnings only, a game with an error.
    assert_eq!(exit_code("ticTacToe.kif"), Some(0));
    assert_eq!(exit_code("never-ends.kif"), Some(0));
    assert_eq!(exit_code("goal-missing.kif"), Some(1));
    // Without --simulate, the faults that only play reveals go unnoticed.
    let output = ludeme(&["check", "tests/fixtures/simulate/goal-missing.kif"]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn simulation_findings_join_the_json_report() {
    let output = ludeme(&[
        "check",
        "--simulate",
        "--playouts",
        "20",
        "--format",
        "json",
        "tests/fixtures/simulate/goal-missing.kif",
        "tests/fixtures/simulate/ticTacToe.kif",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let diagnostics = json(&output);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let diagnostic = &diagnostics[0];
    assert_eq!(
        diagnostic["file"],
        "tests/fixtures/simulate/goal-missing.kif"
    );
    assert_eq!(diagnostic["code"], "gdl/goal-missing");
    assert_eq!(diagnostic["severity"], "error");
    assert_eq!(diagnostic["range"]["start"]["line"], 8);
    let message = diagnostic["message"].as_str().unwrap();
    // Only tails leaves the robot without a goal: the message shows the state play reached.
    assert!(message.contains("(tossed tails)"), "{message}");
}

#[test]
fn the_summary_line_reports_random_play() {
    let output = ludeme(&[
        "check",
        "--simulate",
        "--color",
        "never",
        "--playouts",
        "200",
        "--simulate-seconds",
        "60",
        "corpus/gdl/ticTacToe.kif",
    ]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let line = stdout
        .lines()
        .find(|line| line.starts_with("corpus/gdl/ticTacToe.kif: "))
        .unwrap_or_else(|| panic!("no summary line: {stdout}"));
    // Random tic-tac-toe lasts 5 to 9 plies (7.6 on average) and the first player wins more
    // often than not; 200 games pin neither figure exactly.
    let plies = average_plies(line);
    assert!((5.0..=9.0).contains(&plies), "{line}");
    assert!(
        line.starts_with("corpus/gdl/ticTacToe.kif: 2 roles · "),
        "{line}"
    );
    assert!(line.contains("xplayer wins "), "{line}");
}

/// The average length of random play in a summary line ("… random play ends after 7.6 plies …").
fn average_plies(line: &str) -> f64 {
    line.split("ends after ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no average length of play in: {line}"))
}

/// Breakthrough is too big for the plain interpreter to finish one random game in seconds (it
/// stopped after 26 plies in 2 s, release build); the simulation plays it on the grounded
/// reasoner, so every playout ends and the checks of terminal states, goals and the game's
/// `base`/`input` declarations all run.
#[test]
fn a_big_corpus_game_is_played_to_its_end_on_the_grounded_reasoner() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let path = corpus.join("gdl/ggp-repository/breakthrough.kif");
    let text = std::fs::read_to_string(&path).unwrap();
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path, Syntax::GdlKif, Arc::from(text.as_str()), None);
    let options = SimulationOptions {
        playouts: 20,
        // Time to spare for grounding in a debug build on a loaded machine.
        seconds: 20.0,
        ..SimulationOptions::default()
    };
    let simulation = simulate(&db, file, &options);
    assert!(
        simulation.diagnostics.is_empty(),
        "{:#?}",
        simulation.diagnostics
    );
    let summary = simulation
        .summary
        .unwrap_or_else(|| panic!("not simulated: {:?}", simulation.not_simulated));
    assert_eq!(summary.engine, "the grounded reasoner");
    assert_eq!(
        (summary.playouts, summary.finished),
        (20, 20),
        "{summary:#?}"
    );
    // Pawns only move forward (the `legal` rules move from row y1 to its successor), and one
    // side moves per ply while the other plays `noop`: white's first pawn can reach the last
    // row on ply 11 at the earliest, and 16 pawns of each side advance at most 7 rows each.
    assert!(
        (11.0..=224.0).contains(&summary.average_plies),
        "{summary:#?}"
    );
}

#[test]
fn files_with_static_errors_are_not_simulated() {
    let output = ludeme(&[
        "check",
        "--simulate",
        "--color",
        "never",
        "tests/fixtures/gdl/goal-value.kif",
    ]);
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("goal-value.kif: not simulated: the game has 4 static errors"),
        "{stdout}"
    );
}

#[test]
fn bad_simulation_options_are_usage_errors() {
    for args in [
        &["check", "--simulate", "--simulate-seconds", "0", "corpus"][..],
        &["check", "--simulate", "--playouts", "0", "corpus"],
        // The limits only mean something with --simulate.
        &["check", "--playouts", "5", "corpus"],
    ] {
        let output = ludeme(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

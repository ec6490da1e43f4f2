//! Ctrl-C during the long commands: `ludeme probe` of one game stops at once (its search reads
//! the stop flag at every state) and reports the games finished by then; `ludeme evolve` stops
//! every run before its next child and leaves only whole records; `ludeme match` aborts the
//! match under way and writes the ones played. Each exits 2 saying so.
#![cfg(target_os = "linux")]

mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use support::interrupt::{interrupt_after_handler, interrupt_when};

#[test]
fn ctrl_c_stops_a_probe_at_once_and_reports_the_games_finished() {
    let game = support::project_root().join("corpus/ludi/yavalath.ludi");
    // A probe of many minutes: far longer than the test waits.
    let child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("probe")
        .arg(&game)
        .args(["--games", "500", "--move-nodes", "3000", "--format", "json"])
        .args(["--time-limit", "600"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme runs");
    // Into the games: reading and setting up the game come first.
    let (output, stop_took) = interrupt_after_handler(child, Duration::from_millis(1500));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    let games = report["games"].as_u64().expect("a number of games");
    assert!(games < 500, "{games} games");
    assert!(
        stderr.contains(&format!("stopped (Ctrl-C) after {games} of 500 games")),
        "{stderr}"
    );
    // At once: a search of 3,000 states per move stops at its next state, not at the end of
    // its game (generous for a loaded debug build).
    assert!(stop_took < Duration::from_secs(10), "took {stop_took:?}");
}

#[test]
fn ctrl_c_stops_an_evolution_leaving_whole_records() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let out = temp.path().join("evolved");
    // One run: its folder is `run-01`.
    let records = out.join("run-01/children.jsonl");
    let corpus = support::project_root().join("corpus/ludi");
    // Thousands of children: far longer than the test waits.
    let child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("evolve")
        .arg(corpus.join("tic-tac-toe.ludi"))
        .arg(corpus.join("hex.ludi"))
        .arg(corpus.join("gomoku.ludi"))
        .args(["--children", "5000", "--games", "4", "--seed", "3", "--out"])
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme runs");
    let (output, stop_took) = interrupt_when(child, || {
        std::fs::read_to_string(&records).is_ok_and(|text| text.lines().count() >= 2)
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped (Ctrl-C)"), "{stderr}");
    let text = std::fs::read_to_string(&records).expect("the records");
    let lines: Vec<&str> = text.lines().collect();
    assert!((2..5000).contains(&lines.len()), "{} records", lines.len());
    for line in lines {
        serde_json::from_str::<serde_json::Value>(line).expect("a whole record");
    }
    assert!(text.ends_with('\n'), "the last record is whole");
    assert!(stop_took < Duration::from_secs(30), "took {stop_took:?}");
}

#[test]
fn ctrl_c_stops_a_series_of_matches_and_writes_the_ones_played() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let record = temp.path().join("records.json");
    let game = support::project_root().join("corpus/gdl/ticTacToe.kif");
    // Thousands of matches: far longer than the test waits.
    let child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("match")
        .arg(&game)
        .args(["--player", "local:random", "--player", "local:random"])
        .args(["--matches", "5000"])
        .args(["--playclock", "1", "--record"])
        .arg(&record)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme runs");
    let (output, stop_took) = interrupt_after_handler(child, Duration::from_millis(1500));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let records: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(&record).expect("the records written"))
            .expect("a JSON list of records");
    assert!(
        (1..5000).contains(&records.len()),
        "{} records",
        records.len()
    );
    assert!(
        stderr.contains(&format!(
            "stopped (Ctrl-C) after {} of 5000 match(es)",
            records.len()
        )),
        "{stderr}"
    );
    let last_aborted = records.last().expect("a record")["abortReason"] == "stopped before the end";
    assert_eq!(
        stderr.contains(", the last aborted;"),
        last_aborted,
        "{stderr}"
    );
    // Every match before the last ended; the last ended or was aborted by the stop.
    let (last, before) = records.split_last().expect("one record at least");
    for record in before {
        assert_eq!(record["isCompleted"], true, "{record}");
    }
    assert!(
        last["isCompleted"] == true || last["abortReason"] == "stopped before the end",
        "{last}"
    );
    // Within one step's clock (1 s) and the manager's grace, on a loaded debug build.
    assert!(stop_took < Duration::from_secs(15), "took {stop_took:?}");
}

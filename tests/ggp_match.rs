//! `ludeme match` over loopback HTTP: matches between `ludeme player` processes end with
//! goals and no errors; late, illegal and crashed players are recorded, replaced or aborted,
//! and the manager never hangs.

#[path = "ggp_support.rs"]
mod ggp_support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use ggp_support::{Misbehaviour, PlayerProcess, fake_player, shared_game};
use serde_json::Value;

/// Runs `ludeme match` and returns its exit code and records.
fn run_match(game: &Path, players: &[&str], extra: &[&str]) -> (i32, Vec<Value>) {
    let record = tempfile::NamedTempFile::new().unwrap();
    let mut args = vec![
        "match".to_owned(),
        game.display().to_string(),
        "--startclock".to_owned(),
        "2".to_owned(),
        "--playclock".to_owned(),
        "1".to_owned(),
        "--record".to_owned(),
        record.path().display().to_string(),
    ];
    for player in players {
        args.push("--player".to_owned());
        args.push((*player).to_owned());
    }
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    let output = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(&args)
        .output()
        .expect("ludeme match runs");
    let records = std::fs::read_to_string(record.path()).unwrap_or_default();
    let records: Vec<Value> = serde_json::from_str(&records).unwrap_or_else(|error| {
        panic!(
            "records ({error}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code().expect("exited"), records)
}

fn errors_of(record: &Value) -> Vec<(usize, usize, String)> {
    let mut found = Vec::new();
    for (round, errors) in record["errors"].as_array().unwrap().iter().enumerate() {
        for (role, error) in errors.as_array().unwrap().iter().enumerate() {
            let error = error.as_str().unwrap();
            if !error.is_empty() {
                found.push((round, role, error.to_owned()));
            }
        }
    }
    found
}

fn assert_clean_ending(record: &Value) {
    assert_eq!(record["isCompleted"], true, "{record:#}");
    let goals = record["goalValues"].as_array().expect("goals");
    assert_eq!(goals.len(), record["roles"].as_array().unwrap().len());
    assert!(errors_of(record).is_empty(), "{record:#}");
}

fn tic_tac_toe() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/gdl/ticTacToe.kif"
    ))
}

#[test]
fn mcts_and_random_players_finish_tic_tac_toe_in_both_seats() {
    let mcts = PlayerProcess::start("mcts");
    let random = PlayerProcess::start("random");
    let (status, records) = run_match(
        tic_tac_toe(),
        &[&mcts.url, &random.url],
        &["--matches", "2"],
    );
    assert_eq!(status, 0);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_clean_ending(record);
        let moves = record["moves"].as_array().unwrap();
        assert!((5..=9).contains(&moves.len()), "{record:#}");
    }
    // The seats rotate: the MCTS player is x in the first match, o in the second.
    assert_eq!(
        records[0]["playerNamesFromHost"][0],
        records[1]["playerNamesFromHost"][1]
    );
}

#[test]
fn connect_four_and_a_simultaneous_game_finish_between_players() {
    let Some(connect_four) = shared_game("ggp-base/connectFour.kif") else {
        return;
    };
    let first = PlayerProcess::start("random");
    let second = PlayerProcess::start("legal");
    let (status, records) = run_match(&connect_four, &[&first.url, &second.url], &[]);
    assert_eq!(status, 0);
    assert_clean_ending(&records[0]);
    let Some(prisoner) = shared_game("ggp-repository/gt_prisoner.kif") else {
        return;
    };
    let (status, records) = run_match(&prisoner, &[&first.url, &second.url], &[]);
    assert_eq!(status, 0);
    assert_clean_ending(&records[0]);
    // Both roles move at every step of the prisoner's dilemma: no no-ops.
    for step in records[0]["moves"].as_array().unwrap() {
        for action in step.as_array().unwrap() {
            assert_ne!(action, "noop", "{records:#?}");
        }
    }
}

#[test]
fn late_and_illegal_answers_are_replaced_and_recorded() {
    let late = fake_player(Misbehaviour::LateThenIllegal(Duration::from_secs(3)));
    let illegal = fake_player(Misbehaviour::Illegal);
    let started = Instant::now();
    let (status, records) = run_match(tic_tac_toe(), &[&late, &illegal], &[]);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the manager hung"
    );
    assert_eq!(status, 0);
    let record = &records[0];
    assert_eq!(record["isCompleted"], true, "{record:#}");
    let errors = errors_of(record);
    // Step 1: x (the late player) is out of time; o's illegal answer to it is an error too.
    assert!(
        errors.iter().any(|(round, role, error)| *round == 1
            && *role == 0
            && error.contains("no reply in time")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|(_, role, error)| *role == 1 && error.contains("illegal move `(mark 9 9)`")),
        "{errors:?}"
    );
    // Every step had its moves replaced by legal ones: the game reached its end.
    let steps = record["moves"].as_array().unwrap().len();
    assert_eq!(
        errors.iter().filter(|(_, role, _)| *role == 1).count(),
        steps
    );
}

#[test]
fn a_crashed_player_aborts_the_match() {
    let crashing = fake_player(Misbehaviour::CrashAtFirstPlay);
    let steady = PlayerProcess::start("random");
    let started = Instant::now();
    let (status, records) = run_match(tic_tac_toe(), &[&steady.url, &crashing], &[]);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the manager hung"
    );
    assert_eq!(status, 1, "an aborted match is no clean run");
    let record = &records[0];
    assert_eq!(record["isAborted"], true, "{record:#}");
    assert!(record["goalValues"].is_null());
    assert!(
        record["abortReason"].as_str().unwrap().contains("oplayer"),
        "{record:#}"
    );
    // The steady player was told: it is in no match any more.
    let (code, _) = ggp_support::post(
        &steady.url,
        &format!("(play {} nil)", record["matchId"].as_str().unwrap()),
    );
    assert_eq!(code, 400);
}

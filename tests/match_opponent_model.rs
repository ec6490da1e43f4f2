//! `ludeme match --opponent-model` and `ludeme player --opponent-model`: the local players of
//! a GGP match search with a saved model (`ludeme model train -o`) of a role, as `ludeme play`'s
//! do; a model that does not fit the game is refused by `match` before any match, and left out
//! by `player` for that match, with the reason.

mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use support::{ludeme_json, ludeme_refused, project_root, train_legal_model};

const TIC_TAC_TOE: &str = "corpus/gdl/ticTacToe.kif";

/// `ludeme match GAME` with `args` and short clocks, which must exit 0; its JSON report.
fn match_json(game: &str, args: &[&str]) -> Value {
    let mut all = vec![game, "--startclock", "1", "--playclock", "1"];
    all.extend_from_slice(args);
    ludeme_json("match", &all)
}

/// Runs `ludeme match` with `args`, which must be refused with exit status 2 (before any
/// match: the refusal comes before the local players start); its standard error.
fn match_refused(args: &[&str]) -> String {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    ludeme_refused(&all)
}

/// Tic-tac-toe with a cross in the middle from the start: the same roles, another game.
fn write_other_game(dir: &Path) -> String {
    let text = std::fs::read_to_string(project_root().join(TIC_TAC_TOE)).unwrap();
    let other = text.replacen("(init (cell 2 2 b))", "(init (cell 2 2 x))", 1);
    assert_ne!(other, text, "the game has an empty middle cell");
    let path = dir.join("middleTaken.kif");
    std::fs::write(&path, other).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The local players of `ludeme match` search with the model: iterative deepening in both
/// seats over two matches (as `oplayer`, the modelled role, it searches as without the model),
/// MCTS with its kept tree in one. The report says how many local matches a model guided and
/// how much the searches pruned.
#[test]
fn local_searching_players_of_a_match_use_the_model() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = dir.path().join("legal.model.json");
    train_legal_model(&model);
    let model = model.to_str().unwrap();

    let report = match_json(
        TIC_TAC_TOE,
        &[
            "--player",
            "local:iterative",
            "--player",
            "local:legal",
            "--matches",
            "2",
            "--opponent-model",
            model,
        ],
    );
    let matches = report["matches"].as_array().expect("matches");
    assert_eq!(matches.len(), 2, "{report}");
    for record in matches {
        assert_eq!(record["isCompleted"], true, "{record}");
    }
    let models = &report["opponent_models"];
    assert_eq!(models["roles"], json!(["oplayer"]), "{report}");
    assert_eq!(models["confidence"], 0.95);
    // The legal player does not search, and the searcher in the modelled seat (the second
    // match) searches as without the model: one guided match.
    assert_eq!(models["guided_matches"], 1, "{report}");
    let nodes = models["pruned_nodes"].as_u64().unwrap();
    let kept = models["kept_moves"].as_u64().unwrap();
    let legal = models["legal_moves"].as_u64().unwrap();
    assert!(nodes > 0 && kept >= nodes, "{report}");
    assert!(2 * kept < legal, "{report}");

    let report = match_json(
        TIC_TAC_TOE,
        &[
            "--player",
            "local:mcts",
            "--player",
            "local:random",
            "--opponent-model",
            model,
            "--model-confidence",
            "0.5",
        ],
    );
    assert_eq!(report["matches"][0]["isCompleted"], true, "{report}");
    let models = &report["opponent_models"];
    assert_eq!(models["confidence"], 0.5);
    assert_eq!(models["guided_matches"], 1, "{report}");
    let nodes = models["pruned_nodes"].as_u64().unwrap();
    let kept = models["kept_moves"].as_u64().unwrap();
    let legal = models["legal_moves"].as_u64().unwrap();
    assert!(nodes > 0 && kept < legal, "{report}");

    // Without a model the report has no models.
    let report = match_json(
        TIC_TAC_TOE,
        &["--player", "local:legal", "--player", "local:legal"],
    );
    assert!(report.get("opponent_models").is_none(), "{report}");
}

/// A model that cannot be used stops `ludeme match` with exit status 2 and the reason, before
/// any match: another game's, not JSON, a confidence out of range, a confidence without a
/// model.
#[test]
fn a_model_that_cannot_be_used_is_refused_before_any_match() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let good = dir.path().join("legal.model.json");
    train_legal_model(&good);
    let good = good.to_str().unwrap();
    let other_game = write_other_game(dir.path());
    let players = ["--player", "local:iterative", "--player", "local:legal"];
    let refused = |extra: &[&str]| {
        let mut args = vec![other_game.as_str()];
        args.extend_from_slice(&players);
        args.extend_from_slice(extra);
        match_refused(&args)
    };

    let stderr = refused(&["--opponent-model", good]);
    assert!(
        stderr.contains("the model is of another game (ticTacToe.kif): the initial states differ"),
        "{stderr}"
    );

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ \"format\": ").unwrap();
    let stderr = refused(&["--opponent-model", broken.to_str().unwrap()]);
    assert!(stderr.contains("broken.json: not JSON"), "{stderr}");

    let stderr = match_refused(&[
        TIC_TAC_TOE,
        "--player",
        "local:iterative",
        "--player",
        "local:legal",
        "--opponent-model",
        good,
        "--model-confidence",
        "1.5",
    ]);
    assert!(
        stderr.contains("the model confidence must be above 0 and at most 1"),
        "{stderr}"
    );

    let stderr = refused(&["--model-confidence", "0.5"]);
    assert!(stderr.contains("--opponent-model"), "{stderr}");
}

/// `ludeme player --opponent-model` checks the model against the game of each `start`
/// message: a match of another game is played without it (the reason on standard error), and
/// the player stays up.
#[test]
fn a_player_leaves_out_a_model_of_another_game_and_says_why() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = dir.path().join("legal.model.json");
    train_legal_model(&model);
    let other_game = write_other_game(dir.path());

    let mut player = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["player", "--port", "0", "--player", "iterative"])
        .args(["--opponent-model", model.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme player starts");
    let mut first = String::new();
    BufReader::new(player.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("the player says where it listens");
    assert!(first.contains("opponent model of oplayer"), "{first}");
    let url = first
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in `{first}`"))
        .to_owned();

    let report = match_json(&other_game, &["--player", &url, "--player", "local:legal"]);
    assert_eq!(report["matches"][0]["isCompleted"], true, "{report}");
    // Every move the player sent was legal and in time.
    let errors = report["matches"][0]["errors"].as_array().expect("errors");
    assert!(
        errors
            .iter()
            .flat_map(|step| step.as_array().unwrap())
            .all(|error| error == ""),
        "{report}"
    );

    player.kill().expect("the player stops");
    let mut stderr = String::new();
    player
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut stderr)
        .unwrap();
    let _ = player.wait();
    assert!(
        stderr.contains("is played without the opponent model: the model is of another game"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

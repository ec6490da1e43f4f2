//! `ludeme model`: opponent move modelling (seed 002) end to end, on small games so that the
//! debug build takes seconds.

mod support;

use serde_json::Value;

use support::{ludeme, ludeme_json};

fn model_json(args: &[&str]) -> Value {
    ludeme_json("model", args)
}

fn share(value: &Value) -> f64 {
    value.as_f64().expect("a number")
}

/// The legal player always makes its first legal move: a model that sees the state and the
/// legal moves must find that rule in 100 matches, in each language.
#[test]
fn the_legal_player_is_predicted_at_the_first_rank() {
    for game in [
        "corpus/gdl/ticTacToe.kif",
        "corpus/ludi/tic-tac-toe.ludi",
        "corpus/ludi/hexapawn.ludi",
    ] {
        let report = model_json(&[
            game,
            "--player",
            "legal",
            "--train",
            "100",
            "--test",
            "10",
            "--features",
            "state+legal",
        ]);
        let variant = &report["variants"][0];
        assert!(
            variant["test_decisions"].as_u64().unwrap() >= 10,
            "{game}: {report}"
        );
        let top1 = share(&variant["top1"]);
        assert!(top1 >= 0.99, "{game}: top-1 {top1}");
        // The player had real choices: a ranking at random would often miss.
        assert!(share(&variant["chance"][0]) < 0.5, "{game}: {report}");
    }
}

/// A random player's move cannot be predicted from the state: the model does no better than a
/// ranking drawn at random (within three standard errors of it over the test decisions).
#[test]
fn the_random_player_is_predicted_no_better_than_chance() {
    let report = model_json(&[
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "random",
        "--train",
        "100",
        "--test",
        "60",
        "--features",
        "state+legal",
    ]);
    let variant = &report["variants"][0];
    let decisions = variant["test_decisions"].as_u64().unwrap() as f64;
    assert!(decisions >= 100.0, "{report}");
    let chance = share(&variant["chance"][0]);
    let top1 = share(&variant["top1"]);
    let standard_error = (chance * (1.0 - chance) / decisions).sqrt();
    assert!(
        top1 <= chance + 3.0 * standard_error,
        "top-1 {top1} against chance {chance} over {decisions} decisions"
    );
}

/// The curve rises to 1 (every test move is among the legal moves ranked), never falls, and
/// the three feature sets are compared on the same test decisions.
#[test]
fn the_top_n_curve_covers_every_legal_move() {
    let report = model_json(&[
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "minimax",
        "--train",
        "20",
        "--test",
        "5",
        "--features",
        "state",
        "--features",
        "state+legal",
        "--features",
        "legal",
        "--move-nodes",
        "2000",
    ]);
    let variants = report["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3);
    for variant in variants {
        assert_eq!(variant["test_decisions"], variants[0]["test_decisions"]);
        let curve: Vec<f64> = variant["top_n"]
            .as_array()
            .unwrap()
            .iter()
            .map(share)
            .collect();
        assert!(curve.windows(2).all(|pair| pair[0] <= pair[1]), "{curve:?}");
        assert!(
            (curve.last().copied().unwrap() - 1.0).abs() < 1e-9,
            "{curve:?}"
        );
    }
}

#[test]
fn unknown_players_and_feature_sets_are_refused_with_the_known_ones() {
    let output = ludeme(&["model", "corpus/gdl/ticTacToe.kif", "--player", "oracle"]);
    assert_ne!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no player is called `oracle`"), "{stderr}");
    assert!(stderr.contains("minimax"), "{stderr}");
    let output = ludeme(&["model", "corpus/gdl/ticTacToe.kif", "--features", "moves"]);
    assert_ne!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("state+legal"), "{stderr}");
}

/// `--search-matches`: alpha-beta with a model of the legal player and without it, the same
/// number of matches each, every one ended by the game (an illegal move would be an error), the
/// budget per move kept, and the guided search pruning the modelled player's moves.
#[test]
fn search_with_the_model_plays_legal_matches_within_its_budget() {
    let report = model_json(&[
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "legal",
        "--train",
        "10",
        "--features",
        "state+legal",
        "--search-matches",
        "4",
        "--search-nodes",
        "100",
    ]);
    for side in ["with_model", "without_model"] {
        let tally = &report[side];
        let count = |key: &str| tally[key].as_u64().expect("a count");
        assert_eq!(
            count("wins") + count("draws") + count("losses") + count("unfinished"),
            4,
            "{report}"
        );
        assert!(count("searched_moves") > 0, "{report}");
        assert!(count("nodes") <= 100 * count("searched_moves"), "{report}");
    }
    // The legal player always makes its first legal move: the model keeps that one alone.
    let pruning = &report["pruning"];
    let kept = pruning["kept"].as_u64().unwrap();
    assert!(
        kept > 0 && kept < pruning["legal"].as_u64().unwrap(),
        "{report}"
    );
    assert_eq!(
        report["real_moves_kept"], report["real_decisions"],
        "{report}"
    );
}

/// `--searcher mcts`: MCTS with the model's probabilities as its prior for the modelled player,
/// and plain MCTS, each plays every match to its end within its iterations per move.
#[test]
fn mcts_with_the_model_plays_legal_matches_within_its_budget() {
    let report = model_json(&[
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "legal",
        "--train",
        "10",
        "--features",
        "state+legal",
        "--search-matches",
        "4",
        "--search-nodes",
        "100",
        "--searcher",
        "mcts",
    ]);
    assert_eq!(report["searcher"], "MCTS", "{report}");
    for side in ["with_model", "without_model"] {
        let tally = &report[side];
        let count = |key: &str| tally[key].as_u64().expect("a count");
        assert_eq!(
            count("wins") + count("draws") + count("losses") + count("unfinished"),
            4,
            "{report}"
        );
        assert!(count("searched_moves") > 0, "{report}");
        assert!(count("nodes") <= 100 * count("searched_moves"), "{report}");
    }
}

#[test]
fn search_comparison_refuses_a_confidence_out_of_range() {
    let output = ludeme(&[
        "model",
        "corpus/gdl/ticTacToe.kif",
        "--search-matches",
        "2",
        "--confidence",
        "1.5",
    ]);
    assert_ne!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--confidence must be above 0 and at most 1"),
        "{stderr}"
    );
}

/// Runs `ludeme` and returns its standard output, failing the test on a failing exit.
fn ludeme_ok(args: &[&str]) -> String {
    let output = ludeme(args);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// Runs `ludeme`, which must fail, and returns its standard error.
fn ludeme_refused(args: &[&str]) -> String {
    let output = ludeme(args);
    assert_ne!(output.status.code(), Some(0), "{args:?} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `model train` then `model eval` measure what the whole experiment measures on the same
/// matches: the model read back from its file ranks every test move as the model trained in
/// memory did (the test matches of `eval` go on from the last training match).
#[test]
fn a_saved_model_ranks_as_the_model_it_was_saved_from() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = dir.path().join("ticTacToe.model.json");
    let model = model.to_str().unwrap();
    let game = "corpus/gdl/ticTacToe.kif";
    let common = ["--player", "minimax", "--move-nodes", "2000"];
    let mut train = vec!["model", "train", game, "--matches", "30", "--select", "12"];
    train.extend_from_slice(&common);
    train.extend_from_slice(&["--features", "state", "-o", model]);
    ludeme_ok(&train);
    let svg = dir.path().join("curve.svg");
    let evaluated: Value = serde_json::from_str(&ludeme_ok(&[
        "model",
        "eval",
        game,
        model,
        "--matches",
        "8",
        "--svg",
        svg.to_str().unwrap(),
        "--format",
        "json",
    ]))
    .expect("JSON output");
    let mut experiment = vec![game, "--train", "30", "--test", "8", "--select", "12"];
    experiment.extend_from_slice(&common);
    let whole = model_json(&experiment);
    let variant = &whole["variants"][0];
    assert!(
        evaluated["test_decisions"].as_u64().unwrap() > 10,
        "{evaluated}"
    );
    for field in ["test_decisions", "top_n", "chance", "confidence"] {
        assert_eq!(
            evaluated[field], variant[field],
            "{field}: {evaluated}\n{whole}"
        );
    }
    let svg = std::fs::read_to_string(svg).expect("the SVG was written");
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
}

/// A model is refused, with the reason, by a game with other roles and by one that starts
/// elsewhere; a truncated or inconsistent file is refused with the place of the fault.
#[test]
fn a_model_of_another_game_or_a_corrupt_file_is_refused_clearly() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = dir.path().join("model.json");
    let model_path = model.to_str().unwrap();
    ludeme_ok(&[
        "model",
        "train",
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "legal",
        "--matches",
        "5",
        "-o",
        model_path,
    ]);
    let stderr = ludeme_refused(&["model", "eval", "corpus/ludi/hexapawn.ludi", model_path]);
    assert!(
        stderr.contains("the model is of another game (ticTacToe.kif)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("its roles are xplayer, oplayer"),
        "{stderr}"
    );

    // The same roles, another first position.
    let rules = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/gdl/ticTacToe.kif"
    ))
    .expect("the corpus game");
    let moved = rules.replacen("(init (cell 1 1 b))", "(init (cell 1 1 x))", 1);
    assert_ne!(moved, rules);
    let other = dir.path().join("started.kif");
    std::fs::write(&other, moved).unwrap();
    let stderr = ludeme_refused(&["model", "eval", other.to_str().unwrap(), model_path]);
    assert!(stderr.contains("the initial states differ"), "{stderr}");
    assert!(stderr.contains("(cell 1 1 x)"), "{stderr}");

    let text = std::fs::read_to_string(&model).unwrap();
    let corrupt = dir.path().join("corrupt.json");
    std::fs::write(&corrupt, &text[..text.len() / 2]).unwrap();
    let stderr = ludeme_refused(&[
        "model",
        "eval",
        "corpus/gdl/ticTacToe.kif",
        corrupt.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains("not JSON") && stderr.contains("line"),
        "{stderr}"
    );
    // A feature counted in more rows of a move than the move has.
    let mut value: Value = serde_json::from_str(&text).unwrap();
    value["model"]["moves"][0]["examples"] = Value::from(1);
    value["model"]["features"][0]["present"][0] = Value::from(5);
    std::fs::write(&corrupt, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let stderr = ludeme_refused(&[
        "model",
        "eval",
        "corpus/gdl/ticTacToe.kif",
        corrupt.to_str().unwrap(),
    ]);
    assert!(
        stderr.contains("a corrupt model file") && stderr.contains("which has 1"),
        "{stderr}"
    );
    let stderr = ludeme_refused(&[
        "model",
        "eval",
        "corpus/gdl/ticTacToe.kif",
        "corpus/gdl/ticTacToe.kif",
    ]);
    assert!(stderr.contains("not JSON"), "{stderr}");
}

/// The plot of a deterministic player's curve, drawn by hand-written SVG.
#[test]
fn the_top_n_plot() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = dir.path().join("model.json");
    let svg = dir.path().join("curve.svg");
    ludeme_ok(&[
        "model",
        "train",
        "corpus/ludi/hexapawn.ludi",
        "--player",
        "legal",
        "--matches",
        "20",
        "--features",
        "state+legal",
        "-o",
        model.to_str().unwrap(),
    ]);
    ludeme_ok(&[
        "model",
        "eval",
        "corpus/ludi/hexapawn.ludi",
        model.to_str().unwrap(),
        "--matches",
        "5",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    insta::assert_snapshot!(std::fs::read_to_string(svg).unwrap());
}

/// Training from recorded matches: a record of `ludeme match` (the legal player as xplayer,
/// served in-process) is read by the match-play loader and replayed; each of xplayer's
/// decisions with a choice is one row; a move that is not legal is named with its match and
/// step.
#[test]
fn a_model_is_trained_on_recorded_matches() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let record = dir.path().join("matches.json");
    let record = record.to_str().unwrap();
    ludeme_ok(&[
        "match",
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "local:legal",
        "--player",
        "local:random",
        "--matches",
        "1",
        "--startclock",
        "5",
        "--playclock",
        "5",
        "--record",
        record,
    ]);
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    // xplayer's steps with a choice: those where it did not answer `noop`, its only move when
    // it is not in control.
    let decisions = recorded[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|joint| joint[0] != "noop")
        .count();
    assert!(decisions >= 3, "{recorded}");
    let model = dir.path().join("model.json");
    let model = model.to_str().unwrap();
    let game = "corpus/gdl/ticTacToe.kif";
    let stdout = ludeme_ok(&[
        "model",
        "train",
        game,
        "--role",
        "xplayer",
        "--record",
        record,
        "--features",
        "state+legal",
        "-o",
        model,
    ]);
    assert!(
        stdout.contains(&format!("from {decisions} decisions")),
        "{stdout}"
    );
    let evaluated: Value = serde_json::from_str(&ludeme_ok(&[
        "model", "eval", game, model, "--record", record, "--format", "json",
    ]))
    .unwrap();
    assert_eq!(evaluated["test_decisions"], decisions, "{evaluated}");
    // The legal player's rule (its first legal move) is in the features: it is predicted.
    assert_eq!(share(&evaluated["top1"]), 1.0, "{evaluated}");
    // Without a record, a model of recorded matches has nothing to simulate.
    let stderr = ludeme_refused(&["model", "eval", game, model]);
    assert!(stderr.contains("give --record"), "{stderr}");

    // oplayer answers a cell xplayer has taken.
    let mut illegal = recorded.clone();
    let taken = illegal[0]["moves"][0][0].clone();
    illegal[0]["moves"][1][1] = taken.clone();
    std::fs::write(record, illegal.to_string()).unwrap();
    let stderr = ludeme_refused(&["model", "train", game, "--record", record, "-o", model]);
    let id = recorded[0]["matchId"].as_str().unwrap();
    assert!(
        stderr.contains(&format!(
            "match {id}, step 2: `{}` is not a legal move of oplayer",
            taken.as_str().unwrap()
        )),
        "{stderr}"
    );
}

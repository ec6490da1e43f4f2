//! `ludeme model`: opponent move modelling (seed 002) end to end, on small games so that the
//! debug build takes seconds.

mod support;

use serde_json::Value;

use support::ludeme;

fn model_json(args: &[&str]) -> Value {
    let mut all = vec!["model"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let output = ludeme(&all);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("JSON output ({error}): {stdout}"))
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

//! `ludeme play --opponent-model`: matches whose searching players know, from a saved model
//! (`ludeme model train -o`), how a role plays; and the refusals of a model that cannot be used.

mod support;

use serde_json::Value;

use support::{ludeme_json, ludeme_refused, train_legal_model};

const TIC_TAC_TOE: &str = "corpus/gdl/ticTacToe.kif";

fn play_json(args: &[&str]) -> Value {
    ludeme_json("play", args)
}

/// Runs `ludeme play` with `args`, which must be refused with exit status 2; its standard
/// error.
fn play_refused(args: &[&str]) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    ludeme_refused(&all)
}

/// Alpha-beta that knows the legal player's habit wins as `xplayer` against it: at the
/// modelled role's turns it searches only the one move the model is sure of, and the model is
/// right. Seats rotate: in the second game the searcher is the modelled role itself and
/// searches all its own moves (the model is of its opponent's seat, not of it).
#[test]
fn alpha_beta_and_mcts_play_with_a_saved_model_of_their_opponent() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let model = dir.path().join("legal.model.json");
    train_legal_model(&model);
    let model = model.to_str().unwrap();
    let report = play_json(&[
        TIC_TAC_TOE,
        "--player",
        "iterative",
        "--player",
        "legal",
        "--games",
        "2",
        "--move-nodes",
        "3000",
        "--opponent-model",
        model,
    ]);
    let matches = report["matches"].as_array().expect("matches");
    assert_eq!(matches.len(), 2, "{report}");
    assert_eq!(
        matches[0]["players"],
        serde_json::json!(["iterative+model", "legal"])
    );
    assert_eq!(matches[0]["goals"], serde_json::json!([100, 0]), "{report}");
    assert_eq!(
        matches[1]["players"],
        serde_json::json!(["legal", "iterative+model"])
    );
    assert_eq!(matches[1]["end"], "terminal", "{report}");
    let models = &report["opponent_models"];
    assert_eq!(models["roles"], serde_json::json!(["oplayer"]), "{report}");
    assert_eq!(models["confidence"], 0.95);
    // At least one move kept at every node, and far fewer than the legal ones: the legal
    // player's model is sure of one move in the states like those it was trained on (the
    // searches also reach states no training match did, where it is less sure).
    let nodes = models["pruned_nodes"].as_u64().unwrap();
    let kept = models["kept_moves"].as_u64().unwrap();
    let legal = models["legal_moves"].as_u64().unwrap();
    assert!(nodes > 0 && kept >= nodes, "{report}");
    assert!(2 * kept < legal, "{report}");

    // MCTS takes the same option, within its iteration budget.
    let report = play_json(&[
        TIC_TAC_TOE,
        "--player",
        "mcts",
        "--player",
        "legal",
        "--games",
        "1",
        "--move-nodes",
        "300",
        "--opponent-model",
        model,
        "--model-confidence",
        "0.5",
    ]);
    assert_eq!(
        report["matches"][0]["players"],
        serde_json::json!(["mcts+model", "legal"])
    );
    assert_eq!(report["matches"][0]["end"], "terminal", "{report}");
    let mcts = &report["players"][0];
    assert!(
        mcts["nodes_per_searched_move"].as_f64().unwrap() <= 300.0,
        "{report}"
    );
    assert!(report["opponent_models"]["pruned_nodes"].as_u64().unwrap() > 0);
}

/// A model that cannot be used stops `ludeme play` with exit status 2 and the reason: not
/// JSON, another game's, a role the game does not have, two of one role, too large, missing,
/// a confidence out of range, or a confidence without a model.
#[test]
fn a_model_that_cannot_be_used_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let good = dir.path().join("legal.model.json");
    train_legal_model(&good);
    let good = good.to_str().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        path.to_str().unwrap().to_owned()
    };

    let broken = write("broken.json", "{ \"format\": ");
    let stderr = play_refused(&[TIC_TAC_TOE, "--opponent-model", &broken]);
    assert!(stderr.contains("broken.json: not JSON"), "{stderr}");
    assert!(stderr.contains("line 1"), "{stderr}");

    let stderr = play_refused(&["corpus/ludi/hexapawn.ludi", "--opponent-model", good]);
    assert!(
        stderr.contains("the model is of another game (ticTacToe.kif)"),
        "{stderr}"
    );

    let text = std::fs::read_to_string(good).unwrap();
    let renamed = text.replacen("\"role\": \"oplayer\"", "\"role\": \"nobody\"", 1);
    assert_ne!(renamed, text, "the file names its role");
    let nobody = write("nobody.json", &renamed);
    let stderr = play_refused(&[TIC_TAC_TOE, "--opponent-model", &nobody]);
    assert!(stderr.contains("the game has no role `nobody`"), "{stderr}");

    let stderr = play_refused(&[
        TIC_TAC_TOE,
        "--opponent-model",
        good,
        "--opponent-model",
        good,
    ]);
    assert!(
        stderr.contains("two models of the role `oplayer`"),
        "{stderr}"
    );

    // A sparse file just over the limit: refused before it is parsed.
    let huge = dir.path().join("huge.json");
    std::fs::File::create(&huge)
        .and_then(|file| file.set_len((64 << 20) + 1))
        .expect("a large file");
    let stderr = play_refused(&[TIC_TAC_TOE, "--opponent-model", huge.to_str().unwrap()]);
    assert!(stderr.contains("larger than 64 MB"), "{stderr}");

    let missing = dir.path().join("missing.json");
    let stderr = play_refused(&[TIC_TAC_TOE, "--opponent-model", missing.to_str().unwrap()]);
    assert!(stderr.contains("missing.json: cannot read it"), "{stderr}");

    for confidence in ["0", "1.5", "NaN"] {
        let stderr = play_refused(&[
            TIC_TAC_TOE,
            "--opponent-model",
            good,
            "--model-confidence",
            confidence,
        ]);
        assert!(
            stderr.contains("the model confidence must be above 0 and at most 1"),
            "{confidence}: {stderr}"
        );
    }

    // A confidence without a model would be ignored: it is refused, even one in range.
    for confidence in ["0.5", "7"] {
        let stderr = play_refused(&[TIC_TAC_TOE, "--model-confidence", confidence]);
        assert!(
            stderr.contains("--opponent-model"),
            "{confidence}: {stderr}"
        );
    }
}

//! The classifier on cases small enough to compute by hand, and its ranking's promise.

use proptest::prelude::*;

use super::{FeatureSet, MoveModel, chi_square_scores, select_features};

fn names(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn chi_square_of_hand_computed_tables() {
    // Two moves, A and B, two rows each (n = 4).
    // f: in both A rows, in no B row (a = 2). Every cell expects 2 · 2 / 4 = 1 and observes
    //    2, 0 (A present, absent) and 0, 2 (B): four cells of (1)² / 1 = 4.
    // g: in one row of each: every cell observes its expectation, 1: 0.
    // h: in every row (a = 4): present cells observe their expectation (2 = 4 · 2 / 4), absent
    //    cells expect 0 and are left out: 0.
    let scores = chi_square_scores(&[2, 2], &[vec![2, 0], vec![1, 1], vec![2, 2]]);
    assert!(close(scores[0], 4.0), "{scores:?}");
    assert!(close(scores[1], 0.0), "{scores:?}");
    assert!(close(scores[2], 0.0), "{scores:?}");

    // Uneven moves: A has 3 rows, B 1 (n = 4); the feature is in one A row and the B row
    // (a = 2). A present: observed 1, expected 2 · 3 / 4 = 1.5: 0.25 / 1.5 = 1/6; A absent:
    // observed 2, expected 1.5: 1/6; B present: observed 1, expected 2 · 1 / 4 = 0.5:
    // 0.25 / 0.5 = 1/2; B absent: observed 0, expected 0.5: 1/2. Sum: 4/3.
    let scores = chi_square_scores(&[3, 1], &[vec![1, 1]]);
    assert!(close(scores[0], 4.0 / 3.0), "{scores:?}");

    // No rows: nothing to measure.
    assert_eq!(chi_square_scores(&[], &[vec![]]), vec![0.0]);
}

#[test]
fn selection_keeps_the_highest_scores_and_breaks_ties_by_index() {
    assert_eq!(select_features(&[0.5, 3.0, 0.5, 2.0], 3), vec![1, 3, 0]);
    assert_eq!(select_features(&[1.0], 5), vec![0]);
}

#[test]
fn posterior_ranking_by_hand() {
    // Rows: A {f}, A {f}, B {}. Priors: A 2/3, B 1/3. Laplace: θ(f | A) = (2 + 1) / (2 + 2)
    // = 3/4, θ(f | B) = (0 + 1) / (1 + 2) = 1/3.
    let rows = vec![
        (names(&["f"]), "A".to_owned()),
        (names(&["f"]), "A".to_owned()),
        (names(&[]), "B".to_owned()),
    ];
    let model = MoveModel::train(&rows, None);
    // State {f}: A scores 2/3 · 3/4 = 1/2, B 1/3 · 1/3 = 1/9: A first.
    let with_f = names(&["f"]);
    assert!(close(model.log_score(&with_f, "A").unwrap(), (0.5f64).ln()));
    assert!(close(
        model.log_score(&with_f, "B").unwrap(),
        (1.0f64 / 9.0).ln()
    ));
    assert_eq!(model.rank(&with_f, &names(&["B", "A"])), vec![1, 0]);
    // State {}: A scores 2/3 · 1/4 = 1/6, B 1/3 · 2/3 = 2/9 > 1/6: the likelihood overturns
    // the prior and B comes first. A feature training never saw ("g") changes nothing.
    let without_f = names(&["g"]);
    assert!(close(
        model.log_score(&without_f, "A").unwrap(),
        (1.0f64 / 6.0).ln()
    ));
    assert!(close(
        model.log_score(&without_f, "B").unwrap(),
        (2.0f64 / 9.0).ln()
    ));
    assert_eq!(model.rank(&without_f, &names(&["A", "B"])), vec![1, 0]);
    // A move training never saw comes last; only the legal moves are ranked.
    assert_eq!(model.rank(&with_f, &names(&["C", "B", "A"])), vec![2, 1, 0]);
    assert_eq!(model.rank(&with_f, &names(&["B"])), vec![0]);
}

#[test]
fn selection_drops_the_features_that_do_not_tell_moves_apart() {
    // f tells A from B perfectly; g is in every row. Keeping one feature keeps f.
    let rows = vec![
        (names(&["f", "g"]), "A".to_owned()),
        (names(&["g"]), "B".to_owned()),
    ];
    let model = MoveModel::train(&rows, Some(1));
    let kept: Vec<&str> = model.selected_features().map(|(name, _)| name).collect();
    assert_eq!(kept, vec!["f"]);
}

#[test]
fn feature_sets_add_legal_moves_as_their_own_features() {
    let atoms = names(&["(cell 1 1 b)"]);
    let legal = names(&["(mark 1 1)"]);
    assert_eq!(FeatureSet::State.features(&atoms, &legal), atoms);
    assert_eq!(
        FeatureSet::Legal.features(&atoms, &legal),
        names(&["legal (mark 1 1)"])
    );
    assert_eq!(
        FeatureSet::StateAndLegal.features(&atoms, &legal),
        names(&["(cell 1 1 b)", "legal (mark 1 1)"])
    );
    for name in FeatureSet::NAMES {
        assert_eq!(FeatureSet::from_name(name).unwrap().name(), name);
    }
}

fn word() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c", "d", "e", "f"]).prop_map(str::to_owned)
}

proptest! {
    /// Whatever was trained and whatever is legal (unseen moves, repeated names included),
    /// the ranking is a permutation of the legal moves: each once, nothing else.
    #[test]
    fn ranking_returns_exactly_the_legal_moves(
        rows in prop::collection::vec((prop::collection::vec(word(), 0..4), word()), 0..12),
        state in prop::collection::vec(word(), 0..5),
        legal in prop::collection::vec(word(), 0..8),
        select in prop::option::of(0usize..6),
    ) {
        let model = MoveModel::train(&rows, select);
        let mut order = model.rank(&state, &legal);
        order.sort_unstable();
        prop_assert_eq!(order, (0..legal.len()).collect::<Vec<_>>());
    }
}

#[test]
fn top_n_curve_and_confidence_by_hand() {
    use super::{Decision, nodes_to_depth, top_n_curve};
    // Training: in state {s} the player made A three times out of four, B once.
    let rows = vec![
        (names(&["s"]), "A".to_owned()),
        (names(&["s"]), "A".to_owned()),
        (names(&["s"]), "A".to_owned()),
        (names(&["s"]), "B".to_owned()),
    ];
    let model = MoveModel::train(&rows, None);
    let decision = |legal: &[&str], chosen: &str| Decision {
        atoms: names(&["s"]),
        legal: names(legal),
        chosen: chosen.to_owned(),
    };
    // Ranked A, B, C (C unseen): A is first, B second, C third; a two-move state: A first.
    let tests = vec![
        decision(&["C", "B", "A"], "A"),
        decision(&["C", "B", "A"], "B"),
        decision(&["C", "B", "A"], "C"),
        decision(&["B", "A"], "A"),
    ];
    let curve = top_n_curve(&model, &tests, FeatureSet::State);
    // Ranks 1, 2, 3, 1: within 1: 2/4, within 2: 3/4, within 3: 4/4.
    assert_eq!(curve.within, vec![0.5, 0.75, 1.0]);
    // At random: three states of 3 moves and one of 2: N = 1: (1/3 · 3 + 1/2) / 4 = 3/8;
    // N = 2: (2/3 · 3 + 1) / 4 = 3/4; N = 3: 1.
    assert!(close(curve.chance[0], 0.375) && close(curve.chance[1], 0.75));
    assert!(close(curve.chance[2], 1.0));
    assert!(close(curve.mean_legal_moves, 2.75));
    assert_eq!(curve.top1(), 0.5);
    assert_eq!(curve.moves_for_confidence(0.75), 2);
    assert_eq!(curve.all_within(), 3);
    // Keeping 2 moves a level: 2 + 4 + 8 = 14 nodes to depth 3.
    assert!(close(nodes_to_depth(2.0, 3), 14.0));
}

/// A model written to JSON and read back ranks every state exactly as before: the file holds
/// training's counts, from which the same probabilities are computed.
#[test]
fn a_saved_model_reads_back_with_the_same_rankings() {
    use super::{GameIdentity, SavedModel, TrainingSource};
    let rows = [
        (names(&["f", "g"]), "A".to_owned()),
        (names(&["f"]), "A".to_owned()),
        (names(&["g"]), "B".to_owned()),
        (names(&["h"]), "C".to_owned()),
        (names(&["f", "h"]), "C".to_owned()),
    ];
    let decisions: Vec<super::Decision> = rows
        .iter()
        .map(|(atoms, chosen)| super::Decision {
            atoms: atoms.clone(),
            legal: names(&["A", "B", "C"]),
            chosen: chosen.clone(),
        })
        .collect();
    let identity = GameIdentity {
        name: "test".to_owned(),
        roles: names(&["one", "two"]),
        initial_state: names(&["f"]),
    };
    let source = TrainingSource::Recorded {
        file: "records.json".to_owned(),
        matches: 1,
    };
    let saved = SavedModel::train(
        identity,
        "one",
        source,
        FeatureSet::StateAndLegal,
        Some(3),
        &decisions,
    );
    let read = SavedModel::from_json(&saved.to_json()).expect("the model reads back");
    assert_eq!(read.source, saved.source);
    assert_eq!(read.game, saved.game);
    for atoms in [
        names(&[]),
        names(&["f"]),
        names(&["g", "h"]),
        names(&["f", "g", "h", "x"]),
    ] {
        let legal = names(&["C", "B", "A", "D"]);
        // Bit for bit: the probabilities are recomputed from the same counts.
        assert_eq!(read.rank(&atoms, &legal), saved.rank(&atoms, &legal));
    }
}

/// Counts that no training could make are refused with what is wrong.
#[test]
fn inconsistent_counts_are_refused() {
    use super::StoredMoveModel;
    let read = |text: &str| -> Result<MoveModel, String> {
        let stored: StoredMoveModel = serde_json::from_str(text).map_err(|e| e.to_string())?;
        MoveModel::try_from(stored)
    };
    let error = read(r#"{"moves": [], "features": []}"#).unwrap_err();
    assert!(error.contains("no move"), "{error}");
    let error = read(
        r#"{"moves": [{"name": "a", "examples": 2}, {"name": "a", "examples": 1}], "features": []}"#,
    )
    .unwrap_err();
    assert!(error.contains("`a` is listed twice"), "{error}");
    let error = read(
        r#"{"moves": [{"name": "a", "examples": 2}],
            "features": [{"name": "f", "chi_square": 1.0, "present": [1, 0]}]}"#,
    )
    .unwrap_err();
    assert!(error.contains("2 counts for 1 moves"), "{error}");
    let error = read(
        r#"{"moves": [{"name": "a", "examples": 2}],
            "features": [{"name": "f", "chi_square": 1.0, "present": [3]}]}"#,
    )
    .unwrap_err();
    assert!(
        error.contains("in 3 rows of move `a`, which has 2"),
        "{error}"
    );
    assert!(
        read(
            r#"{"moves": [{"name": "a", "examples": 2}],
            "features": [{"name": "f", "chi_square": 1.0, "present": [2]}]}"#
        )
        .is_ok()
    );
}

//! Each criterion on hand-built lead histories, with the value worked out by hand in the
//! comment above each assertion.

use super::*;

/// A two-role game of `length` plies whose estimates after each searched ply are `estimates`.
fn game(winner: Option<usize>, estimates: &[[f64; 2]]) -> LeadHistory {
    LeadHistory {
        length: estimates.len() + 1,
        winner,
        abandoned: false,
        first_measured_ply: 2,
        estimates: estimates.iter().map(|e| e.to_vec()).collect(),
        drama: None,
        uncertainty: None,
        options: vec![2; estimates.len() + 1],
        state_hashes: (0..estimates.len() as u64 + 2).collect(),
        board_cells: 0,
        cells_used: 0,
    }
}

fn with_length(length: usize, abandoned: bool) -> LeadHistory {
    LeadHistory {
        length,
        abandoned,
        ..game(None, &[])
    }
}

fn measured(histories: &[LeadHistory], name: &str) -> Option<f64> {
    let trials = Trials {
        roles: 2,
        preferred_length: 60,
        histories,
    };
    (criterion_named(name)
        .expect("a criterion of the catalog")
        .measure)(&trials)
}

fn assert_near(got: Option<f64>, want: f64) {
    let got = got.expect("a value");
    assert!((got - want).abs() < 1e-9, "got {got}, want {want}");
}

#[test]
fn every_criterion_is_listed_once_and_measured_as_none_without_games() {
    let mut names: Vec<&str> = CRITERIA.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CRITERIA.len());
    for value in measure_all(&Trials {
        roles: 2,
        preferred_length: 60,
        histories: &[],
    }) {
        assert_eq!(value.value, None, "{} of no game", value.name);
    }
}

/// A win of each role, a draw that ended by the rules and one abandoned at the limit.
fn four_outcomes() -> Vec<LeadHistory> {
    vec![
        game(Some(0), &[[1.0, 0.0]]),
        game(Some(1), &[[0.0, 1.0]]),
        game(None, &[[0.5, 0.5]]),
        with_length(120, true),
    ]
}

#[test]
fn completion_drawishness_and_timeouts_count_the_outcomes() {
    let games = four_outcomes();
    // Two of the four games won: 2/4.
    assert_near(measured(&games, "completion"), 0.5);
    // The plain draw and the abandoned game: 2/4.
    assert_near(measured(&games, "drawishness"), 0.5);
    // One abandoned game of four.
    assert_near(measured(&games, "timeouts"), 0.25);
}

#[test]
fn balance_and_advantage_compare_the_roles_shares_of_the_wins() {
    let games = [
        game(Some(0), &[[1.0, 0.0]]),
        game(Some(0), &[[1.0, 0.0]]),
        game(Some(0), &[[1.0, 0.0]]),
        game(Some(1), &[[0.0, 1.0]]),
        game(None, &[[0.5, 0.5]]),
    ];
    // Shares of the 4 decided games: 3/4 and 1/4; 1 − (0.75 − 0.25).
    assert_near(measured(&games, "balance"), 0.5);
    // (0.75 − 1/2) · 2 / 1.
    assert_near(measured(&games, "advantage"), 0.5);
    // Only draws: nothing to share.
    assert_eq!(measured(&games[4..], "balance"), None);
}

#[test]
fn outcome_uniformity_is_one_minus_the_mean_variance_of_the_results() {
    let games = [
        game(Some(0), &[[1.0, 0.0]]),
        game(Some(1), &[[0.0, 1.0]]),
        game(None, &[[0.5, 0.5]]),
    ];
    // Role 0 gets 1, −1, 0: mean 0, variance (1 + 1 + 0)/3 = 2/3; role 1 the same.
    // 1 − 2/3.
    assert_near(measured(&games, "outcome_uniformity"), 1.0 / 3.0);
    // Every game alike: no variance.
    let alike = [game(Some(0), &[[1.0, 0.0]]), game(Some(0), &[[1.0, 0.0]])];
    assert_near(measured(&alike, "outcome_uniformity"), 1.0);
}

#[test]
fn the_duration_criteria_measure_the_lengths() {
    let games = [with_length(30, false), with_length(90, true)];
    // |60 − 30|/60 = 0.5 and |60 − 90|/60 = 0.5: 1 − 0.5.
    assert_near(measured(&games, "duration"), 0.5);
    // (30 + 90)/2.
    assert_near(measured(&games, "length"), 60.0);
    // Both 30 from the mean.
    assert_near(measured(&games, "length_spread"), 30.0);
    // The abandoned game left out.
    assert_near(measured(&games, "length_not_abandoned"), 30.0);
}

#[test]
fn the_complexity_criteria_read_the_legal_moves_at_each_ply() {
    let first = LeadHistory {
        options: vec![1, 3, 1, 5],
        ..with_length(4, false)
    };
    let second = LeadHistory {
        options: vec![2, 2],
        ..with_length(2, false)
    };
    let games = [first, second];
    // Decisions with a choice: 3, 5, 2, 2; their mean is 3.
    assert_near(measured(&games, "branching_factor"), 3.0);
    // 4 of the 6 plies had a choice.
    assert_near(measured(&games, "decision_moves"), 4.0 / 6.0);
    // 4 · log10(2.5) and 2 · log10(2), averaged.
    let want = (4.0 * 2.5f64.log10() + 2.0 * 2f64.log10()) / 2.0;
    assert_near(measured(&games, "game_tree_complexity"), want);
}

#[test]
fn drama_is_how_far_behind_the_winner_was() {
    let games = [
        // Behind by 0.68 − 0.32 = 0.36 once: √0.36 = 0.6.
        game(Some(0), &[[0.32, 0.68], [0.7, 0.3], [1.0, 0.0]]),
        // Never behind: 0.
        game(Some(0), &[[0.6, 0.4], [0.7, 0.3], [1.0, 0.0]]),
        // A draw is not counted.
        game(None, &[[0.1, 0.9]]),
    ];
    // (0.6 + 0)/2.
    assert_near(measured(&games, "drama"), 0.3);
}

#[test]
fn uncertainty_is_the_area_below_the_steady_rise() {
    // The winner's lead is 0 then 1. Samples t = s/99: s ≤ 49 read ply 0 (lead 0, distance t),
    // s ≥ 50 read ply 1 (lead 1, distance 0). Σ_{s=0}^{49} s/99 = 1225/99, over 100 samples.
    let games = [game(Some(0), &[[0.5, 0.5], [1.0, 0.0]])];
    assert_near(measured(&games, "uncertainty"), 1225.0 / 9900.0);
}

#[test]
fn lead_change_compares_leaders_a_round_apart() {
    // Leaders 0, 1, 0, 1, 1, 0; pairs two plies apart: (0,0) (1,1) (0,1) (1,0): 2 of 4.
    let games = [game(
        Some(0),
        &[
            [0.6, 0.4],
            [0.4, 0.6],
            [0.6, 0.4],
            [0.4, 0.6],
            [0.3, 0.7],
            [0.7, 0.3],
        ],
    )];
    assert_near(measured(&games, "lead_change"), 0.5);
}

#[test]
fn stability_is_one_minus_four_times_the_estimates_variance() {
    let games = [
        // Each role's estimates jump 0 ↔ 1: variance 1/4 each, stability 1 − 4/4 = 0.
        game(Some(0), &[[0.0, 1.0], [1.0, 0.0]]),
        // Never moving: stability 1.
        game(None, &[[0.5, 0.5], [0.5, 0.5]]),
    ];
    // (0 + 1)/2.
    assert_near(measured(&games, "stability"), 0.5);
}

#[test]
fn decisiveness_is_the_share_played_before_the_lead_settled() {
    // Winner's leads 0.2, 0.6, 0.1, 0.6, 0.8, 1.0: last below 0.5 at ply index 2, settled from
    // index 3; plies after it: 6 − 4 = 2; 1 − 2/6.
    let games = [game(
        Some(0),
        &[
            [0.6, 0.4],
            [0.8, 0.2],
            [0.55, 0.45],
            [0.8, 0.2],
            [0.9, 0.1],
            [1.0, 0.0],
        ],
    )];
    assert_near(measured(&games, "decisiveness"), 2.0 / 3.0);
}

#[test]
fn the_decisiveness_threshold_and_moves_follow_ludii() {
    let games = [game(
        Some(0),
        &[[0.3, 0.7], [0.5, 0.5], [0.8, 0.2], [1.0, 0.0]],
    )];
    // The loser's best estimate: 0.7.
    assert_near(measured(&games, "decisiveness_threshold"), 0.7);
    // The winner first passes 0.7 at index 2 of 4 plies.
    assert_near(measured(&games, "decisiveness_moves"), 0.5);
}

/// Leads of role 0: 0, 0.5, 0, 0.5, 1 (role 1's are their negatives).
fn swinging() -> LeadHistory {
    game(
        Some(0),
        &[
            [0.5, 0.5],
            [0.75, 0.25],
            [0.5, 0.5],
            [0.75, 0.25],
            [1.0, 0.0],
        ],
    )
}

#[test]
fn permanence_is_the_share_of_gains_the_reply_leaves() {
    // Role 0 gains 0.5 at n = 1, and the reply takes it all back (0 < 0 + 0.25): lost;
    // gains 0.5 at n = 3 and keeps it (1 ≥ 0 + 0.25): kept. Role 1 gains 0.5 at n = 2 and
    // loses it at n = 3 (−0.5 < −0.5 + 0.25). One kept of three.
    assert_near(measured(&[swinging()], "permanence"), 1.0 / 3.0);
}

#[test]
fn killer_moves_are_the_largest_swing_before_the_end() {
    let sudden = game(Some(0), &[[0.5, 0.5], [0.5, 0.5], [1.0, 0.0], [1.0, 0.0]]);
    // Swinging: the largest rise before the last ply is 0.5, over 2: 0.25.
    // Sudden: role 0's lead rises from 0 to 1 at n = 2: 1/2 = 0.5. Mean (0.25 + 0.5)/2.
    assert_near(measured(&[swinging(), sudden], "killer_moves"), 0.375);
}

#[test]
fn state_repetition_counts_states_met_again() {
    let repeating = LeadHistory {
        state_hashes: vec![1, 2, 1, 2, 3],
        ..with_length(4, false)
    };
    let fresh = LeadHistory {
        state_hashes: vec![1, 2, 3],
        ..with_length(2, false)
    };
    // 3 distinct of 5: 1 − 3/5 = 0.4; the fresh game 0; mean 0.2.
    assert_near(measured(&[repeating, fresh], "state_repetition"), 0.2);
}

#[test]
fn board_coverage_is_the_mean_share_of_cells_used() {
    let full = LeadHistory {
        board_cells: 9,
        cells_used: 9,
        ..with_length(9, false)
    };
    let corner = LeadHistory {
        board_cells: 9,
        cells_used: 3,
        ..with_length(5, false)
    };
    // A game without a board is left out.
    let boardless = with_length(1, false);
    // (9/9 + 3/9) / 2 = 2/3.
    assert_near(
        measured(&[full, corner, boardless.clone()], "board_coverage"),
        2.0 / 3.0,
    );
    assert_eq!(measured(&[boardless], "board_coverage"), None);
}

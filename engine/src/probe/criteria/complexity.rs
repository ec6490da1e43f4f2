//! Criteria of the size of the decisions, from `options`: at each ply of a game, the number of
//! legal moves of the role with most (the mover's, in a turn-taking game).

use super::{Trials, mean};

/// Branching factor: the mean of `options` over the plies where the mover had a choice
/// (options ≥ 2), over all games: the legal moves per real decision.
pub fn branching_factor(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .flat_map(|h| h.options.iter())
            .filter(|&&n| n >= 2)
            .map(|&n| n as f64),
    )
}

/// Decision moves (Ludii `complexity/DecisionMoves`): the share of plies, over all games,
/// where the mover had more than one legal move.
pub fn decision_moves(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .flat_map(|h| h.options.iter())
            .map(|&n| if n >= 2 { 1.0 } else { 0.0 }),
    )
}

/// Game-tree complexity (Ludii `complexity/GameTreeComplexity`):
/// `mean_g (M_g · log10 b_g)`, where `M_g` is the plies of game g and `b_g` the mean of its
/// `options`: the log10 of the number of move sequences a game of that length and breadth has.
pub fn game_tree_complexity(trials: &Trials) -> Option<f64> {
    mean(trials.histories.iter().filter_map(|h| {
        let breadth = mean(h.options.iter().map(|&n| n as f64))?;
        Some(h.options.len() as f64 * breadth.max(1.0).log10())
    }))
}

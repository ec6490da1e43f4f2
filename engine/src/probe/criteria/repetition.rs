//! Criteria of states met again, from `state_hashes`: the hash of every state of a game, the
//! initial one first.

use std::collections::HashSet;

use super::{Trials, mean};

/// State repetition (Ludii `stateRepetition/SituationalRepetition`, and `PositionalRepetition`
/// where the state is the board alone): `mean_g (1 − distinct states / states)` over the states
/// of each game, the initial one included. The engines' states hold whose turn it is, so this is
/// the situational kind.
pub fn state_repetition(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .filter(|h| !h.state_hashes.is_empty())
            .map(|h| {
                let distinct: HashSet<u64> = h.state_hashes.iter().copied().collect();
                1.0 - distinct.len() as f64 / h.state_hashes.len() as f64
            }),
    )
}

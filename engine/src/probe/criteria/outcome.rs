//! Criteria of the games' outcomes: the seed's viability criteria and Ludii's outcome metrics.
//! G is the number of games played, D the number decided (won by one role).

use super::{Trials, mean, variance};

/// Completion (seed eq. (2); Ludii `outcome/Completion`): `wins / G`, the share of games won
/// by some role.
pub fn completion(trials: &Trials) -> Option<f64> {
    let games = trials.games();
    (games > 0).then(|| trials.decided().count() as f64 / games as f64)
}

/// Drawishness (Ludii `outcome/Drawishness`): `(G − D) / G`, abandoned games counting as
/// draws, as the seed scores them ("abandoned as draws").
pub fn drawishness(trials: &Trials) -> Option<f64> {
    completion(trials).map(|completion| 1.0 - completion)
}

/// Timeouts (Ludii `outcome/Timeouts`; the seed's "do not end within a reasonable number of
/// moves"): the share of games abandoned at the length limit (or that could not go on).
pub fn timeouts(trials: &Trials) -> Option<f64> {
    let games = trials.games();
    (games > 0)
        .then(|| trials.histories.iter().filter(|h| h.abandoned).count() as f64 / games as f64)
}

/// Each role's share of the decided games; `None` without a decided game or with one role.
fn win_shares(trials: &Trials) -> Option<Vec<f64>> {
    let wins = trials.wins_by_role();
    let decided: usize = wins.iter().sum();
    (decided > 0 && trials.roles > 1)
        .then(|| wins.iter().map(|&w| w as f64 / decided as f64).collect())
}

/// Balance (Ludii `outcome/Balance`; the seed's "very unbalanced towards either player"):
/// `1 − (max_r s_r − min_r s_r)` where `s_r` is role r's share of the decided games.
pub fn balance(trials: &Trials) -> Option<f64> {
    let shares = win_shares(trials)?;
    let max = shares.iter().copied().fold(0.0, f64::max);
    let min = shares.iter().copied().fold(1.0, f64::min);
    Some(1.0 - (max - min))
}

/// First-move advantage (Ludii `outcome/AdvantageP1`; the seed's "serious first or second move
/// advantage"): `(s_1 − 1/n) · n / (n − 1)` for n roles, where `s_1` is the first role's share
/// of the decided games: 1 when it wins them all, 0 when even, −1/(n − 1) when it never wins.
pub fn first_move_advantage(trials: &Trials) -> Option<f64> {
    let shares = win_shares(trials)?;
    let n = trials.roles as f64;
    Some((shares[0] - 1.0 / n) * n / (n - 1.0))
}

/// Outcome uniformity (Ludii `outcome/OutcomeUniformity`): `1 − mean_r Var_g(u_r(g))`, where
/// `u_r(g)` is role r's result in game g: 1 for a win, −1 for a loss, 0 for a draw. 1 when every
/// game ends alike, 0 when each role wins half and loses half.
pub fn outcome_uniformity(trials: &Trials) -> Option<f64> {
    if trials.games() == 0 || trials.roles == 0 {
        return None;
    }
    let per_role = (0..trials.roles).map(|role| {
        let results: Vec<f64> = trials
            .histories
            .iter()
            .map(|h| match h.winner {
                Some(winner) if winner == role => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            })
            .collect();
        variance(&results)
    });
    mean(per_role).map(|v| 1.0 - v)
}

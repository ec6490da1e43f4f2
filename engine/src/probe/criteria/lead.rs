//! Criteria of the lead histories: after each searched ply n of game g, every role's estimate
//! `E_r(n)` of its position, 0..1 (the goal once the game is over). In a decided game `E_w` is
//! the eventual winner's estimate and `E_l` the strongest loser's; their difference is the
//! seed's thick line of Figs. 7 and 8.

use super::{Trials, mean, variance};
use crate::probe::LeadHistory;

/// Samples along each game for the uncertainty criterion (the seed's S).
const UNCERTAINTY_SAMPLES: usize = 100;

/// The winner's lead (on the 0..1 scale of the players' estimates) beyond which the game counts
/// as settled, for decisiveness.
const SETTLED_LEAD: f64 = 0.5;

/// A gain in lead smaller than this is noise, not a move that gained anything (permanence).
const GAIN: f64 = 0.01;

/// `role`'s value in `estimates` and the strongest other role's (0 without one; the values are
/// not negative). The evaluators of EGGG and GDL compare a role with its rival by it too.
pub(crate) fn mine_and_strongest_other(estimates: &[f64], role: usize) -> (f64, f64) {
    let mine = estimates.get(role).copied().unwrap_or(0.0);
    let theirs = estimates
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != role)
        .map(|(_, &e)| e)
        .fold(0.0, f64::max);
    (mine, theirs)
}

/// In a decided game, `(E_w(n), E_l(n))` after each searched ply: the eventual winner's
/// estimate and the strongest loser's. Empty for a draw.
pub fn sides(history: &LeadHistory) -> Vec<(f64, f64)> {
    let Some(winner) = history.winner else {
        return Vec::new();
    };
    history
        .estimates
        .iter()
        .map(|estimates| mine_and_strongest_other(estimates, winner))
        .collect()
}

/// Role r's lead after each searched ply: `E_r(n) − max_{q≠r} E_q(n)`, −1..1.
fn leads_of(history: &LeadHistory, role: usize) -> Vec<f64> {
    history
        .estimates
        .iter()
        .map(|estimates| {
            let (mine, theirs) = mine_and_strongest_other(estimates, role);
            mine - theirs
        })
        .collect()
}

fn roles_of(history: &LeadHistory) -> usize {
    history.estimates.first().map_or(0, Vec::len)
}

/// The mean of `per_game` over the decided games.
fn over_decided(trials: &Trials, per_game: fn(&LeadHistory) -> f64) -> Option<f64> {
    mean(trials.decided().map(per_game))
}

/// Drama of one decided game (seed eq. (4)): over the plies n where `E_w(n) < E_l(n)`, the mean
/// of `sqrt(E_l(n) − E_w(n))`; 0 when the winner was never behind.
pub fn drama_of(history: &LeadHistory) -> f64 {
    mean(
        sides(history)
            .iter()
            .filter(|(w, l)| w < l)
            .map(|(w, l)| (l - w).sqrt()),
    )
    .unwrap_or(0.0)
}

/// Drama (seed eq. (4)): [`drama_of`] averaged over the decided games.
pub fn drama(trials: &Trials) -> Option<f64> {
    over_decided(trials, drama_of)
}

/// Uncertainty of one decided game (seed eq. (5)): at S = 100 times `t = s/(S−1)` across the
/// game, `clamp(t − (E_w − E_l)(round(t·(N−1))), 0, 1)`, averaged: how far the winner's lead
/// stays below the straight line from even (t = 0) to won (t = 1).
pub fn uncertainty_of(history: &LeadHistory) -> f64 {
    let sides = sides(history);
    if sides.is_empty() {
        return 0.0;
    }
    let last = sides.len() - 1;
    mean((0..UNCERTAINTY_SAMPLES).map(|s| {
        let t = s as f64 / (UNCERTAINTY_SAMPLES - 1) as f64;
        let (w, l) = sides[(t * last as f64).round() as usize];
        (t - (w - l)).clamp(0.0, 1.0)
    }))
    .unwrap_or(0.0)
}

/// Uncertainty (seed eq. (5)): [`uncertainty_of`] averaged over the decided games.
pub fn uncertainty(trials: &Trials) -> Option<f64> {
    over_decided(trials, uncertainty_of)
}

/// Lead change of one game (seed Fig. 10; Ludii `stateEvaluation/LeadChange`): the leader
/// after ply n is the one role with the highest estimate (none on a tie); the share of pairs
/// (n, n + R), R the number of roles, whose leaders are two different roles. Positions are
/// compared a full round apart, since right after a move the mover usually looks better and
/// consecutive plies would count that rhythm as lead changes. 0 for games of at most R plies.
pub fn lead_change_of(history: &LeadHistory) -> f64 {
    let leader = |estimates: &Vec<f64>| -> Option<usize> {
        let best = estimates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let at: Vec<usize> = (0..estimates.len())
            .filter(|&r| estimates[r] == best)
            .collect();
        (at.len() == 1).then(|| at[0])
    };
    let round = roles_of(history).max(1);
    let leaders: Vec<Option<usize>> = history.estimates.iter().map(leader).collect();
    if leaders.len() <= round {
        return 0.0;
    }
    let pairs = leaders.len() - round;
    let changes = (0..pairs)
        .filter(|&i| matches!((leaders[i], leaders[i + round]), (Some(a), Some(b)) if a != b))
        .count();
    changes as f64 / pairs as f64
}

/// Lead change: [`lead_change_of`] averaged over the games with more than one measured ply.
pub fn lead_change(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .filter(|h| h.estimates.len() > 1)
            .map(lead_change_of),
    )
}

/// Stability (Ludii `stateEvaluation/Stability`, and the seed's "survey participants appear to
/// prefer stable games"): `1 − 4 · mean_g mean_r Var_n(E_r(n))`. Ludii reports the variance
/// summed over the roles; here it is averaged over them and turned so that 1 is a game whose
/// estimates never move and 0 one whose estimates jump between 0 and 1 (variance 1/4, the most
/// a 0..1 series can have).
pub fn stability(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .filter(|h| !h.estimates.is_empty())
            .filter_map(|h| {
                mean((0..roles_of(h)).map(|role| {
                    let series: Vec<f64> = h
                        .estimates
                        .iter()
                        .map(|e| e.get(role).copied().unwrap_or(0.0))
                        .collect();
                    variance(&series)
                }))
            }),
    )
    .map(|v| 1.0 - 4.0 * v)
}

/// Decisiveness of one decided game (Thompson's decisiveness, seed §IV.A: "end quickly once a
/// winner is certain"): the winner's lead is settled from the first ply n after which
/// `E_w − E_l ≥ 0.5` for good; `1 − (plies measured after n) / (plies measured)`. 1 when the
/// game ends as soon as the winner is clear.
pub fn decisiveness_of(history: &LeadHistory) -> f64 {
    let sides = sides(history);
    if sides.is_empty() {
        return 1.0;
    }
    let settled_from = sides
        .iter()
        .rposition(|(w, l)| w - l < SETTLED_LEAD)
        .map_or(0, |i| i + 1);
    let after = sides.len().saturating_sub(settled_from + 1);
    1.0 - after as f64 / sides.len() as f64
}

/// Decisiveness: [`decisiveness_of`] averaged over the decided games.
pub fn decisiveness(trials: &Trials) -> Option<f64> {
    over_decided(trials, decisiveness_of)
}

/// The highest estimate a loser of a decided game reached (0 when none was measured).
fn threshold_of(history: &LeadHistory) -> f64 {
    sides(history)
        .iter()
        .map(|&(_, loser)| loser)
        .fold(0.0, f64::max)
}

/// Decisiveness threshold (Ludii `stateEvaluation/decisiveness/DecisivenessThreshold`): in each
/// decided game, `max_n E_l(n)`, the best a loser ever looked; averaged over the decided games.
pub fn decisiveness_threshold(trials: &Trials) -> Option<f64> {
    over_decided(trials, threshold_of)
}

/// Decisiveness moves (Ludii `stateEvaluation/decisiveness/DecisivenessMoves`): in each decided
/// game, the first measured ply n with `E_w(n)` above the game's decisiveness threshold, over
/// the plies measured (1 when it never is); averaged over the decided games. Small when the
/// winner soon looks better than the loser ever will.
pub fn decisiveness_moves(trials: &Trials) -> Option<f64> {
    over_decided(trials, |history| {
        let sides = sides(history);
        if sides.is_empty() {
            return 1.0;
        }
        let threshold = threshold_of(history);
        let first = sides
            .iter()
            .position(|&(winner, _)| winner > threshold)
            .unwrap_or(sides.len());
        first as f64 / sides.len() as f64
    })
}

/// Permanence (named by the seed among its best predictors, Fig. 10, "strong moves are
/// reasonably permanent"; the formula is this project's): for every role r and ply n at which
/// r's lead `L_r` rose by `g = L_r(n) − L_r(n−1) ≥ 0.01`, the gain is kept when the next ply
/// leaves at least half of it, `L_r(n+1) ≥ L_r(n−1) + g/2`. The share of gains kept, over every
/// role and game (the last ply, which has no reply, is not counted); `None` without a gain.
pub fn permanence(trials: &Trials) -> Option<f64> {
    let mut gains = 0usize;
    let mut kept = 0usize;
    for history in trials.histories {
        for role in 0..roles_of(history) {
            let lead = leads_of(history, role);
            for n in 1..lead.len().saturating_sub(1) {
                let gain = lead[n] - lead[n - 1];
                if gain >= GAIN {
                    gains += 1;
                    if lead[n + 1] >= lead[n - 1] + gain / 2.0 {
                        kept += 1;
                    }
                }
            }
        }
    }
    (gains > 0).then(|| kept as f64 / gains as f64)
}

/// Killer moves (named by the seed among its best predictors, Fig. 10; the formula is this
/// project's): in each game, the largest rise of any role's lead in one ply,
/// `max_{r,n} (L_r(n) − L_r(n−1)) / 2` (a lead spans −1..1, so a swing spans 0..2), the
/// game-ending ply left out since the end always swings the lead to the winner; averaged over
/// the games with at least three measured plies. High when single moves turn games.
pub fn killer_moves(trials: &Trials) -> Option<f64> {
    mean(
        trials
            .histories
            .iter()
            .filter(|h| h.estimates.len() >= 3)
            .map(|history| {
                let until = history.estimates.len() - 1;
                (0..roles_of(history))
                    .flat_map(|role| {
                        let lead = leads_of(history, role);
                        (1..until)
                            .map(|n| (lead[n] - lead[n - 1]) / 2.0)
                            .collect::<Vec<_>>()
                    })
                    .fold(0.0, f64::max)
            }),
    )
}

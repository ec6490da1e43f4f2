//! The probe's measurements and the seed's viability test. A game is not viable when it
//! (1) results in draws more often than not, (2) is very unbalanced towards either player,
//! (3) has a serious first- or second-move advantage, or (4) does not end within a reasonable
//! number of moves. The seed gives no thresholds; these are the probe's:
//! (1) more than half the games drawn; (2) and (3) one side winning at least 75 % of the decided
//! games; (4) more than half the games abandoned at twice the preferred length.

use std::time::Duration;

use super::{GameRecord, PREFERRED_LENGTH, ProbeSettings};
use crate::RoleIndex;

/// A share of decided games at or beyond which one side's wins are "very unbalanced" or "a
/// serious advantage".
const LOPSIDED: f64 = 0.75;

/// Samples along each game for the uncertainty criterion (the seed's S).
const UNCERTAINTY_SAMPLES: usize = 100;

/// The winner's lead (on the 0..1 scale of the players' estimates) beyond which the game counts
/// as settled, for decisiveness.
const SETTLED_LEAD: f64 = 0.5;

#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub viable: bool,
    /// Why not, one sentence per failed test (empty when viable).
    pub reasons: Vec<String>,
}

/// Everything the probe measured. Shares are 0..1.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeReport {
    pub roles: Vec<String>,
    /// Games played (fewer than asked when the time limit stopped the probe).
    pub games: usize,
    /// Wins by role, in the game's role order.
    pub wins: Vec<usize>,
    pub draws: usize,
    /// Games won by some player (the seed's completion criterion).
    pub completion: f64,
    /// Games drawn, abandoned ones included.
    pub drawishness: f64,
    /// Games abandoned at the length limit.
    pub timeouts: f64,
    /// 1 − (largest − smallest share of the decided games won by a role); `None` without a
    /// decided game.
    pub balance: Option<f64>,
    /// How much more often the first player wins than an even share: 1 when they win every
    /// decided game, 0 when even, −1/(roles − 1) when they never win (−1 with two players).
    pub first_move_advantage: Option<f64>,
    /// Plies per game, the random opening included, and their standard deviation.
    pub avg_length: f64,
    pub length_spread: f64,
    /// The seed's duration criterion: 1 − the mean of |preferred length − length| / preferred.
    pub duration: f64,
    /// Legal moves per decision, on average.
    pub branching_factor: f64,
    /// The seed's drama: how far behind, and how often, the eventual winner was.
    pub drama: f64,
    /// The seed's uncertainty: how far the winner's lead stays below a steady rise to victory.
    pub uncertainty: f64,
    /// How often the leader changes from one move to the next.
    pub lead_change: f64,
    /// The share of a decided game played before its outcome was settled: 1 when a game ends as
    /// soon as the winner is clear.
    pub decisiveness: f64,
    pub verdict: Verdict,
    /// The probe's wall-clock time.
    pub seconds: f64,
    /// Every game played, in order: its outcome and lead history.
    pub histories: Vec<LeadHistory>,
}

impl ProbeReport {
    /// Each role's wins, as people read them: `white 12, black 9`.
    pub fn wins_listed(&self) -> String {
        let wins: Vec<String> = self
            .roles
            .iter()
            .zip(&self.wins)
            .map(|(role, wins)| format!("{role} {wins}"))
            .collect();
        wins.join(", ")
    }
}

/// One self-play game as the probe saw it: its outcome and its lead history — every role's
/// estimate of its position after each searched ply, the series that drama, uncertainty, lead
/// change and decisiveness are measured on, as the seed's Figs. 7 and 8 draw it.
#[derive(Clone, Debug, PartialEq)]
pub struct LeadHistory {
    /// Plies played, the random opening included.
    pub length: usize,
    /// The role that won; `None` for a draw.
    pub winner: Option<RoleIndex>,
    /// Abandoned as a draw at the length limit, or because the game could not go on.
    pub abandoned: bool,
    /// The ply (counted from 1) after which `estimates[0]` was taken: the random opening is not
    /// measured.
    pub first_measured_ply: usize,
    /// After each searched ply, every role's estimate of its position, 0..1, in the game's
    /// role order (the goal once the game is over).
    pub estimates: Vec<Vec<f64>>,
    /// This game's drama and uncertainty, as the report's means count them (decided games only).
    pub drama: Option<f64>,
    pub uncertainty: Option<f64>,
}

impl LeadHistory {
    /// The ply after which `estimates[index]` was taken.
    pub fn ply(&self, index: usize) -> usize {
        self.first_measured_ply + index
    }

    /// In a decided game, the winner's lead over the strongest loser after each searched ply,
    /// −1..1: the seed's thick line, below zero while the eventual winner was behind.
    pub fn winner_lead(&self) -> Option<Vec<f64>> {
        self.winner.map(|winner| {
            sides_of(Some(winner), &self.estimates)
                .iter()
                .map(|(mine, theirs)| mine - theirs)
                .collect()
        })
    }
}

pub(crate) fn measure(
    roles: &[String],
    records: &[GameRecord],
    settings: &ProbeSettings,
    elapsed: Duration,
) -> ProbeReport {
    let games = records.len();
    let share = |count: usize| {
        if games == 0 {
            0.0
        } else {
            count as f64 / games as f64
        }
    };
    let mut wins = vec![0; roles.len()];
    for record in records {
        if let Some(winner) = record.winner {
            wins[winner] += 1;
        }
    }
    let decided: usize = wins.iter().sum();
    let draws = games - decided;
    let timeouts = records.iter().filter(|r| r.timed_out).count();
    let shares: Vec<f64> = wins
        .iter()
        .map(|&w| w as f64 / decided.max(1) as f64)
        .collect();
    let balance = (decided > 0 && roles.len() > 1).then(|| {
        let max = shares.iter().copied().fold(0.0, f64::max);
        let min = shares.iter().copied().fold(1.0, f64::min);
        1.0 - (max - min)
    });
    let first_move_advantage = (decided > 0 && roles.len() > 1).then(|| {
        let n = roles.len() as f64;
        (shares[0] - 1.0 / n) * n / (n - 1.0)
    });
    let lengths: Vec<f64> = records.iter().map(|r| r.length as f64).collect();
    let avg_length = mean(&lengths);
    let length_spread = mean(
        &lengths
            .iter()
            .map(|l| (l - avg_length).powi(2))
            .collect::<Vec<_>>(),
    )
    .sqrt();
    let preferred = PREFERRED_LENGTH as f64;
    let duration = 1.0
        - mean(
            &lengths
                .iter()
                .map(|l| (preferred - l).abs() / preferred)
                .collect::<Vec<_>>(),
        );
    let branching: Vec<f64> = records
        .iter()
        .flat_map(|r| r.branching.iter().map(|&b| b as f64))
        .collect();
    let won: Vec<&GameRecord> = records.iter().filter(|r| r.winner.is_some()).collect();
    let drama = mean(&won.iter().map(|r| drama(r)).collect::<Vec<_>>());
    let uncertainty = mean(&won.iter().map(|r| uncertainty(r)).collect::<Vec<_>>());
    let decisiveness = mean(&won.iter().map(|r| decisiveness(r)).collect::<Vec<_>>());
    let lead_change = mean(
        &records
            .iter()
            .filter(|r| r.leads.len() > 1)
            .map(lead_change)
            .collect::<Vec<_>>(),
    );
    let mut report = ProbeReport {
        roles: roles.to_vec(),
        games,
        wins,
        draws,
        completion: share(decided),
        drawishness: share(draws),
        timeouts: share(timeouts),
        balance,
        first_move_advantage,
        avg_length,
        length_spread,
        duration,
        branching_factor: mean(&branching),
        drama,
        uncertainty,
        lead_change,
        decisiveness,
        verdict: Verdict {
            viable: false,
            reasons: Vec::new(),
        },
        seconds: elapsed.as_secs_f64(),
        histories: lead_histories(records, settings),
    };
    report.verdict = verdict(&report, settings);
    report
}

fn lead_histories(records: &[GameRecord], settings: &ProbeSettings) -> Vec<LeadHistory> {
    records
        .iter()
        .map(|record| LeadHistory {
            length: record.length,
            winner: record.winner,
            abandoned: record.timed_out,
            first_measured_ply: settings.random_plies + 1,
            estimates: record.leads.clone(),
            drama: record.winner.map(|_| drama(record)),
            uncertainty: record.winner.map(|_| uncertainty(record)),
        })
        .collect()
}

fn verdict(report: &ProbeReport, settings: &ProbeSettings) -> Verdict {
    let mut reasons = Vec::new();
    let percent = |share: f64| format!("{:.0} %", share * 100.0);
    if report.games == 0 {
        reasons
            .push("no game was played (none asked for, or the time limit came first)".to_owned());
    }
    if report.games > 0 && report.drawishness > 0.5 {
        reasons.push(format!(
            "it results in draws more often than not ({} of the games)",
            percent(report.drawishness)
        ));
    }
    let decided: usize = report.wins.iter().sum();
    let mut first_move_reason = false;
    if report.first_move_advantage.is_some() {
        let first_share = report.wins[0] as f64 / decided as f64;
        if first_share >= LOPSIDED {
            reasons.push(format!(
                "the first player has a serious advantage (won {} of the decided games)",
                percent(first_share)
            ));
            first_move_reason = true;
        } else if report.roles.len() == 2 && first_share <= 1.0 - LOPSIDED {
            reasons.push(format!(
                "the second player has a serious advantage (won {} of the decided games)",
                percent(1.0 - first_share)
            ));
            first_move_reason = true;
        }
    }
    // With the roles always moving in the same order, balance between the roles and the
    // first-move advantage are one measure: say it once.
    if !first_move_reason
        && decided > 0
        && let Some((role, &w)) = report.wins.iter().enumerate().max_by_key(|&(_, &w)| w)
        && w as f64 / decided as f64 >= LOPSIDED
        && report.roles.len() > 2
    {
        reasons.push(format!(
            "it is very unbalanced towards {} (won {} of the decided games)",
            report.roles[role],
            percent(w as f64 / decided as f64)
        ));
    }
    if report.games > 0 && report.timeouts > 0.5 {
        reasons.push(format!(
            "it does not end within a reasonable number of moves ({} of the games passed {} plies)",
            percent(report.timeouts),
            settings.max_length
        ));
    }
    Verdict {
        viable: reasons.is_empty(),
        reasons,
    }
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The winner's and the strongest loser's estimates after each searched ply.
fn sides(record: &GameRecord) -> Vec<(f64, f64)> {
    sides_of(record.winner, &record.leads)
}

/// [`sides`] of a game won by `winner` whose estimates after each searched ply are `leads`.
fn sides_of(winner: Option<RoleIndex>, leads: &[Vec<f64>]) -> Vec<(f64, f64)> {
    let Some(winner) = winner else {
        return Vec::new();
    };
    leads
        .iter()
        .map(|estimates| {
            let mine = estimates.get(winner).copied().unwrap_or(0.0);
            let theirs = estimates
                .iter()
                .enumerate()
                .filter(|&(r, _)| r != winner)
                .map(|(_, &e)| e)
                .fold(0.0, f64::max);
            (mine, theirs)
        })
        .collect()
}

/// Seed eq. (4): over the moves on which the eventual winner was behind, the mean of the square
/// root of how far behind (0 when never behind).
fn drama(record: &GameRecord) -> f64 {
    let behind: Vec<f64> = sides(record)
        .iter()
        .filter(|(w, l)| w < l)
        .map(|(w, l)| (l - w).sqrt())
        .collect();
    mean(&behind)
}

/// Seed eq. (5): sampled at S points t across the game, how far the winner's lead stays below
/// the straight line from even (t = 0) to won (t = 1).
fn uncertainty(record: &GameRecord) -> f64 {
    let sides = sides(record);
    if sides.is_empty() {
        return 0.0;
    }
    let last = sides.len() - 1;
    let samples: Vec<f64> = (0..UNCERTAINTY_SAMPLES)
        .map(|s| {
            let t = s as f64 / (UNCERTAINTY_SAMPLES - 1) as f64;
            let (w, l) = sides[(t * last as f64).round() as usize];
            (t - (w - l)).clamp(0.0, 1.0)
        })
        .collect();
    mean(&samples)
}

/// The share of a game's rounds across which the leader changed. Positions are compared a full
/// round apart (one move of every role), since right after a move the mover usually looks
/// better, and comparing consecutive plies would count that rhythm as lead changes.
fn lead_change(record: &GameRecord) -> f64 {
    let leader = |estimates: &Vec<f64>| -> Option<usize> {
        let best = estimates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let at: Vec<usize> = (0..estimates.len())
            .filter(|&r| estimates[r] == best)
            .collect();
        (at.len() == 1).then(|| at[0])
    };
    let round = record.leads.first().map_or(1, Vec::len).max(1);
    let leaders: Vec<Option<usize>> = record.leads.iter().map(leader).collect();
    if leaders.len() <= round {
        return 0.0;
    }
    let pairs = leaders.len() - round;
    let changes = (0..pairs)
        .filter(|&i| matches!((leaders[i], leaders[i + round]), (Some(a), Some(b)) if a != b))
        .count();
    changes as f64 / pairs as f64
}

/// 1 − the share of the searched plies played after the winner's lead became settled for good.
fn decisiveness(record: &GameRecord) -> f64 {
    let sides = sides(record);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn record(winner: Option<usize>, leads: &[[f64; 2]]) -> GameRecord {
        GameRecord {
            length: leads.len() + 1,
            winner,
            timed_out: false,
            leads: leads.iter().map(|l| l.to_vec()).collect(),
            branching: vec![2; leads.len()],
        }
    }

    fn report(records: &[GameRecord]) -> ProbeReport {
        let roles = ["White".to_owned(), "Black".to_owned()];
        measure(&roles, records, &ProbeSettings::default(), Duration::ZERO)
    }

    #[test]
    fn a_winner_never_behind_gives_no_drama_and_one_behind_does() {
        let steady = record(Some(0), &[[0.6, 0.4], [0.7, 0.3], [1.0, 0.0]]);
        assert_eq!(drama(&steady), 0.0);
        // Behind by 0.36 once: the square root of the deficit.
        let comeback = record(Some(0), &[[0.32, 0.68], [0.7, 0.3], [1.0, 0.0]]);
        assert!((drama(&comeback) - 0.6).abs() < 1e-9);
    }

    #[test]
    fn all_draws_are_not_viable_and_say_why() {
        let draws: Vec<GameRecord> = (0..4).map(|_| record(None, &[[0.5, 0.5]])).collect();
        let report = report(&draws);
        assert_eq!(report.completion, 0.0);
        assert_eq!(report.drawishness, 1.0);
        assert_eq!(report.balance, None);
        assert!(!report.verdict.viable);
        assert!(report.verdict.reasons[0].contains("draws"));
    }

    #[test]
    fn a_first_player_who_always_wins_is_a_serious_advantage() {
        let wins: Vec<GameRecord> = (0..4)
            .map(|_| record(Some(0), &[[0.6, 0.4], [1.0, 0.0]]))
            .collect();
        let report = report(&wins);
        assert_eq!(report.first_move_advantage, Some(1.0));
        assert_eq!(report.balance, Some(0.0));
        assert!(!report.verdict.viable);
        assert_eq!(
            report.verdict.reasons.len(),
            1,
            "balance and first move are one measure"
        );
    }

    #[test]
    fn the_histories_keep_the_series_the_criteria_are_measured_on() {
        let comeback = record(Some(0), &[[0.32, 0.68], [0.7, 0.3], [1.0, 0.0]]);
        let draw = record(None, &[[0.5, 0.5]]);
        let report = report(&[comeback.clone(), draw]);
        assert_eq!(report.histories.len(), 2);
        let won = &report.histories[0];
        assert_eq!(won.estimates, comeback.leads);
        assert_eq!(won.winner, Some(0));
        // The random opening (one ply by default) is not measured.
        assert_eq!(
            won.first_measured_ply,
            ProbeSettings::default().random_plies + 1
        );
        assert_eq!(won.ply(2), won.first_measured_ply + 2);
        // The only decided game: the report's means are its own figures.
        assert_eq!(won.drama, Some(report.drama));
        assert_eq!(won.uncertainty, Some(report.uncertainty));
        let lead = won.winner_lead().expect("a decided game");
        let expected = [-0.36, 0.4, 1.0];
        assert_eq!(lead.len(), expected.len());
        for (got, want) in lead.iter().zip(expected) {
            assert!((got - want).abs() < 1e-9, "{lead:?}");
        }
        let drawn = &report.histories[1];
        assert_eq!(
            (drawn.winner, drawn.drama, drawn.winner_lead()),
            (None, None, None)
        );
    }

    #[test]
    fn even_results_are_viable() {
        let mut games: Vec<GameRecord> = (0..3)
            .map(|_| record(Some(0), &[[0.6, 0.4], [1.0, 0.0]]))
            .collect();
        games.extend((0..3).map(|_| record(Some(1), &[[0.4, 0.6], [0.0, 1.0]])));
        let report = report(&games);
        assert_eq!(report.first_move_advantage, Some(0.0));
        assert!(report.verdict.viable, "{:?}", report.verdict);
    }
}

//! The probe's measurements and the seed's viability test. A game is not viable when it
//! (1) results in draws more often than not, (2) is very unbalanced towards either player,
//! (3) has a serious first- or second-move advantage, or (4) does not end within a reasonable
//! number of moves. The seed gives no thresholds; these are the probe's:
//! (1) more than half the games drawn; (2) and (3) one side winning at least 75 % of the decided
//! games; (4) more than half the games abandoned at twice the preferred length.

use std::time::Duration;

use super::criteria::{self, CriterionValue, Trials};
use super::{GameRecord, PREFERRED_LENGTH, ProbeSettings};
use crate::RoleIndex;

/// A share of decided games at or beyond which one side's wins are "very unbalanced" or "a
/// serious advantage".
const LOPSIDED: f64 = 0.75;

/// Games below which a verdict is tentative: with fewer, one game more or less moves a share by
/// over 5 points, and the 75 % line of the balance tests cannot be told from chance (a fair
/// game's first player wins 75 % of 8 decided games one time in seven).
pub const FIRM_VERDICT_GAMES: usize = 20;

#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    pub viable: bool,
    /// Why not, one sentence per failed test (empty when viable).
    pub reasons: Vec<String>,
    /// Set when the verdict rests on fewer than [`FIRM_VERDICT_GAMES`] games (but some): a
    /// sentence saying so, to show beside the verdict.
    pub tentative: Option<String>,
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
    /// Every criterion of [`criteria::CRITERIA`], in its order (the figures above among them).
    pub criteria: Vec<CriterionValue>,
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
    /// At each ply (the random opening included), the number of legal moves of the role with
    /// most: the complexity criteria's series.
    pub options: Vec<usize>,
    /// The hash of every state of the game, the initial one first: the repetition criteria's.
    pub state_hashes: Vec<u64>,
    /// The cells of the board as the engine draws it (0 for a game without a board) and how
    /// many of them held a piece at some point of the game: the board coverage criterion's.
    pub board_cells: usize,
    pub cells_used: usize,
}

impl LeadHistory {
    /// The ply after which `estimates[index]` was taken.
    pub fn ply(&self, index: usize) -> usize {
        self.first_measured_ply + index
    }

    /// In a decided game, the winner's lead over the strongest loser after each searched ply,
    /// −1..1: the seed's thick line, below zero while the eventual winner was behind.
    pub fn winner_lead(&self) -> Option<Vec<f64>> {
        self.winner.map(|_| {
            criteria::sides(self)
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
    let histories = lead_histories(records);
    let trials = Trials {
        roles: roles.len(),
        preferred_length: PREFERRED_LENGTH,
        histories: &histories,
    };
    let criteria = criteria::measure_all(&trials);
    let value = |name: &str| {
        criteria
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.value)
    };
    let wins = trials.wins_by_role();
    let draws = records.len() - wins.iter().sum::<usize>();
    let mut report = ProbeReport {
        roles: roles.to_vec(),
        games: records.len(),
        wins,
        draws,
        completion: value("completion").unwrap_or(0.0),
        drawishness: value("drawishness").unwrap_or(0.0),
        timeouts: value("timeouts").unwrap_or(0.0),
        balance: value("balance"),
        first_move_advantage: value("advantage"),
        avg_length: value("length").unwrap_or(0.0),
        length_spread: value("length_spread").unwrap_or(0.0),
        duration: value("duration").unwrap_or(1.0),
        branching_factor: value("branching_factor").unwrap_or(0.0),
        drama: value("drama").unwrap_or(0.0),
        uncertainty: value("uncertainty").unwrap_or(0.0),
        lead_change: value("lead_change").unwrap_or(0.0),
        decisiveness: value("decisiveness").unwrap_or(0.0),
        criteria,
        verdict: Verdict {
            viable: false,
            reasons: Vec::new(),
            tentative: None,
        },
        seconds: elapsed.as_secs_f64(),
        histories,
    };
    report.verdict = verdict(&report, settings);
    report
}

fn lead_histories(records: &[GameRecord]) -> Vec<LeadHistory> {
    records
        .iter()
        .map(|record| {
            let mut history = LeadHistory {
                length: record.length,
                winner: record.winner,
                abandoned: record.timed_out,
                first_measured_ply: record.opening + 1,
                estimates: record.leads.clone(),
                drama: None,
                uncertainty: None,
                options: record.options.clone(),
                state_hashes: record.state_hashes.clone(),
                board_cells: record.cells_used.len(),
                cells_used: record.cells_used.iter().filter(|&&used| used).count(),
            };
            if history.winner.is_some() {
                history.drama = Some(criteria::drama_of(&history));
                history.uncertainty = Some(criteria::uncertainty_of(&history));
            }
            history
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
    let tentative = (1..FIRM_VERDICT_GAMES).contains(&report.games).then(|| {
        format!(
            "tentative: judged on {} game{}; a firm verdict needs {FIRM_VERDICT_GAMES}",
            report.games,
            if report.games == 1 { "" } else { "s" }
        )
    });
    Verdict {
        viable: reasons.is_empty(),
        reasons,
        tentative,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(winner: Option<usize>, leads: &[[f64; 2]]) -> GameRecord {
        GameRecord {
            length: leads.len() + 1,
            opening: 1,
            winner,
            timed_out: false,
            leads: leads.iter().map(|l| l.to_vec()).collect(),
            options: vec![2; leads.len() + 1],
            state_hashes: (0..leads.len() as u64 + 2).collect(),
            cells_used: Vec::new(),
        }
    }

    fn report(records: &[GameRecord]) -> ProbeReport {
        let roles = ["White".to_owned(), "Black".to_owned()];
        measure(&roles, records, &ProbeSettings::default(), Duration::ZERO)
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
        // The random opening (the record's first ply) is not measured.
        assert_eq!(won.first_measured_ply, 2);
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

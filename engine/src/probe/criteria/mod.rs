//! The criticism of a game: every criterion the probe measures, each a small function of the
//! probe's lead histories ([`LeadHistory`]) with its formula and its source in its doc comment.
//!
//! The sources are the Ludi paper (seed 004, §IV "Aesthetic Measurement": completion, duration,
//! drama, uncertainty; Fig. 10's best predictors: lead change, permanence, killer moves, ...;
//! §V.C's viability test) and the single-game metrics of Ludii's evaluation
//! (`Evaluation/src/metrics/single` of the Ludii repository: outcome, duration, complexity,
//! state evaluation and state repetition), whose definitions were read, not copied. Where the
//! paper names a criterion without its formula (permanence, killer moves), the formula here is
//! the project's reading of the paper's one-line description, and says so.
//!
//! Each criterion is `None` when the games give it nothing to measure (no decided game, no
//! game at all). [`CRITERIA`] lists them in the order `ludeme probe --criteria all` prints
//! them; [`measure_all`] measures every one.
//!
//! Not measured, because the lead histories do not hold what they need: Ludii's clarity
//! (narrowness and variance of the evaluations of every legal move at each ply). Board coverage
//! counts the cells of the board as each engine draws it ([`crate::picture::Depict`]).

mod complexity;
mod coverage;
mod duration;
mod lead;
mod outcome;
mod repetition;

pub(crate) use lead::mine_and_strongest_other;
pub use lead::{decisiveness_of, drama_of, lead_change_of, sides, uncertainty_of};

use super::LeadHistory;

/// The games a criterion is measured on.
#[derive(Clone, Copy, Debug)]
pub struct Trials<'a> {
    /// How many roles the game has.
    pub roles: usize,
    /// The preferred game length in plies (the seed's M_pref, 60).
    pub preferred_length: usize,
    pub histories: &'a [LeadHistory],
}

impl Trials<'_> {
    fn games(&self) -> usize {
        self.histories.len()
    }

    /// The decided games.
    fn decided(&self) -> impl Iterator<Item = &LeadHistory> {
        self.histories.iter().filter(|h| h.winner.is_some())
    }

    /// Wins by role.
    pub(crate) fn wins_by_role(&self) -> Vec<usize> {
        let mut wins = vec![0; self.roles];
        for winner in self.histories.iter().filter_map(|h| h.winner) {
            if let Some(count) = wins.get_mut(winner) {
                *count += 1;
            }
        }
        wins
    }
}

/// Which part of the paper's aesthetic model (or of Ludii's metrics) a criterion belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Outcomes of the games (the seed's viability criteria; Ludii's outcome metrics).
    Viability,
    /// Lengths of the games (the seed's duration; Ludii's duration metrics).
    Duration,
    /// The size of the decisions (Ludii's complexity metrics).
    Complexity,
    /// Trends in the lead histories (the seed's quality criteria; Ludii's state evaluation).
    Quality,
    /// States met again (Ludii's state repetition).
    Repetition,
    /// The board's cells the pieces reach (Ludii's board coverage).
    Coverage,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::Viability => "viability",
            Category::Duration => "duration",
            Category::Complexity => "complexity",
            Category::Quality => "quality",
            Category::Repetition => "repetition",
            Category::Coverage => "board coverage",
        }
    }
}

/// One criterion of the catalog.
#[derive(Clone, Copy)]
pub struct Criterion {
    /// The key of the JSON report and of the aesthetic weights (snake case).
    pub name: &'static str,
    pub category: Category,
    /// Where its definition comes from.
    pub source: &'static str,
    /// What it means, in a line.
    pub meaning: &'static str,
    pub measure: fn(&Trials) -> Option<f64>,
}

impl std::fmt::Debug for Criterion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Criterion")
            .field("name", &self.name)
            .finish()
    }
}

const fn criterion(
    name: &'static str,
    category: Category,
    source: &'static str,
    meaning: &'static str,
    measure: fn(&Trials) -> Option<f64>,
) -> Criterion {
    Criterion {
        name,
        category,
        source,
        meaning,
        measure,
    }
}

/// Every criterion, in print order.
pub const CRITERIA: &[Criterion] = &[
    criterion(
        "completion",
        Category::Viability,
        "Browne & Maire 2010, eq. (2); Ludii Evaluation, outcome/Completion",
        "share of games won by someone",
        outcome::completion,
    ),
    criterion(
        "drawishness",
        Category::Viability,
        "Ludii Evaluation, outcome/Drawishness",
        "share of games drawn (abandoned ones included)",
        outcome::drawishness,
    ),
    criterion(
        "timeouts",
        Category::Viability,
        "Ludii Evaluation, outcome/Timeouts; Browne & Maire 2010, §V.C",
        "share of games abandoned at the length limit",
        outcome::timeouts,
    ),
    criterion(
        "balance",
        Category::Viability,
        "Ludii Evaluation, outcome/Balance; Browne & Maire 2010, §V.C",
        "1 − the gap between the most and least winning roles' shares of the decided games",
        outcome::balance,
    ),
    criterion(
        "advantage",
        Category::Viability,
        "Ludii Evaluation, outcome/AdvantageP1; Browne & Maire 2010, §V.C",
        "how much more than an even share the first player wins, −1..1",
        outcome::first_move_advantage,
    ),
    criterion(
        "outcome_uniformity",
        Category::Viability,
        "Ludii Evaluation, outcome/OutcomeUniformity",
        "1 − the mean variance of each role's result (−1 loss, 0 draw, 1 win)",
        outcome::outcome_uniformity,
    ),
    criterion(
        "duration",
        Category::Duration,
        "Browne & Maire 2010, eq. (3)",
        "1 − the mean distance of the length from the preferred 60 plies, over 60",
        duration::duration,
    ),
    criterion(
        "length",
        Category::Duration,
        "Ludii Evaluation, duration/DurationMoves",
        "plies per game",
        duration::length,
    ),
    criterion(
        "length_spread",
        Category::Duration,
        "Ludii Evaluation, duration/DurationTurnsStdDev",
        "standard deviation of the plies per game",
        duration::length_spread,
    ),
    criterion(
        "length_not_abandoned",
        Category::Duration,
        "Ludii Evaluation, duration/DurationTurnsNotTimeouts",
        "plies per game, abandoned games left out",
        duration::length_not_abandoned,
    ),
    criterion(
        "branching_factor",
        Category::Complexity,
        "Ludii Evaluation, complexity (branching factor)",
        "legal moves per decision (plies with a choice)",
        complexity::branching_factor,
    ),
    criterion(
        "decision_moves",
        Category::Complexity,
        "Ludii Evaluation, complexity/DecisionMoves",
        "share of plies where the mover had a choice",
        complexity::decision_moves,
    ),
    criterion(
        "game_tree_complexity",
        Category::Complexity,
        "Ludii Evaluation, complexity/GameTreeComplexity",
        "log10 of the game tree's size: length × log10(mean legal moves)",
        complexity::game_tree_complexity,
    ),
    criterion(
        "drama",
        Category::Quality,
        "Browne & Maire 2010, eq. (4)",
        "how far behind, while behind, the eventual winner was",
        lead::drama,
    ),
    criterion(
        "uncertainty",
        Category::Quality,
        "Browne & Maire 2010, eq. (5)",
        "how far the winner's lead stays below a steady rise to victory",
        lead::uncertainty,
    ),
    criterion(
        "lead_change",
        Category::Quality,
        "Browne & Maire 2010, Fig. 10; Ludii Evaluation, stateEvaluation/LeadChange",
        "share of rounds across which the leader changed",
        lead::lead_change,
    ),
    criterion(
        "stability",
        Category::Quality,
        "Ludii Evaluation, stateEvaluation/Stability; Browne & Maire 2010, §VI.B",
        "1 − 4 × the mean variance of each role's estimates over a game",
        lead::stability,
    ),
    criterion(
        "decisiveness",
        Category::Quality,
        "Browne & Maire 2010, §IV.A (Thompson's decisiveness)",
        "share of a decided game played before the winner's lead was settled",
        lead::decisiveness,
    ),
    criterion(
        "decisiveness_threshold",
        Category::Quality,
        "Ludii Evaluation, stateEvaluation/decisiveness/DecisivenessThreshold",
        "the highest estimate a loser ever reached",
        lead::decisiveness_threshold,
    ),
    criterion(
        "decisiveness_moves",
        Category::Quality,
        "Ludii Evaluation, stateEvaluation/decisiveness/DecisivenessMoves",
        "share of a decided game played before the winner passed the losers' best estimate",
        lead::decisiveness_moves,
    ),
    criterion(
        "permanence",
        Category::Quality,
        "Browne & Maire 2010, Fig. 10 (formula: this project's)",
        "share of the gains in lead that the next ply does not take back by half",
        lead::permanence,
    ),
    criterion(
        "killer_moves",
        Category::Quality,
        "Browne & Maire 2010, Fig. 10 (formula: this project's)",
        "the largest one-ply swing of lead in a game, over 2, the game-ending ply left out",
        lead::killer_moves,
    ),
    criterion(
        "state_repetition",
        Category::Repetition,
        "Ludii Evaluation, stateRepetition/SituationalRepetition",
        "share of a game's states that had been met before in it",
        repetition::state_repetition,
    ),
    criterion(
        "board_coverage",
        Category::Coverage,
        "Ludii Evaluation, boardCoverage/BoardCoverageDefault",
        "share of the board's cells that held a piece at some point of a game",
        coverage::board_coverage,
    ),
];

/// One criterion's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CriterionValue {
    pub name: &'static str,
    pub value: Option<f64>,
}

/// Every criterion of [`CRITERIA`] measured on `trials`, in order.
pub fn measure_all(trials: &Trials) -> Vec<CriterionValue> {
    CRITERIA
        .iter()
        .map(|criterion| CriterionValue {
            name: criterion.name,
            value: (criterion.measure)(trials),
        })
        .collect()
}

/// The criterion named `name`.
pub fn criterion_named(name: &str) -> Option<&'static Criterion> {
    CRITERIA.iter().find(|criterion| criterion.name == name)
}

pub(crate) fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, count) = values
        .into_iter()
        .fold((0.0, 0usize), |(sum, count), v| (sum + v, count + 1));
    (count > 0).then(|| sum / count as f64)
}

/// The population variance of `values` (0 when fewer than two).
pub(crate) fn variance(values: &[f64]) -> f64 {
    let Some(average) = mean(values.iter().copied()) else {
        return 0.0;
    };
    mean(values.iter().map(|v| (v - average).powi(2))).unwrap_or(0.0)
}

#[cfg(test)]
pub(crate) mod tests;

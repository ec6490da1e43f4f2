//! Simulation checks: random playouts of a GDL game under a budget of time and steps, and what
//! they reveal that the static checks cannot see — play that never ends, a role left without a
//! legal move, terminal states with no goal value or several, and `base`/`input` declarations
//! that miss what play reaches.
//!
//! [`simulate`] plays the games ([`run`]), then each check turns what was observed into
//! diagnostics on the rules concerned (one small module per check). The summary (how long random
//! play lasts, who wins how often) is shown by `ludeme check --simulate` and as the editor's code
//! lens.

mod anchors;
mod coverage;
mod engine;
mod goals;
mod legal;
mod run;
mod stopped;
mod summary;
mod terminal;
mod trace;

use std::time::Duration;

use crate::rules::Rule;
use crate::{Db, Diagnostic, Severity, SourceFile, Syntax};

pub use summary::{RoleOutcome, SimulationSummary};

/// How much random play a simulation may do. Playing stops at whichever limit comes first.
#[derive(Clone, Debug, PartialEq)]
pub struct SimulationOptions {
    /// Playouts to play from the initial state.
    pub playouts: u64,
    /// Joint moves after which a playout that has not reached a terminal state is abandoned
    /// (and reported by `gdl/playout-no-terminal`).
    pub max_plies: usize,
    /// Wall-clock time for the whole simulation of one file, engine construction included.
    pub seconds: f64,
    /// The random seed: the same seed plays the same games (unless time cuts play short).
    pub seed: u64,
    /// Join steps one question to the interpreter may take (one state's moves, goals and
    /// terminal test, or one next state) before it gives up (`gdl/simulation-budget`); grounding
    /// may take proportionally more (see `engine.rs`).
    pub max_steps: u64,
}

impl Default for SimulationOptions {
    /// For `ludeme check --simulate`: enough playouts for stable percentages on small games,
    /// plies far beyond any corpus game's length, and a time limit that keeps a folder of big
    /// games within minutes.
    fn default() -> Self {
        SimulationOptions {
            playouts: 100,
            max_plies: 1000,
            seconds: 2.0,
            seed: 1,
            // The interpreter's own limit: lower ones made it give up on the first state of big
            // corpus games (amazons, chess variants), which says nothing about the game; the
            // time limit is what keeps those short.
            max_steps: ludeme_engine::gdl::Budget::default().max_steps,
        }
    }
}

impl SimulationOptions {
    /// For the editor: a small budget, so that the code lens appears quickly after an edit.
    pub fn editor() -> Self {
        SimulationOptions {
            seconds: 0.5,
            ..SimulationOptions::default()
        }
    }

    pub fn duration(&self) -> Duration {
        duration_of(self.seconds)
    }
}

/// `seconds` as a duration; negative ones are none and infinite or huge ones are forever
/// (`Duration::from_secs_f64` would panic on them, and they come from the command line).
fn duration_of(seconds: f64) -> Duration {
    Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or(Duration::MAX)
}

/// What the simulation of one file found.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    /// Problems found by playing, on the rules they concern.
    pub diagnostics: Vec<Diagnostic>,
    /// Statistics of the play; `None` when the file was not simulated.
    pub summary: Option<SimulationSummary>,
    /// Why the file was not simulated (not GDL, static errors, the engine refused it).
    pub not_simulated: Option<String>,
}

impl Simulation {
    fn skipped(reason: impl Into<String>) -> Self {
        Simulation {
            diagnostics: Vec::new(),
            summary: None,
            not_simulated: Some(reason.into()),
        }
    }

    /// One line for people: the summary, or why there is none.
    pub fn headline(&self) -> String {
        match (&self.summary, &self.not_simulated) {
            (Some(summary), _) => summary.headline(),
            (None, Some(reason)) => format!("not simulated: {reason}"),
            (None, None) => "not simulated".to_owned(),
        }
    }

    /// Everything, as Markdown for a hover: the figures per role, then the problems found.
    pub fn details_markdown(&self) -> String {
        let mut text = match (&self.summary, &self.not_simulated) {
            (Some(summary), _) => summary.details_markdown(),
            (None, reason) => format!(
                "**Random play**: not simulated ({}).\n",
                reason.as_deref().unwrap_or("no reason given")
            ),
        };
        if !self.diagnostics.is_empty() {
            text.push_str("\n**Found by random play:**\n\n");
            for diagnostic in &self.diagnostics {
                text.push_str(&format!(
                    "- {} `{}`: {}\n",
                    diagnostic.severity.as_str(),
                    diagnostic.code,
                    diagnostic.message
                ));
            }
        }
        text
    }
}

/// Where the editor shows the simulation's code lens: above the first `role` fact, or the first
/// rule when there is none; `None` for files that are not GDL.
pub fn lens_anchor(db: &dyn Db, file: SourceFile) -> Option<crate::TextRange> {
    if !matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix) {
        return None;
    }
    let rules = &super::gdl_rules(db, file).rules;
    let anchors = anchors::Anchors::new(rules);
    anchors
        .role_facts()
        .next()
        .or_else(|| rules.rules.first().map(|rule| rule.range))
}

/// The hover on a `role` fact: the range of the fact and the editor simulation's details.
/// Plays the game (within the editor's small budget) only when `offset` is on a `role` fact.
pub fn role_hover(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
) -> Option<(crate::TextRange, String)> {
    if !matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix) {
        return None;
    }
    let rules = &super::gdl_rules(db, file).rules;
    let range = anchors::Anchors::new(rules)
        .role_facts()
        .find(|range| range.contains(offset))?;
    Some((range, editor_simulation(db, file).details_markdown()))
}

/// The rules the simulation checks report.
pub const RULES: &[&Rule] = &[
    &terminal::PLAYOUT_NO_TERMINAL,
    &legal::NO_LEGAL_MOVE,
    &goals::GOAL_MISSING,
    &goals::GOAL_AMBIGUOUS,
    &coverage::BASE_INCOMPLETE,
    &coverage::INPUT_INCOMPLETE,
    &stopped::SIMULATION_FAILED,
    &stopped::SIMULATION_BUDGET,
    &stopped::SIMULATION_INCOMPLETE,
];

/// Plays random games of `file` within `options` and reports what went wrong.
///
/// Files with static errors are not simulated: their rules may lack parts the lowering left out,
/// and the static diagnostics already fail the check. Never panics on any input; the work is
/// bounded by the options' time and the engine's step budget, and gives way to a newer revision
/// of the database (salsa cancellation) between plies.
pub fn simulate(db: &dyn Db, file: SourceFile, options: &SimulationOptions) -> Simulation {
    simulate_from(
        db,
        file,
        options,
        ludeme_engine::cpu_time::CpuInstant::now(),
    )
}

/// [`simulate`] with its time (CPU time, see [`ludeme_engine::cpu_time`]) counted from
/// `started` (the start of the file's check), so that
/// reading, lowering and checking a large game spend the simulation's time too: `check
/// --simulate` then ends within `--simulate-seconds` of the file's start, plus what cannot be
/// interrupted.
pub fn simulate_from(
    db: &dyn Db,
    file: SourceFile,
    options: &SimulationOptions,
    started: ludeme_engine::cpu_time::CpuInstant,
) -> Simulation {
    if !matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix) {
        return Simulation::skipped("only GDL games are simulated");
    }
    // The engines' gate: errors under the project's rule selection, or forms the lowering left out.
    match crate::engine_gate::engine_gate(db, file, Severity::Error) {
        Ok(()) => {}
        Err(crate::engine_gate::GateRefusal::Problems { count, .. }) => {
            let plural = if count == 1 { "" } else { "s" };
            return Simulation::skipped(format!(
                "the game has {count} static error{plural}; fix them first"
            ));
        }
        Err(incomplete) => return Simulation::skipped(incomplete.to_string()),
    }
    let rules = &super::gdl_rules(db, file).rules;
    let anchors = anchors::Anchors::new(rules);
    let observed = match run::play(db, file, rules, options, started) {
        Ok(observed) => observed,
        Err(refusal) => {
            // The engine refused the game although the static checks passed (or ran out of
            // budget while building it): say so on the first rule, as a problem of its own.
            let mut diagnostics = Vec::new();
            stopped::report_refusal(&refusal, &anchors, &mut diagnostics);
            return Simulation {
                diagnostics,
                summary: None,
                not_simulated: Some(refusal.error.to_string()),
            };
        }
    };
    let mut diagnostics = Vec::new();
    terminal::report(&observed, &anchors, options, &mut diagnostics);
    legal::report(&observed, &anchors, &mut diagnostics);
    goals::report(&observed, &anchors, &mut diagnostics);
    coverage::report(&observed, &anchors, &mut diagnostics);
    stopped::report(&observed, &anchors, options, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end, d.code));
    let summary = SimulationSummary::new(&observed, &anchors, options);
    Simulation {
        diagnostics,
        summary: Some(summary),
        not_simulated: None,
    }
}

/// The simulation the editor shows (code lens, hover, diagnostics), memoised per revision of the
/// file so that the lens and the hovers share one run. Its figures depend on the clock when the
/// time limit cuts play short, hence `no_eq`.
#[salsa::tracked(returns(ref), no_eq)]
pub fn editor_simulation(db: &dyn Db, file: SourceFile) -> Simulation {
    simulate(db, file, &SimulationOptions::editor())
}

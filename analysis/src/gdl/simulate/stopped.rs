//! When the engine stops: the game misbehaves (`gdl/simulation-failed`), a budget of work runs
//! out on one state (`gdl/simulation-budget`), or the time limit ends play before a single game
//! finished (`gdl/simulation-incomplete`).

use ludeme_engine::gdl::GdlError;

use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::SimulationOptions;
use super::anchors::Anchors;
use super::run::{Observed, Refusal};

pub const SIMULATION_FAILED: Rule = Rule {
    code: "gdl/simulation-failed",
    severity: Severity::Error,
    summary: "the game cannot be played: the engine refused it or it misbehaved during play",
    explanation: "\
Random play (`ludeme check --simulate`) stopped because the game broke a rule of GDL that only
shows while playing, for example a goal value bound by a variable to something other than an
integer from 0 to 100 (`(<= (goal ?r ?v) (true (score ?r ?v)))` with a score of `high`), or
because the engine refused rules that the static checks let pass. The message gives the
engine's reason and, during play, where play was.

Fix: correct what the message names. If the rules are right, please report the engine's
refusal with the file attached.",
};

pub const SIMULATION_BUDGET: Rule = Rule {
    code: "gdl/simulation-budget",
    severity: Severity::Warning,
    summary: "the engine gave up on one state: a budget of steps or derived facts ran out",
    explanation: "\
Each question the engine answers during random play (one state's legal moves, goals and
terminal test, or one next state) may take a bounded amount of work. This warning says that
one question took more, so random play stopped there. Usually a recursive rule derives an
unbounded number of facts (`(<= (number (s ?x)) (number ?x))` without a limit), or a rule
joins huge relations.

Fix: bound the recursion (count with a finite `succ` table), or split the costly rule. The
checks before the stop still hold; the ones after did not run.",
};

pub const SIMULATION_INCOMPLETE: Rule = Rule {
    code: "gdl/simulation-incomplete",
    severity: Severity::Info,
    summary: "no random game finished within the simulation's time",
    explanation: "\
The simulation's time (`--simulate-seconds`, 2 s by default) ran out before a single random
game reached its end, so nothing is known about how the game ends: terminal states, goal
values and the length of play were not checked. The states that were reached were checked
(legal moves, `base` and `input`). This is a note, not a fault: big games take long to play,
above all on the plain interpreter, which plays the games that do not ground into a circuit
within the limits (the message names the engine and, for the interpreter, why).

Fix: allow more time with `--simulate-seconds`.",
};

/// The engine could not be built (or ran out of time while being built).
pub fn report_refusal(refusal: &Refusal, anchors: &Anchors<'_>, out: &mut Vec<Diagnostic>) {
    let at = anchors.first_rule();
    let diagnostic = if refusal.out_of_time {
        Diagnostic::new(
            &SIMULATION_INCOMPLETE,
            at,
            "the simulation's time ran out while the engine was still preparing the game; \
             allow more time with `--simulate-seconds`",
        )
    } else {
        match &refusal.error {
            GdlError::Budget(why) => Diagnostic::new(
                &SIMULATION_BUDGET,
                at,
                format!(
                    "the engine gave up preparing the game ({why}); look for a recursion \
                     without bound among the rules that read neither `true` nor `does`"
                ),
            ),
            other => Diagnostic::new(
                &SIMULATION_FAILED,
                at,
                format!("the game cannot be played: {other}"),
            ),
        }
    };
    out.push(diagnostic);
}

pub fn report(
    observed: &Observed,
    anchors: &Anchors<'_>,
    options: &SimulationOptions,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(failure) = &observed.failure {
        let at = anchors.first_rule();
        let whereabouts = failure.trace.describe();
        out.push(match &failure.error {
            GdlError::Budget(why) => Diagnostic::new(
                &SIMULATION_BUDGET,
                at,
                format!(
                    "random play stopped: the engine gave up on a state ({why}) {whereabouts}. \
                     Look for a recursion without bound or a very costly rule"
                ),
            ),
            other => Diagnostic::new(
                &SIMULATION_FAILED,
                at,
                format!("random play stopped {whereabouts}: {other}"),
            ),
        });
    }
    if let Some(plies) = observed.time_ran_out
        && observed.playouts == 0
    {
        out.push(Diagnostic::new(
            &SIMULATION_INCOMPLETE,
            anchors.first_rule(),
            format!(
                "no random game finished within {} s on {} (the first playout was stopped \
                 after {plies} plies), so how the game ends was not checked; allow more time \
                 with `--simulate-seconds`",
                options.seconds, observed.engine
            ),
        ));
    }
}

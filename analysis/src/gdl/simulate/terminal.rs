//! `gdl/playout-no-terminal`: random play that reaches no terminal state.

use crate::gdl::keywords::TERMINAL;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::SimulationOptions;
use super::anchors::Anchors;
use super::run::Observed;

pub const PLAYOUT_NO_TERMINAL: Rule = Rule {
    code: "gdl/playout-no-terminal",
    severity: Severity::Warning,
    summary: "random play reached no terminal state within the ply limit",
    explanation: "\
A GDL game must end: every sequence of legal moves reaches a state where `terminal` holds.
`ludeme check --simulate` plays random games from the initial state; this warning says that
some of them were still going after the ply limit (`--max-plies`, 1000 by default). When a
playout came back to a state it had already been in, the message says so: play can then go
round that loop forever, which proves the game need not end.

    (<= terminal (true (step 50)))              ; a step counter ends any game
    (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))

Fix: make `terminal` reachable from every state (a step counter, a rule for repeated
positions, a board that fills up), or, if the game is simply longer than the limit, raise
`--max-plies`. The warning points at the `terminal` rules.",
};

pub fn report(
    observed: &Observed,
    anchors: &Anchors<'_>,
    options: &SimulationOptions,
    out: &mut Vec<Diagnostic>,
) {
    let Some(found) = &observed.no_terminal else {
        return;
    };
    let first = &found.first;
    let how_many = format!("{} of {} random playouts", found.count, observed.playouts);
    let message = match first.cycle {
        Some((earlier, later)) => format!(
            "{how_many} reached no terminal state within {} plies; in playout {} the state \
             after ply {later} is the state after ply {earlier}, so play can go round forever. \
             Make `terminal` hold in such a loop (a step counter ends any game), or make the \
             loop impossible",
            options.max_plies, first.trace.playout
        ),
        None => format!(
            "{how_many} reached no terminal state within {} plies (playout {} ended with \
             {{{}}}). Make `terminal` reachable (a step counter ends any game), or raise \
             `--max-plies` if the game is just longer",
            options.max_plies, first.trace.playout, first.trace.state
        ),
    };
    out.push(
        anchors
            .for_keyword(TERMINAL)
            .diagnostic(&PLAYOUT_NO_TERMINAL, message),
    );
}

//! `egg/not-executable`: the statement that puts a game outside the executable core, so that a
//! designer knows why `ludeme bench` and `ludeme probe` refuse it.

use crate::egg::engine::engine_of;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const NOT_EXECUTABLE: Rule = Rule {
    code: "egg/not-executable",
    severity: Severity::Info,
    summary: "a statement outside what the EGGG engine plays; bench and probe skip the game",
    explanation: "\
The EGGG engine plays a small core of the language: grid and hexagon boards, `move is place` and
`move is choose`, `turns alternate` and `turns synchronize`, goals of pieces in a row
(`ThreeInARow means three pieces in a row or three pieces in a column ...`), outcomes between
choices (`Beat means player(Rock) and opponent(Scissors) or ...`) and `score increments`.
A game with any other statement — a rule in the designer's words (`pieces fall from top to
bottom`), the steps of a round, card patterns, assertions, networking, code escapes — is not
played at all rather than played wrongly; this diagnostic names the first such statement, in the
order a player reads the rules. Code escapes are never executed.

The game is still checked and explained; only `ludeme bench` and `ludeme probe` skip it. A game
inherited through `is like` is reported at its `is like` statement, naming the base's statement.
Games with warnings are not reported: they are refused for those first.

Fix: nothing is wrong with the game. To have it played, rewrite the statement named in the
forms of the core, listed in docs/egg.md (\"What the engine plays\"); otherwise ignore this
information.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // A game with problems is refused for them, and they are what to fix first.
    let problems = out
        .iter()
        .chain(crate::syntax_diagnostics(context.db, context.file))
        .any(|d| d.severity >= Severity::Warning);
    if problems || !context.lineage.is_complete() {
        return;
    }
    let Err(refusal) = engine_of(context.game) else {
        return;
    };
    let mut message = refusal.message(context.db, context.file);
    let range = match refusal.origin {
        Some(origin) if origin.file == context.file => origin.range,
        Some(_) => context
            .own
            .likes()
            .next()
            .map_or_else(|| context.anchor(), |(_, _, range)| range),
        None => context.anchor(),
    };
    message.push_str("; `ludeme bench` and `ludeme probe` skip this game");
    out.push(Diagnostic::new(&NOT_EXECUTABLE, range, message));
}

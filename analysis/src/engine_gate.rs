//! The one gate in front of every engine (`ludeme probe`, `bench`, `play`, the editor's probe
//! lens, breeding): whether a game's diagnostics let an engine play it. It reads the file's own
//! diagnostics ([`crate::file_diagnostics`]), with the project's rule selection of `ludeme.toml`
//! applied by the same [`crate::config::RuleSelection::apply`] as `ludeme check`, so that a game
//! `ludeme check` finds free of errors is not refused for errors, and one whose own diagnostics
//! the selection makes errors of is refused. What `ludeme check` adds to those diagnostics is not
//! counted here: a known game the file duplicates (`distance/duplicate`) and what a simulation
//! finds (`check --simulate`) do not keep an engine from playing it, so `ludeme check` may
//! report errors for a game the gate lets through.
//!
//! The selection cannot open the gate for every rule, though. Some diagnostics say that the
//! reading of the file left something out: the engine would then play a game other than the one
//! written, whatever severity the user gives the finding. Those still refuse the engine, with a
//! message that names the finding (which `ludeme check` no longer lists when it is disabled).
//! Which rules those are, per language ([`leaves_model_incomplete`]):
//!
//! - `syntax/`: the parser skipped text. (A `file/` finding, a file that is not text, never
//!   reaches the gate: the file is refused when it is loaded, before it has diagnostics.)
//! - GDL: what the lowering reports (`gdl_rules(..).diagnostics`: a form that is not a rule, a
//!   connective of the wrong arity, ...) and infix text in a `.kif` file: those forms are not in
//!   the rules the engine gets. The checks over the whole rule set (unsafe variables, arities,
//!   stratification, ...) judge a complete rule set: the selection decides, and the engine's own
//!   program builder still refuses what it cannot run, with its reason.
//! - Ludi: the findings of the binder (unknown, misplaced or duplicated ludemes, wrong arity or
//!   argument types, missing parts, lists nested too deep): the bound tree drops those parts.
//!   The checks of the typed model (undefined names, board size and shape, cells off the board,
//!   inapplicable constructs, impossible conditions, inert flags) judge a complete model: the
//!   selection decides, and the converter to the engine still refuses an unknown name or board
//!   with an info diagnostic saying what.
//! - EGGG: every `egg/` error and warning. The EGGG lowering skips the statements it does not
//!   understand and the bases it cannot apply, so each of them may change the rules (which is
//!   why this engine's gate counts warnings as well as errors).

use crate::{Db, Diagnostic, Severity, SourceFile, Syntax};

/// The Ludi rules whose findings come from the binder, which leaves the parts concerned out of
/// the bound tree (see the module documentation).
const LUDI_BINDER_RULES: &[&str] = &[
    "ludi/unknown-ludeme",
    "ludi/misplaced-ludeme",
    "ludi/wrong-arity",
    "ludi/wrong-argument",
    "ludi/duplicate",
    "ludi/missing-part",
];

/// Why a game's diagnostics keep the engine from playing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GateRefusal {
    /// After the project's rule selection, the file has this many diagnostics at or above the
    /// engine's blocking severity; `ludeme check` lists them.
    Problems { count: usize, blocking: Severity },
    /// The file's reading left something out (the first such finding, at its default
    /// severity, with its line and column), whatever the rule selection says of it.
    Incomplete {
        diagnostic: Box<Diagnostic>,
        line: usize,
        column: usize,
    },
}

impl std::fmt::Display for GateRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateRefusal::Problems {
                count,
                blocking: Severity::Error,
            } => write!(
                f,
                "the game has {count} error(s); `ludeme check` lists them"
            ),
            GateRefusal::Problems { count, .. } => write!(
                f,
                "the game has {count} error(s) or warning(s), which could change its rules; \
                 `ludeme check` lists them"
            ),
            GateRefusal::Incomplete {
                diagnostic,
                line,
                column,
            } => write!(
                f,
                "the reading of the game left out what `{}` reports at line {line}, column \
                 {column}, so the engine would play another game, whatever ludeme.toml selects \
                 for that rule: {}",
                diagnostic.code, diagnostic.message
            ),
        }
    }
}

/// Whether the engine may play `file`: no diagnostic at `blocking` severity or above once the
/// project's rule selection is applied (what `ludeme check` reports), and none that says the
/// reading left part of the game out, whatever its selected severity. Engines that cannot tell
/// a warning's effect on the rules pass [`Severity::Warning`].
pub fn engine_gate(db: &dyn Db, file: SourceFile, blocking: Severity) -> Result<(), GateRefusal> {
    let found = crate::file_diagnostics(db, file);
    let selected = crate::project::settings(db).rules.apply(found.clone());
    let count = selected.iter().filter(|d| d.severity >= blocking).count();
    if count > 0 {
        return Err(GateRefusal::Problems { count, blocking });
    }
    let lowering_codes: Vec<&str> = match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => crate::gdl::gdl_rules(db, file)
            .diagnostics
            .iter()
            .chain(crate::gdl::infix_in_kif(db, file))
            .map(|d| d.code)
            .collect(),
        Syntax::Ludi | Syntax::Egg => Vec::new(),
    };
    let incomplete = found.into_iter().find(|d| {
        d.severity >= blocking && leaves_model_incomplete(file.syntax(db), d.code, &lowering_codes)
    });
    match incomplete {
        Some(diagnostic) => {
            let (line, column) =
                crate::game_report::line_and_column(file.text(db), diagnostic.range.start);
            Err(GateRefusal::Incomplete {
                line,
                column,
                diagnostic: Box::new(diagnostic),
            })
        }
        None => Ok(()),
    }
}

/// Whether a diagnostic with `code` says the reading of a file of `syntax` left part of the game
/// out (the classification of the module documentation). `lowering_codes` are the codes the GDL
/// lowering reported for the file, infix text in a `.kif` file among them.
fn leaves_model_incomplete(syntax: Syntax, code: &str, lowering_codes: &[&str]) -> bool {
    if code.starts_with("syntax/") {
        return true;
    }
    match syntax {
        Syntax::GdlKif | Syntax::GdlInfix => lowering_codes.contains(&code),
        Syntax::Ludi => LUDI_BINDER_RULES.contains(&code),
        Syntax::Egg => code.starts_with("egg/"),
    }
}

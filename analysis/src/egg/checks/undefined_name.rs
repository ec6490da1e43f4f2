//! `egg/undefined-name`: a name the game uses where it must be defined (a goal, a list of kinds,
//! a step of the game, a cell of the starting board, a piece a player shows) and that no
//! statement of the game or of its bases defines.

use crate::egg::forms::{self, close_names};
use crate::egg::inherit::walk_terms;
use crate::egg::model::{DefinitionBody, StatementKind, Term, Value, Word};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const UNDEFINED_NAME: Rule = Rule {
    code: "egg/undefined-name",
    severity: Severity::Error,
    summary: "a goal, list, step or board names something no statement defines",
    explanation: "\
Some places of a game description must name something the game defines:

- the goal: `goal is Beat` needs `Beat means ...`; `goal is highest(hand)` needs `hand` to
  be defined, or to be a quantity every game has (score, level, points, money, time);
- a list of kinds: every name in `hands are [StraightFlush, FourKind]` needs a definition;
- the steps of the game: `game is Shuffle(deck) and ... and Fold` needs `Fold means ...`
  unless the step is one EGGG supplies (shuffle, deal, bet, compare, draw, pass, reveal, roll,
  discard);
- the starting board: each cell of `board starts [[Rock, Paper]]` must be a piece;
- `player(Rock)`, `opponent(Rock)`: the piece shown must be one of the pieces.

Definitions inherited through `is like` count. Case and number are ignored (`beat` = `Beat`).

Fix: define the name (`Beat means ...`), or correct its spelling.",
};

/// What a reference must be.
#[derive(Clone, Copy)]
pub(super) enum Expect {
    /// Defined by some statement (or supplied by EGGG).
    Definition,
    /// One of the pieces.
    Piece,
}

/// The names the game uses where they must be defined, each with what it must be.
pub(super) fn references<'c>(context: &Context<'c>) -> Vec<(&'c Word, Expect)> {
    let mut references: Vec<(&Word, Expect)> = Vec::new();
    for statement in &context.own.statements {
        match &statement.kind {
            StatementKind::Goal(goal) => goal_references(goal, &mut references),
            StatementKind::Definition(definition) => match &definition.body {
                DefinitionBody::Kinds(kinds) => {
                    references.extend(kinds.iter().map(|k| (k, Expect::Definition)));
                }
                DefinitionBody::Phrase(value) => shown_pieces(value, &mut references),
                _ => {}
            },
            StatementKind::Steps(steps) => {
                for step in steps {
                    step_references(step, &mut references);
                }
            }
            StatementKind::BoardStart(rows) => references.extend(
                rows.iter()
                    .flatten()
                    .filter(|cell| !forms::EMPTY_CELLS.contains(&cell.key().as_str()))
                    .map(|cell| (cell, Expect::Piece)),
            ),
            StatementKind::Rule(rule) => shown_pieces(&rule.value, &mut references),
            _ => {}
        }
    }
    references
}

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let game = context.game;
    for (word, expect) in references(context) {
        let (known, candidates): (bool, Vec<&str>) = match expect {
            Expect::Definition => (
                game.is_defined(&word.text),
                game.definitions
                    .iter()
                    .map(|d| d.value.name.text.as_str())
                    .collect(),
            ),
            Expect::Piece => {
                // Without a pieces statement, there is nothing to check the piece against.
                let Some(pieces) = &game.pieces else { continue };
                (
                    game.is_piece(&word.text),
                    pieces.value.iter().map(|p| p.text.as_str()).collect(),
                )
            }
        };
        if known {
            continue;
        }
        let what = match expect {
            Expect::Definition => "defined",
            Expect::Piece => "a piece",
        };
        let mut message = format!("`{}` is not {what} in this game", word.text);
        let mut close = close_names(&word.text, candidates);
        close.truncate(3);
        match close.as_slice() {
            [] => match expect {
                Expect::Definition => {
                    message.push_str(&format!("; define it, e.g. `{} means ...`", word.text));
                }
                Expect::Piece => message.push_str("; add it to the `pieces are ...` statement"),
            },
            names => {
                let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
                message.push_str(&format!("; did you mean {}?", quoted.join(" or ")));
            }
        }
        out.push(
            Diagnostic::new(&UNDEFINED_NAME, word.range, message)
                .with_suggestions(word.range, &close),
        );
    }
}

/// `goal is Beat`: the word; `goal is highest(hand)`: the function unless EGGG supplies it,
/// and a word argument unless it is a quantity every game has.
fn goal_references<'v>(goal: &'v Value, references: &mut Vec<(&'v Word, Expect)>) {
    match goal.single() {
        Some(Term::Word(word)) => references.push((word, Expect::Definition)),
        Some(Term::Call(call)) => {
            if !forms::GOAL_FUNCTIONS.contains(&call.function.key().as_str()) {
                references.push((&call.function, Expect::Definition));
            }
            for argument in &call.arguments {
                if let Some(word) = argument.single_word()
                    && !forms::BUILTIN_QUANTITIES.contains(&word.key().as_str())
                {
                    references.push((word, Expect::Definition));
                }
            }
        }
        _ => {}
    }
}

/// A step of `game is ...`: its bare words and called names, unless EGGG supplies them. A step
/// in parentheses (`(bet(money) or Fold)`) is looked into; arguments are operands, not steps.
fn step_references<'v>(step: &'v Value, references: &mut Vec<(&'v Word, Expect)>) {
    let mut pending: Vec<&'v Term> = step.terms.iter().collect();
    while let Some(term) = pending.pop() {
        let word = match term {
            Term::Word(word) => word,
            Term::Call(call) => &call.function,
            Term::Group(inner) => {
                pending.extend(inner.terms.iter());
                continue;
            }
            _ => continue,
        };
        if !forms::BUILTIN_ACTIONS.contains(&word.key().as_str()) {
            references.push((word, Expect::Definition));
        }
    }
}

/// `player(Rock)`, `opponent(Scissors)`: the piece shown.
fn shown_pieces<'v>(value: &'v Value, references: &mut Vec<(&'v Word, Expect)>) {
    walk_terms(value, &mut |term| {
        if let Term::Call(call) = term
            && matches!(call.function.key().as_str(), "player" | "opponent")
            && let [argument] = call.arguments.as_slice()
            && let Some(word) = argument.single_word()
        {
            references.push((word, Expect::Piece));
        }
    });
}

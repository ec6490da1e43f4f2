//! `egg/conflicting-statements`: two statements of one file that set the same part of the game
//! differently (two turn orders, two player counts, two definitions of one name).

use crate::egg::model::{DefinitionSlot, Statement, StatementKind};
use crate::egg::words::key;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const CONFLICTING_STATEMENTS: Rule = Rule {
    code: "egg/conflicting-statements",
    severity: Severity::Error,
    summary: "two statements of one file that say different things about the same part of the game",
    explanation: "\
A game has one turn order, one count of players, one board, one goal; a name has one meaning.
Statements may come in any order, so when one file says two different things, neither can be
taken as the designer's intent:

    turns alternate
    turns synchronize      # which one?

Saying the same thing twice is harmless, and so is a statement that differs only in case,
number or the order of a list (`players are white and black` = `players are black and
white`). A variation overriding its base (`2 players` in TwoPlayerTetris over Tetris's
`1 player`) is not a conflict: the later game's statement wins.

Fix: keep one of the two statements.",
};

/// The part of the game a statement sets, for the statements that set a single part.
#[derive(PartialEq, Eq)]
enum Part {
    GameName,
    Like,
    Players,
    Turns,
    Moves,
    Pieces,
    Grid,
    BoardShape,
    CellShape,
    BoardStart,
    Goal,
    Steps,
    Ending,
    Port,
    Network,
    Definition(String, DefinitionSlot),
}

impl Part {
    fn of(statement: &Statement) -> Option<Part> {
        Some(match &statement.kind {
            StatementKind::GameName(_) => Part::GameName,
            StatementKind::Like { .. } => Part::Like,
            StatementKind::Players(_) => Part::Players,
            StatementKind::Turns(_) => Part::Turns,
            StatementKind::Moves(_) => Part::Moves,
            StatementKind::Pieces(_) => Part::Pieces,
            StatementKind::Grid(_) => Part::Grid,
            StatementKind::BoardShape(_) => Part::BoardShape,
            StatementKind::CellShape(_) => Part::CellShape,
            StatementKind::BoardStart(_) => Part::BoardStart,
            StatementKind::Goal(_) => Part::Goal,
            StatementKind::Steps(_) => Part::Steps,
            StatementKind::Ending(_) => Part::Ending,
            StatementKind::Port(_) => Part::Port,
            StatementKind::Network(_) => Part::Network,
            StatementKind::Definition(definition) => {
                Part::Definition(definition.name.key(), definition.body.slot())
            }
            StatementKind::ScoreIncrements
            | StatementKind::Rule(_)
            | StatementKind::Assert { .. } => return None,
        })
    }

    fn describe(&self) -> String {
        match self {
            Part::GameName => "the game's name".to_owned(),
            Part::Like => "the game this one is like".to_owned(),
            Part::Players => "the players".to_owned(),
            Part::Turns => "the turn order".to_owned(),
            Part::Moves => "the moves".to_owned(),
            Part::Pieces => "the pieces".to_owned(),
            Part::Grid => "the grid".to_owned(),
            Part::BoardShape => "the board's shape".to_owned(),
            Part::CellShape => "the squares' shape".to_owned(),
            Part::BoardStart => "the starting board".to_owned(),
            Part::Goal => "the goal".to_owned(),
            Part::Steps => "the steps of the game".to_owned(),
            Part::Ending => "when the game ends".to_owned(),
            Part::Port => "the port".to_owned(),
            Part::Network => "the kind of networked game".to_owned(),
            Part::Definition(name, DefinitionSlot::Meaning) => format!("`{name}`"),
            Part::Definition(name, DefinitionSlot::Kinds) => format!("the kinds of `{name}`"),
        }
    }

    /// Whether the written order of the statement's words is meaningless (case and number are
    /// always ignored).
    fn is_unordered(&self) -> bool {
        matches!(self, Part::Players | Part::Pieces | Part::Moves)
    }
}

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(Part, &Statement, Vec<String>)> = Vec::new();
    for statement in &context.own.statements {
        let Some(part) = Part::of(statement) else {
            continue;
        };
        let meaning = fingerprint(context.text(statement.range), part.is_unordered());
        match seen.iter().find(|(p, _, _)| *p == part) {
            Some((_, first, first_meaning)) if *first_meaning != meaning => {
                let message = format!(
                    "this statement sets {} differently from an earlier statement: keep one of the two",
                    part.describe()
                );
                out.push(
                    Diagnostic::new(&CONFLICTING_STATEMENTS, statement.range, message)
                        .with_label(first.range, "the earlier statement"),
                );
            }
            Some(_) => {}
            None => seen.push((part, statement, meaning)),
        }
    }
}

/// What a statement says, with case and number ignored: its words' keys, sorted when order
/// does not count. Connectives are dropped so that `a and b` equals `[a, b]`.
fn fingerprint(text: &str, unordered: bool) -> Vec<String> {
    let mut keys: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '-'))
        .filter(|word| !word.is_empty())
        .map(key)
        .filter(|word| !matches!(word.as_str(), "and" | "or"))
        .collect();
    if unordered {
        keys.sort();
    }
    keys
}

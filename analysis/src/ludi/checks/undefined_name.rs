//! `ludi/undefined-name`: a player, piece or region name that the game does not declare.

use crate::ludi::bind::Value;
use crate::ludi::schema::{self, Namespace};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::alternatives;

pub const UNDEFINED_NAME: Rule = Rule {
    code: "ludi/undefined-name",
    severity: Severity::Error,
    summary: "a player, piece or region name that the game does not declare",
    explanation: "\
Players are declared in `players`, piece types in `pieces`, regions in the board's `regions`;
`All` stands for every player. A name used anywhere else (an end clause's player, a piece in
`place` or `in-hand`, a region in `connect` or `reach`) must be one of those.

    (players White Black)
    (end (Whit win (in-a-row 3)))           ; no player is named Whit
    (start (place (Stone White) A1))        ; no piece type Stone unless `pieces` declares it

Fix: correct the spelling, or declare the name. A game without `pieces` has one piece type,
named `Piece`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(tree), Some(game)) = (&context.bound.game, context.game) else {
        return;
    };
    tree.walk_args(&mut |_, arg| {
        let Value::Name { text, range, use_ } = &arg.value else {
            return;
        };
        if use_.declares || (use_.all_players && text == "All") {
            return;
        }
        let mut known = game.declared_names(use_.namespace);
        if use_.all_players {
            known.push("All");
        }
        if known.contains(&text.as_str()) {
            return;
        }
        let kind = use_.namespace.describe();
        let suggestions = schema::suggestions(text, known.iter().copied());
        let hint = if suggestions.is_empty() {
            match known.as_slice() {
                [] => format!("the game declares no {kind}s"),
                names => format!(
                    "the {kind}s are {}",
                    alternatives(names).replace(" or ", " and ")
                ),
            }
        } else {
            format!("did you mean {}?", alternatives(&suggestions))
        };
        let where_declared = match use_.namespace {
            Namespace::Player => "declare it in `(players ...)`",
            Namespace::Piece => "declare it in `(pieces ...)`",
            Namespace::Flag => "declare it in a piece's `(flags ...)`",
            _ => "declare it in the board's `(regions ...)`",
        };
        let message =
            format!("no {kind} is named `{text}`: {hint} Or {where_declared} (see docs/ludi.md)");
        let diagnostic = Diagnostic::new(&UNDEFINED_NAME, *range, message)
            .with_suggestions(*range, &suggestions);
        out.push(diagnostic);
    });
}

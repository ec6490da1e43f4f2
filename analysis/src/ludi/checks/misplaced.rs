//! `ludi/misplaced-ludeme`: a known ludeme where its parent does not take it.

use crate::ludi::bind::Finding;
use crate::ludi::schema::{self, Form, Kind};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::{entry, parent_name, see};

pub const MISPLACED_LUDEME: Rule = Rule {
    code: "ludi/misplaced-ludeme",
    severity: Severity::Error,
    summary: "a ludeme in a place that does not take it",
    explanation: "\
Each ludeme belongs in certain places: `in-a-row` is an end condition, so it stands in an end
clause; `tiling` stands in `board`; `empty` tests a cell in a move's `pre`. Written elsewhere
it means nothing, and Ludi rejects the game.

    (board (tiling square) (size 3 3) (in-a-row 3))    ; in-a-row belongs in an end clause
    (end (All win (in-a-row 3)))                        ; right

Fix: move the ludeme where it belongs (the message names the places), or, if a `)` closed
its parent too early, move the `)`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for finding in context.findings() {
        let Finding::Misplaced {
            range,
            entry: index,
            parent,
        } = finding
        else {
            continue;
        };
        let ludeme = entry(*index);
        // Every reading of the name written the same way: `score` is an effect, an end
        // condition and a support item; the word `empty` is another ludeme than `(empty to)`.
        let is_word = |form: Form| form == Form::Word;
        let mut places: Vec<String> = schema::named(ludeme.name)
            .filter(|reading| is_word(reading.form) == is_word(ludeme.form))
            .flat_map(|reading| {
                let places = schema::places_of(reading);
                if reading.kind == Kind::Logic {
                    vec!["`pre`, `if` and end clauses".to_owned()]
                } else {
                    places.iter().map(|(parent, _)| parent.written()).collect()
                }
            })
            .collect();
        places.sort();
        places.dedup();
        if ludeme.kind == Kind::Game {
            places = vec!["the top level of the file".to_owned()];
        }
        let message = format!(
            "{} cannot stand in {}; it belongs in {}: {}",
            ludeme.written(),
            parent_name(*parent),
            places.join(", "),
            see(ludeme)
        );
        out.push(Diagnostic::new(&MISPLACED_LUDEME, *range, message));
    }
}

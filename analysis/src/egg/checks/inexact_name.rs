//! `egg/inexact-name`: a name that finds its definition or piece only because EGGG ignores case
//! and plural (`goal is FourCorners` for `FourCorner means ...`).

use crate::egg::model::StatementKind;
use crate::rules::Rule;
use crate::{Applicability, Diagnostic, Severity};

use super::Context;
use super::undefined_name::{Expect, references};

pub const INEXACT_NAME: Rule = Rule {
    code: "egg/inexact-name",
    severity: Severity::Info,
    summary: "a name that matches its definition or piece only with case or plural ignored",
    explanation: "\
EGGG reads names leniently, as the paper's own descriptions need: case and the plural are
ignored, so `goal is Beats` finds `Beat means ...` and `game is Shuffle(deck)` the step EGGG
calls `shuffle`. The leniency is kept, but a name written otherwise than its definition reads
as a different name to a person, and may be a slip for another one: this note says which
definition the name was read as.

Wrong (the goal is read as `FourCorner`, which a reader may not see):

    FourCorner means player(Rock) and opponent(Paper)
    goal is FourCorners

Right:

    FourCorner means player(Rock) and opponent(Paper)
    goal is FourCorner

Fix: write the name as it is defined (the quick fix does it). Steps EGGG supplies (`Shuffle`,
`Deal`) are not reported: the paper writes them capitalised.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let game = context.game;
    for (word, expect) in references(context) {
        let spellings: Vec<&str> = match expect {
            // The file's own definitions too: of two spellings of one name the game keeps one.
            Expect::Definition => game
                .definitions
                .iter()
                .map(|definition| definition.value.name.text.as_str())
                .chain(context.own.statements.iter().filter_map(
                    |statement| match &statement.kind {
                        StatementKind::Definition(definition) => {
                            Some(definition.name.text.as_str())
                        }
                        _ => None,
                    },
                ))
                .collect(),
            Expect::Piece => game.pieces.as_ref().map_or_else(Vec::new, |pieces| {
                pieces
                    .value
                    .iter()
                    .map(|piece| piece.text.as_str())
                    .collect()
            }),
        };
        if spellings.contains(&word.text.as_str()) {
            continue;
        }
        let key = word.key();
        let Some(defined) = spellings
            .iter()
            .find(|spelling| crate::egg::words::key(spelling) == key)
        else {
            continue;
        };
        let what = match expect {
            Expect::Definition => "the defined name",
            Expect::Piece => "the piece",
        };
        let message = format!(
            "`{}` is read as {what} `{defined}`, since EGGG ignores case and plural in names; \
             write it `{defined}`",
            word.text
        );
        out.push(
            Diagnostic::new(&INEXACT_NAME, word.range, message).with_replacement(
                word.range,
                *defined,
                Applicability::Safe,
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::{RootDatabase, SourceFile, Syntax, file_diagnostics};

    fn notes(text: &str) -> Vec<(String, Vec<String>)> {
        let db = RootDatabase::default();
        let file = SourceFile::new(&db, "t.egg".into(), Syntax::Egg, Arc::from(text), None);
        file_diagnostics(&db, file)
            .into_iter()
            .filter(|d| d.code == "egg/inexact-name")
            .map(|d| {
                let fixes = d.fixes.iter().map(|fix| fix.edits[0].1.clone()).collect();
                (text[d.range.start..d.range.end].to_owned(), fixes)
            })
            .collect()
    }

    #[test]
    fn a_plural_or_other_case_is_noted_with_the_defined_spelling() {
        let text = "pieces are Rock and Paper\nFourCorner means player(rock) and opponent(Paper)\ngoal is FourCorners\n";
        assert_eq!(
            notes(text),
            [
                ("rock".to_owned(), vec!["Rock".to_owned()]),
                ("FourCorners".to_owned(), vec!["FourCorner".to_owned()]),
            ]
        );
    }

    /// The paper's poker writes `Shuffle(deck)` for the step EGGG supplies, and names its
    /// definitions as defined: nothing to note.
    #[test]
    fn the_papers_poker_has_nothing_to_note() {
        let poker = include_str!("../../../../corpus/egg/poker.egg");
        assert_eq!(notes(poker), []);
    }
}

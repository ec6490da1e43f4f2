//! Inlay hints. Always: in Ludi, the seed's default for each optional part a ludeme leaves out
//! (`reach Goal` counts one piece unless told otherwise), which the text never shows. On request
//! (`ludeme.inlayHints.english`, off by default because it is long): the English reading of each
//! GDL rule, Ludi rule and EGGG statement, at its end.
//!
//! Also always shown, in GDL: the arity of each relation the file defines, as `/N` after the
//! relation's name in the head of its first rule or fact. On by default because arity is what
//! GDL silently gets wrong (`(cell 1 b)` is another relation than `(cell 1 1 b)`) and one hint
//! per relation is quiet; a hint on every head would repeat itself down a table of facts. The
//! keyword relations are left out: their arity is fixed and `gdl/keyword-arity` checks it.

use super::egg::statement_english;
use crate::egg::{egg_explanation, egg_file};
use crate::gdl::checks::Context;
use crate::gdl::english::Vocabulary;
use crate::gdl::keywords::{keyword_relation_ignoring_case, reserved_word_ignoring_case};
use crate::gdl::model::{Rule, RuleSet};
use crate::gdl::{explain_rule, gdl_rules};
use crate::ludi::english::render;
use crate::ludi::ludi_tree;
use crate::{Db, SourceFile, Syntax, TextRange};

/// Which hints the client asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InlayOptions {
    /// The English of each rule or statement.
    pub english: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// Where it shows: before the character at this offset.
    pub offset: usize,
    pub label: String,
    /// The longer text an editor shows on hovering the hint.
    pub tooltip: Option<String>,
    /// Whether the hint reads as a suffix of the word before it (`cell/3`), shown without a
    /// space on its left.
    pub attached: bool,
}

/// Longest label shown in full; a longer default shows as `param: default` with the text in
/// the tooltip.
const LABEL_WIDTH: usize = 32;

/// The hints for the part of the file in `range`.
pub fn inlay_hints(
    db: &dyn Db,
    file: SourceFile,
    range: TextRange,
    options: InlayOptions,
) -> Vec<InlayHint> {
    let within = |offset: usize| range.start <= offset && offset <= range.end;
    let mut hints = Vec::new();
    match file.syntax(db) {
        Syntax::Ludi => {
            let Some(game) = ludi_tree(db, file).game.as_ref() else {
                return hints;
            };
            game.walk(&mut |node| {
                // Just before the closing parenthesis.
                let at = node.range.end.saturating_sub(1);
                if !within(at) || node.range.is_empty() {
                    return;
                }
                for (index, param) in node.ludeme().params.iter().enumerate() {
                    let Some(default) = param.default else {
                        continue;
                    };
                    if node.args.iter().any(|arg| arg.param == index) {
                        continue;
                    }
                    let full = format!("{}: {default}", param.name);
                    let (label, tooltip) = if full.chars().count() <= LABEL_WIDTH {
                        (full, None)
                    } else {
                        (format!("{}: default", param.name), Some(full))
                    };
                    hints.push(InlayHint {
                        offset: at,
                        label,
                        tooltip,
                        attached: false,
                    });
                }
            });
            if options.english {
                // Each part of the game and each record (end clause, piece, placement): a rule.
                let mut rules = Vec::new();
                for arg in &game.args {
                    if let Some(part) = arg.value.node() {
                        rules.push(part);
                        part.walk(&mut |node| {
                            if node.ludeme().is_record() {
                                rules.push(node);
                            }
                        });
                    }
                }
                hints.extend(
                    rules
                        .into_iter()
                        .filter(|node| within(node.range.end))
                        .map(|node| english_hint(node.range.end, render(node))),
                );
            }
        }
        Syntax::GdlKif | Syntax::GdlInfix => {
            let rules = &gdl_rules(db, file).rules;
            hints.extend(
                arity_hints(rules)
                    .into_iter()
                    .filter(|hint| within(hint.offset)),
            );
            if options.english {
                let vocabulary = Vocabulary::new(rules);
                hints.extend(
                    rules
                        .rules
                        .iter()
                        .filter(|rule| within(rule.range.end))
                        .map(|rule| english_hint(rule.range.end, explain_rule(rule, &vocabulary))),
                );
            }
        }
        Syntax::Egg if options.english => {
            let explanation = egg_explanation(db, file);
            for statement in &egg_file(db, file).statements {
                if !within(statement.range.end) {
                    continue;
                }
                if let Some(english) = statement_english(explanation, file, statement.range) {
                    hints.push(english_hint(statement.range.end, english));
                }
            }
        }
        _ => {}
    }
    hints.sort_by_key(|hint| hint.offset);
    hints
}

/// `/N` after the name of each relation the file defines, at the head of its first definition,
/// with N every arity the relation table records for it (heads and bodies alike, so that a
/// mismatch shows as `/2|3` where the relation is defined).
fn arity_hints(rules: &RuleSet) -> Vec<InlayHint> {
    let all: Vec<&Rule> = rules.rules.iter().collect();
    let context = Context::new(&all);
    let mut hints = Vec::new();
    for (name, relation) in context.names.iter().zip(&context.relations) {
        let Some(&first) = relation.definitions.first() else {
            continue;
        };
        if keyword_relation_ignoring_case(name).is_some()
            || reserved_word_ignoring_case(name).is_some()
        {
            continue;
        }
        let arities: Vec<String> = relation.arities.iter().map(ToString::to_string).collect();
        let definitions = relation.definitions.len();
        let uses = relation.uses.len();
        let tooltip = match arities.as_slice() {
            [one] => format!(
                "`{name}` takes {one} argument{}; {}, and rule bodies use it {uses} time{}.",
                plural(one != "1"),
                if definitions == 1 {
                    "1 rule or fact defines it".to_owned()
                } else {
                    format!("{definitions} rules and facts define it")
                },
                plural(uses != 1),
            ),
            several => format!(
                "`{name}` is written with {} arguments: to GDL these are different relations \
                 (see gdl/inconsistent-arity).",
                several.join(" and ")
            ),
        };
        hints.push(InlayHint {
            offset: context.rules[first].head.name.range.end,
            label: format!("/{}", arities.join("|")),
            tooltip: Some(tooltip),
            attached: true,
        });
    }
    hints
}

fn plural(many: bool) -> &'static str {
    if many { "s" } else { "" }
}

fn english_hint(offset: usize, sentence: String) -> InlayHint {
    InlayHint {
        offset,
        label: format!("— {sentence}"),
        tooltip: None,
        attached: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RootDatabase;
    use crate::ide::fixture::source;

    fn hints(text: &str, syntax: Syntax, english: bool) -> Vec<(usize, String)> {
        let db = RootDatabase::default();
        let file = source(&db, "t", syntax, text);
        inlay_hints(
            &db,
            file,
            TextRange::new(0, text.len()),
            InlayOptions { english },
        )
        .into_iter()
        .map(|hint| (hint.offset, hint.label))
        .collect()
    }

    #[test]
    fn ludi_shows_the_defaults_of_what_is_left_out() {
        let text = "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (reach N))))";
        let found = hints(text, Syntax::Ludi, false);
        let reach_end = text.find("(reach N)").unwrap() + "(reach N)".len() - 1;
        assert!(
            found.contains(&(reach_end, "count: one".to_owned())),
            "{found:?}"
        );
        // The game leaves out pieces: a long default, shortened.
        let game_end = text.len() - 1;
        assert!(
            found.contains(&(game_end, "pieces: default".to_owned())),
            "{found:?}"
        );
        // No English unless asked for.
        assert!(found.iter().all(|(_, label)| !label.starts_with('—')));
    }

    #[test]
    fn english_glosses_when_asked() {
        // Only keyword relations: no arity hint either.
        let gdl = "(role x)\n(<= terminal (true (done)))\n";
        assert!(hints(gdl, Syntax::GdlKif, false).is_empty());
        let found = hints(gdl, Syntax::GdlKif, true);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[1].0, gdl.len() - 1);
        assert!(found[1].1.contains("done"), "{found:?}");
        let egg = "game is chess\n2 players\n";
        let found = hints(egg, Syntax::Egg, true);
        assert!(
            found
                .iter()
                .any(|(offset, label)| *offset == egg.len() - 1 && label.contains("two")),
            "{found:?}"
        );
        let ludi = "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))";
        let found = hints(ludi, Syntax::Ludi, true);
        assert!(
            found.iter().any(|(_, label)| label.contains("line of 3")),
            "{found:?}"
        );
    }

    #[test]
    fn gdl_shows_the_arity_of_each_defined_relation_once() {
        let kif = "(role x)\n(cell 1 1 b)\n(cell 1 2 b)\n(<= (open) (cell ?x ?y b))\n\
                   (<= (next (cell ?x ?y b)) (cell ?x ?y b))\n";
        let found = hints(kif, Syntax::GdlKif, false);
        let first_cell = kif.find("(cell").unwrap() + "(cell".len();
        let open = kif.find("(open").unwrap() + "(open".len();
        // `cell` at its first fact only, `open` with no argument; nothing for `role` or `next`.
        assert_eq!(
            found,
            vec![(first_cell, "/3".to_owned()), (open, "/0".to_owned())]
        );
        // The same in infix, after the name and before its parenthesis.
        let infix = "role(x)\nstep(1, 2)\nlater(X) :- step(X, Y)\n";
        let found = hints(infix, Syntax::GdlInfix, false);
        assert_eq!(
            found,
            vec![
                (infix.find("step").unwrap() + 4, "/2".to_owned()),
                (infix.find("later").unwrap() + 5, "/1".to_owned()),
            ]
        );
    }

    #[test]
    fn an_arity_mismatch_shows_every_arity_where_the_relation_is_defined() {
        let kif = "(cell 1 1 b)\n(<= (open) (cell ?x b))\n";
        let found = hints(kif, Syntax::GdlKif, false);
        assert_eq!(found[0], ("(cell".len(), "/2|3".to_owned()), "{found:?}");
    }

    #[test]
    fn arity_hints_respect_the_requested_range() {
        let kif = "(index 1)\n(filler x)\n";
        let db = RootDatabase::default();
        let file = source(&db, "t", Syntax::GdlKif, kif);
        let second_line = kif.find("(filler").unwrap();
        let found = inlay_hints(
            &db,
            file,
            TextRange::new(second_line, kif.len()),
            InlayOptions::default(),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].label, "/1");
        assert_eq!(found[0].offset, second_line + "(filler".len());
    }
}

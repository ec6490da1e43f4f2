//! Editor features for GDL, read off the classified occurrences of names.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;

use super::{Hover, Reference, SemanticToken, TokenKind};
use crate::gdl::keywords::{self, KeywordKind};
use crate::gdl::occurrences::{
    Occurrence, OccurrenceKind, gdl_occurrences, occurrence_at, same_symbol,
};
use crate::gdl::{format_gdl_text, gdl_rules};
use crate::{Db, SourceFile, Syntax, TextRange};

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(0, |before| before.matches('\n').count())
        + 1
}

fn target(db: &dyn Db, file: SourceFile, offset: usize) -> Option<&Occurrence> {
    occurrence_at(gdl_occurrences(db, file), offset)
}

pub fn references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Reference> {
    let occurrences = gdl_occurrences(db, file);
    let Some(target) = occurrence_at(occurrences, offset) else {
        return Vec::new();
    };
    same_symbol(occurrences, target)
        .map(|occurrence| Reference {
            range: occurrence.range,
            is_definition: definition_like(occurrence, occurrences),
        })
        .collect()
}

/// Relations are defined by rule heads and facts; a variable is "defined" where it first
/// appears in its rule; functions and constants have no definition site.
fn definition_like(occurrence: &Occurrence, occurrences: &[Occurrence]) -> bool {
    match occurrence.kind {
        OccurrenceKind::RelationDefinition => true,
        OccurrenceKind::Variable { .. } => same_symbol(occurrences, occurrence)
            .next()
            .is_some_and(|first| first.range == occurrence.range),
        _ => false,
    }
}

/// The manual entry of a GDL keyword: its arity, meaning and an example in the file's syntax.
fn keyword_entry(keyword: &keywords::Keyword, syntax: Syntax) -> String {
    let arity = keyword
        .arity
        .map_or("any number of".to_owned(), |n| n.to_string());
    format!(
        "**{}** — GDL {}keyword, {arity} argument{}\n\n{}.\n\n```gdl\n{}\n```",
        keyword.name,
        if keyword.gdl_ii { "II " } else { "" },
        if keyword.arity == Some(1) { "" } else { "s" },
        capitalise(keyword.meaning),
        example_in(keyword, syntax)
    )
}

/// A keyword's example as `syntax` writes it. The table holds KIF; the infix examples are
/// converted by the formatter once, on the first hover that needs one.
fn example_in(keyword: &keywords::Keyword, syntax: Syntax) -> &'static str {
    static INFIX: OnceLock<HashMap<&'static str, String>> = OnceLock::new();
    if syntax != Syntax::GdlInfix {
        return keyword.example;
    }
    let infix = INFIX.get_or_init(|| {
        keywords::KEYWORDS
            .iter()
            .filter_map(|keyword| {
                let converted =
                    format_gdl_text(keyword.example, Syntax::GdlKif, Syntax::GdlInfix).ok()?;
                Some((keyword.name, converted.trim_end().to_owned()))
            })
            .collect()
    });
    infix
        .get(keyword.name)
        .map_or(keyword.example, String::as_str)
}

/// The hover of a connective (`distinct`, `not`, `or`): the rule model keeps no occurrence of
/// them, so they are read off the syntax tree, as the token under the cursor.
fn connective_hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    let parse = crate::parse(db, file);
    let text = file.text(db);
    [Some(offset), offset.checked_sub(1)]
        .into_iter()
        .flatten()
        .find_map(|at| {
            let node = parse.root().descendant_for_byte_range(at, at)?;
            let keyword = keywords::keyword(text.get(node.start_byte()..node.end_byte())?)
                .filter(|keyword| keyword.kind == KeywordKind::Connective)?;
            let mut markdown = keyword_entry(keyword, file.syntax(db));
            append_rule_reading(db, file, offset, &mut markdown);
            Some(Hover {
                range: TextRange::new(node.start_byte(), node.end_byte()),
                markdown,
            })
        })
}

pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    let occurrences = gdl_occurrences(db, file);
    let Some(target) = occurrence_at(occurrences, offset) else {
        return connective_hover(db, file, offset);
    };
    let text = file.text(db);
    let name = &*target.name;
    let mut markdown = String::new();
    if let Some(keyword) = keywords::keyword(name)
        .filter(|_| target.kind.namespace() == crate::gdl::occurrences::Namespace::Relation)
    {
        let mut markdown = keyword_entry(keyword, file.syntax(db));
        append_rule_reading(db, file, offset, &mut markdown);
        return Some(Hover {
            range: target.range,
            markdown,
        });
    }
    match target.kind {
        OccurrenceKind::RelationDefinition | OccurrenceKind::RelationUse => {
            let rules = &gdl_rules(db, file).rules.rules;
            let definitions: Vec<usize> = rules
                .iter()
                .filter(|rule| rule.head.name.name == target.name)
                .map(|rule| line_of(text, rule.range.start))
                .collect();
            let arities: std::collections::BTreeSet<usize> = rules
                .iter()
                .filter(|rule| rule.head.name.name == target.name)
                .map(|rule| rule.head.arity())
                .collect();
            let uses = same_symbol(occurrences, target)
                .filter(|occurrence| occurrence.kind == OccurrenceKind::RelationUse)
                .count();
            let arity = arities
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" or ");
            let _ = write!(markdown, "**{name}** — relation");
            if !arity.is_empty() {
                let _ = write!(markdown, " of arity {arity}");
            }
            let _ = write!(markdown, "\n\n");
            match definitions.len() {
                0 => markdown.push_str("Defined by no rule or fact: it never holds.\n\n"),
                count => {
                    let lines = definitions
                        .iter()
                        .take(8)
                        .map(|line| format!("{line}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let more = if count > 8 { ", …" } else { "" };
                    let _ = write!(
                        markdown,
                        "Defined by {count} rule{} and fact{} (line{} {lines}{more}).\n\n",
                        if count == 1 { "" } else { "s" },
                        if count == 1 { "" } else { "s" },
                        if count == 1 { "" } else { "s" }
                    );
                }
            }
            let _ = write!(
                markdown,
                "Used in {uses} rule bod{}.",
                if uses == 1 { "y" } else { "ies" }
            );
        }
        OccurrenceKind::Function => {
            let count = same_symbol(occurrences, target).count();
            let _ = write!(
                markdown,
                "**{name}** — function term, written {count} time{}.",
                if count == 1 { "" } else { "s" }
            );
        }
        OccurrenceKind::Constant => {
            let is_role = gdl_rules(db, file).rules.rules.iter().any(|rule| {
                &*rule.head.name.name == "role"
                    && matches!(rule.head.args.as_slice(), [crate::gdl::model::Term::Constant(role)] if role.name == target.name)
            });
            let what = if is_role {
                "a role (a player of the game)"
            } else if name.parse::<u64>().is_ok() {
                "a number"
            } else {
                "an object constant"
            };
            let _ = write!(markdown, "**{name}** — {what}.");
        }
        OccurrenceKind::Variable { rule } => {
            let rules = &gdl_rules(db, file).rules.rules;
            let line = rules
                .get(rule)
                .map_or(0, |rule| line_of(text, rule.range.start));
            let count = same_symbol(occurrences, target).count();
            let _ = write!(
                markdown,
                "**{name}** — variable of the rule at line {line}, written {count} time{} in it.",
                if count == 1 { "" } else { "s" }
            );
        }
    }
    append_rule_reading(db, file, offset, &mut markdown);
    Some(Hover {
        range: target.range,
        markdown,
    })
}

/// Adds the English reading of the rule under the cursor, for a designer checking that the rule
/// says what they meant.
fn append_rule_reading(db: &dyn Db, file: SourceFile, offset: usize, markdown: &mut String) {
    if let Some((_, sentence)) = crate::gdl::english::explain_rule_at(db, file, offset) {
        let _ = write!(markdown, "\n\n---\n\n*This rule reads:* {sentence}");
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

pub fn prepare_rename(db: &dyn Db, file: SourceFile, offset: usize) -> Result<TextRange, String> {
    let target = target(db, file, offset).ok_or("there is no name to rename here")?;
    if target.kind.namespace() == crate::gdl::occurrences::Namespace::Relation
        && keywords::keyword(&target.name).is_some()
    {
        return Err(format!(
            "`{}` is a GDL keyword: its name is fixed by the language",
            target.name
        ));
    }
    if keywords::keyword(&target.name).is_some_and(|keyword| keyword.kind != KeywordKind::Relation)
    {
        return Err(format!("`{}` is a GDL keyword", target.name));
    }
    Ok(target.range)
}

pub fn rename(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(TextRange, String)>, String> {
    prepare_rename(db, file, offset)?;
    let occurrences = gdl_occurrences(db, file);
    let target = occurrence_at(occurrences, offset).ok_or("there is no name to rename here")?;
    validate_name(file.syntax(db), target, new_name)?;
    if keywords::keyword(new_name).is_some() {
        return Err(format!(
            "`{new_name}` is a GDL keyword; choose another name"
        ));
    }
    let clash = occurrences.iter().any(|occurrence| {
        occurrence.kind.namespace() == target.kind.namespace() && &*occurrence.name == new_name
    });
    if clash {
        return Err(format!(
            "`{new_name}` is already used for another {}: renaming would merge them",
            describe(target.kind)
        ));
    }
    Ok(same_symbol(occurrences, target)
        .map(|occurrence| (occurrence.range, new_name.to_owned()))
        .collect())
}

fn describe(kind: OccurrenceKind) -> &'static str {
    match kind {
        OccurrenceKind::RelationDefinition | OccurrenceKind::RelationUse => "relation",
        OccurrenceKind::Function => "function",
        OccurrenceKind::Constant => "constant",
        OccurrenceKind::Variable { .. } => "variable of this rule",
    }
}

/// Whether `name` can be written as this kind of symbol in the file's syntax.
fn validate_name(syntax: Syntax, target: &Occurrence, name: &str) -> Result<(), String> {
    let variable = matches!(target.kind, OccurrenceKind::Variable { .. });
    let valid = match syntax {
        Syntax::GdlKif => {
            let symbol_chars = |text: &str| {
                !text.is_empty()
                    && text.chars().all(|c| {
                        !c.is_whitespace() && !"();\"'`,\\#^".contains(c) && !c.is_control()
                    })
            };
            if variable {
                name.strip_prefix('?').is_some_and(symbol_chars) || name == "?"
            } else {
                symbol_chars(name) && !name.starts_with('?')
            }
        }
        _ => {
            let mut chars = name.chars();
            let first = chars.next();
            let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            rest_ok
                && match first {
                    Some(c) if variable => c.is_ascii_uppercase() || c == '_',
                    Some(c) => c.is_ascii_lowercase() || c.is_ascii_digit(),
                    None => false,
                }
        }
    };
    if valid {
        Ok(())
    } else if variable {
        Err(match syntax {
            Syntax::GdlKif => format!("`{name}` is not a KIF variable: variables start with `?`"),
            _ => format!(
                "`{name}` is not an infix variable: variables start with a capital letter or `_`"
            ),
        })
    } else {
        Err(format!(
            "`{name}` is not a valid {} name in this syntax",
            describe(target.kind)
        ))
    }
}

pub fn semantic_tokens(db: &dyn Db, file: SourceFile) -> Vec<SemanticToken> {
    gdl_occurrences(db, file)
        .iter()
        .map(|occurrence| {
            let keyword = keywords::keyword(&occurrence.name).is_some();
            let kind = match occurrence.kind {
                OccurrenceKind::RelationDefinition | OccurrenceKind::RelationUse if keyword => {
                    TokenKind::Keyword
                }
                OccurrenceKind::RelationDefinition | OccurrenceKind::RelationUse => {
                    TokenKind::Function
                }
                OccurrenceKind::Function => TokenKind::Type,
                OccurrenceKind::Constant if occurrence.name.parse::<u64>().is_ok() => {
                    TokenKind::Number
                }
                OccurrenceKind::Constant => TokenKind::Constant,
                OccurrenceKind::Variable { .. } => TokenKind::Variable,
            };
            SemanticToken {
                range: occurrence.range,
                kind,
                definition: occurrence.kind == OccurrenceKind::RelationDefinition,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::fixture::{assert_mentions, fixture};

    const RULES: &str =
        "(role x)\n(<= (legal x (mark ?a)) (true (cell ?a)) (dis$0tinct ?a 1))\n; distinct\n";

    #[test]
    fn a_connective_shows_its_manual_entry_and_the_rule() {
        for (path, syntax, text) in [
            ("t.kif", Syntax::GdlKif, RULES.to_owned()),
            (
                "t.hrf",
                Syntax::GdlInfix,
                "role(x)\nlegal(x, mark(A)) :- true(cell(A)) & dis$0tinct(A, 1)\n".to_owned(),
            ),
        ] {
            let (db, file, offset, text) = fixture(path, syntax, &text);
            let hover = hover(&db, file, offset).expect("a hover on `distinct`");
            assert_eq!(&text[hover.range.start..hover.range.end], "distinct");
            assert!(
                hover
                    .markdown
                    .starts_with("**distinct** — GDL keyword, 2 arguments")
            );
            // The example is written as the file writes rules.
            let example = match syntax {
                Syntax::GdlInfix => "```gdl\nadjacent(X, Y) :- succ(X, Y) & distinct(X, Y)\n```",
                _ => "```gdl\n(<= (adjacent ?x ?y) (succ ?x ?y) (distinct ?x ?y))\n```",
            };
            assert_mentions(&hover.markdown, example);
            assert_mentions(&hover.markdown, "*This rule reads:*");
        }
    }

    #[test]
    fn a_connective_in_a_comment_has_no_hover() {
        let (db, file, _, text) = fixture("t.kif", Syntax::GdlKif, RULES);
        assert_eq!(hover(&db, file, text.rfind("distinct").unwrap() + 1), None);
    }
}

//! Editor features for GDL, read off the classified occurrences of names.

use std::fmt::Write;

use super::{Hover, Reference, SemanticToken, TokenKind};
use crate::gdl::gdl_rules;
use crate::gdl::keywords::{self, KeywordKind};
use crate::gdl::occurrences::{
    Occurrence, OccurrenceKind, gdl_occurrences, occurrence_at, same_symbol,
};
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

pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    let occurrences = gdl_occurrences(db, file);
    let target = occurrence_at(occurrences, offset)?;
    let text = file.text(db);
    let name = &*target.name;
    let mut markdown = String::new();
    if let Some(keyword) = keywords::keyword(name)
        .filter(|_| target.kind.namespace() == crate::gdl::occurrences::Namespace::Relation)
    {
        let arity = keyword
            .arity
            .map_or("any number of".to_owned(), |n| n.to_string());
        let _ = write!(
            markdown,
            "**{name}** — GDL {}keyword, {arity} argument{}\n\n{}.\n\n```gdl\n{}\n```",
            if keyword.gdl_ii { "II " } else { "" },
            if keyword.arity == Some(1) { "" } else { "s" },
            capitalise(keyword.meaning),
            keyword.example
        );
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

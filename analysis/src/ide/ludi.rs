//! Hover, navigation and rename for Ludi, read off the schema and the bound tree, where each
//! name knows its namespace and whether it declares. A ludeme's hover gives its manual entry,
//! what it says here in English and what its rule says; a misspelt ludeme's, the diagnostic
//! and the manual entries of the ludemes it may have meant. The names a game declares are players,
//! piece types, regions (and flags and advisors, which are declared where they are first
//! written).

use super::{Hover, Reference, is_name_word};
use crate::ludi::bind::{Finding, Node, Value};
use crate::ludi::english::render;
use crate::ludi::manual::signature;
use crate::ludi::schema::{self, Form, Namespace};
use crate::ludi::{ludi_diagnostics, ludi_tree};
use crate::{Db, SourceFile, TextRange};

/// The hover of the ludeme or name under `offset`; on a name that is no ludeme, what is wrong
/// and the manual entries of the ludemes it may have meant.
pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    if let Some(hover) = unknown_ludeme_hover(db, file, offset) {
        return Some(hover);
    }
    let game = ludi_tree(db, file).game.as_ref()?;
    let mut found: Option<&Node> = None;
    let mut name: Option<(&str, TextRange, Namespace)> = None;
    game.walk(&mut |node| {
        if node.name_range.contains(offset) {
            found = Some(node);
        }
        for arg in &node.args {
            if let Value::Name { text, range, use_ } = &arg.value
                && range.contains(offset)
            {
                name = Some((text, *range, use_.namespace));
            }
        }
    });
    if let Some((text, range, namespace)) = name {
        let markdown = if text == "All" && namespace == Namespace::Player {
            "**`All`**: every player (the rule applies to each player in turn)".to_owned()
        } else {
            format!("**`{text}`**: a {} of this game", namespace.describe())
        };
        return Some(Hover { range, markdown });
    }
    let node = found?;
    let mut here = format!("\n\nHere: “{}”", render(node));
    if let Some(rule) = enclosing_rule(game, offset).filter(|rule| rule.range != node.range) {
        here.push_str(&format!("\n\nThis rule: “{}”", render(rule)));
    }
    Some(Hover {
        range: node.name_range,
        markdown: manual_entry(node.ludeme(), &here),
    })
}

/// A ludeme's manual entry as hovers show it: its name and kind, meaning and signature, then
/// `here` (what it says at the place hovered, if anything), its example and the manual's link.
fn manual_entry(ludeme: &schema::Ludeme, here: &str) -> String {
    format!(
        "**{}** ({})\n\n{}\n\n{}{here}\n\nExample: `{}` · [manual]({})",
        ludeme.name,
        ludeme.kind.describe(),
        ludeme.meaning,
        written(ludeme),
        ludeme.example,
        ludeme.manual_link()
    )
}

/// The hover of a name the binder found to be no ludeme (`ludi/unknown-ludeme`): the
/// diagnostic, with its "did you mean", then the manual entry of each ludeme it suggests, as
/// the hover of that ludeme would give it.
fn unknown_ludeme_hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    let (range, parent, suggestions) =
        ludi_tree(db, file)
            .findings
            .iter()
            .find_map(|finding| match finding {
                Finding::Unknown {
                    range,
                    parent,
                    suggestions,
                    ..
                } if range.contains(offset) => Some((*range, *parent, suggestions)),
                _ => None,
            })?;
    let diagnostic = ludi_diagnostics(db, file)
        .iter()
        .find(|diagnostic| diagnostic.code == "ludi/unknown-ludeme" && diagnostic.range == range)?;
    let mut markdown = format!("**{}**: {}", diagnostic.code, diagnostic.message);
    for &suggestion in suggestions {
        // A name may be several ludemes (`empty`, the condition and the cell content): those
        // the place takes, else all.
        let fits = |ludeme: &&schema::Ludeme| match parent {
            Some(parent) => schema::LUDEMES[parent].params.iter().any(|param| {
                param
                    .accepts
                    .iter()
                    .any(|&accepts| schema::accepts_ludeme(accepts, ludeme, None))
            }),
            None => true,
        };
        let mut entries: Vec<&schema::Ludeme> = schema::named(suggestion).filter(fits).collect();
        if entries.is_empty() {
            entries = schema::named(suggestion).collect();
        }
        for ludeme in entries {
            markdown.push_str("\n\n---\n\n");
            markdown.push_str(&manual_entry(ludeme, ""));
        }
    }
    Some(Hover { range, markdown })
}

/// How a ludeme is written with its parameters: `` `(in-a-row length [piece])` ``.
fn written(ludeme: &schema::Ludeme) -> String {
    match ludeme.form {
        Form::Word | Form::Either => format!("`{}`", ludeme.name),
        Form::List => format!("`({}{})`", ludeme.name, signature(ludeme)),
        Form::Record { .. } => format!("`({})`", signature(ludeme).trim_start()),
    }
}

/// The nodes whose text holds `offset`, outermost (the game) first.
fn ancestors(game: &Node, offset: usize) -> Vec<&Node> {
    let mut chain = Vec::new();
    game.walk(&mut |node| {
        if node.range.start <= offset && offset < node.range.end {
            chain.push(node);
        }
    });
    // `walk` visits parents before children, so containment order is visiting order.
    chain
}

/// The rule the cursor is in: the innermost record (an end clause, a piece definition, a
/// placement) or, outside every record, the part of the game (`board`, `play`).
fn enclosing_rule(game: &Node, offset: usize) -> Option<&Node> {
    let chain = ancestors(game, offset);
    chain
        .iter()
        .rev()
        .find(|node| node.ludeme().is_record())
        .or_else(|| chain.get(1))
        .copied()
}

/// One written name of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct NameSite {
    pub(super) text: String,
    pub(super) range: TextRange,
    pub(super) namespace: Namespace,
    pub(super) declares: bool,
}

/// Every declared or referring name of the file, in source order. `All` (every player) is no
/// name of the game and is left out.
pub(super) fn name_sites(db: &dyn Db, file: SourceFile) -> Vec<NameSite> {
    let Some(game) = ludi_tree(db, file).game.as_ref() else {
        return Vec::new();
    };
    let text = file.text(db);
    let mut sites = Vec::new();
    game.walk(&mut |node: &Node| {
        // A record is headed by a name: `(White N)` in players, `(Stone All ...)` in pieces.
        if let Form::Record {
            namespace,
            declares,
        } = node.ludeme().form
            && let Some(name) = text.get(node.name_range.start..node.name_range.end)
        {
            sites.push(NameSite {
                text: name.to_owned(),
                range: node.name_range,
                namespace,
                declares,
            });
        }
        for arg in &node.args {
            if let Value::Name { text, range, use_ } = &arg.value {
                sites.push(NameSite {
                    text: text.clone(),
                    range: *range,
                    namespace: use_.namespace,
                    declares: use_.declares,
                });
            }
        }
    });
    sites.retain(|site| !(site.namespace == Namespace::Player && site.text == "All"));
    sites.sort_by_key(|site| (site.range.start, site.range.end));
    sites.dedup_by_key(|site| site.range);
    sites
}

/// The name at `offset` (or ending right at it, for a cursor after a name).
fn site_at(sites: &[NameSite], offset: usize) -> Option<&NameSite> {
    sites
        .iter()
        .find(|site| site.range.start <= offset && offset <= site.range.end)
}

fn same_name<'a>(
    sites: &'a [NameSite],
    target: &'a NameSite,
) -> impl Iterator<Item = &'a NameSite> + 'a {
    sites
        .iter()
        .filter(move |site| site.namespace == target.namespace && site.text == target.text)
}

pub fn references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Reference> {
    let sites = name_sites(db, file);
    let Some(target) = site_at(&sites, offset) else {
        return Vec::new();
    };
    same_name(&sites, target)
        .map(|site| Reference {
            range: site.range,
            is_definition: site.declares,
        })
        .collect()
}

pub fn prepare_rename(db: &dyn Db, file: SourceFile, offset: usize) -> Result<TextRange, String> {
    let sites = name_sites(db, file);
    let target = site_at(&sites, offset).ok_or_else(|| {
        "only the names a game declares (players, pieces, regions) can be renamed; ludemes are fixed by the language".to_owned()
    })?;
    if target.namespace == Namespace::Game {
        return Err("the game's name is not referred to anywhere: edit it in place".to_owned());
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
    let sites = name_sites(db, file);
    let target = site_at(&sites, offset).ok_or("there is no name to rename here")?;
    validate_name(new_name)?;
    let kind = target.namespace.describe();
    if sites
        .iter()
        .any(|site| site.namespace == target.namespace && site.text == new_name)
    {
        return Err(format!(
            "a {kind} is already named `{new_name}`: renaming would merge them"
        ));
    }
    Ok(same_name(&sites, target)
        .map(|site| (site.range, new_name.to_owned()))
        .collect())
}

/// Whether `name` reads back as a name: a word of letters, digits, `-` and `_` starting with a
/// letter, and neither a ludeme, `All`, nor a cell such as `A1` (which the reader takes for a
/// cell).
fn validate_name(name: &str) -> Result<(), String> {
    if !is_name_word(name) {
        return Err(format!(
            "`{name}` is not a Ludi name: use letters, digits, `-` and `_`, starting with a letter"
        ));
    }
    let letters = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let is_cell = letters.len() < name.len()
        && !letters.is_empty()
        && letters.chars().all(|c| c.is_ascii_uppercase());
    if is_cell {
        return Err(format!(
            "`{name}` reads as a cell name; choose another name"
        ));
    }
    if name == "All" || schema::named(name).next().is_some() {
        return Err(format!(
            "`{name}` is a word of Ludi itself; choose another name"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Syntax;
    use crate::ide::fixture::{assert_mentions, assert_refused, fixture};

    fn ludi(text: &str) -> (crate::RootDatabase, SourceFile, usize, String) {
        fixture("t.ludi", Syntax::Ludi, text)
    }

    const GAME: &str = "(game T (players White Black) (board (tiling square) (size 3 3) (regions (Goal White A3 B3))) (pieces (Stone All (moves (move (action (push)))))) (start (place (Stone Wh$0ite) A1)) (end (White win (reach Goal)) (Black win (in-a-row 3))))";

    fn texts(text: &str, ranges: impl IntoIterator<Item = TextRange>) -> Vec<String> {
        ranges
            .into_iter()
            .map(|range| text[range.start..range.end].to_owned())
            .collect()
    }

    #[test]
    fn references_of_a_player_cover_declaration_records_and_uses() {
        let (db, file, offset, text) = ludi(GAME);
        let references = references(&db, file, offset);
        // Declared in players; used by the region, the placement and the end clause.
        assert_eq!(references.len(), 4, "{references:?}");
        assert!(
            texts(&text, references.iter().map(|r| r.range))
                .iter()
                .all(|t| t == "White")
        );
        let declarations: Vec<usize> = references
            .iter()
            .filter(|r| r.is_definition)
            .map(|r| r.range.start)
            .collect();
        assert_eq!(declarations, [text.find("White").unwrap()]);
    }

    #[test]
    fn references_of_a_region_and_a_piece() {
        let (db, file, _, text) = ludi(GAME);
        let goal_use = text.rfind("Goal").unwrap();
        let goal = references(&db, file, goal_use);
        assert_eq!(goal.len(), 2);
        assert_eq!(goal[0].range.start, text.find("Goal").unwrap());
        assert!(goal[0].is_definition && !goal[1].is_definition);
        let stone = references(&db, file, text.rfind("Stone").unwrap() + 1);
        assert_eq!(stone.len(), 2);
        assert!(stone[0].is_definition);
    }

    #[test]
    fn rename_changes_every_site_and_refuses_clashes_and_cells() {
        let (db, file, offset, text) = ludi(GAME);
        let edits = rename(&db, file, offset, "Red").unwrap();
        assert_eq!(edits.len(), 4);
        assert!(
            texts(&text, edits.iter().map(|e| e.0))
                .iter()
                .all(|t| t == "White")
        );
        assert_refused(rename(&db, file, offset, "Black"), "already named");
        assert_refused(rename(&db, file, offset, "B2"), "cell");
        assert_refused(rename(&db, file, offset, "board"), "Ludi itself");
        assert_refused(rename(&db, file, offset, "two words"), "not a Ludi name");
    }

    #[test]
    fn ludemes_and_all_are_not_renamed() {
        let (db, file, _, text) = ludi(GAME);
        assert!(prepare_rename(&db, file, text.find("tiling").unwrap()).is_err());
        let all = text.find("All").unwrap();
        assert!(prepare_rename(&db, file, all + 1).is_err());
        assert!(references(&db, file, all + 1).is_empty());
    }

    const TIC_TAC_TOE: &str = "(game T (players White Black) (board (tiling square i-nbors) (size 3 3)) (end (All win (in-a-$0row 3))))";

    #[test]
    fn hover_shows_the_manual_entry_and_the_english_here() {
        let (db, file, offset, _) = ludi(TIC_TAC_TOE);
        let hover = hover(&db, file, offset).expect("a hover");
        assert!(
            hover
                .markdown
                .starts_with("**in-a-row** (an end condition)"),
            "{}",
            hover.markdown
        );
        assert_mentions(&hover.markdown, "Here: “making a line of 3”");
        assert_mentions(&hover.markdown, "docs/ludi.md#endcondition-in-a-row");
    }

    #[test]
    fn hover_on_a_misspelt_ludeme_shows_the_diagnostic_and_the_nearest_ludemes() {
        let (db, file, offset, text) = ludi(
            "(game T (players White Black) (boa$0rdd (tiling square) (size 3 3)) (end (All win (in-a-row 3))))",
        );
        let hover = hover(&db, file, offset).expect("a hover on the unknown ludeme");
        assert_eq!(&text[hover.range.start..hover.range.end], "boardd");
        // The diagnostic the file has there, with its "did you mean".
        let diagnostic = crate::ludi::ludi_diagnostics(&db, file)
            .iter()
            .find(|d| d.code == "ludi/unknown-ludeme")
            .expect("the diagnostic")
            .clone();
        assert_mentions(&hover.markdown, &diagnostic.message);
        assert_mentions(&hover.markdown, "did you mean `board`");
        // The manual entry of `board`, as the hover of `board` itself gives it.
        let board = schema::named("board").next().unwrap();
        assert_mentions(
            &hover.markdown,
            &format!("**board** ({})", board.kind.describe()),
        );
        assert_mentions(&hover.markdown, board.meaning);
        assert_mentions(&hover.markdown, &board.manual_link());
    }

    #[test]
    fn hover_on_a_misspelt_word_and_a_misspelt_game() {
        let (db, file, offset, _) = ludi(
            "(game T (players White Black) (board (tiling sqau$0re) (size 3 3)) (end (All win (in-a-row 3))))",
        );
        let word = hover(&db, file, offset).expect("a hover on the unknown word");
        assert_mentions(&word.markdown, "did you mean `square`");
        assert_mentions(&word.markdown, "**square** (");
        let (db, file, offset, _) = ludi(
            "(gam$0ee T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))",
        );
        let game = hover(&db, file, offset).expect("a hover on the unknown game");
        assert_mentions(&game.markdown, "did you mean `game`");
        assert_mentions(&game.markdown, &schema::game().manual_link());
    }

    #[test]
    fn hover_on_a_player_name() {
        let (db, file, offset, _) = ludi(
            "(game T (players Wh$0ite Black) (board (tiling hex) (size 3)) (end (All win (in-a-row 3))))",
        );
        assert_eq!(
            hover(&db, file, offset).unwrap().markdown,
            "**`White`**: a player of this game"
        );
    }

    #[test]
    fn hover_adds_the_rule_around_the_ludeme() {
        let (db, file, offset, _) = ludi(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win (and (in-a-$0row 3) (not (in-a-row 4))))))",
        );
        let markdown = hover(&db, file, offset).unwrap().markdown;
        assert_mentions(&markdown, "Here: “making a line of 3”");
        // The end clause is the rule: its English names the player and the result.
        let rule = markdown
            .split("This rule: “")
            .nth(1)
            .expect("the rule's English");
        assert!(rule.contains("line of 4"), "{markdown}");
        assert!(rule.contains("win"), "{markdown}");
    }
}

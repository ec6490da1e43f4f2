//! Navigation and rename of the names a Ludi game declares: players, piece types, regions (and
//! flags and advisors, which are declared where they are first written). Read off the bound tree,
//! where each name knows its namespace and whether it declares.

use super::Reference;
use crate::ludi::bind::{Node, Value};
use crate::ludi::ludi_tree;
use crate::ludi::schema::{self, Form, Namespace};
use crate::{Db, SourceFile, TextRange};

/// One written name of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NameSite {
    text: String,
    range: TextRange,
    namespace: Namespace,
    declares: bool,
}

/// Every declared or referring name of the file, in source order. `All` (every player) is no
/// name of the game and is left out.
fn name_sites(db: &dyn Db, file: SourceFile) -> Vec<NameSite> {
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
    let word = name.chars().next().is_some_and(char::is_alphabetic)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    if !word {
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
    use std::sync::Arc;

    use super::*;
    use crate::{RootDatabase, Syntax};

    fn fixture(text: &str) -> (RootDatabase, SourceFile, usize, String) {
        let offset = text.find("$0").expect("a $0 marker");
        let text = text.replace("$0", "");
        let db = RootDatabase::default();
        let file = SourceFile::new(
            &db,
            "t.ludi".into(),
            Syntax::Ludi,
            Arc::from(text.as_str()),
            None,
        );
        (db, file, offset, text)
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
        let (db, file, offset, text) = fixture(GAME);
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
        let (db, file, _, text) = fixture(GAME);
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
        let (db, file, offset, text) = fixture(GAME);
        let edits = rename(&db, file, offset, "Red").unwrap();
        assert_eq!(edits.len(), 4);
        assert!(
            texts(&text, edits.iter().map(|e| e.0))
                .iter()
                .all(|t| t == "White")
        );
        assert!(
            rename(&db, file, offset, "Black")
                .unwrap_err()
                .contains("already named")
        );
        assert!(
            rename(&db, file, offset, "B2")
                .unwrap_err()
                .contains("cell")
        );
        assert!(
            rename(&db, file, offset, "board")
                .unwrap_err()
                .contains("Ludi itself")
        );
        assert!(rename(&db, file, offset, "two words").is_err());
    }

    #[test]
    fn ludemes_and_all_are_not_renamed() {
        let (db, file, _, text) = fixture(GAME);
        assert!(prepare_rename(&db, file, text.find("tiling").unwrap()).is_err());
        let all = text.find("All").unwrap();
        assert!(prepare_rename(&db, file, all + 1).is_err());
        assert!(references(&db, file, all + 1).is_empty());
    }
}

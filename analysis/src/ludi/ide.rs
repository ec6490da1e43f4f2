//! Editor answers for Ludi, read off the schema and the bound tree: the hover of a ludeme (its
//! manual entry, and what it says here in English) and the completions at a position (the
//! ludemes and names the enclosing ludeme still takes). The language server maps these onto LSP.

use crate::ide::Hover;
use crate::ludi::bind::{Node, Value};
use crate::ludi::english::render;
use crate::ludi::manual::signature;
use crate::ludi::schema::{self, Accepts, Form, LUDEMES, Namespace};
use crate::ludi::{ludi_game, ludi_tree};
use crate::{Db, SourceFile, TextRange};

/// One completion: the text to insert and a one-line description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub detail: String,
    /// A ludeme of the schema (else a name the game declares).
    pub is_ludeme: bool,
}

/// The hover of the ludeme or name under `offset`.
pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
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
    let ludeme = node.ludeme();
    let written = match ludeme.form {
        Form::Word | Form::Either => format!("`{}`", ludeme.name),
        Form::List => format!("`({}{})`", ludeme.name, signature(ludeme)),
        Form::Record { .. } => format!("`({})`", signature(ludeme).trim_start()),
    };
    let markdown = format!(
        "**{}** ({})\n\n{}\n\n{written}\n\nHere: “{}”\n\nExample: `{}` · [manual]({})",
        ludeme.name,
        ludeme.kind.describe(),
        ludeme.meaning,
        render(node),
        ludeme.example,
        ludeme.manual_link()
    );
    Some(Hover {
        range: node.name_range,
        markdown,
    })
}

/// What may be written at `offset`: the ludemes (and declared names) the innermost enclosing
/// ludeme still takes; `game` outside any game.
pub fn completions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Completion> {
    let Some(game) = ludi_tree(db, file).game.as_ref() else {
        return vec![ludeme_completion(schema::game())];
    };
    let mut enclosing = game;
    game.walk(&mut |node| {
        let inside = node.range.start < offset && offset < node.range.end;
        if inside && node.range.len() < enclosing.range.len() && node.ludeme().form != Form::Word {
            enclosing = node;
        }
    });
    let ludeme = enclosing.ludeme();
    let mut out: Vec<Completion> = Vec::new();
    for (index, param) in ludeme.params.iter().enumerate() {
        let given = enclosing
            .args
            .iter()
            .filter(|arg| arg.param == index)
            .count();
        if given >= param.max {
            continue;
        }
        for &accepts in param.accepts {
            match accepts {
                Accepts::Part(_) | Accepts::Kind(_) | Accepts::SameKind => {
                    let same = enclosing.context;
                    out.extend(
                        LUDEMES
                            .iter()
                            .filter(|l| !l.is_record() && schema::accepts_ludeme(accepts, l, same))
                            .map(ludeme_completion),
                    );
                }
                Accepts::Refers(namespace) => out.extend(declared(db, file, namespace)),
                Accepts::PlayerType => {
                    out.extend(declared(db, file, Namespace::Player));
                    out.push(Completion {
                        label: "All".to_owned(),
                        detail: "every player".to_owned(),
                        is_ludeme: false,
                    });
                }
                _ => {}
            }
        }
    }
    out.dedup_by(|a, b| a.label == b.label && a.detail == b.detail);
    out
}

fn ludeme_completion(ludeme: &schema::Ludeme) -> Completion {
    Completion {
        label: ludeme.name.to_owned(),
        detail: format!("{}: {}", ludeme.kind.describe(), ludeme.meaning),
        is_ludeme: true,
    }
}

/// The names of `namespace` the game declares.
fn declared(db: &dyn Db, file: SourceFile, namespace: Namespace) -> Vec<Completion> {
    let Some(game) = ludi_game(db, file) else {
        return Vec::new();
    };
    let names: Vec<&str> = match namespace {
        Namespace::Player => game.players.iter().map(|p| p.name.name.as_str()).collect(),
        Namespace::Piece => game.pieces.iter().map(|p| p.name.name.as_str()).collect(),
        Namespace::Region => game
            .board
            .iter()
            .flat_map(|b| b.regions.iter().map(|r| r.name.name.as_str()))
            .collect(),
        Namespace::Game | Namespace::Flag | Namespace::Advisor => Vec::new(),
    };
    names
        .into_iter()
        .map(|name| Completion {
            label: name.to_owned(),
            detail: format!("a {} of this game", namespace.describe()),
            is_ludeme: false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{RootDatabase, Syntax};

    /// The database, the file, and the offset of `$0` (removed from the text).
    fn fixture(text: &str) -> (RootDatabase, SourceFile, usize) {
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
        (db, file, offset)
    }

    const TIC_TAC_TOE: &str = "(game T (players White Black) (board (tiling square i-nbors) (size 3 3)) (end (All win (in-a-$0row 3))))";

    #[test]
    fn hover_shows_the_manual_entry_and_the_english_here() {
        let (db, file, offset) = fixture(TIC_TAC_TOE);
        let hover = hover(&db, file, offset).expect("a hover");
        assert!(
            hover
                .markdown
                .starts_with("**in-a-row** (an end condition)"),
            "{}",
            hover.markdown
        );
        assert!(
            hover.markdown.contains("Here: “making a line of 3”"),
            "{}",
            hover.markdown
        );
        assert!(
            hover
                .markdown
                .contains("docs/ludi.md#endcondition-in-a-row")
        );
    }

    #[test]
    fn hover_on_a_player_name() {
        let (db, file, offset) = fixture(
            "(game T (players Wh$0ite Black) (board (tiling hex) (size 3)) (end (All win (in-a-row 3))))",
        );
        assert_eq!(
            hover(&db, file, offset).unwrap().markdown,
            "**`White`**: a player of this game"
        );
    }

    fn labels(text: &str) -> Vec<String> {
        let (db, file, offset) = fixture(text);
        completions(&db, file, offset)
            .into_iter()
            .map(|c| c.label)
            .collect()
    }

    #[test]
    fn completion_offers_what_the_enclosing_ludeme_still_takes() {
        // The board has its tiling and size: what is left is the phase, the shape, the regions.
        let board = labels(
            "(game T (players White Black) (board (tiling hex) $0 (size 3)) (end (All win (in-a-row 3))))",
        );
        assert_eq!(board, ["phase", "shape", "regions"]);
        // In a tiling: the tiling types (the type is given, so only the flag remains).
        let tiling = labels(
            "(game T (players White Black) (board (tiling hex $0) (size 3)) (end (All win (in-a-row 3))))",
        );
        assert_eq!(tiling, ["i-nbors"]);
    }

    #[test]
    fn completion_in_logic_offers_conditions_of_the_same_kind() {
        let inside_or = labels(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win (or (no-move) $0))))",
        );
        assert!(inside_or.contains(&"in-a-row".to_owned()), "{inside_or:?}");
        assert!(!inside_or.contains(&"empty".to_owned()), "{inside_or:?}");
        assert!(inside_or.contains(&"and".to_owned()), "{inside_or:?}");
    }

    #[test]
    fn completion_offers_declared_names() {
        let owners = labels(
            "(game T (players White Black) (board (tiling hex) (size 3)) (pieces (Stone $0 (moves (move (action (push)))))) (end (All win (in-a-row 3))))",
        );
        // The owner is missing: the players and `All`; the optional parts are still open too.
        for expected in ["White", "Black", "All", "label", "state"] {
            assert!(owners.contains(&expected.to_owned()), "{owners:?}");
        }
        assert!(!owners.contains(&"moves".to_owned()), "{owners:?}");
    }
}

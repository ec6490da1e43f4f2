//! Completion and signature help for Ludi, read off the schema and the bound tree: the ludemes
//! and names the enclosing ludeme still takes at a position, with snippets for their
//! arguments, and the signature of the ludeme whose arguments hold the cursor.

use super::{Completion, CompletionKind, SignatureHelp};
use crate::ludi::bind::{Arg, Node};
use crate::ludi::manual::signature;
use crate::ludi::schema::{self, Accepts, Form, LUDEMES, Namespace};
use crate::ludi::{ludi_game, ludi_tree};
use crate::{Db, SourceFile};

/// The innermost ludeme written as a list whose arguments hold `offset`: a cursor on a list's
/// name is writing an argument of the list around it.
fn enclosing_list(game: &Node, offset: usize) -> &Node {
    let mut enclosing = game;
    game.walk(&mut |node| {
        let on_name = node.name_range.start <= offset && offset <= node.name_range.end;
        let inside = node.range.start < offset && offset < node.range.end && !on_name;
        if inside && node.range.len() < enclosing.range.len() && node.ludeme().form != Form::Word {
            enclosing = node;
        }
    });
    enclosing
}

/// What may be written at `offset`: the ludemes (and declared names, preferred) the innermost
/// enclosing ludeme still takes; `game` outside any game. The caller filters them by what is
/// typed.
pub fn completions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Completion> {
    let after_paren = after_open_paren(file.text(db), offset);
    let Some(game) = ludi_tree(db, file).game.as_ref() else {
        return vec![ludeme_completion(schema::game(), after_paren)];
    };
    let enclosing = enclosing_list(game, offset);
    let ludeme = enclosing.ludeme();
    // A ludeme whose name is being retyped leaves its place free for another.
    let retyped = |arg: &&Arg| {
        arg.value
            .node()
            .is_some_and(|node| node.name_range.start <= offset && offset <= node.name_range.end)
    };
    let mut out: Vec<Completion> = Vec::new();
    for (index, param) in ludeme.params.iter().enumerate() {
        let given = enclosing
            .args
            .iter()
            .filter(|arg| arg.param == index && !retyped(arg))
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
                            .map(|l| ludeme_completion(l, after_paren)),
                    );
                }
                Accepts::Refers(namespace) => out.extend(declared(db, file, namespace)),
                Accepts::PlayerType => {
                    out.extend(declared(db, file, Namespace::Player));
                    out.push(Completion {
                        preferred: true,
                        ..Completion::plain("All", "every player", CompletionKind::Constant)
                    });
                }
                _ => {}
            }
        }
    }
    out.dedup_by(|a, b| a.label == b.label && a.detail == b.detail);
    out
}

/// Whether the word being typed at `offset` follows a `(` (so a list ludeme's snippet must not
/// open another).
fn after_open_paren(text: &str, offset: usize) -> bool {
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let word_start = before
        .trim_end_matches(|c: char| !c.is_whitespace() && c != '(' && c != ')')
        .len();
    before[..word_start].ends_with('(')
}

fn ludeme_completion(ludeme: &schema::Ludeme, after_paren: bool) -> Completion {
    Completion {
        label: ludeme.name.to_owned(),
        detail: format!("{}: {}", ludeme.kind.describe(), ludeme.meaning),
        kind: CompletionKind::Ludeme,
        snippet: snippet(ludeme, after_paren),
        preferred: false,
    }
}

/// The text a ludeme completes to: its name and a tab stop per required argument
/// (`in-a-row ${1:length}`), in parentheses unless the cursor already follows one. Words, and
/// lists without required arguments typed after `(`, need nothing beyond their name.
fn snippet(ludeme: &schema::Ludeme, after_paren: bool) -> Option<String> {
    if ludeme.form != Form::List {
        return None;
    }
    let mut stops = 0;
    let mut text = ludeme.name.to_owned();
    for param in ludeme.params.iter().filter(|param| param.min > 0) {
        // A parameter needing several arguments gets as many stops (`size` of a rectangle).
        for _ in 0..param.min.min(3) {
            stops += 1;
            text.push_str(&format!(" ${{{stops}:{}}}", param.name));
        }
    }
    match (after_paren, stops) {
        (true, 0) => None,
        (true, _) => Some(text),
        (false, _) => Some(format!("({text})")),
    }
}

/// The names of `namespace` the game declares.
fn declared(db: &dyn Db, file: SourceFile, namespace: Namespace) -> Vec<Completion> {
    let Some(game) = ludi_game(db, file) else {
        return Vec::new();
    };
    let names = game.declared_names(namespace);
    names
        .into_iter()
        .map(|name| Completion {
            // The game's own names are in scope: listed before the ludemes that match as well.
            preferred: true,
            ..Completion::plain(
                name,
                format!("a {} of this game", namespace.describe()),
                CompletionKind::Constant,
            )
        })
        .collect()
}

/// The signature of the innermost list ludeme around `offset`, with the parameter the cursor
/// is at: the one of the argument under the cursor, else the first that still needs an
/// argument, else the first that still takes one.
pub fn signature_help(db: &dyn Db, file: SourceFile, offset: usize) -> Option<SignatureHelp> {
    let game = ludi_tree(db, file).game.as_ref()?;
    let node = enclosing_list(game, offset);
    if !(node.range.start < offset && offset < node.range.end) {
        return None;
    }
    let ludeme = node.ludeme();
    let parameters: Vec<String> = signature(ludeme)
        .split(' ')
        .filter(|part| !part.is_empty())
        .map(str::to_owned)
        .collect();
    let head = match ludeme.form {
        Form::Record { .. } => String::new(),
        _ => format!("{} ", ludeme.name),
    };
    let label = format!("({head}{})", parameters.join(" "));
    let given = |index: usize| node.args.iter().filter(|arg| arg.param == index).count();
    let under_cursor = node
        .args
        .iter()
        .find(|arg| {
            let range = arg.value.range();
            range.start <= offset && offset <= range.end
        })
        .map(|arg| arg.param);
    let active_parameter = under_cursor
        .or_else(|| (0..ludeme.params.len()).find(|&i| given(i) < ludeme.params[i].min))
        .or_else(|| (0..ludeme.params.len()).find(|&i| given(i) < ludeme.params[i].max));
    let arguments: Vec<String> = ludeme
        .params
        .iter()
        .map(|param| {
            let accepts: Vec<String> = param.accepts.iter().map(|a| a.describe()).collect();
            format!(
                "- `{}` ({}): {}",
                param.name,
                param.count(),
                accepts.join(" or ")
            )
        })
        .collect();
    Some(SignatureHelp {
        label,
        parameters,
        active_parameter,
        documentation: format!("{}\n\n{}", ludeme.meaning, arguments.join("\n")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::fixture;
    use crate::{RootDatabase, Syntax};

    /// The database, the file, and the offset of `$0` (removed from the text).
    fn fixture(text: &str) -> (RootDatabase, SourceFile, usize) {
        let (db, file, offset, _) = fixture::fixture("t.ludi", Syntax::Ludi, text);
        (db, file, offset)
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

    #[test]
    fn typed_letters_filter_the_ludemes_and_the_games_names_come_first() {
        let typed = |text: &str| {
            let (db, file, offset) = fixture(text);
            let found = crate::ide::completions(&db, file, offset);
            assert!(!found.is_incomplete);
            found.items.into_iter().map(|c| c.label).collect::<Vec<_>>()
        };
        let everything = labels(
            "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win ($0))))",
        );
        let found = typed(
            "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-$0))))",
        );
        assert!(everything.len() > found.len(), "{everything:?}");
        assert_eq!(found[0], "in-a-row", "{found:?}");
        assert!(
            found.iter().all(|label| label.starts_with("in-")),
            "{found:?}"
        );
        // A player's name before the ludemes that start with the same letters.
        let owners = typed(
            "(game T (players White Black) (board (tiling hex) (size 3)) (pieces (Stone $0 (moves (move (action (push)))))) (end (All win (in-a-row 3))))",
        );
        assert_eq!(owners[..3], ["White", "Black", "All"], "{owners:?}");
    }

    /// The completion labelled `label` at the `$0` of `text`.
    fn completion(text: &str, label: &str) -> Completion {
        let (db, file, offset) = fixture(text);
        completions(&db, file, offset)
            .into_iter()
            .find(|c| c.label == label)
            .unwrap_or_else(|| panic!("no completion {label}"))
    }

    #[test]
    fn ludeme_snippets_have_a_stop_per_required_argument() {
        let in_a_row = completion(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win ($0))))",
            "in-a-row",
        );
        // After `(`: no second parenthesis; `length` is required, `piece` is not.
        assert_eq!(in_a_row.snippet.as_deref(), Some("in-a-row ${1:length}"));
        assert_eq!(in_a_row.kind, CompletionKind::Ludeme);
        // Retyping the name of a ludeme in place: the clause's choices still.
        let (db, file, offset) = fixture(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win (in-$0a-row 3))))",
        );
        assert!(
            completions(&db, file, offset)
                .iter()
                .any(|c| c.label == "no-move")
        );
        let in_a_row = completion(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win $0)))",
            "in-a-row",
        );
        assert_eq!(in_a_row.snippet.as_deref(), Some("(in-a-row ${1:length})"));
    }

    #[test]
    fn signature_help_marks_the_parameter_at_the_cursor() {
        let (db, file, offset) = fixture(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win (reach $0))))",
        );
        let help = signature_help(&db, file, offset).expect("inside reach");
        assert_eq!(help.label, "(reach target [count] [piece])");
        assert_eq!(help.parameters, ["target", "[count]", "[piece]"]);
        // Nothing given yet: the required target.
        assert_eq!(help.active_parameter, Some(0));
        // With the target given, the count is the first parameter still open.
        let (db, file, offset) = fixture(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win (reach A1 $0))))",
        );
        let help = signature_help(&db, file, offset).expect("inside reach");
        assert_eq!(help.active_parameter, Some(1));
    }

    #[test]
    fn signature_help_is_none_outside_every_list() {
        let (db, file, offset) = fixture(
            "(game T (players White Black) (board (tiling hex) (size 3)) (end (All win (in-a-row 3))))$0",
        );
        assert_eq!(signature_help(&db, file, offset), None);
    }
}

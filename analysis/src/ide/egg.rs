//! Editor features for EGGG: the hover of a statement (its English, the definition of the name
//! under the cursor, the classification on `game is`), completion of statement forms and defined
//! names, and navigation of defined names and pieces, across `is like` files for definitions.
//!
//! Names are compared as EGGG compares them, case and number ignored ([`words::key`]); the names
//! a game defines come from the game with its bases applied ([`egg_game`]), so a name defined in
//! a base game is found from the game that inherits it.

use std::fmt::Write;

use super::{Completion, CompletionKind, Hover, NavigationTarget, Reference, is_name_word};
use crate::egg::model::{EggGame, StatementKind};
use crate::egg::workspace::resolve_base;
use crate::egg::{
    EggExplanation, egg_classification, egg_explanation, egg_file, egg_game, forms, words,
};
use crate::{Db, SourceFile, TextRange, parse};

/// The `word` node at `offset` (or ending right at it), as its range and text.
fn word_at(db: &dyn Db, file: SourceFile, offset: usize) -> Option<(TextRange, String)> {
    let parse = parse(db, file);
    let text = file.text(db);
    let candidates = [Some(offset), offset.checked_sub(1)];
    candidates.into_iter().flatten().find_map(|at| {
        let node = parse.root().descendant_for_byte_range(at, at)?;
        (node.kind() == "word").then(|| {
            let range = TextRange::new(node.start_byte(), node.end_byte());
            (range, text[range.start..range.end].to_owned())
        })
    })
}

/// Every `word` node of the file whose key is `key`, in source order.
fn words_keyed(db: &dyn Db, file: SourceFile, key: &str) -> Vec<TextRange> {
    let parse = parse(db, file);
    let text = file.text(db);
    let mut found = Vec::new();
    let mut cursor = parse.root().walk();
    let mut stack = vec![parse.root()];
    while let Some(node) = stack.pop() {
        if node.kind() == "word" {
            if words::key(&text[node.start_byte()..node.end_byte()]) == key {
                found.push(TextRange::new(node.start_byte(), node.end_byte()));
            }
            continue;
        }
        stack.extend(node.children(&mut cursor));
    }
    found.sort_by_key(|range| range.start);
    found
}

/// Where the game (its bases included) defines the name `key`: the name of its definitions, and
/// the piece of that name in `pieces are ...`.
fn definition_sites(game: &EggGame, key: &str) -> Vec<NavigationTarget> {
    let mut sites: Vec<NavigationTarget> = game
        .definitions
        .iter()
        .filter(|definition| definition.value.name.key() == key)
        .map(|definition| NavigationTarget {
            file: definition.origin.file,
            range: definition.value.name.range,
        })
        .collect();
    if let Some(pieces) = &game.pieces {
        sites.extend(
            pieces
                .value
                .iter()
                .filter(|piece| piece.key() == key)
                .map(|piece| NavigationTarget {
                    file: pieces.origin.file,
                    range: piece.range,
                }),
        );
    }
    sites
}

/// Where the name under the cursor is defined; on the base of `X is like Y`, the base file's
/// game name (or its start, when it declares none).
pub fn definitions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<NavigationTarget> {
    let Some((range, text)) = word_at(db, file, offset) else {
        return Vec::new();
    };
    for (_, base, _) in egg_file(db, file).likes() {
        if base.range == range {
            return resolve_base(db, file, &base.text)
                .map(|base_file| NavigationTarget {
                    file: base_file,
                    range: egg_file(db, base_file)
                        .declared_name()
                        .map_or(TextRange::empty(0), |name| name.range),
                })
                .into_iter()
                .collect();
        }
    }
    definition_sites(egg_game(db, file), &words::key(&text))
}

/// Every place in this file the defined name under the cursor is written.
pub fn references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Reference> {
    let Some((_, text)) = word_at(db, file, offset) else {
        return Vec::new();
    };
    let key = words::key(&text);
    let sites = definition_sites(egg_game(db, file), &key);
    if sites.is_empty() {
        return Vec::new();
    }
    words_keyed(db, file, &key)
        .into_iter()
        .map(|range| Reference {
            range,
            is_definition: sites
                .iter()
                .any(|site| site.file == file && site.range == range),
        })
        .collect()
}

pub fn prepare_rename(db: &dyn Db, file: SourceFile, offset: usize) -> Result<TextRange, String> {
    let (range, text) = word_at(db, file, offset).ok_or("there is no name to rename here")?;
    let sites = definition_sites(egg_game(db, file), &words::key(&text));
    if sites.is_empty() {
        return Err(format!(
            "`{text}` is not a name this game defines; only defined names and pieces can be renamed"
        ));
    }
    if let Some(elsewhere) = sites.iter().find(|site| site.file != file) {
        return Err(format!(
            "`{text}` is defined in {}: rename it there",
            elsewhere.file.path(db).display()
        ));
    }
    Ok(range)
}

pub fn rename(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(TextRange, String)>, String> {
    prepare_rename(db, file, offset)?;
    if !is_name_word(new_name) {
        return Err(format!(
            "`{new_name}` is not one EGGG word: use letters, digits, `-` and `_`, starting with a letter"
        ));
    }
    let new_key = words::key(new_name);
    if KEYWORDS.contains(&new_key.as_str()) {
        return Err(format!(
            "`{new_name}` is an EGGG keyword; choose another name"
        ));
    }
    if !definition_sites(egg_game(db, file), &new_key).is_empty() {
        return Err(format!(
            "`{new_name}` is already defined (case and number are ignored): renaming would merge them"
        ));
    }
    Ok(references(db, file, offset)
        .into_iter()
        .map(|reference| (reference.range, new_name.to_owned()))
        .collect())
}

/// The words the grammar reads as keywords where they fit (`is`, `means`, `and`, ...).
const KEYWORDS: &[&str] = &[
    "is", "are", "mean", "like", "assert", "and", "or", "if", "not", "x",
];

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(0, |before| before.matches('\n').count())
        + 1
}

/// The sentences of the game's English that render the statement at `range` of `file`, in
/// reading order; `None` when no sentence does.
pub(super) fn statement_english(
    explanation: &EggExplanation,
    file: SourceFile,
    range: TextRange,
) -> Option<String> {
    let sentences: Vec<&str> = explanation
        .sections
        .iter()
        .flat_map(|section| &section.sentences)
        .filter(|sentence| {
            sentence
                .origins
                .iter()
                .any(|origin| origin.file == file && origin.range == range)
        })
        .map(|sentence| sentence.text.as_str())
        .collect();
    (!sentences.is_empty()).then(|| sentences.join(" "))
}

/// The statement's English, the definition of the name under the cursor when it is defined
/// elsewhere, and on `game is` (or `X is like Y`) the game's classification.
pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    let own = egg_file(db, file);
    let statement = own
        .statements
        .iter()
        .find(|statement| statement.range.start <= offset && offset <= statement.range.end);
    let word = word_at(db, file, offset);
    let mut markdown = String::new();
    if let Some((range, text)) = &word {
        for site in definition_sites(egg_game(db, file), &words::key(text)) {
            if site.file == file && site.range == *range {
                continue;
            }
            let site_text = site.file.text(db);
            let where_ = if site.file == file {
                format!("line {}", line_of(site_text, site.range.start))
            } else {
                format!(
                    "{}, line {}",
                    site.file.path(db).display(),
                    line_of(site_text, site.range.start)
                )
            };
            let definition = defining_statement(db, site)
                .map_or_else(String::new, |text| format!("\n\n```egg\n{text}\n```"));
            let _ = write!(markdown, "**{text}** — defined at {where_}{definition}\n\n");
        }
    }
    if let Some(statement) = statement {
        if let Some(english) = statement_english(egg_explanation(db, file), file, statement.range) {
            let _ = write!(markdown, "*In English:* {english}\n\n");
        }
        if matches!(
            statement.kind,
            StatementKind::GameName(_) | StatementKind::Like { .. }
        ) {
            markdown.push_str("**Classification** (Orwant's twelve attributes)\n\n");
            for line in egg_classification(db, file).lines() {
                let _ = writeln!(markdown, "- {line}");
            }
        }
    }
    let markdown = markdown.trim_end().to_owned();
    if markdown.is_empty() {
        return None;
    }
    let range = word
        .map(|(range, _)| range)
        .or(statement.map(|statement| statement.range))?;
    Some(Hover { range, markdown })
}

/// The text of the statement holding a definition site, as written.
fn defining_statement(db: &dyn Db, site: NavigationTarget) -> Option<String> {
    let statement = egg_file(db, site.file)
        .statements
        .iter()
        .find(|statement| {
            statement.range.start <= site.range.start && site.range.end <= statement.range.end
        })?;
    site.file
        .text(db)
        .get(statement.range.start..statement.range.end)
        .map(str::to_owned)
}

/// Statement forms at the start of a statement, and the names the game defines (its pieces and
/// players included) everywhere.
pub fn completions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Completion> {
    let text = file.text(db);
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let line = &before[before.rfind('\n').map_or(0, |newline| newline + 1)..];
    // At the start of a statement: a line not indented (an indented one continues the last
    // statement) holding at most the word being typed.
    let at_statement_start = !line.starts_with([' ', '\t']) && !line.contains(char::is_whitespace);
    let mut out = Vec::new();
    if at_statement_start {
        out.extend(forms::FORMS.iter().map(|form| Completion {
            label: (*form).to_owned(),
            detail: "EGGG statement".to_owned(),
            kind: CompletionKind::Statement,
            snippet: Some(form_snippet(form)),
        }));
    }
    let game = egg_game(db, file);
    let mut names: Vec<(String, &str, CompletionKind)> = game
        .definitions
        .iter()
        .map(|definition| {
            (
                definition.value.name.text.clone(),
                "defined name",
                CompletionKind::Relation,
            )
        })
        .collect();
    if let Some(pieces) = &game.pieces {
        names.extend(
            pieces
                .value
                .iter()
                .map(|piece| (piece.text.clone(), "piece", CompletionKind::Constant)),
        );
    }
    if let Some(players) = &game.players
        && let crate::egg::model::Players::Named(named) = &players.value
    {
        names.extend(
            named
                .iter()
                .map(|player| (player.text.clone(), "player", CompletionKind::Constant)),
        );
    }
    let mut seen = std::collections::HashSet::new();
    for (name, detail, kind) in names {
        if seen.insert(words::key(&name)) {
            out.push(Completion::plain(name, detail, kind));
        }
    }
    out
}

/// A form as a snippet: each placeholder (`NAME`, `PHRASE`) and each example number is a tab
/// stop holding the example (`${1:2}..${2:6} players`).
fn form_snippet(form: &str) -> String {
    let mut out = String::new();
    let mut stops = 0;
    let mut rest = form;
    while !rest.is_empty() {
        let token_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if token_end == 0 {
            let c = rest.chars().next().expect("rest is not empty");
            // `$`, `}` and `\` are special in snippets.
            if matches!(c, '$' | '}' | '\\') {
                out.push('\\');
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let token = &rest[..token_end];
        let placeholder = token.chars().all(|c| c.is_ascii_uppercase()) && token.len() > 1;
        if placeholder || token.chars().all(|c| c.is_ascii_digit()) {
            stops += 1;
            let _ = write!(out, "${{{stops}:{token}}}");
        } else {
            out.push_str(token);
        }
        rest = &rest[token_end..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egg::set_egg_workspace;
    use crate::ide::fixture::{assert_mentions, assert_refused, marked, source};
    use crate::{RootDatabase, Syntax};

    fn file(db: &RootDatabase, path: &str, text: &str) -> SourceFile {
        source(db, path, Syntax::Egg, text)
    }

    const RPS: &str = "game is rock-paper-scissors\nplayers are white and black\nmove is choose\npieces are Rock and Paper and Scissors\nBeat means player(Paper) and opponent(Rock)\ngoal is Be$0at\n";

    #[test]
    fn hover_gives_the_definition_and_the_english() {
        let (text, offset) = marked(RPS);
        let db = RootDatabase::default();
        let game = file(&db, "w/rps.egg", &text);
        let hover = hover(&db, game, offset).expect("a hover");
        assert_eq!(&text[hover.range.start..hover.range.end], "Beat");
        assert!(
            hover.markdown.starts_with("**Beat** — defined at line 5"),
            "{}",
            hover.markdown
        );
        assert_mentions(
            &hover.markdown,
            "Beat means player(Paper) and opponent(Rock)",
        );
        assert_mentions(&hover.markdown, "*In English:*");
    }

    #[test]
    fn hover_on_game_is_shows_the_twelve_attributes() {
        let db = RootDatabase::default();
        let game = file(&db, "w/rps.egg", &RPS.replace("$0", ""));
        let hover = hover(&db, game, 2).expect("a hover on `game is`");
        assert_mentions(&hover.markdown, "**Classification**");
        for attribute in crate::egg::classify::ATTRIBUTES {
            assert!(
                hover.markdown.contains(&format!("- {attribute}: ")),
                "{attribute} in {}",
                hover.markdown
            );
        }
    }

    #[test]
    fn references_ignore_case_and_number_and_mark_the_definition() {
        let (text, _) = marked(RPS);
        let db = RootDatabase::default();
        let game = file(&db, "w/rps.egg", &text);
        let beat = references(&db, game, text.rfind("Beat").unwrap());
        let starts: Vec<(usize, bool)> = beat
            .iter()
            .map(|r| (r.range.start, r.is_definition))
            .collect();
        assert_eq!(
            starts,
            [
                (text.find("Beat").unwrap(), true),
                (text.rfind("Beat").unwrap(), false)
            ]
        );
        // A piece: declared in `pieces are`, shown in `player(Paper)`.
        let paper = references(&db, game, text.rfind("Paper").unwrap());
        assert_eq!(paper.len(), 2);
        assert!(paper[0].is_definition);
        // A word the game does not define has no references.
        assert!(references(&db, game, text.find("choose").unwrap()).is_empty());
    }

    #[test]
    fn definition_goes_across_is_like_files() {
        let db = RootDatabase::default();
        let base = file(
            &db,
            "w/tetris.egg",
            "game is Tetris\nLine means row is full\npieces are [I, O, T]\n",
        );
        let (text, offset) = marked("SideTetris is like Tetris\nLine$0 removes row\n");
        let mut db = db;
        let side = file(&db, "w/side.egg", &text);
        set_egg_workspace(&mut db, vec![base, side]);
        let targets = definitions(&db, side, offset);
        assert_eq!(targets.len(), 1, "{targets:?}");
        assert_eq!(targets[0].file, base);
        assert_eq!(targets[0].range, TextRange::new(15, 19));
        // On the base name: the base file's `game is` name.
        let on_base = definitions(&db, side, text.find("Tetris\n").unwrap() + 2);
        assert_eq!(
            on_base,
            [NavigationTarget {
                file: base,
                range: TextRange::new(8, 14)
            }]
        );
        // Renaming an inherited name is refused here.
        assert_refused(prepare_rename(&db, side, offset), "tetris.egg");
    }

    #[test]
    fn rename_edits_every_spelling_and_refuses_clashes() {
        let (text, offset) = marked(RPS);
        let db = RootDatabase::default();
        let game = file(&db, "w/rps.egg", &text);
        let edits = rename(&db, game, offset, "Wins").unwrap();
        assert_eq!(edits.len(), 2);
        assert_refused(rename(&db, game, offset, "rocks"), "already defined");
        assert_refused(rename(&db, game, offset, "means"), "EGGG keyword");
    }

    #[test]
    fn completion_offers_forms_at_a_statement_start_and_names_everywhere() {
        let db = RootDatabase::default();
        let text = RPS.replace("$0", "");
        let game = file(&db, "w/rps.egg", &format!("{text}tur"));
        let at_start = completions(&db, game, text.len() + 3);
        let turns = at_start
            .iter()
            .find(|c| c.label == "turns alternate")
            .expect("the form");
        assert_eq!(turns.kind, CompletionKind::Statement);
        let range = at_start.iter().find(|c| c.label == "2..6 players").unwrap();
        assert_eq!(range.snippet.as_deref(), Some("${1:2}..${2:6} players"));
        let names: Vec<&str> = at_start.iter().map(|c| c.label.as_str()).collect();
        for name in ["Beat", "Rock", "Paper", "Scissors", "white", "black"] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        // Inside a statement: names only.
        let game = file(&db, "w/rps2.egg", &format!("{text}goal is B"));
        let inside = completions(&db, game, text.len() + 9);
        assert!(inside.iter().all(|c| c.kind != CompletionKind::Statement));
        assert!(inside.iter().any(|c| c.label == "Beat"));
    }

    #[test]
    fn snippets_escape_and_number_their_stops() {
        assert_eq!(
            form_snippet("NAME means PHRASE"),
            "${1:NAME} means ${2:PHRASE}"
        );
        assert_eq!(form_snippet("3 × 3 grid"), "${1:3} × ${2:3} grid");
        assert_eq!(form_snippet("turns alternate"), "turns alternate");
    }
}

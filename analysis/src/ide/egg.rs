//! Editor features for EGGG: the hover of a statement (its English, the definition of the name
//! under the cursor, the classification on `game is`), completion of statement forms and defined
//! names, navigation and rename of defined names, pieces and game names across the files `is
//! like` joins, and semantic tokens for the names.
//!
//! Names are compared as EGGG compares them, case and number ignored ([`words::key`]); the names
//! a game defines come from the game with its bases applied ([`egg_game`]), so a name defined in
//! a base game is found from the game that inherits it.

use std::fmt::Write;

use std::collections::{HashMap, HashSet};

use super::{
    Completion, CompletionKind, FileEdit, FileReference, Hover, NavigationTarget, Reference,
    SemanticToken, TokenKind, is_name_word,
};
use crate::egg::model::{EggGame, Origin, Players, StatementKind, Word};
use crate::egg::workspace::{egg_workspace, game_index, resolve_base};
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

/// Every `word` node of the file, as its range and text, in source order.
fn words(db: &dyn Db, file: SourceFile) -> Vec<(TextRange, &str)> {
    let parse = parse(db, file);
    let text = file.text(db);
    let mut found = Vec::new();
    let mut cursor = parse.root().walk();
    let mut stack = vec![parse.root()];
    while let Some(node) = stack.pop() {
        if node.kind() == "word" {
            let range = TextRange::new(node.start_byte(), node.end_byte());
            found.push((range, &text[range.start..range.end]));
            continue;
        }
        stack.extend(node.children(&mut cursor));
    }
    found.sort_by_key(|(range, _)| range.start);
    found
}

/// Every `word` node of the file whose key is `key`, in source order.
fn words_keyed(db: &dyn Db, file: SourceFile, key: &str) -> Vec<TextRange> {
    words(db, file)
        .into_iter()
        .filter(|(_, word)| words::key(word) == key)
        .map(|(range, _)| range)
        .collect()
}

/// The names of the file coloured by what they name in the game, its bases included: defined
/// names as functions, pieces and game names as types, named players as constants; marked as
/// definitions where this file defines them. Other words are the grammar's to colour.
pub fn semantic_tokens(db: &dyn Db, file: SourceFile) -> Vec<SemanticToken> {
    let game = egg_game(db, file);
    let mut kinds: HashMap<String, TokenKind> = HashMap::new();
    // Where this file defines what it names (a definition's name, a piece, a player, its game).
    let mut defined_here: HashSet<TextRange> = HashSet::new();
    let mut name = |word: &Word, kind: TokenKind, origin: &Origin| {
        kinds.insert(word.key(), kind);
        if origin.file == file {
            defined_here.insert(word.range);
        }
    };
    for definition in &game.definitions {
        name(
            &definition.value.name,
            TokenKind::Function,
            &definition.origin,
        );
    }
    if let Some(pieces) = &game.pieces {
        for piece in &pieces.value {
            name(piece, TokenKind::Type, &pieces.origin);
        }
    }
    if let Some(players) = &game.players
        && let Players::Named(named) = &players.value
    {
        for player in named {
            name(player, TokenKind::Constant, &players.origin);
        }
    }
    // This file's game names, and the bases of `is like` that name a known game.
    let declared_games = game_name_sites(db, file);
    let games: HashSet<TextRange> = declared_games
        .iter()
        .copied()
        .chain(
            egg_file(db, file)
                .likes()
                .filter(|(_, base, _)| resolve_base(db, file, &base.text).is_some())
                .map(|(_, base, _)| base.range),
        )
        .collect();
    words(db, file)
        .into_iter()
        .filter_map(|(range, word)| {
            let kind = if games.contains(&range) {
                TokenKind::Type
            } else {
                *kinds.get(&words::key(word))?
            };
            Some(SemanticToken {
                range,
                kind,
                definition: defined_here.contains(&range) || declared_games.contains(&range),
            })
        })
        .collect()
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
    match symbol_at(db, file, offset) {
        Some((_, _, Symbol::Defined { sites, .. })) => sites,
        Some((_, _, Symbol::Game(game))) => vec![NavigationTarget {
            file: game,
            range: egg_file(db, game)
                .declared_name()
                .map_or(TextRange::empty(0), |name| name.range),
        }],
        None => Vec::new(),
    }
}

/// What the word under the cursor names, for navigation and rename.
enum Symbol {
    /// A name the game defines (a definition or a piece): its key and where the game, its bases
    /// included, defines it.
    Defined {
        key: String,
        sites: Vec<NavigationTarget>,
    },
    /// The game of a file: its `game is NAME` or `NAME is like ...`, or the base of an `is like`
    /// that resolves to it.
    Game(SourceFile),
}

/// The word under the cursor (its range and text) and what it names, when it names something.
fn symbol_at(db: &dyn Db, file: SourceFile, offset: usize) -> Option<(TextRange, String, Symbol)> {
    let (range, text) = word_at(db, file, offset)?;
    if let Some((_, base, _)) = egg_file(db, file)
        .likes()
        .find(|(_, base, _)| base.range == range)
    {
        let base_file = resolve_base(db, file, &base.text)?;
        return Some((range, text, Symbol::Game(base_file)));
    }
    if game_name_sites(db, file).contains(&range) {
        return Some((range, text, Symbol::Game(file)));
    }
    let key = words::key(&text);
    let sites = definition_sites(egg_game(db, file), &key);
    (!sites.is_empty()).then_some((range, text, Symbol::Defined { key, sites }))
}

/// Where `file` names its game: the names of its `game is NAME` and `NAME is like ...`.
fn game_name_sites(db: &dyn Db, file: SourceFile) -> Vec<TextRange> {
    egg_file(db, file)
        .statements
        .iter()
        .filter_map(|statement| match &statement.kind {
            StatementKind::GameName(name) | StatementKind::Like { name, .. } => Some(name.range),
            _ => None,
        })
        .collect()
}

/// The EGGG files `is like` looks among, and `file` itself when it is not one of them.
fn workspace_files(db: &dyn Db, file: SourceFile) -> Vec<SourceFile> {
    let mut files = egg_workspace(db).unwrap_or_default();
    if !files.contains(&file) {
        files.push(file);
    }
    files
}

/// The files whose games define `key` at one of `sites`: the file that defines it and every
/// file that inherits the definition through `is like`, directly or through other files.
fn inheriting_files(
    db: &dyn Db,
    file: SourceFile,
    key: &str,
    sites: &[NavigationTarget],
) -> Vec<SourceFile> {
    workspace_files(db, file)
        .into_iter()
        .filter(|&candidate| {
            definition_sites(egg_game(db, candidate), key)
                .iter()
                .any(|site| sites.contains(site))
        })
        .collect()
}

/// Every place in the workspace the name under the cursor is written: a defined name in every
/// file that inherits it, a game's name where it is declared and in every `is like` naming it.
pub fn workspace_references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<FileReference> {
    let Some((_, _, symbol)) = symbol_at(db, file, offset) else {
        return Vec::new();
    };
    let mut found = match symbol {
        Symbol::Defined { key, sites } => inheriting_files(db, file, &key, &sites)
            .into_iter()
            .flat_map(|holder| {
                let own = definition_sites(egg_game(db, holder), &key);
                words_keyed(db, holder, &key)
                    .into_iter()
                    .map(move |range| FileReference {
                        file: holder,
                        range,
                        is_definition: own.contains(&NavigationTarget {
                            file: holder,
                            range,
                        }),
                    })
            })
            .collect(),
        Symbol::Game(game) => game_references(db, file, game),
    };
    found.sort_by(|a, b| (a.file.path(db), a.range.start).cmp(&(b.file.path(db), b.range.start)));
    found
}

/// Where the game of `game` is named: its declarations, and the bases of `is like` statements
/// (in any workspace file) that resolve to it.
fn game_references(db: &dyn Db, file: SourceFile, game: SourceFile) -> Vec<FileReference> {
    let mut found: Vec<FileReference> = game_name_sites(db, game)
        .into_iter()
        .map(|range| FileReference {
            file: game,
            range,
            is_definition: true,
        })
        .collect();
    for holder in workspace_files(db, file) {
        for (_, base, _) in egg_file(db, holder).likes() {
            if resolve_base(db, holder, &base.text) == Some(game) {
                found.push(FileReference {
                    file: holder,
                    range: base.range,
                    is_definition: false,
                });
            }
        }
    }
    found
}

/// Every place in this file the name under the cursor is written.
pub fn references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Reference> {
    workspace_references(db, file, offset)
        .into_iter()
        .filter(|reference| reference.file == file)
        .map(|reference| Reference {
            range: reference.range,
            is_definition: reference.is_definition,
        })
        .collect()
}

/// The word a rename at `offset` changes and what it names, or why it cannot be renamed.
fn rename_target(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
) -> Result<(TextRange, Symbol), String> {
    let Some((range, text, symbol)) = symbol_at(db, file, offset) else {
        return Err(match word_at(db, file, offset) {
            Some((_, text)) => format!(
                "`{text}` is not a name this game defines; only defined names, pieces and game names can be renamed"
            ),
            None => "there is no name to rename here".to_owned(),
        });
    };
    if let Symbol::Game(game) = symbol
        && game_name_sites(db, game).is_empty()
    {
        return Err(format!(
            "`{text}` is found by the file name of {}, which declares no game name: rename the file",
            game.path(db).display()
        ));
    }
    Ok((range, symbol))
}

pub fn prepare_rename(db: &dyn Db, file: SourceFile, offset: usize) -> Result<TextRange, String> {
    rename_target(db, file, offset).map(|(range, _)| range)
}

/// The edits renaming the name under the cursor in every file that writes it (see
/// [`workspace_references`]).
pub fn rename(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
    new_name: &str,
) -> Result<Vec<FileEdit>, String> {
    let (_, symbol) = rename_target(db, file, offset)?;
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
    match &symbol {
        // Changing only the case or number of a name keeps its key: nothing can clash.
        Symbol::Defined { key, sites } if *key != new_key => {
            for holder in inheriting_files(db, file, key, sites) {
                if !definition_sites(egg_game(db, holder), &new_key).is_empty() {
                    return Err(format!(
                        "`{new_name}` is already defined for the game of {} (case and number are ignored): renaming would merge them",
                        holder.path(db).display()
                    ));
                }
            }
        }
        Symbol::Defined { .. } => {}
        Symbol::Game(game) => {
            if let Some(other) = game_index(db)
                .files_named(new_name)
                .find(|other| other != game)
            {
                return Err(format!(
                    "{} already names a game `{new_name}` (case and punctuation are ignored): `is like {new_name}` could not tell them apart",
                    other.path(db).display()
                ));
            }
        }
    }
    Ok(workspace_references(db, file, offset)
        .into_iter()
        .map(|reference| FileEdit {
            file: reference.file,
            range: reference.range,
            new_text: new_name.to_owned(),
        })
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
    if let Some((_, text)) = &word {
        markdown.push_str(&piece_power_hover(db, file, text));
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

/// On a piece of a game the engine plays, the piece's power and its factors as the static
/// evaluator of the computer opponents weighs them; empty otherwise.
fn piece_power_hover(db: &dyn Db, file: SourceFile, word: &str) -> String {
    let Ok(engine) = crate::egg::engine::egg_engine_for(db, file) else {
        return String::new();
    };
    let key = words::key(word);
    let Some(piece) = engine
        .description()
        .pieces
        .iter()
        .position(|name| words::key(name) == key)
    else {
        return String::new();
    };
    let powers = ludeme_engine::egg::heuristics::piece_powers(&engine);
    let Some(power) = powers.get(piece) else {
        return String::new();
    };
    format!(
        "**Power** {:.3} = motility {:.3} × rank {:.3} × rarity {:.3} (the weight the computer \
         opponent's static evaluator gives this piece)\n\n",
        power.power, power.motility, power.rank, power.rarity
    )
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
/// players included) everywhere; the caller filters them by what is typed.
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
            preferred: false,
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
        && let Players::Named(named) = &players.value
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
    fn hover_on_a_piece_shows_its_power() {
        // Rock, paper and scissors beat one another in a cycle (rank 1 each); each stands once
        // on the board the choice is laid out on, a bag of three (rarity 3); one rule moves
        // them all (motility 1 after normalising): power 3.
        let text = "game is rps\nplayers are white and black\nturns synchronize\nmove is choose\n\
            pieces are Rock and Paper and Scissors\nscore increments\ngoal is Beat\n\
            Beat means player(Rock) and opponent(Scissors) or player(Scissors) and \
            opponent(Paper) or player(Paper) and opponent(Rock)\n";
        let db = RootDatabase::default();
        let game = file(&db, "w/rps.egg", text);
        let offset = text.find("Paper and").expect("the piece");
        let hover = hover(&db, game, offset).expect("a hover");
        assert_mentions(
            &hover.markdown,
            "**Power** 3.000 = motility 1.000 × rank 1.000 × rarity 3.000",
        );
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
    }

    /// Tetris defines `Line`; SideTetris is like Tetris and TwoTetris like SideTetris, so both
    /// inherit it; Other defines a `Line` of its own.
    fn family() -> (RootDatabase, [SourceFile; 4]) {
        let mut db = RootDatabase::default();
        let tetris = file(
            &db,
            "w/tetris.egg",
            "game is Tetris\nLine means row is full\npieces are [I, O, T]\n",
        );
        let side = file(
            &db,
            "w/side.egg",
            "SideTetris is like Tetris\nLine removes row\n",
        );
        let two = file(
            &db,
            "w/two.egg",
            "TwoTetris is like SideTetris\nplayers are A and B\nlines score\n",
        );
        let other = file(
            &db,
            "w/other.egg",
            "game is Other\nLine means column is full\nLine wins\n",
        );
        set_egg_workspace(&mut db, vec![other, side, tetris, two]);
        (db, [tetris, side, two, other])
    }

    fn spelled(db: &RootDatabase, found: &[FileReference]) -> Vec<(String, String, bool)> {
        found
            .iter()
            .map(|reference| {
                let path = reference.file.path(db).display().to_string();
                let text = &reference.file.text(db)[reference.range.start..reference.range.end];
                (path, text.to_owned(), reference.is_definition)
            })
            .collect()
    }

    fn owned(path: &str, text: &str, definition: bool) -> (String, String, bool) {
        (path.to_owned(), text.to_owned(), definition)
    }

    #[test]
    fn references_of_an_inherited_name_reach_every_file_that_inherits_it() {
        let (db, [_, side, _, _]) = family();
        let text = side.text(&db);
        let found = workspace_references(&db, side, text.find("Line").unwrap());
        assert_eq!(
            spelled(&db, &found),
            [
                owned("w/side.egg", "Line", false),
                owned("w/tetris.egg", "Line", true),
                owned("w/two.egg", "lines", false),
            ],
            "Other's own `Line` is another name"
        );
        // In this file only: the one use.
        assert_eq!(references(&db, side, text.find("Line").unwrap()).len(), 1);
    }

    #[test]
    fn rename_of_an_inherited_name_edits_every_file_and_refuses_clashes() {
        let (db, [tetris, side, two, other]) = family();
        let offset = side.text(&db).find("Line").unwrap();
        assert!(prepare_rename(&db, side, offset).is_ok());
        let edits = rename(&db, side, offset, "Row").unwrap();
        let files: Vec<SourceFile> = edits.iter().map(|edit| edit.file).collect();
        assert_eq!(files, [side, tetris, two]);
        assert!(!files.contains(&other));
        assert!(edits.iter().all(|edit| edit.new_text == "Row"));
        // `T` is a piece of Tetris, which every one of these games has.
        assert_refused(rename(&db, side, offset, "T"), "already defined");
        // Only the case changes: the same name, no clash with itself.
        assert_eq!(rename(&db, side, offset, "LINE").unwrap().len(), 3);
    }

    #[test]
    fn a_game_name_is_referred_to_by_every_is_like_that_finds_it() {
        let (db, [tetris, side, two, _]) = family();
        let on_base = side.text(&db).find("Tetris\n").unwrap();
        let found = workspace_references(&db, side, on_base);
        assert_eq!(
            spelled(&db, &found),
            [
                owned("w/side.egg", "Tetris", false),
                owned("w/tetris.egg", "Tetris", true),
            ]
        );
        // From the declaration, the same; and `SideTetris` is named by TwoTetris.
        let declared = workspace_references(&db, tetris, 9);
        assert_eq!(declared, found);
        let side_name = workspace_references(&db, two, "TwoTetris is like ".len());
        assert_eq!(
            spelled(&db, &side_name),
            [
                owned("w/side.egg", "SideTetris", true),
                owned("w/two.egg", "SideTetris", false),
            ]
        );
        let edits = rename(&db, side, on_base, "Blocks").unwrap();
        assert_eq!(edits.len(), 2);
        assert_refused(rename(&db, side, on_base, "other"), "already names a game");
    }

    #[test]
    fn a_game_found_by_its_file_name_only_is_not_renamed() {
        let mut db = RootDatabase::default();
        let plain = file(&db, "w/plain.egg", "players are one\n");
        let child = file(&db, "w/child.egg", "Child is like Plain\n");
        set_egg_workspace(&mut db, vec![child, plain]);
        let on_base = "Child is like P".len();
        assert_eq!(workspace_references(&db, child, on_base).len(), 1);
        assert_refused(prepare_rename(&db, child, on_base), "rename the file");
    }

    #[test]
    fn semantic_tokens_colour_names_by_what_the_game_makes_them() {
        let (db, [tetris, side, _, _]) = family();
        let text = side.text(&db);
        let tokens: Vec<(&str, TokenKind, bool)> =
            crate::ide::fixture::spelled_tokens(&db, side, text);
        // `Line` is inherited (defined elsewhere); `removes` and `row` are not names.
        assert_eq!(
            tokens,
            [
                ("SideTetris", TokenKind::Type, true),
                ("Tetris", TokenKind::Type, false),
                ("Line", TokenKind::Function, false),
            ]
        );
        let text = tetris.text(&db);
        let defined: Vec<&str> = semantic_tokens(&db, tetris)
            .iter()
            .filter(|token| token.definition)
            .map(|token| &text[token.range.start..token.range.end])
            .collect();
        assert_eq!(defined, ["Tetris", "Line", "I", "O", "T"]);
    }

    #[test]
    fn rename_refuses_words_that_are_not_names() {
        let (text, offset) = marked(RPS);
        let db = RootDatabase::default();
        let game = file(&db, "w/rps.egg", &text);
        for bad in ["", "two words", "9lives", "a.b"] {
            assert_refused(rename(&db, game, offset, bad), "not one EGGG word");
        }
        assert_refused(
            prepare_rename(&db, game, text.find("choose").unwrap()),
            "not a name this game defines",
        );
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
    fn typed_letters_filter_the_forms_and_names() {
        let db = RootDatabase::default();
        let text = RPS.replace("$0", "");
        let game = file(&db, "w/rps.egg", &format!("{text}tu"));
        let found = super::super::completions(&db, game, text.len() + 2);
        let labels: Vec<&str> = found.items.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "turns alternate",
                "turns synchronize",
                "turns alternate clockwise",
                "turns alternate counterclockwise"
            ]
        );
        // Inside a statement, a name whatever its case.
        let game = file(&db, "w/rps2.egg", &format!("{text}goal is sc"));
        let found = super::super::completions(&db, game, text.len() + 10);
        let labels: Vec<&str> = found.items.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["Scissors"]);
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

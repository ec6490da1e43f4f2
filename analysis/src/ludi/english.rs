//! Ludi games in English: a short rules sheet, one sentence per rule, rendered from the
//! schema's templates (see [`crate::ludi::schema::Ludeme::english`]).
//!
//! The sheet reads: who plays on what board; how turns go (the default placement rule, or one
//! sentence per piece type and per move); the start; play constraints; one sentence per end
//! clause (never merged, so that each rule can be found in the source); the tie rule when
//! written; the support items. Every sentence carries the range of the ludeme it renders.
//!
//! Templates: `{param}` is the rendering of the arguments bound to that parameter, joined by
//! the parameter's joiner ("A, B and C"; "A plus B"). A parameter with no argument shows its
//! default; inside `[...]` it drops the whole bracket instead. A few placeholders are not
//! parameters but context the sheet supplies: `{piece}` in a move, `{size}`, `{width}`,
//! `{height}` in a board shape, `{shape}`, `{tiling}`, `{adjacency}`, `{phase}` in a board.

use serde::Serialize;

use crate::ludi::bind::{Node, Value};
use crate::ludi::lower::ludi_tree;
use crate::ludi::model::{Board, Shape};
use crate::ludi::schema::{self, Kind, Ludeme};
use crate::ludi::{ludi_game, model};
use crate::{Db, SourceFile, TextRange};

/// A game in English.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct LudiExplanation {
    /// The game's name.
    pub title: String,
    pub sentences: Vec<Sentence>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Sentence {
    pub text: String,
    /// The ludemes it renders.
    pub ranges: Vec<TextRange>,
}

/// The placeholders that are context rather than parameters (see the module's documentation).
pub const CONTEXT_PLACEHOLDERS: &[&str] = &[
    "piece",
    "size",
    "width",
    "height",
    "shape",
    "tiling",
    "adjacency",
    "phase",
];

/// The English rules sheet of a Ludi file (empty when it has no game).
#[salsa::tracked(returns(ref))]
pub fn ludi_explanation(db: &dyn Db, file: SourceFile) -> LudiExplanation {
    match (&ludi_tree(db, file).game, ludi_game(db, file)) {
        (Some(tree), Some(game)) => explain(tree, game),
        _ => LudiExplanation::default(),
    }
}

/// The sheet of a bound game and its model.
pub fn explain(tree: &Node, game: &model::Game) -> LudiExplanation {
    let mut sheet = LudiExplanation {
        title: game
            .name
            .as_ref()
            .map_or_else(|| "(unnamed game)".to_owned(), |n| n.name.clone()),
        sentences: Vec::new(),
    };
    let mut say = |text: String, range: TextRange| {
        if !text.is_empty() {
            sheet.sentences.push(Sentence {
                text: sentence(&text),
                ranges: vec![range],
            });
        }
    };
    // Who plays on what.
    if let Some(players) = tree.child("players") {
        let mut text = render(players);
        if let (Some(board_node), Some(board)) = (tree.child("board"), &game.board) {
            text = format!("{text} {}", render_board(board_node, board));
        }
        say(text, players.range);
    }
    if let Some(regions) = tree.child("board").and_then(|board| board.child("regions")) {
        say(render(regions), regions.range);
    }
    // Turns and moves.
    match tree.child("pieces") {
        None => {
            // The seed's default game: the `pieces` ludeme's documented default.
            let default = schema::named("pieces")
                .next()
                .and_then(|pieces| pieces.default);
            say(default.unwrap_or_default().to_owned(), tree.name_range);
        }
        Some(pieces) => {
            if let Some(first) = game.players.first() {
                say(
                    format!(
                        "players take turns, {} first, each making one of the moves below",
                        first.name.name
                    ),
                    pieces.name_range,
                );
            }
            for definition in pieces.values("pieces").filter_map(Value::node) {
                say(render(definition), definition.name_range);
                let piece = definition
                    .value("name")
                    .and_then(Value::text)
                    .unwrap_or("piece");
                for movement in definition
                    .child("moves")
                    .iter()
                    .flat_map(|moves| moves.values("moves"))
                    .filter_map(Value::node)
                {
                    let value = |name: &str| {
                        if name == "piece" {
                            Some(piece.to_owned())
                        } else {
                            param_text(movement, name)
                        }
                    };
                    let text = fill(movement.ludeme().english, &value, Some(movement.ludeme()));
                    say(text, movement.range);
                }
            }
        }
    }
    for part in ["start", "play"] {
        for clause in tree
            .child(part)
            .iter()
            .flat_map(|node| node.args.iter())
            .filter_map(|arg| arg.value.node())
        {
            say(render(clause), clause.range);
        }
    }
    if let Some(end) = tree.child("end") {
        for clause in end.values("clauses").filter_map(Value::node) {
            say(render(clause), clause.range);
        }
        if let Some(tie) = end.child("tie") {
            say(render(tie), tie.range);
        }
    }
    if let Some(support) = tree.child("support") {
        for item in support.values("items").filter_map(Value::node) {
            say(render(item), item.range);
        }
    }
    sheet
}

/// The board phrase: "on a hexagonal board of side 5" (the shape with its article), from the board's, shape's, tiling's
/// and flags' templates, with the defaults of the model (an absent shape is the tiling's own).
fn render_board(node: &Node, board: &Board) -> String {
    let shape_word = board.shape.name();
    let shape_entry = schema::named(shape_word).find(|l| l.kind == Kind::Shape);
    let sizes: Vec<String> = board.size.iter().map(u32::to_string).collect();
    let size = match (board.shape, sizes.as_slice()) {
        (Shape::Square | Shape::Rhombus, [one]) => format!("{one}×{one}"),
        _ => sizes.join("×"),
    };
    let shape = shape_entry.map_or_else(String::new, |entry| {
        let value = |name: &str| match name {
            "size" => Some(size.clone()),
            "width" => sizes.first().cloned(),
            "height" => sizes.get(1).cloned(),
            _ => None,
        };
        fill(entry.english, &value, None)
    });
    let tiling_node = node.child("tiling");
    let tiling_word = tiling_node.and_then(|t| t.child("type")).map(Node::name);
    let value = |name: &str| match name {
        "shape" => Some(with_indefinite_article(&shape)),
        // The tiling goes without saying when the board has its own shape (hexagons of hexagons).
        "tiling" if tiling_word != Some(shape_word) => {
            tiling_node.and_then(|t| t.child("type")).map(render)
        }
        "adjacency" => tiling_node.and_then(|t| t.child("i-nbors")).map(render),
        "phase" => node.child("phase").map(render),
        _ => None,
    };
    fill(node.ludeme().english, &value, None)
}

/// "a hexagonal board", "an 8×8 square board", "an 11×11 rhombus board".
fn with_indefinite_article(phrase: &str) -> String {
    let number: String = phrase.chars().take_while(char::is_ascii_digit).collect();
    let vowel_sound = if number.is_empty() {
        phrase.starts_with(['a', 'e', 'i', 'o', 'u'])
    } else {
        // Spoken numbers starting with a vowel: eight, eighty..., eleven, eighteen.
        number.starts_with('8') || number == "11" || number == "18"
    };
    format!("{} {phrase}", if vowel_sound { "an" } else { "a" })
}

/// A ludeme in English, from its template.
pub fn render(node: &Node) -> String {
    fill(
        node.ludeme().english,
        &|name| param_text(node, name),
        Some(node.ludeme()),
    )
}

/// The rendering of the arguments bound to `param` of `node`, or `None` when there are none.
fn param_text(node: &Node, param: &str) -> Option<String> {
    let spec = node.ludeme().param(param)?;
    // A loop, not an iterator chain: rendering recurses along the nesting of ludemes.
    let mut parts = Vec::new();
    for value in node.values(param) {
        parts.push(render_value(node.ludeme(), value));
    }
    if parts.is_empty() {
        return None;
    }
    Some(join(&parts, spec.joiner))
}

fn render_value(parent: &Ludeme, value: &Value) -> String {
    match value {
        Value::Node(node) => render(node),
        Value::Integer { value, .. } => value.to_string(),
        Value::Name { text, use_, .. } if use_.all_players && text == "All" => {
            // An end clause speaks of one player at a time; elsewhere `All` gives to each.
            if parent.name == "end clause" {
                "a player"
            } else {
                "each player"
            }
            .to_owned()
        }
        other => other.text().unwrap_or_default().to_owned(),
    }
}

/// "A, B and C" for "and"/"or"; "A plus B plus C" for other joiners.
fn join(parts: &[String], joiner: &str) -> String {
    match (parts, joiner) {
        ([one], _) => one.clone(),
        ([init @ .., last], "and" | "or") => format!("{} {joiner} {last}", init.join(", ")),
        (_, "×") => parts.join("×"),
        _ => parts.join(&format!(" {joiner} ")),
    }
}

/// Expands a template: `{name}` from `value`, falling back to the parameter's default outside
/// brackets; a `[...]` section is dropped when a placeholder inside has no value.
pub fn fill(
    template: &str,
    value: &dyn Fn(&str) -> Option<String>,
    defaults: Option<&Ludeme>,
) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(at) = rest.find(['{', '[']) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        if after.starts_with('[') {
            let Some(end) = after.find(']') else { break };
            let inner = &after[1..end];
            if let Some(text) = fill_section(inner, value) {
                out.push_str(&text);
            }
            rest = &after[end + 1..];
        } else {
            let Some(end) = after.find('}') else { break };
            let name = &after[1..end];
            let text = value(name).or_else(|| {
                defaults
                    .and_then(|l| l.param(name))
                    .and_then(|p| p.default)
                    .map(str::to_owned)
            });
            out.push_str(&text.unwrap_or_default());
            rest = &after[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// A bracketed section, or `None` when one of its placeholders has no value.
fn fill_section(section: &str, value: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let mut out = String::new();
    let mut rest = section;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}')? + at;
        out.push_str(&value(&rest[at + 1..end])?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

/// Capital first letter, final period.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

impl LudiExplanation {
    /// Plain text: the title, then one sentence per line as `- ` bullets wrapped at `width`.
    pub fn to_plain_text(&self, width: usize) -> String {
        let mut out = format!("{}\n", self.title);
        for item in &self.sentences {
            crate::wrap::wrap_into(&mut out, &item.text, "  - ", "    ", width);
        }
        out
    }
}

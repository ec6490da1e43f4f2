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

use std::cell::Cell;

use serde::Serialize;

use ludeme_engine::ludi::Description;

use crate::egg::words::{join_and, plural};
use crate::ludi::bind::{Node, Value};
use crate::ludi::lower::ludi_tree;
use crate::ludi::model::{Board, Shape, Tiling};
use crate::ludi::schema::{self, Kind, Ludeme, Namespace};
use crate::ludi::{engine, ludi_game, model};
use crate::rulebook::{self, Line, Part, Rulebook};
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
    /// Where the rulebook puts it; `None` for the overview (who plays on what).
    pub part: Option<Part>,
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
        (Some(tree), Some(game)) => explain(tree, game, file.text(db)),
        _ => LudiExplanation::default(),
    }
}

/// The rulebook of a Ludi file: the sheet's sentences sorted into the rulebook's parts, with
/// the first win (or loss) clause as the object of the game.
#[salsa::tracked(returns(ref))]
pub fn ludi_rulebook(db: &dyn Db, file: SourceFile) -> Rulebook {
    let sheet = ludi_explanation(db, file);
    let mut book = Rulebook::new(sheet.title.clone());
    for sentence in &sheet.sentences {
        let ranges = sentence.ranges.clone();
        match sentence.part {
            None => book.add_overview(Line::new(sentence.text.clone(), ranges)),
            // What a move does after it is done reads as a sentence of its own.
            Some(Part::Moves) => book.add(
                Part::Moves,
                Line::new(sentence.text.replacen("; then ", ". Then ", 1), ranges),
            ),
            // A long list of regions reads as a list, one region a line.
            Some(Part::Equipment)
                if sentence.text.starts_with(REGIONS_ARE)
                    && sentence.text.split_whitespace().count()
                        > rulebook::LONGEST_SENTENCE / 2 =>
            {
                book.add(Part::Equipment, Line::new("The regions:", ranges.clone()));
                let list = sentence.text[REGIONS_ARE.len()..].trim_end_matches('.');
                for region in list.split("), ") {
                    let region = region.trim_start_matches("and ");
                    let closed = if region.ends_with(')') {
                        region.to_owned()
                    } else {
                        format!("{region})")
                    };
                    let closed = closed.replace(") and ", "); ");
                    for part in closed.split("; ") {
                        book.add(Part::Equipment, Line::new(part, ranges.clone()));
                    }
                }
            }
            Some(part) => book.add(part, Line::new(sentence.text.clone(), ranges)),
        }
    }
    // The object: every way to win, when short enough to say at once; else the first way to
    // win (or the first end clause).
    let endings: Vec<&Sentence> = sheet
        .sentences
        .iter()
        .filter(|s| s.part == Some(Part::Ending))
        .collect();
    let wins: Vec<&Sentence> = endings
        .iter()
        .copied()
        .filter(|s| s.text.contains(" wins by "))
        .collect();
    // A clause that could not be read is no object.
    let endings: Vec<&Sentence> = endings
        .into_iter()
        .filter(|s| !s.text.starts_with('('))
        .collect();
    let chosen: Vec<&Sentence> = match (wins.as_slice(), endings.first()) {
        ([], Some(first)) => vec![first],
        ([], None) => Vec::new(),
        (all, _) => {
            let words: usize = all.iter().map(|s| s.text.split_whitespace().count()).sum();
            if words <= rulebook::LONGEST_SENTENCE / 2 {
                all.to_vec()
            } else {
                vec![all[0]]
            }
        }
    };
    if !chosen.is_empty() {
        let clauses: Vec<String> = chosen
            .iter()
            .map(|s| lowercase_first(s.text.trim_end_matches('.')))
            .collect();
        let overview_at = book.overview.len().min(1);
        book.overview.insert(
            overview_at,
            Line::new(
                format!("The object: {}", clauses.join("; ")),
                chosen.iter().flat_map(|s| s.ranges.clone()).collect(),
            ),
        );
    }
    book
}

/// How the regions sentence starts (the `regions` ludeme's template).
const REGIONS_ARE: &str = "The regions are ";

/// "A player wins by ..." → "a player wins by ...", leaving names (White) capitalised.
fn lowercase_first(text: &str) -> String {
    let first = text.split(' ').next().unwrap_or_default();
    let mut out = text.to_owned();
    if matches!(first, "A" | "The" | "If" | "Each") {
        out[..1].make_ascii_lowercase();
    }
    out
}

/// The sheet of a bound game and its model; `source` is the file's text (for the line of a
/// rule that cannot be read).
pub fn explain(tree: &Node, game: &model::Game, source: &str) -> LudiExplanation {
    let mut sheet = LudiExplanation {
        title: game.name.as_ref().map_or_else(
            || "(unnamed game)".to_owned(),
            // A variant's parameters follow its name: "Hex (11)".
            |n| match game.params.as_slice() {
                [] => n.name.clone(),
                params => format!("{} ({})", n.name, params.join(", ")),
            },
        ),
        sentences: Vec::new(),
    };
    let renderer = Renderer::for_board(game.board.as_ref());
    // A sentence with a hole (a required argument that could not be read) is replaced by a
    // note saying where the rule is, so that no rule is silently dropped or half said.
    let mut say = |part: Option<Part>, text: String, range: TextRange| {
        let text = if renderer.missing.take() {
            let line = source[..range.start.min(source.len())]
                .matches('\n')
                .count()
                + 1;
            format!("(a rule that could not be read: line {line})")
        } else {
            text
        };
        if !text.is_empty() {
            sheet.sentences.push(Sentence {
                text: rulebook::sentence(&text),
                ranges: vec![range],
                part,
            });
        }
    };
    let first_player = game.players.first().map(|p| p.name.name.clone());
    // Who plays on what.
    if let Some(players) = tree.child("players") {
        let mut text = renderer.render(players);
        if let (Some(board_node), Some(board)) = (tree.child("board"), &game.board) {
            text = format!("{text} {}", renderer.render_board(board_node, board));
        }
        say(None, text, players.range);
    }
    if let Some(regions) = tree.child("board").and_then(|board| board.child("regions")) {
        say(
            Some(Part::Equipment),
            renderer.render(regions),
            regions.range,
        );
    }
    // Turns and moves.
    match tree.child("pieces") {
        None => {
            // The seed's default game: the `pieces` ludeme's documented default, with the
            // first player named.
            let default = schema::named("pieces")
                .next()
                .and_then(|pieces| pieces.default)
                .unwrap_or_default();
            let text = match (&first_player, default.strip_prefix("players take turns ")) {
                (Some(first), Some(rest)) => format!("players take turns, {first} first, {rest}"),
                _ => default.to_owned(),
            };
            say(Some(Part::Turns), text, tree.name_range);
        }
        Some(pieces) => {
            if let Some(first) = &first_player {
                say(
                    Some(Part::Turns),
                    format!(
                        "players take turns, {first} first, each making one of the moves below"
                    ),
                    pieces.name_range,
                );
            }
            for definition in pieces.values("pieces").filter_map(Value::node) {
                say(
                    Some(Part::Equipment),
                    renderer.render(definition),
                    definition.name_range,
                );
                let piece = definition
                    .value("name")
                    .and_then(Value::text)
                    .map_or_else(|| "piece".to_owned(), piece_word);
                for movement in definition
                    .child("moves")
                    .iter()
                    .flat_map(|moves| moves.values("moves"))
                    .filter_map(Value::node)
                {
                    let value = |name: &str| {
                        if name == "piece" {
                            Some(piece.clone())
                        } else {
                            renderer.param_text(movement, name)
                        }
                    };
                    let text =
                        renderer.fill(movement.ludeme().english, &value, Some(movement.ludeme()));
                    say(Some(Part::Moves), text, movement.range);
                }
            }
            if let Some(set) = pieces.value("set") {
                let name = set.text().unwrap_or_default();
                say(
                    Some(Part::Equipment),
                    format!("these pieces make up the set {name}"),
                    set.range(),
                );
            }
        }
    }
    // The engine's reading of the start, for what a clause leaves unsaid.
    let description = tree
        .child("start")
        .and_then(|_| engine::description_of(game).ok());
    for (part, name) in [(Part::Setup, "start"), (Part::Turns, "play")] {
        for clause in tree
            .child(name)
            .iter()
            .flat_map(|node| node.args.iter())
            .filter_map(|arg| arg.value.node())
        {
            let mut text = renderer.render(clause);
            if let Some(description) = &description {
                text.push_str(&mirrored_home_rows(game, description, clause.range));
            }
            say(Some(part), text, clause.range);
        }
    }
    if let Some(end) = tree.child("end") {
        for clause in end.values("clauses").filter_map(Value::node) {
            say(Some(Part::Ending), renderer.render(clause), clause.range);
        }
        if let Some(tie) = end.child("tie") {
            say(Some(Part::Ending), renderer.render(tie), tie.range);
        }
    }
    if let Some(support) = tree.child("support") {
        for item in support.values("items").filter_map(Value::node) {
            say(Some(Part::Notes), renderer.render(item), item.range);
        }
    }
    sheet
}

/// What the engine adds to the `place` clause at `clause` (the engine's start reads it so):
/// the same pieces for each player the start otherwise gives nothing, on their own home row
/// (`Description::mirrored_home_owners`); empty when it adds nothing.
fn mirrored_home_rows(game: &model::Game, description: &Description, clause: TextRange) -> String {
    let Some(placement) = game
        .start
        .placements
        .iter()
        .position(|placement| placement.range == clause)
        .and_then(|index| description.placements.get(index))
    else {
        return String::new();
    };
    let players: Vec<String> = description
        .mirrored_home_owners(placement)
        .into_iter()
        .filter_map(|player| description.players.get(player))
        .map(|name| format!("{name}'s"))
        .collect();
    if players.is_empty() {
        return String::new();
    }
    format!(
        ", and {} likewise on their own home row",
        join_and(&players)
    )
}

/// A piece type's name as a word of a sentence: `Stone` → "stone"; the default type `Piece`
/// is just "piece".
fn piece_word(name: &str) -> String {
    rulebook::words_of_code_name(name).to_lowercase()
}

/// Pieces named by a phrase ending in a piece type: "White's Stone" → "White's stones",
/// "each player's Piece" → "each player's pieces".
fn pieces_phrase(phrase: &str) -> String {
    match phrase.rsplit_once(' ') {
        Some((head, last)) => format!("{head} {}", plural(&piece_word(last))),
        None => plural(&piece_word(phrase)),
    }
}

/// Renders ludemes with what the whole game decides: the board's tiling, for the words of
/// adjacency; and whether a required argument was missing (a rule that could not be read).
struct Renderer {
    tiling: Tiling,
    missing: Cell<bool>,
}

impl Renderer {
    fn for_board(board: Option<&Board>) -> Self {
        Renderer {
            tiling: board.map_or(Tiling::Square, |board| board.tiling),
            missing: Cell::new(false),
        }
    }

    /// "orthogonally adjacent to the destination" on squares; cells of other tilings touch
    /// along an edge without an orthogonal direction.
    fn direct_neighbours(&self) -> &'static str {
        match self.tiling {
            Tiling::Square | Tiling::TruncSquare => "orthogonally adjacent to the destination",
            Tiling::Hex => "adjacent to the destination",
            Tiling::Tri => "sharing an edge with the destination",
        }
    }

    fn all_neighbours(&self) -> &'static str {
        match self.tiling {
            Tiling::Hex => "adjacent to the destination",
            _ => "adjacent to the destination, diagonally included",
        }
    }
    /// The board phrase: "on a hexagonal board of side 5" (the shape with its article), from
    /// the board's, shape's, tiling's and flags' templates, with the defaults of the model (an
    /// absent shape is the tiling's own).
    fn render_board(&self, node: &Node, board: &Board) -> String {
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
            self.fill(entry.english, &value, None)
        });
        let tiling_node = node.child("tiling");
        let tiling_word = tiling_node.and_then(|t| t.child("type")).map(Node::name);
        let value = |name: &str| match name {
            "shape" => Some(rulebook::with_indefinite_article(&shape)),
            // The tiling goes without saying when the board has its own shape (hexagons of
            // hexagons).
            "tiling" if tiling_word != Some(shape_word) => tiling_node
                .and_then(|t| t.child("type"))
                .map(|t| self.render(t)),
            "adjacency" => tiling_node
                .and_then(|t| t.child("i-nbors"))
                .map(|t| self.render(t)),
            "phase" => node.child("phase").map(|p| self.render(p)),
            _ => None,
        };
        self.fill(node.ludeme().english, &value, None)
    }

    /// A ludeme in English, from its template; `and`, `or` and `not` are phrased so that
    /// their grouping survives.
    fn render(&self, node: &Node) -> String {
        match node.name() {
            "and" | "or" => self.render_logic(node, false),
            "not" => node
                .value("condition")
                .and_then(Value::node)
                .map_or_else(|| self.hole(), |inner| self.negate(inner)),
            ">" | "<" | ">=" | "<=" | "=" | "!=" => self
                .render_count(node, node.name())
                .unwrap_or_else(|| self.render_template(node)),
            "d-nbors" if node.ludeme().kind == Kind::Method => self.direct_neighbours().to_owned(),
            "i-nbors" if node.ludeme().kind == Kind::Method => self.all_neighbours().to_owned(),
            _ => self.render_template(node),
        }
    }

    fn render_template(&self, node: &Node) -> String {
        let ludeme = node.ludeme();
        let value = |name: &str| {
            self.param_text(node, name).or_else(|| {
                // Capturing and converting default to the direct neighbours, whose word
                // depends on the tiling.
                (name == "methods" && ludeme.kind == Kind::Effect)
                    .then(|| self.direct_neighbours().to_owned())
            })
        };
        self.fill(ludeme.english, &value, Some(ludeme))
    }

    /// The parts of a conjunction or disjunction. Nested ones say "either ... or ..." (and
    /// "both ... and ..."), so that "A and B or C" cannot be read two ways.
    fn render_logic(&self, node: &Node, nested: bool) -> String {
        let children: Vec<&Value> = node.values("conditions").collect();
        let has_nested = children
            .iter()
            .any(|c| c.node().is_some_and(|n| matches!(n.name(), "and" | "or")));
        let parts: Vec<String> = children
            .iter()
            .map(|child| match child.node() {
                Some(inner) if matches!(inner.name(), "and" | "or") => {
                    self.render_logic(inner, true)
                }
                Some(inner) => self.render(inner),
                None => child.text().unwrap_or_default().to_owned(),
            })
            .collect();
        if parts.is_empty() {
            return self.hole();
        }
        let word = if node.name() == "or" { "or" } else { "and" };
        let joined = if has_nested && word == "or" {
            // "either A and B, or C": the commas show where the inner group ends.
            let (last, init) = parts.split_last().expect("not empty");
            format!("{}, {word} {last}", init.join(", "))
        } else {
            join(&parts, word)
        };
        match (nested || has_nested, word, parts.len()) {
            (true, "or", 2..) => format!("either {joined}"),
            (true, "and", 2) => format!("both {joined}"),
            _ => joined,
        }
    }

    /// A condition said negatively, in natural order: "the destination is not empty", "the
    /// distance ... is at most 2", "neither A nor B"; "not making a line of 4" for an end
    /// condition.
    fn negate(&self, node: &Node) -> String {
        let cell = || self.param_text(node, "cell").unwrap_or_else(|| self.hole());
        match node.name() {
            "not" => node
                .value("condition")
                .and_then(Value::node)
                .map_or_else(|| self.hole(), |inner| self.render(inner)),
            "empty" if node.ludeme().kind == Kind::Condition => format!("{} is not empty", cell()),
            "owner" => format!("{} does not hold a piece of the mover", cell()),
            "enemy" if node.ludeme().kind == Kind::Condition => {
                format!("{} does not hold an enemy piece", cell())
            }
            "line" => "the destination is not in a straight line from the origin".to_owned(),
            "connected" => "the destination does not touch another piece of the mover".to_owned(),
            "steps" => format!(
                "the destination is not reached from the origin by the steps {}",
                self.param_text(node, "steps")
                    .unwrap_or_else(|| self.hole())
            ),
            ">" | "<" | ">=" | "<=" | "=" | "!=" => {
                let opposite = match node.name() {
                    ">" => "<=",
                    "<" => ">=",
                    ">=" => "<",
                    "<=" => ">",
                    "=" => "!=",
                    _ => "=",
                };
                self.render_count(node, opposite).unwrap_or_else(|| {
                    let entry = schema::named(opposite)
                        .find(|l| l.kind == node.ludeme().kind)
                        .unwrap_or(node.ludeme());
                    let value = |name: &str| self.param_text(node, name);
                    self.fill(entry.english, &value, Some(entry))
                })
            }
            "or" => {
                let parts: Vec<String> = node
                    .values("conditions")
                    .filter_map(Value::node)
                    .map(|inner| self.render(inner))
                    .collect();
                match parts.as_slice() {
                    [a, b] => format!("neither {a} nor {b}"),
                    _ => format!("none of these holds: {}", join(&parts, "and")),
                }
            }
            "and" => format!(
                "not all of these hold: {}",
                join(
                    &node
                        .values("conditions")
                        .filter_map(Value::node)
                        .map(|inner| self.render(inner))
                        .collect::<Vec<_>>(),
                    "and"
                )
            ),
            _ => {
                let text = self.render(node);
                if node.ludeme().kind == Kind::EndCondition
                    || text.split(' ').next().is_some_and(|w| w.ends_with("ing"))
                {
                    format!("not {text}")
                } else {
                    format!("it is not the case that {text}")
                }
            }
        }
    }

    /// A comparison of a count with a number, said as the count: "no empty cells lie between
    /// the origin and the destination", "the destination has at least one enemy neighbour";
    /// `None` for other comparisons.
    fn render_count(&self, node: &Node, operator: &str) -> Option<String> {
        let mut sides = node.args.iter().map(|arg| &arg.value);
        let (left, right) = (sides.next()?.node()?, sides.next()?);
        let number = right.integer()?;
        let content = left.value("content").and_then(Value::node).map(Node::name);
        let (singular, plural_noun) = match (left.name(), content) {
            ("num-between", Some("empty")) => ("empty cell", "empty cells"),
            ("num-between", Some("enemy")) => ("enemy piece", "enemy pieces"),
            ("num-between", Some("friend")) => ("friendly piece", "friendly pieces"),
            ("num-between", Some("any")) => ("piece", "pieces"),
            ("num-nbors", Some("empty")) => ("empty neighbour", "empty neighbours"),
            ("num-nbors", Some("enemy")) => ("enemy neighbour", "enemy neighbours"),
            ("num-nbors", Some("friend")) => ("friendly neighbour", "friendly neighbours"),
            ("num-nbors", _) => ("occupied neighbour", "occupied neighbours"),
            _ => return None,
        };
        let (quantity, one) = match (operator, number) {
            ("=" | "<=", 0) | ("<", 1) => ("no".to_owned(), false),
            ("=", 1) => ("exactly one".to_owned(), true),
            (">", 0) | (">=", 1) => ("at least one".to_owned(), true),
            ("=", n) => (format!("exactly {n}"), false),
            (">=", n) => (format!("at least {n}"), false),
            ("<=", n) => (format!("at most {n}"), n == 1),
            (">", n) => (format!("more than {n}"), false),
            ("<", n) => (format!("fewer than {n}"), false),
            _ => return None,
        };
        let noun = if one { singular } else { plural_noun };
        Some(if left.name() == "num-between" {
            let verb = if one { "lies" } else { "lie" };
            format!("{quantity} {noun} {verb} between the origin and the destination")
        } else {
            let cell = self.param_text(left, "cell").unwrap_or_else(|| self.hole());
            format!("{cell} has {quantity} {noun}")
        })
    }

    /// The rendering of the arguments bound to `param` of `node`, or `None` when there are
    /// none.
    fn param_text(&self, node: &Node, param: &str) -> Option<String> {
        let spec = node.ludeme().param(param)?;
        // A loop, not an iterator chain: rendering recurses along the nesting of ludemes.
        let mut parts = Vec::new();
        for value in node.values(param) {
            parts.push(self.render_value(node.ludeme(), value));
        }
        if parts.is_empty() {
            return None;
        }
        Some(join(&parts, spec.joiner))
    }

    fn render_value(&self, parent: &Ludeme, value: &Value) -> String {
        match value {
            Value::Node(node) => self.render(node),
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
            // Region names are written as code (`WhiteCamp`); a rulebook says them as words.
            Value::Name { text, use_, .. } if use_.namespace == Namespace::Region => {
                rulebook::words_of_code_name(text)
            }
            other => other.text().unwrap_or_default().to_owned(),
        }
    }

    /// Marks the sentence being built as missing a part, and returns the empty text in its
    /// place.
    fn hole(&self) -> String {
        self.missing.set(true);
        String::new()
    }

    /// Expands a template: `{name}` from `value`, falling back to the parameter's default
    /// outside brackets; a `[...]` section is dropped when a placeholder inside has no value.
    /// A piece type followed by "pieces" ("{piece} pieces") reads as the plural of its name
    /// ("stones").
    fn fill(
        &self,
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
                if let Some(text) = self.fill_section(inner, value) {
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
                let text = text.unwrap_or_else(|| {
                    let required = defaults
                        .and_then(|l| l.param(name))
                        .is_some_and(|p| p.min > 0);
                    if required { self.hole() } else { String::new() }
                });
                rest = &after[end + 1..];
                out.push_str(&self.piece_names(name, &text, &mut rest));
            }
        }
        out.push_str(rest);
        out
    }

    /// A bracketed section, or `None` when one of its placeholders has no value.
    fn fill_section(
        &self,
        section: &str,
        value: &dyn Fn(&str) -> Option<String>,
    ) -> Option<String> {
        let mut out = String::new();
        let mut rest = section;
        while let Some(at) = rest.find('{') {
            out.push_str(&rest[..at]);
            let end = rest[at..].find('}')? + at;
            let name = &rest[at + 1..end];
            let text = value(name)?;
            rest = &rest[end + 1..];
            out.push_str(&self.piece_names(name, &text, &mut rest));
        }
        out.push_str(rest);
        Some(out)
    }

    /// `{piece} pieces` and `{name} pieces` (a piece type) say the type in the plural:
    /// "stones", "White's pawns"; `{piece} piece` in the singular, "a pawn". Consumes the noun
    /// from `rest` when it does so.
    fn piece_names(&self, placeholder: &str, text: &str, rest: &mut &str) -> String {
        if !matches!(placeholder, "piece" | "name") || text.is_empty() {
            return text.to_owned();
        }
        if let Some(after) = rest.strip_prefix(" pieces") {
            *rest = after;
            return pieces_phrase(text);
        }
        if let Some(after) = rest.strip_prefix(" piece")
            && !after.starts_with(|c: char| c.is_alphabetic())
        {
            *rest = after;
            return piece_word(text);
        }
        text.to_owned()
    }
}

/// A ludeme in English, from its template, as one rule's hover or hint says it (the tiling
/// taken as square).
pub fn render(node: &Node) -> String {
    Renderer::for_board(None).render(node)
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use ludeme_engine::Game;
    use ludeme_engine::picture::Depict;

    use crate::ludi::engine::ludi_engine_for;
    use crate::ludi::ludi_explanation;
    use crate::{RootDatabase, SourceFile, Syntax};

    /// Teiglith's rules (corpus/ludi/teiglith.ludi) with `start` as its start.
    fn teiglith_starting(start: &str) -> String {
        format!(
            "(game Teiglith (players White Black) (board (tiling square) (size 7 7))
               (pieces (Stone All (moves (move (pre (connected)) (action (pop) (push))))))
               (start {start})
               (end (All win (no-move))))"
        )
    }

    /// The sheet's start sentences, and the stones each player has on the engine's first
    /// position.
    fn setup_and_stones(text: &str) -> (Vec<String>, [usize; 2]) {
        let db = RootDatabase::default();
        let file = SourceFile::new(&db, "t.ludi".into(), Syntax::Ludi, Arc::from(text), None);
        let setup = ludi_explanation(&db, file)
            .sentences
            .iter()
            .filter(|s| s.part == Some(crate::rulebook::Part::Setup))
            .map(|s| s.text.clone())
            .collect();
        let game = ludi_engine_for(&db, file).expect("playable");
        let mut stones = [0; 2];
        for piece in game.picture(&game.initial_state()).pieces {
            stones[piece.owner.expect("a player's stone")] += piece.count;
        }
        (setup, stones)
    }

    /// `home` is read for each player (docs/ludi.md, *Home*): the English says Black's stones
    /// start on Black's home row exactly when the engine puts them there.
    #[test]
    fn the_start_in_english_says_where_the_engine_puts_every_players_pieces() {
        // Teiglith as the paper prints it: White's stones only; the engine gives Black the same.
        let (setup, stones) = setup_and_stones(&teiglith_starting("(place (Stone White) home)"));
        assert_eq!(stones, [7, 7]);
        assert_eq!(
            setup,
            ["White's stones start on their home row, and Black's likewise on their own home row."]
        );
        // Black given stones in hand keeps exactly those: nothing more is said.
        let (setup, stones) = setup_and_stones(&teiglith_starting(
            "(place (Stone White) home) (in-hand (Stone Black) 3)",
        ));
        assert_eq!(stones, [7, 0]);
        assert_eq!(
            setup,
            [
                "White's stones start on their home row.",
                "Black's stones in hand at the start: 3.",
            ]
        );
        // A symmetry written says where Black's go, and the sentence says it.
        let (setup, stones) = setup_and_stones(&teiglith_starting(
            "(place (Stone White) home (symmetric half-turn Black))",
        ));
        assert_eq!(stones, [7, 7]);
        assert_eq!(setup.len(), 1);
        assert!(!setup[0].contains("likewise"), "{setup:?}");
    }
}

//! EGGG games in English: instructions in the order a player reads them (what the game is, who
//! plays, the equipment, the turns, the moves, the goal, the remaining terms), over the whole
//! `is like` chain, followed by the classification by the seed's twelve attributes.
//!
//! Every statement kind has a sentence; a definition the goal or a step of the game uses is said
//! where it is used ("Bet money, or Fold (you lose).") rather than apart. Each sentence carries
//! the origins (file and range) of the statements it renders, inherited ones included.

mod pattern;
pub mod phrase;

use crate::egg::classify::{Classification, classify};
use crate::egg::forms;
use crate::egg::model::{
    Definition, DefinitionBody, DefinitionSlot, Direction, EggGame, Origin, Players, Sourced, Term,
    TurnOrder, Value, Verb, Word,
};
use crate::egg::words::{article, capitalize, join_and, join_or, key, number_word, plural};
use crate::egg::{egg_file, egg_game};
use crate::rulebook::{Line, LineNumbers, Part, Rulebook, UNREADABLE_NAMED, sentence};
use crate::{Db, SourceFile, Syntax};
use phrase::{Voice, render, render_terms, spoken_name};

/// A game's instructions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EggExplanation {
    pub title: String,
    pub sections: Vec<Section>,
    pub classification: Classification,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Section {
    pub title: &'static str,
    pub sentences: Vec<Sentence>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sentence {
    pub text: String,
    /// The statements it renders.
    pub origins: Vec<Origin>,
}

/// The instructions of the game `file` describes (empty for other languages).
#[salsa::tracked(returns(ref))]
pub fn egg_explanation(db: &dyn Db, file: SourceFile) -> EggExplanation {
    if file.syntax(db) != Syntax::Egg {
        return EggExplanation::default();
    }
    let game = egg_game(db, file);
    let like = egg_file(db, file)
        .likes()
        .next()
        .map(|(_, _, range)| Origin { file, range });
    let mut sheet = explain(game, like);
    // What could not be read is named, never silently left out: statements the model does not
    // understand and stretches with syntax errors, each by its line.
    let text = file.text(db);
    let mut unread: Vec<crate::TextRange> = egg_file(db, file)
        .unknown
        .iter()
        .map(|unknown| unknown.range)
        .chain(
            crate::syntax::syntax_diagnostics(db, file)
                .iter()
                .filter(|diagnostic| diagnostic.severity == crate::Severity::Error)
                .map(|diagnostic| diagnostic.range),
        )
        .collect();
    unread.sort_by_key(|range| range.start);
    let mut sentences: Vec<Sentence> = Vec::new();
    let lines = LineNumbers::new(text);
    let unnamed = unread.len().saturating_sub(UNREADABLE_NAMED);
    for range in unread.into_iter().take(UNREADABLE_NAMED) {
        let line = lines.line_of(range.start);
        let note = format!("(a statement that could not be read: line {line})");
        if sentences.last().is_none_or(|last| last.text != note) {
            sentences.push(Sentence {
                text: note,
                origins: vec![Origin { file, range }],
            });
        }
    }
    if unnamed > 0 {
        sentences.push(Sentence {
            text: format!(
                "({unnamed} more statements could not be read; `ludeme check` lists them)"
            ),
            origins: Vec::new(),
        });
    }
    if !sentences.is_empty() {
        sheet.sections.push(Section {
            title: "Not read",
            sentences,
        });
    }
    sheet
}

/// The rulebook of an EGGG file: an overview (who plays, on what, with what; then the goal),
/// and the instructions' sections as its chapters. The classification stays in the
/// instructions (`ludeme explain --literal`).
#[salsa::tracked(returns(ref))]
pub fn egg_rulebook(db: &dyn Db, file: SourceFile) -> Rulebook {
    let sheet = egg_explanation(db, file);
    let mut book = Rulebook::new(sheet.title.clone());
    if file.syntax(db) != Syntax::Egg {
        return book;
    }
    let game = egg_game(db, file);
    let own = |origins: &[Origin]| -> Vec<crate::TextRange> {
        origins
            .iter()
            .filter(|origin| origin.file == file)
            .map(|origin| origin.range)
            .collect()
    };
    book.add_overview(Line::new(overview(game, &sheet.title), Vec::new()));
    for section in &sheet.sections {
        let part = match section.title {
            // The overview names the players.
            "Players" => continue,
            "Equipment" => Part::Equipment,
            "Turns" => Part::Turns,
            "Moves" => Part::Moves,
            "Goal" => Part::Ending,
            _ => Part::Notes,
        };
        for sentence in &section.sentences {
            // The overview says the grid and the pieces already.
            let said_above = (game.grid.is_some()
                && game.board_shape.is_none()
                && game.cell_shape.is_none()
                && sentence.text.starts_with("The board is a "))
                || (game.pieces.is_some() && sentence.text.starts_with("The pieces are"));
            if part == Part::Equipment && said_above {
                continue;
            }
            // The first sentence of the goal is the object of the game, said up front too.
            if part == Part::Ending && book.overview.len() == 1 {
                book.add_overview(Line::new(sentence.text.clone(), own(&sentence.origins)));
            }
            book.add(
                part,
                Line::new(sentence.text.clone(), own(&sentence.origins)),
            );
        }
    }
    book
}

/// "Tic-tac-toe is a game for two players, o and x, on a 3 × 3 grid, with the pieces X and
/// O."
fn overview(game: &EggGame, title: &str) -> String {
    let players = match (&game.players, game.player_bounds()) {
        (
            Some(Sourced {
                value: Players::Named(names),
                ..
            }),
            _,
        ) => {
            let mut sorted: Vec<String> = names.iter().map(|w| w.text.clone()).collect();
            sorted.sort_by_key(|name| key(name));
            format!(
                " for {} players, {},",
                number_word(names.len() as u64),
                join_and(&sorted)
            )
        }
        (_, Some((1, 1))) => " for one player".to_owned(),
        (_, Some((min, max))) if min == max => format!(" for {} players", number_word(min)),
        (_, Some((0, max))) => format!(" for up to {} players", number_word(max)),
        (_, Some((min, max))) => {
            format!(" for {} to {} players", number_word(min), number_word(max))
        }
        (_, None) => String::new(),
    };
    let mut text = format!("{title} is a game{players}");
    if let Some(grid) = &game.grid {
        let sizes: Vec<String> = grid.value.iter().map(u64::to_string).collect();
        text.push_str(&format!(" on a {} grid", sizes.join(" × ")));
    } else if let Some(shape) = &game.board_shape {
        let shape = shape.value.text.to_lowercase();
        text.push_str(&format!(" on {} {shape} board", article(&shape)));
    }
    if let Some(pieces) = &game.pieces {
        let names: Vec<String> = pieces.value.iter().map(|p| p.text.clone()).collect();
        text.push_str(&format!(", with the pieces {}", join_and(&names)));
    } else if let Some(hand) = game.definitions.iter().find_map(|d| match &d.value.body {
        DefinitionBody::Quantity { count, of } => Some(format!(
            ", played with hands of {} {}",
            number_word(*count),
            of.text
        )),
        _ => None,
    }) {
        text.push_str(&hand);
    }
    text.trim_end_matches(',').to_owned()
}

/// The instructions of `game`; `like` is the origin of its own `is like` statement.
pub fn explain(game: &EggGame, like: Option<Origin>) -> EggExplanation {
    let mut sheet = Sheet {
        game,
        voice: Voice {
            move_verb: move_verb(game),
        },
        // A game's name as words (`BounceFast` → "Bounce Fast"), as its players say it.
        title: capitalize(&crate::rulebook::words_of_code_name(&game.title)),
        used: Vec::new(),
        sections: Vec::new(),
    };
    sheet.about(like);
    sheet.players();
    sheet.equipment();
    sheet.turns_and_moves();
    sheet.goal();
    sheet.terms();
    EggExplanation {
        title: sheet.title,
        sections: sheet.sections,
        classification: classify(game),
    }
}

/// The verb for showing a piece: the game's only move when it has one (`choose`, `place`).
fn move_verb(game: &EggGame) -> &str {
    match game.moves.as_ref().map(|m| m.value.as_slice()) {
        Some([only]) => match key(&only.text).as_str() {
            "choose" => "choose",
            "place" => "place",
            _ => "play",
        },
        _ => "play",
    }
}

struct Sheet<'g> {
    game: &'g EggGame,
    voice: Voice<'g>,
    title: String,
    /// Definitions already said where they are used (indices into `game.definitions`).
    used: Vec<usize>,
    sections: Vec<Section>,
}

impl<'g> Sheet<'g> {
    fn say(&mut self, section: &'static str, text: String, origins: Vec<Origin>) {
        let text = sentence(&text);
        let sentence = Sentence { text, origins };
        match self.sections.iter_mut().find(|s| s.title == section) {
            Some(existing) => existing.sentences.push(sentence),
            None => self.sections.push(Section {
                title: section,
                sentences: vec![sentence],
            }),
        }
    }

    fn about(&mut self, like: Option<Origin>) {
        let game = self.game;
        if let (Some(base), Some(like)) = (game.ancestors.first(), like) {
            let spoken = |name: &str| crate::rulebook::words_of_code_name(name);
            let mut text = format!("{} is a variation of {}", self.title, spoken(&base.name));
            if game.ancestors.len() > 1 {
                let mut line: Vec<String> = game
                    .ancestors
                    .iter()
                    .rev()
                    .map(|a| spoken(&a.name))
                    .collect();
                line.push(self.title.clone());
                text.push_str(&format!(
                    ", the last of a line of variations: {}",
                    line.join(" → ")
                ));
            }
            self.say("About", text, vec![like]);
        }
        if let Some(network) = &game.network {
            let words: Vec<&str> = network.value.iter().map(|w| w.text.as_str()).collect();
            let mut text = format!(
                "{} is {} {} game",
                self.title,
                article(words[0]),
                words.join(" ")
            );
            let mut origins = vec![network.origin];
            if let Some(port) = &game.port {
                text.push_str(&format!(", served on port {}", port.value));
                origins.push(port.origin);
            }
            self.say("About", text, origins);
        } else if let Some(port) = &game.port {
            self.say(
                "About",
                format!("The game is served on port {}", port.value),
                vec![port.origin],
            );
        }
    }

    fn players(&mut self) {
        let game = self.game;
        match (&game.players, game.implied_opponent) {
            (
                Some(Sourced {
                    value: Players::Named(names),
                    origin,
                }),
                _,
            ) => {
                // Order does not count (the seed's own example: `players are white and black`
                // is "The two players are black and white"), so the roster is alphabetical.
                let mut sorted: Vec<&Word> = names.iter().collect();
                sorted.sort_by_key(|w| w.key());
                let list: Vec<String> = sorted.iter().map(|w| w.text.clone()).collect();
                let text = match list.len() {
                    1 => format!("The player is {}", list[0]),
                    n => format!(
                        "The {} players are {}",
                        number_word(n as u64),
                        join_and(&list)
                    ),
                };
                self.say("Players", text, vec![*origin]);
            }
            (
                Some(Sourced {
                    value: players,
                    origin,
                }),
                _,
            ) => {
                let (min, max) = players.bounds();
                let text = match (min, max) {
                    (1, 1) => format!("{} is for one player", self.title),
                    (0, max) => format!("Up to {} players can take part at once", number_word(max)),
                    (min, max) if min == max => {
                        format!("{} is played by {} players", self.title, number_word(min))
                    }
                    (min, max) => format!(
                        "{} is played by {} to {} players",
                        self.title,
                        number_word(min),
                        number_word(max)
                    ),
                };
                self.say("Players", text, vec![*origin]);
            }
            (None, Some(origin)) => {
                self.say(
                    "Players",
                    "Two play: you and your opponent".to_owned(),
                    vec![origin],
                );
            }
            (None, None) => {}
        }
    }

    fn equipment(&mut self) {
        let game = self.game;
        self.board();
        if let Some(start) = &game.board_start {
            let rows: Vec<String> = start
                .value
                .iter()
                .map(|row| join_and(&row.iter().map(|c| c.text.clone()).collect::<Vec<_>>()))
                .collect();
            let text = match rows.as_slice() {
                [row] => format!("At the start, the board holds {row}, in this order"),
                rows => format!(
                    "At the start, the rows of the board hold: {}",
                    rows.join("; ")
                ),
            };
            self.say("Equipment", text, vec![start.origin]);
        }
        if let Some(pieces) = &game.pieces {
            let names: Vec<String> = pieces.value.iter().map(|p| p.text.clone()).collect();
            let text = match names.as_slice() {
                [one] => format!("The pieces are all {one}"),
                _ => format!("The pieces are {}", join_and(&names)),
            };
            self.say("Equipment", text, vec![pieces.origin]);
        }
        let noun = self.pattern_noun();
        // What a hand is, then its kinds, then what each kind is.
        let mut order: Vec<usize> = (0..game.definitions.len()).collect();
        order.sort_by_key(|&index| match game.definitions[index].value.body {
            DefinitionBody::Quantity { .. } => 0,
            DefinitionBody::Kinds(_) => 1,
            _ => 2,
        });
        for index in order {
            let definition = &game.definitions[index];
            let written = &definition.value.name.text;
            // The kinds of a thing are common nouns ("a flush", "a straight flush").
            let name = &spoken_name(written).to_lowercase();
            let text = match &definition.value.body {
                DefinitionBody::Quantity { count, of } => format!(
                    "{} {} is {} {}",
                    capitalize(article(name)),
                    name,
                    number_word(*count),
                    of.text
                ),
                DefinitionBody::Kinds(kinds) => {
                    let list: Vec<String> = kinds
                        .iter()
                        .map(|k| spoken_name(&k.text).to_lowercase())
                        .collect();
                    let ranked = self.goal_ranks(written);
                    if ranked {
                        format!(
                            "The {name}, from highest to lowest, are {}",
                            join_and(&list)
                        )
                    } else {
                        format!("The kinds of {} are {}", key(name), join_and(&list))
                    }
                }
                DefinitionBody::Pattern(tuples) => match pattern::describe(tuples, &noun) {
                    Some(described) => {
                        format!("{} {name} is {described}", capitalize(article(name)))
                    }
                    None => continue,
                },
                _ => continue,
            };
            self.used.push(index);
            self.say("Equipment", text, vec![definition.origin]);
        }
    }

    /// What one tuple of a pattern is: the thing a hand is made of (`hand is five cards`), or a
    /// piece.
    fn pattern_noun(&self) -> String {
        self.game
            .definitions
            .iter()
            .find_map(|d| match &d.value.body {
                DefinitionBody::Quantity { of, .. } => Some(of.key()),
                _ => None,
            })
            .unwrap_or_else(|| "piece".to_owned())
    }

    /// Whether the goal is the highest of `name` (`goal is highest(hand)`), which makes a list
    /// of its kinds a ranking.
    fn goal_ranks(&self, name: &str) -> bool {
        let Some(goal) = &self.game.goal else {
            return false;
        };
        let Some(Term::Call(call)) = goal.value.single() else {
            return false;
        };
        let argument = call.arguments.first().and_then(Value::single_word);
        matches!(key(&call.function.text).as_str(), "highest" | "lowest")
            && argument.is_some_and(|word| word.key() == key(name))
    }

    fn board(&mut self) {
        let game = self.game;
        let mut origins = Vec::new();
        let shape = game.board_shape.as_ref().map(|s| {
            origins.push(s.origin);
            s.value.text.to_lowercase()
        });
        let grid = game.grid.as_ref().map(|g| {
            origins.push(g.origin);
            g.value
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" × ")
        });
        let cells = game.cell_shape.as_ref().map(|c| {
            origins.push(c.origin);
            c.value.text.to_lowercase()
        });
        let text = match (shape, grid, cells) {
            (None, None, None) => return,
            (shape, grid, cells) => {
                let mut text = match &shape {
                    Some(shape) => format!("The board is {} {shape}", article(shape)),
                    None => "The board".to_owned(),
                };
                if let Some(grid) = grid {
                    text.push_str(if shape.is_some() {
                        " divided into a "
                    } else {
                        " is a "
                    });
                    text.push_str(&format!("{grid} grid"));
                    if let Some(cells) = &cells {
                        text.push_str(&format!(" of {}", plural(cells)));
                    }
                    // The seed: on a polygonal board "new axes are chosen parallel to two
                    // adjacent sides of the polygon".
                    if shape
                        .as_deref()
                        .is_some_and(|s| !matches!(s, "rectangle" | "square"))
                    {
                        text.push_str(", counted along two adjacent sides");
                    }
                } else if let Some(cells) = &cells {
                    text.push_str(&format!(" with squares shaped as {}", plural(cells)));
                }
                text
            }
        };
        self.say("Equipment", text, origins);
    }

    fn turns_and_moves(&mut self) {
        let game = self.game;
        let single = game.player_bounds() == Some((1, 1));
        if let Some(turns) = &game.turns {
            let text = match turns.value {
                TurnOrder::Alternate(direction) => {
                    let mut text = "Players take turns".to_owned();
                    match direction {
                        Some(Direction::Clockwise) => text.push_str(" in clockwise order"),
                        Some(Direction::Counterclockwise) => {
                            text.push_str(" in counterclockwise order");
                        }
                        None => {}
                    }
                    if let Some(first) = game.first_player() {
                        text.push_str(&format!(", {} first", first.text));
                    }
                    text
                }
                TurnOrder::Synchronize => {
                    "Everyone moves at the same time, and the moves are revealed together"
                        .to_owned()
                }
            };
            self.say("Turns", text, vec![turns.origin]);
        }
        if let Some(moves) = &game.moves {
            let actions = self.actions(&moves.value);
            let lead = if single || game.turns.is_none() {
                "To play"
            } else if matches!(
                game.turns.as_ref().map(|t| t.value),
                Some(TurnOrder::Synchronize)
            ) {
                "Each turn"
            } else {
                "On your turn"
            };
            self.say("Moves", format!("{lead}, {actions}"), vec![moves.origin]);
        }
        if let Some(steps) = &game.steps {
            self.say(
                "Moves",
                format!(
                    "A round of {} goes in {} steps:",
                    self.title,
                    number_word(steps.value.len() as u64)
                ),
                vec![steps.origin],
            );
            for (number, step) in steps.value.iter().enumerate() {
                let mut origins = vec![steps.origin];
                let terms = self.inline_definitions(&step.terms, &mut origins, 0);
                let text = format!(
                    "{}. {}",
                    number + 1,
                    capitalize(&render_terms(&terms, self.voice))
                );
                self.say("Moves", text, origins);
            }
        }
        for rule in &game.rules {
            let mut origins = vec![rule.origin];
            let terms = self.inline_definitions(&rule.value.value.terms, &mut origins, 0);
            let text = capitalize(&render_terms(&terms, self.voice));
            self.say("Moves", text, origins);
        }
    }

    /// `choose`, `rotate or shift`: what a move is, as an order ("choose Rock, Paper or
    /// Scissors", "rotate or shift the piece"). Verbs with one object share it.
    fn actions(&self, moves: &[Word]) -> String {
        let choices = self.game.board_start.as_ref().map(|start| {
            join_or(
                &start
                    .value
                    .iter()
                    .flatten()
                    .map(|c| c.text.clone())
                    .collect::<Vec<_>>(),
            )
        });
        let mut groups: Vec<(Vec<String>, String)> = Vec::new();
        for kind in moves {
            let (verb, object) = match key(&kind.text).as_str() {
                "choose" => (
                    "choose".to_owned(),
                    choices
                        .clone()
                        .unwrap_or_else(|| "one of the pieces".to_owned()),
                ),
                "place" => ("place".to_owned(), "a piece on an empty square".to_owned()),
                "rotate" | "shift" | "turn" | "flip" => {
                    (kind.text.to_lowercase(), "the piece".to_owned())
                }
                "move" | "drop" | "capture" | "remove" => {
                    (kind.text.to_lowercase(), "a piece".to_owned())
                }
                _ => (kind.text.to_lowercase(), String::new()),
            };
            match groups.last_mut() {
                Some((verbs, last_object)) if *last_object == object => verbs.push(verb),
                _ => groups.push((vec![verb], object)),
            }
        }
        let phrases: Vec<String> = groups
            .into_iter()
            .map(|(verbs, object)| {
                format!("{} {object}", join_or(&verbs))
                    .trim_end()
                    .to_owned()
            })
            .collect();
        join_or(&phrases)
    }

    /// The terms with each defined name they use followed by its meaning in parentheses: `Fold`
    /// → "Fold (you lose)". Nested groups are followed to the depth the lowering allows.
    fn inline_definitions(
        &mut self,
        terms: &[Term],
        origins: &mut Vec<Origin>,
        depth: usize,
    ) -> Vec<Term> {
        terms
            .iter()
            .map(|term| {
                let (name, head) = match term {
                    Term::Word(word) => (word, spoken_name(&word.text)),
                    Term::Call(call) => (&call.function, phrase::render_call(call, self.voice)),
                    Term::Group(inner) if depth < 8 => {
                        let terms = self.inline_definitions(&inner.terms, origins, depth + 1);
                        return Term::Group(Box::new(Value {
                            terms,
                            range: inner.range,
                        }));
                    }
                    other => return other.clone(),
                };
                match self.meaning(&name.text) {
                    Some((index, meaning)) => {
                        let definition = &self.game.definitions[index];
                        origins.push(definition.origin);
                        self.used.push(index);
                        Term::Opaque(Word {
                            text: format!("{head} ({meaning})"),
                            range: name.range,
                        })
                    }
                    None => term.clone(),
                }
            })
            .collect()
    }

    /// The index and English of the phrase `name` is defined as.
    fn meaning(&self, name: &str) -> Option<(usize, String)> {
        let key = key(name);
        let index = self.game.definitions.iter().position(|d| {
            d.value.name.key() == key && d.value.body.slot() == DefinitionSlot::Meaning
        })?;
        match &self.game.definitions[index].value.body {
            DefinitionBody::Phrase(value) => Some((index, render(value, self.voice))),
            _ => None,
        }
    }

    fn goal(&mut self) {
        let game = self.game;
        if let Some(goal) = &game.goal {
            let mut origins = vec![goal.origin];
            let text = match goal.value.single() {
                Some(Term::Word(word)) => match self.meaning(&word.text) {
                    Some((index, meaning)) => {
                        origins.push(game.definitions[index].origin);
                        self.used.push(index);
                        format!("The goal is {}: {meaning}", spoken_name(&word.text))
                    }
                    None => format!("The goal is {}", spoken_name(&word.text)),
                },
                Some(Term::Call(call))
                    if forms::GOAL_FUNCTIONS.contains(&key(&call.function.text).as_str()) =>
                {
                    let verb = if matches!(key(&call.function.text).as_str(), "highest" | "lowest")
                    {
                        "hold"
                    } else {
                        "get"
                    };
                    format!(
                        "The goal is to {verb} {}",
                        phrase::render_call(call, self.voice)
                    )
                }
                _ => format!("The goal is {}", render(&goal.value, self.voice)),
            };
            self.say("Goal", text, origins);
        }
        if let Some(origin) = game.score_increments {
            self.say(
                "Goal",
                "Each time you reach the goal, your score goes up by one".to_owned(),
                vec![origin],
            );
        }
        if let Some(ending) = &game.ending {
            let text = format!("The game ends when {}", render(&ending.value, self.voice));
            self.say("Goal", text, vec![ending.origin]);
        }
    }

    fn terms(&mut self) {
        let game = self.game;
        for (index, definition) in game.definitions.iter().enumerate() {
            if self.used.contains(&index) {
                continue;
            }
            let Definition {
                name,
                parameters,
                verb,
                body,
            } = &definition.value;
            let text = match body {
                DefinitionBody::Phrase(value) => {
                    let meaning = render(value, self.voice);
                    match verb {
                        Verb::Means => format!("{} means that {meaning}", spoken_name(&name.text)),
                        Verb::Is | Verb::Are => {
                            format!("{} {} {meaning}", spoken_name(&name.text), verb_text(*verb))
                        }
                    }
                }
                DefinitionBody::Code(code) => format!(
                    "{}{} is computed by code in EGGG's implementation language, kept as written and not run here: `{}`",
                    name.text,
                    parameters.as_ref().map_or("", |p| p.text.as_str()),
                    code.text.split_whitespace().collect::<Vec<_>>().join(" ")
                ),
                // Patterns outside the card reading, said as written.
                DefinitionBody::Pattern(tuples) => {
                    let cards: Vec<String> = tuples
                        .iter()
                        .map(|t| {
                            format!(
                                "({})",
                                t.iter()
                                    .map(|v| render(v, self.voice))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        })
                        .collect();
                    format!("{} is {}", spoken_name(&name.text), cards.join(" and "))
                }
                DefinitionBody::Kinds(_) | DefinitionBody::Quantity { .. } => continue,
            };
            self.say("Terms", text, vec![definition.origin]);
        }
        for assertion in &game.assertions {
            let (name, condition) = &assertion.value;
            let text = format!(
                "{} works only when {}",
                spoken_name(&name.text),
                render(condition, self.voice)
            );
            self.say("Terms", text, vec![assertion.origin]);
        }
    }
}

fn verb_text(verb: Verb) -> &'static str {
    match verb {
        Verb::Is => "is",
        Verb::Are => "are",
        Verb::Means => "means",
    }
}

impl EggExplanation {
    /// The instructions as text: the title, a heading per section, one bullet per sentence
    /// wrapped at `width` columns, and the classification.
    pub fn to_plain_text(&self, width: usize) -> String {
        let mut out = format!("{}\n", self.title);
        let bullets = |out: &mut String, heading: &str, lines: Vec<&str>| {
            out.push_str(&format!("\n{heading}\n"));
            for line in lines {
                crate::wrap::wrap_into(out, line, "  - ", "    ", width);
            }
        };
        for section in &self.sections {
            bullets(
                &mut out,
                section.title,
                section.sentences.iter().map(|s| s.text.as_str()).collect(),
            );
        }
        let attributes = self.classification.lines();
        bullets(
            &mut out,
            "Classification (Orwant's twelve attributes)",
            attributes.iter().map(String::as_str).collect(),
        );
        out
    }
}

//! The seed's taxonomy: games classified by twelve attributes of *process* (frenetics, history,
//! synchrony, movement, topology, board, pieces, compartments, genre, information, referees,
//! endings), each read off the model with the statements it rests on. An attribute nothing in
//! the description speaks to says so ("not stated") rather than guess.

use crate::egg::egg_game;
use crate::egg::english::phrase::{Voice, render};
use crate::egg::inherit::mentions;
use crate::egg::model::{DefinitionBody, EggGame, Origin, Term, TurnOrder};
use crate::egg::words::{article, join_and, join_or, key, number_word};
use crate::{Db, SourceFile};

/// The twelve attributes, in the seed's order.
pub const ATTRIBUTES: [&str; 12] = [
    "Frenetics",
    "History",
    "Synchrony",
    "Movement",
    "Topology",
    "Board",
    "Pieces",
    "Compartments",
    "Genre",
    "Information",
    "Referees",
    "Endings",
];

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Classification {
    /// One per name of [`ATTRIBUTES`], in that order.
    pub attributes: Vec<Attribute>,
}

impl Classification {
    /// One line per attribute, "Synchrony: simultaneous: everyone moves at once": what
    /// `ludeme explain` prints and a hover can show.
    pub fn lines(&self) -> Vec<String> {
        self.attributes
            .iter()
            .map(|attribute| format!("{}: {}", attribute.name, attribute.value))
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attribute {
    pub name: &'static str,
    /// The class and, briefly, why: "simultaneous: everyone moves at once".
    pub value: String,
    /// The statements it rests on.
    pub origins: Vec<Origin>,
}

/// The classification of the game `file` describes (for `ludeme explain` and the hover of
/// `game is`).
#[salsa::tracked(returns(ref))]
pub fn egg_classification(db: &dyn Db, file: SourceFile) -> Classification {
    classify(egg_game(db, file))
}

/// What the game's statements say about each attribute.
pub fn classify(game: &EggGame) -> Classification {
    let signals = Signals::read(game);
    let values: [(String, Vec<Origin>); 12] = [
        frenetics(&signals),
        history(game),
        synchrony(game),
        movement(game),
        topology(game, &signals),
        board(game, &signals),
        pieces(game, &signals),
        compartments(game, &signals),
        genre(game, &signals),
        information(game, &signals),
        referees(game),
        endings(game),
    ];
    Classification {
        attributes: ATTRIBUTES
            .iter()
            .zip(values)
            .map(|(name, (value, origins))| Attribute {
                name,
                value,
                origins,
            })
            .collect(),
    }
}

/// Facts several attributes share.
struct Signals {
    /// A rule that moves pieces by themselves or sets the speed (`pieces fall ...`).
    real_time: Option<Origin>,
    /// A hand of cards (`hand is five cards`).
    cards: Option<(u64, Origin)>,
    /// Betting (`bet(money)`) in the steps.
    betting: Option<Origin>,
    /// Whether the description says how the game is played at all (see [`describes_play`]).
    describes_play: bool,
}

impl Signals {
    fn read(game: &EggGame) -> Signals {
        let real_time = game
            .rules
            .iter()
            .find(|rule| {
                let mut words = rule.value.key.split(' ');
                let (subject, verb) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                matches!(subject, "speed" | "time")
                    || (subject == "piece" && matches!(verb, "fall" | "bounce" | "drop" | "slide"))
            })
            .map(|rule| rule.origin);
        let cards = game.definitions.iter().find_map(|d| match &d.value.body {
            DefinitionBody::Quantity { count, of } if of.key() == "card" => {
                Some((*count, d.origin))
            }
            _ => None,
        });
        let betting = game
            .steps
            .as_ref()
            .filter(|steps| steps.value.iter().any(|step| mentions(step, "bet")))
            .map(|steps| steps.origin);
        Signals {
            real_time,
            cards,
            betting,
            describes_play: describes_play(game),
        }
    }
}

/// Whether the description says how the game is played (moves, turns, steps, a goal): the
/// defaults below ("untimed", "just competitors") are inferences from such a description, and a
/// fragment such as the seed's hexagonal board gets "not stated" instead.
fn describes_play(game: &EggGame) -> bool {
    game.moves.is_some() || game.turns.is_some() || game.steps.is_some() || game.goal.is_some()
}

type Class = (String, Vec<Origin>);

fn class(value: impl Into<String>, origins: impl IntoIterator<Item = Origin>) -> Class {
    (value.into(), origins.into_iter().collect())
}

fn not_stated() -> Class {
    class("not stated", [])
}

fn frenetics(signals: &Signals) -> Class {
    match signals.real_time {
        Some(origin) => class(
            "real-time: pieces move by themselves, so play needs quick action and a pause",
            [origin],
        ),
        None if signals.describes_play => class("untimed: nothing moves until a player does", []),
        None => not_stated(),
    }
}

fn history(game: &EggGame) -> Class {
    if let Some(assertion) = game
        .assertions
        .iter()
        .find(|a| mentions(&a.value.1, "lastmove"))
    {
        return class(
            "the last move (an assertion asks for it)",
            [assertion.origin],
        );
    }
    if let Some(steps) = &game.steps {
        return class("the actions of the current round", [steps.origin]);
    }
    if !describes_play(game) {
        return not_stated();
    }
    class("none: the current position is all a player needs", [])
}

fn synchrony(game: &EggGame) -> Class {
    match (&game.turns, game.player_bounds(), &game.network) {
        (Some(turns), _, _) => match turns.value {
            TurnOrder::Synchronize => class("simultaneous: everyone moves at once", [turns.origin]),
            TurnOrder::Alternate(Some(direction)) => class(
                format!(
                    "in order, {}",
                    match direction {
                        crate::egg::model::Direction::Clockwise => "clockwise",
                        crate::egg::model::Direction::Counterclockwise => "counterclockwise",
                    }
                ),
                [turns.origin],
            ),
            TurnOrder::Alternate(None) => class("in order: players alternate", [turns.origin]),
        },
        (None, Some((1, 1)), _) => class(
            "one player: no order needed",
            game.players.iter().map(|p| p.origin),
        ),
        (None, _, Some(network)) => {
            class("asynchronous: players act when they like", [network.origin])
        }
        _ => not_stated(),
    }
}

fn movement(game: &EggGame) -> Class {
    let mut parts = Vec::new();
    let mut origins = Vec::new();
    if let Some(moves) = &game.moves {
        let kinds: Vec<String> = moves.value.iter().map(|m| m.text.to_lowercase()).collect();
        parts.push(format!("moves: {}", join_or(&kinds)));
        origins.push(moves.origin);
    }
    if let Some(steps) = &game.steps {
        parts.push(format!(
            "rounds of {} steps",
            number_word(steps.value.len() as u64)
        ));
        origins.push(steps.origin);
    }
    if parts.is_empty() {
        return not_stated();
    }
    class(join_and(&parts), origins)
}

fn topology(game: &EggGame, signals: &Signals) -> Class {
    if let Some(shape) = &game.board_shape {
        let name = shape.value.text.to_lowercase();
        return class(format!("{} {name}", article(&name)), [shape.origin]);
    }
    if let Some(grid) = &game.grid {
        let shape = match grid.value.len() {
            1 => "a line",
            3 => "a box (three dimensions)",
            _ => "a rectangle",
        };
        return class(shape, [grid.origin]);
    }
    if let Some(network) = &game.network {
        return class("zero-dimensional: a text game", [network.origin]);
    }
    if let Some((_, origin)) = signals.cards {
        return class("zero-dimensional: cards in hands, no board", [origin]);
    }
    not_stated()
}

fn board(game: &EggGame, signals: &Signals) -> Class {
    if let Some(grid) = &game.grid {
        let sizes: Vec<String> = grid.value.iter().map(u64::to_string).collect();
        let mut text = format!("a {} grid", sizes.join(" × "));
        let mut origins = vec![grid.origin];
        if let Some(cells) = &game.cell_shape {
            text.push_str(&format!(" of {}", cells.value.text.to_lowercase()));
            origins.push(cells.origin);
        }
        return class(text, origins);
    }
    if let Some(network) = &game.network {
        return class("none: text only", [network.origin]);
    }
    if let Some((_, origin)) = signals.cards {
        return class("none: cards are held in hands", [origin]);
    }
    not_stated()
}

fn pieces(game: &EggGame, signals: &Signals) -> Class {
    if let Some(pieces) = &game.pieces {
        let names: Vec<String> = pieces.value.iter().map(|p| p.text.clone()).collect();
        let kinds = names.len() as u64;
        let noun = if kinds == 1 { "kind" } else { "kinds" };
        return class(
            format!("{} {noun}: {}", number_word(kinds), join_and(&names)),
            [pieces.origin],
        );
    }
    if let Some((count, origin)) = signals.cards {
        return class(
            format!("cards, in hands of {}", number_word(count)),
            [origin],
        );
    }
    not_stated()
}

fn compartments(game: &EggGame, signals: &Signals) -> Class {
    if let Some((_, origin)) = signals.cards {
        return class(
            "hands: each player's cards are hidden from the others",
            [origin],
        );
    }
    if let Some(turns) = game
        .turns
        .as_ref()
        .filter(|t| t.value == TurnOrder::Synchronize)
    {
        return class(
            "each choice is hidden until everyone has chosen",
            [turns.origin],
        );
    }
    if game.grid.is_some() || game.pieces.is_some() {
        return class("none: everything is in view", []);
    }
    not_stated()
}

fn genre(game: &EggGame, signals: &Signals) -> Class {
    if let Some(origin) = signals.betting {
        return class("gambling: players bet money", [origin]);
    }
    if let Some(origin) = signals.real_time {
        return class("arcade", [origin]);
    }
    if let Some(network) = &game.network {
        return class("networked text game", [network.origin]);
    }
    if let Some(goal) = game.goal.as_ref().filter(|g| mentions(&g.value, "level")) {
        return class("puzzle: levels to work out", [goal.origin]);
    }
    if !describes_play(game) {
        return not_stated();
    }
    class("abstract: no theme", [])
}

fn information(game: &EggGame, signals: &Signals) -> Class {
    if let Some(origin) = signals.betting {
        return class(
            "bets tell the others about a hand, truthfully or as a bluff",
            [origin],
        );
    }
    if let Some(network) = &game.network {
        return class("players send each other messages", [network.origin]);
    }
    if let Some(turns) = game
        .turns
        .as_ref()
        .filter(|t| t.value == TurnOrder::Synchronize)
    {
        return class("none until the moves are revealed", [turns.origin]);
    }
    if !describes_play(game) {
        return not_stated();
    }
    class("every move is seen by everyone", [])
}

fn referees(game: &EggGame) -> Class {
    const DEALING: &[&str] = &["deal", "shuffle", "compare"];
    if let Some(steps) = game.steps.as_ref().filter(|steps| {
        steps
            .value
            .iter()
            .any(|step| DEALING.iter().any(|action| mentions(step, action)))
    }) {
        return class(
            "the program deals and compares, as dealer and umpire",
            [steps.origin],
        );
    }
    if let Some(turns) = game
        .turns
        .as_ref()
        .filter(|t| t.value == TurnOrder::Synchronize)
    {
        return class(
            "the program umpires: it reveals the simultaneous choices",
            [turns.origin],
        );
    }
    if let Some(network) = &game.network {
        return class("the server relays and arbitrates", [network.origin]);
    }
    if !describes_play(game) {
        return not_stated();
    }
    class("none: just competitors", [])
}

fn endings(game: &EggGame) -> Class {
    if let Some(ending) = &game.ending {
        return class(
            format!("when {}", render(&ending.value, Voice::default())),
            [ending.origin],
        );
    }
    if let Some(goal) = &game.goal {
        if let Some(Term::Call(call)) = goal.value.single()
            && matches!(key(&call.function.text).as_str(), "maximize" | "minimize")
        {
            return class(
                "open: play goes on as long as the player can",
                [goal.origin],
            );
        }
        if let Some(origin) = game.score_increments {
            return class(
                "in rounds: each round is scored, and play goes on round after round",
                [origin, goal.origin],
            );
        }
        if let Some(steps) = &game.steps {
            return class(
                "in rounds: each round ends when the hands are compared",
                [steps.origin, goal.origin],
            );
        }
        if let Some(word) = goal.value.single_word() {
            return class(
                format!("when a player achieves {}", word.text),
                [goal.origin],
            );
        }
        return class(
            format!("when {} is reached", render(&goal.value, Voice::default())),
            [goal.origin],
        );
    }
    not_stated()
}

//! The EGGG game model: what the statements of a file (and of the games it is like) say, in a
//! form an engine, the checks and the English renderer can read without the syntax tree.
//!
//! Two levels:
//! - [`EggFile`]: the statements of one file, each lowered to a [`StatementKind`], in the order
//!   written, with the ranges they come from. No other file is consulted.
//! - [`EggGame`]: the game a file describes after `X is like Y` is resolved: the statements of
//!   the bases applied first, the file's own last, each later statement replacing the one it
//!   overrides. Every part remembers its [`Origin`] (file and range), so that a diagnostic, a
//!   sentence of English or a go-to-definition can point at the statement that said it.
//!
//! Values keep the shape the designer wrote ([`Value`], [`Term`]): EGGG gives no precedence to
//! `and`/`or` and mixes them with plain words, so the model does not pretend to more structure
//! than the language has. Code escapes are kept as text ([`DefinitionBody::Code`]) and are never
//! executed.

use crate::egg::words;
use crate::{SourceFile, TextRange};

/// A word as written, with its range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Word {
    pub text: String,
    pub range: TextRange,
}

impl Word {
    /// The comparison key: case and number ignored (see [`words::key`]).
    pub fn key(&self) -> String {
        words::key(&self.text)
    }
}

/// A value: one term, or a phrase of several (`player removes 0..3 cards or 4 cards if Ace`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    pub terms: Vec<Term>,
    pub range: TextRange,
}

impl Value {
    /// The value's only term, when it has exactly one.
    pub fn single(&self) -> Option<&Term> {
        match self.terms.as_slice() {
            [term] => Some(term),
            _ => None,
        }
    }

    /// The value's only term when it is a word.
    pub fn single_word(&self) -> Option<&Word> {
        match self.single() {
            Some(Term::Word(word)) => Some(word),
            _ => None,
        }
    }

    /// The value split at every top-level connective `connective`: `A and B and C` → [A, B, C].
    /// Parts keep their terms; an empty part (a leading or doubled connective) is dropped.
    pub fn split(&self, connective: Connective) -> Vec<&[Term]> {
        self.terms
            .split(|term| matches!(term, Term::Connective(c, _) if *c == connective))
            .filter(|part| !part.is_empty())
            .collect()
    }
}

/// `and`, `or`, `if`, `not`: kept in place in phrases (EGGG gives them no precedence).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Connective {
    And,
    Or,
    If,
    Not,
}

impl Connective {
    pub fn as_str(self) -> &'static str {
        match self {
            Connective::And => "and",
            Connective::Or => "or",
            Connective::If => "if",
            Connective::Not => "not",
        }
    }
}

/// One term of a value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Word(Word),
    /// A number as written (`5`, `0.5`).
    Number(Word),
    /// A string's contents, without the quotes.
    Text(Word),
    /// `2..6`, `1..N-1`.
    Range(Box<RangeTerm>),
    /// `5 × 5`, `2 × 3 × 4`.
    Dimensions {
        sizes: Vec<u64>,
        range: TextRange,
    },
    /// `[a, b]`.
    List {
        items: Vec<Value>,
        range: TextRange,
    },
    /// `(R-1, S)`.
    Tuple {
        items: Vec<Value>,
        range: TextRange,
    },
    /// `(bet(money) or Fold)`.
    Group(Box<Value>),
    /// `Deal(cards, 5)`.
    Call(Box<Call>),
    /// `5-N`, `R - 1`.
    Arithmetic(Box<Arithmetic>),
    Connective(Connective, TextRange),
    /// Text kept as written: nesting deeper than the lowering follows, or a syntax error.
    Opaque(Word),
}

impl Term {
    pub fn range(&self) -> TextRange {
        match self {
            Term::Word(word) | Term::Number(word) | Term::Text(word) | Term::Opaque(word) => {
                word.range
            }
            Term::Range(range) => range.range,
            Term::Dimensions { range, .. }
            | Term::List { range, .. }
            | Term::Tuple { range, .. }
            | Term::Connective(_, range) => *range,
            Term::Group(value) => value.range,
            Term::Call(call) => call.range,
            Term::Arithmetic(arithmetic) => arithmetic.range,
        }
    }

    /// The number of a term that is a whole number literal.
    pub fn whole_number(&self) -> Option<u64> {
        match self {
            Term::Number(word) => word.text.parse().ok(),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RangeTerm {
    pub start: Term,
    pub end: Term,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    pub function: Word,
    pub arguments: Vec<Value>,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arithmetic {
    pub left: Term,
    pub operator: char,
    pub right: Term,
    pub range: TextRange,
}

/// How many may play, or who.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Players {
    /// `2 players`, `2..6 players`, `players are 0..20`: `min == max` for an exact count.
    /// A reversed range is kept as written (and reported).
    Count {
        min: u64,
        max: u64,
        range: TextRange,
    },
    /// `players are white and black`, in the order written.
    Named(Vec<Word>),
}

impl Players {
    /// The fewest and most players, in increasing order.
    pub fn bounds(&self) -> (u64, u64) {
        match self {
            Players::Count { min, max, .. } => ((*min).min(*max), (*min).max(*max)),
            Players::Named(names) => {
                let n = u64::try_from(names.len()).unwrap_or(u64::MAX);
                (n, n)
            }
        }
    }

    /// The names as a set: written order does not count (`white and black` = `black and white`).
    pub fn name_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = match self {
            Players::Named(names) => names.iter().map(Word::key).collect(),
            Players::Count { .. } => Vec::new(),
        };
        keys.sort();
        keys
    }
}

/// `turns alternate [clockwise]`, `turns synchronize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TurnOrder {
    Alternate(Option<Direction>),
    Synchronize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Clockwise,
    Counterclockwise,
}

/// `means`, `is`, `are`: how a definition was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verb {
    Is,
    Are,
    Means,
}

/// What a name is defined as.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DefinitionBody {
    /// `Fold means player loses`, `ThreeInARow means three pieces in a row ...`.
    Phrase(Value),
    /// `StraightFlush is (R, S) and (R-1, S) and ...`: one tuple per item (card), joined by
    /// `and`. An upper-case variable must be equal in every tuple, a lower-case one is free, and
    /// `R-1` is one less than `R`.
    Pattern(Vec<Vec<Value>>),
    /// `hands are [StraightFlush, FourKind, ...]`: the kinds of the thing, best first.
    Kinds(Vec<Word>),
    /// `hand is five cards`: how many of what.
    Quantity { count: u64, of: Word },
    /// `Tester(1) is Tot++ if grid[x][y]; return Tot > 12`: code in the implementation
    /// language, kept as text and never executed.
    Code(Word),
}

impl DefinitionBody {
    /// Definitions of one name in different slots do not conflict: `hands are [...]` lists the
    /// kinds of hand, `hand is five cards` says what one hand is (and number is ignored, so both
    /// define `hand`).
    pub fn slot(&self) -> DefinitionSlot {
        match self {
            DefinitionBody::Kinds(_) => DefinitionSlot::Kinds,
            _ => DefinitionSlot::Meaning,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DefinitionSlot {
    Meaning,
    Kinds,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Definition {
    /// The name; for a code escape such as `Tester(1)` the call's function name.
    pub name: Word,
    /// The arguments of a name written as a call (`Tester(1)`), as text.
    pub parameters: Option<Word>,
    pub verb: Verb,
    pub body: DefinitionBody,
}

/// A rule in the designer's words whose subject the model knows (`pieces fall from top to
/// bottom`, `Line removes row and score increments`). Kept as written; the English renders it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// What a later rule overrides: the subject's and the verb's keys (`piece fall`), so that
    /// SideTetris's `pieces fall from left to right` replaces Tetris's `from top to bottom`.
    pub key: String,
    pub value: Value,
}

/// One statement, lowered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StatementKind {
    /// `game is poker`.
    GameName(Word),
    /// `SideTetris is like Tetris`: also names this game.
    Like {
        name: Word,
        base: Word,
    },
    Players(Players),
    Turns(TurnOrder),
    /// `move is choose`, `move is rotate or shift`.
    Moves(Vec<Word>),
    /// `pieces are Rock and Paper and Scissors`, `pieces are [I, O, T]`.
    Pieces(Vec<Word>),
    /// `3 × 1 grid`.
    Grid(Vec<u64>),
    /// `board is hexagon`.
    BoardShape(Word),
    /// `squares are hexagons`.
    CellShape(Word),
    /// `board starts [[Rock, Paper, Scissors]]`: rows of cells.
    BoardStart(Vec<Vec<Word>>),
    Definition(Definition),
    /// `goal is Beat`, `goal is highest(hand)`.
    Goal(Value),
    /// `game is Shuffle(deck) and Deal(cards, 5) and ...`: the steps of a round, in order.
    Steps(Vec<Value>),
    /// `score increments`: each goal reached scores a point.
    ScoreIncrements,
    /// `game ends if pieces reach top`: the condition.
    Ending(Value),
    Rule(Rule),
    /// `assert VoteYes: lastmove("Understand")`.
    Assert {
        name: Word,
        condition: Value,
    },
    /// `networked multiplayer text game`: the words before `game`.
    Network(Vec<Word>),
    /// `port 10900`.
    Port(u64),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Statement {
    pub kind: StatementKind,
    /// The whole statement.
    pub range: TextRange,
}

/// A statement the model does not understand, with the closest form it knows.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnknownStatement {
    pub range: TextRange,
    /// A form of [`crate::egg::forms::FORMS`], when one is close enough to suggest.
    pub suggestion: Option<&'static str>,
    /// Why the statement was not understood, when more can be said than "unknown".
    pub reason: Option<String>,
}

/// The statements of one file, on their own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EggFile {
    pub statements: Vec<Statement>,
    pub unknown: Vec<UnknownStatement>,
}

impl EggFile {
    /// The `X is like Y` statements, in order (one is expected).
    pub fn likes(&self) -> impl Iterator<Item = (&Word, &Word, TextRange)> {
        self.statements
            .iter()
            .filter_map(|statement| match &statement.kind {
                StatementKind::Like { name, base } => Some((name, base, statement.range)),
                _ => None,
            })
    }

    /// The name this file gives its game: the last `game is NAME` or `NAME is like ...`.
    pub fn declared_name(&self) -> Option<&Word> {
        self.statements
            .iter()
            .filter_map(|statement| match &statement.kind {
                StatementKind::GameName(name) | StatementKind::Like { name, .. } => Some(name),
                _ => None,
            })
            .next_back()
    }
}

/// Where a part of a game was said: a file and the statement's range in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    pub file: SourceFile,
    pub range: TextRange,
}

/// A part of the game with the statement that said it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

/// A game the described one is like, directly or through others.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ancestor {
    /// The name the base is known by (its `game is`, its own `is like` name, or its file stem).
    pub name: String,
    pub file: SourceFile,
}

/// The game a file describes, with `is like` resolved and overrides applied.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EggGame {
    /// The game's name as written (`game is`, `X is like`), or the file's stem.
    pub title: String,
    /// The games this one is like, nearest first (`Pong` → SquareBounce, BounceFast, ...).
    pub ancestors: Vec<Ancestor>,
    pub players: Option<Sourced<Players>>,
    pub turns: Option<Sourced<TurnOrder>>,
    pub moves: Option<Sourced<Vec<Word>>>,
    pub pieces: Option<Sourced<Vec<Word>>>,
    pub grid: Option<Sourced<Vec<u64>>>,
    pub board_shape: Option<Sourced<Word>>,
    pub cell_shape: Option<Sourced<Word>>,
    pub board_start: Option<Sourced<Vec<Vec<Word>>>>,
    pub definitions: Vec<Sourced<Definition>>,
    pub goal: Option<Sourced<Value>>,
    pub steps: Option<Sourced<Vec<Value>>>,
    pub score_increments: Option<Origin>,
    pub ending: Option<Sourced<Value>>,
    pub rules: Vec<Sourced<Rule>>,
    pub assertions: Vec<Sourced<(Word, Value)>>,
    pub network: Option<Sourced<Vec<Word>>>,
    pub port: Option<Sourced<u64>>,
    /// When no statement says who plays but `opponent` is named (rock-paper-scissors' `Beat`),
    /// two players are implied: the player and the opponent. The origin of the first mention.
    pub implied_opponent: Option<Origin>,
}

impl EggGame {
    /// The definition of `name` in `slot` (case and number ignored).
    pub fn definition(&self, name: &str, slot: DefinitionSlot) -> Option<&Sourced<Definition>> {
        let key = words::key(name);
        self.definitions
            .iter()
            .find(|d| d.value.name.key() == key && d.value.body.slot() == slot)
    }

    /// Whether `name` is defined in any slot.
    pub fn is_defined(&self, name: &str) -> bool {
        let key = words::key(name);
        self.definitions.iter().any(|d| d.value.name.key() == key)
    }

    /// Whether `name` is one of the pieces.
    pub fn is_piece(&self, name: &str) -> bool {
        let key = words::key(name);
        self.pieces
            .as_ref()
            .is_some_and(|pieces| pieces.value.iter().any(|piece| piece.key() == key))
    }

    /// Who moves first: the first player named (`players are x and o`: x). Order counts for
    /// nothing else (the roster and comparisons ignore it), but an engine needs a first player.
    pub fn first_player(&self) -> Option<&Word> {
        match &self.players.as_ref()?.value {
            Players::Named(names) => names.first(),
            Players::Count { .. } => None,
        }
    }

    /// The fewest and most players: stated, or implied by an opponent (two).
    pub fn player_bounds(&self) -> Option<(u64, u64)> {
        match (&self.players, self.implied_opponent) {
            (Some(players), _) => Some(players.value.bounds()),
            (None, Some(_)) => Some((2, 2)),
            (None, None) => None,
        }
    }
}

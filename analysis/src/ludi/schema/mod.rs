//! The Ludi GDL keyword schema, as data.
//!
//! Every ludeme the language knows is one [`Ludeme`] entry of [`LUDEMES`]: its name, its
//! [`Kind`] (which decides where it may stand), whether it is written as a list `(name ...)` or
//! a bare word, its [`Param`]s with their types and counts, the default that applies when it is
//! absent, a one-line meaning, an example and the English template. The binder (which matches a
//! written list to its entry), the checks, completion, hovers, the English renderer and the
//! manual (`docs/ludi.md`) all read this one table; nothing else knows what a ludeme takes.
//!
//! Where a ludeme may appear is not written down twice: it is derived from the parameters that
//! accept it ([`places_of`]).
//!
//! Some lists do not start with a keyword but with a name the game declares: `(White N)` in
//! `players`, `(Stone All (moves ...))` in `pieces`, `(All win (in-a-row 3))` in `end`,
//! `(Stone White)` in `place`. These are *records* ([`Form::Record`]): their entry describes the
//! arguments after the name.

mod table;

pub use table::LUDEMES;

/// What kind of thing a ludeme is; a parameter accepts ludemes by kind (or one ludeme by name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// The root, `(game NAME ...)`.
    Game,
    /// A fixed part of one particular ludeme (`players`, `tiling`, `pre`, ...), accepted by name.
    Part,
    /// A tiling type word: `square`, `hex`, ...
    Tiling,
    /// A board shape word: `square`, `hex`, `rhombus`, ...
    Shape,
    /// A compass direction word: `N`, `NE`, ...
    Compass,
    /// A turtle step word, relative to a piece's orientation: `f`, `b`, `l`, `r`.
    Turtle,
    /// A cell of a move: `from`, `to`, `current`.
    CellRef,
    /// What a cell may hold, counted or tested: `empty`, `enemy`, `friend`, `any`.
    Occupant,
    /// A boolean test on the position and the move (in `pre` and `if`).
    Condition,
    /// An integer-valued function of the position and the move.
    Function,
    /// What a move does (in `action`): `pass`, `pop`, `push`.
    Action,
    /// What happens after a move (in `post`): `capture`, `convert`, `inc-state`, ...
    Effect,
    /// Which pieces a `capture` or `convert` takes: `surround`, `d-nbors`, ...
    Method,
    /// A clause of `start`: `place`, `in-hand`.
    StartClause,
    /// A place named by a word in `place`: `home`.
    Location,
    /// A symmetry of the board in `place`'s `symmetric`: `half-turn`, `reflect`.
    Symmetry,
    /// A constraint of `play`: `can-pass`.
    PlayOption,
    /// A result of an end clause: `win`, `lose`, `draw`.
    Result,
    /// A condition of an end clause: `in-a-row`, `connect`, `no-move`, ...
    EndCondition,
    /// What happens when a move ends the game for several players: `mover-wins`, ...
    TieRule,
    /// A metadata item of `support`.
    Support,
    /// A record: a list headed by a declared name (see [`Form::Record`]).
    Record,
    /// `and`, `or`, `not`: logic over conditions of whatever kind the place expects.
    Logic,
}

impl Kind {
    /// How the manual and the messages name this kind.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Game => "the game",
            Kind::Part => "a part of a ludeme",
            Kind::Tiling => "a tiling type",
            Kind::Shape => "a board shape",
            Kind::Compass => "a compass direction",
            Kind::Turtle => "a turtle step",
            Kind::CellRef => "a cell of the move",
            Kind::Occupant => "a kind of cell content",
            Kind::Condition => "a move condition",
            Kind::Function => "a number function",
            Kind::Action => "an action",
            Kind::Effect => "a post-condition",
            Kind::Method => "a capture method",
            Kind::StartClause => "a start clause",
            Kind::Location => "a start location",
            Kind::Symmetry => "a board symmetry",
            Kind::PlayOption => "a play constraint",
            Kind::Result => "a result",
            Kind::EndCondition => "an end condition",
            Kind::TieRule => "a tie rule",
            Kind::Support => "a support item",
            Kind::Record => "a record",
            Kind::Logic => "a logical operator",
        }
    }

    /// The manual's section heading for entries of this kind, in the manual's order.
    pub fn section(self) -> &'static str {
        match self {
            Kind::Game | Kind::Part => "Structure",
            Kind::Record => "Records",
            Kind::Tiling | Kind::Shape | Kind::Compass | Kind::Turtle => "Board words",
            Kind::CellRef | Kind::Occupant => "Cells of a move",
            Kind::Condition | Kind::Logic => "Conditions and logic",
            Kind::Function => "Functions",
            Kind::Action => "Actions",
            Kind::Effect | Kind::Method => "Post-conditions",
            Kind::StartClause | Kind::Location | Kind::Symmetry => "Start",
            Kind::PlayOption => "Play",
            Kind::Result | Kind::EndCondition | Kind::TieRule => "End",
            Kind::Support => "Support",
        }
    }
}

/// The names a game declares and refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Namespace {
    Game,
    Player,
    Piece,
    Region,
    /// A flag of a piece (declared where it is used).
    Flag,
    /// An advisor of the strategy module (free names, weighted in `advisors`).
    Advisor,
}

impl Namespace {
    pub fn describe(self) -> &'static str {
        match self {
            Namespace::Game => "game",
            Namespace::Player => "player",
            Namespace::Piece => "piece",
            Namespace::Region => "region",
            Namespace::Flag => "flag",
            Namespace::Advisor => "advisor",
        }
    }
}

/// How a ludeme is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `(name args...)`.
    List,
    /// `name` alone.
    Word,
    /// Either `name` or `(name)`: a flag that takes no arguments.
    Either,
    /// `(NAME args...)` where `NAME` declares or names something of the namespace.
    Record {
        namespace: Namespace,
        declares: bool,
    },
}

/// What one argument may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Accepts {
    /// An integer literal at least `min`.
    Integer { min: i64 },
    /// An integer or decimal literal.
    Number,
    /// A string literal.
    Text,
    /// A cell name such as `A1`.
    Cell,
    /// A bare name that declares something (the game's name, a player's name).
    Declares(Namespace),
    /// A bare name referring to something declared.
    Refers(Namespace),
    /// A player's name or `All`.
    PlayerType,
    /// The `Part` ludeme with this name.
    Part(&'static str),
    /// Any ludeme of this kind (records included, when the kind is [`Kind::Record`] they
    /// are named by [`Accepts::Record`]).
    Kind(Kind),
    /// The record ludeme with this name (`piece definition`, `end clause`, ...).
    Record(&'static str),
    /// A condition of the kind the place of the enclosing logical operator expects.
    SameKind,
}

impl Accepts {
    /// A description for messages and the manual: "an integer ≥ 1", "a player name or `All`".
    pub fn describe(self) -> String {
        match self {
            Accepts::Integer { min } if min <= i64::from(i32::MIN) => "an integer".to_owned(),
            Accepts::Integer { min } => format!("an integer ≥ {min}"),
            Accepts::Number => "a number".to_owned(),
            Accepts::Text => "a string".to_owned(),
            Accepts::Cell => "a cell such as `A1`".to_owned(),
            Accepts::Declares(namespace) => format!("a new {} name", namespace.describe()),
            Accepts::Refers(namespace) => format!("a {} name", namespace.describe()),
            Accepts::PlayerType => "a player name or `All`".to_owned(),
            Accepts::Part(name) => named(name)
                .find(|ludeme| ludeme.kind == Kind::Part)
                .map_or_else(|| format!("`({name} ...)`"), Ludeme::written),
            Accepts::Kind(kind) => {
                // A closed set of words is listed: "a tiling type (`tri`, `square`, ...)".
                let words: Vec<String> = LUDEMES
                    .iter()
                    .filter(|ludeme| ludeme.kind == kind)
                    .map(|ludeme| format!("`{}`", ludeme.name))
                    .collect();
                let all_words = LUDEMES
                    .iter()
                    .filter(|ludeme| ludeme.kind == kind)
                    .all(|ludeme| ludeme.form == Form::Word);
                if all_words {
                    format!("{} ({})", kind.describe(), words.join(", "))
                } else {
                    kind.describe().to_owned()
                }
            }
            Accepts::Record(name) => with_article(name),
            Accepts::SameKind => "a condition of the same kind".to_owned(),
        }
    }
}

/// One parameter of a ludeme: a named slot taking `min..=max` arguments of the accepted types.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub accepts: &'static [Accepts],
    pub min: usize,
    pub max: usize,
    /// What holds when the parameter is left out (for optional parameters); the English
    /// template shows this text in the parameter's place.
    pub default: Option<&'static str>,
    /// The word joining several arguments in English: "and" and "or" make lists ("A, B and
    /// C"), any other word is repeated ("A plus B plus C").
    pub joiner: &'static str,
}

/// "Many": no upper bound on a parameter's count.
pub const MANY: usize = usize::MAX;

impl Param {
    pub const fn new(
        name: &'static str,
        accepts: &'static [Accepts],
        min: usize,
        max: usize,
    ) -> Self {
        Self {
            name,
            accepts,
            min,
            max,
            default: None,
            joiner: "and",
        }
    }

    pub const fn joined(mut self, joiner: &'static str) -> Self {
        self.joiner = joiner;
        self
    }

    pub const fn default(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }

    pub fn is_optional(&self) -> bool {
        self.min == 0
    }

    /// "1", "0 or 1", "1 or more", "2 to 3".
    pub fn count(&self) -> String {
        match (self.min, self.max) {
            (min, max) if min == max => min.to_string(),
            (0, 1) => "optional".to_owned(),
            (min, MANY) => format!("{min} or more"),
            (min, max) => format!("{min} to {max}"),
        }
    }
}

/// Exactly one argument.
pub const fn one(name: &'static str, accepts: &'static [Accepts]) -> Param {
    Param::new(name, accepts, 1, 1)
}

/// At most one argument.
pub const fn opt(name: &'static str, accepts: &'static [Accepts]) -> Param {
    Param::new(name, accepts, 0, 1)
}

/// One or more arguments.
pub const fn some(name: &'static str, accepts: &'static [Accepts]) -> Param {
    Param::new(name, accepts, 1, MANY)
}

/// Any number of arguments.
pub const fn any(name: &'static str, accepts: &'static [Accepts]) -> Param {
    Param::new(name, accepts, 0, MANY)
}

/// One ludeme of the schema.
#[derive(Clone, Copy, Debug)]
pub struct Ludeme {
    pub name: &'static str,
    pub kind: Kind,
    pub form: Form,
    pub params: &'static [Param],
    /// One line: what it means.
    pub meaning: &'static str,
    /// What holds when the ludeme is absent from a place that may hold it.
    pub default: Option<&'static str>,
    /// A short example of it in a game.
    pub example: &'static str,
    /// The English template: text with `{param}` placeholders, and `[...]` around a part that
    /// is left out when a placeholder inside it has no argument.
    pub english: &'static str,
}

impl Ludeme {
    pub const fn new(name: &'static str, kind: Kind, form: Form, meaning: &'static str) -> Self {
        Self {
            name,
            kind,
            form,
            params: &[],
            meaning,
            default: None,
            example: "",
            english: "",
        }
    }

    pub const fn params(mut self, params: &'static [Param]) -> Self {
        self.params = params;
        self
    }

    pub const fn default(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }

    pub const fn example(mut self, example: &'static str) -> Self {
        self.example = example;
        self
    }

    pub const fn english(mut self, english: &'static str) -> Self {
        self.english = english;
        self
    }

    pub fn param(&self, name: &str) -> Option<&'static Param> {
        self.params.iter().find(|param| param.name == name)
    }

    /// The anchor of its manual entry in `docs/ludi.md`.
    pub fn anchor(&self) -> String {
        let kind = format!("{:?}", self.kind).to_ascii_lowercase();
        // Operators are spelt out, so that `>` and `<` get anchors of their own.
        let name: String = if self.name.chars().any(|c| c.is_ascii_alphanumeric()) {
            self.name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect()
        } else {
            let words: Vec<&str> = self
                .name
                .chars()
                .map(|c| match c {
                    '>' => "gt",
                    '<' => "lt",
                    '=' => "eq",
                    '!' => "not",
                    '+' => "plus",
                    '-' => "minus",
                    '*' => "times",
                    _ => "divide",
                })
                .collect();
            words.join("-")
        };
        format!("{kind}-{name}")
    }

    /// The link to its manual entry, for messages.
    pub fn manual_link(&self) -> String {
        format!("docs/ludi.md#{}", self.anchor())
    }

    /// How it is written, for messages: "`(in-a-row ...)`", "`i-nbors`", "a piece definition".
    pub fn written(&self) -> String {
        match self.form {
            Form::List => format!("`({} ...)`", self.name),
            Form::Word | Form::Either => format!("`{}`", self.name),
            Form::Record { .. } => with_article(self.name),
        }
    }

    pub fn is_record(&self) -> bool {
        matches!(self.form, Form::Record { .. })
    }
}

/// "a piece definition", "an end clause".
pub fn with_article(noun: &str) -> String {
    let article = if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {noun}")
}

/// The entries named `name` (records have no name a game writes, so never match).
pub fn named(name: &str) -> impl Iterator<Item = &'static Ludeme> + '_ {
    LUDEMES
        .iter()
        .filter(move |ludeme| !ludeme.is_record() && ludeme.name == name)
}

/// The record entry called `name`.
pub fn record(name: &str) -> Option<&'static Ludeme> {
    LUDEMES
        .iter()
        .find(|ludeme| ludeme.is_record() && ludeme.name == name)
}

/// The root entry, `game`.
pub fn game() -> &'static Ludeme {
    LUDEMES
        .iter()
        .find(|ludeme| ludeme.kind == Kind::Game)
        .expect("the schema has a game entry")
}

/// Whether a parameter accepting `accepts` inside a place expecting `same` takes `ludeme`.
pub fn accepts_ludeme(accepts: Accepts, ludeme: &Ludeme, same: Option<Kind>) -> bool {
    match accepts {
        Accepts::Part(name) => ludeme.kind == Kind::Part && ludeme.name == name,
        Accepts::Record(name) => ludeme.is_record() && ludeme.name == name,
        Accepts::Kind(kind) => {
            ludeme.kind == kind
                || (ludeme.kind == Kind::Logic
                    && matches!(kind, Kind::Condition | Kind::EndCondition))
        }
        Accepts::SameKind => {
            same.is_some_and(|kind| ludeme.kind == kind || ludeme.kind == Kind::Logic)
        }
        _ => false,
    }
}

/// Where `ludeme` may appear: every (entry, parameter) whose parameter accepts it. Logical
/// operators count as accepting what their place accepts, so they are not listed as places.
pub fn places_of(ludeme: &Ludeme) -> Vec<(&'static Ludeme, &'static Param)> {
    LUDEMES
        .iter()
        .flat_map(|parent| parent.params.iter().map(move |param| (parent, param)))
        .filter(|(_, param)| {
            param
                .accepts
                .iter()
                .any(|&accepts| accepts_ludeme(accepts, ludeme, None))
        })
        .collect()
}

/// Keywords of `candidates` that `word` plausibly misspells ([`crate::names`]), closest first,
/// at most three; for "did you mean".
pub fn suggestions<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut sorted: Vec<&str> = candidates.into_iter().collect();
    // Among equally close names, alphabetical order, whatever order the schema lists them in.
    sorted.sort_unstable();
    let mut close = crate::names::plausible_corrections(word, sorted);
    close.truncate(3);
    close
}

#[cfg(test)]
mod tests;

//! From the EGGG game model to the executable core's input (`ludeme_engine::egg::Description`):
//! players to roles, pieces to indices, `3 × 3 grid` and `squares are hexagons` to a board and
//! its axes, `goal is ThreeInARow` to line goals, `Beat means player(Rock) and
//! opponent(Scissors) or ...` to an outcome relation.
//!
//! The core is small on purpose (docs/egg.md, "What the engine plays"); every statement it does
//! not cover refuses the whole game with the statement named ([`NotExecutable`]), which
//! `egg/not-executable` reports, instead of playing a game the designer did not write. A game
//! with warnings or errors is refused too: an unknown or conflicting statement could change the
//! rules. Code escapes are never executed.

use ludeme_engine::egg::{
    Board, ChoiceTest, Description, EggEngine, Goal, LineGoal, MAX_CELLS, Moves, PieceIndex,
    Scoring, Turns,
};

use super::model::{
    Connective, Definition, DefinitionBody, DefinitionSlot, EggGame, Origin, Players, Sourced,
    Term, TurnOrder, Value, Word,
};
use super::words::{self, key, number_word_value};
use crate::engine_gate::{GateRefusal, engine_gate};
use crate::{Db, Severity, SourceFile, TextRange};

/// A statement (or a missing one) that puts the game outside the executable core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotExecutable {
    /// The statement, or `None` when what is missing is a statement.
    pub origin: Option<Origin>,
    /// Why, as a clause that follows the statement: "moves other than `place` and `choose`".
    pub reason: String,
}

impl NotExecutable {
    fn at(origin: Origin, reason: impl Into<String>) -> Self {
        NotExecutable {
            origin: Some(origin),
            reason: reason.into(),
        }
    }

    fn missing(reason: impl Into<String>) -> Self {
        NotExecutable {
            origin: None,
            reason: reason.into(),
        }
    }

    /// The statement as written, on one line, or `None` when a statement is missing.
    pub fn statement_text(&self, db: &dyn Db) -> Option<String> {
        let origin = self.origin?;
        let text = origin.file.text(db);
        let written = text.get(origin.range.start..origin.range.end)?;
        Some(written.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// "the EGGG engine cannot play `move is rotate or shift` (in tetris.egg): moves other
    /// than ...", the file named when the statement is not in `file` (it is inherited).
    pub fn message(&self, db: &dyn Db, file: SourceFile) -> String {
        let Some(statement) = self.statement_text(db) else {
            return format!("the EGGG engine cannot play this game: {}", self.reason);
        };
        let inherited = self
            .origin
            .filter(|origin| origin.file != file)
            .map(|origin| {
                let path = origin.file.path(db);
                let name = path.file_name().unwrap_or(path.as_os_str());
                format!(" (in {}, which this game is like)", name.to_string_lossy())
            });
        format!(
            "the EGGG engine cannot play `{statement}`{}: {}",
            inherited.unwrap_or_default(),
            self.reason
        )
    }
}

/// Why a file cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineRefusal {
    /// The file's diagnostics refuse the engine (see [`crate::engine_gate`]).
    Diagnostics(GateRefusal),
    /// The game is outside the core; the message names the statement.
    NotExecutable(String),
}

impl std::fmt::Display for EngineRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineRefusal::Diagnostics(refusal) => write!(f, "{refusal}"),
            EngineRefusal::NotExecutable(message) => write!(f, "{message}"),
        }
    }
}

/// The playable game of an `.egg` file, with its `is like` bases applied.
pub fn egg_engine_for(db: &dyn Db, file: SourceFile) -> Result<EggEngine, EngineRefusal> {
    // Warnings too: an EGGG statement the lowering skips may change the rules.
    engine_gate(db, file, Severity::Warning).map_err(EngineRefusal::Diagnostics)?;
    engine_of(super::egg_game(db, file))
        .map_err(|refusal| EngineRefusal::NotExecutable(refusal.message(db, file)))
}

/// The engine game of a model (without the problem check of [`egg_engine_for`]).
pub fn engine_of(game: &EggGame) -> Result<EggEngine, NotExecutable> {
    let description = description_of(game)?;
    EggEngine::new(description).map_err(|error| {
        // The lowering refuses every combination the engine does; this is a safety net.
        let origin = game
            .moves
            .as_ref()
            .or(game.pieces.as_ref())
            .map(|m| m.origin);
        NotExecutable {
            origin,
            reason: error.what,
        }
    })
}

/// The engine's description of `game`, or the first statement (in the order a player reads:
/// players, equipment, turns, moves, goal, further rules) outside the core.
pub fn description_of(game: &EggGame) -> Result<Description, NotExecutable> {
    let mut refusals = Refusals::default();
    let roles = refusals.defer(roles(game))?;
    let pieces: Vec<String> = game
        .pieces
        .iter()
        .flat_map(|p| &p.value)
        .map(|w| w.text.clone())
        .collect();
    if let Some(stated) = &game.pieces
        && pieces.len() > ludeme_engine::egg::MAX_PIECES
    {
        return Err(NotExecutable::at(
            stated.origin,
            "more kinds of piece than the engine holds",
        ));
    }
    let layout = layout(game)?;
    let (turns, moves) = match &roles {
        Some(roles) => (
            refusals.defer(turns(game, roles.len()))?,
            refusals.defer(moves(game, roles, &layout))?,
        ),
        None => (None, None),
    };
    if let (Some(Turns::Simultaneous), Some(MoveKind::Place(_)), Some(stated)) =
        (&turns, &moves, &game.turns)
    {
        return Err(NotExecutable::at(
            stated.origin,
            "placing in synchronised turns (two players could pick the same square)",
        ));
    }
    let goal = match (&roles, &moves) {
        (Some(roles), Some(moves)) => refusals.defer(goal(game, roles.len(), moves, &layout))?,
        _ => None,
    };
    beyond_the_core(game)?;
    let (Some(roles), Some(turns), Some(moves), Some(goal)) = (roles, turns, moves, goal) else {
        return Err(refusals
            .missing
            .unwrap_or_else(|| NotExecutable::missing("the game is incomplete")));
    };
    let moves = match moves {
        MoveKind::Place(pieces) => Moves::Place {
            piece_of_role: pieces,
        },
        MoveKind::Choose(options) => Moves::Choose { options },
    };
    let board = layout.board.unwrap_or_else(|| match &moves {
        // A choice needs no board: lay the options out in a row, as rock-paper-scissors does.
        Moves::Choose { options } => {
            let mut board = Board::rectangle(options.len(), 1);
            board.start = options.iter().map(|&o| Some(o)).collect();
            board
        }
        Moves::Place { .. } => Board::rectangle(0, 0),
    });
    Ok(Description {
        roles,
        pieces,
        board,
        turns,
        moves,
        goal,
        scoring: if game.score_increments.is_some() {
            Scoring::CountGoals
        } else {
            Scoring::FirstGoalWins
        },
    })
}

/// Statements outside the core are named before parts that are missing (`move is rotate or
/// shift` says more than a missing `turns` statement): a missing part waits here until every
/// statement has been looked at.
#[derive(Default)]
struct Refusals {
    missing: Option<NotExecutable>,
}

impl Refusals {
    /// The value; `None` when a part is missing (remembered); a statement's refusal at once.
    fn defer<T>(&mut self, result: Result<T, NotExecutable>) -> Result<Option<T>, NotExecutable> {
        match result {
            Ok(value) => Ok(Some(value)),
            Err(refusal) if refusal.origin.is_none() => {
                self.missing.get_or_insert(refusal);
                Ok(None)
            }
            Err(refusal) => Err(refusal),
        }
    }
}

/// The role names: the players named, `player 1` ... for a count, or the player and the
/// opponent a game implies by naming an `opponent`.
fn roles(game: &EggGame) -> Result<Vec<String>, NotExecutable> {
    match (&game.players, game.implied_opponent) {
        (
            Some(Sourced {
                value: Players::Named(names),
                ..
            }),
            _,
        ) => Ok(names.iter().map(|n| n.text.clone()).collect()),
        (
            Some(Sourced {
                value: Players::Count { min, max, .. },
                origin,
            }),
            _,
        ) => {
            if min != max {
                return Err(NotExecutable::at(
                    *origin,
                    "the engine plays a fixed number of players, not a range",
                ));
            }
            match *min {
                0 => Err(NotExecutable::at(*origin, "a game without players")),
                1 => Ok(vec!["player".to_owned()]),
                n if n < u64::from(u8::MAX) => Ok((1..=n).map(|i| format!("player {i}")).collect()),
                n => Err(NotExecutable::at(
                    *origin,
                    format!("{n} players are more than the engine holds"),
                )),
            }
        }
        (None, Some(_)) => Ok(vec!["player".to_owned(), "opponent".to_owned()]),
        (None, None) => Err(NotExecutable::missing("no statement says who plays")),
    }
}

/// The board as the statements give it, before the moves are known.
struct Layout {
    /// `None` when no statement sizes the board.
    board: Option<Board>,
    /// Whether the cells are hexagons (`squares are hexagons`), which decides the line axes.
    hexagon_cells: bool,
}

fn layout(game: &EggGame) -> Result<Layout, NotExecutable> {
    let hexagon_cells = match &game.cell_shape {
        None => false,
        Some(shape) => match key(&shape.value.text).as_str() {
            "square" => false,
            "hexagon" => true,
            _ => {
                return Err(NotExecutable::at(
                    shape.origin,
                    "cells other than squares and hexagons",
                ));
            }
        },
    };
    let hexagon_outline = match &game.board_shape {
        None => false,
        Some(shape) => match key(&shape.value.text).as_str() {
            "rectangle" | "square" | "grid" => false,
            "hexagon" if hexagon_cells => true,
            "hexagon" => {
                return Err(NotExecutable::at(
                    shape.origin,
                    "a hexagonal board needs hexagonal cells (`squares are hexagons`)",
                ));
            }
            _ => {
                return Err(NotExecutable::at(
                    shape.origin,
                    "boards other than rectangles and hexagons",
                ));
            }
        },
    };
    let size = match (&game.grid, &game.board_start) {
        (Some(grid), _) => match grid.value.as_slice() {
            &[width, height] => Some((width, height, grid.origin)),
            sizes => {
                return Err(NotExecutable::at(
                    grid.origin,
                    format!(
                        "a board of {} dimensions (the engine plays flat boards)",
                        sizes.len()
                    ),
                ));
            }
        },
        (None, Some(start)) => {
            let width = start.value.first().map_or(0, Vec::len);
            Some((width as u64, start.value.len() as u64, start.origin))
        }
        (None, None) => None,
    };
    let Some((width, height, size_origin)) = size else {
        return Ok(Layout {
            board: None,
            hexagon_cells,
        });
    };
    let cells = width.saturating_mul(height);
    if cells == 0 || cells > MAX_CELLS as u64 {
        return Err(NotExecutable::at(
            size_origin,
            format!("a board of {cells} cells (the engine plays 1 to {MAX_CELLS})"),
        ));
    }
    let (width, height) = (width as usize, height as usize);
    let mut board = Board::rectangle(width, height);
    board.hexagon_cells = hexagon_cells;
    if hexagon_outline {
        board.present = hexagon_outline_cells(width, height).ok_or_else(|| {
            NotExecutable::at(
                size_origin,
                "a hexagonal board needs an odd, equal width and height (`5 × 5 grid`)",
            )
        })?;
    }
    if let Some(start) = &game.board_start {
        if hexagon_outline {
            return Err(NotExecutable::at(
                start.origin,
                "a starting layout on a hexagonal board",
            ));
        }
        let fits = start.value.len() == height && start.value.iter().all(|row| row.len() == width);
        if !fits {
            return Err(NotExecutable::at(
                start.origin,
                format!(
                    "a starting layout that does not fill the {width} × {height} board row by row"
                ),
            ));
        }
        for (cell, word) in start.value.iter().flatten().enumerate() {
            board.start[cell] = match piece_index(game, &word.text) {
                Some(piece) => Some(piece),
                None if key(&word.text) == "empty" => None,
                None => {
                    return Err(NotExecutable::at(
                        start.origin,
                        format!("`{}`, which is neither a piece nor `empty`", word.text),
                    ));
                }
            };
        }
    }
    Ok(Layout {
        board: Some(board),
        hexagon_cells,
    })
}

/// The cells of a hexagon inscribed in a `size × size` rhombus of hexagons (axial coordinates,
/// the cell `(q, r)` at `r * size + q`): those within `size / 2` steps of the centre. `None`
/// unless the rhombus is square with an odd side.
fn hexagon_outline_cells(width: usize, height: usize) -> Option<Vec<bool>> {
    if width != height || width.is_multiple_of(2) {
        return None;
    }
    let radius = (width / 2) as i64;
    Some(
        (0..width * height)
            .map(|cell| {
                let q = (cell % width) as i64 - radius;
                let r = (cell / width) as i64 - radius;
                (q.abs() + r.abs() + (q + r).abs()) / 2 <= radius
            })
            .collect(),
    )
}

/// The index of the piece named `name` (case and number ignored).
fn piece_index(game: &EggGame, name: &str) -> Option<PieceIndex> {
    let wanted = key(name);
    let pieces = &game.pieces.as_ref()?.value;
    let index = pieces.iter().position(|piece| piece.key() == wanted)?;
    PieceIndex::try_from(index).ok()
}

fn turns(game: &EggGame, roles: usize) -> Result<Turns, NotExecutable> {
    let forward: Vec<usize> = (0..roles).collect();
    Ok(match game.turns.as_ref().map(|t| t.value) {
        Some(TurnOrder::Synchronize) => Turns::Simultaneous,
        Some(TurnOrder::Alternate(Some(super::model::Direction::Counterclockwise))) => {
            // The first player starts; play then goes round the other way.
            let mut order = vec![0];
            order.extend((1..roles).rev());
            Turns::Alternate { order }
        }
        Some(TurnOrder::Alternate(_)) => Turns::Alternate { order: forward },
        None if roles == 1 => Turns::Alternate { order: forward },
        None => {
            return Err(NotExecutable::missing(
                "no statement says how turns go (`turns alternate` or `turns synchronize`)",
            ));
        }
    })
}

enum MoveKind {
    /// Per role, the piece it places.
    Place(Vec<PieceIndex>),
    /// The pieces to choose from.
    Choose(Vec<PieceIndex>),
}

fn moves(game: &EggGame, roles: &[String], layout: &Layout) -> Result<MoveKind, NotExecutable> {
    let Some(moves) = &game.moves else {
        return Err(NotExecutable::missing(
            "no statement says what a move is (`move is place`, `move is choose`)",
        ));
    };
    let verbs: Vec<String> = moves.value.iter().map(Word::key).collect();
    let kind = match verbs
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["place"] => MoveKind::Place(pieces_of_roles(game, roles, moves.origin)?),
        ["choose"] => MoveKind::Choose(options(game, layout, moves.origin)?),
        _ => {
            return Err(NotExecutable::at(
                moves.origin,
                "the engine plays one kind of move, `place` or `choose`",
            ));
        }
    };
    Ok(kind)
}

/// Which piece each role places: the piece named like the role (`players are x and o`, `pieces
/// are X and O`), else the pieces in the order the players are named.
fn pieces_of_roles(
    game: &EggGame,
    roles: &[String],
    moves: Origin,
) -> Result<Vec<PieceIndex>, NotExecutable> {
    let Some(pieces) = &game.pieces else {
        return Err(NotExecutable::at(
            moves,
            "placing needs pieces (`pieces are X and O`)",
        ));
    };
    let by_name: Option<Vec<PieceIndex>> =
        roles.iter().map(|role| piece_index(game, role)).collect();
    if let Some(by_name) = by_name {
        return Ok(by_name);
    }
    if pieces.value.len() == roles.len() {
        return Ok((0..roles.len())
            .filter_map(|i| PieceIndex::try_from(i).ok())
            .collect());
    }
    Err(NotExecutable::at(
        pieces.origin,
        format!(
            "{} kinds of piece for {} players: which piece each player places is not said",
            pieces.value.len(),
            roles.len()
        ),
    ))
}

/// What a role chooses from: the pieces on the board at the start, or all pieces.
fn options(
    game: &EggGame,
    layout: &Layout,
    moves: Origin,
) -> Result<Vec<PieceIndex>, NotExecutable> {
    let mut options: Vec<PieceIndex> = match (&layout.board, &game.board_start) {
        (Some(board), Some(_)) => board.start.iter().flatten().copied().collect(),
        _ => (0..game.pieces.as_ref().map_or(0, |p| p.value.len()))
            .filter_map(|i| PieceIndex::try_from(i).ok())
            .collect(),
    };
    let mut seen = Vec::new();
    options.retain(|piece| {
        let new = !seen.contains(piece);
        seen.push(*piece);
        new
    });
    if options.is_empty() {
        return Err(NotExecutable::at(
            moves,
            "choosing needs pieces to choose from (`pieces are Rock and Paper and Scissors`)",
        ));
    }
    Ok(options)
}

/// The definition `goal is NAME` names, if it names one.
fn goal_definition(game: &EggGame) -> Option<&Sourced<Definition>> {
    let name = game.goal.as_ref()?.value.single_word()?;
    game.definition(&name.text, DefinitionSlot::Meaning)
}

/// The goal: line goals for placing, an outcome relation for choosing.
fn goal(
    game: &EggGame,
    roles: usize,
    moves: &MoveKind,
    layout: &Layout,
) -> Result<Goal, NotExecutable> {
    let Some(goal) = &game.goal else {
        return Err(NotExecutable::missing(
            "no statement says what the players play for",
        ));
    };
    // `goal is ThreeInARow` with `ThreeInARow means ...`: the meaning; else the goal as written.
    let (value, origin) = match goal_definition(game) {
        Some(definition) => match &definition.value.body {
            DefinitionBody::Phrase(value) => (value, definition.origin),
            _ => {
                return Err(NotExecutable::at(
                    definition.origin,
                    "the goal's definition is not a phrase the engine reads",
                ));
            }
        },
        None => (&goal.value, goal.origin),
    };
    match moves {
        MoveKind::Place(_) => {
            if layout.board.is_none() {
                return Err(NotExecutable::missing(
                    "placing needs a board (`3 × 3 grid`)",
                ));
            }
            let lines = value
                .split(Connective::Or)
                .into_iter()
                .map(|terms| line_goal(terms, layout, origin))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Goal::Lines(lines))
        }
        MoveKind::Choose(_) => {
            if roles != 2 {
                return Err(NotExecutable::at(
                    origin,
                    format!("an outcome between a player and an opponent, with {roles} players"),
                ));
            }
            let alternatives = value
                .split(Connective::Or)
                .into_iter()
                .map(|terms| choice_tests(game, terms, origin))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Goal::Outcome(alternatives))
        }
    }
}

const LINE_FORM: &str = "the engine reads lines such as `three pieces in a row` (or `column`, `diagonal`), joined by `or`";

/// `three pieces in a row`, `4 pieces in a column`, `three pieces in a diagonal`.
fn line_goal(terms: &[Term], layout: &Layout, origin: Origin) -> Result<LineGoal, NotExecutable> {
    let refuse = || NotExecutable::at(origin, LINE_FORM);
    let words: Vec<String> = terms[1..]
        .iter()
        .map(|term| match term {
            Term::Word(word) => Some(word.key()),
            _ => None,
        })
        .collect::<Option<_>>()
        .ok_or_else(refuse)?;
    let length = match &terms[0] {
        term @ Term::Number(_) => term.whole_number(),
        Term::Word(word) => number_word_value(&word.text),
        _ => None,
    }
    .and_then(|n| usize::try_from(n).ok())
    .filter(|&n| n > 0)
    .ok_or_else(refuse)?;
    let direction = match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["piece", "in", "a", direction] | ["piece", "in", direction] => (*direction).to_owned(),
        _ => return Err(refuse()),
    };
    let axes = match (layout.hexagon_cells, direction.as_str()) {
        (false, "row") => vec![(1, 0)],
        (false, "column") => vec![(0, 1)],
        (false, "diagonal") => vec![(1, 1), (1, -1)],
        // A board of hexagons has three axes and no columns or diagonals: a row runs along any.
        (true, "row") => vec![(1, 0), (0, 1), (1, -1)],
        (true, "column" | "diagonal") => {
            return Err(NotExecutable::at(
                origin,
                format!(
                    "a board of hexagons has no {direction}s (its lines are rows along its three axes)"
                ),
            ));
        }
        _ => return Err(refuse()),
    };
    Ok(LineGoal { length, axes })
}

/// `player(Rock) and opponent(Scissors)`: tests that must all hold.
fn choice_tests(
    game: &EggGame,
    terms: &[Term],
    origin: Origin,
) -> Result<Vec<ChoiceTest>, NotExecutable> {
    let refuse = || {
        NotExecutable::at(
            origin,
            "the engine reads outcomes such as `player(Rock) and opponent(Scissors)`, joined by `or`, naming pieces",
        )
    };
    let value = Value {
        terms: terms.to_vec(),
        range: TextRange::empty(0),
    };
    value
        .split(Connective::And)
        .into_iter()
        .map(|part| match part {
            [Term::Call(call)] => {
                let [argument] = call.arguments.as_slice() else {
                    return Err(refuse());
                };
                let piece = argument
                    .single_word()
                    .and_then(|word| piece_index(game, &word.text))
                    .ok_or_else(refuse)?;
                match words::key(&call.function.text).as_str() {
                    "player" => Ok(ChoiceTest::Own(piece)),
                    "opponent" => Ok(ChoiceTest::Opponent(piece)),
                    _ => Err(refuse()),
                }
            }
            _ => Err(refuse()),
        })
        .collect()
}

/// Statements the core has no place for: rules in the designer's words, the steps of a round,
/// endings, assertions, network play, code escapes and definitions the goal does not use.
fn beyond_the_core(game: &EggGame) -> Result<(), NotExecutable> {
    let goal_definition = goal_definition(game).map(|d| d.value.name.key());
    if let Some(rule) = game.rules.first() {
        return Err(NotExecutable::at(
            rule.origin,
            "rules in the designer's words are documented, not played",
        ));
    }
    if let Some(steps) = &game.steps {
        return Err(NotExecutable::at(
            steps.origin,
            "the steps of a round are not in the core",
        ));
    }
    if let Some(ending) = &game.ending {
        return Err(NotExecutable::at(
            ending.origin,
            "endings other than a full board or a reached goal are not in the core",
        ));
    }
    for definition in &game.definitions {
        if matches!(definition.value.body, DefinitionBody::Code(_)) {
            return Err(NotExecutable::at(
                definition.origin,
                "code escapes are never executed",
            ));
        }
        if goal_definition.as_ref() != Some(&definition.value.name.key()) {
            return Err(NotExecutable::at(
                definition.origin,
                "the engine uses only the definition the goal names",
            ));
        }
    }
    if let Some(assertion) = game.assertions.first() {
        return Err(NotExecutable::at(
            assertion.origin,
            "assertions are not in the core",
        ));
    }
    if let Some(network) = &game.network {
        return Err(NotExecutable::at(
            network.origin,
            "networked play is not in the core",
        ));
    }
    if let Some(port) = &game.port {
        return Err(NotExecutable::at(
            port.origin,
            "networked play is not in the core",
        ));
    }
    Ok(())
}

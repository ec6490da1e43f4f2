//! From the typed Ludi model to the board engine's input (`ludeme_engine::ludi::Description`):
//! names resolved to indices, cells to coordinates. Files with errors are refused (the model
//! leaves out what is wrong, and would play a different game); what the engine cannot play is
//! said in an info diagnostic on the part concerned, rather than playing a wrong game.

use ludeme_engine::ludi::{self as engine, Description, LudiError, LudiGame};

use super::model::{self, Game, PlayerRef};
use crate::{Db, Diagnostic, Severity, SourceFile, TextRange};

/// The code of the diagnostic saying what the engine cannot play.
pub const NOT_EXECUTABLE: &str = "ludi/not-executable";

/// Why a file cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineRefusal {
    /// The file has this many errors; `ludeme check` lists them.
    Errors(usize),
    /// The file has no `(game ...)`.
    NoGame,
    /// The game uses something the engine does not play (an info diagnostic says what).
    NotExecutable(Diagnostic),
}

impl std::fmt::Display for EngineRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineRefusal::Errors(n) => {
                write!(f, "the game has {n} error(s); `ludeme check` lists them")
            }
            EngineRefusal::NoGame => write!(f, "the file has no (game ...)"),
            EngineRefusal::NotExecutable(diagnostic) => write!(f, "{}", diagnostic.message),
        }
    }
}

/// The playable game of a `.ludi` file.
pub fn ludi_engine_for(db: &dyn Db, file: SourceFile) -> Result<LudiGame, EngineRefusal> {
    let errors = super::ludi_diagnostics(db, file)
        .iter()
        .chain(crate::syntax_diagnostics(db, file))
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        return Err(EngineRefusal::Errors(errors));
    }
    let game = super::ludi_game(db, file)
        .as_ref()
        .ok_or(EngineRefusal::NoGame)?;
    engine_of(game)
}

/// The engine game of a model (without the error check of [`ludi_engine_for`]).
pub fn engine_of(game: &Game) -> Result<LudiGame, EngineRefusal> {
    let description = description_of(game).map_err(EngineRefusal::NotExecutable)?;
    LudiGame::new(description)
        .map_err(|error| EngineRefusal::NotExecutable(not_executable(game.range, &error)))
}

fn not_executable(range: TextRange, error: &LudiError) -> Diagnostic {
    Diagnostic {
        code: NOT_EXECUTABLE,
        severity: Severity::Info,
        range,
        message: format!(
            "{error}; `ludeme bench` and `ludeme probe` skip this game (the rules are still checked)"
        ),
        labels: Vec::new(),
        fixes: Vec::new(),
    }
}

/// Converts as it walks the model; `depth` bounds the recursion through condition trees.
struct Converter<'a> {
    game: &'a Game,
}

type Refused = Diagnostic;

impl Converter<'_> {
    fn refuse(&self, range: TextRange, what: impl Into<String>) -> Refused {
        not_executable(range, &LudiError::new(what))
    }

    fn player(&self, player: &PlayerRef) -> Result<Option<usize>, Refused> {
        match player {
            PlayerRef::All => Ok(None),
            PlayerRef::Player(named) => self
                .game
                .players
                .iter()
                .position(|p| p.name.name == named.name)
                .map(Some)
                .ok_or_else(|| {
                    self.refuse(named.range, format!("the unknown player {}", named.name))
                }),
        }
    }

    fn piece(&self, named: &model::Named) -> Result<usize, Refused> {
        self.game
            .pieces
            .iter()
            .position(|p| p.name.name == named.name)
            .ok_or_else(|| self.refuse(named.range, format!("the unknown piece {}", named.name)))
    }

    fn optional_piece(&self, named: &Option<model::Named>) -> Result<Option<usize>, Refused> {
        named.as_ref().map(|n| self.piece(n)).transpose()
    }

    fn too_deep(&self, depth: usize) -> Result<(), Refused> {
        if depth > engine::MAX_TREE_DEPTH {
            Err(self.refuse(
                self.game.range,
                format!(
                    "conditions nested more than {} deep",
                    engine::MAX_TREE_DEPTH
                ),
            ))
        } else {
            Ok(())
        }
    }

    fn condition(&self, c: &model::Condition, depth: usize) -> Result<engine::Condition, Refused> {
        use engine::Condition as E;
        use model::Condition as M;
        self.too_deep(depth)?;
        let list = |parts: &[model::Condition]| -> Result<Vec<E>, Refused> {
            parts.iter().map(|p| self.condition(p, depth + 1)).collect()
        };
        Ok(match c {
            M::And(parts) => E::And(list(parts)?),
            M::Or(parts) => E::Or(list(parts)?),
            M::Not(inner) => E::Not(Box::new(self.condition(inner, depth + 1)?)),
            M::Empty(cell) => E::Empty(cell_ref(*cell)),
            M::Owner(cell) => E::Owner(cell_ref(*cell)),
            M::Enemy(cell) => E::Enemy(cell_ref(*cell)),
            M::Line => E::Line,
            M::Connected => E::Connected,
            M::Steps(steps) => E::Steps(steps.iter().map(|&t| turtle(t)).collect()),
            M::Compare(op, left, right) => E::Compare(
                comparison(*op),
                self.number(left, depth + 1)?,
                self.number(right, depth + 1)?,
            ),
        })
    }

    fn number(&self, n: &model::Number, depth: usize) -> Result<engine::Number, Refused> {
        use engine::Number as E;
        use model::Number as M;
        self.too_deep(depth)?;
        Ok(match n {
            M::Constant(v) => E::Constant(*v),
            M::Between(o) => E::Between(occupant(*o)),
            M::GroupSize(c) => E::GroupSize(cell_ref(*c)),
            M::Phase(c) => E::Phase(cell_ref(*c)),
            M::Neighbours(c, o) => E::Neighbours(cell_ref(*c), occupant(*o)),
            M::Distance => E::Distance,
            M::PieceState => E::PieceState,
            M::Height(c) => E::Height(cell_ref(*c)),
            M::Arithmetic(op, terms) => E::Arithmetic(
                arithmetic(*op),
                terms
                    .iter()
                    .map(|t| self.number(t, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    fn end(&self, c: &model::EndCondition, depth: usize) -> Result<engine::EndCondition, Refused> {
        use engine::EndCondition as E;
        use model::EndCondition as M;
        self.too_deep(depth)?;
        let list = |parts: &[model::EndCondition]| -> Result<Vec<E>, Refused> {
            parts.iter().map(|p| self.end(p, depth + 1)).collect()
        };
        Ok(match c {
            M::And(parts) => E::And(list(parts)?),
            M::Or(parts) => E::Or(list(parts)?),
            M::Not(inner) => E::Not(Box::new(self.end(inner, depth + 1)?)),
            M::Connect {
                targets,
                count,
                piece,
                ..
            } => E::Connect {
                targets: targets
                    .iter()
                    .map(|t| match t {
                        model::ConnectTarget::Region(named) => {
                            engine::ConnectTarget::Region(named.name.clone())
                        }
                        model::ConnectTarget::OwnRegions => engine::ConnectTarget::OwnRegions,
                    })
                    .collect(),
                count: count.map(|c| usize::try_from(c).unwrap_or(usize::MAX)),
                piece: self.optional_piece(piece)?,
            },
            M::Group { size, piece, .. } => E::Group {
                size: *size,
                piece: self.optional_piece(piece)?,
            },
            M::InARow { length, piece, .. } => E::InARow {
                length: *length,
                piece: self.optional_piece(piece)?,
            },
            M::Reach {
                target,
                count,
                piece,
            } => E::Reach {
                target: match target {
                    model::Target::Cell(cell) => engine::Target::Cell(cell_name(*cell)),
                    model::Target::Region(named) => engine::Target::Region(named.name.clone()),
                    model::Target::Side(compass) => engine::Target::Side(*compass),
                },
                count: *count,
                piece: self.optional_piece(piece)?,
            },
            M::Capture { count, piece } => E::Capture {
                count: *count,
                piece: self.optional_piece(piece)?,
            },
            M::Eliminate(player) => E::Eliminate(match player {
                Some(player) => self.player(player)?,
                None => None,
            }),
            M::Score(points) => E::Score(*points),
            M::Stack(height) => E::Stack(*height),
            M::State { value, piece } => E::State {
                value: *value,
                piece: self.optional_piece(piece)?,
            },
            M::NoMove => E::NoMove,
        })
    }

    fn effect(&self, effect: &model::Effect) -> Result<engine::Effect, Refused> {
        use engine::Effect as E;
        use model::Effect as M;
        let methods = |methods: &[model::Method]| methods.iter().map(|&m| method(m)).collect();
        let guard =
            |c: &Option<model::Condition>| c.as_ref().map(|c| self.condition(c, 0)).transpose();
        Ok(match effect {
            M::Capture {
                methods: m,
                condition,
            } => E::Capture {
                methods: methods(m),
                condition: guard(condition)?,
            },
            M::Convert {
                methods: m,
                condition,
            } => E::Convert {
                methods: methods(m),
                condition: guard(condition)?,
            },
            M::IncrementState => E::IncrementState,
            M::DecrementState => E::DecrementState,
            M::SetState(value) => E::SetState(*value),
            M::Score(points) => E::Score(*points),
        })
    }
}

/// The engine description of a model.
pub fn description_of(game: &Game) -> Result<Description, Diagnostic> {
    let converter = Converter { game };
    let c = &converter;
    let board = game
        .board
        .as_ref()
        .ok_or_else(|| c.refuse(game.range, "a game without a board"))?;
    let players = game.players.iter().map(|p| p.name.name.clone()).collect();
    let directions = game.players.iter().map(|p| p.direction).collect();
    let regions = board
        .regions
        .iter()
        .map(|region| {
            Ok(engine::RegionSpec {
                name: region.name.name.clone(),
                owner: match &region.owner {
                    Some(owner) => c.player(owner)?,
                    None => None,
                },
                parts: region
                    .cells
                    .iter()
                    .map(|part| match part {
                        model::RegionPart::Cell(cell, _) => {
                            engine::RegionPart::Cell(cell_name(*cell))
                        }
                        model::RegionPart::Side(side) => engine::RegionPart::Side(*side),
                    })
                    .collect(),
            })
        })
        .collect::<Result<_, Refused>>()?;
    let pieces = game
        .pieces
        .iter()
        .map(|piece| {
            Ok(engine::PieceSpec {
                name: piece.name.name.clone(),
                owner: c.player(&piece.owner)?,
                value: piece.value,
                state: piece.state,
                moves: piece
                    .moves
                    .iter()
                    .map(|rule| {
                        Ok(engine::MoveSpec {
                            priority: rule.priority,
                            mandatory: rule.mandatory,
                            direction: rule.direction.map(|d| match d {
                                model::Direction::Compass(x) => engine::MoveDirection::Compass(x),
                                model::Direction::Turtle(t) => {
                                    engine::MoveDirection::Turtle(turtle(t))
                                }
                            }),
                            owner: match &rule.owner {
                                Some(owner) => c.player(owner)?,
                                None => None,
                            },
                            pre: rule.pre.as_ref().map(|p| c.condition(p, 0)).transpose()?,
                            actions: rule
                                .actions
                                .iter()
                                .map(|a| match a {
                                    model::Action::Pass => engine::Action::Pass,
                                    model::Action::Pop => engine::Action::Pop,
                                    model::Action::Push => engine::Action::Push,
                                })
                                .collect(),
                            post: rule
                                .post
                                .iter()
                                .map(|e| c.effect(e))
                                .collect::<Result<_, _>>()?,
                        })
                    })
                    .collect::<Result<_, Refused>>()?,
            })
        })
        .collect::<Result<_, Refused>>()?;
    let placements = game
        .start
        .placements
        .iter()
        .map(|placement| {
            Ok(engine::PlacementSpec {
                piece: c.piece(&placement.piece)?,
                owner: c.player(&placement.owner)?,
                locations: placement
                    .locations
                    .iter()
                    .map(|location| match location {
                        model::Location::Cell(cell, _) => engine::Location::Cell(cell_name(*cell)),
                        model::Location::Region(named) => {
                            engine::Location::Region(named.name.clone())
                        }
                        model::Location::Home => engine::Location::Home,
                    })
                    .collect(),
            })
        })
        .collect::<Result<_, Refused>>()?;
    let in_hand = game
        .start
        .in_hand
        .iter()
        .map(|hand| {
            Ok(engine::InHandSpec {
                piece: c.piece(&hand.piece)?,
                owner: c.player(&hand.owner)?,
                count: hand.count,
            })
        })
        .collect::<Result<_, Refused>>()?;
    let end = game
        .end
        .clauses
        .iter()
        .map(|clause| {
            Ok(engine::EndClauseSpec {
                player: c.player(&clause.player)?,
                result: match clause.result {
                    model::GameResult::Win => engine::GameResult::Win,
                    model::GameResult::Lose => engine::GameResult::Lose,
                    model::GameResult::Draw => engine::GameResult::Draw,
                },
                condition: c.end(&clause.condition, 0)?,
            })
        })
        .collect::<Result<_, Refused>>()?;
    Ok(Description {
        name: game
            .name
            .as_ref()
            .map_or_else(|| "game".to_owned(), |n| n.name.clone()),
        players,
        directions,
        board: engine::BoardSpec {
            tiling: board.tiling,
            shape: board.shape,
            size: board.size.clone(),
            diagonal_adjacency: board.diagonal_adjacency,
        },
        regions,
        pieces,
        placements,
        in_hand,
        can_pass: game.play.can_pass,
        end,
        tie: match game.end.tie {
            model::TieRule::MoverWins => engine::TieRule::MoverWins,
            model::TieRule::MoverLoses => engine::TieRule::MoverLoses,
            model::TieRule::Draw => engine::TieRule::Draw,
        },
    })
}

fn cell_name(cell: model::CellName) -> engine::CellName {
    engine::CellName {
        column: cell.column,
        row: cell.row,
    }
}

fn turtle(t: model::Turtle) -> engine::Turtle {
    match t {
        model::Turtle::Forward => engine::Turtle::Forward,
        model::Turtle::Back => engine::Turtle::Back,
        model::Turtle::Left => engine::Turtle::Left,
        model::Turtle::Right => engine::Turtle::Right,
    }
}

fn cell_ref(c: model::CellRef) -> engine::CellRef {
    match c {
        model::CellRef::From => engine::CellRef::From,
        model::CellRef::To => engine::CellRef::To,
        model::CellRef::Current => engine::CellRef::Current,
    }
}

fn occupant(o: model::Occupant) -> engine::Occupant {
    match o {
        model::Occupant::Empty => engine::Occupant::Empty,
        model::Occupant::Enemy => engine::Occupant::Enemy,
        model::Occupant::Friend => engine::Occupant::Friend,
        model::Occupant::Any => engine::Occupant::Any,
    }
}

fn comparison(c: model::Comparison) -> engine::Comparison {
    use engine::Comparison as E;
    use model::Comparison as M;
    match c {
        M::Greater => E::Greater,
        M::Less => E::Less,
        M::AtLeast => E::AtLeast,
        M::AtMost => E::AtMost,
        M::Equal => E::Equal,
        M::NotEqual => E::NotEqual,
    }
}

fn arithmetic(a: model::Arithmetic) -> engine::Arithmetic {
    match a {
        model::Arithmetic::Add => engine::Arithmetic::Add,
        model::Arithmetic::Subtract => engine::Arithmetic::Subtract,
        model::Arithmetic::Multiply => engine::Arithmetic::Multiply,
        model::Arithmetic::Divide => engine::Arithmetic::Divide,
    }
}

fn method(m: model::Method) -> engine::Method {
    match m {
        model::Method::Surround => engine::Method::Surround,
        model::Method::DirectNeighbours => engine::Method::DirectNeighbours,
        model::Method::AllNeighbours => engine::Method::AllNeighbours,
        model::Method::Flank => engine::Method::Flank,
        model::Method::Replace => engine::Method::Replace,
    }
}

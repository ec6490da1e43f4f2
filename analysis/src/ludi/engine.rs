//! From the typed Ludi model to the board engine's input (`ludeme_engine::ludi::Description`):
//! names resolved to indices; the rule types are shared and carried over as they are. Files with errors are refused (the model
//! leaves out what is wrong, and would play a different game); what the engine cannot play is
//! said in an info diagnostic on the part concerned, rather than playing a wrong game.

use ludeme_engine::ludi::{self as engine, Description, LudiError, LudiGame};

use super::model::{self, Game, PlayerRef};
use crate::engine_gate::{GateRefusal, engine_gate};
use crate::{Db, Diagnostic, Severity, SourceFile, TextRange};

/// The code of the diagnostic saying what the engine cannot play.
pub const NOT_EXECUTABLE: &str = "ludi/not-executable";

/// Why a file cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineRefusal {
    /// The file's diagnostics refuse the engine (see [`crate::engine_gate`]).
    Diagnostics(GateRefusal),
    /// The file has no `(game ...)`.
    NoGame,
    /// The game uses something the engine does not play (an info diagnostic says what).
    NotExecutable(Diagnostic),
}

impl std::fmt::Display for EngineRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineRefusal::Diagnostics(refusal) => write!(f, "{refusal}"),
            EngineRefusal::NoGame => write!(f, "the file has no (game ...)"),
            EngineRefusal::NotExecutable(diagnostic) => write!(f, "{}", diagnostic.message),
        }
    }
}

/// The playable game of a `.ludi` file, refused as [`engine_gate`] says (errors under the
/// project's rule selection, or parts the binder left out).
pub fn ludi_engine_for(db: &dyn Db, file: SourceFile) -> Result<LudiGame, EngineRefusal> {
    engine_gate(db, file, Severity::Error).map_err(EngineRefusal::Diagnostics)?;
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

/// Resolves the model's names to the engine's indices; the rule types are the engine's own and
/// pass through as they are (the engine refuses trees nested too deep).
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

    fn optional_player(&self, player: &Option<PlayerRef>) -> Result<Option<usize>, Refused> {
        Ok(match player {
            Some(player) => self.player(player)?,
            None => None,
        })
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

    fn end(&self, c: &model::EndCondition) -> Result<engine::EndCondition, Refused> {
        use engine::EndCondition as E;
        use model::EndCondition as M;
        let list = |parts: &[model::EndCondition]| -> Result<Vec<E>, Refused> {
            parts.iter().map(|p| self.end(p)).collect()
        };
        Ok(match c {
            M::And(parts) => E::And(list(parts)?),
            M::Or(parts) => E::Or(list(parts)?),
            M::Not(inner) => E::Not(Box::new(self.end(inner)?)),
            M::Connect {
                targets,
                count,
                piece,
                constraint,
                ..
            } => E::Connect {
                targets: values(targets),
                count: count.map(|c| usize::try_from(c).unwrap_or(usize::MAX)),
                piece: self.optional_piece(piece)?,
                constraint: *constraint,
            },
            M::Group {
                size,
                piece,
                constraint,
                ..
            } => E::Group {
                size: *size,
                piece: self.optional_piece(piece)?,
                constraint: *constraint,
            },
            M::InARow {
                length,
                piece,
                adjacency,
                ..
            } => E::InARow {
                length: *length,
                piece: self.optional_piece(piece)?,
                adjacency: *adjacency,
            },
            M::Reach {
                target,
                count,
                piece,
            } => E::Reach {
                target: target.value.clone(),
                count: *count,
                piece: self.optional_piece(piece)?,
            },
            M::Capture { count, piece } => E::Capture {
                count: *count,
                piece: self.optional_piece(piece)?,
            },
            M::Eliminate(player) => E::Eliminate(self.optional_player(player)?),
            M::Score(points) => E::Score(*points),
            M::Stack {
                height,
                piece,
                pure,
            } => E::Stack {
                height: *height,
                piece: self.optional_piece(piece)?,
                pure: *pure,
            },
            M::State { value, piece } => E::State {
                value: *value,
                piece: self.optional_piece(piece)?,
            },
            M::NoMove => E::NoMove,
        })
    }
}

/// The engine values of written ones, without their ranges.
fn values<T: Clone>(written: &[model::Spanned<T>]) -> Vec<T> {
    written.iter().map(|w| w.value.clone()).collect()
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
                owner: c.optional_player(&region.owner)?,
                parts: values(&region.cells),
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
                flags: piece.flags.clone(),
                moves: piece
                    .moves
                    .iter()
                    .map(|rule| {
                        Ok(engine::MoveSpec {
                            priority: rule.priority,
                            mandatory: rule.mandatory,
                            direction: rule.direction,
                            owner: c.optional_player(&rule.owner)?,
                            pre: rule.pre.clone(),
                            actions: rule.actions.clone(),
                            post: rule.post.clone(),
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
                locations: values(&placement.locations),
                phase: placement
                    .phase
                    .map(|phase| u8::try_from(phase.clamp(0, 255)).unwrap_or(u8::MAX)),
                symmetric: match &placement.symmetric {
                    Some((symmetry, player)) => c.player(player)?.map(|player| (*symmetry, player)),
                    None => None,
                },
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
                result: clause.result,
                condition: c.end(&clause.condition)?,
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
        pie_rule: game.play.pie_rule,
        end,
        tie: game.end.tie,
    })
}

//! Playing a game, whatever its language: the engine of a file ([`PlayableGame`], built by
//! [`crate::Analysis::playable`]), random playouts for bench figures, the self-play probe,
//! matches between named players, and positions reached by named moves with their pictures.
//!
//! This is the only place that chooses an engine by language; the front ends ask for a
//! playable game and call its methods, which are written once over the engines' one
//! [`Game`] interface.

use std::collections::BTreeMap;
use std::time::Duration;

use ludeme_engine::Game;
use ludeme_engine::cpu_time::{CpuDeadline, CpuInstant};
use ludeme_engine::egg::EggEngine;
use ludeme_engine::egg::EggState;
use ludeme_engine::egg::heuristics::{EggEvaluator, egg_player_by_name};
use ludeme_engine::gdl::grounded::GroundingLimits;
use ludeme_engine::gdl::{Budget, Engine, Reasoner, ReasonerState};
use ludeme_engine::ludi::advisors::Advisors;
use ludeme_engine::ludi::{LudiGame, LudiState};
use ludeme_engine::notation::{replay, replay_from};
use ludeme_engine::picture::Depict;
use ludeme_engine::players::{Player, RandomPlayer, play_match, player_by_name};
use ludeme_engine::playout::PlayoutStats;
use ludeme_engine::probe::gdl_evaluator::GdlEvaluator;
use ludeme_engine::probe::{probe, probe_with_progress};
use rand::SeedableRng;
use rand::rngs::SmallRng;

pub use ludeme_engine::notation::{ReplayError, ReplayProblem, split_plies};
pub use ludeme_engine::picture::Picture;
pub use ludeme_engine::players::{MatchEnd, MatchResult, MatchSettings, MoveBudget, PLAYER_NAMES};
pub use ludeme_engine::probe::{
    LeadHistory, PREFERRED_LENGTH, ProbeReport, ProbeSettings, Verdict,
};
pub use ludeme_engine::{Reward, RoleIndex};

mod match_player;
pub use match_player::MatchPlayer;

/// States each search may visit per move when probing a GDL or EGGG game: their generic
/// evaluators tell less than Ludi's advisors, so the search's depth must tell more (the
/// advisors value the states a shallower search stops at: [`ProbeSettings::default`]).
pub const UNADVISED_NODES_PER_MOVE: u64 = 2_000;

/// Plies after which a bench playout is abandoned: far beyond any real game's length.
pub const BENCH_MAX_PLIES: usize = 10_000;

/// The CPU time setting a game up may take for the engine's own limits, not a caller's budget,
/// to decide which engine plays it: a second to read and check the game, and twice grounding's
/// time limit ([`Reasoner::GROUNDING_TIME`], a safety net behind its count of work), since
/// grounding gets half the time left and the interpreter, should it take over, the rest
/// ([`PlayableGame::gdl`]). `bench --seconds` sets up within at least this, so that a game
/// plays on the same engine whatever time is asked for: the count of work decides, and no
/// clock cuts it short.
pub const ENGINE_CHOICE_SETUP_TIME: Duration =
    Duration::from_secs(2 * Reasoner::GROUNDING_TIME.as_secs() + 1);

/// How to build a game's engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineOptions {
    /// When the engine gives up: GDL grounding stops at its share of it (then the interpreter
    /// runs), and a reasoner's questions stop at it. `None`: the engines' own limits.
    pub deadline: Option<CpuDeadline>,
    /// GDL: run the plain interpreter even when the game grounds (for comparisons).
    pub interpreter: bool,
}

/// A game ready to play, on its language's engine.
pub enum PlayableGame {
    Gdl(Reasoner),
    Ludi(Box<LudiGame>),
    Egg(Box<EggEngine>),
}

/// A position of a [`PlayableGame`], reached by [`PlayableGame::position_after`].
#[derive(Clone, Debug)]
pub struct Position(EngineState);

#[derive(Clone, Debug)]
enum EngineState {
    Gdl(ReasonerState),
    Ludi(LudiState),
    Egg(EggState),
}

/// Runs `$body` with `$game` bound to the engine under a [`PlayableGame`]: the one dispatch.
macro_rules! on_engine {
    ($playable:expr, $game:ident => $body:expr) => {
        match $playable {
            PlayableGame::Gdl($game) => $body,
            PlayableGame::Ludi($game) => {
                let $game = &**$game;
                $body
            }
            PlayableGame::Egg($game) => {
                let $game = &**$game;
                $body
            }
        }
    };
}

/// The size of a grounded GDL game's circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CircuitSize {
    pub propositions: usize,
    pub ground_rules: usize,
    /// How many random playouts the circuit plays at once (64 in the bits of a word, or 1;
    /// decided by the first playouts).
    pub playouts_at_once: usize,
    /// The work grounding spent and its allowance, in the grounder's units (about a
    /// nanosecond of CPU time each on the machine they were fitted on).
    pub grounding_work: (u64, u64),
}

/// What random playouts measured.
#[derive(Clone, Debug)]
pub struct PlayoutFigures {
    pub playouts: u64,
    /// The CPU time they took (see [`ludeme_engine::cpu_time`]).
    pub seconds: f64,
    pub average_plies: f64,
    /// Per role (in the game's order), the frequency of each goal value among the playouts
    /// that reached a terminal state.
    pub outcomes: Vec<BTreeMap<Reward, f64>>,
    /// Playouts that did not end: at the ply limit, with a role without legal moves.
    pub ply_limits: u64,
    pub no_legal_move: u64,
    /// Completed playouts whose terminal state gave a role several goal values (the highest
    /// counted in `outcomes`).
    pub ambiguous_goals: u64,
}

impl PlayoutFigures {
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.playouts as f64 / self.seconds
        } else {
            0.0
        }
    }
}

impl PlayableGame {
    /// Builds the engine of a GDL program under `options`.
    pub(crate) fn gdl(
        program: ludeme_engine::gdl::Program,
        options: &EngineOptions,
    ) -> Result<Self, String> {
        let budget = Budget {
            deadline: options.deadline,
            ..Budget::default()
        };
        let reasoner = if options.interpreter {
            Reasoner::interpreted(program, budget)
        } else if let Some(deadline) = options.deadline {
            // Grounding gets half the time left; the interpreter, if it has to take over,
            // the rest.
            let half = deadline.remaining() / 2;
            let limits = GroundingLimits {
                deadline: Some(CpuDeadline::after(half.min(Reasoner::GROUNDING_TIME))),
                ..GroundingLimits::default()
            };
            Reasoner::with_limits(program, budget, &limits)
        } else {
            Reasoner::new(program, budget)
        };
        reasoner
            .map(PlayableGame::Gdl)
            .map_err(|error| error.to_string())
    }

    /// The role names, in the game's order.
    pub fn roles(&self) -> &[String] {
        on_engine!(self, game => game.roles())
    }

    /// The engine that plays: `grounded` or `interpreter` (GDL), `ludi`, `eggg`.
    pub fn engine_name(&self) -> &'static str {
        match self {
            PlayableGame::Gdl(reasoner) => reasoner.engine_name(),
            PlayableGame::Ludi(_) => "ludi",
            PlayableGame::Egg(_) => "eggg",
        }
    }

    /// Whether the game is played by the GDL interpreter (the slowest engine), whether by
    /// choice or because grounding did not fit.
    pub fn runs_on_interpreter(&self) -> bool {
        matches!(self, PlayableGame::Gdl(reasoner) if matches!(reasoner.engine(), Engine::Interpreted(_)))
    }

    /// Why a GDL game runs on the interpreter, when it could not be grounded.
    pub fn fallback_reason(&self) -> Option<&str> {
        match self {
            PlayableGame::Gdl(reasoner) => reasoner.fallback_reason(),
            _ => None,
        }
    }

    /// Why a grounded GDL game's goal values come from the interpreter, when its goal alone
    /// did not ground.
    pub fn interpreted_goals_reason(&self) -> Option<&str> {
        match self {
            PlayableGame::Gdl(reasoner) => reasoner.interpreted_goals_reason(),
            _ => None,
        }
    }

    pub fn circuit_size(&self) -> Option<CircuitSize> {
        match self {
            PlayableGame::Gdl(reasoner) => match reasoner.engine() {
                Engine::Grounded(grounded) => {
                    let (propositions, ground_rules) = grounded.size();
                    Some(CircuitSize {
                        propositions,
                        ground_rules,
                        playouts_at_once: grounded.playouts_at_once(),
                        grounding_work: grounded.grounding_work(),
                    })
                }
                Engine::Interpreted(_) => None,
            },
            _ => None,
        }
    }

    /// Whether `role` is GDL-II's `random`, which no player plays.
    pub fn is_random(&self, role: RoleIndex) -> bool {
        match self {
            PlayableGame::Gdl(reasoner) => reasoner.is_random(role),
            _ => false,
        }
    }

    /// Uniformly random playouts from the initial state for `duration`, on this thread.
    /// An engine that gives up (a budget ran out) ends the measure with its reason.
    pub fn random_playouts(&self, duration: Duration, seed: u64) -> Result<PlayoutFigures, String> {
        on_engine!(self, game => measure_playouts(game, PlayoutLimit::CpuTime(duration), seed))
    }

    /// Exactly `count` uniformly random playouts from the initial state, on this thread (fewer
    /// only when the engine gives up, which ends the measure with its reason).
    pub fn counted_random_playouts(&self, count: u64, seed: u64) -> Result<PlayoutFigures, String> {
        on_engine!(self, game => measure_playouts(game, PlayoutLimit::Count(count), seed))
    }

    /// The self-play probe: Ludi games are judged with their advisors, EGGG games with their
    /// static evaluator, GDL games with the generic GDL evaluator.
    pub fn probe(&self, settings: &ProbeSettings) -> ProbeReport {
        match self {
            PlayableGame::Gdl(reasoner) => probe(reasoner, &GdlEvaluator::new(reasoner), settings),
            PlayableGame::Ludi(game) => {
                let advisors = Advisors::for_game(game, settings.seed, settings.nodes_per_move);
                probe(&**game, &advisors, settings)
            }
            PlayableGame::Egg(game) => probe(&**game, &EggEvaluator::new(game), settings),
        }
    }

    /// [`PlayableGame::probe`], telling `games_done` how many games have been played after
    /// each one.
    pub fn probe_with_progress(
        &self,
        settings: &ProbeSettings,
        games_done: &mut dyn FnMut(usize),
    ) -> ProbeReport {
        match self {
            PlayableGame::Gdl(reasoner) => {
                let evaluator = GdlEvaluator::new(reasoner);
                probe_with_progress(reasoner, &evaluator, settings, games_done)
            }
            PlayableGame::Ludi(game) => {
                let advisors = Advisors::for_game(game, settings.seed, settings.nodes_per_move);
                probe_with_progress(&**game, &advisors, settings, games_done)
            }
            PlayableGame::Egg(game) => {
                probe_with_progress(&**game, &EggEvaluator::new(game), settings, games_done)
            }
        }
    }

    /// The probe's states per move for this game when none is asked for.
    pub fn default_probe_nodes(&self) -> u64 {
        match self {
            PlayableGame::Ludi(_) => ProbeSettings::default().nodes_per_move,
            _ => UNADVISED_NODES_PER_MOVE,
        }
    }

    /// One match: `players[role]` names the player of each role (one of [`PLAYER_NAMES`];
    /// `None`, or a name that is none of them, plays at random), seeded per role from `seed`;
    /// a chance role's moves are drawn uniformly from `seed`, whatever player it is given.
    /// Returns the result and the players' names by role.
    pub fn play_match(
        &self,
        players: &[Option<String>],
        seed: u64,
        settings: &MatchSettings,
    ) -> (MatchResult, Vec<&'static str>) {
        match self {
            // EGGG's search players value cut-off states with the game's static evaluator.
            PlayableGame::Egg(game) => run_match(&**game, players, seed, settings, |name, seed| {
                egg_player_by_name(name, seed, game)
            }),
            _ => on_engine!(self, game => run_match(game, players, seed, settings, player_by_name)),
        }
    }

    /// The position after `plies` from the start, each ply written as
    /// `ludeme_engine::notation` describes (the names the engines give moves; several roles'
    /// moves in one ply joined by `&`); [`split_plies`] splits a written list.
    pub fn position_after(&self, plies: &[String]) -> Result<Position, ReplayError> {
        let state = match self {
            PlayableGame::Gdl(game) => EngineState::Gdl(replay(game, plies)?),
            PlayableGame::Ludi(game) => EngineState::Ludi(replay(&**game, plies)?),
            PlayableGame::Egg(game) => EngineState::Egg(replay(&**game, plies)?),
        };
        Ok(Position(state))
    }

    /// The position after `plies` from `position`, which `played` plies reached: a match
    /// played move by move goes on from its last position (on the interpreter, replaying a
    /// long match from the start can take longer than a play clock). A position of another
    /// game is refused.
    pub fn position_after_from(
        &self,
        position: &Position,
        played: usize,
        plies: &[String],
    ) -> Result<Position, ReplayError> {
        let state = match (self, &position.0) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state)) => {
                EngineState::Gdl(replay_from(game, state.clone(), played, plies)?)
            }
            (PlayableGame::Ludi(game), EngineState::Ludi(state)) => {
                EngineState::Ludi(replay_from(&**game, state.clone(), played, plies)?)
            }
            (PlayableGame::Egg(game), EngineState::Egg(state)) => {
                EngineState::Egg(replay_from(&**game, state.clone(), played, plies)?)
            }
            _ => {
                return Err(ReplayError {
                    ply: played + 1,
                    text: plies.first().cloned().unwrap_or_default(),
                    problem: ReplayProblem::Failure("a position of another game".to_owned()),
                    legal: Vec::new(),
                });
            }
        };
        Ok(Position(state))
    }

    /// The picture of `position` (draw it with [`crate::picture::svg`]); a position of another
    /// game gets a picture that says so.
    pub fn picture(&self, position: &Position) -> Picture {
        match (self, &position.0) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state)) => game.picture(state),
            (PlayableGame::Ludi(game), EngineState::Ludi(state)) => game.picture(state),
            (PlayableGame::Egg(game), EngineState::Egg(state)) => game.picture(state),
            _ => Picture {
                notes: vec!["a position of another game".to_owned()],
                ..Picture::default()
            },
        }
    }

    /// How a match ended, in words (`terminal`, `ply limit`, `white has no legal move`, ...).
    pub fn describe_end(&self, end: &MatchEnd) -> String {
        let role = |role: &RoleIndex| {
            self.roles()
                .get(*role)
                .cloned()
                .unwrap_or_else(|| role.to_string())
        };
        match end {
            MatchEnd::Terminal => "terminal".to_owned(),
            MatchEnd::PlyLimit => "ply limit".to_owned(),
            MatchEnd::NoLegalMove(r) => format!("{} has no legal move", role(r)),
            MatchEnd::IllegalMove(r) => format!("the player of {} gave no legal move", role(r)),
            MatchEnd::Cancelled => "cancelled".to_owned(),
            MatchEnd::Failure(message) => message.clone(),
        }
    }
}

pub(crate) fn run_match<G: Game>(
    game: &G,
    names: &[Option<String>],
    seed: u64,
    settings: &MatchSettings,
    player_by_name: impl Fn(&str, u64) -> Option<Box<dyn Player<G>>>,
) -> (MatchResult, Vec<&'static str>) {
    let mut players: Vec<Box<dyn Player<G>>> = (0..game.roles().len())
        .map(|role| {
            let seed = seed ^ (role as u64 + 1);
            names
                .get(role)
                .and_then(Option::as_deref)
                .and_then(|name| player_by_name(name, seed))
                .unwrap_or_else(|| Box::new(RandomPlayer::new(seed)))
        })
        .collect();
    // Chance (GDL-II's `random`) is drawn by the match itself, repeatably from the seed.
    let settings = MatchSettings {
        chance_seed: seed,
        ..settings.clone()
    };
    let result = play_match(game, &mut players, &settings);
    let names = players.iter().map(|player| player.name()).collect();
    (result, names)
}

/// When a measure of random playouts stops.
#[derive(Clone, Copy, Debug)]
enum PlayoutLimit {
    /// After this much CPU time (so that the figure is playouts per CPU second whatever the
    /// load).
    CpuTime(Duration),
    /// After exactly this many playouts.
    Count(u64),
}

fn measure_playouts<G: Game>(
    game: &G,
    limit: PlayoutLimit,
    seed: u64,
) -> Result<PlayoutFigures, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut stats = PlayoutStats::new(game.roles().len());
    let start = game.initial_state();
    let clock = CpuInstant::now();
    // Reading the CPU clock is a system call of about a microsecond, as long as a whole
    // playout of a two-ply game (ruleDepthExponential: 0.58 M playouts per CPU second reading
    // it after each, 1.3 M without). So it is read after a batch of playouts, the batch
    // doubling while one takes under a millisecond and halving when one takes over four: the
    // time asked for is passed by a few milliseconds at most.
    let mut batch = 1u64;
    let mut until_reading = 1u64;
    let mut last_reading = Duration::ZERO;
    let mut another = |begun: u64| match limit {
        PlayoutLimit::CpuTime(duration) => {
            until_reading -= 1;
            if until_reading > 0 {
                return true;
            }
            let now = clock.elapsed();
            let took = now - last_reading;
            if took < Duration::from_millis(1) {
                batch = (batch * 2).min(1 << 16);
            } else if took > Duration::from_millis(4) {
                batch = (batch / 2).max(1);
            }
            last_reading = now;
            until_reading = batch;
            now < duration
        }
        PlayoutLimit::Count(count) => begun < count,
    };
    game.random_playouts_while(&start, &mut rng, BENCH_MAX_PLIES, &mut stats, &mut another);
    if let Some(failure) = game.failure() {
        return Err(failure);
    }
    let seconds = clock.elapsed().as_secs_f64();
    let outcomes = (0..game.roles().len())
        .map(|role| {
            stats.outcomes[role]
                .keys()
                .map(|&value| (value, stats.frequency(role, value)))
                .collect()
        })
        .collect();
    Ok(PlayoutFigures {
        playouts: stats.playouts,
        seconds,
        average_plies: stats.average_plies(),
        outcomes,
        ply_limits: stats.ply_limits,
        no_legal_move: stats.no_legal_move,
        ambiguous_goals: stats.ambiguous_goals,
    })
}

// ── Playing move by move (the web page of `ludeme serve`) ────────────────────────────────────

/// The most legal moves in a position for which [`PlayableGame::turn`] works out the cells each
/// move changes (one next state and one picture per move); beyond it the moves come without
/// cells, and a front end offers them by name only.
pub const MOVE_CELLS_LIMIT: usize = 2_000;

/// A legal move of one role, named as [`PlayableGame::position_after`] reads it, with the cells
/// of the position's [`Picture`] it changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedMove {
    pub name: String,
    /// Indices into [`Picture::cells`]: the cells where the mover's own pieces change (those it
    /// leaves first, then those it comes to), or, when it has none there (a removal, a neutral
    /// piece), every cell whose pieces change. Empty when the move changes no cell drawn, or
    /// when the position has more than [`MOVE_CELLS_LIMIT`] legal moves.
    pub cells: Vec<usize>,
}

/// The legal moves of one role that has a choice (two or more legal moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleChoice {
    pub role: RoleIndex,
    pub moves: Vec<NamedMove>,
}

/// What happens in a position: who chooses, or how the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The game is over; the goals by role.
    Over { goals: Vec<Reward> },
    /// These roles choose a move each (in role order); the other roles' single legal move is
    /// played for them. The next ply is the chosen names joined by ` & ` in role order.
    Choose(Vec<RoleChoice>),
    /// No role has a choice: `ply` plays every role's only move.
    Forced { ply: String },
    /// The game cannot go on: the engine gave up, or a role has no legal move.
    Stuck(String),
}

impl PlayableGame {
    /// Who moves in `position` and with which moves, each with the cells it changes (see
    /// [`NamedMove::cells`]), so that a board can offer a move as a click on a cell.
    pub fn turn(&self, position: &Position) -> Turn {
        match (self, &position.0) {
            (PlayableGame::Gdl(game), EngineState::Gdl(state)) => turn_of(game, state),
            (PlayableGame::Ludi(game), EngineState::Ludi(state)) => turn_of(&**game, state),
            (PlayableGame::Egg(game), EngineState::Egg(state)) => turn_of(&**game, state),
            _ => Turn::Stuck(OTHER_GAME.to_owned()),
        }
    }

    /// Whether `role` is one of the game's roles; why not, if not.
    pub(crate) fn check_role(&self, role: RoleIndex) -> Result<(), String> {
        if role < self.roles().len() {
            Ok(())
        } else {
            Err(format!(
                "the game has {} role(s); there is no role {role}",
                self.roles().len()
            ))
        }
    }

    /// The move `player` (one of [`PLAYER_NAMES`]) chooses for `role` in `position` within
    /// `budget`, by name; `seed` makes the random players repeatable. An error says why there
    /// is none: an unknown player, a role without a choice to make, an engine that gave up.
    pub fn choose_move(
        &self,
        position: &Position,
        role: RoleIndex,
        player: &str,
        budget: &MoveBudget,
        seed: u64,
    ) -> Result<String, String> {
        self.choose_move_guided(position, role, player, budget, seed, None, None)
    }
}

const OTHER_GAME: &str = "a position of another game";

/// Why `name` cannot play: it names none of the players, which are listed.
pub fn unknown_player(name: &str) -> String {
    format!(
        "no player is called `{name}`; the players are {}",
        PLAYER_NAMES.join(", ")
    )
}

fn turn_of<G: ludeme_engine::notation::Notation + Depict>(game: &G, state: &G::State) -> Turn {
    use ludeme_engine::notation::named_moves;
    let failed = || game.failure().map(Turn::Stuck);
    if game.is_terminal(state) {
        let goals = game.goals(state);
        return failed().unwrap_or(Turn::Over { goals });
    }
    let moves: Vec<Vec<(String, G::Move)>> = (0..game.roles().len())
        .map(|role| named_moves(game, state, role))
        .collect();
    if let Some(stuck) = failed() {
        return stuck;
    }
    if let Some(role) = moves.iter().position(Vec::is_empty) {
        return Turn::Stuck(format!("{} has no legal move", game.roles()[role]));
    }
    let choosers: Vec<RoleIndex> = (0..moves.len()).filter(|&r| moves[r].len() > 1).collect();
    if choosers.is_empty() {
        let names: Vec<&str> = moves.iter().map(|only| only[0].0.as_str()).collect();
        return Turn::Forced {
            ply: names.join(" & "),
        };
    }
    let counted: usize = choosers.iter().map(|&role| moves[role].len()).sum();
    let before = (counted <= MOVE_CELLS_LIMIT).then(|| game.picture(state));
    let choices = choosers
        .into_iter()
        .map(|role| {
            let named = moves[role]
                .iter()
                .map(|(name, action)| {
                    let cells = before.as_ref().map_or_else(Vec::new, |before| {
                        // The others play their first legal move: in a turn-taking game, the
                        // idle roles' only no-op.
                        let joint: Vec<G::Move> = (0..moves.len())
                            .map(|r| {
                                if r == role {
                                    action.clone()
                                } else {
                                    moves[r][0].1.clone()
                                }
                            })
                            .collect();
                        let after = game.picture(&game.next_state(state, &joint));
                        changed_cells(before, &after, role)
                    });
                    NamedMove {
                        name: name.clone(),
                        cells,
                    }
                })
                .collect();
            RoleChoice { role, moves: named }
        })
        .collect();
    failed().unwrap_or(Turn::Choose(choices))
}

/// The cells whose pieces differ between two pictures of the same board, as
/// [`NamedMove::cells`] orders them; none when the boards differ.
fn changed_cells(before: &Picture, after: &Picture, mover: RoleIndex) -> Vec<usize> {
    if before.cells.len() != after.cells.len() {
        return Vec::new();
    }
    let (old, new) = (cell_contents(before), cell_contents(after));
    let changed: Vec<usize> = (0..old.len()).filter(|&i| old[i] != new[i]).collect();
    let (left, reached): (Vec<usize>, Vec<usize>) = changed
        .iter()
        .copied()
        .filter(|&i| owned_by(&old[i], mover) != owned_by(&new[i], mover))
        .partition(|&i| pieces_of(&new[i], mover) < pieces_of(&old[i], mover));
    if left.is_empty() && reached.is_empty() {
        changed
    } else {
        left.into_iter().chain(reached).collect()
    }
}

/// What stands on a cell: (owner, name, stack height) per piece mark.
type CellContent<'p> = Vec<(Option<RoleIndex>, &'p str, usize)>;

/// The content of each cell of `picture`, in a canonical order.
fn cell_contents(picture: &Picture) -> Vec<CellContent<'_>> {
    let mut by_cell: Vec<CellContent<'_>> = vec![Vec::new(); picture.cells.len()];
    for piece in &picture.pieces {
        if let Some(cell) = by_cell.get_mut(piece.cell) {
            cell.push((piece.owner, piece.name.as_str(), piece.count));
        }
    }
    for cell in &mut by_cell {
        cell.sort_unstable();
    }
    by_cell
}

/// The pieces of `role` on a cell, by name and stack height.
fn owned_by<'p>(cell: &CellContent<'p>, role: RoleIndex) -> Vec<(&'p str, usize)> {
    cell.iter()
        .filter(|(owner, ..)| *owner == Some(role))
        .map(|&(_, name, count)| (name, count))
        .collect()
}

/// How many pieces of `role` stand on a cell.
fn pieces_of(cell: &CellContent<'_>, role: RoleIndex) -> usize {
    cell.iter()
        .filter(|(owner, ..)| *owner == Some(role))
        .map(|&(_, _, count)| count)
        .sum()
}

#[cfg(test)]
mod move_by_move_tests {
    use std::sync::Arc;

    use super::*;
    use crate::picture::PieceMark;
    use crate::{AnalysisHost, Change, Syntax};

    fn playable(path: &str, syntax: Syntax, text: &str) -> PlayableGame {
        let mut host = AnalysisHost::new();
        let mut change = Change::new();
        change.set_file(path, syntax, Arc::from(text), None);
        let file = host.apply_change(change).files[0];
        host.snapshot()
            .playable(file, &EngineOptions::default())
            .expect("nothing writes to the host")
            .expect("the game plays")
    }

    fn tic_tac_toes() -> Vec<PlayableGame> {
        vec![
            playable(
                "ticTacToe.kif",
                Syntax::GdlKif,
                include_str!("../../corpus/gdl/ticTacToe.kif"),
            ),
            playable(
                "tic-tac-toe.ludi",
                Syntax::Ludi,
                include_str!("../../corpus/ludi/tic-tac-toe.ludi"),
            ),
            playable(
                "tic-tac-toe.egg",
                Syntax::Egg,
                include_str!("../../corpus/egg/tic-tac-toe.egg"),
            ),
        ]
    }

    fn choices(turn: Turn) -> Vec<RoleChoice> {
        match turn {
            Turn::Choose(choices) => choices,
            other => panic!("expected a choice, got {other:?}"),
        }
    }

    #[test]
    fn each_placement_of_tic_tac_toe_is_one_cell_of_its_own_and_lands_there() {
        for game in tic_tac_toes() {
            let start = game.position_after(&[]).unwrap();
            let choices = choices(game.turn(&start));
            assert_eq!(choices.len(), 1, "{}", game.engine_name());
            let RoleChoice { role, moves } = &choices[0];
            assert_eq!(moves.len(), 9, "{}", game.engine_name());
            let mut cells: Vec<usize> = moves
                .iter()
                .map(|named| {
                    assert_eq!(named.cells.len(), 1, "{named:?}");
                    named.cells[0]
                })
                .collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), 9, "{}: {moves:?}", game.engine_name());
            for named in moves {
                let after = game
                    .position_after(std::slice::from_ref(&named.name))
                    .unwrap();
                let picture = game.picture(&after);
                let landed: Vec<&PieceMark> = picture
                    .pieces
                    .iter()
                    .filter(|piece| piece.cell == named.cells[0])
                    .collect();
                assert_eq!(landed.len(), 1, "{named:?}");
                assert_eq!(landed[0].owner, Some(*role), "{named:?}");
            }
        }
    }

    #[test]
    fn a_step_leaves_its_cell_first_then_reaches_another() {
        let game = playable(
            "hexapawn.ludi",
            Syntax::Ludi,
            include_str!("../../corpus/ludi/hexapawn.ludi"),
        );
        let start = game.position_after(&[]).unwrap();
        let before = game.picture(&start);
        let choices = choices(game.turn(&start));
        let RoleChoice { role, moves } = &choices[0];
        assert!(!moves.is_empty());
        for named in moves {
            let [from, to] = named.cells[..] else {
                panic!("a step changes two cells: {named:?}");
            };
            let holds = |cell: usize| {
                before
                    .pieces
                    .iter()
                    .any(|piece| piece.cell == cell && piece.owner == Some(*role))
            };
            assert!(holds(from), "{named:?} leaves a cell of its own");
            assert!(!holds(to), "{named:?} reaches a cell it did not hold");
        }
    }

    #[test]
    fn a_player_chooses_a_legal_move_by_name_and_random_play_ends_the_game() {
        for game in tic_tac_toes() {
            let budget = MoveBudget::nodes(50);
            let mut plies: Vec<String> = Vec::new();
            let goals = loop {
                let position = game.position_after(&plies).unwrap();
                match game.turn(&position) {
                    Turn::Over { goals } => break goals,
                    Turn::Choose(choices) => {
                        let role = choices[0].role;
                        let player = if plies.len().is_multiple_of(2) {
                            "random"
                        } else {
                            "mcts"
                        };
                        let name = game
                            .choose_move(&position, role, player, &budget, plies.len() as u64)
                            .unwrap();
                        assert!(
                            choices[0].moves.iter().any(|named| named.name == name),
                            "{name} is among the legal moves"
                        );
                        plies.push(name);
                    }
                    Turn::Forced { ply } => plies.push(ply),
                    Turn::Stuck(why) => panic!("{why}"),
                }
                assert!(plies.len() <= 9, "tic-tac-toe ends within nine moves");
            };
            assert_eq!(goals.len(), game.roles().len());
            let start = game.position_after(&[]).unwrap();
            let unknown = game
                .choose_move(&start, 0, "oracle", &budget, 1)
                .unwrap_err();
            assert!(
                unknown.contains("no player is called `oracle`"),
                "{unknown}"
            );
            let no_role = game
                .choose_move(&start, 7, "random", &budget, 1)
                .unwrap_err();
            assert!(no_role.contains("no role 7"), "{no_role}");
        }
    }

    #[test]
    fn simultaneous_choices_are_given_for_every_role() {
        let game = playable(
            "rock-paper-scissors.egg",
            Syntax::Egg,
            include_str!("../../corpus/egg/rock-paper-scissors.egg"),
        );
        let start = game.position_after(&[]).unwrap();
        let choices = choices(game.turn(&start));
        assert_eq!(
            choices.iter().map(|choice| choice.role).collect::<Vec<_>>(),
            (0..game.roles().len()).collect::<Vec<_>>()
        );
        let ply: Vec<&str> = choices
            .iter()
            .map(|choice| choice.moves[0].name.as_str())
            .collect();
        assert!(game.position_after(&[ply.join(" & ")]).is_ok());
    }

    #[test]
    fn a_random_match_player_draws_afresh_at_every_decision() {
        // The same position asked twenty times of one match's random player: a player made
        // afresh with the same seed each time would give one move (the regression this
        // guards); 20 draws from 9 moves all equal has odds 9^-19.
        for game in tic_tac_toes() {
            let start = game.position_after(&[]).unwrap();
            let mut player = game.match_player("random", 7).unwrap();
            let mut seen: Vec<String> = (0..20)
                .map(|_| {
                    player
                        .choose_move(&game, &start, 0, &MoveBudget::nodes(1), None)
                        .unwrap()
                })
                .collect();
            seen.sort();
            seen.dedup();
            assert!(seen.len() > 1, "{}: always {seen:?}", game.engine_name());
        }
    }
}

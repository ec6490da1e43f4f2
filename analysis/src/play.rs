//! Playing a game, whatever its language: the engine of a file ([`PlayableGame`], built by
//! [`crate::Analysis::playable`]), random playouts for bench figures, the self-play probe,
//! matches between named players, and positions reached by named moves with their pictures.
//!
//! This is the only place that chooses an engine by language; the front ends ask for a
//! playable game and call its methods, which are written once over the engines' one
//! [`Game`] interface.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use ludeme_engine::Game;
use ludeme_engine::egg::EggEngine;
use ludeme_engine::egg::EggState;
use ludeme_engine::gdl::grounded::GroundingLimits;
use ludeme_engine::gdl::{Budget, Engine, Reasoner, ReasonerState};
use ludeme_engine::ludi::advisors::Advisors;
use ludeme_engine::ludi::{LudiGame, LudiState};
use ludeme_engine::notation::replay;
use ludeme_engine::picture::Depict;
use ludeme_engine::players::{Player, RandomPlayer, play_match, player_by_name};
use ludeme_engine::playout::{PlayoutStats, random_playout};
use ludeme_engine::probe::{NoAdvice, probe, probe_with_progress};
use rand::SeedableRng;
use rand::rngs::SmallRng;

pub use ludeme_engine::notation::{ReplayError, ReplayProblem, split_plies};
pub use ludeme_engine::picture::Picture;
pub use ludeme_engine::players::{MatchEnd, MatchResult, MatchSettings, MoveBudget, PLAYER_NAMES};
pub use ludeme_engine::probe::{LeadHistory, PREFERRED_LENGTH, ProbeReport, ProbeSettings};
pub use ludeme_engine::{Reward, RoleIndex};

/// States each search may visit per move when probing a GDL or EGGG game: without advisors,
/// only the search's depth tells good moves from bad (Ludi's advisors value the states a
/// shallower search stops at: [`ProbeSettings::default`]).
pub const UNADVISED_NODES_PER_MOVE: u64 = 2_000;

/// Plies after which a bench playout is abandoned: far beyond any real game's length.
pub const BENCH_MAX_PLIES: usize = 10_000;

/// How to build a game's engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineOptions {
    /// When the engine gives up: GDL grounding stops at its share of it (then the interpreter
    /// runs), and a reasoner's questions stop at it. `None`: the engines' own limits.
    pub deadline: Option<Instant>,
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
}

/// What random playouts measured.
#[derive(Clone, Debug)]
pub struct PlayoutFigures {
    pub playouts: u64,
    pub seconds: f64,
    pub average_plies: f64,
    /// Per role (in the game's order), the frequency of each goal value among the playouts
    /// that reached a terminal state.
    pub outcomes: Vec<BTreeMap<Reward, f64>>,
    /// Playouts that did not end: at the ply limit, with a role without legal moves.
    pub ply_limits: u64,
    pub no_legal_move: u64,
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
            let now = Instant::now();
            let half = deadline.saturating_duration_since(now) / 2;
            let limits = GroundingLimits {
                deadline: Some(now + half.min(Reasoner::GROUNDING_TIME)),
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

    /// Why a GDL game runs on the interpreter, when it could not be grounded.
    pub fn fallback_reason(&self) -> Option<&str> {
        match self {
            PlayableGame::Gdl(reasoner) => reasoner.fallback_reason(),
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
        on_engine!(self, game => measure_playouts(game, duration, seed))
    }

    /// The self-play probe: Ludi games are judged with their advisors, the others with a
    /// neutral evaluation.
    pub fn probe(&self, settings: &ProbeSettings) -> ProbeReport {
        match self {
            PlayableGame::Gdl(reasoner) => probe(reasoner, &NoAdvice, settings),
            PlayableGame::Ludi(game) => {
                let advisors = Advisors::for_game(game, settings.seed);
                probe(&**game, &advisors, settings)
            }
            PlayableGame::Egg(game) => probe(&**game, &NoAdvice, settings),
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
                probe_with_progress(reasoner, &NoAdvice, settings, games_done)
            }
            PlayableGame::Ludi(game) => {
                let advisors = Advisors::for_game(game, settings.seed);
                probe_with_progress(&**game, &advisors, settings, games_done)
            }
            PlayableGame::Egg(game) => {
                probe_with_progress(&**game, &NoAdvice, settings, games_done)
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
    /// `None`, or a name that is none of them, plays at random), seeded per role from `seed`.
    /// Returns the result and the players' names by role.
    pub fn play_match(
        &self,
        players: &[Option<String>],
        seed: u64,
        settings: &MatchSettings,
    ) -> (MatchResult, Vec<&'static str>) {
        on_engine!(self, game => run_match(game, players, seed, settings))
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

fn run_match<G: Game>(
    game: &G,
    names: &[Option<String>],
    seed: u64,
    settings: &MatchSettings,
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
    let result = play_match(game, &mut players, settings);
    let names = players.iter().map(|player| player.name()).collect();
    (result, names)
}

fn measure_playouts<G: Game>(
    game: &G,
    duration: Duration,
    seed: u64,
) -> Result<PlayoutFigures, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut stats = PlayoutStats::new(game.roles().len());
    let start = game.initial_state();
    let clock = Instant::now();
    while clock.elapsed() < duration {
        stats.add(&random_playout(game, &start, &mut rng, BENCH_MAX_PLIES));
        if let Some(failure) = game.failure() {
            return Err(failure);
        }
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
    })
}

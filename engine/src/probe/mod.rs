//! The self-play probe (seed 004, "Aesthetic measurement"): search players play a game against
//! each other from randomly varied openings, and the outcomes and the players' own view of each
//! position (the lead history) give the viability and quality criteria — completion,
//! drawishness, balance, first-move advantage, duration, drama, uncertainty, lead change,
//! decisiveness — and the seed's viability verdict.
//!
//! The probe works on any [`Game`]; what it knows of a game beyond the rules comes through a
//! [`Heuristic`] (the Ludi engine's advisors, EGGG's static evaluator, the generic GDL evaluator
//! of [`gdl_evaluator`], or [`NoAdvice`]). The players are the shared iterative-deepening
//! alpha-beta search of [`crate::players`], under a budget of states per move (repeatable) and
//! of CPU time (a guard that does not depend on the machine's load). A stop flag ends a probe
//! at once, with the games finished by then measured.

pub mod criteria;
pub mod gdl_evaluator;
mod metrics;

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::cpu_time::{CpuDeadline, CpuInstant};
use crate::picture::Depict;
use crate::players::{Clock, Heuristic, MoveBudget, SearchPlayer};
use crate::{Game, Reward, RoleIndex};

pub use metrics::{FIRM_VERDICT_GAMES, LeadHistory, ProbeReport, Verdict};

/// The seed's preferred game length; games longer than twice it are abandoned as draws.
pub const PREFERRED_LENGTH: usize = 60;

#[derive(Clone, Debug)]
pub struct ProbeSettings {
    pub games: usize,
    pub seed: u64,
    /// The random opening, "to encourage a more thorough exploration" (seed): each player's
    /// first this many moves — decisions between two or more legal moves — are played at
    /// random. Every player's, so that the opening handicaps nobody (one random ply would
    /// handicap only the first player); the plies up to its last random move are left out of
    /// the lead histories.
    pub random_plies: usize,
    /// States each search may visit per move.
    pub nodes_per_move: u64,
    /// A guard on each move's CPU time, whatever the node budget.
    pub time_per_move: Duration,
    /// When the whole probe must stop, in CPU time (games not played by then are not counted).
    pub time_limit: Option<Duration>,
    /// Plies after which a game is abandoned as a draw (a timeout).
    pub max_length: usize,
    /// Set by another thread (a Ctrl-C handler, an editor's request) to stop the probe: the
    /// move being searched ends at once, the game under way is dropped, and the games finished
    /// by then are measured.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Default for ProbeSettings {
    fn default() -> Self {
        ProbeSettings {
            games: 100,
            seed: 0,
            random_plies: 1,
            nodes_per_move: 150,
            time_per_move: Duration::from_secs(1),
            time_limit: None,
            max_length: 2 * PREFERRED_LENGTH,
            stop: None,
        }
    }
}

/// A heuristic that knows nothing: every non-terminal state is even.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoAdvice;

impl<G: Game> Heuristic<G> for NoAdvice {
    fn value(&self, _game: &G, _state: &G::State, _role: RoleIndex) -> Reward {
        50
    }
}

/// One game of the probe, as the metrics need it.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameRecord {
    /// Plies played, the random opening included.
    pub length: usize,
    /// Plies up to and including the random opening's last random move (0 without one).
    pub opening: usize,
    /// The role that won, when one role's goal is above every other's.
    pub winner: Option<RoleIndex>,
    /// Abandoned at the length limit (or the engine stopped answering).
    pub timed_out: bool,
    /// After each searched ply, every role's estimate of its position, 0..1.
    pub leads: Vec<Vec<f64>>,
    /// At each ply, the number of legal moves of the role with most (the mover's).
    pub options: Vec<usize>,
    /// The hash of every state of the game, the initial one first.
    pub state_hashes: Vec<u64>,
    /// Each cell of the board (as the engine draws it), whether a piece stood on it at some
    /// point of the game; empty for a game without a board.
    pub cells_used: Vec<bool>,
}

impl GameRecord {
    /// Marks the cells `state` has pieces on as used.
    fn mark_cells<G: Depict>(&mut self, game: &G, state: &G::State) {
        let picture = game.picture(state);
        self.cells_used.resize(picture.cells.len(), false);
        for piece in &picture.pieces {
            if let Some(used) = self.cells_used.get_mut(piece.cell) {
                *used = true;
            }
        }
    }
}

/// A state's hash for the repetition criteria: `DefaultHasher::new` has fixed keys, so the
/// same state hashes alike in every run.
fn state_hash<S: Hash>(state: &S) -> u64 {
    let mut hasher = DefaultHasher::new();
    state.hash(&mut hasher);
    hasher.finish()
}

/// Plays the probe's games and measures them (the engine draws each position, for the board
/// coverage criterion).
pub fn probe<G: Depict>(
    game: &G,
    heuristic: &dyn Heuristic<G>,
    settings: &ProbeSettings,
) -> ProbeReport {
    probe_with_progress(game, heuristic, settings, &mut |_| {})
}

/// [`probe`], telling `games_done` the number of games played after each one (for a progress
/// bar: a probe of a hundred games of a large board takes minutes).
pub fn probe_with_progress<G: Depict>(
    game: &G,
    heuristic: &dyn Heuristic<G>,
    settings: &ProbeSettings,
    games_done: &mut dyn FnMut(usize),
) -> ProbeReport {
    // CPU time: how many games a time limit allows does not depend on the machine's load.
    let started = CpuInstant::now();
    let roles = game.roles().len();
    let player = SearchPlayer::iterative_deepening();
    // The node budget decides each move; the CPU guard (per move, below) only stops a search
    // whose states are unusually costly.
    let budget = MoveBudget::nodes(settings.nodes_per_move.max(1));
    let stopped = || {
        settings
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    };
    let mut records = Vec::new();
    let mut rng = SmallRng::seed_from_u64(settings.seed);
    'games: for _ in 0..settings.games {
        if stopped()
            || settings
                .time_limit
                .is_some_and(|limit| started.elapsed() >= limit)
        {
            break;
        }
        let mut record = GameRecord::default();
        let mut state = game.initial_state();
        record.state_hashes.push(state_hash(&state));
        record.mark_cells(game, &state);
        // Each role's random moves so far: every role's opening is its own first moves.
        let mut random_moves = vec![0; roles];
        loop {
            if game.is_terminal(&state) || game.failure().is_some() {
                break;
            }
            if record.length >= settings.max_length {
                record.timed_out = true;
                break;
            }
            let mut joint = Vec::with_capacity(roles);
            let mut options = 0;
            let mut random_ply = false;
            for (role, random_so_far) in random_moves.iter_mut().enumerate() {
                let moves = game.legal_moves(&state, role);
                options = options.max(moves.len());
                let chosen = match moves.len() {
                    0 => None,
                    1 => moves.first().cloned(),
                    // Chance (GDL's `random`) is nobody's strategy: it always moves at random.
                    n if game.is_chance_role(role) => moves.get(rng.random_range(0..n)).cloned(),
                    n if *random_so_far < settings.random_plies => {
                        *random_so_far += 1;
                        random_ply = true;
                        moves.get(rng.random_range(0..n)).cloned()
                    }
                    _ => {
                        let mut clock = Clock::start(&budget)
                            .with_cpu_deadline(CpuDeadline::after(settings.time_per_move));
                        if let Some(flag) = &settings.stop {
                            clock = clock.with_cancel(Arc::clone(flag));
                        }
                        player
                            .analyse_with(game, &state, role, &mut clock, heuristic)
                            .best_move
                            .or_else(|| moves.first().cloned())
                    }
                };
                match chosen {
                    Some(m) => joint.push(m),
                    None => break,
                }
            }
            if stopped() {
                break 'games; // a search cut short chose its move badly: drop the game
            }
            if joint.len() < roles {
                record.timed_out = true; // a role without moves: the game cannot go on
                break;
            }
            state = game.next_state(&state, &joint);
            record.options.push(options);
            record.state_hashes.push(state_hash(&state));
            record.mark_cells(game, &state);
            record.length += 1;
            if random_ply {
                // The opening lasts until its last random move, whoever makes it: what was
                // measured before it belongs to the opening too.
                record.opening = record.length;
                record.leads.clear();
            } else {
                record.leads.push(
                    (0..roles)
                        .map(|role| estimate(game, &state, role, heuristic))
                        .collect(),
                );
            }
        }
        if game.failure().is_some() {
            record.timed_out = true;
        } else if game.is_terminal(&state) {
            let goals = game.goals(&state);
            let best = goals.iter().copied().max().unwrap_or(0);
            let leaders: Vec<RoleIndex> = (0..goals.len()).filter(|&r| goals[r] == best).collect();
            if let [winner] = leaders[..] {
                record.winner = Some(winner);
            } else if record.length >= settings.max_length {
                // The engine's own cap (Ludi's 120 moves) ended it as a draw.
                record.timed_out = true;
            }
        }
        records.push(record);
        games_done(records.len());
    }
    metrics::measure(game.roles(), &records, settings, started.elapsed())
}

/// A role's view of `state`, 0..1: the goal once the game is over, else the heuristic.
fn estimate<G: Game>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    heuristic: &dyn Heuristic<G>,
) -> f64 {
    let value = if game.is_terminal(state) {
        game.goals(state).get(role).copied().unwrap_or(0)
    } else {
        heuristic.value(game, state, role)
    };
    f64::from(value.min(100)) / 100.0
}

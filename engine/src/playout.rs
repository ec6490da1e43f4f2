//! Random playouts over any [`Game`]: the building block of Monte-Carlo players, simulation
//! checks and `ludeme bench`.

use std::collections::BTreeMap;

use rand::{Rng, RngExt};

use crate::{Game, Reward, RoleIndex};

/// How a playout ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayoutEnd {
    /// A terminal state: the goals are the game's.
    Terminal,
    /// `max_plies` joint moves were played without reaching a terminal state.
    PlyLimit,
    /// A role had no legal move in a non-terminal state (a faulty game).
    NoLegalMove(RoleIndex),
    /// The engine gave up (a budget ran out, or the game misbehaved); the message says why.
    Failure(String),
}

/// The result of one playout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Joint moves played.
    pub plies: usize,
    pub end: PlayoutEnd,
    /// The goals of the terminal state (only when `end` is [`PlayoutEnd::Terminal`]).
    pub goals: Option<Vec<Reward>>,
    /// The terminal state gave some role several goal values (a fault of the game; `goals`
    /// holds the highest, as players resolve it).
    pub ambiguous_goals: bool,
}

/// A joint move with every role's move drawn uniformly from its legal moves, or the first role
/// without a legal move.
pub fn random_joint_move<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &G::State,
    rng: &mut R,
) -> Result<Vec<G::Move>, RoleIndex> {
    let mut joint = Vec::with_capacity(game.roles().len());
    for role in 0..game.roles().len() {
        let mut moves = game.legal_moves(state, role);
        if moves.is_empty() {
            return Err(role);
        }
        let pick = rng.random_range(0..moves.len());
        joint.push(moves.swap_remove(pick));
    }
    Ok(joint)
}

/// Plays uniformly random joint moves from `state` until a terminal state or `max_plies`,
/// through the engine's own loop ([`Game::random_playout`]).
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    max_plies: usize,
) -> Playout {
    game.random_playout(state, rng, max_plies)
}

/// [`random_playout`] through the [`Game`] methods one by one: the default of
/// [`Game::random_playout`].
pub fn step_by_step_playout<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    max_plies: usize,
) -> Playout {
    let mut state = state.clone();
    let mut plies = 0;
    let end = loop {
        let terminal = game.is_terminal(&state);
        if let Some(message) = game.failure() {
            break PlayoutEnd::Failure(message);
        }
        if terminal {
            break PlayoutEnd::Terminal;
        }
        if plies >= max_plies {
            break PlayoutEnd::PlyLimit;
        }
        let joint = random_joint_move(game, &state, rng);
        if let Some(message) = game.failure() {
            break PlayoutEnd::Failure(message);
        }
        match joint {
            Ok(joint) => state = game.next_state(&state, &joint),
            Err(role) => break PlayoutEnd::NoLegalMove(role),
        }
        plies += 1;
    };
    let mut goals = None;
    if end == PlayoutEnd::Terminal {
        let values = game.goals(&state);
        if let Some(message) = game.failure() {
            return Playout {
                plies,
                end: PlayoutEnd::Failure(message),
                goals: None,
                ambiguous_goals: false,
            };
        }
        goals = Some(values);
    }
    let ambiguous_goals = goals.is_some() && game.goals_are_ambiguous(&state);
    Playout {
        plies,
        end,
        goals,
        ambiguous_goals,
    }
}

/// [`Game::random_playouts_while`] one playout after the other: its default.
pub fn one_at_a_time<G: Game, R: Rng + ?Sized>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    max_plies: usize,
    stats: &mut PlayoutStats,
    another: &mut dyn FnMut(u64) -> bool,
) {
    let mut begun = 0;
    while another(begun) {
        begun += 1;
        stats.add(&game.random_playout(state, rng, max_plies));
        if game.failure().is_some() {
            break;
        }
    }
}

/// Totals over many playouts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    pub playouts: u64,
    /// Playouts that reached a terminal state.
    pub completed: u64,
    /// Plies over the completed playouts.
    pub completed_plies: u64,
    /// Per role, how often each goal value ended a completed playout.
    pub outcomes: Vec<BTreeMap<Reward, u64>>,
    /// Completed playouts whose terminal state gave a role several goal values.
    pub ambiguous_goals: u64,
    pub ply_limits: u64,
    pub no_legal_move: u64,
    /// The first failure message met, with how many playouts failed.
    pub failures: u64,
    pub first_failure: Option<String>,
}

impl PlayoutStats {
    pub fn new(roles: usize) -> Self {
        PlayoutStats {
            outcomes: vec![BTreeMap::new(); roles],
            ..PlayoutStats::default()
        }
    }

    pub fn add(&mut self, playout: &Playout) {
        let others = match &playout.end {
            PlayoutEnd::Terminal => {
                let goals = playout.goals.as_deref().unwrap_or_default();
                return self.add_terminal(playout.plies, goals, playout.ambiguous_goals);
            }
            PlayoutEnd::PlyLimit => &mut self.ply_limits,
            PlayoutEnd::NoLegalMove(_) => &mut self.no_legal_move,
            PlayoutEnd::Failure(message) => {
                self.first_failure.get_or_insert_with(|| message.clone());
                &mut self.failures
            }
        };
        *others += 1;
        self.playouts += 1;
    }

    /// Adds a playout that reached a terminal state after `plies`, with these goals (as
    /// [`PlayoutStats::add`], without building a [`Playout`]).
    pub fn add_terminal(&mut self, plies: usize, goals: &[Reward], ambiguous_goals: bool) {
        self.playouts += 1;
        self.completed += 1;
        self.completed_plies += plies as u64;
        self.ambiguous_goals += u64::from(ambiguous_goals);
        for (outcome, &value) in self.outcomes.iter_mut().zip(goals) {
            *outcome.entry(value).or_default() += 1;
        }
    }

    /// Mean plies of the completed playouts.
    pub fn average_plies(&self) -> f64 {
        if self.completed == 0 {
            0.0
        } else {
            self.completed_plies as f64 / self.completed as f64
        }
    }

    /// The share of completed playouts in which `role` got `value`.
    pub fn frequency(&self, role: RoleIndex, value: Reward) -> f64 {
        if self.completed == 0 {
            return 0.0;
        }
        let count = self.outcomes[role].get(&value).copied().unwrap_or(0);
        count as f64 / self.completed as f64
    }
}

/// Runs `count` random playouts from the initial state.
pub fn random_playouts<G: Game, R: Rng + ?Sized>(
    game: &G,
    rng: &mut R,
    count: u64,
    max_plies: usize,
) -> PlayoutStats {
    let start = game.initial_state();
    let mut stats = PlayoutStats::new(game.roles().len());
    game.random_playouts_while(&start, rng, max_plies, &mut stats, &mut |started| {
        started < count
    });
    stats
}

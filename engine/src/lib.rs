//! Game engines behind one interface.
//!
//! Every engine — the GDL reasoner, the Ludi board engine, the EGGG core — implements [`Game`],
//! so that players (random, minimax, alpha-beta, MCTS), self-play probes and benchmarks are
//! written once. Engines are plain Rust: no salsa, no editor types; the analysis layer builds
//! them from its lowered models and drives them under budgets.

pub mod cpu_time;
pub mod egg;
pub mod gdl;
pub mod graph;
pub mod ludi;
pub mod notation;
pub mod opponent_model;
pub mod picture;
pub mod players;
pub mod playout;
pub mod probe;

use std::fmt::Debug;
use std::hash::Hash;

use rand::Rng;

/// A role's index into [`Game::roles`].
pub type RoleIndex = usize;

/// A goal value, 0 (loss) to 100 (win), as in GDL.
pub type Reward = u8;

/// A finite game with simultaneous moves: in every non-terminal state each role picks one legal
/// move (turn-taking games give the roles not to move a single no-op), and the joint move gives
/// the next state. This is GDL's model, the most general of the three languages; Ludi and EGGG
/// games map onto it with one mover per turn.
pub trait Game {
    type State: Clone + Eq + Hash + Debug;
    type Move: Clone + Eq + Hash + Debug;

    /// The role names, in the order the game declares them.
    fn roles(&self) -> &[String];

    fn initial_state(&self) -> Self::State;

    fn is_terminal(&self, state: &Self::State) -> bool;

    /// The legal moves of `role` in `state`; never empty in a well-formed non-terminal state.
    fn legal_moves(&self, state: &Self::State, role: RoleIndex) -> Vec<Self::Move>;

    /// The state after every role made its move of `joint` (indexed by role).
    fn next_state(&self, state: &Self::State, joint: &[Self::Move]) -> Self::State;

    /// The goal value of each role in `state` (indexed by role).
    fn goals(&self, state: &Self::State) -> Vec<Reward>;

    /// Whether the terminal `state` gives some role several goal values ([`Game::goals`] then
    /// gives the highest). Only GDL can say so; other languages give one value by construction.
    fn goals_are_ambiguous(&self, _state: &Self::State) -> bool {
        false
    }

    /// Why the engine stopped answering, if it did. Engines that work under budgets (the GDL
    /// interpreter) cannot return an error through the methods above; after a failure they
    /// answer "terminal, no moves" and say why here, so that players and playouts can tell a
    /// real end of game from a give-up.
    fn failure(&self) -> Option<String> {
        None
    }

    /// Whether `role` is chance (GDL-II's `random`): its move is drawn uniformly among its
    /// legal moves, and no player ever chooses it.
    fn is_chance_role(&self, _role: RoleIndex) -> bool {
        false
    }

    /// What `role` perceives when `joint` is played in `state` (GDL-II's `sees`), each percept
    /// in the game's own text (KIF for GDL), sorted; empty in games of complete information,
    /// where every role sees the whole state.
    fn percepts(
        &self,
        _state: &Self::State,
        _joint: &[Self::Move],
        _role: RoleIndex,
    ) -> Vec<String> {
        Vec::new()
    }

    /// Plays uniformly random joint moves from `state` until a terminal state or `max_plies`
    /// (see [`playout::random_playout`], which calls this). The default steps through the
    /// methods above; an engine with a faster loop (the grounded GDL reasoner plays without
    /// allocating) overrides it with the same behaviour.
    fn random_playout<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
        max_plies: usize,
    ) -> playout::Playout
    where
        Self: Sized,
    {
        playout::step_by_step_playout(self, state, rng, max_plies)
    }

    /// Random playouts from `state` into `stats`, each as [`Game::random_playout`] plays it,
    /// beginning one more each time `another(begun)` agrees (`begun`: how many this call has
    /// begun so far), and none after a failure. The default plays one after the other; an
    /// engine may play several at once (the grounded GDL reasoner plays 64, one in each bit
    /// of a word), so `another` is asked when a playout can begin, while others are still
    /// being played; every playout begun is played to its end.
    fn random_playouts_while<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
        max_plies: usize,
        stats: &mut playout::PlayoutStats,
        another: &mut dyn FnMut(u64) -> bool,
    ) where
        Self: Sized,
    {
        playout::one_at_a_time(self, state, rng, max_plies, stats, another);
    }
}

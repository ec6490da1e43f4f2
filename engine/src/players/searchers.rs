//! The search players — the seed's maximizer, minimax, bounded minimax, alpha-beta, and
//! iterative deepening of alpha-beta under a play clock — as one player type: they are one
//! search ([`search`]) with different settings.

use super::search::{self, Depth, Heuristic, Others, Pruning, SearchConfig, SearchOutcome};
use super::{Clock, Player};
use crate::{Game, RoleIndex};

/// A player that searches the game tree; build it with one of the named constructors.
#[derive(Clone, Copy, Debug)]
pub struct SearchPlayer {
    name: &'static str,
    config: SearchConfig,
}

impl SearchPlayer {
    const fn to_the_end(
        name: &'static str,
        pruning: Pruning,
        others: Others,
        transpositions: bool,
    ) -> Self {
        SearchPlayer {
            name,
            config: SearchConfig {
                pruning,
                others,
                depth: Depth::Fixed(search::MAX_SEARCH_DEPTH),
                transpositions,
            },
        }
    }

    /// Plain minimax over the whole game, the other roles adversaries who see our move: every
    /// move looked at, nothing remembered. Slow, and therefore the reference the faster
    /// searches are tested against.
    pub const fn minimax() -> Self {
        Self::to_the_end("minimax", Pruning::None, Others::Adversarial, false)
    }

    /// The seed's bounded minimax: minimax that stops looking at a state's moves once one is
    /// worth 100 (nothing is better) and at a move's replies once one is worth 0 (nothing is
    /// worse).
    pub const fn bounded_minimax() -> Self {
        Self::to_the_end("bounded", Pruning::Bounds, Others::Adversarial, false)
    }

    /// The seed's alpha-beta (rewards 0–100, so the first window is 0..100), with a table of the
    /// states already valued. Under a clock that runs out it answers with the best move it
    /// finished.
    pub const fn alpha_beta() -> Self {
        Self::to_the_end("alphabeta", Pruning::AlphaBeta, Others::Adversarial, true)
    }

    /// Alpha-beta to depth 1, 2, 3, ... until the play clock runs out or the game is solved;
    /// plays the best move of the deepest search finished. Each search starts with the previous
    /// best move and reuses the states the previous ones valued.
    pub const fn iterative_deepening() -> Self {
        SearchPlayer {
            name: "iterative",
            config: SearchConfig {
                depth: Depth::Iterative,
                ..Self::alpha_beta().config
            },
        }
    }

    /// The seed's maximizer for one-player games (puzzles): the best reachable reward, stopping
    /// at the first way to 100. In a game with other roles it assumes they play along (their
    /// joint move is the one best for it): exact for puzzles, naive elsewhere. Puzzles reach the
    /// same state by many paths (the 8-puzzle slides its tiles back), so it remembers states.
    pub const fn maximizer() -> Self {
        Self::to_the_end("maximizer", Pruning::Bounds, Others::Cooperative, true)
    }

    /// The search player `name` names (as `ludeme play --player` spells it), if it is one.
    pub fn named(name: &str) -> Option<Self> {
        [
            Self::maximizer(),
            Self::minimax(),
            Self::bounded_minimax(),
            Self::alpha_beta(),
            Self::iterative_deepening(),
        ]
        .into_iter()
        .find(|search| search.name == name)
    }

    /// The player's name, as `ludeme play --player` spells it.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The same search at most `plies` joint moves deep; states cut off there are worth 50.
    /// (Iterative deepening sets its own depths and is left as it is.)
    pub fn with_depth_limit(self, plies: u32) -> Self {
        let mut limited = self;
        if let Depth::Fixed(_) = self.config.depth {
            limited.config.depth = Depth::Fixed(plies.min(search::MAX_SEARCH_DEPTH));
        }
        limited
    }

    /// The value `role` can secure from `state` under this search's assumptions, and a move
    /// that secures it.
    pub fn analyse<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> SearchOutcome<G::Move> {
        search::analyse(game, state, role, self.config, clock)
    }

    /// [`SearchPlayer::analyse`] valuing the states cut off at the depth limit, and ordering
    /// moves, by `heuristic` (the Ludi probe's advisors).
    pub fn analyse_with<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
        heuristic: &dyn Heuristic<G>,
    ) -> SearchOutcome<G::Move> {
        search::analyse_with(game, state, role, self.config, clock, Some(heuristic))
    }

    /// The move this search makes for `role` in `state` with `heuristic` valuing cut-off
    /// states and choosing the moves it looks at ([`Heuristic::select`]): what
    /// [`Player::choose_move`] does without one.
    pub fn choose_move_with<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
        heuristic: &dyn Heuristic<G>,
    ) -> Option<G::Move> {
        search::choose_by_search(game, state, role, self.config, clock, Some(heuristic))
    }
}

impl<G: Game> Player<G> for SearchPlayer {
    fn name(&self) -> &'static str {
        self.name
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        search::choose_by_search(game, state, role, self.config, clock, None)
    }
}

//! Players over any [`Game`]: legal, random, maximizer, minimax, bounded minimax, alpha-beta,
//! iterative deepening and Monte-Carlo tree search (the default general player), as the seeds'
//! Gamemaster course defines them, plus [`play_match`] to run a game between them.
//!
//! Every role moves in every state (DESIGN.md: GDL's simultaneous-move model), so the tree
//! searches look at a state as two levels: the searching role's choice, then the other roles'
//! joint choice, which they treat as adversarial — the seed's pessimistic opponent, who knows
//! our move. In a turn-taking game one of the two levels is a single no-op and the searches are
//! the textbook ones.
//!
//! Players never panic on a game: a role without legal moves, a terminal state or an engine that
//! gave up ([`Game::failure`]) all make [`Player::choose_move`] answer `None`.

mod clock;
mod legal;
mod matches;
mod mcts;
mod random;
mod search;
mod searchers;
#[cfg(test)]
mod tests;

pub use clock::{Clock, MoveBudget};
pub use legal::LegalPlayer;
pub use matches::{MatchEnd, MatchResult, MatchSettings, play_match};
pub use mcts::{KeptTreeMcts, Mcts, MovePrior};
pub use random::RandomPlayer;
pub use search::{Heuristic, NEUTRAL, SearchOutcome};
pub use searchers::SearchPlayer;

use crate::{Game, RoleIndex};

/// Something that picks moves.
pub trait Player<G: Game> {
    /// The player's name, as `ludeme play --player` spells it.
    fn name(&self) -> &'static str;

    /// A legal move for `role` in `state`, within the clock's budget; `None` when the state is
    /// terminal, the role has no legal move, or the engine failed.
    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move>;
}

/// The player names [`player_by_name`] knows, default first.
pub const PLAYER_NAMES: [&str; 8] = [
    "mcts",
    "legal",
    "random",
    "maximizer",
    "minimax",
    "bounded",
    "alphabeta",
    "iterative",
];

/// A player by name (see [`PLAYER_NAMES`]); `seed` makes the random ones repeatable.
pub fn player_by_name<G: Game>(name: &str, seed: u64) -> Option<Box<dyn Player<G>>> {
    Some(match name {
        "mcts" => Box::new(Mcts::new(seed)),
        "legal" => Box::new(LegalPlayer),
        "random" => Box::new(RandomPlayer::new(seed)),
        "maximizer" => Box::new(SearchPlayer::maximizer()),
        "minimax" => Box::new(SearchPlayer::minimax()),
        "bounded" => Box::new(SearchPlayer::bounded_minimax()),
        "alphabeta" => Box::new(SearchPlayer::alpha_beta()),
        "iterative" => Box::new(SearchPlayer::iterative_deepening()),
        _ => return None,
    })
}

/// What a player has to decide in a state.
pub(crate) enum Choice<M> {
    /// Nothing to think about: no move (terminal, none legal, or the engine failed) or the only
    /// legal one (the idle role's no-op in a turn-taking game).
    Decided(Option<M>),
    /// Two or more legal moves.
    Open(Vec<M>),
}

pub(crate) fn choice<G: Game>(game: &G, state: &G::State, role: RoleIndex) -> Choice<G::Move> {
    if game.is_terminal(state) || game.failure().is_some() {
        return Choice::Decided(None);
    }
    let mut moves = game.legal_moves(state, role);
    if game.failure().is_some() {
        return Choice::Decided(None);
    }
    match moves.len() {
        0 | 1 => Choice::Decided(moves.pop()),
        _ => Choice::Open(moves),
    }
}

/// A player that does not look ahead (the seed's legal and random players): where a state
/// leaves a choice, it takes the legal move at the index it picks.
pub trait Reflex {
    /// The player's name, as `ludeme play --player` spells it.
    const NAME: &'static str;

    /// The index of the move to make among `count` legal moves (at least two).
    fn pick(&mut self, count: usize) -> usize;
}

impl<G: Game, P: Reflex> Player<G> for P {
    fn name(&self) -> &'static str {
        P::NAME
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        _clock: &mut Clock,
    ) -> Option<G::Move> {
        match choice(game, state, role) {
            Choice::Decided(only) => only,
            Choice::Open(mut moves) => {
                let index = self.pick(moves.len());
                Some(moves.swap_remove(index))
            }
        }
    }
}

/// The joint moves in which `role` plays `fixed` and every other role one of its legal moves:
/// an odometer over the other roles' move lists, so that the product is never held in memory.
pub(crate) struct JointMoves<'a, M> {
    role: RoleIndex,
    fixed: &'a M,
    others: &'a [Vec<M>],
    /// The next combination, one index per role (the searching role's stays 0); `None` once
    /// every combination has been given.
    next: Option<Vec<usize>>,
}

impl<'a, M: Clone> JointMoves<'a, M> {
    /// `others[r]` are role `r`'s legal moves (the entry of `role` itself is ignored); a role
    /// other than `role` without moves gives no joint move at all.
    pub(crate) fn new(role: RoleIndex, fixed: &'a M, others: &'a [Vec<M>]) -> Self {
        let empty = others
            .iter()
            .enumerate()
            .any(|(r, moves)| r != role && moves.is_empty());
        JointMoves {
            role,
            fixed,
            others,
            next: (!empty).then(|| vec![0; others.len()]),
        }
    }
}

impl<M: Clone> Iterator for JointMoves<'_, M> {
    type Item = Vec<M>;

    fn next(&mut self) -> Option<Vec<M>> {
        let indices = self.next.as_mut()?;
        let joint = indices
            .iter()
            .enumerate()
            .map(|(r, &i)| {
                if r == self.role {
                    self.fixed.clone()
                } else {
                    self.others[r][i].clone()
                }
            })
            .collect();
        // Advance the odometer, skipping the searching role's own wheel.
        let mut wrapped = true;
        for r in (0..indices.len()).rev() {
            if r == self.role {
                continue;
            }
            indices[r] += 1;
            if indices[r] < self.others[r].len() {
                wrapped = false;
                break;
            }
            indices[r] = 0;
        }
        if wrapped {
            self.next = None;
        }
        Some(joint)
    }
}

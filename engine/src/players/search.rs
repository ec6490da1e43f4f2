//! The one depth-first search behind the maximizer, minimax, bounded minimax, alpha-beta and
//! iterative deepening: they differ only in how they prune, how they see the other roles, how
//! deep they look and whether they remember states ([`SearchConfig`]).
//!
//! Values are the searching role's rewards, 0–100. A state is searched on two levels: the
//! searching role's moves (the maximum), then, for each, the other roles' joint moves (the
//! minimum when they are adversaries, the maximum when they cooperate). States cut off at the
//! depth limit are worth [`NEUTRAL`]: the search knows nothing about them.

use std::collections::HashMap;

use super::{Choice, Clock, JointMoves, choice};
use crate::{Game, Reward, RoleIndex};

/// How deep any search may go, in joint moves. The searches recurse once per ply, so this bounds
/// their stack whatever the game; games longer than this are valued [`NEUTRAL`] at the cut.
pub const MAX_SEARCH_DEPTH: u32 = 400;

/// The value of a state cut off at the depth limit, or of a faulty state (a non-terminal state
/// in which some role has no legal move): halfway between losing and winning.
pub const NEUTRAL: Reward = 50;

/// The most states a search remembers; past it, it keeps searching without remembering more.
const TABLE_CAPACITY: usize = 1 << 19;

/// Values a search computes with: rewards widened so that −1 and 101 can stand for "below/above
/// any reward" in the search window.
type Value = i32;
const BELOW_ANY: Value = -1;
const ABOVE_ANY: Value = 101;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pruning {
    /// Plain minimax: every move is looked at.
    None,
    /// The seed's bounded minimax: stop at a move worth 100 (nothing is better) and at an
    /// opponent reply worth 0 (nothing is worse).
    Bounds,
    /// Alpha-beta: the same, with the bounds narrowed by what the search has already found.
    AlphaBeta,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Others {
    /// The other roles choose the joint move worst for the searching role.
    Adversarial,
    /// The other roles choose the joint move best for the searching role: the world of a
    /// one-player puzzle, where the maximizer is exact.
    Cooperative,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Depth {
    /// Search to this many plies (at most [`MAX_SEARCH_DEPTH`]).
    Fixed(u32),
    /// Search to depth 1, 2, 3, ... until the clock stops it or the game is solved, and answer
    /// with the deepest search completed.
    Iterative,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchConfig {
    pub pruning: Pruning,
    pub others: Others,
    pub depth: Depth,
    /// Remember the values of states met before (transpositions are common in board games).
    pub transpositions: bool,
}

/// What a search may know about a game beyond its rules (the Ludi probe's advisors): a value for
/// states cut off at the depth limit, and an order in which to try moves (best first, so that
/// alpha-beta prunes more). Without one, cut-off states are worth [`NEUTRAL`].
pub trait Heuristic<G: Game> {
    /// How good `state` looks for `role`; the search clamps it to 1..=99, since only real
    /// terminal states may claim a proven win or loss.
    fn value(&self, game: &G, state: &G::State, role: RoleIndex) -> Reward;

    /// Reorders `role`'s legal moves in `state`, most promising first.
    fn order(&self, _game: &G, _state: &G::State, _role: RoleIndex, _moves: &mut [G::Move]) {}

    /// The moves of `role` in `state` the search looks at, in the order it tries them: by
    /// default every legal move, in [`Heuristic::order`]'s order. A heuristic that knows how a
    /// role plays (an opponent model) may also drop the moves it finds too unlikely to be
    /// played; it keeps at least one of a non-empty list, or the state is valued as a dead end.
    /// A state whose moves were dropped is valued within 1..=99: a win or loss found there
    /// holds only if the model does, so it is not a proven one (which would end iterative
    /// deepening and outrank a real forced win), and the search is not reported as solved.
    fn select(&self, game: &G, state: &G::State, role: RoleIndex, moves: &mut Vec<G::Move>) {
        self.order(game, state, role, moves);
    }
}

/// What a search found for a role in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome<M> {
    /// The best move found; when the clock stopped the search, the best among the moves it
    /// finished, or else the first legal move. `None` when the state is terminal, the role has no
    /// legal move, or the engine failed.
    pub best_move: Option<M>,
    /// The value the role can secure from this state under the search's assumptions, to the
    /// depth searched; `None` when the clock stopped the search before it finished any depth.
    pub value: Option<Reward>,
    /// Whether `value` is exact to the end of the game: no state was cut off at the depth limit.
    pub solved: bool,
    /// The depth of the search that gave `value` (for iterative deepening, the deepest finished).
    pub depth: u32,
    /// States searched (all depths together).
    pub nodes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The state is worth at least the value.
    Lower,
    /// The state is worth at most the value.
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    value: Value,
    bound: Bound,
    /// Plies searched below the state.
    remaining: u32,
    /// No state below was cut off at the depth limit: the value holds at any depth.
    solved: bool,
}

/// Why a search stopped before its end.
struct Stop;

/// Searches `state` for `role`.
pub(crate) fn analyse<G: Game>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    config: SearchConfig,
    clock: &mut Clock,
) -> SearchOutcome<G::Move> {
    analyse_with(game, state, role, config, clock, None)
}

/// [`analyse`] with a heuristic for cut-off states and move order.
pub(crate) fn analyse_with<G: Game>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    config: SearchConfig,
    clock: &mut Clock,
    heuristic: Option<&dyn Heuristic<G>>,
) -> SearchOutcome<G::Move> {
    let mut search = Search {
        game,
        role,
        config,
        limit: 0,
        clock,
        heuristic,
        table: HashMap::new(),
        horizon_hits: 0,
        root_best: None,
        pruned_states: 0,
    };
    let mut outcome = SearchOutcome {
        best_move: None,
        value: None,
        solved: false,
        depth: 0,
        nodes: 0,
    };
    let root = search.root(state);
    let root_pruned = search.pruned_states > 0;
    match root {
        Err(Stop) | Ok(Root::DeadEnd) => {}
        Ok(Root::Terminal(value)) => {
            outcome.value = Some(reward(value));
            outcome.solved = true;
        }
        Ok(Root::Open(all)) => {
            let moves = &all[role];
            let mut first = None;
            let limits = match config.depth {
                Depth::Fixed(limit) => limit.min(MAX_SEARCH_DEPTH)..=limit.min(MAX_SEARCH_DEPTH),
                Depth::Iterative => 1..=MAX_SEARCH_DEPTH,
            };
            let (alpha, beta) = search.window(0, 100);
            for limit in limits {
                search.limit = limit;
                search.horizon_hits = 0;
                search.root_best = None;
                match search.best_of(state, &all, 0, alpha, beta, first) {
                    Ok((value, index)) => {
                        let value = if root_pruned {
                            value.clamp(1, 99)
                        } else {
                            value
                        };
                        first = Some(index);
                        outcome.value = Some(reward(value));
                        outcome.depth = limit;
                        // Nothing cut off at the depth limit: a deeper search would find the
                        // same (in a pruned tree too, since the pruning depends on the state).
                        let complete = search.horizon_hits == 0;
                        outcome.solved = complete && search.pruned_states == 0;
                        // A win or loss found at any depth is proven: only real terminal
                        // states are worth 100 or 0, never a state cut off at the limit, nor
                        // one whose moves were pruned.
                        if complete || value == 100 || value == 0 {
                            break;
                        }
                    }
                    Err(Stop) => {
                        // A deeper search that was cut short still finished some root moves;
                        // only a fixed-depth search, with nothing better, takes its word.
                        if first.is_none() {
                            first = search.root_best.map(|(_, index)| index);
                        }
                        break;
                    }
                }
            }
            outcome.best_move = Some(moves[first.unwrap_or(0)].clone());
        }
    }
    outcome.nodes = search.clock.nodes();
    outcome
}

/// The move a search player makes: no search when there is nothing to choose.
pub(crate) fn choose_by_search<G: Game>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    config: SearchConfig,
    clock: &mut Clock,
    heuristic: Option<&dyn Heuristic<G>>,
) -> Option<G::Move> {
    match choice(game, state, role) {
        Choice::Decided(only) => only,
        // A state in which another role has no move cannot be searched; any move will do.
        Choice::Open(moves) => analyse_with(game, state, role, config, clock, heuristic)
            .best_move
            .or_else(|| moves.into_iter().next()),
    }
}

fn reward(value: Value) -> Reward {
    value.clamp(0, 100) as Reward
}

enum Root<M> {
    Terminal(Value),
    /// Some role has no legal move: nothing to choose.
    DeadEnd,
    /// Every role's legal moves.
    Open(Vec<Vec<M>>),
}

struct Search<'a, G: Game> {
    game: &'a G,
    role: RoleIndex,
    config: SearchConfig,
    /// The current depth limit.
    limit: u32,
    clock: &'a mut Clock,
    heuristic: Option<&'a dyn Heuristic<G>>,
    table: HashMap<G::State, Entry>,
    /// States cut off at the depth limit (or known from the table to depend on such states).
    horizon_hits: u64,
    /// The best root move finished in the current iteration, with its value.
    root_best: Option<(Value, usize)>,
    /// States whose moves the heuristic pruned ([`Heuristic::select`] dropped some).
    pruned_states: u64,
}

impl<G: Game> Search<'_, G> {
    fn root(&mut self, state: &G::State) -> Result<Root<G::Move>, Stop> {
        if let Some(value) = self.terminal_value(state)? {
            return Ok(Root::Terminal(value));
        }
        Ok(match self.expand(state)? {
            Some(all) => Root::Open(all),
            None => Root::DeadEnd,
        })
    }

    fn check_failure(&self) -> Result<(), Stop> {
        match self.game.failure() {
            Some(_) => Err(Stop),
            None => Ok(()),
        }
    }

    /// The role's reward if `state` is terminal.
    fn terminal_value(&mut self, state: &G::State) -> Result<Option<Value>, Stop> {
        let terminal = self.game.is_terminal(state);
        self.check_failure()?;
        if !terminal {
            return Ok(None);
        }
        let goals = self.game.goals(state);
        self.check_failure()?;
        Ok(Some(
            goals
                .get(self.role)
                .map_or(0, |&goal| Value::from(goal.min(100))),
        ))
    }

    /// Every role's legal moves, or `None` when one of them has none.
    fn expand(&mut self, state: &G::State) -> Result<Option<Vec<Vec<G::Move>>>, Stop> {
        let mut all = Vec::with_capacity(self.game.roles().len());
        for role in 0..self.game.roles().len() {
            let mut moves = self.game.legal_moves(state, role);
            self.check_failure()?;
            if let Some(heuristic) = self.heuristic {
                let legal = moves.len();
                heuristic.select(self.game, state, role, &mut moves);
                if moves.len() < legal {
                    self.pruned_states += 1;
                }
            }
            if moves.is_empty() {
                return Ok(None);
            }
            all.push(moves);
        }
        Ok(Some(all))
    }

    /// The search window a node works with: pruning other than alpha-beta ignores what the
    /// search found elsewhere and keeps fixed bounds.
    fn window(&self, alpha: Value, beta: Value) -> (Value, Value) {
        match self.config.pruning {
            Pruning::None => (BELOW_ANY, ABOVE_ANY),
            Pruning::Bounds => (0, 100),
            Pruning::AlphaBeta => (alpha, beta),
        }
    }

    /// The value of `state`, `depth` plies below the root, within the window `alpha`..`beta`
    /// (a value at or outside the window is only a bound, as in any alpha-beta search).
    fn value(
        &mut self,
        state: &G::State,
        depth: u32,
        alpha: Value,
        beta: Value,
    ) -> Result<Value, Stop> {
        if !self.clock.tick() {
            return Err(Stop);
        }
        if let Some(value) = self.terminal_value(state)? {
            return Ok(value);
        }
        if depth >= self.limit {
            self.horizon_hits += 1;
            return Ok(self.heuristic.map_or(Value::from(NEUTRAL), |heuristic| {
                Value::from(heuristic.value(self.game, state, self.role).clamp(1, 99))
            }));
        }
        let remaining = self.limit - depth;
        let (alpha, beta) = self.window(alpha, beta);
        if self.config.transpositions
            && let Some(entry) = self.table.get(state)
            && (entry.solved || entry.remaining >= remaining)
        {
            let usable = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.value >= beta,
                Bound::Upper => entry.value <= alpha,
            };
            if usable {
                if !entry.solved {
                    self.horizon_hits += 1;
                }
                return Ok(entry.value);
            }
        }
        let pruned_before = self.pruned_states;
        let Some(all) = self.expand(state)? else {
            return Ok(Value::from(NEUTRAL));
        };
        let pruned = self.pruned_states > pruned_before;
        let hits_before = self.horizon_hits;
        let (value, _) = self.best_of(state, &all, depth, alpha, beta, None)?;
        // Clamping keeps a bound a bound: it is monotonic, and 0 and 100 are the extremes.
        let value = if pruned { value.clamp(1, 99) } else { value };
        if self.config.transpositions && self.table.len() < TABLE_CAPACITY {
            let bound = if value <= alpha {
                Bound::Upper
            } else if value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry {
                value,
                bound,
                remaining,
                solved: self.horizon_hits == hits_before,
            };
            self.table.insert(state.clone(), entry);
        }
        Ok(value)
    }

    /// The best of the searching role's moves in `state` (`all` holds every role's legal moves),
    /// with its index; `first` is searched first (the best move of a shallower search).
    fn best_of(
        &mut self,
        state: &G::State,
        all: &[Vec<G::Move>],
        depth: u32,
        alpha: Value,
        beta: Value,
        first: Option<usize>,
    ) -> Result<(Value, usize), Stop> {
        let moves = &all[self.role];
        let order = first
            .into_iter()
            .chain((0..moves.len()).filter(|&index| Some(index) != first));
        let mut best = BELOW_ANY;
        let mut best_index = first.unwrap_or(0);
        for index in order {
            let floor = match self.config.pruning {
                Pruning::AlphaBeta => alpha.max(best),
                Pruning::None | Pruning::Bounds => alpha,
            };
            let value = self.reply_value(state, all, &moves[index], depth, floor, beta)?;
            if value > best {
                best = value;
                best_index = index;
            }
            if depth == 0 {
                self.root_best = Some((best, best_index));
            }
            if best >= beta {
                break;
            }
        }
        Ok((best, best_index))
    }

    /// The value of the searching role playing `mine` in `state`, over the other roles' joint
    /// replies.
    fn reply_value(
        &mut self,
        state: &G::State,
        all: &[Vec<G::Move>],
        mine: &G::Move,
        depth: u32,
        floor: Value,
        ceiling: Value,
    ) -> Result<Value, Stop> {
        let narrow = self.config.pruning == Pruning::AlphaBeta;
        let adversarial = self.config.others == Others::Adversarial;
        let mut combined = if adversarial { ABOVE_ANY } else { BELOW_ANY };
        for joint in JointMoves::new(self.role, mine, all) {
            let next = self.game.next_state(state, &joint);
            self.check_failure()?;
            if adversarial {
                let ceiling = if narrow {
                    ceiling.min(combined)
                } else {
                    ceiling
                };
                let value = self.value(&next, depth + 1, floor, ceiling)?;
                combined = combined.min(value);
                if combined <= floor {
                    break;
                }
            } else {
                let floor = if narrow { floor.max(combined) } else { floor };
                let value = self.value(&next, depth + 1, floor, ceiling)?;
                combined = combined.max(value);
                if combined >= ceiling {
                    break;
                }
            }
        }
        Ok(combined)
    }
}

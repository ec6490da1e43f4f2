//! Monte-Carlo tree search with UCT, the default general player: it needs nothing from a game
//! but its rules.
//!
//! Simultaneous moves are handled the usual way of general game players (decoupled UCT): in
//! each tree node every role keeps its own statistics per legal move and picks its move by its
//! own UCB1 score on its own rewards; the joint move picked leads to the child. In a turn-taking
//! game the idle role's only move makes this plain UCT.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::{Choice, Clock, Player, choice};
use crate::playout::{PlayoutEnd, random_joint_move, random_playout};
use crate::{Game, Reward, RoleIndex};

/// The UCB1 exploration constant, for rewards scaled to 0..1.
const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// Plies after which a rollout is abandoned and scored as [`ROLLOUT_UNKNOWN`]: rollouts cannot
/// be interrupted by the clock, so a game that never ends must not hold one forever.
const ROLLOUT_MAX_PLIES: usize = 1_000;

/// The reward every role gets from a rollout or a state that says nothing about the outcome (the
/// ply limit, a role without legal moves).
const ROLLOUT_UNKNOWN: f64 = 50.0;

/// Iterations per move when the clock sets no limit (MCTS would otherwise never stop).
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// The most tree nodes one decision builds; past it, iterations roll out from the frontier
/// without growing the tree, so memory stays bounded on long clocks.
const MAX_TREE_NODES: usize = 250_000;

/// The weight of a [`MovePrior`]'s probability in a move's score (progressive bias: it adds
/// `PRIOR_WEIGHT · p / (visits + 1)` to the UCB1 score, on the 0..1 reward scale, so that it
/// steers the first visits and fades as the move's own results come in).
const PRIOR_WEIGHT: f64 = 1.0;

/// What a search may know of how a role plays besides the rules (an opponent model): the
/// probability of each of its legal moves, and which of them are worth trying at all. The tree
/// tries a role's untried moves most probable first, adds the probability, fading with visits,
/// to their scores, and never tries the moves the prior leaves out.
pub trait MovePrior<G: Game> {
    /// The moves of `role` the tree may try in `state`, as indices into `moves` (the role's
    /// legal moves there, in order), each with the probability that the role plays it; a move
    /// left out is pruned. `None` when there is no opinion about the role: every move, no bias.
    /// A list that is empty, or names a move twice or out of range, is faulty and ignored.
    fn prior(
        &self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        moves: &[G::Move],
    ) -> Option<Vec<(usize, f64)>>;
}

/// No opinion on any role: plain UCT.
struct NoPrior;

impl<G: Game> MovePrior<G> for NoPrior {
    fn prior(&self, _: &G, _: &G::State, _: RoleIndex, _: &[G::Move]) -> Option<Vec<(usize, f64)>> {
        None
    }
}

/// `role`'s moves in a new node with what `prior` says of them: the moves the tree may try
/// (all of them, or those the prior keeps, in its order) and their probabilities, if any.
fn apply_prior<G: Game>(
    game: &G,
    state: &G::State,
    role: RoleIndex,
    legal: Vec<G::Move>,
    prior: &dyn MovePrior<G>,
) -> (Vec<G::Move>, Option<Vec<f64>>) {
    if legal.len() < 2 {
        return (legal, None);
    }
    let Some(kept) = prior.prior(game, state, role, &legal) else {
        return (legal, None);
    };
    let mut seen = vec![false; legal.len()];
    let valid = !kept.is_empty()
        && kept
            .iter()
            .all(|&(index, _)| index < legal.len() && !std::mem::replace(&mut seen[index], true));
    if !valid {
        return (legal, None);
    }
    let mut slots: Vec<Option<G::Move>> = legal.into_iter().map(Some).collect();
    let moves = kept
        .iter()
        .filter_map(|&(index, _)| slots[index].take())
        .collect();
    (moves, Some(kept.iter().map(|&(_, p)| p).collect()))
}

#[derive(Clone, Debug)]
pub struct Mcts {
    rng: SmallRng,
}

impl Mcts {
    /// With an iteration budget ([`MoveBudget::nodes`](super::MoveBudget::nodes)), the same seed
    /// gives the same moves.
    pub fn new(seed: u64) -> Self {
        Mcts {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Player<G> for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        self.decide(game, state, role, clock, None, &NoPrior).0
    }
}

impl Mcts {
    /// [`Player::choose_move`] with the tree's selection biased by `prior` (a fresh tree).
    pub fn choose_move_with<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
        prior: &dyn MovePrior<G>,
    ) -> Option<G::Move> {
        self.decide(game, state, role, clock, None, prior).0
    }

    /// The move for `role` in `state`, searched from `kept` when it is a tree of that state
    /// (a fresh tree otherwise), and the tree the search leaves. A state without a choice is
    /// not searched, and `kept` comes back as it was: it still holds the states further on (in
    /// a turn-taking game, the position after the others' move).
    fn decide<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
        kept: Option<Tree<G>>,
        prior: &dyn MovePrior<G>,
    ) -> (Option<G::Move>, Option<Tree<G>>) {
        let mut moves = match choice(game, state, role) {
            Choice::Decided(only) => return (only, kept),
            Choice::Open(moves) => moves,
        };
        let mut tree = kept
            .filter(|tree| tree.nodes.first().is_some_and(|root| &root.state == state))
            .unwrap_or_else(|| Tree::new(game, state.clone(), prior));
        if tree.nodes.is_empty() {
            // The engine failed while the root was being expanded.
            return (None, None);
        }
        let iteration_cap = if clock.is_unlimited() {
            DEFAULT_ITERATIONS
        } else {
            u64::MAX
        };
        let mut iterations = 0;
        while iterations < iteration_cap && clock.tick() {
            iterations += 1;
            if tree.iterate(game, &mut self.rng, clock, prior).is_err() {
                break;
            }
        }
        // The most visited move is the most trusted one (the "robust child").
        let best = tree.nodes[0]
            .stats
            .get(role)
            .and_then(|stats| {
                (0..stats.len()).max_by(|&a, &b| {
                    (stats[a].visits, stats[a].mean())
                        .partial_cmp(&(stats[b].visits, stats[b].mean()))
                        .unwrap_or(std::cmp::Ordering::Equal)
                        // Prefer the earlier of equals, for repeatable choices.
                        .then(b.cmp(&a))
                })
            })
            .unwrap_or(0);
        let root_moves = match &tree.nodes[0].kind {
            NodeKind::Open { moves, .. } => moves.get(role),
            _ => None,
        };
        // The root's moves are the ones `choice` returned (same state, same engine), less any
        // a prior pruned: a prior of the searching role's own moves never prunes them all.
        let chosen = match root_moves.and_then(|moves| moves.get(best)) {
            Some(chosen) => chosen.clone(),
            None => moves.swap_remove(0),
        };
        (Some(chosen), Some(tree))
    }
}

/// MCTS that keeps its tree between the decisions of one match: the next decision starts from
/// the subtree of the state the match reached (a node of the kept tree, found by its state),
/// with the visits and statistics gathered there, instead of from an empty tree. One player per
/// match and role: the tree is of that match.
pub struct KeptTreeMcts<G: Game> {
    search: Mcts,
    kept: Option<Tree<G>>,
    reused_visits: u32,
}

impl<G: Game> KeptTreeMcts<G> {
    pub fn new(seed: u64) -> Self {
        KeptTreeMcts {
            search: Mcts::new(seed),
            kept: None,
            reused_visits: 0,
        }
    }

    /// The visits the last decision's root already had when it started: those of the subtree
    /// kept from the decision before, 0 when the search started from an empty tree.
    pub fn reused_visits(&self) -> u32 {
        self.reused_visits
    }

    /// The visits of the kept tree's root (the state of the last decision), and of each of
    /// `role`'s legal moves there: what the search found, and what the next decision starts
    /// from. Empty before the first decision.
    pub fn root_visits(&self, role: RoleIndex) -> (u32, Vec<(G::Move, u32)>) {
        let Some(root) = self.kept.as_ref().and_then(|tree| tree.nodes.first()) else {
            return (0, Vec::new());
        };
        let moves = match &root.kind {
            NodeKind::Open { moves, .. } => moves
                .get(role)
                .into_iter()
                .flatten()
                .zip(root.stats.get(role).into_iter().flatten())
                .map(|(action, stats)| (action.clone(), stats.visits))
                .collect(),
            _ => Vec::new(),
        };
        (root.visits, moves)
    }
}

impl<G: Game> KeptTreeMcts<G> {
    /// [`Player::choose_move`] with the tree's selection biased by `prior`. The kept tree's
    /// nodes hold the moves the prior left when they were made, so one match's decisions
    /// should all have the same prior.
    pub fn choose_move_with(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
        prior: &dyn MovePrior<G>,
    ) -> Option<G::Move> {
        let subtree = self.kept.take().and_then(|tree| tree.subtree_of(state));
        self.reused_visits = subtree.as_ref().map_or(0, |tree| tree.nodes[0].visits);
        let (chosen, tree) = self.search.decide(game, state, role, clock, subtree, prior);
        self.kept = tree;
        chosen
    }
}

impl<G: Game> Player<G> for KeptTreeMcts<G> {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        self.choose_move_with(game, state, role, clock, &NoPrior)
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct MoveStats {
    visits: u32,
    /// Sum of the role's rewards (0–100) over the visits.
    total: f64,
}

impl MoveStats {
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / f64::from(self.visits)
        }
    }
}

enum NodeKind<M> {
    Terminal(Vec<f64>),
    /// A non-terminal state in which some role has no legal move: a faulty game.
    DeadEnd,
    Open {
        /// Every role's moves the tree may try: its legal moves, less those a [`MovePrior`]
        /// prunes.
        moves: Vec<Vec<M>>,
        /// The children by joint move (one move index per role).
        children: HashMap<Vec<u32>, usize>,
    },
}

struct Node<S, M> {
    state: S,
    kind: NodeKind<M>,
    visits: u32,
    /// Per role, per move the tree may try (parallel to `moves`).
    stats: Vec<Vec<MoveStats>>,
    /// Per role, the [`MovePrior`]'s probabilities of its moves (parallel to `moves`), when it
    /// has an opinion and the role a choice.
    priors: Vec<Option<Vec<f64>>>,
}

/// The engine failed: the search ends with what it has.
struct Failed;

struct Tree<G: Game> {
    nodes: Vec<Node<G::State, G::Move>>,
    /// Whether expanding the root took longer than [`SLOW_STATE`]: rollouts of such a game
    /// (the GDL interpreter on a large game) look at the clock between plies, since one
    /// rollout of the engine's own loop could outlast the play clock many times over.
    slow_states: bool,
}

/// A state whose terminal test and legal moves take longer than this makes a game slow (see
/// [`Tree::slow_states`]); the grounded engines take microseconds.
const SLOW_STATE: Duration = Duration::from_millis(1);

impl<G: Game> Tree<G> {
    fn new(game: &G, root: G::State, prior: &dyn MovePrior<G>) -> Self {
        let started = Instant::now();
        let mut tree = Tree {
            nodes: Vec::new(),
            slow_states: false,
        };
        if let Ok(node) = Self::node(game, root, prior) {
            tree.nodes.push(node);
        }
        tree.slow_states = started.elapsed() > SLOW_STATE;
        tree
    }

    /// The subtree whose root holds `state` (found breadth first, so the shallow nodes a match
    /// reaches next are looked at first), its nodes renumbered; `None` when no node holds it.
    fn subtree_of(self, state: &G::State) -> Option<Tree<G>> {
        let mut queue = VecDeque::from([0]);
        let root = loop {
            let index = queue.pop_front()?;
            let node = self.nodes.get(index)?;
            if &node.state == state {
                break index;
            }
            if let NodeKind::Open { children, .. } = &node.kind {
                queue.extend(children.values().copied());
            }
        };
        let mut old: Vec<Option<Node<G::State, G::Move>>> =
            self.nodes.into_iter().map(Some).collect();
        // New numbers are given in the order the nodes are queued, which is the order they are
        // moved into the new tree.
        let mut renumbered: HashMap<usize, usize> = HashMap::from([(root, 0)]);
        let mut queue = VecDeque::from([root]);
        let mut nodes = Vec::new();
        while let Some(index) = queue.pop_front() {
            let mut node = old[index].take()?;
            if let NodeKind::Open { children, .. } = &mut node.kind {
                for child in children.values_mut() {
                    let number = renumbered.len();
                    renumbered.insert(*child, number);
                    queue.push_back(*child);
                    *child = number;
                }
            }
            nodes.push(node);
        }
        Some(Tree {
            nodes,
            slow_states: self.slow_states,
        })
    }

    fn node(
        game: &G,
        state: G::State,
        prior: &dyn MovePrior<G>,
    ) -> Result<Node<G::State, G::Move>, Failed> {
        let failed = || game.failure().is_some();
        let roles = game.roles().len();
        let terminal = game.is_terminal(&state);
        if failed() {
            return Err(Failed);
        }
        let mut priors = Vec::new();
        let kind = if terminal {
            let goals = game.goals(&state);
            if failed() {
                return Err(Failed);
            }
            NodeKind::Terminal(
                (0..roles)
                    .map(|role| {
                        goals
                            .get(role)
                            .map_or(0.0, |&goal| f64::from(goal.min(100)))
                    })
                    .collect(),
            )
        } else {
            let legal: Vec<Vec<G::Move>> = (0..roles)
                .map(|role| game.legal_moves(&state, role))
                .collect();
            if failed() {
                return Err(Failed);
            }
            if legal.iter().any(Vec::is_empty) {
                NodeKind::DeadEnd
            } else {
                let (moves, role_priors) = legal
                    .into_iter()
                    .enumerate()
                    .map(|(role, list)| apply_prior(game, &state, role, list, prior))
                    .unzip();
                priors = role_priors;
                NodeKind::Open {
                    moves,
                    children: HashMap::new(),
                }
            }
        };
        let stats = match &kind {
            NodeKind::Open { moves, .. } => moves
                .iter()
                .map(|list| vec![MoveStats::default(); list.len()])
                .collect(),
            _ => Vec::new(),
        };
        Ok(Node {
            state,
            kind,
            visits: 0,
            stats,
            priors,
        })
    }

    /// One iteration: select down the tree, add one node, roll out from it, back the rewards up.
    fn iterate(
        &mut self,
        game: &G,
        rng: &mut SmallRng,
        clock: &mut Clock,
        prior: &dyn MovePrior<G>,
    ) -> Result<(), Failed> {
        // Only a deadline or a cancel flag can interrupt a rollout; under a node budget alone
        // the engine's own playout runs, so a node-budgeted search draws the same numbers
        // whatever the machine's load (the slowness test is timed).
        let slow = self.slow_states && clock.can_interrupt();
        let roles = game.roles().len();
        let mut path: Vec<(usize, Vec<u32>)> = Vec::new();
        let mut current = 0;
        let rewards = loop {
            let node = &self.nodes[current];
            let (moves, children) = match &node.kind {
                NodeKind::Terminal(goals) => {
                    path.push((current, Vec::new()));
                    break goals.clone();
                }
                NodeKind::DeadEnd => {
                    path.push((current, Vec::new()));
                    break vec![ROLLOUT_UNKNOWN; roles];
                }
                NodeKind::Open { moves, children } => (moves, children),
            };
            let joint_indices: Vec<u32> = node
                .stats
                .iter()
                .enumerate()
                .map(|(role, stats)| {
                    let priors = node.priors.get(role).and_then(Option::as_deref);
                    select(stats, priors, node.visits, rng)
                })
                .collect();
            if let Some(&child) = children.get(&joint_indices) {
                path.push((current, joint_indices));
                current = child;
                continue;
            }
            let joint: Vec<G::Move> = joint_indices
                .iter()
                .zip(moves)
                .map(|(&index, list)| list[index as usize].clone())
                .collect();
            let next = game.next_state(&node.state, &joint);
            if game.failure().is_some() {
                return Err(Failed);
            }
            path.push((current, joint_indices.clone()));
            if self.nodes.len() >= MAX_TREE_NODES {
                break rollout(game, &next, rng, slow.then_some(&mut *clock))?;
            }
            let child = Self::node(game, next, prior)?;
            let index = self.nodes.len();
            let rewards = match &child.kind {
                NodeKind::Terminal(goals) => goals.clone(),
                NodeKind::DeadEnd => vec![ROLLOUT_UNKNOWN; roles],
                NodeKind::Open { .. } => {
                    rollout(game, &child.state, rng, slow.then_some(&mut *clock))?
                }
            };
            self.nodes.push(child);
            if let NodeKind::Open { children, .. } = &mut self.nodes[current].kind {
                children.insert(joint_indices, index);
            }
            // The new node has been visited once, by this iteration.
            path.push((index, Vec::new()));
            break rewards;
        };
        for (node, joint) in path {
            let node = &mut self.nodes[node];
            node.visits += 1;
            for (role, &index) in joint.iter().enumerate() {
                let stats = &mut node.stats[role][index as usize];
                stats.visits += 1;
                stats.total += rewards.get(role).copied().unwrap_or(ROLLOUT_UNKNOWN);
            }
        }
        Ok(())
    }
}

/// The move a role tries next in a node: one never tried (at random), else the best UCB1 score.
fn select(
    stats: &[MoveStats],
    priors: Option<&[f64]>,
    node_visits: u32,
    rng: &mut SmallRng,
) -> u32 {
    let untried = stats.iter().filter(|s| s.visits == 0).count();
    // With a prior, the most probable untried move first.
    if let (true, Some(priors)) = (untried > 0, priors) {
        let most_probable = (0..stats.len())
            .filter(|&index| stats[index].visits == 0)
            .max_by(|&a, &b| priors[a].total_cmp(&priors[b]).then(b.cmp(&a)));
        return most_probable.unwrap_or(0) as u32;
    }
    if untried > 0 {
        let pick = rng.random_range(0..untried);
        let index = stats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.visits == 0)
            .nth(pick)
            .map_or(0, |(index, _)| index);
        return index as u32;
    }
    let log_visits = f64::from(node_visits.max(1)).ln();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (index, s) in stats.iter().enumerate() {
        let visits = f64::from(s.visits);
        let bias = priors.map_or(0.0, |priors| PRIOR_WEIGHT * priors[index] / (visits + 1.0));
        let score = s.mean() / 100.0 + EXPLORATION * (log_visits / visits).sqrt() + bias;
        if score > best_score {
            best_score = score;
            best = index;
        }
    }
    best as u32
}

/// Every role's reward from a random playout of `state` (see [`random_playout`]). With a
/// `clock` (a slow game), the playout is played ply by ply and given up, as a failed iteration
/// that backs nothing up, once the clock has run out.
fn rollout<G: Game>(
    game: &G,
    state: &G::State,
    rng: &mut SmallRng,
    clock: Option<&mut Clock>,
) -> Result<Vec<f64>, Failed> {
    let roles = game.roles().len();
    let playout = match clock {
        None => random_playout(game, state, rng, ROLLOUT_MAX_PLIES),
        Some(clock) => {
            let mut state = state.clone();
            let mut plies = 0;
            loop {
                if clock.out_of_time() {
                    return Err(Failed);
                }
                let ply = random_playout(game, &state, rng, 0);
                if ply.end != PlayoutEnd::PlyLimit || plies >= ROLLOUT_MAX_PLIES {
                    break ply;
                }
                match random_joint_move(game, &state, rng) {
                    Ok(joint) => state = game.next_state(&state, &joint),
                    // A role without a legal move: scored as a playout that says nothing.
                    Err(_) => break ply,
                }
                plies += 1;
            }
        }
    };
    Ok(match (playout.end, playout.goals) {
        (PlayoutEnd::Failure(_), _) => return Err(Failed),
        (PlayoutEnd::Terminal, Some(goals)) => (0..roles)
            .map(|role| {
                goals
                    .get(role)
                    .map_or(0.0, |&goal: &Reward| f64::from(goal.min(100)))
            })
            .collect(),
        _ => vec![ROLLOUT_UNKNOWN; roles],
    })
}

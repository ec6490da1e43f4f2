//! A match between players: every role's player is asked for a move in every state, under the
//! same budget per move, until the game ends.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::{Clock, MoveBudget, Player};
use crate::{Game, Reward, RoleIndex};

#[derive(Clone, Debug, Default)]
pub struct MatchSettings {
    /// What each player may spend on each move.
    pub move_budget: MoveBudget,
    /// Joint moves after which the match is abandoned (`0`: no limit).
    pub max_plies: usize,
    /// Set it to stop the match (and the search under way) from elsewhere.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Seeds the draws of chance roles (GDL-II's `random`), which the match makes itself,
    /// uniformly among their legal moves: no player chooses for chance.
    pub chance_seed: u64,
}

/// Why a match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// A terminal state: the goals are the game's.
    Terminal,
    /// `max_plies` joint moves were played without reaching a terminal state.
    PlyLimit,
    /// The role had no legal move in a non-terminal state (a faulty game).
    NoLegalMove(RoleIndex),
    /// The role's player answered a move that is not legal, or none although it had legal
    /// moves (a faulty player).
    IllegalMove(RoleIndex),
    /// The match was cancelled.
    Cancelled,
    /// The engine gave up, or the match could not be set up; the message says why.
    Failure(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// The goals of the terminal state (only when `end` is [`MatchEnd::Terminal`]).
    pub goals: Option<Vec<Reward>>,
    /// Joint moves played.
    pub plies: usize,
    pub end: MatchEnd,
    /// Per role, the time its player spent choosing moves.
    pub thinking: Vec<Duration>,
    /// Per role, how many moves its player chose (forced moves included).
    pub moves: Vec<usize>,
    /// Per role, the units of work its player counted on its clock (search states, MCTS
    /// iterations), and on how many moves it counted any: forced moves take no thought.
    pub nodes: Vec<u64>,
    pub searched_moves: Vec<usize>,
}

/// Plays `game` from its initial state, `players[r]` playing role `r`.
pub fn play_match<G: Game>(
    game: &G,
    players: &mut [Box<dyn Player<G>>],
    settings: &MatchSettings,
) -> MatchResult {
    let roles = game.roles().len();
    let mut result = MatchResult {
        goals: None,
        plies: 0,
        end: MatchEnd::Terminal,
        thinking: vec![Duration::ZERO; roles],
        moves: vec![0; roles],
        nodes: vec![0; roles],
        searched_moves: vec![0; roles],
    };
    if players.len() != roles {
        result.end = MatchEnd::Failure(format!(
            "the game has {roles} role(s) but {} player(s) were given",
            players.len()
        ));
        return result;
    }
    let cancelled = || {
        settings
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
    };
    let mut chance = SmallRng::seed_from_u64(settings.chance_seed);
    let mut state = game.initial_state();
    result.end = loop {
        let terminal = game.is_terminal(&state);
        if let Some(message) = game.failure() {
            break MatchEnd::Failure(message);
        }
        if terminal {
            let goals = game.goals(&state);
            if let Some(message) = game.failure() {
                break MatchEnd::Failure(message);
            }
            result.goals = Some(goals);
            break MatchEnd::Terminal;
        }
        if settings.max_plies > 0 && result.plies >= settings.max_plies {
            break MatchEnd::PlyLimit;
        }
        if cancelled() {
            break MatchEnd::Cancelled;
        }
        match joint_move(game, &state, players, settings, &mut chance, &mut result) {
            Ok(joint) => state = game.next_state(&state, &joint),
            Err(end) => break end,
        }
        result.plies += 1;
    };
    result
}

/// Every role's move in `state`, each checked against the role's legal moves; a chance role's
/// drawn uniformly with `chance`.
fn joint_move<G: Game>(
    game: &G,
    state: &G::State,
    players: &mut [Box<dyn Player<G>>],
    settings: &MatchSettings,
    chance: &mut SmallRng,
    result: &mut MatchResult,
) -> Result<Vec<G::Move>, MatchEnd> {
    let mut joint = Vec::with_capacity(players.len());
    for (role, player) in players.iter_mut().enumerate() {
        if game.is_chance_role(role) {
            let mut legal = game.legal_moves(state, role);
            if let Some(message) = game.failure() {
                return Err(MatchEnd::Failure(message));
            }
            if legal.is_empty() {
                return Err(MatchEnd::NoLegalMove(role));
            }
            let pick = chance.random_range(0..legal.len());
            joint.push(legal.swap_remove(pick));
            continue;
        }
        let mut clock = Clock::start(&settings.move_budget);
        if let Some(flag) = &settings.cancel {
            clock = clock.with_cancel(flag.clone());
        }
        let chosen = player.choose_move(game, state, role, &mut clock);
        result.thinking[role] += clock.elapsed();
        result.moves[role] += 1;
        result.nodes[role] += clock.nodes();
        if clock.nodes() > 0 {
            result.searched_moves[role] += 1;
        }
        if let Some(message) = game.failure() {
            return Err(MatchEnd::Failure(message));
        }
        let legal = game.legal_moves(state, role);
        if let Some(message) = game.failure() {
            return Err(MatchEnd::Failure(message));
        }
        match chosen {
            Some(chosen) if legal.contains(&chosen) => joint.push(chosen),
            Some(_) => return Err(MatchEnd::IllegalMove(role)),
            None if legal.is_empty() => return Err(MatchEnd::NoLegalMove(role)),
            None => return Err(MatchEnd::IllegalMove(role)),
        }
    }
    Ok(joint)
}

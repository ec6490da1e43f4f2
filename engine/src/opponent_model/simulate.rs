//! Training and test data: matches from the initial state with the studied player in its seat
//! and random players in the others, each decision of the studied player recorded.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::Observe;
use crate::RoleIndex;
use crate::cpu_time::CpuDeadline;
use crate::players::{Clock, MoveBudget, Player, RandomPlayer, player_by_name};

/// One decision of the studied player: what it saw, what it could do, what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The state's atoms ([`Observe::atoms`]).
    pub atoms: Vec<String>,
    /// The names of its legal moves, in the engine's order.
    pub legal: Vec<String>,
    /// The name of the move it made (one of `legal`).
    pub chosen: String,
}

/// How to simulate.
#[derive(Clone, Debug)]
pub struct SimulationSettings {
    /// The studied player, as `ludeme play --player` names it.
    pub player: String,
    /// Its seat.
    pub role: RoleIndex,
    /// What the studied player may spend on each move (use nodes, not time, for repeatable
    /// data: the same seeds then give the same matches on any machine).
    pub move_budget: MoveBudget,
    /// Joint moves after which a match is abandoned (its decisions are kept).
    pub max_plies: usize,
    /// When to give up on the whole simulation.
    pub deadline: Option<CpuDeadline>,
    /// Seeds the random players and the studied player's own draws; match `i` uses seed
    /// `seed + i`, so disjoint ranges of `i` give disjoint training and test sets.
    pub seed: u64,
}

impl SimulationSettings {
    pub fn new(player: &str, role: RoleIndex) -> Self {
        SimulationSettings {
            player: player.to_owned(),
            role,
            move_budget: MoveBudget::unlimited(),
            max_plies: 1_000,
            deadline: None,
            seed: 0,
        }
    }
}

/// The studied player's decisions (states with two or more legal moves) in matches `matches`
/// (match numbers, each its own seed); an error says why the simulation could not go on.
pub fn simulate<G: Observe>(
    game: &G,
    settings: &SimulationSettings,
    matches: std::ops::Range<u64>,
) -> Result<Vec<Decision>, String> {
    let roles = game.roles().len();
    if settings.role >= roles {
        return Err(format!("the game has no role {}", settings.role));
    }
    if game.is_chance_role(settings.role) {
        return Err(format!(
            "role `{}` is chance, which no player plays",
            game.roles()[settings.role]
        ));
    }
    let mut decisions = Vec::new();
    for number in matches {
        let seed = settings.seed.wrapping_add(number);
        let mut players: Vec<Box<dyn Player<G>>> = Vec::with_capacity(roles);
        for role in 0..roles {
            if role == settings.role {
                let player = player_by_name(&settings.player, seed)
                    .ok_or_else(|| format!("no player is called `{}`", settings.player))?;
                players.push(player);
            } else {
                // Each seat its own stream, so that seats do not mirror each other's draws.
                players.push(Box::new(RandomPlayer::new(
                    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ role as u64,
                )));
            }
        }
        play_recorded(game, settings, &mut players, seed, &mut decisions)?;
    }
    Ok(decisions)
}

/// Plays one match, appending the studied player's decisions to `decisions`.
fn play_recorded<G: Observe>(
    game: &G,
    settings: &SimulationSettings,
    players: &mut [Box<dyn Player<G>>],
    seed: u64,
    decisions: &mut Vec<Decision>,
) -> Result<(), String> {
    let failed = |game: &G| {
        game.failure()
            .map(|message| format!("the engine gave up: {message}"))
    };
    let mut chance = SmallRng::seed_from_u64(seed);
    let mut state = game.initial_state();
    for _ in 0..settings.max_plies {
        if settings.deadline.is_some_and(|deadline| deadline.is_past()) {
            return Err("the simulation ran out of CPU time".to_owned());
        }
        if game.is_terminal(&state) {
            break;
        }
        let mut joint = Vec::with_capacity(players.len());
        for (role, player) in players.iter_mut().enumerate() {
            let legal = game.legal_moves(&state, role);
            if let Some(message) = failed(game) {
                return Err(message);
            }
            if legal.is_empty() {
                return Err(format!(
                    "role `{}` has no legal move in a non-terminal state",
                    game.roles()[role]
                ));
            }
            if game.is_chance_role(role) {
                joint.push(legal[chance.random_range(0..legal.len())].clone());
                continue;
            }
            let mut clock = Clock::start(&settings.move_budget);
            let chosen = player
                .choose_move(game, &state, role, &mut clock)
                .filter(|chosen| legal.contains(chosen));
            let Some(chosen) = chosen else {
                return Err(failed(game).unwrap_or_else(|| {
                    format!("the {} player gave no legal move", player.name())
                }));
            };
            if role == settings.role && legal.len() >= 2 {
                decisions.push(Decision {
                    atoms: game.atoms(&state),
                    legal: legal
                        .iter()
                        .map(|action| game.move_text(&state, role, action))
                        .collect(),
                    chosen: game.move_text(&state, role, &chosen),
                });
            }
            joint.push(chosen);
        }
        state = game.next_state(&state, &joint);
    }
    match failed(game) {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

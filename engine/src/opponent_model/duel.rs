//! Does the model help? Alpha-beta with the model and alpha-beta without it, each against the
//! modelled player, on the same openings and seats, with the same budget per move.
//!
//! The compared players are deterministic and so, often, is the modelled one (minimax,
//! alpha-beta under a node budget, the legal player): from the initial state every match
//! between them would be the same. Each match therefore starts with a few plies of random
//! moves for every role (the opening, seeded by the match's number), as engine matches usually
//! do; the two compared players meet the same openings in the same seats.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use super::guided::{
    ModelGuidance, ModelledMctsPlayer, ModelledSearchPlayer, PlayerModel, PruningCounts,
};
use super::{FeatureSet, MoveModel, Observe, SimulationSettings, simulate};
use crate::RoleIndex;
use crate::cpu_time::CpuInstant;
use crate::players::{
    Clock, MatchEnd, MatchSettings, Mcts, MoveBudget, Player, RandomPlayer, SearchPlayer,
    play_match, player_by_name,
};

/// The search compared with and without the model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Searcher {
    /// Iterative-deepening alpha-beta; the model orders and prunes the modelled player's moves.
    #[default]
    AlphaBeta,
    /// MCTS; the tree tries only the modelled player's moves the confidence keeps, biased by
    /// their probabilities. Both players draw from the same seed in a match, so only the model
    /// makes them differ.
    Mcts,
}

/// How to compare.
#[derive(Clone, Debug)]
pub struct DuelSettings {
    /// The modelled player, its budget per move, the ply limit, the CPU deadline of the whole
    /// comparison and the first seed; its `role` is ignored: the player is modelled in both
    /// seats.
    pub opponent: SimulationSettings,
    /// Matches simulated to train the model of each seat.
    pub training_matches: u64,
    pub features: FeatureSet,
    /// Features kept by chi-square selection (`None`: all).
    pub select: Option<usize>,
    /// The probability of the modelled player's moves the guided search keeps at its nodes.
    pub confidence: f64,
    /// What each compared player may spend per move.
    pub search_budget: MoveBudget,
    /// Matches per compared player; seats alternate, the first in the first player role.
    pub matches: u64,
    /// Plies of random moves, for every role, before the players take over.
    pub opening_plies: usize,
    pub searcher: Searcher,
}

/// The compared player's results against the modelled player.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Matches abandoned at the ply limit.
    pub unfinished: u64,
    /// Moves the player searched (after the opening, with a choice), the search states it
    /// counted on them, and the CPU time it took.
    pub searched_moves: u64,
    pub nodes: u64,
    pub cpu: Duration,
}

impl Tally {
    fn add(&mut self, ours: u64, theirs: u64) {
        match ours.cmp(&theirs) {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Less => self.losses += 1,
        }
    }
}

/// What a comparison measured.
#[derive(Clone, Debug)]
pub struct DuelReport {
    /// The two player roles, in seat order.
    pub seats: [RoleIndex; 2],
    /// Per seat, the modelled player's decisions its model was trained on.
    pub training_decisions: [usize; 2],
    pub with_model: Tally,
    pub without_model: Tally,
    /// How much the guided search pruned at the modelled player's nodes.
    pub pruning: PruningCounts,
    /// In the guided matches, the modelled player's real decisions (after the opening, with a
    /// choice), and at how many of them its move was among those the guidance keeps: how
    /// often the search's picture of the opponent held in play.
    pub real_decisions: u64,
    pub real_moves_kept: u64,
    /// CPU time simulating and training.
    pub training_cpu: Duration,
}

/// Trains a model of `settings.opponent`'s player in each of the game's two player roles, then
/// plays `settings.matches` matches of guided and of plain iterative-deepening alpha-beta
/// against it. An error says why the comparison could not be run or finished.
pub fn compare_search_with_model<G: Observe + 'static>(
    game: &G,
    settings: &DuelSettings,
) -> Result<DuelReport, String> {
    let players: Vec<RoleIndex> = (0..game.roles().len())
        .filter(|&role| !game.is_chance_role(role))
        .collect();
    let seats: [RoleIndex; 2] = players.as_slice().try_into().map_err(|_| {
        format!(
            "the comparison needs a game of two players; this one has {}",
            players.len()
        )
    })?;
    let started = CpuInstant::now();
    let mut models = vec![None; game.roles().len()];
    let mut training_decisions = [0; 2];
    for (seat, &role) in seats.iter().enumerate() {
        let simulation = SimulationSettings {
            role,
            ..settings.opponent.clone()
        };
        let decisions = simulate(game, &simulation, 0..settings.training_matches)?;
        training_decisions[seat] = decisions.len();
        let rows: Vec<(Vec<String>, String)> = decisions
            .iter()
            .map(|d| {
                (
                    settings.features.features(&d.atoms, &d.legal),
                    d.chosen.clone(),
                )
            })
            .collect();
        models[role] = Some(PlayerModel {
            features: settings.features,
            model: MoveModel::train(&rows, settings.select),
        });
    }
    let training_cpu = started.elapsed();
    let guidance = Arc::new(ModelGuidance::new(models, settings.confidence));
    let mut with_model = Tally::default();
    let mut without_model = Tally::default();
    let predictions = Rc::new(Cell::new((0, 0)));
    for number in 0..settings.matches {
        if settings.opponent.deadline.is_some_and(|d| d.is_past()) {
            return Err("the comparison ran out of CPU time".to_owned());
        }
        let ours = seats[(number % 2) as usize];
        let seed = settings.opponent.seed.wrapping_add(number) ^ 0x5EA2_C4ED;
        let (guided, plain): (Box<dyn Player<G>>, Box<dyn Player<G>>) = match settings.searcher {
            Searcher::AlphaBeta => (
                Box::new(ModelledSearchPlayer::new(guidance.clone())),
                Box::new(SearchPlayer::iterative_deepening()),
            ),
            Searcher::Mcts => (
                Box::new(ModelledMctsPlayer::new(guidance.clone(), seed)),
                Box::new(Mcts::new(seed)),
            ),
        };
        let check = Some((guidance.clone(), predictions.clone()));
        play_one(game, settings, number, ours, guided, check, &mut with_model)?;
        play_one(
            game,
            settings,
            number,
            ours,
            plain,
            None,
            &mut without_model,
        )?;
    }
    Ok(DuelReport {
        seats,
        training_decisions,
        with_model,
        without_model,
        pruning: guidance.counts(),
        real_decisions: predictions.get().0,
        real_moves_kept: predictions.get().1,
        training_cpu,
    })
}

/// Plays match `number` with `player` in role `ours` and the modelled player in the other,
/// adding its result to `tally`; with `check`, counts the modelled player's decisions and those
/// whose move the guidance keeps.
fn play_one<G: Observe + 'static>(
    game: &G,
    settings: &DuelSettings,
    number: u64,
    ours: RoleIndex,
    player: Box<dyn Player<G>>,
    check: Option<(Arc<ModelGuidance>, Predictions)>,
    tally: &mut Tally,
) -> Result<(), String> {
    let seed = settings.opponent.seed.wrapping_add(number);
    let our_cpu = Rc::new(Cell::new(Duration::ZERO));
    let mut player = Some(player);
    let mut seats: Vec<Box<dyn Player<G>>> = Vec::with_capacity(game.roles().len());
    for role in 0..game.roles().len() {
        // Each seat its own stream of opening moves, so that seats do not mirror each other.
        let random = RandomPlayer::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ role as u64);
        let seat = match player.take_if(|_| role == ours) {
            Some(inner) => Seat {
                inner,
                opening: settings.opening_plies,
                plies: 0,
                random,
                budget: None,
                cpu: Some(our_cpu.clone()),
                check: None,
            },
            None => Seat {
                inner: player_by_name(&settings.opponent.player, seed)
                    .ok_or_else(|| format!("no player is called `{}`", settings.opponent.player))?,
                opening: settings.opening_plies,
                plies: 0,
                random,
                budget: Some(settings.opponent.move_budget.clone()),
                cpu: None,
                check: check.clone(),
            },
        };
        seats.push(Box::new(seat));
    }
    let match_settings = MatchSettings {
        move_budget: settings.search_budget.clone(),
        max_plies: settings.opponent.max_plies,
        cancel: None,
        chance_seed: seed,
    };
    let result = play_match(game, &mut seats, &match_settings);
    tally.searched_moves += result.searched_moves[ours] as u64;
    tally.nodes += result.nodes[ours];
    tally.cpu += our_cpu.get();
    match result.end {
        MatchEnd::Terminal => {
            let goals = result.goals.unwrap_or_default();
            let theirs = (0..goals.len())
                .filter(|&role| role != ours && !game.is_chance_role(role))
                .map(|role| u64::from(goals[role]))
                .max()
                .unwrap_or(0);
            tally.add(goals.get(ours).map_or(0, |&goal| u64::from(goal)), theirs);
            Ok(())
        }
        MatchEnd::PlyLimit => {
            tally.unfinished += 1;
            Ok(())
        }
        MatchEnd::IllegalMove(role) | MatchEnd::NoLegalMove(role) => Err(format!(
            "match {number}: the {} player in role `{}` gave no legal move",
            if role == ours { "compared" } else { "modelled" },
            game.roles()[role]
        )),
        MatchEnd::Cancelled => Err(format!("match {number} was cancelled")),
        MatchEnd::Failure(message) => Err(format!("match {number}: {message}")),
    }
}

/// A seat of a match: random moves for the opening's plies, then the player's; the modelled
/// player on its own budget per move (the match's is the compared players'), the compared
/// player's CPU time counted.
struct Seat<G: Observe> {
    inner: Box<dyn Player<G>>,
    opening: usize,
    /// Plies played so far: every role is asked for a move at every ply.
    plies: usize,
    random: RandomPlayer,
    budget: Option<MoveBudget>,
    cpu: Option<Rc<Cell<Duration>>>,
    check: Option<(Arc<ModelGuidance>, Predictions)>,
}

/// Decisions seen, and how many of them the guidance would have kept.
type Predictions = Rc<Cell<(u64, u64)>>;

impl<G: Observe> Player<G> for Seat<G> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn choose_move(
        &mut self,
        game: &G,
        state: &G::State,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<G::Move> {
        self.plies += 1;
        if self.plies <= self.opening {
            return self.random.choose_move(game, state, role, clock);
        }
        let started = CpuInstant::now();
        let chosen = match &self.budget {
            Some(budget) => self
                .inner
                .choose_move(game, state, role, &mut Clock::start(budget)),
            None => self.inner.choose_move(game, state, role, clock),
        };
        if let Some(cpu) = &self.cpu {
            cpu.set(cpu.get() + started.elapsed());
        }
        if let (Some((guidance, predictions)), Some(action)) = (&self.check, &chosen) {
            let legal = game.legal_moves(state, role);
            if legal.len() >= 2 {
                let names: Vec<String> = legal
                    .iter()
                    .map(|m| game.move_text(state, role, m))
                    .collect();
                let kept = guidance
                    .kept_moves(role, &game.atoms(state), &names)
                    .unwrap_or_default();
                let hit = kept.iter().any(|&index| &legal[index] == action);
                let (seen, hits) = predictions.get();
                predictions.set((seen + 1, hits + u64::from(hit)));
            }
        }
        chosen
    }
}

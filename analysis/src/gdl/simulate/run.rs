//! Random play: playouts from the initial state, recording every observation the checks and the
//! summary need. Nothing here decides what is a problem; the check modules do.

use ludeme_engine::cpu_time::{CpuDeadline, CpuInstant};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use ludeme_engine::gdl::{Budget, GdlError, Ground, ReasonerMove, ReasonerState};
use ludeme_engine::{Game, Reward, RoleIndex};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::SimulationOptions;
use super::engine::{
    Declarations, SimulationEngine, declarations, engine_description, simulation_engine,
};
use super::trace::Trace;
use crate::gdl::model::RuleSet;
use crate::{Db, SourceFile};

/// How many distinct undeclared facts a finding keeps as examples.
const EXAMPLES: usize = 3;

/// The first occurrence of a finding and how many playouts met it.
#[derive(Clone, Debug)]
pub struct Occurrences<T> {
    pub first: T,
    pub count: u64,
}

impl<T> Occurrences<T> {
    fn record(slot: &mut Option<Occurrences<T>>, first: impl FnOnce() -> T) {
        match slot {
            Some(occurrences) => occurrences.count += 1,
            None => {
                *slot = Some(Occurrences {
                    first: first(),
                    count: 1,
                });
            }
        }
    }
}

/// A playout that reached the ply limit.
#[derive(Clone, Debug)]
pub struct NoTerminal {
    pub trace: Trace,
    /// (earlier ply, later ply) of the first state the playout came back to, if it did: proof
    /// that play can go round forever.
    pub cycle: Option<(usize, usize)>,
}

/// Facts that play reached but the declarations miss, grouped by their name and arity.
#[derive(Clone, Debug)]
pub struct Undeclared {
    pub examples: Vec<String>,
    /// Distinct facts of this group not declared.
    pub distinct: usize,
    pub first: Trace,
}

/// The engine failed: a budget of steps or facts ran out, or the game misbehaved.
#[derive(Clone, Debug)]
pub struct Failure {
    pub error: GdlError,
    pub trace: Trace,
}

/// Everything random play showed.
#[derive(Debug, Default)]
pub struct Observed {
    /// Which engine played (and why not the grounded one, when it did not).
    pub engine: String,
    pub roles: Vec<String>,
    /// GDL-II's `random` role: it moves but has no goals.
    pub random: Vec<bool>,
    /// Playouts played to their end (terminal state, ply limit or a role without moves).
    pub playouts: u64,
    /// Of those, the ones that reached a terminal state.
    pub completed: u64,
    pub completed_plies: u64,
    /// Per role, how often each goal value ended a completed playout (the highest, for a role
    /// with several; none for a role with none).
    pub goal_counts: Vec<BTreeMap<Reward, u64>>,
    /// Per role, completed playouts it won: its goal is the only highest one (with one player:
    /// its goal is 100).
    pub wins: Vec<u64>,
    /// Completed playouts that nobody won alone.
    pub draws: u64,
    pub no_terminal: Option<Occurrences<NoTerminal>>,
    pub no_legal_move: BTreeMap<RoleIndex, Occurrences<Trace>>,
    pub goal_missing: BTreeMap<RoleIndex, Occurrences<Trace>>,
    pub goal_ambiguous: BTreeMap<RoleIndex, Occurrences<(Trace, Vec<Reward>)>>,
    /// Keyed by `name/arity` of the fluent.
    pub undeclared_fluents: BTreeMap<String, Undeclared>,
    /// Keyed by role and `name/arity` of the action.
    pub undeclared_moves: BTreeMap<(RoleIndex, String), Undeclared>,
    pub failure: Option<Failure>,
    /// The time limit ended play before the playouts asked for were played: the plies of the
    /// playout it interrupted.
    pub time_ran_out: Option<usize>,
}

/// Why the game could not be played at all.
#[derive(Debug)]
pub struct Refusal {
    pub error: GdlError,
    /// The time limit passed while the engine was being built: a slow start, not a fault.
    pub out_of_time: bool,
}

/// Plays the playouts of `options` and records what happened.
pub fn play(
    db: &dyn Db,
    file: SourceFile,
    rules: &RuleSet,
    options: &SimulationOptions,
    started: CpuInstant,
) -> Result<Observed, Refusal> {
    let budget = Budget {
        max_steps: options.max_steps,
        deadline: Some(started.deadline(options.duration())),
        ..Budget::default()
    };
    let deadline = budget.deadline;
    let refusal = |error| Refusal {
        error,
        out_of_time: deadline.is_some_and(|deadline| deadline.is_past()),
    };
    if deadline.is_some_and(|deadline| deadline.is_past()) {
        // Reading and checking the game took the whole time: building an engine for it would
        // take longer still.
        return Err(refusal(GdlError::Budget(
            "the time limit passed before the engine was built".to_owned(),
        )));
    }
    let engine = simulation_engine(db, file, budget.clone(), started, options).map_err(refusal)?;
    let declared = declarations(rules, budget).map_err(refusal)?;
    let roles = engine.roles().to_vec();
    let mut player = Player {
        db,
        engine: &engine,
        roles: roles.clone(),
        options,
        deadline,
        base_memo: HashMap::new(),
        input_memo: HashMap::new(),
        observed: Observed {
            random: (0..roles.len())
                .map(|role| engine.is_random(role))
                .collect(),
            goal_counts: vec![BTreeMap::new(); roles.len()],
            wins: vec![0; roles.len()],
            roles,
            engine: engine_description(&engine),
            ..Observed::default()
        },
        declared,
        rng: SmallRng::seed_from_u64(options.seed),
    };
    let initial = engine.initial_state();
    for playout in 1..=options.playouts {
        if player.out_of_time() {
            player.observed.time_ran_out = Some(0);
            break;
        }
        match player.playout(playout, &initial) {
            Ok(()) => player.observed.playouts += 1,
            Err(Stop::OutOfTime { plies }) => {
                player.observed.time_ran_out = Some(plies);
                break;
            }
            Err(Stop::Failed(failure)) => {
                // Another playout would most likely fail the same way; one report is enough.
                player.observed.failure = Some(failure);
                break;
            }
        }
    }
    Ok(player.observed)
}

struct Player<'a> {
    db: &'a dyn Db,
    engine: &'a SimulationEngine,
    /// The role names (also in [`Observed::roles`]; kept apart so that traces can be rendered
    /// while the observations are being written).
    roles: Vec<String>,
    options: &'a SimulationOptions,
    deadline: Option<CpuDeadline>,
    declared: Declarations,
    /// Whether each fluent / (role, move) met so far is declared: each is looked up once.
    base_memo: HashMap<Ground, bool>,
    input_memo: HashMap<(RoleIndex, ReasonerMove), bool>,
    observed: Observed,
    rng: SmallRng,
}

/// Why a playout stopped before its end.
enum Stop {
    /// The simulation's time ran out after this many plies of the playout.
    OutOfTime {
        plies: usize,
    },
    Failed(Failure),
}

impl Player<'_> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|deadline| deadline.is_past())
    }

    fn trace(&self, playout: u64, history: &[Vec<ReasonerMove>], state: &ReasonerState) -> Trace {
        Trace::new(self.engine, &self.roles, playout, history, state)
    }

    /// The engine's answer, or the error it met instead: the [`Game`] methods cannot return
    /// errors, so the engine keeps the first one and the answer after it means nothing.
    fn checked<T>(&self, answer: T) -> Result<T, GdlError> {
        match self.engine.error() {
            Some(error) => Err(error),
            None => Ok(answer),
        }
    }

    fn playout(&mut self, playout: u64, initial: &ReasonerState) -> Result<(), Stop> {
        let engine = self.engine;
        let mut state = initial.clone();
        let mut history: Vec<Vec<ReasonerMove>> = Vec::new();
        // Hashes of the states met, with the ply each was met at, to tell a cycle.
        let hasher = std::collections::hash_map::RandomState::new();
        let mut seen: HashMap<u64, usize> = HashMap::new();
        let mut cycle = None;
        loop {
            // Gives way to an edit in the editor (salsa cancellation unwinds from here).
            self.db.unwind_if_revision_cancelled();
            let ply = history.len();
            // The engine's own clock is read only every few thousand steps of one question,
            // which small games never reach: the time is checked here, once a ply.
            if self.out_of_time() {
                return Err(Stop::OutOfTime { plies: ply });
            }
            let fail = |player: &Self, error: GdlError, state: &ReasonerState| {
                if player.out_of_time() {
                    Stop::OutOfTime { plies: ply }
                } else {
                    Stop::Failed(Failure {
                        error,
                        trace: player.trace(playout, &history, state),
                    })
                }
            };
            match seen.entry(hasher.hash_one(&state)) {
                Entry::Occupied(earlier) => {
                    cycle.get_or_insert((*earlier.get(), ply));
                }
                Entry::Vacant(slot) => {
                    slot.insert(ply);
                    // A state met again in this playout has no fluent the first time lacked.
                    self.check_base(playout, &history, &state);
                }
            }
            let terminal = self
                .checked(engine.is_terminal(&state))
                .map_err(|error| fail(self, error, &state))?;
            if terminal {
                let goals = engine
                    .try_goal_values(&state)
                    .map_err(|error| fail(self, error, &state))?;
                self.record_goals(playout, &history, &state, &goals);
                return Ok(());
            }
            if ply >= self.options.max_plies {
                let trace = self.trace(playout, &history, &state);
                Occurrences::record(&mut self.observed.no_terminal, || NoTerminal {
                    trace,
                    cycle,
                });
                return Ok(());
            }
            let mut joint = Vec::with_capacity(self.roles.len());
            let mut stuck = false;
            for role in 0..self.roles.len() {
                let mut moves = self
                    .checked(engine.legal_moves(&state, role))
                    .map_err(|error| fail(self, error, &state))?;
                self.check_input(playout, &history, &state, role, &moves);
                if moves.is_empty() {
                    let (roles, observed) = (&self.roles, &mut self.observed);
                    record_in(observed.no_legal_move.entry(role), || {
                        Trace::new(engine, roles, playout, &history, &state)
                    });
                    stuck = true;
                    continue;
                }
                let pick = self.rng.random_range(0..moves.len());
                joint.push(moves.swap_remove(pick));
            }
            if stuck {
                return Ok(());
            }
            state = self
                .checked(engine.next_state(&state, &joint))
                .map_err(|error| fail(self, error, &state))?;
            history.push(joint);
        }
    }

    fn record_goals(
        &mut self,
        playout: u64,
        history: &[Vec<ReasonerMove>],
        state: &ReasonerState,
        goals: &[Vec<Reward>],
    ) {
        let observed = &mut self.observed;
        observed.completed += 1;
        observed.completed_plies += history.len() as u64;
        let mut players = Vec::new();
        for (role, values) in goals.iter().enumerate() {
            if observed.random[role] {
                continue;
            }
            let trace = || Trace::new(self.engine, &self.roles, playout, history, state);
            match values.as_slice() {
                [] => record_in(observed.goal_missing.entry(role), trace),
                [_] => {}
                several => record_in(observed.goal_ambiguous.entry(role), || {
                    (trace(), several.to_vec())
                }),
            }
            if let Some(&value) = values.last() {
                *observed.goal_counts[role].entry(value).or_default() += 1;
                players.push((role, value));
            }
        }
        let best = players.iter().map(|&(_, value)| value).max();
        let at_best: Vec<RoleIndex> = players
            .iter()
            .filter(|&&(_, value)| Some(value) == best)
            .map(|&(role, _)| role)
            .collect();
        let solo = observed.random.iter().filter(|random| !**random).count() == 1;
        match at_best.as_slice() {
            [winner] if !solo || best == Some(100) => observed.wins[*winner] += 1,
            _ if solo => {}
            _ => observed.draws += 1,
        }
    }

    fn check_base(&mut self, playout: u64, history: &[Vec<ReasonerMove>], state: &ReasonerState) {
        let Some(base) = &self.declared.base else {
            return;
        };
        let engine = self.engine;
        // `None` only for a state of another engine, which this loop never makes.
        for fluent in engine.fluents(state).unwrap_or_default() {
            let declared = *self
                .base_memo
                .entry(fluent.clone())
                .or_insert_with(|| base.contains(&engine.render(&fluent)));
            if declared {
                continue;
            }
            // Each undeclared fluent is met once here: the memo now says "known".
            self.base_memo.insert(fluent.clone(), true);
            let group = self.group(&fluent);
            let example = engine.render(&fluent);
            let roles = &self.roles;
            let trace = || Trace::new(engine, roles, playout, history, state);
            add_undeclared(
                self.observed.undeclared_fluents.entry(group),
                example,
                trace,
            );
        }
    }

    fn check_input(
        &mut self,
        playout: u64,
        history: &[Vec<ReasonerMove>],
        state: &ReasonerState,
        role: RoleIndex,
        moves: &[ReasonerMove],
    ) {
        let Some(input) = &self.declared.input else {
            return;
        };
        let engine = self.engine;
        for action in moves {
            let key = (role, action.clone());
            let role_name = &self.roles[role];
            let declared = *self.input_memo.entry(key.clone()).or_insert_with(|| {
                input.contains(&(role_name.clone(), engine.render_move(action)))
            });
            if declared {
                continue;
            }
            self.input_memo.insert(key, true);
            // `None` only for a move of another engine, which this loop never makes.
            let Some(term) = engine.action(action) else {
                continue;
            };
            let group = (role, self.group(term));
            let example = engine.render(term);
            let roles = &self.roles;
            let trace = || Trace::new(engine, roles, playout, history, state);
            add_undeclared(self.observed.undeclared_moves.entry(group), example, trace);
        }
    }

    /// `name/arity` of a fact or move.
    fn group(&self, term: &Ground) -> String {
        let (name, args) = term.parts();
        format!(
            "{}/{}",
            self.engine.program().symbols.name(name),
            args.len()
        )
    }
}

fn record_in<K: Ord, T>(
    slot: std::collections::btree_map::Entry<'_, K, Occurrences<T>>,
    first: impl FnOnce() -> T,
) {
    use std::collections::btree_map::Entry;
    match slot {
        Entry::Occupied(mut occurrences) => occurrences.get_mut().count += 1,
        Entry::Vacant(vacant) => {
            vacant.insert(Occurrences {
                first: first(),
                count: 1,
            });
        }
    }
}

fn add_undeclared<K: Ord>(
    slot: std::collections::btree_map::Entry<'_, K, Undeclared>,
    example: String,
    first: impl FnOnce() -> Trace,
) {
    let group = slot.or_insert_with(|| Undeclared {
        examples: Vec::new(),
        distinct: 0,
        first: first(),
    });
    group.distinct += 1;
    if group.examples.len() < EXAMPLES {
        group.examples.push(example);
    }
}

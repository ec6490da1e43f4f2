//! The grounded circuit behind the [`Game`] interface.

use std::cell::{OnceCell, RefCell};

use rand::{Rng, RngExt};
use rustc_hash::FxHashSet;

use super::super::GdlError;
use super::super::interpreter::{Budget, Interpreter};
use super::super::program::{CompiledRule, Ground, Program};
use super::circuit::{self, Circuit, Prop};
use super::constant;
use super::demand;
use super::domain::{self, GroundingLimits};
use super::domain_arguments;
use super::evaluator::Evaluator;
use super::factor;
use super::lanes::{LaneGame, LanePlan, LaneWatch, Unwatched};
use super::played::{self, GoalRules};
use crate::playout::{Playout, PlayoutEnd, PlayoutStats};
use crate::{Game, Reward, RoleIndex};

/// A state: one bit per base proposition (fluent).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroundedState(Box<[u64]>);

/// A move: the number of its `does` proposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroundedMove(u32);

/// A goal proposition of a role and its value (`None`: not a number from 0 to 100).
#[derive(Debug)]
struct GoalProp {
    prop: Prop,
    value: Option<Reward>,
    text: String,
}

/// Where a game's goal values come from.
#[derive(Debug)]
enum Goals {
    /// Per role: its goal propositions.
    Circuit(Vec<Vec<GoalProp>>),
    /// The interpreter, from the state's fluents, for a game whose goal alone did not ground
    /// ([`GroundedGame::with_interpreted_goals`]).
    Interpreted {
        interpreter: Box<Interpreter>,
        /// Why the goal is not on the circuit: the grounding error of the whole game.
        reason: String,
    },
}

/// Buffers reused by every query and playout.
#[derive(Debug)]
struct Scratch {
    evaluator: Evaluator,
    /// The evaluator with the initial state loaded and its state layer propagated, made by
    /// the first playout from the initial state: later ones start from a copy of it.
    initial: Option<Evaluator>,
    joint: Vec<Prop>,
    next: Vec<u64>,
}

/// A GDL game grounded into a circuit.
#[derive(Debug)]
pub struct GroundedGame {
    program: Program,
    circuit: Circuit,
    /// The work grounding spent, failed attempts before included, and its allowance
    /// ([`WorkAllowance`](super::WorkAllowance) units): how close the game came to not
    /// grounding.
    grounding_work: (u64, u64),
    role_names: Vec<String>,
    /// Per base prop: its fluent; per input: its action (for rendering and percepts).
    fluents: Vec<Ground>,
    actions: Vec<Ground>,
    /// Per role: (input prop, legal prop) of each move it may ever make.
    moves: Vec<Vec<(Prop, Prop)>>,
    goals: Goals,
    /// Per role: (sees prop, percept).
    percepts: Vec<Vec<(Prop, Ground)>>,
    initial: GroundedState,
    scratch: RefCell<Scratch>,
    /// What playouts 64 at a time evaluate ([`lanes`](super::lanes)), made by the first;
    /// `None` where they would be slower than one at a time.
    lane_plan: OnceCell<Option<LanePlan>>,
    failure: RefCell<Option<GdlError>>,
}

/// Lanes play a game when a lane's work per ply is at most this many times the incremental
/// evaluator's (both in words read or updated: [`LanePlan::work_per_lane_ply`] and
/// [`GroundedGame::work_per_ply`]). The two units differ in cost, and neither counts all of
/// its engine's work (drawing moves; the evaluator's lazy cones), so the bound was set from
/// measurement: on the 330 corpus games that ground, `bench --seconds 1` with lanes and one
/// playout at a time (session 47, BENCHMARKS.md) put every game where lanes were much slower
/// above 4 (urmAdd 10.6: 0.36 times as fast; hallway 4.8: 0.66; atariGo_7x7 4.7: 0.58;
/// speedChess 4.4: 0.76) and left at or below it few where they are slower (gomoku_15x15
/// 3.4: 0.80) against many where they are faster (connect four 0.48: 3.9 times;
/// breakthrough 1.06: 2.4; reversi 0.42: 10).
const LANES_AT_MOST: f64 = 4.0;

/// The first attempt to ground the rules as written is allowed this fraction of the join
/// steps (see [`GroundedGame::new`]).
pub(super) const FIRST_TRY_SHARE_OF_STEPS: u64 = 2;

/// `rules` grounded with their helper relations driven by demand ([`demand`]); `None` when
/// no relation is read with known arguments.
pub(super) fn ground_on_demand(
    program: &mut Program,
    rules: &[CompiledRule],
    limits: &GroundingLimits,
) -> Option<Result<domain::Grounding, GdlError>> {
    let demanded = demand::demand(
        rules,
        &program.keywords,
        &mut program.symbols,
        &|_| true,
        &|_| false,
    )?;
    Some(domain::ground(
        program,
        &demanded.rules,
        &demanded.guards,
        limits,
    ))
}

/// `rules` grounded as written, then, while too large, rewritten each way in turn (see
/// [`GroundedGame::new`]); when every way fails, the error of the rules as written. Given
/// `failed_as_written` (the error of an attempt as written under smaller limits), the rules
/// are not grounded as written again: only rewritten.
fn ground_one_way_or_another(
    program: &mut Program,
    rules: &[CompiledRule],
    limits: &GroundingLimits,
    failed_as_written: Option<GdlError>,
) -> Result<domain::Grounding, GdlError> {
    let no_guards = FxHashSet::default();
    // The caller's limits, for every attempt but the first (which alone stops at a costly
    // join, below).
    let limits = &GroundingLimits {
        stop_at_costly_joins: false,
        ..limits.clone()
    };
    // Too large (not out of time): tried again with the rules rewritten. Each rewriting is
    // tried only when the ones before fail, so a game that grounds as written within the
    // first attempt's share of join steps, with no costly join, keeps its circuit.
    let too_large = |grounded: &Result<_, GdlError>| is_too_large(grounded, limits);
    // The first attempt as written gets half the join steps: the corpus games that ground
    // as written take under 50 M but three (brawl 174 M, quarto and quartoSuicide 352 M),
    // while a game that needs more may ground much sooner rewritten. It also stops at a
    // join far costlier than its matches (a body summing or counting through many
    // literals): merrills, which spent 16-25 CPU s failing as written at 400 M join steps,
    // stops so and grounds on demand in about 3 (BENCHMARKS.md). The whole allowance goes
    // to the rewritings, and to the rules as written again last. (A game that needs more
    // than the share as written and that no rewriting grounds spends the rewritings' time
    // first: none in the corpus.)
    let first_try = GroundingLimits {
        max_steps: limits.max_steps / FIRST_TRY_SHARE_OF_STEPS,
        stop_at_costly_joins: true,
        ..limits.clone()
    };
    let tried_before = failed_as_written.is_some();
    let mut grounded = match failed_as_written {
        Some(error) => Err(error),
        None => domain::ground(program, rules, &no_guards, &first_try),
    };
    // (A costly join is worded as steps too: see `stop_at_costly_joins`.)
    let retry_as_written = !tried_before && grounded.as_ref().is_err_and(domain::is_out_of_steps);
    // When every rewriting fails too, the error to report is the one about the rules as
    // written: a rewriting's names its own helper relations, which the game does not have.
    // ("As written" is after the domain arguments are dropped: a reduced relation's name
    // says which relation of the game it is.)
    let mut as_written = grounded.as_ref().err().cloned();
    // Two rewritings, the one that addresses why grounding as written failed first: helper
    // relations grounded only where they are read (the domain is too large), and local
    // variables eliminated in the cheapest order (the rules have too many instances over
    // the domain). Every failed attempt draws on the same allowance of work and time.
    let eliminate_first = grounded
        .as_ref()
        .is_err_and(|error| !domain::is_domain_too_large(error));
    for eliminate in [eliminate_first, !eliminate_first] {
        if !too_large(&grounded) {
            break;
        }
        if eliminate {
            let eliminated = factor::eliminate(rules, &mut program.symbols);
            grounded = domain::ground(program, &eliminated, &no_guards, limits);
            if too_large(&grounded) {
                grounded = ground_on_demand(program, &eliminated, limits).unwrap_or(grounded);
            }
        } else {
            grounded = ground_on_demand(program, rules, limits).unwrap_or(grounded);
        }
    }
    // Long bodies cut into chains, then that and demand.
    if too_large(&grounded) {
        let chained = factor::chain(rules, &mut program.symbols);
        grounded = domain::ground(program, &chained, &no_guards, limits);
        if too_large(&grounded) {
            grounded = ground_on_demand(program, &chained, limits).unwrap_or(grounded);
        }
    }
    if retry_as_written {
        if too_large(&grounded) {
            grounded = domain::ground(program, rules, &no_guards, limits);
        }
        // The first attempt's error speaks of its share of the steps; this one of the
        // whole allowance, or of the time limit that stopped the rewritings.
        as_written = grounded.as_ref().err().cloned();
    }
    match (grounded, as_written) {
        (Err(_), Some(first)) => Err(first),
        (grounded, _) => grounded,
    }
}

/// Whether grounding failed for size or steps with work and time left to try another way.
fn is_too_large(grounded: &Result<domain::Grounding, GdlError>, limits: &GroundingLimits) -> bool {
    matches!(grounded, Err(GdlError::Budget(_))) && !limits.is_exhausted()
}

impl GroundedGame {
    /// Grounds `program` within `limits`: as written, then rewritten each way in turn while
    /// too large.
    pub fn new(program: Program, limits: &GroundingLimits) -> Result<GroundedGame, GdlError> {
        GroundedGame::build(program, limits, GoalRules::Grounded, None)
    }

    /// As [`GroundedGame::new`] within [`GroundingLimits::last_resort`], for a game too large
    /// for `limits` every way (`why`, the error of [`GroundedGame::new`]): the rules rewritten
    /// each way once more, in the same order, not grounded as written again (the largest
    /// form: amazons spent 1.8 of its 8 CPU s failing so, and racer4 ran out of time). An
    /// error, `why`, when that fails too.
    ///
    /// A last resort, not the limits themselves: with the wider sizes from the start,
    /// chineseCheckers3 would ground as written into 613,391 props instead of 1,460
    /// rewritten. [`Reasoner`](crate::gdl::Reasoner) tries it before leaving the goal to the
    /// interpreter ([`GroundedGame::with_interpreted_goals`]): racer4 has relations only its
    /// goal reads but is too large without them as well, and failing so first would leave it
    /// too little of bench's time, while sudoku, whose circuit without its goal fits the
    /// limits, spends 1.7 CPU s more to set up (2.8 instead of 1.1).
    pub fn within_last_resort(
        program: Program,
        limits: &GroundingLimits,
        why: &GdlError,
    ) -> Result<GroundedGame, GdlError> {
        if limits.is_exhausted() {
            return Err(why.clone());
        }
        let last_resort = limits.last_resort();
        GroundedGame::build(
            program,
            &last_resort,
            GoalRules::Grounded,
            Some(why.clone()),
        )
        .map_err(|_| why.clone())
    }

    /// As [`GroundedGame::new`], with the relations only the goal reads left out of the
    /// circuit and the goal values asked of the interpreter, under `budget`, from the state's
    /// fluents: for a game too large to ground (`why`, the error of [`GroundedGame::new`])
    /// whose goal alone is the cause. A playout asks once, at its end. An error when no
    /// relation is the goal's alone (the game would be no smaller) or when the rest does not
    /// ground either.
    pub fn with_interpreted_goals(
        program: Program,
        limits: &GroundingLimits,
        budget: Budget,
        why: &GdlError,
    ) -> Result<GroundedGame, GdlError> {
        if limits.is_exhausted() || played::relations_only_the_goal_reads(&program).is_empty() {
            return Err(why.clone());
        }
        let mut game = GroundedGame::build(program.clone(), limits, GoalRules::Left, None)?;
        game.goals = Goals::Interpreted {
            interpreter: Box::new(Interpreter::new(program, budget)?),
            reason: why.to_string(),
        };
        Ok(game)
    }

    /// Why the goal values come from the interpreter, for a game made by
    /// [`GroundedGame::with_interpreted_goals`].
    pub fn interpreted_goals_reason(&self) -> Option<&str> {
        match &self.goals {
            Goals::Circuit(_) => None,
            Goals::Interpreted { reason, .. } => Some(reason),
        }
    }

    /// Grounds `program` within `limits`, with or without the goal (then the game has no goal
    /// proposition, until its caller sets where goals come from); given `failed_as_written`,
    /// only rewritten (see [`ground_one_way_or_another`]).
    fn build(
        mut program: Program,
        limits: &GroundingLimits,
        goal_rules: GoalRules,
        failed_as_written: Option<GdlError>,
    ) -> Result<GroundedGame, GdlError> {
        let role_names: Vec<String> = program
            .roles
            .iter()
            .map(|&sym| program.symbols.name(sym).to_owned())
            .collect();
        if role_names.is_empty() {
            return Err(GdlError::Build("the game declares no role".to_owned()));
        }
        // A subset of a stratified program's rules stratifies: this cannot fail.
        let played = program.with_rules(
            program.symbols.clone(),
            played::played_rules(&program, goal_rules),
        )?;
        // Never-changing fluents read as static relations, unless that stops the rules from
        // stratifying (an `init` rule that reads what reads the fluent).
        let played = constant::constant_fluents_as_static(
            &played.rules,
            &program.keywords,
            &mut program.symbols,
        )
        .and_then(|rules| played.with_rules(program.symbols.clone(), rules).ok())
        .unwrap_or(played);
        let reduced = domain_arguments::drop_domain_arguments(
            &played.rules,
            &played.strata,
            &program.keywords,
            &mut program.symbols,
        );
        let rules = factor::factor(&reduced, &mut program.symbols);
        let grounding = ground_one_way_or_another(&mut program, &rules, limits, failed_as_written)?;
        let circuit = circuit::build(&program, &grounding)?;
        let terms = &grounding.terms;
        let fluents = circuit
            .base_fluents
            .iter()
            .map(|&t| terms.to_ground(t))
            .collect();
        let actions = circuit
            .input_actions
            .iter()
            .map(|&t| terms.to_ground(t))
            .collect();
        let mut moves = vec![Vec::new(); role_names.len()];
        for (i, role) in circuit.input_roles.iter().enumerate() {
            if let Some(role) = role
                && circuit.input_legal[i] != circuit.false_prop
            {
                moves[*role].push((circuit.input_start + i as Prop, circuit.input_legal[i]));
            }
        }
        let circuit_goals = circuit
            .goals
            .iter()
            .map(|role_goals| {
                role_goals
                    .iter()
                    .map(|&(prop, value)| {
                        let text = terms.to_ground(value).display(&program.symbols).to_string();
                        GoalProp {
                            prop,
                            value: text.parse::<Reward>().ok().filter(|&v| v <= 100),
                            text,
                        }
                    })
                    .collect()
            })
            .collect();
        let percepts = circuit
            .sees
            .iter()
            .map(|role_sees| {
                role_sees
                    .iter()
                    .map(|&(prop, percept)| (prop, terms.to_ground(percept)))
                    .collect()
            })
            .collect();
        // `init` should be static; if a game makes it read `true`, it sees an empty state.
        let mut evaluator = Evaluator::new(&circuit);
        let words = circuit.base_count.div_ceil(64);
        let mut initial = vec![0u64; words];
        for (i, &prop) in circuit.init_of_base.iter().enumerate() {
            if evaluator.query(&circuit, prop) {
                initial[i >> 6] |= 1 << (i & 63);
            }
        }
        let scratch = Scratch {
            evaluator,
            initial: None,
            joint: Vec::new(),
            next: vec![0; words],
        };
        Ok(GroundedGame {
            program,
            circuit,
            grounding_work: (limits.work.spent(), limits.work.allowance()),
            role_names,
            fluents,
            actions,
            moves,
            goals: Goals::Circuit(circuit_goals),
            percepts,
            initial: GroundedState(initial.into_boxed_slice()),
            scratch: RefCell::new(scratch),
            lane_plan: OnceCell::new(),
            failure: RefCell::new(None),
        })
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Sizes, for reports: (propositions, ground rules).
    pub fn size(&self) -> (usize, usize) {
        (self.circuit.props, self.circuit.ground_rules)
    }

    /// The work grounding spent (the attempts that failed before included) and its allowance,
    /// in [`WorkAllowance`](super::WorkAllowance) units.
    pub fn grounding_work(&self) -> (u64, u64) {
        self.grounding_work
    }

    /// How many random playouts [`Game::random_playouts_while`] plays at once: 64 where
    /// lanes play this game ([`lanes`](super::lanes)), 1 otherwise or before it has played.
    pub fn playouts_at_once(&self) -> usize {
        match self.lane_plan.get() {
            Some(Some(_)) => super::lanes::LANES,
            _ => 1,
        }
    }

    /// The first error met by a [`Game`] method (a goal value that is not a number 0–100).
    pub fn error(&self) -> Option<GdlError> {
        self.failure.borrow().clone()
    }

    /// The fluents of a state, as terms.
    pub fn fluents(&self, state: &GroundedState) -> Vec<Ground> {
        self.fluents_of(&state.0)
    }

    /// The fluents of a state's bits, as terms.
    fn fluents_of(&self, bits: &[u64]) -> Vec<Ground> {
        (0..self.circuit.base_count)
            .filter(|&i| bits[i >> 6] >> (i & 63) & 1 == 1)
            .map(|i| self.fluents[i].clone())
            .collect()
    }

    /// Every goal value of each role (ascending) in the state of `bits`, from `interpreter`.
    fn interpreted_goal_values(
        &self,
        interpreter: &Interpreter,
        bits: &[u64],
    ) -> Result<Vec<Vec<Reward>>, GdlError> {
        // The interpreter's states are sorted sets of fluents.
        let mut fluents = self.fluents_of(bits);
        fluents.sort_unstable();
        fluents.dedup();
        interpreter.try_goal_values(&fluents)
    }

    /// Every fluent the circuit has a proposition for: all a state of the game may hold (and
    /// perhaps more: grounding over-approximates).
    pub fn possible_fluents(&self) -> &[Ground] {
        &self.fluents
    }

    /// The action of a move, as a term.
    pub fn action(&self, action: GroundedMove) -> &Ground {
        &self.actions[(action.0 - self.circuit.input_start) as usize]
    }

    /// Whether `role` is GDL-II's `random`, the chance player that moves uniformly at random.
    pub fn is_random(&self, role: RoleIndex) -> bool {
        self.program.roles[role] == self.program.keywords.random
    }

    /// What `role` sees after the joint move (GDL-II `sees`).
    pub fn percepts(
        &self,
        state: &GroundedState,
        joint: &[GroundedMove],
        role: RoleIndex,
    ) -> Vec<Ground> {
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_move(&mut scratch, state, joint);
        self.percepts[role]
            .iter()
            .filter(|(prop, _)| scratch.evaluator.query(&self.circuit, *prop))
            .map(|(_, percept)| percept.clone())
            .collect()
    }

    /// Every goal value of each role, ascending (a well-formed game gives exactly one in
    /// terminal states).
    pub fn try_goal_values(&self, state: &GroundedState) -> Result<Vec<Vec<Reward>>, GdlError> {
        let role_goals = match &self.goals {
            Goals::Circuit(role_goals) => role_goals,
            Goals::Interpreted { interpreter, .. } => {
                return self.interpreted_goal_values(interpreter, &state.0);
            }
        };
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_state(&mut scratch, state);
        let evaluator = &mut scratch.evaluator;
        let mut values = Vec::with_capacity(role_goals.len());
        for (role, goals) in role_goals.iter().enumerate() {
            let mut role_values = Vec::new();
            for goal in goals
                .iter()
                .filter(|g| evaluator.query(&self.circuit, g.prop))
            {
                match goal.value {
                    Some(value) => role_values.push(value),
                    None => return Err(self.bad_goal(role, goal)),
                }
            }
            role_values.sort_unstable();
            role_values.dedup();
            values.push(role_values);
        }
        Ok(values)
    }

    fn bad_goal(&self, role: RoleIndex, goal: &GoalProp) -> GdlError {
        GdlError::Game(format!(
            "goal value `{}` of role `{}` is not a number from 0 to 100",
            goal.text, self.role_names[role]
        ))
    }

    fn evaluate_state(&self, scratch: &mut Scratch, state: &GroundedState) {
        let circuit = &self.circuit;
        scratch.evaluator.load_state(circuit, &state.0);
        scratch
            .evaluator
            .propagate(circuit, circuit.state_layer_end);
    }

    fn evaluate_move(&self, scratch: &mut Scratch, state: &GroundedState, joint: &[GroundedMove]) {
        let circuit = &self.circuit;
        scratch.evaluator.load_state(circuit, &state.0);
        scratch.joint.clear();
        scratch.joint.extend(joint.iter().map(|m| m.0));
        let Scratch {
            evaluator, joint, ..
        } = scratch;
        evaluator.load_inputs(circuit, joint);
        evaluator.propagate(circuit, circuit.props as Prop);
    }

    /// The next base props from the evaluated `next` props, into `scratch.next`.
    fn read_next(&self, scratch: &mut Scratch) {
        scratch.next.copy_from_slice(scratch.evaluator.next_state());
    }

    /// Each role's goal value (the highest of several, 0 for none), and whether some role had
    /// several different ones, in the state of `bits` with its state layer evaluated in
    /// `evaluator`; or the error of a bad value.
    fn goal_rewards(
        &self,
        evaluator: &mut Evaluator,
        bits: &[u64],
    ) -> Result<(Vec<Reward>, bool), GdlError> {
        let role_goals = match &self.goals {
            Goals::Circuit(role_goals) => role_goals,
            Goals::Interpreted { interpreter, .. } => {
                let values = self.interpreted_goal_values(interpreter, bits)?;
                let ambiguous = values.iter().any(|role| role.len() > 1);
                let highest = values.iter().map(|role| role.last().copied().unwrap_or(0));
                return Ok((highest.collect(), ambiguous));
            }
        };
        let mut rewards = Vec::with_capacity(role_goals.len());
        let mut ambiguous = false;
        for (role, goals) in role_goals.iter().enumerate() {
            let mut best: Option<Reward> = None;
            for goal in goals
                .iter()
                .filter(|g| evaluator.query(&self.circuit, g.prop))
            {
                match goal.value {
                    Some(value) => {
                        ambiguous |= best.is_some_and(|best| best != value);
                        best = best.max(Some(value));
                    }
                    None => return Err(self.bad_goal(role, goal)),
                }
            }
            rewards.push(best.unwrap_or(0));
        }
        Ok((rewards, ambiguous))
    }

    fn record(&self, error: GdlError) {
        let mut failure = self.failure.borrow_mut();
        if failure.is_none() {
            *failure = Some(error);
        }
    }

    /// The sets of `role`'s moves whose gate holds (the state layer propagated): together they
    /// hold exactly its legal moves.
    fn open_sets<'e>(
        &'e self,
        evaluator: &'e Evaluator,
        role: RoleIndex,
    ) -> impl Iterator<Item = u32> + 'e {
        self.circuit.move_sets.role_sets[role]
            .iter()
            .filter(|&&(gate, _)| evaluator.get(gate >> 1) != (gate & 1 == 1))
            .map(|&(_, set)| set)
    }

    /// A uniformly random legal move of `role` (its input prop), or `None` when it has none.
    fn random_move<R: Rng + ?Sized>(
        &self,
        evaluator: &Evaluator,
        role: RoleIndex,
        rng: &mut R,
    ) -> Option<Prop> {
        let moves = evaluator.moves();
        let total: usize = self
            .open_sets(evaluator, role)
            .map(|set| moves.len(set))
            .sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.random_range(0..total);
        for set in self.open_sets(evaluator, role) {
            let len = moves.len(set);
            if pick < len {
                return moves
                    .nth(&self.circuit, set, pick)
                    .map(|input| self.circuit.input_start + input);
            }
            pick -= len;
        }
        None
    }

    /// The legal moves of `role` as random playouts see them: from the move sets kept up to
    /// date by the evaluator, not from the `legal` props as [`Game::legal_moves`]. The same
    /// moves in the same order when the reasoner is right; tests compare the two.
    pub fn playout_legal_moves(&self, state: &GroundedState, role: RoleIndex) -> Vec<GroundedMove> {
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_state(&mut scratch, state);
        let mut moves: Vec<GroundedMove> = self
            .open_sets(&scratch.evaluator, role)
            .flat_map(|set| scratch.evaluator.moves().members(&self.circuit, set))
            .map(|input| GroundedMove(self.circuit.input_start + input))
            .collect();
        moves.sort_unstable_by_key(|m| m.0);
        moves
    }

    /// Random playout without allocation per ply: the evaluator steps from state to state,
    /// each role's legal moves are read straight from the bits.
    pub fn fast_random_playout<R: Rng + ?Sized>(
        &self,
        state: &GroundedState,
        rng: &mut R,
        max_plies: usize,
    ) -> Playout {
        if let Some(error) = self.failure.borrow().as_ref() {
            return Playout {
                plies: 0,
                end: PlayoutEnd::Failure(error.to_string()),
                goals: None,
                ambiguous_goals: false,
            };
        }
        let circuit = &self.circuit;
        let mut scratch = self.scratch.borrow_mut();
        let scratch = &mut *scratch;
        if *state == self.initial {
            match &scratch.initial {
                Some(initial) => scratch.evaluator.restore_from(initial),
                None => {
                    self.evaluate_state(scratch, state);
                    scratch.initial = Some(scratch.evaluator.clone());
                }
            }
        } else {
            scratch.evaluator.load_state(circuit, &state.0);
        }
        let mut plies = 0;
        let end = loop {
            scratch
                .evaluator
                .propagate(circuit, circuit.state_layer_end);
            if scratch.evaluator.query(circuit, circuit.terminal) {
                break PlayoutEnd::Terminal;
            }
            if plies >= max_plies {
                break PlayoutEnd::PlyLimit;
            }
            scratch.joint.clear();
            let mut stuck = None;
            for role in 0..self.moves.len() {
                match self.random_move(&scratch.evaluator, role, rng) {
                    Some(input) => scratch.joint.push(input),
                    None => {
                        stuck = Some(role);
                        break;
                    }
                }
            }
            if let Some(role) = stuck {
                break PlayoutEnd::NoLegalMove(role);
            }
            scratch.evaluator.load_inputs(circuit, &scratch.joint);
            scratch.evaluator.propagate(circuit, circuit.props as Prop);
            self.read_next(scratch);
            scratch.evaluator.load_state(circuit, &scratch.next);
            plies += 1;
        };
        let (mut goals, mut ambiguous_goals) = (None, false);
        if end == PlayoutEnd::Terminal {
            // The state loaded last: the start, or the last next state read.
            let bits: &[u64] = if plies == 0 { &state.0 } else { &scratch.next };
            match self.goal_rewards(&mut scratch.evaluator, bits) {
                Ok((rewards, ambiguous)) => (goals, ambiguous_goals) = (Some(rewards), ambiguous),
                Err(error) => {
                    let message = error.to_string();
                    self.record(error);
                    return Playout {
                        plies,
                        end: PlayoutEnd::Failure(message),
                        goals: None,
                        ambiguous_goals: false,
                    };
                }
            }
        }
        Playout {
            plies,
            end,
            goals,
            ambiguous_goals,
        }
    }
}

impl GroundedGame {
    /// What a ply costs the incremental evaluator, in the units of
    /// [`LanePlan::work_per_lane_ply`]: each prop that changes, and each rule reading it
    /// that the evaluator updates, over random playouts from the start (a fixed seed and a
    /// fixed number of plies: the same figure on every machine and run).
    fn work_per_ply(&self) -> f64 {
        use rand::SeedableRng;
        // Enough plies for a few playouts of most games; a game whose plies cost much is
        // measured over fewer (a bound in work, not time, so that the figure is the same
        // everywhere).
        const PLIES: usize = 2_000;
        const MOST_WORK: u64 = 4_000_000;
        let circuit = &self.circuit;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(0x1a4e5);
        let mut scratch = self.scratch.borrow_mut();
        let scratch = &mut *scratch;
        let mut before = scratch.evaluator.values().to_vec();
        let mut work = 0u64;
        let changed = |evaluator: &Evaluator, before: &mut Vec<u64>| {
            let mut work = 0;
            for (word, (now, was)) in evaluator.values().iter().zip(before.iter()).enumerate() {
                let mut flipped = now ^ was;
                while flipped != 0 {
                    let prop = word << 6 | flipped.trailing_zeros() as usize;
                    flipped &= flipped - 1;
                    let wiring = &circuit.wiring[prop];
                    work += 1 + u64::from(wiring.special_start - wiring.readers_start);
                }
            }
            before.copy_from_slice(evaluator.values());
            work
        };
        let mut plies = 0;
        let mut state = self.initial.clone();
        // Playouts that end at once (a terminal start) count as rounds, not plies.
        let mut rounds = 0;
        while plies < PLIES && rounds < 2 * PLIES && work < MOST_WORK {
            rounds += 1;
            self.evaluate_state(scratch, &state);
            work += changed(&scratch.evaluator, &mut before);
            if scratch.evaluator.query(circuit, circuit.terminal) {
                state.0.copy_from_slice(&self.initial.0);
                continue;
            }
            scratch.joint.clear();
            for role in 0..self.moves.len() {
                if let Some(input) = self.random_move(&scratch.evaluator, role, &mut rng) {
                    scratch.joint.push(input);
                }
            }
            if scratch.joint.len() < self.moves.len() {
                state.0.copy_from_slice(&self.initial.0);
                continue;
            }
            scratch.evaluator.load_inputs(circuit, &scratch.joint);
            scratch.evaluator.propagate(circuit, circuit.props as Prop);
            work += changed(&scratch.evaluator, &mut before);
            self.read_next(scratch);
            state.0.copy_from_slice(&scratch.next);
            plies += 1;
        }
        work as f64 / plies.max(1) as f64
    }

    fn new_lane_plan(&self, role_goals: &[Vec<GoalProp>]) -> LanePlan {
        let goals = role_goals
            .iter()
            .map(|goals| goals.iter().map(|goal| (goal.prop, goal.value)).collect())
            .collect();
        LanePlan::new(&self.circuit, &self.moves, goals)
    }

    /// The lane plan when lanes play this game's playouts faster than the incremental
    /// evaluator, by the two's work per ply (see [`LANES_AT_MOST`]).
    fn lane_plan_if_faster(&self, role_goals: &[Vec<GoalProp>]) -> Option<LanePlan> {
        let plan = self.new_lane_plan(role_goals);
        let (lanes, one_at_a_time) = (plan.work_per_lane_ply(), self.work_per_ply());
        (lanes <= LANES_AT_MOST * one_at_a_time).then_some(plan)
    }

    fn lane_game<'g>(&'g self, state: &'g GroundedState) -> LaneGame<'g> {
        LaneGame {
            circuit: &self.circuit,
            moves: &self.moves,
            start: &state.0,
        }
    }

    /// Plays `count` random playouts 64 at a time (as [`Game::random_playouts_while`] does)
    /// and replays each on the circuit one step at a time through the [`Game`] methods:
    /// every move legal and drawn from all of its role's legal moves, the end, the plies and
    /// the goals the same. The error says where a playout went astray. A check for tests and
    /// for the corpus suite, which keep the lanes honest against the step-by-step circuit.
    pub fn replay_lane_playouts(
        &self,
        count: u64,
        seed: u64,
        max_plies: usize,
    ) -> Result<(), String> {
        let Goals::Circuit(role_goals) = &self.goals else {
            return Ok(());
        };
        self.replay_with(
            &self.new_lane_plan(role_goals),
            role_goals,
            count,
            seed,
            max_plies,
        )
    }

    /// [`GroundedGame::replay_lane_playouts`] with the goals of `goal_batch` lanes evaluated
    /// together (small games would not make lanes wait); how many recursive groups and props
    /// of input classes the lanes evaluate.
    #[cfg(test)]
    pub(super) fn replay_lane_playouts_batched(
        &self,
        count: u64,
        seed: u64,
        max_plies: usize,
        goal_batch: u32,
    ) -> Result<(usize, usize), String> {
        let Goals::Circuit(role_goals) = &self.goals else {
            return Err("the goals are not on the circuit".to_owned());
        };
        let mut plan = self.new_lane_plan(role_goals);
        plan.set_goal_batch(goal_batch);
        self.replay_with(&plan, role_goals, count, seed, max_plies)?;
        Ok(plan.groups_and_played())
    }

    fn replay_with(
        &self,
        plan: &LanePlan,
        role_goals: &[Vec<GoalProp>],
        count: u64,
        seed: u64,
        max_plies: usize,
    ) -> Result<(), String> {
        use rand::SeedableRng;
        let start = self.initial_state();
        let mut stats = PlayoutStats::new(self.roles().len());
        let mut recorder = LaneRecorder::default();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let game = self.lane_game(&start);
        let mut another = |begun| begun < count;
        plan.playouts(
            &game,
            &mut rng,
            max_plies,
            &mut stats,
            &mut another,
            &mut recorder,
        )
        .map_err(|bad| {
            self.bad_goal(bad.role, &role_goals[bad.role][bad.goal])
                .to_string()
        })?;
        if stats.playouts != count || recorder.ended.len() as u64 != count {
            return Err(format!(
                "{count} playouts begun, {} ended",
                recorder.ended.len()
            ));
        }
        for (number, (moves, playout)) in recorder.ended.iter().enumerate() {
            self.replay_one(&start, moves, playout, max_plies)
                .map_err(|error| format!("lane playout {number}: {error}"))?;
        }
        Ok(())
    }

    /// Replays one lane playout (see [`GroundedGame::replay_lane_playouts`]).
    fn replay_one(
        &self,
        start: &GroundedState,
        moves: &[LaneMove],
        playout: &Playout,
        max_plies: usize,
    ) -> Result<(), String> {
        let mut state = start.clone();
        let mut joint = Vec::new();
        let mut plies = 0;
        for &(role, input, legal_count) in moves {
            if role == 0 && self.is_terminal(&state) {
                return Err(format!("a move at ply {plies}, in a terminal state"));
            }
            let legal = self.legal_moves(&state, role);
            if legal.len() as u32 != legal_count {
                return Err(format!(
                    "at ply {plies}, role {role} drew among {legal_count} moves, not its {} legal ones",
                    legal.len()
                ));
            }
            let Some(&chosen) = legal.iter().find(|m| m.0 == input) else {
                return Err(format!(
                    "at ply {plies}, role {role} played an illegal move"
                ));
            };
            joint.push(chosen);
            if joint.len() == self.role_names.len() {
                state = self.next_state(&state, &joint);
                joint.clear();
                plies += 1;
            }
        }
        let ended_right = match &playout.end {
            PlayoutEnd::Terminal => {
                joint.is_empty()
                    && self.is_terminal(&state)
                    && playout.goals.as_ref() == Some(&self.goals(&state))
                    && playout.ambiguous_goals == self.goals_are_ambiguous(&state)
            }
            PlayoutEnd::PlyLimit => !self.is_terminal(&state) && plies == max_plies,
            PlayoutEnd::NoLegalMove(role) => {
                !self.is_terminal(&state) && self.legal_moves(&state, *role).is_empty()
            }
            PlayoutEnd::Failure(message) => return Err(message.clone()),
        };
        if playout.plies != plies || !ended_right {
            return Err(format!(
                "ended {:?} after {} plies with goals {:?}; step by step, {plies} plies reach a state {} with goals {:?}",
                playout.end,
                playout.plies,
                playout.goals,
                if self.is_terminal(&state) {
                    "terminal"
                } else {
                    "not terminal"
                },
                self.goals(&state),
            ));
        }
        Ok(())
    }
}

/// Follows each lane of lane playouts for [`GroundedGame::replay_lane_playouts`]: the moves of
/// the playout it plays, and each playout ended with its moves.
#[derive(Default)]
struct LaneRecorder {
    /// Per lane, the moves of its current playout.
    playing: Vec<Vec<LaneMove>>,
    ended: Vec<(Vec<LaneMove>, Playout)>,
}

/// A move of a lane playout: the role, its input prop, and how many legal moves it was drawn
/// from.
type LaneMove = (RoleIndex, Prop, u32);

impl LaneWatch for LaneRecorder {
    fn began(&mut self, lane: usize) {
        if self.playing.len() <= lane {
            self.playing.resize(lane + 1, Vec::new());
        }
        self.playing[lane].clear();
    }

    fn moved(&mut self, lane: usize, role: RoleIndex, input: Prop, legal: u32) {
        self.playing[lane].push((role, input, legal));
    }

    fn ended(&mut self, lane: usize, playout: &dyn Fn() -> Playout) {
        self.ended
            .push((std::mem::take(&mut self.playing[lane]), playout()));
    }
}

/// The [`Game`] view. Grounded games do not run out of budget while playing; the one failure
/// is a goal value that is not a number 0–100, after which the game answers "terminal, no
/// moves, goals 0" like the interpreter.
impl Game for GroundedGame {
    type State = GroundedState;
    type Move = GroundedMove;

    fn roles(&self) -> &[String] {
        &self.role_names
    }

    fn initial_state(&self) -> GroundedState {
        self.initial.clone()
    }

    fn is_terminal(&self, state: &GroundedState) -> bool {
        if self.failure.borrow().is_some() {
            return true;
        }
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_state(&mut scratch, state);
        scratch
            .evaluator
            .query(&self.circuit, self.circuit.terminal)
    }

    fn legal_moves(&self, state: &GroundedState, role: RoleIndex) -> Vec<GroundedMove> {
        if self.failure.borrow().is_some() {
            return Vec::new();
        }
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_state(&mut scratch, state);
        self.moves[role]
            .iter()
            .filter(|&&(_, legal)| scratch.evaluator.query(&self.circuit, legal))
            .map(|&(input, _)| GroundedMove(input))
            .collect()
    }

    fn next_state(&self, state: &GroundedState, joint: &[GroundedMove]) -> GroundedState {
        if self.failure.borrow().is_some() {
            return state.clone();
        }
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_move(&mut scratch, state, joint);
        self.read_next(&mut scratch);
        GroundedState(scratch.next.clone().into_boxed_slice())
    }

    /// The goal value of each role; a role with several values gets the highest, a role with
    /// none gets 0 (as the interpreter).
    fn goals(&self, state: &GroundedState) -> Vec<Reward> {
        if self.failure.borrow().is_some() {
            return vec![0; self.role_names.len()];
        }
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_state(&mut scratch, state);
        match self.goal_rewards(&mut scratch.evaluator, &state.0) {
            Ok((rewards, _)) => rewards,
            Err(error) => {
                self.record(error);
                vec![0; self.role_names.len()]
            }
        }
    }

    fn goals_are_ambiguous(&self, state: &GroundedState) -> bool {
        if self.failure.borrow().is_some() {
            return false;
        }
        let mut scratch = self.scratch.borrow_mut();
        self.evaluate_state(&mut scratch, state);
        self.goal_rewards(&mut scratch.evaluator, &state.0)
            .is_ok_and(|(_, ambiguous)| ambiguous)
    }

    fn failure(&self) -> Option<String> {
        self.failure.borrow().as_ref().map(ToString::to_string)
    }

    fn random_playout<R: Rng + ?Sized>(
        &self,
        state: &GroundedState,
        rng: &mut R,
        max_plies: usize,
    ) -> Playout
    where
        Self: Sized,
    {
        self.fast_random_playout(state, rng, max_plies)
    }

    /// 64 playouts at a time where lanes play this game ([`lanes`](super::lanes)), one at a
    /// time otherwise (and when the goals come from the interpreter).
    fn random_playouts_while<R: Rng + ?Sized>(
        &self,
        state: &GroundedState,
        rng: &mut R,
        max_plies: usize,
        stats: &mut PlayoutStats,
        another: &mut dyn FnMut(u64) -> bool,
    ) where
        Self: Sized,
    {
        let Goals::Circuit(role_goals) = &self.goals else {
            return crate::playout::one_at_a_time(self, state, rng, max_plies, stats, another);
        };
        if self.failure.borrow().is_some() {
            return crate::playout::one_at_a_time(self, state, rng, max_plies, stats, another);
        }
        let plan = self
            .lane_plan
            .get_or_init(|| self.lane_plan_if_faster(role_goals));
        let Some(plan) = plan else {
            return crate::playout::one_at_a_time(self, state, rng, max_plies, stats, another);
        };
        let game = self.lane_game(state);
        let played = plan.playouts(&game, rng, max_plies, stats, another, &mut Unwatched);
        if let Err(bad) = played {
            let error = self.bad_goal(bad.role, &role_goals[bad.role][bad.goal]);
            stats.add(&Playout {
                plies: 0,
                end: PlayoutEnd::Failure(error.to_string()),
                goals: None,
                ambiguous_goals: false,
            });
            self.record(error);
        }
    }
}

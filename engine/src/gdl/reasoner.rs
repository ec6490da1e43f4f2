//! The GDL reasoner to use: the grounded circuit when the game grounds within its limits (or
//! grounds without its goal, whose values the interpreter then gives), the interpreter
//! otherwise (with the reason kept), behind one [`Game`] implementation.

use std::cell::Cell;
use std::time::Duration;

use rand::Rng;

use super::GdlError;
use super::grounded::{GroundedGame, GroundedMove, GroundedState, GroundingLimits};
use super::interpreter::{Budget, GdlState, Interpreter};
use super::program::{Ground, Program};
use crate::cpu_time::CpuDeadline;
use crate::playout::{Playout, PlayoutStats};
use crate::{Game, Reward, RoleIndex};

/// The engine running a game.
#[derive(Debug)]
pub enum Engine {
    /// Both boxed: the two differ much in size, and a reasoner is made once per game.
    Grounded(Box<GroundedGame>),
    Interpreted(Box<Interpreter>),
}

/// A GDL game on the fastest engine that can run it.
#[derive(Debug)]
pub struct Reasoner {
    engine: Engine,
    fallback_reason: Option<String>,
    /// Set when a state or move of the other engine was passed in (a caller's mistake, answered
    /// like a failure rather than a panic).
    mixed_up: Cell<bool>,
}

/// A state of either engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReasonerState {
    Grounded(GroundedState),
    Interpreted(GdlState),
}

/// A move of either engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ReasonerMove {
    Grounded(GroundedMove),
    Interpreted(Ground),
}

const MIXED_UP: &str = "a state or move of another engine was passed to this game";

impl Reasoner {
    /// The most CPU time [`Reasoner::new`] spends grounding before it falls back to the
    /// interpreter: a safety net, not what decides. The count of work decides
    /// ([`GroundingLimits::work`]), the same on every machine; this stops a grounding whose
    /// time the count misses. Ninety seconds: the whole allowance takes about 25-40 CPU s on
    /// the machine of its fit for the corpus's games, and 65 s for a game as far off the fit
    /// as the furthest (2.2 times), so the net leaves room for a machine somewhat slower.
    pub const GROUNDING_TIME: Duration = Duration::from_secs(90);

    /// Grounds the program (within the default limits and work allowance, never past
    /// [`Reasoner::GROUNDING_TIME`] or the budget's deadline), falling back to the interpreter
    /// under `budget`.
    pub fn new(program: Program, budget: Budget) -> Result<Reasoner, GdlError> {
        let mut deadline = CpuDeadline::after(Reasoner::GROUNDING_TIME);
        if let Some(limit) = budget.deadline {
            deadline = deadline.earlier(limit);
        }
        let limits = GroundingLimits {
            deadline: Some(deadline),
            ..GroundingLimits::default()
        };
        Reasoner::with_limits(program, budget, &limits)
    }

    /// As [`Reasoner::new`], with explicit grounding limits.
    pub fn with_limits(
        program: Program,
        budget: Budget,
        limits: &GroundingLimits,
    ) -> Result<Reasoner, GdlError> {
        // Grounding consumes its own copy so that the interpreter can take the program if it
        // fails (the copy is of symbols and compiled rules: small beside either engine).
        match GroundedGame::new(program.clone(), limits) {
            Ok(game) => Ok(Reasoner {
                engine: Engine::Grounded(Box::new(game)),
                fallback_reason: None,
                mixed_up: Cell::new(false),
            }),
            // Too large: the limits' last resort, then the game without its goal, which the
            // interpreter answers once a playout (see `within_last_resort` for the order).
            Err(error @ GdlError::Budget(_)) => {
                match GroundedGame::within_last_resort(program.clone(), limits, &error).or_else(
                    |_| {
                        GroundedGame::with_interpreted_goals(
                            program.clone(),
                            limits,
                            budget.clone(),
                            &error,
                        )
                    },
                ) {
                    Ok(game) => Ok(Reasoner {
                        engine: Engine::Grounded(Box::new(game)),
                        fallback_reason: None,
                        mixed_up: Cell::new(false),
                    }),
                    Err(_) => Reasoner::fall_back(program, budget, &error),
                }
            }
            Err(error) => Reasoner::fall_back(program, budget, &error),
        }
    }

    /// The interpreter, for a game that did not ground (`why`).
    fn fall_back(program: Program, budget: Budget, why: &GdlError) -> Result<Reasoner, GdlError> {
        let interpreter = Interpreter::new(program, budget)?;
        Ok(Reasoner {
            engine: Engine::Interpreted(Box::new(interpreter)),
            fallback_reason: Some(why.to_string()),
            mixed_up: Cell::new(false),
        })
    }

    /// Only the interpreter (its goal-directed evaluation), for comparisons.
    pub fn interpreted(program: Program, budget: Budget) -> Result<Reasoner, GdlError> {
        Ok(Reasoner {
            engine: Engine::Interpreted(Box::new(Interpreter::new(program, budget)?)),
            fallback_reason: None,
            mixed_up: Cell::new(false),
        })
    }

    /// Only the interpreter, with its reference evaluation ([`Interpreter::bottom_up`]): the
    /// oracle the goal-directed one is compared with.
    pub fn bottom_up(program: Program, budget: Budget) -> Result<Reasoner, GdlError> {
        Ok(Reasoner {
            engine: Engine::Interpreted(Box::new(Interpreter::bottom_up(program, budget)?)),
            fallback_reason: None,
            mixed_up: Cell::new(false),
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// `"grounded"` or `"interpreter"`.
    pub fn engine_name(&self) -> &'static str {
        match self.engine {
            Engine::Grounded(_) => "grounded",
            Engine::Interpreted(_) => "interpreter",
        }
    }

    /// Why the game runs on the interpreter, when grounding failed.
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback_reason.as_deref()
    }

    /// Why the goal values come from the interpreter, for a game grounded without its goal
    /// ([`GroundedGame::with_interpreted_goals`]).
    pub fn interpreted_goals_reason(&self) -> Option<&str> {
        match &self.engine {
            Engine::Grounded(game) => game.interpreted_goals_reason(),
            Engine::Interpreted(_) => None,
        }
    }

    /// The first error a [`Game`] method met, with its kind (a budget that ran out, a game that
    /// misbehaves), for callers that tell those apart; [`Game::failure`] gives it as text.
    pub fn error(&self) -> Option<GdlError> {
        if self.mixed_up.get() {
            return Some(GdlError::Game(MIXED_UP.to_owned()));
        }
        match &self.engine {
            Engine::Grounded(game) => game.error(),
            Engine::Interpreted(interpreter) => interpreter.error(),
        }
    }

    pub fn program(&self) -> &Program {
        match &self.engine {
            Engine::Grounded(game) => game.program(),
            Engine::Interpreted(interpreter) => interpreter.program(),
        }
    }

    /// A ground term in KIF form.
    pub fn render(&self, term: &Ground) -> String {
        term.display(&self.program().symbols).to_string()
    }

    /// A move in KIF form (its action, as in `(legal role action)`).
    pub fn render_move(&self, action: &ReasonerMove) -> String {
        self.action(action)
            .map_or_else(|| MIXED_UP.to_owned(), |action| self.render(action))
    }

    /// The action of a move, as a term; `None` for a move of the other engine.
    pub fn action<'a>(&'a self, action: &'a ReasonerMove) -> Option<&'a Ground> {
        match (&self.engine, action) {
            (Engine::Grounded(game), ReasonerMove::Grounded(action)) => Some(game.action(*action)),
            (_, ReasonerMove::Interpreted(action)) => Some(action),
            (Engine::Interpreted(_), ReasonerMove::Grounded(_)) => None,
        }
    }

    /// The fluents of a state in KIF form, sorted.
    pub fn render_state(&self, state: &ReasonerState) -> Vec<String> {
        let mut fluents: Vec<String> = match self.fluents(state) {
            Some(fluents) => fluents.iter().map(|f| self.render(f)).collect(),
            None => vec![MIXED_UP.to_owned()],
        };
        fluents.sort();
        fluents
    }

    /// The fluents of a state, as terms; `None` for a state of the other engine.
    pub fn fluents(&self, state: &ReasonerState) -> Option<Vec<Ground>> {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => Some(game.fluents(state)),
            (_, ReasonerState::Interpreted(state)) => Some(state.clone()),
            (Engine::Interpreted(_), ReasonerState::Grounded(_)) => None,
        }
    }

    /// Every fluent a state may hold, when the game is grounded (the circuit's base
    /// propositions); empty on the interpreter, which does not know them in advance.
    pub fn possible_fluents(&self) -> &[Ground] {
        match &self.engine {
            Engine::Grounded(game) => game.possible_fluents(),
            Engine::Interpreted(_) => &[],
        }
    }

    /// Whether `role` is GDL-II's `random`.
    pub fn is_random(&self, role: RoleIndex) -> bool {
        match &self.engine {
            Engine::Grounded(game) => game.is_random(role),
            Engine::Interpreted(interpreter) => interpreter.is_random(role),
        }
    }

    /// What `role` sees after the joint move (GDL-II `sees`), in KIF form, sorted; the
    /// interpreter's budget error when it ran out.
    pub fn try_percepts(
        &self,
        state: &ReasonerState,
        joint: &[ReasonerMove],
        role: RoleIndex,
    ) -> Result<Vec<String>, GdlError> {
        let mixed_up = || GdlError::Game(MIXED_UP.to_owned());
        let percepts = match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => {
                let joint = grounded_moves(joint).ok_or_else(mixed_up)?;
                game.percepts(state, &joint, role)
            }
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => {
                let joint = interpreted_moves(joint).ok_or_else(mixed_up)?;
                interpreter.try_percepts(state, &joint, role)?
            }
            _ => return Err(mixed_up()),
        };
        Ok(self.render_sorted(&percepts))
    }

    /// Terms in KIF form, sorted.
    fn render_sorted(&self, terms: &[Ground]) -> Vec<String> {
        let mut shown: Vec<String> = terms.iter().map(|term| self.render(term)).collect();
        shown.sort();
        shown
    }

    /// Every goal value of each role, ascending.
    pub fn try_goal_values(&self, state: &ReasonerState) -> Result<Vec<Vec<Reward>>, GdlError> {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => game.try_goal_values(state),
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => {
                interpreter.try_goal_values(state)
            }
            _ => Err(GdlError::Game(MIXED_UP.to_owned())),
        }
    }

    /// The legal moves of `role` as random playouts pick among them (the grounded reasoner
    /// keeps them in sets of its own; see [`GroundedGame::playout_legal_moves`]).
    pub fn playout_legal_moves(&self, state: &ReasonerState, role: RoleIndex) -> Vec<ReasonerMove> {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => game
                .playout_legal_moves(state, role)
                .into_iter()
                .map(ReasonerMove::Grounded)
                .collect(),
            _ => self.legal_moves(state, role),
        }
    }

    fn mixed_up<T>(&self, answer: T) -> T {
        self.mixed_up.set(true);
        answer
    }
}

fn grounded_moves(joint: &[ReasonerMove]) -> Option<Vec<GroundedMove>> {
    joint
        .iter()
        .map(|m| match m {
            ReasonerMove::Grounded(m) => Some(*m),
            ReasonerMove::Interpreted(_) => None,
        })
        .collect()
}

fn interpreted_moves(joint: &[ReasonerMove]) -> Option<Vec<Ground>> {
    joint
        .iter()
        .map(|m| match m {
            ReasonerMove::Interpreted(m) => Some(m.clone()),
            ReasonerMove::Grounded(_) => None,
        })
        .collect()
}

impl Game for Reasoner {
    type State = ReasonerState;
    type Move = ReasonerMove;

    fn roles(&self) -> &[String] {
        match &self.engine {
            Engine::Grounded(game) => game.roles(),
            Engine::Interpreted(interpreter) => interpreter.roles(),
        }
    }

    fn initial_state(&self) -> ReasonerState {
        match &self.engine {
            Engine::Grounded(game) => ReasonerState::Grounded(game.initial_state()),
            Engine::Interpreted(interpreter) => {
                ReasonerState::Interpreted(interpreter.initial_state())
            }
        }
    }

    fn is_terminal(&self, state: &ReasonerState) -> bool {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => game.is_terminal(state),
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => {
                interpreter.is_terminal(state)
            }
            _ => self.mixed_up(true),
        }
    }

    fn legal_moves(&self, state: &ReasonerState, role: RoleIndex) -> Vec<ReasonerMove> {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => game
                .legal_moves(state, role)
                .into_iter()
                .map(ReasonerMove::Grounded)
                .collect(),
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => interpreter
                .legal_moves(state, role)
                .into_iter()
                .map(ReasonerMove::Interpreted)
                .collect(),
            _ => self.mixed_up(Vec::new()),
        }
    }

    fn next_state(&self, state: &ReasonerState, joint: &[ReasonerMove]) -> ReasonerState {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(inner)) => {
                match grounded_moves(joint) {
                    Some(joint) => ReasonerState::Grounded(game.next_state(inner, &joint)),
                    None => self.mixed_up(state.clone()),
                }
            }
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(inner)) => {
                match interpreted_moves(joint) {
                    Some(joint) => {
                        ReasonerState::Interpreted(interpreter.next_state(inner, &joint))
                    }
                    None => self.mixed_up(state.clone()),
                }
            }
            _ => self.mixed_up(state.clone()),
        }
    }

    fn goals(&self, state: &ReasonerState) -> Vec<Reward> {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => game.goals(state),
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => {
                interpreter.goals(state)
            }
            _ => self.mixed_up(vec![0; self.roles().len()]),
        }
    }

    fn goals_are_ambiguous(&self, state: &ReasonerState) -> bool {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => {
                game.goals_are_ambiguous(state)
            }
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => {
                interpreter.goals_are_ambiguous(state)
            }
            _ => false,
        }
    }

    fn is_chance_role(&self, role: RoleIndex) -> bool {
        self.is_random(role)
    }

    fn percepts(
        &self,
        state: &ReasonerState,
        joint: &[ReasonerMove],
        role: RoleIndex,
    ) -> Vec<String> {
        let percepts = match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => {
                grounded_moves(joint).map(|joint| game.percepts(state, &joint, role))
            }
            (Engine::Interpreted(interpreter), ReasonerState::Interpreted(state)) => {
                interpreted_moves(joint).map(|joint| interpreter.percepts(state, &joint, role))
            }
            _ => None,
        };
        match percepts {
            Some(percepts) => self.render_sorted(&percepts),
            None => self.mixed_up(Vec::new()),
        }
    }

    fn failure(&self) -> Option<String> {
        if self.mixed_up.get() {
            return Some(MIXED_UP.to_owned());
        }
        match &self.engine {
            Engine::Grounded(game) => game.failure(),
            Engine::Interpreted(interpreter) => interpreter.failure(),
        }
    }

    fn random_playout<R: Rng + ?Sized>(
        &self,
        state: &ReasonerState,
        rng: &mut R,
        max_plies: usize,
    ) -> Playout
    where
        Self: Sized,
    {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => {
                game.fast_random_playout(state, rng, max_plies)
            }
            _ => crate::playout::step_by_step_playout(self, state, rng, max_plies),
        }
    }

    fn random_playouts_while<R: Rng + ?Sized>(
        &self,
        state: &ReasonerState,
        rng: &mut R,
        max_plies: usize,
        stats: &mut PlayoutStats,
        another: &mut dyn FnMut(u64) -> bool,
    ) where
        Self: Sized,
    {
        match (&self.engine, state) {
            (Engine::Grounded(game), ReasonerState::Grounded(state)) => {
                game.random_playouts_while(state, rng, max_plies, stats, another)
            }
            _ => crate::playout::one_at_a_time(self, state, rng, max_plies, stats, another),
        }
    }
}

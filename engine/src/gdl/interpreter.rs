//! The plain GDL interpreter: bottom-up evaluation of the strata over ground facts.
//!
//! The static strata (those that depend on neither `true` nor `does`) are evaluated once, when
//! the interpreter is made. Every query then evaluates the dynamic strata it needs from the state
//! (as `true` facts) and, for the next state, the joint move (as `does` facts). Rule bodies are
//! matched by nested-loop joins with backtracking on an explicit stack; recursive strata run
//! semi-naively (each round joins at least one fact new in the previous round) to a fixpoint.
//! Every join attempt and derived fact counts against a [`Budget`], so a runaway recursion ends
//! with [`GdlError::Budget`] instead of hanging.

use crate::cpu_time::CpuDeadline;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use super::GdlError;
use super::program::{
    CompiledLiteral, CompiledRule, Ground, MAX_TERM_DEPTH, Pattern, PatternAtom, Program, RelKey,
    Stratum, Sym,
};
use crate::{Game, Reward, RoleIndex};

/// Limits on the work of one query (one state's legal moves, goals and terminal test, or one
/// next state).
#[derive(Clone, Debug)]
pub struct Budget {
    /// Join attempts (a fact tried against a literal).
    pub max_steps: u64,
    /// Facts derived.
    pub max_facts: usize,
    /// CPU-time limit over the interpreter's whole life, checked every few thousand steps.
    pub deadline: Option<CpuDeadline>,
}

impl Default for Budget {
    /// `max_facts` bounds memory as well as work: a query deriving a million facts holds a few
    /// hundred megabytes of terms (full `chess.kif`, which does not ground, reached 0.69 GB
    /// with two million), under the 500 MB the engine promises on chess-sized games.
    fn default() -> Self {
        Budget {
            max_steps: 50_000_000,
            max_facts: 1_000_000,
            deadline: None,
        }
    }
}

/// A GDL state: the true fluents, sorted and without duplicates.
pub type GdlState = Vec<Ground>;

/// The facts of one relation, in derivation order (for deltas) and as a set (for membership).
#[derive(Clone, Debug, Default)]
struct Relation {
    list: Vec<Ground>,
    set: HashSet<Ground>,
}

type Store = HashMap<RelKey, Relation>;

/// The facts one round derives that its stratum's store does not hold yet, in the order they
/// were found. Each is counted against the budget the moment it is found, so a join matching
/// hundreds of millions of times stops at the fact budget instead of first collecting every
/// match (which once took gigabytes before the count was reached).
#[derive(Default)]
struct Derived {
    list: Vec<Ground>,
    seen: HashSet<Ground>,
}

/// The new facts of the last round of a recursive stratum, per relation.
type Delta = HashMap<RelKey, Range<usize>>;

/// Counts one query's work against the budget.
struct Counter<'a> {
    budget: &'a Budget,
    steps: u64,
    facts: usize,
}

impl Counter<'_> {
    fn step(&mut self) -> Result<(), GdlError> {
        self.steps += 1;
        if self.steps > self.budget.max_steps {
            return Err(GdlError::Budget(format!(
                "more than {} join steps in one query",
                self.budget.max_steps
            )));
        }
        if self.steps.is_multiple_of(4096)
            && let Some(deadline) = self.budget.deadline
            && deadline.is_past()
        {
            return Err(GdlError::Budget("the time limit passed".to_owned()));
        }
        Ok(())
    }

    fn fact(&mut self) -> Result<(), GdlError> {
        self.facts += 1;
        if self.facts > self.budget.max_facts {
            return Err(GdlError::Budget(format!(
                "more than {} facts derived in one query (the interpreter's bound on the memory \
                 of one question about a state)",
                self.budget.max_facts
            )));
        }
        Ok(())
    }
}

/// Runs a [`Program`] behind the [`Game`] interface.
pub struct Interpreter {
    program: Program,
    budget: Budget,
    statics: Store,
    role_names: Vec<String>,
    roles: Vec<Ground>,
    /// Dynamic strata needed for `legal`, `goal` and `terminal`.
    state_strata: Vec<usize>,
    /// Dynamic strata needed for `next` and `sees`.
    next_strata: Vec<usize>,
    initial: GdlState,
    /// The last state evaluated without moves: a playout asks for the terminal test, the legal
    /// moves of every role and then the goals of the same state. `Arc`, not `Rc`: a reasoner
    /// is moved to the editor's background threads, so it must be `Send`.
    last: RefCell<Option<(GdlState, Arc<Store>)>>,
    failure: RefCell<Option<GdlError>>,
}

impl std::fmt::Debug for Interpreter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interpreter")
            .field("roles", &self.role_names)
            .finish_non_exhaustive()
    }
}

impl Interpreter {
    /// Evaluates the static strata and the initial state.
    pub fn new(program: Program, budget: Budget) -> Result<Interpreter, GdlError> {
        let keywords = program.keywords;
        let role_names: Vec<String> = program
            .roles
            .iter()
            .map(|&sym| program.symbols.name(sym).to_owned())
            .collect();
        if role_names.is_empty() {
            return Err(GdlError::Build("the game declares no role".to_owned()));
        }
        let roles = program
            .roles
            .iter()
            .map(|&sym| Ground::Const(sym))
            .collect();
        let relations_named = |names: &[Sym]| -> Vec<RelKey> {
            names
                .iter()
                .flat_map(|&name| program.keys_named(name))
                .collect()
        };
        let dynamic_only = |strata: Vec<usize>| -> Vec<usize> {
            strata
                .into_iter()
                .filter(|&s| program.strata[s].dynamic)
                .collect()
        };
        let state_strata = dynamic_only(program.strata_for(&relations_named(&[
            keywords.legal,
            keywords.goal,
            keywords.terminal,
        ])));
        let next_strata =
            dynamic_only(program.strata_for(&relations_named(&[keywords.next, keywords.sees])));
        let init_strata = dynamic_only(program.strata_for(&relations_named(&[keywords.init])));
        let mut interpreter = Interpreter {
            program,
            budget,
            statics: Store::new(),
            role_names,
            roles,
            state_strata,
            next_strata,
            initial: Vec::new(),
            last: RefCell::new(None),
            failure: RefCell::new(None),
        };
        let static_strata: Vec<usize> = (0..interpreter.program.strata.len())
            .filter(|&s| !interpreter.program.strata[s].dynamic)
            .collect();
        let empty = Store::new();
        let mut statics = Store::new();
        let mut counter = interpreter.counter();
        for &s in &static_strata {
            let stratum = &interpreter.program.strata[s];
            interpreter.run_stratum(stratum, &empty, &mut statics, &mut counter)?;
        }
        interpreter.statics = statics;
        // `init` should be static; if a game makes it read `true`, it sees an empty state.
        let store = interpreter.evaluate(&init_strata, &[], &[])?;
        interpreter.initial = interpreter.arguments(&store, (keywords.init, 1), None);
        Ok(interpreter)
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The first error met by a [`Game`] method, which then answered "terminal, no moves".
    pub fn error(&self) -> Option<GdlError> {
        self.failure.borrow().clone()
    }

    /// A ground term in KIF form.
    pub fn render(&self, term: &Ground) -> String {
        term.display(&self.program.symbols).to_string()
    }

    /// Whether `role` is GDL-II's `random`, the chance player that moves uniformly at random.
    pub fn is_random(&self, role: RoleIndex) -> bool {
        self.roles[role] == Ground::Const(self.program.keywords.random)
    }

    pub fn try_is_terminal(&self, state: &GdlState) -> Result<bool, GdlError> {
        let store = self.state_model(state)?;
        Ok(self
            .facts(&store, (self.program.keywords.terminal, 0))
            .next()
            .is_some())
    }

    /// The legal moves of `role`, sorted.
    pub fn try_legal_moves(
        &self,
        state: &GdlState,
        role: RoleIndex,
    ) -> Result<Vec<Ground>, GdlError> {
        let store = self.state_model(state)?;
        Ok(self.arguments(
            &store,
            (self.program.keywords.legal, 2),
            Some(&self.roles[role]),
        ))
    }

    /// Every goal value of each role, ascending and distinct as numbers (`00` and `0` are one
    /// reward, as in the grounded reasoner); a well-formed game gives exactly one in terminal
    /// states.
    pub fn try_goal_values(&self, state: &GdlState) -> Result<Vec<Vec<Reward>>, GdlError> {
        let store = self.state_model(state)?;
        let key = (self.program.keywords.goal, 2);
        let mut values = Vec::new();
        for role in &self.roles {
            let mut role_values = Vec::new();
            for value in self.arguments(&store, key, Some(role)) {
                let text = self.render(&value);
                match text.parse::<Reward>() {
                    Ok(reward) if reward <= 100 => role_values.push(reward),
                    _ => {
                        return Err(GdlError::Game(format!(
                            "goal value `{text}` of role `{}` is not a number from 0 to 100",
                            self.render(role)
                        )));
                    }
                }
            }
            role_values.sort_unstable();
            role_values.dedup();
            values.push(role_values);
        }
        Ok(values)
    }

    /// The next state after the joint move (one move per role, in role order).
    pub fn try_next_state(&self, state: &GdlState, joint: &[Ground]) -> Result<GdlState, GdlError> {
        let store = self.evaluate(&self.next_strata, state, joint)?;
        Ok(self.arguments(&store, (self.program.keywords.next, 1), None))
    }

    /// What `role` sees after the joint move (GDL-II `sees`), sorted.
    pub fn try_percepts(
        &self,
        state: &GdlState,
        joint: &[Ground],
        role: RoleIndex,
    ) -> Result<Vec<Ground>, GdlError> {
        let store = self.evaluate(&self.next_strata, state, joint)?;
        Ok(self.arguments(
            &store,
            (self.program.keywords.sees, 2),
            Some(&self.roles[role]),
        ))
    }

    fn counter(&self) -> Counter<'_> {
        Counter {
            budget: &self.budget,
            steps: 0,
            facts: 0,
        }
    }

    fn state_model(&self, state: &GdlState) -> Result<Arc<Store>, GdlError> {
        if let Some((cached, store)) = &*self.last.borrow()
            && cached == state
        {
            return Ok(store.clone());
        }
        let store = Arc::new(self.evaluate(&self.state_strata, state, &[])?);
        *self.last.borrow_mut() = Some((state.clone(), store.clone()));
        Ok(store)
    }

    /// The dynamic facts of `strata` given the state and the joint move.
    fn evaluate(
        &self,
        strata: &[usize],
        state: &[Ground],
        joint: &[Ground],
    ) -> Result<Store, GdlError> {
        let keywords = self.program.keywords;
        let mut store = Store::new();
        let mut counter = self.counter();
        let truths = store.entry((keywords.true_, 1)).or_default();
        for fluent in state {
            insert(
                truths,
                Ground::Func(keywords.true_, vec![fluent.clone()].into()),
            );
        }
        let does = store.entry((keywords.does, 2)).or_default();
        for (role, action) in self.roles.iter().zip(joint) {
            insert(
                does,
                Ground::Func(keywords.does, vec![role.clone(), action.clone()].into()),
            );
        }
        for &s in strata {
            self.run_stratum(
                &self.program.strata[s],
                &self.statics,
                &mut store,
                &mut counter,
            )?;
        }
        Ok(store)
    }

    /// The facts of `key`: a relation's rules may be split between static and dynamic strata.
    fn facts<'a>(&'a self, store: &'a Store, key: RelKey) -> impl Iterator<Item = &'a Ground> {
        [self.statics.get(&key), store.get(&key)]
            .into_iter()
            .flatten()
            .flat_map(|relation| relation.list.iter())
    }

    /// The last argument of the facts of `key` whose first argument is `first` (when given),
    /// sorted and deduplicated.
    fn arguments(&self, store: &Store, key: RelKey, first: Option<&Ground>) -> Vec<Ground> {
        let mut found: Vec<Ground> = self
            .facts(store, key)
            .filter_map(|fact| {
                let args = fact.parts().1;
                match first {
                    Some(first) if args.first() != Some(first) => None,
                    _ => args.last().cloned(),
                }
            })
            .collect();
        found.sort();
        found.dedup();
        found
    }

    /// Evaluates one stratum into `top`, reading lower strata from `base` and `top`.
    fn run_stratum(
        &self,
        stratum: &Stratum,
        base: &Store,
        top: &mut Store,
        counter: &mut Counter<'_>,
    ) -> Result<(), GdlError> {
        for key in &stratum.relations {
            top.entry(*key).or_default();
        }
        // The first round joins everything known.
        let mut derived = Derived::default();
        for &r in &stratum.rules {
            self.join(
                &self.program.rules[r],
                None,
                base,
                top,
                counter,
                &mut derived,
            )?;
        }
        let mut delta = add_all(top, derived);
        if !stratum.recursive {
            return Ok(());
        }
        // Later rounds: a new derivation must use at least one fact new in the last round, so
        // each rule is joined once per recursive literal with that literal reading the delta.
        while delta.values().any(|range| !range.is_empty()) {
            let mut derived = Derived::default();
            for &r in &stratum.rules {
                let rule = &self.program.rules[r];
                for (i, literal) in rule.body.iter().enumerate() {
                    if let CompiledLiteral::Positive(atom) = literal
                        && delta
                            .get(&atom.key())
                            .is_some_and(|range| !range.is_empty())
                    {
                        self.join(rule, Some((i, &delta)), base, top, counter, &mut derived)?;
                    }
                }
            }
            delta = add_all(top, derived);
        }
        Ok(())
    }

    /// Matches the body of `rule` against the facts and adds every head instance `top` lacks
    /// to `out`.
    /// Backtracking runs on an explicit stack of cursors, one per body literal.
    fn join(
        &self,
        rule: &CompiledRule,
        delta: Option<(usize, &Delta)>,
        base: &Store,
        top: &Store,
        counter: &mut Counter<'_>,
        out: &mut Derived,
    ) -> Result<(), GdlError> {
        let body = &rule.body;
        let mut bindings: Vec<Option<Ground>> = vec![None; rule.variables];
        // Slots bound so far, in order, and where each level's bindings start.
        let mut trail: Vec<usize> = Vec::new();
        let mut marks: Vec<usize> = vec![0; body.len() + 1];
        let mut cursors: Vec<usize> = vec![0; body.len() + 1];
        // A relation's facts may live in both stores (its rules split between strata).
        let lookup = |key: RelKey| -> [&[Ground]; 2] {
            [base, top].map(|store| store.get(&key).map_or(&[][..], |r| r.list.as_slice()))
        };
        let contains = |key: RelKey, fact: &Ground| {
            [base, top]
                .iter()
                .any(|store| store.get(&key).is_some_and(|r| r.set.contains(fact)))
        };
        let mut level = 0;
        loop {
            if level == body.len() {
                let head = instantiate_atom(&rule.head, &bindings);
                if head.depth() > MAX_TERM_DEPTH {
                    return Err(GdlError::Budget(format!(
                        "a derived term is nested more than {MAX_TERM_DEPTH} levels deep (unbounded recursion through function terms?)"
                    )));
                }
                let known = top
                    .get(&rule.head.key())
                    .is_some_and(|relation| relation.set.contains(&head));
                if !known && out.seen.insert(head.clone()) {
                    counter.fact()?;
                    out.list.push(head);
                }
                if level == 0 {
                    return Ok(());
                }
                level -= 1;
                continue;
            }
            // Undo what this level bound on its previous success.
            while trail.len() > marks[level] {
                let slot = trail.pop().expect("non-empty trail");
                bindings[slot] = None;
            }
            let success = match &body[level] {
                CompiledLiteral::Positive(atom) => {
                    let [below, above] = lookup(atom.key());
                    // A delta is always of facts this stratum added to `top`.
                    let (below, above) = match delta {
                        Some((i, ranges)) if i == level => (
                            &below[..0],
                            &above[ranges.get(&atom.key()).cloned().unwrap_or(0..0)],
                        ),
                        _ => (below, above),
                    };
                    let mut found = false;
                    while cursors[level] < below.len() + above.len() {
                        let at = cursors[level];
                        let fact = if at < below.len() {
                            &below[at]
                        } else {
                            &above[at - below.len()]
                        };
                        cursors[level] += 1;
                        counter.step()?;
                        if match_atom(atom, fact, &mut bindings, &mut trail) {
                            found = true;
                            break;
                        }
                        while trail.len() > marks[level] {
                            let slot = trail.pop().expect("non-empty trail");
                            bindings[slot] = None;
                        }
                    }
                    found
                }
                test => {
                    // A test succeeds at most once per entry into its level.
                    let first_visit = cursors[level] == 0;
                    cursors[level] = 1;
                    counter.step()?;
                    first_visit && holds(test, &bindings, &contains)
                }
            };
            if success {
                level += 1;
                marks[level] = trail.len();
                cursors[level] = 0;
            } else if level == 0 {
                return Ok(());
            } else {
                level -= 1;
            }
        }
    }
}

/// Evaluates a test literal whose variables are all bound (the compiler placed it so).
fn holds(
    test: &CompiledLiteral,
    bindings: &[Option<Ground>],
    contains: &impl Fn(RelKey, &Ground) -> bool,
) -> bool {
    match test {
        CompiledLiteral::Negative(atom) => {
            let fact = instantiate_atom(atom, bindings);
            !contains(atom.key(), &fact)
        }
        CompiledLiteral::Distinct(a, b) => instantiate(a, bindings) != instantiate(b, bindings),
        CompiledLiteral::Equal(a, b) => instantiate(a, bindings) == instantiate(b, bindings),
        CompiledLiteral::Positive(_) => unreachable!("positive literals are joined"),
    }
}

/// Adds derived facts (counted when found), returning the range of new facts per relation.
fn add_all(top: &mut Store, derived: Derived) -> Delta {
    let starts: HashMap<RelKey, usize> = top
        .iter()
        .map(|(key, relation)| (*key, relation.list.len()))
        .collect();
    for fact in derived.list {
        let (name, args) = fact.parts();
        let key = (name, args.len());
        insert(top.entry(key).or_default(), fact);
    }
    top.iter()
        .map(|(key, relation)| {
            let start = starts.get(key).copied().unwrap_or(0);
            (*key, start..relation.list.len())
        })
        .collect()
}

fn insert(relation: &mut Relation, fact: Ground) -> bool {
    if relation.set.contains(&fact) {
        return false;
    }
    relation.set.insert(fact.clone());
    relation.list.push(fact);
    true
}

/// Unifies a pattern atom with a ground fact, extending `bindings`; new bindings go on `trail`.
/// On failure the caller undoes the trail. Runs on an explicit stack.
fn match_atom(
    atom: &PatternAtom,
    fact: &Ground,
    bindings: &mut [Option<Ground>],
    trail: &mut Vec<usize>,
) -> bool {
    let (name, args) = fact.parts();
    if name != atom.relation || args.len() != atom.args.len() {
        return false;
    }
    let mut pending: Vec<(&Pattern, &Ground)> = atom.args.iter().zip(args.iter()).collect();
    while let Some((pattern, ground)) = pending.pop() {
        match pattern {
            Pattern::Const(sym) => {
                if *ground != Ground::Const(*sym) {
                    return false;
                }
            }
            Pattern::Var(slot) => match &bindings[*slot] {
                Some(bound) => {
                    if bound != ground {
                        return false;
                    }
                }
                None => {
                    bindings[*slot] = Some(ground.clone());
                    trail.push(*slot);
                }
            },
            Pattern::Func(sym, pattern_args) => match ground {
                Ground::Func(name, ground_args)
                    if name == sym && ground_args.len() == pattern_args.len() =>
                {
                    pending.extend(pattern_args.iter().zip(ground_args.iter()));
                }
                _ => return false,
            },
        }
    }
    true
}

fn instantiate_atom(atom: &PatternAtom, bindings: &[Option<Ground>]) -> Ground {
    if atom.args.is_empty() {
        Ground::Const(atom.relation)
    } else {
        Ground::Func(
            atom.relation,
            atom.args.iter().map(|a| instantiate(a, bindings)).collect(),
        )
    }
}

/// The pattern with its variables replaced. Recursion is bounded by the pattern's depth, which
/// the builder keeps within [`MAX_TERM_DEPTH`].
fn instantiate(pattern: &Pattern, bindings: &[Option<Ground>]) -> Ground {
    match pattern {
        Pattern::Const(sym) => Ground::Const(*sym),
        Pattern::Var(slot) => bindings[*slot]
            .clone()
            .expect("the compiler orders literals so that variables are bound before use"),
        Pattern::Func(sym, args) => Ground::Func(
            *sym,
            args.iter().map(|a| instantiate(a, bindings)).collect(),
        ),
    }
}

impl Interpreter {
    /// [`Interpreter::try_percepts`], an error kept for [`Game::failure`] (no percepts then).
    pub fn percepts(&self, state: &GdlState, joint: &[Ground], role: RoleIndex) -> Vec<Ground> {
        self.record(self.try_percepts(state, joint, role), Vec::new())
    }

    fn record<T>(&self, result: Result<T, GdlError>, fallback: T) -> T {
        match result {
            Ok(value) => value,
            Err(error) => {
                let mut failure = self.failure.borrow_mut();
                if failure.is_none() {
                    *failure = Some(error);
                }
                fallback
            }
        }
    }
}

/// The [`Game`] view: errors cannot pass through these methods, so the first one is kept (see
/// [`Interpreter::error`] and [`Game::failure`]) and the game answers "terminal, no moves, goals
/// 0" from then on, which ends any playout.
impl Game for Interpreter {
    type State = GdlState;
    type Move = Ground;

    fn roles(&self) -> &[String] {
        &self.role_names
    }

    fn initial_state(&self) -> GdlState {
        self.initial.clone()
    }

    fn is_terminal(&self, state: &GdlState) -> bool {
        if self.failure.borrow().is_some() {
            return true;
        }
        let result = self.try_is_terminal(state);
        self.record(result, true)
    }

    fn legal_moves(&self, state: &GdlState, role: RoleIndex) -> Vec<Ground> {
        if self.failure.borrow().is_some() {
            return Vec::new();
        }
        let result = self.try_legal_moves(state, role);
        self.record(result, Vec::new())
    }

    fn next_state(&self, state: &GdlState, joint: &[Ground]) -> GdlState {
        if self.failure.borrow().is_some() {
            return state.clone();
        }
        let result = self.try_next_state(state, joint);
        self.record(result, state.clone())
    }

    /// The goal value of each role; a role with several values gets the highest, a role with
    /// none gets 0 (the simulation checks report both).
    fn goals(&self, state: &GdlState) -> Vec<Reward> {
        if self.failure.borrow().is_some() {
            return vec![0; self.roles.len()];
        }
        let result = self.try_goal_values(state).map(|values| {
            values
                .iter()
                .map(|v| v.last().copied().unwrap_or(0))
                .collect()
        });
        self.record(result, vec![0; self.roles.len()])
    }

    fn goals_are_ambiguous(&self, state: &GdlState) -> bool {
        self.failure.borrow().is_none()
            && self
                .try_goal_values(state)
                .is_ok_and(|values| values.iter().any(|role| role.len() > 1))
    }

    fn failure(&self) -> Option<String> {
        self.failure.borrow().as_ref().map(ToString::to_string)
    }
}

//! The plain GDL interpreter: bottom-up evaluation of the strata over ground facts.
//!
//! The static strata (those that depend on neither `true` nor `does`) are evaluated once, when
//! the interpreter is made. Every query then evaluates the dynamic strata it needs from the state
//! (as `true` facts) and, for the next state, the joint move (as `does` facts). Rule bodies are
//! matched by nested-loop joins with backtracking on an explicit stack; recursive strata run
//! semi-naively (each round joins at least one fact new in the previous round) to a fixpoint.
//! Every join attempt and derived fact counts against a [`Budget`], so a runaway recursion ends
//! with [`GdlError::Budget`] instead of hanging.
//!
//! Terms are hash-consed in the grounder's term table ([`Terms`]), so a fact is a row of term
//! ids: a join binds, compares and hashes numbers, and a derived fact costs no allocation of its
//! own. The [`Game`] interface still speaks [`Ground`]; a term given out is built once, and read
//! back by address when a playout hands it in again.
//!
//! Two [`Evaluation`]s share that machinery. The reference one ([`Interpreter::bottom_up`])
//! derives every fact of every stratum a query needs and scans whole relations at each join.
//! The goal-directed one ([`Interpreter::new`]) first rewrites the rules for demand (the
//! grounder's magic-set rewriting, `grounded::demand`), so that a helper relation read only with
//! some arguments known (chess's `threatened_with_capture`, asked about each candidate move) is
//! derived only for those arguments; and its joins read hash indexes on the argument places
//! (nested ones too, as in `(true (cell ?x ?y b))`) known when the join reaches a literal.
//! Both derive the same answers to every query; a test plays random trajectories through both.

use crate::cpu_time::CpuDeadline;
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::cell::RefCell;
use std::hash::Hasher;
use std::ops::Range;
use std::sync::Arc;

use super::GdlError;
use super::grounded::demand::demand;
use super::grounded::factor::for_each_var;
use super::grounded::terms::{
    KeyScratch, TermId, Terms, UNBOUND, find_instance, instances_equal, intern_instance,
    match_pattern,
};
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
    /// `max_facts` bounds memory as well as work: a query holds every fact it derives (full
    /// `chess.kif`, which does not ground, reached 0.69 GB with two million when facts were
    /// trees of terms; rows of term ids take less), under the 500 MB the engine promises on
    /// chess-sized games.
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

/// How the interpreter answers a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Every fact of every stratum the query needs, each join scanning whole relations: the
    /// plain reference evaluation.
    BottomUp,
    /// Only the facts the query needs: the rules rewritten for demand, joins through hash
    /// indexes on the argument places known at each literal.
    GoalDirected,
}

/// A place inside a fact: argument `path[0]` of the fact, then argument `path[1]` of the
/// function term there, and so on.
type Path = Vec<usize>;

/// What an index reads at one place of a fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Place {
    /// The whole term there.
    Value(Path),
    /// Only the name of the function term there (its arguments are not all known).
    Functor(Path),
}

/// The places an index of a relation is keyed by.
type IndexSpec = Arc<[Place]>;

/// How a join reaches a positive literal's candidates: through index `index` of the literal's
/// relation, keyed by `probes` (one per place of that index) instantiated under the bindings.
#[derive(Clone, Debug)]
struct Access {
    index: usize,
    probes: Vec<Probe>,
}

#[derive(Clone, Debug)]
enum Probe {
    Value(Pattern),
    Functor(Sym),
}

/// The facts of one relation, in derivation order (for deltas) and as a set (for membership),
/// with the indexes the joins of the goal-directed evaluation read: for each of the relation's
/// index specs, the positions of the facts by their [`IndexKey`] at the spec's places
/// (ascending, so that a delta's range is a sub-slice).
///
/// A fact is its arguments' [`TermId`]s, `arity` of them, stored end to end: a join compares,
/// hashes and binds numbers, and deriving a fact allocates nothing of its own.
#[derive(Clone, Debug)]
struct Relation {
    arity: usize,
    /// The facts' arguments, `arity` per fact.
    args: Vec<TermId>,
    /// The number of facts (a relation without arguments holds at most one, of no arguments).
    len: usize,
    /// The hash of each fact ([`fact_hash`]), by position.
    hashes: Vec<u64>,
    /// The positions of the facts by hash.
    members: HashTable<u32>,
    specs: Arc<[IndexSpec]>,
    indexes: Vec<FxHashMap<IndexKey, Vec<u32>>>,
}

impl Relation {
    fn new(arity: usize, specs: Arc<[IndexSpec]>) -> Relation {
        Relation {
            arity,
            args: Vec::new(),
            len: 0,
            hashes: Vec::new(),
            members: HashTable::new(),
            indexes: vec![FxHashMap::default(); specs.len()],
            specs,
        }
    }

    /// The arguments of the fact at `position`.
    fn fact(&self, position: usize) -> &[TermId] {
        fact_at(&self.args, self.arity, position)
    }

    fn facts(&self) -> impl Iterator<Item = &[TermId]> {
        (0..self.len).map(|position| self.fact(position))
    }

    /// Whether the relation holds `fact`, whose [`fact_hash`] is `hash`.
    fn has(&self, hash: u64, fact: &[TermId]) -> bool {
        self.members
            .find(hash, |&p| {
                self.hashes[p as usize] == hash && self.fact(p as usize) == fact
            })
            .is_some()
    }

    /// Adds `fact` unless the relation has it; whether it was new.
    fn insert(&mut self, terms: &Terms, fact: &[TermId]) -> bool {
        let hash = fact_hash(fact);
        if self.has(hash, fact) {
            return false;
        }
        self.push_new(terms, hash, fact);
        true
    }

    /// The facts of `new`, a relation of the same key without indexes, in this empty one.
    fn take_facts(&mut self, terms: &Terms, new: Relation) {
        debug_assert_eq!((self.len, self.arity), (0, new.arity));
        let Relation {
            args,
            len,
            hashes,
            members,
            ..
        } = new;
        (self.args, self.len, self.hashes, self.members) = (args, len, hashes, members);
        for (spec, index) in self.specs.iter().zip(&mut self.indexes) {
            for position in 0..self.len {
                let fact = fact_at(&self.args, self.arity, position);
                if let Some(key) = index_key(terms, spec, fact) {
                    let position = u32::try_from(position).expect("fewer than 2^32 facts");
                    index.entry(key).or_default().push(position);
                }
            }
        }
    }

    /// Adds `fact`, whose [`fact_hash`] is `hash`, which the relation lacks: the join derives
    /// only facts its relation lacks, so their addition need not look for them again.
    fn push_new(&mut self, terms: &Terms, hash: u64, fact: &[TermId]) {
        debug_assert!(!self.has(hash, fact));
        debug_assert_eq!(fact.len(), self.arity);
        let position = u32::try_from(self.len).expect("fewer than 2^32 facts");
        for (spec, index) in self.specs.iter().zip(&mut self.indexes) {
            if let Some(key) = index_key(terms, spec, fact) {
                index.entry(key).or_default().push(position);
            }
        }
        self.hashes.push(hash);
        let hashes = &self.hashes;
        self.members
            .insert_unique(hash, position, |&p| hashes[p as usize]);
        self.args.extend_from_slice(fact);
        self.len += 1;
    }
}

/// The arguments of the fact at `position` among `args`, `arity` per fact (a slice, not
/// `chunks`: a relation without arguments has facts of none).
fn fact_at(args: &[TermId], arity: usize, position: usize) -> &[TermId] {
    &args[position * arity..(position + 1) * arity]
}

/// An index's key: a hash of the term ids (or function names) at its places. Facts with
/// different values may share a key; the join matches every candidate against its literal
/// anyway, so such a collision costs one failed match, never a wrong answer.
type IndexKey = u64;

/// The term at `path` in a fact's arguments; `None` when the fact has another shape.
fn term_at(terms: &Terms, fact: &[TermId], path: &[usize]) -> Option<TermId> {
    let (&first, inner) = path.split_first()?;
    let mut term = *fact.get(first)?;
    for &i in inner {
        term = *terms.args(term).get(i)?;
    }
    Some(term)
}

/// The key of `fact` at the places of `spec`; `None` when a place is missing (a fact of another
/// shape, which no literal read through this index can match).
fn index_key(terms: &Terms, spec: &[Place], fact: &[TermId]) -> Option<IndexKey> {
    let mut hasher = FxHasher::default();
    for place in spec.iter() {
        match place {
            Place::Value(path) => hasher.write_u32(term_at(terms, fact, path)?),
            Place::Functor(path) => {
                let term = term_at(terms, fact, path)?;
                if terms.args(term).is_empty() {
                    return None;
                }
                hasher.write_u32(terms.functor(term).0);
            }
        }
    }
    Some(hasher.finish())
}

/// The key a probe looks up, as [`index_key`] computes a fact's; `None` when one of its values
/// is a term no fact holds (it was never made).
fn probe_key(
    view: &TermView<'_>,
    probes: &[Probe],
    bindings: &[TermId],
    scratch: &mut KeyScratch,
) -> Option<IndexKey> {
    let mut hasher = FxHasher::default();
    for probe in probes {
        match probe {
            Probe::Value(pattern) => {
                hasher.write_u32(find_instance(view.terms, pattern, bindings, scratch)?);
            }
            Probe::Functor(name) => hasher.write_u32(name.0),
        }
    }
    Some(hasher.finish())
}

/// A fact's hash, as [`Relation`] files it.
fn fact_hash(fact: &[TermId]) -> u64 {
    let mut hasher = FxHasher::default();
    for &term in fact {
        hasher.write_u32(term);
    }
    hasher.finish()
}

type Store = FxHashMap<RelKey, Relation>;

/// The new facts of the last round of a recursive stratum, per relation.
type Delta = FxHashMap<RelKey, Range<usize>>;

/// The ground terms one interpreter has met.
///
/// Terms are hash-consed ([`Terms`], shared with the grounder) so that a fact is a row of
/// numbers. The table is kept across questions: the terms of the rules and of the static facts
/// first, then those the questions make (the state's fluents, the moves, nested terms of derived
/// facts). Past [`Vocabulary::KEPT_TERMS`] of the latter it is cut back to the former, so that a
/// long run of playouts (laikLee_hex builds a list per path) does not grow it without end.
struct Vocabulary {
    terms: Terms,
    /// The terms made before any question: the static facts' and the roles.
    lasting: usize,
    /// Each term given out as a [`Ground`] (a move, a fluent), by id, built once: a playout
    /// hands the same moves and fluents out again and again.
    grounds: Vec<Option<Ground>>,
    /// The function terms of `grounds` by their functor and the address of their arguments,
    /// which `grounds` keeps alive: a state the interpreter gave out is read back without a
    /// lookup of each fluent in the term table.
    given_out: FxHashMap<(Sym, usize), TermId>,
}

impl Vocabulary {
    /// Terms made by questions that are kept before the table is cut back.
    const KEPT_TERMS: usize = 1 << 20;

    fn new() -> Vocabulary {
        Vocabulary {
            terms: Terms::new(),
            lasting: 0,
            grounds: Vec::new(),
            given_out: FxHashMap::default(),
        }
    }

    /// The term `id` as a [`Ground`], built once. Recursion follows the term's depth, which the
    /// join keeps within [`MAX_TERM_DEPTH`].
    fn ground(&mut self, id: TermId) -> Ground {
        if let Some(Some(ground)) = self.grounds.get(id as usize) {
            return ground.clone();
        }
        let functor = self.terms.functor(id);
        let ground = if self.terms.args(id).is_empty() && !self.terms.is_empty_function(id) {
            Ground::Const(functor)
        } else {
            let args: Vec<TermId> = self.terms.args(id).to_vec();
            let args: Arc<[Ground]> = args.into_iter().map(|arg| self.ground(arg)).collect();
            self.given_out.insert((functor, args.as_ptr() as usize), id);
            Ground::Func(functor, args)
        };
        if self.grounds.len() <= id as usize {
            self.grounds.resize(id as usize + 1, None);
        }
        self.grounds[id as usize] = Some(ground.clone());
        ground
    }

    /// The id of `term`: a constant's or a term given out by [`Vocabulary::ground`] without a
    /// lookup, any other made if new.
    fn id_of(&mut self, term: &Ground, key: &mut KeyScratch) -> TermId {
        let known = match term {
            Ground::Const(sym) => self.terms.constant(*sym),
            Ground::Func(sym, args) if !args.is_empty() => {
                self.given_out.get(&(*sym, args.as_ptr() as usize)).copied()
            }
            Ground::Func(..) => None,
        };
        known.unwrap_or_else(|| self.terms.intern_ground(term, key))
    }

    /// Forgets the terms made after the lasting ones (see [`Vocabulary::KEPT_TERMS`]).
    fn cut_back(&mut self) {
        let lasting = self.lasting;
        self.terms.truncate(lasting);
        self.grounds.truncate(lasting);
        self.given_out.retain(|_, id| (*id as usize) < lasting);
    }
}

/// Reading access to a [`Vocabulary`]'s terms, for the joins' tests and matches.
#[derive(Clone, Copy)]
struct TermView<'a> {
    terms: &'a Terms,
}

impl TermView<'_> {
    /// The arguments of `atom` under `bindings` into `out`; false when one is a term that does
    /// not exist, and so in no fact.
    fn find_all(
        &self,
        atom: &PatternAtom,
        bindings: &[TermId],
        scratch: &mut KeyScratch,
        out: &mut Vec<TermId>,
    ) -> bool {
        out.clear();
        for arg in &atom.args {
            match find_instance(self.terms, arg, bindings, scratch) {
                Some(id) => out.push(id),
                None => return false,
            }
        }
        true
    }

    /// Whether two patterns (variables bound) denote the same term, without making either:
    /// `distinct` is tested at every match of the literals before it.
    fn same(&self, a: &Pattern, b: &Pattern, bindings: &[TermId]) -> bool {
        match (a, b) {
            (Pattern::Var(x), Pattern::Var(y)) => bindings[*x] == bindings[*y],
            (Pattern::Var(slot), Pattern::Const(name))
            | (Pattern::Const(name), Pattern::Var(slot)) => {
                self.terms.constant(*name) == Some(bindings[*slot])
            }
            (Pattern::Const(x), Pattern::Const(y)) => x == y,
            _ => instances_equal(self.terms, a, b, bindings),
        }
    }

    /// Unifies the arguments of `atom` with those of a fact of its relation, extending
    /// `bindings`; new bindings go on `trail`, which the caller undoes on failure.
    fn match_atom<'p>(
        &self,
        atom: &'p PatternAtom,
        fact: &[TermId],
        bindings: &mut [TermId],
        trail: &mut Vec<usize>,
        pending: &mut Vec<(&'p Pattern, TermId)>,
    ) -> bool {
        atom.args
            .iter()
            .zip(fact)
            .all(|(pattern, &term)| match pattern {
                Pattern::Const(sym) => self.terms.constant(*sym) == Some(term),
                Pattern::Var(slot) => {
                    let bound = bindings[*slot];
                    if bound == UNBOUND {
                        bindings[*slot] = term;
                        trail.push(*slot);
                        true
                    } else {
                        bound == term
                    }
                }
                Pattern::Func(..) => {
                    match_pattern(self.terms, pattern, term, bindings, trail, pending)
                }
            })
    }
}

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
    /// The game as given, which [`Interpreter::program`] returns.
    program: Program,
    evaluation: Evaluation,
    /// What the questions about a state (`legal`, `goal`, `terminal`) and the initial state
    /// evaluate.
    state_plan: Plan,
    /// What the questions about the next state (`next`, `sees`) evaluate.
    next_plan: Plan,
    budget: Budget,
    role_names: Vec<String>,
    roles: Vec<Ground>,
    /// Each role's term id (a constant's: never forgotten).
    role_ids: Vec<TermId>,
    initial: GdlState,
    /// The terms the questions share.
    vocabulary: RefCell<Vocabulary>,
    /// The last state evaluated without moves: a playout asks for the terminal test, the legal
    /// moves of every role and then the goals of the same state. `Arc`, not `Rc`: a reasoner
    /// is moved to the editor's background threads, so it must be `Send`.
    last: RefCell<Option<(GdlState, Arc<Store>)>>,
    failure: RefCell<Option<GdlError>>,
    /// Goal-directed, the bottom-up evaluation of the same game for the questions that exhaust
    /// the budget (see [`Interpreter::answer`]); `Some(None)` when it could not be made.
    reference: RefCell<Option<Option<Box<Interpreter>>>>,
}

/// The rules one kind of question evaluates, how its joins read them, and the facts of its
/// static strata.
///
/// The questions about a state and those about the next state each get the rules of their own
/// relations only, rewritten (goal-directed) for their own demand. With one rewriting for both,
/// a relation read by both is demanded for what either reads: chess's next state reads
/// `bishop_threatens` with every argument known, the legal moves read it with the attacker's
/// cell open, so the next state derived every attack the legal moves ask about.
struct Plan {
    /// The rules evaluated: the written ones of the question's relations, or those rewritten
    /// for demand.
    evaluated: Program,
    /// Per rule of `evaluated` and body literal, how a join reaches the literal's candidates
    /// (`None`: by scanning the whole relation).
    access: Vec<Vec<Option<Access>>>,
    /// The index specs of each relation, the places that `access` reads.
    index_specs: FxHashMap<RelKey, Arc<[IndexSpec]>>,
    /// The dynamic strata the question needs.
    strata: Vec<usize>,
    /// The facts of the static strata, evaluated once.
    statics: Store,
}

impl std::fmt::Debug for Interpreter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interpreter")
            .field("roles", &self.role_names)
            .finish_non_exhaustive()
    }
}

impl Interpreter {
    /// The goal-directed interpreter ([`Evaluation::GoalDirected`]): evaluates the static
    /// strata and the initial state.
    pub fn new(program: Program, budget: Budget) -> Result<Interpreter, GdlError> {
        Interpreter::with_evaluation(program, budget, Evaluation::GoalDirected)
    }

    /// The reference interpreter ([`Evaluation::BottomUp`]).
    pub fn bottom_up(program: Program, budget: Budget) -> Result<Interpreter, GdlError> {
        Interpreter::with_evaluation(program, budget, Evaluation::BottomUp)
    }

    /// Evaluates the static strata and the initial state.
    ///
    /// Goal-directed, a relation that does not read the state is evaluated once, whole, unless
    /// that exceeds the budget: sudoku's `exactlyFirst` has 9⁹ facts, of which a state's
    /// questions read a few hundred. Then the relations of the stratum that ran out are
    /// guarded by their demand as well (evaluated per question, for what it asks), and the
    /// interpreter is made again, until the static strata fit or no relation is left to guard.
    pub fn with_evaluation(
        written: Program,
        budget: Budget,
        evaluation: Evaluation,
    ) -> Result<Interpreter, GdlError> {
        let mut too_large_once: FxHashSet<RelKey> = FxHashSet::default();
        loop {
            match Interpreter::make(&written, &budget, evaluation, &too_large_once) {
                Ok(interpreter) => return Ok(interpreter),
                Err((error, Some(overflowing))) if evaluation == Evaluation::GoalDirected => {
                    let before = too_large_once.len();
                    too_large_once.extend(overflowing);
                    if too_large_once.len() == before {
                        return Err(error);
                    }
                }
                Err((error, _)) => return Err(error),
            }
        }
    }

    /// [`Interpreter::with_evaluation`] once, with the static relations of `too_large_once`
    /// guarded by demand; a static stratum that runs out of budget gives its relations.
    fn make(
        written: &Program,
        budget: &Budget,
        evaluation: Evaluation,
        too_large_once: &FxHashSet<RelKey>,
    ) -> Result<Interpreter, (GdlError, Option<Vec<RelKey>>)> {
        let keywords = written.keywords;
        let role_names: Vec<String> = written
            .roles
            .iter()
            .map(|&sym| written.symbols.name(sym).to_owned())
            .collect();
        if role_names.is_empty() {
            return Err((
                GdlError::Build("the game declares no role".to_owned()),
                None,
            ));
        }
        let roles: Vec<Ground> = written
            .roles
            .iter()
            .map(|&sym| Ground::Const(sym))
            .collect();
        let counter = || Counter {
            budget,
            steps: 0,
            facts: 0,
        };
        let mut state_plan = Plan::new(
            written,
            &[
                keywords.legal,
                keywords.goal,
                keywords.terminal,
                keywords.init,
            ],
            &[keywords.legal, keywords.goal, keywords.terminal],
            evaluation,
            too_large_once,
        )
        .map_err(|error| (error, None))?;
        let mut next_plan = Plan::new(
            written,
            &[keywords.next, keywords.sees],
            &[keywords.next, keywords.sees],
            evaluation,
            too_large_once,
        )
        .map_err(|error| (error, None))?;
        // One table of terms serves both plans: each plan's rewriting adds its own names to the
        // written ones, but only as relations, and a term is known by its symbols' numbers.
        let mut vocabulary = Vocabulary::new();
        state_plan.evaluate_statics(&mut vocabulary, &mut counter())?;
        next_plan.evaluate_statics(&mut vocabulary, &mut counter())?;
        let role_ids: Vec<TermId> = written
            .roles
            .iter()
            .map(|&sym| vocabulary.terms.intern(sym, &[]))
            .collect();
        vocabulary.lasting = vocabulary.terms.len();
        // `init` should be static; if a game makes it read `true`, it sees an empty state.
        let init_strata = state_plan.dynamic_strata_for(&[keywords.init]);
        let store = state_plan
            .evaluate(
                &mut vocabulary,
                &init_strata,
                &[],
                &[],
                &role_ids,
                &mut counter(),
            )
            .map_err(|error| (error, None))?;
        let initial = state_plan.arguments(&mut vocabulary, &store, (keywords.init, 1), None);
        Ok(Interpreter {
            program: written.clone(),
            evaluation,
            state_plan,
            next_plan,
            budget: budget.clone(),
            role_names,
            roles,
            role_ids,
            initial,
            vocabulary: RefCell::new(vocabulary),
            last: RefCell::new(None),
            failure: RefCell::new(None),
            reference: RefCell::new(None),
        })
    }

    /// The game as given (not as rewritten for evaluation).
    pub fn program(&self) -> &Program {
        &self.program
    }

    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// The rules evaluated for the questions about a state (rewritten for demand when
    /// goal-directed).
    #[cfg(test)]
    pub(crate) fn evaluated_program(&self) -> &Program {
        &self.state_plan.evaluated
    }

    /// Whether a question ran out of budget goal-directed and was asked of the bottom-up
    /// reference (see [`Interpreter::answer`]).
    #[cfg(test)]
    pub(crate) fn asked_the_reference(&self) -> bool {
        self.reference.borrow().is_some()
    }

    /// The size of every relation derived for the state's questions (`joint` empty) or for the
    /// next state, largest first: a measuring aid for the tests.
    #[cfg(test)]
    pub(crate) fn relation_sizes(
        &self,
        state: &[Ground],
        joint: &[Ground],
    ) -> Result<Vec<(String, usize)>, GdlError> {
        let plan = if joint.is_empty() {
            &self.state_plan
        } else {
            &self.next_plan
        };
        let store = plan.evaluate(
            &mut self.vocabulary.borrow_mut(),
            &plan.strata,
            state,
            joint,
            &self.role_ids,
            &mut self.counter(),
        )?;
        let mut sizes: Vec<(String, usize)> = store
            .iter()
            .map(|(key, relation)| {
                let name = plan.evaluated.symbols.name(key.0);
                (format!("{name}/{}", key.1), relation.len)
            })
            .collect();
        sizes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(sizes)
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

    fn is_terminal_here(&self, state: &GdlState) -> Result<bool, GdlError> {
        let store = self.state_model(state)?;
        Ok(self
            .state_plan
            .facts(&store, (self.program.keywords.terminal, 0))
            .next()
            .is_some())
    }

    fn legal_moves_here(&self, state: &GdlState, role: RoleIndex) -> Result<Vec<Ground>, GdlError> {
        let store = self.state_model(state)?;
        Ok(self.state_plan.arguments(
            &mut self.vocabulary.borrow_mut(),
            &store,
            (self.program.keywords.legal, 2),
            Some(self.role_ids[role]),
        ))
    }

    /// Every goal value of each role, ascending and distinct as numbers (`00` and `0` are one
    /// reward, as in the grounded reasoner); a well-formed game gives exactly one in terminal
    /// states.
    fn goal_values_here(&self, state: &GdlState) -> Result<Vec<Vec<Reward>>, GdlError> {
        let store = self.state_model(state)?;
        let key = (self.program.keywords.goal, 2);
        let mut values = Vec::new();
        for (role, &role_id) in self.roles.iter().zip(&self.role_ids) {
            let mut role_values = Vec::new();
            let found = self.state_plan.arguments(
                &mut self.vocabulary.borrow_mut(),
                &store,
                key,
                Some(role_id),
            );
            for value in found {
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

    fn next_state_here(&self, state: &GdlState, joint: &[Ground]) -> Result<GdlState, GdlError> {
        let store = self.next_model(state, joint)?;
        Ok(self.next_plan.arguments(
            &mut self.vocabulary.borrow_mut(),
            &store,
            (self.program.keywords.next, 1),
            None,
        ))
    }

    fn percepts_here(
        &self,
        state: &GdlState,
        joint: &[Ground],
        role: RoleIndex,
    ) -> Result<Vec<Ground>, GdlError> {
        let store = self.next_model(state, joint)?;
        Ok(self.next_plan.arguments(
            &mut self.vocabulary.borrow_mut(),
            &store,
            (self.program.keywords.sees, 2),
            Some(self.role_ids[role]),
        ))
    }

    pub fn try_is_terminal(&self, state: &GdlState) -> Result<bool, GdlError> {
        self.answer(|interpreter| interpreter.is_terminal_here(state))
    }

    /// The legal moves of `role`, sorted.
    pub fn try_legal_moves(
        &self,
        state: &GdlState,
        role: RoleIndex,
    ) -> Result<Vec<Ground>, GdlError> {
        self.answer(|interpreter| interpreter.legal_moves_here(state, role))
    }

    /// Every goal value of each role (see `goal_values_here`).
    pub fn try_goal_values(&self, state: &GdlState) -> Result<Vec<Vec<Reward>>, GdlError> {
        self.answer(|interpreter| interpreter.goal_values_here(state))
    }

    /// The next state after the joint move (one move per role, in role order).
    pub fn try_next_state(&self, state: &GdlState, joint: &[Ground]) -> Result<GdlState, GdlError> {
        self.answer(|interpreter| interpreter.next_state_here(state, joint))
    }

    /// What `role` sees after the joint move (GDL-II `sees`), sorted.
    pub fn try_percepts(
        &self,
        state: &GdlState,
        joint: &[Ground],
        role: RoleIndex,
    ) -> Result<Vec<Ground>, GdlError> {
        self.answer(|interpreter| interpreter.percepts_here(state, joint, role))
    }

    /// `ask` answered by this interpreter. Goal-directed, a question that exhausts its budget
    /// is asked again of the bottom-up evaluation (made the first time it is needed), which
    /// answers the same: demand can cost more than it saves (ruleDepthExponential's demand
    /// relations double at each of twenty levels, all in one recursive stratum), and a game
    /// the reference can play must not stop on the faster evaluation. The first error is
    /// kept when the reference fails too.
    fn answer<T>(&self, ask: impl Fn(&Interpreter) -> Result<T, GdlError>) -> Result<T, GdlError> {
        let error = match ask(self) {
            Err(error @ GdlError::Budget(_)) if self.evaluation == Evaluation::GoalDirected => {
                error
            }
            answer => return answer,
        };
        let mut reference = self.reference.borrow_mut();
        let reference = reference.get_or_insert_with(|| {
            Interpreter::bottom_up(self.program.clone(), self.budget.clone())
                .ok()
                .map(Box::new)
        });
        match reference {
            Some(reference) => ask(reference).map_err(|_| error),
            None => Err(error),
        }
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
        let plan = &self.state_plan;
        let store = plan.evaluate(
            &mut self.vocabulary_for_a_question(),
            &plan.strata,
            state,
            &[],
            &self.role_ids,
            &mut self.counter(),
        )?;
        let store = Arc::new(store);
        *self.last.borrow_mut() = Some((state.clone(), store.clone()));
        Ok(store)
    }

    /// The dynamic facts the questions about the next state read, after `joint`.
    fn next_model(&self, state: &GdlState, joint: &[Ground]) -> Result<Store, GdlError> {
        let plan = &self.next_plan;
        plan.evaluate(
            &mut self.vocabulary_for_a_question(),
            &plan.strata,
            state,
            joint,
            &self.role_ids,
            &mut self.counter(),
        )
    }

    /// The vocabulary, cut back to its lasting terms when the questions have made more than
    /// [`Vocabulary::KEPT_TERMS`]; the cached state's facts, which may name the terms cut, are
    /// dropped with them.
    fn vocabulary_for_a_question(&self) -> std::cell::RefMut<'_, Vocabulary> {
        let mut vocabulary = self.vocabulary.borrow_mut();
        if vocabulary.terms.len() > vocabulary.lasting + Vocabulary::KEPT_TERMS {
            vocabulary.cut_back();
            *self.last.borrow_mut() = None;
        }
        vocabulary
    }
}

impl Plan {
    /// The rules of the relations named `roots` (and of those they read), rewritten for the
    /// demand of their readers when goal-directed; the dynamic strata of the relations named
    /// `asked` are the ones [`Plan::strata`] lists. The static strata are evaluated by
    /// [`Plan::evaluate_statics`], once every plan's symbols are known.
    fn new(
        written: &Program,
        roots: &[Sym],
        asked: &[Sym],
        evaluation: Evaluation,
        too_large_once: &FxHashSet<RelKey>,
    ) -> Result<Plan, GdlError> {
        let rules = written
            .strata_for(&keys_named(written, roots))
            .into_iter()
            .flat_map(|s| written.strata[s].rules.iter())
            .map(|&r| written.rules[r].clone())
            .collect();
        let own = written.with_rules(written.symbols.clone(), rules)?;
        let (evaluated, access, index_specs) = match evaluation {
            Evaluation::BottomUp => {
                let access = own.rules.iter().map(|r| vec![None; r.body.len()]);
                let access = access.collect();
                (own, access, FxHashMap::default())
            }
            Evaluation::GoalDirected => {
                let mut program = rewritten_for_demand(&own, too_large_once);
                for rule in &mut program.rules {
                    rule.body = in_join_order(&rule.body, rule.variables);
                }
                let (access, index_specs) = access_plans(&program.rules);
                (program, access, index_specs)
            }
        };
        let mut plan = Plan {
            strata: Vec::new(),
            evaluated,
            access,
            index_specs,
            statics: Store::default(),
        };
        plan.strata = plan.dynamic_strata_for(asked);
        Ok(plan)
    }

    /// Evaluates the static strata once. An error gives the relations of a static stratum that
    /// ran out of budget.
    fn evaluate_statics(
        &mut self,
        vocabulary: &mut Vocabulary,
        counter: &mut Counter<'_>,
    ) -> Result<(), (GdlError, Option<Vec<RelKey>>)> {
        let empty = Store::default();
        let mut statics = Store::default();
        for stratum in self.evaluated.strata.iter().filter(|s| !s.dynamic) {
            if let Err(error) = self.run_stratum(stratum, &empty, &mut statics, vocabulary, counter)
            {
                let overflowing =
                    matches!(error, GdlError::Budget(_)).then(|| stratum.relations.clone());
                return Err((error, overflowing));
            }
        }
        self.statics = statics;
        Ok(())
    }

    /// The dynamic strata needed to compute the relations named `names`, in evaluation order.
    fn dynamic_strata_for(&self, names: &[Sym]) -> Vec<usize> {
        let program = &self.evaluated;
        program
            .strata_for(&keys_named(program, names))
            .into_iter()
            .filter(|&s| program.strata[s].dynamic)
            .collect()
    }

    /// An empty relation of `key` with the indexes its joins read.
    fn relation(&self, key: RelKey) -> Relation {
        Relation::new(
            key.1,
            self.index_specs.get(&key).cloned().unwrap_or_default(),
        )
    }

    /// The dynamic facts of `strata` given the state and the joint move (one move per role of
    /// `roles`).
    fn evaluate(
        &self,
        vocabulary: &mut Vocabulary,
        strata: &[usize],
        state: &[Ground],
        joint: &[Ground],
        roles: &[TermId],
        counter: &mut Counter<'_>,
    ) -> Result<Store, GdlError> {
        let keywords = self.evaluated.keywords;
        let mut key = KeyScratch::new();
        let mut store = Store::default();
        let mut truths = self.relation((keywords.true_, 1));
        for fluent in state {
            let fluent = vocabulary.id_of(fluent, &mut key);
            truths.insert(&vocabulary.terms, &[fluent]);
        }
        store.insert((keywords.true_, 1), truths);
        let mut does = self.relation((keywords.does, 2));
        for (&role, action) in roles.iter().zip(joint) {
            let action = vocabulary.id_of(action, &mut key);
            does.insert(&vocabulary.terms, &[role, action]);
        }
        store.insert((keywords.does, 2), does);
        for &s in strata {
            self.run_stratum(
                &self.evaluated.strata[s],
                &self.statics,
                &mut store,
                vocabulary,
                counter,
            )?;
        }
        Ok(store)
    }

    /// The facts of `key`: a relation's rules may be split between static and dynamic strata.
    fn facts<'a>(&'a self, store: &'a Store, key: RelKey) -> impl Iterator<Item = &'a [TermId]> {
        [self.statics.get(&key), store.get(&key)]
            .into_iter()
            .flatten()
            .flat_map(Relation::facts)
    }

    /// The last argument of the facts of `key` whose first argument is `first` (when given),
    /// sorted and deduplicated.
    fn arguments(
        &self,
        vocabulary: &mut Vocabulary,
        store: &Store,
        key: RelKey,
        first: Option<TermId>,
    ) -> Vec<Ground> {
        let mut ids: Vec<TermId> = self
            .facts(store, key)
            .filter_map(|args| match first {
                Some(first) if args.first() != Some(&first) => None,
                _ => args.last().copied(),
            })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        let mut found: Vec<Ground> = ids.into_iter().map(|id| vocabulary.ground(id)).collect();
        found.sort();
        found
    }

    /// Evaluates one stratum into `top`, reading lower strata from `base` and `top`.
    fn run_stratum(
        &self,
        stratum: &Stratum,
        base: &Store,
        top: &mut Store,
        vocabulary: &mut Vocabulary,
        counter: &mut Counter<'_>,
    ) -> Result<(), GdlError> {
        for key in &stratum.relations {
            top.entry(*key).or_insert_with(|| self.relation(*key));
        }
        // The first round joins everything known.
        let mut derived = Derived::default();
        for &r in &stratum.rules {
            self.join(r, None, base, top, vocabulary, counter, &mut derived)?;
        }
        let mut delta = self.add_all(stratum, top, &vocabulary.terms, derived);
        if !stratum.recursive {
            return Ok(());
        }
        // Later rounds: a new derivation must use at least one fact new in the last round, so
        // each rule is joined once per recursive literal with that literal reading the delta.
        while delta.values().any(|range| !range.is_empty()) {
            let mut derived = Derived::default();
            for &r in &stratum.rules {
                let rule = &self.evaluated.rules[r];
                for (i, literal) in rule.body.iter().enumerate() {
                    if let CompiledLiteral::Positive(atom) = literal
                        && delta
                            .get(&atom.key())
                            .is_some_and(|range| !range.is_empty())
                    {
                        self.join(
                            r,
                            Some((i, &delta)),
                            base,
                            top,
                            vocabulary,
                            counter,
                            &mut derived,
                        )?;
                    }
                }
            }
            delta = self.add_all(stratum, top, &vocabulary.terms, derived);
        }
        Ok(())
    }

    /// Matches the body of `rule` against the facts and adds every head instance `top` lacks
    /// to `out`.
    /// Backtracking runs on an explicit stack of cursors, one per body literal.
    #[allow(clippy::too_many_arguments)]
    fn join(
        &self,
        rule_index: usize,
        delta: Option<(usize, &Delta)>,
        base: &Store,
        top: &Store,
        vocabulary: &mut Vocabulary,
        counter: &mut Counter<'_>,
        out: &mut Derived,
    ) -> Result<(), GdlError> {
        let rule = &self.evaluated.rules[rule_index];
        let access = &self.access[rule_index];
        let body = &rule.body;
        let terms = &mut vocabulary.terms;
        let mut bindings: Vec<TermId> = vec![UNBOUND; rule.variables];
        // Slots bound so far, in order, and where each level's bindings start.
        let mut trail: Vec<usize> = Vec::new();
        let mut marks: Vec<usize> = vec![0; body.len() + 1];
        let mut cursors: Vec<usize> = vec![0; body.len() + 1];
        let mut scratch = KeyScratch::new();
        let mut pending = Vec::new();
        // The arguments of the head, or of a negated literal, under the bindings.
        let mut instance: Vec<TermId> = Vec::new();
        // A relation's facts may live in both stores (its rules split between strata).
        // Looked up once per join rather than each time a level is entered: the stores do not
        // change during a join.
        let relations: Vec<[Option<&Relation>; 2]> = body
            .iter()
            .map(|literal| match literal {
                CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) => {
                    [base, top].map(|store| store.get(&atom.key()))
                }
                _ => [None, None],
            })
            .collect();
        // The candidates of each level, found when the join enters it: the facts of the
        // relation in `base` and in `top`, all of them or those at the given positions.
        let mut candidates: Vec<Candidates<'_>> = vec![Candidates::default(); body.len()];
        let head_key = rule.head.key();
        let mut level = 0;
        loop {
            if level == body.len() {
                // A known head's arguments exist already, so this makes terms only for a new
                // fact, which needs them.
                instance.clear();
                for arg in &rule.head.args {
                    let id = intern_instance(terms, arg, &bindings, &mut scratch);
                    instance.push(id);
                }
                let hash = fact_hash(&instance);
                let known = [top.get(&head_key), out.get(&head_key)]
                    .into_iter()
                    .flatten()
                    .any(|relation| relation.has(hash, &instance));
                if !known {
                    let depth = 1 + instance.iter().map(|&t| terms.depth(t)).max().unwrap_or(0);
                    if depth > MAX_TERM_DEPTH {
                        return Err(GdlError::Budget(format!(
                            "a derived term is nested more than {MAX_TERM_DEPTH} levels deep (unbounded recursion through function terms?)"
                        )));
                    }
                    counter.fact()?;
                    out.entry(head_key)
                        .or_insert_with(|| Relation::new(head_key.1, Arc::default()))
                        .push_new(terms, hash, &instance);
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
                bindings[slot] = UNBOUND;
            }
            let view = TermView { terms };
            let success = match &body[level] {
                CompiledLiteral::Positive(atom) => {
                    if cursors[level] == 0 {
                        // A delta is always of facts this stratum added to `top`.
                        let only_new = match delta {
                            Some((i, ranges)) if i == level => {
                                Some(ranges.get(&atom.key()).cloned().unwrap_or(0..0))
                            }
                            _ => None,
                        };
                        candidates[level] = Candidates::of(
                            relations[level],
                            access[level].as_ref(),
                            &view,
                            &bindings,
                            &mut scratch,
                            only_new,
                        );
                    }
                    let mut found = false;
                    while let Some(fact) = candidates[level].get(cursors[level]) {
                        cursors[level] += 1;
                        counter.step()?;
                        if view.match_atom(atom, fact, &mut bindings, &mut trail, &mut pending) {
                            found = true;
                            break;
                        }
                        while trail.len() > marks[level] {
                            let slot = trail.pop().expect("non-empty trail");
                            bindings[slot] = UNBOUND;
                        }
                    }
                    found
                }
                test => {
                    // A test succeeds at most once per entry into its level.
                    let first_visit = cursors[level] == 0;
                    cursors[level] = 1;
                    counter.step()?;
                    first_visit
                        && view.holds(
                            test,
                            &bindings,
                            relations[level],
                            &mut scratch,
                            &mut instance,
                        )
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

/// The facts one round derives that its stratum's store does not hold yet, per relation, in
/// the order they were found. Each is counted against the budget the moment it is found, so a
/// join matching hundreds of millions of times stops at the fact budget instead of first
/// collecting every match (which once took gigabytes before the count was reached).
type Derived = FxHashMap<RelKey, Relation>;

impl TermView<'_> {
    /// Whether a test literal holds, its variables all bound (the compiler placed it so); a
    /// negated literal is looked up in `relations`, its arguments built in `instance`.
    fn holds(
        &self,
        test: &CompiledLiteral,
        bindings: &[TermId],
        relations: [Option<&Relation>; 2],
        scratch: &mut KeyScratch,
        instance: &mut Vec<TermId>,
    ) -> bool {
        match test {
            CompiledLiteral::Negative(atom) => {
                // A term that was never made is in no fact.
                !(self.find_all(atom, bindings, scratch, instance) && {
                    let hash = fact_hash(instance);
                    relations
                        .iter()
                        .flatten()
                        .any(|relation| relation.has(hash, instance))
                })
            }
            CompiledLiteral::Distinct(a, b) => !self.same(a, b, bindings),
            CompiledLiteral::Equal(a, b) => self.same(a, b, bindings),
            CompiledLiteral::Positive(_) => unreachable!("positive literals are joined"),
        }
    }
}

impl Plan {
    /// Adds the facts derived for `stratum` (counted when found), returning the range of new
    /// facts per relation of the stratum. Only the stratum's relations are looked at: the
    /// store holds every lower stratum's too, and walking them all after each round was a
    /// sixth of chess's time.
    fn add_all(
        &self,
        stratum: &Stratum,
        top: &mut Store,
        terms: &Terms,
        derived: Derived,
    ) -> Delta {
        let length = |top: &Store, key: &RelKey| top.get(key).map_or(0, |r| r.len);
        let starts: Vec<(RelKey, usize)> = stratum
            .relations
            .iter()
            .map(|key| (*key, length(top, key)))
            .collect();
        for (key, new) in derived {
            debug_assert!(stratum.relations.contains(&key));
            let relation = top.entry(key).or_insert_with(|| self.relation(key));
            if relation.len == 0 {
                // Most strata are not recursive and derive their facts in one round: the set
                // the join built moves in whole, and only the indexes are filled.
                relation.take_facts(terms, new);
                continue;
            }
            for position in 0..new.len {
                relation.push_new(terms, new.hashes[position], new.fact(position));
            }
        }
        starts
            .into_iter()
            .map(|(key, start)| (key, start..length(top, &key)))
            .collect()
    }
}

/// The facts a join tries at one level: of the relation's facts in the lower strata's store
/// and in the current one, those in `ranges` (`positions` `None`: a scan) or those at the
/// positions an index gave.
#[derive(Clone, Default)]
struct Candidates<'s> {
    relations: [Option<&'s Relation>; 2],
    ranges: [Range<usize>; 2],
    positions: Option<[&'s [u32]; 2]>,
}

impl<'s> Candidates<'s> {
    /// The candidates for a literal read through `access` (or scanned) under `bindings`;
    /// `only_new`: only the facts of `top` in this range (the last round's delta).
    fn of(
        relations: [Option<&'s Relation>; 2],
        access: Option<&Access>,
        view: &TermView<'_>,
        bindings: &[TermId],
        scratch: &mut KeyScratch,
        only_new: Option<Range<usize>>,
    ) -> Candidates<'s> {
        let [below, above] = relations;
        let Some(access) = access else {
            let all = |relation: Option<&Relation>| 0..relation.map_or(0, |r| r.len);
            let ranges = match only_new {
                Some(range) => [0..0, range],
                None => [all(below), all(above)],
            };
            return Candidates {
                relations,
                ranges,
                positions: None,
            };
        };
        let Some(key) = probe_key(view, &access.probes, bindings, scratch) else {
            // A value no fact holds.
            return Candidates {
                relations,
                ranges: [0..0, 0..0],
                positions: Some([&[], &[]]),
            };
        };
        let positions = |relation: Option<&'s Relation>| -> &'s [u32] {
            relation
                .and_then(|r| r.indexes[access.index].get(&key))
                .map_or(&[][..], Vec::as_slice)
        };
        let (below, above) = match only_new {
            Some(range) => {
                let all = positions(above);
                let start = all.partition_point(|&p| (p as usize) < range.start);
                let end = all.partition_point(|&p| (p as usize) < range.end);
                (&[][..], &all[start..end])
            }
            None => (positions(below), positions(above)),
        };
        Candidates {
            relations,
            ranges: [0..0, 0..0],
            positions: Some([below, above]),
        }
    }

    /// The `at`-th candidate's arguments.
    fn get(&self, at: usize) -> Option<&'s [TermId]> {
        let (relation, position) = match self.positions {
            None => {
                let [below, above] = &self.ranges;
                if at < below.len() {
                    (self.relations[0], below.start + at)
                } else {
                    let position = above.start + (at - below.len());
                    if position >= above.end {
                        return None;
                    }
                    (self.relations[1], position)
                }
            }
            Some([below, above]) => match below.get(at) {
                Some(&p) => (self.relations[0], p as usize),
                None => (self.relations[1], *above.get(at - below.len())? as usize),
            },
        };
        Some(relation?.fact(position))
    }
}

/// The game's rules rewritten for demand (see [`demand`]); the rules as written when no
/// relation is always read with arguments known, or when the rewritten rules do not stratify
/// (a demand can make a relation depend on itself through a negation its rules read).
///
/// Guarded are the relations with a rule evaluated per state (chess's `clear_row_ig` has a
/// static base case, 21,576 facts, and recursive cases reading the board) and those of
/// `too_large_once`; the other static relations are evaluated once, whole, for every state.
fn rewritten_for_demand(written: &Program, too_large_once: &FxHashSet<RelKey>) -> Program {
    let mut per_state: FxHashSet<RelKey> = too_large_once.clone();
    for stratum in written.strata.iter().filter(|stratum| stratum.dynamic) {
        per_state.extend(stratum.rules.iter().map(|&r| written.rules[r].head.key()));
    }
    // A relation too large to evaluate once is demanded only as far as its readers are
    // guarded too (sudoku's `exactlyOne`, static, reads `exactlyFirst` and is read per
    // state), so the static relations that read one, transitively, are guarded as well.
    let mut grown = !too_large_once.is_empty();
    while grown {
        grown = false;
        for rule in &written.rules {
            let reads_guarded = rule.body.iter().any(|literal| match literal {
                CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) => {
                    per_state.contains(&atom.key())
                }
                _ => false,
            });
            if reads_guarded {
                grown |= per_state.insert(rule.head.key());
            }
        }
    }
    let mut symbols = written.symbols.clone();
    let guardable = |key: RelKey| per_state.contains(&key);
    let keywords = written.keywords;
    let defined: FxHashSet<RelKey> = written.rules.iter().map(|rule| rule.head.key()).collect();
    // Complete before any demand is derived: the inputs, and the relations evaluated once.
    let complete_first = |key: RelKey| {
        key.0 == keywords.true_
            || key.0 == keywords.does
            || (defined.contains(&key) && !per_state.contains(&key))
    };
    match demand(
        &written.rules,
        &written.keywords,
        &mut symbols,
        &guardable,
        &complete_first,
    ) {
        Some(demanded) => written
            .with_rules(symbols, demanded.rules)
            .unwrap_or_else(|_| written.clone()),
        None => written.clone(),
    }
}

/// Every relation key of `program` with one of the `names`.
fn keys_named(program: &Program, names: &[Sym]) -> Vec<RelKey> {
    names
        .iter()
        .flat_map(|&name| program.keys_named(name))
        .collect()
}

/// The literals of a rule body in the order the goal-directed join reads them: the written
/// order, except that a positive literal sharing no bound variable with those before it (a
/// cross product) waits while a later one shares some; each test right after the literal that
/// binds its last variable.
///
/// A body as written or as the demand rewriting built it sometimes reads a large relation
/// before the small one that would bind its arguments: chess's demand for `threatened` read
/// every `kingmove` and then kept those from the king's cell, where reading the king's cell
/// first leaves eight. A conjunction means the same in any order, so the answers do not
/// change; the bottom-up reference keeps the order as written. (Choosing, among the connected
/// literals, the one binding the fewest new variables made laikLee_hex faster still but the
/// corpus slower as a whole: the written order is usually the better guess.)
fn in_join_order(body: &[CompiledLiteral], variables: usize) -> Vec<CompiledLiteral> {
    let variables_of = |literal: &CompiledLiteral| -> Vec<usize> {
        let mut slots = Vec::new();
        let mut visit = |slot: usize| slots.push(slot);
        match literal {
            CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) => {
                atom.args
                    .iter()
                    .for_each(|arg| for_each_var(arg, &mut visit));
            }
            CompiledLiteral::Distinct(a, b) | CompiledLiteral::Equal(a, b) => {
                for_each_var(a, &mut visit);
                for_each_var(b, &mut visit);
            }
        }
        slots.sort_unstable();
        slots.dedup();
        slots
    };
    let mut bound = vec![false; variables];
    let mut ordered = Vec::with_capacity(body.len());
    let mut first = true;
    // Each literal with its variables.
    let (mut positives, mut tests): (Vec<_>, Vec<_>) = body
        .iter()
        .map(|literal| (literal, variables_of(literal)))
        .partition(|(literal, _)| matches!(literal, CompiledLiteral::Positive(_)));
    loop {
        // The tests whose variables are all bound now, in their written order.
        let (ready, waiting): (Vec<_>, Vec<_>) = tests
            .into_iter()
            .partition(|(_, slots)| slots.iter().all(|&slot| bound[slot]));
        ordered.extend(ready.into_iter().map(|(test, _)| test.clone()));
        tests = waiting;
        // Unconnected literals (with variables, none bound) wait: they multiply the matches.
        let unconnected =
            |slots: &[usize]| !slots.is_empty() && slots.iter().all(|&slot| !bound[slot]);
        if positives.is_empty() {
            break;
        }
        let next = if first {
            // The first literal stays first: the demand rewriting puts the guard that keeps a
            // relation to its demanded arguments there.
            first = false;
            0
        } else {
            (0..positives.len())
                .min_by_key(|&i| (unconnected(&positives[i].1), i))
                .expect("positive literals are left")
        };
        let (literal, slots) = positives.remove(next);
        for slot in slots {
            bound[slot] = true;
        }
        ordered.push(literal.clone());
    }
    // Safe rules bind every variable of a test; anything left keeps its place at the end.
    ordered.extend(tests.into_iter().map(|(test, _)| test.clone()));
    ordered
}

/// Per rule and body literal, its [`Access`]; per relation, its index specs.
type AccessPlans = (
    Vec<Vec<Option<Access>>>,
    FxHashMap<RelKey, Arc<[IndexSpec]>>,
);

/// For each rule and body literal, how the join reaches the literal's candidates: through an
/// index on the places whose values are known when the join gets there (the literals are
/// joined in their written order, so which variables are bound is known before any fact is);
/// and the index specs of each relation.
fn access_plans(rules: &[CompiledRule]) -> AccessPlans {
    let mut specs: FxHashMap<RelKey, Vec<IndexSpec>> = FxHashMap::default();
    let plans = rules
        .iter()
        .map(|rule| {
            let mut bound = vec![false; rule.variables];
            rule.body
                .iter()
                .map(|literal| {
                    let CompiledLiteral::Positive(atom) = literal else {
                        return None;
                    };
                    let mut places = Vec::new();
                    let mut probes = Vec::new();
                    for (i, arg) in atom.args.iter().enumerate() {
                        known_places(arg, vec![i], &bound, &mut places, &mut probes);
                    }
                    for arg in &atom.args {
                        for_each_var(arg, &mut |slot| bound[slot] = true);
                    }
                    if places.is_empty() {
                        return None;
                    }
                    let list = specs.entry(atom.key()).or_default();
                    let index = match list.iter().position(|spec| **spec == *places) {
                        Some(index) => index,
                        None => {
                            list.push(places.into());
                            list.len() - 1
                        }
                    };
                    Some(Access { index, probes })
                })
                .collect()
        })
        .collect();
    let specs = specs
        .into_iter()
        .map(|(key, list)| (key, list.into()))
        .collect();
    (plans, specs)
}

/// The places of `pattern` (at `path` in its atom) known under `bound`: the whole term when
/// its variables are all bound, else the name of a function term and the known places of its
/// arguments.
fn known_places(
    pattern: &Pattern,
    path: Path,
    bound: &[bool],
    places: &mut Vec<Place>,
    probes: &mut Vec<Probe>,
) {
    let mut all_bound = true;
    for_each_var(pattern, &mut |slot| all_bound &= bound[slot]);
    if all_bound {
        places.push(Place::Value(path));
        probes.push(Probe::Value(pattern.clone()));
    } else if let Pattern::Func(name, args) = pattern {
        places.push(Place::Functor(path.clone()));
        probes.push(Probe::Functor(*name));
        for (j, arg) in args.iter().enumerate() {
            let mut inner = path.clone();
            inner.push(j);
            known_places(arg, inner, bound, places, probes);
        }
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

#[cfg(test)]
mod term_tests {
    use super::*;

    const CELL: Sym = Sym(1);
    const A: Sym = Sym(2);
    const B: Sym = Sym(3);
    const F: Sym = Sym(4);

    /// A vocabulary holding `a`, `b` and `(f b a)`, and the ids of `a`, `b` and `(f b a)`.
    fn vocabulary_with_f_b_a() -> (Vocabulary, [TermId; 3]) {
        let mut vocabulary = Vocabulary::new();
        let terms = &mut vocabulary.terms;
        let (a, b) = (terms.intern(A, &[]), terms.intern(B, &[]));
        let fba = terms.intern_written(F, &[b, a], true);
        (vocabulary, [a, b, fba])
    }

    /// A join finds a fact through an index only if the key it probes with, from the literal's
    /// patterns under the bindings, is the key the fact was filed under.
    #[test]
    fn a_probe_keys_as_the_fact_it_stands_for() {
        let (vocabulary, [a, b, fba]) = vocabulary_with_f_b_a();
        let view = TermView {
            terms: &vocabulary.terms,
        };
        // (cell a (f b a)), indexed by its first argument, its second and the second's name.
        let fact = [a, fba];
        let spec = [
            Place::Value(vec![0]),
            Place::Value(vec![1]),
            Place::Functor(vec![1]),
        ];
        // (cell ?x (f ?y a)) with ?x = a, ?y = b.
        let probes = [
            Probe::Value(Pattern::Var(0)),
            Probe::Value(Pattern::Func(F, vec![Pattern::Var(1), Pattern::Const(A)])),
            Probe::Functor(F),
        ];
        let mut scratch = KeyScratch::new();
        let key = index_key(&vocabulary.terms, &spec, &fact);
        assert!(key.is_some());
        assert_eq!(key, probe_key(&view, &probes, &[a, b], &mut scratch));
        // Swapped values: `(f a b)` was never made, so no fact can hold it.
        assert_eq!(probe_key(&view, &probes, &[b, a], &mut scratch), None);
        // A constant where the spec reads a function's name: a fact no such literal matches.
        assert_eq!(index_key(&vocabulary.terms, &spec, &[a, b]), None);
    }

    /// `distinct` and its negation compare the two sides without making them: a variable
    /// bound to a function term against a pattern, a function against a function.
    #[test]
    fn the_sides_of_distinct_compare_as_the_terms_they_stand_for() {
        let (vocabulary, [a, b, fba]) = vocabulary_with_f_b_a();
        let view = TermView {
            terms: &vocabulary.terms,
        };
        // ?0 = b, ?1 = (f b a), ?2 = a.
        let bindings = [b, fba, a];
        let f_of = |x: Pattern, y: Pattern| Pattern::Func(F, vec![x, y]);
        let same = |x: &Pattern, y: &Pattern| view.same(x, y, &bindings);
        assert!(same(
            &f_of(Pattern::Var(0), Pattern::Const(A)),
            &Pattern::Var(1)
        ));
        assert!(same(
            &Pattern::Var(1),
            &f_of(Pattern::Const(B), Pattern::Var(2))
        ));
        assert!(!same(
            &f_of(Pattern::Var(2), Pattern::Const(A)),
            &Pattern::Var(1)
        ));
        assert!(!same(&Pattern::Var(0), &Pattern::Var(2)));
        assert!(same(&Pattern::Var(0), &Pattern::Const(B)));
        assert!(!same(&Pattern::Const(A), &Pattern::Var(1)));
        // Two terms never made, equal only as patterns that differ.
        assert!(!same(
            &f_of(Pattern::Var(0), Pattern::Var(2)),
            &f_of(Pattern::Var(2), Pattern::Var(0))
        ));
        assert!(same(
            &f_of(Pattern::Var(2), Pattern::Var(2)),
            &f_of(Pattern::Const(A), Pattern::Var(2))
        ));
    }

    /// A head's arguments made under the bindings are found in the relation that holds the
    /// fact, and a negated literal naming a term never made is in no relation.
    #[test]
    fn a_pattern_is_found_as_the_fact_it_instantiates_to() {
        let (mut vocabulary, [a, b, fba]) = vocabulary_with_f_b_a();
        // (cell ?x (f ?y a)).
        let head = PatternAtom {
            relation: CELL,
            args: vec![
                Pattern::Var(0),
                Pattern::Func(F, vec![Pattern::Var(1), Pattern::Const(A)]),
            ],
        };
        let mut scratch = KeyScratch::new();
        let terms = &mut vocabulary.terms;
        let made: Vec<TermId> = head
            .args
            .iter()
            .map(|arg| intern_instance(terms, arg, &[a, b], &mut scratch))
            .collect();
        assert_eq!(made, vec![a, fba]);
        let before = terms.len();
        let mut relation = Relation::new(2, Arc::default());
        assert!(relation.insert(terms, &made));
        assert!(!relation.insert(terms, &made));
        let view = TermView { terms };
        let mut instance = Vec::new();
        let negated = CompiledLiteral::Negative(head.clone());
        let relations = [None, Some(&relation)];
        assert!(!view.holds(&negated, &[a, b], relations, &mut scratch, &mut instance));
        // ?y = a: `(f a a)` was never made, so the negation holds without making it.
        assert!(view.holds(&negated, &[a, a], relations, &mut scratch, &mut instance));
        assert_eq!(terms.len(), before);
        // Made, it is a new fact of the relation.
        let other: Vec<TermId> = head
            .args
            .iter()
            .map(|arg| intern_instance(terms, arg, &[b, a], &mut scratch))
            .collect();
        assert_eq!(terms.len(), before + 1);
        assert!(relation.insert(terms, &other));
        assert_eq!(relation.len, 2);
        // A relation without arguments holds one fact at most.
        let mut marked = Relation::new(0, Arc::default());
        assert!(marked.insert(terms, &[]));
        assert!(!marked.insert(terms, &[]));
        assert_eq!((marked.len, marked.facts().count()), (1, 1));
    }

    /// A term given out is read back as the same id, whether it is the very value given out or
    /// an equal one built elsewhere, and after the table is cut back as well.
    #[test]
    fn a_term_given_out_is_read_back_as_itself() {
        let (mut vocabulary, [a, b, fba]) = vocabulary_with_f_b_a();
        vocabulary.lasting = vocabulary.terms.len();
        let mut key = KeyScratch::new();
        let given = vocabulary.ground(fba);
        let expected = Ground::Func(F, vec![Ground::Const(B), Ground::Const(A)].into());
        assert_eq!(given, expected);
        assert_eq!(vocabulary.id_of(&given, &mut key), fba);
        assert_eq!(vocabulary.id_of(&expected, &mut key), fba);
        assert_eq!(vocabulary.id_of(&Ground::Const(B), &mut key), b);
        // `(cell a (f b a))`, made by a question, then forgotten.
        let made = vocabulary
            .terms
            .find_or_intern(CELL, &[a, fba], true, &mut key);
        let cell = vocabulary.ground(made);
        vocabulary.cut_back();
        assert_eq!(vocabulary.terms.len(), vocabulary.lasting);
        let again = vocabulary.id_of(&cell, &mut key);
        assert_eq!(vocabulary.ground(again), cell);
        assert_eq!(vocabulary.id_of(&given, &mut key), fba);
    }

    /// The table cut back to its lasting terms forgets the others and makes them again, with
    /// the same structure, when asked.
    #[test]
    fn terms_cut_back_are_made_again() {
        let (mut vocabulary, [a, b, fba]) = vocabulary_with_f_b_a();
        let lasting = vocabulary.terms.len();
        let mut key = KeyScratch::new();
        let nested = Ground::Func(
            CELL,
            vec![
                Ground::Const(A),
                Ground::Func(F, vec![Ground::Const(A), Ground::Const(B)].into()),
            ]
            .into(),
        );
        let id = vocabulary.terms.intern_ground(&nested, &mut key);
        // A constant a question made is forgotten with the rest.
        let late = Sym(9);
        vocabulary.terms.intern(late, &[]);
        assert!(vocabulary.terms.constant(late).is_some());
        assert_eq!(vocabulary.terms.len(), lasting + 3);
        assert_eq!(vocabulary.terms.to_ground(id), nested);
        vocabulary.terms.truncate(lasting);
        assert_eq!(vocabulary.terms.len(), lasting);
        let fab = [a, b];
        assert_eq!(vocabulary.terms.find_written(F, &fab, true, &mut key), None);
        assert_eq!(vocabulary.terms.constant(late), None);
        assert_eq!(vocabulary.terms.constant(A), Some(fab[0]));
        assert_eq!(
            vocabulary.terms.to_ground(fba),
            Ground::Func(F, vec![Ground::Const(B), Ground::Const(A)].into())
        );
        let again = vocabulary.terms.intern_ground(&nested, &mut key);
        assert_eq!(vocabulary.terms.to_ground(again), nested);
    }
}

#[cfg(test)]
mod join_order_tests {
    use super::*;

    fn atom(relation: u32, slots: &[usize]) -> PatternAtom {
        PatternAtom {
            relation: Sym(relation),
            args: slots.iter().map(|&slot| Pattern::Var(slot)).collect(),
        }
    }

    /// Chess's demand for `threatened`, in miniature: after the player, the king's cell (which
    /// shares the player) is read before every king move (which shares nothing), and each test
    /// comes right after its last variable is bound. The first literal keeps its place, and
    /// connected literals their written order.
    #[test]
    fn a_body_is_joined_from_what_is_bound_outward() {
        let (control, kingmove, king_at, owner) = (1, 2, 3, 4);
        let written = vec![
            CompiledLiteral::Positive(atom(control, &[0])),
            CompiledLiteral::Positive(atom(kingmove, &[2, 3, 4, 5])),
            CompiledLiteral::Distinct(Pattern::Var(4), Pattern::Var(2)),
            CompiledLiteral::Negative(atom(owner, &[0, 5])),
            CompiledLiteral::Positive(atom(king_at, &[0, 2, 3])),
        ];
        let ordered = in_join_order(&written, 6);
        assert_eq!(
            ordered,
            vec![
                written[0].clone(),
                written[4].clone(),
                written[1].clone(),
                written[2].clone(),
                written[3].clone(),
            ]
        );
        // A literal sharing no bound variable waits, even one written first and binding fewer
        // new variables: it would multiply the matches.
        let written = vec![
            CompiledLiteral::Positive(atom(control, &[0])),
            CompiledLiteral::Positive(atom(owner, &[7])),
            CompiledLiteral::Positive(atom(king_at, &[0, 1, 2])),
        ];
        let ordered = in_join_order(&written, 8);
        assert_eq!(ordered[1], written[2]);
        assert_eq!(ordered[2], written[1]);
        // Connected literals keep their written order, whatever they bind.
        let written = vec![
            CompiledLiteral::Positive(atom(control, &[0])),
            CompiledLiteral::Positive(atom(kingmove, &[0, 1, 2, 3])),
            CompiledLiteral::Positive(atom(king_at, &[0, 4])),
        ];
        assert_eq!(in_join_order(&written, 5), written);
    }
}

//! Grounding: which ground atoms can ever hold, and every rule instantiated over them.
//!
//! The domain is a relaxed reachability fixpoint: negation is ignored (a negative literal is
//! assumed to hold), `true` holds for every `init` and `next` head and `does` for every `legal`
//! head, and all rules run together semi-naively until nothing new is derived. Every atom that
//! holds in some reachable state of the real game is in this over-approximation. Each rule is
//! then instantiated over the domain into ground rules of signed literals; `distinct` is decided
//! at this point, and a negative literal whose atom is outside the domain (never true) drops out.
//!
//! The static relations (those that read neither `true` nor `does`) that some rule negates, and
//! the static ones they read, come first, stratum by stratum: a relation whose rules read only
//! relations already computed exactly is exact too, its domain the atoms that hold in every state, so a negative literal over it is decided
//! rather than assumed. urmAdd's `(<= (lineNumber ?np1) (succ ?n ?np1) (not (maxLines ?n))
//! (lineNumber ?n))` then stops at the ten lines the game has, not at the fifty its counter
//! allows.
//!
//! Joins backtrack on an explicit stack and use per-argument indexes; the work is counted
//! against [`GroundingLimits`], so that a game with an infinite or huge domain (counters built
//! from function terms, big boards) ends with an error and the caller falls back to the
//! interpreter.

use crate::cpu_time::CpuDeadline;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::GdlError;
use super::super::program::{
    CompiledLiteral, CompiledRule, Keywords, Pattern, PatternAtom, Program, RelKey, Stratum, Sym,
};
use super::factor::{for_each_literal_var, for_each_var};
use super::terms::{
    KeyScratch, TermId, Terms, UNBOUND, find_atom, find_instance, instances_equal, intern_atom,
    match_pattern,
};

/// Limits on grounding; beyond them the game is "too large to ground".
#[derive(Clone, Debug)]
pub struct GroundingLimits {
    /// Distinct ground terms and atoms in the domain.
    pub max_terms: usize,
    /// Ground rules.
    pub max_ground_rules: usize,
    /// Literals over all ground rules.
    pub max_literals: usize,
    /// Nesting of ground terms (function terms built by recursion).
    pub max_depth: usize,
    /// Join steps over the whole grounding.
    pub max_steps: u64,
    /// The work grounding may do, counted (see [`WorkAllowance`]): what decides, the same on
    /// every machine, that a game is too costly to ground.
    pub work: WorkAllowance,
    /// The CPU time grounding may take: a caller's budget (a command's time limit), and a
    /// safety net should the count of work miss where time goes.
    pub deadline: Option<CpuDeadline>,
    /// Stop, as too large, at one join (one rule, one round of the domain's fixpoint) taking at
    /// least [`COSTLY_JOIN_STEPS`] join steps and a thousand per match: a body that chains
    /// sums or counts through many literals, most of whose partial matches fail late, which
    /// a rewriting grounds far sooner (for the first attempt of
    /// [`super::GroundedGame::new`], which rewritings follow). In the corpus only
    /// gt_two_thirds_6p's `total` (7.2 M steps for 800 matches) and merrills' `count_loop`
    /// (8.6 M for 5,041) have such a join, and neither grounds as written.
    pub stop_at_costly_joins: bool,
}

/// Grounding's allowance of work, counted in units of about a nanosecond of CPU time (see
/// [`WORK_WEIGHTS`]). Counted rather than timed, so that whether a game grounds is decided the
/// same on a fast machine and a slow one, loaded or idle: under a CPU-time allowance, racer4
/// grounded on one machine and fell back to the interpreter on another 1.7 times slower,
/// where CI's corpus test then failed.
///
/// Clones share the count: every attempt of one engine choice (the rules as written,
/// rewritten, within the last resort, without the goal) draws on one allowance, as they
/// shared one deadline.
#[derive(Clone, Debug)]
pub struct WorkAllowance {
    /// What has been done so far, per [`WorkKind`].
    done: Arc<[AtomicU64; WORK_KINDS]>,
    total: u64,
}

/// The kinds of grounding work counted, and their cost in [`WorkAllowance`] units.
#[derive(Clone, Copy, Debug)]
pub enum WorkKind {
    /// A fact tried against a literal, or a test evaluated.
    Step,
    /// A literal's candidates looked up by its known arguments (a probe that finds none
    /// costs time but no step).
    Probe,
    /// A ground term made (interned, indexed, and its domain bookkeeping).
    Term,
    /// A literal of a ground rule written.
    Literal,
    /// A join begun (choosing its order, setting up its stacks): a fixpoint of many short
    /// rounds is mostly this.
    Join,
}

const WORK_KINDS: usize = 5;

/// The cost of each [`WorkKind`], in the order of its variants: a least-squares fit (of the
/// relative error) of each engine choice's CPU time against its counts, over the 122 corpus
/// games whose choice takes over 0.05 s (session 52, BENCHMARKS.md, "Whether a game grounds,
/// decided by a count of work"): 37 ns per join step, 410 per probe, 2.26 µs per ground term,
/// 440 ns per literal and 3.4 µs per join, on that session's machine. Every game lies within
/// 0.61 and 2.2 times the fit (join steps, terms and literals alone left gt_two_thirds and
/// gt_attrition, whose joins probe arithmetic tables, 2.6 times off, and duplicateStateLarge,
/// a fixpoint of many short rounds, 15 times). The allowance bounds time within those
/// factors, which is what a budget needs; it does not predict it.
pub const WORK_WEIGHTS: [u64; WORK_KINDS] = [37, 410, 2_260, 440, 3_400];

/// The work one engine choice may spend grounding: 30 G units, about 30 s of CPU time on the
/// machine of the fit. The corpus's costliest groundings take 20–23 G (racer4, amazons,
/// amazonsSuicide, gt_two_thirds_6p: 22–28 CPU s there); the four games that do not ground
/// spend it all (chess, slaughter, amazonsTorus, laikLee_hex).
pub const GROUNDING_WORK: u64 = 30_000_000_000;

impl WorkAllowance {
    pub fn new(units: u64) -> WorkAllowance {
        WorkAllowance {
            done: Arc::default(),
            total: units,
        }
    }

    /// Counts `count` pieces of work of `kind`.
    fn charge(&self, kind: WorkKind, count: u64) {
        self.done[kind as usize].fetch_add(count, Ordering::Relaxed);
    }

    /// The work done so far, per kind (in the order of [`WorkKind`]'s variants).
    pub fn done(&self) -> [u64; WORK_KINDS] {
        std::array::from_fn(|kind| self.done[kind].load(Ordering::Relaxed))
    }

    /// The units spent so far.
    pub fn spent(&self) -> u64 {
        self.done()
            .iter()
            .zip(WORK_WEIGHTS)
            .map(|(&count, weight)| count.saturating_mul(weight))
            .fold(0, u64::saturating_add)
    }

    pub fn is_spent(&self) -> bool {
        self.spent() >= self.total
    }

    /// The units allowed in all.
    pub fn allowance(&self) -> u64 {
        self.total
    }

    fn exhausted(&self) -> GdlError {
        let [steps, probes, terms, literals, joins] = self.done();
        GdlError::Budget(format!(
            "grounding spent its allowance of work ({} units: {joins} joins, {steps} join steps, {probes} index probes, {terms} ground terms, {literals} literals)",
            self.total
        ))
    }
}

impl Default for WorkAllowance {
    fn default() -> Self {
        WorkAllowance::new(GROUNDING_WORK)
    }
}

/// See [`GroundingLimits::stop_at_costly_joins`].
pub(super) const COSTLY_JOIN_STEPS: u64 = 5_000_000;

/// How much larger [`GroundingLimits::last_resort`] lets a grounding be.
const LAST_RESORT_FACTOR: usize = 3;

impl GroundingLimits {
    /// These limits with the sizes three times larger (the join steps and the deadline as
    /// they are), for a game too large for them however its rules are written. The default
    /// limits' last resort grounds amazons (1.2 M props, 1.6 M ground rules: about 0.9 GB at
    /// the peak, set up in about 8.5 CPU s) and racer4; full chess still does not ground.
    pub fn last_resort(&self) -> GroundingLimits {
        GroundingLimits {
            max_terms: self.max_terms.saturating_mul(LAST_RESORT_FACTOR),
            max_ground_rules: self.max_ground_rules.saturating_mul(LAST_RESORT_FACTOR),
            max_literals: self.max_literals.saturating_mul(LAST_RESORT_FACTOR),
            ..self.clone()
        }
    }

    /// Whether grounding may not go on, whatever way the rules are written: the work
    /// allowance is spent, or the time limit passed.
    pub fn is_exhausted(&self) -> bool {
        self.work.is_spent() || self.deadline.is_some_and(|d| d.is_past())
    }
}

impl Default for GroundingLimits {
    /// Sized so that grounding stays well under 500 MB, with a [`GroundingLimits::last_resort`]
    /// of about 1 GB for a game that needs more: a game beyond that (full chess) runs on the
    /// interpreter instead.
    fn default() -> Self {
        GroundingLimits {
            max_terms: 500_000,
            max_ground_rules: 1_000_000,
            max_literals: 6_000_000,
            max_depth: 32,
            max_steps: 400_000_000,
            work: WorkAllowance::default(),
            deadline: None,
            stop_at_costly_joins: false,
        }
    }
}

/// The ground rules: `heads[r] :- literals[starts[r]..starts[r + 1]]`, each literal an atom's
/// term id shifted left once with the low bit set when negated.
#[derive(Debug, Default)]
pub(super) struct GroundRules {
    pub heads: Vec<TermId>,
    pub starts: Vec<u32>,
    pub literals: Vec<u32>,
}

impl GroundRules {
    pub(super) fn len(&self) -> usize {
        self.heads.len()
    }

    pub(super) fn body(&self, rule: usize) -> &[u32] {
        &self.literals[self.starts[rule] as usize..self.starts[rule + 1] as usize]
    }
}

/// The facts of one relation in the domain, with an index per argument position and per
/// argument of a function-term argument.
#[derive(Debug, Default)]
struct Relation {
    facts: Vec<TermId>,
    /// ([`IndexKey`], term) to the positions in `facts` with that term there, ascending.
    index: FxHashMap<(IndexKey, TermId), Vec<u32>>,
    /// Per index key: how many distinct terms occur there (for estimating a join's fan-out).
    distinct_terms: FxHashMap<IndexKey, u32>,
    /// Indexes on two top-level arguments at once, made when a join asked for one (see
    /// [`Grounding::make_requested_pair_indexes`]).
    pairs: Vec<PairIndex>,
}

/// The positions in a relation's facts by their terms at two top-level arguments, ascending.
/// gt_two_thirds_6p's `absDiff(?x, ?y, ?d)` read with `?x` and `?y` known has one fact per
/// pair but 601 per value of either: through one argument, its 180,000 `lt` facts cost 600
/// join steps each, 100 M of the 111 M its grounding took.
#[derive(Debug)]
struct PairIndex {
    arguments: (usize, usize),
    lists: FxHashMap<(TermId, TermId), Vec<u32>>,
}

/// A list of candidates longer than this, for a literal with two arguments or more known,
/// asks for an index on two of them.
const PAIR_INDEX_WORTH: usize = 32;

/// Where in a fact an index looks: a top-level argument, the functor of a function-term
/// argument, or an argument of a function-term argument. Facts of `true` are all one relation
/// whose only argument is the fluent, so without the nested keys a literal such as
/// `(true (cell ?x 3 ?p))` with `?x` unknown would scan every fluent.
type IndexKey = u64;

const NESTED_KEY: IndexKey = 1 << 63;
/// The argument number that stands for "the functor itself" in a nested key.
const FUNCTOR_SLOT: usize = 0xff;

/// The key of top-level argument `position`.
fn argument_key(position: usize) -> IndexKey {
    position as IndexKey
}

/// The key of argument `slot` ([`FUNCTOR_SLOT`]: the functor) of the function term
/// `functor/arity` at top-level argument `position`; `None` beyond what a key encodes (such
/// places are neither indexed nor looked up).
fn nested_key(position: usize, functor: Sym, arity: usize, slot: usize) -> Option<IndexKey> {
    (position < 0xff && arity < 0xff && (slot < arity || slot == FUNCTOR_SLOT)).then(|| {
        NESTED_KEY
            | IndexKey::from(functor.0) << 24
            | (arity as IndexKey) << 16
            | (position as IndexKey) << 8
            | slot as IndexKey
    })
}

impl Relation {
    fn add_to_index(&mut self, key: IndexKey, term: TermId, position: u32) {
        let list = self.index.entry((key, term)).or_default();
        if list.is_empty() {
            *self.distinct_terms.entry(key).or_default() += 1;
        }
        list.push(position);
    }

    fn list(&self, key: IndexKey, term: TermId) -> &[u32] {
        self.index.get(&(key, term)).map_or(&[], Vec::as_slice)
    }

    /// Adds the fact at `position`, with top-level arguments `args`, to the pair indexes.
    fn add_to_pair_indexes(&mut self, args: &[TermId], position: u32) {
        for pair in &mut self.pairs {
            let (i, j) = pair.arguments;
            pair.lists
                .entry((args[i], args[j]))
                .or_default()
                .push(position);
        }
    }

    fn distinct_at(&self, key: IndexKey) -> f64 {
        f64::from(self.distinct_terms.get(&key).copied().unwrap_or(0).max(1))
    }
}

/// The domain and the grounded program.
#[derive(Debug)]
pub(super) struct Grounding {
    pub terms: Terms,
    /// Whether a term is an atom of the domain.
    in_domain: Vec<bool>,
    /// Per term: its position among its relation's facts (meaningful for domain atoms).
    position: Vec<u32>,
    relations: FxHashMap<RelKey, Relation>,
    /// The static relations whose domain is exactly the atoms that hold (in every state):
    /// a negative literal over one of them is decided while grounding.
    exact: FxHashSet<RelKey>,
    /// The game's own static relations (not keywords) whose every domain atom holds in every
    /// state, so that a positive literal over one is left out of the ground rules and their
    /// rules need no ground instances (see [`Grounding::fold_static`]).
    folded: FxHashSet<RelKey>,
    /// Pair indexes joins asked for (relation, arguments), made between joins.
    pair_requests: RefCell<Vec<(RelKey, (usize, usize))>>,
    pub rules: GroundRules,
    /// The join steps grounding took (against [`GroundingLimits::max_steps`]).
    pub steps: u64,
}

impl Grounding {
    /// Frees what only the joins read (the relations' indexes, the domain membership and
    /// positions of atoms), keeping the facts, the terms and the ground rules: the circuit is
    /// built next, while this grounding lives, and amazons' indexes alone are about 80 MB.
    fn release_join_indexes(&mut self) {
        for relation in self.relations.values_mut() {
            relation.index = FxHashMap::default();
            relation.distinct_terms = FxHashMap::default();
            relation.pairs = Vec::new();
        }
        self.in_domain = Vec::new();
        self.position = Vec::new();
    }

    /// The domain facts of a relation.
    pub(super) fn facts(&self, key: RelKey) -> &[TermId] {
        self.relations.get(&key).map_or(&[], |r| r.facts.as_slice())
    }
}

struct Work<'l> {
    limits: &'l GroundingLimits,
    steps: u64,
    probes: u64,
    /// The ground terms charged to the work allowance so far.
    terms_charged: usize,
}

impl Work<'_> {
    fn step(&mut self) -> Result<(), GdlError> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(too_large(format!(
                "more than {} {TOO_MANY_STEPS}",
                self.limits.max_steps
            )));
        }
        if self.steps.is_multiple_of(COUNTS_PER_CHARGE) {
            self.limits.work.charge(WorkKind::Step, COUNTS_PER_CHARGE);
            self.check()?;
        }
        Ok(())
    }

    /// A literal's candidates looked up.
    fn probe(&mut self) -> Result<(), GdlError> {
        self.probes += 1;
        if self.probes.is_multiple_of(COUNTS_PER_CHARGE) {
            self.limits.work.charge(WorkKind::Probe, COUNTS_PER_CHARGE);
            self.check()?;
        }
        Ok(())
    }

    /// Counts the ground terms made since the last count.
    fn charge_terms(&mut self, terms: usize) {
        let new = terms.saturating_sub(self.terms_charged) as u64;
        self.limits.work.charge(WorkKind::Term, new);
        self.terms_charged = self.terms_charged.max(terms);
    }

    /// Counts what the last partial batch of steps and probes left uncounted, at the end of
    /// an attempt (successful or not): the allowance is shared by the attempts after it.
    fn charge_the_rest(&mut self) {
        let work = &self.limits.work;
        work.charge(WorkKind::Step, self.steps % COUNTS_PER_CHARGE);
        work.charge(WorkKind::Probe, self.probes % COUNTS_PER_CHARGE);
    }

    /// An error once the work allowance is spent or the time limit passed.
    fn check(&self) -> Result<(), GdlError> {
        if self.limits.work.is_spent() {
            return Err(self.limits.work.exhausted());
        }
        if let Some(deadline) = self.limits.deadline
            && deadline.is_past()
        {
            return Err(GdlError::Budget(
                "the time limit passed while grounding".to_owned(),
            ));
        }
        Ok(())
    }
}

/// Join steps (or probes) between two charges of the work allowance and checks of it and of
/// the time limit.
const COUNTS_PER_CHARGE: u64 = 4096;

/// Per stratum, whether it is saturated before the rest: a static stratum with a rule for a
/// relation some rule negates, or for one such a stratum reads (its exactness rests on theirs).
/// Strata group rules, not relations: a relation's facts and its recursive rules may lie in
/// different strata, and all of them go first together.
pub(super) fn strata_deciding_negations(strata: &[Stratum], rules: &[CompiledRule]) -> Vec<bool> {
    strata_deciding_negations_of(strata, rules, rules)
}

/// As [`strata_deciding_negations`], for the negations in `negating` (which may be more rules
/// than `strata` covers: a program's static part, negated by its dynamic rules too).
fn strata_deciding_negations_of(
    strata: &[Stratum],
    rules: &[CompiledRule],
    negating: &[CompiledRule],
) -> Vec<bool> {
    let mut strata_deriving: FxHashMap<RelKey, Vec<usize>> = FxHashMap::default();
    for (index, stratum) in strata.iter().enumerate() {
        for &rule in &stratum.rules {
            strata_deriving
                .entry(rules[rule].head.key())
                .or_default()
                .push(index);
        }
    }
    let deriving = |key: RelKey| strata_deriving.get(&key).into_iter().flatten().copied();
    let mut first = vec![false; strata.len()];
    let mut pending: Vec<usize> = negating
        .iter()
        .flat_map(|rule| &rule.body)
        .filter_map(|literal| match literal {
            CompiledLiteral::Negative(atom) => Some(atom.key()),
            _ => None,
        })
        .flat_map(deriving)
        .collect();
    while let Some(index) = pending.pop() {
        if strata[index].dynamic || std::mem::replace(&mut first[index], true) {
            continue;
        }
        for &rule in &strata[index].rules {
            for literal in &rules[rule].body {
                if let CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) = literal {
                    pending.extend(deriving(atom.key()));
                }
            }
        }
    }
    first
}

/// The relations of `rules` that depend, through any chain of rules, on `true` or `does`.
fn dynamic_relations(rules: &[CompiledRule], keywords: &Keywords) -> FxHashSet<RelKey> {
    let mut dynamic: FxHashSet<RelKey> = FxHashSet::default();
    loop {
        let mut changed = false;
        for rule in rules {
            if dynamic.contains(&rule.head.key()) {
                continue;
            }
            let reads_dynamic = rule.body.iter().any(|literal| match literal {
                CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) => {
                    atom.relation == keywords.true_
                        || atom.relation == keywords.does
                        || dynamic.contains(&atom.key())
                }
                _ => false,
            });
            if reads_dynamic {
                dynamic.insert(rule.head.key());
                changed = true;
            }
        }
        if !changed {
            return dynamic;
        }
    }
}

fn too_large(what: String) -> GdlError {
    GdlError::Budget(format!("the game is too large to ground: {what}"))
}

/// What [`Work::step`] and [`Grounding::add_fact`] say when the domain, not the instances of
/// the rules over it, is too large.
const TOO_MANY_STEPS: &str = "join steps";
const TOO_MANY_TERMS: &str = "ground terms";

/// Whether grounding failed because the domain is too large (too many ground terms, or too
/// many join steps finding it), rather than because the rules have too many instances over
/// it: the first calls for grounding on demand, the second for smaller rules.
pub(super) fn is_domain_too_large(error: &GdlError) -> bool {
    matches!(error, GdlError::Budget(message)
        if message.contains(TOO_MANY_STEPS) || message.contains(TOO_MANY_TERMS))
}

/// Says why [`GroundingLimits::stop_at_costly_joins`] stopped grounding.
const COSTLY_JOIN: &str = "to be grounded rewritten";

/// Whether grounding stopped at [`GroundingLimits::stop_at_costly_joins`] (for the tests: the
/// grounder treats it as running out of join steps).
#[cfg(test)]
pub(super) fn is_costly_join(error: &GdlError) -> bool {
    matches!(error, GdlError::Budget(message) if message.contains(COSTLY_JOIN))
}

/// Whether grounding stopped at [`GroundingLimits::max_steps`].
pub(super) fn is_out_of_steps(error: &GdlError) -> bool {
    matches!(error, GdlError::Budget(message) if message.contains(TOO_MANY_STEPS))
}

/// Receives each match of a join: the bindings and the ground atom of each body literal.
type Found<'a> = dyn FnMut(&[TermId], &[TermId]) -> Result<(), GdlError> + 'a;

/// What a join does with negative literals.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Assume they hold (the relaxed domain), but over an exact relation, decide them.
    Relaxed,
    /// Report their atom (or [`UNBOUND`] when outside the domain: always true); over an exact
    /// relation, decide them.
    Instantiate,
}

/// Grounds `program` within `limits`. The relations in `guards` (demand relations, see
/// [`super::demand`]) shape the domain but are left out of the ground rules.
pub(super) fn ground(
    program: &Program,
    rules: &[CompiledRule],
    guards: &FxHashSet<Sym>,
    limits: &GroundingLimits,
) -> Result<Grounding, GdlError> {
    let mut grounding = Grounding {
        terms: Terms::new(),
        in_domain: Vec::new(),
        position: Vec::new(),
        relations: FxHashMap::default(),
        exact: FxHashSet::default(),
        folded: FxHashSet::default(),
        pair_requests: RefCell::default(),
        rules: GroundRules {
            starts: vec![0],
            ..GroundRules::default()
        },
        steps: 0,
    };
    let mut work = Work {
        limits,
        steps: 0,
        probes: 0,
        terms_charged: 0,
    };
    let grounded = grounding
        .saturate_static_first(program, rules, guards, &mut work)
        .and_then(|()| grounding.instantiate(program, rules, guards, &mut work));
    work.charge_terms(grounding.terms.len());
    work.charge_the_rest();
    grounded?;
    grounding.steps = work.steps;
    grounding.release_join_indexes();
    Ok(grounding)
}

impl Grounding {
    /// Adds an atom to the domain; new `init`/`next` atoms add their `true` atom and new
    /// `legal` atoms their `does` atom. Returns whether it was new.
    fn add_fact(
        &mut self,
        program: &Program,
        atom: TermId,
        limits: &GroundingLimits,
    ) -> Result<(), GdlError> {
        let keywords = &program.keywords;
        let mut pending = vec![atom];
        while let Some(atom) = pending.pop() {
            if self.in_domain.len() <= atom as usize {
                self.in_domain.resize(self.terms.len(), false);
                self.position.resize(self.terms.len(), 0);
            }
            if self.in_domain[atom as usize] {
                continue;
            }
            self.in_domain[atom as usize] = true;
            let relation = self.terms.functor(atom);
            let args = self.terms.args(atom).to_vec();
            let entry = self.relations.entry((relation, args.len())).or_default();
            let position = entry.facts.len() as u32;
            entry.facts.push(atom);
            self.position[atom as usize] = position;
            entry.add_to_pair_indexes(&args, position);
            for (i, &arg) in args.iter().enumerate() {
                entry.add_to_index(argument_key(i), arg, position);
                let inner = self.terms.args(arg);
                let functor = self.terms.functor(arg);
                if let Some(key) = nested_key(i, functor, inner.len(), FUNCTOR_SLOT)
                    && !inner.is_empty()
                {
                    entry.add_to_index(key, 0, position);
                    for (j, &term) in inner.iter().enumerate() {
                        if let Some(key) = nested_key(i, functor, inner.len(), j) {
                            entry.add_to_index(key, term, position);
                        }
                    }
                }
            }
            let derived = match args.as_slice() {
                [fluent] if relation == keywords.next || relation == keywords.init => {
                    Some(self.terms.intern(keywords.true_, &[*fluent]))
                }
                [role, action] if relation == keywords.legal => {
                    Some(self.terms.intern(keywords.does, &[*role, *action]))
                }
                _ => None,
            };
            pending.extend(derived);
            if self.terms.len() > limits.max_terms {
                return Err(too_large(format!(
                    "more than {} {TOO_MANY_TERMS} (the last new atom of `{}`; the largest relations: {})",
                    limits.max_terms,
                    program.symbols.name(relation),
                    self.largest_relations(program)
                )));
            }
        }
        Ok(())
    }

    /// The relaxed fixpoint of `rules`. The static strata that some rule negates (and those
    /// they read) come first, each to its own fixpoint in evaluation order, marking the
    /// relations that come out exact; then all the other rules together.
    ///
    /// Only the negated strata go first because the order changes the cost of the joins: a
    /// relation complete before the dynamic rules start makes every round of their semi-naive
    /// fixpoint join its whole extent. gt_attrition's score rules (two `does` and a `sum` over a
    /// hundred numbers) took 12–89 M join steps a round so (more than 400 M in all), against
    /// about 1 M a round with `sum` growing alongside the scores.
    ///
    /// When the rules do not stratify (a rewriting may break it: a demand relation reads what
    /// reads a negated relation's reader), the static relations (those that depend on neither
    /// `true` nor `does`) still may: then the negated ones among them still come first, exact,
    /// and all the rest run together, relaxed. mummymaze1p on demand so decides its never-
    /// changing walls (read as a static relation, see [`super::constant`]), which keep its
    /// pieces on the board: assumed absent, they let the pieces walk along every number of
    /// the step counter. Relations are folded (see [`Grounding::fold_static`]) only when all
    /// the rules stratify.
    fn saturate_static_first(
        &mut self,
        program: &Program,
        rules: &[CompiledRule],
        guards: &FxHashSet<Sym>,
        work: &mut Work<'_>,
    ) -> Result<(), GdlError> {
        let Ok(stratified) = program.with_rules(program.symbols.clone(), rules.to_vec()) else {
            let instantiated = |rule: &CompiledRule| !guards.contains(&rule.head.relation);
            let dynamic = dynamic_relations(rules, &program.keywords);
            let (dynamic_rules, static_rules): (Vec<&CompiledRule>, Vec<&CompiledRule>) = rules
                .iter()
                .partition(|rule| dynamic.contains(&rule.head.key()));
            let static_rules: Vec<CompiledRule> = static_rules.into_iter().cloned().collect();
            let mut other_rules =
                match program.with_rules(program.symbols.clone(), static_rules.clone()) {
                    Ok(stratified) => {
                        let first =
                            strata_deciding_negations_of(&stratified.strata, &static_rules, rules);
                        self.saturate_negated_strata(
                            program,
                            &static_rules,
                            &stratified.strata,
                            &first,
                            rules,
                            work,
                        )?
                        .0
                    }
                    Err(_) => static_rules.iter().collect(),
                };
            other_rules.extend(dynamic_rules);
            return self.saturate(program, &other_rules, &instantiated, work);
        };
        // The rules sure to get ground instances: those of relations with a rule that depends
        // on the state or the moves (never folded, see `fold_static`), demand guards aside.
        let dynamic_heads: FxHashSet<RelKey> = stratified
            .strata
            .iter()
            .filter(|stratum| stratum.dynamic)
            .flat_map(|stratum| stratum.rules.iter().map(|&r| rules[r].head.key()))
            .collect();
        let instantiated = |rule: &CompiledRule| {
            dynamic_heads.contains(&rule.head.key()) && !guards.contains(&rule.head.relation)
        };
        let first = strata_deciding_negations(&stratified.strata, rules);
        let (other_rules, inexact) =
            self.saturate_negated_strata(program, rules, &stratified.strata, &first, rules, work)?;
        self.saturate(program, &other_rules, &instantiated, work)?;
        let mut unsound = inexact;
        unsound.extend(dynamic_heads);
        self.fold_static(program, rules, unsound);
        Ok(())
    }

    /// Saturates the strata of `rules` that `first` marks, each to its own fixpoint in
    /// evaluation order, and marks the relations that come out exact. Returns the rules of the
    /// other strata, and the relations some of whose derivations may include atoms that do not
    /// hold. `all_rules` (a superset of `rules`) say which relations some rule derives.
    fn saturate_negated_strata<'r>(
        &mut self,
        program: &Program,
        rules: &'r [CompiledRule],
        strata: &[Stratum],
        first: &[bool],
        all_rules: &[CompiledRule],
        work: &mut Work<'_>,
    ) -> Result<(Vec<&'r CompiledRule>, FxHashSet<RelKey>), GdlError> {
        let keywords = &program.keywords;
        let mut rules_left: FxHashMap<RelKey, usize> = FxHashMap::default();
        for rule in all_rules {
            *rules_left.entry(rule.head.key()).or_default() += 1;
        }
        let derived: FxHashSet<RelKey> = rules_left.keys().copied().collect();
        // A relation no rule derives (nor the state or the moves) has no atoms: exact.
        let empty = |key: RelKey| {
            !derived.contains(&key) && key.0 != keywords.true_ && key.0 != keywords.does
        };
        // Relations with a rule whose derivations may include atoms that do not hold.
        let mut inexact: FxHashSet<RelKey> = FxHashSet::default();
        let mut other_rules = Vec::new();
        for (stratum, &goes_first) in strata.iter().zip(first) {
            let members: Vec<&CompiledRule> = stratum.rules.iter().map(|&r| &rules[r]).collect();
            if !goes_first {
                other_rules.extend(members);
                continue;
            }
            // Exact derivations read only exact atoms: relations already exact, none at all,
            // or (positively) this stratum's own recursion over atoms derived exactly.
            let reads_exact = |key: RelKey, positive: bool| {
                self.exact.contains(&key)
                    || empty(key)
                    || (positive && stratum.relations.contains(&key) && !inexact.contains(&key))
            };
            let exact_derivations = members.iter().all(|rule| {
                rule.body.iter().all(|literal| match literal {
                    CompiledLiteral::Positive(atom) => reads_exact(atom.key(), true),
                    CompiledLiteral::Negative(atom) => reads_exact(atom.key(), false),
                    _ => true,
                })
            });
            // Nothing counted here: a match may rest on a negation assumed over a relation
            // not yet complete, which instantiation then decides against.
            self.saturate(program, &members, &|_| false, work)?;
            for rule in &members {
                let key = rule.head.key();
                if !exact_derivations {
                    inexact.insert(key);
                }
                let left = rules_left.get_mut(&key).expect("counted above");
                *left -= 1;
                if *left == 0 && !inexact.contains(&key) {
                    self.exact.insert(key);
                }
            }
        }
        Ok((other_rules, inexact))
    }

    /// Marks the game's static relations whose derivations were all sound as folded: every
    /// atom of theirs in the domain holds in every state. Their rules then get no ground
    /// instances and a positive literal over one is left out of the ground rules (it held to
    /// be matched). A game's arithmetic (gt_two_thirds' `absDiff`, `sum`, `lte` over hundreds
    /// of numbers) was otherwise most of its ground rules and grounding time, for gates the
    /// circuit folds to constants anyway.
    ///
    /// Unsound: a relation with a rule that depends on the state or the moves; one the first
    /// phase found `inexact` (a rule of it saturated before a relation it read was complete);
    /// one with a rule that negates a relation not exact (the negation was assumed) or reads
    /// an unsound one. A folded relation that some rule negates is therefore exact, and the
    /// negation decided while grounding.
    ///
    /// `unsound` comes with the first two kinds; the rest are found here.
    fn fold_static(
        &mut self,
        program: &Program,
        rules: &[CompiledRule],
        mut unsound: FxHashSet<RelKey>,
    ) {
        let keywords = program.keywords.relations();
        loop {
            let newly: Vec<RelKey> = rules
                .iter()
                .filter(|rule| !unsound.contains(&rule.head.key()))
                .filter(|rule| {
                    rule.body.iter().any(|literal| match literal {
                        CompiledLiteral::Positive(atom) => {
                            atom.key() != rule.head.key() && unsound.contains(&atom.key())
                        }
                        CompiledLiteral::Negative(atom) => !self.exact.contains(&atom.key()),
                        _ => false,
                    })
                })
                .map(|rule| rule.head.key())
                .collect();
            if newly.is_empty() {
                break;
            }
            unsound.extend(newly);
        }
        self.folded = rules
            .iter()
            .map(|rule| rule.head.key())
            .filter(|key| !unsound.contains(key) && !keywords.contains(&key.0))
            .collect();
    }

    /// The relaxed fixpoint, semi-naive: after the first round, a rule is joined once per
    /// positive literal whose relation grew in the last round, that literal reading only the
    /// new facts.
    ///
    /// A rule that `instantiated` says gets ground instances stops grounding as soon as its
    /// matches so far are sure to be more than [`GroundingLimits::max_ground_rules`]: the
    /// matches with one literal reading a round's new facts are distinct from those of any
    /// other round (that literal's fact differs), and each is an instance of the rule over the
    /// final domain (the negations decided here are decided alike there). gt_two_thirds_4p's `total`, a sum of four guesses in one body, stops so
    /// in its first attempt as written; it used to spend the attempt's 200 M join steps.
    fn saturate(
        &mut self,
        program: &Program,
        rules: &[&CompiledRule],
        instantiated: &dyn Fn(&CompiledRule) -> bool,
        work: &mut Work<'_>,
    ) -> Result<(), GdlError> {
        let limits = work.limits;
        let mut bindings_found: Vec<TermId> = Vec::new();
        let mut previous_sizes: FxHashMap<RelKey, u32> = FxHashMap::default();
        let mut first_round = true;
        // Per rule, per body literal: the matches so far with that literal reading new facts
        // (in the first round, every literal).
        let mut distinct_matches: Vec<Vec<usize>> =
            rules.iter().map(|rule| vec![0; rule.body.len()]).collect();
        loop {
            let sizes: FxHashMap<RelKey, u32> = self
                .relations
                .iter()
                .map(|(key, relation)| (*key, relation.facts.len() as u32))
                .collect();
            let delta = |key: &RelKey| -> Range<u32> {
                previous_sizes.get(key).copied().unwrap_or(0)..sizes.get(key).copied().unwrap_or(0)
            };
            let mut heads: Vec<TermId> = Vec::new();
            for (r, &rule) in rules.iter().enumerate() {
                let mut joins: Vec<Option<(usize, Range<u32>)>> = Vec::new();
                if first_round {
                    joins.push(None);
                } else {
                    for (i, literal) in rule.body.iter().enumerate() {
                        if let CompiledLiteral::Positive(atom) = literal {
                            let range = delta(&atom.key());
                            if !range.is_empty() {
                                joins.push(Some((i, range)));
                            }
                        }
                    }
                }
                for restriction in joins {
                    let restricted = restriction.as_ref().map(|(literal, _)| *literal);
                    let steps_before = work.steps;
                    bindings_found.clear();
                    let mut matches = 0usize;
                    self.join(
                        rule,
                        restriction,
                        Mode::Relaxed,
                        work,
                        &mut |bindings, _| {
                            // The matches are kept until the join ends (interning their heads
                            // needs the terms the join is reading), so their number is bounded
                            // here: a rule matching this often in one round would give more
                            // ground rules than the limit anyway, and collecting the matches of
                            // a runaway join first would take gigabytes.
                            matches += 1;
                            if matches > limits.max_ground_rules {
                                return Err(too_large(format!(
                                    "a rule for `{}` matches more than {} times",
                                    program.symbols.name(rule.head.relation),
                                    limits.max_ground_rules
                                )));
                            }
                            bindings_found.extend_from_slice(bindings);
                            Ok(())
                        },
                    )?;
                    let join_steps = work.steps - steps_before;
                    // Worded as a domain too large (join steps), so that the rewriting
                    // for that comes first: merrills grounds on demand.
                    if limits.stop_at_costly_joins
                        && join_steps >= COSTLY_JOIN_STEPS
                        && join_steps >= 1000 * matches.max(1) as u64
                    {
                        return Err(too_large(format!(
                            "a rule for `{}` took {join_steps} {TOO_MANY_STEPS} for {matches} matches in one round ({COSTLY_JOIN})",
                            program.symbols.name(rule.head.relation),
                        )));
                    }
                    if instantiated(rule) {
                        let counts = &mut distinct_matches[r];
                        match restricted {
                            Some(literal) => counts[literal] += matches,
                            None => counts.iter_mut().for_each(|count| *count += matches),
                        }
                        if counts.iter().any(|&count| count > limits.max_ground_rules) {
                            return Err(too_large(format!(
                                "more than {} ground rules (the instances of a rule for `{}` found so far)",
                                limits.max_ground_rules,
                                program.symbols.name(rule.head.relation)
                            )));
                        }
                    }
                    for m in 0..matches {
                        let bindings =
                            &bindings_found[m * rule.variables..(m + 1) * rule.variables];
                        heads.push(self.head_of(rule, bindings, limits)?);
                    }
                }
            }
            self.make_requested_pair_indexes();
            first_round = false;
            previous_sizes = sizes;
            let before = self.fact_count();
            for head in heads {
                self.add_fact(program, head, limits)?;
            }
            work.charge_terms(self.terms.len());
            work.check()?;
            if self.fact_count() == before {
                return Ok(());
            }
        }
    }

    /// The three relations with the most facts, with their sizes: where a domain blew up.
    fn largest_relations(&self, program: &Program) -> String {
        largest_three(self.relations.iter().map(|((relation, arity), facts)| {
            let name = program.symbols.name(*relation);
            (facts.facts.len(), format!("{name}/{arity}"))
        }))
    }

    fn fact_count(&self) -> usize {
        self.relations.values().map(|r| r.facts.len()).sum()
    }

    /// The head atom of `rule` under `bindings`, made if new, within the depth limit.
    fn head_of(
        &mut self,
        rule: &CompiledRule,
        bindings: &[TermId],
        limits: &GroundingLimits,
    ) -> Result<TermId, GdlError> {
        let head = intern_atom(
            &mut self.terms,
            &rule.head,
            bindings,
            &mut KeyScratch::new(),
        );
        if self.terms.depth(head) > limits.max_depth + 1 {
            return Err(too_large(format!(
                "terms nest more than {} levels deep (unbounded recursion through function terms?)",
                limits.max_depth
            )));
        }
        Ok(head)
    }

    /// Every rule over the final domain, as ground rules.
    fn instantiate(
        &mut self,
        program: &Program,
        program_rules: &[CompiledRule],
        guards: &FxHashSet<Sym>,
        work: &mut Work<'_>,
    ) -> Result<(), GdlError> {
        let limits = work.limits;
        let mut rules = std::mem::take(&mut self.rules);
        let mut key = KeyScratch::new();
        // Ground rules per rule written, to name the largest when the limit is passed.
        let mut per_rule: Vec<(usize, Sym)> = Vec::new();
        for rule in program_rules {
            if guards.contains(&rule.head.relation) || self.folded.contains(&rule.head.key()) {
                continue;
            }
            let first = rules.heads.len();
            let largest = |per_rule: &[(usize, Sym)], current: usize| {
                let name = |relation: Sym| program.symbols.name(relation).to_owned();
                largest_three(
                    per_rule
                        .iter()
                        .map(|&(count, relation)| (count, name(relation)))
                        .chain([(current, name(rule.head.relation))]),
                )
            };
            self.join(
                rule,
                None,
                Mode::Instantiate,
                work,
                &mut |bindings, atoms| {
                    let Some(head) = find_atom(&self.terms, &rule.head, bindings, &mut key) else {
                        return Err(GdlError::Build(
                            "grounding missed a rule's head (an engine fault)".to_owned(),
                        ));
                    };
                    rules.heads.push(head);
                    for (literal, &atom) in rule.body.iter().zip(atoms) {
                        match literal {
                            CompiledLiteral::Positive(read)
                                if guards.contains(&read.relation)
                                    || self.folded.contains(&read.key()) => {}
                            CompiledLiteral::Positive(_) => rules.literals.push(atom << 1),
                            CompiledLiteral::Negative(_) if atom != UNBOUND => {
                                rules.literals.push(atom << 1 | 1);
                            }
                            _ => {}
                        }
                    }
                    rules.starts.push(rules.literals.len() as u32);
                    if rules.heads.len() > limits.max_ground_rules {
                        return Err(too_large(format!(
                            "more than {} ground rules (the last for `{}`; the largest rules, by head: {})",
                            limits.max_ground_rules,
                            program.symbols.name(rule.head.relation),
                            largest(&per_rule, rules.heads.len() - first)
                        )));
                    }
                    if rules.literals.len() > limits.max_literals {
                        return Err(too_large(format!(
                            "more than {} literals in the ground rules",
                            limits.max_literals
                        )));
                    }
                    Ok(())
                },
            )?;
            per_rule.push((rules.heads.len() - first, rule.head.relation));
            let literals = rules.literals.len() - rules.starts[first] as usize;
            work.limits.work.charge(WorkKind::Literal, literals as u64);
            work.check()?;
            self.make_requested_pair_indexes();
        }
        self.rules = rules;
        Ok(())
    }
}

/// The three largest of `sizes` (a count and a name each), as "`name` count, …".
fn largest_three(sizes: impl Iterator<Item = (usize, String)>) -> String {
    let mut sizes: Vec<(usize, String)> = sizes.collect();
    sizes.sort_unstable_by_key(|(size, _)| std::cmp::Reverse(*size));
    sizes
        .iter()
        .take(3)
        .map(|(size, name)| format!("`{name}` {size}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where the candidates of a positive literal come from.
enum Source<'a> {
    /// Every fact of the relation.
    All,
    /// The positions of an argument index.
    List(&'a [u32]),
    /// The one fact a fully bound literal can be.
    One(u32),
}

/// The facts a positive literal may match at one level of a join.
struct Candidates<'a> {
    source: Source<'a>,
    /// Only positions in this range count (the whole relation, or the last round's delta).
    range: Range<u32>,
    cursor: usize,
}

impl Candidates<'_> {
    fn next(&mut self) -> Option<u32> {
        match self.source {
            Source::One(position) => {
                let first = self.cursor == 0;
                self.cursor = 1;
                Some(position).filter(|p| first && self.range.contains(p))
            }
            Source::List(list) => {
                while let Some(&position) = list.get(self.cursor) {
                    self.cursor += 1;
                    if position >= self.range.end {
                        return None;
                    }
                    if position >= self.range.start {
                        return Some(position);
                    }
                }
                None
            }
            Source::All => {
                let position = self.range.start + self.cursor as u32;
                if position < self.range.end {
                    self.cursor += 1;
                    Some(position)
                } else {
                    None
                }
            }
        }
    }
}

impl Grounding {
    /// Enumerates the matches of `rule`'s body against the domain. For each, `found` receives
    /// the bindings and, per body literal, the ground atom it stands for (the matched fact of a
    /// positive literal; in [`Mode::Instantiate`], a negative literal's atom or [`UNBOUND`] when
    /// that atom is outside the domain). `restriction` limits one positive literal to a range of
    /// its relation's facts.
    fn join(
        &self,
        rule: &CompiledRule,
        restriction: Option<(usize, Range<u32>)>,
        mode: Mode,
        work: &mut Work<'_>,
        found: &mut Found<'_>,
    ) -> Result<(), GdlError> {
        work.limits.work.charge(WorkKind::Join, 1);
        let body = &rule.body;
        // The literals in the order they are joined (`atoms` stays in the written order).
        let order = self.join_order(rule, restriction.as_ref());
        let mut bindings = vec![UNBOUND; rule.variables];
        let mut atoms = vec![UNBOUND; body.len()];
        let mut trail: Vec<usize> = Vec::new();
        let mut marks = vec![0usize; body.len() + 1];
        let mut levels: Vec<Option<Candidates<'_>>> = (0..=body.len()).map(|_| None).collect();
        let mut key = KeyScratch::new();
        let mut pending = Vec::new();
        let mut level = 0;
        // Whether the current level is entered afresh (else: backtracked into).
        let mut fresh = true;
        loop {
            if level == body.len() {
                work.step()?;
                found(&bindings, &atoms)?;
                if level == 0 {
                    return Ok(());
                }
                level -= 1;
                fresh = false;
                continue;
            }
            while trail.len() > marks[level] {
                let slot = trail.pop().expect("non-empty trail");
                bindings[slot] = UNBOUND;
            }
            let literal = order[level];
            let success = match &body[literal] {
                CompiledLiteral::Positive(atom) => {
                    let relation = self.relations.get(&atom.key());
                    if fresh {
                        work.probe()?;
                        levels[level] = relation.map(|relation| {
                            let mut range = 0..relation.facts.len() as u32;
                            if let Some((i, delta)) = &restriction
                                && *i == literal
                            {
                                range = delta.clone();
                            }
                            self.candidates(relation, atom, &bindings, range, &mut key)
                        });
                    }
                    let mut matched = false;
                    if let (Some(relation), Some(candidates)) = (relation, levels[level].as_mut()) {
                        while let Some(position) = candidates.next() {
                            work.step()?;
                            let fact = relation.facts[position as usize];
                            let fact_args = self.terms.args(fact);
                            let all = atom.args.iter().zip(fact_args).all(|(pattern, &arg)| {
                                match_pattern(
                                    &self.terms,
                                    pattern,
                                    arg,
                                    &mut bindings,
                                    &mut trail,
                                    &mut pending,
                                )
                            });
                            if all {
                                atoms[literal] = fact;
                                matched = true;
                                break;
                            }
                            while trail.len() > marks[level] {
                                let slot = trail.pop().expect("non-empty trail");
                                bindings[slot] = UNBOUND;
                            }
                        }
                    }
                    matched
                }
                test => {
                    work.step()?;
                    // A test succeeds at most once per entry into its level.
                    fresh
                        && match test {
                            CompiledLiteral::Distinct(a, b) => {
                                !instances_equal(&self.terms, a, b, &bindings)
                            }
                            CompiledLiteral::Equal(a, b) => {
                                instances_equal(&self.terms, a, b, &bindings)
                            }
                            CompiledLiteral::Negative(atom) => {
                                let exact = self.exact.contains(&atom.key());
                                let in_domain = (exact || mode == Mode::Instantiate)
                                    .then(|| find_atom(&self.terms, atom, &bindings, &mut key))
                                    .flatten()
                                    .filter(|&a| {
                                        self.in_domain.get(a as usize).copied().unwrap_or(false)
                                    });
                                if mode == Mode::Instantiate {
                                    atoms[literal] = in_domain.unwrap_or(UNBOUND);
                                }
                                // Over an exact relation, an atom in the domain holds in
                                // every state: the literal never does.
                                in_domain.is_none() || !exact
                            }
                            CompiledLiteral::Positive(_) => unreachable!("handled above"),
                        }
                }
            };
            if success {
                level += 1;
                marks[level] = trail.len();
                fresh = true;
            } else if level == 0 {
                return Ok(());
            } else {
                level -= 1;
                fresh = false;
            }
        }
    }

    /// The order in which to join `rule`'s body: the literal restricted to the last round's new
    /// facts first (semi-naive rounds then cost in proportion to what is new, not to the whole
    /// domain), then greedily the positive literal expected to match the fewest facts given the
    /// variables bound so far (a relation's size to the power of its share of unbound
    /// arguments: a fully bound literal is a membership test), each test as soon as its
    /// variables are bound. The written order breaks ties, so a body written well stays as is.
    fn join_order(
        &self,
        rule: &CompiledRule,
        restriction: Option<&(usize, Range<u32>)>,
    ) -> Vec<usize> {
        let body = &rule.body;
        let mut order = Vec::with_capacity(body.len());
        let mut placed = vec![false; body.len()];
        let mut bound = vec![false; rule.variables];
        let place = |i: usize, order: &mut Vec<usize>, placed: &mut [bool], bound: &mut [bool]| {
            order.push(i);
            placed[i] = true;
            if let CompiledLiteral::Positive(atom) = &body[i] {
                for arg in &atom.args {
                    for_each_var(arg, &mut |slot| bound[slot] = true);
                }
            }
        };
        if let Some((i, _)) = restriction {
            place(*i, &mut order, &mut placed, &mut bound);
        }
        while order.len() < body.len() {
            // Tests whose variables are all bound go first: they only prune.
            let ready_test = (0..body.len()).find(|&i| {
                !placed[i]
                    && !matches!(body[i], CompiledLiteral::Positive(_))
                    && literal_vars_bound(&body[i], &bound)
            });
            if let Some(i) = ready_test {
                place(i, &mut order, &mut placed, &mut bound);
                continue;
            }
            let cheapest = (0..body.len())
                .filter(|&i| !placed[i])
                .filter_map(|i| match &body[i] {
                    CompiledLiteral::Positive(atom) => {
                        Some((self.expected_matches(atom, &bound), i))
                    }
                    _ => None,
                })
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            // No positive literal left: the remaining tests in the written order (an unsafe
            // rule is refused before grounding, so their variables are bound by now).
            let next = cheapest.map_or_else(
                || {
                    (0..body.len())
                        .find(|&i| !placed[i])
                        .expect("a literal left")
                },
                |(_, i)| i,
            );
            place(next, &mut order, &mut placed, &mut bound);
        }
        order
    }

    /// How many facts a positive literal is expected to match when the `bound` variables are
    /// known: its relation's size, divided at each known argument (top-level, or inside a
    /// function-term argument) by the number of distinct terms there, as if the arguments were
    /// independent; a function-term argument first narrows to the facts with its functor. A
    /// fully known literal is a membership test: at most one.
    fn expected_matches(&self, atom: &PatternAtom, bound: &[bool]) -> f64 {
        let Some(relation) = self.relations.get(&atom.key()) else {
            return 0.0;
        };
        let size = relation.facts.len() as f64;
        let known = |pattern: &Pattern| {
            let mut all = true;
            for_each_var(pattern, &mut |slot| all &= bound[slot]);
            all
        };
        if atom.args.iter().all(known) {
            return size.min(1.0);
        }
        let mut expected = size;
        for (i, arg) in atom.args.iter().enumerate() {
            if known(arg) {
                expected /= relation.distinct_at(argument_key(i));
            } else if let Pattern::Func(functor, inner) = arg
                && let Some(key) = nested_key(i, *functor, inner.len(), FUNCTOR_SLOT)
                && !inner.is_empty()
            {
                expected *= relation.list(key, 0).len() as f64 / size.max(1.0);
                for (j, pattern) in inner.iter().enumerate() {
                    if known(pattern)
                        && let Some(key) = nested_key(i, *functor, inner.len(), j)
                    {
                        expected /= relation.distinct_at(key);
                    }
                }
            }
        }
        expected
    }

    /// The candidate facts for a positive literal: through the shortest index list among its
    /// arguments that are ground under the bindings, else every fact.
    fn candidates<'a>(
        &'a self,
        relation: &'a Relation,
        atom: &PatternAtom,
        bindings: &[TermId],
        range: Range<u32>,
        key: &mut KeyScratch,
    ) -> Candidates<'a> {
        if atom.args.iter().all(|arg| pattern_bound(arg, bindings)) {
            // A membership test: the atom itself, if it exists and is in the domain.
            let source = match find_atom(&self.terms, atom, bindings, key) {
                Some(fact) if self.in_domain.get(fact as usize).copied().unwrap_or(false) => {
                    Source::One(self.position[fact as usize])
                }
                _ => Source::List(&[]),
            };
            return Candidates {
                source,
                range,
                cursor: 0,
            };
        }
        let best: Cell<Option<&'a [u32]>> = Cell::new(None);
        let consider = |list: &'a [u32]| {
            if best.get().is_none_or(|b| list.len() < b.len()) {
                best.set(Some(list));
            }
        };
        // The facts with `pattern`'s instance at `key` (none when that term does not exist).
        let mut facts_with = |index_key: IndexKey, pattern: &Pattern| -> &'a [u32] {
            find_instance(&self.terms, pattern, bindings, key)
                .map_or(&[], |term| relation.list(index_key, term))
        };
        for (i, arg) in atom.args.iter().enumerate() {
            match arg {
                Pattern::Var(slot) if bindings[*slot] == UNBOUND => {}
                Pattern::Func(functor, inner) if !pattern_bound(arg, bindings) => {
                    // Partly known: narrow by the functor and by each known inner argument.
                    let Some(functor_key) = nested_key(i, *functor, inner.len(), FUNCTOR_SLOT)
                    else {
                        continue;
                    };
                    if inner.is_empty() {
                        continue;
                    }
                    consider(relation.list(functor_key, 0));
                    for (j, pattern) in inner.iter().enumerate() {
                        if pattern_bound(pattern, bindings)
                            && let Some(key) = nested_key(i, *functor, inner.len(), j)
                        {
                            consider(facts_with(key, pattern));
                        }
                    }
                }
                _ => consider(facts_with(argument_key(i), arg)),
            }
        }
        if best.get().is_some_and(|list| list.len() > PAIR_INDEX_WORTH) {
            self.narrow_by_a_pair(relation, atom, bindings, key, &consider);
        }
        Candidates {
            source: best.get().map_or(Source::All, Source::List),
            range,
            cursor: 0,
        }
    }
}

impl Grounding {
    /// Offers `consider` the list of a pair index on two known top-level arguments of `atom`;
    /// when the relation has none on any two of them, asks for one on the two whose own lists
    /// are shortest.
    fn narrow_by_a_pair<'a>(
        &'a self,
        relation: &'a Relation,
        atom: &PatternAtom,
        bindings: &[TermId],
        key: &mut KeyScratch,
        consider: &impl Fn(&'a [u32]),
    ) {
        // (argument, its term, the length of its own list)
        let mut known: Vec<(usize, TermId, usize)> = Vec::new();
        for (i, arg) in atom.args.iter().enumerate() {
            if pattern_bound(arg, bindings) {
                let Some(term) = find_instance(&self.terms, arg, bindings, key) else {
                    consider(&[]);
                    return;
                };
                known.push((i, term, relation.list(argument_key(i), term).len()));
            }
        }
        if known.len() < 2 {
            return;
        }
        let term_at = |argument: usize| known.iter().find(|k| k.0 == argument).map(|k| k.1);
        let mut indexed = false;
        for pair in &relation.pairs {
            let (i, j) = pair.arguments;
            if let (Some(a), Some(b)) = (term_at(i), term_at(j)) {
                indexed = true;
                consider(pair.lists.get(&(a, b)).map_or(&[], Vec::as_slice));
            }
        }
        if !indexed {
            known.sort_by_key(|k| k.2);
            let (i, j) = (known[0].0.min(known[1].0), known[0].0.max(known[1].0));
            let request = (atom.key(), (i, j));
            let mut requests = self.pair_requests.borrow_mut();
            if !requests.contains(&request) {
                requests.push(request);
            }
        }
    }

    /// Makes the pair indexes joins asked for since the last call, from the facts so far
    /// ([`Relation::add_to_pair_indexes`] keeps them up to date after).
    fn make_requested_pair_indexes(&mut self) {
        let requests = std::mem::take(self.pair_requests.get_mut());
        for (relation_key, arguments) in requests {
            let Some(relation) = self.relations.get_mut(&relation_key) else {
                continue;
            };
            if relation
                .pairs
                .iter()
                .any(|pair| pair.arguments == arguments)
            {
                continue;
            }
            let mut lists: FxHashMap<(TermId, TermId), Vec<u32>> = FxHashMap::default();
            for (position, &fact) in relation.facts.iter().enumerate() {
                let args = self.terms.args(fact);
                lists
                    .entry((args[arguments.0], args[arguments.1]))
                    .or_default()
                    .push(position as u32);
            }
            relation.pairs.push(PairIndex { arguments, lists });
        }
    }
}

/// Whether every variable of a literal is among the `bound` ones.
fn literal_vars_bound(literal: &CompiledLiteral, bound: &[bool]) -> bool {
    let mut all = true;
    for_each_literal_var(literal, &mut |slot| all &= bound[slot]);
    all
}

/// Whether every variable of `pattern` is bound.
fn pattern_bound(pattern: &Pattern, bindings: &[TermId]) -> bool {
    let mut pending = vec![pattern];
    while let Some(pattern) = pending.pop() {
        match pattern {
            Pattern::Const(_) => {}
            Pattern::Var(slot) => {
                if bindings[*slot] == UNBOUND {
                    return false;
                }
            }
            Pattern::Func(_, args) => pending.extend(args),
        }
    }
    true
}

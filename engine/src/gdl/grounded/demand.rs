//! Grounding driven by demand: a relation is grounded only for the arguments its readers can
//! ask about.
//!
//! The relaxed domain grounds every relation bottom-up, over everything its rules can derive.
//! A helper relation is often read only with some arguments known: crissrace's
//! `(count ?x ?y ?z ?w ?player ?payoff)` is asked about two fixed rows of four cells, yet its
//! rules, grounded bottom-up, derive it for every four cells of the board (hundreds of
//! thousands of atoms). This is the magic-set rewriting of deductive databases, applied to
//! the relaxed domain: each such relation `r` gets a demand relation over the argument places
//! known at every place `r` is read, derived from what the reading rule knows just before it
//! reads `r`, and every rule for `r` first reads that demand.
//!
//! Only the domain changes. An atom of `r` outside it is never read by any ground rule that
//! survives (its readers' other literals are all in the domain, so the demand rule made the
//! atom demanded), and a demanded atom is derived by every ground rule that derived it before.
//! So the ground rules of the demanded atoms are the same as without demand, and the demand
//! relations themselves are left out of the ground rules (`Grounding` drops them when it
//! instantiates): the circuit computes exactly what it did, over fewer atoms.

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::program::{
    CompiledLiteral, CompiledRule, Keywords, Pattern, PatternAtom, RelKey, Sym, Symbols,
};
use super::factor::{factor, for_each_var};

/// The rules rewritten for demand, and the demand relations among their heads.
pub(in crate::gdl) struct Demanded {
    pub rules: Vec<CompiledRule>,
    pub guards: FxHashSet<Sym>,
}

/// The rules with every relation that is always read with some argument places known guarded
/// by its demand; `None` when no relation is (the rewriting would change nothing).
///
/// Only relations for which `guardable` holds get a demand. The interpreter keeps the
/// relations it evaluates once per game (those not reading the state) unguarded: a demand
/// derived from the state would make them per-state work.
///
/// The rewriting is also exact for the interpreter's stratified evaluation (the magic-set
/// theorem): every fact a rule body reads, positively or under `not`, is demanded, and a
/// demanded fact is derived exactly when it was before, since its rules are unchanged but
/// for the guard. The caller must check that the rewritten rules still stratify.
///
/// A demand rule reads what its reader knew before the read, but for negated literals: the
/// relaxed domain cannot decide them. Those of relations for which `complete_first` holds
/// (the interpreter's state and moves, and the static relations it evaluates first) are kept:
/// a reader whose earlier `(not (true (step 3)))` fails needs nothing after it, and without
/// them ruleDepthExponential's chain of `prereq` relations is demanded 2²⁰ deep in every state.
pub(in crate::gdl) fn demand(
    rules: &[CompiledRule],
    keywords: &Keywords,
    symbols: &mut Symbols,
    guardable: &dyn Fn(RelKey) -> bool,
    complete_first: &dyn Fn(RelKey) -> bool,
) -> Option<Demanded> {
    let known_places = known_places(rules, keywords, symbols, guardable);
    let mut guard_of: FxHashMap<RelKey, (Sym, u64)> = FxHashMap::default();
    let mut guards = FxHashSet::default();
    let mut keys: Vec<&RelKey> = known_places.keys().collect();
    keys.sort_unstable_by_key(|key| (key.0.0, key.1));
    for key in keys {
        let mask = known_places[key];
        if mask != 0 {
            let name = format!("demand for {}/{}", symbols.name(key.0), key.1);
            let guard = symbols.intern(&name);
            guards.insert(guard);
            guard_of.insert(*key, (guard, mask));
        }
    }
    if guard_of.is_empty() {
        return None;
    }
    let guard_atom = |atom: &PatternAtom| -> Option<PatternAtom> {
        let &(relation, mask) = guard_of.get(&atom.key())?;
        Some(PatternAtom {
            relation,
            args: atom
                .args
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, arg)| arg.clone())
                .collect(),
        })
    };
    let mut guarded = Vec::with_capacity(rules.len());
    let mut demand_rules = Vec::new();
    for rule in rules {
        let head_guard = guard_atom(&rule.head).map(CompiledLiteral::Positive);
        // Each read of a guarded relation: demanded when what the rule knows before it holds.
        for (k, literal) in rule.body.iter().enumerate() {
            let (CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom)) = literal
            else {
                continue;
            };
            let Some(head) = guard_atom(atom) else {
                continue;
            };
            let body = head_guard
                .iter()
                .chain(rule.body[..k].iter().filter(|l| match l {
                    CompiledLiteral::Negative(atom) => complete_first(atom.key()),
                    _ => true,
                }))
                .cloned()
                .collect();
            demand_rules.push(CompiledRule {
                head,
                body,
                variables: rule.variables,
            });
        }
        guarded.push(CompiledRule {
            head: rule.head.clone(),
            body: head_guard
                .into_iter()
                .chain(rule.body.iter().cloned())
                .collect(),
            variables: rule.variables,
        });
    }
    // A demand rule reads everything its reader knew, much of it beside the point: the
    // move in `(does ?p (play ?x1 ?y1 ?x2 ?y2 ?x3 ?y3))` when only `?x1 ?y1` are demanded.
    // Factored, the parts it needs are projected first, so that it has one match per demanded
    // atom rather than one per combination of everything it read; the projections are demand
    // relations too, left out of the ground rules.
    let demand_rules = factor(&demand_rules, symbols);
    guards.extend(demand_rules.iter().map(|rule| rule.head.relation));
    guarded.extend(demand_rules);
    Some(Demanded {
        rules: guarded,
        guards,
    })
}

/// Per relation that rules derive (not a keyword's, which the game reads whole, nor one of
/// facts only), the argument places known wherever it is read, as a bit mask. A place is known
/// at a read when its variables are bound by the reading rule's positive literals before it or
/// by the known places of that rule's head: a greatest fixpoint, since a head's known places
/// depend on where it is read in turn.
fn known_places(
    rules: &[CompiledRule],
    keywords: &Keywords,
    symbols: &Symbols,
    guardable: &dyn Fn(RelKey) -> bool,
) -> FxHashMap<RelKey, u64> {
    let mut roots = keywords.relations().to_vec();
    roots.extend(
        ["base", "input"]
            .iter()
            .filter_map(|name| symbols.get(name)),
    );
    let mut known: FxHashMap<RelKey, u64> = FxHashMap::default();
    for rule in rules {
        let arity = rule.head.args.len();
        if !rule.body.is_empty()
            && (1..=64).contains(&arity)
            && !roots.contains(&rule.head.relation)
            && guardable(rule.head.key())
        {
            known.insert(rule.head.key(), u64::MAX >> (64 - arity));
        }
    }
    loop {
        let mut changed = false;
        for rule in rules {
            let mut bound = vec![false; rule.variables];
            if let Some(&mask) = known.get(&rule.head.key()) {
                for (i, arg) in rule.head.args.iter().enumerate() {
                    if mask >> i & 1 == 1 {
                        for_each_var(arg, &mut |slot| bound[slot] = true);
                    }
                }
            }
            for literal in &rule.body {
                let (CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom)) = literal
                else {
                    continue;
                };
                if let Some(mask) = known.get_mut(&atom.key()) {
                    let at_this_read = places_bound(&atom.args, &bound);
                    if *mask & !at_this_read != 0 {
                        *mask &= at_this_read;
                        changed = true;
                    }
                }
                if let CompiledLiteral::Positive(atom) = literal {
                    for arg in &atom.args {
                        for_each_var(arg, &mut |slot| bound[slot] = true);
                    }
                }
            }
        }
        if !changed {
            return known;
        }
    }
}

/// The argument places whose variables are all bound, as a bit mask.
fn places_bound(args: &[Pattern], bound: &[bool]) -> u64 {
    let mut mask = 0;
    for (i, arg) in args.iter().enumerate().take(64) {
        let mut all = true;
        for_each_var(arg, &mut |slot| all &= bound[slot]);
        if all {
            mask |= 1 << i;
        }
    }
    mask
}

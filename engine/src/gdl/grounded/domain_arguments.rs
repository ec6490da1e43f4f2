//! Arguments that only say "a member of a fixed domain", dropped before grounding.
//!
//! ruleDepthExponential's relations pass bits along and never look at them:
//!
//! ```text
//! (<= (prereq3 ?b2 ?b1 ?b0) (bit ?b2) (bit ?b1) (bit ?b0) (true (step 3)))
//! (<= (prereq3 ?b2 ?b1 ?b0) (not (true (step 3))) (prereq4 ?b2 ?b1 ?b0 0) (prereq4 ?b2 ?b1 ?b0 1))
//! ```
//!
//! `prereqN` holds for every tuple of bits or for none, but grounded as written it has 2^N
//! atoms, and the game's twenty such relations pass any grounding limit. Such an argument
//! position is a *domain argument*: in every rule of the relation, the head's variable there
//! occurs once in the head and, in the body, only in guards (positive literals of a unary
//! relation given by constant facts, such as `bit`, over the bare variable) and in domain
//! arguments already decided; and every rule gives that variable the same set of values, its
//! domain. Then `p(…, t, …)` holds exactly when `t` is in the domain and `p` with that argument
//! left out holds: by induction over derivations, given the same claim for the domain arguments
//! the rule reads (decided before it, so the claims do not go round in a circle), each rule's
//! body is the guards on the variable and a body that does not mention it.
//!
//! So the position is dropped: from the heads, and from every literal over `p`. There a
//! variable keeps the guards of one rule (their intersection is the domain), a constant outside
//! the domain makes the literal false, and a constant inside is simply dropped. A negative
//! literal must have a constant there: `(not (p ?x))` cannot be split so. Relations in
//! recursion keep their arguments, and so do the keywords.
//!
//! A variable left only in guards (the dropped head variable of a rule) says "some member of
//! the guards' intersection exists"; the guards go, or the rule when the intersection is empty.
//!
//! The rewriting comes before every grounding attempt, so a grounding error may name a reduced
//! relation (`prereq18 without its domain arguments 1, 2, …`).

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::program::{
    CompiledLiteral, CompiledRule, Keywords, Pattern, PatternAtom, RelKey, Stratum, Sym, Symbols,
};
use super::factor::{for_each_literal_var, for_each_var, map_literal, renumbered};

/// The values a domain argument may take, and the guard relations whose intersection they are.
#[derive(Debug)]
struct Domain {
    values: FxHashSet<Sym>,
    guards: Vec<Sym>,
}

/// `program`'s rules with every domain argument dropped (see the module's documentation); the
/// rules unchanged when there is none. Relations that lose arguments get new names (interned in
/// `symbols`), so that no reduced relation takes the name and arity of another.
pub(super) fn drop_domain_arguments(
    rules: &[CompiledRule],
    strata: &[Stratum],
    keywords: &Keywords,
    symbols: &mut Symbols,
) -> Vec<CompiledRule> {
    let keywords = keywords_of(keywords, symbols);
    let guards = guard_relations(rules, &keywords);
    // Positions a negative literal reads with a variable (or compound term) cannot be dropped.
    let mut pinned: FxHashSet<(RelKey, usize)> = FxHashSet::default();
    for rule in rules {
        for literal in &rule.body {
            if let CompiledLiteral::Negative(atom) = literal {
                for (position, arg) in atom.args.iter().enumerate() {
                    if !matches!(arg, Pattern::Const(_)) {
                        pinned.insert((atom.key(), position));
                    }
                }
            }
        }
    }
    let mut relations: FxHashMap<RelKey, (bool, Vec<usize>)> = FxHashMap::default();
    for stratum in strata {
        for key in &stratum.relations {
            relations.entry(*key).or_default().0 |= stratum.recursive;
        }
    }
    for (index, rule) in rules.iter().enumerate() {
        if let Some(entry) = relations.get_mut(&rule.head.key()) {
            entry.1.push(index);
        }
    }
    let mut candidates: Vec<RelKey> = relations
        .iter()
        .filter(|(key, (recursive, _))| {
            !recursive && !keywords.contains(&key.0) && !guards.contains_key(*key)
        })
        .map(|(key, _)| *key)
        .collect();
    candidates.sort_unstable();
    // A domain is decided from the domains known so far, and final once known; a position whose
    // rules read a position not yet decided is tried again in the next pass. (Strata are per
    // group of rules, so no order of the relations settles what each reads first.)
    let mut domains: FxHashMap<(RelKey, usize), Domain> = FxHashMap::default();
    loop {
        let known = domains.len();
        for &key in &candidates {
            let defining = &relations[&key].1;
            for position in 0..key.1 {
                if pinned.contains(&(key, position)) || domains.contains_key(&(key, position)) {
                    continue;
                }
                let mut agreed: Option<Domain> = None;
                for &index in defining {
                    let Some(domain) = rule_domain(&rules[index], position, &guards, &domains)
                    else {
                        agreed = None;
                        break;
                    };
                    match &agreed {
                        Some(first) if first.values != domain.values => {
                            agreed = None;
                            break;
                        }
                        Some(_) => {}
                        None => agreed = Some(domain),
                    }
                }
                if let Some(domain) = agreed {
                    domains.insert((key, position), domain);
                }
            }
        }
        if domains.len() == known {
            break;
        }
    }
    if domains.is_empty() {
        return rules.to_vec();
    }
    let renamed = reduced_relations(&domains, symbols);
    rules
        .iter()
        .filter_map(|rule| reduced_rule(rule, &domains, &renamed, &guards))
        .collect()
}

/// The keyword relations (and `base` and `input`), whose arguments the game's players read.
fn keywords_of(keywords: &Keywords, symbols: &Symbols) -> FxHashSet<Sym> {
    let mut fixed: FxHashSet<Sym> = [
        keywords.role,
        keywords.init,
        keywords.true_,
        keywords.does,
        keywords.next,
        keywords.legal,
        keywords.goal,
        keywords.terminal,
        keywords.sees,
    ]
    .into_iter()
    .collect();
    fixed.extend(
        ["base", "input"]
            .iter()
            .filter_map(|name| symbols.get(name)),
    );
    fixed
}

/// The unary relations given only by facts with a constant argument (not keywords), each with
/// its constants.
fn guard_relations(
    rules: &[CompiledRule],
    keywords: &FxHashSet<Sym>,
) -> FxHashMap<RelKey, FxHashSet<Sym>> {
    let mut guards: FxHashMap<RelKey, FxHashSet<Sym>> = FxHashMap::default();
    let mut refused: FxHashSet<RelKey> = FxHashSet::default();
    for rule in rules {
        let key = rule.head.key();
        if key.1 != 1 || keywords.contains(&key.0) {
            continue;
        }
        match (&rule.head.args[0], rule.body.is_empty()) {
            (Pattern::Const(value), true) => {
                guards.entry(key).or_default().insert(*value);
            }
            _ => {
                refused.insert(key);
            }
        }
    }
    guards.retain(|key, _| !refused.contains(key));
    guards
}

/// The domain `rule` gives its head's argument at `position`, when that argument is a domain
/// argument of the rule: a variable occurring once in the head and, in the body, only in guards
/// and in known domain arguments (once per literal), at least once.
fn rule_domain(
    rule: &CompiledRule,
    position: usize,
    guards: &FxHashMap<RelKey, FxHashSet<Sym>>,
    domains: &FxHashMap<(RelKey, usize), Domain>,
) -> Option<Domain> {
    let Pattern::Var(var) = rule.head.args[position] else {
        return None;
    };
    let in_head = rule
        .head
        .args
        .iter()
        .map(|arg| occurrences(arg, var))
        .sum::<usize>();
    if in_head != 1 {
        return None;
    }
    let mut values: Option<FxHashSet<Sym>> = None;
    let mut guard_list: Vec<Sym> = Vec::new();
    let mut narrow = |allowed: &FxHashSet<Sym>| {
        values = Some(match values.take() {
            None => allowed.clone(),
            Some(known) => known.intersection(allowed).copied().collect(),
        });
    };
    for literal in &rule.body {
        let mut count = 0;
        for_each_literal_var(literal, &mut |slot| count += usize::from(slot == var));
        if count == 0 {
            continue;
        }
        let CompiledLiteral::Positive(atom) = literal else {
            return None;
        };
        if count != 1 {
            return None;
        }
        if let Some(allowed) = guards.get(&atom.key()) {
            if atom.args != [Pattern::Var(var)] {
                return None;
            }
            narrow(allowed);
            guard_list.push(atom.relation);
            continue;
        }
        let at = atom.args.iter().position(|arg| *arg == Pattern::Var(var))?;
        let domain = domains.get(&(atom.key(), at))?;
        narrow(&domain.values);
        guard_list.extend(&domain.guards);
    }
    let values = values.filter(|values| !values.is_empty())?;
    guard_list.sort_unstable();
    guard_list.dedup();
    Some(Domain {
        values,
        guards: guard_list,
    })
}

fn occurrences(pattern: &Pattern, var: usize) -> usize {
    let mut count = 0;
    for_each_var(pattern, &mut |slot| count += usize::from(slot == var));
    count
}

/// Per relation that loses arguments: its new name and the positions it keeps.
type Renamed = FxHashMap<RelKey, (Sym, Vec<usize>)>;

fn reduced_relations(
    domains: &FxHashMap<(RelKey, usize), Domain>,
    symbols: &mut Symbols,
) -> Renamed {
    let mut dropped: FxHashMap<RelKey, Vec<usize>> = FxHashMap::default();
    for &(key, position) in domains.keys() {
        dropped.entry(key).or_default().push(position);
    }
    dropped
        .into_iter()
        .map(|(key, mut positions)| {
            positions.sort_unstable();
            let shown: Vec<String> = positions.iter().map(|p| (p + 1).to_string()).collect();
            let name = format!(
                "{} without its domain arguments {}",
                symbols.name(key.0),
                shown.join(", ")
            );
            let kept = (0..key.1).filter(|p| !positions.contains(p)).collect();
            (key, (symbols.intern(&name), kept))
        })
        .collect()
}

/// `rule` over the reduced relations; `None` when its body can never hold.
fn reduced_rule(
    rule: &CompiledRule,
    domains: &FxHashMap<(RelKey, usize), Domain>,
    renamed: &Renamed,
    guards: &FxHashMap<RelKey, FxHashSet<Sym>>,
) -> Option<CompiledRule> {
    let reduce = |atom: &PatternAtom| -> Option<PatternAtom> {
        let (relation, kept) = renamed.get(&atom.key())?;
        Some(PatternAtom {
            relation: *relation,
            args: kept.iter().map(|&p| atom.args[p].clone()).collect(),
        })
    };
    let mut changed = false;
    let head = match reduce(&rule.head) {
        Some(head) => {
            changed = true;
            head
        }
        None => rule.head.clone(),
    };
    let mut body: Vec<CompiledLiteral> = Vec::with_capacity(rule.body.len());
    for literal in &rule.body {
        let (atom, positive) = match literal {
            CompiledLiteral::Positive(atom) => (atom, true),
            CompiledLiteral::Negative(atom) => (atom, false),
            _ => {
                body.push(literal.clone());
                continue;
            }
        };
        let Some(reduced) = reduce(atom) else {
            body.push(literal.clone());
            continue;
        };
        changed = true;
        let mut holds = true;
        let mut kept_guards: Vec<CompiledLiteral> = Vec::new();
        for (position, arg) in atom.args.iter().enumerate() {
            let Some(domain) = domains.get(&(atom.key(), position)) else {
                continue;
            };
            match arg {
                Pattern::Const(value) => holds &= domain.values.contains(value),
                // Only positive literals read a domain argument with a variable (`pinned`).
                Pattern::Var(_) => kept_guards.extend(domain.guards.iter().map(|&guard| {
                    CompiledLiteral::Positive(PatternAtom {
                        relation: guard,
                        args: vec![arg.clone()],
                    })
                })),
                Pattern::Func(..) => holds = false,
            }
        }
        match (positive, holds) {
            (true, true) => {
                body.push(CompiledLiteral::Positive(reduced));
                for guard in kept_guards {
                    if !body.contains(&guard) {
                        body.push(guard);
                    }
                }
            }
            (true, false) => return None,
            (false, true) => body.push(CompiledLiteral::Negative(reduced)),
            // `(not (p … c …))` with `c` outside the domain always holds.
            (false, false) => {}
        }
    }
    if !changed {
        return Some(rule.clone());
    }
    let body = without_guard_only_variables(&head, body, guards)?;
    Some(compacted(CompiledRule {
        head,
        body,
        variables: rule.variables,
    }))
}

/// `body` without the guards of variables that occur nowhere else (in it or in `head`): they
/// only say that the guards' intersection is not empty. `None` when it is empty.
fn without_guard_only_variables(
    head: &PatternAtom,
    body: Vec<CompiledLiteral>,
    guards: &FxHashMap<RelKey, FxHashSet<Sym>>,
) -> Option<Vec<CompiledLiteral>> {
    let guard_var = |literal: &CompiledLiteral| match literal {
        CompiledLiteral::Positive(atom) => match (guards.get(&atom.key()), atom.args.as_slice()) {
            (Some(values), [Pattern::Var(var)]) => Some((*var, values)),
            _ => None,
        },
        _ => None,
    };
    let mut elsewhere: FxHashSet<usize> = FxHashSet::default();
    for arg in &head.args {
        for_each_var(arg, &mut |slot| {
            elsewhere.insert(slot);
        });
    }
    for literal in body.iter().filter(|literal| guard_var(literal).is_none()) {
        for_each_literal_var(literal, &mut |slot| {
            elsewhere.insert(slot);
        });
    }
    let mut only_guarded: FxHashMap<usize, FxHashSet<Sym>> = FxHashMap::default();
    for (var, values) in body.iter().filter_map(guard_var) {
        if elsewhere.contains(&var) {
            continue;
        }
        let entry = only_guarded.entry(var).or_insert_with(|| values.clone());
        entry.retain(|value| values.contains(value));
    }
    if only_guarded.values().any(FxHashSet::is_empty) {
        return None;
    }
    Some(
        body.into_iter()
            .filter(|literal| guard_var(literal).is_none_or(|(var, _)| elsewhere.contains(&var)))
            .collect(),
    )
}

/// `rule` with its variables numbered densely in order of first occurrence.
fn compacted(rule: CompiledRule) -> CompiledRule {
    let mut renumber: Vec<Option<usize>> = vec![None; rule.variables];
    let mut next = 0;
    let mut visit = |slot: usize| {
        if renumber[slot].is_none() {
            renumber[slot] = Some(next);
            next += 1;
        }
    };
    for arg in &rule.head.args {
        for_each_var(arg, &mut visit);
    }
    for literal in &rule.body {
        for_each_literal_var(literal, &mut visit);
    }
    let map = |pattern: &Pattern| renumbered(pattern, &renumber);
    CompiledRule {
        head: PatternAtom {
            relation: rule.head.relation,
            args: rule.head.args.iter().map(map).collect(),
        },
        body: rule
            .body
            .iter()
            .map(|literal| map_literal(literal, &map))
            .collect(),
        variables: next,
    }
}

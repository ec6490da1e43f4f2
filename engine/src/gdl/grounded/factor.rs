//! Splitting rule bodies before grounding, so that the ground circuit stays small.
//!
//! A body's literals that share variables not in the head form independent parts: in the usual
//! frame rule `(<= (next (cell ?x ?y ?s)) (true (cell ?x ?y ?s)) (does ?p (move ?a ?b ?c ?d))
//! (distinctCell ?a ?b ?x ?y) ...)` the move's variables occur nowhere else, so the rule holds
//! when the cell holds *and some* move leaves it alone. Grounded as written, the rule has one
//! instance per cell and move; with the part about the move given its own relation
//! `aux(?x, ?y)` (the "interface" variables it shares with the head), there is one instance of
//! the aux rule per square and move and one of the frame rule per cell: the product becomes a
//! sum, and the evaluator touches far fewer rules when a move changes.

use super::super::program::{
    CompiledLiteral, CompiledRule, Pattern, PatternAtom, RelKey, Sym, Symbols,
};
use rustc_hash::FxHashSet;

/// The rules with independent body parts moved into auxiliary relations.
pub(super) fn factor(rules: &[CompiledRule], symbols: &mut Symbols) -> Vec<CompiledRule> {
    let fixed = static_relations(rules, symbols);
    let mut factored = Vec::with_capacity(rules.len());
    for rule in rules {
        if fixed.contains(&rule.head.key()) {
            factored.push(rule.clone());
        } else {
            split(rule, symbols, &mut factored);
        }
    }
    factored
}

fn split(rule: &CompiledRule, symbols: &mut Symbols, out: &mut Vec<CompiledRule>) {
    let mut in_head = vec![false; rule.variables];
    for arg in &rule.head.args {
        for_each_var(arg, &mut |slot| in_head[slot] = true);
    }
    // Union-find over the literals, joined through shared local (non-head) variables.
    let count = rule.body.len();
    let mut parent: Vec<usize> = (0..count).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_with_var: Vec<Option<usize>> = vec![None; rule.variables];
    let mut has_local = vec![false; count];
    for (i, literal) in rule.body.iter().enumerate() {
        for_each_literal_var(literal, &mut |slot| {
            if in_head[slot] {
                return;
            }
            has_local[i] = true;
            match first_with_var[slot] {
                None => first_with_var[slot] = Some(i),
                Some(j) => {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                    parent[a] = b;
                }
            }
        });
    }
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut part_of_root: Vec<Option<usize>> = vec![None; count];
    let mut kept: Vec<usize> = Vec::new();
    for (i, &local) in has_local.iter().enumerate() {
        if !local {
            kept.push(i);
            continue;
        }
        let r = root(&mut parent, i);
        match part_of_root[r] {
            Some(p) => parts[p].push(i),
            None => {
                part_of_root[r] = Some(parts.len());
                parts.push(vec![i]);
            }
        }
    }
    if parts.is_empty() || (parts.len() == 1 && kept.is_empty()) {
        out.push(rule.clone());
        return;
    }
    let mut aux_atoms: Vec<CompiledLiteral> = Vec::new();
    for part in parts {
        // The part's head variables, which must be bound by its own positive literals.
        let mut interface: Vec<usize> = Vec::new();
        let mut bound_here = vec![false; rule.variables];
        for &i in &part {
            for_each_literal_var(&rule.body[i], &mut |slot| {
                if in_head[slot] && !interface.contains(&slot) {
                    interface.push(slot);
                }
            });
            if let CompiledLiteral::Positive(atom) = &rule.body[i] {
                for arg in &atom.args {
                    for_each_var(arg, &mut |slot| bound_here[slot] = true);
                }
            }
        }
        if interface.iter().any(|&slot| !bound_here[slot]) {
            kept.extend(part);
            continue;
        }
        interface.sort_unstable();
        let name = format!("aux {} of {}", out.len(), symbols.name(rule.head.relation));
        let (aux_rule, aux_atom) = auxiliary(rule, &part, &interface, symbols.intern(&name));
        out.push(aux_rule);
        aux_atoms.push(aux_atom);
    }
    // The kept positive literals in their written order, the auxiliary atoms, then the tests
    // (every variable is bound by then).
    kept.sort_unstable();
    let is_positive = |i: &&usize| matches!(rule.body[**i], CompiledLiteral::Positive(_));
    let mut body: Vec<CompiledLiteral> = kept
        .iter()
        .filter(is_positive)
        .map(|&i| rule.body[i].clone())
        .collect();
    body.extend(aux_atoms);
    body.extend(
        kept.iter()
            .filter(|i| !is_positive(i))
            .map(|&i| rule.body[i].clone()),
    );
    out.push(CompiledRule {
        head: rule.head.clone(),
        body,
        variables: rule.variables,
    });
}

/// The auxiliary rule `relation(interface) :- the literals of rule.body at parts`, its
/// variables renumbered (the interface first, then the others in order of appearance) and its
/// positive literals first so that every test finds its variables bound; and the atom that
/// reads it in place of those literals.
fn auxiliary(
    rule: &CompiledRule,
    parts: &[usize],
    interface: &[usize],
    relation: super::super::program::Sym,
) -> (CompiledRule, CompiledLiteral) {
    let mut renumber: Vec<Option<usize>> = vec![None; rule.variables];
    for (new, &old) in interface.iter().enumerate() {
        renumber[old] = Some(new);
    }
    let mut next_slot = interface.len();
    for &i in parts {
        for_each_literal_var(&rule.body[i], &mut |slot| {
            if renumber[slot].is_none() {
                renumber[slot] = Some(next_slot);
                next_slot += 1;
            }
        });
    }
    let map = |pattern: &Pattern| renumbered(pattern, &renumber);
    let mut body: Vec<CompiledLiteral> = Vec::new();
    for positive_pass in [true, false] {
        for &i in parts {
            let literal = &rule.body[i];
            if matches!(literal, CompiledLiteral::Positive(_)) == positive_pass {
                body.push(map_literal(literal, &map));
            }
        }
    }
    let aux_rule = CompiledRule {
        head: PatternAtom {
            relation,
            args: (0..interface.len()).map(Pattern::Var).collect(),
        },
        body,
        variables: next_slot,
    };
    let aux_atom = CompiledLiteral::Positive(PatternAtom {
        relation,
        args: interface.iter().map(|&slot| Pattern::Var(slot)).collect(),
    });
    (aux_rule, aux_atom)
}

pub(super) fn renumbered(pattern: &Pattern, renumber: &[Option<usize>]) -> Pattern {
    match pattern {
        Pattern::Const(sym) => Pattern::Const(*sym),
        Pattern::Var(slot) => Pattern::Var(renumber[*slot].expect("every variable renumbered")),
        Pattern::Func(sym, args) => {
            Pattern::Func(*sym, args.iter().map(|a| renumbered(a, renumber)).collect())
        }
    }
}

pub(super) fn map_literal(
    literal: &CompiledLiteral,
    map: &impl Fn(&Pattern) -> Pattern,
) -> CompiledLiteral {
    let atom = |atom: &PatternAtom| PatternAtom {
        relation: atom.relation,
        args: atom.args.iter().map(map).collect(),
    };
    match literal {
        CompiledLiteral::Positive(a) => CompiledLiteral::Positive(atom(a)),
        CompiledLiteral::Negative(a) => CompiledLiteral::Negative(atom(a)),
        CompiledLiteral::Distinct(a, b) => CompiledLiteral::Distinct(map(a), map(b)),
        CompiledLiteral::Equal(a, b) => CompiledLiteral::Equal(map(a), map(b)),
    }
}

pub(super) fn for_each_literal_var(literal: &CompiledLiteral, visit: &mut impl FnMut(usize)) {
    match literal {
        CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) => {
            for arg in &atom.args {
                for_each_var(arg, visit);
            }
        }
        CompiledLiteral::Distinct(a, b) | CompiledLiteral::Equal(a, b) => {
            for_each_var(a, visit);
            for_each_var(b, visit);
        }
    }
}

pub(in crate::gdl) fn for_each_var(pattern: &Pattern, visit: &mut impl FnMut(usize)) {
    let mut pending = vec![pattern];
    while let Some(pattern) = pending.pop() {
        match pattern {
            Pattern::Const(_) => {}
            Pattern::Var(slot) => visit(*slot),
            Pattern::Func(_, args) => pending.extend(args),
        }
    }
}

/// The rules with long bodies cut into chains: where the first literals of a body bind a
/// variable that neither the head nor the rest of the body reads, they become an auxiliary
/// relation over the variables still needed, and the rule reads that relation instead. A rule
/// summing four guesses, `(total ?t) :- (guess p1 ?a) (guess p2 ?b) (sum ?a ?b ?ab)
/// (guess p3 ?c) (sum ?ab ?c ?abc) ...`, has one instance per combination of all guesses as
/// written, but once `?a` and `?b` are summed only `?ab` matters: the chain has one instance
/// per pair at each link. The meaning is unchanged (the prefix holds for some values of the
/// dropped variables exactly when the auxiliary atom does); the circuit gets deeper, so this
/// is for games too large to ground as written.
pub(super) fn chain(rules: &[CompiledRule], symbols: &mut Symbols) -> Vec<CompiledRule> {
    let fixed = static_relations(rules, symbols);
    let mut chained = Vec::with_capacity(rules.len());
    for rule in rules {
        let mut rule = rule.clone();
        while let Some((link, rest)) = (!fixed.contains(&rule.head.key()))
            .then(|| cut_prefix(&rule, symbols, chained.len()))
            .flatten()
        {
            chained.push(link);
            rule = rest;
        }
        chained.push(rule);
    }
    chained
}

/// The shortest prefix of at least two positive literals (with the tests their variables
/// allow) that drops a variable, as an auxiliary rule, and the rule reading it; `None` when no
/// prefix short of the whole body drops one.
fn cut_prefix(
    rule: &CompiledRule,
    symbols: &mut Symbols,
    number: usize,
) -> Option<(CompiledRule, CompiledRule)> {
    let positives: Vec<usize> = (0..rule.body.len())
        .filter(|&i| matches!(rule.body[i], CompiledLiteral::Positive(_)))
        .collect();
    if positives.len() < 3 {
        return None;
    }
    let mut bound = vec![false; rule.variables];
    for (taken, &last) in positives.iter().enumerate().take(positives.len() - 1) {
        for_each_literal_var(&rule.body[last], &mut |slot| bound[slot] = true);
        if taken == 0 {
            continue;
        }
        let in_prefix: Vec<bool> = rule
            .body
            .iter()
            .enumerate()
            .map(|(i, literal)| match literal {
                CompiledLiteral::Positive(_) => positives[..=taken].contains(&i),
                test => {
                    let mut all = true;
                    for_each_literal_var(test, &mut |slot| all &= bound[slot]);
                    all
                }
            })
            .collect();
        let mut needed = vec![false; rule.variables];
        for arg in &rule.head.args {
            for_each_var(arg, &mut |slot| needed[slot] = true);
        }
        for (literal, _) in rule
            .body
            .iter()
            .zip(&in_prefix)
            .filter(|(_, inside)| !**inside)
        {
            for_each_literal_var(literal, &mut |slot| needed[slot] = true);
        }
        let live: Vec<usize> = (0..rule.variables)
            .filter(|&slot| bound[slot] && needed[slot])
            .collect();
        if live.len() == bound.iter().filter(|&&b| b).count() {
            continue;
        }
        let name = format!("link {number} of {}", symbols.name(rule.head.relation));
        let relation = symbols.intern(&name);
        let mut renumber: Vec<Option<usize>> = vec![None; rule.variables];
        for (new, &old) in live.iter().enumerate() {
            renumber[old] = Some(new);
        }
        let mut next_slot = live.len();
        for slot in 0..rule.variables {
            if bound[slot] && renumber[slot].is_none() {
                renumber[slot] = Some(next_slot);
                next_slot += 1;
            }
        }
        let map = |pattern: &Pattern| renumbered(pattern, &renumber);
        let link = CompiledRule {
            head: PatternAtom {
                relation,
                args: (0..live.len()).map(Pattern::Var).collect(),
            },
            body: rule
                .body
                .iter()
                .zip(&in_prefix)
                .filter(|(_, inside)| **inside)
                .map(|(literal, _)| map_literal(literal, &map))
                .collect(),
            variables: next_slot,
        };
        let mut body = vec![CompiledLiteral::Positive(PatternAtom {
            relation,
            args: live.iter().map(|&slot| Pattern::Var(slot)).collect(),
        })];
        body.extend(
            rule.body
                .iter()
                .zip(&in_prefix)
                .filter(|(_, inside)| !**inside)
                .map(|(literal, _)| literal.clone()),
        );
        let rest = CompiledRule {
            head: rule.head.clone(),
            body,
            variables: rule.variables,
        };
        return Some((link, rest));
    }
    None
}

/// The rules with their local variables eliminated one at a time (bucket elimination, as in
/// the join trees of database query planning): a variable `?v` that the head does not read,
/// together with every literal that mentions it (its bucket), becomes an auxiliary relation
/// over the bucket's other variables still read elsewhere, and the rule reads that relation
/// instead. The variable to eliminate next is the one whose auxiliary relation has the fewest
/// arguments. A goal comparing three players' step counts, `(goal ?r1 40) :- (steps ?r1 ?s1)
/// (steps ?r2 ?s2) (smaller ?s1 ?s2) (steps ?r3 ?s3) (smaller ?s1 ?s3) (distinct ?r2 ?r3) …`,
/// has one instance per combination of the three counts as written; with `?s2` and `?s3`
/// eliminated (`(later ?r2 ?s1) :- (steps ?r2 ?s2) (smaller ?s1 ?s2)`) one per pair of counts.
/// Unlike [`chain`], the order is not the written one. A bucket is eliminated only when its
/// positive literals bind all its variables (so every test and negation in it can be decided
/// there) and it is not the whole body. The meaning is unchanged: the auxiliary atom holds
/// exactly when the bucket holds for some values of the variables it drops.
pub(super) fn eliminate(rules: &[CompiledRule], symbols: &mut Symbols) -> Vec<CompiledRule> {
    let fixed = static_relations(rules, symbols);
    let mut out = Vec::with_capacity(rules.len());
    let mut pending: Vec<CompiledRule> = rules.iter().rev().cloned().collect();
    while let Some(rule) = pending.pop() {
        let bucket = (!fixed.contains(&rule.head.key()))
            .then(|| cheapest_bucket(&rule))
            .flatten();
        let Some((bucket, interface)) = bucket else {
            out.push(rule);
            continue;
        };
        let name = format!(
            "elimination {} of {}",
            out.len() + pending.len(),
            symbols.name(rule.head.relation)
        );
        let (aux_rule, aux_atom) = auxiliary(&rule, &bucket, &interface, symbols.intern(&name));
        // The rest in the compiled order: positive literals (the auxiliary atom where the
        // bucket's first one was), then the tests.
        let first = bucket[0];
        let mut body: Vec<CompiledLiteral> = Vec::with_capacity(rule.body.len());
        for (i, literal) in rule.body.iter().enumerate() {
            if i == first {
                body.push(aux_atom.clone());
            } else if !bucket.contains(&i) && matches!(literal, CompiledLiteral::Positive(_)) {
                body.push(literal.clone());
            }
        }
        body.extend(
            rule.body
                .iter()
                .enumerate()
                .filter(|(i, literal)| {
                    !bucket.contains(i) && !matches!(literal, CompiledLiteral::Positive(_))
                })
                .map(|(_, literal)| literal.clone()),
        );
        pending.push(CompiledRule {
            head: rule.head.clone(),
            body,
            variables: rule.variables,
        });
        pending.push(aux_rule);
    }
    out
}

/// The bucket (literal positions, ascending) of the local variable best eliminated from
/// `rule`, and its interface (the bucket's variables read by the head or by another literal,
/// ascending); `None` when no variable can be eliminated.
fn cheapest_bucket(rule: &CompiledRule) -> Option<(Vec<usize>, Vec<usize>)> {
    let mut in_head = vec![false; rule.variables];
    for arg in &rule.head.args {
        for_each_var(arg, &mut |slot| in_head[slot] = true);
    }
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); rule.variables];
    for (i, literal) in rule.body.iter().enumerate() {
        for_each_literal_var(literal, &mut |slot| {
            if occurs[slot].last() != Some(&i) {
                occurs[slot].push(i);
            }
        });
    }
    // (cost: the interface's size, then the bucket's; bucket; interface)
    type Candidate = ((usize, usize), Vec<usize>, Vec<usize>);
    let mut best: Option<Candidate> = None;
    for slot in 0..rule.variables {
        let bucket = &occurs[slot];
        if in_head[slot] || bucket.is_empty() || bucket.len() == rule.body.len() {
            continue;
        }
        let mut bound = vec![false; rule.variables];
        for &i in bucket {
            if let CompiledLiteral::Positive(atom) = &rule.body[i] {
                for arg in &atom.args {
                    for_each_var(arg, &mut |slot| bound[slot] = true);
                }
            }
        }
        let mut safe = true;
        let mut interface: Vec<usize> = Vec::new();
        for &i in bucket {
            for_each_literal_var(&rule.body[i], &mut |var| {
                safe &= bound[var];
                let read_elsewhere =
                    in_head[var] || occurs[var].iter().any(|j| !bucket.contains(j));
                if read_elsewhere && !interface.contains(&var) {
                    interface.push(var);
                }
            });
        }
        if !safe {
            continue;
        }
        let cost = (interface.len(), bucket.len());
        if best
            .as_ref()
            .is_none_or(|(best_cost, _, _)| cost < *best_cost)
        {
            interface.sort_unstable();
            best = Some((cost, bucket.clone(), interface));
        }
    }
    best.map(|(_, bucket, interface)| (bucket, interface))
}

/// The relations whose rules depend on neither the state nor the moves (through any chain of
/// rules). Grounding folds most of them to facts, with no ground rules (`domain::Grounding`;
/// all but those with a rule over a negation it could not decide), so the rewritings that
/// shrink ground rules ([`factor`], [`chain`], [`eliminate`]) leave their rules as written.
/// Cut up, gt_two_thirds' `absDiff` over 400 numbers only added two auxiliary relations of
/// 160,000 atoms each.
fn static_relations(rules: &[CompiledRule], symbols: &Symbols) -> FxHashSet<RelKey> {
    let state_or_moves: Vec<Sym> = ["true", "does"]
        .iter()
        .filter_map(|keyword| symbols.get(keyword))
        .collect();
    let mut dynamic: FxHashSet<RelKey> = FxHashSet::default();
    loop {
        let before = dynamic.len();
        for rule in rules {
            let reads_dynamic = rule.body.iter().any(|literal| match literal {
                CompiledLiteral::Positive(atom) | CompiledLiteral::Negative(atom) => {
                    state_or_moves.contains(&atom.relation) || dynamic.contains(&atom.key())
                }
                _ => false,
            });
            if reads_dynamic {
                dynamic.insert(rule.head.key());
            }
        }
        if dynamic.len() == before {
            break;
        }
    }
    rules
        .iter()
        .map(|rule| rule.head.key())
        .filter(|key| !dynamic.contains(key))
        .collect()
}

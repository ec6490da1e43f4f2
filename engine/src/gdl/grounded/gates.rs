//! Rewrites of the simplified rules that factor out a literal many rules of one head share.
//!
//! [`factor_shared`]: `h :- g & b1 | g & b2 | ... | c` becomes `h :- g & f | c` with
//! `f :- b1 | b2 | ...`. Frame axioms are the common case: `(next (cell 3 3 b))` holds when the
//! cell is blank and any of the moves elsewhere is played, one ground rule per such move, each
//! reading the cell; a change of the cell then updates one rule instead of dozens.
//!
//! [`split`]: legal moves kept up to date instead of re-evaluated: each `legal` prop is split
//! into a gate and a watched prop.
//!
//! In most games every rule of a role's `legal` atoms shares one literal, the turn gate
//! (`(true (control white))`). Flipping it each ply would touch every `legal` rule of both
//! roles if they were evaluated eagerly, and evaluating them lazily reads every rule of every
//! move each ply. Instead `(legal r a) :- g & b1 | g & b2 | ...` becomes
//! `(legal r a) :- g & w` with `w :- b1 | b2 | ...`: `w` is evaluated eagerly (it changes only
//! when the board under the move changes), and the evaluator keeps, per role and gate, the set
//! of moves whose `w` holds. A random move is then a pick among the sets whose gate holds. The
//! gate chosen for a `legal` prop is, among the literals all its rules share, the one shared by
//! the most `legal` rules.

use rustc_hash::{FxHashMap, FxHashSet};

/// A literal over nodes: node shifted left once, low bit set when negated.
pub(super) type NodeLiteral = u32;

/// How one `legal` node is watched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Watch {
    /// The gate literal, or `None` when the node is watched whole.
    pub gate: Option<NodeLiteral>,
    /// The node whose value (under the gate) is the move's legality; `None`: always true.
    pub watched: Option<usize>,
}

/// What splitting needs to know of, and may add to, the circuit's nodes.
pub(super) struct Nodes<'a> {
    /// Per node: whether it is a derived node (not a `true` or `does` atom).
    pub derived: &'a [bool],
    /// The simplified rules of every variable derived node.
    pub simplified: &'a mut FxHashMap<u32, Vec<Vec<NodeLiteral>>>,
    /// The components in dependency order (what a node reads comes first).
    pub components: &'a mut Vec<Vec<usize>>,
}

/// Splits the `legal` nodes (variable, in the state layer) into gate and watched node,
/// adding the watched nodes that are new (numbered from `derived.len()` on, variable derived
/// nodes of the state layer). Returns how each `legal` node is watched and how many nodes were
/// added; the caller evaluates every watched node eagerly.
pub(super) fn split(legal_nodes: &[usize], nodes: Nodes<'_>) -> (FxHashMap<usize, Watch>, usize) {
    let Nodes {
        derived,
        simplified,
        components,
    } = nodes;
    // Nodes some rule reads: their `legal` node stays eager as it is, watched whole.
    let mut read: FxHashSet<usize> = FxHashSet::default();
    for rules in simplified.values() {
        for &literal in rules.iter().flatten() {
            read.insert((literal >> 1) as usize);
        }
    }
    let mut frequency: FxHashMap<NodeLiteral, u32> = FxHashMap::default();
    for node in legal_nodes {
        for rule in &simplified[&(*node as u32)] {
            for &literal in rule {
                *frequency.entry(literal).or_default() += 1;
            }
        }
    }
    let mut watches = FxHashMap::default();
    // Nodes already watched for some move: a second move needs a node of its own.
    let mut taken: FxHashSet<usize> = FxHashSet::default();
    // New watched nodes, to be placed just before the `legal` node they serve.
    let mut placed_before: FxHashMap<usize, usize> = FxHashMap::default();
    let mut added = 0;
    for &node in legal_nodes {
        let rules = &simplified[&(node as u32)];
        let gate = if read.contains(&node) {
            None
        } else {
            shared_literals(rules)
                .into_iter()
                .max_by_key(|literal| (frequency[literal], std::cmp::Reverse(*literal)))
        };
        let Some(gate) = gate else {
            taken.insert(node);
            watches.insert(
                node,
                Watch {
                    gate: None,
                    watched: Some(node),
                },
            );
            continue;
        };
        let mut rests: Vec<Vec<NodeLiteral>> = rules
            .iter()
            .map(|rule| rule.iter().copied().filter(|&l| l != gate).collect())
            .collect();
        rests.sort_unstable();
        rests.dedup();
        let watched = if rests.iter().any(Vec::is_empty) {
            None
        } else if let [rest] = rests.as_slice()
            && let [literal] = rest.as_slice()
            && literal & 1 == 0
            && derived[(literal >> 1) as usize]
            && !taken.contains(&((literal >> 1) as usize))
        {
            // `(legal r a) :- g & x` with `x` derived: watch `x` itself.
            Some((literal >> 1) as usize)
        } else {
            let new = derived.len() + added;
            added += 1;
            simplified.insert(new as u32, rests);
            placed_before.insert(node, new);
            Some(new)
        };
        let mut rule = vec![gate];
        if let Some(watched) = watched {
            taken.insert(watched);
            rule.push((watched as u32) << 1);
        }
        rule.sort_unstable();
        simplified.insert(node as u32, vec![rule]);
        watches.insert(
            node,
            Watch {
                gate: Some(gate),
                watched,
            },
        );
    }
    place_before(components, &placed_before);
    (watches, added)
}

/// Rules of one head sharing a literal are factored when at least this many share it: fewer
/// save too little to pay for the extra node.
const FACTOR_AT_LEAST: usize = 3;

/// Factors, in each head of `heads` (variable derived nodes alone in their component), the
/// literal most of its rules share, when [`FACTOR_AT_LEAST`] rules share it. New nodes are
/// numbered from `derived.len()` on; returns, for each, whether it reads the moves (it does
/// when one of its literals is in `move_layer`).
pub(super) fn factor_shared(heads: &[usize], nodes: Nodes<'_>, move_layer: &[bool]) -> Vec<bool> {
    let Nodes {
        derived,
        simplified,
        components,
    } = nodes;
    let mut new_layers: Vec<bool> = Vec::new();
    let mut placed_before: FxHashMap<usize, usize> = FxHashMap::default();
    // New nodes by their rules: heads whose factored rules are the same share one node (the
    // frame axioms of one cell, one per thing the cell may hold, read the same moves).
    let mut node_of_rests: FxHashMap<Vec<Vec<NodeLiteral>>, usize> = FxHashMap::default();
    let mut frequency: FxHashMap<NodeLiteral, usize> = FxHashMap::default();
    for &head in heads {
        let rules = &simplified[&(head as u32)];
        if rules.len() < FACTOR_AT_LEAST {
            continue;
        }
        frequency.clear();
        for &literal in rules.iter().flatten() {
            *frequency.entry(literal).or_default() += 1;
        }
        let Some((&shared, &count)) = frequency
            .iter()
            .max_by_key(|&(&literal, &count)| (count, std::cmp::Reverse(literal)))
        else {
            continue;
        };
        if count < FACTOR_AT_LEAST {
            continue;
        }
        let (with, mut kept): (Vec<Vec<NodeLiteral>>, Vec<Vec<NodeLiteral>>) = rules
            .iter()
            .cloned()
            .partition(|rule| rule.binary_search(&shared).is_ok());
        let mut rests: Vec<Vec<NodeLiteral>> = with
            .into_iter()
            .map(|rule| rule.into_iter().filter(|&l| l != shared).collect())
            .collect();
        rests.sort_unstable();
        rests.dedup();
        if rests.iter().any(Vec::is_empty) {
            // `h :- g` alone subsumes the other rules with `g`.
            kept.push(vec![shared]);
        } else {
            let new = if let Some(&shared_node) = node_of_rests.get(&rests) {
                shared_node
            } else {
                let new = derived.len() + new_layers.len();
                let reads_moves = rests
                    .iter()
                    .flatten()
                    .any(|&literal| move_layer[(literal >> 1) as usize]);
                new_layers.push(reads_moves);
                node_of_rests.insert(rests.clone(), new);
                simplified.insert(new as u32, rests);
                // Before the first head using it (heads come in dependency order), hence
                // before every other: its literals are literals of that head's rules.
                placed_before.insert(head, new);
                new
            };
            let mut rule = vec![shared, (new as u32) << 1];
            rule.sort_unstable();
            kept.push(rule);
        }
        kept.sort_unstable();
        simplified.insert(head as u32, kept);
    }
    place_before(components, &placed_before);
    new_layers
}

/// Puts each new node in a component of its own just before the head it serves.
fn place_before(components: &mut Vec<Vec<usize>>, placed_before: &FxHashMap<usize, usize>) {
    if placed_before.is_empty() {
        return;
    }
    let old = std::mem::take(components);
    for members in old {
        if let [only] = members.as_slice()
            && let Some(&new) = placed_before.get(only)
        {
            components.push(vec![new]);
        }
        components.push(members);
    }
}

/// The literals every rule has (sorted rules: a merge of sorted lists).
fn shared_literals(rules: &[Vec<NodeLiteral>]) -> Vec<NodeLiteral> {
    let Some((first, others)) = rules.split_first() else {
        return Vec::new();
    };
    let mut shared = first.clone();
    for rule in others {
        shared.retain(|literal| rule.binary_search(literal).is_ok());
    }
    shared
}

//! From ground rules to a propositional circuit: constants folded away, propositions numbered
//! in evaluation order, rules stored flat for the evaluator.
//!
//! Numbering: the base propositions (`true` atoms) come first, so that a state is a prefix of
//! the value bit vector; then the constants false and true; then the inputs (`does` atoms);
//! then the views that depend on the state only (the "state layer": `legal`, `goal`,
//! `terminal` and what they read), in dependency order; last the views that depend on the moves
//! (the "move layer": `next`, `sees`). A state query evaluates the state layer only.

use rustc_hash::FxHashMap;

use super::super::GdlError;
use super::super::program::{Program, Sym};
use super::domain::Grounding;
use super::gates;
use super::terms::{KeyScratch, TermId};
use crate::graph::strongly_connected_components;

/// A proposition's number: its bit in the value vector.
pub(super) type Prop = u32;

/// No group: the proposition is not part of a recursive cycle.
pub(super) const NO_GROUP: u32 = u32::MAX;

/// Not the `next` prop of any base prop.
pub(super) const NO_BASE: u32 = u32::MAX;

/// The length of a rule whose head is in a recursive group, and the mark of its occurrences
/// (see [`Occurrence`]).
pub(super) const GROUPED: u32 = u32::MAX;

/// Marks an occurrence of a move left out of a prop of an input class (see [`InputClass`]):
/// not a rule of the prop, a count against it.
pub(super) const LEFT_OUT: u32 = u32::MAX - 1;

/// The circuit: props, their rules, the reverse edges, and the game's named outputs.
#[derive(Debug)]
pub(super) struct Circuit {
    pub props: usize,
    pub base_count: usize,
    pub false_prop: Prop,
    pub true_prop: Prop,
    pub input_start: Prop,
    pub derived_start: Prop,
    /// Derived props below this are in the state layer.
    pub state_layer_end: Prop,
    /// Per derived prop (offset by `derived_start`, plus a closing entry): where its rules
    /// start in `code`. A rule is its literal count followed by the literals; a literal is a
    /// prop shifted left once, low bit set when negated.
    pub code_start: Vec<u32>,
    pub code: Vec<u32>,
    /// The counted rules (those some reader updates, numbered in `occurs`): the evaluator
    /// keeps for each how many of its literals fail.
    pub counters: usize,
    /// Per derived prop: whether it is evaluated only when asked, by pulling through its rules
    /// (props no rule reads, and the cone below the goals): its rules are not counted and no
    /// lazy prop is in `occurs`. A lazy prop is read only by lazy props.
    pub lazy: Vec<bool>,
    /// Per derived prop: whether it is lazy and one of its rules reads a lazy prop.
    pub reads_lazy: Vec<bool>,
    /// Per prop: what the evaluator reads of it when it changes (see [`Wiring`]).
    pub wiring: Vec<Wiring>,
    pub occurs: Vec<Occurrence>,
    /// Recursive groups as prop ranges: evaluated together to a least fixpoint.
    pub groups: Vec<(Prop, Prop)>,
    /// The base props' fluents (the `x` of `(true x)`), as terms.
    pub base_fluents: Vec<TermId>,
    /// Per base prop: the prop of its `next` atom and of its `init` atom.
    pub next_of_base: Vec<Prop>,
    pub init_of_base: Vec<Prop>,
    /// Per input: the role (index into the game's roles, or `None` for an undeclared role),
    /// the action term and the prop of the matching `legal` atom.
    pub input_roles: Vec<Option<usize>>,
    pub input_actions: Vec<TermId>,
    pub input_legal: Vec<Prop>,
    /// The playable moves in sets kept up to date by the evaluator (see [`MoveSets`]).
    pub move_sets: MoveSets,
    /// The props counted by the moves they do not read (see [`complement_inputs`]).
    pub input_classes: Vec<InputClass>,
    pub terminal: Prop,
    /// Per role: (prop, value term) of each `goal` atom.
    pub goals: Vec<Vec<(Prop, TermId)>>,
    /// Per role: (prop, percept term) of each `sees` atom.
    pub sees: Vec<Vec<(Prop, TermId)>>,
    pub ground_rules: usize,
}

/// The most literals of a rule whose count the evaluator keeps (one byte per rule); a game
/// with a longer counted ground rule is not grounded (the interpreter plays it).
pub(super) const MAX_COUNTED_LENGTH: u32 = u8::MAX as u32;

/// What the evaluator reads of a prop when the prop is evaluated or changes, in one record
/// of half a cache line: one lookup (one bounds check, one cache line) where separate tables
/// would each cost their own.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
pub(super) struct Wiring {
    /// The rules reading it: `occurs[readers_start..readers_end]`, the counted rules first,
    /// then (from `special_start`) the rules of recursive groups ([`GROUPED`]) and the
    /// left-out moves ([`LEFT_OUT`]).
    pub readers_start: u32,
    pub special_start: u32,
    pub readers_end: u32,
    /// Its recursive group, or [`NO_GROUP`].
    pub group: u32,
    /// What the evaluator keeps in step with a derived prop when it flips, without a branch
    /// (a prop that is no `next` prop or that no move watches flips spare bits): the bit of
    /// the next state (its base prop's, or the first bit past the base props' words, a spare
    /// word of the evaluator's next state), and the bit and set of the move watching it in
    /// the playable moves (see [`MoveSets`]).
    pub next_bit: u32,
    pub watch_bit: u32,
    pub watch_set: u32,
}

/// A rule reading a prop, with its head copied in, so that updating the readers of a prop
/// walks one array. Eight bytes: the counting loop needs no rule length (the evaluator counts
/// the literals that fail, and a rule holds when none does).
#[derive(Clone, Copy, Debug)]
pub(super) struct Occurrence {
    /// A counted rule's counter (see [`Circuit::counters`]) shifted left once, low bit set when
    /// the literal is negated; for the readers after `Wiring::special_start`, their kind:
    /// [`GROUPED`] or [`LEFT_OUT`] (counters stay far below both).
    pub counter_literal: u32,
    pub head: Prop,
}

/// No counter: the rule is not counted.
const NO_COUNTER: u32 = u32::MAX;

/// What folding decided about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fold {
    False,
    True,
    Variable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Base,
    Input,
    Derived,
}

use gates::NodeLiteral;

pub(super) fn build(program: &Program, grounding: &Grounding) -> Result<Circuit, GdlError> {
    let keywords = &program.keywords;
    let terms = &grounding.terms;
    let rules = &grounding.rules;

    // Nodes: every domain atom of `true` and `does`, every head and every literal's atom.
    let mut node_of: Vec<u32> = vec![u32::MAX; terms.len()];
    let mut atoms: Vec<TermId> = Vec::new();
    let mut kinds: Vec<Kind> = Vec::new();
    let mut add = |atom: TermId, kind: Kind, node_of: &mut Vec<u32>| {
        if node_of[atom as usize] == u32::MAX {
            node_of[atom as usize] = atoms.len() as u32;
            atoms.push(atom);
            kinds.push(kind);
        }
    };
    for &atom in grounding.facts((keywords.true_, 1)) {
        add(atom, Kind::Base, &mut node_of);
    }
    for &atom in grounding.facts((keywords.does, 2)) {
        add(atom, Kind::Input, &mut node_of);
    }
    for r in 0..rules.len() {
        add(rules.heads[r], Kind::Derived, &mut node_of);
        for &literal in rules.body(r) {
            add(literal >> 1, Kind::Derived, &mut node_of);
        }
    }
    let nodes = atoms.len();

    // Rules grouped by head node, literals over nodes.
    let mut rule_count = vec![0u32; nodes + 1];
    for &head in &rules.heads {
        rule_count[node_of[head as usize] as usize] += 1;
    }
    let mut rules_start = vec![0u32; nodes + 1];
    for n in 0..nodes {
        rules_start[n + 1] = rules_start[n] + rule_count[n];
    }
    let mut rules_of: Vec<u32> = vec![0; rules.len()];
    let mut filled = rules_start.clone();
    for (r, &head) in rules.heads.iter().enumerate() {
        let node = node_of[head as usize] as usize;
        rules_of[filled[node] as usize] = r as u32;
        filled[node] += 1;
    }
    let node_literal =
        |literal: u32| -> NodeLiteral { node_of[(literal >> 1) as usize] << 1 | (literal & 1) };

    // Dependencies between derived nodes, then their components in dependency order.
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); nodes];
    for node in 0..nodes {
        for &r in &rules_of[rules_start[node] as usize..rules_start[node + 1] as usize] {
            for &literal in rules.body(r as usize) {
                let target = (node_literal(literal) >> 1) as usize;
                if kinds[target] == Kind::Derived {
                    successors[node].push(target);
                }
            }
        }
        successors[node].sort_unstable();
        successors[node].dedup();
    }
    let components = strongly_connected_components(&successors);

    // Folding, component by component.
    let mut fold: Vec<Fold> = kinds
        .iter()
        .map(|kind| match kind {
            Kind::Derived => Fold::False,
            _ => Fold::Variable,
        })
        .collect();
    let mut component_of = vec![u32::MAX; nodes];
    // The simplified rules of each variable node: (node, literals).
    let mut simplified: FxHashMap<u32, Vec<Vec<NodeLiteral>>> = FxHashMap::default();
    let mut move_layer = vec![false; nodes];
    for &atom in grounding.facts((keywords.does, 2)) {
        move_layer[node_of[atom as usize] as usize] = true;
    }
    for (c, members) in components.iter().enumerate() {
        if kinds[members[0]] != Kind::Derived {
            continue;
        }
        for &m in members {
            component_of[m] = c as u32;
        }
        let cyclic = members.len() > 1 || successors[members[0]].contains(&members[0]);
        // Simplify each rule against the nodes outside the component (all decided).
        let mut node_rules: Vec<Vec<Vec<NodeLiteral>>> = Vec::with_capacity(members.len());
        for &m in members {
            let mut kept = Vec::new();
            'rules: for &r in &rules_of[rules_start[m] as usize..rules_start[m + 1] as usize] {
                let mut literals = Vec::new();
                for &literal in rules.body(r as usize) {
                    let literal = node_literal(literal);
                    let target = (literal >> 1) as usize;
                    let negated = literal & 1 == 1;
                    if component_of[target] == c as u32 {
                        if negated {
                            return Err(GdlError::Build(format!(
                                "the ground rules are not stratified: `{}` depends negatively on itself",
                                terms.to_ground(atoms[m]).display(&program.symbols)
                            )));
                        }
                        literals.push(literal);
                        continue;
                    }
                    match (fold[target], negated) {
                        (Fold::True, false) | (Fold::False, true) => {}
                        (Fold::True, true) | (Fold::False, false) => continue 'rules,
                        (Fold::Variable, _) => literals.push(literal),
                    }
                }
                literals.sort_unstable();
                literals.dedup();
                if literals.windows(2).any(|w| w[0] >> 1 == w[1] >> 1) {
                    continue; // both p and (not p)
                }
                kept.push(literals);
            }
            kept.sort_unstable();
            kept.dedup();
            node_rules.push(kept);
        }
        let index_in = |node: usize| members.binary_search(&node).ok();
        if cyclic {
            // Definitely true: derivable from inside literals known true alone.
            let definite = least_fixpoint(&node_rules, |literal, known: &[bool]| {
                index_in((literal >> 1) as usize).is_some_and(|i| known[i])
            });
            // Possibly true: derivable when every outside variable literal may hold.
            let possible = least_fixpoint(&node_rules, |literal, known: &[bool]| {
                index_in((literal >> 1) as usize).is_none_or(|i| known[i])
            });
            for (i, &m) in members.iter().enumerate() {
                fold[m] = if definite[i] {
                    Fold::True
                } else if possible[i] {
                    Fold::Variable
                } else {
                    Fold::False
                };
            }
        } else {
            let m = members[0];
            fold[m] = if node_rules[0].iter().any(Vec::is_empty) {
                Fold::True
            } else if node_rules[0].is_empty() {
                Fold::False
            } else {
                Fold::Variable
            };
        }
        let mut reads_moves = false;
        for (i, &m) in members.iter().enumerate() {
            if fold[m] == Fold::Variable {
                for literal in node_rules[i].iter().flatten() {
                    reads_moves |= move_layer[(literal >> 1) as usize];
                }
                simplified.insert(m as u32, std::mem::take(&mut node_rules[i]));
            }
        }
        for &m in members {
            move_layer[m] = reads_moves && fold[m] == Fold::Variable;
        }
    }

    // Shared literals factored out of the rules of eager heads (see `gates`): heads read by a
    // rule or giving a `next` fluent, not `legal` (split below), not recursive.
    let node_of_atom = |atom: TermId| {
        let node = node_of[atom as usize];
        (node != u32::MAX).then_some(node as usize)
    };
    let legal_atoms = grounding.facts((keywords.legal, 2));
    let mut is_legal = vec![false; nodes];
    let mut eager = vec![false; nodes];
    for node in legal_atoms.iter().filter_map(|&atom| node_of_atom(atom)) {
        is_legal[node] = true;
    }
    let next_atoms = grounding.facts((keywords.next, 1));
    for node in next_atoms.iter().filter_map(|&atom| node_of_atom(atom)) {
        eager[node] = true;
    }
    for &literal in simplified.values().flatten().flatten() {
        eager[(literal >> 1) as usize] = true;
    }
    let mut components = components;
    let heads: Vec<usize> = components
        .iter()
        .filter_map(|members| match members.as_slice() {
            [only] => Some(*only),
            _ => None,
        })
        .filter(|&n| {
            eager[n]
                && !is_legal[n]
                && fold[n] == Fold::Variable
                && simplified
                    .get(&(n as u32))
                    .is_some_and(|rules| !rules.iter().flatten().any(|&l| (l >> 1) as usize == n))
        })
        .collect();
    let derived_nodes: Vec<bool> = kinds.iter().map(|&kind| kind == Kind::Derived).collect();
    let new_layers = gates::factor_shared(
        &heads,
        gates::Nodes {
            derived: &derived_nodes,
            simplified: &mut simplified,
            components: &mut components,
        },
        &move_layer,
    );
    let nodes = nodes + new_layers.len();
    kinds.resize(nodes, Kind::Derived);
    fold.resize(nodes, Fold::Variable);
    move_layer.extend(new_layers);

    // `legal` nodes split into gate and watched node (see `gates`); those reading the moves
    // (not valid GDL, kept working) are watched whole.
    let mut watches = FxHashMap::default();
    let mut legal_nodes = Vec::new();
    for node in legal_atoms.iter().filter_map(|&atom| node_of_atom(atom)) {
        if kinds[node] != Kind::Derived || fold[node] != Fold::Variable {
            continue;
        }
        if move_layer[node] {
            let whole = gates::Watch {
                gate: None,
                watched: Some(node),
            };
            watches.insert(node, whole);
        } else {
            legal_nodes.push(node);
        }
    }
    let derived_nodes: Vec<bool> = kinds.iter().map(|&kind| kind == Kind::Derived).collect();
    let (split, added) = gates::split(
        &legal_nodes,
        gates::Nodes {
            derived: &derived_nodes,
            simplified: &mut simplified,
            components: &mut components,
        },
    );
    watches.extend(split);
    // The new nodes have no atom: they are variable derived nodes of the state layer.
    kinds.resize(nodes + added, Kind::Derived);
    fold.resize(nodes + added, Fold::Variable);
    move_layer.resize(nodes + added, false);
    let nodes = nodes + added;

    // Numbering.
    let base_nodes: Vec<usize> = (0..nodes).filter(|&n| kinds[n] == Kind::Base).collect();
    let input_nodes: Vec<usize> = (0..nodes).filter(|&n| kinds[n] == Kind::Input).collect();
    let base_count = base_nodes.len();
    let false_prop = base_count as Prop;
    let true_prop = false_prop + 1;
    let input_start = true_prop + 1;
    let derived_start = input_start + input_nodes.len() as Prop;
    let mut prop_of: Vec<Prop> = vec![false_prop; nodes];
    for (i, &n) in base_nodes.iter().enumerate() {
        prop_of[n] = i as Prop;
    }
    for (i, &n) in input_nodes.iter().enumerate() {
        prop_of[n] = input_start + i as Prop;
    }
    let mut order: Vec<Vec<usize>> = Vec::new();
    for layer in [false, true] {
        for members in &components {
            let variables: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&m| {
                    kinds[m] == Kind::Derived && fold[m] == Fold::Variable && move_layer[m] == layer
                })
                .collect();
            if !variables.is_empty() {
                order.push(variables);
            }
        }
    }
    let mut next_prop = derived_start;
    let mut state_layer_end = derived_start;
    for members in &order {
        for &m in members {
            prop_of[m] = next_prop;
            next_prop += 1;
        }
        if !move_layer[members[0]] {
            state_layer_end = next_prop;
        }
    }
    for n in 0..nodes {
        if fold[n] == Fold::True && kinds[n] == Kind::Derived {
            prop_of[n] = true_prop;
        }
    }
    let props = next_prop as usize;
    let derived = props - derived_start as usize;

    // Named outputs.
    let mut key = KeyScratch::new();
    let prop_of_atom = |functor: Sym, args: &[TermId], key: &mut KeyScratch| -> Prop {
        terms
            .find(functor, args, key)
            .map(|atom| node_of.get(atom as usize).copied().unwrap_or(u32::MAX))
            .filter(|&node| node != u32::MAX)
            .map_or(false_prop, |node| prop_of[node as usize])
    };
    let base_fluents: Vec<TermId> = base_nodes
        .iter()
        .map(|&n| terms.args(atoms[n])[0])
        .collect();
    let next_of_base: Vec<Prop> = base_fluents
        .iter()
        .map(|&f| prop_of_atom(keywords.next, &[f], &mut key))
        .collect();
    let mut base_of_next = vec![NO_BASE; derived];
    for (base, &prop) in next_of_base.iter().enumerate() {
        if prop >= derived_start {
            base_of_next[(prop - derived_start) as usize] = base as u32;
        }
    }

    // Flat code, groups and fanout.
    let mut code_start = Vec::with_capacity(derived + 1);
    let mut code = Vec::new();
    let mut group_of = vec![NO_GROUP; derived];
    let mut groups = Vec::new();
    // (literal's prop, rule number << 1 | negated).
    let mut readers: Vec<(Prop, u32)> = Vec::new();
    let mut rule_head: Vec<Prop> = Vec::new();
    let mut rule_length: Vec<u32> = Vec::new();
    for members in &order {
        let first = prop_of[members[0]];
        let inside = |prop: Prop| prop >= first && prop < first + members.len() as Prop;
        let mut recursive = false;
        for &m in members {
            let prop = prop_of[m];
            code_start.push(code.len() as u32);
            for literals in &simplified[&(m as u32)] {
                let start = code.len();
                code.push(0);
                let mut dead = false;
                for &literal in literals {
                    let target = prop_of[(literal >> 1) as usize];
                    let negated = literal & 1 == 1;
                    // Nodes of the component folded during the fixpoint above.
                    if target == true_prop || target == false_prop {
                        if (target == true_prop) == negated {
                            dead = true;
                            break;
                        }
                        continue;
                    }
                    recursive |= inside(target);
                    code.push(target << 1 | u32::from(negated));
                }
                if dead {
                    code.truncate(start);
                    continue;
                }
                if code.len() == start + 1 {
                    code.push(true_prop << 1);
                }
                code[start] = (code.len() - start - 1) as u32;
                let rule = rule_head.len() as u32;
                for &literal in &code[start + 1..] {
                    readers.push((literal >> 1, rule << 1 | (literal & 1)));
                }
                rule_head.push(prop);
                rule_length.push(code[start]);
            }
        }
        if recursive {
            let group = groups.len() as u32;
            groups.push((first, first + members.len() as Prop));
            for &m in members {
                group_of[(prop_of[m] - derived_start) as usize] = group;
            }
            let first_rule = rule_head.partition_point(|&head| head < first);
            for length in &mut rule_length[first_rule..] {
                *length = GROUPED;
            }
        }
    }
    code_start.push(code.len() as u32);
    // Props that no rule reads and that are not `next` props (`goal`, `terminal`, `sees`,
    // `init`, unused views, and `legal` props split as gate & watched prop) are read only by
    // the game, a few at a time: they are evaluated when asked instead of being kept up to
    // date. Watched props are kept up to date: the move sets follow them.
    //
    // So is the cone below the goals (and below the views nothing reads, never asked): a prop
    // read only by lazy props of that cone (reversi's piece counts, 8,000 props changing by
    // the hundred each ply) is needed once per playout, at the terminal state, and is pulled
    // through its rules then (see `Evaluator::query`). What `terminal`, `legal`, `sees` and
    // the watched, `next` and recursive props read stays eager: those are read every ply.
    let mut read = vec![false; props];
    for &(target, _) in &readers {
        read[target as usize] = true;
    }
    let mut watched = vec![false; props];
    for watch in watches.values() {
        if let Some(node) = watch.watched {
            watched[prop_of[node] as usize] = true;
        }
    }
    // What the game asks every ply (or every move of a playout): `terminal`, `legal`, `sees`.
    let mut asked_each_ply = vec![false; props];
    let asked = [(keywords.legal, 2), (keywords.sees, 2)];
    for &atom in asked.iter().flat_map(|&relation| grounding.facts(relation)) {
        let node = node_of[atom as usize];
        if node != u32::MAX && prop_of[node as usize] >= derived_start {
            asked_each_ply[prop_of[node as usize] as usize] = true;
        }
    }
    let terminal = prop_of_atom(keywords.terminal, &[], &mut key);
    if terminal >= derived_start {
        asked_each_ply[terminal as usize] = true;
    }
    // Derived props from the last: every reader of a prop (not in a recursive group) comes
    // after it, so its laziness is decided when the prop's is.
    let mut read_eagerly = vec![false; props];
    let mut lazy = vec![false; derived];
    for i in (0..derived).rev() {
        let prop = derived_start as usize + i;
        if watched[prop] || base_of_next[i] != NO_BASE || group_of[i] != NO_GROUP {
            mark_literals_read(&code, code_start[i]..code_start[i + 1], &mut read_eagerly);
            continue;
        }
        let goal_cone = if read[prop] {
            !read_eagerly[prop]
        } else {
            !asked_each_ply[prop]
        };
        lazy[i] = goal_cone || !read[prop];
        if !goal_cone {
            mark_literals_read(&code, code_start[i]..code_start[i + 1], &mut read_eagerly);
        }
    }
    // What the evaluator relies on: no eager prop reads a lazy one (its bit is never updated).
    if cfg!(debug_assertions) {
        let mut eager_reads = vec![false; props];
        for i in (0..derived).filter(|&i| !lazy[i]) {
            mark_literals_read(&code, code_start[i]..code_start[i + 1], &mut eager_reads);
        }
        debug_assert!((0..derived).all(|i| !(lazy[i] && eager_reads[derived_start as usize + i])));
    }
    // A lazy prop's rules read their eager literals first: a rule failing on one of them
    // pulls nothing.
    let is_lazy = |literal: &u32| {
        let prop = literal >> 1;
        prop >= derived_start && lazy[(prop - derived_start) as usize]
    };
    let mut reads_lazy = vec![false; derived];
    for i in (0..derived).filter(|&i| lazy[i]) {
        let mut at = code_start[i] as usize;
        while at < code_start[i + 1] as usize {
            let length = code[at] as usize;
            let literals = &mut code[at + 1..at + 1 + length];
            literals.sort_by_key(is_lazy);
            reads_lazy[i] |= literals.last().is_some_and(is_lazy);
            at += 1 + length;
        }
    }
    let rule_lazy = |rule: usize| lazy[(rule_head[rule] - derived_start) as usize];
    if let Some(rule) = (0..rule_head.len()).find(|&rule| {
        rule_length[rule] != GROUPED && rule_length[rule] > MAX_COUNTED_LENGTH && !rule_lazy(rule)
    }) {
        return Err(GdlError::Build(format!(
            "a ground rule has {} literals, more than the {MAX_COUNTED_LENGTH} the grounded \
             reasoner counts",
            rule_length[rule]
        )));
    }
    // Readers mark their kind above the numbers of the counters, which are no more than the
    // rules (see `Occurrence::counter_literal`).
    if rule_head.len() >= (LEFT_OUT >> 1) as usize {
        return Err(GdlError::Build(format!(
            "{} ground rules are more than the grounded reasoner can number",
            rule_head.len()
        )));
    }
    readers.retain(|&(_, occurrence)| {
        !lazy[(rule_head[(occurrence >> 1) as usize] - derived_start) as usize]
    });
    let role_terms: Vec<Option<TermId>> = program
        .roles
        .iter()
        .map(|&role| terms.find(role, &[], &mut key))
        .collect();
    let role_index = |term: TermId| role_terms.iter().position(|&r| r == Some(term));
    let input_roles: Vec<Option<usize>> = input_nodes
        .iter()
        .map(|&n| role_index(terms.args(atoms[n])[0]))
        .collect();
    let input_classes = complement_inputs(
        &CircuitView {
            derived_start,
            input_start,
            code_start: &code_start,
            code: &code,
            lazy: &lazy,
            group_of: &group_of,
        },
        &input_roles,
        program.roles.len(),
        &mut readers,
        &rule_head,
    );
    readers.sort_unstable();
    let mut occurs_start = vec![0u32; props + 1];
    for &(target, _) in &readers {
        occurs_start[target as usize + 1] += 1;
    }
    for p in 0..props {
        occurs_start[p + 1] += occurs_start[p];
    }
    // The readers of a prop of an input class left in `readers` are its left-out moves.
    let mut in_class = vec![false; derived];
    for &member in input_classes.iter().flat_map(|class| &class.members) {
        in_class[(member - derived_start) as usize] = true;
    }
    // Each counted rule gets a counter of its failing literals, numbered apart from the rules:
    // the rules of lazy props, of recursive groups and of input classes have none, so the
    // evaluator's counters (copied at every playout's start) hold only those readers update.
    let mut counter_of_rule = vec![NO_COUNTER; rule_head.len()];
    let mut counters = 0u32;
    let mut occurs = Vec::with_capacity(readers.len());
    for &(_, occurrence) in &readers {
        let rule = (occurrence >> 1) as usize;
        let head = rule_head[rule];
        let counter_literal = if in_class[(head - derived_start) as usize] {
            LEFT_OUT
        } else if rule_length[rule] == GROUPED {
            GROUPED
        } else {
            if counter_of_rule[rule] == NO_COUNTER {
                counter_of_rule[rule] = counters;
                counters += 1;
            }
            counter_of_rule[rule] << 1 | (occurrence & 1)
        };
        occurs.push(Occurrence {
            counter_literal,
            head,
        });
    }
    // Named outputs.

    let init_of_base = base_fluents
        .iter()
        .map(|&f| prop_of_atom(keywords.init, &[f], &mut key))
        .collect();
    let mut input_actions = Vec::new();
    let mut input_legal = Vec::new();
    let mut input_gate = Vec::new();
    let mut input_watch = Vec::new();
    for &n in &input_nodes {
        let args = terms.args(atoms[n]);
        let legal = prop_of_atom(keywords.legal, args, &mut key);
        let watch = terms
            .find(keywords.legal, args, &mut key)
            .and_then(|atom| watches.get(&(node_of[atom as usize] as usize)));
        // A `legal` prop folded to a constant is its own watched prop under no gate.
        let (gate, watched) = watch.map_or((true_prop << 1, legal), |watch| {
            (
                watch.gate.map_or(true_prop << 1, |g| {
                    prop_of[(g >> 1) as usize] << 1 | (g & 1)
                }),
                watch.watched.map_or(true_prop, |node| prop_of[node]),
            )
        });
        input_actions.push(args[1]);
        input_legal.push(legal);
        input_gate.push(gate);
        input_watch.push(watched);
    }
    let (move_sets, watch_of_prop) = MoveSets::new(
        program.roles.len(),
        &input_roles,
        &input_legal,
        &input_gate,
        &input_watch,
        (false_prop, derived_start, props),
    )?;
    // Each prop's readers sorted counted first, and the rest of what the evaluator reads of it.
    let spare_next_bit = (base_count.div_ceil(64) * 64) as u32;
    let wiring: Vec<Wiring> = (0..props)
        .zip(watch_of_prop)
        .map(|(prop, (watch_bit, watch_set))| {
            let (start, end) = (occurs_start[prop], occurs_start[prop + 1]);
            let of_prop = &mut occurs[start as usize..end as usize];
            of_prop.sort_by_key(|occurrence| occurrence.counter_literal >= LEFT_OUT);
            let counted =
                of_prop.partition_point(|occurrence| occurrence.counter_literal < LEFT_OUT);
            // `None` for base props and inputs.
            let derived = prop.checked_sub(derived_start as usize);
            Wiring {
                readers_start: start,
                special_start: start + counted as u32,
                readers_end: end,
                group: derived.map_or(NO_GROUP, |index| group_of[index]),
                next_bit: match derived.map(|index| base_of_next[index]) {
                    Some(base) if base != NO_BASE => base,
                    _ => spare_next_bit,
                },
                watch_bit,
                watch_set,
            }
        })
        .collect();
    let per_role = |relation: Sym| -> Vec<Vec<(Prop, TermId)>> {
        let mut lists = vec![Vec::new(); program.roles.len()];
        for &atom in grounding.facts((relation, 2)) {
            let args = terms.args(atom);
            if let Some(role) = role_index(args[0]) {
                let node = node_of[atom as usize];
                if node != u32::MAX && prop_of[node as usize] != false_prop {
                    lists[role].push((prop_of[node as usize], args[1]));
                }
            }
        }
        lists
    };
    let goals = per_role(keywords.goal);
    let sees = per_role(keywords.sees);
    Ok(Circuit {
        props,
        base_count,
        false_prop,
        true_prop,
        input_start,
        derived_start,
        state_layer_end,
        code_start,
        code,
        counters: counters as usize,
        lazy,
        reads_lazy,
        wiring,
        occurs,
        groups,
        base_fluents,
        next_of_base,
        init_of_base,
        input_roles,
        input_actions,
        input_legal,
        move_sets,
        input_classes,
        terminal,
        goals,
        sees,
        ground_rules: rules.len(),
    })
}

/// The least fixpoint of "a node holds when one of its rules has every literal holding",
/// where `holds(literal, known)` decides a literal from the nodes known so far.
fn least_fixpoint(
    node_rules: &[Vec<Vec<NodeLiteral>>],
    holds: impl Fn(NodeLiteral, &[bool]) -> bool,
) -> Vec<bool> {
    let mut known = vec![false; node_rules.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, rules) in node_rules.iter().enumerate() {
            if !known[i]
                && rules
                    .iter()
                    .any(|literals| literals.iter().all(|&l| holds(l, &known)))
            {
                known[i] = true;
                changed = true;
            }
        }
    }
    known
}

/// No set: the input is not a move any declared role can ever make.
pub(super) const NO_SET: u32 = u32::MAX;

/// The playable moves, grouped for picking: per role, one set per gate literal; a move is
/// legal when its set's gate holds and its watched prop holds. Each set is a run of words of
/// the evaluator's bit vector of playable moves, one bit per input of the set, which the
/// evaluator keeps equal to the input's watched prop (see `gates`): each watched prop is
/// watched by one input, so flipping the prop flips one bit.
#[derive(Debug)]
pub(super) struct MoveSets {
    /// Per role: (gate literal, set number) of each of its sets.
    pub role_sets: Vec<Vec<(u32, u32)>>,
    pub set_count: usize,
    /// Per set (plus a closing entry): its first word in the bits of playable moves. After
    /// the last set's words comes one spare word (see [`Wiring::watch_bit`]).
    pub set_words: Vec<u32>,
    /// Per bit of the playable moves: the input it stands for (numbered from the first input).
    pub bit_input: Vec<u32>,
    /// Per input: its set, or [`NO_SET`]; its bit (meaningful when in a set).
    pub input_set: Vec<u32>,
    pub input_bit: Vec<u32>,
    /// Per input: the prop whose truth puts it in its set.
    pub input_watch: Vec<Prop>,
}

impl MoveSets {
    /// The words of a set in the evaluator's bits of playable moves.
    pub fn words(&self, set: u32) -> std::ops::Range<usize> {
        self.set_words[set as usize] as usize..self.set_words[set as usize + 1] as usize
    }

    /// `bounds` is (false prop, first derived prop, prop count). Also returns, per prop, the
    /// bit and set of the input watching it: for a prop no input watches, a bit of the spare
    /// word and a spare set (`set_count`).
    fn new(
        roles: usize,
        input_roles: &[Option<usize>],
        input_legal: &[Prop],
        input_gate: &[u32],
        input_watch: &[Prop],
        (false_prop, derived_start, props): (Prop, Prop, usize),
    ) -> Result<(MoveSets, Vec<(u32, u32)>), GdlError> {
        let mut role_sets: Vec<Vec<(u32, u32)>> = vec![Vec::new(); roles];
        let mut set_inputs: Vec<Vec<u32>> = Vec::new();
        let mut input_set = vec![NO_SET; input_roles.len()];
        for (input, role) in input_roles.iter().enumerate() {
            let Some(role) = *role else { continue };
            if input_legal[input] == false_prop || input_watch[input] == false_prop {
                continue;
            }
            let gate = input_gate[input];
            let sets = &mut role_sets[role];
            let set = match sets.iter().find(|&&(g, _)| g == gate) {
                Some(&(_, set)) => set,
                None => {
                    sets.push((gate, set_inputs.len() as u32));
                    set_inputs.push(Vec::new());
                    set_inputs.len() as u32 - 1
                }
            };
            input_set[input] = set;
            set_inputs[set as usize].push(input as u32);
        }
        let set_count = set_inputs.len();
        let mut set_words = Vec::with_capacity(set_count + 1);
        let mut bit_input = Vec::new();
        let mut input_bit = vec![NO_SET; input_roles.len()];
        for inputs in &set_inputs {
            set_words.push((bit_input.len() / 64) as u32);
            for &input in inputs {
                input_bit[input as usize] = bit_input.len() as u32;
                bit_input.push(input);
            }
            bit_input.resize(bit_input.len().next_multiple_of(64), 0);
        }
        let spare_word = (bit_input.len() / 64) as u32;
        set_words.push(spare_word);
        let mut watch = vec![(spare_word * 64, set_count as u32); props];
        for (input, &set) in input_set.iter().enumerate() {
            let prop = input_watch[input];
            if set == NO_SET || prop < derived_start {
                continue;
            }
            let index = prop as usize;
            // `gates::split` gives every move a watched prop of its own; were it not so, the
            // game is left to the interpreter rather than played wrong.
            if watch[index].0 != spare_word * 64 {
                return Err(GdlError::Build(
                    "two moves watch one proposition (a grounded reasoner bug)".to_owned(),
                ));
            }
            watch[index] = (input_bit[input], set);
        }
        let sets = MoveSets {
            role_sets,
            set_count,
            set_words,
            bit_input,
            input_set,
            input_bit,
            input_watch: input_watch.to_vec(),
        };
        Ok((sets, watch))
    }
}

/// Props of the form "one of these moves is played" (`f :- does(r, a1) | does(r, a2) | ...`)
/// whose moves are most of the moves of their class, counted through the few moves they leave
/// out. Frame axioms are the case: "some move elsewhere" reads every move that does not touch
/// one cell, so each move would be read by a rule of nearly every cell.
///
/// A class is the set of moves read by any of its props (props with moves of the same roles
/// share a class). Such a prop holds when the number of its moves played is positive; that
/// number is the number of the class's moves played (the class total) minus the number of its
/// left-out moves played. The evaluator keeps the prop's count of holding rules at that
/// difference: a left-out move played counts one less (an occurrence of length [`LEFT_OUT`]),
/// and when a class total changes, the evaluator adds the change to each member's count. A
/// joint move replaces one move of each role by another, so the count may dip below zero and
/// come back while the inputs are loaded: the evaluator decides whether the prop changes once
/// they are.
#[derive(Debug)]
pub(super) struct InputClass {
    /// Per input (numbered from the first input): whether it counts in the total.
    pub inputs: Vec<bool>,
    /// The derived props counted this way.
    pub members: Vec<Prop>,
}

/// What [`complement_inputs`] reads of the circuit being built.
struct CircuitView<'a> {
    derived_start: Prop,
    input_start: Prop,
    code_start: &'a [u32],
    code: &'a [u32],
    lazy: &'a [bool],
    group_of: &'a [u32],
}

/// A prop that may be counted through its left-out moves.
struct Candidate {
    index: usize,
    first_rule: u32,
    /// Its moves, sorted inputs numbered from the first input.
    moves: Vec<u32>,
}

/// Finds the props to count through their left-out moves (see [`InputClass`]) and rewrites
/// their entries in `readers` (target prop, rule number << 1 | negated): their own rules'
/// entries are replaced by one entry per left-out move.
fn complement_inputs(
    view: &CircuitView<'_>,
    input_roles: &[Option<usize>],
    roles: usize,
    readers: &mut Vec<(Prop, u32)>,
    rule_head: &[Prop],
) -> Vec<InputClass> {
    // Candidates by the roles of their moves.
    let mut by_roles: Vec<(Vec<bool>, Vec<Candidate>)> = Vec::new();
    let mut first_rule = 0u32;
    for index in 0..view.lazy.len() {
        let code = &view.code[view.code_start[index] as usize..view.code_start[index + 1] as usize];
        let rule = first_rule;
        first_rule += count_rules(code);
        if view.lazy[index] || view.group_of[index] != NO_GROUP || !code.len().is_multiple_of(2) {
            continue;
        }
        // Every rule one positive literal, a move of a declared role.
        let mut moves: Vec<u32> = Vec::with_capacity(code.len() / 2);
        let mut class_roles = vec![false; roles];
        let all_moves = code.chunks_exact(2).all(|pair| {
            let literal = pair[1];
            let prop = literal >> 1;
            let is_move = prop >= view.input_start && prop < view.derived_start && literal & 1 == 0;
            let role = is_move
                .then(|| input_roles[(prop - view.input_start) as usize])
                .flatten();
            if let (1, Some(role)) = (pair[0], role) {
                class_roles[role] = true;
                moves.push(prop - view.input_start);
                true
            } else {
                false
            }
        });
        if !all_moves {
            continue;
        }
        moves.sort_unstable();
        let candidate = Candidate {
            index,
            first_rule: rule,
            moves,
        };
        match by_roles.iter_mut().find(|(r, _)| *r == class_roles) {
            Some((_, candidates)) => candidates.push(candidate),
            None => by_roles.push((class_roles, vec![candidate])),
        }
    }
    let mut classes: Vec<InputClass> = Vec::new();
    let mut counted = vec![false; view.lazy.len()];
    let mut left_out_readers: Vec<(Prop, u32)> = Vec::new();
    for (_, candidates) in by_roles {
        let mut inputs = vec![false; input_roles.len()];
        for &input in candidates.iter().flat_map(|c| &c.moves) {
            inputs[input as usize] = true;
        }
        let class_size = inputs.iter().filter(|&&member| member).count();
        let mut members = Vec::new();
        for candidate in candidates {
            // Worth it when fewer moves are left out than read.
            if 2 * candidate.moves.len() <= class_size {
                continue;
            }
            counted[candidate.index] = true;
            members.push(view.derived_start + candidate.index as Prop);
            for (input, _) in inputs.iter().enumerate().filter(|&(_, &member)| member) {
                if candidate.moves.binary_search(&(input as u32)).is_err() {
                    let prop = view.input_start + input as Prop;
                    left_out_readers.push((prop, candidate.first_rule << 1 | 1));
                }
            }
        }
        if !members.is_empty() {
            classes.push(InputClass { inputs, members });
        }
    }
    readers.retain(|&(_, occurrence)| {
        !counted[(rule_head[(occurrence >> 1) as usize] - view.derived_start) as usize]
    });
    readers.extend(left_out_readers);
    classes
}

/// Marks the props read by the rules in `code[range]` (each is its length followed by its
/// literals).
fn mark_literals_read(code: &[u32], range: std::ops::Range<u32>, read: &mut [bool]) {
    let code = &code[range.start as usize..range.end as usize];
    let mut at = 0;
    while at < code.len() {
        let length = code[at] as usize;
        for &literal in &code[at + 1..at + 1 + length] {
            read[(literal >> 1) as usize] = true;
        }
        at += 1 + length;
    }
}

/// The number of rules in a prop's code (each is its length followed by its literals).
fn count_rules(code: &[u32]) -> u32 {
    let mut at = 0;
    let mut rules = 0;
    while at < code.len() {
        at += 1 + code[at] as usize;
        rules += 1;
    }
    rules
}

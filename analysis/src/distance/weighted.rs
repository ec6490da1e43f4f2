//! The ludeme distance: a normalised, weighted tree edit distance in the spirit of Ludi
//! (Browne & Maire 2010, §II.D), invariant under the order of meaningless children.
//!
//! Each node weighs [`STRUCTURE_WEIGHT`] or [`PARAMETER_WEIGHT`], times [`DEPTH_DECAY`] for every
//! level below the root; a subtree weighs the sum of its nodes. The cost of turning one subtree
//! into another is:
//!
//! - a parameter for a parameter: both weights times how far apart the values are, graded for
//!   numbers (`|x − y| / (|x| + |y|)`: 3→4 is 1/7, 3→19 is 8/11) and all-or-nothing otherwise;
//! - a node for a node of another label: both weights (a relabelling), and the children are
//!   still matched;
//! - plus, one level down, the cheapest matching of the children: in order (an alignment with
//!   insertions and deletions) where order means something, and as an optimal assignment
//!   (Kuhn–Munkres) where it does not. An unmatched child costs its whole subtree's weight.
//!
//! The distance is that cost over the weight of both trees, so it lies in [0, 1]: 0 for trees
//! equal up to meaningless order, 1 for trees with nothing in common. `docs/distance.md` gives
//! the calibration of the weights and of the [`Class`] thresholds.
//!
//! Exactness has a price on wide nodes (a GDL game's hundreds of rules), so past fixed sizes
//! the assignment is solved on a cheap stand-in for the cost (bags of labels) and, wider still,
//! as a banded alignment of canonically sorted children. Every step works on canonically ordered
//! children and the comparison of two subtrees is always made in one orientation, so the result
//! stays invariant and symmetric; only optimality is given up there.

use std::collections::BTreeMap;

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::distance::tree::{ChildOrder, LudemeTree, NodeId, NodeKind};

/// The weight of a keyword, relation or ludeme at the root's level.
pub const STRUCTURE_WEIGHT: f64 = 1.0;
/// The weight of a parameter: light, as Ludi weighs rule parameters.
pub const PARAMETER_WEIGHT: f64 = 0.3;
/// The factor by which weights fall at each level of nesting: higher rules matter more.
pub const DEPTH_DECAY: f64 = 0.6;

/// At most this many child pairs are compared exactly in one assignment.
const EXACT_CELLS: usize = 144;
/// Groups of siblings up to this many on a side are assigned on bags of labels.
const PROXY_SIDE: usize = 48;
/// Ordered child lists up to this many pairs are aligned in full; longer ones in a band.
const ORDERED_CELLS: usize = 4096;
/// The half-width of the band of a banded alignment.
const BAND: usize = 4;
/// How many labels of a subtree its bag keeps (the first ones, top-down).
const BAG_SIZE: usize = 64;
/// Costs are handed to Kuhn–Munkres as integers in units of 10⁻⁹.
const COST_SCALE: f64 = 1e9;

/// What a distance says about two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The same game, up to meaningless order and names.
    Duplicate,
    /// The same game with some parameters or a rule changed.
    Variant,
    /// A distinct game.
    NewGame,
}

/// The largest distance between duplicates: none. Any change of a rule or parameter makes a
/// variant, however large the game (in a big game one parameter weighs very little, so no
/// positive threshold could keep every parameter change a variant).
pub const DUPLICATE_AT_MOST: f64 = 0.0;
/// The largest distance between variants (calibrated on `corpus/ludi`, `docs/distance.md`).
pub const VARIANT_AT_MOST: f64 = 0.2;

impl Class {
    pub fn of(distance: f64) -> Class {
        if distance <= DUPLICATE_AT_MOST {
            Class::Duplicate
        } else if distance <= VARIANT_AT_MOST {
            Class::Variant
        } else {
            Class::NewGame
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Duplicate => "duplicate",
            Class::Variant => "variant",
            Class::NewGame => "new game",
        }
    }
}

/// A tree with what the distance needs of each node, computed once: compare many games by
/// preparing each once.
pub struct Prepared<'t> {
    tree: &'t LudemeTree,
    /// The node's own weight at its own level (0 for the root).
    own: Vec<f64>,
    /// The subtree's weight at the node's own level.
    weight: Vec<f64>,
    number: Vec<Option<f64>>,
    /// A hash of the node's label, kind and group: equal labels compare in one step.
    label_key: Vec<u64>,
    /// Bags of labels of the children of wide unordered nodes (sorted label hashes).
    bags: FxHashMap<NodeId, Vec<u64>>,
}

impl<'t> Prepared<'t> {
    pub fn new(tree: &'t LudemeTree) -> Prepared<'t> {
        let nodes = tree.nodes();
        let own: Vec<f64> = nodes
            .iter()
            .enumerate()
            .map(|(index, node)| match (index, node.kind) {
                (0, _) => 0.0,
                (_, NodeKind::Structure) => STRUCTURE_WEIGHT,
                (_, NodeKind::Parameter) => PARAMETER_WEIGHT,
            })
            .collect();
        let mut weight = own.clone();
        for index in (0..nodes.len()).rev() {
            let below: f64 = nodes[index]
                .children
                .iter()
                .map(|&child| weight[child as usize])
                .sum();
            weight[index] += DEPTH_DECAY * below;
        }
        let number = nodes.iter().map(|node| node.number()).collect();
        let label_key = nodes
            .iter()
            .map(|node| {
                use std::hash::{Hash, Hasher};
                let mut hasher = rustc_hash::FxHasher::default();
                (&node.label, node.kind, &node.group).hash(&mut hasher);
                hasher.finish()
            })
            .collect();
        let wide = (EXACT_CELLS as f64).sqrt() as usize;
        let mut bags = FxHashMap::default();
        for node in nodes {
            if node.order == ChildOrder::Unordered && node.children.len() > wide {
                for &child in &node.children {
                    bags.insert(child, bag(tree, child));
                }
            }
        }
        Prepared {
            tree,
            own,
            weight,
            number,
            label_key,
            bags,
        }
    }

    pub fn tree(&self) -> &'t LudemeTree {
        self.tree
    }

    /// The weight of the whole tree.
    pub fn total_weight(&self) -> f64 {
        self.weight[LudemeTree::ROOT as usize]
    }
}

/// The labels of a subtree, top-down, as sorted hashes: a cheap summary of what it is made of.
fn bag(tree: &LudemeTree, root: NodeId) -> Vec<u64> {
    let mut labels = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if labels.len() >= BAG_SIZE {
            break;
        }
        let node = tree.node(id);
        labels.push(label_hash(&node.label));
        stack.extend(node.children.iter().rev());
    }
    labels.sort_unstable();
    labels
}

fn label_hash(label: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    label.hash(&mut hasher);
    hasher.finish()
}

/// The share of two sorted bags that is not common to both.
fn bag_difference(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    1.0 - (2 * common) as f64 / (a.len() + b.len()) as f64
}

/// How far apart two parameter values are, in [0, 1]: graded for numbers, else 0 or 1.
pub fn parameter_difference(a: &str, b: &str, a_number: Option<f64>, b_number: Option<f64>) -> f64 {
    if a == b {
        return 0.0;
    }
    match (a_number, b_number) {
        (Some(x), Some(y)) => {
            let scale = x.abs() + y.abs();
            if scale == 0.0 {
                0.0
            } else {
                ((x - y).abs() / scale).clamp(0.0, 1.0)
            }
        }
        _ => 1.0,
    }
}

/// A node of one of the two trees compared: (which tree, which node).
type At = (usize, NodeId);

/// A short list of nodes, kept off the heap: most nodes have few children.
type Nodes = SmallVec<[At; 8]>;

/// The children of the first and of the second side that fall into one group.
type Sides = (Vec<At>, Vec<At>);

/// How two lists of children were matched.
#[derive(Default)]
struct Alignment {
    cost: f64,
    /// Matched children, first side then second, with the cost of the pair.
    pairs: Vec<(At, At, f64)>,
    /// Children of the first side left unmatched.
    removed: Vec<At>,
    /// Children of the second side left unmatched.
    added: Vec<At>,
}

struct Comparer<'a, 't> {
    trees: [&'a Prepared<'t>; 2],
}

/// How many pairs of subtrees each thread remembers the cost of before starting afresh.
const MEMO_CAPACITY: usize = 1 << 19;

thread_local! {
    /// The cost of each pair of subtrees compared lately, by their hashes. A pair's cost depends
    /// on nothing but the two subtrees, so it is kept across comparisons: games share many
    /// rules and parts (`(true (control ?1))`), and comparing one game with a whole corpus
    /// meets them again and again.
    static MEMO: std::cell::RefCell<FxHashMap<(u64, u64), f64>> =
        std::cell::RefCell::new(FxHashMap::default());
}

impl<'a, 't> Comparer<'a, 't> {
    fn new(first: &'a Prepared<'t>, second: &'a Prepared<'t>) -> Self {
        Comparer {
            trees: [first, second],
        }
    }

    fn node(&self, at: At) -> &'t crate::distance::tree::Node {
        self.trees[at.0].tree.node(at.1)
    }

    fn weight(&self, at: At) -> f64 {
        self.trees[at.0].weight[at.1 as usize]
    }

    fn own(&self, at: At) -> f64 {
        self.trees[at.0].own[at.1 as usize]
    }

    fn children(&self, at: At) -> Nodes {
        self.node(at).children.iter().map(|&c| (at.0, c)).collect()
    }

    fn same_label(&self, x: At, y: At) -> bool {
        // 64-bit hashes of label, kind and group: a collision is as unlikely as in the
        // subtree hashes the whole comparison rests on.
        let key = |at: At| self.trees[at.0].label_key[at.1 as usize];
        key(x) == key(y)
    }

    /// The cost of the nodes themselves, children aside.
    fn own_difference(&self, x: At, y: At) -> f64 {
        let (a, b) = (self.node(x), self.node(y));
        if self.same_label(x, y) {
            0.0
        } else if a.kind == NodeKind::Parameter && b.kind == NodeKind::Parameter {
            let numbers = (
                self.trees[x.0].number[x.1 as usize],
                self.trees[y.0].number[y.1 as usize],
            );
            let graded = parameter_difference(&a.label, &b.label, numbers.0, numbers.1);
            (self.own(x) + self.own(y)) * graded
        } else {
            self.own(x) + self.own(y)
        }
    }

    /// The cost of turning subtree `x` into subtree `y` (at `x`'s level). Always computed in
    /// one orientation, so that it is symmetric whatever approximations apply below.
    fn cost(&mut self, x: At, y: At) -> f64 {
        let (hx, hy) = (self.node(x).hash, self.node(y).hash);
        if hx == hy {
            return 0.0;
        }
        if self.node(x).is_leaf() && self.node(y).is_leaf() {
            return self.own_difference(x, y);
        }
        let (x, y) = if hx < hy { (x, y) } else { (y, x) };
        let key = (hx.min(hy), hx.max(hy));
        let small = self.node(x).size + self.node(y).size <= 4;
        if !small && let Some(known) = MEMO.with(|memo| memo.borrow().get(&key).copied()) {
            return known;
        }
        let mut cost = self.own_difference(x, y);
        if !(self.node(x).is_leaf() && self.node(y).is_leaf()) {
            cost += DEPTH_DECAY * self.align(x, y, false).cost;
        }
        if !small {
            MEMO.with(|memo| {
                let mut memo = memo.borrow_mut();
                if memo.len() >= MEMO_CAPACITY {
                    memo.clear();
                }
                memo.insert(key, cost);
            });
        }
        cost
    }

    /// The cost of a pair of children, or of deleting one and inserting the other when their
    /// slots differ.
    fn pair_cost(&mut self, x: At, y: At, respect_slots: bool) -> f64 {
        if respect_slots && self.node(x).slot != self.node(y).slot {
            self.weight(x) + self.weight(y)
        } else {
            self.cost(x, y)
        }
    }

    /// Matches the children of `x` with those of `y`.
    fn align(&mut self, x: At, y: At, want_pairs: bool) -> Alignment {
        // Slots are places in a parent: they mean something only between parents of one label.
        let respect_slots = self.same_label(x, y);
        let ordered =
            self.node(x).order == ChildOrder::Ordered && self.node(y).order == ChildOrder::Ordered;
        let (xs, ys) = (self.children(x), self.children(y));
        if ordered {
            self.align_ordered(&xs, &ys, respect_slots, want_pairs)
        } else {
            self.align_unordered(&xs, &ys, respect_slots)
        }
    }

    fn align_unordered(&mut self, xs: &[At], ys: &[At], respect_slots: bool) -> Alignment {
        let mut alignment = Alignment::default();
        // Identical children pair off at no cost.
        let key = |this: &Self, at: At| {
            let node = this.node(at);
            (if respect_slots { node.slot } else { 0 }, node.hash)
        };
        let mut sorted_x: Nodes = xs.iter().copied().collect();
        let mut sorted_y: Nodes = ys.iter().copied().collect();
        sorted_x.sort_by_key(|&at| key(self, at));
        sorted_y.sort_by_key(|&at| key(self, at));
        let (mut rest_x, mut rest_y) = (Nodes::new(), Nodes::new());
        let (mut i, mut j) = (0, 0);
        while i < sorted_x.len() && j < sorted_y.len() {
            match key(self, sorted_x[i]).cmp(&key(self, sorted_y[j])) {
                std::cmp::Ordering::Less => {
                    rest_x.push(sorted_x[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    rest_y.push(sorted_y[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    alignment.pairs.push((sorted_x[i], sorted_y[j], 0.0));
                    i += 1;
                    j += 1;
                }
            }
        }
        rest_x.extend_from_slice(&sorted_x[i..]);
        rest_y.extend_from_slice(&sorted_y[j..]);

        if rest_x.len() * rest_y.len() <= EXACT_CELLS {
            self.assign(&rest_x, &rest_y, respect_slots, false, &mut alignment);
            return alignment;
        }
        // Too wide to compare every pair: only siblings of one group (label, or GDL head
        // relation) and slot are compared.
        let mut groups: BTreeMap<(u16, &str), Sides> = BTreeMap::new();
        for (side, rest) in [(0, &rest_x), (1, &rest_y)] {
            for &at in rest {
                let node = self.node(at);
                let slot = if respect_slots { node.slot } else { 0 };
                let entry = groups.entry((slot, node.group_key())).or_default();
                if side == 0 {
                    entry.0.push(at);
                } else {
                    entry.1.push(at);
                }
            }
        }
        for (group_x, group_y) in groups.into_values() {
            let cells = group_x.len() * group_y.len();
            if cells <= EXACT_CELLS {
                self.assign(&group_x, &group_y, respect_slots, false, &mut alignment);
            } else if group_x.len().max(group_y.len()) <= PROXY_SIDE {
                self.assign(&group_x, &group_y, respect_slots, true, &mut alignment);
            } else {
                let by_shape = |this: &Self, list: &mut Vec<At>| {
                    list.sort_by_key(|&at| (this.node(at).size, this.node(at).hash));
                };
                let (mut group_x, mut group_y) = (group_x, group_y);
                by_shape(self, &mut group_x);
                by_shape(self, &mut group_y);
                let banded = self.align_ordered(&group_x, &group_y, respect_slots, true);
                alignment.merge(banded);
            }
        }
        alignment.cost = alignment.pairs.iter().map(|pair| pair.2).sum::<f64>()
            + alignment
                .removed
                .iter()
                .chain(&alignment.added)
                .map(|&at| self.weight(at))
                .sum::<f64>();
        alignment
    }

    /// An optimal assignment between `xs` and `ys` (on the exact costs, or on bags of labels
    /// when `proxy`), added to `alignment`. Every child of the shorter side is matched: a
    /// match never costs more than deleting and inserting the two.
    fn assign(
        &mut self,
        xs: &[At],
        ys: &[At],
        respect_slots: bool,
        proxy: bool,
        alignment: &mut Alignment,
    ) {
        if xs.is_empty() || ys.is_empty() {
            alignment.removed.extend_from_slice(xs);
            alignment.added.extend_from_slice(ys);
            alignment.cost += xs.iter().chain(ys).map(|&at| self.weight(at)).sum::<f64>();
            return;
        }
        let transposed = xs.len() > ys.len();
        let (rows, columns) = if transposed { (ys, xs) } else { (xs, ys) };
        let mut exact: Vec<Option<f64>> = vec![None; rows.len() * columns.len()];
        let mut values = Vec::with_capacity(rows.len() * columns.len());
        for (r, &row) in rows.iter().enumerate() {
            for (c, &column) in columns.iter().enumerate() {
                let (x, y) = if transposed {
                    (column, row)
                } else {
                    (row, column)
                };
                let cost = if proxy {
                    self.proxy_cost(x, y, respect_slots)
                } else {
                    let cost = self.pair_cost(x, y, respect_slots);
                    exact[r * columns.len() + c] = Some(cost);
                    cost
                };
                let relative = cost - self.weight(column);
                values.push((relative * COST_SCALE).round() as i64);
            }
        }
        let Ok(matrix) = Matrix::from_vec(rows.len(), columns.len(), values) else {
            return;
        };
        let (_, assignment) = kuhn_munkres_min(&matrix);
        let mut used = vec![false; columns.len()];
        for (r, &c) in assignment.iter().enumerate() {
            used[c] = true;
            let (row, column) = (rows[r], columns[c]);
            let (x, y) = if transposed {
                (column, row)
            } else {
                (row, column)
            };
            let cost = match exact[r * columns.len() + c] {
                Some(cost) => cost,
                None => self.pair_cost(x, y, respect_slots),
            };
            alignment.cost += cost;
            alignment.pairs.push((x, y, cost));
        }
        for (c, &column) in columns.iter().enumerate() {
            if !used[c] {
                alignment.cost += self.weight(column);
                if transposed {
                    alignment.removed.push(column);
                } else {
                    alignment.added.push(column);
                }
            }
        }
    }

    /// A cheap stand-in for the cost of a pair: both weights times the share of their labels
    /// that they do not share.
    fn proxy_cost(&self, x: At, y: At, respect_slots: bool) -> f64 {
        let total = self.weight(x) + self.weight(y);
        if respect_slots && self.node(x).slot != self.node(y).slot {
            return total;
        }
        match (
            self.trees[x.0].bags.get(&x.1),
            self.trees[y.0].bags.get(&y.1),
        ) {
            (Some(a), Some(b)) => total * bag_difference(a, b),
            _ => total,
        }
    }

    /// An alignment of two sequences (edit distance with the subtree costs), in full or, for
    /// long sequences, in a band around the diagonal.
    fn align_ordered(
        &mut self,
        xs: &[At],
        ys: &[At],
        respect_slots: bool,
        want_pairs: bool,
    ) -> Alignment {
        const DELETE: u8 = 1;
        const INSERT: u8 = 2;
        const MATCH: u8 = 3;
        let (n, m) = (xs.len(), ys.len());
        let everything: f64 = xs.iter().chain(ys).map(|&at| self.weight(at)).sum();
        if n == 0 || m == 0 {
            return Alignment {
                cost: everything,
                pairs: Vec::new(),
                removed: xs.to_vec(),
                added: ys.to_vec(),
            };
        }
        let banded = n * m > ORDERED_CELLS;
        // The cells of row `i` that are filled: all of them, or only those at most `BAND` from
        // the diagonal, so that a banded alignment visits no cell outside its band (the others
        // stay infinite).
        let columns = |i: usize| {
            if banded {
                let diagonal = i * m / n;
                diagonal.saturating_sub(BAND)..=(diagonal + BAND).min(m)
            } else {
                0..=m
            }
        };
        let width = m + 1;
        let cells = (n + 1) * width;
        let mut table: SmallVec<[f64; 64]> = SmallVec::from_elem(f64::INFINITY, cells);
        let mut choice: SmallVec<[u8; 64]> = SmallVec::from_elem(0, cells);
        table[0] = 0.0;
        for i in 0..=n {
            for j in columns(i) {
                if (i, j) == (0, 0) {
                    continue;
                }
                let mut best = f64::INFINITY;
                let mut how = 0;
                if i > 0 && table[(i - 1) * width + j].is_finite() {
                    best = table[(i - 1) * width + j] + self.weight(xs[i - 1]);
                    how = DELETE;
                }
                if j > 0 && table[i * width + j - 1].is_finite() {
                    let insert = table[i * width + j - 1] + self.weight(ys[j - 1]);
                    if insert < best {
                        best = insert;
                        how = INSERT;
                    }
                }
                if i > 0 && j > 0 && table[(i - 1) * width + j - 1].is_finite() {
                    let pair = self.pair_cost(xs[i - 1], ys[j - 1], respect_slots);
                    let matched = table[(i - 1) * width + j - 1] + pair;
                    if matched < best {
                        best = matched;
                        how = MATCH;
                    }
                }
                table[i * width + j] = best;
                choice[i * width + j] = how;
            }
        }
        let found = table[n * width + m];
        // (`found` is infinite when the band holds no path.)
        if found.is_nan() || found > everything {
            // The band missed a cheaper path than replacing everything: replace everything.
            return Alignment {
                cost: everything,
                pairs: Vec::new(),
                removed: xs.to_vec(),
                added: ys.to_vec(),
            };
        }
        let mut alignment = Alignment {
            cost: found,
            ..Alignment::default()
        };
        if want_pairs {
            let (mut i, mut j) = (n, m);
            while i > 0 || j > 0 {
                match choice[i * width + j] {
                    MATCH => {
                        let pair = self.pair_cost(xs[i - 1], ys[j - 1], respect_slots);
                        alignment.pairs.push((xs[i - 1], ys[j - 1], pair));
                        i -= 1;
                        j -= 1;
                    }
                    DELETE => {
                        alignment.removed.push(xs[i - 1]);
                        i -= 1;
                    }
                    INSERT => {
                        alignment.added.push(ys[j - 1]);
                        j -= 1;
                    }
                    _ => break,
                }
            }
            alignment.pairs.reverse();
        }
        alignment
    }
}

impl Alignment {
    fn merge(&mut self, other: Alignment) {
        self.cost += other.cost;
        self.pairs.extend(other.pairs);
        self.removed.extend(other.removed);
        self.added.extend(other.added);
    }
}

/// The distance between two prepared trees, in [0, 1].
pub fn distance(first: &Prepared<'_>, second: &Prepared<'_>) -> f64 {
    let total = first.total_weight() + second.total_weight();
    if total <= 0.0 {
        return 0.0;
    }
    let mut comparer = Comparer::new(first, second);
    let cost = comparer.cost((0, LudemeTree::ROOT), (1, LudemeTree::ROOT));
    (cost / total).clamp(0.0, 1.0)
}

/// One difference between two games, in words.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Difference {
    /// What this difference adds to the distance.
    pub weight: f64,
    /// Where it is: `end condition`, `board size`, `legal rule body`.
    pub place: String,
    /// The part in the first game (`None` when the second game adds it).
    pub before: Option<String>,
    /// The part in the second game (`None` when the second game drops it).
    pub after: Option<String>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.before, &self.after) {
            (Some(before), Some(after)) => write!(f, "{}: {before} → {after}", self.place),
            (Some(before), None) => write!(f, "{}: removed {before}", self.place),
            (None, Some(after)) => write!(f, "{}: added {after}", self.place),
            (None, None) => write!(f, "{}", self.place),
        }
    }
}

/// A distance with its class and the differences behind it, most important first.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub distance: f64,
    pub class: Class,
    pub differences: Vec<Difference>,
}

/// How long a part of a rule may be in a message.
const RENDER_CHARS: usize = 72;

/// The distance between two trees, its class, and the differences, most important first.
pub fn compare(first: &Prepared<'_>, second: &Prepared<'_>) -> Comparison {
    let distance = distance(first, second);
    let total = first.total_weight() + second.total_weight();
    let mut differences = Vec::new();
    if distance > 0.0 && total > 0.0 {
        let mut comparer = Comparer::new(first, second);
        let mut explainer = Explainer {
            comparer: &mut comparer,
            out: &mut differences,
        };
        explainer.explain(
            (0, LudemeTree::ROOT),
            (1, LudemeTree::ROOT),
            DEPTH_DECAY / total,
        );
    }
    differences.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    Comparison {
        distance,
        class: Class::of(distance),
        differences,
    }
}

struct Explainer<'c, 'a, 't> {
    comparer: &'c mut Comparer<'a, 't>,
    out: &'c mut Vec<Difference>,
}

impl Explainer<'_, '_, '_> {
    fn render(&self, at: At) -> String {
        self.comparer.trees[at.0].tree.render(at.1, RENDER_CHARS)
    }

    fn describe(&self, at: At) -> String {
        self.comparer.trees[at.0].tree.describe(at.1)
    }

    /// Lists the differences under the matched pair `x`, `y`, whose children weigh `scale`
    /// each in the distance. A pair whose own labels differ, or whose children differ only in
    /// leaves, is one difference (`(in-a-row 3) → (in-a-row 2)`); otherwise each differing
    /// child is looked at in turn. Recursion is bounded by the trees' depth bound.
    fn explain(&mut self, x: At, y: At, scale: f64) {
        let alignment = self.comparer.align(x, y, true);
        for &(child_x, child_y, cost) in &alignment.pairs {
            if cost <= 0.0 {
                continue;
            }
            let both = [child_x, child_y];
            let relabelled = self.comparer.own_difference(child_x, child_y) > 0.0;
            let whole_is_leafy = both.iter().all(|&at| self.comparer.node(at).is_leaf());
            let overlap = cost < self.comparer.weight(child_x) + self.comparer.weight(child_y);
            if !overlap {
                self.removed(child_x, scale);
                self.added(child_y, scale);
            } else if relabelled || whole_is_leafy || self.changes_only_leaves(child_x, child_y) {
                self.out.push(Difference {
                    weight: cost * scale,
                    place: self.describe(child_x),
                    before: Some(self.render(child_x)),
                    after: Some(self.render(child_y)),
                });
            } else {
                self.explain(child_x, child_y, scale * DEPTH_DECAY);
            }
        }
        for &at in &alignment.removed {
            self.removed(at, scale);
        }
        for &at in &alignment.added {
            self.added(at, scale);
        }
    }

    fn changes_only_leaves(&mut self, x: At, y: At) -> bool {
        let alignment = self.comparer.align(x, y, true);
        let leaf = |at: At| self.comparer.node(at).is_leaf();
        alignment
            .pairs
            .iter()
            .filter(|pair| pair.2 > 0.0)
            .all(|&(a, b, _)| leaf(a) && leaf(b))
            && alignment.removed.iter().all(|&at| leaf(at))
            && alignment.added.iter().all(|&at| leaf(at))
    }

    fn removed(&mut self, at: At, scale: f64) {
        self.out.push(Difference {
            weight: self.comparer.weight(at) * scale,
            place: self.describe(at),
            before: Some(self.render(at)),
            after: None,
        });
    }

    fn added(&mut self, at: At, scale: f64) {
        self.out.push(Difference {
            weight: self.comparer.weight(at) * scale,
            place: self.describe(at),
            before: None,
            after: Some(self.render(at)),
        });
    }
}

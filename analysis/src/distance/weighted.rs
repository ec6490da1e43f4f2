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
//!
//! Games are compared through a [`Catalog`], which stores each distinct subtree of its games
//! once; the [`Comparer`] works on its ids and remembers the cost of every pair of subtrees it
//! meets, across all the games it compares.

use pathfinding::kuhn_munkres::{Weights, kuhn_munkres};

use crate::distance::catalog::{Catalog, Subtree, SubtreeId, is_wide};
use crate::distance::tree::{ChildOrder, LudemeTree, NodeId, NodeKind};

/// The weight of a keyword, relation or ludeme at the root's level.
pub const STRUCTURE_WEIGHT: f64 = 1.0;
/// The weight of a parameter: light, as Ludi weighs rule parameters.
pub const PARAMETER_WEIGHT: f64 = 0.3;
/// The factor by which weights fall at each level of nesting: higher rules matter more.
pub const DEPTH_DECAY: f64 = 0.6;

/// At most this many child pairs are compared exactly in one assignment.
pub(crate) const EXACT_CELLS: usize = 144;
/// Groups of siblings up to this many on a side are assigned on bags of labels.
const PROXY_SIDE: usize = 48;
/// Ordered child lists up to this many pairs are aligned in full; longer ones in a band.
const ORDERED_CELLS: usize = 4096;
/// The half-width of the band of a banded alignment.
const BAND: usize = 4;
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
    graded_difference(a == b, a_number, b_number)
}

/// [`parameter_difference`] once the texts are known to be equal or not.
fn graded_difference(same_text: bool, a_number: Option<f64>, b_number: Option<f64>) -> f64 {
    if same_text {
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

/// A child being matched: the subtree, the place it fills in its parent, and where it stands
/// among its parent's children (to find it again in the tree when explaining).
#[derive(Clone, Copy, Debug)]
struct Member {
    hash: u64,
    weight: f64,
    id: SubtreeId,
    position: u32,
    group: u32,
    size: u32,
    slot: u16,
}

/// How two lists of children were matched.
#[derive(Default)]
struct Alignment {
    cost: f64,
    /// Matched children, first side then second, with the cost of the pair.
    pairs: Vec<(Member, Member, f64)>,
    /// Children of the first side left unmatched.
    removed: Vec<Member>,
    /// Children of the second side left unmatched.
    added: Vec<Member>,
}

/// The working lists of one matching of children, kept from one call to the next so that
/// comparing two subtrees allocates nothing once the comparer is warm.
#[derive(Default)]
struct Scratch {
    sides: [Vec<Member>; 2],
    rests: [Vec<Member>; 2],
    groups: [Vec<Member>; 2],
    exact: Vec<Option<f64>>,
    values: Vec<i64>,
    used: Vec<bool>,
    table: Vec<f64>,
    choice: Vec<u8>,
    /// Which children of each side were paired off as identical.
    paired: [Vec<bool>; 2],
}

/// The tables of an assignment, borrowed from a [`Scratch`].
struct AssignTables<'s> {
    exact: &'s mut Vec<Option<f64>>,
    values: &'s mut Vec<i64>,
    used: &'s mut Vec<bool>,
}

/// Costs handed to Kuhn–Munkres (which maximises): the integer costs, negated, in a table
/// reused from call to call.
struct NegatedCosts {
    rows: usize,
    columns: usize,
    values: Vec<i64>,
}

impl Weights<i64> for NegatedCosts {
    fn rows(&self) -> usize {
        self.rows
    }

    fn columns(&self) -> usize {
        self.columns
    }

    fn at(&self, row: usize, column: usize) -> i64 {
        self.values[row * self.columns + column]
    }

    fn neg(&self) -> Self {
        NegatedCosts {
            rows: self.rows,
            columns: self.columns,
            values: self
                .values
                .iter()
                .map(|value| value.wrapping_neg())
                .collect(),
        }
    }
}

/// How many pairs of subtrees a comparer remembers the cost of before starting afresh.
const MEMO_CAPACITY: usize = 1 << 20;

/// Pairs of subtrees of at most this many nodes between them are costed afresh each time:
/// cheaper than looking them up.
const UNREMEMBERED_SIZE: u64 = 4;

/// The cost of pairs of subtrees, by a key made of their two ids (never 0: the ids differ).
/// Open addressing with linear probing, each key beside its value, so that a lookup usually
/// touches one cache line: the memo is far larger than the caches, and its lookups were a
/// fifth of the time of a whole-corpus run.
struct PairMemo {
    /// A power of two of slots (none before the first entry), at most half of them used.
    slots: Vec<(u64, f64)>,
    len: usize,
    /// Past this many entries the memo starts afresh.
    capacity: usize,
    /// 64 minus the number of bits of a slot index.
    shift: u32,
}

impl PairMemo {
    const EMPTY: u64 = 0;
    /// The slots of a fresh memo: comparing two small games needs no more.
    const FIRST_SLOTS: usize = 1 << 10;

    fn new(capacity: usize) -> PairMemo {
        PairMemo {
            slots: Vec::new(),
            len: 0,
            capacity: capacity.max(Self::FIRST_SLOTS / 2).next_power_of_two(),
            shift: 63,
        }
    }

    fn home(&self, key: u64) -> usize {
        // Fibonacci hashing: the top bits of the key times 2⁶⁴/φ.
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// Reads the slot where `key` would be found first, so that it is in the caches when
    /// looked up (the value read means nothing).
    fn touch(&self, key: u64) -> u64 {
        if self.slots.is_empty() {
            return 0;
        }
        self.slots[self.home(key)].0
    }

    fn get(&self, key: u64) -> Option<f64> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let (stored, value) = self.slots[index];
            if stored == key {
                return Some(value);
            }
            if stored == Self::EMPTY {
                return None;
            }
            index = (index + 1) & mask;
        }
    }

    fn insert(&mut self, key: u64, value: f64) {
        if 2 * (self.len + 1) > self.slots.len() {
            if self.slots.len() / 2 < self.capacity {
                self.grow();
            } else {
                // Full: start afresh, as the pairs met lately matter most.
                self.slots.fill((Self::EMPTY, 0.0));
                self.len = 0;
            }
        }
        self.place(key, value);
    }

    /// Doubles the slots (or makes the first ones) and puts the entries back.
    fn grow(&mut self) {
        let count = (self.slots.len() * 2).max(Self::FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![(Self::EMPTY, 0.0); count]);
        self.shift = 64 - count.trailing_zeros();
        self.len = 0;
        for (key, value) in old {
            if key != Self::EMPTY {
                self.place(key, value);
            }
        }
    }

    fn place(&mut self, key: u64, value: f64) {
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let stored = self.slots[index].0;
            if stored == key {
                return;
            }
            if stored == Self::EMPTY {
                self.slots[index] = (key, value);
                self.len += 1;
                return;
            }
            index = (index + 1) & mask;
        }
    }
}

/// Whether the cost of a pair of subtrees of these sizes is remembered.
fn remembered(first_size: u32, second_size: u32) -> bool {
    u64::from(first_size) + u64::from(second_size) > UNREMEMBERED_SIZE
}

/// The memo's key of a pair of distinct subtrees, in either order.
fn pair_key(x: SubtreeId, y: SubtreeId) -> u64 {
    (u64::from(x.min(y)) << 32) | u64::from(x.max(y))
}

/// Compares the subtrees of a [`Catalog`]. It remembers the cost of each pair of subtrees it
/// has met (a pair's cost depends on nothing but the two subtrees), so one comparer should
/// compare many games of its catalog.
pub(crate) struct Comparer<'c, 't> {
    catalog: &'c Catalog<'t>,
    /// The cost of each pair of distinct subtrees met, by their two ids (smaller first).
    memo: PairMemo,
    /// Boxed, so that taking one from the pool and giving it back moves a pointer, not the
    /// two hundred bytes of a scratch (those moves were 5 % of the time of a corpus run).
    #[expect(clippy::vec_box, reason = "the boxes are moved in and out of the pool")]
    scratches: Vec<Box<Scratch>>,
    #[expect(clippy::vec_box, reason = "the boxes are moved in and out of the pool")]
    alignments: Vec<Box<Alignment>>,
}

impl<'c, 't> Comparer<'c, 't> {
    pub(crate) fn new(catalog: &'c Catalog<'t>) -> Self {
        Comparer {
            catalog,
            memo: PairMemo::new(MEMO_CAPACITY),
            scratches: Vec::new(),
            alignments: Vec::new(),
        }
    }

    /// The distance between two games of the catalog, in [0, 1].
    pub(crate) fn game_distance(&mut self, first: usize, second: usize) -> f64 {
        let (x, y) = (
            self.catalog.id_of(first, LudemeTree::ROOT),
            self.catalog.id_of(second, LudemeTree::ROOT),
        );
        let total = self.weight(x) + self.weight(y);
        if total <= 0.0 {
            return 0.0;
        }
        (self.cost(x, y) / total).clamp(0.0, 1.0)
    }

    fn subtree(&self, id: SubtreeId) -> &'c Subtree {
        self.catalog.subtree(id)
    }

    fn weight(&self, id: SubtreeId) -> f64 {
        self.subtree(id).weight
    }

    fn is_leaf(&self, id: SubtreeId) -> bool {
        self.subtree(id).is_leaf()
    }

    fn same_label(&self, x: SubtreeId, y: SubtreeId) -> bool {
        self.subtree(x).label_key == self.subtree(y).label_key
    }

    /// The cost of the nodes themselves, children aside.
    fn own_difference(&self, x: SubtreeId, y: SubtreeId) -> f64 {
        let (a, b) = (self.subtree(x), self.subtree(y));
        if a.label_key == b.label_key {
            0.0
        } else if a.kind == NodeKind::Parameter && b.kind == NodeKind::Parameter {
            (a.own + b.own) * graded_difference(a.label == b.label, a.number(), b.number())
        } else {
            a.own + b.own
        }
    }

    /// The cost of turning subtree `x` into subtree `y`. Always computed in one orientation
    /// (by subtree hash), so that it is symmetric whatever approximations apply below.
    fn cost(&mut self, x: SubtreeId, y: SubtreeId) -> f64 {
        if x == y {
            return 0.0;
        }
        let (a, b) = (self.subtree(x), self.subtree(y));
        if a.hash == b.hash {
            return 0.0;
        }
        if a.is_leaf() && b.is_leaf() {
            return self.own_difference(x, y);
        }
        let small = !remembered(a.size, b.size);
        let key = pair_key(x, y);
        if !small && let Some(known) = self.memo.get(key) {
            return known;
        }
        let (x, y) = if a.hash < b.hash { (x, y) } else { (y, x) };
        let alignment = self.align(x, y, false);
        let cost = self.own_difference(x, y) + DEPTH_DECAY * alignment.cost;
        self.recycle(alignment);
        if !small {
            self.memo.insert(key, cost);
        }
        cost
    }

    /// The cost of a pair of children, or of deleting one and inserting the other when their
    /// slots differ.
    fn pair_cost(&mut self, x: Member, y: Member, respect_slots: bool) -> f64 {
        if respect_slots && x.slot != y.slot {
            x.weight + y.weight
        } else {
            self.cost(x.id, y.id)
        }
    }

    fn fresh_alignment(&mut self) -> Box<Alignment> {
        let mut alignment = self.alignments.pop().unwrap_or_default();
        alignment.cost = 0.0;
        alignment.pairs.clear();
        alignment.removed.clear();
        alignment.added.clear();
        alignment
    }

    fn recycle(&mut self, alignment: Box<Alignment>) {
        self.alignments.push(alignment);
    }

    /// Matches the children of `x` with those of `y`; give the result back with
    /// [`Self::recycle`].
    fn align(&mut self, x: SubtreeId, y: SubtreeId, want_pairs: bool) -> Box<Alignment> {
        // Slots are places in a parent: they mean something only between parents of one label.
        let respect_slots = self.same_label(x, y);
        let (a, b) = (self.subtree(x), self.subtree(y));
        let ordered = a.order == ChildOrder::Ordered && b.order == ChildOrder::Ordered;
        let mut scratch = self.scratches.pop().unwrap_or_default();
        for (side, id) in [(0, x), (1, y)] {
            let members = &mut scratch.sides[side];
            members.clear();
            members.extend(self.catalog.children(id).iter().enumerate().map(
                |(position, child)| Member {
                    hash: child.hash,
                    weight: child.weight,
                    id: child.id,
                    group: child.group,
                    size: child.size,
                    position: u32::try_from(position).unwrap_or(u32::MAX),
                    slot: child.slot,
                },
            ));
        }
        let alignment = if ordered {
            let Scratch {
                sides,
                table,
                choice,
                ..
            } = &mut *scratch;
            self.align_ordered(
                &sides[0],
                &sides[1],
                respect_slots,
                want_pairs,
                table,
                choice,
            )
        } else {
            // Bags of labels were made for the children of wide unordered nodes only.
            let bags = [is_wide(a), is_wide(b)];
            self.align_unordered(&mut scratch, [x, y], respect_slots, bags)
        };
        self.scratches.push(scratch);
        alignment
    }

    fn align_unordered(
        &mut self,
        scratch: &mut Scratch,
        parents: [SubtreeId; 2],
        respect_slots: bool,
        bags: [bool; 2],
    ) -> Box<Alignment> {
        let Scratch {
            sides,
            rests,
            groups,
            exact,
            values,
            used,
            table,
            choice,
            paired,
        } = scratch;
        let mut tables = AssignTables {
            exact,
            values,
            used,
        };
        let mut alignment = self.fresh_alignment();
        // Identical children pair off at no cost.
        let slot = |member: &Member| if respect_slots { member.slot } else { 0 };
        for side in sides.iter_mut() {
            // The children of an unordered parent are already in this order.
            if !side.is_sorted_by_key(|member| (slot(member), member.hash)) {
                side.sort_by_key(|member| (slot(member), member.hash));
            }
        }
        let [rest_x, rest_y] = rests;
        rest_x.clear();
        rest_y.clear();
        let (sorted_x, sorted_y) = (&sides[0], &sides[1]);
        let (mut i, mut j) = (0, 0);
        while i < sorted_x.len() && j < sorted_y.len() {
            let (x, y) = (sorted_x[i], sorted_y[j]);
            match (slot(&x), x.hash).cmp(&(slot(&y), y.hash)) {
                std::cmp::Ordering::Less => {
                    rest_x.push(x);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    rest_y.push(y);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    alignment.pairs.push((x, y, 0.0));
                    i += 1;
                    j += 1;
                }
            }
        }
        rest_x.extend_from_slice(&sorted_x[i..]);
        rest_y.extend_from_slice(&sorted_y[j..]);

        if rest_x.len() * rest_y.len() <= EXACT_CELLS {
            self.assign(
                rest_x,
                rest_y,
                respect_slots,
                None,
                &mut alignment,
                &mut tables,
            );
            return alignment;
        }
        // Too wide to compare every pair: only siblings of one group (label, or GDL head
        // relation) and slot are compared, group by group in the order of (slot, group
        // label), each group's siblings in the order above.
        let group_key = |member: &Member| (slot(member), member.group);
        let grouped = parents.map(|parent| self.catalog.grouped_order(parent));
        if respect_slots && let [Some(order_x), Some(order_y)] = grouped {
            // The parents' children in that order were sorted once for the whole run: keep
            // those not paired off above.
            for (side, order) in [order_x, order_y].into_iter().enumerate() {
                let paired = &mut paired[side];
                paired.clear();
                paired.resize(order.len(), false);
                for pair in &alignment.pairs {
                    let member = if side == 0 { pair.0 } else { pair.1 };
                    paired[member.position as usize] = true;
                }
                debug_assert!(
                    sides[side]
                        .iter()
                        .enumerate()
                        .all(|(index, member)| member.position as usize == index)
                );
                let rest = if side == 0 {
                    &mut *rest_x
                } else {
                    &mut *rest_y
                };
                rest.clear();
                // The children of an unordered parent were not re-sorted: `sides` holds
                // them by position.
                rest.extend(
                    order
                        .iter()
                        .filter(|&&position| !paired[position as usize])
                        .map(|&position| sides[side][position as usize]),
                );
            }
        } else {
            for rest in [&mut *rest_x, &mut *rest_y] {
                rest.sort_unstable_by_key(|member| {
                    (group_key(member), member.hash, member.position)
                });
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < rest_x.len() || j < rest_y.len() {
            let key = match (rest_x.get(i), rest_y.get(j)) {
                (Some(x), Some(y)) => group_key(x).min(group_key(y)),
                (Some(x), None) => group_key(x),
                (None, Some(y)) => group_key(y),
                (None, None) => break,
            };
            let end_x = i + rest_x[i..].partition_point(|m| group_key(m) == key);
            let end_y = j + rest_y[j..].partition_point(|m| group_key(m) == key);
            let (group_x, group_y) = (&rest_x[i..end_x], &rest_y[j..end_y]);
            (i, j) = (end_x, end_y);
            let cells = group_x.len() * group_y.len();
            if cells <= EXACT_CELLS {
                self.assign(
                    group_x,
                    group_y,
                    respect_slots,
                    None,
                    &mut alignment,
                    &mut tables,
                );
            } else if group_x.len().max(group_y.len()) <= PROXY_SIDE {
                self.assign(
                    group_x,
                    group_y,
                    respect_slots,
                    Some(bags),
                    &mut alignment,
                    &mut tables,
                );
            } else {
                for (sorted, group) in groups.iter_mut().zip([group_x, group_y]) {
                    sorted.clear();
                    sorted.extend_from_slice(group);

                    sorted
                        .sort_unstable_by_key(|member| (member.size, member.hash, member.position));
                }
                let banded =
                    self.align_ordered(&groups[0], &groups[1], respect_slots, true, table, choice);
                alignment.pairs.extend_from_slice(&banded.pairs);
                alignment.removed.extend_from_slice(&banded.removed);
                alignment.added.extend_from_slice(&banded.added);
                self.recycle(banded);
            }
        }
        alignment.cost = alignment.pairs.iter().map(|pair| pair.2).sum::<f64>()
            + alignment
                .removed
                .iter()
                .chain(&alignment.added)
                .map(|member| member.weight)
                .sum::<f64>();
        alignment
    }

    /// An optimal assignment between `xs` and `ys` (on the exact costs, or, given which sides
    /// have bags, on bags of labels), added to `alignment`. Every child of the shorter side is
    /// matched: a match never costs more than deleting and inserting the two.
    fn assign(
        &mut self,
        xs: &[Member],
        ys: &[Member],
        respect_slots: bool,
        proxy: Option<[bool; 2]>,
        alignment: &mut Alignment,
        tables: &mut AssignTables<'_>,
    ) {
        if xs.is_empty() || ys.is_empty() {
            alignment.removed.extend_from_slice(xs);
            alignment.added.extend_from_slice(ys);
            alignment.cost += xs.iter().chain(ys).map(|member| member.weight).sum::<f64>();
            return;
        }
        if let ([x], [y]) = (xs, ys) {
            // One child a side: they are matched, whatever they cost.
            let cost = self.pair_cost(*x, *y, respect_slots);
            alignment.cost += cost;
            alignment.pairs.push((*x, *y, cost));
            return;
        }
        let transposed = xs.len() > ys.len();
        let (rows, columns) = if transposed { (ys, xs) } else { (xs, ys) };
        let cells = rows.len() * columns.len();
        tables.exact.clear();
        tables.exact.resize(cells, None);
        if proxy.is_none() {
            self.touch_memo(rows, columns, respect_slots);
        }
        let mut values = std::mem::take(tables.values);
        values.clear();
        for (r, &row) in rows.iter().enumerate() {
            for (c, &column) in columns.iter().enumerate() {
                let (x, y) = if transposed {
                    (column, row)
                } else {
                    (row, column)
                };
                let cost = match proxy {
                    Some(bags) => self.proxy_cost(x, y, respect_slots, bags),
                    None => {
                        let cost = self.pair_cost(x, y, respect_slots);
                        tables.exact[r * columns.len() + c] = Some(cost);
                        cost
                    }
                };
                let relative = cost - column.weight;
                values.push(((relative * COST_SCALE).round() as i64).wrapping_neg());
            }
        }
        let costs = NegatedCosts {
            rows: rows.len(),
            columns: columns.len(),
            values,
        };
        let (_, assignment) = kuhn_munkres(&costs);
        *tables.values = costs.values;
        tables.used.clear();
        tables.used.resize(columns.len(), false);
        for (r, &c) in assignment.iter().enumerate() {
            tables.used[c] = true;
            let (row, column) = (rows[r], columns[c]);
            let (x, y) = if transposed {
                (column, row)
            } else {
                (row, column)
            };
            let cost = match tables.exact[r * columns.len() + c] {
                Some(cost) => cost,
                None => self.pair_cost(x, y, respect_slots),
            };
            alignment.cost += cost;
            alignment.pairs.push((x, y, cost));
        }
        for (c, &column) in columns.iter().enumerate() {
            if !tables.used[c] {
                alignment.cost += column.weight;
                if transposed {
                    alignment.removed.push(column);
                } else {
                    alignment.added.push(column);
                }
            }
        }
    }

    /// Touches the memo's slots of the pairs an exact assignment is about to cost. They lie
    /// far apart in a table much larger than the caches, and each lookup would otherwise wait
    /// for memory in turn: touched together, they are fetched at once.
    fn touch_memo(&self, xs: &[Member], ys: &[Member], respect_slots: bool) {
        let mut touched = 0;
        for x in xs {
            for y in ys {
                let compared = x.id != y.id && (!respect_slots || x.slot == y.slot);
                if compared && remembered(x.size, y.size) {
                    touched ^= self.memo.touch(pair_key(x.id, y.id));
                }
            }
        }
        std::hint::black_box(touched);
    }

    /// A cheap stand-in for the cost of a pair: both weights times the share of their labels
    /// that they do not share (when both sides have bags).
    fn proxy_cost(&self, x: Member, y: Member, respect_slots: bool, bags: [bool; 2]) -> f64 {
        let total = x.weight + y.weight;
        if respect_slots && x.slot != y.slot {
            return total;
        }
        let bag_of = |has: bool, member: Member| {
            if has {
                self.catalog.bag(member.id)
            } else {
                None
            }
        };
        match (bag_of(bags[0], x), bag_of(bags[1], y)) {
            (Some(a), Some(b)) => total * bag_difference(a, b),
            _ => total,
        }
    }

    /// An alignment of two sequences (edit distance with the subtree costs), in full or, for
    /// long sequences, in a band around the diagonal.
    fn align_ordered(
        &mut self,
        xs: &[Member],
        ys: &[Member],
        respect_slots: bool,
        want_pairs: bool,
        table: &mut Vec<f64>,
        choice: &mut Vec<u8>,
    ) -> Box<Alignment> {
        const DELETE: u8 = 1;
        const INSERT: u8 = 2;
        const MATCH: u8 = 3;
        let (n, m) = (xs.len(), ys.len());
        let everything: f64 = xs.iter().chain(ys).map(|member| member.weight).sum();
        let mut alignment = self.fresh_alignment();
        let replace_everything = |mut alignment: Box<Alignment>| {
            alignment.cost = everything;
            alignment.removed.extend_from_slice(xs);
            alignment.added.extend_from_slice(ys);
            alignment
        };
        if n == 0 || m == 0 {
            return replace_everything(alignment);
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
        table.clear();
        table.resize(cells, f64::INFINITY);
        choice.clear();
        choice.resize(cells, 0);
        table[0] = 0.0;
        for i in 0..=n {
            for j in columns(i) {
                if (i, j) == (0, 0) {
                    continue;
                }
                let mut best = f64::INFINITY;
                let mut how = 0;
                if i > 0 && table[(i - 1) * width + j].is_finite() {
                    best = table[(i - 1) * width + j] + xs[i - 1].weight;
                    how = DELETE;
                }
                if j > 0 && table[i * width + j - 1].is_finite() {
                    let insert = table[i * width + j - 1] + ys[j - 1].weight;
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
            return replace_everything(alignment);
        }
        alignment.cost = found;
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

/// The distance between two trees, in [0, 1].
pub fn distance(first: &LudemeTree, second: &LudemeTree) -> f64 {
    Catalog::new(&[first, second]).distance(0, 1)
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
pub fn compare(first: &LudemeTree, second: &LudemeTree) -> Comparison {
    let catalog = Catalog::new(&[first, second]);
    let mut comparer = Comparer::new(&catalog);
    let distance = comparer.game_distance(0, 1);
    let total = [0, 1]
        .map(|game| comparer.weight(catalog.id_of(game, LudemeTree::ROOT)))
        .iter()
        .sum::<f64>();
    let mut differences = Vec::new();
    if distance > 0.0 && total > 0.0 {
        let mut explainer = Explainer {
            comparer: &mut comparer,
            catalog: &catalog,
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

/// A node of one of the two games compared: (which game of the catalog, which node).
type At = (usize, NodeId);

struct Explainer<'e, 'c, 't> {
    comparer: &'e mut Comparer<'c, 't>,
    catalog: &'c Catalog<'t>,
    out: &'e mut Vec<Difference>,
}

impl Explainer<'_, '_, '_> {
    fn id(&self, at: At) -> SubtreeId {
        self.catalog.id_of(at.0, at.1)
    }

    /// The node of a child matched under `parent`.
    fn child(&self, parent: At, member: Member) -> At {
        let tree = self.catalog.tree(parent.0);
        (
            parent.0,
            tree.node(parent.1).children[member.position as usize],
        )
    }

    fn render(&self, at: At) -> String {
        self.catalog.tree(at.0).render(at.1, RENDER_CHARS)
    }

    fn describe(&self, at: At) -> String {
        self.catalog.tree(at.0).describe(at.1)
    }

    /// Lists the differences under the matched pair `x`, `y`, whose children weigh `scale`
    /// each in the distance. A pair whose own labels differ, or whose children differ only in
    /// leaves, is one difference (`(in-a-row 3) → (in-a-row 2)`); otherwise each differing
    /// child is looked at in turn. Recursion is bounded by the trees' depth bound.
    fn explain(&mut self, x: At, y: At, scale: f64) {
        let alignment = self.comparer.align(self.id(x), self.id(y), true);
        for &(member_x, member_y, cost) in &alignment.pairs {
            if cost <= 0.0 {
                continue;
            }
            let (child_x, child_y) = (self.child(x, member_x), self.child(y, member_y));
            let (id_x, id_y) = (member_x.id, member_y.id);
            let relabelled = self.comparer.own_difference(id_x, id_y) > 0.0;
            let whole_is_leafy = self.comparer.is_leaf(id_x) && self.comparer.is_leaf(id_y);
            let overlap = cost < self.comparer.weight(id_x) + self.comparer.weight(id_y);
            if !overlap {
                self.removed(child_x, scale);
                self.added(child_y, scale);
            } else if relabelled || whole_is_leafy || self.changes_only_leaves(id_x, id_y) {
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
        for &member in &alignment.removed {
            self.removed(self.child(x, member), scale);
        }
        for &member in &alignment.added {
            self.added(self.child(y, member), scale);
        }
        self.comparer.recycle(alignment);
    }

    fn changes_only_leaves(&mut self, x: SubtreeId, y: SubtreeId) -> bool {
        let alignment = self.comparer.align(x, y, true);
        let leaf = |member: &Member| self.comparer.is_leaf(member.id);
        let only_leaves = alignment
            .pairs
            .iter()
            .filter(|pair| pair.2 > 0.0)
            .all(|(a, b, _)| leaf(a) && leaf(b))
            && alignment.removed.iter().all(leaf)
            && alignment.added.iter().all(leaf);
        self.comparer.recycle(alignment);
        only_leaves
    }

    fn removed(&mut self, at: At, scale: f64) {
        self.out.push(Difference {
            weight: self.comparer.weight(self.id(at)) * scale,
            place: self.describe(at),
            before: Some(self.render(at)),
            after: None,
        });
    }

    fn added(&mut self, at: At, scale: f64) {
        self.out.push(Difference {
            weight: self.comparer.weight(self.id(at)) * scale,
            place: self.describe(at),
            before: None,
            after: Some(self.render(at)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_grows_and_finds_every_pair_it_holds() {
        let mut memo = PairMemo::new(1 << 12);
        let keys: Vec<u64> = (1..=4000u64)
            .map(|i| pair_key(i as u32, 7 * i as u32 + 1))
            .collect();
        for (i, &key) in keys.iter().enumerate() {
            memo.insert(key, i as f64 / 8.0);
        }
        for (i, &key) in keys.iter().enumerate() {
            assert_eq!(memo.get(key), Some(i as f64 / 8.0));
        }
        assert_eq!(memo.get(pair_key(3, 4)), None);
    }

    #[test]
    fn a_full_memo_starts_afresh() {
        let mut memo = PairMemo::new(PairMemo::FIRST_SLOTS / 2);
        let capacity = memo.capacity as u32;
        for i in 1..=capacity {
            memo.insert(pair_key(0, i), 1.0);
        }
        assert_eq!(memo.get(pair_key(0, 1)), Some(1.0));
        memo.insert(pair_key(0, capacity + 1), 2.0);
        assert_eq!(memo.get(pair_key(0, 1)), None);
        assert_eq!(memo.get(pair_key(0, capacity + 1)), Some(2.0));
    }

    #[test]
    fn a_pair_key_does_not_depend_on_the_order_and_is_never_empty() {
        assert_eq!(pair_key(3, 9), pair_key(9, 3));
        assert_ne!(pair_key(0, 1), PairMemo::EMPTY);
    }
}

//! Every distinct subtree of a set of games, stored once.
//!
//! Games share most of their parts: versions of one game share most rules, and unrelated GDL
//! games share literals such as `(true (control ?1))`. A [`Catalog`] hash-conses the subtrees of
//! all the games it is given: each distinct subtree (by the order-blind subtree hash of
//! [`LudemeTree`]) gets one small id, and what the distance needs of it — weights, numeric value,
//! label, group, children, bag of labels — is computed once per run instead of once per tree.
//! Because weights are relative to a subtree's own level (they scale by the same factor at every
//! depth), the cost of a pair of subtrees depends on nothing but the two subtrees, so the
//! comparer remembers it by the pair of ids, across all the games of the catalog.

use std::sync::atomic::{AtomicUsize, Ordering};

use rustc_hash::FxHashMap;

use crate::distance::tree::{ChildOrder, LudemeTree, NodeId, NodeKind};
use crate::distance::weighted::{
    Comparer, DEPTH_DECAY, EXACT_CELLS, PARAMETER_WEIGHT, STRUCTURE_WEIGHT,
};

/// The id of a distinct subtree in its catalog.
pub(crate) type SubtreeId = u32;

/// Unordered nodes with more children than this (12² = [`EXACT_CELLS`]) may be matched on bags
/// of labels, so their children get a bag.
pub(crate) const WIDE_CHILDREN: usize = 12;
const _: () = assert!(WIDE_CHILDREN * WIDE_CHILDREN == EXACT_CELLS);
const _: () = assert!(std::mem::size_of::<Subtree>() == 64);

/// How many labels of a subtree its bag keeps (the first ones, top-down).
const BAG_SIZE: usize = 64;

/// "No bag" in [`Subtree::bag`].
const NO_BAG: u32 = u32::MAX;

/// A child as its parent holds it: the subtree and the place it fills.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    pub hash: u64,
    /// The subtree's weight (at the child's own level), here so that matching reads it in
    /// order rather than from the subtree.
    pub weight: f64,
    pub id: SubtreeId,
    /// The subtree's group ([`Subtree::group`]) and size, here for the same reason.
    pub group: u32,
    pub size: u32,
    pub slot: u16,
}

/// One distinct subtree and what the distance needs of it, in one cache line.
#[derive(Clone, Debug)]
#[repr(align(64))]
pub(crate) struct Subtree {
    /// The order-blind hash of the subtree ([`crate::distance::tree::Node::hash`]).
    pub hash: u64,
    /// The label, kind and group, interned: equal labels compare in one step.
    pub label_key: u32,
    /// The node's own weight at its own level (0 for a game's root).
    pub own: f64,
    /// The subtree's weight at its own level.
    pub weight: f64,
    /// The numeric value of a parameter written as a number; NaN for none.
    number: f64,
    /// The label, interned: equal ids are equal texts.
    pub label: u32,
    /// The label that groups siblings (a GDL rule's head relation, else the label), as its
    /// rank among all such labels of the catalog, so that ids order as the texts do.
    pub group: u32,
    first_child: u32,
    child_count: u32,
    pub size: u32,
    bag: u32,
    pub kind: NodeKind,
    pub order: ChildOrder,
}

impl Subtree {
    pub fn is_leaf(&self) -> bool {
        self.child_count == 0
    }

    pub fn number(&self) -> Option<f64> {
        (!self.number.is_nan()).then_some(self.number)
    }

    pub fn child_count(&self) -> usize {
        self.child_count as usize
    }
}

/// The subtrees of a set of games, each stored once.
pub struct Catalog<'t> {
    trees: Vec<&'t LudemeTree>,
    subtrees: Vec<Subtree>,
    children: Vec<Child>,
    /// Beside `children`, for the wide unordered subtrees only (the others leave their part
    /// unused): the positions of the children in the order of (slot, group, hash, position),
    /// the order in which wide sets of siblings are matched group by group.
    grouped: Vec<u32>,
    bags: Vec<Box<[u64]>>,
    /// The subtree of every node of every tree, tree by tree.
    node_ids: Vec<Vec<SubtreeId>>,
}

impl<'t> Catalog<'t> {
    /// Stores every subtree of `trees`; game `i` of the catalog is `trees[i]`.
    pub fn new(trees: &[&'t LudemeTree]) -> Catalog<'t> {
        let mut builder = Builder::default();
        let node_ids = trees.iter().map(|tree| builder.add(tree)).collect();
        builder.rank_groups();
        let grouped = builder.grouped_orders();
        Catalog {
            grouped,
            trees: trees.to_vec(),
            subtrees: builder.subtrees,
            children: builder.children,
            bags: builder.bags,
            node_ids,
        }
    }

    /// How many games the catalog holds.
    pub fn len(&self) -> usize {
        self.trees.len()
    }

    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    /// How many distinct subtrees the games have between them.
    pub fn distinct_subtrees(&self) -> usize {
        self.subtrees.len()
    }

    pub(crate) fn tree(&self, game: usize) -> &'t LudemeTree {
        self.trees[game]
    }

    pub(crate) fn subtree(&self, id: SubtreeId) -> &Subtree {
        &self.subtrees[id as usize]
    }

    pub(crate) fn children(&self, id: SubtreeId) -> &[Child] {
        let subtree = self.subtree(id);
        let start = subtree.first_child as usize;
        &self.children[start..start + subtree.child_count as usize]
    }

    /// The positions of the children of `id` in the order of (slot, group, hash, position),
    /// for a wide unordered subtree.
    pub(crate) fn grouped_order(&self, id: SubtreeId) -> Option<&[u32]> {
        let subtree = self.subtree(id);
        is_wide(subtree).then(|| {
            let start = subtree.first_child as usize;
            &self.grouped[start..start + subtree.child_count as usize]
        })
    }

    pub(crate) fn bag(&self, id: SubtreeId) -> Option<&[u64]> {
        let bag = self.subtree(id).bag;
        (bag != NO_BAG).then(|| &*self.bags[bag as usize])
    }

    /// The subtree at `node` of game `game`.
    pub(crate) fn id_of(&self, game: usize, node: NodeId) -> SubtreeId {
        self.node_ids[game][node as usize]
    }

    /// The distance between games `first` and `second` of the catalog, in [0, 1].
    pub fn distance(&self, first: usize, second: usize) -> f64 {
        Comparer::new(self).game_distance(first, second)
    }

    /// The distance of each pair of games (indices into the catalog), computed on all cores.
    /// Each thread keeps its own memo of subtree-pair costs, keyed by catalog ids, and takes
    /// the pairs in small runs in the order given: list pairs that share a game side by side
    /// (row by row) so that a thread meets the same rules again while they are remembered.
    pub fn distances(&self, pairs: &[(usize, usize)]) -> Vec<f64> {
        const RUN: usize = 16;
        let threads = std::thread::available_parallelism()
            .map_or(1, |count| count.get())
            .clamp(1, pairs.len().div_ceil(RUN).max(1));
        let next = AtomicUsize::new(0);
        let work = || {
            let mut comparer = Comparer::new(self);
            let mut found = Vec::new();
            loop {
                let start = next.fetch_add(RUN, Ordering::Relaxed);
                if start >= pairs.len() {
                    return found;
                }
                for (index, &(first, second)) in pairs.iter().enumerate().skip(start).take(RUN) {
                    found.push((index, comparer.game_distance(first, second)));
                }
            }
        };
        let mut distances = vec![0.0; pairs.len()];
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            for worker in workers {
                let found = worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                for (index, distance) in found {
                    distances[index] = distance;
                }
            }
        });
        distances
    }

    /// Every pairwise distance between the games, as a full symmetric matrix.
    pub fn distance_matrix(&self) -> Vec<Vec<f64>> {
        let n = self.len();
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let values = self.distances(&pairs);
        let mut matrix = vec![vec![0.0; n]; n];
        for (&(i, j), &value) in pairs.iter().zip(&values) {
            matrix[i][j] = value;
            matrix[j][i] = value;
        }
        matrix
    }
}

#[derive(Default)]
struct Builder<'t> {
    subtrees: Vec<Subtree>,
    children: Vec<Child>,
    bags: Vec<Box<[u64]>>,
    by_hash: FxHashMap<u64, SubtreeId>,
    labels: FxHashMap<&'t str, u32>,
    label_keys: FxHashMap<(&'t str, NodeKind, Option<&'t str>), u32>,
    /// Group labels by their order of first sight; ranked once every tree is in.
    groups: FxHashMap<&'t str, u32>,
}

impl<'t> Builder<'t> {
    /// Stores the subtrees of `tree` not seen before; the id of each of its nodes.
    fn add(&mut self, tree: &'t LudemeTree) -> Vec<SubtreeId> {
        let nodes = tree.nodes();
        let mut ids: Vec<SubtreeId> = vec![0; nodes.len()];
        // Children come after their parent in the arena: walking it backwards stores every
        // child before its parent.
        for index in (0..nodes.len()).rev() {
            let node = &nodes[index];
            let is_root = index == LudemeTree::ROOT as usize;
            // A root weighs nothing of its own, unlike any other node, so roots are never
            // shared with other subtrees (two equal games still compare equal by hash).
            if !is_root && let Some(&id) = self.by_hash.get(&node.hash) {
                ids[index] = id;
                continue;
            }
            let id = SubtreeId::try_from(self.subtrees.len()).unwrap_or(SubtreeId::MAX);
            let first_child = u32::try_from(self.children.len()).unwrap_or(u32::MAX);
            self.children
                .extend(node.children.iter().map(|&child| Child {
                    hash: nodes[child as usize].hash,
                    weight: self.subtrees[ids[child as usize] as usize].weight,
                    id: ids[child as usize],
                    group: self.subtrees[ids[child as usize] as usize].group,
                    size: nodes[child as usize].size,
                    slot: nodes[child as usize].slot,
                }));
            let own = match (is_root, node.kind) {
                (true, _) => 0.0,
                (_, NodeKind::Structure) => STRUCTURE_WEIGHT,
                (_, NodeKind::Parameter) => PARAMETER_WEIGHT,
            };
            let below: f64 = node
                .children
                .iter()
                .map(|&child| self.subtrees[ids[child as usize] as usize].weight)
                .sum();
            let next_key = u32::try_from(self.label_keys.len()).unwrap_or(u32::MAX);
            let label_key = *self
                .label_keys
                .entry((&node.label, node.kind, node.group.as_deref()))
                .or_insert(next_key);
            let next_label = u32::try_from(self.labels.len()).unwrap_or(u32::MAX);
            let label = *self.labels.entry(&node.label).or_insert(next_label);
            let next_group = u32::try_from(self.groups.len()).unwrap_or(u32::MAX);
            let group = *self.groups.entry(node.group_key()).or_insert(next_group);
            if node.order == ChildOrder::Unordered && node.children.len() > WIDE_CHILDREN {
                for &child in &node.children {
                    let child_id = ids[child as usize] as usize;
                    if self.subtrees[child_id].bag == NO_BAG {
                        self.subtrees[child_id].bag =
                            u32::try_from(self.bags.len()).unwrap_or(NO_BAG);
                        self.bags.push(bag(tree, child));
                    }
                }
            }
            self.subtrees.push(Subtree {
                hash: node.hash,
                label_key,
                own,
                weight: own + DEPTH_DECAY * below,
                number: node.number().unwrap_or(f64::NAN),
                label,
                group,
                first_child,
                child_count: u32::try_from(node.children.len()).unwrap_or(u32::MAX),
                size: node.size,
                bag: NO_BAG,
                kind: node.kind,
                order: node.order,
            });
            if !is_root {
                self.by_hash.insert(node.hash, id);
            }
            ids[index] = id;
        }
        ids
    }

    /// The grouped orders of the wide unordered subtrees ([`Catalog::grouped_order`]).
    fn grouped_orders(&self) -> Vec<u32> {
        let mut grouped = vec![0; self.children.len()];
        for subtree in self.subtrees.iter().filter(|subtree| is_wide(subtree)) {
            let start = subtree.first_child as usize;
            let children = &self.children[start..start + subtree.child_count as usize];
            let order = &mut grouped[start..start + children.len()];
            for (position, slot) in order.iter_mut().enumerate() {
                *slot = u32::try_from(position).unwrap_or(u32::MAX);
            }
            order.sort_unstable_by_key(|&position| {
                let child = &children[position as usize];
                (child.slot, child.group, child.hash, position)
            });
        }
        grouped
    }

    /// Replaces each group label's first-sight number by its rank in text order, so that
    /// sorting siblings by group id sorts them by group label.
    fn rank_groups(&mut self) {
        let mut texts: Vec<(&str, u32)> = self.groups.iter().map(|(&t, &n)| (t, n)).collect();
        texts.sort_unstable();
        let mut rank = vec![0u32; texts.len()];
        for (position, &(_, number)) in texts.iter().enumerate() {
            rank[number as usize] = u32::try_from(position).unwrap_or(u32::MAX);
        }
        for subtree in &mut self.subtrees {
            subtree.group = rank[subtree.group as usize];
        }
        for child in &mut self.children {
            child.group = rank[child.group as usize];
        }
    }
}

/// Whether the children of a subtree are many and form a set: such children may be matched
/// group by group and on bags of labels.
pub(crate) fn is_wide(subtree: &Subtree) -> bool {
    subtree.order == ChildOrder::Unordered && subtree.child_count() > WIDE_CHILDREN
}

/// The labels of a subtree, top-down, as sorted hashes: a cheap summary of what it is made of.
fn bag(tree: &LudemeTree, root: NodeId) -> Box<[u64]> {
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
    labels.into_boxed_slice()
}

fn label_hash(label: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    label.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::tree::TreeBuilder;

    fn game(parts: &[&str]) -> LudemeTree {
        let mut builder = TreeBuilder::new();
        for part in parts {
            let node = builder
                .add(LudemeTree::ROOT, *part, NodeKind::Structure, 0, None)
                .unwrap();
            builder.add(node, "3", NodeKind::Parameter, 0, None);
        }
        builder.finish()
    }

    #[test]
    fn shared_parts_are_stored_once() {
        let (first, second) = (game(&["size", "line"]), game(&["size", "tiling"]));
        let catalog = Catalog::new(&[&first, &second]);
        // Two roots, `3`, `(size 3)`, `(line 3)`, `(tiling 3)`.
        assert_eq!(catalog.distinct_subtrees(), 6);
        let size = |game: usize| {
            let tree = catalog.tree(game);
            let node = tree
                .nodes()
                .iter()
                .position(|node| &*node.label == "size")
                .unwrap();
            catalog.id_of(game, node as NodeId)
        };
        assert_eq!(size(0), size(1));
        assert_ne!(
            catalog.id_of(0, LudemeTree::ROOT),
            catalog.id_of(1, LudemeTree::ROOT)
        );
    }

    /// A game of many rules in a few groups, each rule `(<= (head n) (step k))`, so that games
    /// are wide enough to be matched group by group and on bags of labels.
    fn wide_game(seed: u64) -> LudemeTree {
        let mut builder = TreeBuilder::new();
        for rule in 0..60u64 {
            let group = ["legal", "next", "goal"][((rule + seed) % 3) as usize];
            let node = builder
                .add(LudemeTree::ROOT, "<=", NodeKind::Structure, 0, None)
                .unwrap();
            builder.set_order(node, ChildOrder::Unordered);
            builder.set_group(node, group);
            let head = builder
                .add(node, group, NodeKind::Structure, 0, None)
                .unwrap();
            builder.add(head, (rule % 7).to_string(), NodeKind::Parameter, 0, None);
            let body = builder
                .add(node, "step", NodeKind::Structure, 1, None)
                .unwrap();
            let value = (rule * 31 + seed * 17) % (5 + seed);
            builder.add(body, value.to_string(), NodeKind::Parameter, 0, None);
        }
        builder.finish()
    }

    #[test]
    fn a_whole_matrix_gives_the_distances_of_each_pair_on_its_own() {
        let games: Vec<LudemeTree> = (0..6).map(wide_game).collect();
        let trees: Vec<&LudemeTree> = games.iter().collect();
        let matrix = Catalog::new(&trees).distance_matrix();
        for (i, first) in trees.iter().enumerate() {
            assert_eq!(matrix[i][i], 0.0);
            for (j, second) in trees.iter().enumerate().skip(i + 1) {
                let alone = Catalog::new(&[first, second]).distance(0, 1);
                assert!(alone > 0.0 && alone < 1.0, "games {i} and {j}: {alone}");
                assert_eq!(matrix[i][j].to_bits(), alone.to_bits(), "games {i} and {j}");
                assert_eq!(matrix[j][i], matrix[i][j]);
            }
        }
    }

    #[test]
    fn group_ids_follow_the_order_of_the_texts() {
        let tree = game(&["zeta", "alpha", "mid"]);
        let catalog = Catalog::new(&[&tree]);
        let group_of = |label: &str| {
            let node = tree
                .nodes()
                .iter()
                .position(|node| &*node.label == label)
                .unwrap();
            catalog.subtree(catalog.id_of(0, node as NodeId)).group
        };
        assert!(group_of("alpha") < group_of("mid"));
        assert!(group_of("mid") < group_of("zeta"));
    }
}

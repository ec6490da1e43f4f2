//! The classic measures, for comparison with the ludeme distance: the ordered tree edit distance
//! of Zhang and Shasha (unit costs, children in the order the tree keeps them), and the Jaccard
//! distance between the sets of ludeme labels. Ludii offers both; neither knows which children
//! are ordered or how far apart two numbers are, which is what the ludeme distance adds.

use rustc_hash::FxHashSet;

use crate::distance::tree::{LudemeTree, NodeKind};

/// Trees whose sizes multiply to more than this are not compared by tree edit distance: its
/// tables grow with the product.
pub const TREE_EDIT_MAX_CELLS: usize = 4_000_000;

/// The unit-cost ordered tree edit distance (Zhang–Shasha 1989): the fewest insertions,
/// deletions and relabellings of nodes that turn one tree into the other. `None` when the trees
/// are too large to compare in reasonable memory ([`TREE_EDIT_MAX_CELLS`]).
pub fn tree_edit_distance(first: &LudemeTree, second: &LudemeTree) -> Option<usize> {
    let a = Postorder::new(first);
    let b = Postorder::new(second);
    let (n, m) = (a.labels.len(), b.labels.len());
    if n.checked_mul(m)? > TREE_EDIT_MAX_CELLS {
        return None;
    }
    let width = m + 1;
    let mut tree_distance = vec![0usize; n * m];
    let mut forest = vec![0usize; (n + 1) * width];
    for &i in &a.keyroots {
        for &j in &b.keyroots {
            // Forest distances between the postorder prefixes of the subtrees at i and j,
            // indexed from their leftmost leaves.
            let (li, lj) = (a.leftmost[i], b.leftmost[j]);
            let rows = i - li + 2;
            let columns = j - lj + 2;
            let at = |r: usize, c: usize| r * width + c;
            forest[at(0, 0)] = 0;
            for r in 1..rows {
                forest[at(r, 0)] = forest[at(r - 1, 0)] + 1;
            }
            for c in 1..columns {
                forest[at(0, c)] = forest[at(0, c - 1)] + 1;
            }
            for r in 1..rows {
                let x = li + r - 1;
                for c in 1..columns {
                    let y = lj + c - 1;
                    let delete = forest[at(r - 1, c)] + 1;
                    let insert = forest[at(r, c - 1)] + 1;
                    let best = if a.leftmost[x] == li && b.leftmost[y] == lj {
                        let relabel = usize::from(a.labels[x] != b.labels[y]);
                        let value = delete.min(insert).min(forest[at(r - 1, c - 1)] + relabel);
                        tree_distance[x * m + y] = value;
                        value
                    } else {
                        let before_x = a.leftmost[x] - li;
                        let before_y = b.leftmost[y] - lj;
                        delete
                            .min(insert)
                            .min(forest[at(before_x, before_y)] + tree_distance[x * m + y])
                    };
                    forest[at(r, c)] = best;
                }
            }
        }
    }
    if n == 0 || m == 0 {
        return Some(n.max(m));
    }
    Some(tree_distance[(n - 1) * m + (m - 1)])
}

/// A tree in postorder: labels, the leftmost leaf of each node, and the keyroots.
struct Postorder<'t> {
    labels: Vec<&'t str>,
    leftmost: Vec<usize>,
    keyroots: Vec<usize>,
}

impl<'t> Postorder<'t> {
    fn new(tree: &'t LudemeTree) -> Self {
        let mut labels = Vec::with_capacity(tree.len());
        let mut leftmost = Vec::with_capacity(tree.len());
        // (node, whether its children are done, the postorder index of its leftmost leaf)
        let mut stack = vec![(LudemeTree::ROOT, false)];
        let mut first_leaf: Vec<Option<usize>> = vec![None; tree.len()];
        while let Some((id, done)) = stack.pop() {
            let node = tree.node(id);
            if done || node.is_leaf() {
                let index = labels.len();
                let leaf = node
                    .children
                    .first()
                    .and_then(|&c| first_leaf[c as usize])
                    .unwrap_or(index);
                first_leaf[id as usize] = Some(leaf);
                labels.push(&*node.label);
                leftmost.push(leaf);
            } else {
                stack.push((id, true));
                stack.extend(node.children.iter().rev().map(|&c| (c, false)));
            }
        }
        // A keyroot is the root, or a node with a left sibling: the highest node of each
        // leftmost leaf.
        let mut seen = FxHashSet::default();
        let mut keyroots = Vec::new();
        for index in (0..labels.len()).rev() {
            if seen.insert(leftmost[index]) {
                keyroots.push(index);
            }
        }
        keyroots.reverse();
        Postorder {
            labels,
            leftmost,
            keyroots,
        }
    }
}

/// The tree edit distance over the larger size: 0 for equal trees, 1 for trees with nothing in
/// common.
pub fn normalised_tree_edit_distance(first: &LudemeTree, second: &LudemeTree) -> Option<f64> {
    let edits = tree_edit_distance(first, second)?;
    let larger = first.len().max(second.len());
    Some(if larger == 0 {
        0.0
    } else {
        edits as f64 / larger as f64
    })
}

/// The labels of a tree's structure nodes (its ludemes, relations, keywords), root aside.
fn ludeme_labels(tree: &LudemeTree) -> FxHashSet<&str> {
    tree.nodes()
        .iter()
        .skip(1)
        .filter(|node| node.kind == NodeKind::Structure)
        .map(|node| &*node.label)
        .collect()
}

/// One minus the Jaccard index of the two sets of ludeme labels: 0 when both games use the same
/// ludemes, however differently.
pub fn jaccard_distance(first: &LudemeTree, second: &LudemeTree) -> f64 {
    let (a, b) = (ludeme_labels(first), ludeme_labels(second));
    let union = a.union(&b).count();
    if union == 0 {
        return 0.0;
    }
    1.0 - a.intersection(&b).count() as f64 / union as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::tree::TreeBuilder;

    /// A chain of labels under the root: root → a → b → ...
    fn chain(labels: &[&str]) -> LudemeTree {
        let mut builder = TreeBuilder::new();
        let mut parent = LudemeTree::ROOT;
        for label in labels {
            parent = builder
                .add(parent, *label, NodeKind::Structure, 0, None)
                .unwrap();
        }
        builder.finish()
    }

    #[test]
    fn tree_edit_distance_counts_edits() {
        assert_eq!(
            tree_edit_distance(&chain(&["a", "b"]), &chain(&["a", "b"])),
            Some(0)
        );
        assert_eq!(
            tree_edit_distance(&chain(&["a", "b"]), &chain(&["a", "c"])),
            Some(1)
        );
        assert_eq!(
            tree_edit_distance(&chain(&["a"]), &chain(&["a", "b", "c"])),
            Some(2)
        );
    }

    #[test]
    fn jaccard_ignores_structure() {
        assert_eq!(
            jaccard_distance(&chain(&["a", "b"]), &chain(&["b", "a"])),
            0.0
        );
        assert_eq!(jaccard_distance(&chain(&["a"]), &chain(&["b"])), 1.0);
    }
}

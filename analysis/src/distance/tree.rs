//! The ludeme tree: one shape for the games of every language, so that one distance compares
//! them all.
//!
//! A tree is an arena of labelled nodes. Node 0 is the root, a container labelled `game` that
//! stands for no rule of its own. Each node says whether it is *structure* (a keyword, a relation,
//! a ludeme) or a *parameter* (a number, a name, a constant), and whether the order of its
//! children carries meaning. Children may also carry a *slot*: the place they fill in their
//! parent (Ludi's parameter index, GDL's head or body), so that the two sides of `(> a b)` are
//! never taken for each other even where order is otherwise free.
//!
//! Trees are built through [`TreeBuilder`], which bounds the depth (nothing downstream recurses
//! deeper than [`MAX_DEPTH`]) and, when finished, puts the children of every unordered node in a
//! canonical order and hashes every subtree. After that, two trees that differ only in the order
//! of meaningless children have the same hashes and list their children in the same order.

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

/// The index of a node in its tree.
pub type NodeId = u32;

/// How deep a tree may go. Deeper parts of a description are left out of its tree: no game
/// written by hand nests this deep, and it bounds every walk over the tree.
pub const MAX_DEPTH: usize = 48;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    /// A keyword, relation or ludeme: what the rules are made of.
    Structure,
    /// A value the rules are applied to: a number, a name, a constant, a variable.
    Parameter,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChildOrder {
    /// The order of the children means something (`(size 3 4)`, the arguments of a relation).
    Ordered,
    /// The children are a set (the parts of `board`, the rules of a GDL game).
    Unordered,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub label: Box<str>,
    pub kind: NodeKind,
    pub order: ChildOrder,
    /// The place this node fills in its parent; children of different slots are never matched.
    pub slot: u16,
    /// What the place is called, for messages (`condition`, `size`, `body`).
    pub role: Option<&'static str>,
    /// A finer name than the label, used to group siblings of the same label for matching
    /// (a GDL rule's head relation) and in messages.
    pub group: Option<Box<str>>,
    pub depth: u16,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// A hash of the subtree, blind to the order of unordered children.
    pub hash: u64,
    /// The number of nodes of the subtree.
    pub size: u32,
}

impl Node {
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }

    /// The label that groups siblings: the group when there is one, else the label.
    pub fn group_key(&self) -> &str {
        self.group.as_deref().unwrap_or(&self.label)
    }

    /// The numeric value of a parameter written as a number.
    pub fn number(&self) -> Option<f64> {
        if self.kind != NodeKind::Parameter {
            return None;
        }
        self.label
            .parse::<f64>()
            .ok()
            .filter(|value| value.is_finite())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LudemeTree {
    nodes: Vec<Node>,
}

impl LudemeTree {
    pub const ROOT: NodeId = 0;

    /// A tree holding nothing but its root: what a file of another language, or with no game,
    /// gets.
    pub fn empty() -> LudemeTree {
        TreeBuilder::new().finish()
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds nothing but its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The subtree at `id` as an s-expression, cut after about `max_chars` characters. A
    /// GDL rule, labelled `<=`, shows its head and body as written: `(<= (legal ?1) ...)`.
    pub fn render(&self, id: NodeId, max_chars: usize) -> String {
        enum Step {
            Open(NodeId),
            Close,
        }
        let mut out = String::new();
        let mut stack = vec![Step::Open(id)];
        while let Some(step) = stack.pop() {
            if out.chars().count() > max_chars {
                out.push('…');
                return out;
            }
            match step {
                Step::Close => out.push(')'),
                Step::Open(current) => {
                    let node = self.node(current);
                    if !out.is_empty() && !out.ends_with('(') {
                        out.push(' ');
                    }
                    if node.is_leaf() {
                        out.push_str(&node.label);
                        continue;
                    }
                    out.push('(');
                    out.push_str(&node.label);
                    stack.push(Step::Close);
                    stack.extend(node.children.iter().rev().map(|&c| Step::Open(c)));
                }
            }
        }
        out
    }

    /// What a node is, in words, for the list of differences: the top-level part it belongs to
    /// and the place it fills (`end condition`, `board size`, `legal rule body`).
    pub fn describe(&self, id: NodeId) -> String {
        let node = self.node(id);
        let mut section = id;
        while let Some(parent) = self.node(section).parent {
            if parent == Self::ROOT {
                break;
            }
            section = parent;
        }
        let section_node = self.node(section);
        let section_name = match &section_node.group {
            Some(group) => format!("{group} {}", section_node.label),
            None => section_node.label.to_string(),
        };
        if section == id || node.depth <= 1 {
            return section_name;
        }
        let place = node.role.map(str::to_owned).unwrap_or_else(|| {
            node.parent
                .map(|p| self.node(p).label.to_string())
                .unwrap_or_default()
        });
        if place == section_name || place.is_empty() {
            section_name
        } else {
            format!("{section_name} {place}")
        }
    }
}

/// Builds a [`LudemeTree`] top-down: every node is added under a parent that already exists.
pub struct TreeBuilder {
    nodes: Vec<Node>,
}

impl Default for TreeBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeBuilder {
    pub fn new() -> TreeBuilder {
        TreeBuilder {
            nodes: vec![Node {
                label: "game".into(),
                kind: NodeKind::Structure,
                order: ChildOrder::Unordered,
                slot: 0,
                role: None,
                group: None,
                depth: 0,
                parent: None,
                children: Vec::new(),
                hash: 0,
                size: 1,
            }],
        }
    }

    /// Adds a node under `parent`; `None` (and nothing added) when the parent already sits at
    /// [`MAX_DEPTH`], so that callers stop descending there.
    pub fn add(
        &mut self,
        parent: NodeId,
        label: impl Into<Box<str>>,
        kind: NodeKind,
        slot: u16,
        role: Option<&'static str>,
    ) -> Option<NodeId> {
        let depth = self.nodes[parent as usize].depth + 1;
        if usize::from(depth) > MAX_DEPTH {
            return None;
        }
        let id = NodeId::try_from(self.nodes.len()).ok()?;
        self.nodes.push(Node {
            label: label.into(),
            kind,
            order: ChildOrder::Ordered,
            slot,
            role,
            group: None,
            depth,
            parent: Some(parent),
            children: Vec::new(),
            hash: 0,
            size: 1,
        });
        self.nodes[parent as usize].children.push(id);
        Some(id)
    }

    pub fn set_order(&mut self, node: NodeId, order: ChildOrder) {
        self.nodes[node as usize].order = order;
    }

    pub fn set_group(&mut self, node: NodeId, group: impl Into<Box<str>>) {
        self.nodes[node as usize].group = Some(group.into());
    }

    pub fn set_label(&mut self, node: NodeId, label: impl Into<Box<str>>) {
        self.nodes[node as usize].label = label.into();
    }

    /// Hashes every subtree and sorts the children of unordered nodes canonically.
    pub fn finish(mut self) -> LudemeTree {
        // Children always come after their parent in the arena, so walking it backwards
        // visits every child before its parent.
        for index in (0..self.nodes.len()).rev() {
            let (before, after) = self.nodes.split_at_mut(index + 1);
            let node = &mut before[index];
            let first_child = index + 1;
            let child = |id: NodeId| &after[id as usize - first_child];
            if node.order == ChildOrder::Unordered {
                node.children
                    .sort_by_key(|&id| (child(id).slot, child(id).hash));
            }
            let mut hasher = FxHasher::default();
            node.label.hash(&mut hasher);
            node.kind.hash(&mut hasher);
            node.order.hash(&mut hasher);
            node.group.hash(&mut hasher);
            let mut size = 1u32;
            for &id in &node.children {
                (child(id).slot, child(id).hash).hash(&mut hasher);
                size = size.saturating_add(child(id).size);
            }
            node.hash = hasher.finish();
            node.size = size;
        }
        LudemeTree { nodes: self.nodes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(first: &str, second: &str) -> LudemeTree {
        let mut builder = TreeBuilder::new();
        let board = builder
            .add(LudemeTree::ROOT, "board", NodeKind::Structure, 0, None)
            .unwrap();
        builder.set_order(board, ChildOrder::Unordered);
        for label in [first, second] {
            builder.add(board, label, NodeKind::Structure, 0, None);
        }
        builder.finish()
    }

    #[test]
    fn unordered_children_are_put_in_one_order() {
        let (first, second) = (pair("size", "tiling"), pair("tiling", "size"));
        let root = |tree: &LudemeTree| tree.node(LudemeTree::ROOT).hash;
        assert_eq!(root(&first), root(&second));
        let labels = |tree: &LudemeTree| tree.render(LudemeTree::ROOT, 80);
        assert_eq!(labels(&first), labels(&second));
    }

    #[test]
    fn depth_is_bounded() {
        let mut builder = TreeBuilder::new();
        let mut parent = LudemeTree::ROOT;
        let mut added = 0;
        while let Some(child) = builder.add(parent, "not", NodeKind::Structure, 0, None) {
            parent = child;
            added += 1;
        }
        assert_eq!(added, MAX_DEPTH);
    }

    #[test]
    fn rendering_is_an_s_expression() {
        let rendered = pair("size", "tiling").render(LudemeTree::ROOT, 80);
        assert!(
            rendered == "(game (board size tiling))" || rendered == "(game (board tiling size))",
            "{rendered}"
        );
    }
}

//! The ludeme tree as written: lists and atoms with their ranges, read off the tree-sitter tree.
//! Syntax errors are skipped here (the syntax diagnostics report them), so that a file with a
//! stray parenthesis still gets its ludemes checked.

use crate::TextRange;
use crate::rules::MAX_NESTING_DEPTH;

/// One item of a list: a nested list or an atom.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    List(List),
    Atom(Atom),
}

impl Item {
    pub fn range(&self) -> TextRange {
        match self {
            Item::List(list) => list.range,
            Item::Atom(atom) => atom.range,
        }
    }

    /// The keyword or name this item is headed by: a word's text, or a list's head.
    pub fn name(&self) -> Option<&str> {
        match self {
            Item::List(list) => list.head.as_ref().map(|head| head.text.as_str()),
            Item::Atom(atom) if atom.is_name() => Some(&atom.text),
            Item::Atom(_) => None,
        }
    }

    /// The range of [`Item::name`]: the head of a list, the whole of a word.
    pub fn name_range(&self) -> TextRange {
        match self {
            Item::List(list) => list.head.as_ref().map_or(list.range, |head| head.range),
            Item::Atom(atom) => atom.range,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct List {
    pub range: TextRange,
    /// The first item when it is a name or an operator.
    pub head: Option<Atom>,
    /// The items after the head (all items when there is no head).
    pub items: Vec<Item>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomKind {
    Symbol,
    Operator,
    Integer,
    Float,
    Cell,
    String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub kind: AtomKind,
    /// The text as written (a string without its quotes, escapes kept).
    pub text: String,
    pub range: TextRange,
}

impl Atom {
    pub fn is_name(&self) -> bool {
        matches!(self.kind, AtomKind::Symbol | AtomKind::Operator)
    }

    /// The integer value, when it is an integer that fits.
    pub fn integer(&self) -> Option<i64> {
        match self.kind {
            AtomKind::Integer => self.text.parse().ok(),
            _ => None,
        }
    }
}

/// The top-level forms of a file, and the lists left out for standing deeper than
/// [`MAX_NESTING_DEPTH`] (each the range of its `(`): the tree read never nests deeper, so
/// that every pass over it (binding, model, checks, English, engine) has bounded recursion.
pub fn read(root: tree_sitter::Node<'_>, text: &str) -> (Vec<Item>, Vec<TextRange>) {
    let mut too_deep = Vec::new();
    let mut cursor = root.walk();
    let items = root
        .named_children(&mut cursor)
        .filter_map(|node| read_item(node, text, 1, &mut too_deep))
        .collect();
    (items, too_deep)
}

fn range(node: tree_sitter::Node<'_>) -> TextRange {
    TextRange::new(node.start_byte(), node.end_byte())
}

/// The item `node`, standing `depth` levels deep (a top-level form is at level 1).
fn read_item(
    node: tree_sitter::Node<'_>,
    text: &str,
    depth: usize,
    too_deep: &mut Vec<TextRange>,
) -> Option<Item> {
    if node.is_error() || node.is_missing() || node.kind() == "comment" {
        return None;
    }
    let atom = |kind: AtomKind| {
        let raw = text.get(node.byte_range()).unwrap_or_default();
        let raw = if kind == AtomKind::String {
            raw.strip_prefix('"')
                .and_then(|inner| inner.strip_suffix('"'))
                .unwrap_or(raw)
        } else {
            raw
        };
        Some(Item::Atom(Atom {
            kind,
            text: raw.to_owned(),
            range: range(node),
        }))
    };
    match node.kind() {
        "symbol" => atom(AtomKind::Symbol),
        "operator" => atom(AtomKind::Operator),
        "integer" => atom(AtomKind::Integer),
        "float" => atom(AtomKind::Float),
        "cell" => atom(AtomKind::Cell),
        "string" => atom(AtomKind::String),
        "list" if depth > MAX_NESTING_DEPTH => {
            too_deep.push(TextRange::new(node.start_byte(), node.start_byte() + 1));
            None
        }
        "list" => {
            let head_node = node.child_by_field_name("head");
            let mut cursor = node.walk();
            let mut head = None;
            let mut items = Vec::new();
            for child in node.named_children(&mut cursor) {
                if head_node.is_some_and(|h| h.id() == child.id()) {
                    if let Some(Item::Atom(atom)) = read_item(child, text, depth + 1, too_deep) {
                        head = Some(atom);
                    }
                } else if let Some(item) = read_item(child, text, depth + 1, too_deep) {
                    items.push(item);
                }
            }
            Some(Item::List(List {
                range: range(node),
                head,
                items,
            }))
        }
        _ => None,
    }
}

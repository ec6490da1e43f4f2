//! The ludeme tree of an EGGG game, read off the tree-sitter tree (EGGG has no lowered model
//! yet; when it has one, this reader should move onto it).
//!
//! The game is the set of its statements (their order means nothing). A definition `NAME is
//! VALUE` is a node labelled with the name; other statements are ordered sequences of terms.
//! Words are structure (EGGG's vocabulary is its words), numbers and strings are parameters.
//! Terms joined by one connective (`x and o`, `A or B or C`) form an unordered `and`/`or` node,
//! so `players are white and black` is `players are black and white`. EGGG ignores case, so
//! words are lower-cased. The game's own name (`game is tic-tac-toe`) is not a rule and is left
//! out; so are comments and syntax errors.

use tree_sitter::Node as SyntaxNode;

use crate::distance::tree::{ChildOrder, LudemeTree, NodeId, NodeKind, TreeBuilder};

pub fn tree(root: SyntaxNode<'_>, text: &str) -> LudemeTree {
    let mut builder = TreeBuilder::new();
    let mut stack: Vec<(SyntaxNode<'_>, NodeId, u16)> = Vec::new();
    let mut cursor = root.walk();
    for item in root.named_children(&mut cursor) {
        if is_names_the_game(item, text) {
            continue;
        }
        stack.push((item, LudemeTree::ROOT, 0));
    }
    while let Some((syntax, parent, slot)) = stack.pop() {
        add(&mut builder, &mut stack, syntax, parent, slot, text);
    }
    builder.finish()
}

fn source<'t>(node: SyntaxNode<'_>, text: &'t str) -> &'t str {
    text.get(node.byte_range()).unwrap_or_default()
}

fn lower(node: SyntaxNode<'_>, text: &str) -> String {
    source(node, text).to_lowercase()
}

/// `game is NAME`: the game's name.
fn is_names_the_game(item: SyntaxNode<'_>, text: &str) -> bool {
    item.kind() == "definition"
        && item
            .child_by_field_name("name")
            .is_some_and(|name| lower(name, text) == "game")
}

/// The meaningful children of a syntax node: named nodes and the connective keywords, without
/// comments, punctuation or error nodes.
fn terms(node: SyntaxNode<'_>) -> Vec<SyntaxNode<'_>> {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .filter(|child| {
            !child.is_error()
                && !child.is_missing()
                && child.kind() != "comment"
                && (child.is_named() || matches!(child.kind(), "and" | "or" | "if" | "not"))
        })
        .collect()
}

/// Adds `syntax` under `parent`, pushing its parts onto `stack`.
fn add<'s>(
    builder: &mut TreeBuilder,
    stack: &mut Vec<(SyntaxNode<'s>, NodeId, u16)>,
    syntax: SyntaxNode<'s>,
    parent: NodeId,
    slot: u16,
    text: &str,
) {
    let structure = |builder: &mut TreeBuilder, label: &str, order: ChildOrder| {
        let id = builder.add(parent, label, NodeKind::Structure, slot, None)?;
        builder.set_order(id, order);
        Some(id)
    };
    let push_all =
        |stack: &mut Vec<(SyntaxNode<'s>, NodeId, u16)>, id, parts: Vec<SyntaxNode<'s>>| {
            // Positions are not slots: an inserted word must not unmatch every word after it.
            for part in parts.into_iter().rev() {
                stack.push((part, id, 0));
            }
        };
    match syntax.kind() {
        "definition" | "code_statement" => {
            let (Some(name), Some(value)) = (
                syntax.child_by_field_name("name"),
                syntax
                    .child_by_field_name("value")
                    .or_else(|| syntax.child_by_field_name("code")),
            ) else {
                return;
            };
            let label = match name.kind() {
                "call" => name
                    .child_by_field_name("function")
                    .map_or_else(|| lower(name, text), |f| lower(f, text)),
                _ => lower(name, text),
            };
            if let Some(id) = structure(builder, &label, ChildOrder::Ordered) {
                if name.kind() == "call"
                    && let Some(arguments) = name.child_by_field_name("arguments")
                {
                    push_all(stack, id, terms(arguments));
                }
                stack.push((value, id, 0));
            }
        }
        "code" => {
            let code: Vec<&str> = source(syntax, text).split_whitespace().collect();
            builder.add(parent, code.join(" "), NodeKind::Parameter, slot, None);
        }
        "like_statement" => {
            if let (Some(id), Some(base)) = (
                structure(builder, "is like", ChildOrder::Ordered),
                syntax.child_by_field_name("base"),
            ) {
                builder.add(id, lower(base, text), NodeKind::Parameter, 0, None);
            }
        }
        "assert_statement" => {
            if let (Some(id), Some(name), Some(condition)) = (
                structure(builder, "assert", ChildOrder::Unordered),
                syntax.child_by_field_name("name"),
                syntax.child_by_field_name("condition"),
            ) {
                builder.add(id, lower(name, text), NodeKind::Parameter, 0, None);
                stack.push((condition, id, 1));
            }
        }
        "statement" | "phrase" => {
            let parts = terms(syntax);
            let connectives: Vec<&str> = parts
                .iter()
                .map(|part| part.kind())
                .filter(|kind| matches!(*kind, "and" | "or"))
                .collect();
            let one_connective = connectives
                .first()
                .filter(|first| connectives.iter().all(|kind| kind == *first) && parts.len() > 2);
            let label = syntax.kind();
            match one_connective {
                // `a and b and c`: a set of operands, each a term or a phrase of its own.
                Some(&connective) => {
                    let Some(id) = structure(builder, label, ChildOrder::Ordered) else {
                        return;
                    };
                    let Some(set) = builder.add(id, connective, NodeKind::Structure, 0, None)
                    else {
                        return;
                    };
                    builder.set_order(set, ChildOrder::Unordered);
                    for operand in parts.split(|part| part.kind() == connective) {
                        match operand {
                            [] => {}
                            [single] => stack.push((*single, set, 0)),
                            several => {
                                if let Some(phrase) =
                                    builder.add(set, "phrase", NodeKind::Structure, 0, None)
                                {
                                    push_all(stack, phrase, several.to_vec());
                                }
                            }
                        }
                    }
                }
                None => {
                    if let Some(id) = structure(builder, label, ChildOrder::Ordered) {
                        push_all(stack, id, parts);
                    }
                }
            }
        }
        "group" => {
            // Parentheses only group: their content stands in their place.
            if let Some(inner) = terms(syntax).into_iter().next() {
                stack.push((inner, parent, slot));
            }
        }
        "binary_expression" => {
            let operator = syntax
                .child_by_field_name("operator")
                .map_or("?", |op| source(op, text));
            let commutative = matches!(operator, "+" | "*");
            let order = if commutative {
                ChildOrder::Unordered
            } else {
                ChildOrder::Ordered
            };
            if let Some(id) = structure(builder, operator, order) {
                let sides = ["left", "right"]
                    .iter()
                    .filter_map(|field| syntax.child_by_field_name(field))
                    .collect();
                push_all(stack, id, sides);
            }
        }
        "call" => {
            let label = syntax
                .child_by_field_name("function")
                .map_or_else(String::new, |f| lower(f, text));
            if let Some(id) = structure(builder, &label, ChildOrder::Ordered)
                && let Some(arguments) = syntax.child_by_field_name("arguments")
            {
                push_all(stack, id, terms(arguments));
            }
        }
        "range" | "dimensions" | "list" | "tuple" | "arguments" => {
            if let Some(id) = structure(builder, syntax.kind(), ChildOrder::Ordered) {
                push_all(stack, id, terms(syntax));
            }
        }
        "number" | "string" => {
            let value = source(syntax, text).trim_matches('"');
            builder.add(parent, value, NodeKind::Parameter, slot, None);
        }
        _ if syntax.child_count() == 0 || syntax.kind() == "word" => {
            builder.add(parent, lower(syntax, text), NodeKind::Structure, slot, None);
        }
        _ => {
            if let Some(id) = structure(builder, syntax.kind(), ChildOrder::Ordered) {
                push_all(stack, id, terms(syntax));
            }
        }
    }
}

//! The ludeme tree of a Stanford GDL game: rules as trees of relations, literals and terms.
//!
//! The game is the set of its rules (their order means nothing). A fact is its sentence
//! (`(init (cell 1 1 b))`); a rule is a node `<=` grouped by its head relation, with the head in
//! one slot and the body literals, a set, in another. Relations and function names are structure;
//! constants and variables are parameters. `distinct` and `or` are unordered; arguments are
//! ordered.
//!
//! Role names mean nothing either: every constant naming a role becomes `role1`, `role2`, ...
//! by the order of the `role` facts.
//!
//! Variable names mean nothing, so each rule's variables are renamed `?1`, `?2`, ... in a
//! canonical order: first as they appear in the head, then as they appear in the body literals
//! taken in the order of their variable-blind text, so that renaming variables or reordering a
//! body gives the same tree. (Two body literals equal but for their variables keep their
//! written order between them: the one case where reordering may still rename.)

use rustc_hash::FxHashMap;

use crate::distance::tree::{ChildOrder, LudemeTree, NodeId, NodeKind, TreeBuilder};
use crate::gdl::model::{Literal, Rule, RuleSet, Symbol, Term};

const HEAD: u16 = 0;
const BODY: u16 = 1;

pub fn tree(rules: &RuleSet) -> LudemeTree {
    let roles = role_names(rules);
    let mut builder = TreeBuilder::new();
    for rule in &rules.rules {
        add_rule(&mut builder, rule, &roles);
    }
    builder.finish()
}

/// Each role's canonical name, `role1`, `role2`, ... in the order of the `role` facts (which
/// is the order of the roles in the game protocol, so it means something). Role names are
/// names like any other: `xplayer` or `x` makes no difference to the game.
fn role_names(rules: &RuleSet) -> FxHashMap<&str, String> {
    let mut roles = FxHashMap::default();
    for rule in &rules.rules {
        if rule.is_fact()
            && &*rule.head.name.name == "role"
            && let [Term::Constant(role)] = rule.head.args.as_slice()
        {
            let next = format!("role{}", roles.len() + 1);
            roles.entry(&*role.name).or_insert(next);
        }
    }
    roles
}

/// Something still to be added under a parent node.
enum Task<'r> {
    Literal(&'r Literal, NodeId, u16, Option<&'static str>),
    Term(&'r Term, NodeId, u16),
}

fn add_rule(builder: &mut TreeBuilder, rule: &Rule, roles: &FxHashMap<&str, String>) {
    let body = canonical_body(rule);
    let names = variable_names(rule, &body);
    let mut tasks: Vec<Task<'_>> = Vec::new();
    let head = if rule.is_fact() {
        let Some(head) = add_sentence_node(builder, &rule.head.name, LudemeTree::ROOT, 0, None)
        else {
            return;
        };
        head
    } else {
        let Some(node) = builder.add(LudemeTree::ROOT, "<=", NodeKind::Structure, 0, None) else {
            return;
        };
        builder.set_order(node, ChildOrder::Unordered);
        builder.set_group(node, rule.head.name.name.to_string());
        for literal in body.iter().rev() {
            tasks.push(Task::Literal(literal, node, BODY, Some("body")));
        }
        let Some(head) = add_sentence_node(builder, &rule.head.name, node, HEAD, Some("head"))
        else {
            return;
        };
        head
    };
    for term in rule.head.args.iter().rev() {
        tasks.push(Task::Term(term, head, 0));
    }
    while let Some(task) = tasks.pop() {
        match task {
            Task::Term(term, parent, slot) => match term {
                Term::Constant(symbol) => {
                    let label = roles
                        .get(&*symbol.name)
                        .map_or(&*symbol.name, String::as_str);
                    builder.add(parent, label, NodeKind::Parameter, slot, None);
                }
                Term::Variable(symbol) => {
                    let label = names
                        .get(&*symbol.name)
                        .map_or_else(|| "?".to_owned(), |index| format!("?{index}"));
                    builder.add(parent, label, NodeKind::Parameter, slot, None);
                }
                Term::Function(function) => {
                    if let Some(node) =
                        add_sentence_node(builder, &function.name, parent, slot, None)
                    {
                        for arg in function.args.iter().rev() {
                            tasks.push(Task::Term(arg, node, 0));
                        }
                    }
                }
            },
            Task::Literal(literal, parent, slot, role) => match literal {
                Literal::Sentence(sentence) => {
                    if let Some(node) =
                        add_sentence_node(builder, &sentence.name, parent, slot, role)
                    {
                        for arg in sentence.args.iter().rev() {
                            tasks.push(Task::Term(arg, node, 0));
                        }
                    }
                }
                Literal::Not { inner, .. } => {
                    if let Some(node) = builder.add(parent, "not", NodeKind::Structure, slot, role)
                    {
                        tasks.push(Task::Literal(inner, node, 0, None));
                    }
                }
                Literal::Distinct { left, right, .. } => {
                    if let Some(node) =
                        builder.add(parent, "distinct", NodeKind::Structure, slot, role)
                    {
                        builder.set_order(node, ChildOrder::Unordered);
                        tasks.push(Task::Term(right, node, 0));
                        tasks.push(Task::Term(left, node, 0));
                    }
                }
                Literal::Or { disjuncts, .. } => {
                    if let Some(node) = builder.add(parent, "or", NodeKind::Structure, slot, role) {
                        builder.set_order(node, ChildOrder::Unordered);
                        for disjunct in disjuncts.iter().rev() {
                            tasks.push(Task::Literal(disjunct, node, 0, None));
                        }
                    }
                }
            },
        }
    }
}

fn add_sentence_node(
    builder: &mut TreeBuilder,
    name: &Symbol,
    parent: NodeId,
    slot: u16,
    role: Option<&'static str>,
) -> Option<NodeId> {
    builder.add(parent, &*name.name, NodeKind::Structure, slot, role)
}

/// The body literals in a canonical order: by their text with every variable written `?`.
fn canonical_body(rule: &Rule) -> Vec<&Literal> {
    let mut keyed: Vec<(String, &Literal)> = rule
        .body
        .iter()
        .map(|literal| (variable_blind_text(literal), literal))
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, literal)| literal).collect()
}

/// A literal as text with variables blanked out, written iteratively.
fn variable_blind_text(literal: &Literal) -> String {
    enum Piece<'r> {
        Literal(&'r Literal),
        Term(&'r Term),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut stack = vec![Piece::Literal(literal)];
    while let Some(piece) = stack.pop() {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Term(Term::Constant(symbol)) => {
                out.push(' ');
                out.push_str(&symbol.name);
            }
            Piece::Term(Term::Variable(_)) => out.push_str(" ?"),
            Piece::Term(Term::Function(function)) => {
                out.push_str(" (");
                out.push_str(&function.name.name);
                stack.push(Piece::Text(")"));
                stack.extend(function.args.iter().rev().map(Piece::Term));
            }
            Piece::Literal(Literal::Sentence(sentence)) => {
                out.push_str(" (");
                out.push_str(&sentence.name.name);
                stack.push(Piece::Text(")"));
                stack.extend(sentence.args.iter().rev().map(Piece::Term));
            }
            Piece::Literal(Literal::Not { inner, .. }) => {
                out.push_str(" (not");
                stack.push(Piece::Text(")"));
                stack.push(Piece::Literal(inner));
            }
            Piece::Literal(Literal::Distinct { left, right, .. }) => {
                out.push_str(" (distinct");
                stack.push(Piece::Text(")"));
                stack.push(Piece::Term(right));
                stack.push(Piece::Term(left));
            }
            Piece::Literal(Literal::Or { disjuncts, .. }) => {
                out.push_str(" (or");
                stack.push(Piece::Text(")"));
                stack.extend(disjuncts.iter().rev().map(Piece::Literal));
            }
        }
    }
    out
}

/// Each variable's canonical number: by first appearance in the head, then in the body taken in
/// canonical order.
fn variable_names<'r>(rule: &'r Rule, body: &[&'r Literal]) -> FxHashMap<&'r str, usize> {
    let mut names: FxHashMap<&str, usize> = FxHashMap::default();
    let mut note = |symbol: &'r Symbol| {
        let next = names.len() + 1;
        names.entry(&symbol.name).or_insert(next);
    };
    rule.head.for_each_variable(&mut note);
    for literal in body {
        literal.for_each_term(&mut |term| term.for_each_variable(&mut note));
    }
    names
}

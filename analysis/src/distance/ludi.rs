//! The ludeme tree of a Ludi game: the game as written and bound to the schema.
//!
//! Each bound ludeme is a structure node labelled with its keyword (records with their schema
//! name: `end clause`, `piece definition`); numbers, names, cells and strings are parameters.
//! A child's slot is the schema parameter it fills, so the parts of a ludeme may be written in
//! any order (`(board (size 5) (tiling hex))` is `(board (tiling hex) (size 5))`) while the two
//! sides of a comparison keep their places. Only the parameters whose arguments form a sequence
//! (the dimensions of `size`, the turn order of `players`, the steps of an action) are ordered.
//!
//! Player names are replaced by their place in the turn order (`player1`, `player2`): a game
//! played by Red and Blue is the game played by White and Black.
//!
//! The game's name and its `support` metadata (descriptions, advisors, ancestry, scores) are
//! left out: they are not rules, and a renamed copy of a game is still the same game. What the
//! schema does not know (misspelt ludemes) is not in the bound tree either; the checks report it.

use crate::distance::tree::{ChildOrder, LudemeTree, NodeId, NodeKind, TreeBuilder};
use rustc_hash::FxHashMap;

use crate::ludi::bind::{Node, Value};
use crate::ludi::schema::Namespace;

/// The parameters whose arguments are a sequence: their order is part of the rule.
const SEQUENCES: &[(&str, &str)] = &[
    ("size", "dimensions"),
    ("players", "players"),
    ("action", "actions"),
    ("steps", "steps"),
    ("-", "terms"),
    ("/", "terms"),
];

/// Each player's canonical name, `player1`, `player2`, ... in turn order: the names themselves
/// (White, Black) mean nothing, the order does.
fn player_names(game: &Node) -> FxHashMap<&str, String> {
    let mut names = FxHashMap::default();
    let Some(players) = game.child("players") else {
        return names;
    };
    for value in players.values("players") {
        let name = match value {
            Value::Node(record) => record.value("name").and_then(Value::text),
            other => other.text(),
        };
        if let Some(name) = name {
            let next = format!("player{}", names.len() + 1);
            names.entry(name).or_insert(next);
        }
    }
    names
}

/// Arguments that are not rules.
fn left_out(parent: &Node, param: &str) -> bool {
    (parent.name() == "game" && param == "name") || param == "support"
}

pub fn tree(game: Option<&Node>) -> LudemeTree {
    let mut builder = TreeBuilder::new();
    let Some(game) = game else {
        return builder.finish();
    };
    let players = player_names(game);
    // The root stands for `game` itself; its arguments hang below it.
    let mut stack: Vec<(&Node, NodeId)> = vec![(game, LudemeTree::ROOT)];
    while let Some((node, id)) = stack.pop() {
        let ludeme = node.ludeme();
        let ordered = ludeme
            .params
            .iter()
            .any(|param| SEQUENCES.contains(&(ludeme.name, param.name)));
        builder.set_order(
            id,
            if ordered {
                ChildOrder::Ordered
            } else {
                ChildOrder::Unordered
            },
        );
        for arg in &node.args {
            let Some(param) = ludeme.params.get(arg.param) else {
                continue;
            };
            if left_out(node, param.name) {
                continue;
            }
            let slot = u16::try_from(arg.param).unwrap_or(u16::MAX);
            let role = Some(param.name);
            match &arg.value {
                Value::Node(child) => {
                    if let Some(child_id) =
                        builder.add(id, child.name(), NodeKind::Structure, slot, role)
                    {
                        stack.push((child, child_id));
                    }
                }
                Value::Integer { value, .. } => {
                    builder.add(id, value.to_string(), NodeKind::Parameter, slot, role);
                }
                Value::Name { text, use_, .. }
                    if use_.namespace == Namespace::Player && !use_.all_players =>
                {
                    let label = players
                        .get(text.as_str())
                        .cloned()
                        .unwrap_or_else(|| text.clone());
                    builder.add(id, label, NodeKind::Parameter, slot, role);
                }
                other => {
                    let text = other.text().unwrap_or_default();
                    builder.add(id, text, NodeKind::Parameter, slot, role);
                }
            }
        }
    }
    builder.finish()
}

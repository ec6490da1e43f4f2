//! `gdl/base-incomplete` and `gdl/input-incomplete`: the `base` and `input` declarations miss
//! fluents or moves that random play reached.

use crate::gdl::keywords::{BASE, INPUT};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::anchors::Anchors;
use super::run::{Observed, Undeclared};

pub const BASE_INCOMPLETE: Rule = Rule {
    code: "gdl/base-incomplete",
    severity: Severity::Warning,
    summary: "random play made fluents true that no `base` fact declares",
    explanation: "\
`base` is optional, but a game that declares it promises that every fluent that can ever be
true is among the declared ones: players that compile the game into a propositional network
build their state from `base`, and miss whatever it leaves out. Random play (`ludeme check
--simulate`) reached fluents that are not declared; the message lists some, grouped by name
and arity, with where play first made one true.

    (base (cell ?x ?y b)) ...                 ; declared for b only
    (<= (base (cell ?x ?y ?m)) (index ?x) (index ?y) (mark ?m))   ; every mark

Fix: declare the missing fluents (a rule with the right body covers a whole family). The
warning points at the `base` declarations of the fluent's name, or at the first `base` when
there is none. Games without any `base` are not checked.",
};

pub const INPUT_INCOMPLETE: Rule = Rule {
    code: "gdl/input-incomplete",
    severity: Severity::Warning,
    summary: "random play found legal moves that no `input` fact declares",
    explanation: "\
`input` is optional, but a game that declares it promises that every move a role can ever
make is among the declared `(input ROLE MOVE)` facts; players that precompute the moves rely
on it. Random play (`ludeme check --simulate`) found legal moves that are not declared; the
message lists some, grouped by role and by the move's name and arity.

    (<= (input ?p (mark ?x ?y)) (role ?p) (index ?x) (index ?y))
    (<= (input ?p noop) (role ?p))          ; often forgotten

Fix: declare the missing moves. The warning points at the `input` declarations of the move's
name, or at the first `input` when there is none. Games without any `input` are not checked.",
};

pub fn report(observed: &Observed, anchors: &Anchors<'_>, out: &mut Vec<Diagnostic>) {
    for (group, undeclared) in &observed.undeclared_fluents {
        let message = format!(
            "{} true during random play but not declared by `base`, first {}. Declare every \
             fluent the game can reach",
            listing(group, undeclared, "fluent"),
            undeclared.first.describe()
        );
        out.push(
            anchors
                .for_declarations(BASE, 0, group)
                .diagnostic(&BASE_INCOMPLETE, message),
        );
    }
    for ((role, group), undeclared) in &observed.undeclared_moves {
        let role = &observed.roles[*role];
        let message = format!(
            "{} legal for `{role}` during random play but not declared by `input`, first {}. \
             Declare every move a role can make",
            listing(group, undeclared, "move"),
            undeclared.first.describe()
        );
        out.push(
            anchors
                .for_declarations(INPUT, 1, group)
                .diagnostic(&INPUT_INCOMPLETE, message),
        );
    }
}

/// "3 `cell/3` fluents, such as (cell 1 1 x), (cell 1 2 x), …, are".
fn listing(group: &str, undeclared: &Undeclared, what: &str) -> String {
    let mut examples = undeclared
        .examples
        .iter()
        .map(|example| format!("`{example}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if undeclared.distinct > undeclared.examples.len() {
        examples.push_str(", …");
    }
    match undeclared.distinct {
        1 => format!("the {what} {examples} is"),
        n => format!("{n} `{group}` {what}s ({examples}) are"),
    }
}

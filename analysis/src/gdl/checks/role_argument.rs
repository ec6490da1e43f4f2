//! `gdl/role-argument`: the first argument of `legal`, `does`, `goal`, `input` or `sees` is not a
//! declared role.

use std::collections::HashSet;

use crate::gdl::keywords::{ROLE_FIRST, keyword_relation_ignoring_case};
use crate::gdl::model::{Sentence, Symbol, Term};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const ROLE_ARGUMENT: Rule = Rule {
    code: "gdl/role-argument",
    severity: Severity::Warning,
    summary: "the first argument of `legal`, `does`, `goal`, `input` or `sees` is not a declared role",
    explanation: "\
`legal`, `does`, `goal`, `input` and GDL-II's `sees` are about a role: their first argument is
one of the roles declared by `role` facts, or a variable that stands for one. A constant that is
not a role (a misspelling, a piece name, `xplayer` in a game whose roles are `white` and
`black`) makes rules that the game manager never asks about, so moves or rewards silently go
missing. GDL-II's chance player `random` is a role only when the game declares it.

    (role white) (role black)
    (<= (legal white (move ?x)) (true (free ?x)))     ; right
    (<= (goal whit 100) (won white))                  ; wrong: `whit` is not a role

Fix: write a declared role, or declare the missing role with a `role` fact.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Without any role, `gdl/missing-role` says what to do.
    if context.roles.is_empty() {
        return;
    }
    let roles = Roles::new(&context.roles);
    for rule in context.rules {
        rule.for_each_sentence(&mut |sentence| check_sentence(sentence, &roles, out));
    }
}

/// The declared roles, looked up in any case (a different capitalisation is
/// `gdl/inconsistent-case`) in constant time: a generated game may declare thousands.
struct Roles<'a> {
    declared: &'a [&'a Symbol],
    lowercase: HashSet<String>,
}

/// The most roles a message names.
const ROLES_NAMED: usize = 8;

impl<'a> Roles<'a> {
    fn new(declared: &'a [&'a Symbol]) -> Self {
        let lowercase = declared
            .iter()
            .map(|role| role.name.to_ascii_lowercase())
            .collect();
        Self {
            declared,
            lowercase,
        }
    }

    fn contains(&self, name: &str) -> bool {
        self.lowercase.contains(&name.to_ascii_lowercase())
    }

    /// The roles as a message lists them: the first few, then how many more.
    fn listed(&self) -> String {
        let mut names: Vec<String> = self
            .declared
            .iter()
            .take(ROLES_NAMED)
            .map(|role| format!("`{}`", role.name))
            .collect();
        if self.declared.len() > ROLES_NAMED {
            names.push(format!("and {} more", self.declared.len() - ROLES_NAMED));
        }
        names.join(", ")
    }
}

fn check_sentence(sentence: &Sentence, roles: &Roles<'_>, out: &mut Vec<Diagnostic>) {
    let Some(keyword) = keyword_relation_ignoring_case(&sentence.name.name) else {
        return;
    };
    if !ROLE_FIRST.contains(&keyword.name) {
        return;
    }
    let Some(first) = sentence.args.first() else {
        return;
    };
    let name = &sentence.name.name;
    let message = match first {
        Term::Variable(_) => return,
        Term::Constant(symbol) if roles.contains(&symbol.name) => return,
        Term::Constant(symbol) => format!(
            "`{}` is not a role: the first argument of `{name}` is a declared role ({}) or a variable; \
             correct the name or declare the role",
            symbol.name,
            roles.listed()
        ),
        Term::Function(function) => format!(
            "the first argument of `{name}` is a role ({}) or a variable, not a function term `{}`",
            roles.listed(),
            function.name.name
        ),
    };
    out.push(Diagnostic::new(&ROLE_ARGUMENT, first.range(), message));
}

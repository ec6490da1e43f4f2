//! gdl/unsafe-variable: every variable of a rule must get its values from a positive literal of
//! the body. Otherwise the rule stands for infinitely many instances (a variable in the head) or
//! its meaning depends on the order of evaluation (a variable under `not` or in `distinct`).

use rustc_hash::FxHashSet as HashSet;

use super::Context;
use crate::gdl::model::{Literal, Rule as GdlRule, Symbol};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

pub const UNSAFE_VARIABLE: Rule = Rule {
    code: "gdl/unsafe-variable",
    severity: Severity::Error,
    summary: "a variable that no positive literal of the rule's body binds",
    explanation: "\
GDL rules must be safe: every variable that appears in the head, under `not`, in `distinct`, or
in an `or`, must also appear in a positive (un-negated) literal of the body, which gives it its
possible values.

    (<= (legal ?p noop) (not (true (control ?p))))   ; unsafe: ?p is bound by nothing
    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))   ; safe

An `or` stands for one rule per alternative: a variable that only one alternative uses is bound
by that alternative; a variable used outside the `or` counts as bound by it only when every
alternative binds it.

Fix: add a positive literal that ranges over the variable's values, such as `(role ?p)` or
`(index ?x)`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        // Facts with variables are reported by gdl/variable-outside-rule; in a rule with a
        // malformed part left out, that part may have bound the variable.
        if rule.written_as_rule && rule.complete {
            check_rule(rule, out);
        }
    }
}

fn check_rule(rule: &GdlRule, out: &mut Vec<Diagnostic>) {
    let mut bound: HashSet<&str> = HashSet::default();
    for literal in &rule.body {
        bind(literal, &mut bound);
    }
    let mut unbound: Vec<&Symbol> = Vec::new();
    rule.head.for_each_variable(&mut |variable| {
        if !bound.contains(&*variable.name) {
            unbound.push(variable);
        }
    });
    for literal in &rule.body {
        collect_unbound(literal, &bound, &mut unbound);
    }
    let mut reported: HashSet<&str> = HashSet::default();
    for variable in unbound {
        if reported.insert(&variable.name) {
            out.push(Diagnostic::new(
                &UNSAFE_VARIABLE,
                variable.range,
                format!(
                    "the variable `{}` is bound by no positive literal of the body: add one that gives it its values, such as `{}`",
                    variable.name,
                    example_binding(variable)
                ),
            ));
        }
    }
}

/// Adds the variables a literal binds: those of a positive sentence; for `or`, those every
/// alternative binds.
fn bind<'a>(literal: &'a Literal, bound: &mut HashSet<&'a str>) {
    match literal {
        Literal::Sentence(sentence) => sentence.for_each_variable(&mut |variable| {
            bound.insert(&variable.name);
        }),
        Literal::Or { disjuncts, .. } => {
            let mut common: Option<HashSet<&str>> = None;
            for disjunct in disjuncts {
                let mut alternative = HashSet::default();
                bind(disjunct, &mut alternative);
                common = Some(match common {
                    None => alternative,
                    Some(common) => common.intersection(&alternative).copied().collect(),
                });
            }
            bound.extend(common.unwrap_or_default());
        }
        Literal::Not { .. } | Literal::Distinct { .. } => {}
    }
}

/// Collects the variables of `literal` that must be bound but are not in `bound`: those under
/// `not` and in `distinct`. An `or` stands for one rule per alternative, so inside an alternative
/// its own positive literals bind too (a variable local to one alternative is fine).
fn collect_unbound<'a>(
    literal: &'a Literal,
    bound: &HashSet<&'a str>,
    unbound: &mut Vec<&'a Symbol>,
) {
    match literal {
        Literal::Sentence(_) => {}
        Literal::Not { .. } | Literal::Distinct { .. } => {
            literal.for_each_variable(&mut |variable| {
                if !bound.contains(&*variable.name) {
                    unbound.push(variable);
                }
            })
        }
        Literal::Or { disjuncts, .. } => {
            for disjunct in disjuncts {
                let mut local = bound.clone();
                bind(disjunct, &mut local);
                collect_unbound(disjunct, &local, unbound);
            }
        }
    }
}

/// A literal that would bind the variable, in the file's syntax (KIF variables start with `?`).
fn example_binding(variable: &Symbol) -> String {
    let name = &variable.name;
    if name.starts_with('?') {
        format!("(index {name})")
    } else {
        format!("index({name})")
    }
}

//! gdl/recursion-restriction: the GDL specification's restriction on recursive rules, which
//! guarantees that every relation has finitely many true instances (so reasoners terminate).

use super::Context;
use crate::gdl::model::{Literal, Rule as GdlRule, Term};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

pub const RECURSION_RESTRICTION: Rule = Rule {
    code: "gdl/recursion-restriction",
    severity: Severity::Error,
    summary: "a recursive literal whose argument is not tied to the head or to a non-recursive literal",
    explanation: "\
GDL restricts recursion so that every relation has finitely many true instances: in a rule whose
head relation `p` is recursive with a body literal `q(t1 ... tn)`, every argument `tj` must be
ground, or one of the head's arguments, or an argument of a positive body literal whose relation
is not recursive with `p`.

    (<= (count (s ?n)) (count ?n))                ; breaks it: (s ?n) grows without bound
    (<= (count ?m) (count ?n) (succ ?n ?m))       ; fine: ?m comes from succ

Fix: bound the recursion with a relation over a finite domain (like `succ` above).",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        check_rule(context, rule, out);
    }
}

fn check_rule(context: &Context<'_>, rule: &GdlRule, out: &mut Vec<Diagnostic>) {
    let head = context.id(&rule.head.name.name);
    // Positive sentences of the body, with whether their relation is recursive with the head.
    let mut positives = Vec::new();
    for literal in &rule.body {
        collect_positive(literal, &mut positives);
    }
    for (index, sentence) in positives.iter().enumerate() {
        let relation = context.id(&sentence.name.name);
        if !context.recursive_with(head, relation) {
            continue;
        }
        for argument in &sentence.args {
            if is_ground(argument)
                || rule
                    .head
                    .args
                    .iter()
                    .any(|head_arg| same_term(head_arg, argument))
            {
                continue;
            }
            let tied = positives.iter().enumerate().any(|(other, candidate)| {
                other != index
                    && !context.recursive_with(head, context.id(&candidate.name.name))
                    && candidate.args.iter().any(|arg| same_term(arg, argument))
            });
            if !tied {
                out.push(Diagnostic::new(
                    &RECURSION_RESTRICTION,
                    argument.range(),
                    format!(
                        "`{}` is recursive with `{}`, and this argument is neither ground, nor an argument of the head, nor an argument of a non-recursive positive literal: the recursion may not terminate",
                        sentence.name.name, rule.head.name.name
                    ),
                ));
            }
        }
    }
}

/// The positive sentences of a literal (sentences under `or` count: each alternative is a rule).
fn collect_positive<'a>(
    literal: &'a Literal,
    positives: &mut Vec<&'a crate::gdl::model::Sentence>,
) {
    match literal {
        Literal::Sentence(sentence) => positives.push(sentence),
        Literal::Or { disjuncts, .. } => {
            for disjunct in disjuncts {
                collect_positive(disjunct, positives);
            }
        }
        Literal::Not { .. } | Literal::Distinct { .. } => {}
    }
}

fn is_ground(term: &Term) -> bool {
    let mut ground = true;
    term.for_each_variable(&mut |_| ground = false);
    ground
}

/// Syntactic equality of terms, ignoring where they are written.
pub fn same_term(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Constant(x), Term::Constant(y)) | (Term::Variable(x), Term::Variable(y)) => {
            x.name == y.name
        }
        (Term::Function(f), Term::Function(g)) => {
            f.name.name == g.name.name
                && f.args.len() == g.args.len()
                && f.args.iter().zip(&g.args).all(|(x, y)| same_term(x, y))
        }
        _ => false,
    }
}

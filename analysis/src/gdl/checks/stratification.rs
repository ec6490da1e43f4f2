//! gdl/unstratified-negation: no relation may depend on its own negation. Negation as failure
//! has a meaning only when relations can be computed in strata, each negating only relations of
//! earlier strata.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::Context;
use crate::gdl::model::{Sentence, Term};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};
use ludeme_engine::graph::component_numbers;

pub const UNSTRATIFIED_NEGATION: Rule = Rule {
    code: "gdl/unstratified-negation",
    severity: Severity::Error,
    summary: "a negated literal inside a cycle of the dependency graph",
    explanation: "\
GDL requires stratified negation: when the definition of `p` uses `(not (q ...))`, `q` may not
depend on `p`, directly or through other relations. Otherwise `p` is defined in terms of its own
negation and has no well-defined meaning (`p :- ~p`).

    (<= p (not q))
    (<= q (not p))     ; p depends on not-q and q on not-p: a cycle through negation

Constant arguments count: `(<= (goal r 100) (not (goal r 0)))` is fine when no rule for
`(goal r 0)` depends on `(goal r 100)`. (Some reasoners stratify by relation name alone and
reject even that; the reference validator does not check stratification at all.)

Fix: break the cycle, usually by computing the negated relation from the current state only.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // A cheap test first: without a negative edge inside a cycle of the relation graph, the
    // rules are stratified.
    let suspicious = context
        .dependencies
        .iter()
        .any(|edge| edge.negative && context.component[edge.from] == context.component[edge.to]);
    if !suspicious {
        return;
    }
    // The rule graph: a rule depends on the rules whose head can match one of its body
    // sentences. Constant arguments tell rules of one relation apart, so that
    // `(<= (goal r 100) (not (goal r 0)))` is not a cycle: no rule for `(goal r 0)` uses
    // `(goal r 100)`.
    let rules = context.rules;
    let mut by_relation: HashMap<&str, Vec<usize>> = HashMap::default();
    for (index, rule) in rules.iter().enumerate() {
        by_relation
            .entry(&rule.head.name.name)
            .or_default()
            .push(index);
    }
    struct Edge<'a> {
        from: usize,
        to: usize,
        negative: bool,
        sentence: &'a Sentence,
    }
    let mut edges = Vec::new();
    for (from, rule) in rules.iter().enumerate() {
        for literal in &rule.body {
            literal.for_each_sentence(false, &mut |sentence: &Sentence, negative| {
                for &to in by_relation.get(&*sentence.name.name).into_iter().flatten() {
                    if may_match(sentence, &rules[to].head) {
                        edges.push(Edge {
                            from,
                            to,
                            negative,
                            sentence,
                        });
                    }
                }
            });
        }
    }
    let mut successors = vec![Vec::new(); rules.len()];
    for edge in &edges {
        successors[edge.from].push(edge.to);
    }
    let component = component_numbers(&successors);
    let mut reported = HashSet::default();
    for edge in edges
        .iter()
        .filter(|edge| edge.negative && component[edge.from] == component[edge.to])
    {
        if !reported.insert(edge.sentence.range) {
            continue;
        }
        let from = &rules[edge.from].head.name.name;
        let to = &edge.sentence.name.name;
        let message = if edge.from == edge.to {
            format!(
                "this rule for `{from}` uses its own negation: negation may not be part of a recursion; restate the rule without `not`"
            )
        } else {
            format!(
                "the rule for `{from}` uses the negation of `{to}`, but `{to}` depends back on this rule: negation may not be part of a recursion; break the cycle"
            )
        };
        out.push(Diagnostic::new(
            &UNSTRATIFIED_NEGATION,
            edge.sentence.range,
            message,
        ));
    }
}

/// Whether some instance of `sentence` could be an instance of `head`: same relation and arity,
/// and no position where both have different constants (variables match anything).
fn may_match(sentence: &Sentence, head: &Sentence) -> bool {
    sentence.name.name == head.name.name
        && sentence.arity() == head.arity()
        && sentence
            .args
            .iter()
            .zip(&head.args)
            .all(|(a, b)| terms_may_match(a, b))
}

fn terms_may_match(a: &Term, b: &Term) -> bool {
    match (a, b) {
        (Term::Variable(_), _) | (_, Term::Variable(_)) => true,
        (Term::Constant(x), Term::Constant(y)) => x.name == y.name,
        (Term::Function(f), Term::Function(g)) => may_match(f, g),
        _ => false,
    }
}

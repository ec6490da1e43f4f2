//! Fluents that never change, read as static relations.
//!
//! A fluent whose every `next` rule is its own frame, `(<= (next (wall ?x ?y ?d)) (true (wall
//! ?x ?y ?d)))`, holds in every reachable state exactly when `init` holds for it: a maze's walls,
//! a board's cells. The relaxed domain assumes that a negated `true` holds, so mummymaze1p's
//! `(not (true (wall ?x ?y north)))` let its pieces walk off the board along every number its
//! step counter has (0 to 50). Read through a static relation whose rules are the fluent's
//! `init` rules, the negation is decided while grounding (a negated static relation is computed
//! exactly first, even on demand when the rewritten rules do not stratify: see
//! `saturate_static_first` in `domain.rs`), and the pieces stay on the 64 cells inside the
//! boundary walls.
//!
//! The state keeps the fluent: its `init` rules and frames stay, so states, their rendering and
//! their equality are unchanged; only the rules that read it read the static relation instead.

use rustc_hash::{FxHashMap, FxHashSet};

use super::super::program::{
    CompiledLiteral, CompiledRule, Keywords, Pattern, PatternAtom, Sym, Symbols,
};

/// A fluent's functor and arity.
type FluentKey = (Sym, usize);

/// The fluent an atom of `init`, `next` or `true` is about; `None` when its argument is a
/// variable (it could be any fluent) or the atom is malformed.
fn fluent_of(atom: &PatternAtom) -> Option<(FluentKey, &[Pattern])> {
    match atom.args.as_slice() {
        [Pattern::Func(functor, args)] => Some(((*functor, args.len()), args.as_slice())),
        [Pattern::Const(name)] => Some(((*name, 0), &[])),
        _ => None,
    }
}

/// Whether a `next` rule is its fluent's frame: `(next F) :- (true F)`, with `F`'s arguments
/// distinct variables.
fn is_frame(rule: &CompiledRule, keywords: &Keywords) -> bool {
    let Some((_, args)) = fluent_of(&rule.head) else {
        return false;
    };
    let mut seen = FxHashSet::default();
    let distinct_variables = args
        .iter()
        .all(|arg| matches!(arg, Pattern::Var(v) if seen.insert(*v)));
    distinct_variables
        && matches!(rule.body.as_slice(), [CompiledLiteral::Positive(read)]
            if read.relation == keywords.true_ && read.args == rule.head.args)
}

/// The rules with every read of a never-changing fluent turned into a read of a static
/// relation (named `constant F`) whose rules are the fluent's `init` rules; `None` when no
/// fluent qualifies, or when an `init` or `next` rule's head is a variable (it could make any
/// fluent).
pub(super) fn constant_fluents_as_static(
    rules: &[CompiledRule],
    keywords: &Keywords,
    symbols: &mut Symbols,
) -> Option<Vec<CompiledRule>> {
    // Per fluent of a `next` head: whether every rule for it is a frame.
    let mut only_frames: FxHashMap<FluentKey, bool> = FxHashMap::default();
    for rule in rules {
        if rule.head.relation == keywords.next || rule.head.relation == keywords.init {
            let (key, _) = fluent_of(&rule.head)?;
            if rule.head.relation == keywords.next {
                *only_frames.entry(key).or_insert(true) &= is_frame(rule, keywords);
            }
        }
    }
    let mut constants: Vec<FluentKey> = only_frames
        .into_iter()
        .filter_map(|(key, frames)| frames.then_some(key))
        .collect();
    if constants.is_empty() {
        return None;
    }
    constants.sort_unstable_by_key(|&(functor, arity)| (functor.0, arity));
    let relation_of: FxHashMap<FluentKey, Sym> = constants
        .iter()
        .map(|&key| {
            let name = format!("constant {}", symbols.name(key.0));
            (key, symbols.intern(&name))
        })
        .collect();
    // `(true F)` or `(init F)` of a constant fluent, as an atom of its static relation.
    let as_static = |atom: &PatternAtom| -> Option<PatternAtom> {
        let (key, args) = fluent_of(atom)?;
        Some(PatternAtom {
            relation: *relation_of.get(&key)?,
            args: args.to_vec(),
        })
    };
    let read = |literal: &CompiledLiteral| -> CompiledLiteral {
        let replaced = match literal {
            CompiledLiteral::Positive(atom) if atom.relation == keywords.true_ => {
                as_static(atom).map(CompiledLiteral::Positive)
            }
            CompiledLiteral::Negative(atom) if atom.relation == keywords.true_ => {
                as_static(atom).map(CompiledLiteral::Negative)
            }
            _ => None,
        };
        replaced.unwrap_or_else(|| literal.clone())
    };
    let mut rewritten: Vec<CompiledRule> = rules
        .iter()
        .map(|rule| CompiledRule {
            head: rule.head.clone(),
            body: rule.body.iter().map(read).collect(),
            variables: rule.variables,
        })
        .collect();
    rewritten.extend(rules.iter().filter_map(|rule| {
        if rule.head.relation != keywords.init {
            return None;
        }
        Some(CompiledRule {
            head: as_static(&rule.head)?,
            body: rule.body.clone(),
            variables: rule.variables,
        })
    }));
    Some(rewritten)
}

//! `gdl/reserved-word`: `<=`, `distinct`, `or` or `not` used as a constant, a function name or a
//! relation name.

use crate::gdl::keywords::reserved_word_ignoring_case;
use crate::gdl::model::{Symbol, Term};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const RESERVED_WORD: Rule = Rule {
    code: "gdl/reserved-word",
    severity: Severity::Error,
    summary: "`<=`, `distinct`, `or` or `not` used as a name",
    explanation: "\
`<=`, `distinct`, `or` and `not` are the words of GDL's rule language (in any case). They are
never names: a relation, a function or a constant spelled like them confuses every GDL parser,
and most reject the game. It almost always comes from a misplaced parenthesis, which turned a
literal into an argument or a rule into a fact.

    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))     ; right
    (<= (legal ?p (not (true (control ?p)))) (role ?p))          ; wrong: `not` inside a term
    (not (true (control white)))                                 ; wrong: a fact cannot be negated

Fix: check the parentheses around the word; if it really is a name, choose another one.
In infix GDL, negation is written `~` and disjunction `|`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        let mut found: Vec<Diagnostic> = Vec::new();
        rule.for_each_sentence(&mut |sentence| {
            let name = &sentence.name;
            let Some(word) = reserved_word_ignoring_case(&name.name) else {
                return;
            };
            let message = if std::ptr::eq(sentence, &rule.head) {
                let what = if rule.written_as_rule {
                    "a rule"
                } else {
                    "a fact"
                };
                format!(
                    "`{}` is a word of GDL's rule language, not a relation that {what} can define: \
                     check the parentheses, or rename the relation",
                    name.name
                )
            } else if sentence.arity() == 0 {
                format!(
                    "`{}` stands alone where a literal must: the connective needs its arguments; check the parentheses",
                    name.name
                )
            } else if *name.name == *word.name {
                // Only the infix lowering leaves a correctly spelled connective as a relation.
                format!(
                    "`{}(...)` is read as a relation: in infix GDL write negation as `~` and disjunction as `|`",
                    name.name
                )
            } else {
                format!(
                    "`{}` is read as a relation, not as the connective: write `{}` in lower case",
                    name.name, word.name
                )
            };
            found.push(Diagnostic::new(&RESERVED_WORD, name.range, message));
        });
        rule.for_each_term(&mut |term| match term {
            Term::Constant(symbol) => report_in_term(
                symbol,
                "a constant: rename it, or check the parentheses if a literal was meant",
                &mut found,
            ),
            Term::Function(function) => report_in_term(
                &function.name,
                "a function name: a literal belongs in the rule body, not inside a term; check the parentheses",
                &mut found,
            ),
            Term::Variable(_) => {}
        });
        found.sort_by_key(|diagnostic| diagnostic.range);
        out.extend(found);
    }
}

fn report_in_term(symbol: &Symbol, what: &str, found: &mut Vec<Diagnostic>) {
    if reserved_word_ignoring_case(&symbol.name).is_none() {
        return;
    }
    let message = format!(
        "`{}` is a word of GDL's rule language and cannot be {what}",
        symbol.name
    );
    found.push(Diagnostic::new(&RESERVED_WORD, symbol.range, message));
}

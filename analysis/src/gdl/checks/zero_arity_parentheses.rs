//! `gdl/zero-arity-parentheses`: `(foo)` / `foo()`, a name in parentheses with no argument.

use crate::gdl::model::Compound;
use crate::rules::Rule;
use crate::{Applicability, Diagnostic, Severity};

use super::Context;

pub const ZERO_ARITY_PARENTHESES: Rule = Rule {
    code: "gdl/zero-arity-parentheses",
    severity: Severity::Warning,
    summary: "a relation or function with parentheses but no arguments: `(foo)`, `foo()`",
    explanation: "\
GDL writes a relation or constant without arguments as a bare name: `terminal`, `open`,
`noop`. The form `(open)` (`open()` in infix) is a different thing in KIF, an application to no
arguments, and players disagree on whether it means `open`: some treat them as one name, some
as two, some reject the game. The reference validator warns about it.

    (<= terminal (not open))
    (<= (open) (true (cell ?x ?y b)))      ; `(open)`: write `open`

Fix: drop the parentheses.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        let mut found: Vec<&Compound> = Vec::new();
        rule.for_each_sentence(&mut |sentence| found.push(sentence));
        rule.for_each_function(&mut |function| found.push(function));
        found.retain(|compound| compound.empty_parentheses);
        found.sort_by_key(|compound| compound.range);
        for compound in found {
            let name = &compound.name.name;
            let message = format!(
                "`{name}` is written with parentheses but no arguments: drop the parentheses and write `{name}` alone"
            );
            out.push(
                Diagnostic::new(&ZERO_ARITY_PARENTHESES, compound.range, message)
                    // Every such spelling is reported, so `--fix` drops the parentheses of each
                    // together: the file keeps one name where it had one.
                    .with_replacement(compound.range, name.to_string(), Applicability::Safe),
            );
        }
    }
}

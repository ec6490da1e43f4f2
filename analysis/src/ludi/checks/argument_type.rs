//! `ludi/wrong-argument`: an argument of a type the ludeme does not take here.

use crate::ludi::bind::Finding;
use crate::ludi::schema::Form;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::{entry, see};

pub const WRONG_ARGUMENT: Rule = Rule {
    code: "ludi/wrong-argument",
    severity: Severity::Error,
    summary: "an argument of the wrong type: a name for a number, a list for a word, a value out of range",
    explanation: "\
Each argument of a ludeme has a type: `size` takes positive integers, `label` a string,
`tiling` a tiling word, `empty` a cell of the move (`to`, `from`, `current`). Lists must start
with a name, and flags such as `i-nbors` are bare words while `(in-a-row 3)` is a list.

    (size 3 three)         ; `three` is not an integer
    (size 0 3)             ; sizes are at least 1
    (tiling square (i-nbors))   ; write the flag as a word: i-nbors
    (pre (empty A1))       ; `empty` tests a cell of the move: to, from or current

Fix: write the argument in the type the manual entry (docs/ludi.md) gives.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for finding in context.findings() {
        let (range, message) = match finding {
            Finding::WrongType { range, parent, problem } => {
                let ludeme = entry(*parent);
                let takes: Vec<String> = ludeme
                    .params
                    .iter()
                    .map(|param| format!("{} ({})", param.name, super::wrong_arity::alternatives(param.accepts)))
                    .collect();
                let takes = if takes.is_empty() { "no arguments".to_owned() } else { takes.join("; ") };
                (*range, format!("{problem} in {}, which takes {takes} ({})", ludeme.written(), see(ludeme)))
            }
            Finding::WrongForm { range, entry: index } => {
                let ludeme = entry(*index);
                let fix = match ludeme.form {
                    Form::Word => format!("`{}` is a word: write it without parentheses", ludeme.name),
                    _ => format!("`{}` is a list: write it in parentheses with its arguments", ludeme.name),
                };
                (*range, format!("{fix} ({})", see(ludeme)))
            }
            Finding::NoHead { range } => (
                *range,
                "a list must start with a ludeme's name, e.g. `(size 3 3)`: add the name or remove the parentheses (see docs/ludi.md)".to_owned(),
            ),
            _ => continue,
        };
        out.push(Diagnostic::new(&WRONG_ARGUMENT, range, message));
    }
}

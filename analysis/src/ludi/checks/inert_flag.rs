//! `ludi/inert-flag`: a piece flag that no move tests or sets. Flags are state a piece carries
//! for moves to read (`(flag NAME)` in a `pre` or `if`) and change (`set-flag`, `clear-flag`);
//! one that nothing reads or changes does nothing, which is rarely what its designer meant.

use crate::ludi::bind::Value;
use crate::ludi::schema::Namespace;
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;

pub const INERT_FLAG: Rule = Rule {
    code: "ludi/inert-flag",
    severity: Severity::Warning,
    summary: "a piece flag that no move tests or sets",
    explanation: "\
A piece type's `(flags ...)` declares flags its pieces carry, all clear when a piece is placed.
Moves set and clear them in `post` (`(set-flag NAME)`, `(clear-flag NAME)`) and test them in
`pre` or a capture's `if` (`(flag NAME)`). A flag that no move tests or sets never changes
anything in the game:

    (Soldier All (flags armed veteran)
      (moves (move (pre (flag armed)) ...)
             (move ... (post (set-flag armed)))))     ; nothing uses `veteran`

Fix: write the moves that use the flag, or remove it from `(flags ...)`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(tree) = &context.bound.game else {
        return;
    };
    let mut declared: Vec<(&str, TextRange)> = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    tree.walk_args(&mut |_, arg| {
        if let Value::Name { text, range, use_ } = &arg.value
            && use_.namespace == Namespace::Flag
        {
            if use_.declares {
                declared.push((text, *range));
            } else {
                used.push(text);
            }
        }
    });
    for (flag, range) in declared {
        if !used.contains(&flag) {
            let message = format!(
                "the flag `{flag}` is declared but no move tests or sets it: use it in a move's \
                 `(pre (flag {flag}))` and `(post (set-flag {flag}))`, or remove it \
                 (see docs/ludi.md#part-flags)"
            );
            out.push(Diagnostic::new(&INERT_FLAG, range, message));
        }
    }
}

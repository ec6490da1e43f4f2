//! `ludi/inert-flag`: a piece flag that changes nothing. Flags are state a piece carries for
//! moves to read (`(flag NAME)` in a `pre` or `if`) and change (`set-flag`, `clear-flag`). A
//! flag that no move tests changes no move however often it is set; one that no move sets is
//! clear on every piece (pieces are placed with every flag clear), so testing it always gives
//! the same answer. Either is rarely what its designer meant.

use crate::ludi::bind::Value;
use crate::ludi::schema::{LUDEMES, Namespace};
use crate::rules::Rule;
use crate::{Diagnostic, Severity, TextRange};

use super::Context;

pub const INERT_FLAG: Rule = Rule {
    code: "ludi/inert-flag",
    severity: Severity::Warning,
    summary: "a piece flag that no move tests, or that no move sets",
    explanation: "\
A piece type's `(flags ...)` declares flags its pieces carry, all clear when a piece is placed.
Moves set and clear them in `post` (`(set-flag NAME)`, `(clear-flag NAME)`) and test them in
`pre` or a capture's `if` (`(flag NAME)`). A flag that no move tests changes nothing however
often it is set, and one that no move sets is always clear, so testing it always gives the same
answer:

    (Soldier All (flags armed veteran ready)
      (moves (move (pre (flag armed)) ...)
             (move ... (post (set-flag armed) (set-flag veteran)))   ; nothing tests `veteran`
             (move (pre (flag ready)) ...)))                          ; nothing sets `ready`

Fix: write the moves that use the flag, or remove it from `(flags ...)`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(tree) = &context.bound.game else {
        return;
    };
    let mut declared: Vec<(&str, TextRange)> = Vec::new();
    let (mut tested, mut set, mut changed): (Vec<&str>, Vec<&str>, Vec<&str>) = Default::default();
    tree.walk_args(&mut |node, arg| {
        if let Value::Name { text, range, use_ } = &arg.value
            && use_.namespace == Namespace::Flag
        {
            if use_.declares {
                declared.push((text, *range));
                return;
            }
            match LUDEMES[node.entry].name {
                "flag" => tested.push(text),
                "set-flag" => {
                    set.push(text);
                    changed.push(text);
                }
                _ => changed.push(text),
            }
        }
    });
    for (flag, range) in declared {
        let message = match (tested.contains(&flag), set.contains(&flag)) {
            (true, true) => continue,
            (false, _) if !changed.contains(&flag) => format!(
                "the flag `{flag}` is declared but no move tests or sets it: use it in a move's \
                 `(pre (flag {flag}))` and `(post (set-flag {flag}))`, or remove it \
                 (see docs/ludi.md#part-flags)"
            ),
            (false, _) => format!(
                "no move tests the flag `{flag}`, so changing it changes nothing: test it in a \
                 move's `(pre (flag {flag}))`, or remove it (see docs/ludi.md#part-flags)"
            ),
            (true, false) => format!(
                "no move sets the flag `{flag}`, and pieces are placed with every flag clear, so \
                 `(flag {flag})` never holds: set it in a move's `(post (set-flag {flag}))`, or \
                 remove it (see docs/ludi.md#part-flags)"
            ),
        };
        out.push(Diagnostic::new(&INERT_FLAG, range, message));
    }
}

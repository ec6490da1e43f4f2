//! `ludi/wrong-arity`: a ludeme with too many or too few arguments.

use crate::ludi::bind::Finding;
use crate::ludi::schema::Accepts;
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;
use super::context::{entry, see};

pub const WRONG_ARITY: Rule = Rule {
    code: "ludi/wrong-arity",
    severity: Severity::Error,
    summary: "a ludeme with too many or too few arguments",
    explanation: "\
Each ludeme takes a fixed number of each kind of argument: `(in-a-row N)` one length,
`(size W H)` one to three dimensions, a comparison `(> A B)` exactly two numbers, an end clause
`(PLAYER RESULT CONDITION)` one of each.

    (in-a-row)          ; the length is missing
    (in-a-row 3 4)      ; one length too many
    (> (distance))      ; a comparison needs two numbers

Fix: give the ludeme the arguments its manual entry (docs/ludi.md) lists.",
};

/// Whether the parameter takes ludemes (a missing one is a missing part, not an arity error).
pub fn takes_ludemes(accepts: &[Accepts]) -> bool {
    accepts
        .iter()
        .all(|a| matches!(a, Accepts::Part(_) | Accepts::Record(_)))
}

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for finding in context.findings() {
        let (range, message) = match finding {
            Finding::TooMany {
                range,
                parent,
                param,
            } => {
                let ludeme = entry(*parent);
                let spec = &ludeme.params[*param];
                (
                    *range,
                    format!(
                        "{} takes {} `{}` argument{} ({}), and this is one too many: remove it ({})",
                        ludeme.written(),
                        spec.count(),
                        spec.name,
                        if spec.max == 1 { "" } else { "s" },
                        alternatives(spec.accepts),
                        see(ludeme)
                    ),
                )
            }
            Finding::Missing {
                range,
                parent,
                param,
            } if !takes_ludemes(entry(*parent).params[*param].accepts) => {
                let ludeme = entry(*parent);
                let spec = &ludeme.params[*param];
                (
                    *range,
                    format!(
                        "{} needs its `{}` argument ({}): add {} ({})",
                        ludeme.written(),
                        spec.name,
                        alternatives(spec.accepts),
                        if spec.min == 1 {
                            "it".to_owned()
                        } else {
                            format!("at least {}", spec.min)
                        },
                        see(ludeme)
                    ),
                )
            }
            _ => continue,
        };
        out.push(Diagnostic::new(&WRONG_ARITY, range, message));
    }
}

/// "an integer ≥ 1 or a number function".
pub fn alternatives(accepts: &[Accepts]) -> String {
    let described: Vec<String> = accepts.iter().map(|a| a.describe()).collect();
    described.join(" or ")
}

//! Ludi GDL (Browne & Maire, seed 004): the keyword schema as data, the lowering of `.ludi`
//! files to a bound ludeme tree and a typed game model, the rule-safety checks, and English.

pub mod bind;
pub mod checks;
pub mod engine;
pub mod english;
pub mod format;
mod lower;
pub mod manual;
pub mod model;
pub mod schema;
pub mod tree;

#[cfg(test)]
mod tests;

pub use checks::ludi_diagnostics;
pub use english::{LudiExplanation, ludi_explanation, ludi_rulebook};
pub use lower::{ludi_game, ludi_tree};

use crate::TextRange;
use crate::rules::Rule;

/// Every diagnostic rule of the Ludi layer.
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    checks::RULES.iter().copied()
}

/// A mandatory parameter a ludeme leaves without its argument, as the binder found it
/// ([`bind::Finding::Missing`]): what `ludi/missing-part` reports and its code action adds.
#[derive(Clone, Copy, Debug)]
pub struct MissingPart {
    /// The name of the ludeme that lacks it.
    pub range: TextRange,
    /// The schema entry of the ludeme that lacks it.
    pub parent: usize,
    /// The parameter without its argument.
    pub param: usize,
    /// The schema entry of the part itself, when the parameter is named after one (`end`,
    /// `tiling`).
    pub part: Option<&'static schema::Ludeme>,
}

/// Every mandatory parameter left without its argument in `bound`, in the binder's order.
pub fn missing_parts(bound: &bind::Bound) -> impl Iterator<Item = MissingPart> + '_ {
    bound.findings.iter().filter_map(|finding| match *finding {
        bind::Finding::Missing {
            range,
            parent,
            param,
        } => {
            let name = schema::LUDEMES[parent].params[param].name;
            Some(MissingPart {
                range,
                parent,
                param,
                part: schema::named(name).find(|part| part.kind == schema::Kind::Part),
            })
        }
        _ => None,
    })
}

//! Ludi GDL (Browne & Maire, seed 004): the keyword schema as data, the lowering of `.ludi`
//! files to a bound ludeme tree and a typed game model, the rule-safety checks, and English.

pub mod bind;
pub mod checks;
pub mod engine;
pub mod english;
pub mod ide;
mod lower;
pub mod manual;
pub mod model;
pub mod schema;
pub mod tree;

#[cfg(test)]
mod tests;

pub use checks::ludi_diagnostics;
pub use english::{LudiExplanation, ludi_explanation};
pub use lower::{ludi_game, ludi_tree};

use crate::rules::Rule;

/// Every diagnostic rule of the Ludi layer.
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    checks::RULES.iter().copied()
}

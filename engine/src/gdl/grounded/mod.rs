//! The fast GDL reasoner: the rules are grounded and evaluated as a propositional circuit.
//!
//! [`GroundedGame::new`] grounds the program ([`domain`]: a relaxed reachability fixpoint, then
//! every rule instantiated over it, with fluents that never change read as static relations,
//! [`constant`]), folds constants and numbers the propositions
//! ([`circuit`]), and plays through an incremental bit-vector [`evaluator`]; random playouts
//! run 64 at a time, one in each bit of a word per proposition ([`lanes`]). A state is a bit
//! vector over the base propositions, a move the number of its `does` proposition. Grounding
//! works under [`GroundingLimits`]; a game too large to ground gets an error, and
//! [`Reasoner`](super::Reasoner) falls back to the interpreter, unless the game grounds without
//! its goal ([`played`]), whose values the interpreter then gives, or rewritten within the
//! limits' last resort ([`GroundedGame::within_last_resort`]).

mod circuit;
mod constant;
pub(super) mod demand;
mod domain;
mod domain_arguments;
mod evaluator;
pub(super) mod factor;
mod game;
mod gates;
mod lanes;
mod played;
pub(super) mod terms;
#[cfg(test)]
mod tests;

pub use domain::{GroundingLimits, WorkAllowance, WorkKind};
pub use game::{GroundedGame, GroundedMove, GroundedState};

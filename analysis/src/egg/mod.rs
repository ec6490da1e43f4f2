//! EGGG (Orwant, seed 000): the statements of `.egg` files lowered into a game model, `X is like
//! Y` resolved across the workspace, the checks, the English instructions and the classification
//! by the seed's twelve attributes.
//!
//! Queries, from the bottom up:
//! - [`egg_file`]: one file's statements, on their own;
//! - [`workspace::resolve_base`] over the EGGG games of the [`crate::project::Project`] input: which file a game name
//!   refers to (by file stem first, reading no file);
//! - [`egg_lineage`]: a file and its bases; [`egg_game`]: the game with overrides applied;
//! - [`egg_diagnostics`], [`egg_explanation`], [`egg_classification`];
//! - [`engine::egg_engine_for`]: the game on the EGGG engine, or the statement outside its core.
//!
//! The model is meant for an engine as much as for the editor: players, turn order, board,
//! pieces, moves, goal and definitions are resolved; code escapes are text and never run.

pub mod checks;
pub mod classify;
pub mod engine;
pub mod english;
pub mod format;
pub mod forms;
pub mod inherit;
mod lower;
pub mod model;
pub mod words;
pub mod workspace;

pub use checks::egg_diagnostics;
pub use classify::{Classification, classify, egg_classification};
pub use english::{EggExplanation, egg_explanation, egg_rulebook};
pub use inherit::{Lineage, LineageProblem, egg_game, egg_lineage};
pub use lower::{egg_file, lower};
pub use workspace::{egg_files, game_index, load_egg_workspace, set_egg_workspace};

use crate::rules::Rule;

/// Every diagnostic rule of the EGGG layer.
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    checks::RULES.iter().copied()
}

//! Stanford GDL: the engine's input form of a game ([`Program`], built by the analysis layer
//! from its rule model) and the plain interpreter that runs it behind the [`Game`](crate::Game)
//! interface.
//!
//! The [`Interpreter`] is a fixpoint over ground facts, stratum by stratum. Its reference
//! evaluation ([`Interpreter::bottom_up`]) is written for obvious correctness, not speed, and is
//! the oracle the others are tested against; its goal-directed one ([`Interpreter::new`]:
//! rules rewritten for demand, indexed joins) runs the games that do not ground.
//! The [`grounded`] reasoner grounds the rules into a propositional circuit and is the fast one;
//! [`Reasoner`] picks it when the game grounds and falls back to the interpreter otherwise.

pub mod grounded;
mod interpreter;
pub mod program;
mod reasoner;
#[cfg(test)]
mod tests;

use std::fmt;

pub use interpreter::{Budget, Evaluation, GdlState, Interpreter};
pub use program::{Atom, Ground, Literal, Program, ProgramBuilder, Rule, Sym, Symbols, Term};
pub use reasoner::{Engine, Reasoner, ReasonerMove, ReasonerState};

/// Why a GDL game could not be built or run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GdlError {
    /// The rules cannot run (unsafe, unstratified, defining `true`/`does`, ...). The static
    /// checks report these with positions; the engine repeats them in case it is fed directly.
    Build(String),
    /// A budget of steps, facts, term depth or time ran out.
    Budget(String),
    /// The game misbehaves while it is played (a goal value that is not a number 0–100, ...).
    Game(String),
}

impl fmt::Display for GdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GdlError::Build(message) => write!(f, "the game cannot run: {message}"),
            GdlError::Budget(message) => write!(f, "budget exhausted: {message}"),
            GdlError::Game(message) => write!(f, "the game misbehaves: {message}"),
        }
    }
}

impl std::error::Error for GdlError {}

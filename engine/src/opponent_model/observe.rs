//! What a modeller sees of a state: its atoms, in each engine's own terms, and which of them
//! (and of the legal moves) become the classifier's features.

use crate::egg::EggEngine;
use crate::gdl::Reasoner;
use crate::ludi::LudiGame;
use crate::notation::Notation;
use crate::picture::{Depict, Picture};

/// A game whose states can be read as a set of atoms (facts that hold), for learning.
pub trait Observe: Notation {
    /// The atoms that hold in `state`, as text, sorted.
    fn atoms(&self, state: &Self::State) -> Vec<String>;
}

impl Observe for Reasoner {
    /// The fluents, in KIF form: `(cell 1 1 x)`, `(control oplayer)`.
    fn atoms(&self, state: &Self::State) -> Vec<String> {
        self.render_state(state)
    }
}

impl Observe for LudiGame {
    fn atoms(&self, state: &Self::State) -> Vec<String> {
        picture_atoms(&self.picture(state))
    }
}

impl Observe for EggEngine {
    fn atoms(&self, state: &Self::State) -> Vec<String> {
        picture_atoms(&self.picture(state))
    }
}

/// The board's cell contents (`A1: White stone`, a stack with its height) and the notes beside
/// the board (whose turn it is, hands, scores): what a Ludi or EGGG position holds, in the
/// language-neutral form the pictures already give.
fn picture_atoms(picture: &Picture) -> Vec<String> {
    let mut atoms: Vec<String> = picture
        .pieces
        .iter()
        .map(|piece| {
            let cell = picture
                .cells
                .get(piece.cell)
                .and_then(|cell| cell.label.clone())
                .unwrap_or_else(|| format!("cell {}", piece.cell));
            let owner = piece
                .owner
                .and_then(|owner| picture.roles.get(owner))
                .map_or("neutral", String::as_str);
            if piece.count == 1 {
                format!("{cell}: {owner} {}", piece.name)
            } else {
                format!("{cell}: {owner} {} x{}", piece.name, piece.count)
            }
        })
        .chain(picture.notes.iter().map(|note| format!("note: {note}")))
        .collect();
    atoms.sort();
    atoms.dedup();
    atoms
}

/// Which features a state's row holds (the seed's three tic-tac-toe variants); a model file
/// spells them as `--features` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum FeatureSet {
    /// The state's atoms only.
    #[default]
    #[serde(rename = "state")]
    State,
    /// The state's atoms and the player's legal moves.
    #[serde(rename = "state+legal")]
    StateAndLegal,
    /// The player's legal moves only.
    #[serde(rename = "legal")]
    Legal,
}

impl FeatureSet {
    pub const NAMES: [&'static str; 3] = ["state", "state+legal", "legal"];

    /// The variant named as `--features` spells it.
    pub fn from_name(name: &str) -> Option<FeatureSet> {
        match name {
            "state" => Some(FeatureSet::State),
            "state+legal" => Some(FeatureSet::StateAndLegal),
            "legal" => Some(FeatureSet::Legal),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::State => "state",
            FeatureSet::StateAndLegal => "state+legal",
            FeatureSet::Legal => "legal",
        }
    }

    /// The features of a state with `atoms` in which `legal` are the player's legal moves'
    /// names; a legal move's feature is `legal NAME`, which no atom spells.
    pub fn features(self, atoms: &[String], legal: &[String]) -> Vec<String> {
        let state = matches!(self, FeatureSet::State | FeatureSet::StateAndLegal);
        let moves = matches!(self, FeatureSet::StateAndLegal | FeatureSet::Legal);
        let mut features: Vec<String> = Vec::new();
        if state {
            features.extend(atoms.iter().cloned());
        }
        if moves {
            features.extend(legal.iter().map(|name| format!("legal {name}")));
        }
        features
    }
}

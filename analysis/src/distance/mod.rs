//! Ludeme trees and the distance between games (Browne & Maire 2010, §II.D): is a rule set a
//! duplicate of a known game, a variant of it, or a new game?
//!
//! [`ludeme_tree`] gives one tree per game whatever its language; [`weighted`] measures the
//! distance between two trees, [`classic`] the measures Ludii offers for comparison, [`cluster`]
//! groups games into families. Front ends call [`compare_files`] and [`nearest`]; see
//! `docs/distance.md` for the formula, the weights and the thresholds.

mod catalog;
pub mod classic;
pub mod cluster;
mod duplicate;
mod egg;
mod gdl;
mod ludi;
pub mod tree;
pub mod weighted;

pub use catalog::Catalog;
pub use duplicate::{DUPLICATE_GAME, RULES, duplicate_diagnostic, game_anchor};
pub use tree::{ChildOrder, LudemeTree, NodeKind, TreeBuilder};
pub use weighted::{Class, Comparison, Difference, compare, distance};

use crate::{Db, SourceFile, Syntax, parse};

/// The ludeme tree of the game in `file`, in any of the three languages.
#[salsa::tracked(returns(ref))]
pub fn ludeme_tree(db: &dyn Db, file: SourceFile) -> LudemeTree {
    build_ludeme_tree(db, file)
}

/// [`ludeme_tree`] without keeping it: for a question answered from the tree at once (the
/// duplicate key of every known game), so that hundreds of trees are not held in memory.
pub(crate) fn build_ludeme_tree(db: &dyn Db, file: SourceFile) -> LudemeTree {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl::tree(&crate::gdl::gdl_rules(db, file).rules),
        Syntax::Ludi => ludi::tree(crate::ludi::ludi_tree(db, file).game.as_ref()),
        Syntax::Egg => egg::tree(parse(db, file).root(), file.text(db)),
    }
}

/// How a game is named in lists: the name a Ludi game gives itself, else the file's name.
pub fn game_title(db: &dyn Db, file: SourceFile) -> String {
    if let Some(name) = crate::ludi::ludi_game(db, file)
        .as_ref()
        .and_then(|game| game.name.as_ref())
    {
        return name.name.clone();
    }
    file.path(db)
        .file_stem()
        .map_or_else(String::new, |stem| stem.to_string_lossy().into_owned())
}

/// The distance between the games of two files, its class and the differences.
pub fn compare_files(db: &dyn Db, first: SourceFile, second: SourceFile) -> Comparison {
    let (a, b) = (ludeme_tree(db, first), ludeme_tree(db, second));
    compare(a, b)
}

/// The classic measures between two games.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ClassicMeasures {
    /// Zhang–Shasha ordered tree edit distance (unit costs); `None` for trees too large.
    pub tree_edit_distance: Option<usize>,
    /// The same over the larger tree's size.
    pub tree_edit_distance_normalised: Option<f64>,
    /// One minus the Jaccard index of the sets of ludeme labels.
    pub jaccard_distance: f64,
}

pub fn classic_measures(first: &LudemeTree, second: &LudemeTree) -> ClassicMeasures {
    ClassicMeasures {
        tree_edit_distance: classic::tree_edit_distance(first, second),
        tree_edit_distance_normalised: classic::normalised_tree_edit_distance(first, second),
        jaccard_distance: classic::jaccard_distance(first, second),
    }
}

/// A game near another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbour {
    pub file: SourceFile,
    pub distance: f64,
    pub class: Class,
}

/// The `count` games of `candidates` nearest to the game of `file`, nearest first (ties by
/// path); `file` itself is skipped. For the editor's code lens and `ludeme nearest`.
pub fn nearest(
    db: &dyn Db,
    file: SourceFile,
    candidates: &[SourceFile],
    count: usize,
) -> Vec<Neighbour> {
    let others: Vec<SourceFile> = candidates
        .iter()
        .copied()
        .filter(|&candidate| candidate != file)
        .collect();
    // The target is game 0 of the catalog, the others follow.
    let trees: Vec<&LudemeTree> = std::iter::once(file)
        .chain(others.iter().copied())
        .map(|game| ludeme_tree(db, game))
        .collect();
    let pairs: Vec<(usize, usize)> = (1..trees.len()).map(|other| (0, other)).collect();
    let distances = Catalog::new(&trees).distances(&pairs);
    let mut neighbours: Vec<Neighbour> = others
        .iter()
        .zip(distances)
        .map(|(&candidate, distance)| Neighbour {
            file: candidate,
            distance,
            class: Class::of(distance),
        })
        .collect();
    neighbours.sort_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then_with(|| a.file.path(db).cmp(b.file.path(db)))
    });
    neighbours.truncate(count);
    neighbours
}

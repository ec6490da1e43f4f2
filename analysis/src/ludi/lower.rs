//! Lowering, as tracked queries: the tree-sitter tree → the written ludeme tree → the tree bound
//! to the schema (with its findings) → the typed game model with defaults filled in.

use crate::ludi::bind::{self, Bound, Finding};
use crate::ludi::model::{self, Game};
use crate::ludi::tree;
use crate::{Db, SourceFile, Syntax, parse};

/// The ludeme tree of `file` bound to the schema, and what did not fit (empty for other
/// languages).
#[salsa::tracked(returns(ref))]
pub fn ludi_tree(db: &dyn Db, file: SourceFile) -> Bound {
    if file.syntax(db) != Syntax::Ludi {
        return Bound::default();
    }
    let root = parse(db, file).root();
    let (items, too_deep) = tree::read(root, file.text(db));
    // A list left out for its depth leaves its parent short of a part, as a syntax error may:
    // the structure is not judged then either.
    let mut bound = bind::bind(&items, root.has_error() || !too_deep.is_empty());
    bound
        .findings
        .extend(too_deep.into_iter().map(|range| Finding::TooDeep { range }));
    bound
}

/// The typed model of the game in `file`, with defaults filled in; `None` when the file has no
/// `(game ...)`.
#[salsa::tracked(returns(ref))]
pub fn ludi_game(db: &dyn Db, file: SourceFile) -> Option<Game> {
    ludi_tree(db, file).game.as_ref().map(model::build)
}

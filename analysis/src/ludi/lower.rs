//! Lowering, as tracked queries: the tree-sitter tree → the written ludeme tree → the tree bound
//! to the schema (with its findings) → the typed game model with defaults filled in.

use crate::ludi::bind::{self, Bound};
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
    let items = tree::read(root, file.text(db));
    bind::bind(&items, root.has_error())
}

/// The typed model of the game in `file`, with defaults filled in; `None` when the file has no
/// `(game ...)`.
#[salsa::tracked(returns(ref))]
pub fn ludi_game(db: &dyn Db, file: SourceFile) -> Option<Game> {
    ludi_tree(db, file).game.as_ref().map(model::build)
}

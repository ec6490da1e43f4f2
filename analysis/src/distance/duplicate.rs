//! `distance/duplicate`: a game that is the same as a known game, up to the order of parts
//! that carries no meaning and the names of variables.
//!
//! Front ends decide which games are known (the editor: the workspace and the corpus folders
//! of `ludeme.toml`) and run the search off the critical path; this module only words the
//! finding and says where it goes.

use super::{Class, Neighbour, game_title};
use crate::rules::Rule;
use crate::{Db, Diagnostic, Severity, SourceFile, Syntax, TextRange};

pub const DUPLICATE_GAME: Rule = Rule {
    code: "distance/duplicate",
    severity: Severity::Warning,
    summary: "the game is the same as a known game of the workspace or corpus",
    explanation: "\
The ludeme tree of this game is at distance 0 from a game the editor knows: the game files
of the workspace and the corpus folders listed in `ludeme.toml`. Distance 0 means the same
rules, up to the order of parts whose order carries no meaning (`(board (size 3) (tiling
square))` equals `(board (tiling square) (size 3))`), GDL rule order and variable names.
A parameter change (a board size, a line length) already makes a variant, not a duplicate.
See docs/distance.md for the distance.

A duplicate is usually a copy made to start a variant, not yet changed, or a game that
already exists under another name.

Fix: change the rules you meant to change, or delete the copy.",
};

/// The rules of the distance module.
pub const RULES: &[&Rule] = &[&DUPLICATE_GAME];

/// Where findings about the whole game go: the `(game ...)` of a Ludi file, the first `role`
/// of a GDL game, the first statement of an EGGG file (the start of the file when empty).
pub fn game_anchor(db: &dyn Db, file: SourceFile) -> TextRange {
    if matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix)
        && let Some(anchor) = crate::gdl::simulate::lens_anchor(db, file)
    {
        return anchor;
    }
    crate::document_symbols(db, file)
        .first()
        .map_or(TextRange::empty(0), |symbol| symbol.range)
}

/// The warning for `file` when `nearest` (its nearest known game, from [`super::nearest`]) is
/// a duplicate of it.
pub fn duplicate_diagnostic(
    db: &dyn Db,
    file: SourceFile,
    nearest: &Neighbour,
) -> Option<Diagnostic> {
    if nearest.class != Class::Duplicate {
        return None;
    }
    let message = format!(
        "this game duplicates `{}` ({}): the same rules up to the order of parts and the names \
         of variables; change what makes it a new game, or remove the copy",
        game_title(db, nearest.file),
        nearest.file.path(db).display()
    );
    Some(Diagnostic::new(
        &DUPLICATE_GAME,
        game_anchor(db, file),
        message,
    ))
}

//! What every check reads, and the helpers their messages share.

use crate::egg::inherit::Lineage;
use crate::egg::model::{EggFile, EggGame, StatementKind};
use crate::{Db, SourceFile, TextRange};

pub struct Context<'a> {
    pub db: &'a dyn Db,
    pub file: SourceFile,
    /// The file's own statements.
    pub own: &'a EggFile,
    /// The game with the bases' statements applied.
    pub game: &'a EggGame,
    pub lineage: &'a Lineage,
}

impl Context<'_> {
    /// How a file is named in a message: its file name.
    pub fn file_name(&self, file: SourceFile) -> String {
        let path = file.path(self.db);
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// The text of `range` in this file.
    pub fn text(&self, range: TextRange) -> &str {
        self.file
            .text(self.db)
            .get(range.start..range.end)
            .unwrap_or_default()
    }

    /// Where something about the whole game is reported: the statement naming the game, or
    /// the first statement, or the start of the file.
    pub fn anchor(&self) -> TextRange {
        let statements = &self.own.statements;
        statements
            .iter()
            .find(|s| {
                matches!(
                    s.kind,
                    StatementKind::GameName(_) | StatementKind::Like { .. }
                )
            })
            .or_else(|| statements.first())
            .map_or_else(|| TextRange::empty(0), |s| s.range)
    }
}

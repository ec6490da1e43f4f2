//! The analysis host: the database plus the side table from file names to salsa inputs.
//!
//! Front ends own one host. They write through it (a file opened, edited, closed) and read from
//! snapshots: clones of the database that background work can query while the host moves on;
//! a write cancels the queries still running on older snapshots.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use salsa::Setter;

use crate::syntax::EditedTree;
use crate::{RootDatabase, SourceFile, Syntax};

/// How a front end names a file: its path, or for a buffer with no file (an editor's `untitled:`
/// document) the URI text as a path.
pub type FileKey = PathBuf;

#[derive(Default)]
pub struct AnalysisHost {
    db: RootDatabase,
    files: HashMap<FileKey, SourceFile>,
}

impl AnalysisHost {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the text of `key`, creating the file on first sight. `edited_tree` is the previous tree
    /// with the edits that produced `text` applied (see [`SourceFile::edited_tree`]).
    pub fn set_file(
        &mut self,
        key: &Path,
        syntax: Syntax,
        text: Arc<str>,
        edited_tree: Option<EditedTree>,
    ) -> SourceFile {
        match self.files.get(key) {
            Some(&file) => {
                if file.syntax(&self.db) != syntax {
                    file.set_syntax(&mut self.db).to(syntax);
                }
                file.set_text(&mut self.db).to(text);
                file.set_edited_tree(&mut self.db).to(edited_tree);
                file
            }
            None => {
                let file = SourceFile::new(&self.db, key.to_path_buf(), syntax, text, edited_tree);
                self.files.insert(key.to_path_buf(), file);
                file
            }
        }
    }

    pub fn file(&self, key: &Path) -> Option<SourceFile> {
        self.files.get(key).copied()
    }

    /// Forgets `key`. (Salsa inputs live as long as the database; the file is only unlisted.)
    pub fn remove_file(&mut self, key: &Path) -> Option<SourceFile> {
        self.files.remove(key)
    }

    pub fn files(&self) -> impl Iterator<Item = (&Path, SourceFile)> {
        self.files.iter().map(|(key, &file)| (key.as_path(), file))
    }

    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    /// The database, for writes to inputs that belong to no file (such as the EGGG workspace).
    pub fn db_mut(&mut self) -> &mut RootDatabase {
        &mut self.db
    }

    /// A handle for queries off the writer's thread; cancelled by the next write.
    pub fn snapshot(&self) -> RootDatabase {
        self.db.clone()
    }
}

//! Editor features answered from the analyses: hover, navigation, rename, highlighting, folding.
//! Each function dispatches on the file's language; a language without the feature yet answers
//! nothing (an empty list or `None`), never an error.

mod folding;
mod gdl;

pub use folding::folding_ranges;

use crate::{Db, SourceFile, Syntax, TextRange};

/// Markdown to show for the symbol under the cursor, and the range it describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub range: TextRange,
    pub markdown: String,
}

/// A place the symbol under the cursor is written, and whether it defines the symbol there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reference {
    pub range: TextRange,
    pub is_definition: bool,
}

/// What semantic highlighting colours a name as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Keyword,
    /// A relation (GDL), a ludeme (Ludi), a defined name (EGGG).
    Function,
    /// A function term's name (GDL), a piece type (Ludi).
    Type,
    Constant,
    Variable,
    Number,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: TokenKind,
    /// Where the symbol is defined (a rule head), rather than used.
    pub definition: bool,
}

fn is_gdl(db: &dyn Db, file: SourceFile) -> bool {
    matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix)
}

pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    if is_gdl(db, file) {
        gdl::hover(db, file, offset)
    } else {
        None
    }
}

/// Where the symbol under the cursor is defined.
pub fn definitions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<TextRange> {
    references(db, file, offset)
        .into_iter()
        .filter(|reference| reference.is_definition)
        .map(|reference| reference.range)
        .collect()
}

/// Every place the symbol under the cursor is written (definitions included).
pub fn references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Reference> {
    if is_gdl(db, file) {
        gdl::references(db, file, offset)
    } else {
        Vec::new()
    }
}

/// The range of the symbol a rename at `offset` would change, or why it cannot be renamed.
pub fn prepare_rename(db: &dyn Db, file: SourceFile, offset: usize) -> Result<TextRange, String> {
    if is_gdl(db, file) {
        gdl::prepare_rename(db, file, offset)
    } else {
        Err("renaming is not available for this language yet".to_owned())
    }
}

/// The edits (range, new text) that rename the symbol under the cursor, or why not.
pub fn rename(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
    new_name: &str,
) -> Result<Vec<(TextRange, String)>, String> {
    if is_gdl(db, file) {
        gdl::rename(db, file, offset, new_name)
    } else {
        Err("renaming is not available for this language yet".to_owned())
    }
}

pub fn semantic_tokens(db: &dyn Db, file: SourceFile) -> Vec<SemanticToken> {
    if is_gdl(db, file) {
        gdl::semantic_tokens(db, file)
    } else {
        Vec::new()
    }
}

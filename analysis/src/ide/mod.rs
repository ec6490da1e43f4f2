//! Editor features answered from the analyses: hover, completion, signature help, navigation,
//! rename, highlighting, folding, selection ranges, range formatting, code actions and inlay
//! hints. Each function dispatches on the file's language; a language without a feature answers
//! nothing (an empty list or `None`), never an error. Every answer is in byte ranges of the
//! file's text; the language server converts them to protocol positions.

mod actions;
mod completion_filter;
mod egg;
#[cfg(test)]
mod fixture;
mod folding;
mod gdl;
mod gdl_complete;
mod inlay;
mod ludi;
mod ludi_complete;
mod ludi_tokens;
mod range_format;
mod selection;

pub use actions::{
    BREED_TITLE, CodeAction, CodeActionKind, breed_target, code_actions, conversion_target,
    convert_gdl,
};
pub use completion_filter::{COMPLETION_LIMIT, Completions};
pub use folding::folding_ranges;
pub use inlay::{InlayHint, InlayOptions, inlay_hints};
pub use range_format::format_range;
pub use selection::selection_ranges;

use crate::{Db, SourceFile, Syntax, TextRange};

/// What a completion item is, for the editor's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    /// A word of the language itself (a GDL keyword).
    Keyword,
    /// A ludeme of the Ludi schema.
    Ludeme,
    /// A relation (GDL) or a name the game defines (EGGG).
    Relation,
    /// A function term's name (GDL).
    Function,
    /// A constant (GDL), a player, piece or region (Ludi).
    Constant,
    /// A variable of the rule at the cursor (GDL).
    Variable,
    /// An EGGG statement form.
    Statement,
}

/// One completion: the label shown, what it is, and the text to insert when that is more than
/// the label (a snippet with `${1:placeholder}` tab stops).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub detail: String,
    pub kind: CompletionKind,
    /// A snippet in the LSP snippet syntax; `None` inserts the label.
    pub snippet: Option<String>,
    /// A keyword or a name in scope that the place at the cursor expects: ranked before the
    /// other matches of the typed word.
    pub preferred: bool,
}

impl Completion {
    pub fn plain(
        label: impl Into<String>,
        detail: impl Into<String>,
        kind: CompletionKind,
    ) -> Self {
        Self {
            label: label.into(),
            detail: detail.into(),
            kind,
            snippet: None,
            preferred: false,
        }
    }
}

/// The signature of the ludeme or relation whose arguments the cursor is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureHelp {
    /// How it is written: `(in-a-row length [piece])`.
    pub label: String,
    /// The parameters, each a distinct substring of `label`.
    pub parameters: Vec<String>,
    /// The parameter the cursor is at, when one is.
    pub active_parameter: Option<usize>,
    /// Markdown: what it means.
    pub documentation: String,
}

/// A place in some file of the database (a definition may be in the base of an EGGG game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavigationTarget {
    pub file: SourceFile,
    pub range: TextRange,
}

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

/// A [`Reference`] in some file of the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileReference {
    pub file: SourceFile,
    pub range: TextRange,
    pub is_definition: bool,
}

/// One edit of a rename: `range` of `file` becomes `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdit {
    pub file: SourceFile,
    pub range: TextRange,
    pub new_text: String,
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

/// Whether `name` is one word as EGGG and Ludi write the names a game declares: letters,
/// digits, `-` and `_`, starting with a letter. Each language adds its own exclusions.
fn is_name_word(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_alphabetic)
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
}

/// Everything the editor shows on hovering `offset`, in one place so that every front end
/// shows the same: on a game's name the rulebook's overview first, then the language's own
/// hover (definitions, the rule in English, the manual entry), then on a GDL `role` fact the
/// editor simulation's figures and, with a trained model beside the game, the role's predicted
/// moves. The parts are separated by rules; the range is the most specific one that has text
/// (the language hover's, else the `role` fact's, else the name's).
pub fn hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<Hover> {
    let language = match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl::hover(db, file, offset),
        Syntax::Ludi => ludi::hover(db, file, offset),
        Syntax::Egg => egg::hover(db, file, offset),
    };
    let overview = crate::rulebook::overview_hover(db, file, offset);
    let simulation = crate::gdl::simulate::role_hover(db, file, offset);
    let model = crate::opponent_model::role_hover(db, file, offset);
    let range = language
        .as_ref()
        .map(|hover| hover.range)
        .or(simulation.as_ref().map(|(range, _)| *range))
        .or(model.as_ref().map(|(range, _)| *range))
        .or(overview.as_ref().map(|(range, _)| *range))?;
    let parts: Vec<String> = [
        overview.map(|(_, markdown)| markdown),
        language.map(|hover| hover.markdown),
        simulation.map(|(_, markdown)| markdown),
        model.map(|(_, markdown)| markdown),
    ]
    .into_iter()
    .flatten()
    .filter(|markdown| !markdown.trim().is_empty())
    .collect();
    if parts.is_empty() {
        return None;
    }
    Some(Hover {
        range,
        markdown: parts.join("\n\n---\n\n"),
    })
}

/// What may be written at `offset`: the candidates of the file's language that match the word
/// typed before the cursor, best first, at most [`COMPLETION_LIMIT`] of them (see
/// [`completion_filter`]).
pub fn completions(db: &dyn Db, file: SourceFile, offset: usize) -> Completions {
    let syntax = file.syntax(db);
    let candidates = match syntax {
        Syntax::GdlKif | Syntax::GdlInfix => gdl_complete::completions(db, file, offset),
        Syntax::Ludi => ludi_complete::completions(db, file, offset),
        Syntax::Egg => egg::completions(db, file, offset),
    };
    let typed = completion_filter::typed_word(file.text(db), offset, syntax);
    completion_filter::filter_and_rank(candidates, typed, COMPLETION_LIMIT)
}

/// The signature of the ludeme or relation whose arguments contain `offset`.
pub fn signature_help(db: &dyn Db, file: SourceFile, offset: usize) -> Option<SignatureHelp> {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl_complete::signature_help(db, file, offset),
        Syntax::Ludi => ludi_complete::signature_help(db, file, offset),
        Syntax::Egg => None,
    }
}

/// Where the symbol under the cursor is defined, in this file or (EGGG) in a base game's file.
pub fn goto_definition(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<NavigationTarget> {
    if file.syntax(db) == Syntax::Egg {
        return egg::definitions(db, file, offset);
    }
    definitions(db, file, offset)
        .into_iter()
        .map(|range| NavigationTarget { file, range })
        .collect()
}

/// Where the symbol under the cursor is defined in this file.
pub fn definitions(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<TextRange> {
    references(db, file, offset)
        .into_iter()
        .filter(|reference| reference.is_definition)
        .map(|reference| reference.range)
        .collect()
}

/// Every place in this file the symbol under the cursor is written (definitions included).
pub fn references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<Reference> {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl::references(db, file, offset),
        Syntax::Ludi => ludi::references(db, file, offset),
        Syntax::Egg => egg::references(db, file, offset),
    }
}

/// Every place in the workspace the symbol under the cursor is written. An EGGG name reaches
/// every file whose game inherits it through `is like` (and a game's name every file that is
/// like it); a GDL or Ludi game is a world of its own, so its names stay in its file.
pub fn workspace_references(db: &dyn Db, file: SourceFile, offset: usize) -> Vec<FileReference> {
    if file.syntax(db) == Syntax::Egg {
        return egg::workspace_references(db, file, offset);
    }
    references(db, file, offset)
        .into_iter()
        .map(|reference| FileReference {
            file,
            range: reference.range,
            is_definition: reference.is_definition,
        })
        .collect()
}

/// The range of the symbol a rename at `offset` would change, or why it cannot be renamed.
pub fn prepare_rename(db: &dyn Db, file: SourceFile, offset: usize) -> Result<TextRange, String> {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl::prepare_rename(db, file, offset),
        Syntax::Ludi => ludi::prepare_rename(db, file, offset),
        Syntax::Egg => egg::prepare_rename(db, file, offset),
    }
}

/// The edits, over every file the symbol is written in (see [`workspace_references`]), that
/// rename the symbol under the cursor to `new_name`, or why it cannot be: not a name, a name
/// the language fixes, a new name that is not one word of the syntax or that is already taken.
pub fn rename_in_workspace(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
    new_name: &str,
) -> Result<Vec<FileEdit>, String> {
    let in_this_file = match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl::rename(db, file, offset, new_name)?,
        Syntax::Ludi => ludi::rename(db, file, offset, new_name)?,
        Syntax::Egg => return egg::rename(db, file, offset, new_name),
    };
    Ok(in_this_file
        .into_iter()
        .map(|(range, new_text)| FileEdit {
            file,
            range,
            new_text,
        })
        .collect())
}

/// The names of the file coloured by what the analyses know of them, sorted by position.
pub fn semantic_tokens(db: &dyn Db, file: SourceFile) -> Vec<SemanticToken> {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => gdl::semantic_tokens(db, file),
        Syntax::Ludi => ludi_tokens::semantic_tokens(db, file),
        Syntax::Egg => egg::semantic_tokens(db, file),
    }
}

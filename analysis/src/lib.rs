//! Analyses of game descriptions, as incremental [salsa] queries.
//!
//! Data flows one way: a [`SourceFile`] input holds the text of a game; [`parse`] turns it into a
//! tree-sitter syntax tree; further queries ([`syntax_diagnostics`], [`document_symbols`], and the
//! lowering and checks that later layers add) read that tree. Front ends (the CLI and the language
//! server) only call these queries: nothing is computed twice in two places.

mod analysis;
pub mod config;
mod db;
mod diagnostic;
pub mod distance;
pub mod egg;
pub mod files;
pub mod fuzzing;
pub mod gdl;
mod host;
pub mod ide;
pub mod ludi;
pub mod play;
pub mod project;
pub mod rules;
mod source;
mod symbols;
mod syntax;
#[cfg(test)]
mod test_files;
mod wrap;

pub use analysis::{
    Analysis, Cancellable, Checked, DiagnosticDepth, Explanation, resume_cancelled,
};
pub use db::{Db, RootDatabase};
pub use diagnostic::{Diagnostic, Fix, Label, Severity, TextRange};
pub use host::{AnalysisHost, Applied, Change, FileKey, LoadedPaths};
pub use salsa::Cancelled;
pub use source::{GAME_FILE_EXTENSIONS, LoadError, SourceFile, Syntax, decode_source};
pub use symbols::{DocumentSymbol, SymbolKind, document_symbols};
pub use syntax::{
    EditedTree, Parse, TextEdit, kif_forms, kif_forms_read, parse, parse_text, syntax_diagnostics,
};

/// Every diagnostic the analyses report for `file`, sorted by position.
///
/// This is the one entry point the CLI and the language server share; later layers (lowering,
/// checks, simulation) add their diagnostics here.
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let mut diagnostics = syntax_diagnostics(db, file).clone();
    if matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix) {
        diagnostics.extend(gdl::gdl_diagnostics(db, file).iter().cloned());
    }
    if file.syntax(db) == Syntax::Ludi {
        diagnostics.extend(ludi::ludi_diagnostics(db, file).iter().cloned());
    }
    if file.syntax(db) == Syntax::Egg {
        diagnostics.extend(egg::egg_diagnostics(db, file).iter().cloned());
    }
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    diagnostics
}

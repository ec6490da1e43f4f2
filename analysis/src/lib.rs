//! Analyses of game descriptions, as incremental [salsa] queries.
//!
//! Data flows one way: a [`SourceFile`] input holds the text of a game; [`parse`] turns it into a
//! tree-sitter syntax tree; further queries ([`syntax_diagnostics`], [`document_symbols`], and the
//! lowering and checks that later layers add) read that tree. Front ends (the CLI and the language
//! server) only call these queries: nothing is computed twice in two places.

pub mod aesthetic;
mod analysis;
pub mod config;
mod db;
mod diagnostic;
pub mod distance;
pub mod egg;
pub mod engine_gate;
pub mod evolve;
pub mod files;
pub mod fix;
pub mod fuzzing;
pub mod game_report;
pub mod gdl;
mod host;
pub mod ide;
pub mod ludi;
pub mod names;
pub mod opponent_model;
pub mod picture;
pub mod play;
pub mod probe_plots;
pub mod project;
pub mod rulebook;
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
pub use diagnostic::{Applicability, Diagnostic, Fix, Label, Severity, TextRange};
pub use host::{AnalysisHost, Applied, Change, FileKey, LoadedPaths};
/// The clock of time budgets (CPU time of the working thread), for the front ends' limits.
pub use ludeme_engine::cpu_time::{CpuDeadline, CpuInstant};
pub use salsa::Cancelled;
pub use source::{GAME_FILE_EXTENSIONS, LoadError, SourceFile, Syntax, decode_source};
pub use symbols::{DocumentSymbol, SymbolKind, document_symbols};
pub use syntax::{
    EditedTree, Parse, TextEdit, kif_forms, kif_forms_read, parse, parse_text, syntax_diagnostics,
};

/// The message a panic carried (`panic!` with a literal or with formatting), for the report
/// of a front end that keeps going after a bug: the server's handler, a corpus's probe.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|message| (*message).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// Every diagnostic the analyses report for `file`, sorted by position.
///
/// This is the one entry point the CLI and the language server share; later layers (lowering,
/// checks, simulation) add their diagnostics here.
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    diagnostics_of(db, file, true)
}

/// The size beyond which a GDL file's quick diagnostics ([`quick_file_diagnostics`]) leave out
/// the checks over the whole rule set, which take seconds on a file of megabytes.
pub const LARGE_FILE_BYTES: usize = 2 << 20;

/// What an editor shows at each keystroke: [`file_diagnostics`], except that a GDL file larger
/// than [`LARGE_FILE_BYTES`] read form by form gets only its syntax, lowering and per-rule
/// findings, which an edit computes again for the forms it touched alone. The checks over the
/// whole rule set (unused relations, arities, recursion, stratification, ...) come with the
/// full diagnostics.
pub fn quick_file_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    diagnostics_of(db, file, !is_large_gdl(db, file))
}

/// Whether [`quick_file_diagnostics`] leaves the whole-rule-set checks of `file` out.
pub fn is_large_gdl(db: &dyn Db, file: SourceFile) -> bool {
    matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix)
        && file.text(db).len() > LARGE_FILE_BYTES
        && gdl::gdl_forms(db, file).is_some()
}

fn diagnostics_of(db: &dyn Db, file: SourceFile, whole_rule_set: bool) -> Vec<Diagnostic> {
    // Infix text under a KIF name: read as KIF it gives hundreds of findings, none the problem.
    if let Some(wrong_syntax) = gdl::infix_in_kif(db, file) {
        return vec![wrong_syntax.clone()];
    }
    let mut diagnostics = syntax_diagnostics(db, file).clone();
    if matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix) {
        let gdl = if whole_rule_set {
            gdl::gdl_diagnostics(db, file)
        } else {
            gdl::gdl_form_diagnostics(db, file)
        };
        diagnostics.extend(gdl.iter().cloned());
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

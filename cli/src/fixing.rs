//! `ludeme check --fix`, `--diff` and `--unsafe-fixes`: the fixes the diagnostics carry (the
//! editor's quick fixes, chosen and applied to a text by [`ludeme_analysis::fix`]) applied in
//! rounds until none applies, each round checked again through the host.
//!
//! A round that leaves a file worse than before it ([`ludeme_analysis::fix::is_worse`]: more
//! diagnostics, or more errors of some code) is undone for that file, which is reported and
//! fixed no further: a fix never leaves a file checking worse than it was.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use ludeme_analysis::fix::{apply_fixes, is_worse};
use ludeme_analysis::{AnalysisHost, Change, Diagnostic, DiagnosticDepth, SourceFile, Syntax};
use rayon::prelude::*;

/// How many rounds of fixes a file gets at most: a fix may reveal another (a misspelt ludeme
/// fixed, its arguments are checked), but a chain longer than this would be a fix undoing
/// another.
pub const MAX_ROUNDS: usize = 10;

/// A file given to [`fix_files`]: its key in the host, its input and what checking it found.
pub struct FileToFix {
    pub path: PathBuf,
    pub file: SourceFile,
    pub text: Arc<str>,
    pub diagnostics: Vec<Diagnostic>,
}

/// What the rounds made of one file.
pub struct FixedFile {
    pub path: PathBuf,
    pub original: Arc<str>,
    /// The text after the rounds kept (the original when none was).
    pub text: Arc<str>,
    /// The diagnostics of `text`.
    pub diagnostics: Vec<Diagnostic>,
    /// The code of each diagnostic fixed, over every round kept.
    pub fixed: Vec<&'static str>,
    /// A round undone because it made the file worse: the diagnostics it had before and would
    /// have had after.
    pub rolled_back: Option<RolledBack>,
}

impl FixedFile {
    pub fn changed(&self) -> bool {
        self.text != self.original
    }
}

pub struct RolledBack {
    pub round: usize,
    pub before: usize,
    pub after: usize,
}

/// Applies the fixes of `files` (safe ones; all with `unsafe_fixes`) in rounds, each round's
/// texts written to `host` and checked again at `depth`. The host is left holding the final
/// texts. Files without a fix to apply come back unchanged.
pub fn fix_files(
    host: &mut AnalysisHost,
    files: Vec<FileToFix>,
    depth: &DiagnosticDepth,
    unsafe_fixes: bool,
) -> Vec<FixedFile> {
    let mut states: Vec<FixedFile> = Vec::with_capacity(files.len());
    let mut inputs: Vec<SourceFile> = Vec::with_capacity(files.len());
    let snapshot = host.snapshot();
    let syntaxes: Vec<Syntax> = files
        .iter()
        .map(|file| snapshot.syntax(file.file))
        .collect();
    // A write waits for every snapshot to be dropped.
    drop(snapshot);
    for file in files {
        inputs.push(file.file);
        states.push(FixedFile {
            path: file.path,
            original: file.text.clone(),
            text: file.text,
            diagnostics: file.diagnostics,
            fixed: Vec::new(),
            rolled_back: None,
        });
    }
    let mut open: Vec<usize> = (0..states.len()).collect();
    for round in 1..=MAX_ROUNDS {
        // The fixes of this round, per file still open.
        let proposals: Vec<(usize, String, Vec<&'static str>)> = open
            .iter()
            .filter_map(|&index| {
                let state = &states[index];
                let fixed = apply_fixes(&state.text, &state.diagnostics, unsafe_fixes)?;
                Some((index, fixed.text, fixed.fixed))
            })
            .collect();
        if proposals.is_empty() {
            break;
        }
        let mut change = Change::new();
        for (index, text, _) in &proposals {
            let path = states[*index].path.clone();
            change.set_file(path, syntaxes[*index], Arc::from(text.as_str()), None);
        }
        host.apply_change(change);
        let rechecked = recheck(host, &proposals, &inputs, depth);
        let mut undo = Change::new();
        let mut undone = false;
        open.clear();
        for ((index, text, fixed), after) in proposals.into_iter().zip(rechecked) {
            let state = &mut states[index];
            if is_worse(&state.diagnostics, &after) {
                state.rolled_back = Some(RolledBack {
                    round,
                    before: state.diagnostics.len(),
                    after: after.len(),
                });
                undo.set_file(
                    state.path.clone(),
                    syntaxes[index],
                    state.text.clone(),
                    None,
                );
                undone = true;
            } else {
                state.text = Arc::from(text);
                state.diagnostics = after;
                state.fixed.extend(fixed);
                open.push(index);
            }
        }
        if undone {
            host.apply_change(undo);
        }
    }
    states
}

/// The diagnostics of the files of `proposals`, checked again in parallel.
fn recheck(
    host: &AnalysisHost,
    proposals: &[(usize, String, Vec<&'static str>)],
    inputs: &[SourceFile],
    depth: &DiagnosticDepth,
) -> Vec<Vec<Diagnostic>> {
    let snapshot = Mutex::new(host.snapshot());
    let new_snapshot = || {
        snapshot
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    };
    proposals
        .par_iter()
        .with_max_len(1)
        .map_init(new_snapshot, |analysis, (index, _, _)| {
            // Only this function's snapshots read the database while it runs.
            analysis
                .diagnostics(inputs[*index], depth)
                .expect("no write while fixes are checked")
        })
        .collect()
}

/// What a fix changes in a file, as a unified diff (`--- a/PATH`, `+++ b/PATH`, hunks with
/// three lines of context), the form `git apply` reads and `ruff check --diff` prints.
pub fn unified_diff(path: &Path, before: &str, after: &str) -> String {
    let shown = path.display().to_string();
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{shown}"), &format!("b/{shown}"))
        .to_string()
}

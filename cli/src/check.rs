//! `ludeme check`: every diagnostic of every game file named, in parallel over files.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use ludeme_analysis::{Diagnostic, RootDatabase, Severity, SourceFile, Syntax, decode_source};
use rayon::prelude::*;

use crate::inputs::{InputProblem, collect_game_files};
use crate::report::{self, FileReport};
use crate::{ColorChoice, Format, exit};

pub fn run(paths: &[PathBuf], format: Format, color: ColorChoice) -> u8 {
    let (files, mut problems) = collect_game_files(paths);
    // Each worker thread gets its own handle on one database (handles are Send, not Sync).
    let db = Mutex::new(RootDatabase::default());
    let new_handle = || db.lock().unwrap_or_else(PoisonError::into_inner).clone();
    // One task per file, so that the two or three big games of a folder do not end up queued
    // behind each other on one thread while the others sit idle.
    let outcomes: Vec<Result<FileReport, InputProblem>> = files
        .par_iter()
        .with_max_len(1)
        .map_init(new_handle, |db, path| check_file(db, path))
        .collect();
    // The database holds every file's syntax tree; freeing them one by one would take a tenth of
    // the run on one thread, and the process is about to exit, which frees them all at once.
    std::mem::forget(db);
    let mut reports = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        match outcome {
            Ok(report) => reports.push(report),
            Err(problem) => problems.push(problem),
        }
    }

    if let Err(error) = report::write(format, color, &reports) {
        eprintln!("ludeme check: cannot write the report: {error}");
        return exit::FAILURE;
    }
    for problem in &problems {
        eprintln!(
            "ludeme check: {}: {}",
            problem.path.display(),
            problem.message
        );
    }
    let errors = reports
        .iter()
        .flat_map(|report| &report.diagnostics)
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    if !problems.is_empty() {
        exit::FAILURE
    } else if errors > 0 {
        exit::PROBLEMS_FOUND
    } else {
        exit::CLEAN
    }
}

/// Reads and analyses one file. A file that is not text still gets a report (with a diagnostic
/// saying so); only a file that cannot be read at all is an input problem.
fn check_file(db: &RootDatabase, path: &Path) -> Result<FileReport, InputProblem> {
    let bytes = std::fs::read(path).map_err(|error| InputProblem {
        path: path.to_path_buf(),
        message: format!("cannot read it: {error}"),
    })?;
    let text = match decode_source(&bytes) {
        Ok(text) => text,
        Err(load_error) => {
            return Ok(FileReport::new(
                path.to_path_buf(),
                load_error.valid_prefix(&bytes).to_owned(),
                vec![load_error.diagnostic()],
            ));
        }
    };
    let syntax = Syntax::detect(path, text).ok_or_else(|| InputProblem {
        path: path.to_path_buf(),
        message: "not a game file".to_owned(),
    })?;
    let file = SourceFile::new(db, path.to_path_buf(), syntax, Arc::from(text), None);
    let diagnostics: Vec<Diagnostic> = ludeme_analysis::file_diagnostics(db, file);
    Ok(FileReport::new(
        path.to_path_buf(),
        text.to_owned(),
        diagnostics,
    ))
}

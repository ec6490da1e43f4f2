//! `ludeme check`: every diagnostic of every game file named, in parallel over files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use ludeme_analysis::config::{Config, find_config, load_config};
use ludeme_analysis::egg::load_egg_workspace;
use ludeme_analysis::gdl::simulate::{SimulationOptions, simulate};
use ludeme_analysis::{Diagnostic, RootDatabase, Severity, SourceFile, Syntax, decode_source};
use rayon::prelude::*;

use crate::inputs::{InputProblem, collect_game_files};
use crate::report::{self, FileReport};
use crate::{ColorChoice, Format, exit};

/// The limits of `--simulate`, each only meaningful with it.
#[derive(clap::Args, Clone, Debug)]
pub struct SimulationArgs {
    /// Random games to play per file (with --simulate).
    #[arg(long, requires = "simulate", default_value_t = SimulationOptions::default().playouts)]
    playouts: u64,
    /// Joint moves after which a game that has not ended is reported (with --simulate).
    #[arg(long, requires = "simulate", default_value_t = SimulationOptions::default().max_plies)]
    max_plies: usize,
    /// Time for the random games of one file, in seconds (with --simulate).
    #[arg(long, requires = "simulate", default_value_t = SimulationOptions::default().seconds)]
    simulate_seconds: f64,
    /// The random seed of the games, for repeatable runs (with --simulate).
    #[arg(long, requires = "simulate", default_value_t = SimulationOptions::default().seed)]
    seed: u64,
    /// Join steps one question to the engine may take before it gives up (with --simulate).
    #[arg(long, requires = "simulate", default_value_t = SimulationOptions::default().max_steps)]
    simulate_steps: u64,
}

impl SimulationArgs {
    fn options(&self) -> Result<SimulationOptions, String> {
        if !(self.simulate_seconds > 0.0 && self.simulate_seconds.is_finite()) {
            return Err(format!(
                "--simulate-seconds must be a positive number, not {}",
                self.simulate_seconds
            ));
        }
        if self.playouts == 0 {
            return Err("--playouts must be at least 1".to_owned());
        }
        Ok(SimulationOptions {
            playouts: self.playouts,
            max_plies: self.max_plies,
            seconds: self.simulate_seconds,
            seed: self.seed,
            max_steps: self.simulate_steps,
        })
    }
}

pub fn run(
    paths: &[PathBuf],
    format: Format,
    color: ColorChoice,
    simulation: Option<SimulationArgs>,
    config_path: Option<&Path>,
) -> u8 {
    let simulation = match simulation.as_ref().map(SimulationArgs::options).transpose() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("ludeme check: {message}");
            return exit::FAILURE;
        }
    };
    let config_path = config_path
        .map(Path::to_path_buf)
        .or_else(|| paths.iter().find_map(|path| find_config(path)));
    // The settings file is reported like a game file: its mistakes have positions.
    let (config, config_report) = match config_path.as_deref().map(load_config) {
        None => (Config::default(), None),
        Some(Ok((config, diagnostics, text))) => {
            let path = config_path.clone().unwrap_or_default();
            let report =
                (!diagnostics.is_empty()).then(|| FileReport::new(path, text, diagnostics));
            (config, report)
        }
        Some(Err(message)) => {
            let path = config_path.unwrap_or_default();
            eprintln!("ludeme check: {}: {message}", path.display());
            return exit::FAILURE;
        }
    };
    let (files, mut problems) = collect_game_files(paths);
    // Each worker thread gets its own handle on one database (handles are Send, not Sync).
    let mut root = RootDatabase::default();
    // EGGG: `X is like Y` finds Y among the files checked, those beside them and the corpus.
    let egg_files = load_egg_workspace(&mut root, &files);
    let db = Mutex::new(root);
    let new_handle = || db.lock().unwrap_or_else(PoisonError::into_inner).clone();
    // One task per file, so that the two or three big games of a folder do not end up queued
    // behind each other on one thread while the others sit idle.
    let outcomes: Vec<Result<FileReport, InputProblem>> = files
        .par_iter()
        .with_max_len(1)
        .map_init(new_handle, |db, path| {
            check_file(db, path, &egg_files, simulation.as_ref())
                .map(|report| select_rules(report, &config))
        })
        .collect();
    // The database holds every file's syntax tree; freeing them one by one would take a tenth of
    // the run on one thread, and the process is about to exit, which frees them all at once.
    std::mem::forget(db);
    let mut reports = Vec::with_capacity(outcomes.len() + 1);
    reports.extend(config_report);
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

/// The report with the rule selection of `ludeme.toml` applied.
fn select_rules(mut report: FileReport, config: &Config) -> FileReport {
    report.diagnostics = config.rules.apply(std::mem::take(&mut report.diagnostics));
    report
}

/// Reads and analyses one file, and simulates it when asked to. A file that is not text still
/// gets a report (with a diagnostic saying so); only a file that cannot be read at all is an
/// input problem.
fn check_file(
    db: &RootDatabase,
    path: &Path,
    egg_files: &HashMap<PathBuf, SourceFile>,
    simulation: Option<&SimulationOptions>,
) -> Result<FileReport, InputProblem> {
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
    let file = egg_files
        .get(path)
        .copied()
        .unwrap_or_else(|| SourceFile::new(db, path.to_path_buf(), syntax, Arc::from(text), None));
    let mut diagnostics: Vec<Diagnostic> = ludeme_analysis::file_diagnostics(db, file);
    let mut simulated = None;
    // Only GDL games can be played for now; other files are checked as usual, quietly.
    if let Some(options) = simulation
        && matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix)
    {
        let simulation = simulate(db, file, options);
        diagnostics.extend(simulation.diagnostics.iter().cloned());
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
        simulated = Some(simulation.headline());
    }
    let mut report = FileReport::new(path.to_path_buf(), text.to_owned(), diagnostics);
    report.simulation = simulated;
    Ok(report)
}

//! `ludeme check`: every diagnostic of every game file named, in parallel over files: what the
//! editor publishes for the same file, `distance/duplicate` against the project's other games
//! included (see [`ludeme_analysis::DiagnosticDepth::Full`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use ludeme_analysis::files::{InputProblem, LoadFailure};
use ludeme_analysis::gdl::simulate::SimulationOptions;
use ludeme_analysis::{Analysis, DiagnosticDepth, Severity, SourceFile};
use rayon::prelude::*;

use crate::exit;
use crate::project::{open_paths, settings_for};
use crate::report::{self, FileReport};
use crate::report::{ColorChoice, Format};

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
    // The settings file is reported like a game file: its mistakes have positions.
    let (config, config_report) = match settings_for(paths, config_path) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ludeme check: {message}");
            return exit::FAILURE;
        }
    };
    let (host, loaded) = open_paths(paths, config);
    let mut problems = loaded.problems;
    let depth = DiagnosticDepth::Full { simulation };
    // One task per file, so that the two or three big games of a folder do not end up queued
    // behind each other on one thread while the others sit idle. Each worker has its own
    // snapshot (snapshots are Send, not Sync).
    let snapshot = Mutex::new(host.snapshot());
    let new_snapshot = || lock(&snapshot).clone();
    let outcomes: Vec<Result<FileReport, InputProblem>> = loaded
        .checked
        .into_par_iter()
        .with_max_len(1)
        .map_init(new_snapshot, |analysis, (path, loaded)| {
            check_file(analysis, path, loaded, &depth)
        })
        .collect();
    // The database holds every file's syntax tree; freeing them one by one would take a tenth of
    // the run on one thread, and the process is about to exit, which frees them all at once.
    std::mem::forget(snapshot);
    std::mem::forget(host);
    let mut reports = Vec::with_capacity(outcomes.len() + 1);
    reports.extend(config_report);
    for outcome in outcomes {
        match outcome {
            Ok(report) => reports.push(report),
            Err(problem) => problems.push(problem),
        }
    }

    // Nothing could be checked at all: the problems say why, and a summary of "0 files"
    // would only bury them.
    let nothing_checked = reports.is_empty() && !problems.is_empty();
    if !(nothing_checked && format == Format::Human)
        && let Err(error) = report::write(format, color, &reports)
    {
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

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The report of one file. A file that is not text still gets a report (with a diagnostic
/// saying so); a file that cannot be read at all is an input problem.
fn check_file(
    analysis: &Analysis,
    path: PathBuf,
    loaded: Result<SourceFile, LoadFailure>,
    depth: &DiagnosticDepth,
) -> Result<FileReport, InputProblem> {
    let file = match loaded {
        Ok(file) => file,
        Err(failure) => {
            return match failure.diagnostic() {
                Some(diagnostic) => {
                    let LoadFailure::Undecodable { valid_prefix, .. } = failure else {
                        unreachable!("only undecodable files have a diagnostic");
                    };
                    Ok(FileReport::new(path, valid_prefix, vec![diagnostic]))
                }
                None => Err(InputProblem {
                    path,
                    message: failure.to_string(),
                }),
            };
        }
    };
    // Nothing writes to the database while the check runs: a cancellation cannot happen.
    let checked = analysis
        .check(file, depth)
        .expect("no write during `ludeme check`");
    let text = analysis
        .text(file)
        .expect("no write during `ludeme check`")
        .to_string();
    let mut report = FileReport::new(path, text, checked.diagnostics);
    report.simulation = checked.simulation;
    Ok(report)
}

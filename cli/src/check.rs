//! `ludeme check`: every diagnostic of every game file named, in parallel over files: what the
//! editor publishes for the same file, `distance/duplicate` against the project's other games
//! included (see [`ludeme_analysis::DiagnosticDepth::Full`]). What is shown, and how, is the
//! report module's: this one checks, leaves out what `--severity` does not show (through
//! [`report::keep_from`], for every format) and picks the output.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use ludeme_analysis::files::{InputProblem, LoadFailure};
use ludeme_analysis::gdl::simulate::SimulationOptions;
use std::io::Write;

use ludeme_analysis::{Analysis, AnalysisHost, DiagnosticDepth, Severity, SourceFile};
use rayon::prelude::*;

use crate::cache::{self, ResultsCache};
use crate::exit;
use crate::fixing::{self, FileToFix, FixedFile};
use crate::progress::Progress;
use crate::project::{open_paths, open_stdin, paths_or_stdin, settings_for};
use crate::report::{self, ColorChoice, FileReport, FixNote, HumanOptions, OutputFormat, screen};

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

/// The least severity `--severity` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LeastSeverity {
    Error,
    Warning,
    Info,
}

impl From<LeastSeverity> for Severity {
    fn from(least: LeastSeverity) -> Self {
        match least {
            LeastSeverity::Error => Severity::Error,
            LeastSeverity::Warning => Severity::Warning,
            LeastSeverity::Info => Severity::Info,
        }
    }
}

/// `ludeme check`'s arguments.
#[derive(clap::Args, Debug)]
#[command(after_long_help = OUTPUT_HELP)]
pub struct CheckArgs {
    /// Files or folders; folders are searched for .egg, .ludi, .kif, .gdl and .hrf files.
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// How to print the diagnostics [default: full; on a terminal, as much of full as fits on
    /// the screen, every error always shown: see below].
    #[arg(long, visible_alias = "format", value_enum, value_name = "FORMAT")]
    output_format: Option<OutputFormat>,
    /// The least severity shown: `error` shows errors only, `warning` errors and warnings,
    /// `info` everything (the default). Errors are always shown; the tally still counts
    /// everything found.
    #[arg(long, value_enum, value_name = "LEVEL")]
    severity: Option<LeastSeverity>,
    /// Print a table of counts per code after the diagnostics: count, code, severity, `[*]`
    /// when the editor offers a quick fix, what the rule reports (with full and concise).
    #[arg(long)]
    statistics: bool,
    /// Print the diagnostics only: no tally, summaries or hints (with full and concise).
    #[arg(short, long)]
    quiet: bool,
    /// Exit with status 0 even when errors are found (2 still means a usage or I/O failure).
    #[arg(long)]
    exit_zero: bool,
    /// When to colour human output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Also play random games of each GDL file and report what play reveals (games that
    /// do not end, roles without moves, missing or double goal values, incomplete
    /// base/input).
    #[arg(long)]
    simulate: bool,
    #[command(flatten)]
    simulation: SimulationArgs,
    /// The settings file (rule selection); by default the `ludeme.toml` found in the
    /// first checked path's folder or its nearest ancestor.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Apply the safe fixes (the quick fixes the editor offers that keep what the designer
    /// meant), round after round until none applies, then report what is left. A file that
    /// would check worse after a round keeps its text from before that round.
    #[arg(long)]
    fix: bool,
    /// Also apply the unsafe fixes with --fix or --diff (one of several close names, a
    /// missing part written from the manual's example); without them, count them as fixable.
    #[arg(long)]
    unsafe_fixes: bool,
    /// Write nothing: print the fixes --fix would make as a unified diff, and exit 1 when
    /// there are any.
    #[arg(long, conflicts_with = "fix")]
    diff: bool,
    /// Check every file afresh, neither reading nor writing the results cache (also when the
    /// environment variable LUDEME_NO_CACHE is set to anything but `0` or an empty value).
    #[arg(long)]
    no_cache: bool,
    /// The folder of the results cache [default: the environment variable LUDEME_CACHE_DIR,
    /// else `.ludeme_cache` in the folder of `ludeme.toml`, else in the current folder].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Check the game read from standard input, reported (and its settings and neighbours
    /// found) as if it were the file PATH, which need not exist; with --diff, the fixes are a
    /// patch of PATH. Not with --fix (nothing to write to) or --watch.
    #[arg(long, value_name = "PATH", conflicts_with = "fix")]
    stdin_filename: Option<PathBuf>,
    /// Check, then check again whenever a game file under the paths or the settings file
    /// changes (the screen of a terminal cleared each time), until interrupted with Ctrl-C.
    #[arg(long, conflicts_with_all = ["stdin_filename", "diff"])]
    watch: bool,
}

/// From how many files `check` shows a bar on a terminal: a folder of a few dozen games is
/// checked before a bar would be read, thousands take long enough to wonder.
const FILES_WORTH_A_BAR: usize = 200;

/// The long help's account of the default output, for the reader who wonders why a terminal
/// shows less than a pipe.
const OUTPUT_HELP: &str = "\
Output:
  On a terminal, with no --output-format, --severity or --quiet, `check` prints the full
  report when it fits on the screen. When it does not, it prints every error (with its
  source if that fits, else one line per message, the message cut to the width if the lines
  would wrap), then the warnings and information counted
  by code, the tally, and the flags that show the rest: `--severity warning` lists the
  warnings too, `--output-format full` everything. When standard output is not a terminal (a
  pipe, a file, a CI log), the default is always the full report, so scripts see the same
  output wherever they run.

  In CI: `--output-format github` annotates pull requests, `sarif` feeds code scanning,
  `junit` test dashboards, `json-lines` other tools; `--severity warning` leaves the
  information out of any of them.

  The exit status does not depend on what is shown: 0 no errors, 1 errors found (0 with
  --exit-zero), 2 a usage or I/O failure.

Cache:
  Each file's diagnostics are kept in `.ludeme_cache` (see --cache-dir), under a fingerprint
  of what its check reads: its text, the settings, and the other games of its language it is
  compared with (`distance/duplicate`, an EGGG `is like`); results of another build are never
  read. A second run over unchanged files analyses nothing. --simulate is never cached (its
  random play is budgeted in CPU time); --no-cache turns the cache off.";

impl CheckArgs {
    /// How the report is printed: the format asked for, or, on a terminal with nothing asked,
    /// the screenful view of that terminal.
    fn output(&self) -> Output {
        match self.output_format {
            Some(format) => Output::Format(format),
            None if self.severity.is_some() || self.quiet => Output::Format(OutputFormat::Full),
            None => match screen::terminal_size() {
                Some(size) => Output::Screenful(size),
                None => Output::Format(OutputFormat::Full),
            },
        }
    }
}

/// Where the report goes and in which form.
enum Output {
    Format(OutputFormat),
    Screenful(screen::TerminalSize),
}

pub fn run(args: CheckArgs) -> u8 {
    if args.watch {
        return crate::watch::run(&args.paths, args.config.as_deref(), || {
            check_once(&args, Lifetime::Continuing);
        });
    }
    check_once(&args, Lifetime::Exiting)
}

/// Whether the process ends after this check.
#[derive(Clone, Copy, PartialEq)]
enum Lifetime {
    /// The analyses are left to the process's exit to free (see [`release`]).
    Exiting,
    /// `--watch`: everything is freed, for the next run.
    Continuing,
}

/// Frees `value`, or, when the process is about to exit, leaves it to the exit: the database
/// holds every file's syntax tree, and freeing them one by one would take a tenth of the run on
/// one thread.
fn release<T>(value: T, lifetime: Lifetime) {
    match lifetime {
        Lifetime::Exiting => std::mem::forget(value),
        Lifetime::Continuing => drop(value),
    }
}

fn check_once(args: &CheckArgs, lifetime: Lifetime) -> u8 {
    let output = args.output();
    if args.statistics
        && let Output::Format(format) = output
        && !format.is_human()
    {
        eprintln!(
            "ludeme check: --statistics goes with --output-format full or concise; the \
             machine formats list every diagnostic, to be counted as the reader needs"
        );
        return exit::FAILURE;
    }
    let simulation = if args.simulate {
        match args.simulation.options() {
            Ok(options) => Some(options),
            Err(message) => {
                eprintln!("ludeme check: {message}");
                return exit::FAILURE;
            }
        }
    } else {
        None
    };
    let paths = match paths_or_stdin(&args.paths, args.stdin_filename.as_deref()) {
        Ok(paths) => paths,
        Err(message) => {
            eprintln!("ludeme check: {message}");
            return exit::FAILURE;
        }
    };
    let paths = &paths;
    // The settings file is reported like a game file: its mistakes have positions.
    let (config, config_report) = match settings_for(paths, args.config.as_deref()) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ludeme check: {message}");
            return exit::FAILURE;
        }
    };
    let cache = results_cache(args, config.path.as_deref());
    let (mut host, loaded) = match &args.stdin_filename {
        Some(name) => match open_stdin(name, config) {
            Ok(opened) => opened,
            Err(message) => {
                eprintln!("ludeme check: {message}");
                return exit::FAILURE;
            }
        },
        None => open_paths(paths, config),
    };
    let mut problems = loaded.problems;
    let depth = DiagnosticDepth::Full { simulation };
    let inputs: Vec<Option<SourceFile>> = loaded
        .checked
        .iter()
        .map(|(_, loaded)| loaded.as_ref().ok().copied())
        .collect();
    // One task per file, so that the two or three big games of a folder do not end up queued
    // behind each other on one thread while the others sit idle. Each worker has its own
    // snapshot (snapshots are Send, not Sync).
    let snapshot = Mutex::new(host.snapshot());
    let new_snapshot = || lock(&snapshot).clone();
    let files = loaded.checked.len();
    // The report is printed once every file is checked, so the bar never mixes with it.
    let progress = (files >= FILES_WORTH_A_BAR)
        .then(|| Progress::bar(format!("checking {files} files"), files as u64, "files"));
    let outcomes: Vec<Result<FileReport, InputProblem>> = loaded
        .checked
        .into_par_iter()
        .with_max_len(1)
        .map_init(new_snapshot, |analysis, (path, loaded)| {
            let outcome = check_file(analysis, path, loaded, &depth, cache.as_ref());
            if let Some(progress) = &progress {
                progress.advance(1);
            }
            outcome
        })
        .collect();
    drop(progress);
    // Fixing writes to the host, which waits for every snapshot to go.
    if args.fix || args.diff {
        drop(snapshot);
    } else {
        release(snapshot, lifetime);
    }
    let mut outcomes = outcomes;
    let fixed = if args.fix || args.diff {
        let fixed = fix(&mut host, &mut outcomes, &inputs, &depth, args.unsafe_fixes);
        if let Some(cache) = &cache
            && args.fix
        {
            for file in fixed.iter().filter(|file| file.changed()) {
                cache.forget(&file.path);
            }
        }
        if args.diff {
            if let Some(cache) = cache {
                cache.save();
            }
            release(host, lifetime);
            return print_diff(&fixed, &problems);
        }
        problems.extend(write_fixed(&fixed));
        Some(fixed.iter().map(|file| file.fixed.len()).sum())
    } else {
        None
    };
    release(host, lifetime);
    if let Some(cache) = cache {
        cache.save();
    }
    let mut reports = Vec::with_capacity(outcomes.len() + 1);
    reports.extend(config_report);
    for outcome in outcomes {
        match outcome {
            Ok(report) => reports.push(report),
            Err(problem) => problems.push(problem),
        }
    }
    // Errors are counted before anything is left out (none ever is: see `keep_from`).
    let errors = reports
        .iter()
        .flat_map(|report| &report.diagnostics)
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    let least = args.severity.map_or(Severity::Info, Severity::from);
    let not_shown = report::keep_from(&mut reports, least);

    // Nothing could be checked at all: the problems say why, and a summary of "0 files"
    // would only bury them.
    let nothing_checked = reports.is_empty() && !problems.is_empty();
    let human = HumanOptions {
        color: args.color,
        statistics: args.statistics,
        quiet: args.quiet,
        fixes: match fixed {
            Some(fixed) => FixNote::Fixed(fixed),
            None => FixNote::Fixable {
                unsafe_fixes: args.unsafe_fixes,
            },
        },
    };
    let written = match output {
        Output::Format(format) if nothing_checked && format.is_human() => Ok(()),
        Output::Screenful(_) if nothing_checked => Ok(()),
        Output::Format(format) => report::write(format, &human, &reports, &not_shown),
        Output::Screenful(size) => report::write_screenful(size, &human, &reports, &not_shown),
    };
    if let Err(error) = written {
        eprintln!("ludeme check: cannot write the report: {error}");
        return exit::FAILURE;
    }
    // The machine formats keep standard output for the diagnostics.
    if let Some(fixed) = fixed
        && matches!(output, Output::Format(format) if !format.is_human())
    {
        let remaining = reports
            .iter()
            .map(|report| report.diagnostics.len())
            .sum::<usize>()
            + not_shown.total_all();
        eprintln!("ludeme check: {}", report::fixed_summary(fixed, remaining));
    }
    for problem in &problems {
        eprintln!(
            "ludeme check: {}: {}",
            problem.path.display(),
            problem.message
        );
    }
    if !problems.is_empty() {
        exit::FAILURE
    } else if errors > 0 && !args.exit_zero {
        exit::PROBLEMS_FOUND
    } else {
        exit::CLEAN
    }
}

/// The results cache of this run, unless it is turned off or random play is asked for.
fn results_cache(
    args: &CheckArgs,
    settings_file: Option<&std::path::Path>,
) -> Option<ResultsCache> {
    let turned_off =
        std::env::var_os("LUDEME_NO_CACHE").is_some_and(|value| !value.is_empty() && value != "0");
    // A piped game is one editor buffer among many versions: not worth a file of results.
    if args.no_cache || turned_off || args.simulate || args.stdin_filename.is_some() {
        return None;
    }
    let folder = args
        .cache_dir
        .clone()
        .or_else(|| {
            std::env::var_os(cache::CACHE_DIR_VARIABLE)
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| cache::default_folder(settings_file));
    Some(ResultsCache::open(&folder, &args.paths))
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
    cache: Option<&ResultsCache>,
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
    let no_write = "no write during `ludeme check`";
    let text = analysis.text(file).expect(no_write).to_string();
    let fingerprint = match cache {
        Some(_) => analysis.check_fingerprint(file, depth).expect(no_write),
        None => None,
    };
    if let (Some(cache), Some(fingerprint)) = (cache, fingerprint)
        && let Some(diagnostics) = cache.lookup(&path, fingerprint)
    {
        return Ok(FileReport::new(path, text, diagnostics));
    }
    let checked = analysis.check(file, depth).expect(no_write);
    if let (Some(cache), Some(fingerprint)) = (cache, fingerprint) {
        cache.record(&path, fingerprint, &checked.diagnostics);
    }
    let mut report = FileReport::new(path, text, checked.diagnostics);
    report.simulation = checked.simulation;
    Ok(report)
}

/// Applies the fixes of the files checked (`outcomes`, with their `inputs` in the host) and
/// puts each fixed file's new text and diagnostics in its report.
fn fix(
    host: &mut AnalysisHost,
    outcomes: &mut [Result<FileReport, InputProblem>],
    inputs: &[Option<SourceFile>],
    depth: &DiagnosticDepth,
    unsafe_fixes: bool,
) -> Vec<FixedFile> {
    let mut to_fix = Vec::new();
    let mut places = Vec::new();
    for (place, (outcome, input)) in outcomes.iter().zip(inputs).enumerate() {
        let (Ok(report), Some(file)) = (outcome, input) else {
            continue;
        };
        let fixable = report
            .diagnostics
            .iter()
            .any(|diagnostic| diagnostic.fix_to_apply(unsafe_fixes).is_some());
        if fixable {
            places.push(place);
            to_fix.push(FileToFix {
                path: report.path.clone(),
                file: *file,
                text: report.file.source().clone(),
                diagnostics: report.diagnostics.clone(),
            });
        }
    }
    let fixed = fixing::fix_files(host, to_fix, depth, unsafe_fixes);
    for (place, file) in places.into_iter().zip(&fixed) {
        if let Some(rolled_back) = &file.rolled_back {
            eprintln!(
                "ludeme check: {}: round {} of fixes left {} diagnostics where there were {}: \
                 it was undone, and the file keeps the fixes of the rounds before it",
                file.path.display(),
                rolled_back.round,
                rolled_back.after,
                rolled_back.before
            );
        }
        if let Ok(report) = &mut outcomes[place]
            && file.changed()
        {
            let simulation = report.simulation.take();
            *report = FileReport::new(
                file.path.clone(),
                file.text.to_string(),
                file.diagnostics.clone(),
            );
            report.simulation = simulation;
        }
    }
    fixed
}

/// `--diff`: what `--fix` would change, as unified diffs; exit 1 when there is anything.
fn print_diff(fixed: &[FixedFile], problems: &[InputProblem]) -> u8 {
    let mut would_fix = 0;
    let mut out = std::io::stdout().lock();
    for file in fixed.iter().filter(|file| file.changed()) {
        would_fix += file.fixed.len();
        let diff = fixing::unified_diff(&file.path, &file.original, &file.text);
        if let Err(error) = out.write_all(diff.as_bytes()) {
            eprintln!("ludeme check: cannot write the diff: {error}");
            return exit::FAILURE;
        }
    }
    for problem in problems {
        eprintln!(
            "ludeme check: {}: {}",
            problem.path.display(),
            problem.message
        );
    }
    eprintln!("ludeme check: {}", report::would_fix_summary(would_fix));
    if !problems.is_empty() {
        exit::FAILURE
    } else if would_fix > 0 {
        exit::PROBLEMS_FOUND
    } else {
        exit::CLEAN
    }
}

/// Writes the files `--fix` changed; a file that cannot be written is an input problem.
fn write_fixed(fixed: &[FixedFile]) -> Vec<InputProblem> {
    fixed
        .iter()
        .filter(|file| file.changed())
        .filter_map(|file| {
            std::fs::write(&file.path, file.text.as_bytes())
                .err()
                .map(|error| InputProblem {
                    path: file.path.clone(),
                    message: format!("cannot write the fixed file: {error}"),
                })
        })
        .collect()
}

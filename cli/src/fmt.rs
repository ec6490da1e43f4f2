//! `ludeme fmt`: rewrite game files (all four syntaxes) in the canonical layout, or convert GDL
//! files between prefix KIF and infix.
//!
//! - `ludeme fmt PATH...` rewrites each game file in place;
//! - `--check` writes nothing, lists the files that would change with a unified diff of the
//!   change, and exits 1 if there are any;
//! - `--to kif|infix` converts: `name.kif` → `name.hrf` beside it (or the reverse); a file already
//!   in the target syntax is formatted in place;
//! - `--diff` writes nothing and prints the unified diffs alone, exiting 1 if there are any;
//! - `--stdout` prints the result instead of writing it;
//! - `--stdin-filename PATH` formats the game read from standard input as if it were `PATH`
//!   and prints the result (with `--check` or `--diff`, what would change).
//!
//! `--to` leaves EGGG and Ludi files in their one syntax (formatted in place). Exit 2 when a file cannot be read or written,
//! cannot be formatted (syntax or lowering errors: nothing is written for it), or cannot be
//! converted (a name the target syntax cannot spell); otherwise 1 when `--check` found files to
//! change; otherwise 0.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use ludeme_analysis::gdl::FormatError;
use ludeme_analysis::gdl::format::Unconvertible;
use ludeme_analysis::{Analysis, SourceFile, Syntax};
use rayon::prelude::*;

use crate::exit;
use crate::project::{open_paths, open_stdin, paths_or_stdin, settings_for};

/// The syntax `--to` converts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Prefix KIF (`.kif`): `(<= (legal ?p ...) ...)`.
    Kif,
    /// The infix form of the Stanford Gamemaster (`.hrf`): `legal(P, ...) :- ...`.
    Infix,
}

impl Target {
    fn syntax(self) -> Syntax {
        match self {
            Target::Kif => Syntax::GdlKif,
            Target::Infix => Syntax::GdlInfix,
        }
    }
}

/// What the command does with the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Write,
    /// Lists the files that would change, each with its diff.
    Check,
    /// Prints the diffs alone, a patch `git apply` takes (as `ruff format --diff`).
    Diff,
    Stdout,
}

/// What became of one file.
enum Outcome {
    /// The formatted text, where it goes, what is there now, and whether the two differ.
    Formatted {
        output: PathBuf,
        before: String,
        text: String,
        changed: bool,
    },
    /// In the target syntax already, and replaced by the conversion of another file.
    Replaced,
    /// Why the file was not formatted (printed as `ludeme fmt: PATH: MESSAGE`).
    Failed(String),
}

pub fn run(paths: &[PathBuf], mode: Mode, to: Option<Target>, stdin_filename: Option<&Path>) -> u8 {
    let paths = match paths_or_stdin(paths, stdin_filename) {
        Ok(paths) => paths,
        Err(message) => {
            eprintln!("ludeme fmt: {message}");
            return exit::FAILURE;
        }
    };
    let settings = settings_for(&paths, None)
        .map(|(settings, _)| settings)
        .unwrap_or_default();
    // A piped game has no file to write to: its result is printed, as `--stdout` does.
    let (mode, opened) = match stdin_filename {
        Some(name) => (
            if mode == Mode::Write {
                Mode::Stdout
            } else {
                mode
            },
            open_stdin(name, settings),
        ),
        None => (mode, Ok(open_paths(&paths, settings))),
    };
    let (host, loaded) = match opened {
        Ok(opened) => opened,
        Err(message) => {
            eprintln!("ludeme fmt: {message}");
            return exit::FAILURE;
        }
    };
    let problems = loaded.problems;
    let files: Vec<PathBuf> = loaded
        .checked
        .iter()
        .map(|(path, _)| path.clone())
        .collect();
    let snapshot = std::sync::Mutex::new(host.snapshot());
    let new_snapshot = || {
        snapshot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    };
    let outcomes: Vec<Outcome> = loaded
        .checked
        .into_par_iter()
        .map_init(new_snapshot, |analysis, (path, file)| match file {
            Ok(file) => format_file(analysis, &path, file, to),
            Err(failure) => Outcome::Failed(failure.to_string()),
        })
        .collect();
    std::mem::forget(snapshot);
    std::mem::forget(host);

    let mut failed = !problems.is_empty();
    for problem in &problems {
        eprintln!(
            "ludeme fmt: {}: {}",
            problem.path.display(),
            problem.message
        );
    }
    // With `--to`, a file already in the target syntax that some other file converts onto
    // (`game.hrf` beside `game.kif`) is replaced by the conversion, not formatted in place.
    let converted_onto: HashSet<PathBuf> = files
        .iter()
        .zip(&outcomes)
        .filter_map(|(path, outcome)| match outcome {
            Outcome::Formatted { output, .. } if output != path => Some(output.clone()),
            _ => None,
        })
        .collect();
    let outcomes: Vec<Outcome> = files
        .iter()
        .zip(outcomes)
        .map(|(path, outcome)| match outcome {
            Outcome::Formatted { output, .. }
                if output == *path && converted_onto.contains(path) =>
            {
                Outcome::Replaced
            }
            outcome => outcome,
        })
        .collect();
    let formatted = outcomes
        .iter()
        .filter(|outcome| matches!(outcome, Outcome::Formatted { .. }))
        .count();
    let mut changed = 0;
    for (path, outcome) in files.iter().zip(outcomes) {
        match outcome {
            Outcome::Replaced => {}
            Outcome::Failed(message) => {
                failed = true;
                eprintln!("ludeme fmt: {}: {message}", path.display());
            }
            Outcome::Formatted {
                output,
                before,
                text,
                changed: differs,
            } => {
                changed += usize::from(differs);
                match mode {
                    Mode::Stdout => {
                        if formatted > 1 {
                            println!("==> {} <==", output.display());
                        }
                        print!("{text}");
                    }
                    Mode::Check if differs => {
                        if output == *path {
                            println!("would reformat {}", path.display());
                        } else {
                            println!("would write {} (from {})", output.display(), path.display());
                        }
                        print!("{}", crate::fixing::unified_diff(&output, &before, &text));
                    }
                    Mode::Check => {}
                    Mode::Diff if differs => {
                        print!("{}", crate::fixing::unified_diff(&output, &before, &text));
                    }
                    Mode::Diff => {}
                    Mode::Write if differs => {
                        if let Err(error) = std::fs::write(&output, &text) {
                            failed = true;
                            changed -= 1;
                            eprintln!("ludeme fmt: {}: cannot write it: {error}", output.display());
                        }
                    }
                    Mode::Write => {}
                }
            }
        }
    }
    if mode != Mode::Stdout {
        let verb = match (mode, to.is_some()) {
            (Mode::Check | Mode::Diff, _) => "would change",
            (_, true) => "written",
            (_, false) => "reformatted",
        };
        let summary = format!(
            "ludeme fmt: {changed} file{} {verb}, {} unchanged",
            plural(changed),
            formatted - changed.min(formatted)
        );
        eprintln!("{summary}");
    }
    if failed {
        exit::FAILURE
    } else if matches!(mode, Mode::Check | Mode::Diff) && changed > 0 {
        exit::PROBLEMS_FOUND
    } else {
        exit::CLEAN
    }
}

fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

fn format_file(analysis: &Analysis, path: &Path, file: SourceFile, to: Option<Target>) -> Outcome {
    let source = analysis.syntax(file);
    let target = match to {
        // Only GDL has two syntaxes; the other languages are formatted in place.
        Some(to) if matches!(source, Syntax::GdlKif | Syntax::GdlInfix) => to.syntax(),
        _ => source,
    };
    // Nothing writes to the database while `fmt` runs: a cancellation cannot happen.
    let text = analysis.text(file).expect("no write during `ludeme fmt`");
    let formatted = match analysis
        .format(file, Some(target))
        .expect("no write during `ludeme fmt`")
    {
        Ok(formatted) => formatted,
        Err(FormatError::Unconvertible(problems)) => {
            return Outcome::Failed(unconvertible_message(&problems, &text, target));
        }
        Err(error) => return Outcome::Failed(error.to_string()),
    };
    if target == source {
        let changed = *formatted != *text;
        return Outcome::Formatted {
            output: path.to_path_buf(),
            before: text.to_string(),
            text: formatted,
            changed,
        };
    }
    let output = path.with_extension(match target {
        Syntax::GdlInfix => "hrf",
        _ => "kif",
    });
    let before = match std::fs::read(&output) {
        Ok(existing) => String::from_utf8_lossy(&existing).into_owned(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => {
            return Outcome::Failed(format!(
                "cannot read {}, the file the conversion would replace: {error}",
                output.display()
            ));
        }
    };
    Outcome::Formatted {
        output,
        changed: before != formatted,
        before,
        text: formatted,
    }
}

/// The names a conversion cannot spell, with where they are written.
fn unconvertible_message(problems: &[Unconvertible], text: &str, target: Syntax) -> String {
    let target = match target {
        Syntax::GdlInfix => "infix",
        _ => "KIF",
    };
    let mut message = format!(
        "cannot convert to {target}: {} name{} cannot be written in {target}:",
        problems.len(),
        plural(problems.len())
    );
    for problem in problems {
        let places: Vec<String> = problem
            .ranges
            .iter()
            .take(3)
            .map(|range| {
                let (line, column) = line_column(text, range.start);
                format!("{line}:{column}")
            })
            .collect();
        let more = problem.ranges.len().saturating_sub(places.len());
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        message += &format!(
            "\n  `{}` at {}{more}: {}",
            problem.name,
            places.join(", "),
            problem.reason
        );
    }
    message
}

/// The 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    (line, before[line_start..].chars().count() + 1)
}

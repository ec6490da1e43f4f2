//! `ludeme`: check, explain and serve game descriptions.
//!
//! Exit codes (the contract CI scripts rely on): 0 — nothing wrong; 1 — errors found in the games;
//! 2 — usage or I/O failure (a missing path, a folder without games, an unreadable file).

mod check;
mod explain;
mod inputs;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "ludeme", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check game files and folders (recursively) and report every problem found.
    Check {
        /// Files or folders; folders are searched for .egg, .ludi, .kif, .gdl and .hrf files.
        #[arg(default_value = ".")]
        paths: Vec<PathBuf>,
        /// How to print the diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// When to colour human output.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
    },
    /// Print the long explanation of a diagnostic code (e.g. `syntax/missing-token`); with no
    /// code, list every code.
    Explain { code: Option<String> },
    /// Run the language server on standard input and output.
    Lsp,
}

/// Output formats of `ludeme check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Source snippets with the problem underlined.
    Human,
    /// A JSON array of diagnostics with 1-based lines and columns.
    Json,
    /// SARIF 2.1.0, for code-scanning dashboards.
    Sarif,
    /// GitHub Actions workflow commands (annotations on pull requests).
    Github,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The exit statuses of every command.
pub mod exit {
    pub const CLEAN: u8 = 0;
    pub const PROBLEMS_FOUND: u8 = 1;
    pub const FAILURE: u8 = 2;
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() {
                exit::FAILURE
            } else {
                exit::CLEAN
            });
        }
    };
    let status = match cli.command {
        Command::Check {
            paths,
            format,
            color,
        } => check::run(&paths, format, color),
        Command::Explain { code } => explain::run(code.as_deref()),
        Command::Lsp => match ludeme_lsp::run_stdio() {
            Ok(()) => exit::CLEAN,
            Err(error) => {
                eprintln!("ludeme lsp: {error}");
                exit::FAILURE
            }
        },
    };
    ExitCode::from(status)
}

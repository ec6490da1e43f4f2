//! `ludeme`: check, explain and serve game descriptions.
//!
//! Exit codes (the contract CI scripts rely on): 0 — nothing wrong; 1 — errors found in the games;
//! 2 — usage or I/O failure (a missing path, a folder without games, an unreadable file).

mod bench;
mod cache;
mod check;
mod distance;
mod evolve;
mod exit;
mod explain;
mod fixing;
mod fmt;
mod game_report;
mod interrupt;
mod match_play;
mod merge;
mod model;
mod play;
mod player;
mod probe;
mod progress;
mod project;
mod render;
mod report;
mod rules;
mod serve;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
// The version names the commit built (cli/build.rs), so that a report can say which build.
#[command(name = "ludeme", version = env!("LUDEME_VERSION"), about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check game files and folders (recursively) and report every problem found.
    Check(check::CheckArgs),
    /// Print a game's rules in plain English (`ludeme explain ticTacToe.kif`), or the long
    /// explanation of a diagnostic code (e.g. `syntax/missing-token`); with neither, list every
    /// code.
    Explain {
        /// A game file (.kif, .gdl, .hrf) or a diagnostic code.
        target: Option<String>,
        /// Plain text with section headings, or the structured form as JSON.
        #[arg(long, value_enum, default_value_t = explain::ExplainFormat::Human)]
        format: explain::ExplainFormat,
        /// The rules one by one, as written, instead of the rulebook.
        #[arg(long)]
        literal: bool,
    },
    /// Rewrite GDL files (.kif, .gdl, .hrf) in the canonical layout, keeping every comment; with
    /// `--to`, convert them between prefix KIF and infix.
    Fmt {
        /// Files or folders; folders are searched for game files (only GDL files are formatted).
        #[arg(default_value = ".")]
        paths: Vec<PathBuf>,
        /// Write nothing; list the files that would change and exit 1 if there are any.
        #[arg(long, conflicts_with = "stdout")]
        check: bool,
        /// Write nothing; print what would change as a unified diff (and nothing else on
        /// standard output), and exit 1 if anything would.
        #[arg(long, conflicts_with_all = ["stdout", "check"])]
        diff: bool,
        /// Convert to this syntax: `name.kif` becomes `name.hrf` beside it, or the reverse.
        #[arg(long, value_enum)]
        to: Option<fmt::Target>,
        /// Print the result instead of writing files.
        #[arg(long)]
        stdout: bool,
        /// Format the game read from standard input as if it were the file PATH (which need
        /// not exist) and print the result; with --check or --diff, say what would change.
        #[arg(long, value_name = "PATH")]
        stdin_filename: Option<PathBuf>,
    },
    /// Random playouts of a game from its initial state on one thread: playouts per CPU second
    /// and how often each role gets each goal value.
    Bench {
        file: PathBuf,
        /// How long to play, in CPU seconds. Reading and setting up the game (grounding it) may
        /// take up to twice this plus a second before, and at least 181 s, grounding's time
        /// limit twice (a safety net: grounding stops at its count of work, about 30 CPU s at
        /// most on this project's machine), so a game plays on the same engine whatever this
        /// is. The command ends within that setup time plus this.
        #[arg(long, default_value_t = 10.0)]
        seconds: f64,
        /// Play exactly this many playouts instead of for a time; the engines' own limits
        /// (grounding's count of work, steps per question) bound the work.
        #[arg(long, conflicts_with = "seconds")]
        playouts: Option<u64>,
        /// The random seed, for repeatable runs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = BenchFormat::Human)]
        format: BenchFormat,
        /// Run on the plain interpreter instead of the grounded reasoner (for comparisons).
        #[arg(long)]
        interpreter: bool,
    },
    /// Play matches between players (mcts, alphabeta, random, ...) on a GDL game and report
    /// each player's wins, draws, losses and average goal.
    Play(play::PlayArgs),
    /// Learn how a player plays a game from simulated matches and measure how well its moves
    /// are predicted: the top-N curve of a naive Bayes opponent model.
    Model(Box<model::ModelArgs>),
    /// Judge a game by self-play, as the Ludi paper does: search players play it from random openings, and
    /// the report gives completion, balance, length, drama and the other criteria, and whether
    /// the game is viable and why not.
    Probe(probe::ProbeArgs),
    /// Breed new Ludi games from known ones, as the Ludi paper's synthesis module: crossover and
    /// mutation of ludeme trees, every child checked, probed and scored; the survivors are
    /// written with their ancestry.
    Evolve(evolve::EvolveArgs),
    /// Combine the records of `ludeme evolve` or `ludeme probe` partitions (`--partition K/N`
    /// on several processes or machines) into one, and print the report one process would
    /// have printed.
    Merge(merge::MergeArgs),
    /// The ludeme-tree distance between two games: duplicate, variant or new game, and the
    /// differences that matter most.
    Distance(distance::DistanceArgs),
    /// The games of a folder (the project's corpus by default) nearest to a game.
    Nearest(distance::NearestArgs),
    /// The families of a folder of games, by agglomerative clustering over the distance.
    Cluster(distance::ClusterArgs),
    /// Draw a game's board as SVG: the start, or the position after the moves given.
    Render(render::RenderArgs),
    /// One self-contained HTML page about a game: the rules in English, the starting board,
    /// the self-play probe's verdict, criteria and lead histories, the nearest known games and
    /// the diagnostics.
    Report(game_report::ReportArgs),
    /// A local web page to look at and play the games of a folder: a person against any of
    /// the players, two people, or two players; the page follows the files as they are saved.
    Serve(serve::ServeArgs),
    /// Every diagnostic rule: code, default severity, whether it may be fixed, summary; with
    /// `--format json`, also its name, explanation and a wrong and a right example, for tools.
    Rules {
        #[arg(long, value_enum, default_value_t = rules::RulesFormat::Text)]
        format: rules::RulesFormat,
    },
    /// A general game player on HTTP for a GGP game manager (ggp-base's GameServer, Tiltyard,
    /// `ludeme match`): it answers the protocol's info, start, play, stop and abort messages.
    Player(player::PlayerArgs),
    /// A game manager: matches of a GDL game between players at HTTP addresses (`ludeme
    /// player` or any GGP player), with the goals, each player's errors and JSON records.
    Match(match_play::MatchArgs),
    /// Run the language server on standard input and output.
    Lsp,
}

/// Output formats of `ludeme bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    Human,
    Json,
}

/// Ends the process quietly when the reader of its output goes away (`ludeme bench … | head`),
/// as Unix tools do: Rust ignores SIGPIPE, which makes every later `println!` panic instead.
#[cfg(unix)]
fn exit_quietly_on_closed_pipe() {
    // SAFETY: sets the default disposition of one signal at start-up, before any other thread
    // exists; no Rust invariant depends on SIGPIPE being ignored.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn exit_quietly_on_closed_pipe() {}

fn main() -> ExitCode {
    exit_quietly_on_closed_pipe();
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
        Command::Check(args) => check::run(args),
        Command::Explain {
            target,
            format,
            literal,
        } => explain::run(target.as_deref(), format, literal),
        Command::Fmt {
            paths,
            check,
            diff,
            to,
            stdout,
            stdin_filename,
        } => {
            let mode = match (check, diff, stdout) {
                (true, _, _) => fmt::Mode::Check,
                (_, true, _) => fmt::Mode::Diff,
                (_, _, true) => fmt::Mode::Stdout,
                _ => fmt::Mode::Write,
            };
            fmt::run(&paths, mode, to, stdin_filename.as_deref())
        }
        Command::Bench {
            file,
            seconds,
            playouts,
            seed,
            format,
            interpreter,
        } => bench::run(
            &file,
            bench::Until::new(seconds, playouts),
            seed,
            format == BenchFormat::Json,
            interpreter,
        ),
        Command::Play(args) => play::run(&args),
        Command::Model(args) => model::run(&args),
        Command::Probe(args) => probe::run(&args),
        Command::Evolve(args) => evolve::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Distance(args) => distance::run_distance(&args),
        Command::Nearest(args) => distance::run_nearest(&args),
        Command::Cluster(args) => distance::run_cluster(&args),
        Command::Render(args) => render::run(&args),
        Command::Report(args) => game_report::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Rules { format } => rules::run(format),
        Command::Player(args) => player::run(&args),
        Command::Match(args) => match_play::run(&args),
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

//! `ludeme report GAME [-o FILE]`: everything Ludeme can say about one game on one
//! self-contained HTML page — the rules in English, the starting board, the self-play probe's
//! verdict, criteria and plots, the nearest known games and the diagnostics. The page is
//! gathered and written by the analysis crate ([`ludeme_analysis::game_report`]); this command
//! opens the game, plays the probe under its time limit with a progress bar, and writes the file.
//!
//! (`report/` is another thing: the output formats of `ludeme check`.)

use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use ludeme_analysis::DiagnosticDepth;
use ludeme_analysis::game_report::{GameReport, ProbeRequest, ReportOptions};
use ludeme_analysis::play::EngineOptions;

use crate::exit;
use crate::probe::{SelfPlayArgs, games_progress};
use crate::progress::Progress;
use crate::project::{KnownGames, open_game};

/// The options of `ludeme report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A game of any language (.ludi, .egg, .kif, .gdl, .hrf).
    file: PathBuf,
    /// Where to write the page; standard output when absent.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// How many of the nearest known games to list (the games of the game's project — the
    /// folder of its `ludeme.toml`, else its own folder — and of `[corpus]` there).
    #[arg(short = 'n', long = "nearest", default_value_t = 5)]
    nearest: usize,
    /// Leave the self-play probe out (its verdict, criteria and plots).
    #[arg(long, conflicts_with_all = ["games", "move_nodes"])]
    no_probe: bool,
    #[command(flatten)]
    self_play: SelfPlayArgs,
}

pub fn run(args: &ReportArgs) -> u8 {
    let path = &args.file;
    let fail = |message: String| {
        eprintln!("ludeme report: {}: {message}", path.display());
        exit::FAILURE
    };
    if let Some(problem) = args.self_play.problem() {
        return fail(problem.to_owned());
    }
    // As for `ludeme probe`: the time limit counts from the start, reading included.
    let started = Instant::now();
    // The engines count the same limit in CPU time (see `ludeme_analysis::CpuInstant`).
    let started_cpu = ludeme_analysis::CpuInstant::now();
    let reading = Progress::spinner(format!("reading {} and the games near it", path.display()));
    let (analysis, file) = match open_game(path, KnownGames::ProjectAndSettings) {
        Ok(opened) => opened,
        Err(message) => return fail(message),
    };
    let time_limit = Duration::from_secs_f64(args.self_play.seconds_for(path));
    drop(reading);
    if args.nearest > 0 {
        crate::distance::build_known_trees(&analysis);
    }
    let self_play = &args.self_play;
    let options = ReportOptions {
        probe: (!args.no_probe).then(|| ProbeRequest {
            games: self_play.games,
            seed: self_play.seed,
            random_plies: self_play.random_plies,
            nodes_per_move: self_play.move_nodes,
            time_limit: Some(time_limit.saturating_sub(started.elapsed())),
        }),
        nearest: args.nearest,
        depth: DiagnosticDepth::Full { simulation: None },
        // A game under way, and a question of the engine that never ends, stop at twice the
        // limit.
        engine: EngineOptions {
            deadline: Some(started_cpu.deadline(time_limit * 2)),
            interpreter: false,
        },
    };
    let report = {
        let progress = if args.no_probe {
            Progress::spinner(format!("reporting on {}", path.display()))
        } else {
            games_progress(path, self_play.games)
        };
        let shown = path.display().to_string();
        GameReport::gather(&analysis, file, &shown, &options, &mut |done| {
            progress.set_position(done as u64)
        })
    };
    let Ok(report) = report else {
        return fail("cancelled".to_owned());
    };
    let html = match report.to_html() {
        Ok(html) => html,
        Err(error) => return fail(error.to_string()),
    };
    let written = match &args.output {
        Some(output) => std::fs::write(output, html.as_bytes())
            .map_err(|error| format!("cannot write {}: {error}", output.display())),
        None => std::io::stdout()
            .lock()
            .write_all(html.as_bytes())
            .map_err(|error| format!("cannot write the report: {error}")),
    };
    match written {
        Ok(()) => exit::CLEAN,
        Err(message) => fail(message),
    }
}

//! `ludeme probe FILE`: the self-play viability probe of the Ludi paper (Browne & Maire, 2010).
//! Search players play N games
//! with random first moves; the report gives completion, drawishness, timeouts, balance,
//! first-move advantage, length, branching, the quality criteria and the viability verdict.
//! Ludi games are evaluated by their advisors; GDL and EGGG games are probed with a neutral
//! evaluation (the analysis chooses: [`ludeme_analysis::play::PlayableGame::probe`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use ludeme_analysis::aesthetic::{CRITERIA, Criterion, aesthetic_score, criterion_named};
use ludeme_analysis::play::{EngineOptions, ProbeReport, ProbeSettings};
use ludeme_analysis::probe_plots::{game_lengths_svg, lead_history_svg, outcomes_svg};
use ludeme_analysis::{Analysis, CpuInstant};
use serde::Serialize;

use crate::exit;
use crate::progress::Progress;
use crate::project::{KnownGames, open_game};

/// The options of `ludeme probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// A Ludi game (.ludi), a GDL game (.kif, .gdl, .hrf) or an EGGG game (.egg) the EGGG
    /// engine plays.
    file: PathBuf,
    #[command(flatten)]
    self_play: SelfPlayArgs,
    #[arg(long, value_enum, default_value_t = ProbeFormat::Human)]
    format: ProbeFormat,
    /// Also draw the probe's plots into this folder (made if missing), as SVG: each game's lead
    /// history (`lead-history-001.svg`, ...: every role's estimate after each move, as in the
    /// Ludi paper's figures 7 and 8), the outcomes (`outcomes.svg`) and the game lengths
    /// (`lengths.svg`).
    #[arg(long, value_name = "FOLDER")]
    plots: Option<PathBuf>,
    /// Also print these criteria, with their sources: `all`, or names separated by commas
    /// (`uncertainty,permanence`). The JSON report always holds every criterion.
    #[arg(long, value_name = "all|NAME,...")]
    criteria: Option<String>,
}

/// How the self-play games are played: the options `ludeme probe` and `ludeme report` share.
#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// The random seed of the opening moves and of the players' choice between equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Each player's first moves played at random, every player's alike (the opening is not
    /// measured).
    #[arg(long, default_value_t = 1)]
    pub random_plies: usize,
    /// States each search may visit per move (repeatable, unlike a clock); by default 150 on
    /// Ludi games, whose advisors value the states the search stops at, and 2,000 on GDL and
    /// EGGG games, whose generic evaluators (material, goal value, mobility; piece power) tell
    /// less, so that the search's depth must tell more.
    #[arg(long)]
    pub move_nodes: Option<u64>,
    /// Start no new game this many seconds after the command starts, reading and setting up
    /// the game included; a game under way stops by twice this (default: `[probe] seconds` of
    /// `ludeme.toml`, else 60, as in the editor).
    #[arg(long)]
    pub time_limit: Option<f64>,
}

impl SelfPlayArgs {
    /// Why the options cannot be used, if they cannot.
    pub fn problem(&self) -> Option<&'static str> {
        match self.time_limit {
            Some(seconds) if !(seconds > 0.0 && seconds.is_finite()) => {
                Some("--time-limit must be a positive number of seconds")
            }
            _ => None,
        }
    }

    /// The time limit: the one given, else the settings' (`None` when the snapshot was
    /// cancelled).
    pub fn time_limit(&self, analysis: &Analysis) -> Option<Duration> {
        let seconds = match self.time_limit {
            Some(seconds) => seconds,
            None => analysis.settings().ok()?.probe.seconds,
        };
        Some(Duration::from_secs_f64(seconds))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProbeFormat {
    Human,
    Json,
}

/// The JSON report: the keys scripts rely on, then one per further metric.
#[derive(Serialize)]
struct Json<'a> {
    game: String,
    games: usize,
    completion: f64,
    drawishness: f64,
    timeouts: f64,
    balance: Option<f64>,
    first_move_advantage: Option<f64>,
    avg_length: f64,
    viable: bool,
    reasons: &'a [String],
    /// Set when the verdict rests on too few games: a sentence saying so.
    tentative: Option<&'a str>,
    length_spread: f64,
    duration: f64,
    branching_factor: f64,
    drama: f64,
    uncertainty: f64,
    lead_change: f64,
    decisiveness: f64,
    wins: BTreeMap<&'a str, usize>,
    draws: usize,
    seconds: f64,
    /// Every criterion of the probe by name (`null` when the games gave it nothing to
    /// measure), and the aesthetic score, their weighted sum.
    criteria: BTreeMap<&'static str, Option<f64>>,
    aesthetic_score: f64,
    /// Every game in order, with its lead history: the series the quality criteria are
    /// measured on, for scripts that draw or measure it themselves.
    lead_histories: Vec<GameJson<'a>>,
}

/// One game of the JSON report.
#[derive(Serialize)]
struct GameJson<'a> {
    /// Plies played, the random opening included.
    length: usize,
    /// The winning role's name; `null` for a draw.
    winner: Option<&'a str>,
    /// Abandoned as a draw (at the length limit, or because the game could not go on).
    abandoned: bool,
    /// The ply (from 1) after which the first estimates were taken.
    first_measured_ply: usize,
    /// After each searched ply, every role's estimate of its position, 0..1, in role order.
    estimates: &'a [Vec<f64>],
}

fn fail(path: &Path, message: impl std::fmt::Display) -> u8 {
    eprintln!("ludeme probe: {}: {message}", path.display());
    exit::FAILURE
}

pub fn run(args: &ProbeArgs) -> u8 {
    let path = &args.file;
    if let Some(problem) = args.self_play.problem() {
        return fail(path, problem);
    }
    let shown_criteria = match args.criteria.as_deref().map(chosen_criteria).transpose() {
        Ok(shown) => shown,
        Err(message) => return fail(path, message),
    };
    // The time limit counts from here, before the game is read: reading, setting up and
    // playing share it.
    let started = Instant::now();
    // Engines count the same limit in CPU time, so that where a game stops does not depend on
    // the machine's load.
    let started_cpu = CpuInstant::now();
    let reading = Progress::spinner(format!("reading {}", path.display()));
    let (analysis, file) = match open_game(path, KnownGames::FromSettings) {
        Ok(opened) => opened,
        Err(message) => return fail(path, message),
    };
    let Some(time_limit) = args.self_play.time_limit(&analysis) else {
        return fail(path, "cancelled");
    };
    // No new game starts once the time limit has passed; a game under way, and a question of
    // the engine that never ends, stop at twice the limit.
    let options = EngineOptions {
        deadline: Some(started_cpu.deadline(time_limit * 2)),
        interpreter: false,
    };
    let game = match analysis.playable(file, &options) {
        Ok(Ok(game)) => game,
        Ok(Err(message)) => return fail(path, message),
        Err(_) => return fail(path, "cancelled"),
    };
    drop(reading);
    let self_play = &args.self_play;
    let settings = ProbeSettings {
        games: self_play.games,
        seed: self_play.seed,
        random_plies: self_play.random_plies,
        nodes_per_move: self_play
            .move_nodes
            .unwrap_or_else(|| game.default_probe_nodes()),
        time_limit: Some(time_limit.saturating_sub(started.elapsed())),
        ..ProbeSettings::default()
    };
    let report = {
        let progress = games_progress(path, self_play.games);
        game.probe_with_progress(&settings, &mut |done| progress.set_position(done as u64))
    };
    if let Some(folder) = &args.plots
        && let Err(message) = write_plots(folder, &report, &settings)
    {
        return fail(path, message);
    }
    if args.format == ProbeFormat::Json {
        let json = Json {
            game: path.display().to_string(),
            games: report.games,
            completion: report.completion,
            drawishness: report.drawishness,
            timeouts: report.timeouts,
            balance: report.balance,
            first_move_advantage: report.first_move_advantage,
            avg_length: report.avg_length,
            viable: report.verdict.viable,
            reasons: &report.verdict.reasons,
            tentative: report.verdict.tentative.as_deref(),
            length_spread: report.length_spread,
            duration: report.duration,
            branching_factor: report.branching_factor,
            drama: report.drama,
            uncertainty: report.uncertainty,
            lead_change: report.lead_change,
            decisiveness: report.decisiveness,
            wins: report
                .roles
                .iter()
                .map(String::as_str)
                .zip(report.wins.iter().copied())
                .collect(),
            draws: report.draws,
            seconds: report.seconds,
            criteria: report
                .criteria
                .iter()
                .map(|criterion| (criterion.name, criterion.value))
                .collect(),
            aesthetic_score: aesthetic_score(&report),
            lead_histories: report
                .histories
                .iter()
                .map(|history| GameJson {
                    length: history.length,
                    winner: history
                        .winner
                        .and_then(|winner| report.roles.get(winner))
                        .map(String::as_str),
                    abandoned: history.abandoned,
                    first_measured_ply: history.first_measured_ply,
                    estimates: &history.estimates,
                })
                .collect(),
        };
        match serde_json::to_string_pretty(&json) {
            Ok(text) => println!("{text}"),
            Err(error) => return fail(path, format!("cannot write the report: {error}")),
        }
    } else {
        print_human(path, &report);
        if let Some(shown) = shown_criteria {
            print_criteria(&report, &shown);
        }
    }
    exit::CLEAN
}

fn print_human(path: &Path, report: &ProbeReport) {
    let percent = |share: f64| format!("{:.0} %", share * 100.0);
    let verdict = if report.verdict.viable {
        "viable"
    } else {
        "not viable"
    };
    println!(
        "{}: {verdict} ({} games of self-play in {:.1} s)",
        path.display(),
        report.games,
        report.seconds
    );
    if let Some(tentative) = &report.verdict.tentative {
        println!("  ({tentative})");
    }
    for reason in &report.verdict.reasons {
        println!("  - {reason}");
    }
    println!("  wins: {}, draws {}", report.wins_listed(), report.draws);
    println!(
        "  completion {}, drawishness {}, timeouts {}",
        percent(report.completion),
        percent(report.drawishness),
        percent(report.timeouts)
    );
    let optional = |value: Option<f64>| value.map_or("n/a".to_owned(), |v| format!("{v:.2}"));
    println!(
        "  balance {}, first-move advantage {}",
        optional(report.balance),
        optional(report.first_move_advantage)
    );
    println!(
        "  length {:.1} ± {:.1} plies (duration {:.2}), branching factor {:.1}",
        report.avg_length, report.length_spread, report.duration, report.branching_factor
    );
    println!(
        "  drama {:.2}, uncertainty {:.2}, lead change {:.2}, decisiveness {:.2}",
        report.drama, report.uncertainty, report.lead_change, report.decisiveness
    );
}

/// The criteria `--criteria` names: `all`, or names separated by commas.
fn chosen_criteria(names: &str) -> Result<Vec<&'static Criterion>, String> {
    if names.trim() == "all" {
        return Ok(CRITERIA.iter().collect());
    }
    names
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            criterion_named(name).ok_or_else(|| {
                let known: Vec<&str> = CRITERIA.iter().map(|c| c.name).collect();
                format!(
                    "--criteria: `{name}` is not a criterion (all, or some of: {})",
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// The criteria `shown`, one a line with their value, meaning and source, and the aesthetic
/// score.
fn print_criteria(report: &ProbeReport, shown: &[&Criterion]) {
    println!("  criteria:");
    let width = shown.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for criterion in shown {
        let value = report
            .criteria
            .iter()
            .find(|measured| measured.name == criterion.name)
            .and_then(|measured| measured.value)
            .map_or("n/a".to_owned(), |v| format!("{v:.3}"));
        println!(
            "    {:width$}  {value:>7}  {} [{}; {}]",
            criterion.name,
            criterion.meaning,
            criterion.category.name(),
            criterion.source
        );
    }
    println!("  aesthetic score {:.3}", aesthetic_score(report));
}

/// The bar of a probe of `games` games of the game at `path`.
pub fn games_progress(path: &Path, games: usize) -> Progress {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    Progress::bar(format!("probing {name}"), games as u64, "games")
}

/// Writes the probe's plots into `folder`: each game's lead history, the outcomes and the
/// lengths.
fn write_plots(
    folder: &Path,
    report: &ProbeReport,
    settings: &ProbeSettings,
) -> Result<(), String> {
    std::fs::create_dir_all(folder)
        .map_err(|error| format!("cannot make {}: {error}", folder.display()))?;
    let mut plots = vec![
        ("outcomes.svg".to_owned(), outcomes_svg(report)),
        (
            "lengths.svg".to_owned(),
            game_lengths_svg(report, settings.max_length),
        ),
    ];
    // Numbered with enough digits that the files sort in playing order.
    let digits = report.histories.len().to_string().len().max(3);
    plots.extend((0..report.histories.len()).map(|game| {
        (
            format!("lead-history-{:0digits$}.svg", game + 1),
            lead_history_svg(report, game),
        )
    }));
    for (name, plot) in plots {
        let svg = plot.map_err(|error| format!("{name}: {error}"))?;
        let target = folder.join(&name);
        std::fs::write(&target, svg)
            .map_err(|error| format!("cannot write {}: {error}", target.display()))?;
    }
    Ok(())
}

//! `ludeme probe FILE`: the self-play viability probe (seed 004). Search players play N games
//! with random first moves; the report gives completion, drawishness, timeouts, balance,
//! first-move advantage, length, branching, the quality criteria and the viability verdict.
//! Ludi games are evaluated by their advisors; GDL and EGGG games are probed with a neutral
//! evaluation.
//!
//! Also the Ludi and EGGG sides of `ludeme bench` ([`bench_ludi`], [`bench_egg`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use ludeme_analysis::egg::engine::egg_engine_for;
use ludeme_analysis::egg::load_egg_workspace;
use ludeme_analysis::gdl::engine::reasoner_for;
use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax, decode_source};
use ludeme_engine::Game;
use ludeme_engine::egg::EggEngine;
use ludeme_engine::gdl::Budget;
use ludeme_engine::ludi::LudiGame;
use ludeme_engine::ludi::advisors::Advisors;
use ludeme_engine::probe::{NoAdvice, ProbeReport, ProbeSettings, probe};
use serde::Serialize;

use crate::exit;

/// States per move on GDL games (see `--move-nodes`).
const GDL_NODES_PER_MOVE: u64 = 2_000;

/// The options of `ludeme probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// A Ludi game (.ludi), a GDL game (.kif, .gdl, .hrf) or an EGGG game (.egg) the EGGG
    /// engine plays.
    file: PathBuf,
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// The random seed of the opening moves and of the players' choice between equal moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Opening plies played at random (not measured).
    #[arg(long, default_value_t = 1)]
    random_plies: usize,
    /// States each search may visit per move (repeatable, unlike a clock); by default 150 on
    /// Ludi games, whose advisors value the states the search stops at, and 2,000 on GDL
    /// games, where only the search's depth tells good moves from bad.
    #[arg(long)]
    move_nodes: Option<u64>,
    /// Stop playing new games after this many seconds.
    #[arg(long, default_value_t = 300.0)]
    time_limit: f64,
    #[arg(long, value_enum, default_value_t = ProbeFormat::Human)]
    format: ProbeFormat,
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
}

fn fail(path: &Path, command: &str, message: impl std::fmt::Display) -> u8 {
    eprintln!("ludeme {command}: {}: {message}", path.display());
    exit::FAILURE
}

/// Reads a file and detects its language.
fn read(path: &Path) -> Result<(String, Syntax), String> {
    let bytes = std::fs::read(path).map_err(|error| format!("cannot read it: {error}"))?;
    let text = decode_source(&bytes).map_err(|error| error.diagnostic().message)?;
    let syntax = Syntax::detect(path, text)
        .ok_or_else(|| "not a game file (.ludi, .kif, .gdl, .hrf, .egg)".to_owned())?;
    Ok((text.to_owned(), syntax))
}

/// The playable game of a `.ludi` file, or why not.
pub fn load_ludi(path: &Path, text: &str) -> Result<LudiGame, String> {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), Syntax::Ludi, Arc::from(text), None);
    ludi_engine_for(&db, file).map_err(|refusal| refusal.to_string())
}

/// The playable game of an `.egg` file, its `is like` bases found beside it and in the corpus,
/// or why not.
pub fn load_egg(path: &Path) -> Result<EggEngine, String> {
    let mut db = RootDatabase::default();
    let file = load_egg_workspace(&mut db, &[path.to_path_buf()])
        .remove(path)
        .ok_or_else(|| "cannot read it".to_owned())?;
    egg_engine_for(&db, file).map_err(|refusal| refusal.to_string())
}

/// `ludeme bench` on a `.ludi` file.
pub fn bench_ludi(path: &Path, text: &str, seconds: f64, seed: u64, json: bool) -> u8 {
    bench_engine(path, "ludi", || load_ludi(path, text), seconds, seed, json)
}

/// `ludeme bench` on an `.egg` file.
pub fn bench_egg(path: &Path, seconds: f64, seed: u64, json: bool) -> u8 {
    bench_engine(path, "eggg", || load_egg(path), seconds, seed, json)
}

/// `ludeme bench` on the game `load` builds, named `engine` in the report.
fn bench_engine<G: Game>(
    path: &Path,
    engine: &str,
    load: impl FnOnce() -> Result<G, String>,
    seconds: f64,
    seed: u64,
    json: bool,
) -> u8 {
    if !(seconds > 0.0 && seconds.is_finite()) {
        return fail(
            path,
            "bench",
            format!("--seconds must be a positive number, not {seconds}"),
        );
    }
    let started = Instant::now();
    let game = match load() {
        Ok(game) => game,
        Err(message) => return fail(path, "bench", message),
    };
    let setup = crate::bench::Setup {
        engine: engine.to_owned(),
        fallback_reason: None,
        setup_seconds: started.elapsed().as_secs_f64(),
        circuit: None,
    };
    crate::bench::report_playouts(
        path,
        &game,
        setup,
        Duration::from_secs_f64(seconds),
        seed,
        json,
    )
}

pub fn run(args: &ProbeArgs) -> u8 {
    let path = &args.file;
    let (text, syntax) = match read(path) {
        Ok(read) => read,
        Err(message) => return fail(path, "probe", message),
    };
    if !(args.time_limit > 0.0 && args.time_limit.is_finite()) {
        return fail(
            path,
            "probe",
            "--time-limit must be a positive number of seconds",
        );
    }
    let settings = ProbeSettings {
        games: args.games,
        seed: args.seed,
        random_plies: args.random_plies,
        nodes_per_move: args.move_nodes.unwrap_or(match syntax {
            Syntax::Ludi => ProbeSettings::default().nodes_per_move,
            _ => GDL_NODES_PER_MOVE,
        }),
        time_limit: Some(Duration::from_secs_f64(args.time_limit)),
        ..ProbeSettings::default()
    };
    let report = match syntax {
        Syntax::Ludi => match load_ludi(path, &text) {
            Ok(game) => {
                let advisors = Advisors::for_game(&game, args.seed);
                probe(&game, &advisors, &settings)
            }
            Err(message) => return fail(path, "probe", message),
        },
        Syntax::GdlKif | Syntax::GdlInfix => {
            let db = RootDatabase::default();
            let file = SourceFile::new(&db, path.clone(), syntax, Arc::from(text.as_str()), None);
            let budget = Budget {
                deadline: Some(Instant::now() + settings.time_limit.unwrap_or_default() * 2),
                ..Budget::default()
            };
            match reasoner_for(&db, file, budget) {
                Ok(game) => probe(&game, &NoAdvice, &settings),
                Err(error) => return fail(path, "probe", error),
            }
        }
        Syntax::Egg => match load_egg(path) {
            Ok(game) => probe(&game, &NoAdvice, &settings),
            Err(message) => return fail(path, "probe", message),
        },
    };
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
        };
        match serde_json::to_string_pretty(&json) {
            Ok(text) => println!("{text}"),
            Err(error) => return fail(path, "probe", format!("cannot write the report: {error}")),
        }
    } else {
        print_human(path, &report);
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
    for reason in &report.verdict.reasons {
        println!("  - {reason}");
    }
    let wins: Vec<String> = report
        .roles
        .iter()
        .zip(&report.wins)
        .map(|(role, wins)| format!("{role} {wins}"))
        .collect();
    println!("  wins: {}, draws {}", wins.join(", "), report.draws);
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

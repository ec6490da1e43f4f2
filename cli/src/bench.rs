//! `ludeme bench FILE`: uniformly random playouts from the initial state, on one thread, for a
//! given time; playouts per second and the outcome frequencies.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ludeme_analysis::gdl::engine::program_for;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax, decode_source};
use ludeme_engine::Game;
use ludeme_engine::gdl::grounded::GroundingLimits;
use ludeme_engine::gdl::{Budget, Engine, Reasoner};
use ludeme_engine::playout::{PlayoutStats, random_playout};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Serialize;

use crate::exit;

/// Plies after which a playout is abandoned: far beyond any corpus game's length.
const MAX_PLIES: usize = 10_000;

#[derive(Serialize)]
struct Report {
    game: String,
    /// The reasoner that ran: `grounded` or `interpreter`.
    engine: String,
    /// Why the interpreter ran, when the game could not be grounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback_reason: Option<String>,
    /// Loading, checking and (for the grounded reasoner) grounding the game.
    setup_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    circuit: Option<CircuitSize>,
    playouts: u64,
    seconds: f64,
    playouts_per_second: f64,
    avg_plies: f64,
    /// Per role, the frequency of each goal value among completed playouts.
    outcomes: BTreeMap<String, BTreeMap<u8, f64>>,
    /// The roles in the game's order (the JSON object above is keyed by name).
    #[serde(skip)]
    roles: Vec<String>,
}

#[derive(Serialize)]
pub(crate) struct CircuitSize {
    propositions: usize,
    ground_rules: usize,
}

pub fn run(path: &Path, seconds: f64, seed: u64, json: bool, interpreter: bool) -> u8 {
    let fail = |message: String| {
        eprintln!("ludeme bench: {}: {message}", path.display());
        exit::FAILURE
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => return fail(format!("cannot read it: {error}")),
    };
    let text = match decode_source(&bytes) {
        Ok(text) => text,
        Err(error) => return fail(error.diagnostic().message),
    };
    let syntax = match Syntax::detect(path, text) {
        Some(Syntax::Ludi) => return crate::probe::bench_ludi(path, text, seconds, seed, json),
        Some(Syntax::Egg) => return crate::probe::bench_egg(path, seconds, seed, json),
        Some(syntax @ (Syntax::GdlKif | Syntax::GdlInfix)) => syntax,
        None => return fail("not a game file (.kif, .gdl, .hrf, .ludi, .egg)".to_owned()),
    };
    if !(seconds > 0.0 && seconds.is_finite()) {
        return fail(format!(
            "--seconds must be a positive number, not {seconds}"
        ));
    }
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), syntax, Arc::from(text), None);
    let duration = Duration::from_secs_f64(seconds);
    let started = Instant::now();
    // Grounding may take up to twice the time asked for (and never more than the engine's
    // ten seconds); a game that does not ground by then falls back to the interpreter, which
    // still gets the whole time asked for: a runaway query (one that never ends) stops at
    // twice that time after grounding gave up.
    let slack = duration * 2 + Duration::from_secs(1);
    let grounding_deadline = started + slack.min(Reasoner::GROUNDING_TIME);
    let budget = Budget {
        deadline: Some(grounding_deadline + slack),
        ..Budget::default()
    };
    let limits = GroundingLimits {
        deadline: Some(grounding_deadline),
        ..GroundingLimits::default()
    };
    let loaded = program_for(&db, file).and_then(|program| {
        if interpreter {
            Reasoner::interpreted(program, budget)
        } else {
            Reasoner::with_limits(program, budget, &limits)
        }
    });
    let game = match loaded {
        Ok(game) => game,
        Err(error) => return fail(error.to_string()),
    };
    let setup_seconds = started.elapsed().as_secs_f64();
    let circuit = match game.engine() {
        Engine::Grounded(grounded) => {
            let (propositions, ground_rules) = grounded.size();
            Some(CircuitSize {
                propositions,
                ground_rules,
            })
        }
        Engine::Interpreted(_) => None,
    };
    let setup = Setup {
        engine: game.engine_name().to_owned(),
        fallback_reason: game.fallback_reason().map(str::to_owned),
        setup_seconds,
        circuit,
    };
    report_playouts(path, &game, setup, duration, seed, json)
}

/// How the engine was set up, for the report.
pub(crate) struct Setup {
    pub engine: String,
    pub fallback_reason: Option<String>,
    pub setup_seconds: f64,
    pub circuit: Option<CircuitSize>,
}

/// Plays random playouts of `game` for `duration` and prints the report.
pub(crate) fn report_playouts<G: Game>(
    path: &Path,
    game: &G,
    setup: Setup,
    duration: Duration,
    seed: u64,
    json: bool,
) -> u8 {
    let fail = |message: String| {
        eprintln!("ludeme bench: {}: {message}", path.display());
        exit::FAILURE
    };
    let mut rng = SmallRng::seed_from_u64(seed);
    let start = game.initial_state();
    let mut stats = PlayoutStats::new(game.roles().len());
    let clock = Instant::now();
    while clock.elapsed() < duration {
        let playout = random_playout(game, &start, &mut rng, MAX_PLIES);
        stats.add(&playout);
        if let Some(failure) = game.failure() {
            return fail(failure);
        }
    }
    let elapsed = clock.elapsed().as_secs_f64();
    let outcomes = game
        .roles()
        .iter()
        .enumerate()
        .map(|(role, name)| {
            let values = stats.outcomes[role]
                .keys()
                .map(|&value| (value, stats.frequency(role, value)))
                .collect();
            (name.clone(), values)
        })
        .collect();
    let report = Report {
        game: path.display().to_string(),
        engine: setup.engine,
        fallback_reason: setup.fallback_reason,
        setup_seconds: setup.setup_seconds,
        circuit: setup.circuit,
        playouts: stats.playouts,
        seconds: elapsed,
        playouts_per_second: stats.playouts as f64 / elapsed,
        avg_plies: stats.average_plies(),
        outcomes,
        roles: game.roles().to_vec(),
    };
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{text}"),
            Err(error) => return fail(format!("cannot write the report: {error}")),
        }
    } else {
        print_human(&report, &stats);
    }
    exit::CLEAN
}

fn print_human(report: &Report, stats: &PlayoutStats) {
    println!(
        "{}: {} random playouts in {:.1} s ({:.0} per second, one thread, {} reasoner), {:.2} plies on average",
        report.game,
        report.playouts,
        report.seconds,
        report.playouts_per_second,
        report.engine,
        report.avg_plies
    );
    if let Some(reason) = &report.fallback_reason {
        println!("  (not grounded: {reason})");
    }
    if let Some(circuit) = &report.circuit {
        println!(
            "  ({} propositions, {} ground rules; loaded and grounded in {:.2} s)",
            circuit.propositions, circuit.ground_rules, report.setup_seconds
        );
    }
    for role in &report.roles {
        let values = &report.outcomes[role];
        let shares: Vec<String> = values
            .iter()
            .rev()
            .map(|(value, share)| format!("{value}: {:.1} %", share * 100.0))
            .collect();
        println!("  {role}: {}", shares.join(", "));
    }
    let unfinished = stats.ply_limits + stats.no_legal_move;
    if unfinished > 0 {
        println!(
            "  {unfinished} playouts did not end ({} at the ply limit, {} with a role without legal moves)",
            stats.ply_limits, stats.no_legal_move
        );
    }
}

//! `ludeme model GAME`: how well a player's moves can be predicted (seed 002). Matches are
//! simulated with the player in its seat and random players elsewhere; a naive Bayes model
//! trained on the first `--train` matches ranks the player's legal moves in `--test` further
//! matches, and the top-N curve says how often its real move was ranked within the first N.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use ludeme_analysis::CpuDeadline;
use ludeme_analysis::opponent_model::{
    DuelReport, DuelSettings, Experiment, ExperimentSettings, FeatureSet, SimulationSettings,
    Tally, TopNCurve, nodes_to_depth,
};
use ludeme_analysis::play::{MoveBudget, PLAYER_NAMES};
use serde_json::json;

use crate::exit;
use crate::project::{KnownGames, open_playable};

/// The options of `ludeme model`.
#[derive(Args, Debug)]
pub struct ModelArgs {
    /// A game: GDL (.kif, .gdl, .hrf), Ludi (.ludi) or an EGGG game the EGGG engine plays.
    file: PathBuf,
    /// The player to model: mcts, legal, random, maximizer, minimax, bounded, alphabeta,
    /// iterative.
    #[arg(long, default_value = "minimax")]
    player: String,
    /// Its role (by name); the first role a player plays by default.
    #[arg(long)]
    role: Option<String>,
    /// Training matches.
    #[arg(long, default_value_t = 100)]
    train: u64,
    /// Test matches, played after (and with other seeds than) the training ones.
    #[arg(long, default_value_t = 10)]
    test: u64,
    /// The features of a state: state (its atoms), state+legal, legal (the legal moves only);
    /// repeat to compare several on the same matches. Default: state.
    #[arg(long = "features", value_name = "SET")]
    features: Vec<String>,
    /// Features kept by chi-square selection (default: all that training saw).
    #[arg(long)]
    select: Option<usize>,
    /// Units of work (search states, MCTS iterations) the modelled player may spend per move;
    /// counted, not timed, so that the same seed gives the same matches anywhere.
    #[arg(long, default_value_t = 100_000)]
    move_nodes: u64,
    /// Joint moves after which a match is abandoned.
    #[arg(long, default_value_t = 1_000)]
    max_plies: usize,
    /// CPU seconds the whole simulation may take.
    #[arg(long, default_value_t = 600.0)]
    cpu_seconds: f64,
    /// The seed of the first match; match `i` uses `seed + i`.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Instead of the top-N curve: train a model of the player in each seat on `--train`
    /// matches, then play this many matches of alpha-beta guided by the model, and as many of
    /// plain alpha-beta, against the player (seats alternated, same openings), and compare.
    #[arg(long, value_name = "N")]
    search_matches: Option<u64>,
    /// Search states each compared alpha-beta may expand per move (counted, not timed).
    #[arg(long, default_value_t = 1_000)]
    search_nodes: u64,
    /// Instead of --search-nodes: the time each compared alpha-beta may think per move, in
    /// seconds, so that the comparison is at equal time (the guided search spends more per
    /// state; a time budget charges it, a state count does not).
    #[arg(long, value_name = "SECONDS")]
    search_seconds: Option<f64>,
    /// The guided search keeps, at the modelled player's nodes, its fewest most probable moves
    /// whose probabilities add up to this (0 < p ≤ 1; 1 keeps them all, in the model's order).
    #[arg(long, default_value_t = 0.9)]
    confidence: f64,
    /// Plies of random moves for every role at the start of each compared match, so that
    /// deterministic players do not play one match over and over.
    #[arg(long, default_value_t = 2)]
    opening_plies: usize,
    #[arg(long, value_enum, default_value_t = ModelFormat::Human)]
    format: ModelFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelFormat {
    Human,
    Json,
}

pub fn run(args: &ModelArgs) -> u8 {
    let path = &args.file;
    let fail = |message: String| {
        eprintln!("ludeme model: {}: {message}", path.display());
        exit::FAILURE
    };
    if !PLAYER_NAMES.contains(&args.player.as_str()) {
        return fail(format!(
            "no player is called `{}`; the players are {}",
            args.player,
            PLAYER_NAMES.join(", ")
        ));
    }
    let mut feature_sets = Vec::new();
    for name in &args.features {
        match FeatureSet::from_name(name) {
            Some(set) => feature_sets.push(set),
            None => {
                return fail(format!(
                    "no feature set is called `{name}`; they are {}",
                    FeatureSet::NAMES.join(", ")
                ));
            }
        }
    }
    if feature_sets.is_empty() {
        feature_sets.push(FeatureSet::State);
    }
    let cpu_budget = match Duration::try_from_secs_f64(args.cpu_seconds) {
        Ok(budget) if !budget.is_zero() => budget,
        _ => {
            return fail(format!(
                "--cpu-seconds must be a positive number, not {}",
                args.cpu_seconds
            ));
        }
    };
    let game = match open_playable(path, KnownGames::FromSettings) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let roles = game.roles();
    let role = match &args.role {
        Some(name) => match roles.iter().position(|role| role == name) {
            Some(role) => role,
            None => {
                return fail(format!(
                    "the game has no role `{name}`; its roles are {}",
                    roles.join(", ")
                ));
            }
        },
        None => match (0..roles.len()).find(|&role| !game.is_random(role)) {
            Some(role) => role,
            None => return fail("the game has no role for a player".to_owned()),
        },
    };
    let simulation = SimulationSettings {
        move_budget: MoveBudget::nodes(args.move_nodes),
        max_plies: args.max_plies,
        deadline: Some(CpuDeadline::after(cpu_budget)),
        seed: args.seed,
        ..SimulationSettings::new(&args.player, role)
    };
    if let Some(matches) = args.search_matches {
        if feature_sets.len() > 1 {
            return fail("--search-matches trains one model: give one --features".to_owned());
        }
        if let Some(seconds) = args.search_seconds
            && !(seconds > 0.0 && seconds <= 3_600.0)
        {
            return fail(format!(
                "--search-seconds must be above 0 and at most 3600, not {seconds}"
            ));
        }
        if !(args.confidence > 0.0 && args.confidence <= 1.0) {
            return fail(format!(
                "--confidence must be above 0 and at most 1, not {}",
                args.confidence
            ));
        }
        let settings = DuelSettings {
            opponent: simulation,
            training_matches: args.train,
            features: feature_sets[0],
            select: args.select,
            confidence: args.confidence,
            search_budget: match args.search_seconds {
                Some(seconds) => MoveBudget::time(Duration::from_secs_f64(seconds)),
                None => MoveBudget::nodes(args.search_nodes),
            },
            matches,
            opening_plies: args.opening_plies,
        };
        let report = match game.model_search_comparison(&settings) {
            Ok(report) => report,
            Err(message) => return fail(message),
        };
        match args.format {
            ModelFormat::Json => print_duel_json(args, roles, &report),
            ModelFormat::Human => print_duel_human(args, roles, &report),
        }
        return exit::CLEAN;
    }
    let settings = ExperimentSettings {
        simulation,
        training_matches: args.train,
        test_matches: args.test,
        feature_sets,
        select: args.select,
    };
    let result = match game.model_experiment(&settings) {
        Ok(result) => result,
        Err(message) => return fail(message),
    };
    match args.format {
        ModelFormat::Json => print_json(args, &roles[role], &result),
        ModelFormat::Human => print_human(args, &roles[role], &result),
    }
    exit::CLEAN
}

fn print_json(args: &ModelArgs, role: &str, result: &Experiment) {
    let variants: Vec<_> = result
        .variants
        .iter()
        .map(|variant| {
            json!({
                "features": variant.features.name(),
                "vocabulary": variant.vocabulary,
                "selected": variant.selected,
                "moves_seen": variant.moves_seen,
                "test_decisions": variant.curve.decisions,
                "mean_legal_moves": variant.curve.mean_legal_moves,
                "top1": variant.curve.top1(),
                "all_within": variant.curve.all_within(),
                "top_n": variant.curve.within,
                "chance": variant.curve.chance,
                "confidence": confidence_contours(&variant.curve)
                    .into_iter()
                    .map(|(p, moves, nodes)| json!({
                        "p": p,
                        "moves": moves,
                        "nodes_to_depth": nodes,
                    }))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    let report = json!({
        "game": args.file.display().to_string(),
        "player": args.player,
        "role": role,
        "train": args.train,
        "test": args.test,
        "training_decisions": result.training_decisions,
        "simulation_cpu_seconds": result.simulation_seconds,
        "modelling_cpu_seconds": result.modelling_seconds,
        "variants": variants,
    });
    match serde_json::to_string_pretty(&report) {
        Ok(text) => println!("{text}"),
        Err(error) => eprintln!("ludeme model: {error}"),
    }
}

fn print_human(args: &ModelArgs, role: &str, result: &Experiment) {
    println!(
        "{}: the {} player as {role}, {} training matches ({} decisions), {} test matches",
        args.file.display(),
        args.player,
        args.train,
        result.training_decisions,
        args.test
    );
    println!(
        "CPU: {:.2} s simulating, {:.3} s training and testing",
        result.simulation_seconds, result.modelling_seconds
    );
    for variant in &result.variants {
        let curve = &variant.curve;
        println!();
        println!(
            "features {}: {} seen, {} kept; {} moves seen; {} test decisions, {:.1} legal moves on average",
            variant.features.name(),
            variant.vocabulary,
            variant.selected,
            variant.moves_seen,
            curve.decisions,
            curve.mean_legal_moves
        );
        println!("   N  within N  at random");
        for (n, (share, chance)) in curve.within.iter().zip(&curve.chance).enumerate() {
            println!(
                "{:>4}  {:>7.1} %  {:>7.1} %",
                n + 1,
                share * 100.0,
                chance * 100.0
            );
        }
        println!(
            "   p  moves kept  nodes to depth 1..{} (every legal move: {})",
            CONTOUR_DEPTH,
            full_width(curve)
        );
        for (p, moves, nodes) in confidence_contours(curve) {
            let nodes: Vec<String> = nodes.iter().map(|n| format!("{n:.0}")).collect();
            println!("{p:>4}  {moves:>10}  {}", nodes.join(" "));
        }
    }
}

/// The confidences and depths of the contours printed (the seed's Figs. 3 and 4).
const CONFIDENCES: [f64; 4] = [0.9, 0.95, 0.99, 1.0];
const CONTOUR_DEPTH: u32 = 6;

/// Per confidence `p`: the moves of the player a search must keep at each level to consider
/// its real move with probability `p`, and the nodes it then expands to depths 1 to 6.
fn confidence_contours(curve: &TopNCurve) -> Vec<(f64, usize, Vec<f64>)> {
    CONFIDENCES
        .iter()
        .map(|&p| {
            let moves = curve.moves_for_confidence(p);
            let nodes = (1..=CONTOUR_DEPTH)
                .map(|depth| nodes_to_depth(moves as f64, depth))
                .collect();
            (p, moves, nodes)
        })
        .collect()
}

/// The nodes to the deepest contour depth when every legal move is kept (on average).
fn full_width(curve: &TopNCurve) -> String {
    format!(
        "{:.0}",
        nodes_to_depth(curve.mean_legal_moves, CONTOUR_DEPTH)
    )
}

fn tally_json(tally: &Tally) -> serde_json::Value {
    json!({
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "unfinished": tally.unfinished,
        "searched_moves": tally.searched_moves,
        "nodes": tally.nodes,
        "cpu_seconds": tally.cpu.as_secs_f64(),
    })
}

fn print_duel_json(args: &ModelArgs, roles: &[String], report: &DuelReport) {
    let pruning = report.pruning;
    let output = json!({
        "game": args.file.display().to_string(),
        "player": args.player,
        "train": args.train,
        "features": args.features.first().map_or("state", String::as_str),
        "confidence": args.confidence,
        "search_nodes": args.search_seconds.is_none().then_some(args.search_nodes),
        "search_seconds": args.search_seconds,
        "move_nodes": args.move_nodes,
        "opening_plies": args.opening_plies,
        "seats": report.seats.iter().map(|&role| roles[role].as_str()).collect::<Vec<_>>(),
        "training_decisions": report.training_decisions,
        "training_cpu_seconds": report.training_cpu.as_secs_f64(),
        "with_model": tally_json(&report.with_model),
        "without_model": tally_json(&report.without_model),
        "pruning": {
            "nodes": pruning.nodes,
            "legal": pruning.legal,
            "kept": pruning.kept,
        },
        "real_decisions": report.real_decisions,
        "real_moves_kept": report.real_moves_kept,
    });
    match serde_json::to_string_pretty(&output) {
        Ok(text) => println!("{text}"),
        Err(error) => eprintln!("ludeme model: {error}"),
    }
}

fn print_duel_human(args: &ModelArgs, roles: &[String], report: &DuelReport) {
    let matches = args.search_matches.unwrap_or(0);
    println!(
        "{}: alpha-beta with and without a model of the {} player, {matches} matches each, \
         seats {} and {} alternated, {} random opening plies",
        args.file.display(),
        args.player,
        roles[report.seats[0]],
        roles[report.seats[1]],
        args.opening_plies
    );
    println!(
        "model: {} training matches per seat ({} and {} decisions), {:.2} CPU s; confidence {}",
        args.train,
        report.training_decisions[0],
        report.training_decisions[1],
        report.training_cpu.as_secs_f64(),
        args.confidence
    );
    let budget = match args.search_seconds {
        Some(seconds) => format!("{seconds} s"),
        None => format!("{} search states", args.search_nodes),
    };
    println!(
        "budget: {budget} per move (the {} player: {})",
        args.player, args.move_nodes
    );
    println!("                 wins  draws  losses  unfinished  states/move  CPU ms/move");
    for (name, tally) in [
        ("with the model", &report.with_model),
        ("without it", &report.without_model),
    ] {
        let moves = tally.searched_moves.max(1) as f64;
        println!(
            "{name:<15} {:>5}  {:>5}  {:>6}  {:>10}  {:>11.0}  {:>11.2}",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.unfinished,
            tally.nodes as f64 / moves,
            tally.cpu.as_secs_f64() * 1000.0 / moves
        );
    }
    let pruning = report.pruning;
    if pruning.nodes > 0 {
        println!(
            "pruning: at {} nodes of the {} player, {:.2} of {:.2} legal moves kept on average",
            pruning.nodes,
            args.player,
            pruning.kept as f64 / pruning.nodes as f64,
            pruning.legal as f64 / pruning.nodes as f64
        );
    }
    if report.real_decisions > 0 {
        println!(
            "in play: the {} player's real move was among those kept at {} of its {} decisions ({:.1} %)",
            args.player,
            report.real_moves_kept,
            report.real_decisions,
            100.0 * report.real_moves_kept as f64 / report.real_decisions as f64
        );
    }
}

//! `ludeme model GAME`: how well a player's moves can be predicted (seed 002). Matches are
//! simulated with the player in its seat and random players elsewhere; a naive Bayes model
//! trained on the first `--train` matches ranks the player's legal moves in `--test` further
//! matches, and the top-N curve says how often its real move was ranked within the first N.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use ludeme_analysis::opponent_model::{
    DecisionSource, DuelReport, DuelSettings, Experiment, ExperimentSettings, FeatureSet,
    RecordedMatch, Searcher, SimulationSettings, Tally, TopNCurve, TrainingSource, nodes_to_depth,
    read_model_file, top_n_svg,
};
use ludeme_analysis::play::{MoveBudget, PLAYER_NAMES, PlayableGame};
use ludeme_analysis::{CpuDeadline, CpuInstant};
use serde_json::json;

use crate::exit;
use crate::project::{KnownGames, open_playable};

/// The options of `ludeme model`: the whole experiment (no subcommand), or a model saved by
/// `train` and measured by `eval`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct ModelArgs {
    #[command(subcommand)]
    action: Option<ModelAction>,
    #[command(flatten)]
    experiment: ExperimentArgs,
}

#[derive(clap::Subcommand, Debug)]
enum ModelAction {
    /// Train a model of a player (simulated matches, or recorded ones) and write it to a file.
    Train(TrainArgs),
    /// Measure a saved model on test matches: the top-N curve, accuracy at 1 and the
    /// confidence contours, optionally as an SVG plot.
    Eval(EvalArgs),
}

/// Who is modelled and how its matches are simulated: shared by the experiment and `train`.
#[derive(Args, Debug)]
struct PlayerArgs {
    /// The player to model: mcts, legal, random, maximizer, minimax, bounded, alphabeta,
    /// iterative.
    #[arg(long, default_value = "minimax")]
    player: String,
    /// Its role (by name); the first role a player plays by default.
    #[arg(long)]
    role: Option<String>,
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
}

#[derive(Args, Debug)]
struct ExperimentArgs {
    /// A game: GDL (.kif, .gdl, .hrf), Ludi (.ludi) or an EGGG game the EGGG engine plays.
    #[arg(required = true)]
    file: Option<PathBuf>,
    #[command(flatten)]
    player: PlayerArgs,
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
    /// The search compared with and without the model: alphabeta (the model orders and prunes
    /// the player's moves) or mcts (the tree tries only the moves --confidence keeps, biased by
    /// their probabilities; --search-nodes counts iterations).
    #[arg(long, value_enum, default_value_t = SearcherName::Alphabeta)]
    searcher: SearcherName,
    #[arg(long, value_enum, default_value_t = ModelFormat::Human)]
    format: ModelFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SearcherName {
    Alphabeta,
    Mcts,
}

impl SearcherName {
    fn searcher(self) -> Searcher {
        match self {
            SearcherName::Alphabeta => Searcher::AlphaBeta,
            SearcherName::Mcts => Searcher::Mcts,
        }
    }

    /// As the reports name it.
    fn label(self) -> &'static str {
        match self {
            SearcherName::Alphabeta => "alpha-beta",
            SearcherName::Mcts => "MCTS",
        }
    }
}

/// `ludeme model train GAME --player NAME --matches N -o model.json`.
#[derive(Args, Debug)]
struct TrainArgs {
    /// The game.
    file: PathBuf,
    #[command(flatten)]
    player: PlayerArgs,
    /// Training matches simulated with the player in its role and random players elsewhere.
    #[arg(long, default_value_t = 100, conflicts_with = "record")]
    matches: u64,
    /// Instead of simulating: train on the matches of this file of match records (`ludeme
    /// match --record`), the role's moves in them being the player's.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// The features of a state: state, state+legal or legal.
    #[arg(long, default_value = "state")]
    features: String,
    /// Features kept by chi-square selection (default: all that training saw).
    #[arg(long)]
    select: Option<usize>,
    /// Where to write the model (JSON).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
}

/// `ludeme model eval GAME model.json --matches M`.
#[derive(Args, Debug)]
struct EvalArgs {
    /// The game the model was trained on.
    file: PathBuf,
    /// The model, as `ludeme model train` wrote it.
    model: PathBuf,
    /// Test matches, simulated as training was, going on from the last training match (so
    /// that no match repeats a training one).
    #[arg(long, default_value_t = 10, conflicts_with = "record")]
    matches: u64,
    /// Instead of simulating: test on the matches of this file of match records.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// CPU seconds the simulation may take.
    #[arg(long, default_value_t = 600.0)]
    cpu_seconds: f64,
    /// Also draw the top-N curve into this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = ModelFormat::Human)]
    format: ModelFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelFormat {
    Human,
    Json,
}

pub fn run(args: &ModelArgs) -> u8 {
    match &args.action {
        Some(ModelAction::Train(train)) => run_train(train),
        Some(ModelAction::Eval(eval)) => run_eval(eval),
        None => run_experiment(&args.experiment),
    }
}

/// The error printed for `path`, and the failing exit code.
fn failure(path: &Path, message: &str) -> u8 {
    eprintln!("ludeme model: {}: {message}", path.display());
    exit::FAILURE
}

/// A CPU deadline `seconds` from now, or why `seconds` is no budget.
fn cpu_deadline(seconds: f64) -> Result<CpuDeadline, String> {
    match Duration::try_from_secs_f64(seconds) {
        Ok(budget) if !budget.is_zero() => Ok(CpuDeadline::after(budget)),
        _ => Err(format!(
            "--cpu-seconds must be a positive number, not {seconds}"
        )),
    }
}

/// The feature set `name` names, or the names there are.
fn feature_set(name: &str) -> Result<FeatureSet, String> {
    FeatureSet::from_name(name).ok_or_else(|| {
        format!(
            "no feature set is called `{name}`; they are {}",
            FeatureSet::NAMES.join(", ")
        )
    })
}

impl PlayerArgs {
    /// The player's name checked against the players there are.
    fn check_player(&self) -> Result<(), String> {
        if PLAYER_NAMES.contains(&self.player.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "no player is called `{}`; the players are {}",
                self.player,
                PLAYER_NAMES.join(", ")
            ))
        }
    }

    /// The modelled role in `game`: the one named, or the first a player plays.
    fn role_in(&self, game: &PlayableGame) -> Result<usize, String> {
        let roles = game.roles();
        match &self.role {
            Some(name) => roles.iter().position(|role| role == name).ok_or_else(|| {
                format!(
                    "the game has no role `{name}`; its roles are {}",
                    roles.join(", ")
                )
            }),
            None => (0..roles.len())
                .find(|&role| !game.is_random(role))
                .ok_or_else(|| "the game has no role for a player".to_owned()),
        }
    }

    fn simulation(&self, role: usize) -> Result<SimulationSettings, String> {
        Ok(SimulationSettings {
            move_budget: MoveBudget::nodes(self.move_nodes),
            max_plies: self.max_plies,
            deadline: Some(cpu_deadline(self.cpu_seconds)?),
            seed: self.seed,
            ..SimulationSettings::new(&self.player, role)
        })
    }
}

impl ExperimentArgs {
    /// The game's path (clap requires it when no subcommand is given).
    fn path(&self) -> &Path {
        self.file.as_deref().unwrap_or(Path::new("-"))
    }
}

fn run_experiment(args: &ExperimentArgs) -> u8 {
    let path = args.path();
    let fail = |message: String| failure(path, &message);
    if let Err(message) = args.player.check_player() {
        return fail(message);
    }
    let mut feature_sets = Vec::new();
    for name in &args.features {
        match feature_set(name) {
            Ok(set) => feature_sets.push(set),
            Err(message) => return fail(message),
        }
    }
    if feature_sets.is_empty() {
        feature_sets.push(FeatureSet::State);
    }
    if let Err(message) = cpu_deadline(args.player.cpu_seconds) {
        return fail(message);
    }
    let game = match open_playable(path, KnownGames::FromSettings) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let roles = game.roles();
    let role = match args.player.role_in(&game) {
        Ok(role) => role,
        Err(message) => return fail(message),
    };
    let simulation = match args.player.simulation(role) {
        Ok(simulation) => simulation,
        Err(message) => return fail(message),
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
            searcher: args.searcher.searcher(),
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

fn print_json(args: &ExperimentArgs, role: &str, result: &Experiment) {
    let variants: Vec<_> = result
        .variants
        .iter()
        .map(|variant| {
            json!({
                "features": variant.features.name(),
                "vocabulary": variant.vocabulary,
                "selected": variant.selected,
                "moves_seen": variant.moves_seen,
            })
        })
        .zip(&result.variants)
        .map(|(mut value, variant)| {
            if let (Some(object), serde_json::Value::Object(curve)) =
                (value.as_object_mut(), curve_json(&variant.curve))
            {
                object.extend(curve);
            }
            value
        })
        .collect();
    let report = json!({
        "game": args.path().display().to_string(),
        "player": args.player.player,
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

fn print_human(args: &ExperimentArgs, role: &str, result: &Experiment) {
    println!(
        "{}: the {} player as {role}, {} training matches ({} decisions), {} test matches",
        args.path().display(),
        args.player.player,
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
        print_curve(curve);
    }
}

/// A curve's fields in the JSON reports: its decisions, top-1, the top-N and chance shares
/// and the confidence contours.
fn curve_json(curve: &TopNCurve) -> serde_json::Value {
    json!({
        "test_decisions": curve.decisions,
        "mean_legal_moves": curve.mean_legal_moves,
        "top1": curve.top1(),
        "all_within": curve.all_within(),
        "top_n": curve.within,
        "chance": curve.chance,
        "confidence": confidence_contours(curve)
            .into_iter()
            .map(|(p, moves, nodes)| json!({
                "p": p,
                "moves": moves,
                "nodes_to_depth": nodes,
            }))
            .collect::<Vec<_>>(),
    })
}

/// A curve as the human reports print it: the top-N table beside a random ranking, then the
/// confidence contours.
fn print_curve(curve: &TopNCurve) {
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

fn print_duel_json(args: &ExperimentArgs, roles: &[String], report: &DuelReport) {
    let pruning = report.pruning;
    let output = json!({
        "game": args.path().display().to_string(),
        "player": args.player.player,
        "train": args.train,
        "features": args.features.first().map_or("state", String::as_str),
        "confidence": args.confidence,
        "search_nodes": args.search_seconds.is_none().then_some(args.search_nodes),
        "search_seconds": args.search_seconds,
        "move_nodes": args.player.move_nodes,
        "opening_plies": args.opening_plies,
        "searcher": args.searcher.label(),
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

fn print_duel_human(args: &ExperimentArgs, roles: &[String], report: &DuelReport) {
    let matches = args.search_matches.unwrap_or(0);
    println!(
        "{}: {} with and without a model of the {} player, {matches} matches each, \
         seats {} and {} alternated, {} random opening plies",
        args.path().display(),
        args.searcher.label(),
        args.player.player,
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
        args.player.player, args.player.move_nodes
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
            args.player.player,
            pruning.kept as f64 / pruning.nodes as f64,
            pruning.legal as f64 / pruning.nodes as f64
        );
    }
    if report.real_decisions > 0 {
        println!(
            "in play: the {} player's real move was among those kept at {} of its {} decisions ({:.1} %)",
            args.player.player,
            report.real_moves_kept,
            report.real_decisions,
            100.0 * report.real_moves_kept as f64 / report.real_decisions as f64
        );
    }
}

/// Reads a file of match records (`ludeme match --record`) with the match-play crate's loader.
fn read_records(record: &Path) -> Result<Vec<RecordedMatch>, String> {
    let matches = ludeme_ggp::record::load_steps(record)?;
    Ok(matches
        .into_iter()
        .map(|recorded| RecordedMatch {
            name: recorded.match_id,
            roles: recorded.roles,
            moves: recorded
                .steps
                .iter()
                .map(|step| step.moves.clone())
                .collect(),
            answered: recorded
                .steps
                .iter()
                .map(|step| step.answered.clone())
                .collect(),
            states: recorded.steps.into_iter().map(|step| step.state).collect(),
        })
        .collect())
}

fn run_train(args: &TrainArgs) -> u8 {
    let path = args.file.as_path();
    let fail = |message: String| failure(path, &message);
    let features = match feature_set(&args.features) {
        Ok(features) => features,
        Err(message) => return fail(message),
    };
    if args.record.is_none()
        && let Err(message) = args.player.check_player()
    {
        return fail(message);
    }
    let game = match open_playable(path, KnownGames::FromSettings) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let role = match args.player.role_in(&game) {
        Ok(role) => role,
        Err(message) => return fail(message),
    };
    let records;
    let (training, source) = match &args.record {
        Some(record) => {
            records = match read_records(record) {
                Ok(records) => records,
                Err(message) => return fail(message),
            };
            (
                DecisionSource::Recorded {
                    role,
                    matches: &records,
                },
                TrainingSource::Recorded {
                    file: record.display().to_string(),
                    matches: records.len(),
                },
            )
        }
        None => match args.player.simulation(role) {
            Ok(settings) => (
                DecisionSource::Simulated {
                    settings,
                    matches: 0..args.matches,
                },
                TrainingSource::Simulated {
                    player: args.player.player.clone(),
                    matches: args.matches,
                    seed: args.player.seed,
                    move_nodes: Some(args.player.move_nodes),
                    max_plies: args.player.max_plies,
                },
            ),
            Err(message) => return fail(message),
        },
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    let started = CpuInstant::now();
    let saved = match game.model_train(&name, role, &training, source, features, args.select) {
        Ok(saved) => saved,
        Err(message) => return fail(message),
    };
    let seconds = started.elapsed().as_secs_f64();
    if let Err(error) = std::fs::write(&args.output, saved.to_json()) {
        return fail(format!("cannot write {}: {error}", args.output.display()));
    }
    let kept = saved.model.selected_features().count();
    println!(
        "{}: a model of {} ({}) from {} decisions, {kept} features, {} moves; {seconds:.2} CPU s; written to {}",
        path.display(),
        saved.role,
        match &saved.source {
            TrainingSource::Simulated {
                player, matches, ..
            } => format!("the {player} player, {matches} simulated matches"),
            TrainingSource::Recorded { file, matches } => format!("{matches} matches of {file}"),
        },
        saved.training_decisions,
        saved.model.move_vocabulary(),
        args.output.display()
    );
    exit::CLEAN
}

fn run_eval(args: &EvalArgs) -> u8 {
    let path = args.file.as_path();
    let fail = |message: String| failure(path, &message);
    let deadline = match cpu_deadline(args.cpu_seconds) {
        Ok(deadline) => deadline,
        Err(message) => return fail(message),
    };
    let saved = match read_model_file(&args.model) {
        Ok(saved) => saved,
        Err(message) => return fail(format!("{}: {message}", args.model.display())),
    };
    let game = match open_playable(path, KnownGames::FromSettings) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let role = match game.model_role(&saved) {
        Ok(role) => role,
        Err(message) => return fail(format!("{}: {message}", args.model.display())),
    };
    let records;
    let tests = match &args.record {
        Some(record) => {
            records = match read_records(record) {
                Ok(records) => records,
                Err(message) => return fail(message),
            };
            DecisionSource::Recorded {
                role,
                matches: &records,
            }
        }
        None => match saved.test_simulation(role) {
            Some((settings, first)) => DecisionSource::Simulated {
                settings: SimulationSettings {
                    deadline: Some(deadline),
                    ..settings
                },
                matches: first..first + args.matches,
            },
            None => {
                return fail(format!(
                    "{} was trained on recorded matches, which cannot be simulated: give \
                     --record with the test matches",
                    args.model.display()
                ));
            }
        },
    };
    let started = CpuInstant::now();
    let curve = match game.model_evaluate(&saved, &tests) {
        Ok(curve) => curve,
        Err(message) => return fail(message),
    };
    let seconds = started.elapsed().as_secs_f64();
    let modelled = match &saved.source {
        TrainingSource::Simulated { player, .. } => format!("the {player} player"),
        TrainingSource::Recorded { file, .. } => format!("the player of {file}"),
    };
    if let Some(svg) = &args.svg {
        let title = format!(
            "{}: {modelled} as {}, features {}",
            saved.game.name,
            saved.role,
            saved.features.name()
        );
        if let Err(error) = std::fs::write(svg, top_n_svg(&curve, &title)) {
            return fail(format!("cannot write {}: {error}", svg.display()));
        }
    }
    match args.format {
        ModelFormat::Json => {
            let mut report = json!({
                "game": path.display().to_string(),
                "model": args.model.display().to_string(),
                "role": saved.role,
                "source": saved.source,
                "features": saved.features.name(),
                "training_decisions": saved.training_decisions,
                "cpu_seconds": seconds,
            });
            if let (Some(object), serde_json::Value::Object(fields)) =
                (report.as_object_mut(), curve_json(&curve))
            {
                object.extend(fields);
            }
            match serde_json::to_string_pretty(&report) {
                Ok(text) => println!("{text}"),
                Err(error) => eprintln!("ludeme model: {error}"),
            }
        }
        ModelFormat::Human => {
            println!(
                "{}: {modelled} as {}, features {}, trained on {} decisions; {} test decisions, \
                 {:.1} legal moves on average; {seconds:.2} CPU s",
                path.display(),
                saved.role,
                saved.features.name(),
                saved.training_decisions,
                curve.decisions,
                curve.mean_legal_moves
            );
            println!("accuracy at 1: {:.1} %", curve.top1() * 100.0);
            print_curve(&curve);
        }
    }
    exit::CLEAN
}

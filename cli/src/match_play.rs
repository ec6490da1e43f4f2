//! `ludeme match GAME --player URL --player URL ...`: a game manager that runs matches of a
//! GDL game between players over the GGP HTTP protocol (the `ludeme-ggp` crate's manager),
//! prints each match's goals and errors, and writes the records as JSON.
//!
//! Seats rotate: in match `m` the `i`-th player plays role `(i + m) mod roles`.
//!
//! With `--opponent-model`, the local players search with the models as `ludeme play`'s do;
//! the models are checked against the game here (a model that does not fit is refused before
//! any match), and each local player checks them again against the rules its `start` message
//! brings, as `ludeme player --opponent-model` does.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use ludeme_analysis::opponent_model::PruningCounts;
use ludeme_analysis::play::{PLAYER_NAMES, unknown_player};
use ludeme_ggp::executive::{ModelsConfig, PlayerConfig};
use ludeme_ggp::manager::{
    MAX_STEPS, MatchRecord, MatchSettings, STOPPED, run_series, summary_table,
};
use ludeme_ggp::messages::read_terms;
use ludeme_ggp::server::LocalPlayers;
use ludeme_ggp::transport::PlayerAddress;
use serde::Serialize;

use crate::exit;
use crate::interrupt;
use crate::play::{ModelArgs, ModelsReport, PlayFormat};
use crate::project::{KnownGames, open_game, playable};

/// The options of `ludeme match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// A GDL game in prefix KIF (.kif, .gdl).
    file: PathBuf,
    /// A player, once per role, in the game's role order: its URL (`http://127.0.0.1:9147`),
    /// or `local:NAME` for a player of this process (`local:mcts`, `local:random`, ...).
    #[arg(long = "player", value_name = "URL", required = true)]
    players: Vec<String>,
    /// Seconds the players have to prepare (ground the game) before the first move.
    #[arg(long, default_value_t = 10)]
    startclock: u64,
    /// Seconds per move.
    #[arg(long, default_value_t = 5)]
    playclock: u64,
    /// How many matches to run, the seats rotating between matches.
    #[arg(long, default_value_t = 1)]
    matches: u32,
    /// Write the match records here, as a JSON list in the shape of ggp.org's match archive.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Also write each match's record to its own file, `DIR/<match id>.json`, as ggp-base's
    /// server does.
    #[arg(long, value_name = "DIR")]
    record_dir: Option<PathBuf>,
    /// The random seed of the moves substituted for late or illegal answers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Abort a match that has not ended after this many steps (a timing run need not play a
    /// long game out).
    #[arg(long, default_value_t = MAX_STEPS)]
    max_steps: usize,
    /// The models are given to the local players only (`local:NAME`): a player elsewhere
    /// takes its own (`ludeme player --opponent-model`).
    #[command(flatten)]
    models: ModelArgs,
    /// `json` writes one JSON report on standard output: the match records and the models'
    /// use, instead of the lines for people.
    #[arg(long, value_enum, default_value_t = PlayFormat::Human)]
    format: PlayFormat,
}

/// `ludeme match --format json`'s report.
#[derive(Serialize)]
struct Report<'a> {
    game: String,
    /// The records, as `--record` writes them.
    matches: &'a [MatchRecord],
    /// The models the local players searched with, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    opponent_models: Option<MatchModelsReport>,
}

#[derive(Serialize)]
struct MatchModelsReport {
    #[serde(flatten)]
    models: ModelsReport,
    /// The local searching players' matches played with the models (one per such player and
    /// match; a player in the only modelled role plays as without them and is not counted).
    guided_matches: u64,
}

pub fn run(args: &MatchArgs) -> u8 {
    let path = &args.file;
    let fail = |message: String| {
        eprintln!("ludeme match: {}: {message}", path.display());
        exit::FAILURE
    };
    let json = args.format == PlayFormat::Json;
    if let Some(unknown) = args
        .players
        .iter()
        .filter_map(|player| player.strip_prefix("local:"))
        .find(|name| !PLAYER_NAMES.contains(name))
    {
        return fail(unknown_player(unknown));
    }
    let saved_models = match args.models.read() {
        Ok(saved) => saved,
        Err(message) => return fail(message),
    };
    let (analysis, file) = match open_game(path, KnownGames::FromSettings) {
        Ok(opened) => opened,
        Err(message) => return fail(message),
    };
    // The analysis says which rules a match can send (the protocol carries prefix KIF only),
    // as for the editor's matches.
    let text = match analysis.match_rules(file) {
        Ok(Ok(text)) => text,
        Ok(Err(message)) => return fail(message),
        Err(_) => return fail("cancelled".to_owned()),
    };
    let rules = match read_terms(&text) {
        Ok(rules) => rules,
        Err(error) => return fail(format!("the rules cannot be sent: {error}")),
    };
    let game = match playable(&analysis, file) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let roles = game.roles().len();
    if args.players.len() != roles {
        return fail(format!(
            "{} player(s) given; the game has {roles} role(s): {}",
            args.players.len(),
            game.roles().join(", ")
        ));
    }
    // Checked here so that a model that does not fit is refused before any match; each local
    // player makes its own from the rules its `start` message brings.
    let models = match args.models.for_game(&game, &saved_models) {
        Ok(models) => models,
        Err(message) => return fail(message),
    };
    let models_config = models.is_some().then(|| ModelsConfig {
        models: Arc::from(saved_models),
        confidence: args.models.model_confidence,
    });
    // Local players are served by this process on loopback ports, for as long as it runs.
    let local_configs = args
        .players
        .iter()
        .enumerate()
        .filter_map(|(seat, player)| Some((seat, player.strip_prefix("local:")?)))
        .map(|(seat, name)| PlayerConfig {
            name: format!("{name}{}", seat + 1),
            player: name.to_owned(),
            seed: args.seed ^ (seat as u64 + 1),
            opponent_models: models_config.clone(),
        })
        .collect();
    let local = match LocalPlayers::start(local_configs) {
        Ok(local) => local,
        Err(error) => return fail(format!("the local players could not start: {error}")),
    };
    let mut local_addresses = local.addresses().iter();
    let addresses: Vec<PlayerAddress> = match args
        .players
        .iter()
        .map(|url| match url.strip_prefix("local:") {
            Some(_) => Ok(local_addresses
                .next()
                .expect("one address per local player")
                .clone()),
            None => PlayerAddress::parse(url),
        })
        .collect()
    {
        Ok(addresses) => addresses,
        Err(error) => return fail(error.to_string()),
    };
    for (player, address) in args.players.iter().zip(&addresses) {
        if player.starts_with("local:") && !json {
            println!(
                "{player} is http://{}:{}{}",
                address.host, address.port, address.path
            );
        }
    }
    let settings = MatchSettings {
        id: format!("ludeme.{}", std::process::id()),
        start_clock: args.startclock,
        play_clock: args.playclock,
        seed: args.seed,
        max_steps: args.max_steps,
        game: path.display().to_string(),
        stop: Some(interrupt::stop_flag()),
    };
    let count = args.matches as usize;
    let print = if json {
        |_: &MatchRecord| {}
    } else {
        print_record
    };
    // The first Ctrl-C aborts the match under way (its players get `abort`) and starts no
    // other; what was played is still reported and written.
    interrupt::stop_at_first_interrupt();
    let records = run_series(&game, &rules, &addresses, &settings, count, print);
    let models_report = models.map(|models| {
        let mut pruning = PruningCounts::default();
        let mut guided_matches = 0;
        for executive in local.executives() {
            let used = executive.model_use();
            guided_matches += used.matches;
            pruning += used.pruning;
        }
        MatchModelsReport {
            models: ModelsReport::new(&game, &models, args.models.model_confidence, pruning),
            guided_matches,
        }
    });
    drop(local);
    if json {
        let report = Report {
            game: path.display().to_string(),
            matches: &records,
            opponent_models: models_report,
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&report).expect("reports serialise")
        );
    } else {
        if records.len() > 1 {
            print!("{}", summary_table(&records));
        }
        if let Some(models) = &models_report {
            println!(
                "{} ({} local match(es) with the model)",
                models.models.line(),
                models.guided_matches
            );
        }
    }
    if let Some(dir) = &args.record_dir {
        for record in &records {
            let file = dir.join(format!("{}.json", record.match_id));
            let json = serde_json::to_string_pretty(record).expect("records serialise");
            if let Err(error) =
                std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&file, json + "\n"))
            {
                eprintln!("ludeme match: {}: {error}", file.display());
                return exit::FAILURE;
            }
        }
    }
    if let Some(record_path) = &args.record {
        let json = serde_json::to_string_pretty(&records).expect("records serialise");
        if let Err(error) = std::fs::write(record_path, json + "\n") {
            eprintln!("ludeme match: {}: {error}", record_path.display());
            return exit::FAILURE;
        }
    }
    if interrupt::interrupted() {
        let last_aborted = records
            .last()
            .is_some_and(|record| record.abort_reason.as_deref() == Some(STOPPED));
        eprintln!(
            "ludeme match: stopped (Ctrl-C) after {} of {count} match(es){}; the report covers those",
            records.len(),
            if last_aborted {
                ", the last aborted"
            } else {
                ""
            }
        );
        return exit::FAILURE;
    }
    if records.iter().all(|record| record.is_completed) {
        exit::CLEAN
    } else {
        exit::PROBLEMS_FOUND
    }
}

fn print_record(record: &MatchRecord) {
    println!(
        "match {}: {} step(s), {}",
        record.match_id,
        record.moves.len(),
        match (&record.goal_values, &record.abort_reason) {
            (Some(_), _) => "ended".to_owned(),
            (None, Some(why)) => format!("aborted: {why}"),
            (None, None) => "aborted".to_owned(),
        }
    );
    for (role, name) in record.roles.iter().enumerate() {
        let goal = record
            .goal_values
            .as_ref()
            .map_or("-".to_owned(), |goals| goals[role].to_string());
        // The slowest answer to a play message, against the play clock.
        let slowest = record
            .reply_millis
            .iter()
            .filter_map(|step| step.get(role))
            .max()
            .map_or("-".to_owned(), |millis| format!("{millis} ms"));
        println!(
            "  {name:<12} {goal:>4}  slowest reply {slowest:>8}  {}",
            record.player_names_from_host[role]
        );
    }
    for (round, role, error) in record.all_errors() {
        let when = if round == 0 {
            "start".to_owned()
        } else {
            format!("step {round}")
        };
        println!("  error: {role} at {when}: {error}");
    }
}

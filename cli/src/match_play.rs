//! `ludeme match GAME --player URL --player URL ...`: a game manager that runs matches of a
//! GDL game between players over the GGP HTTP protocol (the `ludeme-ggp` crate's manager),
//! prints each match's goals and errors, and writes the records as JSON.
//!
//! Seats rotate: in match `m` the `i`-th player plays role `(i + m) mod roles`.

use std::path::PathBuf;

use clap::Args;
use ludeme_analysis::Syntax;
use ludeme_analysis::play::PLAYER_NAMES;
use ludeme_ggp::executive::PlayerConfig;
use ludeme_ggp::manager::{MAX_STEPS, MatchRecord, MatchSettings, run_series, summary_table};
use ludeme_ggp::messages::read_terms;
use ludeme_ggp::server::LocalPlayers;
use ludeme_ggp::transport::PlayerAddress;

use crate::exit;
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
}

pub fn run(args: &MatchArgs) -> u8 {
    let path = &args.file;
    let fail = |message: String| {
        eprintln!("ludeme match: {}: {message}", path.display());
        exit::FAILURE
    };
    // Local players are served by this process on loopback ports, for as long as it runs.
    let mut local_configs = Vec::new();
    for (seat, player) in args.players.iter().enumerate() {
        if let Some(name) = player.strip_prefix("local:") {
            if !PLAYER_NAMES.contains(&name) {
                return fail(format!(
                    "no player is called `{name}`; the players are {}",
                    PLAYER_NAMES.join(", ")
                ));
            }
            local_configs.push(PlayerConfig {
                name: format!("{name}{}", seat + 1),
                player: name.to_owned(),
                seed: args.seed ^ (seat as u64 + 1),
            });
        }
    }
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
        if player.starts_with("local:") {
            println!(
                "{player} is http://{}:{}{}",
                address.host, address.port, address.path
            );
        }
    }
    let (analysis, file) = match open_game(path, KnownGames::FromSettings) {
        Ok(opened) => opened,
        Err(message) => return fail(message),
    };
    if analysis.syntax(file) != Syntax::GdlKif {
        return fail("the protocol sends rules in prefix KIF: give a .kif game".to_owned());
    }
    let rules = match analysis.text(file).map(|text| read_terms(&text)) {
        Ok(Ok(rules)) => rules,
        Ok(Err(error)) => return fail(format!("the rules cannot be sent: {error}")),
        Err(_) => return fail("cancelled".to_owned()),
    };
    let game = match playable(&analysis, file) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let roles = game.roles().len();
    if addresses.len() != roles {
        return fail(format!(
            "{} player(s) given; the game has {roles} role(s): {}",
            addresses.len(),
            game.roles().join(", ")
        ));
    }
    let settings = MatchSettings {
        id: format!("ludeme.{}", std::process::id()),
        start_clock: args.startclock,
        play_clock: args.playclock,
        seed: args.seed,
        max_steps: args.max_steps,
        game: path.display().to_string(),
    };
    let count = args.matches as usize;
    let records = run_series(&game, &rules, &addresses, &settings, count, print_record);
    drop(local);
    if records.len() > 1 {
        print!("{}", summary_table(&records));
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

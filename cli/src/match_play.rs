//! `ludeme match GAME --player URL --player URL ...`: a game manager that runs matches of a
//! GDL game between players over the GGP HTTP protocol (the `ludeme-ggp` crate's manager),
//! prints each match's goals and errors, and writes the records as JSON.
//!
//! Seats rotate: in match `m` the `i`-th player plays role `(i + m) mod roles`.

use std::path::PathBuf;

use clap::Args;
use ludeme_analysis::Syntax;
use ludeme_ggp::manager::{MAX_STEPS, MatchRecord, MatchSettings, run_match};
use ludeme_ggp::messages::read_terms;
use ludeme_ggp::transport::PlayerAddress;

use crate::exit;
use crate::project::{KnownGames, open_game, playable};

/// The options of `ludeme match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// A GDL game in prefix KIF (.kif, .gdl).
    file: PathBuf,
    /// A player's URL (`http://127.0.0.1:9147`), once per role, in the game's role order.
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
    let addresses: Vec<PlayerAddress> = match args
        .players
        .iter()
        .map(|url| PlayerAddress::parse(url))
        .collect()
    {
        Ok(addresses) => addresses,
        Err(error) => return fail(error.to_string()),
    };
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
    let mut records: Vec<MatchRecord> = Vec::new();
    for number in 0..args.matches as usize {
        // Player `i` plays role `(i + number) mod roles`.
        let mut seated = addresses.clone();
        seated.rotate_right(number % roles);
        let settings = MatchSettings {
            id: format!("ludeme.{}.{number}", std::process::id()),
            start_clock: args.startclock,
            play_clock: args.playclock,
            seed: args.seed ^ ((number as u64) << 20),
            max_steps: args.max_steps,
        };
        let record = run_match(&game, &rules, &seated, &settings);
        print_record(&record);
        records.push(record);
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

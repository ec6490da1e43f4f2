//! The game manager: seed 001's match procedure over the GGP HTTP protocol. It sends `start`
//! to every player, then `play` with the last joint move until the game is over, then `stop`;
//! it sends `abort` when the match cannot go on.
//!
//! Nothing a player does stops the manager: every request has a timeout (the clock plus
//! [`MANAGER_GRACE`]); a late, illegal or unreadable answer is replaced by a random legal move
//! and recorded as that player's error at that step; a player that is gone (its connection
//! refused or broken) ends the match with `abort`, as the protocol says for an abnormal end.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ludeme_analysis::play::{MoveBudget, PlayableGame, Position, Reward, Turn};
use serde::{Deserialize, Serialize};

use crate::clocks::{MANAGER_GRACE, seconds};
use crate::messages::{Request, Term, read_move, read_terms};
use crate::transport::{PlayerAddress, TransportError, post};

/// The steps after which a match that has not ended is aborted: far beyond real games.
pub const MAX_STEPS: usize = 10_000;

/// How to run a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub id: String,
    /// Seconds, as the protocol sends them.
    pub start_clock: u64,
    pub play_clock: u64,
    /// The seed of the random moves substituted for bad answers.
    pub seed: u64,
    /// The steps after which the match is aborted if it has not ended (at most
    /// [`MAX_STEPS`]): a timing run or a smoke test need not play a long game out.
    pub max_steps: usize,
    /// The game, as the record names it (its file).
    pub game: String,
    /// Raised to stop the series (Ctrl-C, an editor's cancelled request): the match under way
    /// is aborted before its next step, with `abort` sent to its players as the protocol asks,
    /// and no further match starts. A step already sent is waited for (at most its clock).
    pub stop: Option<Arc<AtomicBool>>,
}

/// Why a match stopped by [`MatchSettings::stop`] was aborted.
pub const STOPPED: &str = "stopped before the end";

impl MatchSettings {
    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }
}

/// A match as ggp.org's match archive writes one (its field names), with the game, the states
/// and the reason of an abort. [`crate::record`] describes the format and reads it back.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchRecord {
    pub match_id: String,
    /// The game's file, as given to the manager.
    #[serde(default)]
    pub game: String,
    pub roles: Vec<String>,
    /// The player of each role, by role: its URL.
    pub player_names_from_host: Vec<String>,
    pub start_clock: u64,
    pub play_clock: u64,
    /// The joint moves, one list per step, one move per role.
    pub moves: Vec<Vec<String>>,
    /// The states: the initial one, then the one after each step of `moves` (one more than
    /// `moves`, or as many when the match was aborted while a step's state was worked out).
    /// A state is what holds in it, sorted: a GDL game's fluents in KIF, `(cell 1 1 x)`.
    #[serde(default)]
    pub states: Vec<Vec<String>>,
    /// One list per message round, one entry per role (empty when none): the `start` round
    /// first, then one per step of `moves`.
    pub errors: Vec<Vec<String>>,
    /// How long each player took to answer each `play` message, in milliseconds from sending
    /// it to the whole reply (the manager's wall clock, the network included): one list per
    /// step, one entry per role. Not in ggp.org's archive; kept to show the clocks were met.
    #[serde(default)]
    pub reply_millis: Vec<Vec<u64>>,
    /// The goals by role, when the game ended.
    pub goal_values: Option<Vec<Reward>>,
    pub is_completed: bool,
    pub is_aborted: bool,
    /// Why the match was aborted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abort_reason: Option<String>,
}

impl MatchRecord {
    /// The errors of the match, as (round, role, error).
    pub fn all_errors(&self) -> impl Iterator<Item = (usize, &str, &str)> {
        self.errors
            .iter()
            .enumerate()
            .flat_map(move |(round, errors)| {
                errors
                    .iter()
                    .enumerate()
                    .filter(|(_, error)| !error.is_empty())
                    .map(move |(role, error)| (round, self.roles[role].as_str(), error.as_str()))
            })
    }
}

/// Runs one match of `game` (whose rules, as sent to the players, are `rules`) between
/// `players`, one per role in the game's order.
pub fn run_match(
    game: &PlayableGame,
    rules: &[Term],
    players: &[PlayerAddress],
    settings: &MatchSettings,
) -> MatchRecord {
    let roles = game.roles().to_vec();
    let mut record = MatchRecord {
        match_id: settings.id.clone(),
        game: settings.game.clone(),
        roles: roles.clone(),
        player_names_from_host: players
            .iter()
            .map(|p| format!("http://{}:{}{}", p.host, p.port, p.path))
            .collect(),
        start_clock: settings.start_clock,
        play_clock: settings.play_clock,
        moves: Vec::new(),
        states: Vec::new(),
        errors: Vec::new(),
        reply_millis: Vec::new(),
        goal_values: None,
        is_completed: false,
        is_aborted: false,
        abort_reason: None,
    };
    if players.len() != roles.len() {
        record.is_aborted = true;
        record.abort_reason = Some(format!(
            "{} player(s) for {} role(s)",
            players.len(),
            roles.len()
        ));
        return record;
    }
    let play_wait = seconds(settings.play_clock) + MANAGER_GRACE;

    // Start.
    let starts: Vec<String> = roles
        .iter()
        .map(|role| {
            Request::Start {
                id: settings.id.clone(),
                role: role.clone(),
                rules: rules.to_vec(),
                start_clock: settings.start_clock,
                play_clock: settings.play_clock,
            }
            .to_string()
        })
        .collect();
    let (replies, _) = post_all(
        players,
        &starts,
        seconds(settings.start_clock) + MANAGER_GRACE,
    );
    let mut errors = vec![String::new(); roles.len()];
    for (role, reply) in replies.iter().enumerate() {
        match reply {
            Ok(text) if text.trim().eq_ignore_ascii_case("ready") => {}
            Ok(text) => errors[role] = format!("start: answered `{}`", text.trim()),
            Err(error) => errors[role] = format!("start: {error}"),
        }
    }
    record.errors.push(errors);
    if let Some(gone) = gone_player(&replies) {
        abort(&mut record, players, &settings.id, play_wait, &roles[gone]);
        return record;
    }

    let mut plies: Vec<String> = Vec::new();
    let mut last_moves: Option<Vec<Term>> = None;
    let mut position = match game.position_after(&plies) {
        Ok(position) => position,
        Err(error) => return aborted(record, players, settings, error.to_string()),
    };
    record.states.push(game.atoms(&position));
    loop {
        let legal = match game.turn(&position) {
            Turn::Over { goals } => {
                let stop = Request::Stop {
                    id: settings.id.clone(),
                    moves: last_moves,
                }
                .to_string();
                // Replies to stop are optional; whatever comes back is not waited for long.
                post_all(players, &vec![stop; players.len()], play_wait);
                record.goal_values = Some(goals);
                record.is_completed = true;
                return record;
            }
            Turn::Stuck(why) => return aborted(record, players, settings, why),
            turn => match legal_names(game, &position, &turn) {
                Ok(legal) => legal,
                Err(why) => return aborted(record, players, settings, why),
            },
        };
        let max_steps = settings.max_steps.min(MAX_STEPS);
        if record.moves.len() >= max_steps {
            let why = format!("no end after {max_steps} steps");
            return aborted(record, players, settings, why);
        }
        if settings.stopped() {
            return aborted(record, players, settings, STOPPED.to_owned());
        }
        let play = Request::Play {
            id: settings.id.clone(),
            moves: last_moves.take(),
        }
        .to_string();
        let (replies, took) = post_all(players, &vec![play; players.len()], play_wait);
        record
            .reply_millis
            .push(took.iter().map(|took| took.as_millis() as u64).collect());
        if let Some(gone) = gone_player(&replies) {
            record.errors.push(step_errors(&replies));
            abort(&mut record, players, &settings.id, play_wait, &roles[gone]);
            return record;
        }
        let mut errors = vec![String::new(); roles.len()];
        let mut joint = Vec::with_capacity(roles.len());
        for (role, reply) in replies.iter().enumerate() {
            let answer = match reply {
                Ok(text) => match read_move(text) {
                    Some(answer) => match find_legal(&legal[role], &answer) {
                        Some(name) => Ok(name.clone()),
                        None => Err(format!("illegal move `{answer}`")),
                    },
                    None => Err(format!("not a move: `{}`", shortened(text))),
                },
                Err(error) => Err(error.to_string()),
            };
            let name = match answer {
                Ok(name) => name,
                Err(error) => {
                    errors[role] = error;
                    let seed = settings.seed ^ ((record.moves.len() as u64) << 8) ^ role as u64;
                    match game.choose_move(
                        &position,
                        role,
                        "random",
                        &MoveBudget::unlimited(),
                        seed,
                    ) {
                        Ok(name) => name,
                        Err(why) => return aborted(record, players, settings, why),
                    }
                }
            };
            joint.push(name);
        }
        record.errors.push(errors);
        plies.push(joint.join(" & "));
        let terms: Result<Vec<Term>, _> = joint
            .iter()
            .map(|name| read_terms(name).map(|mut terms| terms.remove(0)))
            .collect();
        record.moves.push(joint);
        last_moves = match terms {
            Ok(terms) => Some(terms),
            Err(error) => return aborted(record, players, settings, error.to_string()),
        };
        position =
            match game.position_after_from(&position, plies.len() - 1, &plies[plies.len() - 1..]) {
                Ok(position) => position,
                Err(error) => return aborted(record, players, settings, error.to_string()),
            };
        record.states.push(game.atoms(&position));
    }
}

/// Each role's legal moves, by name, in a position where the game goes on.
fn legal_names(
    game: &PlayableGame,
    position: &Position,
    turn: &Turn,
) -> Result<Vec<Vec<String>>, String> {
    let roles = game.roles().len();
    match turn {
        Turn::Forced { ply } => Ok(ply.split(" & ").map(|name| vec![name.to_owned()]).collect()),
        Turn::Choose(choices) => (0..roles)
            .map(
                |role| match choices.iter().find(|choice| choice.role == role) {
                    Some(choice) => Ok(choice.moves.iter().map(|m| m.name.clone()).collect()),
                    // A role without a choice: its only move.
                    None => game
                        .choose_move(position, role, "legal", &MoveBudget::unlimited(), 0)
                        .map(|only| vec![only]),
                },
            )
            .collect(),
        Turn::Over { .. } | Turn::Stuck(_) => Err("the game does not go on".to_owned()),
    }
}

/// The legal move `answer` names (both read as KIF terms; case does not matter).
fn find_legal<'a>(legal: &'a [String], answer: &str) -> Option<&'a String> {
    legal.iter().find(|name| {
        read_move(name).is_some_and(|canonical| canonical.eq_ignore_ascii_case(answer))
    })
}

fn shortened(text: &str) -> String {
    const SHOWN: usize = 80;
    let text = text.trim();
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

fn step_errors(replies: &[Result<String, TransportError>]) -> Vec<String> {
    replies
        .iter()
        .map(|reply| match reply {
            Ok(_) => String::new(),
            Err(error) => error.to_string(),
        })
        .collect()
}

fn gone_player(replies: &[Result<String, TransportError>]) -> Option<usize> {
    replies
        .iter()
        .position(|reply| reply.as_ref().is_err_and(TransportError::player_is_gone))
}

fn aborted(
    mut record: MatchRecord,
    players: &[PlayerAddress],
    settings: &MatchSettings,
    why: String,
) -> MatchRecord {
    let wait = seconds(settings.play_clock) + MANAGER_GRACE;
    send_abort(players, &settings.id, wait);
    record.is_aborted = true;
    record.abort_reason = Some(why);
    record
}

fn abort(
    record: &mut MatchRecord,
    players: &[PlayerAddress],
    id: &str,
    wait: Duration,
    gone_role: &str,
) {
    send_abort(players, id, wait);
    record.is_aborted = true;
    record.abort_reason = Some(format!("the player of {gone_role} is gone"));
}

fn send_abort(players: &[PlayerAddress], id: &str, wait: Duration) {
    let abort = Request::Abort { id: id.to_owned() }.to_string();
    // Replies to abort are optional.
    post_all(players, &vec![abort; players.len()], wait);
}

/// Posts `messages[i]` to `players[i]`, all at once, each within `wait`; the replies, and how
/// long each took.
fn post_all(
    players: &[PlayerAddress],
    messages: &[String],
    wait: Duration,
) -> (Vec<Result<String, TransportError>>, Vec<Duration>) {
    std::thread::scope(|scope| {
        let sent: Vec<_> = players
            .iter()
            .zip(messages)
            .map(|(player, message)| {
                scope.spawn(move || {
                    let sent_at = Instant::now();
                    (post(player, message, wait), sent_at.elapsed())
                })
            })
            .collect();
        sent.into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| {
                    let failed = TransportError::BadReply("client failed".to_owned());
                    (Err(failed), wait)
                })
            })
            .unzip()
    })
}

/// A series of `count` matches between `players` (one per role), the seats rotating: in match
/// `m` the `i`-th player plays role `(i + m) mod roles`. Each match's id is `id_prefix.m`, its
/// seed drawn from `settings.seed`; `each` sees every record as it is done. Raising
/// [`MatchSettings::stop`] ends the series early: the records of the matches played so far.
pub fn run_series(
    game: &PlayableGame,
    rules: &[Term],
    players: &[PlayerAddress],
    settings: &MatchSettings,
    count: usize,
    mut each: impl FnMut(&MatchRecord),
) -> Vec<MatchRecord> {
    let roles = game.roles().len().max(1);
    (0..count)
        .take_while(|_| !settings.stopped())
        .map(|number| {
            let mut seated = players.to_vec();
            seated.rotate_right(number % roles);
            let settings = MatchSettings {
                id: format!("{}.{number}", settings.id),
                seed: settings.seed ^ ((number as u64) << 20),
                ..settings.clone()
            };
            let record = run_match(game, rules, &seated, &settings);
            each(&record);
            record
        })
        .collect()
}

/// The summary of a series, one line per player (by its URL): matches, wins (the highest goal
/// of a completed match, alone), draws (the highest, shared), average goal over completed
/// matches, errors, aborted matches.
pub fn summary_table(records: &[MatchRecord]) -> String {
    #[derive(Default)]
    struct Tally {
        matches: usize,
        completed: usize,
        wins: usize,
        draws: usize,
        goals: u64,
        errors: usize,
        aborted: usize,
    }
    let mut tallies: Vec<(String, Tally)> = Vec::new();
    for record in records {
        for (role, player) in record.player_names_from_host.iter().enumerate() {
            let index = match tallies.iter().position(|(name, _)| name == player) {
                Some(index) => index,
                None => {
                    tallies.push((player.clone(), Tally::default()));
                    tallies.len() - 1
                }
            };
            let tally = &mut tallies[index].1;
            tally.matches += 1;
            tally.errors += record
                .errors
                .iter()
                .filter(|round| round.get(role).is_some_and(|error| !error.is_empty()))
                .count();
            if record.is_aborted {
                tally.aborted += 1;
            }
            if let Some(goals) = &record.goal_values {
                let goal = goals.get(role).copied().unwrap_or(0);
                let best = goals.iter().copied().max().unwrap_or(0);
                let sharing = goals.iter().filter(|&&other| other == best).count();
                tally.completed += 1;
                tally.goals += u64::from(goal);
                if goal == best && sharing == 1 {
                    tally.wins += 1;
                } else if goal == best {
                    tally.draws += 1;
                }
            }
        }
    }
    let mut table = String::from(
        "| player | matches | won | drawn | average goal | errors | aborted |\n|---|---|---|---|---|---|---|\n",
    );
    for (player, tally) in &tallies {
        let average = if tally.completed == 0 {
            "-".to_owned()
        } else {
            format!("{:.1}", tally.goals as f64 / tally.completed as f64)
        };
        table.push_str(&format!(
            "| {player} | {} | {} | {} | {average} | {} | {} |\n",
            tally.matches, tally.wins, tally.draws, tally.errors, tally.aborted
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ludeme_analysis::Syntax;

    use super::*;
    use crate::executive::{PlayerConfig, RulesSource, build_game};
    use crate::record::{load_steps, steps_of};
    use crate::server::LocalPlayers;

    const TIC_TAC_TOE: &str = include_str!("../../corpus/gdl/ticTacToe.kif");

    fn random_player(seed: u64) -> PlayerConfig {
        PlayerConfig {
            name: format!("random{seed}"),
            player: "random".to_owned(),
            seed,
            opponent_models: None,
        }
    }

    /// Tic-tac-toe, its rules as sent, and two random players on loopback ports.
    fn tic_tac_toe_between_random_players() -> (PlayableGame, Vec<Term>, LocalPlayers) {
        let rules = RulesSource {
            syntax: Syntax::GdlKif,
            text: TIC_TAC_TOE.to_owned(),
        };
        let game = build_game(&rules, Duration::from_secs(10), false).expect("the game builds");
        let terms = read_terms(TIC_TAC_TOE).expect("the rules read");
        let local = LocalPlayers::start(vec![random_player(1), random_player(2)]).expect("players");
        (game, terms, local)
    }

    #[test]
    fn a_raised_stop_aborts_the_match_under_way_and_starts_no_other() {
        let (game, terms, local) = tic_tac_toe_between_random_players();
        let stop = Arc::new(AtomicBool::new(false));
        let settings = MatchSettings {
            id: "stop-test".to_owned(),
            start_clock: 2,
            play_clock: 1,
            seed: 5,
            max_steps: MAX_STEPS,
            game: "ticTacToe.kif".to_owned(),
            stop: Some(Arc::clone(&stop)),
        };
        // Raised after the second match: the series of ten ends there.
        let mut seen = 0;
        let records = run_series(&game, &terms, local.addresses(), &settings, 10, |_| {
            seen += 1;
            if seen == 2 {
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert_eq!(records.len(), 2);
        assert!(records.iter().all(|record| record.is_completed));
        // Raised before a match: it is started, then aborted before its first step.
        let record = run_match(&game, &terms, local.addresses(), &settings);
        assert!(record.is_aborted && !record.is_completed);
        assert_eq!(record.abort_reason.as_deref(), Some(STOPPED));
        assert!(record.moves.is_empty());
        // The players were told: they take a new match at once.
        stop.store(false, Ordering::Relaxed);
        let record = run_match(&game, &terms, local.addresses(), &settings);
        assert!(record.is_completed, "{:?}", record.abort_reason);
    }

    #[test]
    fn a_record_holds_the_state_before_each_joint_move_and_loads_back_as_steps() {
        let (game, terms, local) = tic_tac_toe_between_random_players();
        let settings = MatchSettings {
            id: "record-test".to_owned(),
            start_clock: 2,
            play_clock: 1,
            seed: 5,
            max_steps: MAX_STEPS,
            game: "ticTacToe.kif".to_owned(),
            stop: None,
        };
        let records = run_series(&game, &terms, local.addresses(), &settings, 2, |_| {});
        for record in &records {
            assert!(record.is_completed, "{:?}", record.abort_reason);
            assert_eq!(record.game, "ticTacToe.kif");
            assert_eq!(record.states.len(), record.moves.len() + 1);
            // The start: every cell blank, xplayer in control.
            assert!(record.states[0].contains(&"(cell 1 1 b)".to_owned()));
            assert!(record.states[0].contains(&"(control xplayer)".to_owned()));
            // Each mark made is in the state after its step, with its mark.
            for (step, joint) in record.moves.iter().enumerate() {
                for (role, action) in joint.iter().enumerate() {
                    let Some(cell) = action.strip_prefix("(mark ") else {
                        assert_eq!(action, "noop");
                        continue;
                    };
                    let mark = if role == 0 { "x" } else { "o" };
                    let fluent = format!("(cell {} {mark})", cell.trim_end_matches(')'));
                    assert!(!record.states[step].contains(&fluent));
                    assert!(record.states[step + 1].contains(&fluent), "{fluent}");
                }
            }
        }
        // Written as `--record` writes them, the records load back as (state, moves) steps.
        let file = std::env::temp_dir().join(format!("ludeme-records-{}.json", std::process::id()));
        std::fs::write(&file, serde_json::to_string(&records).unwrap()).unwrap();
        let loaded = load_steps(&file).expect("the records load");
        std::fs::remove_file(&file).ok();
        assert_eq!(loaded.len(), 2);
        for (record, steps) in records.iter().zip(&loaded) {
            assert_eq!(steps.steps.len(), record.moves.len());
            for (index, step) in steps.steps.iter().enumerate() {
                assert_eq!(step.state, record.states[index]);
                assert_eq!(step.moves, record.moves[index]);
                assert_eq!(
                    step.answered,
                    vec![true, true],
                    "random players answer in time"
                );
            }
            assert_eq!(&steps.final_state, record.states.last().unwrap());
            assert_eq!(steps.goals, record.goal_values);
        }
        // A record without its states cannot be read as steps, and says why.
        let mut stateless = records[0].clone();
        stateless.states.clear();
        let refused = steps_of(&stateless).unwrap_err();
        assert!(refused.contains("0 state(s)"), "{refused}");
    }
}

//! The game manager: seed 001's match procedure over the GGP HTTP protocol. It sends `start`
//! to every player, then `play` with the last joint move until the game is over, then `stop`;
//! it sends `abort` when the match cannot go on.
//!
//! Nothing a player does stops the manager: every request has a timeout (the clock plus
//! [`MANAGER_GRACE`]); a late, illegal or unreadable answer is replaced by a random legal move
//! and recorded as that player's error at that step; a player that is gone (its connection
//! refused or broken) ends the match with `abort`, as the protocol says for an abnormal end.

use std::time::{Duration, Instant};

use ludeme_analysis::play::{MoveBudget, PlayableGame, Position, Reward, Turn};
use serde::Serialize;

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
}

/// A match as ggp.org's match archive writes one (its field names), with the reason of an
/// abort.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchRecord {
    pub match_id: String,
    pub roles: Vec<String>,
    /// The player of each role, by role: its URL.
    pub player_names_from_host: Vec<String>,
    pub start_clock: u64,
    pub play_clock: u64,
    /// The joint moves, one list per step, one move per role.
    pub moves: Vec<Vec<String>>,
    /// One list per message round, one entry per role (empty when none): the `start` round
    /// first, then one per step of `moves`.
    pub errors: Vec<Vec<String>>,
    /// How long each player took to answer each `play` message, in milliseconds from sending
    /// it to the whole reply (the manager's wall clock, the network included): one list per
    /// step, one entry per role. Not in ggp.org's archive; kept to show the clocks were met.
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
        roles: roles.clone(),
        player_names_from_host: players
            .iter()
            .map(|p| format!("http://{}:{}{}", p.host, p.port, p.path))
            .collect(),
        start_clock: settings.start_clock,
        play_clock: settings.play_clock,
        moves: Vec::new(),
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
        position = match game.position_after(&plies) {
            Ok(position) => position,
            Err(error) => return aborted(record, players, settings, error.to_string()),
        };
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

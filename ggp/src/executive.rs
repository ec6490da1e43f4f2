//! The player's executive (seed 003's architecture): it keeps the matches a player is in and
//! calls the handlers `start`, `play`, `stop` and `abort` for the messages that come in.
//!
//! The code base of seed 001 is the engines' one `Game` interface, reached through
//! [`PlayableGame`]: `findroles` is [`PlayableGame::roles`], `findinits` the start of
//! [`PlayableGame::position_after`], `simulate` its replay of the joint moves, `findlegals`,
//! `findterminalp` and `findreward` are [`PlayableGame::turn`] (the moves of the roles with a
//! choice, or the goals of a terminal position), and the players (legal, random, ..., MCTS)
//! are [`PlayableGame::choose_move`].
//!
//! A move is always ready: before searching, the player takes the legal player's move, and
//! answers with it when the search has not finished by [`answer_by`] of the play clock.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ludeme_analysis::play::{EngineOptions, MoveBudget, PlayableGame, Position, RoleIndex, Turn};
use ludeme_analysis::{AnalysisHost, Change, CpuDeadline, Syntax};

use crate::clocks::{answer_by, interpreter_by, seconds, thinking_time};
use crate::gamemaster::{GamemasterRequest, Step, infix_action};
use crate::messages::{Request, Term, rules_text};

/// Who the player is.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The name `(info)` answers with.
    pub name: String,
    /// The player that chooses moves: one of `ludeme_analysis::play::PLAYER_NAMES`.
    pub player: String,
    /// The seed of the random and MCTS players.
    pub seed: u64,
}

/// One match the player is in.
struct Session {
    /// The engines keep scratch space per game, so one thread at a time uses it.
    game: Arc<Mutex<PlayableGame>>,
    role: RoleIndex,
    /// The number of roles, kept so that checking a joint move never waits for the game,
    /// which a search may hold.
    roles: usize,
    /// The joint moves so far, written as `PlayableGame::position_after` reads them.
    plies: Vec<String>,
    /// The position after the first `.0` of `plies`, the last one a move was chosen in: the
    /// next message goes on from it (replaying a long match on the interpreter at every
    /// message could take the whole play clock).
    reached: Option<(usize, Position)>,
    play_clock: Duration,
}

/// The reply to a message, or why the message is refused (the HTTP layer answers the
/// refusal with a client error and the reason).
pub type Reply = Result<String, String>;

/// The move a player answers a `play` message with.
struct Answer {
    /// The move, named as the engines name it (KIF for a GDL game).
    chosen: String,
    /// Whether the player's role had a choice to make (or nobody had one): a role that waits
    /// while others choose is not in control, and a Gamemaster player need not reply.
    in_control: bool,
}

/// Rules as a message carries them: their syntax and text.
struct RulesSource {
    syntax: Syntax,
    text: String,
}

/// The matches of a player and its handlers.
pub struct Executive {
    config: PlayerConfig,
    matches: Mutex<HashMap<String, Session>>,
}

impl Executive {
    pub fn new(config: PlayerConfig) -> Arc<Executive> {
        Arc::new(Executive {
            config,
            matches: Mutex::new(HashMap::new()),
        })
    }

    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// The number of matches the player is in.
    pub fn match_count(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        // A handler that panicked left the map whole (every change is one insert or remove).
        self.matches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Answers one message.
    pub async fn handle(self: &Arc<Self>, request: Request) -> Reply {
        match request {
            Request::Info => Ok(format!(
                "((name {}) (status available))",
                protocol_symbol(&self.config.name)
            )),
            Request::Preview { .. } => Ok("ready".to_owned()),
            Request::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => {
                let rules = RulesSource {
                    syntax: Syntax::GdlKif,
                    text: rules_text(&rules),
                };
                self.start(id, role, rules, seconds(start_clock), seconds(play_clock))
                    .await
            }
            Request::Play { id, moves } => {
                let step = moves.map_or(Step::First, Step::Joint);
                self.play(&id, step, false)
                    .await
                    .map(|answer| answer.chosen)
            }
            Request::Stop { id, .. } | Request::Abort { id } => self.end(&id),
        }
    }

    /// Answers one message of the Gamemaster form: the same handlers, with the rules in infix
    /// GDL, actions written as infix terms, and no reply from a player not in control.
    pub async fn handle_gamemaster(self: &Arc<Self>, request: GamemasterRequest) -> Reply {
        match request {
            // The player takes part in any number of matches at once: never busy.
            GamemasterRequest::Ping => Ok("ready".to_owned()),
            GamemasterRequest::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => {
                let rules = RulesSource {
                    syntax: Syntax::GdlInfix,
                    text: rules,
                };
                self.start(id, role, rules, seconds(start_clock), seconds(play_clock))
                    .await
            }
            GamemasterRequest::Play { id, step } => {
                let answer = self.play(&id, step, true).await?;
                if !answer.in_control {
                    return Ok(String::new());
                }
                // The engines name a GDL move in KIF; the Gamemaster writes it infix.
                Ok(crate::messages::read_terms(&answer.chosen)
                    .ok()
                    .and_then(|terms| terms.first().map(infix_action))
                    .unwrap_or(answer.chosen))
            }
            GamemasterRequest::Stop { id, .. } | GamemasterRequest::Abort { id } => self.end(&id),
        }
    }

    /// `stop` and `abort`: the match is forgotten (the reply is optional; `done` says so).
    fn end(&self, id: &str) -> Reply {
        self.lock().remove(id);
        Ok("done".to_owned())
    }

    async fn start(
        self: &Arc<Self>,
        id: String,
        role: String,
        rules: RulesSource,
        start_clock: Duration,
        play_clock: Duration,
    ) -> Reply {
        if self.lock().contains_key(&id) {
            return Err(format!("match `{id}` has already started"));
        }
        let answer_deadline = tokio::time::Instant::now() + answer_by(start_clock);
        let grounding = thinking_time(start_clock);
        let rules = Arc::new(rules);
        let grounded = {
            let rules = rules.clone();
            tokio::task::spawn_blocking(move || build_game(&rules, grounding, false))
        };
        // Grounding stops at its CPU deadline, but on a loaded machine CPU time lags the wall
        // clock: when grounding is not done by `interpreter_by`, the interpreter, which grounds
        // nothing, is built instead (the grounding left behind stops at its deadline).
        let game = match tokio::time::timeout(interpreter_by(start_clock), grounded).await {
            Ok(Ok(game)) => game?,
            Ok(Err(_)) => return Err("building the game failed".to_owned()),
            Err(_) => {
                let interpreted =
                    tokio::task::spawn_blocking(move || build_game(&rules, grounding, true));
                match tokio::time::timeout_at(answer_deadline, interpreted).await {
                    Ok(Ok(game)) => game?,
                    Ok(Err(_)) => return Err("building the game failed".to_owned()),
                    Err(_) => {
                        return Err("the game could not be built within the start clock".to_owned());
                    }
                }
            }
        };
        let Some(role) = game
            .roles()
            .iter()
            .position(|name| name.eq_ignore_ascii_case(&role))
        else {
            return Err(format!(
                "`{role}` is no role of the game (its roles: {})",
                game.roles().join(", ")
            ));
        };
        self.lock().insert(
            id,
            Session {
                roles: game.roles().len(),
                game: Arc::new(Mutex::new(game)),
                role,
                plies: Vec::new(),
                reached: None,
                play_clock,
            },
        );
        Ok("ready".to_owned())
    }

    /// `play`: the step before is played, then a move is chosen within the play clock;
    /// `ask_control` works out whether the role is in control too.
    async fn play(
        self: &Arc<Self>,
        id: &str,
        step: Step,
        ask_control: bool,
    ) -> Result<Answer, String> {
        let pushed_ply = step != Step::First;
        let (game, role, plies, reached, play_clock) = {
            let mut matches = self.lock();
            let Some(session) = matches.get_mut(id) else {
                return Err(format!("no match `{id}` has started"));
            };
            match step {
                Step::First => {}
                // A role with a single legal move plays it unnamed (`position_after`).
                Step::Action(action) => session.plies.push(action.to_string()),
                Step::Joint(moves) => {
                    let roles = session.roles;
                    if moves.len() != roles {
                        return Err(format!(
                            "{} move(s) given; the game has {roles} role(s)",
                            moves.len()
                        ));
                    }
                    session.plies.push(joint_ply(&moves));
                }
            }
            // A position reached is used only while its plies are still the match's first.
            let reached = session
                .reached
                .clone()
                .filter(|(played, _)| *played <= session.plies.len());
            (
                session.game.clone(),
                session.role,
                session.plies.clone(),
                reached,
                session.play_clock,
            )
        };
        // The clock runs from the message's arrival, not from the search's start: replaying the
        // match and finding the ready move come out of the same play clock.
        let arrived = tokio::time::Instant::now();
        let think_until = arrived.into_std() + thinking_time(play_clock);
        let player = self.config.player.clone();
        let seed = self.config.seed ^ plies.len() as u64;
        let (ready_sender, ready) = tokio::sync::oneshot::channel();
        let executive = Arc::clone(self);
        let match_id = id.to_owned();
        let search = tokio::task::spawn_blocking(move || {
            let game = lock_game(&game);
            let position = match &reached {
                Some((played, from)) => game.position_after_from(from, *played, &plies[*played..]),
                None => game.position_after(&plies),
            }
            .map_err(|error| error.to_string())?;
            if let Some(session) = executive.lock().get_mut(&match_id) {
                session.reached = Some((plies.len(), position.clone()));
            }
            let legal = game
                .choose_move(&position, role, "legal", &MoveBudget::unlimited(), seed)
                .map_err(|why| format!("no move to make: {why}"))?;
            let in_control = !ask_control
                || !matches!(game.turn(&position),
                    Turn::Choose(choices) if choices.iter().all(|choice| choice.role != role));
            let ready = Answer {
                chosen: legal,
                in_control,
            };
            // The answer kept ready; if nobody waits for it any more, the search is moot.
            if ready_sender.send(ready).is_err() {
                return Err("the message was answered already".to_owned());
            }
            let thinking = think_until.saturating_duration_since(std::time::Instant::now());
            if thinking.is_zero() {
                return Err("no time left to search".to_owned());
            }
            let budget = MoveBudget::time(thinking);
            game.choose_move(&position, role, &player, &budget, seed)
                .map(|chosen| Answer { chosen, in_control })
        });
        let answer_deadline = arrived + answer_by(play_clock);
        let Ok(Ok(ready)) = tokio::time::timeout_at(answer_deadline, ready).await else {
            // No legal move came: the replay failed (the search says why) or took the clock.
            return match tokio::time::timeout_at(answer_deadline, search).await {
                Ok(Ok(Err(why))) => {
                    // The moves given were not legal: the match stays where it was.
                    if pushed_ply && let Some(session) = self.lock().get_mut(id) {
                        session.plies.pop();
                        // The position reached may be past the ply taken back: replay next time.
                        session.reached = None;
                    }
                    Err(why)
                }
                _ => Err("no legal move could be found within the play clock".to_owned()),
            };
        };
        match tokio::time::timeout_at(answer_deadline, search).await {
            Ok(Ok(Ok(chosen))) => Ok(chosen),
            // Out of time, or the search failed: the move kept ready is legal.
            _ => Ok(ready),
        }
    }
}

fn lock_game(game: &Mutex<PlayableGame>) -> std::sync::MutexGuard<'_, PlayableGame> {
    // A panic in an engine leaves no half-made change behind: the game is only read.
    game.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The game of `rules`, grounded within `grounding` of CPU time (the interpreter takes over
/// when grounding does not fit, or at once with `interpreter`), through the analysis facade
/// like every other front end.
///
/// The interpreter's CPU deadline covers its whole life, so a game that ends up on the
/// interpreter is built again without one: the start clock must not end its questions.
fn build_game(
    rules: &RulesSource,
    grounding: Duration,
    interpreter: bool,
) -> Result<PlayableGame, String> {
    let key = PathBuf::from(match rules.syntax {
        Syntax::GdlInfix => "match.hrf",
        _ => "match.kif",
    });
    let mut host = AnalysisHost::new();
    let mut change = Change::new();
    change.set_file(key.clone(), rules.syntax, rules.text.as_str().into(), None);
    host.apply_change(change);
    let file = host
        .file(&key)
        .ok_or_else(|| "the rules could not be loaded".to_owned())?;
    let build = |options: &EngineOptions| {
        host.snapshot()
            .playable(file, options)
            .map_err(|_| "building the game was cancelled".to_owned())?
    };
    let interpreted = EngineOptions {
        deadline: None,
        interpreter: true,
    };
    if interpreter {
        return build(&interpreted);
    }
    let game = build(&EngineOptions {
        deadline: Some(CpuDeadline::after(grounding)),
        interpreter: false,
    })?;
    if game.engine_name() == "interpreter" {
        build(&interpreted)
    } else {
        Ok(game)
    }
}

/// A joint move of the protocol (one move per role, in role order) as a ply of
/// `PlayableGame::position_after`: the moves joined by `&`.
pub fn joint_ply(moves: &[Term]) -> String {
    moves
        .iter()
        .map(Term::to_string)
        .collect::<Vec<_>>()
        .join(" & ")
}

/// `name` as one symbol of the protocol: characters a symbol may not hold become `_`.
fn protocol_symbol(name: &str) -> String {
    let symbol: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && !"();\"'`,\\#^".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if symbol.is_empty() {
        "ludeme".to_owned()
    } else {
        symbol
    }
}

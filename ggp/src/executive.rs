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
//! answers with it when the search has not finished by [`Timing::answer_by`] of the play clock.
//! The rest of the start clock, once the game is built, goes to the first position: its legal
//! move is kept ready and the player searches it; the first message stops that search.
//!
//! The player of a match ([`MatchPlayer`]) lives as long as the match: MCTS keeps its tree from
//! one message to the next, each search starting from the subtree of the position reached.
//! Every message stops the search still running for its match (one that outlived its answer).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ludeme_analysis::opponent_model::{OpponentModels, PruningCounts, SavedModel};
use ludeme_analysis::play::{
    EngineOptions, MatchPlayer, MoveBudget, PlayableGame, Position, RoleIndex, Turn,
};
use ludeme_analysis::{AnalysisHost, Change, CpuDeadline, Syntax};
use tokio::time::Instant;

use crate::clocks::{SafetyMargin, Timing, seconds};
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
    /// Models of how some roles play, for the searching players (see
    /// [`OpponentModels`]); each match's game is checked against them, and a match whose game
    /// they do not fit is played without them (the reason goes to standard error).
    pub opponent_models: Option<ModelsConfig>,
}

/// Saved opponent models, and the confidence the searches keep of a modelled role's moves.
#[derive(Clone, Debug)]
pub struct ModelsConfig {
    /// Shared, not copied, by the matches.
    pub models: Arc<[SavedModel]>,
    pub confidence: f64,
}

/// What the opponent models of a player's configuration did in its matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelUse {
    /// Matches played with the models (by a player that searches).
    pub matches: u64,
    /// Matches whose game the models did not fit, played without them.
    pub refused: u64,
    /// What the searches pruned in the matches played with them (counted at their modelled
    /// roles' nodes with a choice).
    pub pruning: PruningCounts,
}

/// The game of a match and the player playing it: the engines keep scratch space per game,
/// and the player its search tree, so one thread at a time uses them.
struct Seat {
    game: PlayableGame,
    player: MatchPlayer,
}

/// One match the player is in.
struct Session {
    seat: Arc<Mutex<Seat>>,
    role: RoleIndex,
    /// The opponent models the match's player searches with, if any (their pruning counts).
    models: Option<OpponentModels>,
    /// The number of roles, kept so that checking a joint move never waits for the game,
    /// which a search may hold.
    roles: usize,
    /// The joint moves so far, written as `PlayableGame::position_after` reads them.
    plies: Vec<String>,
    /// The position after the first `.0` of `plies`, the last one a move was chosen in: the
    /// next message goes on from it (replaying a long match on the interpreter at every
    /// message could take the whole play clock).
    reached: Option<(usize, Position)>,
    /// The answer kept ready for the first position, worked out during the start clock.
    first_ready: Option<Answer>,
    /// Whether the match speaks the Gamemaster form, whose answers say if the role is in
    /// control.
    gamemaster: bool,
    play_clock: Duration,
    /// Set to stop the search running for this match (the start clock's, or one that outlived
    /// its answer) when the next message comes.
    stop_search: Arc<AtomicBool>,
    /// The visits the last search started from, kept from the search before (tree reuse).
    reused_visits: u32,
}

/// The reply to a message, or why the message is refused (the HTTP layer answers the
/// refusal with a client error and the reason).
pub type Reply = Result<String, String>;

/// The move a player answers a `play` message with.
#[derive(Clone)]
struct Answer {
    /// The move, named as the engines name it (KIF for a GDL game).
    chosen: String,
    /// Whether the player's role had a choice to make (or nobody had one): a role that waits
    /// while others choose is not in control, and a Gamemaster player need not reply.
    in_control: bool,
}

/// Rules as a message carries them: their syntax and text.
pub(crate) struct RulesSource {
    pub(crate) syntax: Syntax,
    pub(crate) text: String,
}

/// The matches of a player and its handlers.
pub struct Executive {
    config: PlayerConfig,
    matches: Mutex<HashMap<String, Session>>,
    margin: SafetyMargin,
    /// The opponent models' use in the matches that have ended; locked after `matches`.
    ended_model_use: Mutex<ModelUse>,
}

impl Executive {
    pub fn new(config: PlayerConfig) -> Arc<Executive> {
        Arc::new(Executive {
            config,
            matches: Mutex::new(HashMap::new()),
            margin: SafetyMargin::new(),
            ended_model_use: Mutex::new(ModelUse::default()),
        })
    }

    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// The number of matches the player is in.
    pub fn match_count(&self) -> usize {
        self.lock().len()
    }

    /// The times of `clock` under the safety margin measured so far.
    pub fn timing(&self, clock: Duration) -> Timing {
        self.margin.timing(clock)
    }

    /// The visits the last search of match `id` started from: those of the subtree its player
    /// kept from the search before (0 for a fresh tree, or a player that keeps none).
    pub fn reused_visits(&self, id: &str) -> Option<u32> {
        self.lock().get(id).map(|session| session.reused_visits)
    }

    /// What the configuration's opponent models did in the matches so far, those still
    /// running included.
    pub fn model_use(&self) -> ModelUse {
        let matches = self.lock();
        let mut used = *lock_model_use(&self.ended_model_use);
        for models in matches
            .values()
            .filter_map(|session| session.models.as_ref())
        {
            used.pruning += models.pruning();
        }
        used
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        // A handler that panicked left the map whole (every change is one insert or remove).
        self.matches
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Answers one message, which `arrived` then: the clocks count from it.
    pub async fn handle(self: &Arc<Self>, request: Request, arrived: Instant) -> Reply {
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
                let clocks = (seconds(start_clock), seconds(play_clock));
                self.start(id, role, rules, clocks, arrived).await
            }
            Request::Play { id, moves } => {
                let step = moves.map_or(Step::First, Step::Joint);
                self.play(&id, step, arrived)
                    .await
                    .map(|answer| answer.chosen)
            }
            Request::Stop { id, .. } | Request::Abort { id } => self.end(&id),
        }
    }

    /// Answers one message of the Gamemaster form: the same handlers, with the rules in infix
    /// GDL, actions written as infix terms, and no reply from a player not in control.
    pub async fn handle_gamemaster(
        self: &Arc<Self>,
        request: GamemasterRequest,
        arrived: Instant,
    ) -> Reply {
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
                let clocks = (seconds(start_clock), seconds(play_clock));
                self.start(id, role, rules, clocks, arrived).await
            }
            GamemasterRequest::Play { id, step } => {
                let answer = self.play(&id, step, arrived).await?;
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
        let mut matches = self.lock();
        if let Some(session) = matches.remove(id) {
            session.stop_search.store(true, Ordering::Relaxed);
            if let Some(models) = &session.models {
                lock_model_use(&self.ended_model_use).pruning += models.pruning();
            }
        }
        Ok("done".to_owned())
    }

    async fn start(
        self: &Arc<Self>,
        id: String,
        role: String,
        rules: RulesSource,
        (start_clock, play_clock): (Duration, Duration),
        arrived: Instant,
    ) -> Reply {
        if self.lock().contains_key(&id) {
            return Err(format!("match `{id}` has already started"));
        }
        let timing = self.margin.timing(start_clock);
        let answer_deadline = arrived + timing.answer_by();
        let grounding = timing.thinking_time();
        let gamemaster = rules.syntax == Syntax::GdlInfix;
        let rules = Arc::new(rules);
        let grounded = {
            let rules = rules.clone();
            tokio::task::spawn_blocking(move || build_game(&rules, grounding, false))
        };
        // Grounding stops at its CPU deadline, but on a loaded machine CPU time lags the wall
        // clock: when grounding is not done by `interpreter_by`, the interpreter, which grounds
        // nothing, is built instead (the grounding left behind stops at its deadline).
        let game = match tokio::time::timeout_at(arrived + timing.interpreter_by(), grounded).await
        {
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
        // A player whose own role is the only one modelled plays as without the models (a
        // model of its seat describes another player, not the moves it should make).
        let models = self
            .opponent_models(&id, &game)
            .filter(|models| models.roles().iter().any(|&modelled| modelled != role));
        let player = match &models {
            Some(models) => {
                game.match_player_with_models(&self.config.player, self.config.seed, models)?
            }
            None => game.match_player(&self.config.player, self.config.seed)?,
        };
        // Kept (and counted) only for a player they guide: the legal and random players play
        // as without them.
        let models = models.filter(|_| player.is_guided());
        if models.is_some() {
            lock_model_use(&self.ended_model_use).matches += 1;
        }
        let stop_search = Arc::new(AtomicBool::new(false));
        let seat = Arc::new(Mutex::new(Seat { game, player }));
        let roles = lock_seat(&seat).game.roles().len();
        self.lock().insert(
            id.clone(),
            Session {
                roles,
                seat: seat.clone(),
                role,
                models,
                plies: Vec::new(),
                reached: None,
                first_ready: None,
                gamemaster,
                play_clock,
                stop_search: stop_search.clone(),
                reused_visits: 0,
            },
        );
        // The rest of the start clock goes to the first position: its legal move is kept
        // ready before the reply (a manager sends the first `play` as soon as every player is
        // ready), then the search goes on after it.
        let prepare_until = arrived.into_std() + timing.thinking_time();
        let executive = Arc::clone(self);
        let (prepared_sender, prepared) = tokio::sync::oneshot::channel();
        tokio::task::spawn_blocking(move || {
            executive.prepare_first_move(
                &id,
                &seat,
                role,
                prepare_until,
                &stop_search,
                prepared_sender,
            );
        });
        // Ready either way: without a move kept ready, the first `play` looks for one itself.
        let _ = tokio::time::timeout_at(answer_deadline, prepared).await;
        Ok("ready".to_owned())
    }

    /// The configuration's opponent models made for match `id`'s `game`, or `None`: when
    /// there are none, or when they do not fit the game (a model of another game, of a role
    /// it lacks), which is no reason to refuse the match: it is played without them, the
    /// reason written to standard error and counted in [`Executive::model_use`].
    fn opponent_models(&self, id: &str, game: &PlayableGame) -> Option<OpponentModels> {
        let config = self.config.opponent_models.as_ref()?;
        match game.opponent_models(&config.models, config.confidence) {
            Ok(models) => Some(models),
            Err(why) => {
                lock_model_use(&self.ended_model_use).refused += 1;
                eprintln!(
                    "ludeme player {}: match `{id}` is played without the opponent model: {why}",
                    self.config.name
                );
                None
            }
        }
    }

    /// What the player does with the start clock left once the game is built: the first
    /// position is reached, its legal move kept ready (on a slow engine, working out one
    /// position's moves may take most of a play clock) and `prepared` told, then the player
    /// searches it until `until`, or until the first message sets `stop`; MCTS keeps the tree
    /// for that message.
    fn prepare_first_move(
        &self,
        id: &str,
        seat: &Mutex<Seat>,
        role: RoleIndex,
        until: std::time::Instant,
        stop: &Arc<AtomicBool>,
        prepared: tokio::sync::oneshot::Sender<()>,
    ) {
        let mut seat = lock_seat(seat);
        let Seat { game, player } = &mut *seat;
        let Ok(position) = game.position_after(&[]) else {
            return;
        };
        let gamemaster = self
            .lock()
            .get(id)
            .is_some_and(|session| session.gamemaster);
        let Ok(ready) = ready_answer(game, &position, role, gamemaster) else {
            return;
        };
        if let Some(session) = self.lock().get_mut(id) {
            session.first_ready = Some(ready);
            session.reached = Some((0, position.clone()));
        }
        let _ = prepared.send(());
        let thinking = until.saturating_duration_since(std::time::Instant::now());
        if !thinking.is_zero() && !stop.load(Ordering::Relaxed) {
            let budget = MoveBudget::time(thinking);
            // The move found is not needed: the search's tree is.
            let _ = player.choose_move(game, &position, role, &budget, Some(stop.clone()));
        }
    }

    /// `play`: the step before is played, then a move is chosen within the play clock, which
    /// counts from the message's arrival.
    async fn play(
        self: &Arc<Self>,
        id: &str,
        step: Step,
        arrived: Instant,
    ) -> Result<Answer, String> {
        let pushed_ply = step != Step::First;
        let (seat, role, plies, reached, first_ready, gamemaster, play_clock, stop) = {
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
            // The search still running for the match (the start clock's, or one that outlived
            // its answer) gives the game up to this message.
            session.stop_search.store(true, Ordering::Relaxed);
            session.stop_search = Arc::new(AtomicBool::new(false));
            // A position reached is used only while its plies are still the match's first.
            let reached = session
                .reached
                .clone()
                .filter(|(played, _)| *played <= session.plies.len());
            let first_ready = session
                .first_ready
                .clone()
                .filter(|_| session.plies.is_empty());
            (
                session.seat.clone(),
                session.role,
                session.plies.clone(),
                reached,
                first_ready,
                session.gamemaster,
                session.play_clock,
                session.stop_search.clone(),
            )
        };
        let timing = self.margin.timing(play_clock);
        let think_until = arrived.into_std() + timing.thinking_time();
        let (ready_sender, ready) = tokio::sync::oneshot::channel();
        // The first position's move was kept ready during the start clock.
        let ready_sender = match first_ready {
            Some(first_ready) => {
                let _ = ready_sender.send(first_ready);
                None
            }
            None => Some(ready_sender),
        };
        let executive = Arc::clone(self);
        let match_id = id.to_owned();
        let search = tokio::task::spawn_blocking(move || {
            let mut seat = lock_seat(&seat);
            let Seat { game, player } = &mut *seat;
            let position = match &reached {
                Some((played, from)) => game.position_after_from(from, *played, &plies[*played..]),
                None => game.position_after(&plies),
            }
            .map_err(|error| error.to_string())?;
            if let Some(session) = executive.lock().get_mut(&match_id) {
                session.reached = Some((plies.len(), position.clone()));
            }
            // The start clock's preparation may have kept the first move ready while this
            // message waited for the game.
            let prepared = plies
                .is_empty()
                .then(|| executive.lock().get(&match_id)?.first_ready.clone())
                .flatten();
            let ready = match prepared {
                Some(ready) => ready,
                None => ready_answer(game, &position, role, gamemaster)?,
            };
            let in_control = ready.in_control;
            // The answer kept ready; if nobody waits for it any more, the search is moot.
            if let Some(sender) = ready_sender
                && sender.send(ready).is_err()
            {
                return Err("the message was answered already".to_owned());
            }
            let thinking = think_until.saturating_duration_since(std::time::Instant::now());
            if thinking.is_zero() {
                return Err("no time left to search".to_owned());
            }
            let budget = MoveBudget::time(thinking);
            let chosen = player.choose_move(game, &position, role, &budget, Some(stop));
            if let Some(session) = executive.lock().get_mut(&match_id) {
                session.reused_visits = player.reused_visits();
            }
            chosen.map(|chosen| Answer { chosen, in_control })
        });
        let answer_deadline = arrived + timing.answer_by();
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
        let answer = match tokio::time::timeout_at(answer_deadline, search).await {
            Ok(Ok(Ok(chosen))) => chosen,
            // Out of time, or the search failed: the move kept ready is legal.
            _ => ready,
        };
        // How late after its thinking time the answer leaves: the margin is measured on it.
        self.margin
            .observe(std::time::Instant::now().saturating_duration_since(think_until));
        Ok(answer)
    }
}

/// The legal player's move for `role` in `position`, kept ready before a search; whether the
/// role is in control is worked out only for the Gamemaster form, which needs it.
fn ready_answer(
    game: &PlayableGame,
    position: &Position,
    role: RoleIndex,
    gamemaster: bool,
) -> Result<Answer, String> {
    let legal = game
        .choose_move(position, role, "legal", &MoveBudget::unlimited(), 0)
        .map_err(|why| format!("no move to make: {why}"))?;
    let in_control = !gamemaster
        || !matches!(game.turn(position),
            Turn::Choose(choices) if choices.iter().all(|choice| choice.role != role));
    Ok(Answer {
        chosen: legal,
        in_control,
    })
}

fn lock_model_use(used: &Mutex<ModelUse>) -> std::sync::MutexGuard<'_, ModelUse> {
    // Counts only: a panic elsewhere leaves them whole.
    used.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn lock_seat(seat: &Mutex<Seat>) -> std::sync::MutexGuard<'_, Seat> {
    // A panic in an engine leaves no half-made change behind: the game is only read, and a
    // search tree half grown is still a tree.
    seat.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The game of `rules`, grounded within `grounding` of CPU time (the interpreter takes over
/// when grounding does not fit, or at once with `interpreter`), through the analysis facade
/// like every other front end.
///
/// The interpreter's CPU deadline covers its whole life, so a game that ends up on the
/// interpreter is built again without one: the start clock must not end its questions.
pub(crate) fn build_game(
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
    if game.runs_on_interpreter() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clocks::prior_margin;

    const TIC_TAC_TOE: &str = include_str!("../../corpus/gdl/ticTacToe.kif");

    async fn send(executive: &Arc<Executive>, message: &str) -> Reply {
        let request = Request::parse(message).expect("a well-formed message");
        executive.handle(request, Instant::now()).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_player_keeps_its_tree_and_measures_its_margin_across_the_messages_of_a_match() {
        let executive = Executive::new(PlayerConfig {
            name: "kept".to_owned(),
            player: "mcts".to_owned(),
            seed: 3,
            opponent_models: None,
        });
        let start = format!("(start m1 xplayer ({TIC_TAC_TOE}) 2 1)");
        assert_eq!(send(&executive, &start).await, Ok("ready".to_owned()));
        let one_minute = Duration::from_secs(60);
        assert_eq!(
            executive.timing(one_minute).margin,
            prior_margin(one_minute)
        );
        // The start clock left after building the game goes to a search of the first position.
        tokio::time::sleep(Duration::from_millis(400)).await;
        let first = send(&executive, "(play m1 nil)").await.expect("a move");
        assert!(
            executive.reused_visits("m1").unwrap() > 0,
            "the first play message starts from the start clock's tree"
        );
        // The second message brings xplayer's move and oplayer's noop: the search (xplayer has
        // only noop now) starts from the subtree of that joint move, with its visits.
        let second = send(&executive, &format!("(play m1 ({first} noop))")).await;
        assert_eq!(second, Ok("noop".to_owned()));
        assert!(executive.reused_visits("m1").unwrap() > 0);
        // Two answers were measured: the margin is what they took beyond their thinking time,
        // not a fifth of the clock (2 s of a minute).
        let measured = executive.timing(one_minute).margin;
        assert!(measured >= crate::clocks::MEASURED_FLOOR);
        assert!(measured < prior_margin(one_minute), "margin {measured:?}");
        assert_eq!(send(&executive, "(abort m1)").await, Ok("done".to_owned()));
    }

    /// A game no search finishes within a clock: 20 turns of 6 moves, won by white when the
    /// last pick is a 6 (so the values differ and no window cuts the search short), every
    /// pick remembered (so no two orders of picks meet in one state).
    const ENDLESS_SEARCH: &str = "
        (role white) (role black)
        (init (control white)) (init (step 0))
        (<= (legal ?r (pick ?n)) (true (control ?r)) (num ?n))
        (<= (next (last ?n)) (does ?r (pick ?n)))
        (<= (next (picked ?s ?n)) (true (step ?s)) (does ?r (pick ?n)))
        (<= (next (picked ?s ?n)) (true (picked ?s ?n)))
        (<= (legal white noop) (true (control black)))
        (<= (legal black noop) (true (control white)))
        (<= (next (control black)) (true (control white)))
        (<= (next (control white)) (true (control black)))
        (<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
        (num 1) (num 2) (num 3) (num 4) (num 5) (num 6)
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)
        (succ 7 8) (succ 8 9) (succ 9 10) (succ 10 11) (succ 11 12) (succ 12 13)
        (succ 13 14) (succ 14 15) (succ 15 16) (succ 16 17) (succ 17 18) (succ 18 19)
        (succ 19 20)
        (<= terminal (true (step 20)))
        (<= (goal white 100) (true (last 6)))
        (<= (goal white 0) (not (true (last 6))))
        (<= (goal black 0) (true (last 6)))
        (<= (goal black 100) (not (true (last 6))))";

    /// The start clock's search of an alpha-beta player stops when the first message comes,
    /// as MCTS's does: it held the match's seat until the start clock ran out, and the
    /// messages behind it found no legal move within their play clock.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_message_stops_the_start_clocks_search_of_any_player() {
        let executive = Executive::new(PlayerConfig {
            name: "whole-tree".to_owned(),
            player: "minimax".to_owned(),
            seed: 1,
            opponent_models: None,
        });
        let start = format!("(start m1 white ({ENDLESS_SEARCH}) 6 1)");
        assert_eq!(send(&executive, &start).await, Ok("ready".to_owned()));
        let first = send(&executive, "(play m1 nil)").await.expect("a move");
        // Without the stop, the start clock's search still holds the seat here.
        let second = send(&executive, &format!("(play m1 ({first} noop))")).await;
        assert_eq!(second, Ok("noop".to_owned()));
        let third = send(&executive, "(play m1 (noop (pick 1)))").await;
        assert!(third.is_ok_and(|chosen| chosen.starts_with("(pick")));
    }

    /// A model of the legal player (always its first legal move) as tic-tac-toe's `oplayer`.
    fn legal_oplayer_model() -> SavedModel {
        use ludeme_analysis::opponent_model::{
            DecisionSource, FeatureSet, SimulationSettings, TrainingSource,
        };
        let rules = RulesSource {
            syntax: Syntax::GdlKif,
            text: TIC_TAC_TOE.to_owned(),
        };
        let game = build_game(&rules, Duration::from_secs(30), false).expect("the game");
        let matches = 20;
        let training = DecisionSource::Simulated {
            settings: SimulationSettings::new("legal", 1),
            matches: 0..matches,
        };
        let source = TrainingSource::Simulated {
            player: "legal".to_owned(),
            matches,
            seed: 0,
            move_nodes: None,
            max_plies: 1_000,
        };
        game.model_train(
            "ticTacToe.kif",
            1,
            &training,
            source,
            FeatureSet::StateAndLegal,
            None,
        )
        .expect("a model")
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_model_guides_the_matches_of_its_game_and_is_left_out_of_another_games() {
        let executive = Executive::new(PlayerConfig {
            name: "guided".to_owned(),
            player: "alphabeta".to_owned(),
            seed: 1,
            opponent_models: Some(ModelsConfig {
                models: Arc::from(vec![legal_oplayer_model()]),
                confidence: 0.95,
            }),
        });
        let start = format!("(start m1 xplayer ({TIC_TAC_TOE}) 2 1)");
        assert_eq!(send(&executive, &start).await, Ok("ready".to_owned()));
        send(&executive, "(play m1 nil)").await.expect("a move");
        let used = executive.model_use();
        assert_eq!((used.matches, used.refused), (1, 0));
        assert!(used.pruning.nodes > 0, "{used:?}");
        assert!(used.pruning.kept < used.pruning.legal, "{used:?}");
        // The counts outlive the match (a search still running could only add to them).
        assert_eq!(send(&executive, "(abort m1)").await, Ok("done".to_owned()));
        assert!(executive.model_use().pruning.nodes >= used.pruning.nodes);

        // The same roles, another initial state: the match is played, without the model.
        let other = TIC_TAC_TOE.replacen("(init (cell 2 2 b))", "(init (cell 2 2 x))", 1);
        assert_ne!(other, TIC_TAC_TOE);
        let start = format!("(start m2 xplayer ({other}) 2 1)");
        assert_eq!(send(&executive, &start).await, Ok("ready".to_owned()));
        send(&executive, "(play m2 nil)").await.expect("a move");
        let later = executive.model_use();
        assert_eq!((later.matches, later.refused), (1, 1));
    }
}

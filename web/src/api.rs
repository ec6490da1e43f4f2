//! The JSON API the page talks to. Every answer is JSON; every refusal is an [`ApiError`].
//!
//! - `GET /api/games`: the games of the folder, by relative path, with their language.
//! - `GET /api/game?path=P`: a game's roles, players, diagnostics, rules in English, and
//!   whether it can be played (or why not).
//! - `POST /api/position` `{"game", "moves"}`: the position after the plies `moves` (named as
//!   `ludeme render --state` names them): its board as SVG with cell ids, who chooses and with
//!   which moves (each with the cells it changes), or how the game ended.
//! - `POST /api/move` `{"game", "moves", "role", "player", "seconds", "seed"?}`: the move a
//!   player chooses for a role in that position within `seconds`, counted from the request's
//!   arrival.
//! - `GET /api/events?path=P`: server-sent events, `changed` each time the file's text changes
//!   on disk (or it can no longer be read), for the page to load it again.
//!
//! The work runs on blocking threads ([`tokio::task::spawn_blocking`]); the game is reached only
//! through the [`Library`] (the analysis crate's host and loader) and the
//! [`PlayableGame`](ludeme_analysis::play::PlayableGame) it builds.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use ludeme_analysis::Severity;
use ludeme_analysis::picture::svg_with_cell_ids;
use ludeme_analysis::play::{MoveBudget, PLAYER_NAMES, Reward, Turn};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::library::{Current, Library};

/// The most plies a request may name: far beyond a game a person plays on a page.
pub const MAX_PLIES: usize = 5_000;

/// The longest move name a request may give.
pub const MAX_MOVE_CHARS: usize = 1_000;

/// The most time per move a player may be given.
pub const MAX_MOVE_SECONDS: f64 = 60.0;

/// What a player's move may take beyond its time: the request's own work after the search
/// (naming the move, answering). The player is given its time less this, so that the answer
/// comes within the time asked for.
const ANSWER_MARGIN: Duration = Duration::from_millis(25);

/// The least time a player is given when the request's own work has eaten its time.
const LEAST_THINKING: Duration = Duration::from_millis(1);

/// How long working out a position may take before the request is answered 503.
const POSITION_TIME: Duration = Duration::from_secs(30);

/// How often a watched file's size and modification time are looked at.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(250);

/// The width the rules in English are wrapped at.
const RULES_WIDTH: usize = 90;

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    pub library: Arc<Library>,
}

/// Runs `work` on a blocking thread; a panic in it (a bug, never user input) answers 500.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the server failed on this request",
        ))
    })
}

/// A JSON body, or a JSON error saying what is wrong with it.
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    match body {
        Ok(Json(value)) => Ok(value),
        Err(JsonRejection::MissingJsonContentType(_)) => Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the request as JSON, with Content-Type: application/json",
        )),
        Err(rejection) => Err(ApiError::bad_request(rejection.body_text())),
    }
}

fn query<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query
        .map(|Query(value)| value)
        .map_err(|rejection| ApiError::bad_request(rejection.body_text()))
}

// ── The list of games ────────────────────────────────────────────────────────────────────

#[derive(Serialize)]
pub struct GameList {
    /// The folder served, as given on the command line.
    folder: String,
    games: Vec<ListedGame>,
}

#[derive(Serialize)]
struct ListedGame {
    path: String,
    /// The language's name, when the file can be read.
    language: Option<&'static str>,
    /// Why it cannot be read.
    problem: Option<String>,
}

pub async fn list_games(State(app): State<App>) -> Result<Json<GameList>, ApiError> {
    blocking(move || {
        let games = app
            .library
            .list()
            .into_iter()
            .map(|listed| {
                let (language, problem) = match listed.language {
                    Ok(language) => (Some(language), None),
                    Err(problem) => (None, Some(problem)),
                };
                ListedGame {
                    path: listed.name,
                    language,
                    problem,
                }
            })
            .collect();
        Ok(GameList {
            folder: app.library.root().display().to_string(),
            games,
        })
    })
    .await
    .map(Json)
}

// ── One game ─────────────────────────────────────────────────────────────────────────────

#[derive(Deserialize)]
pub struct GameQuery {
    path: String,
}

#[derive(Serialize)]
pub struct GameInfo {
    path: String,
    language: &'static str,
    /// Grows each time the file changes on disk.
    revision: u64,
    /// The roles, in the game's order (empty when the game cannot be played).
    roles: Vec<String>,
    /// The roles no person or player plays (GDL-II's `random`): always played at random.
    random_roles: Vec<usize>,
    /// The players a role may be given.
    players: Vec<&'static str>,
    diagnostics: Vec<DiagnosticView>,
    /// How many of the diagnostics are errors.
    errors: usize,
    /// The rules in plain English.
    rules: String,
    /// Why the game cannot be played, when it cannot.
    problem: Option<String>,
}

#[derive(Serialize)]
struct DiagnosticView {
    severity: &'static str,
    code: &'static str,
    message: String,
    /// 1-based, counted in characters.
    line: usize,
    column: usize,
}

pub async fn game_info(
    State(app): State<App>,
    request: Result<Query<GameQuery>, QueryRejection>,
) -> Result<Json<GameInfo>, ApiError> {
    let GameQuery { path } = query(request)?;
    blocking(move || {
        let library = &app.library;
        let current = library.refresh(&library.resolve(&path)?)?;
        let (text, found) = library.diagnostics(&current)?;
        let diagnostics: Vec<DiagnosticView> = found
            .iter()
            .map(|diagnostic| {
                let (line, column) = line_column(&text, diagnostic.range.start);
                DiagnosticView {
                    severity: diagnostic.severity.as_str(),
                    code: diagnostic.code,
                    message: diagnostic.message.clone(),
                    line,
                    column,
                }
            })
            .collect();
        let errors = found
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Error)
            .count();
        let rules = library.english(&current, RULES_WIDTH)?;
        let seats = library.with_engine(&current, |game| {
            let roles = game.roles().to_vec();
            let random = (0..roles.len()).filter(|&r| game.is_random(r)).collect();
            (roles, random)
        });
        let ((roles, random_roles), problem) = match seats {
            Ok(seats) => (seats, None),
            Err(error) if error.status == StatusCode::CONFLICT => {
                ((Vec::new(), Vec::new()), Some(error.message))
            }
            Err(error) => return Err(error),
        };
        Ok(GameInfo {
            path,
            language: library.syntax(&current).display_name(),
            revision: current.revision,
            roles,
            random_roles,
            players: PLAYER_NAMES.to_vec(),
            diagnostics,
            errors,
            rules,
            problem,
        })
    })
    .await
    .map(Json)
}

/// `GET /api/report?path=GAME`: the game's report, a self-contained HTML page (inline style
/// and SVG, no script), shown beside the board.
pub async fn report(
    State(app): State<App>,
    request: Result<Query<GameQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let GameQuery { path } = query(request)?;
    let html = blocking(move || {
        let library = &app.library;
        let current = library.refresh(&library.resolve(&path)?)?;
        library.report(&current, &path)
    })
    .await?;
    Ok(crate::assets::report_page(html))
}

/// The 1-based line and character column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (line, before[line_start..].chars().count() + 1)
}

// ── Positions ────────────────────────────────────────────────────────────────────────────

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The game's path in the folder.
    game: String,
    /// The plies played from the start.
    moves: Vec<String>,
}

#[derive(Serialize)]
pub struct PositionView {
    revision: u64,
    /// The plies played.
    plies: usize,
    /// The board, with `data-cell` on cells and pieces.
    svg: String,
    over: bool,
    /// The goals by role, once the game is over.
    goals: Option<Vec<Reward>>,
    /// The result in words, once the game is over (`xplayer wins`).
    outcome: Option<String>,
    /// The roles to choose a move, each with its legal moves.
    choices: Vec<ChoiceView>,
    /// The ply to play when no role has a choice.
    forced: Option<String>,
    /// Why the game cannot go on, when it cannot.
    stuck: Option<String>,
}

#[derive(Serialize)]
struct ChoiceView {
    role: usize,
    role_name: String,
    moves: Vec<MoveView>,
}

#[derive(Serialize)]
struct MoveView {
    name: String,
    /// The cells (`data-cell` of the board) a click on which picks this move.
    cells: Vec<usize>,
}

/// Refuses plies a request may not name.
fn check_plies(moves: &[String]) -> Result<(), ApiError> {
    if moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(format!(
            "{} moves: at most {MAX_PLIES} may be played",
            moves.len()
        )));
    }
    if let Some(long) = moves
        .iter()
        .position(|ply| ply.chars().count() > MAX_MOVE_CHARS)
    {
        return Err(ApiError::bad_request(format!(
            "move {} is longer than {MAX_MOVE_CHARS} characters",
            long + 1
        )));
    }
    Ok(())
}

pub async fn position(
    State(app): State<App>,
    request: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PositionView>, ApiError> {
    let PositionRequest { game, moves } = body(request)?;
    check_plies(&moves)?;
    let work = blocking(move || {
        let library = &app.library;
        let current = library.refresh(&library.resolve(&game)?)?;
        library.with_engine(&current, |engine| {
            let position = engine
                .position_after(&moves)
                .map_err(|error| ApiError::unprocessable(error.to_string()))?;
            let svg = svg_with_cell_ids(&engine.picture(&position));
            let roles = engine.roles();
            let mut view = PositionView {
                revision: current.revision,
                plies: moves.len(),
                svg,
                over: false,
                goals: None,
                outcome: None,
                choices: Vec::new(),
                forced: None,
                stuck: None,
            };
            match engine.turn(&position) {
                Turn::Over { goals } => {
                    let players: Vec<bool> =
                        (0..roles.len()).map(|r| !engine.is_random(r)).collect();
                    view.over = true;
                    view.outcome = Some(outcome(roles, &goals, &players));
                    view.goals = Some(goals);
                }
                Turn::Choose(choices) => {
                    view.choices = choices
                        .into_iter()
                        .map(|choice| ChoiceView {
                            role: choice.role,
                            role_name: roles.get(choice.role).cloned().unwrap_or_default(),
                            moves: choice
                                .moves
                                .into_iter()
                                .map(|named| MoveView {
                                    name: named.name,
                                    cells: named.cells,
                                })
                                .collect(),
                        })
                        .collect();
                }
                Turn::Forced { ply } => view.forced = Some(ply),
                Turn::Stuck(why) => view.stuck = Some(why),
            }
            Ok(view)
        })?
    });
    match tokio::time::timeout(POSITION_TIME, work).await {
        Ok(answer) => answer.map(Json),
        Err(_) => Err(ApiError::unavailable(format!(
            "working out the position took more than {} s",
            POSITION_TIME.as_secs()
        ))),
    }
}

/// The result in words: who won among the players (roles other than GDL-II's `random`), then
/// every player's goal.
fn outcome(roles: &[String], goals: &[Reward], players: &[bool]) -> String {
    let seated: Vec<(&str, Reward)> = roles
        .iter()
        .zip(goals)
        .zip(players)
        .filter(|(_, is_player)| **is_player)
        .map(|((role, &goal), _)| (role.as_str(), goal))
        .collect();
    let scores: Vec<String> = seated
        .iter()
        .map(|(role, goal)| format!("{role} {goal}"))
        .collect();
    let Some(best) = seated.iter().map(|&(_, goal)| goal).max() else {
        return "the game is over".to_owned();
    };
    let best_roles: Vec<&str> = seated
        .iter()
        .filter(|&&(_, goal)| goal == best)
        .map(|&(role, _)| role)
        .collect();
    let verdict = match (seated.len(), best_roles.as_slice()) {
        (1, _) if best == 100 => format!("{} wins", best_roles[0]),
        (1, _) if best == 0 => format!("{} loses", best_roles[0]),
        (1, _) => format!("{} scores {best}", best_roles[0]),
        (_, _) if best_roles.len() == seated.len() => "a draw".to_owned(),
        (_, [one]) => format!("{one} wins"),
        (_, several) => format!("{} win", several.join(" and ")),
    };
    format!("{verdict} ({})", scores.join(", "))
}

// ── A player's move ──────────────────────────────────────────────────────────────────────

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    game: String,
    moves: Vec<String>,
    role: usize,
    /// One of the players of [`GameInfo::players`].
    player: String,
    /// The time per move.
    seconds: f64,
    /// Makes the random players repeatable; the time of day when absent.
    seed: Option<u64>,
}

#[derive(Serialize)]
pub struct MoveAnswer {
    role: usize,
    player: String,
    /// The move, named as a ply names it.
    name: String,
    /// The time from the request's arrival to the answer.
    milliseconds: u64,
}

pub async fn player_move(
    State(app): State<App>,
    request: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<MoveAnswer>, ApiError> {
    let arrived = Instant::now();
    let request = body(request)?;
    check_plies(&request.moves)?;
    if !PLAYER_NAMES.contains(&request.player.as_str()) {
        return Err(ApiError::unprocessable(format!(
            "no player is called `{}`; the players are {}",
            request.player,
            PLAYER_NAMES.join(", ")
        )));
    }
    if !(request.seconds > 0.0 && request.seconds <= MAX_MOVE_SECONDS) {
        return Err(ApiError::unprocessable(format!(
            "the time per move is {} s: it must be more than 0 and at most {MAX_MOVE_SECONDS}",
            request.seconds
        )));
    }
    let time = Duration::from_secs_f64(request.seconds);
    let seed = request.seed.unwrap_or_else(time_of_day_seed);
    blocking(move || {
        let library = &app.library;
        let current = library.refresh(&library.resolve(&request.game)?)?;
        let name = library.with_engine(&current, |engine| {
            let position = engine
                .position_after(&request.moves)
                .map_err(|error| ApiError::unprocessable(error.to_string()))?;
            let left = time
                .saturating_sub(arrived.elapsed())
                .saturating_sub(ANSWER_MARGIN)
                .max(LEAST_THINKING);
            engine
                .choose_move(
                    &position,
                    request.role,
                    &request.player,
                    &MoveBudget::time(left),
                    seed,
                )
                .map_err(ApiError::unprocessable)
        })??;
        Ok(MoveAnswer {
            role: request.role,
            player: request.player,
            name,
            milliseconds: u64::try_from(arrived.elapsed().as_millis()).unwrap_or(u64::MAX),
        })
    })
    .await
    .map(Json)
}

fn time_of_day_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |since| since.as_nanos() as u64)
}

// ── Following the file ───────────────────────────────────────────────────────────────────

/// What the watcher last told the page.
#[derive(Clone, PartialEq, Eq)]
enum Seen {
    Revision(u64),
    Problem(String),
}

#[derive(Serialize)]
struct ChangeEvent {
    revision: Option<u64>,
    problem: Option<String>,
}

pub async fn events(
    State(app): State<App>,
    request: Result<Query<GameQuery>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let GameQuery { path } = query(request)?;
    let library = app.library.clone();
    let (path, first) = blocking(move || {
        let path = library.resolve(&path)?;
        let current: Current = library.refresh(&path)?;
        Ok((path, current.revision))
    })
    .await?;
    let watch = futures_util::stream::unfold(
        (app, path, Seen::Revision(first)),
        |(app, path, seen)| async move {
            loop {
                tokio::time::sleep(WATCH_INTERVAL).await;
                let library = app.library.clone();
                let watched = path.clone();
                let now = tokio::task::spawn_blocking(move || match library.refresh(&watched) {
                    Ok(current) => Seen::Revision(current.revision),
                    Err(error) => Seen::Problem(error.message),
                })
                .await
                .ok()?;
                if now == seen {
                    continue;
                }
                let news = match &now {
                    Seen::Revision(revision) => ChangeEvent {
                        revision: Some(*revision),
                        problem: None,
                    },
                    Seen::Problem(problem) => ChangeEvent {
                        revision: None,
                        problem: Some(problem.clone()),
                    },
                };
                let data = serde_json::to_string(&news).unwrap_or_default();
                let event = Event::default().event("changed").data(data);
                return Some((Ok(event), (app, path, now)));
            }
        },
    );
    Ok(Sse::new(watch).keep_alive(KeepAlive::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(names: &[&str]) -> Vec<String> {
        names.iter().map(|&name| name.to_owned()).collect()
    }

    #[test]
    fn the_outcome_names_the_winner_and_every_goal() {
        let two = roles(&["xplayer", "oplayer"]);
        assert_eq!(
            outcome(&two, &[100, 0], &[true, true]),
            "xplayer wins (xplayer 100, oplayer 0)"
        );
        assert_eq!(
            outcome(&two, &[0, 100], &[true, true]),
            "oplayer wins (xplayer 0, oplayer 100)"
        );
        assert_eq!(
            outcome(&two, &[50, 50], &[true, true]),
            "a draw (xplayer 50, oplayer 50)"
        );
        let three = roles(&["a", "b", "c"]);
        assert_eq!(
            outcome(&three, &[100, 100, 0], &[true, true, true]),
            "a and b win (a 100, b 100, c 0)"
        );
        let solo = roles(&["solo"]);
        assert_eq!(outcome(&solo, &[100], &[true]), "solo wins (solo 100)");
        assert_eq!(outcome(&solo, &[40], &[true]), "solo scores 40 (solo 40)");
    }

    #[test]
    fn the_random_role_has_no_stake_in_the_outcome() {
        let names = roles(&["random", "alice", "bob"]);
        assert_eq!(
            outcome(&names, &[0, 100, 0], &[false, true, true]),
            "alice wins (alice 100, bob 0)"
        );
    }

    #[test]
    fn positions_are_lines_and_character_columns() {
        let text = "ab\nçd\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 5), (2, 2), "ç is two bytes, one column");
        assert_eq!(line_column(text, 4), (2, 1), "inside a character");
        assert_eq!(line_column(text, 99), (3, 1));
    }
}

//! Code lenses above the game: the probe's verdict (Ludi), the nearest known game (every
//! language), a bench figure (GDL and Ludi) and the summary of random play (GDL).
//!
//! Listing lenses is cheap: it only says where they go. Their titles are long work — playing
//! games, comparing trees — so `codeLens/resolve` never waits for it: it answers from the
//! results of earlier work for the document's current version, or starts the work in the
//! background (with `$/progress`, under the configured budgets) and answers with a provisional
//! title; when the work ends the server asks the client to refresh its lenses
//! (`workspace/codeLens/refresh`), and the next resolve finds the result. Work done for an
//! older version of the document, or among other known games or settings, is done again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ludeme_analysis::config::ProbeBudget;
use ludeme_analysis::distance::{Neighbour, game_anchor, game_title, nearest};
use ludeme_analysis::gdl::engine::reasoner_for;
use ludeme_analysis::gdl::simulate::editor_simulation;
use ludeme_analysis::ludi::engine::ludi_engine_for;
use ludeme_analysis::{Db, SourceFile, Syntax};
use ludeme_engine::Game;
use ludeme_engine::gdl::Budget;
use ludeme_engine::ludi::advisors::Advisors;
use ludeme_engine::playout::random_playouts;
use ludeme_engine::probe::{ProbeReport, ProbeSettings, probe};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower_lsp_server::Client;
use tower_lsp_server::ls_types::{CodeLens, Command, Range, Uri};

use crate::lock;
use crate::session::{Session, Snapshot};

/// The client command that lists the nearest games (its arguments carry them).
pub const SHOW_NEAREST: &str = "ludeme.showNearest";
/// The client command that shows the probe's report.
pub const SHOW_PROBE: &str = "ludeme.showProbe";
/// The client command that shows the bench figures.
pub const SHOW_BENCH: &str = "ludeme.showBench";
/// The client command that shows the details of random play.
pub const SHOW_SIMULATION: &str = "ludeme.showSimulation";

/// How many nearest games the command lists, from the workspace and from the corpus each.
const NEAREST_LISTED: usize = 5;
/// The longest a bench figure plays, whatever the probe budget: a second gives a figure
/// within a few per cent.
const BENCH_SECONDS: f64 = 1.0;
/// Plies after which a bench playout is abandoned (as `ludeme bench` does).
const BENCH_MAX_PLIES: usize = 10_000;
/// The seed of the editor's probes and bench playouts: the same text gives the same lens.
const SEED: u64 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LensKind {
    Probe,
    Nearest,
    Bench,
    Simulation,
}

impl LensKind {
    /// What the provisional title and the progress report say while the work runs.
    fn activity(self) -> &'static str {
        match self {
            LensKind::Probe => "probing by self-play",
            LensKind::Nearest => "looking for the nearest game",
            LensKind::Bench => "measuring random playouts",
            LensKind::Simulation => "playing random games",
        }
    }
}

/// What a lens's work reads besides its document: the known games (the nearest game) or the
/// budgets of play (the probe and the bench). A result worked out in other surroundings is
/// stale even for the same version of the document: the workspace scan landed, a game was
/// added, edited or changed on disk, the budgets were changed.
#[derive(Clone, PartialEq)]
enum Surroundings {
    /// The generation of the known games ([`crate::session::KnownGames::generation`]).
    KnownGames(u64),
    Budget(ProbeBudget),
    /// Random play for the editor has fixed budgets.
    None,
}

impl Surroundings {
    fn of(kind: LensKind, snapshot: &Snapshot) -> Self {
        match kind {
            LensKind::Nearest => Surroundings::KnownGames(snapshot.known.generation),
            LensKind::Probe | LensKind::Bench => Surroundings::Budget(snapshot.settings.probe()),
            LensKind::Simulation => Surroundings::None,
        }
    }
}

/// What a lens carries from listing to resolving.
#[derive(Serialize, Deserialize)]
struct LensData {
    uri: String,
    kind: LensKind,
}

/// The lenses of the document in `snapshot`, unresolved, all on the game's first line.
pub fn list(snapshot: &Snapshot) -> Vec<CodeLens> {
    let db = &snapshot.db;
    let file = snapshot.file;
    let syntax = file.syntax(db);
    let is_gdl = matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix);
    let budgets_allow = snapshot.settings.probe().enabled;
    let mut kinds = Vec::new();
    if syntax == Syntax::Ludi && budgets_allow {
        kinds.push(LensKind::Probe);
    }
    kinds.push(LensKind::Nearest);
    if (is_gdl || syntax == Syntax::Ludi) && budgets_allow {
        kinds.push(LensKind::Bench);
    }
    if is_gdl && ludeme_analysis::gdl::simulate::lens_anchor(db, file).is_some() {
        kinds.push(LensKind::Simulation);
    }
    let start = snapshot.document.range(game_anchor(db, file)).start;
    let uri = snapshot.document_uri();
    kinds
        .into_iter()
        .map(|kind| CodeLens {
            range: Range::new(start, start),
            command: None,
            data: serde_json::to_value(LensData {
                uri: uri.clone(),
                kind,
            })
            .ok(),
        })
        .collect()
}

/// The document and kind a lens was listed for, or why it cannot be resolved.
pub fn lens_target(lens: &CodeLens) -> Result<(Uri, LensKind), &'static str> {
    let data: LensData = lens
        .data
        .clone()
        .and_then(|data| serde_json::from_value(data).ok())
        .ok_or("the code lens carries no data this server wrote")?;
    let uri = data
        .uri
        .parse::<Uri>()
        .map_err(|_| "the code lens carries an invalid document URI")?;
    Ok((uri, data.kind))
}

/// A resolved lens's command.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub title: String,
    pub command: &'static str,
    pub arguments: Option<Vec<Value>>,
}

impl Resolved {
    fn label(title: String) -> Self {
        Resolved {
            title,
            command: "",
            arguments: None,
        }
    }

    pub fn into_command(self) -> Command {
        Command {
            title: self.title,
            command: self.command.to_owned(),
            arguments: self.arguments,
        }
    }
}

enum Job {
    Running,
    Done {
        version: i32,
        surroundings: Surroundings,
        resolved: Resolved,
    },
}

/// What background work needs from the server.
#[derive(Clone)]
pub struct JobContext {
    pub client: Client,
    pub session: Arc<Mutex<Session>>,
    /// The client accepts `window/workDoneProgress/create`.
    pub progress: bool,
    /// The client accepts `workspace/codeLens/refresh`.
    pub refresh: bool,
}

/// The lens work of every document: running, or done for a version.
#[derive(Default)]
pub struct LensJobs {
    jobs: Mutex<HashMap<(Uri, LensKind), Job>>,
}

impl LensJobs {
    fn jobs(&self) -> MutexGuard<'_, HashMap<(Uri, LensKind), Job>> {
        lock(&self.jobs)
    }

    /// The lens's command for the document's current version and [`Surroundings`]: the result
    /// when the work is done, else a provisional label (and the work started, unless it already
    /// runs). A client that cannot be asked to refresh its lenses would keep the provisional
    /// label for good: it waits for the work instead (bounded by the budgets).
    pub async fn resolve(
        self: &Arc<Self>,
        context: &JobContext,
        uri: Uri,
        kind: LensKind,
        snapshot: Snapshot,
    ) -> Resolved {
        let version = snapshot.document.version;
        let surroundings = Surroundings::of(kind, &snapshot);
        let key = (uri, kind);
        {
            let mut jobs = self.jobs();
            match jobs.get(&key) {
                Some(Job::Done {
                    version: done,
                    surroundings: done_in,
                    resolved,
                }) if *done == version && *done_in == surroundings => {
                    return resolved.clone();
                }
                // One run per lens at a time: a run for an older version ends within its
                // budget, and the refresh it triggers asks again.
                Some(Job::Running) => {
                    return Resolved::label(format!("{}…", kind.activity()));
                }
                _ => {
                    jobs.insert(key.clone(), Job::Running);
                }
            }
        }
        let jobs = self.clone();
        let task_context = context.clone();
        let title = format!("Ludeme: {}", kind.activity());
        let game = snapshot.file.path(&snapshot.db).display().to_string();
        // The blocking thread owns the snapshot from now on: a task not yet run holding it
        // would hold back the next edit's write, which waits (on a runtime thread) for every
        // snapshot to be dropped.
        let work = tokio::task::spawn_blocking(move || compute(kind, snapshot));
        let task = tokio::spawn(async move {
            let context = task_context;
            let outcome = crate::progress::with_progress(
                &context.client,
                context.progress,
                &title,
                game,
                work,
            )
            .await;
            let current = lock(&context.session).version(&key.0);
            let finished = match outcome {
                Ok(Some(resolved)) if current == Some(version) => {
                    jobs.jobs().insert(
                        key,
                        Job::Done {
                            version,
                            surroundings,
                            resolved: resolved.clone(),
                        },
                    );
                    Some(resolved)
                }
                // Stale, cancelled by an edit, or failed: forget it; a later resolve starts anew.
                _ => {
                    jobs.jobs().remove(&key);
                    None
                }
            };
            if context.refresh {
                let _ = context.client.code_lens_refresh().await;
            }
            finished
        });
        if context.refresh {
            return Resolved::label(format!("{}…", kind.activity()));
        }
        match task.await {
            Ok(Some(resolved)) => resolved,
            _ => Resolved::label(format!(
                "{}: the document changed meanwhile",
                kind.activity()
            )),
        }
    }

    /// Forgets the work of a closed document.
    pub fn forget(&self, uri: &Uri) {
        self.jobs().retain(|(job_uri, _), _| job_uri != uri);
    }
}

/// Does the work of one lens on a blocking thread. `None` when an edit cancelled it.
fn compute(kind: LensKind, snapshot: Snapshot) -> Option<Resolved> {
    if !crate::findings::background_work_allowed(&snapshot) {
        return Some(Resolved::label(format!(
            "{}: the file is too large for work in the background",
            kind.activity()
        )));
    }
    let budget = snapshot.settings.probe();
    match kind {
        LensKind::Probe => probe_lens(snapshot, budget),
        LensKind::Bench => bench_lens(snapshot, budget),
        LensKind::Nearest => salsa::Cancelled::catch(|| nearest_lens(&snapshot)).ok(),
        LensKind::Simulation => salsa::Cancelled::catch(|| {
            let simulation = editor_simulation(&snapshot.db, snapshot.file);
            Resolved {
                title: simulation.headline(),
                command: SHOW_SIMULATION,
                arguments: Some(vec![json!({
                    "uri": snapshot.document_uri(),
                    "markdown": simulation.details_markdown(),
                })]),
            }
        })
        .ok(),
    }
}

/// A playable game built from the snapshot, which is dropped before the games are played: a
/// snapshot held through seconds of play would hold back the next edit.
///
/// The game is built at normal priority (building reads the snapshot, and the next edit's write
/// waits until that notices its cancellation), then played at the lowest (`background.rs`).
fn with_game<T: Send>(
    snapshot: Snapshot,
    budget: ProbeBudget,
    play: impl FnOnce(&dyn PlayableGame) -> T + Send,
) -> Option<Result<T, String>> {
    crate::background::on_own_thread(move || build_and_play(snapshot, budget, play))
}

fn build_and_play<T>(
    snapshot: Snapshot,
    budget: ProbeBudget,
    play: impl FnOnce(&dyn PlayableGame) -> T,
) -> Option<Result<T, String>> {
    let Snapshot { db, file, .. } = snapshot;
    let built = salsa::Cancelled::catch(|| match file.syntax(&db) {
        Syntax::Ludi => ludi_engine_for(&db, file)
            .map(|game| Box::new(game) as Box<dyn PlayableGame>)
            .map_err(|refusal| refusal.to_string()),
        Syntax::GdlKif | Syntax::GdlInfix => {
            // The reasoner's clock runs through its whole life: grounding and then play, which
            // the probe's own time limit stops; this deadline only stops a runaway.
            let deadline = Instant::now() + Duration::from_secs_f64(2.0 * budget.seconds + 1.0);
            let engine_budget = Budget {
                deadline: Some(deadline),
                ..Budget::default()
            };
            reasoner_for(&db, file, engine_budget)
                .map(|game| Box::new(game) as Box<dyn PlayableGame>)
                .map_err(|error| error.to_string())
        }
        Syntax::Egg => Err("EGGG games cannot be played yet".to_owned()),
    })
    .ok()?;
    drop(db);
    crate::background::lower_current_thread_priority();
    Some(built.map(|game| play(game.as_ref())))
}

/// The plays a lens runs, over either engine.
trait PlayableGame {
    fn probe(&self, settings: &ProbeSettings) -> ProbeReport;
    /// Random playouts for `duration`: how many, and how long they took.
    fn playouts(&self, duration: Duration) -> Result<(u64, f64), String>;
}

impl PlayableGame for ludeme_engine::ludi::LudiGame {
    fn probe(&self, settings: &ProbeSettings) -> ProbeReport {
        probe(self, &Advisors::for_game(self, settings.seed), settings)
    }
    fn playouts(&self, duration: Duration) -> Result<(u64, f64), String> {
        measure_playouts(self, duration)
    }
}

impl PlayableGame for ludeme_engine::gdl::Reasoner {
    fn probe(&self, settings: &ProbeSettings) -> ProbeReport {
        probe(self, &ludeme_engine::probe::NoAdvice, settings)
    }
    fn playouts(&self, duration: Duration) -> Result<(u64, f64), String> {
        measure_playouts(self, duration)
    }
}

fn measure_playouts<G: Game>(game: &G, duration: Duration) -> Result<(u64, f64), String> {
    let mut rng = SmallRng::seed_from_u64(SEED);
    let clock = Instant::now();
    let mut playouts = 0;
    // Batches keep the clock out of the hot loop; a batch of a slow game still ends soon.
    let mut batch = 1;
    while clock.elapsed() < duration {
        playouts += random_playouts(game, &mut rng, batch, BENCH_MAX_PLIES).playouts;
        if let Some(failure) = game.failure() {
            return Err(failure);
        }
        batch = (batch * 2).min(256);
    }
    Ok((playouts, clock.elapsed().as_secs_f64()))
}

fn probe_lens(snapshot: Snapshot, budget: ProbeBudget) -> Option<Resolved> {
    let uri = snapshot.document_uri();
    let settings = ProbeSettings {
        games: budget.games,
        seed: SEED,
        time_limit: Some(Duration::from_secs_f64(budget.seconds)),
        ..ProbeSettings::default()
    };
    let resolved = match with_game(snapshot, budget, |game| game.probe(&settings))? {
        Err(why) => Resolved::label(format!("probe: {why}")),
        Ok(report) => Resolved {
            title: probe_title(&report),
            command: SHOW_PROBE,
            arguments: Some(vec![json!({
                "uri": uri,
                "viable": report.verdict.viable,
                "reasons": report.verdict.reasons,
                "games": report.games,
                "completion": report.completion,
                "drawishness": report.drawishness,
                "timeouts": report.timeouts,
                "balance": report.balance,
                "first_move_advantage": report.first_move_advantage,
                "avg_length": report.avg_length,
                "seconds": report.seconds,
            })]),
        },
    };
    Some(resolved)
}

/// "viable · 50 games · balance 0.52 · draws 10 %", or the first reason it is not.
fn probe_title(report: &ProbeReport) -> String {
    if report.games == 0 {
        return "probe: no game finished within the budget".to_owned();
    }
    let mut parts = vec![
        if report.verdict.viable {
            "viable".to_owned()
        } else {
            match report.verdict.reasons.first() {
                Some(reason) => format!("not viable: {reason}"),
                None => "not viable".to_owned(),
            }
        },
        format!("{} games", report.games),
    ];
    if let Some(balance) = report.balance {
        parts.push(format!("balance {balance:.2}"));
    }
    parts.push(format!("draws {:.0} %", report.drawishness * 100.0));
    parts.push(format!("{:.0} plies", report.avg_length));
    parts.join(" · ")
}

fn bench_lens(snapshot: Snapshot, budget: ProbeBudget) -> Option<Resolved> {
    let duration = Duration::from_secs_f64(budget.seconds.min(BENCH_SECONDS));
    let resolved = match with_game(snapshot, budget, |game| game.playouts(duration))? {
        Err(why) | Ok(Err(why)) => Resolved::label(format!("bench: {why}")),
        Ok(Ok((playouts, seconds))) => {
            let per_second = playouts as f64 / seconds;
            Resolved {
                title: format!("≈ {} playouts/s", round_figure(per_second)),
                command: SHOW_BENCH,
                arguments: Some(vec![json!({
                    "playouts": playouts,
                    "seconds": seconds,
                    "playouts_per_second": per_second,
                })]),
            }
        }
    };
    Some(resolved)
}

/// A rate to two significant figures, in the units people read: 87, 1.2k, 90k, 1.3M.
fn round_figure(value: f64) -> String {
    let two_figures = |value: f64| {
        if value >= 10.0 {
            format!("{value:.0}")
        } else {
            format!("{value:.1}")
        }
    };
    if value >= 1e6 {
        format!("{}M", two_figures(value / 1e6))
    } else if value >= 1e3 {
        format!("{}k", two_figures(value / 1e3))
    } else {
        format!("{value:.0}")
    }
}

/// The games of the same language as `file` (the two GDL syntaxes are one language).
fn same_language(db: &dyn Db, file: SourceFile, candidates: &[SourceFile]) -> Vec<SourceFile> {
    let language = |syntax| match syntax {
        Syntax::GdlInfix => Syntax::GdlKif,
        other => other,
    };
    let wanted = language(file.syntax(db));
    candidates
        .iter()
        .copied()
        .filter(|&candidate| candidate != file && language(candidate.syntax(db)) == wanted)
        .collect()
}

/// The nearest known games of the workspace and of the corpus folders.
pub fn nearest_games(snapshot: &Snapshot, count: usize) -> (Vec<Neighbour>, Vec<Neighbour>) {
    let db = &snapshot.db;
    let file = snapshot.file;
    let workspace = same_language(db, file, &snapshot.known.workspace);
    let corpus = same_language(db, file, &snapshot.known.corpus);
    (
        nearest(db, file, &workspace, count),
        nearest(db, file, &corpus, count),
    )
}

fn nearest_lens(snapshot: &Snapshot) -> Resolved {
    let db = &snapshot.db;
    let (workspace, corpus) = nearest_games(snapshot, NEAREST_LISTED);
    let best = workspace
        .iter()
        .chain(&corpus)
        .min_by(|a, b| a.distance.total_cmp(&b.distance));
    let Some(best) = best else {
        return Resolved::label("nearest: no other game of this language is known".to_owned());
    };
    let listed = |neighbours: &[Neighbour]| -> Vec<Value> {
        neighbours
            .iter()
            .map(|neighbour| {
                json!({
                    "title": game_title(db, neighbour.file),
                    "uri": tower_lsp_server::ls_types::Uri::from_file_path(neighbour.file.path(db))
                        .map(|uri| uri.as_str().to_owned()),
                    "distance": neighbour.distance,
                    "class": neighbour.class.name(),
                })
            })
            .collect()
    };
    Resolved {
        title: format!(
            "nearest: {} · {:.2} · {}",
            game_title(db, best.file),
            best.distance,
            best.class.name()
        ),
        command: SHOW_NEAREST,
        arguments: Some(vec![json!({
            "workspace": listed(&workspace),
            "corpus": listed(&corpus),
        })]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_rounded_to_two_significant_digits() {
        assert_eq!(round_figure(87.4), "87");
        assert_eq!(round_figure(1_234.0), "1.2k");
        assert_eq!(round_figure(90_421.0), "90k");
        assert_eq!(round_figure(1_310_000.0), "1.3M");
    }
}

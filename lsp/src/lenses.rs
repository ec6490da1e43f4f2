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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use ludeme_analysis::aesthetic::aesthetic_score;
use ludeme_analysis::config::ProbeBudget;
use ludeme_analysis::distance::{Neighbour, game_anchor, game_title};
use ludeme_analysis::play::{EngineOptions, PlayableGame, ProbeReport, ProbeSettings};
use ludeme_analysis::{CpuDeadline, Syntax};
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
/// How long resolving a lens whose result salsa keeps (nearest game, random play) waits for
/// it before answering with a provisional title: a result worked out before comes back at once.
pub(crate) const QUICK_RESOLVE: Duration = Duration::from_millis(200);
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

impl LensKind {
    /// Whether the lens's result is a salsa query's (the nearest game among the known games,
    /// random play with the editor's fixed budget): salsa keeps it while what it read is
    /// unchanged and works it out again when not, so the server keeps nothing of its own.
    /// The probe and the bench play under time budgets: their results are kept here, for the
    /// document's version and the budgets.
    fn is_memoised(self) -> bool {
        matches!(self, LensKind::Nearest | LensKind::Simulation)
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
    let db = snapshot.db();
    let file = snapshot.file;
    let syntax = file.syntax(db);
    let is_gdl = matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix);
    let budgets_allow = snapshot.settings.probe().enabled;
    let mut kinds = Vec::new();
    // GDL games are probed on the command line only: without advisors a probe needs deep
    // searches, far beyond a background budget of seconds.
    let probed = matches!(syntax, Syntax::Ludi | Syntax::Egg);
    if probed && budgets_allow {
        kinds.push(LensKind::Probe);
    }
    kinds.push(LensKind::Nearest);
    if budgets_allow {
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
    /// The title a lens shows while its work is still to be done.
    pub(crate) fn provisional(kind: LensKind) -> Self {
        Resolved::label(format!("{}…", kind.activity()))
    }

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
    Running {
        version: i32,
        /// Raised when the document moves past `version`: the probe stops at its next state,
        /// so the run for the new text starts at once instead of after the old one's budget.
        stop: Arc<AtomicBool>,
    },
    Done {
        version: i32,
        /// A result worked out under other budgets is stale for the same version.
        budget: ProbeBudget,
        /// So is one worked out under another rule selection of `ludeme.toml`: the engine gate
        /// refuses a game for the errors the selection leaves (its fingerprint).
        rules: u128,
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

    /// The lens's command for the document's current version and the budgets in force: the result
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
        if kind.is_memoised() {
            return resolve_memoised(context, kind, snapshot).await;
        }
        let version = snapshot.document.version;
        let budget = snapshot.settings.probe();
        let rules = snapshot.settings.file.rules.fingerprint();
        let key = (uri, kind);
        let stop = Arc::new(AtomicBool::new(false));
        {
            let mut jobs = self.jobs();
            match jobs.get(&key) {
                Some(Job::Done {
                    version: done,
                    budget: done_under,
                    rules: done_with,
                    resolved,
                }) if *done == version && *done_under == budget && *done_with == rules => {
                    return resolved.clone();
                }
                // One run per lens at a time: a run for an older version is told to stop (a
                // probe then ends at once, other work within its budget), and the refresh it
                // triggers asks again.
                Some(Job::Running {
                    version: running,
                    stop,
                }) => {
                    // Only a newer text stops it: a resolve that carries an older snapshot
                    // (it reached the lock late) must not stop the run of the current text.
                    if *running < version {
                        stop.store(true, Ordering::Relaxed);
                    }
                    return Resolved::provisional(kind);
                }
                _ => {
                    jobs.insert(
                        key.clone(),
                        Job::Running {
                            version,
                            stop: Arc::clone(&stop),
                        },
                    );
                }
            }
        }
        let jobs = self.clone();
        let task_context = context.clone();
        let title = format!("Ludeme: {}", kind.activity());
        let game = snapshot.file.path(snapshot.db()).display().to_string();
        // The blocking thread owns the snapshot from now on: a task not yet run holding it
        // would hold back the next edit's write, which waits (on a runtime thread) for every
        // snapshot to be dropped.
        let work = crate::scheduler::spawn_background(move || compute(kind, snapshot, Some(stop)));
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
                            budget,
                            rules,
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
            return Resolved::provisional(kind);
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

/// Resolves a lens whose result salsa keeps: at once when it was worked out before (or takes
/// less than [`QUICK_RESOLVE`]), else with a provisional title, the client asked to resolve
/// again when the work is done.
async fn resolve_memoised(context: &JobContext, kind: LensKind, snapshot: Snapshot) -> Resolved {
    let mut work = crate::scheduler::spawn_background(move || compute(kind, snapshot, None));
    let waited = if context.refresh {
        tokio::time::timeout(QUICK_RESOLVE, &mut work).await
    } else {
        Ok((&mut work).await)
    };
    match waited {
        Ok(Ok(Some(resolved))) => resolved,
        Ok(_) => Resolved::label(format!(
            "{}: the document changed meanwhile",
            kind.activity()
        )),
        Err(_still_working) => {
            let client = context.client.clone();
            tokio::spawn(async move {
                let _ = work.await;
                let _ = client.code_lens_refresh().await;
            });
            Resolved::provisional(kind)
        }
    }
}

/// Does the work of one lens on a blocking thread. `None` when an edit cancelled it. `stop`
/// ends a probe part-way (its result is then stale, and dropped).
fn compute(kind: LensKind, snapshot: Snapshot, stop: Option<Arc<AtomicBool>>) -> Option<Resolved> {
    if !crate::findings::background_work_allowed(&snapshot) {
        return Some(Resolved::label(format!(
            "{}: the file is too large for work in the background",
            kind.activity()
        )));
    }
    let budget = snapshot.settings.probe();
    match kind {
        LensKind::Probe => probe_lens(snapshot, budget, stop),
        LensKind::Bench => bench_lens(snapshot, budget),
        LensKind::Nearest => nearest_lens(&snapshot),
        LensKind::Simulation => {
            let simulation = snapshot.analysis.editor_simulation(snapshot.file).ok()?;
            Some(match simulation {
                Some(simulation) => Resolved {
                    title: simulation.headline(),
                    command: SHOW_SIMULATION,
                    arguments: Some(vec![json!({
                        "uri": snapshot.document_uri(),
                        "markdown": simulation.details_markdown(),
                    })]),
                },
                None => Resolved::label("random play: not a GDL game".to_owned()),
            })
        }
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
    play: impl FnOnce(&PlayableGame) -> T + Send,
) -> Option<Result<T, String>> {
    crate::background::on_own_thread(move || build_and_play(snapshot, budget, play))
}

fn build_and_play<T>(
    snapshot: Snapshot,
    budget: ProbeBudget,
    play: impl FnOnce(&PlayableGame) -> T,
) -> Option<Result<T, String>> {
    let Snapshot { analysis, file, .. } = snapshot;
    // The engine's clock runs through its whole life: set-up (grounding) and then play, which
    // the probe's own time limit stops; this deadline only stops a runaway.
    let options = EngineOptions {
        deadline: Some(CpuDeadline::after(Duration::from_secs_f64(
            2.0 * budget.seconds + 1.0,
        ))),
        interpreter: false,
    };
    let built = analysis.playable(file, &options).ok()?;
    drop(analysis);
    crate::background::lower_current_thread_priority();
    Some(built.map(|game| play(&game)))
}

fn probe_lens(
    snapshot: Snapshot,
    budget: ProbeBudget,
    stop: Option<Arc<AtomicBool>>,
) -> Option<Resolved> {
    let uri = snapshot.document_uri();
    let stopped = stop.clone();
    let probed = with_game(snapshot, budget, |game| {
        game.probe(&ProbeSettings {
            games: budget.games,
            seed: SEED,
            nodes_per_move: game.default_probe_nodes(),
            time_limit: Some(Duration::from_secs_f64(budget.seconds)),
            stop,
            ..ProbeSettings::default()
        })
    })?;
    // A run stopped part-way has a few games: never a verdict to keep.
    if stopped.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
        return None;
    }
    let resolved = match probed {
        Err(why) => Resolved::label(format!("probe: {why}")),
        Ok(report) => Resolved {
            title: probe_title(&report),
            command: SHOW_PROBE,
            arguments: Some(vec![json!({
                "uri": uri,
                "viable": report.verdict.viable,
                "aesthetic_score": aesthetic_score(&report),
                "reasons": report.verdict.reasons,
                "tentative": report.verdict.tentative,
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

/// "viable · score 2.63 · 50 games · balance 0.52 · draws 10 %", or the first reason it is not
/// (the score is the aesthetic score with the shipped weights, as `ludeme evolve` ranks games).
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
        format!("score {:.2}", aesthetic_score(report)),
        // Fewer games than a firm verdict needs: the lens says so where the count is.
        match report.verdict.tentative {
            Some(_) => format!("{} games, tentative", report.games),
            None => format!("{} games", report.games),
        },
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
    let measured = with_game(snapshot, budget, |game| {
        game.random_playouts(duration, SEED)
    })?;
    let resolved = match measured {
        Err(why) | Ok(Err(why)) => Resolved::label(format!("bench: {why}")),
        Ok(Ok(figures)) => {
            let (playouts, seconds) = (figures.playouts, figures.seconds);
            let per_second = figures.per_second();
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

/// `None` when an edit cancelled the search.
fn nearest_lens(snapshot: &Snapshot) -> Option<Resolved> {
    let file = snapshot.file;
    snapshot
        .analysis
        .with_db(|db| {
            let nearest = snapshot
                .analysis
                .nearest(file, NEAREST_LISTED, false)
                .unwrap_or_else(|cancelled| ludeme_analysis::resume_cancelled(cancelled));
            let Some(best) = nearest.best() else {
                return Resolved::label(
                    "nearest: no other game of this language is known".to_owned(),
                );
            };
            let listed = |neighbours: &[Neighbour]| -> Vec<Value> {
                neighbours
                    .iter()
                    .map(|neighbour| {
                        json!({
                            "title": game_title(db, neighbour.file),
                            "uri": Uri::from_file_path(neighbour.file.path(db))
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
                    "workspace": listed(&nearest.workspace),
                    "corpus": listed(&nearest.corpus),
                })]),
            }
        })
        .ok()
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

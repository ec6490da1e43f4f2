//! Which diagnostics a document gets, in two rounds: the analyses' diagnostics first (with the
//! rule selection of `ludeme.toml` applied, capped for huge files), then what slower work finds
//! — random play (GDL) and a duplicate of a known game (every language) — published again with
//! the first round from a task of its own, so that it never delays the first.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use ludeme_analysis::gdl::simulate::SimulationOptions;
use ludeme_analysis::{self as analysis, DiagnosticDepth};
use tower_lsp_server::Client;
use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity, Uri};

use crate::convert::to_lsp_diagnostic;
use crate::lock;
use crate::scheduler::{is_content_modified, run_query};
use crate::session::{Session, Snapshot};

/// The most diagnostics published for one document. A generated or pasted file can have tens
/// of thousands; the editor's problem list is no use beyond this, and sending them all would
/// cost every keystroke a large message.
pub const MAX_PUBLISHED: usize = 1_000;

/// How long the editor must leave every document unchanged before the slow round starts.
/// While someone types, it never starts: the work would be cancelled at the next keystroke
/// anyway (in any document: every edit writes to the one database), and a write waits for the
/// running work to notice its cancellation, which grounding a game only does between its steps
/// — the next edit's diagnostics would wait for it.
const SLOW_ROUND_DELAY: Duration = Duration::from_millis(400);

/// The largest document the background work (random play, the search for duplicates, the
/// lenses' probes and benches) runs on. The corpus's largest games are a few hundred kilobytes;
/// beyond this a file is generated or pasted, and grounding or comparing it would hold the
/// database for seconds that the next edit would wait for.
pub const MAX_BACKGROUND_BYTES: usize = 1 << 20;

/// Whether the document is small enough for background work (see [`MAX_BACKGROUND_BYTES`]).
pub fn background_work_allowed(snapshot: &Snapshot) -> bool {
    snapshot.file.text(snapshot.db()).len() <= MAX_BACKGROUND_BYTES
}

/// The first round: what reading the document finds, as the protocol publishes it. In a GDL
/// document of megabytes the checks over the whole rule set are left to the second round, and
/// a note at the top says so until it lands.
pub fn static_diagnostics(snapshot: &Snapshot) -> Vec<Diagnostic> {
    let mut diagnostics = published(snapshot, &DiagnosticDepth::Static);
    if defers_whole_file_checks(snapshot) {
        diagnostics.push(Diagnostic {
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("ludeme".to_owned()),
            message: format!(
                "this file is larger than {} MB: the checks over its whole rule set run once \
                 typing pauses",
                analysis::LARGE_FILE_BYTES >> 20
            ),
            ..Diagnostic::default()
        });
    }
    diagnostics
}

/// Whether the document's first round leaves checks to the second. Called under
/// [`salsa::Cancelled::catch`] (see [`run_query`]): a cancellation unwinds from here.
fn defers_whole_file_checks(snapshot: &Snapshot) -> bool {
    snapshot
        .analysis
        .defers_whole_file_checks(snapshot.file)
        .unwrap_or_else(|cancelled| ludeme_analysis::resume_cancelled(cancelled))
}

/// The second round: everything `ludeme check` reports for the document (a duplicate of a
/// known game included), and what random play finds within the editor's small budget (not in
/// a document too large for background play: [`background_work_allowed`]).
pub fn full_diagnostics(snapshot: &Snapshot) -> Vec<Diagnostic> {
    let play =
        snapshot.settings.client.random_play.unwrap_or(true) && background_work_allowed(snapshot);
    let depth = DiagnosticDepth::Full {
        simulation: play.then(SimulationOptions::editor),
    };
    published(snapshot, &depth)
}

/// The diagnostics down to `depth`, as the protocol publishes them. Called under
/// [`salsa::Cancelled::catch`] (see [`run_query`]): a cancellation unwinds from here.
fn published(snapshot: &Snapshot, depth: &DiagnosticDepth) -> Vec<Diagnostic> {
    let diagnostics = snapshot
        .analysis
        .diagnostics(snapshot.file, depth)
        .unwrap_or_else(|cancelled| ludeme_analysis::resume_cancelled(cancelled));
    to_published(snapshot, &diagnostics)
}

/// `diagnostics` converted, capped at [`MAX_PUBLISHED`] with a last one saying how many more
/// there are.
fn to_published(snapshot: &Snapshot, diagnostics: &[analysis::Diagnostic]) -> Vec<Diagnostic> {
    let mut published: Vec<Diagnostic> = diagnostics
        .iter()
        .take(MAX_PUBLISHED)
        .map(|diagnostic| to_lsp_diagnostic(diagnostic, &snapshot.document, &snapshot.uri))
        .collect();
    if diagnostics.len() > MAX_PUBLISHED {
        let last = published[MAX_PUBLISHED - 1].range;
        published.push(Diagnostic {
            range: last,
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("ludeme".to_owned()),
            message: format!(
                "{} more problems are not shown; `ludeme check` on the command line lists them all",
                diagnostics.len() - MAX_PUBLISHED
            ),
            ..Diagnostic::default()
        });
    }
    published
}

/// Sends diagnostics to the client, one publication at a time, and only those of a document's
/// current version. The version check and the send happen under one lock: without it, a
/// publication checked just before an edit could reach the client after the edit's own, and
/// the editor would show the older version's problems until the next keystroke.
#[derive(Clone)]
pub struct Publisher {
    client: Client,
    session: Arc<Mutex<Session>>,
    order: Arc<tokio::sync::Mutex<()>>,
    /// The latest first round published for each document. A second round belongs to one first
    /// round, whose diagnostics it repeats: it is dropped once another first round was
    /// published for the document (the workspace scan landed, the document was reopened).
    latest_rounds: Arc<Mutex<HashMap<Uri, FirstRound>>>,
    first_rounds_published: Arc<AtomicU64>,
}

/// A first round's number, unique over the server's life.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FirstRound(u64);

impl Publisher {
    pub fn new(client: Client, session: Arc<Mutex<Session>>) -> Self {
        Self {
            client,
            session,
            order: Arc::default(),
            latest_rounds: Arc::default(),
            first_rounds_published: Arc::default(),
        }
    }

    fn session(&self) -> MutexGuard<'_, Session> {
        lock(&self.session)
    }

    fn latest_rounds(&self) -> MutexGuard<'_, HashMap<Uri, FirstRound>> {
        lock(&self.latest_rounds)
    }

    /// The version of `uri` open now, if it is open.
    pub fn current_version(&self, uri: &Uri) -> Option<i32> {
        self.session().version(uri)
    }

    /// Publishes the first round of `uri`'s diagnostics, computed for `version`, unless the
    /// document has moved on (the edit that moved it publishes anew). Returns the round's
    /// number when it was sent.
    pub async fn publish_first_round(
        &self,
        uri: Uri,
        version: i32,
        diagnostics: Vec<Diagnostic>,
    ) -> Option<FirstRound> {
        let _in_order = self.order.lock().await;
        if self.current_version(&uri) != Some(version) {
            return None;
        }
        let round = FirstRound(self.first_rounds_published.fetch_add(1, Ordering::Relaxed));
        self.latest_rounds().insert(uri.clone(), round);
        self.client
            .publish_diagnostics(uri, diagnostics, Some(version))
            .await;
        Some(round)
    }

    /// Whether `round` is the latest first round of `uri` and the document still at `version`.
    fn is_latest(&self, uri: &Uri, version: i32, round: FirstRound) -> bool {
        self.current_version(uri) == Some(version) && self.latest_rounds().get(uri) == Some(&round)
    }

    /// Publishes the second round (the first round's diagnostics and the slow findings) while
    /// `round` is the latest first round of the document and the document still at `version`.
    async fn publish_second_round(
        &self,
        uri: Uri,
        version: i32,
        round: FirstRound,
        diagnostics: Vec<Diagnostic>,
    ) {
        let _in_order = self.order.lock().await;
        if self.is_latest(&uri, version, round) {
            self.client
                .publish_diagnostics(uri, diagnostics, Some(version))
                .await;
        }
    }

    /// Publishes the diagnostics of a file that is not a document (`ludeme.toml`).
    pub async fn publish_unversioned(&self, uri: Uri, diagnostics: Vec<Diagnostic>) {
        let _in_order = self.order.lock().await;
        self.client
            .publish_diagnostics(uri, diagnostics, None)
            .await;
    }

    /// Clears the diagnostics of a closed document, after any publication already under way.
    pub async fn clear(&self, uri: Uri) {
        let _in_order = self.order.lock().await;
        self.latest_rounds().remove(&uri);
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    /// Waits until the editor has left every document unchanged for [`SLOW_ROUND_DELAY`]. Gives
    /// up (`false`) as soon as `round` is no longer the document's latest first round.
    async fn pause_in_the_edits(&self, uri: &Uri, version: i32, round: FirstRound) -> bool {
        loop {
            if !self.is_latest(uri, version, round) {
                return false;
            }
            let since_last_edit = self
                .session()
                .last_edit()
                .map_or(SLOW_ROUND_DELAY, |edited| edited.elapsed());
            if since_last_edit >= SLOW_ROUND_DELAY {
                return true;
            }
            tokio::time::sleep(SLOW_ROUND_DELAY - since_last_edit).await;
        }
    }
}

/// Publishes `round`'s diagnostics again with the slow findings added, when there are any and
/// `round` is still the document's latest (an edit cancels the work and publishes anew). It
/// starts once the edits pause; work that an edit of another document cancelled starts again
/// at the next pause.
pub async fn publish_slow_findings(
    publisher: Publisher,
    uri: Uri,
    version: i32,
    round: FirstRound,
    first_round: Vec<Diagnostic>,
) {
    let found = loop {
        if !publisher.pause_in_the_edits(&uri, version, round).await {
            return;
        }
        let Some(snapshot) = publisher
            .session()
            .snapshot(&uri)
            .filter(|snapshot| snapshot.document.version == version)
        else {
            return;
        };
        // Outside any query: a cancelled answer counts as no (the next edit starts again).
        let deferred = snapshot
            .analysis
            .defers_whole_file_checks(snapshot.file)
            .unwrap_or(false);
        if !background_work_allowed(&snapshot) && !deferred {
            return;
        }
        let computed = run_query(snapshot, full_diagnostics).await;
        match computed {
            Ok(found) => break found,
            Err(error) if is_content_modified(&error) => continue,
            Err(_) => return,
        }
    };
    if found == first_round {
        return;
    }
    publisher
        .publish_second_round(uri, version, round, found)
        .await;
}

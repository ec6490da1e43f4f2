//! "Breed variants of this game": the code action on a Ludi game without errors, and the
//! command it runs (`workspace/executeCommand`), which breeds variants of the game's current
//! text and writes the best next to its file, in a folder named after it, with their verdicts
//! (the analysis side does both: [`ide::breed_target`] and
//! [`ludeme_analysis::evolve::variants::breed_variants`]).
//!
//! The breeding takes up to a minute of CPU: it runs on a background thread at the lowest
//! priority (`background.rs`), under the request's CPU budget, with `$/progress`. It is
//! cancellable two ways: the progress's cancel button (`window/workDoneProgress/cancel`, what
//! VS Code offers, since it sends the command without a cancellation token) raises the stop
//! flag, and so does a `$/cancelRequest` for the command, which drops the request's future and
//! the guard it holds. The evolution checks the flag before each child and before every move
//! of a child's round robin (inside its searches too); nothing is written then.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ludeme_analysis::evolve::variants::{VariantRequest, breed_variants};
use ludeme_analysis::ide;
use serde_json::{Value, json};
use tower_lsp_server::Client;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Command, MessageType, Uri,
};

use crate::scheduler::run_query;
use crate::session::Snapshot;

/// The command the action runs; its one argument is `{"uri": ...}`, optionally with
/// `children`, `best`, `cpuSeconds`, `games` and `childSeconds` (capped by the server).
pub const BREED_COMMAND: &str = "ludeme.breedVariants";

/// The action's kind: a source action (it acts on the whole game and writes other files).
pub const BREED_KIND: CodeActionKind = CodeActionKind::new("source.ludeme.breed");

/// The most the command's arguments may ask for: children, and CPU seconds in all.
const MOST_CHILDREN: u64 = 500;
const MOST_CPU_SECONDS: f64 = 600.0;
/// The most self-play games of each child's probe, and the CPU seconds of one child.
const MOST_GAMES: u64 = 50;
const MOST_CHILD_SECONDS: f64 = 60.0;

/// The action for the document of `snapshot`, when it is a Ludi game without errors in a file
/// on disk (the children are written beside it).
pub fn breed_action(snapshot: &Snapshot, uri: &Uri) -> Option<CodeActionOrCommand> {
    uri.to_file_path()?;
    ide::breed_target(snapshot.db(), snapshot.file)?;
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: ide::BREED_TITLE.to_owned(),
        kind: Some(BREED_KIND),
        command: Some(Command {
            title: ide::BREED_TITLE.to_owned(),
            command: BREED_COMMAND.to_owned(),
            arguments: Some(vec![json!({ "uri": uri.as_str() })]),
        }),
        ..CodeAction::default()
    }))
}

/// The error of a command that ran and failed (LSP's `RequestFailed`).
fn request_failed(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803),
        message: message.into(),
        data: None,
    }
}

/// The budget the command's argument asks for, within the server's caps.
fn request_of(argument: &Value, stop: Arc<AtomicBool>) -> VariantRequest {
    let defaults = VariantRequest::default();
    let count = |name: &str, default: usize, most: u64| {
        argument[name]
            .as_u64()
            .map_or(default, |n| n.clamp(1, most) as usize)
    };
    let seconds = |name: &str, default: f64, most: f64| {
        argument[name]
            .as_f64()
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(default, |s| s.min(most))
    };
    VariantRequest {
        children: count("children", defaults.children, MOST_CHILDREN),
        best: count("best", defaults.best, MOST_CHILDREN),
        cpu_seconds: seconds("cpuSeconds", defaults.cpu_seconds, MOST_CPU_SECONDS),
        games: count("games", defaults.games, MOST_GAMES),
        child_seconds: seconds("childSeconds", defaults.child_seconds, MOST_CHILD_SECONDS),
        stop: Some(stop),
        project: defaults.project,
    }
}

/// Runs the command: breeds from the document's current text and answers with the folder, the
/// children written (name, file, score, verdict) and the Markdown table; the editor is also
/// shown a one-line message. `snapshot` is the open document the argument names.
pub async fn breed(
    client: &Client,
    progress: bool,
    snapshot: Option<Snapshot>,
    argument: &Value,
) -> Result<Value> {
    let Some(snapshot) = snapshot else {
        return Err(Error::invalid_params(
            "the command's argument names no open document (expected {\"uri\": ...})",
        ));
    };
    let path = snapshot
        .uri
        .to_file_path()
        .map(|path| path.into_owned())
        .ok_or_else(|| Error::invalid_params("the document is not a file on disk"))?;
    // The children are checked with the settings the document's own diagnostics use.
    let target = run_query(snapshot, |snapshot| {
        let name = ide::breed_target(snapshot.db(), snapshot.file)?;
        let project = snapshot
            .analysis
            .settings()
            .unwrap_or_else(|cancelled| ludeme_analysis::resume_cancelled(cancelled));
        Some((name, snapshot.file.text(snapshot.db()).to_string(), project))
    })
    .await?;
    let Some((name, text, project)) = target else {
        return Err(request_failed(
            "only a Ludi game without errors can be bred".to_owned(),
        ));
    };
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_when_dropped = crate::background::StopOnDrop(stop.clone());
    let request = VariantRequest {
        project,
        ..request_of(argument, stop.clone())
    };
    let work = crate::scheduler::spawn_background(move || {
        crate::background::on_own_thread(move || {
            crate::background::lower_current_thread_priority();
            breed_variants(&path, &text, &request)
        })
    });
    let outcome = crate::progress::with_cancellable_progress(
        client,
        progress,
        "Ludeme: breeding variants",
        name.clone(),
        stop,
        work,
    )
    .await
    .map_err(|error| request_failed(format!("the breeding failed inside the server: {error}")))?;
    let variants = match outcome {
        Ok(variants) => variants,
        // The error is the one message: the editor shows a failed command's error itself.
        Err(why) => {
            return Err(request_failed(format!(
                "Ludeme could not breed variants of {name}: {why}"
            )));
        }
    };
    let headline = variants.headline();
    client.show_message(MessageType::INFO, &headline).await;
    let written: Vec<Value> = variants
        .written
        .iter()
        .map(|(record, file)| {
            json!({
                "name": record.name,
                "file": file.display().to_string(),
                "score": record.score,
                "viable": record.viable,
                "reasons": record.reasons,
                "policy": record.policy.as_ref().map(|policy| policy.chosen.clone()),
            })
        })
        .collect();
    Ok(json!({
        "game": variants.game,
        "folder": variants.folder.display().to_string(),
        "bred": variants.records.len(),
        "written": written,
        "headline": headline,
        "markdown": variants.markdown(),
    }))
}

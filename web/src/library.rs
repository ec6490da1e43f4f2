//! The folder served: which games it holds, the one analysis host that reads them, and the
//! engines built from them.
//!
//! A game is named by its path relative to the folder, as [`Library::list`] gives it; a name is
//! accepted only when it is such a relative path without `..` or `.` parts and its canonical
//! path stays under the folder's ([`Library::resolve`]), so that no request reaches a file
//! outside it (not through `..`, an absolute path or a symbolic link).
//!
//! Files are read through the analysis crate's loader ([`load_game`]) and followed by their
//! size and modification time ([`Library::refresh`]): when a file changes on disk, its new text
//! goes into the host and the game gets a new revision; its engines (built by
//! [`Analysis::playable`], kept per revision on a small shelf) are dropped.
//!
//! Locks: a thread never waits for a lock while it holds an [`Analysis`] snapshot, since a
//! write to the host waits for every snapshot to be dropped.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use axum::http::StatusCode;

use ludeme_analysis::config::Config;
use ludeme_analysis::files::{OsFileSystem, collect_game_files, is_game_file, load_game};
use ludeme_analysis::game_report::{GameReport, ProbeRequest, ReportOptions};
use ludeme_analysis::play::{EngineOptions, PlayableGame};
use ludeme_analysis::{Analysis, AnalysisHost, Change, Diagnostic, SourceFile, Syntax};

use crate::error::ApiError;

/// Idle engines kept per game: enough for two requests at once (a player thinking while the
/// page asks for the position) without building the engine again.
const IDLE_ENGINES: usize = 2;

/// How often a query cancelled by a write (a file changed meanwhile) is asked again.
const CANCELLED_RETRIES: usize = 5;

/// The self-play games of a report on the page: enough for a verdict that is not tentative.
const REPORT_GAMES: usize = 20;

/// No new game of a report's probe starts after this many seconds.
const REPORT_SECONDS: u64 = 20;

/// The games of one folder, read through one analysis host.
pub struct Library {
    /// The folder, canonical.
    root: PathBuf,
    settings: Arc<Config>,
    host: Mutex<AnalysisHost>,
    tracked: Mutex<HashMap<PathBuf, Tracked>>,
    revisions: AtomicU64,
}

/// A game file as last read.
struct Tracked {
    file: SourceFile,
    text: Arc<str>,
    stamp: Stamp,
    revision: u64,
    /// Engines of this revision not in use.
    idle: Vec<PlayableGame>,
    /// Why this revision cannot be played, once an engine was asked for.
    unplayable: Option<String>,
}

/// What tells that a file changed without reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

/// A game file of the folder at its current revision.
#[derive(Clone, Debug)]
pub struct Current {
    /// The canonical path.
    pub path: PathBuf,
    pub file: SourceFile,
    /// Grows each time the file's text changes on disk.
    pub revision: u64,
}

/// A game as listed.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The path relative to the folder, with `/` between folders.
    pub name: String,
    /// The language's display name, or why the file cannot be read.
    pub language: Result<&'static str, String>,
}

impl Library {
    /// The games under `root`, with `settings` in force (their corpus folders are read too,
    /// for the EGGG games' `is like`).
    pub fn open(root: &Path, settings: Config) -> Result<Library, String> {
        let root = root
            .canonicalize()
            .map_err(|error| format!("{}: {error}", root.display()))?;
        if !root.is_dir() {
            return Err(format!("{}: not a folder", root.display()));
        }
        let settings = Arc::new(settings);
        let mut host = AnalysisHost::new();
        // Every game of the folder and what `is like` may reach; a folder without games is
        // served all the same (games may be written into it later).
        host.load_paths(&OsFileSystem, std::slice::from_ref(&root), settings.clone());
        Ok(Library {
            root,
            settings,
            host: Mutex::new(host),
            tracked: Mutex::new(HashMap::new()),
            revisions: AtomicU64::new(0),
        })
    }

    /// The folder served, canonical.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The game files of the folder now, sorted by name.
    pub fn list(&self) -> Vec<Listed> {
        let (paths, _) = collect_game_files(std::slice::from_ref(&self.root));
        let mut listed: Vec<Listed> = paths
            .iter()
            .filter_map(|path| {
                let name = self.name_of(path)?;
                let language = self
                    .refresh(path)
                    .map(|current| self.syntax(&current).display_name())
                    .map_err(|error| error.message);
                Some(Listed { name, language })
            })
            .collect();
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        listed
    }

    /// The name a request gives `path` (under the folder): relative, `/`-separated.
    pub fn name_of(&self, path: &Path) -> Option<String> {
        let canonical = path.canonicalize().ok()?;
        let relative = canonical.strip_prefix(&self.root).ok()?;
        let parts: Option<Vec<&str>> = relative
            .components()
            .map(|component| match component {
                Component::Normal(part) => part.to_str(),
                _ => None,
            })
            .collect();
        Some(parts?.join("/"))
    }

    /// The canonical path of the game a request names (see the module's opening).
    pub fn resolve(&self, name: &str) -> Result<PathBuf, ApiError> {
        if name.trim().is_empty() {
            return Err(ApiError::bad_request(
                "name a game by its path in the folder, as the list of games gives it",
            ));
        }
        if name.contains('\0') {
            return Err(ApiError::bad_request(
                "a game's name holds no NUL character",
            ));
        }
        let requested = Path::new(name);
        let outside = || {
            ApiError::forbidden(format!(
                "`{name}` is not a path inside the folder served: games are named by their \
                 path relative to it, without `..`"
            ))
        };
        if requested
            .components()
            .any(|component| !matches!(component, Component::Normal(_)))
            || name.starts_with('\\')
        {
            return Err(outside());
        }
        let not_found = || ApiError::not_found(format!("no game `{name}` in the folder served"));
        let canonical = self
            .root
            .join(requested)
            .canonicalize()
            .map_err(|_| not_found())?;
        // A symbolic link may lead out of the folder.
        if !canonical.starts_with(&self.root) {
            return Err(outside());
        }
        if !canonical.is_file() || !is_game_file(&canonical) {
            return Err(not_found());
        }
        Ok(canonical)
    }

    /// The game at `path` (canonical, under the folder) as it is on disk now: read again when
    /// its size or modification time changed, with a new revision when its text did.
    pub fn refresh(&self, path: &Path) -> Result<Current, ApiError> {
        let metadata = std::fs::metadata(path)
            .map_err(|error| ApiError::not_found(format!("{}: {error}", self.display(path))))?;
        let stamp = Stamp {
            modified: metadata.modified().ok(),
            len: metadata.len(),
        };
        let mut tracked = self.tracked();
        if let Some(known) = tracked.get(path)
            && known.stamp == stamp
        {
            return Ok(current(path, known));
        }
        let game =
            load_game(&OsFileSystem, path, self.settings.files.max_bytes).map_err(|failure| {
                ApiError::unprocessable(format!("{}: {failure}", self.display(path)))
            })?;
        if let Some(known) = tracked.get_mut(path)
            && known.text == game.text
        {
            known.stamp = stamp;
            return Ok(current(path, known));
        }
        let text = game.text.clone();
        let mut change = Change::new();
        change.set_loaded(game);
        let file = self.host().apply_change(change).files[0];
        let revision = self.revisions.fetch_add(1, Ordering::Relaxed) + 1;
        let known = Tracked {
            file,
            text,
            stamp,
            revision,
            idle: Vec::new(),
            unplayable: None,
        };
        let answer = current(path, &known);
        tracked.insert(path.to_path_buf(), known);
        Ok(answer)
    }

    /// A snapshot of the analyses.
    pub fn snapshot(&self) -> Analysis {
        self.host().snapshot()
    }

    /// The language of a game.
    pub fn syntax(&self, current: &Current) -> Syntax {
        self.snapshot().syntax(current.file)
    }

    /// Runs `query` on a fresh snapshot, again when a write cancelled it.
    pub fn ask<T>(
        &self,
        query: impl Fn(&Analysis) -> Result<T, ludeme_analysis::Cancelled>,
    ) -> Result<T, ApiError> {
        for _ in 0..CANCELLED_RETRIES {
            // The snapshot is dropped before anything else is waited for.
            let answer = query(&self.snapshot());
            if let Ok(answer) = answer {
                return Ok(answer);
            }
        }
        Err(ApiError::unavailable(
            "the game kept changing on disk while it was read; try again",
        ))
    }

    /// The text and diagnostics of a game (what reading it finds: syntax and checks).
    pub fn diagnostics(&self, current: &Current) -> Result<(Arc<str>, Vec<Diagnostic>), ApiError> {
        self.ask(|analysis| {
            let text = analysis.text(current.file)?;
            let found =
                analysis.diagnostics(current.file, &ludeme_analysis::DiagnosticDepth::Static)?;
            Ok((text, found))
        })
    }

    /// The rules of a game in plain English, wrapped at `width` columns.
    pub fn english(&self, current: &Current, width: usize) -> Result<String, ApiError> {
        self.ask(|analysis| {
            let explanation = analysis.explain(current.file)?;
            Ok(match explanation.emptiness() {
                Some(why) => format!("The file {why}."),
                None => explanation.to_plain_text(width),
            })
        })
    }

    /// The report of a game (`ludeme report`'s page): its rules, board, a short probe's
    /// verdict, criteria and plots, its nearest games in the folder and its diagnostics. The
    /// probe plays [`REPORT_GAMES`] games within [`REPORT_SECONDS`], so that the page shows it
    /// while a person waits. It is played on an engine of the game after the rest is gathered,
    /// with no snapshot held: a file saved meanwhile is read at once, not after the games.
    pub fn report(&self, current: &Current, shown: &str) -> Result<String, ApiError> {
        let limit = Duration::from_secs(REPORT_SECONDS);
        let probe = ProbeRequest {
            games: REPORT_GAMES,
            time_limit: Some(limit),
            ..ProbeRequest::default()
        };
        let options = ReportOptions {
            probe: None,
            ..ReportOptions::default()
        };
        let mut report = self.ask(|analysis| {
            GameReport::gather(analysis, current.file, shown, &options, &mut |_| {})
        })?;
        if report.play.is_ok() {
            match self.with_engine(current, |game| report.add_probe(game, &probe)) {
                // Unplayable since it was gathered: the page says why without the probe.
                Err(error) if error.status == StatusCode::CONFLICT => {}
                played => played?,
            }
        }
        report
            .to_html()
            .map_err(|error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))
    }

    /// Runs `work` with an engine of the game's current revision: an idle one, or one built
    /// now. A game that cannot be played gives a 409 error with the reason.
    pub fn with_engine<T>(
        &self,
        current: &Current,
        work: impl FnOnce(&PlayableGame) -> T,
    ) -> Result<T, ApiError> {
        let shelved = {
            let mut tracked = self.tracked();
            match tracked.get_mut(&current.path) {
                Some(known) if known.revision == current.revision => {
                    if let Some(why) = &known.unplayable {
                        return Err(ApiError::conflict(unplayable_message(why)));
                    }
                    known.idle.pop()
                }
                _ => None,
            }
        };
        let engine = match shelved {
            Some(engine) => engine,
            None => {
                let built = self
                    .ask(|analysis| analysis.playable(current.file, &EngineOptions::default()))?;
                match built {
                    Ok(engine) => engine,
                    Err(why) => {
                        if let Some(known) = self.tracked().get_mut(&current.path)
                            && known.revision == current.revision
                        {
                            known.unplayable = Some(why.clone());
                        }
                        return Err(ApiError::conflict(unplayable_message(&why)));
                    }
                }
            }
        };
        let answer = work(&engine);
        if let Some(known) = self.tracked().get_mut(&current.path)
            && known.revision == current.revision
            && known.idle.len() < IDLE_ENGINES
        {
            known.idle.push(engine);
        }
        Ok(answer)
    }

    /// Why the current revision cannot be played, if an engine could not be built for it.
    pub fn playable_problem(&self, current: &Current) -> Option<String> {
        match self.with_engine(current, |_| ()) {
            Ok(()) => None,
            Err(error) => Some(error.message),
        }
    }

    fn display(&self, path: &Path) -> String {
        self.name_of(path)
            .unwrap_or_else(|| path.display().to_string())
    }

    fn host(&self) -> MutexGuard<'_, AnalysisHost> {
        // A panic while holding the lock leaves the host as consistent as salsa keeps it.
        self.host
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn tracked(&self) -> MutexGuard<'_, HashMap<PathBuf, Tracked>> {
        self.tracked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn current(path: &Path, known: &Tracked) -> Current {
    Current {
        path: path.to_path_buf(),
        file: known.file,
        revision: known.revision,
    }
}

fn unplayable_message(why: &str) -> String {
    format!("the game cannot be played: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder_with_games() -> tempfile::TempDir {
        let folder = tempfile::tempdir().unwrap();
        std::fs::create_dir(folder.path().join("gdl")).unwrap();
        std::fs::write(
            folder.path().join("gdl/ticTacToe.kif"),
            include_str!("../../corpus/gdl/ticTacToe.kif"),
        )
        .unwrap();
        std::fs::write(
            folder.path().join("tic-tac-toe.ludi"),
            include_str!("../../corpus/ludi/tic-tac-toe.ludi"),
        )
        .unwrap();
        std::fs::write(folder.path().join("notes.txt"), "not a game").unwrap();
        folder
    }

    #[test]
    fn games_are_listed_by_relative_name_with_their_language() {
        let folder = folder_with_games();
        let library = Library::open(folder.path(), Config::default()).unwrap();
        let listed: Vec<(String, Result<&str, String>)> = library
            .list()
            .into_iter()
            .map(|game| (game.name, game.language))
            .collect();
        assert_eq!(
            listed,
            vec![
                ("gdl/ticTacToe.kif".to_owned(), Ok("GDL (KIF)")),
                ("tic-tac-toe.ludi".to_owned(), Ok("Ludi GDL")),
            ]
        );
    }

    #[test]
    fn only_relative_names_of_game_files_under_the_folder_resolve() {
        let folder = folder_with_games();
        let library = Library::open(folder.path(), Config::default()).unwrap();
        let resolved = library.resolve("gdl/ticTacToe.kif").unwrap();
        assert!(resolved.starts_with(library.root()));
        let status = |name: &str| library.resolve(name).unwrap_err().status.as_u16();
        assert_eq!(status("gdl/../tic-tac-toe.ludi"), 403);
        assert_eq!(status("../outside.kif"), 403);
        assert_eq!(status("./tic-tac-toe.ludi"), 403);
        let absolute = resolved.display().to_string();
        assert_eq!(status(&absolute), 403);
        assert_eq!(status("missing.kif"), 404);
        assert_eq!(status("notes.txt"), 404);
        assert_eq!(status("gdl"), 404);
        assert_eq!(status(""), 400);
        assert_eq!(status("a\0b.kif"), 400);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_folder_is_refused() {
        let folder = folder_with_games();
        let elsewhere = tempfile::tempdir().unwrap();
        let secret = elsewhere.path().join("secret.kif");
        std::fs::write(&secret, "(role x)").unwrap();
        std::os::unix::fs::symlink(&secret, folder.path().join("link.kif")).unwrap();
        let library = Library::open(folder.path(), Config::default()).unwrap();
        assert_eq!(
            library.resolve("link.kif").unwrap_err().status.as_u16(),
            403
        );
    }

    #[test]
    fn a_changed_file_gets_a_new_revision_and_its_new_diagnostics() {
        let folder = folder_with_games();
        let library = Library::open(folder.path(), Config::default()).unwrap();
        let path = library.resolve("tic-tac-toe.ludi").unwrap();
        let before = library.refresh(&path).unwrap();
        assert_eq!(library.refresh(&path).unwrap().revision, before.revision);
        assert!(library.playable_problem(&before).is_none());
        let (_, found) = library.diagnostics(&before).unwrap();
        assert!(!Analysis::has_errors(&found), "{found:?}");

        std::fs::write(&path, "(game Broken (players White Black) (board").unwrap();
        let after = library.refresh(&path).unwrap();
        assert!(after.revision > before.revision);
        let (text, found) = library.diagnostics(&after).unwrap();
        assert!(text.starts_with("(game Broken"));
        assert!(Analysis::has_errors(&found), "{found:?}");
    }
}

//! The workspace: every game file under the workspace folders is known to the analyses (for
//! `is like`, nearest games, workspace symbols), not only the open ones; so are the games of the
//! corpus folders `ludeme.toml` names. The disk is read off the protocol thread ([`scan`]) and
//! the result applied under the session's lock ([`Session::apply_scan`]); file watching keeps
//! the picture current ([`Session::apply_file_change`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ludeme_analysis::config::{CONFIG_FILE_NAME, Config, find_config, load_config};
use ludeme_analysis::files::{OsFileSystem, collect_game_files, is_game_file, load_game};
use ludeme_analysis::{Analysis, GAME_FILE_EXTENSIONS, SourceFile, Syntax, document_symbols};
use tower_lsp_server::ls_types::{
    Diagnostic, DidChangeWatchedFilesRegistrationOptions, FileChangeType, FileSystemWatcher,
    GlobPattern, InitializeParams, Location, OneOf, Registration, SymbolKind, Uri, WorkspaceSymbol,
};

use crate::config::{ClientSettings, Settings};
use crate::convert::to_lsp_diagnostic;
use crate::document::{Document, PositionEncoding};
use crate::session::Session;

/// The most symbols one `workspace/symbol` answer lists (editors show the first few anyway).
const MAX_WORKSPACE_SYMBOLS: usize = 1_000;

/// What was read from disk: the settings and the game files with their text.
pub struct Scan {
    pub settings: Settings,
    /// The `ludeme.toml` in force and its text, to publish its diagnostics on.
    pub config_file: Option<PathBuf>,
    config_text: String,
    workspace: Vec<(PathBuf, Syntax, Arc<str>)>,
    corpus: Vec<(PathBuf, Syntax, Arc<str>)>,
}

/// Reads the settings of the first root and the game files under `roots` and the corpus
/// folders. Blocking: call it off the async runtime.
pub fn scan(roots: &[PathBuf], client: ClientSettings) -> Scan {
    let config_file = roots.iter().find_map(|root| find_config(root));
    let (file, file_diagnostics, config_text) = match config_file.as_deref().map(load_config) {
        Some(Ok(loaded)) => loaded,
        // An unreadable settings file is as good as none; the watcher reloads it when it changes.
        Some(Err(_)) | None => (Config::default(), Vec::new(), String::new()),
    };
    let max_bytes = file.files.max_bytes;
    let workspace = read_all(&game_files_under(roots), max_bytes);
    let workspace_paths: BTreeSet<PathBuf> = workspace
        .iter()
        .map(|(path, _, _)| canonical(path))
        .collect();
    // A corpus folder inside the workspace would list the same games twice (and each would be
    // its own duplicate): workspace files are taken once, as workspace files.
    let corpus_paths: Vec<PathBuf> = game_files_under(&file.corpus_folders)
        .into_iter()
        .filter(|path| !workspace_paths.contains(&canonical(path)))
        .collect();
    let corpus = read_all(&corpus_paths, max_bytes);
    Scan {
        settings: Settings {
            file,
            file_diagnostics,
            client,
        },
        config_file,
        config_text,
        workspace,
        corpus,
    }
}

impl Scan {
    /// The settings file's URI and its diagnostics as the protocol publishes them (an empty
    /// list clears those of an earlier version).
    pub fn config_file_and_diagnostics(&self) -> Option<(Uri, Vec<Diagnostic>)> {
        let path = self.config_file.as_ref()?;
        let uri = Uri::from_file_path(path)?;
        let document = Document::new(&self.config_text, 0, PositionEncoding::Utf16);
        let diagnostics = self
            .settings
            .file_diagnostics
            .iter()
            .map(|diagnostic| to_lsp_diagnostic(diagnostic, &document, &uri))
            .collect();
        Some((uri, diagnostics))
    }
}

/// What the client announced it can do, among what this server uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientSupport {
    /// `window/workDoneProgress/create`.
    pub progress: bool,
    /// `workspace/codeLens/refresh`.
    pub lens_refresh: bool,
    /// Dynamic registration of `workspace/didChangeWatchedFiles`.
    pub watch_registration: bool,
}

impl ClientSupport {
    pub fn of(params: &InitializeParams) -> Self {
        let capabilities = &params.capabilities;
        let workspace = capabilities.workspace.as_ref();
        ClientSupport {
            progress: capabilities
                .window
                .as_ref()
                .and_then(|window| window.work_done_progress)
                .unwrap_or(false),
            lens_refresh: workspace
                .and_then(|workspace| workspace.code_lens.as_ref())
                .and_then(|lens| lens.refresh_support)
                .unwrap_or(false),
            watch_registration: workspace
                .and_then(|workspace| workspace.did_change_watched_files.as_ref())
                .and_then(|watch| watch.dynamic_registration)
                .unwrap_or(false),
        }
    }
}

/// The workspace folders of `initialize` (or its older `rootUri`), as paths.
pub fn workspace_roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|folder| folder.uri.to_file_path().map(|path| path.into_owned()))
        .collect();
    #[allow(deprecated)] // clients that predate workspace folders send only `rootUri`
    if roots.is_empty()
        && let Some(root) = params.root_uri.as_ref().and_then(|uri| uri.to_file_path())
    {
        roots.push(root.into_owned());
    }
    roots
}

/// The registration asking the client to report changes to game files and `ludeme.toml`.
pub fn file_watch_registration() -> Registration {
    let pattern = |glob: String| FileSystemWatcher {
        glob_pattern: GlobPattern::String(glob),
        kind: None,
    };
    let extensions = GAME_FILE_EXTENSIONS.join(",");
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![
            pattern(format!("**/*.{{{extensions}}}")),
            pattern(format!("**/{CONFIG_FILE_NAME}")),
        ],
    };
    Registration {
        id: "ludeme/watch-game-files".to_owned(),
        method: "workspace/didChangeWatchedFiles".to_owned(),
        register_options: serde_json::to_value(options).ok(),
    }
}

fn game_files_under(folders: &[PathBuf]) -> Vec<PathBuf> {
    let existing: Vec<PathBuf> = folders
        .iter()
        .filter(|folder| folder.is_dir())
        .cloned()
        .collect();
    // Problems (an unreadable folder, a folder without games) leave nothing to analyse; the
    // editor has no place to show them, and a workspace without games is normal.
    collect_game_files(&existing).0
}

/// The games of `paths` that can be read, of at most `max_bytes` (the others are simply not
/// known).
fn read_all(paths: &[PathBuf], max_bytes: u64) -> Vec<(PathBuf, Syntax, Arc<str>)> {
    paths
        .iter()
        .filter_map(|path| load_game(&OsFileSystem, path, max_bytes).ok())
        .map(|game| (game.path, game.syntax, game.text))
        .collect()
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Session {
    pub fn set_roots(&mut self, roots: Vec<PathBuf>) {
        self.roots = roots;
    }

    /// Reads the workspace's settings file now, before any document is open, so that the first
    /// diagnostics already follow its rule selection; the scan of the game files, which takes
    /// longer, runs later in the background and reads it again.
    pub fn load_settings_file(&mut self) {
        let config_file = self.roots.iter().find_map(|root| find_config(root));
        let Some(Ok((file, file_diagnostics, _))) = config_file.as_deref().map(load_config) else {
            return;
        };
        let mut settings = (*self.settings).clone();
        settings.file = file;
        settings.file_diagnostics = file_diagnostics;
        self.set_settings(settings);
    }

    /// Replaces the client's settings (the file's stay).
    pub fn set_client_settings(&mut self, client: ClientSettings) {
        let mut settings = (*self.settings).clone();
        settings.client = client;
        self.set_settings(settings);
    }

    /// Makes `scan` the known picture of the disk: its settings, workspace files and corpus.
    /// Open documents keep the editor's text. Returns whether anything the open documents'
    /// diagnostics depend on changed (the settings, the known files or their texts).
    pub fn apply_scan(&mut self, roots: Vec<PathBuf>, scan: Scan) -> bool {
        self.roots = roots;
        let mut changed = self.settings.file != scan.settings.file;
        self.set_settings(scan.settings);
        self.take_known_change();
        // Files no longer on disk (or no longer in a corpus folder) are forgotten; the others
        // keep their inputs, so that what was computed for them stays valid.
        let scanned: BTreeSet<&PathBuf> = scan
            .workspace
            .iter()
            .chain(&scan.corpus)
            .map(|(path, _, _)| path)
            .collect();
        let gone: Vec<PathBuf> = self
            .disk_files
            .keys()
            .chain(self.corpus_files.keys())
            .filter(|key| !scanned.contains(key))
            .cloned()
            .collect();
        for key in gone {
            if !self.is_open(&key) {
                self.remove_from_host(&key);
            }
        }
        self.disk_files.clear();
        self.corpus_files.clear();
        for (path, syntax, text) in scan.workspace {
            let (file, set) = self.keep_or_set(&path, syntax, text);
            changed |= set;
            self.disk_files.insert(path, file);
        }
        for (path, syntax, text) in scan.corpus {
            let (file, set) = self.keep_or_set(&path, syntax, text);
            changed |= set;
            self.corpus_files.insert(path, file);
        }
        self.known_games_changed();
        // A known game added, removed or changed: the open documents' duplicates and nearest
        // games may differ.
        self.take_known_change() || changed
    }

    /// The input of `path` with `text`: the existing one when the document is open (the
    /// editor's text wins) or its text is unchanged (nothing to recompute), else set anew; and
    /// whether it was set.
    fn keep_or_set(&mut self, path: &Path, syntax: Syntax, text: Arc<str>) -> (SourceFile, bool) {
        match self.host.file(path) {
            Some(file)
                if self.is_open(path)
                    || (file.syntax(self.host.db()) == syntax
                        && *file.text(self.host.db()) == text) =>
            {
                (file, false)
            }
            _ => (self.set_known_text(path, syntax, text, None), true),
        }
    }

    /// The workspace folders, for a new [`scan`].
    pub fn roots(&self) -> Vec<PathBuf> {
        self.roots.clone()
    }

    /// Applies one change the file watcher reported. Returns whether the settings file changed
    /// (then the caller scans again: rule selection, budgets and corpus folders may differ).
    pub fn apply_file_change(&mut self, uri: &Uri, change: FileChangeType) -> FileChange {
        let Some(path) = uri.to_file_path().map(|path| path.into_owned()) else {
            return FileChange::Ignored;
        };
        if path
            .file_name()
            .is_some_and(|name| name == CONFIG_FILE_NAME)
        {
            return FileChange::Settings;
        }
        if !is_game_file(&path) || !self.roots.iter().any(|root| path.starts_with(root)) {
            return FileChange::Ignored;
        }
        if self.is_open(&path) {
            // The editor's text wins; only whether the file exists on disk changes.
            if change == FileChangeType::DELETED {
                self.disk_files.remove(&path);
            } else if let Some(file) = self.host.file(&path) {
                self.disk_files.insert(path, file);
            }
        } else if change == FileChangeType::DELETED {
            self.disk_files.remove(&path);
            self.remove_from_host(&path);
        } else {
            self.reload_from_disk(&path);
        }
        self.known_games_changed();
        FileChange::Games
    }

    /// A snapshot for workspace-wide requests: the database and the workspace's files.
    pub fn workspace_snapshot(&self) -> WorkspaceSnapshot {
        let open_texts = self
            .open_uris()
            .into_iter()
            .filter_map(|uri| {
                let snapshot = self.snapshot(&uri)?;
                Some((snapshot.file, uri))
            })
            .collect();
        WorkspaceSnapshot {
            analysis: self.host.snapshot(),
            files: self.known_workspace.clone(),
            open: open_texts,
            encoding: self.encoding,
        }
    }
}

/// What a reported file change touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// Not a game file of the workspace nor the settings.
    Ignored,
    /// A game file appeared, changed or went away.
    Games,
    /// `ludeme.toml` changed.
    Settings,
}

pub struct WorkspaceSnapshot {
    pub analysis: Analysis,
    files: Arc<[SourceFile]>,
    /// Open documents and their URIs (the client's spelling, kept in answers).
    open: Vec<(SourceFile, Uri)>,
    encoding: PositionEncoding,
}

/// The symbols of every workspace file whose name contains `query` (case ignored), as
/// `workspace/symbol` answers them: games, ludemes, definitions, rules and statements.
pub fn workspace_symbols(
    snapshot: &WorkspaceSnapshot,
    query: &str,
    kind_of: impl Fn(ludeme_analysis::SymbolKind) -> SymbolKind,
) -> Vec<WorkspaceSymbol> {
    let query = query.to_lowercase();
    let db = snapshot.analysis.db();
    let mut found = Vec::new();
    for &file in snapshot.files.iter() {
        let symbols = document_symbols(db, file);
        let mut matching = Vec::new();
        collect_matching(symbols, None, &query, &mut matching);
        if matching.is_empty() {
            continue;
        }
        let Some(uri) = snapshot
            .open
            .iter()
            .find(|(open, _)| *open == file)
            .map(|(_, uri)| uri.clone())
            .or_else(|| Uri::from_file_path(file.path(db)))
        else {
            continue;
        };
        // Positions need the file's lines; built once per file that has a match.
        let document = Document::new(file.text(db), 0, snapshot.encoding);
        for (symbol, container) in matching {
            #[allow(deprecated)] // `deprecated` is a required field of the protocol type
            found.push(WorkspaceSymbol {
                name: symbol.name.clone(),
                kind: kind_of(symbol.kind),
                tags: None,
                container_name: container,
                location: OneOf::Left(Location::new(
                    uri.clone(),
                    document.range(symbol.selection_range),
                )),
                data: None,
            });
            if found.len() >= MAX_WORKSPACE_SYMBOLS {
                return found;
            }
        }
    }
    found
}

fn collect_matching<'a>(
    symbols: &'a [ludeme_analysis::DocumentSymbol],
    container: Option<&str>,
    query: &str,
    found: &mut Vec<(&'a ludeme_analysis::DocumentSymbol, Option<String>)>,
) {
    for symbol in symbols {
        if !symbol.name.is_empty() && symbol.name.to_lowercase().contains(query) {
            found.push((symbol, container.map(str::to_owned)));
        }
        collect_matching(&symbol.children, Some(&symbol.name), query, found);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(folder: &Path, name: &str, text: &str) -> PathBuf {
        let path = folder.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn temporary_folder(name: &str) -> PathBuf {
        let folder = std::env::temp_dir().join(format!(
            "ludeme-lsp-workspace-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn a_scan_finds_games_settings_and_corpus_once() {
        let root = temporary_folder("scan");
        write(&root, "games/a.ludi", "(game A (players White Black))");
        write(&root, "games/notes.txt", "not a game");
        write(&root, "corpus/b.kif", "(role x)");
        write(
            &root,
            "ludeme.toml",
            "[corpus]\nfolders = [\"corpus\", \"../elsewhere-that-does-not-exist\"]\n",
        );
        let scan = scan(std::slice::from_ref(&root), ClientSettings::default());
        let names = |files: &[(PathBuf, Syntax, Arc<str>)]| -> Vec<PathBuf> {
            files
                .iter()
                .map(|(path, _, _)| path.strip_prefix(&root).unwrap().to_path_buf())
                .collect()
        };
        assert_eq!(
            names(&scan.workspace),
            [PathBuf::from("corpus/b.kif"), PathBuf::from("games/a.ludi")]
        );
        // The corpus folder lies inside the workspace: its game is a workspace game only.
        assert!(scan.corpus.is_empty());
        assert_eq!(scan.config_file, Some(root.join("ludeme.toml")));
        assert!(scan.settings.file_diagnostics.is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn watched_changes_create_update_and_delete_known_files() {
        let root = temporary_folder("watch");
        let path = write(&root, "a.kif", "(role x)");
        let mut session = Session::new(PositionEncoding::Utf16);
        let scanned = scan(std::slice::from_ref(&root), ClientSettings::default());
        session.apply_scan(vec![root.clone()], scanned);
        assert_eq!(session.known_workspace.len(), 1);

        let created = write(&root, "sub/b.ludi", "(game B)");
        let uri = Uri::from_file_path(&created).unwrap();
        assert_eq!(
            session.apply_file_change(&uri, FileChangeType::CREATED),
            FileChange::Games
        );
        assert_eq!(session.known_workspace.len(), 2);

        std::fs::write(&path, "(role y)").unwrap();
        let uri = Uri::from_file_path(&path).unwrap();
        session.apply_file_change(&uri, FileChangeType::CHANGED);
        let file = session.host.file(&path).unwrap();
        assert_eq!(&**file.text(session.host.db()), "(role y)");

        session.apply_file_change(&uri, FileChangeType::DELETED);
        assert_eq!(session.known_workspace.len(), 1);
        assert!(session.host.file(&path).is_none());

        let settings = Uri::from_file_path(root.join("ludeme.toml")).unwrap();
        assert_eq!(
            session.apply_file_change(&settings, FileChangeType::CHANGED),
            FileChange::Settings
        );
        let outside = Uri::from_file_path(std::env::temp_dir().join("elsewhere.kif")).unwrap();
        assert_eq!(
            session.apply_file_change(&outside, FileChangeType::CREATED),
            FileChange::Ignored
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}

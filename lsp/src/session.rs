//! The server's state between messages: the analysis host, the open documents, the game files
//! of the workspace and of the corpus folders (known, not open), and the settings.
//!
//! Plain synchronous code, so that the edit logic is tested without a protocol in between.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use ludeme_analysis::files::{OsFileSystem, load_game};
use ludeme_analysis::{
    Analysis, AnalysisHost, Change, EditedTree, LARGE_FILE_BYTES, RootDatabase, SourceFile, Syntax,
    kif_forms_read, parse,
};
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use crate::config::Settings;
use crate::document::{Document, PositionEncoding};

#[derive(Default)]
pub struct Session {
    pub(crate) host: AnalysisHost,
    documents: HashMap<Uri, OpenDocument>,
    pub encoding: PositionEncoding,
    pub(crate) settings: Arc<Settings>,
    /// The folders of the workspace, as the client named them.
    pub(crate) roots: Vec<PathBuf>,
    /// Game files on disk under the roots, by analysis key.
    pub(crate) disk_files: BTreeMap<PathBuf, SourceFile>,
    /// Game files of the corpus folders of `ludeme.toml` that are not workspace files.
    pub(crate) corpus_files: BTreeMap<PathBuf, SourceFile>,
    /// The workspace's known games (disk files and open documents), for workspace symbols.
    pub(crate) known_workspace: Arc<[SourceFile]>,
    /// Whether the known games (their lists or texts) changed since [`Session::take_known_change`]:
    /// the nearest-game lenses of the open documents then show something else.
    known_changed: bool,
    /// When the editor last opened, changed or closed a document (see [`Session::last_edit`]).
    last_edit: Option<Instant>,
}

struct OpenDocument {
    document: Document,
    file: SourceFile,
    key: PathBuf,
    /// The syntax tree last given to the host with the text, edits applied (see
    /// [`Session::change`]).
    edited_tree: Option<EditedTree>,
}

/// What a request needs to answer off the protocol thread: a database snapshot, the file and the
/// text it was computed from (for position conversions), and the settings in force.
pub struct Snapshot {
    pub uri: Uri,
    pub analysis: Analysis,
    pub file: SourceFile,
    pub document: Document,
    pub settings: Arc<Settings>,
}

impl Snapshot {
    /// The database, for the editor features of [`ludeme_analysis::ide`].
    pub fn db(&self) -> &RootDatabase {
        self.analysis.db()
    }

    /// The document's URI as text, as lens data and command arguments carry it.
    pub fn document_uri(&self) -> String {
        self.uri.as_str().to_owned()
    }
}

impl Session {
    pub fn new(encoding: PositionEncoding) -> Self {
        Self {
            encoding,
            ..Self::default()
        }
    }

    /// Opens a document. Returns `false` when it is not a game file the server understands.
    pub fn open(&mut self, uri: Uri, language_id: &str, text: &str, version: i32) -> bool {
        let key = file_key(&uri);
        let Some(syntax) =
            Syntax::detect(&key, text).or_else(|| Syntax::from_language_id(language_id))
        else {
            return false;
        };
        let file = self.set_known_text(&key, syntax, Arc::from(text), None);
        self.last_edit = Some(Instant::now());
        let document = Document::new(text, version, self.encoding);
        self.documents.insert(
            uri,
            OpenDocument {
                document,
                file,
                key,
                edited_tree: None,
            },
        );
        self.known_games_changed();
        true
    }

    /// Applies the changes of one `didChange`, in order, to the text and to the last syntax tree.
    /// Returns `false` for a document that is not open.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
    ) -> bool {
        let Some(open) = self.documents.get_mut(uri) else {
            return false;
        };
        let db = self.host.db();
        // The tree the edits are applied to. A KIF text the fast reader accepts has its
        // diagnostics without a syntax tree, so none is parsed for it here, where the parse
        // would delay every keystroke's diagnostics: the edits go on the last tree given (the
        // features that need a tree re-parse it incrementally), and the first edit parses the
        // opened text once, with the parser whose trees re-parsing reuses. Other texts were
        // parsed for their diagnostics already. A clean KIF text of megabytes keeps no tree at
        // all: its outline, folding and checks come off the fast reader's forms, and a tree
        // would cost about twenty times the text and seconds on the protocol thread at its
        // first edit; the rare feature that needs one parses the text it is asked about.
        let clean_kif = kif_forms_read(db, open.file).is_some();
        let large_clean_kif = clean_kif && open.file.text(db).len() > LARGE_FILE_BYTES;
        let mut edited_tree = match &open.edited_tree {
            _ if large_clean_kif => None,
            Some(last) if clean_kif => Some(last.clone()),
            None if clean_kif => Some(EditedTree::parse_for_editing(
                open.file.syntax(db),
                open.file.text(db),
            )),
            _ => Some(EditedTree::new(parse(db, open.file))),
        };
        for change in changes {
            let edit = open.document.apply_change(change.range, &change.text);
            if let Some(tree) = &mut edited_tree {
                tree.edit(&edit);
            }
        }
        open.edited_tree = edited_tree.clone();
        open.document.version = version;
        let syntax = open.file.syntax(self.host.db());
        let text: Arc<str> = Arc::from(open.document.text());
        let mut change = Change::new();
        change.set_file(open.key.clone(), syntax, text, edited_tree);
        self.host.apply_change(change);
        self.last_edit = Some(Instant::now());
        // The edited document is a known game of the others' nearest-game searches.
        self.known_changed = true;
        true
    }

    /// Closes a document. A workspace file goes back to its text on disk (it stays known); any
    /// other document is forgotten. Returns `false` when it was not open (not a game file).
    pub fn close(&mut self, uri: &Uri) -> bool {
        let Some(open) = self.documents.remove(uri) else {
            return false;
        };
        self.last_edit = Some(Instant::now());
        if self.disk_files.contains_key(&open.key) {
            self.reload_from_disk(&open.key);
        } else {
            self.remove_from_host(&open.key);
        }
        self.known_games_changed();
        true
    }

    pub fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        let open = self.documents.get(uri)?;
        Some(Snapshot {
            uri: uri.clone(),
            analysis: self.host.snapshot(),
            file: open.file,
            document: open.document.clone(),
            settings: self.settings.clone(),
        })
    }

    /// When the editor last opened, changed or closed a document: background work waits for a
    /// pause in the edits, since each one writes to the database and would cancel it.
    pub fn last_edit(&self) -> Option<Instant> {
        self.last_edit
    }

    pub fn version(&self, uri: &Uri) -> Option<i32> {
        self.documents.get(uri).map(|open| open.document.version)
    }

    /// The open documents.
    pub fn open_uris(&self) -> Vec<Uri> {
        self.documents.keys().cloned().collect()
    }

    /// Whether the document with analysis key `key` is open (the editor's text wins over the
    /// disk's).
    pub(crate) fn is_open(&self, key: &Path) -> bool {
        self.documents.values().any(|open| open.key == key)
    }

    pub fn settings(&self) -> Arc<Settings> {
        self.settings.clone()
    }

    /// Reads `key` from disk into the host when it is not open. Returns `false` when it cannot be
    /// read as a game file (it is then forgotten).
    pub(crate) fn reload_from_disk(&mut self, key: &Path) -> bool {
        match load_game(&OsFileSystem, key, self.settings.file.files.max_bytes) {
            Ok(game) => {
                let file = self.set_known_text(key, game.syntax, game.text, None);
                self.disk_files.insert(key.to_path_buf(), file);
                true
            }
            Err(_) => {
                self.disk_files.remove(key);
                self.remove_from_host(key);
                false
            }
        }
    }

    /// Forgets `key` in the host (and so in the project's lists).
    pub(crate) fn remove_from_host(&mut self, key: &Path) {
        let mut change = Change::new();
        change.remove_file(key);
        self.host.apply_change(change);
    }

    /// Gives the project its lists of known games anew after files were opened, closed,
    /// created or deleted (the host sets them only when they differ: what was worked out
    /// among unchanged lists stays valid).
    pub(crate) fn known_games_changed(&mut self) {
        let mut workspace: Vec<PathBuf> = self.disk_files.keys().cloned().collect();
        for open in self.documents.values() {
            if !self.disk_files.contains_key(&open.key) {
                workspace.push(open.key.clone());
            }
        }
        let corpus: Vec<PathBuf> = self.corpus_files.keys().cloned().collect();
        let known: Vec<SourceFile> = workspace
            .iter()
            .filter_map(|key| self.host.file(key))
            .collect();
        if *self.known_workspace != *known {
            self.known_workspace = known.into();
        }
        let mut change = Change::new();
        change.set_workspace(workspace).set_corpus(corpus);
        if self.host.apply_change(change).project_changed {
            self.known_changed = true;
        }
    }

    /// Whether the known games changed since the last call.
    pub(crate) fn take_known_change(&mut self) -> bool {
        std::mem::take(&mut self.known_changed)
    }

    /// Gives the host `text` for `key`; a changed text of a known game counts as a change of
    /// the known games.
    pub(crate) fn set_known_text(
        &mut self,
        key: &Path,
        syntax: Syntax,
        text: Arc<str>,
        edited_tree: Option<EditedTree>,
    ) -> SourceFile {
        let changed = self
            .host
            .file(key)
            .is_some_and(|file| *file.text(self.host.db()) != text);
        let mut change = Change::new();
        change.set_file(key, syntax, text, edited_tree);
        let file = self.host.apply_change(change).files[0];
        self.known_changed |= changed;
        file
    }

    /// Puts the settings in force: the file's, with the client's probe budgets over them.
    pub(crate) fn set_settings(&mut self, settings: Settings) {
        let mut config = settings.file.clone();
        config.probe = settings.probe();
        self.settings = Arc::new(settings);
        let mut change = Change::new();
        change.set_settings(Arc::new(config));
        self.host.apply_change(change);
    }
}

/// The analysis key of a document: its path for `file:` URIs, else the URI text.
pub(crate) fn file_key(uri: &Uri) -> PathBuf {
    uri.to_file_path()
        .map(|path| path.into_owned())
        .unwrap_or_else(|| PathBuf::from(uri.as_str()))
}

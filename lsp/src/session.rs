//! The server's state between messages: the analysis host, the open documents, the game files
//! of the workspace and of the corpus folders (known, not open), and the settings.
//!
//! Plain synchronous code, so that the edit logic is tested without a protocol in between.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use ludeme_analysis::{
    AnalysisHost, EditedTree, RootDatabase, SourceFile, Syntax, kif_forms_read, parse,
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
    /// The known games as lists for snapshots, rebuilt when the sets change.
    pub(crate) known: KnownGames,
    /// The files last given to the EGGG workspace input.
    egg_files: Option<Vec<SourceFile>>,
    /// When the editor last opened, changed or closed a document (see [`Session::last_edit`]).
    last_edit: Option<Instant>,
}

/// The games nearest-game searches look among, shared by every snapshot until the sets change.
#[derive(Clone, Default)]
pub struct KnownGames {
    /// Workspace files and open documents.
    pub workspace: Arc<[SourceFile]>,
    /// Files of the corpus folders.
    pub corpus: Arc<[SourceFile]>,
    /// Counts the changes of the lists and of the known games' texts: what was worked out among
    /// the known games of another generation is stale.
    pub generation: u64,
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
    pub db: RootDatabase,
    pub file: SourceFile,
    pub document: Document,
    pub settings: Arc<Settings>,
    pub known: KnownGames,
}

impl Snapshot {
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
        // parsed for their diagnostics already.
        let clean_kif = kif_forms_read(db, open.file).is_some();
        let mut edited_tree = match &open.edited_tree {
            Some(last) if clean_kif => last.clone(),
            None if clean_kif => {
                EditedTree::parse_for_editing(open.file.syntax(db), open.file.text(db))
            }
            _ => EditedTree::new(parse(db, open.file)),
        };
        for change in changes {
            let edit = open.document.apply_change(change.range, &change.text);
            edited_tree.edit(&edit);
        }
        open.edited_tree = Some(edited_tree.clone());
        open.document.version = version;
        let syntax = open.file.syntax(self.host.db());
        let text: Arc<str> = Arc::from(open.document.text());
        self.host
            .set_file(&open.key, syntax, text, Some(edited_tree));
        self.last_edit = Some(Instant::now());
        self.known_text_changed();
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
            self.host.remove_file(&open.key);
        }
        self.known_games_changed();
        true
    }

    pub fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        let open = self.documents.get(uri)?;
        Some(Snapshot {
            uri: uri.clone(),
            db: self.host.snapshot(),
            file: open.file,
            document: open.document.clone(),
            settings: self.settings.clone(),
            known: self.known.clone(),
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
        match read_game_file(key) {
            Some((syntax, text)) => {
                let file = self.set_known_text(key, syntax, text, None);
                self.disk_files.insert(key.to_path_buf(), file);
                true
            }
            None => {
                self.disk_files.remove(key);
                self.host.remove_file(key);
                false
            }
        }
    }

    /// Rebuilds the lists snapshots share and the EGGG workspace (`is like` looks among every
    /// known `.egg` file) after files were opened, closed, created or deleted.
    pub(crate) fn known_games_changed(&mut self) {
        let mut workspace: Vec<SourceFile> = self.disk_files.values().copied().collect();
        for open in self.documents.values() {
            if !self.disk_files.contains_key(&open.key) {
                workspace.push(open.file);
            }
        }
        let corpus: Vec<SourceFile> = self.corpus_files.values().copied().collect();
        let db = self.host.db();
        let egg: Vec<SourceFile> = workspace
            .iter()
            .chain(&corpus)
            .copied()
            .filter(|file| file.syntax(db) == Syntax::Egg)
            .collect();
        // Setting the input anew would start a revision; only a changed list needs one.
        if self.egg_files.as_ref() != Some(&egg) {
            ludeme_analysis::egg::set_egg_workspace(self.host.db_mut(), egg.clone());
            self.egg_files = Some(egg);
        }
        // Snapshots keep sharing the lists, and results worked out among them stay valid,
        // unless they changed.
        if *self.known.workspace == *workspace && *self.known.corpus == *corpus {
            return;
        }
        self.known = KnownGames {
            workspace: workspace.into(),
            corpus: corpus.into(),
            generation: self.known.generation + 1,
        };
    }

    /// A known game's text changed: a new generation.
    fn known_text_changed(&mut self) {
        self.known.generation += 1;
    }

    /// Gives the host `text` for `key`, and starts a new generation of the known games when it
    /// differs from the text the host had (a file new to the host changes the lists instead).
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
        let file = self.host.set_file(key, syntax, text, edited_tree);
        if changed {
            self.known_text_changed();
        }
        file
    }
}

/// A game file's language and text, when it can be read as one.
pub(crate) fn read_game_file(path: &Path) -> Option<(Syntax, Arc<str>)> {
    let bytes = std::fs::read(path).ok()?;
    let text = ludeme_analysis::decode_source(&bytes).ok()?;
    let syntax = Syntax::detect(path, text)?;
    Some((syntax, Arc::from(text)))
}

/// The analysis key of a document: its path for `file:` URIs, else the URI text.
pub(crate) fn file_key(uri: &Uri) -> PathBuf {
    uri.to_file_path()
        .map(|path| path.into_owned())
        .unwrap_or_else(|| PathBuf::from(uri.as_str()))
}

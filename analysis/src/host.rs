//! The analysis host: the one door the front ends (the command line, the language server) go
//! through to the analyses and the engines.
//!
//! A front end owns one [`AnalysisHost`]. It writes through it — a file opened, edited, closed,
//! games added to or removed from the project, new settings — with [`AnalysisHost::apply_change`],
//! and reads from [`Analysis`] snapshots ([`AnalysisHost::snapshot`]) that background work can
//! query while the host moves on; a write cancels the queries still running on older snapshots
//! (they return [`Cancelled`](salsa::Cancelled)).
//!
//! [`AnalysisHost::load_paths`] is the command line's way in: it reads the files and folders
//! named, the games `is like` may reach and the corpus folders of the settings, through the
//! one file loader ([`crate::files::load_game`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use salsa::{Database, Setter};

use crate::analysis::Analysis;
use crate::config::Config;
use crate::files::{
    FileKind, FileSystem, InputProblem, LoadFailure, LoadedGame, collect_game_files, load_game,
};
use crate::project::Project;
use crate::syntax::EditedTree;
use crate::{RootDatabase, SourceFile, Syntax};

/// How a front end names a file: its path, or for a buffer with no file (an editor's `untitled:`
/// document) the URI text as a path.
pub type FileKey = PathBuf;

/// One batch of writes, applied in order by [`AnalysisHost::apply_change`].
#[derive(Default)]
pub struct Change {
    files: Vec<FileChange>,
    workspace: Option<Vec<FileKey>>,
    corpus: Option<Vec<FileKey>>,
    settings: Option<Arc<Config>>,
}

enum FileChange {
    Set {
        key: FileKey,
        syntax: Syntax,
        text: Arc<str>,
        edited_tree: Option<EditedTree>,
    },
    Remove(FileKey),
}

impl Change {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the text of `key`, creating the file on first sight. `edited_tree` is the previous
    /// tree with the edits that produced `text` applied (see [`SourceFile::edited_tree`]).
    pub fn set_file(
        &mut self,
        key: impl Into<FileKey>,
        syntax: Syntax,
        text: Arc<str>,
        edited_tree: Option<EditedTree>,
    ) -> &mut Self {
        self.files.push(FileChange::Set {
            key: key.into(),
            syntax,
            text,
            edited_tree,
        });
        self
    }

    /// A file read by the loader.
    pub fn set_loaded(&mut self, game: LoadedGame) -> &mut Self {
        self.set_file(game.path, game.syntax, game.text, None)
    }

    /// Forgets `key` (and drops it from the project's lists).
    pub fn remove_file(&mut self, key: impl Into<FileKey>) -> &mut Self {
        self.files.push(FileChange::Remove(key.into()));
        self
    }

    /// The project's own game files (files not set are skipped).
    pub fn set_workspace(&mut self, keys: Vec<FileKey>) -> &mut Self {
        self.workspace = Some(keys);
        self
    }

    /// The corpus folders' game files (files not set are skipped).
    pub fn set_corpus(&mut self, keys: Vec<FileKey>) -> &mut Self {
        self.corpus = Some(keys);
        self
    }

    pub fn set_settings(&mut self, settings: Arc<Config>) -> &mut Self {
        self.settings = Some(settings);
        self
    }
}

/// What [`AnalysisHost::apply_change`] did.
pub struct Applied {
    /// The inputs of the files the change set, in its order.
    pub files: Vec<SourceFile>,
    /// Whether the project's lists of known games changed.
    pub project_changed: bool,
}

/// The database, the side table from file names to salsa inputs, and the project input.
pub struct AnalysisHost {
    db: RootDatabase,
    files: HashMap<FileKey, SourceFile>,
    project: Project,
    /// The project's lists as keys, so that a removed file leaves them.
    workspace: BTreeSet<FileKey>,
    corpus: BTreeSet<FileKey>,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        let db = RootDatabase::default();
        let project = Project::new(&db, Vec::new(), Vec::new(), Arc::default());
        Self {
            db,
            files: HashMap::new(),
            project,
            workspace: BTreeSet::new(),
            corpus: BTreeSet::new(),
        }
    }
}

impl AnalysisHost {
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies `change`.
    pub fn apply_change(&mut self, change: Change) -> Applied {
        let mut set = Vec::new();
        let mut lists_changed = false;
        for file_change in change.files {
            match file_change {
                FileChange::Set {
                    key,
                    syntax,
                    text,
                    edited_tree,
                } => set.push(self.set_file(key, syntax, text, edited_tree)),
                FileChange::Remove(key) => {
                    self.files.remove(&key);
                    lists_changed |= self.workspace.remove(&key) | self.corpus.remove(&key);
                }
            }
        }
        if let Some(keys) = change.workspace {
            self.workspace = keys.into_iter().collect();
            lists_changed = true;
        }
        if let Some(keys) = change.corpus {
            self.corpus = keys.into_iter().collect();
            lists_changed = true;
        }
        let project_changed = lists_changed && self.update_project_lists();
        if let Some(settings) = change.settings
            && **self.project.settings(&self.db) != *settings
        {
            self.project.set_settings(&mut self.db).to(settings);
        }
        Applied {
            files: set,
            project_changed,
        }
    }

    fn set_file(
        &mut self,
        key: FileKey,
        syntax: Syntax,
        text: Arc<str>,
        edited_tree: Option<EditedTree>,
    ) -> SourceFile {
        match self.files.get(&key) {
            Some(&file) => {
                if file.syntax(&self.db) != syntax {
                    file.set_syntax(&mut self.db).to(syntax);
                }
                // An unchanged text starts no new revision: nothing computed is lost.
                if **file.text(&self.db) != *text {
                    file.set_text(&mut self.db).to(text);
                }
                if edited_tree.is_some() || file.edited_tree(&self.db).is_some() {
                    file.set_edited_tree(&mut self.db).to(edited_tree);
                }
                file
            }
            None => {
                let file = SourceFile::new(&self.db, key.clone(), syntax, text, edited_tree);
                self.files.insert(key, file);
                file
            }
        }
    }

    /// Gives the project its lists anew; they are set only when they differ, so that unchanged
    /// lists keep what was computed among them.
    /// Returns whether the project's lists changed.
    fn update_project_lists(&mut self) -> bool {
        let files_of = |keys: &BTreeSet<FileKey>, skip: Option<&BTreeSet<FileKey>>| {
            keys.iter()
                .filter(|key| skip.is_none_or(|skip| !skip.contains(*key)))
                .filter_map(|key| self.files.get(key).copied())
                .collect::<Vec<SourceFile>>()
        };
        let workspace = files_of(&self.workspace, None);
        let corpus = files_of(&self.corpus, Some(&self.workspace));
        let mut changed = false;
        if *self.project.workspace(&self.db) != workspace {
            self.project.set_workspace(&mut self.db).to(workspace);
            changed = true;
        }
        if *self.project.corpus(&self.db) != corpus {
            self.project.set_corpus(&mut self.db).to(corpus);
            changed = true;
        }
        changed
    }

    pub fn file(&self, key: &Path) -> Option<SourceFile> {
        self.files.get(key).copied()
    }

    pub fn files(&self) -> impl Iterator<Item = (&Path, SourceFile)> {
        self.files.iter().map(|(key, &file)| (key.as_path(), file))
    }

    /// The settings in force.
    pub fn settings(&self) -> Arc<Config> {
        self.project.settings(&self.db).clone()
    }

    /// The database, for reads on the writer's thread.
    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    /// A handle for queries off the writer's thread; cancelled by the next write.
    pub fn snapshot(&self) -> Analysis {
        Analysis::new(self.db.clone())
    }

    /// Marks every query as possibly stale without changing an input: for the rare state that
    /// is not an input (none today), and for tests of cancellation.
    pub fn invalidate_all(&mut self) {
        self.db.synthetic_write(salsa::Durability::LOW);
    }

    /// Reads what the command line works on: the game files named or under the folders named,
    /// the EGGG files their `is like` statements may reach (the `.egg` files beside them and the
    /// `corpus/egg` of the nearest ancestor that has one), and the games of the corpus folders
    /// of `settings`. The files named and found make the project's workspace, the corpus
    /// folders' games its corpus; `settings` are put in force.
    pub fn load_paths(
        &mut self,
        fs: &dyn FileSystem,
        paths: &[PathBuf],
        settings: Arc<Config>,
    ) -> LoadedPaths {
        let (found, problems) = collect_game_files(paths);
        self.load_found(fs, found, problems, settings)
    }

    /// [`AnalysisHost::load_paths`] for one game whose bytes are given rather than read (text
    /// piped to `--stdin-filename`, as an editor or a hook sends an unsaved buffer): it is named
    /// `path`, which need not exist, and checked as if it were there; the games it may be
    /// compared with (its EGGG neighbours, the corpus folders') are read through `fs`, with
    /// `path`'s copy on disk, if any, replaced by `bytes`.
    pub fn load_given(
        &mut self,
        fs: &dyn FileSystem,
        path: &Path,
        bytes: Vec<u8>,
        settings: Arc<Config>,
    ) -> LoadedPaths {
        let given = GivenFile {
            path: path.to_path_buf(),
            bytes,
            others: fs,
        };
        self.load_found(&given, vec![path.to_path_buf()], Vec::new(), settings)
    }

    /// The rest of [`AnalysisHost::load_paths`], once the game files to check are `found`.
    fn load_found(
        &mut self,
        fs: &dyn FileSystem,
        found: Vec<PathBuf>,
        mut problems: Vec<InputProblem>,
        settings: Arc<Config>,
    ) -> LoadedPaths {
        let mut change = Change::new();
        let mut checked = Vec::new();
        let mut workspace = Vec::new();
        let mut loaded_keys = BTreeSet::new();
        for path in found {
            match load_game(fs, &path, settings.files.max_bytes) {
                Ok(game) => {
                    loaded_keys.insert(game.path.clone());
                    workspace.push(game.path.clone());
                    checked.push(CheckedPath::Loaded(game.path.clone()));
                    change.set_loaded(game);
                }
                Err(failure) => checked.push(CheckedPath::Failed(path, failure)),
            }
        }
        // The same file may be named twice, spelled two ways (`corpus/egg/x.egg` and its
        // absolute path through a corpus folder): one input, spelled as first met.
        let mut known_canonical: BTreeSet<PathBuf> = loaded_keys
            .iter()
            .map(|path| path.canonicalize().unwrap_or_else(|_| path.clone()))
            .collect();
        let mut is_new = |path: &Path| {
            known_canonical.insert(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
        };
        // Known without being checked: an unreadable one is simply not known.
        for path in egg_neighbours(&workspace) {
            if !is_new(&path) {
                continue;
            }
            if let Ok(game) = load_game(fs, &path, settings.files.max_bytes) {
                workspace.push(game.path.clone());
                change.set_loaded(game);
            }
        }
        let mut corpus = Vec::new();
        let (corpus_paths, corpus_problems) = if settings.corpus_folders.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            collect_game_files(&settings.corpus_folders)
        };
        problems.extend(corpus_problems.into_iter().map(|problem| InputProblem {
            message: format!("corpus folder of ludeme.toml: {}", problem.message),
            ..problem
        }));
        for path in corpus_paths {
            if !is_new(&path) {
                continue;
            }
            if let Ok(game) = load_game(fs, &path, settings.files.max_bytes) {
                corpus.push(game.path.clone());
                change.set_loaded(game);
            }
        }
        change
            .set_workspace(workspace)
            .set_corpus(corpus)
            .set_settings(settings);
        self.apply_change(change);
        let checked = checked
            .into_iter()
            .map(|entry| match entry {
                CheckedPath::Loaded(path) => {
                    let file = self.files[&path];
                    (path, Ok(file))
                }
                CheckedPath::Failed(path, failure) => (path, Err(failure)),
            })
            .collect();
        LoadedPaths { checked, problems }
    }
}

/// A file system where one file's bytes are given, and every other path is `others`'.
struct GivenFile<'a> {
    path: PathBuf,
    bytes: Vec<u8>,
    others: &'a dyn FileSystem,
}

impl GivenFile<'_> {
    fn is_given(&self, path: &Path) -> bool {
        path == self.path
            || path
                .canonicalize()
                .is_ok_and(|path| self.path.canonicalize().is_ok_and(|given| given == path))
    }
}

impl FileSystem for GivenFile<'_> {
    fn kind(&self, path: &Path) -> std::io::Result<FileKind> {
        if self.is_given(path) {
            return Ok(FileKind::File {
                len: self.bytes.len() as u64,
            });
        }
        self.others.kind(path)
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if self.is_given(path) {
            return Ok(self.bytes.clone());
        }
        self.others.read(path)
    }
}

enum CheckedPath {
    Loaded(PathBuf),
    Failed(PathBuf, LoadFailure),
}

/// What [`AnalysisHost::load_paths`] found.
pub struct LoadedPaths {
    /// Each game file named or found, in order, with its input or why it could not be read.
    pub checked: Vec<(PathBuf, Result<SourceFile, LoadFailure>)>,
    /// Paths that gave no game file at all (missing, a folder without games).
    pub problems: Vec<InputProblem>,
}

/// The `.egg` files an EGGG game among `paths` may name in `is like`: those in its folder and in
/// the `corpus/egg` folder of the nearest ancestor that has one (the project's own games).
/// Spelled as the caller spelled the folder; each file once (by canonical path).
fn egg_neighbours(paths: &[PathBuf]) -> Vec<PathBuf> {
    let is_egg = |path: &Path| {
        path.extension()
            .and_then(|extension| extension.to_str())
            .is_some_and(|extension| extension.eq_ignore_ascii_case("egg"))
    };
    let mut folders: BTreeSet<PathBuf> = BTreeSet::new();
    let mut corpora: BTreeSet<PathBuf> = BTreeSet::new();
    for path in paths.iter().filter(|path| is_egg(path)) {
        let folder = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        if let Some(corpus) = nearest_egg_corpus(&folder) {
            corpora.insert(corpus);
        }
        folders.insert(folder);
    }
    let mut found: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    for folder in folders.iter().chain(&corpora) {
        let listed = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder.as_path()
        };
        let Ok(entries) = std::fs::read_dir(listed) else {
            continue;
        };
        for entry in entries.flatten() {
            // `read_dir(".")` spells entries `./x.egg`; the caller spells them `x.egg`.
            let path = if folder.as_os_str().is_empty() {
                PathBuf::from(entry.file_name())
            } else {
                entry.path()
            };
            if is_egg(&path) && entry.file_type().is_ok_and(|kind| kind.is_file()) {
                let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
                found.entry(canonical).or_insert(path);
            }
        }
    }
    found.into_values().collect()
}

/// `corpus/egg` in `folder` or its nearest ancestor that has one.
fn nearest_egg_corpus(folder: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(folder).ok()?;
    absolute
        .ancestors()
        .map(|ancestor| ancestor.join("corpus").join("egg"))
        .find(|candidate| candidate.is_dir())
}

//! Which EGGG files `X is like Y` may find `Y` in.
//!
//! A salsa query cannot look at the disk, so the front end says which files exist: the
//! [`EggWorkspace`] singleton input lists them. Bases are found among them by game name
//! ([`game_index`]: the `game is NAME` or `NAME is like ...` of a file, and its file stem, with case
//! and punctuation ignored).
//!
//! - The CLI calls [`load_egg_workspace`] once with the files it analyses, before any query: it
//!   reads those files, every `.egg` file beside them and the `corpus/egg` folder of the nearest
//!   ancestor that has one (the project's own games), and sets the input.
//! - The language server sets the input with [`set_egg_workspace`] when EGGG files are opened,
//!   changed on disk, created or deleted; queries see the change like any other input's.
//!
//! Without the input no base is looked for, and nothing is reported about `is like`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use salsa::{Database, Setter};

use crate::egg::lower::egg_file;
use crate::egg::words::game_key;
use crate::{Db, RootDatabase, SourceFile, Syntax, decode_source};

/// The EGGG files `is like` may resolve to.
#[salsa::input(singleton, debug)]
pub struct EggWorkspace {
    #[returns(ref)]
    pub files: Vec<SourceFile>,
}

/// Sets the workspace's files, creating the input on first use.
pub fn set_egg_workspace(db: &mut RootDatabase, files: Vec<SourceFile>) {
    match EggWorkspace::try_get(db) {
        Some(workspace) => {
            workspace.set_files(db).to(files);
        }
        None => {
            EggWorkspace::new(db, files);
            // Creating an input starts no new revision; queries that found no workspace (see
            // [`egg_workspace`]) run again only in a new one.
            db.synthetic_write(salsa::Durability::LOW);
        }
    }
}

/// The workspace input, when the front end has created it. Its absence is not an input salsa
/// can record, so it is reported as an untracked read: the query asking runs again in every
/// later revision, until the workspace exists and is read like any input.
pub fn egg_workspace(db: &dyn Db) -> Option<EggWorkspace> {
    let workspace = EggWorkspace::try_get(db);
    if workspace.is_none() {
        db.report_untracked_read();
    }
    workspace
}

/// Reads the EGGG files among `paths`, the `.egg` files in their folders and the `corpus/egg` of
/// the nearest ancestor folder that has one; creates an input for each and makes them the
/// workspace. Returns the inputs by path, so that the caller analyses these very inputs. Files
/// that cannot be read are skipped here (the caller reports them when it reads them itself).
pub fn load_egg_workspace(
    db: &mut RootDatabase,
    paths: &[PathBuf],
) -> std::collections::HashMap<PathBuf, SourceFile> {
    // By canonical path, so that `corpus/egg/tetris.egg` named by the caller and the same file
    // found through the absolute corpus folder are one input, spelled as the caller spelled it.
    let mut wanted: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    let mut want = |path: PathBuf| {
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        wanted.entry(canonical).or_insert(path);
    };
    // The files' own folders before the corpora, so that a corpus file is spelled relative to
    // the folder the caller named when it is in one.
    let mut folders: Vec<PathBuf> = Vec::new();
    let mut corpora: Vec<PathBuf> = Vec::new();
    for path in paths.iter().filter(|path| is_egg(path)) {
        want(path.clone());
        let folder = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
        if let Some(corpus) = nearest_corpus(&folder) {
            corpora.push(corpus);
        }
        folders.push(folder);
    }
    folders.sort();
    folders.dedup();
    corpora.sort();
    corpora.dedup();
    folders.extend(corpora);
    for folder in &folders {
        let listing = if folder.as_os_str().is_empty() {
            std::fs::read_dir(".")
        } else {
            std::fs::read_dir(folder)
        };
        let Ok(entries) = listing else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if is_egg(&path) {
                // `read_dir(".")` spells entries `./x.egg`; the caller spells them `x.egg`.
                let path = if folder.as_os_str().is_empty() {
                    PathBuf::from(entry.file_name())
                } else {
                    path
                };
                want(path);
            }
        }
    }
    let mut loaded = std::collections::HashMap::new();
    for path in wanted.into_values() {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(text) = decode_source(&bytes) else {
            continue;
        };
        let file = SourceFile::new(db, path.clone(), Syntax::Egg, Arc::from(text), None);
        loaded.insert(path, file);
    }
    let mut files: Vec<SourceFile> = loaded.values().copied().collect();
    files.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    set_egg_workspace(db, files);
    loaded
}

fn is_egg(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("egg"))
}

/// `corpus/egg` in `folder` or its nearest ancestor that has one.
fn nearest_corpus(folder: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(folder).ok()?;
    absolute
        .ancestors()
        .map(|ancestor| ancestor.join("corpus").join("egg"))
        .find(|candidate| candidate.is_dir())
}

/// Game keys and the files that carry them, sorted by key then path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameIndex {
    entries: Vec<(String, SourceFile)>,
}

impl GameIndex {
    /// The files a game name may refer to.
    pub fn files_named<'a>(&'a self, name: &str) -> impl Iterator<Item = SourceFile> + 'a {
        let key = game_key(name);
        let start = self.entries.partition_point(|(k, _)| *k < key);
        self.entries[start..]
            .iter()
            .take_while(move |(k, _)| *k == key)
            .map(|(_, file)| *file)
    }
}

/// Every workspace file under its declared game name and its file stem.
#[salsa::tracked(returns(ref))]
pub fn game_index(db: &dyn Db) -> GameIndex {
    let Some(workspace) = egg_workspace(db) else {
        return GameIndex::default();
    };
    let mut entries = Vec::new();
    for &file in workspace.files(db) {
        let mut keys = Vec::new();
        if let Some(name) = egg_file(db, file).declared_name() {
            keys.push(game_key(&name.text));
        }
        if let Some(stem) = file.path(db).file_stem().and_then(|s| s.to_str()) {
            keys.push(game_key(stem));
        }
        keys.sort();
        keys.dedup();
        entries.extend(keys.into_iter().map(|key| (key, file)));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.path(db).cmp(b.1.path(db))));
    GameIndex { entries }
}

/// The file `base` names, as seen from `from`: another file of that name, preferring one in the
/// same folder; `from` itself only when no other file has the name (`X is like X`).
pub fn resolve_base(db: &dyn Db, from: SourceFile, base: &str) -> Option<SourceFile> {
    let candidates: Vec<SourceFile> = game_index(db).files_named(base).collect();
    let folder = from.path(db).parent();
    let others = || candidates.iter().copied().filter(|&file| file != from);
    others()
        .find(|file| file.path(db).parent() == folder)
        .or_else(|| others().next())
        .or_else(|| candidates.contains(&from).then_some(from))
}

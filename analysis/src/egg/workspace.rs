//! Which EGGG files `X is like Y` may find `Y` in.
//!
//! A salsa query cannot look at the disk, so the front end says which files exist: the EGGG
//! games of the [`Project`] input (its workspace and corpus games, [`egg_files`]). Bases are found among them by game name, with
//! case and punctuation ignored ([`resolve_base`]): first by file stem, which needs no file
//! read, then by the `game is NAME` or `NAME is like ...` of the files, which needs them parsed
//! (the base's folder first). A game with no `is like`, or whose base is named after its file,
//! reads no other file: an editor opening one game in a folder of many answers at once.
//!
//! The front ends set the project through the [`crate::AnalysisHost`] (the command line with the
//! files it checks, the `.egg` files beside them and the nearest `corpus/egg`; the language server
//! with the workspace's and corpus folders' games). [`set_egg_workspace`] and
//! [`load_egg_workspace`] set it directly, for tests and tools that hold a bare database.
//!
//! Without a project no base is looked for, and nothing is reported about `is like`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use salsa::{Database, Setter};

use crate::egg::lower::egg_file;
use crate::egg::words::game_key;
use crate::project::{Project, project};
use crate::{Db, RootDatabase, SourceFile, Syntax, decode_source};

/// Makes `files` the project's workspace games, creating the project on first use (with the
/// default settings): for a bare database, as tests hold.
pub fn set_egg_workspace(db: &mut RootDatabase, files: Vec<SourceFile>) {
    match Project::try_get(db) {
        Some(project) => {
            project.set_workspace(db).to(files);
        }
        None => {
            Project::new(db, files, Vec::new(), Arc::default());
            // Creating an input starts no new revision; queries that found no project (see
            // [`crate::project::project`]) run again only in a new one.
            db.synthetic_write(salsa::Durability::LOW);
        }
    }
}

/// The EGGG games of the project (workspace first, then corpus), when there is a project.
///
/// Not a query of its own: a query that finds no project must itself depend on that absence
/// (an untracked read, see [`crate::project::project`]) to run again once a project exists.
pub fn egg_files(db: &dyn Db) -> Option<Vec<SourceFile>> {
    let project = project(db)?;
    Some(
        project
            .workspace(db)
            .iter()
            .chain(project.corpus(db))
            .copied()
            .filter(|file| file.syntax(db) == Syntax::Egg)
            .collect(),
    )
}

/// The EGGG files `is like` may resolve to ([`egg_files`]), when there is a project.
pub fn egg_workspace(db: &dyn Db) -> Option<Vec<SourceFile>> {
    egg_files(db)
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

    fn new(db: &dyn Db, mut entries: Vec<(String, SourceFile)>) -> Self {
        entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.path(db).cmp(b.1.path(db))));
        entries.dedup();
        GameIndex { entries }
    }
}

/// Every workspace file under its declared game name and its file stem. It reads every file:
/// for what must know every game (a rename's clash check); `is like` goes through
/// [`resolve_base`], which reads only the files it must.
#[salsa::tracked(returns(ref))]
pub fn game_index(db: &dyn Db) -> GameIndex {
    let Some(workspace) = egg_workspace(db) else {
        return GameIndex::default();
    };
    let mut entries = stem_index(db).entries.clone();
    for &file in &workspace {
        if let Some(key) = declared_key(db, file) {
            entries.push((key.clone(), file));
        }
    }
    GameIndex::new(db, entries)
}

/// Every workspace file under its file stem: known from the paths alone, without reading any
/// file.
#[salsa::tracked(returns(ref))]
fn stem_index(db: &dyn Db) -> GameIndex {
    let Some(workspace) = egg_workspace(db) else {
        return GameIndex::default();
    };
    let entries = workspace
        .iter()
        .filter_map(|&file| {
            let stem = file.path(db).file_stem()?.to_str()?;
            Some((game_key(stem), file))
        })
        .collect();
    GameIndex::new(db, entries)
}

/// The key of the game name `file` declares (`game is NAME`, `NAME is like ...`): reading it
/// parses the file. The queries that ask depend on the key alone, not on the rest of the text.
#[salsa::tracked(returns(ref))]
fn declared_key(db: &dyn Db, file: SourceFile) -> Option<String> {
    egg_file(db, file)
        .declared_name()
        .map(|name| game_key(&name.text))
}

/// The file `base` names, as seen from `from`, reading as few files as it can:
///
/// 1. a file whose stem is the name (`tetris.egg` for `Tetris`): no file is read;
/// 2. else a file that declares the name (`game is Tetris`): the other files are read, those
///    of `from`'s folder first, the others only when none of them has the name;
/// 3. else `from` itself, when it has the name (`X is like X`).
///
/// Among several files, one in `from`'s folder, else the first by path. So a file named after
/// the game wins over one that only declares its name.
pub fn resolve_base(db: &dyn Db, from: SourceFile, base: &str) -> Option<SourceFile> {
    let workspace = egg_workspace(db)?;
    let key = game_key(base);
    let folder = from.path(db).parent();
    let in_folder = |file: &SourceFile| file.path(db).parent() == folder;
    let by_stem: Vec<SourceFile> = stem_index(db).files_named(base).collect();
    let others = || by_stem.iter().copied().filter(|&file| file != from);
    if let Some(found) = others().find(in_folder).or_else(|| others().next()) {
        return Some(found);
    }
    let mut unread: Vec<SourceFile> = workspace
        .iter()
        .copied()
        .filter(|&file| file != from)
        .collect();
    unread.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    // `from`'s folder first: a base found there spares reading the rest of the workspace.
    let (near, far): (Vec<SourceFile>, Vec<SourceFile>) = unread.into_iter().partition(in_folder);
    let declares = |file: &SourceFile| declared_key(db, *file).as_deref() == Some(key.as_str());
    near.into_iter()
        .find(declares)
        .or_else(|| far.into_iter().find(declares))
        .or_else(|| (by_stem.contains(&from) || declares(&from)).then_some(from))
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::egg::{egg_diagnostics, egg_lineage};

    /// A database that records which queries run.
    #[salsa::db]
    #[derive(Clone)]
    struct LoggedDatabase {
        storage: salsa::Storage<Self>,
        executed: Arc<Mutex<Vec<String>>>,
    }

    impl LoggedDatabase {
        fn new() -> Self {
            let executed: Arc<Mutex<Vec<String>>> = Arc::default();
            let log = executed.clone();
            let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
                if let salsa::EventKind::WillExecute { database_key } = event.kind {
                    log.lock().unwrap().push(format!("{database_key:?}"));
                }
            })));
            Self { storage, executed }
        }

        /// How many files were lowered (parsed and read) since the last call.
        fn files_lowered(&self) -> usize {
            std::mem::take(&mut *self.executed.lock().unwrap())
                .iter()
                .filter(|key| key.starts_with("egg_file("))
                .count()
        }
    }

    #[salsa::db]
    impl salsa::Database for LoggedDatabase {}

    #[salsa::db]
    impl Db for LoggedDatabase {}

    fn file(db: &dyn Db, path: &str, text: &str) -> SourceFile {
        SourceFile::new(db, path.into(), Syntax::Egg, Arc::from(text), None)
    }

    /// A folder of games beside `w/side.egg` (`Side is like Tetris`) and `w/tetris.egg`, and a
    /// corpus folder: none of the others names Tetris.
    fn folder(db: &LoggedDatabase) -> (SourceFile, SourceFile, SourceFile) {
        let side = file(db, "w/side.egg", "Side is like Tetris\n2 players\n");
        let tetris = file(db, "w/tetris.egg", "game is Tetris\n1 player\n");
        let plain = file(
            db,
            "w/plain.egg",
            "game is Plain\n2 players\nturns alternate\n",
        );
        let mut files = vec![side, tetris, plain];
        for index in 0..20 {
            files.push(file(
                db,
                &format!("w/game{index}.egg"),
                &format!("game is Game{index}\n2 players\nmove is place\n"),
            ));
            files.push(file(
                db,
                &format!("corpus/egg/other{index}.egg"),
                &format!("Other{index} is like Game{index}\n"),
            ));
        }
        Project::new(db, files, Vec::new(), Arc::default());
        (side, tetris, plain)
    }

    #[test]
    fn a_file_without_is_like_reads_no_other_file() {
        let db = LoggedDatabase::new();
        let (_, _, plain) = folder(&db);
        db.files_lowered();
        let _ = egg_diagnostics(&db, plain);
        assert_eq!(db.files_lowered(), 1);
    }

    #[test]
    fn is_like_reads_the_file_named_after_the_base_and_no_other() {
        let db = LoggedDatabase::new();
        let (side, tetris, _) = folder(&db);
        db.files_lowered();
        let _ = egg_diagnostics(&db, side);
        assert_eq!(egg_lineage(&db, side).links[1].file, tetris);
        // `side.egg` and `tetris.egg`, not the 41 others.
        assert_eq!(db.files_lowered(), 2);
    }

    #[test]
    fn a_base_only_declared_is_looked_for_in_the_folder_before_the_others() {
        let db = LoggedDatabase::new();
        let side = file(&db, "w/side.egg", "Side is like Tetris\n");
        let blocks = file(&db, "w/blocks.egg", "game is Tetris\n");
        let mut files = vec![side, blocks];
        files.extend((0..10).map(|i| file(&db, &format!("far/f{i}.egg"), "game is Tetris\n")));
        Project::new(&db, files, Vec::new(), Arc::default());
        db.files_lowered();
        assert_eq!(resolve_base(&db, side, "Tetris"), Some(blocks));
        // `side.egg` need not be read; `blocks.egg` is, the other folder is not.
        assert_eq!(db.files_lowered(), 1);
    }

    #[test]
    fn stems_then_declared_names_then_the_file_itself() {
        let mut db = RootDatabase::default();
        let declares = file(&db, "w/a.egg", "game is Tetris\n");
        let named = file(&db, "far/tetris.egg", "game is Blocks\n");
        let side = file(&db, "w/side.egg", "Side is like Tetris\n");
        let alone = file(&db, "w/ouroboros.egg", "Ouroboros is like Ouroboros\n");
        let lost = file(&db, "w/lost.egg", "Lost is like Nowhere\n");
        set_egg_workspace(&mut db, vec![declares, named, side, alone, lost]);
        // A file named after the game, though in another folder and declaring another name.
        assert_eq!(resolve_base(&db, side, "Tetris"), Some(named));
        // By declared name when no file is named after it, whatever the case and punctuation.
        assert_eq!(resolve_base(&db, side, "BLOCKS"), Some(named));
        assert_eq!(resolve_base(&db, named, "tetris"), Some(declares));
        assert_eq!(resolve_base(&db, alone, "Ouroboros"), Some(alone));
        assert_eq!(resolve_base(&db, lost, "Nowhere"), None);
    }
}

//! `ludeme check`'s results cache: each file's diagnostics, kept from one run to the next under
//! the fingerprint of everything its check read ([`ludeme_analysis::Analysis::check_fingerprint`]: its text, the
//! settings, the depth, and the other games it compares itself with), in a folder of the build
//! that found them. A re-run over an unchanged project reads the games and the cache, and
//! analyses nothing.
//!
//! The folder is `.ludeme_cache` at the project root (the folder of `ludeme.toml`, else the
//! current one), or `--cache-dir`, or `LUDEME_CACHE_DIR`; it holds a `.gitignore` and a
//! `CACHEDIR.TAG` so that version control and backup tools leave it alone. One file per set of
//! paths checked, `<build>/<paths>.json`, is read once and written once, through a temporary
//! file renamed over it: two runs at once each leave a whole file, never a torn one. A file
//! that cannot be read as a cache (torn by a crash, written by hand, of another format) is
//! ignored and replaced; a cache that cannot be written is only a slower next run.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use ludeme_analysis::{Applicability, Diagnostic, Fix, Label, Severity, TextRange, rules};
use serde::{Deserialize, Serialize};

/// The environment variable naming the cache folder (as `--cache-dir` does).
pub const CACHE_DIR_VARIABLE: &str = "LUDEME_CACHE_DIR";

/// The folder's name at the project root.
pub const DEFAULT_FOLDER: &str = ".ludeme_cache";

/// A build's folder not used for this long is removed by the next run of another build: old
/// builds' results can never match again.
const UNUSED_BUILD_LIFETIME: Duration = Duration::from_secs(7 * 24 * 3600);

/// The results of one set of paths: those read at the start, and those of this run.
pub struct ResultsCache {
    file: PathBuf,
    stored: BTreeMap<PathBuf, Entry>,
    /// This run's entries: what is written back (so files no longer checked are dropped).
    found: Mutex<BTreeMap<PathBuf, Entry>>,
}

#[derive(Serialize, Deserialize, Clone)]
struct Entry {
    /// [`ludeme_analysis::Analysis::check_fingerprint`], in hexadecimal (JSON numbers stop at 64 bits).
    fingerprint: String,
    diagnostics: Vec<StoredDiagnostic>,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    entries: BTreeMap<PathBuf, Entry>,
}

/// A [`Diagnostic`] as written: the same fields, with its code and severity by name.
#[derive(Serialize, Deserialize, Clone)]
struct StoredDiagnostic {
    code: String,
    severity: String,
    range: (usize, usize),
    message: String,
    labels: Vec<((usize, usize), String)>,
    fixes: Vec<StoredFix>,
}

#[derive(Serialize, Deserialize, Clone)]
struct StoredFix {
    title: String,
    edits: Vec<((usize, usize), String)>,
    safe: bool,
}

impl ResultsCache {
    /// The cache of a check of `paths` in `folder`, with what earlier runs of this build left
    /// there (nothing when it is missing or unreadable).
    pub fn open(folder: &Path, paths: &[PathBuf]) -> Self {
        let build = folder.join(build_name());
        let file = build.join(format!("{:016x}.json", paths_key(paths)));
        let stored = std::fs::read(&file)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Stored>(&bytes).ok())
            .map(|stored| stored.entries)
            .unwrap_or_default();
        Self {
            file,
            stored,
            found: Mutex::new(BTreeMap::new()),
        }
    }

    /// The diagnostics a run of this build found for `path` when its fingerprint was
    /// `fingerprint`; `None` when there are none, or they cannot be read back.
    pub fn lookup(&self, path: &Path, fingerprint: u128) -> Option<Vec<Diagnostic>> {
        let entry = self.stored.get(path)?;
        if entry.fingerprint != hex(fingerprint) {
            return None;
        }
        let diagnostics = entry
            .diagnostics
            .iter()
            .map(StoredDiagnostic::restore)
            .collect::<Option<Vec<_>>>()?;
        lock(&self.found).insert(path.to_path_buf(), entry.clone());
        Some(diagnostics)
    }

    /// Keeps `diagnostics` as what `path` with `fingerprint` gives.
    pub fn record(&self, path: &Path, fingerprint: u128, diagnostics: &[Diagnostic]) {
        let entry = Entry {
            fingerprint: hex(fingerprint),
            diagnostics: diagnostics.iter().map(StoredDiagnostic::from).collect(),
        };
        lock(&self.found).insert(path.to_path_buf(), entry);
    }

    /// Forgets `path` (a file `--fix` rewrote: its next check starts afresh).
    pub fn forget(&self, path: &Path) {
        lock(&self.found).remove(path);
    }

    /// Writes this run's entries, unless they are what was read. Failures are ignored: the
    /// next run is only slower.
    pub fn save(self) {
        let found = self.found.into_inner().unwrap_or_else(|e| e.into_inner());
        let unchanged = found.len() == self.stored.len()
            && found
                .iter()
                .all(|(path, entry)| self.stored.get(path).is_some_and(|old| old == entry));
        if unchanged {
            return;
        }
        let Some(build) = self.file.parent() else {
            return;
        };
        if let Some(folder) = build.parent() {
            prepare_folder(folder);
            remove_unused_builds(folder, build);
        }
        let _ = std::fs::create_dir_all(build);
        let Ok(bytes) = serde_json::to_vec(&Stored { entries: found }) else {
            return;
        };
        write_atomically(&self.file, &bytes);
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        // Equal fingerprints mean equal results (both runs are of this build).
        self.fingerprint == other.fingerprint
    }
}

/// The default folder: `.ludeme_cache` in the folder of the settings file, else in the current
/// folder.
pub fn default_folder(settings_file: Option<&Path>) -> PathBuf {
    settings_file
        .and_then(Path::parent)
        .filter(|folder| !folder.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join(DEFAULT_FOLDER)
}

/// The folder of this build's results: the version, the commit, and the executable's size and
/// modification time, so that a rebuild between commits never reads its predecessor's results.
fn build_name() -> String {
    let mut hasher = DefaultHasher::new();
    env!("LUDEME_VERSION").hash(&mut hasher);
    if let Some(metadata) = std::env::current_exe()
        .ok()
        .and_then(|exe| std::fs::metadata(exe).ok())
    {
        metadata.len().hash(&mut hasher);
        metadata.modified().ok().hash(&mut hasher);
    }
    format!("{}-{:016x}", env!("CARGO_PKG_VERSION"), hasher.finish())
}

/// The paths checked, canonical when they exist, so that `check corpus` and `check ./corpus`
/// share their results.
fn paths_key(paths: &[PathBuf]) -> u64 {
    let mut hasher = DefaultHasher::new();
    for path in paths {
        path.canonicalize()
            .unwrap_or_else(|_| path.clone())
            .hash(&mut hasher);
    }
    hasher.finish()
}

/// Creates the cache folder with its `.gitignore` (everything in it) and its `CACHEDIR.TAG`
/// (<https://bford.info/cachedir/>), when they are missing.
fn prepare_folder(folder: &Path) {
    if std::fs::create_dir_all(folder).is_err() {
        return;
    }
    let marks: [(&str, &str); 2] = [
        (".gitignore", "# Made by ludeme: its results cache.\n*\n"),
        (
            "CACHEDIR.TAG",
            "Signature: 8a477f597d28d172789f06886806bc55\n\
             # This file is a cache directory tag created by ludeme (its results cache).\n\
             # For information about cache directory tags see https://bford.info/cachedir/\n",
        ),
    ];
    for (name, text) in marks {
        let path = folder.join(name);
        if !path.exists() {
            write_atomically(&path, text.as_bytes());
        }
    }
}

/// Removes the folders of other builds that no run has written to for a week.
fn remove_unused_builds(folder: &Path, current: &Path) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let path = entry.path();
        let unused = entry
            .metadata()
            .and_then(|metadata| metadata.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age > UNUSED_BUILD_LIFETIME);
        if path.is_dir() && path != current && unused {
            let _ = std::fs::remove_dir_all(path);
        }
    }
}

/// Writes `bytes` to a temporary file beside `path` and renames it over `path`: a reader sees
/// the old file or the new one, whole.
fn write_atomically(path: &Path, bytes: &[u8]) {
    let Some(name) = path.file_name() else {
        return;
    };
    let mut temporary = name.to_os_string();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = path.with_file_name(temporary);
    if std::fs::write(&temporary, bytes).is_err() || std::fs::rename(&temporary, path).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

fn hex(fingerprint: u128) -> String {
    format!("{fingerprint:032x}")
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn stored_range(range: TextRange) -> (usize, usize) {
    (range.start, range.end)
}

fn restored_range((start, end): (usize, usize)) -> Option<TextRange> {
    (start <= end).then(|| TextRange::new(start, end))
}

impl From<&Diagnostic> for StoredDiagnostic {
    fn from(diagnostic: &Diagnostic) -> Self {
        Self {
            code: diagnostic.code.to_owned(),
            severity: diagnostic.severity.as_str().to_owned(),
            range: stored_range(diagnostic.range),
            message: diagnostic.message.clone(),
            labels: diagnostic
                .labels
                .iter()
                .map(|label| (stored_range(label.range), label.message.clone()))
                .collect(),
            fixes: diagnostic
                .fixes
                .iter()
                .map(|fix| StoredFix {
                    title: fix.title.clone(),
                    edits: fix
                        .edits
                        .iter()
                        .map(|(range, text)| (stored_range(*range), text.clone()))
                        .collect(),
                    safe: fix.applicability == Applicability::Safe,
                })
                .collect(),
        }
    }
}

impl StoredDiagnostic {
    /// The diagnostic, or `None` when the entry names a code or severity this build does not
    /// know, or a backwards range: an entry not written by this build.
    fn restore(&self) -> Option<Diagnostic> {
        let severity = [Severity::Error, Severity::Warning, Severity::Info]
            .into_iter()
            .find(|severity| severity.as_str() == self.severity)?;
        let labels = self
            .labels
            .iter()
            .map(|(range, message)| {
                Some(Label {
                    range: restored_range(*range)?,
                    message: message.clone(),
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let fixes = self
            .fixes
            .iter()
            .map(|fix| {
                Some(Fix {
                    title: fix.title.clone(),
                    edits: fix
                        .edits
                        .iter()
                        .map(|(range, text)| Some((restored_range(*range)?, text.clone())))
                        .collect::<Option<Vec<_>>>()?,
                    applicability: if fix.safe {
                        Applicability::Safe
                    } else {
                        Applicability::Unsafe
                    },
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Diagnostic {
            code: rules::find(&self.code)?.code,
            severity,
            range: restored_range(self.range)?,
            message: self.message.clone(),
            labels,
            fixes,
        })
    }
}

//! The file system the loader reads through: the operating system's, or an in-memory tree for
//! tests.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// What a path names, as far as loading is concerned. Only regular files are ever opened: a
/// FIFO would block the read forever and a device (`/dev/zero`) never ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file of this many bytes.
    File {
        len: u64,
    },
    Folder,
    /// A FIFO, socket, character or block device, ...: named by what it is.
    Special(&'static str),
}

/// The reads the loader needs. Symbolic links are followed: the kind is that of their target.
pub trait FileSystem: Send + Sync {
    fn kind(&self, path: &Path) -> io::Result<FileKind>;
    /// The whole content of a regular file.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
}

/// The operating system's file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsFileSystem;

impl FileSystem for OsFileSystem {
    fn kind(&self, path: &Path) -> io::Result<FileKind> {
        let metadata = std::fs::metadata(path)?;
        let file_type = metadata.file_type();
        Ok(if file_type.is_file() {
            FileKind::File {
                len: metadata.len(),
            }
        } else if file_type.is_dir() {
            FileKind::Folder
        } else {
            FileKind::Special(special_kind(&file_type))
        })
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
}

#[cfg(unix)]
fn special_kind(file_type: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a named pipe (FIFO)"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "not a regular file"
}

/// An in-memory tree of files, for tests: paths are used as given (no normalisation).
#[derive(Clone, Debug, Default)]
pub struct MemoryFileSystem {
    entries: Arc<Mutex<BTreeMap<PathBuf, MemoryEntry>>>,
}

#[derive(Clone, Debug)]
enum MemoryEntry {
    File(Vec<u8>),
    Special(&'static str),
}

impl MemoryFileSystem {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn write(&self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) {
        self.entries()
            .insert(path.into(), MemoryEntry::File(bytes.into()));
    }

    /// A path that is there but is no regular file (`"a named pipe (FIFO)"`).
    pub fn add_special(&self, path: impl Into<PathBuf>, kind: &'static str) {
        self.entries()
            .insert(path.into(), MemoryEntry::Special(kind));
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, BTreeMap<PathBuf, MemoryEntry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl FileSystem for MemoryFileSystem {
    fn kind(&self, path: &Path) -> io::Result<FileKind> {
        let entries = self.entries();
        match entries.get(path) {
            Some(MemoryEntry::File(bytes)) => Ok(FileKind::File {
                len: bytes.len() as u64,
            }),
            Some(MemoryEntry::Special(kind)) => Ok(FileKind::Special(kind)),
            None if entries.keys().any(|known| known.starts_with(path)) => Ok(FileKind::Folder),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        }
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.entries().get(path) {
            Some(MemoryEntry::File(bytes)) => Ok(bytes.clone()),
            Some(MemoryEntry::Special(_)) => Err(io::Error::other("not a regular file")),
            None => Err(io::Error::from(io::ErrorKind::NotFound)),
        }
    }
}

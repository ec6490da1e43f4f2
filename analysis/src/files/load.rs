//! Reading one game file: read → decode → detect the language.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::discovery::extension_list;
use super::system::{FileKind, FileSystem};
use crate::{Diagnostic, LoadError, Syntax, decode_source};

/// The largest game file read by default: the biggest real games are a few hundred kilobytes,
/// and a file hundreds of times larger is generated or a mistake (a log, a dump).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

/// A game file's text and language.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    pub path: PathBuf,
    pub syntax: Syntax,
    pub text: Arc<str>,
}

/// Why a path gave no game text. Each way has one message ([`fmt::Display`]), the same in every
/// command and in the language server.
#[derive(Clone, Debug)]
pub enum LoadFailure {
    /// It cannot be read (missing, no permission, ...).
    Unreadable(String),
    /// A folder where a game file was expected.
    Folder,
    /// A FIFO, socket or device: never opened, since reading it may block or never end.
    NotRegular(&'static str),
    /// Larger than the limit the reader was given.
    TooLarge { bytes: u64, limit: u64 },
    /// No game extension.
    NotGameFile,
    /// The bytes are not text. The valid text before the problem is kept, so that the
    /// diagnostic ([`LoadFailure::diagnostic`]) can be shown with its context.
    Undecodable {
        error: LoadError,
        valid_prefix: String,
    },
}

impl LoadFailure {
    /// The diagnostic of a file whose bytes are not text; `None` for the other failures, which
    /// concern the path rather than the file's content.
    pub fn diagnostic(&self) -> Option<Diagnostic> {
        match self {
            LoadFailure::Undecodable { error, .. } => Some(error.diagnostic()),
            _ => None,
        }
    }
}

impl fmt::Display for LoadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadFailure::Unreadable(error) => write!(f, "cannot read it: {error}"),
            LoadFailure::Folder => write!(f, "a folder, not a game file"),
            LoadFailure::NotRegular(kind) => {
                write!(f, "{kind}, not a regular file: it is not read")
            }
            LoadFailure::TooLarge { bytes, limit } => write!(
                f,
                "{bytes} bytes, more than the {limit} bytes a game file may have: it is not read \
                 (raise `max-megabytes` under `[files]` in ludeme.toml to read it)"
            ),
            LoadFailure::NotGameFile => write!(
                f,
                "not a game file: the extension is none of {}",
                extension_list()
            ),
            LoadFailure::Undecodable { error, .. } => write!(f, "{}", error.diagnostic().message),
        }
    }
}

/// Reads `path` as a game file of at most `max_bytes` bytes. Only regular files are opened, and
/// only when their extension is a game's.
pub fn load_game(
    fs: &dyn FileSystem,
    path: &Path,
    max_bytes: u64,
) -> Result<LoadedGame, LoadFailure> {
    let unreadable = |error: std::io::Error| LoadFailure::Unreadable(error.to_string());
    match fs.kind(path).map_err(unreadable)? {
        FileKind::Folder => return Err(LoadFailure::Folder),
        FileKind::Special(kind) => return Err(LoadFailure::NotRegular(kind)),
        FileKind::File { len } if len > max_bytes => {
            return Err(LoadFailure::TooLarge {
                bytes: len,
                limit: max_bytes,
            });
        }
        FileKind::File { .. } => {}
    }
    if !super::is_game_file(path) {
        return Err(LoadFailure::NotGameFile);
    }
    let bytes = fs.read(path).map_err(unreadable)?;
    // The file may have grown between the two looks.
    if bytes.len() as u64 > max_bytes {
        return Err(LoadFailure::TooLarge {
            bytes: bytes.len() as u64,
            limit: max_bytes,
        });
    }
    let text = decode_source(&bytes).map_err(|error| LoadFailure::Undecodable {
        valid_prefix: error.valid_prefix(&bytes).to_owned(),
        error,
    })?;
    let syntax = Syntax::detect(path, text).ok_or(LoadFailure::NotGameFile)?;
    Ok(LoadedGame {
        path: path.to_path_buf(),
        syntax,
        text: Arc::from(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::MemoryFileSystem;

    fn load(fs: &MemoryFileSystem, path: &str) -> Result<LoadedGame, LoadFailure> {
        load_game(fs, Path::new(path), 100)
    }

    #[test]
    fn a_game_file_is_read_with_its_language() {
        let fs = MemoryFileSystem::new();
        fs.write("games/ttt.gdl", "; tic-tac-toe\nrole(x)");
        let game = load(&fs, "games/ttt.gdl").unwrap();
        assert_eq!(game.syntax, Syntax::GdlInfix);
        assert_eq!(&*game.text, "; tic-tac-toe\nrole(x)");
    }

    #[test]
    fn each_failure_has_its_message() {
        let fs = MemoryFileSystem::new();
        fs.write("notes.txt", "hello");
        fs.write("big.kif", vec![b' '; 101]);
        fs.write("bin.kif", b"(role\0)".to_vec());
        fs.write("games/a.kif", "(role a)");
        fs.add_special("pipe.kif", "a named pipe (FIFO)");
        let message = |path: &str| load(&fs, path).unwrap_err().to_string();
        assert!(message("missing.kif").starts_with("cannot read it: "));
        assert_eq!(message("games"), "a folder, not a game file");
        assert_eq!(
            message("pipe.kif"),
            "a named pipe (FIFO), not a regular file: it is not read"
        );
        assert!(message("big.kif").starts_with("101 bytes, more than the 100 bytes"));
        assert!(message("notes.txt").starts_with("not a game file: the extension is none of"));
        let binary = load(&fs, "bin.kif").unwrap_err();
        assert!(binary.to_string().contains("binary data"));
        assert_eq!(binary.diagnostic().map(|d| d.code), Some("file/binary"));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_on_disk_is_refused_without_being_opened() {
        let dir = tempfile_dir();
        let fifo = dir.join("game.kif");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|status| status.success()) {
            return; // no mkfifo here: nothing to test
        }
        // Opening the FIFO for reading would block this test forever.
        let failure = load_game(&crate::files::OsFileSystem, &fifo, 100).unwrap_err();
        assert!(matches!(failure, LoadFailure::NotRegular(_)), "{failure}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[cfg(unix)]
    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ludeme-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

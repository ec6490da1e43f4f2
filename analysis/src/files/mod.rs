//! Game files on a file system: which files a front end works on ([`discovery`]) and how one is
//! read into the database ([`load`]), over a small [`FileSystem`] trait so that tests can use an
//! in-memory tree ([`MemoryFileSystem`]).
//!
//! Every command and the language server read games through [`load_game`]: one place decides
//! what a file is (its language, from its extension and first form), and each way a file can
//! fail to be a game has one message ([`LoadFailure`]).

mod discovery;
mod load;
mod system;

pub use discovery::{InputProblem, collect_game_files, extension_list, is_game_file};
pub use load::{DEFAULT_MAX_FILE_BYTES, LoadFailure, LoadedGame, load_game};
pub use system::{FileKind, FileSystem, MemoryFileSystem, OsFileSystem};

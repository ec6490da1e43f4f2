//! Which files a command works on (the walk itself is shared with the language server, in
//! `ludeme_analysis::inputs`), and the loading of single games.

use std::path::Path;

use std::sync::Arc;

use ludeme_analysis::inputs::extension_list;
pub use ludeme_analysis::inputs::{InputProblem, collect_game_files, is_game_file};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax, decode_source};

/// Reads one game file for a command that works on a single game (bench, play, probe, distance):
/// its text and language, or a message saying why it cannot be used.
pub fn read_game(path: &Path) -> Result<(String, Syntax), String> {
    let bytes = std::fs::read(path).map_err(|error| format!("cannot read it: {error}"))?;
    let text = decode_source(&bytes).map_err(|error| error.diagnostic().message)?;
    let syntax = Syntax::detect(path, text).ok_or_else(|| {
        format!(
            "not a game file: the extension is none of {}",
            extension_list()
        )
    })?;
    Ok((text.to_owned(), syntax))
}

/// [`read_game`], and the game put into `db`.
pub fn load_game(db: &RootDatabase, path: &Path) -> Result<SourceFile, String> {
    let (text, syntax) = read_game(path)?;
    Ok(SourceFile::new(
        db,
        path.to_path_buf(),
        syntax,
        Arc::from(text),
        None,
    ))
}

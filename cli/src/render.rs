//! `ludeme render GAME [--state MOVES] [-o FILE]`: the board of a game's start, or of the
//! position after the moves given, as SVG.
//!
//! Moves are named as the engines name them (see `ludeme_engine::notation`, re-exported by
//! the analysis crate's `play` module): `(mark 1 1)` in GDL, `C3` or `A1-B2` in Ludi, `B2` in
//! EGGG. A move that is not legal stops the command with the legal moves of that ply.

use std::path::PathBuf;

use clap::Args;
use ludeme_analysis::picture::svg;
use ludeme_analysis::play::split_plies;

use crate::exit;
use crate::project::{KnownGames, open_playable};

/// The options of `ludeme render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// A game of any language the engines play (.kif, .gdl, .hrf, .ludi, .egg).
    file: PathBuf,
    /// Moves to play from the start, separated by commas or semicolons: `B2, A1, C3`; the
    /// moves of several roles in one turn are joined by `&` (`rock & paper`).
    #[arg(long, value_name = "MOVES")]
    state: Option<String>,
    /// Where to write the SVG; standard output when absent.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(args: &RenderArgs) -> u8 {
    let path = &args.file;
    let fail = |message: String| {
        eprintln!("ludeme render: {}: {message}", path.display());
        exit::FAILURE
    };
    let game = match open_playable(path, KnownGames::Only(Vec::new())) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let plies = args.state.as_deref().map(split_plies).unwrap_or_default();
    let position = match game.position_after(&plies) {
        Ok(position) => position,
        Err(error) => return fail(error.to_string()),
    };
    let picture = svg(&game.picture(&position));
    let written = match &args.output {
        Some(output) => std::fs::write(output, picture.as_bytes())
            .map_err(|error| format!("cannot write {}: {error}", output.display())),
        None => {
            use std::io::Write;
            std::io::stdout()
                .lock()
                .write_all(picture.as_bytes())
                .map_err(|error| format!("cannot write the picture: {error}"))
        }
    };
    match written {
        Ok(()) => exit::CLEAN,
        Err(message) => fail(message),
    }
}

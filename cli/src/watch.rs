//! `ludeme check --watch`: check, then check again whenever a game file under the paths or the
//! settings file changes, until interrupted (Ctrl-C), as `ruff check --watch` does.
//!
//! Changes are found by looking at the files' sizes and modification times a few times a
//! second (as `ludeme serve` follows its games): no watcher service, the same on every
//! system, and cheap (one `stat` per game file). The results cache makes each new run check
//! only what changed.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use ludeme_analysis::config::find_config;
use ludeme_analysis::files::collect_game_files;

use crate::report::screen;

/// How often the files are looked at.
const POLL_INTERVAL: Duration = Duration::from_millis(300);

/// Each watched file's path, size and modification time, in a fixed order.
type FilesSeen = Vec<(PathBuf, Option<(u64, SystemTime)>)>;

/// Runs `check` now and after every change, forever (the user ends it). `config` is the
/// settings file named on the command line, if any.
pub fn run(paths: &[PathBuf], config: Option<&Path>, mut check: impl FnMut()) -> u8 {
    let mut seen = files_seen(paths, config);
    announce("Starting ludeme check in watch mode...");
    check();
    loop {
        std::thread::sleep(POLL_INTERVAL);
        let now = files_seen(paths, config);
        if now != seen {
            seen = now;
            announce("File change detected, checking again...");
            check();
        }
    }
}

/// Clears the screen of a terminal (not of a pipe or a log, which keep every run) and says why
/// a run starts.
fn announce(message: &str) {
    if screen::terminal_size().is_some() {
        // Erase the screen and the scrollback, then home the cursor.
        print!("\x1b[2J\x1b[3J\x1b[H");
    }
    println!("[{}] {message}\n", clock());
}

/// The time of day (UTC), as the header of each run.
fn clock() -> String {
    let seconds = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    let of_day = seconds % 86_400;
    format!(
        "{:02}:{:02}:{:02}",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The game files under `paths` (found again each time: a new game is a change too) and the
/// settings file, each with its size and modification time.
fn files_seen(paths: &[PathBuf], config: Option<&Path>) -> FilesSeen {
    let (mut files, _) = collect_game_files(paths);
    files.extend(
        config
            .map(Path::to_path_buf)
            .or_else(|| paths.iter().find_map(|path| find_config(path))),
    );
    files
        .into_iter()
        .map(|path| {
            let stamp = std::fs::metadata(&path)
                .ok()
                .and_then(|metadata| Some((metadata.len(), metadata.modified().ok()?)));
            (path, stamp)
        })
        .collect()
}

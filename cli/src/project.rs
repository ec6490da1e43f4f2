//! Opening what a command works on: the settings of the nearest `ludeme.toml`, and the games
//! read into an analysis host (through the analysis crate's one loader).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ludeme_analysis::config::{Config, find_config, load_config};
use ludeme_analysis::files::OsFileSystem;
use ludeme_analysis::play::{EngineOptions, PlayableGame};
use ludeme_analysis::{Analysis, AnalysisHost, LoadedPaths, SourceFile};

use crate::report::FileReport;

/// The settings for `paths`: those of `explicit`, or of the `ludeme.toml` found in the first
/// path's folder or its nearest ancestor, or the defaults; with the report of the mistakes in
/// the file, if it has any. An error when the file named cannot be read.
pub fn settings_for(
    paths: &[PathBuf],
    explicit: Option<&Path>,
) -> Result<(Config, Option<FileReport>), String> {
    let config_path = explicit
        .map(Path::to_path_buf)
        .or_else(|| paths.iter().find_map(|path| find_config(path)));
    let Some(config_path) = config_path else {
        return Ok((Config::default(), None));
    };
    match load_config(&config_path) {
        Ok((config, diagnostics, text)) => {
            let report =
                (!diagnostics.is_empty()).then(|| FileReport::new(config_path, text, diagnostics));
            Ok((config, report))
        }
        Err(message) => Err(format!("{}: {message}", config_path.display())),
    }
}

/// A host holding `paths` and what they may refer to (see [`AnalysisHost::load_paths`]).
pub fn open_paths(paths: &[PathBuf], settings: Config) -> (AnalysisHost, LoadedPaths) {
    let mut host = AnalysisHost::new();
    let loaded = host.load_paths(&OsFileSystem, paths, Arc::new(settings));
    (host, loaded)
}

/// A host holding the game piped to `--stdin-filename PATH`, checked under `PATH`, and what it
/// may refer to (see [`AnalysisHost::load_given`]); an error when standard input cannot be read.
pub fn open_stdin(path: &Path, settings: Config) -> Result<(AnalysisHost, LoadedPaths), String> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
        .map_err(|error| format!("cannot read standard input: {error}"))?;
    let mut host = AnalysisHost::new();
    let loaded = host.load_given(&OsFileSystem, path, bytes, Arc::new(settings));
    Ok((host, loaded))
}

/// The paths a command works on: `paths`, or with `--stdin-filename` that name alone; an error
/// when both are given (`-` and the default `.` stand for standard input).
pub fn paths_or_stdin(
    paths: &[PathBuf],
    stdin_filename: Option<&Path>,
) -> Result<Vec<PathBuf>, String> {
    let Some(name) = stdin_filename else {
        return Ok(paths.to_vec());
    };
    let only_stdin = paths
        .iter()
        .all(|path| path == Path::new("-") || path == Path::new("."));
    if !only_stdin {
        return Err(format!(
            "--stdin-filename reads one game from standard input; give no other path (or `-`), not {}",
            paths
                .iter()
                .map(|path| path.display().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    Ok(vec![name.to_path_buf()])
}

/// Which games a command compares a game with.
pub enum KnownGames {
    /// The corpus folders of the settings.
    FromSettings,
    /// The corpus folders of the settings and the game's project: the folder of its
    /// `ludeme.toml`, or its own folder (as the editor knows its workspace's games).
    ProjectAndSettings,
    /// These folders only.
    Only(Vec<PathBuf>),
}

/// The game at `path` ready to play ([`open_game`], then [`playable`]).
pub fn open_playable(path: &Path, known: KnownGames) -> Result<PlayableGame, String> {
    let (analysis, file) = open_game(path, known)?;
    playable(&analysis, file)
}

/// `file` ready to play, on the engines' default options; the error is the one-line reason.
pub fn playable(analysis: &Analysis, file: SourceFile) -> Result<PlayableGame, String> {
    analysis
        .playable(file, &EngineOptions::default())
        .unwrap_or_else(|_| Err("cancelled".to_owned()))
}

/// One game for a command that works on a single game, with the snapshot to ask about it and
/// the games it may be compared with. The error is the one-line reason, without the path.
pub fn open_game(path: &Path, known: KnownGames) -> Result<(Analysis, SourceFile), String> {
    let paths = [path.to_path_buf()];
    // A broken settings file does not stop a command that only reads games: defaults apply,
    // and `ludeme check` reports the file's mistakes.
    let mut settings = settings_for(&paths, None)
        .map(|(settings, _)| settings)
        .unwrap_or_default();
    match known {
        KnownGames::FromSettings => {}
        KnownGames::ProjectAndSettings => {
            let project = settings
                .path
                .as_deref()
                .and_then(Path::parent)
                .or_else(|| path.parent())
                .map(|folder| {
                    if folder.as_os_str().is_empty() {
                        PathBuf::from(".")
                    } else {
                        folder.to_path_buf()
                    }
                });
            settings.corpus_folders.extend(project);
        }
        KnownGames::Only(folders) => settings.corpus_folders = folders,
    }
    let (host, loaded) = open_paths(&paths, settings);
    if let Some(problem) = loaded.problems.into_iter().find(|p| p.path == path) {
        return Err(problem.message);
    }
    match loaded.checked.into_iter().next() {
        Some((_, Ok(file))) => Ok((host.snapshot(), file)),
        Some((_, Err(failure))) => Err(failure.to_string()),
        None => Err("not a game file".to_owned()),
    }
}

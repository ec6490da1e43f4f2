//! Which files a front end works on: the files named, and the game files under the folders
//! named. The CLI (`ludeme check`) and the language server (the workspace folders) share it.

use std::path::{Path, PathBuf};

use crate::GAME_FILE_EXTENSIONS;

/// A path that could not be used, with a message for the user.
#[derive(Debug)]
pub struct InputProblem {
    pub path: PathBuf,
    pub message: String,
}

/// The game files under `paths`, sorted and without duplicates, and the problems met.
///
/// A file named explicitly is taken only if it has a game extension; folders are walked
/// recursively, honouring `.gitignore` and skipping hidden entries.
pub fn collect_game_files(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<InputProblem>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        let problem = |message: String| InputProblem {
            path: path.clone(),
            message,
        };
        match std::fs::metadata(path) {
            Err(error) => problems.push(problem(format!("cannot read it: {error}"))),
            Ok(metadata) if metadata.is_dir() => {
                let before = files.len();
                walk_folder(path, &mut files, &mut problems);
                if files.len() == before {
                    problems.push(problem(format!(
                        "no game files in this folder (looked for {})",
                        extension_list()
                    )));
                }
            }
            Ok(_) if is_game_file(path) => files.push(path.clone()),
            Ok(_) => problems.push(problem(format!(
                "not a game file: the extension is none of {}",
                extension_list()
            ))),
        }
    }
    files.sort();
    files.dedup();
    (files, problems)
}

fn walk_folder(folder: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<InputProblem>) {
    for entry in ignore::WalkBuilder::new(folder).build() {
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|kind| kind.is_file());
                if is_file && is_game_file(entry.path()) {
                    files.push(entry.into_path());
                }
            }
            Err(error) => problems.push(InputProblem {
                path: folder.to_path_buf(),
                message: format!("cannot walk the folder: {error}"),
            }),
        }
    }
}

/// Whether `path` has one of the game extensions (any case).
pub fn is_game_file(path: &Path) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| {
            GAME_FILE_EXTENSIONS
                .iter()
                .any(|known| known.eq_ignore_ascii_case(extension))
        })
}

/// `.egg, .ludi, ...`, for messages.
pub fn extension_list() -> String {
    GAME_FILE_EXTENSIONS
        .iter()
        .map(|extension| format!(".{extension}"))
        .collect::<Vec<_>>()
        .join(", ")
}

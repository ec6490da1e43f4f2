//! Test support: the project's own game files (the corpus and the fixtures), read once per test.

use std::path::Path;

/// Every file of `folder` (relative to the project's root) whose name ends in `.extension`,
/// as (path, text), sorted by path; none when the folder does not exist.
pub fn project_files(folder: &str, extension: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a readable project file");
            (path.display().to_string(), text)
        })
        .collect()
}

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

/// Every game whose name ends in `.extension` under the project's `corpus/` and
/// `tests/fixtures/` and, when the clone has it beside it, the shared corpus `../shared/corpus`,
/// at any depth: (path, text).
pub fn corpus_texts_with_extension(extension: &str) -> Vec<(std::path::PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut folders = vec![
        root.join("corpus"),
        root.join("tests/fixtures"),
        root.join("../shared/corpus"),
    ];
    let mut found = Vec::new();
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == extension)
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                found.push((path, text));
            }
        }
    }
    found.sort();
    found
}

/// Runs `compare` on every clean KIF game of [`corpus_texts_with_extension`] (one the fast
/// reader accepts) with its text, the reader's forms and the tree-sitter tree: the features that
/// read clean KIF off the forms must give what the tree gives. Fails when fewer than five games
/// were compared.
pub fn compare_on_clean_kif_games(
    mut compare: impl FnMut(
        &std::path::Path,
        &str,
        &crate::syntax::kif_forms::Forms,
        tree_sitter::Node<'_>,
    ),
) {
    let mut compared = 0;
    for (path, text) in corpus_texts_with_extension("kif") {
        let Some(forms) = crate::kif_forms::read_kif(&text) else {
            continue;
        };
        let tree = crate::parse_text(crate::Syntax::GdlKif, &text, None);
        compare(&path, &text, &forms, tree.root());
        compared += 1;
    }
    assert!(compared >= 5, "compared only {compared} games");
}

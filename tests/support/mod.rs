//! Helpers shared by the end-to-end tests.
#![allow(dead_code)] // each test binary uses a different part

pub mod lsp_client;

use std::path::{Path, PathBuf};

/// Runs the `ludeme` binary under test with `args`, from the project root.
pub fn ludeme(args: &[&str]) -> std::process::Output {
    ludeme_in(args, &project_root())
}

/// Runs the `ludeme` binary under test with `args`, from `dir`.
pub fn ludeme_in(args: &[&str], dir: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the ludeme binary runs")
}

/// A diagnostic of `--format json` as (start line, "severity: code"), the form annotations take.
pub fn line_and_code(diagnostic: &serde_json::Value) -> (usize, String) {
    (
        diagnostic["range"]["start"]["line"].as_u64().unwrap() as usize,
        format!(
            "{}: {}",
            diagnostic["severity"].as_str().unwrap(),
            diagnostic["code"].as_str().unwrap()
        ),
    )
}

/// The project root.
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// `../shared/corpus` beside the project root, the external corpus of real games. Tests over it
/// say loudly when it is absent (a clone made elsewhere) and skip; CI always has it.
pub fn shared_corpus() -> Option<PathBuf> {
    let path = project_root().join("../shared/corpus");
    if path.is_dir() {
        Some(path)
    } else {
        eprintln!(
            "\n*** SKIPPED: {} is absent; the tests over the external GDL corpus did not run ***\n",
            path.display()
        );
        None
    }
}

/// All files under `folder` with one of `extensions`, sorted.
pub fn files_with_extensions(folder: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| extensions.contains(&e))
            {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Expected diagnostics written into a test file as comments: `<comment> error: CODE` (or
/// `warning:`, `info:`; several separated by `, `) at the end of a line expects diagnostics of
/// that severity and code starting on that line; alone on its line, with a caret
/// (`; ^ error: CODE`), it refers to the line above. Returns (line, "severity: code") pairs,
/// lines 1-based.
pub fn annotated_expectations(text: &str, comment: &str) -> Vec<(usize, String)> {
    let mut expected = Vec::new();
    let mut last_code_line = 0;
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let Some((at, annotations)) = find_annotation(line, comment) else {
            if !line.trim().is_empty() {
                last_code_line = line_number;
            }
            continue;
        };
        let code_before = !line[..at].trim().is_empty();
        let target = if code_before {
            line_number
        } else {
            last_code_line
        };
        if code_before {
            last_code_line = line_number;
        }
        expected.extend(
            annotations
                .into_iter()
                .map(|annotation| (target, annotation)),
        );
    }
    expected
}

/// The position of an annotation comment in `line` and its `severity: code` items.
fn find_annotation(line: &str, comment: &str) -> Option<(usize, Vec<String>)> {
    let mut search = 0;
    while let Some(found) = line[search..].find(comment) {
        let at = search + found;
        let rest = line[at + comment.len()..].trim_start();
        let rest = rest.strip_prefix("^ ").unwrap_or(rest);
        let items: Vec<String> = rest
            .split(", ")
            .map(|item| item.trim().to_owned())
            .collect();
        let all_annotations = items.iter().all(|item| {
            ["error: ", "warning: ", "info: "]
                .iter()
                .any(|severity| item.starts_with(severity) && !item[severity.len()..].contains(' '))
        });
        if all_annotations {
            return Some((at, items));
        }
        search = at + comment.len();
    }
    None
}

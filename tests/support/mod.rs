//! Helpers shared by the end-to-end tests: running the `ludeme` binary and reading what it
//! reports. The helpers that need neither the binary nor the engine are in `games.rs`.
#![allow(dead_code)] // each test binary uses a different part

mod games;
#[cfg(target_os = "linux")]
pub mod interrupt;
pub mod large_gdl;
pub mod lsp_client;
pub mod projects;
pub mod stdio_client;

// Where the games are and the odds of random tic-tac-toe: shared with the analysis crate's tests.
pub use games::*;

use std::path::{Path, PathBuf};

/// Runs the `ludeme` binary under test with `args`, from the project root.
pub fn ludeme(args: &[&str]) -> std::process::Output {
    ludeme_in(args, &project_root())
}

/// Runs `ludeme SUBCOMMAND ARGS... --format json`, which must exit 0; its JSON report.
pub fn ludeme_json(subcommand: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec![subcommand];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let output = ludeme(&all);
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|error| panic!("JSON output ({error}): {stdout}"))
}

/// Runs `ludeme ARGS...`, which must be refused with exit status 2 (and no panic); its
/// standard error.
pub fn ludeme_refused(args: &[&str]) -> String {
    let output = ludeme(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// Trains a model of the legal player (always its first legal move) as tic-tac-toe's
/// `oplayer` into `path`, with `ludeme model train`.
pub fn train_legal_model(path: &Path) {
    let output = ludeme(&[
        "model",
        "train",
        "corpus/gdl/ticTacToe.kif",
        "--player",
        "legal",
        "--role",
        "oplayer",
        "--matches",
        "20",
        "--features",
        "state+legal",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Where the binary under test keeps `check`'s results cache: in cargo's folder for test files,
/// not at the project root, so that tests leave nothing in the checkout (or a fresh clone).
pub const CACHE_DIR_VARIABLE: &str = "LUDEME_CACHE_DIR";
pub fn test_cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("ludeme-cache")
}

/// Runs the `ludeme` binary under test with `args`, from `dir`.
pub fn ludeme_in(args: &[&str], dir: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(args)
        .current_dir(dir)
        .env(CACHE_DIR_VARIABLE, test_cache_dir())
        .output()
        .expect("the ludeme binary runs")
}

/// Runs the `ludeme` binary under test with `args`, from `dir`, with `input` on standard input.
pub fn ludeme_with_input(args: &[&str], dir: &Path, input: &str) -> std::process::Output {
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(args)
        .current_dir(dir)
        .env(CACHE_DIR_VARIABLE, test_cache_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ludeme binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    // A command that refuses its arguments exits without reading its input, and may have
    // closed the pipe before the input is written (CI saw it once): that is not a failure of
    // the test, whose assertions are about the output.
    match std::io::Write::write_all(&mut stdin, input.as_bytes()) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(error) => panic!("the input is not written: {error}"),
    }
    drop(stdin);
    child.wait_with_output().expect("the ludeme binary ends")
}

/// The command `ludeme lsp` run from `dir`, for [`stdio_client::StdioClient::spawn`].
pub fn ludeme_lsp(dir: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ludeme"));
    command.arg("lsp").current_dir(dir);
    command
}

/// The English of a game rule by rule, as `ludeme explain --literal` prints it; the command
/// must succeed.
pub fn explain(path: &str) -> String {
    explain_with(&["--literal"], path)
}

/// The rulebook of a game, as `ludeme explain` prints it; the command must succeed.
pub fn rulebook(path: &str) -> String {
    explain_with(&[], path)
}

/// `ludeme explain` with `options` on `path`, which must succeed.
fn explain_with(options: &[&str], path: &str) -> String {
    let mut args = vec!["explain"];
    args.extend_from_slice(options);
    args.push(path);
    let output = ludeme(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "ludeme explain {path}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
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

/// One expected diagnostic: the line it starts on (1-based), its columns when a caret line gives
/// them (1-based, end exclusive), and "severity: code".
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Expected {
    pub line: usize,
    pub columns: Option<(usize, usize)>,
    pub code: String,
}

/// The annotations of [`annotated_expectations`], plus ranges: a comment line of carets,
/// `<comment>    ^^^^ error: CODE`, expects a diagnostic on the line above whose range the
/// carets cover exactly.
pub fn annotated_ranges(text: &str, comment: &str) -> Vec<Expected> {
    let mut expected = Vec::new();
    let mut last_code_line = 0;
    for (index, line) in text.lines().enumerate() {
        let carets = line
            .trim_start()
            .strip_prefix(comment)
            .map(str::trim_start)
            .filter(|rest| rest.starts_with('^'));
        if let Some(rest) = carets {
            let length = rest.chars().take_while(|&c| c == '^').count();
            let start = line.chars().position(|c| c == '^').unwrap() + 1;
            expected.extend(rest[length..].split(", ").map(|code| Expected {
                line: last_code_line,
                columns: Some((start, start + length)),
                code: code.trim().to_owned(),
            }));
            continue;
        }
        let comment_line = line.trim_start().starts_with(comment);
        if !line.trim().is_empty() && !comment_line {
            last_code_line = index + 1;
        }
        if let Some((_, items)) = find_annotation(line, comment) {
            let target = if comment_line {
                last_code_line
            } else {
                index + 1
            };
            expected.extend(items.into_iter().map(|code| Expected {
                line: target,
                columns: None,
                code,
            }));
        }
    }
    expected
}

/// `ludeme check --format json PATH`, parsed.
pub fn check_json(path: &Path) -> Vec<serde_json::Value> {
    let output = ludeme(&["check", "--format", "json", path.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    json.as_array().expect("an array").clone()
}

/// A diagnostic of `--format json` as an [`Expected`], with its columns when `with_columns` and
/// its range is on one line.
pub fn actual(diagnostic: &serde_json::Value, with_columns: bool) -> Expected {
    let range = &diagnostic["range"];
    let column = |end: &str| range[end]["column"].as_u64().unwrap() as usize;
    let (line, code) = line_and_code(diagnostic);
    Expected {
        line,
        columns: (with_columns && range["end"]["line"] == range["start"]["line"])
            .then(|| (column("start"), column("end"))),
        code,
    }
}

/// Checks that every fixture gets exactly the diagnostics its annotations expect (read by
/// `expectations`; columns compared where the annotation gives them) and that every code of
/// `codes` is reported by some fixture. Returns the human output of each fixture, named after
/// its path, for the caller to snapshot (insta names snapshots after the calling module).
pub fn assert_fixtures_match_annotations(
    fixtures: &[PathBuf],
    expectations: impl Fn(&str) -> Vec<Expected>,
    codes: impl IntoIterator<Item = &'static str>,
) -> Vec<(String, String)> {
    let mut outputs = Vec::new();
    let root = project_root();
    let mut failures = Vec::new();
    let mut codes_seen = std::collections::BTreeSet::new();
    for file in fixtures {
        let text = std::fs::read_to_string(file).unwrap();
        let mut expected = expectations(&text);
        expected.sort();
        let mut found: Vec<Expected> = check_json(file)
            .iter()
            .map(|diagnostic| {
                let line_only = actual(diagnostic, false);
                let with_columns = expected.iter().any(|e| {
                    e.line == line_only.line && e.code == line_only.code && e.columns.is_some()
                });
                actual(diagnostic, with_columns)
            })
            .collect();
        found.sort();
        codes_seen.extend(
            found
                .iter()
                .map(|e| e.code.split_once(": ").unwrap().1.to_owned()),
        );
        if found != expected {
            failures.push(format!(
                "{}\n  expected {expected:?}\n  actual   {found:?}",
                file.display()
            ));
        }
        let relative = file.strip_prefix(&root).unwrap();
        let name = relative.to_string_lossy().replace(['/', '.'], "_");
        let output = ludeme(&["check", "--color", "never", relative.to_str().unwrap()]);
        outputs.push((name, String::from_utf8(output.stdout).unwrap()));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let missing: Vec<&str> = codes
        .into_iter()
        .filter(|code| !codes_seen.contains(*code))
        .collect();
    assert!(missing.is_empty(), "no fixture reports {missing:?}");
    outputs
}

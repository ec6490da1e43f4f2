//! `ludeme check --fix`, `--unsafe-fixes` and `--diff`, and `ludeme fmt --diff`: on broken
//! games of every language (tests/fixtures/fix/), every fixable diagnostic is fixed, the fixed
//! games check with fewer diagnostics, a second `--fix` changes nothing; and over the corpora no
//! fix leaves a file checking worse.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

const BROKEN: &str = "tests/fixtures/fix";

/// A copy of the broken games in a temporary folder, which the test may fix.
fn broken_games() -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    copy_games(&support::project_root().join(BROKEN), folder.path());
    folder
}

/// Copies every file under `from` (recursively) into `to`, keeping the layout.
fn copy_games(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("a readable folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_games(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn ludeme_in(dir: &Path, args: &[&str]) -> Output {
    support::ludeme_in(args, dir)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The diagnostics of `check --output-format json` in `dir`.
fn diagnostics(dir: &Path, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["check", "--output-format", "json"];
    all.extend_from_slice(args);
    let output = ludeme_in(dir, &all);
    serde_json::from_str::<Value>(&text(&output.stdout))
        .unwrap_or_else(|error| panic!("{error}: {}", text(&output.stderr)))
        .as_array()
        .expect("an array")
        .clone()
}

/// The text of every file of `dir`, by name.
fn contents(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap().to_path_buf();
                files.insert(relative, std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    files
}

fn count_by_file(diagnostics: &[Value]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for diagnostic in diagnostics {
        *counts
            .entry(diagnostic["file"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    counts
}

fn has_fix(diagnostic: &Value, applicability: Option<&str>) -> bool {
    let fix = &diagnostic["fix"];
    !fix.is_null() && applicability.is_none_or(|wanted| fix["applicability"] == wanted)
}

/// The fixtures have what the test relies on: in each language a diagnostic with a fix, and
/// both safe and unsafe fixes among them.
#[test]
fn every_language_has_a_fixable_slip() {
    let games = broken_games();
    let found = diagnostics(games.path(), &["."]);
    for extension in ["ludi", "egg", "kif", "hrf"] {
        assert!(
            found.iter().any(|diagnostic| {
                diagnostic["file"].as_str().unwrap().ends_with(extension)
                    && has_fix(diagnostic, Some("safe"))
            }),
            "no safe fix in a .{extension} file: {found:#?}"
        );
    }
    assert!(found.iter().any(|d| has_fix(d, Some("unsafe"))));
    // The JSON fix names its edits with positions.
    let fix = &found.iter().find(|d| has_fix(d, None)).unwrap()["fix"];
    assert!(fix["message"].as_str().is_some());
    assert!(fix["edits"][0]["range"]["start"]["line"].as_u64().is_some());
    assert!(fix["edits"][0]["content"].as_str().is_some());
}

#[test]
fn fix_with_unsafe_fixes_fixes_everything_fixable_once_and_for_all() {
    let games = broken_games();
    let before = diagnostics(games.path(), &["."]);
    let fixable = before.iter().filter(|d| has_fix(d, None)).count();
    assert!(fixable >= 6, "{before:#?}");

    let output = ludeme_in(
        games.path(),
        &["check", "--fix", "--unsafe-fixes", "--color", "never", "."],
    );
    let report = text(&output.stdout);
    let after = diagnostics(games.path(), &["."]);
    assert!(
        !after.iter().any(|d| has_fix(d, None)),
        "fixable diagnostics left: {after:#?}"
    );
    assert!(after.len() < before.len(), "{before:#?}\n{after:#?}");
    for (file, count) in count_by_file(&after) {
        let was = count_by_file(&before).get(&file).copied().unwrap_or(0);
        assert!(count <= was, "{file} has {count} diagnostics, {was} before");
    }
    // Ruff's summary: how many were fixed, how many remain.
    let fixed = before.len() - after.len();
    assert!(
        report.contains(&format!(
            "fixed {fixed} diagnostics ({} remaining)",
            after.len()
        )),
        "{report}"
    );
    assert_eq!(
        output.status.code(),
        Some(i32::from(after.iter().any(|d| d["severity"] == "error"))),
        "{report}"
    );
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));

    // What the fixes wrote.
    let fixed_texts = contents(games.path());
    let ludi = &fixed_texts[Path::new("typos.ludi")];
    assert!(ludi.contains("(end (White win (in-a-row 3)))"), "{ludi}");
    assert!(ludi.contains("(size "), "the board's size is added: {ludi}");
    let egg = &fixed_texts[Path::new("rps.egg")];
    assert!(
        egg.contains("goal is Beat\n") && egg.contains("turns alternate\n"),
        "{egg}"
    );
    let kif = &fixed_texts[Path::new("parentheses.kif")];
    assert!(
        kif.contains("(<= over\n") && !kif.contains("(over)"),
        "{kif}"
    );
    let hrf = &fixed_texts[Path::new("parentheses.hrf")];
    assert!(!hrf.contains("over()"), "{hrf}");

    // A second run has nothing left to do.
    let again = ludeme_in(
        games.path(),
        &["check", "--fix", "--unsafe-fixes", "--color", "never", "."],
    );
    assert_eq!(contents(games.path()), fixed_texts);
    assert!(
        text(&again.stdout).contains(&format!("fixed 0 diagnostics ({} remaining)", after.len())),
        "{}",
        text(&again.stdout)
    );
}

#[test]
fn fix_applies_the_safe_fixes_and_leaves_the_unsafe_ones() {
    let games = broken_games();
    let before = diagnostics(games.path(), &["."]);
    let output = ludeme_in(games.path(), &["check", "--fix", "--color", "never", "."]);
    let after = diagnostics(games.path(), &["."]);
    assert!(
        !after.iter().any(|d| has_fix(d, Some("safe"))),
        "{after:#?}"
    );
    let unsafe_before = before.iter().filter(|d| has_fix(d, Some("unsafe"))).count();
    let unsafe_after = after.iter().filter(|d| has_fix(d, Some("unsafe"))).count();
    assert_eq!(unsafe_after, unsafe_before, "{after:#?}");
    // The board's size is still missing: its fix is the manual's example.
    let ludi = std::fs::read_to_string(games.path().join("typos.ludi")).unwrap();
    assert!(!ludi.contains("(size "), "{ludi}");
    assert!(ludi.contains("in-a-row"), "{ludi}");
    // What is left says how to fix it.
    let report = text(&output.stdout);
    assert!(
        report.contains(&format!(
            "[*] 0 fixable with `--fix` ({unsafe_after} more with `--fix --unsafe-fixes`)"
        )) || report.contains("fixed "),
        "{report}"
    );
}

#[test]
fn a_check_without_fix_says_how_many_it_would_fix() {
    let games = broken_games();
    let found = diagnostics(games.path(), &["."]);
    let safe = found.iter().filter(|d| has_fix(d, Some("safe"))).count();
    let unsafe_only = found.iter().filter(|d| has_fix(d, Some("unsafe"))).count();
    let output = ludeme_in(games.path(), &["check", "--color", "never", "."]);
    let report = text(&output.stdout);
    assert!(
        report.ends_with(&format!(
            "[*] {safe} fixable with `--fix` ({unsafe_only} more with `--fix --unsafe-fixes`)\n"
        )),
        "{report}"
    );
    assert_eq!(
        contents(games.path()),
        contents(&support::project_root().join(BROKEN))
    );
}

#[test]
fn diff_prints_the_fixes_and_writes_nothing() {
    let games = broken_games();
    let untouched = contents(games.path());
    let output = ludeme_in(games.path(), &["check", "--diff", "."]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let diff = text(&output.stdout);
    assert!(
        diff.contains("--- a/./typos.ludi\n+++ b/./typos.ludi\n"),
        "{diff}"
    );
    assert!(
        diff.contains("-  (end (Whte win (in-a-rwo 3)))\n+  (end (White win (in-a-row 3)))\n"),
        "{diff}"
    );
    assert!(diff.contains("-goal is Baet\n+goal is Beat\n"), "{diff}");
    assert!(
        !diff.contains("(size "),
        "unsafe fixes are not shown: {diff}"
    );
    assert!(
        text(&output.stderr).contains("would fix "),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(contents(games.path()), untouched);

    // The diff is what --fix writes: applied, it gives the same files.
    let patched = tempfile::tempdir().unwrap();
    copy_games(games.path(), patched.path());
    let apply = std::process::Command::new("patch")
        .args(["-p1", "--quiet"])
        .current_dir(patched.path())
        .stdin(std::process::Stdio::piped())
        .spawn();
    if let Ok(mut apply) = apply {
        use std::io::Write;
        apply
            .stdin
            .take()
            .unwrap()
            .write_all(diff.as_bytes())
            .unwrap();
        assert!(apply.wait().unwrap().success());
        ludeme_in(games.path(), &["check", "--fix", "."]);
        assert_eq!(contents(patched.path()), contents(games.path()));
    }

    // Nothing to fix: exit 0 and no diff.
    let clean = ludeme_in(
        &support::project_root(),
        &["check", "--diff", "corpus/gdl/ticTacToe.kif"],
    );
    assert_eq!(clean.status.code(), Some(0));
    assert!(clean.stdout.is_empty());
}

#[test]
fn fmt_diff_prints_a_patch_and_writes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let game = folder.path().join("t.kif");
    std::fs::write(&game, "(role   x)\n(<= terminal\n(true (done)))\n").unwrap();
    let output = ludeme_in(folder.path(), &["fmt", "--diff", "t.kif"]);
    assert_eq!(output.status.code(), Some(1));
    let diff = text(&output.stdout);
    assert!(diff.starts_with("--- a/t.kif\n+++ b/t.kif\n"), "{diff}");
    assert!(diff.contains("-(role   x)\n+(role x)\n"), "{diff}");
    assert_eq!(
        std::fs::read_to_string(&game).unwrap(),
        "(role   x)\n(<= terminal\n(true (done)))\n"
    );
    let formatted = ludeme_in(folder.path(), &["fmt", "t.kif"]);
    assert_eq!(formatted.status.code(), Some(0));
    let again = ludeme_in(folder.path(), &["fmt", "--diff", "t.kif"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(again.stdout.is_empty());
}

/// Every fix over the corpora, unsafe ones included: no file checks worse after them (a round
/// that would make it so is undone, and said so on standard error: there must be none).
#[test]
fn no_fix_makes_a_corpus_game_worse() {
    let root = support::project_root();
    let copy = tempfile::tempdir().unwrap();
    let mut folders = vec!["corpus"];
    copy_games(
        &root.join("corpus"),
        &copy.path().join("corpus").tap_create(),
    );
    let shared = root.join("../shared/corpus");
    if shared.is_dir() {
        copy_games(&shared, &copy.path().join("shared").tap_create());
        folders.push("shared");
    }
    let before = diagnostics(copy.path(), &folders);
    let mut args = vec![
        "check",
        "--fix",
        "--unsafe-fixes",
        "--output-format",
        "json",
    ];
    args.extend_from_slice(&folders);
    let output = ludeme_in(copy.path(), &args);
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("was undone"), "{stderr}");
    let after = diagnostics(copy.path(), &folders);
    let before_counts = count_by_file(&before);
    for (file, count) in count_by_file(&after) {
        let was = before_counts.get(&file).copied().unwrap_or(0);
        assert!(
            count <= was,
            "{file}: {count} diagnostics after the fixes, {was} before"
        );
    }
    let errors = |found: &[Value]| found.iter().filter(|d| d["severity"] == "error").count();
    assert!(errors(&after) <= errors(&before));
}

trait CreateFolder {
    fn tap_create(self) -> Self;
}

impl CreateFolder for PathBuf {
    fn tap_create(self) -> Self {
        std::fs::create_dir_all(&self).unwrap();
        self
    }
}

//! What a maintainer adopts: the pre-commit hooks of `.pre-commit-hooks.yaml`, run by
//! `pre-commit` itself on a temporary repository (a broken game fails, a fixed one passes),
//! `ludeme --version`, which names the commit built, and `ludeme explain` answering a misspelt
//! code with the nearest ones.

mod support;

use std::path::Path;
use std::process::{Command, Output};

/// A broken game: a misspelt ludeme.
const BROKEN: &str = "(game Tic-Tac-Toe\n  (players White Black)\n  (board (tiling square) (size 3 3))\n  (end (All win (in-a-rwo 3)))\n)\n";

/// `pre-commit` on the PATH, or why the test cannot run (.ci/run installs it).
fn pre_commit_available() -> bool {
    Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

fn git(repo: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(status.status.success(), "git {args:?}: {status:?}");
}

/// `pre-commit run --all-files` in `repo`, with the `ludeme` under test first on the PATH and
/// pre-commit's cache inside the repository's folder.
fn run_hooks(repo: &Path) -> Output {
    let binary = Path::new(env!("CARGO_BIN_EXE_ludeme"));
    let path = std::env::join_paths(
        std::iter::once(binary.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    Command::new("pre-commit")
        .args(["run", "--all-files", "--color", "never"])
        .current_dir(repo)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", repo.join(".pre-commit-cache"))
        .output()
        .expect("pre-commit runs")
}

/// The published hooks, as a repository's own `repo: local` hooks: the same definitions,
/// without cloning this repository.
fn config_with_the_published_hooks() -> String {
    let hooks = std::fs::read_to_string(support::project_root().join(".pre-commit-hooks.yaml"))
        .expect("the hooks file");
    let indented: String = hooks
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| format!("      {line}\n"))
        .collect();
    format!("repos:\n  - repo: local\n    hooks:\n{indented}")
}

#[test]
fn the_pre_commit_hooks_fail_a_broken_game_and_pass_a_fixed_one() {
    if !pre_commit_available() {
        eprintln!("pre-commit is not installed (pip install pre-commit): test skipped");
        return;
    }
    let repo = tempfile::tempdir().unwrap();
    let repo = repo.path();
    git(repo, &["init", "--quiet"]);
    std::fs::write(repo.join(".gitignore"), ".pre-commit-cache/\n").unwrap();
    std::fs::write(
        repo.join(".pre-commit-config.yaml"),
        config_with_the_published_hooks(),
    )
    .unwrap();
    let game = repo.join("tic-tac-toe.ludi");
    std::fs::write(&game, BROKEN).unwrap();
    git(repo, &["add", "."]);

    let failed = run_hooks(repo);
    let report = String::from_utf8_lossy(&failed.stdout);
    assert_eq!(failed.status.code(), Some(1), "{report}");
    assert!(report.contains("ludeme check"), "{report}");
    assert!(report.contains("ludi/unknown-ludeme"), "{report}");

    // Fixed by `--fix`, as a designer would.
    let fixed = support::ludeme_in(&["check", "--fix", "tic-tac-toe.ludi"], repo);
    assert_eq!(fixed.status.code(), Some(0), "{fixed:?}");
    let formatted = support::ludeme_in(&["fmt", "tic-tac-toe.ludi"], repo);
    assert_eq!(formatted.status.code(), Some(0), "{formatted:?}");
    git(repo, &["add", "."]);
    let passed = run_hooks(repo);
    let report = String::from_utf8_lossy(&passed.stdout);
    assert_eq!(passed.status.code(), Some(0), "{report}");
    assert!(
        report.contains("ludeme check") && report.contains("Passed"),
        "{report}"
    );
}

#[test]
fn the_version_names_the_commit_built() {
    let output = support::ludeme(&["--version"]);
    assert_eq!(output.status.code(), Some(0));
    let version = String::from_utf8(output.stdout).unwrap();
    let package = env!("CARGO_PKG_VERSION");
    assert!(
        version.starts_with(&format!("ludeme {package}")),
        "{version}"
    );
    // In a git checkout (CI's is one) the commit and its date follow, as git names them.
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(support::project_root())
        .output();
    if let Ok(head) = head
        && head.status.success()
    {
        let head = String::from_utf8(head.stdout).unwrap();
        assert!(
            version.starts_with(&format!("ludeme {package} ({}", head.trim())),
            "{version} is not built from {head}"
        );
    }
}

#[test]
fn explain_suggests_the_nearest_code_for_a_typo() {
    for (written, meant) in [
        ("gdl/unsafe-varible", "gdl/unsafe-variable"),
        ("unsafe-variable", "gdl/unsafe-variable"),
        ("ludi/unknown-ludem", "ludi/unknown-ludeme"),
    ] {
        let output = support::ludeme(&["explain", written]);
        assert_eq!(output.status.code(), Some(2));
        let message = String::from_utf8(output.stderr).unwrap();
        assert!(
            message.contains(&format!("did you mean `{meant}`")),
            "{written}: {message}"
        );
    }
    let far = support::ludeme(&["explain", "xyzzy/plugh"]);
    assert!(
        !String::from_utf8(far.stderr)
            .unwrap()
            .contains("did you mean")
    );
}

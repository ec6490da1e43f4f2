//! `ludeme check`'s results cache: a second run gives the same report from the cache; a changed
//! file, a changed other game it is compared with, or changed settings are checked again; a
//! corrupt cache file is ignored and replaced; `--no-cache`, `--cache-dir`, `LUDEME_CACHE_DIR`
//! and the default `.ludeme_cache` folder (with its `.gitignore` and `CACHEDIR.TAG`).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TIC_TAC_TOE: &str = "corpus/gdl/ticTacToe.kif";

/// `ludeme check --output-format concise ARGS` in `dir`, with the cache in `cache` (or, with
/// `None`, wherever the command puts it by default).
fn check_in(dir: &Path, cache: Option<&Path>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ludeme"));
    command
        .args(["check", "--color", "never", "--output-format", "concise"])
        .args(args)
        .current_dir(dir)
        .env_remove("LUDEME_NO_CACHE");
    match cache {
        Some(cache) => command.env(support::CACHE_DIR_VARIABLE, cache),
        None => command.env_remove(support::CACHE_DIR_VARIABLE),
    };
    command.output().expect("the ludeme binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// A project of two copies of tic-tac-toe (each a `distance/duplicate` of the other) and a
/// game with an unused relation, and a cache folder beside it.
struct Project {
    _root: tempfile::TempDir,
    games: PathBuf,
    cache: PathBuf,
}

impl Project {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("a temporary folder");
        let games = root.path().join("games");
        std::fs::create_dir(&games).unwrap();
        let tic_tac_toe = support::project_root().join(TIC_TAC_TOE);
        std::fs::copy(&tic_tac_toe, games.join("a.kif")).unwrap();
        std::fs::copy(&tic_tac_toe, games.join("b.kif")).unwrap();
        std::fs::write(
            games.join("c.kif"),
            "(role x)\n(init (cell 1))\n(<= (legal x noop) (true (cell 1)))\n(<= (next (cell 1)) (does x noop))\n(<= terminal (true (cell 2)))\n(<= (goal x 100) terminal)\n",
        )
        .unwrap();
        let cache = root.path().join("cache");
        Self {
            games,
            cache,
            _root: root,
        }
    }

    fn check(&self, args: &[&str]) -> Output {
        check_in(&self.games, Some(&self.cache), args)
    }

    /// The one file of results the runs left in the cache folder.
    fn cache_file(&self) -> PathBuf {
        let builds: Vec<PathBuf> = std::fs::read_dir(&self.cache)
            .expect("the cache folder exists")
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_dir())
            .collect();
        assert_eq!(builds.len(), 1, "one build's folder: {builds:?}");
        let files: Vec<PathBuf> = std::fs::read_dir(&builds[0])
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "one file of results: {files:?}");
        files[0].clone()
    }
}

#[test]
fn a_second_run_reports_the_same_from_the_cache() {
    let project = Project::new();
    let first = project.check(&["."]);
    let report = stdout(&first);
    assert!(report.contains("warning[distance/duplicate]"), "{report}");
    let second = project.check(&["."]);
    assert_eq!(stdout(&second), report);
    assert_eq!(second.status.code(), first.status.code());

    // The second run read its diagnostics from the cache: a message changed there (with the
    // fingerprints kept) is what it reports.
    let file = project.cache_file();
    let stored = std::fs::read_to_string(&file).unwrap();
    assert!(stored.contains("this game duplicates"));
    std::fs::write(
        &file,
        stored.replace("this game duplicates", "CACHED: this game duplicates"),
    )
    .unwrap();
    assert!(stdout(&project.check(&["."])).contains("CACHED: this game duplicates"));
    // And none of it without the cache.
    let fresh = project.check(&["--no-cache", "."]);
    assert_eq!(stdout(&fresh), report);
}

#[test]
fn a_changed_file_and_the_games_compared_with_it_are_checked_again() {
    let project = Project::new();
    let before = stdout(&project.check(&["."]));
    assert_eq!(before.matches("distance/duplicate").count(), 2, "{before}");
    // b.kif gains a rule: it is no longer a copy of a.kif, whose own text is unchanged but
    // whose duplicate was b.kif.
    let b = project.games.join("b.kif");
    let mut text = std::fs::read_to_string(&b).unwrap();
    text.push_str("(<= (legal ?player pass) (role ?player))\n");
    std::fs::write(&b, text).unwrap();
    let after = stdout(&project.check(&["."]));
    assert!(!after.contains("distance/duplicate"), "{after}");
    assert_eq!(after, stdout(&project.check(&["--no-cache", "."])));
}

#[test]
fn changed_settings_are_checked_again() {
    let project = Project::new();
    let before = stdout(&project.check(&["."]));
    assert!(before.contains("distance/duplicate"), "{before}");
    std::fs::write(
        project.games.join("ludeme.toml"),
        "[rules]\ndisable = [\"distance/duplicate\"]\n",
    )
    .unwrap();
    let after = stdout(&project.check(&["."]));
    assert!(!after.contains("distance/duplicate"), "{after}");
    std::fs::write(
        project.games.join("ludeme.toml"),
        "[rules]\nseverity = { \"distance/duplicate\" = \"error\" }\n",
    )
    .unwrap();
    let raised = project.check(&["."]);
    assert!(
        stdout(&raised).contains("error[distance/duplicate]"),
        "{}",
        stdout(&raised)
    );
    assert_eq!(raised.status.code(), Some(1));
}

#[test]
fn a_corrupt_cache_file_is_ignored_and_replaced() {
    let project = Project::new();
    let report = stdout(&project.check(&["."]));
    let file = project.cache_file();
    for corrupt in [
        &b"{\"entries\": {\"a.kif\": "[..],
        b"\0\xff not JSON",
        b"{\"entries\": {}}",
    ] {
        std::fs::write(&file, corrupt).unwrap();
        let output = project.check(&["."]);
        assert_eq!(stdout(&output), report);
        assert!(output.stderr.is_empty(), "{:?}", output.stderr);
        // Replaced by a whole file that the next run reads.
        let rewritten = std::fs::read(&file).unwrap();
        assert!(serde_json::from_slice::<serde_json::Value>(&rewritten).is_ok());
    }
    // An entry naming a code this build does not know is not used.
    let stored = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, stored.replace("distance/duplicate", "no/such-code")).unwrap();
    assert_eq!(stdout(&project.check(&["."])), report);
}

#[test]
fn the_cache_folder_is_chosen_by_flag_environment_or_project_root() {
    let project = Project::new();
    // `--no-cache` writes nothing.
    project.check(&["--no-cache", "."]);
    assert!(!project.cache.exists());
    // `--cache-dir` wins over the environment.
    let chosen = project.games.join("elsewhere");
    project.check(&["--cache-dir", chosen.to_str().unwrap(), "."]);
    assert!(chosen.join("CACHEDIR.TAG").exists());
    assert!(!project.cache.exists());
    // `LUDEME_NO_CACHE` turns it off too.
    let output = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["check", "."])
        .current_dir(&project.games)
        .env(support::CACHE_DIR_VARIABLE, &project.cache)
        .env("LUDEME_NO_CACHE", "1")
        .output()
        .unwrap();
    assert!(output.status.code().is_some());
    assert!(!project.cache.exists());

    // By default: `.ludeme_cache` in the current folder, marked for git and backup tools.
    let default = project.games.join(".ludeme_cache");
    check_in(&project.games, None, &["."]);
    let tag = std::fs::read_to_string(default.join("CACHEDIR.TAG")).unwrap();
    assert!(tag.starts_with("Signature: 8a477f597d28d172789f06886806bc55"));
    let ignore = std::fs::read_to_string(default.join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|line| line == "*"));
    // With a `ludeme.toml`, in its folder, wherever the command runs from.
    let nested = project.games.join("nested");
    std::fs::create_dir(&nested).unwrap();
    std::fs::write(nested.join("ludeme.toml"), "").unwrap();
    std::fs::copy(project.games.join("c.kif"), nested.join("c.kif")).unwrap();
    check_in(&project.games, None, &["nested"]);
    assert!(nested.join(".ludeme_cache").join("CACHEDIR.TAG").exists());
}

#[test]
fn fixed_files_are_checked_again() {
    let project = Project::new();
    let broken = project.games.join("d.kif");
    // `(foo)` for a constant is fixed to `foo` (a safe fix).
    let text = std::fs::read_to_string(project.games.join("c.kif"))
        .unwrap()
        .replace(
            "(<= terminal (true (cell 2)))",
            "(<= (terminal) (true (cell 2)))",
        );
    std::fs::write(&broken, text).unwrap();
    let before = stdout(&project.check(&["d.kif"]));
    project.check(&["--fix", "d.kif"]);
    let after = stdout(&project.check(&["d.kif"]));
    assert_ne!(after, before);
    assert_eq!(after, stdout(&project.check(&["--no-cache", "d.kif"])));
}

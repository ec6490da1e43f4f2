//! What `ludeme check` prints, and for whom: the table of `--statistics`, each output format
//! (concise, JSON lines, JUnit, SARIF, snapshotted on the small broken games of
//! `tests/fixtures/report/`, with SARIF validated against the 2.1.0 schema), `--quiet`,
//! `--severity`, `--exit-zero`, and the screenful view a terminal gets by default.

mod support;

use std::process::{Command, Output};

use serde_json::Value;

/// The games of every output test: an error, warnings (one with a quick fix) and information in
/// GDL, two misspelt ludemes with quick fixes in Ludi, an EGGG sketch without a goal, and one
/// clean infix GDL game.
const GAMES: &str = "tests/fixtures/report";

/// How `ludeme check` tells a test which terminal it writes to (see `report::screen`).
const TERMINAL_SIZE: &str = "LUDEME_TERMINAL_SIZE_FOR_TESTS";

fn check(args: &[&str]) -> Output {
    let mut all = vec!["check", "--color", "never"];
    all.extend_from_slice(args);
    support::ludeme(&all)
}

/// `ludeme check` as if standard output were a terminal of `rows` × `columns`.
fn check_on_terminal(rows: usize, columns: usize, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("check")
        .args(args)
        .env(TERMINAL_SIZE, format!("{rows}x{columns}"))
        .env(support::CACHE_DIR_VARIABLE, support::test_cache_dir())
        .current_dir(support::project_root())
        .output()
        .expect("the ludeme binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn status(output: &Output) -> i32 {
    output.status.code().expect("exited")
}

/// The diagnostics `--output-format json` reports for `paths`.
fn json(paths: &[&str]) -> Vec<Value> {
    let mut args = vec!["--output-format", "json"];
    args.extend_from_slice(paths);
    let output = check(&args);
    let value: Value = serde_json::from_str(&stdout(&output)).expect("JSON output");
    value.as_array().expect("an array").clone()
}

#[test]
fn statistics_count_each_code_after_the_diagnostics() {
    let output = check(&["--statistics", GAMES]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    insta::assert_snapshot!("statistics", text);
    // The table comes after the last snippet and before the tally, one row per code.
    let table_start = text.find(" ludi/unknown-ludeme").expect("a row per code");
    assert!(text.rfind("┌─").unwrap() < table_start);
    let rows: Vec<&str> = text[text[..table_start].rfind('\n').unwrap() + 1..]
        .lines()
        .take_while(|line| !line.starts_with("[*]"))
        .collect();
    let codes: std::collections::BTreeSet<String> = json(&[GAMES])
        .iter()
        .map(|diagnostic| diagnostic["code"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(rows.len(), codes.len(), "{text}");
    assert!(
        text.ends_with(
            "checked 4 files: 3 errors, 3 warnings, 2 info\n[*] 3 fixable with `--fix`\n"
        )
    );
}

#[test]
fn concise_output_is_one_line_per_diagnostic() {
    let output = check(&["--output-format", "concise", GAMES]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    insta::assert_snapshot!("concise", text);
    let diagnostics = json(&[GAMES]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        diagnostics.len() + 2,
        "and the tally and the fixes"
    );
    for (line, diagnostic) in lines.iter().zip(&diagnostics) {
        let heading = match diagnostic["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        let expected = format!(
            "{}:{}:{}: {heading}[{}]: {}",
            diagnostic["file"].as_str().unwrap(),
            diagnostic["range"]["start"]["line"],
            diagnostic["range"]["start"]["column"],
            diagnostic["code"].as_str().unwrap(),
            diagnostic["message"].as_str().unwrap(),
        );
        assert_eq!(*line, expected);
    }
}

#[test]
fn json_lines_hold_the_objects_of_the_json_array() {
    let output = check(&["--output-format", "json-lines", GAMES]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    insta::assert_snapshot!("json_lines", text);
    let objects: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    assert_eq!(objects, json(&[GAMES]));
}

#[test]
fn junit_has_a_suite_per_file_and_a_failure_per_diagnostic() {
    let output = check(&["--output-format", "junit", GAMES]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    insta::assert_snapshot!("junit", text);
    let diagnostics = json(&[GAMES]);
    assert!(text.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    assert_eq!(text.matches("<testsuite ").count(), 4, "one per file");
    assert_eq!(text.matches("<failure ").count(), diagnostics.len());
    assert_eq!(
        text.matches("<testcase ").count(),
        diagnostics.len() + 1,
        "and the clean file's passing case"
    );
    assert!(text.contains(&format!(
        r#"<testsuites name="ludeme check" tests="{}" failures="{}" errors="0">"#,
        diagnostics.len() + 1,
        diagnostics.len()
    )));
    // Every start tag is closed, in order: the document is well formed.
    let mut open = Vec::new();
    for tag in text.split('<').skip(2) {
        let tag = &tag[..tag.find('>').expect("a closed tag")];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name.to_owned()), "{text}");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap().to_owned());
        }
    }
    assert!(open.is_empty());
}

/// The SARIF log of the games, with what depends on the machine and the release (the folder of
/// the checkout, the version) replaced by placeholders.
fn sarif_log() -> Value {
    let output = check(&["--output-format", "sarif", GAMES]);
    assert_eq!(status(&output), 1);
    serde_json::from_str(&stdout(&output)).expect("JSON output")
}

#[test]
fn sarif_names_files_relative_to_the_source_root() {
    let mut log = sarif_log();
    let run = &mut log["runs"][0];
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("the source root's URI")
        .to_owned();
    let project = support::project_root();
    assert!(
        root.starts_with("file:///") && root.ends_with('/'),
        "{root}"
    );
    assert!(
        root.trim_end_matches('/')
            .ends_with(project.file_name().unwrap().to_str().unwrap()),
        "{root} is the folder check ran in, {}",
        project.display()
    );
    for result in run["results"].as_array().unwrap() {
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uriBaseId"], "%SRCROOT%");
        let uri = location["uri"].as_str().unwrap();
        assert!(uri.starts_with("tests/fixtures/report/"), "{uri}");
        assert!(project.join(uri).is_file(), "{uri} names the file");
    }
    run["originalUriBaseIds"]["%SRCROOT%"]["uri"] = "file:///[checkout]/".into();
    run["tool"]["driver"]["version"] = "[version]".into();
    insta::assert_json_snapshot!("sarif", log);

    // A file outside the folder check runs in gets an absolute URI.
    let outside = tempfile::tempdir().unwrap();
    std::fs::copy(
        project.join(GAMES).join("broken.kif"),
        outside.path().join("broken.kif"),
    )
    .unwrap();
    let output = check(&[
        "--output-format",
        "sarif",
        outside.path().join("broken.kif").to_str().unwrap(),
    ]);
    let log: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let location =
        &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert!(location.get("uriBaseId").is_none());
    let uri = location["uri"].as_str().unwrap();
    assert!(
        uri.starts_with("file:///") && uri.ends_with("/broken.kif"),
        "{uri}"
    );
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let schema_path = support::project_root().join("tests/fixtures/sarif/sarif-2.1.0-rtm.5.json");
    let mut schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    // The schema's pattern for language tags (`run.language`, `toolComponent.language`, which
    // ludeme does not write) has a stray `]` that the validator's check of the schema itself
    // refuses as a regular expression: it is read here as what it evidently means.
    let replaced = replace_pattern(
        &mut schema,
        "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$",
        "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$",
    );
    assert_eq!(replaced, 2, "the two language tags");
    let validator = jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    // The games of every language, and the shared corpus's when it is there (with a file
    // outside the current folder, named by an absolute URI).
    let mut logs = vec![sarif_log()];
    if let Some(corpus) = support::shared_corpus() {
        let game = corpus.join("gdl/ggp-repository/alexChess.kif");
        let output = check(&["--output-format", "sarif", game.to_str().unwrap()]);
        logs.push(serde_json::from_str(&stdout(&output)).unwrap());
    }
    for log in logs {
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|error| error.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert!(!log["runs"][0]["results"].as_array().unwrap().is_empty());
    }
    // The validator does reject what the schema forbids.
    let mut broken = sarif_log();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!validator.is_valid(&broken));
}

/// The schema is draft 4, which has no `uri-reference` format: every URI of the log is checked
/// against the format of a later draft, which has, and the base URI is an absolute one.
#[test]
fn sarif_uris_are_uri_references_and_the_base_an_absolute_uri() {
    let format = |name: &str| {
        jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(&serde_json::json!({ "type": "string", "format": name }))
            .unwrap()
    };
    let (reference, absolute) = (format("uri-reference"), format("uri"));
    assert!(
        !reference.is_valid(&"a b.kif".into()),
        "formats are validated"
    );
    assert!(!absolute.is_valid(&"tests/a.kif".into()));
    let log = sarif_log();
    let run = &log["runs"][0];
    let base = &run["originalUriBaseIds"]["%SRCROOT%"]["uri"];
    assert!(absolute.is_valid(base), "{base}");
    let mut uris = vec![base.clone()];
    for result in run["results"].as_array().unwrap() {
        uris.push(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].clone());
    }
    for uri in &uris {
        assert!(reference.is_valid(uri), "{uri}");
    }
}

/// Replaces every `"pattern": from` of `schema` by `to`; returns how many there were.
fn replace_pattern(schema: &mut Value, from: &str, to: &str) -> usize {
    match schema {
        Value::Object(members) => members
            .iter_mut()
            .map(|(key, value)| {
                if key == "pattern" && value == from {
                    *value = to.into();
                    1
                } else {
                    replace_pattern(value, from, to)
                }
            })
            .sum(),
        Value::Array(items) => items
            .iter_mut()
            .map(|item| replace_pattern(item, from, to))
            .sum(),
        _ => 0,
    }
}

#[test]
fn quiet_prints_the_diagnostics_alone() {
    for format in ["full", "concise"] {
        let loud = stdout(&check(&["--output-format", format, GAMES]));
        let output = check(&["--output-format", format, "--quiet", GAMES]);
        assert_eq!(status(&output), 1, "quiet changes what is printed only");
        let quiet = stdout(&output);
        assert!(!quiet.contains("checked "), "{quiet}");
        assert_eq!(
            format!(
                "{quiet}checked 4 files: 3 errors, 3 warnings, 2 info\n[*] 3 fixable with `--fix`\n"
            ),
            loud
        );
    }
    // A clean run prints nothing at all.
    let clean = check(&["-q", "tests/fixtures/report/clean.hrf"]);
    assert_eq!(status(&clean), 0);
    assert_eq!(stdout(&clean), "");
}

#[test]
fn severity_is_the_least_severity_shown_in_every_format() {
    let all = json(&[GAMES]);
    let at_least = |least: &[&str]| -> Vec<Value> {
        all.iter()
            .filter(|d| least.contains(&d["severity"].as_str().unwrap()))
            .cloned()
            .collect()
    };
    let errors = json(&["--severity", "error", GAMES]);
    assert_eq!(errors, at_least(&["error"]));
    assert_eq!(errors.len(), 3);
    assert_eq!(
        json(&["--severity", "warning", GAMES]),
        at_least(&["error", "warning"])
    );
    assert_eq!(json(&["--severity", "info", GAMES]), all);

    // The same choice in the other formats, which read what one place left.
    let github = stdout(&check(&[
        "--severity",
        "error",
        "--output-format",
        "github",
        GAMES,
    ]));
    assert_eq!(github.lines().count(), 3);
    assert!(github.lines().all(|line| line.starts_with("::error ")));
    let sarif: Value = serde_json::from_str(&stdout(&check(&[
        "--severity",
        "warning",
        "--output-format",
        "sarif",
        GAMES,
    ])))
    .unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 6);

    // Human output: the tally still counts everything found and says what is not shown; the
    // exit status does not change.
    let output = check(&["--severity", "error", GAMES]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    assert!(!text.contains("warning["), "{text}");
    assert!(text.ends_with(
        "checked 4 files: 3 errors, 3 warnings, 2 info\n\
         not shown, being less severe than asked for: 3 warnings, 2 info\n\
         [*] 2 fixable with `--fix`\n"
    ));
    assert_eq!(text.matches("error[").count(), 3);
    // On a clean file nothing is left out, and nothing is said about it.
    let output = check(&["--severity", "error", "tests/fixtures/report/clean.hrf"]);
    assert_eq!(stdout(&output), "checked 1 file: 0 errors, 0 warnings\n");
}

#[test]
fn exit_zero_passes_errors_but_not_failures() {
    let output = check(&["--exit-zero", GAMES]);
    assert_eq!(status(&output), 0);
    assert!(stdout(&output).contains("3 errors"));
    let output = check(&["--exit-zero", "--output-format", "json", GAMES]);
    assert_eq!(status(&output), 0);
    let missing = check(&["--exit-zero", "no/such/game.kif", GAMES]);
    assert_eq!(status(&missing), 2, "a usage or I/O failure is still one");
}

#[test]
fn statistics_go_with_the_human_formats_only() {
    let output = check(&["--statistics", "--output-format", "json", GAMES]);
    assert_eq!(status(&output), 2);
    assert_eq!(stdout(&output), "");
    assert!(String::from_utf8_lossy(&output.stderr).contains("--statistics goes with"));
}

/// The rows a terminal `columns` wide takes to show `text` (long lines wrap).
fn rows_taken(text: &str, columns: usize) -> usize {
    text.lines()
        .map(|line| line.chars().count().div_ceil(columns).max(1))
        .sum()
}

#[test]
fn a_terminal_gets_the_full_report_when_it_fits() {
    let piped = check(&[GAMES]);
    let tall = check_on_terminal(500, 200, &["--color", "never", GAMES]);
    assert_eq!(status(&tall), 1);
    assert_eq!(stdout(&tall), stdout(&piped));
}

#[test]
fn a_small_terminal_gets_every_error_and_the_rest_by_code() {
    let full = stdout(&check(&[GAMES]));
    let rows = 40;
    assert!(
        rows_taken(&full, 200) > rows,
        "the full report does not fit"
    );
    let output = check_on_terminal(rows, 200, &["--color", "never", GAMES]);
    assert_eq!(status(&output), 1, "the view changes nothing of the status");
    let text = stdout(&output);
    insta::assert_snapshot!("screenful_errors_in_full", text);
    assert!(rows_taken(&text, 200) < rows, "{text}");
    // Every error with its source, as in the full report; no warning or note.
    for snippet in full.split("\n\n").filter(|part| part.starts_with("error[")) {
        assert!(text.contains(snippet), "{snippet}");
    }
    assert!(!text.contains("warning[") && !text.contains("note["));
    assert!(text.contains("not listed, by code:\n"));
    assert!(text.contains("checked 4 files: 3 errors, 3 warnings, 2 info\n"));
    assert!(text.contains("`--severity warning` adds the warnings"));
}

#[test]
fn a_tiny_terminal_gets_every_error_on_one_line_per_message() {
    let output = check_on_terminal(12, 200, &["--color", "never", GAMES]);
    let text = stdout(&output);
    insta::assert_snapshot!("screenful_errors_by_message", text);
    for error in json(&["--severity", "error", GAMES]) {
        let place = format!(
            "{}:{}:{}: error[{}]: {}",
            error["file"].as_str().unwrap(),
            error["range"]["start"]["line"],
            error["range"]["start"]["column"],
            error["code"].as_str().unwrap(),
            error["message"].as_str().unwrap()
        );
        assert!(text.contains(&place), "{place} in\n{text}");
    }
}

#[test]
fn asking_for_a_format_or_a_severity_turns_the_screenful_view_off() {
    let full = stdout(&check(&[GAMES]));
    for args in [
        &["--output-format", "full"][..],
        &["--format", "human"][..],
        &["--severity", "info"][..],
        &["--quiet"][..],
    ] {
        let mut all = vec!["--color", "never"];
        all.extend_from_slice(args);
        all.push(GAMES);
        let text = stdout(&check_on_terminal(12, 200, &all));
        let expected = if args == ["--quiet"] {
            full.lines()
                .filter(|line| !line.starts_with("checked ") && !line.starts_with("[*] 3 fixable"))
                .map(|line| format!("{line}\n"))
                .collect()
        } else {
            full.clone()
        };
        assert_eq!(text, expected, "{args:?}");
    }
}

/// The README's main job on a terminal: a screenful, every error of the shared corpus shown.
#[test]
fn the_main_job_fits_a_terminal_with_every_error() {
    if support::shared_corpus().is_none() {
        return;
    }
    // Named as the README's main job names it.
    let corpus = "../shared/corpus";
    let (rows, columns) = (50, 120);
    let output = check_on_terminal(rows, columns, &["--color", "never", "corpus", corpus]);
    assert_eq!(status(&output), 1);
    let text = stdout(&output);
    assert!(
        rows_taken(&text, columns) < rows,
        "{} rows:\n{text}",
        rows_taken(&text, columns)
    );
    let errors = json(&["--severity", "error", "corpus", corpus]);
    assert_eq!(errors.len(), 47);
    for error in &errors {
        let file = error["file"].as_str().unwrap();
        let (line, column) = (
            &error["range"]["start"]["line"],
            &error["range"]["start"]["column"],
        );
        // Each line may be cut to the width: its message then starts as the error's does.
        let message = error["message"].as_str().unwrap();
        let shown = text.lines().any(|shown| {
            let shows_message = shown.split_once("]: ").is_some_and(|(_, said)| {
                let said = said.split(" (also at ").next().unwrap();
                said == message
                    || said
                        .strip_suffix('…')
                        .is_some_and(|start| !start.is_empty() && message.starts_with(start))
            });
            shown.starts_with(&format!("{file}:"))
                && shown.contains(&format!("error[{}]", error["code"].as_str().unwrap()))
                && shows_message
                && (shown.starts_with(&format!("{file}:{line}:{column}: "))
                    || shown.contains(&format!(" {line}:{column}")))
        });
        assert!(shown, "{file}:{line}:{column} is not shown:\n{text}");
    }
    assert!(text.contains("checked 415 files: 47 errors, 102 warnings, 1466 info\n"));
}

#[test]
fn the_help_explains_the_default_output() {
    let output = support::ludeme(&["check", "--help"]);
    let help = stdout(&output);
    for needle in [
        "--output-format",
        "json-lines",
        "junit",
        "--statistics",
        "--quiet",
        "--severity",
        "--exit-zero",
        "On a terminal",
        "not a terminal",
    ] {
        assert!(help.contains(needle), "{needle} in\n{help}");
    }
}

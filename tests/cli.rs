//! The `ludeme` binary as CI scripts and designers use it: exit codes, formats, bad input.

mod support;

use std::path::Path;
use std::process::Output;

use serde_json::Value;

use support::ludeme;

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

fn json_check(paths: &[&str]) -> (i32, Vec<Value>, String) {
    let mut args = vec!["check", "--format", "json"];
    args.extend_from_slice(paths);
    let output = ludeme(&args);
    let diagnostics: Value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|e| panic!("JSON output ({e}): {}", stdout(&output)));
    (
        output.status.code().expect("exited"),
        diagnostics.as_array().expect("an array").clone(),
        stderr(&output),
    )
}

#[test]
fn the_project_corpus_is_free_of_errors() {
    let (status, diagnostics, stderr) = json_check(&["corpus"]);
    // Warnings are allowed: corpus/ludi keeps the seed's broken Tic-Tac-Toe on a 2×2 board,
    // whose line of three can never be made (tests/ludi_checks.rs checks it gets exactly that).
    let errors: Vec<&Value> = diagnostics
        .iter()
        .filter(|d| d["severity"] == "error")
        .collect();
    assert_eq!(errors, Vec::<&Value>::new());
    assert_eq!(status, 0, "{stderr}");
}

#[test]
fn the_project_corpus_covers_every_language() {
    let root = support::project_root().join("corpus");
    for extension in ["egg", "ludi", "kif", "hrf"] {
        let files = support::files_with_extensions(&root, &[extension]);
        assert!(!files.is_empty(), "corpus/ has no .{extension} game");
    }
}

#[test]
fn the_shared_gdl_corpus_has_no_syntax_errors() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let corpus = corpus.to_str().unwrap();
    let (status, diagnostics, stderr) = json_check(&[corpus]);
    let syntax_errors: Vec<&Value> = diagnostics
        .iter()
        .filter(|d| d["code"].as_str().unwrap().starts_with("syntax/"))
        .collect();
    assert_eq!(syntax_errors, Vec::<&Value>::new());
    assert!(status == 0 || status == 1, "{stderr}");
    let files = support::files_with_extensions(Path::new(corpus), &["kif"]);
    assert_eq!(files.len(), 351, "the shared corpus has 351 GDL games");
}

/// Each fixture has five separate mistakes, annotated where each diagnostic must start.
#[test]
fn five_mistakes_give_five_diagnostics_at_the_right_lines() {
    let fixtures = support::project_root().join("tests/fixtures/syntax");
    let files = support::files_with_extensions(&fixtures, &["egg", "ludi", "kif", "hrf"]);
    assert_eq!(files.len(), 4, "one fixture per syntax");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let comment = match file.extension().unwrap().to_str().unwrap() {
            "egg" => "#",
            "hrf" => "%",
            _ => ";",
        };
        let mut expected = support::annotated_expectations(&text, comment);
        expected.sort();
        assert_eq!(
            expected.len(),
            5,
            "{} has five annotated mistakes",
            file.display()
        );
        let (status, diagnostics, _) = json_check(&[file.to_str().unwrap()]);
        // Only the syntax diagnostics: the language checks have fixtures of their own.
        let mut actual: Vec<(usize, String)> = diagnostics
            .iter()
            .filter(|d| d["code"].as_str().unwrap().starts_with("syntax/"))
            .map(support::line_and_code)
            .collect();
        actual.sort();
        assert_eq!(actual, expected, "{}:\n{diagnostics:#?}", file.display());
        assert_eq!(status, 1);
        for diagnostic in diagnostics
            .iter()
            .filter(|d| d["code"].as_str().unwrap().starts_with("syntax/"))
        {
            let lines = diagnostic["range"]["end"]["line"].as_u64().unwrap()
                - diagnostic["range"]["start"]["line"].as_u64().unwrap();
            assert!(lines <= 1, "a small error region: {diagnostic:#}");
        }
    }
}

#[test]
fn human_output_shows_snippets_and_a_summary() {
    let output = ludeme(&[
        "check",
        "--color",
        "never",
        "tests/fixtures/syntax/five-mistakes.ludi",
    ]);
    assert_eq!(output.status.code(), Some(1));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn sarif_and_github_formats_report_what_json_reports() {
    let fixture = "tests/fixtures/syntax/five-mistakes.kif";
    let (_, json, _) = json_check(&[fixture]);
    assert!(json.len() >= 5);
    let sarif = ludeme(&["check", "--format", "sarif", fixture]);
    let log: Value = serde_json::from_str(&stdout(&sarif)).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), json.len());
    for (result, diagnostic) in results.iter().zip(&json) {
        assert_eq!(result["ruleId"], diagnostic["code"]);
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region["startLine"], diagnostic["range"]["start"]["line"]);
        assert_eq!(
            region["startColumn"],
            diagnostic["range"]["start"]["column"]
        );
    }
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    for result in results {
        assert!(rules.iter().any(|rule| rule["id"] == result["ruleId"]));
        let region = &result["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().unwrap() >= 1);
    }

    let github = ludeme(&["check", "--format", "github", fixture]);
    let lines: Vec<String> = stdout(&github).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), json.len());
    for (line, diagnostic) in lines.iter().zip(&json) {
        let expected = format!(
            "::{} file=tests/fixtures/syntax/five-mistakes.kif,line={},col={},",
            diagnostic["severity"].as_str().unwrap(),
            diagnostic["range"]["start"]["line"],
            diagnostic["range"]["start"]["column"],
        );
        assert!(
            line.starts_with(&expected),
            "{line} should start with {expected}"
        );
    }
}

#[test]
fn missing_paths_fail_with_status_2_but_the_rest_is_checked() {
    let (status, diagnostics, stderr) = json_check(&[
        "no/such/game.ludi",
        "tests/fixtures/syntax/five-mistakes.ludi",
    ]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("no/such/game.ludi: cannot read it"),
        "{stderr}"
    );
    assert_eq!(diagnostics.len(), 5, "the other file was still checked");
}

#[test]
fn folders_without_games_and_other_files_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a game").unwrap();
    let (status, diagnostics, stderr) = json_check(&[dir.path().to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(diagnostics.is_empty());
    assert!(stderr.contains("no game files in this folder"), "{stderr}");

    let notes = dir.path().join("notes.txt");
    let (status, _, stderr) = json_check(&[notes.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(stderr.contains("not a game file"), "{stderr}");
}

#[test]
fn binary_and_non_utf8_files_get_a_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("latin1.kif"), b"(role x)\n(role \xe9)\n").unwrap();
    std::fs::write(
        dir.path().join("image.ludi"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("fine.egg"),
        "2..6 players\ngoal is maximize(score)\n",
    )
    .unwrap();
    let (status, diagnostics, stderr) = json_check(&[dir.path().to_str().unwrap()]);
    assert_eq!(status, 1, "{stderr}");
    // fine.egg has no problem; it only gets the information that it is outside the EGGG
    // engine's core (`egg/not-executable`).
    let diagnostics: Vec<Value> = diagnostics
        .into_iter()
        .filter(|d| d["severity"] != "info")
        .collect();
    assert_eq!(diagnostics.len(), 2, "{diagnostics:#?}");
    let by_code = |code: &str| {
        diagnostics
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {diagnostics:#?}"))
    };
    let utf8 = by_code("file/invalid-utf8");
    assert!(utf8["file"].as_str().unwrap().ends_with("latin1.kif"));
    assert_eq!(utf8["range"]["start"]["line"], 2);
    assert_eq!(utf8["range"]["start"]["column"], 7);
    let binary = by_code("file/binary");
    assert!(binary["file"].as_str().unwrap().ends_with("image.ludi"));
}

#[test]
fn usage_errors_exit_with_status_2() {
    assert_eq!(ludeme(&["check", "--format", "xml"]).status.code(), Some(2));
    assert_eq!(ludeme(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(ludeme(&["--version"]).status.code(), Some(0));
}

#[test]
fn explain_prints_the_long_form_of_a_code() {
    let output = ludeme(&["explain", "syntax/missing-token"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).starts_with("syntax/missing-token (error)"));
    let unknown = ludeme(&["explain", "gdl/no-such-rule"]);
    assert_eq!(unknown.status.code(), Some(2));
    let list = ludeme(&["explain"]);
    assert!(stdout(&list).contains("file/invalid-utf8"));
}

/// `bench --seconds SECONDS --format json` on `game`, which must succeed and play: its report
/// and how many playouts it made.
fn bench_json(game: &str, seconds: &str) -> (Value, u64) {
    let output = ludeme(&["bench", game, "--seconds", seconds, "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let playouts = report["playouts"].as_u64().unwrap();
    assert!(playouts > 0);
    (report, playouts)
}

#[test]
fn bench_reports_playouts_and_outcome_frequencies() {
    let (report, playouts) = bench_json("corpus/gdl/ticTacToe.kif", "0.5");
    let rate = report["playouts_per_second"].as_f64().unwrap();
    let seconds = report["seconds"].as_f64().unwrap();
    assert!((rate * seconds - playouts as f64).abs() < 1.0);
    // Tic-tac-toe always ends after 5 to 9 plies.
    let plies = report["avg_plies"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&plies), "{plies}");
    let outcomes = report["outcomes"].as_object().unwrap();
    assert_eq!(outcomes.len(), 2, "two roles");
    for (role, values) in outcomes {
        let total: f64 = values
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_f64().unwrap())
            .sum();
        assert!(
            (total - 1.0).abs() < 1e-9,
            "{role}: every playout ends with a goal"
        );
        for value in values.as_object().unwrap().keys() {
            assert!(
                ["0", "50", "100"].contains(&value.as_str()),
                "{role}: goal {value}"
            );
        }
    }
    let other = ludeme(&["bench", "corpus/egg/poker.egg", "--seconds", "0.1"]);
    assert_eq!(other.status.code(), Some(2));
}

/// `--playouts N` plays exactly N playouts, the same ones for the same seed, on either GDL
/// engine; a count of zero, or a count with `--seconds`, is refused.
#[test]
fn bench_plays_an_exact_count_of_playouts() {
    let bench = |extra: &[&str]| -> Value {
        let mut args = vec!["bench", "corpus/gdl/ticTacToe.kif", "--format", "json"];
        args.extend_from_slice(extra);
        let output = ludeme(&args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    let first = bench(&["--playouts", "1234", "--seed", "7"]);
    assert_eq!(first["playouts"].as_u64(), Some(1234));
    assert_eq!(
        first["completed"].as_u64(),
        Some(1234),
        "tic-tac-toe always ends"
    );
    // Tic-tac-toe's circuit plays 64 playouts at a time, repeatably for a seed.
    assert_eq!(first["circuit"]["playouts_at_once"].as_u64(), Some(64));
    // Its grounding took a small part of the allowance of work, and the same part every time.
    let work = first["circuit"]["grounding_work"].as_u64().unwrap();
    let allowed = first["circuit"]["grounding_work_allowed"].as_u64().unwrap();
    assert!(0 < work && work < allowed / 1000, "{work} of {allowed}");
    let again = bench(&["--playouts", "1234", "--seed", "7"]);
    assert_eq!(
        first["circuit"]["grounding_work"],
        again["circuit"]["grounding_work"]
    );
    assert_eq!(first["outcomes"], again["outcomes"]);
    assert_eq!(first["avg_plies"], again["avg_plies"]);
    let other_seed = bench(&["--playouts", "1234", "--seed", "8"]);
    assert_ne!(first["outcomes"], other_seed["outcomes"]);
    // The count holds on the interpreter too.
    let interpreted = bench(&["--playouts", "1234", "--seed", "7", "--interpreter"]);
    assert_eq!(interpreted["engine"], "interpreter");
    assert_eq!(interpreted["playouts"].as_u64(), Some(1234));
    for bad in [
        &["--playouts", "0"][..],
        &["--playouts", "10", "--seconds", "1"][..],
    ] {
        let mut args = vec!["bench", "corpus/gdl/ticTacToe.kif"];
        args.extend_from_slice(bad);
        assert_eq!(ludeme(&args).status.code(), Some(2), "{bad:?}");
    }
}

/// The engine a game plays on does not depend on the time asked for: merrills grounds only
/// after its first attempt fails, in about 2.6 CPU s in release, far past the share of setup
/// that `--seconds 0.1` once left it (half of 1.2 s), when it played on the interpreter.
#[test]
fn bench_plays_on_the_same_engine_whatever_the_seconds() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let game = corpus.join("gdl/ggp-repository/merrills.kif");
    let (report, _) = bench_json(game.to_str().unwrap(), "0.1");
    assert_eq!(report["engine"], "grounded", "{report}");
}

/// What went wrong in play is in the report, not only its outcomes: playouts ended by a role
/// without legal moves, and terminal states that give a role several goal values (here the
/// second role's `goal` rules both hold at the end: 50 and 0).
#[test]
fn bench_reports_blocked_roles_and_ambiguous_goals() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("faulty.kif");
    std::fs::write(
        &game,
        "(role a) (role b)\n\
         (init (step 0))\n\
         (<= (legal a go) (true (step 0)))\n\
         (<= (legal b wait) (true (step 0)))\n\
         (<= (legal a go) (true (step 1)))\n\
         (<= (next (step 1)) (true (step 0)))\n\
         (<= (next (step 2)) (true (step 1)))\n\
         (<= terminal (true (step 2)))\n\
         (<= (goal a 100) (true (step 2)))\n\
         (<= (goal b 50) (true (step 2)))\n\
         (<= (goal b 0) (true (step 2)))\n",
    )
    .unwrap();
    let bench = |game: &Path| bench_json(game.to_str().unwrap(), "0.2");
    let (report, playouts) = bench(&game);
    // After one ply `b` has no legal move: no playout reaches the ambiguous end.
    assert_eq!(report["no_legal_move"].as_u64(), Some(playouts));
    assert_eq!(report["completed"].as_u64(), Some(0));
    assert_eq!(report["ambiguous_goals"].as_u64(), Some(0));

    let ending = std::fs::read_to_string(&game).unwrap().replace(
        "(<= (legal a go) (true (step 1)))",
        "(<= (legal ?r go) (role ?r) (true (step 1)))",
    );
    std::fs::write(&game, ending).unwrap();
    let (report, playouts) = bench(&game);
    assert_eq!(report["completed"].as_u64(), Some(playouts));
    assert_eq!(report["no_legal_move"].as_u64(), Some(0));
    assert_eq!(report["ambiguous_goals"].as_u64(), Some(playouts));
    let human = ludeme(&["bench", game.to_str().unwrap(), "--seconds", "0.1"]);
    assert!(
        stdout(&human).contains("several goal values"),
        "{}",
        stdout(&human)
    );
}

/// A reader that goes away before the output comes (`ludeme bench … | head -0`) ends the run
/// quietly: no panic message about a broken pipe.
#[test]
fn a_closed_output_pipe_ends_the_run_without_a_panic() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(["bench", "corpus/ludi/tic-tac-toe.ludi", "--seconds", "0.2"])
        .current_dir(support::project_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = stderr(&output);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A path that cannot be read stops nothing and prints no tally of zero files before its
/// message: the message is the one line on standard error, and the exit status says I/O failure.
#[test]
fn a_missing_path_gives_its_message_and_no_empty_tally() {
    let output = ludeme(&["check", "no/such/game.kif"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!stdout(&output).contains("checked 0 files"), "{output:?}");
    assert!(
        stderr(&output).contains("no/such/game.kif: cannot read it"),
        "{output:?}"
    );
}

/// The help speaks to a user, not to the project's history: no seed numbers.
#[test]
fn help_texts_name_no_seed() {
    let commands = [
        "check", "explain", "fmt", "bench", "play", "probe", "distance", "nearest", "cluster",
    ];
    let top = stdout(&ludeme(&["--help"]));
    assert!(!top.to_lowercase().contains("seed 0"), "{top}");
    for command in commands {
        let help = stdout(&ludeme(&[command, "--help"]));
        assert!(!help.to_lowercase().contains("seed 0"), "{command}: {help}");
    }
}

/// One default time limit for the probe, the editor's: 60 s, as the README's `ludeme.toml`
/// example says.
#[test]
fn the_probe_time_limit_defaults_to_the_editors() {
    let help = stdout(&ludeme(&["probe", "--help"]));
    assert!(help.contains("else 60, as in the editor"), "{help}");
    let readme = std::fs::read_to_string(support::project_root().join("README.md")).unwrap();
    assert!(
        readme.contains("seconds = 60.0     # time limit of one probe"),
        "the README's ludeme.toml example gives the default"
    );
}

/// `fmt --check` shows what would change, as a unified diff, not only which files.
#[test]
fn fmt_check_shows_the_change() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.kif");
    std::fs::write(&game, "(role x)\n(init   (a))\n").unwrap();
    let output = ludeme(&["fmt", "--check", game.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let shown = stdout(&output);
    assert!(
        shown.contains("-(init   (a))") && shown.contains("+(init (a))"),
        "{shown}"
    );
}

/// A named pipe or a link to a device among the paths is refused at once, unopened (a read
/// would block or never end), and the other files are still checked and reported.
#[cfg(unix)]
#[test]
fn special_files_are_refused_at_once_and_the_others_checked() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.kif");
    if !std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|status| status.success())
    {
        return; // no mkfifo here: nothing to test
    }
    let zero = dir.path().join("zero.kif");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let good = dir.path().join("good.kif");
    std::fs::copy(
        support::project_root().join("corpus/gdl/ticTacToe.kif"),
        &good,
    )
    .unwrap();
    let paths = [&fifo, &zero, &good].map(|path| path.to_str().unwrap().to_owned());
    let started = Instant::now();
    let output = ludeme(&["check", "--color", "never", &paths[0], &paths[1], &paths[2]]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it ended at once"
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let errors = stderr(&output);
    assert!(
        errors.contains("pipe.kif: a named pipe (FIFO), not a regular file"),
        "{errors}"
    );
    assert!(
        errors.contains("zero.kif: a character device, not a regular file"),
        "{errors}"
    );
    assert!(stdout(&output).contains("checked 1 file"), "{output:?}");
    // A command on one game refuses the pipe the same way.
    for command in ["bench", "explain", "fmt", "probe"] {
        let output = ludeme(&[command, &paths[0]]);
        assert_eq!(output.status.code(), Some(2), "{command}: {output:?}");
        assert!(
            stderr(&output).contains("a named pipe (FIFO), not a regular file"),
            "{command}: {output:?}"
        );
    }
}

/// `[files] max-megabytes` of ludeme.toml bounds what is read: a larger game is refused with a
/// message saying how to raise the limit, and the smaller ones are checked.
#[test]
fn the_file_size_limit_comes_from_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ludeme.toml"),
        "[files]\nmax-megabytes = 0.001\n",
    )
    .unwrap();
    let small = dir.path().join("small.kif");
    std::fs::write(&small, "(role x)\n(init (a))\n(<= terminal (true (a)))\n").unwrap();
    let large = dir.path().join("large.kif");
    std::fs::copy(
        support::project_root().join("corpus/gdl/ticTacToe.kif"),
        &large,
    )
    .unwrap();
    let output = ludeme(&["check", "--color", "never", dir.path().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let errors = stderr(&output);
    assert!(
        errors.contains("large.kif: ") && errors.contains("raise `max-megabytes` under `[files]`"),
        "{errors}"
    );
    assert!(stdout(&output).contains("checked 1 file"), "{output:?}");
}

/// `check` reports a game that duplicates another of the games checked, as the editor does:
/// the same rules in another order with other variable names; a variant with one rule more is
/// not a duplicate; and the finding turned off in ludeme.toml is not reported.
#[test]
fn check_reports_duplicate_games_as_the_editor_does() {
    let dir = tempfile::tempdir().unwrap();
    let original =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    let mut copy: Vec<&str> = original.split("\n\n").collect();
    copy.reverse();
    let copy = copy
        .join("\n\n")
        .replace("?m", "?col")
        .replace("?n", "?row");
    let variant = format!("{original}\n(<= (goal xplayer 25) (true (control nobody)))\n");
    std::fs::write(dir.path().join("original.kif"), &original).unwrap();
    std::fs::write(dir.path().join("copy.kif"), &copy).unwrap();
    std::fs::write(dir.path().join("variant.kif"), &variant).unwrap();
    let folder = dir.path().to_str().unwrap();
    let (_, diagnostics, stderr) = json_check(&[folder]);
    let duplicates: Vec<&str> = diagnostics
        .iter()
        .filter(|d| d["code"] == "distance/duplicate")
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert_eq!(duplicates.len(), 2, "{duplicates:?} {stderr}");
    assert!(duplicates.iter().all(|file| !file.ends_with("variant.kif")));
    std::fs::write(
        dir.path().join("ludeme.toml"),
        "[rules]\ndisable = [\"distance/duplicate\"]\n",
    )
    .unwrap();
    let (_, diagnostics, _) = json_check(&[folder]);
    assert!(
        diagnostics
            .iter()
            .all(|d| d["code"] != "distance/duplicate")
    );
}

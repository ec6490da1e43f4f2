//! `ludeme evolve`: the same seed breeds the same children, no child written fails `ludeme
//! check`, every child past the engine has its policy chosen by a round robin, and the runs split by `--partition K/N` over separate processes together write
//! exactly what one process writes.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use support::ludeme;

/// A few small games of the corpus: the population of the tests (quick to probe in debug).
const SOURCES: &[&str] = &[
    "tic-tac-toe.ludi",
    "yavalath.ludi",
    "hex-7x7.ludi",
    "ndengrod.ludi",
    "hexapawn.ludi",
    "elrostir.ludi",
];

/// `ludeme evolve` of the sources into `out` with `seed` and `extra` options; panics unless it
/// succeeds.
fn evolve(out: &Path, seed: &str, extra: &[&str]) -> String {
    let root = support::project_root().join("corpus/ludi");
    let sources: Vec<String> = SOURCES
        .iter()
        .map(|name| root.join(name).to_string_lossy().into_owned())
        .collect();
    let out_text = out.to_string_lossy().into_owned();
    let mut args = vec!["evolve"];
    args.extend(sources.iter().map(String::as_str));
    args.extend([
        "--out",
        &out_text,
        "--children",
        "16",
        "--games",
        "4",
        "--seed",
        seed,
    ]);
    args.extend(extra);
    let output = ludeme(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Every file the evolution writes under `folder` (children and records), by its path inside
/// it, with its text.
fn files(folder: &Path) -> BTreeMap<PathBuf, String> {
    support::files_with_extensions(folder, &["ludi", "jsonl"])
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a text file");
            let inside = path.strip_prefix(folder).expect("inside").to_path_buf();
            (inside, text)
        })
        .collect()
}

fn children_written(files: &BTreeMap<PathBuf, String>) -> usize {
    files
        .keys()
        .filter(|path| path.extension().is_some_and(|e| e == "ludi"))
        .count()
}

#[test]
fn the_same_seed_breeds_the_same_children_and_every_one_passes_check() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let (first, second) = (temp.path().join("first"), temp.path().join("second"));
    let summary = evolve(&first, "5", &[]);
    evolve(&second, "5", &[]);
    let (a, b) = (files(&first), files(&second));
    assert_eq!(a, b, "two runs with seed 5 differ");
    assert!(children_written(&a) > 0, "no child kept: {summary}");
    // Each child's header names it, its parents with their scores, its own score and verdict.
    for (path, text) in a
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|e| e == "ludi"))
    {
        let name = path.file_stem().expect("a name").to_string_lossy();
        let header: Vec<&str> = text.lines().take_while(|l| l.starts_with(';')).collect();
        assert!(
            header[0].starts_with(&format!("; {name}: bred by")),
            "{text}"
        );
        assert!(header[1].contains("(template, score "), "{text}");
        assert!(header[2].starts_with("; aesthetic score "), "{text}");
        assert!(header[3].starts_with("; policy kept: "), "{text}");
        assert!(text.contains(&format!("(game {name}")), "{text}");
    }
    // One record per child, kept or culled.
    let records = &a[Path::new("run-01/children.jsonl")];
    assert_eq!(records.lines().count(), 16);
    check_policy_choices(records);
    assert!(
        summary.contains("16 children bred from 6 games"),
        "{summary}"
    );
    // Every written child checks clean of errors (exit 0: nothing wrong, or warnings only).
    let out = first.to_string_lossy().into_owned();
    let check = ludeme(&["check", &out]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    // Another seed breeds other children.
    let other = temp.path().join("other");
    evolve(&other, "6", &[]);
    assert_ne!(files(&other), a);
}

/// The policy choice of every child that got that far: a round robin of at least one game per
/// candidate and way round, the child's own policy first, the policy kept one with most points,
/// and a child culled at the policy choice exactly when more than half its games had no winner.
fn check_policy_choices(records: &str) {
    let mut played = 0;
    for line in records.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a record");
        let stage = record["stage"].as_str().expect("a stage");
        let Some(policy) = record.get("policy") else {
            assert!(
                ["unchanged", "rule-safety", "engine"].contains(&stage),
                "a child past the engine without a policy choice: {line}"
            );
            continue;
        };
        played += 1;
        let standings = policy["standings"].as_array().expect("standings");
        let games = policy["games"].as_u64().expect("games");
        let decided = policy["decided"].as_u64().expect("decided");
        assert_eq!(standings[0]["policy"], "default", "{line}");
        let pairs = if standings.len() == 1 {
            1
        } else {
            standings.len() * (standings.len() - 1) / 2
        };
        assert_eq!(games as usize, 2 * pairs, "{line}");
        let best = standings
            .iter()
            .map(|s| s["points"].as_f64().expect("points"))
            .fold(f64::MIN, f64::max);
        let chosen = standings
            .iter()
            .find(|s| s["policy"] == policy["chosen"])
            .expect("the policy kept played");
        assert_eq!(chosen["points"].as_f64(), Some(best), "{line}");
        assert_eq!(
            stage == "policy-choice",
            decided * 2 < games,
            "culled exactly when most games had no winner: {line}"
        );
    }
    assert!(played > 0, "no child reached the policy choice: {records}");
}

#[test]
fn partitions_in_separate_processes_write_what_one_process_writes() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let whole = temp.path().join("whole");
    let split = temp.path().join("split");
    let one_process = evolve(&whole, "5", &["--runs", "3"]);
    evolve(&split, "5", &["--runs", "3", "--partition", "1/2"]);
    // The first partition did runs 1 and 3 only.
    assert!(split.join("run-01").is_dir() && split.join("run-03").is_dir());
    assert!(!split.join("run-02").exists());
    evolve(&split, "5", &["--runs", "3", "--partition", "2/2"]);
    let (one, parts) = (files(&whole), files(&split));
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        parts.keys().collect::<Vec<_>>()
    );
    assert_eq!(one, parts);

    // `ludeme merge` of the partitions' folder: the records of the three runs in order, and
    // the counts and best children one process printed.
    let merged = temp.path().join("merged.jsonl");
    let merged_text = merged.to_string_lossy().into_owned();
    let output = ludeme(&["merge", &split.to_string_lossy(), "--out", &merged_text]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let in_order: String = ["run-01", "run-02", "run-03"]
        .iter()
        .map(|run| one[&Path::new(run).join("children.jsonl")].as_str())
        .collect();
    assert_eq!(std::fs::read_to_string(&merged).expect("merged"), in_order);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("16 children of 3 runs merged from 3 records files"),
        "{stdout}"
    );
    // Everything after the first line (the counts per stage and the table) is the same.
    let after_first = |text: &str| text.split_once('\n').map(|(_, rest)| rest.to_owned());
    assert_eq!(after_first(&stdout), after_first(&one_process));
}

/// Partitions run with different seeds breed children no one run would: `ludeme merge`
/// refuses them, naming the setting.
#[test]
fn merge_refuses_partitions_run_with_different_settings() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let split = temp.path().join("split");
    evolve(&split, "5", &["--runs", "2", "--partition", "1/2"]);
    evolve(&split, "6", &["--runs", "2", "--partition", "2/2"]);
    let merged = temp.path().join("merged.jsonl");
    let output = ludeme(&[
        "merge",
        &split.to_string_lossy(),
        "--out",
        &merged.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("different settings: `seed` is 5 at ") && stderr.contains(" but 6 at "),
        "{stderr}"
    );
    assert!(!merged.exists());
}

/// A child's line as `ludeme evolve` writes it, with `settings` (JSON) when given; without,
/// as a ludeme that recorded none wrote it.
fn child_line(run: usize, child: usize, settings: Option<&str>) -> String {
    let settings = settings.map_or(String::new(), |settings| {
        format!(r#","settings":{settings}"#)
    });
    format!(
        r#"{{"run":{run},"child":{child},"name":"Child{run}{child}","generation":1,"parents":["a","b"],"parent_scores":[1.0,2.0],"crossed":1,"mutations":0,"stage":"unchanged","reason":null,"score":null,"viable":null,"nearest":null,"distance":null{settings}}}"#
    )
}

/// `ludeme merge` of `files` (name, lines) written into a temporary folder; the exit code and
/// standard error.
fn merge_lines(files: &[(&str, Vec<String>)]) -> (Option<i32>, String) {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let mut args = vec!["merge".to_owned()];
    for (name, lines) in files {
        let path = temp.path().join(name);
        std::fs::write(&path, lines.concat()).expect("written");
        args.push(path.to_string_lossy().into_owned());
    }
    let out = temp.path().join("merged.jsonl");
    args.extend(["--out".to_owned(), out.to_string_lossy().into_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = ludeme(&args);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Partitions 1/2 with `--runs 4` (runs 1, 3) and 2/2 with `--runs 6` (runs 2, 4, 6) leave a
/// gap at run 5, but the cause is the setting, which is what merge names.
#[test]
fn merge_names_a_different_setting_before_a_gap_it_causes() {
    let lines = |runs: &[usize], of: usize| -> Vec<String> {
        runs.iter()
            .map(|&run| {
                format!(
                    "{}\n",
                    child_line(run, 1, Some(&format!(r#"{{"seed":0,"runs":{of}}}"#)))
                )
            })
            .collect()
    };
    let (code, stderr) = merge_lines(&[
        ("one.jsonl", lines(&[1, 3], 4)),
        ("two.jsonl", lines(&[2, 4, 6], 6)),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("different settings: `runs` is 4 at ") && stderr.contains(" but 6 at "),
        "{stderr}"
    );
    // One partition given twice, run with different seeds: the seed, not a repeat.
    let seeded = |seed: u64| {
        vec![format!(
            "{}\n",
            child_line(1, 1, Some(&format!(r#"{{"seed":{seed},"runs":1}}"#)))
        )]
    };
    let (code, stderr) = merge_lines(&[("five.jsonl", seeded(5)), ("six.jsonl", seeded(6))]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("`seed` is 5 at "), "{stderr}");
}

/// Lines of a ludeme that recorded no settings merge among themselves as before, but merged
/// with lines that record settings, merge names the line and says why.
#[test]
fn merge_tells_lines_without_settings_from_lines_with_other_settings() {
    let old = vec![
        format!("{}\n", child_line(1, 1, None)),
        format!("{}\n", child_line(1, 2, None)),
    ];
    let (code, stderr) = merge_lines(&[("old.jsonl", old.clone())]);
    assert_eq!(code, Some(0), "{stderr}");
    let new = vec![format!(
        "{}\n",
        child_line(2, 1, Some(r#"{"seed":0,"runs":2}"#))
    )];
    let (code, stderr) = merge_lines(&[("new.jsonl", new), ("old.jsonl", old)]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(
            "old.jsonl:1 was written by a ludeme that records no settings; re-run that \
             partition, or merge only lines of one version"
        ),
        "{stderr}"
    );
}

/// Lines of the previous version record settings but not `sources` nor `rules`: merged with
/// lines that do, merge says the line comes from an older ludeme, not that the options differ.
#[test]
fn merge_tells_lines_of_an_older_version_that_lack_a_setting() {
    let older = vec![format!(
        "{}\n",
        child_line(1, 1, Some(r#"{"seed":0,"runs":2}"#))
    )];
    let newer = vec![format!(
        "{}\n",
        child_line(2, 1, Some(r#"{"rules":"00ff","seed":0,"runs":2}"#))
    )];
    let (code, stderr) = merge_lines(&[("older.jsonl", older), ("newer.jsonl", newer)]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains(
            "older.jsonl:1 was written by an older ludeme, which does not record `rules`; \
             re-run that partition, or merge only lines of one version"
        ),
        "{stderr}"
    );
}

/// The games the population starts from and the project's rule selection decide the
/// children: partitions bred from other texts, or under another `[rules]`, are refused by
/// merge, naming which; the same games in another folder (another machine) are not.
#[test]
fn merge_refuses_partitions_bred_from_other_games_or_rules() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let copy_sources = |folder: &Path| -> Vec<String> {
        std::fs::create_dir_all(folder).expect("made");
        ["tic-tac-toe.ludi", "hexapawn.ludi"]
            .iter()
            .map(|name| {
                let target = folder.join(name);
                std::fs::copy(
                    support::project_root().join("corpus/ludi").join(name),
                    &target,
                )
                .expect("copied");
                target.to_string_lossy().into_owned()
            })
            .collect()
    };
    let breed = |sources: &[String], out: &Path, partition: &str| {
        let out = out.to_string_lossy().into_owned();
        let mut args: Vec<&str> = vec!["evolve"];
        args.extend(sources.iter().map(String::as_str));
        args.extend([
            "--out",
            &out,
            "--children",
            "2",
            "--runs",
            "2",
            "--games",
            "1",
            "--partition",
            partition,
        ]);
        let output = ludeme(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let merge_of = |folders: &[&Path]| {
        let out = temp.path().join("merged.jsonl");
        let mut args = vec!["merge".to_owned()];
        args.extend(folders.iter().map(|f| f.to_string_lossy().into_owned()));
        args.extend(["--out".to_owned(), out.to_string_lossy().into_owned()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = ludeme(&args);
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let here = copy_sources(&temp.path().join("here"));
    let there = copy_sources(&temp.path().join("machine-2/games"));
    let (first, second) = (temp.path().join("first"), temp.path().join("second"));
    breed(&here, &first, "1/2");
    breed(&there, &second, "2/2");
    let (code, stderr) = merge_of(&[&first, &second]);
    assert_eq!(code, Some(0), "{stderr}");
    let assert_refused_naming = |setting: &str| {
        let (code, stderr) = merge_of(&[&first, &second]);
        assert_eq!(code, Some(2));
        let named = format!("different settings: `{setting}` is \"");
        assert!(stderr.contains(&named), "{stderr}");
    };

    std::fs::write(
        temp.path().join("machine-2/ludeme.toml"),
        "[rules]\nseverity = { \"ludi\" = \"info\" }\n",
    )
    .expect("written");
    breed(&there, &second, "2/2");
    assert_refused_naming("rules");

    std::fs::remove_file(temp.path().join("machine-2/ludeme.toml")).expect("removed");
    let edited = format!("{}\n", std::fs::read_to_string(&there[0]).expect("read"));
    std::fs::write(&there[0], edited).expect("written");
    breed(&there, &second, "2/2");
    assert_refused_naming("sources");
}

#[test]
fn merge_refuses_a_missing_run_and_a_child_recorded_twice() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let record = |run: usize, child: usize| child_line(run, child, None);
    let first = temp.path().join("first.jsonl");
    let third = temp.path().join("third.jsonl");
    std::fs::write(&first, format!("{}\n{}\n", record(1, 1), record(1, 2))).expect("written");
    std::fs::write(&third, format!("{}\n", record(3, 1))).expect("written");
    let out = temp
        .path()
        .join("merged.jsonl")
        .to_string_lossy()
        .into_owned();
    let merge = |paths: &[&Path]| {
        let mut args = vec!["merge".to_owned()];
        args.extend(paths.iter().map(|p| p.to_string_lossy().into_owned()));
        args.extend(["--out".to_owned(), out.clone()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ludeme(&args)
    };
    // Run 2 (another partition's) is not given.
    let output = merge(&[&first, &third]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("third.jsonl:1: run 3 child 1 follows a gap: run 2 is missing"),
        "{stderr}"
    );
    // The same partition given twice.
    let output = merge(&[&first, &first]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("run 1 child 1 is recorded twice"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A line that is not a child's record, with its position.
    std::fs::write(&third, "{\"run\": 3}\n").expect("written");
    let output = merge(&[&third]);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("third.jsonl:1: not a child's record"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Only the first run, complete: merged.
    let output = merge(&[&first]);
    assert!(output.status.success());
    assert_eq!(
        std::fs::read_to_string(&out).expect("merged"),
        format!("{}\n{}\n", record(1, 1), record(1, 2))
    );
}

/// A weights file with a mistake is refused before anything is bred, the message placing it.
#[test]
fn a_weights_file_with_a_mistake_is_refused_with_its_place() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let weights = temp.path().join("weights.toml");
    std::fs::write(&weights, "[weights]\ndrama = 1.0\nfun = 2.0\n").expect("written");
    let weights = weights.to_string_lossy().into_owned();
    let out = temp.path().join("out").to_string_lossy().into_owned();
    let output = ludeme(&[
        "evolve",
        "corpus/ludi/tic-tac-toe.ludi",
        "--weights",
        &weights,
        "--out",
        &out,
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "ludeme evolve: {weights}: line 3, column 1: `fun` is not a criterion of the probe"
        )),
        "{stderr}"
    );
}

/// The children are culled by the severities the project's `ludeme.toml` sets: a settings
/// file with a mistake, or that cannot be read, is warned about, placed, not silently replaced
/// by the defaults.
#[test]
fn a_settings_file_with_a_mistake_is_warned_about() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let game = temp.path().join("tic-tac-toe.ludi");
    std::fs::copy(
        support::project_root().join("corpus/ludi/tic-tac-toe.ludi"),
        &game,
    )
    .expect("copied");
    let settings = temp.path().join("ludeme.toml");
    let evolve_warnings = || {
        let out = temp.path().join("out").to_string_lossy().into_owned();
        let output = ludeme(&[
            "evolve",
            &game.to_string_lossy(),
            "--children",
            "1",
            "--games",
            "1",
            "--out",
            &out,
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        stderr
            .lines()
            .filter(|line| line.starts_with("ludeme evolve: warning: "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    std::fs::write(&settings, "[rules]\ndisable = [\"ludi/no-such-rule\"]\n").expect("written");
    assert_eq!(
        evolve_warnings(),
        [format!(
            "ludeme evolve: warning: {}:2:12: `ludi/no-such-rule` matches no diagnostic code; \
             `ludeme explain` lists them; that entry is ignored; the rest of the file applies \
             (`ludeme check` reports the settings file)",
            settings.display()
        )]
    );
    std::fs::write(&settings, "[rules\n").expect("written");
    let warnings = evolve_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with(&format!(
            "ludeme evolve: warning: {}:1:",
            settings.display()
        )) && warnings[0]
            .ends_with("; the default settings apply (`ludeme check` reports the settings file)")
            && !warnings[0].contains("are used"),
        "{warnings:?}"
    );
    std::fs::write(&settings, "").expect("written");
    assert_eq!(evolve_warnings(), Vec::<String>::new());
}

#[test]
fn a_bad_partition_is_refused() {
    let output = ludeme(&["evolve", "corpus/ludi", "--partition", "3/2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 ≤ K ≤ N"));
}

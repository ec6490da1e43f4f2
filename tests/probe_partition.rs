//! `ludeme probe` over a corpus: one JSON line per game, in the corpus's path order; `--partition
//! K/N` over separate processes probes each game exactly once (game i in partition ((i - 1) mod
//! N) + 1, as `ludeme evolve` splits its runs), and `ludeme merge` of the partitions' lines gives
//! the lines and the summary one process gives. The first Ctrl-C stops the run: the lines
//! written are whole.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::ludeme;

/// Small games of the corpus, quick to probe in debug, and where the test puts them (some in
/// subfolders, to be found by the folder's walk; `tic-tac-toe/` beside `tic-tac-toe-2x2.ludi`
/// sorts before it as a path but after it as text).
const GAMES: &[(&str, &str)] = &[
    ("tic-tac-toe.ludi", "tic-tac-toe/tic-tac-toe.ludi"),
    ("hexapawn.ludi", "hexapawn.ludi"),
    ("tic-tac-toe-2x2.ludi", "tic-tac-toe-2x2.ludi"),
    ("three-mens-morris.ludi", "three-mens-morris.ludi"),
    ("tic-tac-toe-misere.ludi", "more/tic-tac-toe-misere.ludi"),
    ("hex-7x7.ludi", "hex-7x7.ludi"),
    ("achi.ludi", "achi.ludi"),
];

/// The number of partitions of the test.
const PARTITIONS: usize = 3;

/// A folder holding the games of [`GAMES`] and one game that cannot be read (its line says why).
fn corpus(root: &Path) -> PathBuf {
    let folder = root.join("corpus");
    let source = support::project_root().join("corpus/ludi");
    for (name, place) in GAMES {
        let target = folder.join(place);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("made");
        std::fs::copy(source.join(name), target).expect("copied");
    }
    std::fs::write(
        folder.join("broken.ludi"),
        "(game \"Broken\" (players 2) (board",
    )
    .expect("written");
    folder
}

/// The options every probe of the test shares: few, small games, a fixed seed.
const BUDGET: &[&str] = &["--games", "4", "--move-nodes", "40", "--seed", "3"];

fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// `ludeme probe CORPUS ... --out OUT` as a process of its own, not yet waited for.
fn spawn_probe(corpus: &Path, out: &Path, extra: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("probe")
        .arg(corpus)
        .args(BUDGET)
        .arg("--out")
        .arg(out)
        .args(extra)
        .current_dir(support::project_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme runs")
}

/// The standard output of a probe that wrote every line: status 0, or 1 when a game of its
/// share could not be probed (the corpus's broken game), saying so.
fn probed(output: std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => {}
        Some(1) => assert!(stderr.contains("could not be probed"), "{stderr}"),
        other => panic!("status {other:?}: {stderr}"),
    }
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The standard output of a finished process that must have succeeded.
fn succeeded(output: std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The lines of a JSON Lines file, each without its `seconds` (the time a probe took is
/// measured, not computed: it differs from run to run).
fn lines_without_time(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the records")
        .lines()
        .map(|line| {
            let mut value: Value = serde_json::from_str(line).expect("a JSON line");
            if let Some(object) = value.as_object_mut() {
                object.remove("seconds");
            }
            value
        })
        .collect()
}

fn everything_after_the_first_line(text: &str) -> &str {
    text.split_once('\n').map_or("", |(_, rest)| rest)
}

#[test]
fn partitions_in_separate_processes_merge_into_what_one_process_writes() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let corpus = corpus(temp.path());
    let whole = temp.path().join("whole.jsonl");
    let output = spawn_probe(&corpus, &whole, &[])
        .wait_with_output()
        .expect("ran");
    // The broken game's line is written, and the status says a game was not probed.
    assert_eq!(output.status.code(), Some(1));
    let one_process = probed(output);
    let one = lines_without_time(&whole);

    // One line per game, in path order, each knowing its place; the broken game says why.
    let mut names: Vec<String> = GAMES
        .iter()
        .map(|(_, place)| text(&corpus.join(place)))
        .chain([text(&corpus.join("broken.ludi"))])
        .collect();
    // Path order: folder by folder, as the corpus is walked.
    names.sort_by(|a, b| Path::new(a).cmp(Path::new(b)));
    let games: Vec<&str> = one
        .iter()
        .map(|line| line["game"].as_str().expect("game"))
        .collect();
    assert_eq!(games, names);
    for (place, line) in (1..).zip(&one) {
        assert_eq!(line["index"], place);
        assert_eq!(line["of"], names.len());
        if line["game"]
            .as_str()
            .is_some_and(|game| game.ends_with("broken.ludi"))
        {
            assert!(line["error"].is_string(), "{line}");
        } else {
            assert_eq!(line["games"], 4, "{line}");
            assert!(
                line["lead_histories"]
                    .as_array()
                    .is_some_and(|h| h.len() == 4)
            );
        }
    }
    assert!(
        one_process.starts_with(&format!(
            "{} of the {} games probed into",
            names.len(),
            names.len()
        )),
        "{one_process}"
    );
    let viable = one.iter().filter(|line| line["viable"] == true).count();
    let not_viable = names.len() - 1 - viable;
    assert!(
        one_process.ends_with(&format!(
            "{viable} viable, {not_viable} not viable, 1 not probed\n"
        )),
        "{one_process}"
    );

    // The partitions, all at once, as separate processes.
    let parts: Vec<PathBuf> = (1..=PARTITIONS)
        .map(|k| temp.path().join(format!("part-{k}.jsonl")))
        .collect();
    let running: Vec<_> = (1..=PARTITIONS)
        .map(|k| {
            let partition = format!("{k}/{PARTITIONS}");
            spawn_probe(&corpus, &parts[k - 1], &["--partition", &partition])
        })
        .collect();
    for child in running {
        probed(child.wait_with_output().expect("ran"));
    }
    for (k, part) in (1..).zip(&parts) {
        let places: Vec<u64> = lines_without_time(part)
            .iter()
            .map(|line| line["index"].as_u64().expect("index"))
            .collect();
        let expected: Vec<u64> = (1..=names.len() as u64)
            .filter(|i| (i - 1) % PARTITIONS as u64 + 1 == k)
            .collect();
        assert_eq!(places, expected, "partition {k}");
    }

    // Merged (given in another order): the one process's lines and summary.
    let merged = temp.path().join("merged.jsonl");
    let mut args = vec!["merge".to_owned()];
    args.extend(parts.iter().rev().map(|part| text(part)));
    args.extend(["--out".to_owned(), text(&merged)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let merge_output = succeeded(ludeme(&args));
    assert_eq!(lines_without_time(&merged), one);
    assert!(
        merge_output.starts_with(&format!(
            "{} games merged from {PARTITIONS} records files",
            names.len()
        )),
        "{merge_output}"
    );
    assert_eq!(
        everything_after_the_first_line(&merge_output),
        everything_after_the_first_line(&one_process)
    );

    // A partition missing, a partition given twice, a line of another probe: refused.
    let merge = |given: &[&Path]| {
        let mut args = vec!["merge".to_owned()];
        args.extend(given.iter().map(|part| text(part)));
        args.extend(["--out".to_owned(), text(&temp.path().join("refused.jsonl"))]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = ludeme(&args);
        assert_eq!(output.status.code(), Some(2));
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = merge(&[&parts[0], &parts[1]]);
    assert!(
        stderr.contains(&format!("game 3 of {} is missing", names.len())),
        "{stderr}"
    );
    let stderr = merge(&[&parts[0], &parts[1], &parts[2], &parts[1]]);
    assert!(stderr.contains("is recorded twice"), "{stderr}");
    // Another probe's line, with the same settings (merge checks those first).
    let settings = &lines_without_time(&parts[1])[0]["settings"];
    let other = temp.path().join("other.jsonl");
    std::fs::write(
        &other,
        format!(r#"{{"index":1,"of":2,"game":"x.ludi","error":"e","settings":{settings}}}"#),
    )
    .expect("written");
    let stderr = merge(&[&parts[1], &other]);
    assert!(stderr.contains("records of different probes?"), "{stderr}");
}

/// The standard error of `ludeme merge` of partitions 1/2 and 2/2 of a corpus of two games,
/// each probed with its own `options` after `prepare` (given the corpus folder and which
/// partition, from 0) set up the corpus for it: the merge must be refused, exit 2, nothing
/// written.
fn refused_merge_of_two_partitions(
    options: [&[&str]; 2],
    prepare: impl Fn(&Path, usize),
) -> String {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let corpus = temp.path().join("corpus");
    std::fs::create_dir_all(&corpus).expect("made");
    for name in ["tic-tac-toe.ludi", "tic-tac-toe-2x2.ludi"] {
        let source = support::project_root().join("corpus/ludi").join(name);
        std::fs::copy(source, corpus.join(name)).expect("copied");
    }
    let parts = [temp.path().join("1.jsonl"), temp.path().join("2.jsonl")];
    for (index, (part, options)) in parts.iter().zip(options).enumerate() {
        prepare(&corpus, index);
        let partition = format!("{}/2", index + 1);
        let mut extra = vec!["--partition", &partition];
        extra.extend(options);
        probed(
            spawn_probe(&corpus, part, &extra)
                .wait_with_output()
                .expect("ran"),
        );
    }
    let merged = temp.path().join("merged.jsonl");
    let output = ludeme(&[
        "merge",
        &text(&parts[0]),
        &text(&parts[1]),
        "--out",
        &text(&merged),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(!merged.exists());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Partitions probed with different options give lines no one probe would: `ludeme merge`
/// refuses them with exit 2, naming the option.
#[test]
fn merge_refuses_partitions_probed_with_different_settings() {
    let stderr = refused_merge_of_two_partitions([&[], &["--random-plies", "2"]], |_, _| {});
    assert!(
        stderr.contains("different settings: `random_plies` is 1 at ")
            && stderr.contains(" but 2 at "),
        "{stderr}"
    );
}

/// Games of one corpus may be read under different `ludeme.toml`s (one per subfolder): the
/// time limit and the rule selection in force are recorded on each game's own line, outside
/// `settings`, so that the lines of one run agree and its partitions merge into what one
/// process writes.
#[test]
fn partitions_of_a_corpus_with_a_ludeme_toml_per_subfolder_merge() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let corpus = temp.path().join("corpus");
    let folders = [
        ("a", "tic-tac-toe.ludi", "[probe]\nseconds = 30.0\n"),
        (
            "b",
            "tic-tac-toe-2x2.ludi",
            "[probe]\nseconds = 40.0\n[rules]\nseverity = { \"ludi\" = \"info\" }\n",
        ),
    ];
    for (folder, name, settings) in folders {
        let folder = corpus.join(folder);
        std::fs::create_dir_all(&folder).expect("made");
        let source = support::project_root().join("corpus/ludi").join(name);
        std::fs::copy(source, folder.join(name)).expect("copied");
        std::fs::write(folder.join("ludeme.toml"), settings).expect("written");
    }
    let whole = temp.path().join("whole.jsonl");
    probed(
        spawn_probe(&corpus, &whole, &[])
            .wait_with_output()
            .expect("ran"),
    );
    let one = lines_without_time(&whole);
    let in_force: Vec<(&Value, &Value)> = one
        .iter()
        .map(|line| (&line["time_limit"], &line["rules"]))
        .collect();
    assert_eq!(in_force[0].0, 30.0, "{one:?}");
    assert_eq!(in_force[1].0, 40.0, "{one:?}");
    assert_ne!(in_force[0].1, in_force[1].1, "{one:?}");
    assert!(
        one.iter()
            .all(|line| line["settings"]["time_limit"].is_null()),
        "{one:?}"
    );

    let parts = [temp.path().join("1.jsonl"), temp.path().join("2.jsonl")];
    for (index, part) in parts.iter().enumerate() {
        let partition = format!("{}/2", index + 1);
        probed(
            spawn_probe(&corpus, part, &["--partition", &partition])
                .wait_with_output()
                .expect("ran"),
        );
    }
    let merged = temp.path().join("merged.jsonl");
    succeeded(ludeme(&[
        "merge",
        &text(&parts[0]),
        &text(&parts[1]),
        "--out",
        &text(&merged),
    ]));
    assert_eq!(lines_without_time(&merged), one);
}

#[test]
fn json_lines_go_to_standard_output_without_out() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let corpus = corpus(temp.path());
    let mut args = vec!["probe".to_owned(), text(&corpus)];
    args.extend(BUDGET.iter().map(|option| (*option).to_owned()));
    args.extend([
        "--partition".to_owned(),
        "2/3".to_owned(),
        "--format".to_owned(),
        "json".to_owned(),
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stdout = probed(ludeme(&args));
    let places: Vec<u64> = stdout
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("a JSON line");
            value["index"].as_u64().expect("index")
        })
        .collect();
    assert_eq!(places, [2, 5, 8]);
}

#[test]
fn options_of_one_game_are_refused_over_a_corpus() {
    let output = ludeme(&["probe", "corpus/ludi", "--criteria", "all"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("give one game file"));
    let output = ludeme(&["probe", "corpus/ludi", "--partition", "0/3"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 ≤ K ≤ N"));
}

/// The first Ctrl-C starts no new game: the run ends soon after, with the lines of the games
/// that ended, each whole, and says it stopped.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_between_games() {
    use support::interrupt::interrupt_when;
    let temp = tempfile::tempdir().expect("a temporary folder");
    let out = temp.path().join("stopped.jsonl");
    // The whole corpus with larger budgets: far longer than the test waits.
    let corpus_folder = support::project_root().join("corpus/ludi");
    let child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args([
            "probe",
            &text(&corpus_folder),
            "--games",
            "20",
            "--move-nodes",
            "300",
            "--time-limit",
            "5",
        ])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme runs");
    let (output, stop_took) = interrupt_when(child, || {
        std::fs::read_to_string(&out).is_ok_and(|text| text.lines().next().is_some())
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped (Ctrl-C)"), "{stderr}");
    let lines = lines_without_time(&out);
    let total = std::fs::read_dir(&corpus_folder)
        .expect("the corpus")
        .filter(|entry| {
            entry
                .as_ref()
                .is_ok_and(|entry| entry.path().extension().is_some_and(|e| e == "ludi"))
        })
        .count();
    assert!(
        !lines.is_empty() && lines.len() < total,
        "{} lines",
        lines.len()
    );
    for line in &lines {
        assert_eq!(line["of"], total);
    }
    assert!(stop_took < Duration::from_secs(60));
}

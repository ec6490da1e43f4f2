//! `ludeme evolve`: the same seed breeds the same children, no child written fails `ludeme
//! check`, and the runs split by `--partition K/N` over separate processes together write
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
        assert!(text.contains(&format!("(game {name}")), "{text}");
    }
    // One record per child, kept or culled.
    let records = &a[Path::new("run-01/children.jsonl")];
    assert_eq!(records.lines().count(), 16);
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

#[test]
fn partitions_in_separate_processes_write_what_one_process_writes() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let whole = temp.path().join("whole");
    let split = temp.path().join("split");
    evolve(&whole, "5", &["--runs", "3"]);
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
}

#[test]
fn a_bad_partition_is_refused() {
    let output = ludeme(&["evolve", "corpus/ludi", "--partition", "3/2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 ≤ K ≤ N"));
}

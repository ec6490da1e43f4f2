//! `ludeme merge`: the JSON Lines records that partitions of one command wrote (`--partition
//! K/N` on several processes or machines) combined into the file, and the closing report, that
//! one process would have written. It takes the records of `ludeme evolve` (one line per child)
//! and of `ludeme probe` over a corpus (one line per game); each command checks its own records
//! for a gap or a line given twice ([`crate::evolve::merged_children`],
//! [`crate::probe::merged_games`]). Every line records the settings it was made with (seed,
//! budgets), and lines made with different ones are refused, naming the setting. The lines are
//! copied as they were written, so the merged file is byte for byte the one process's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::Args;
use ludeme_analysis::evolve::ChildRecord;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::exit;
use crate::probe::GameLine;

/// The options of `ludeme merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The records to combine: the JSON Lines files the partitions wrote (`ludeme probe
    /// --out`), or folders searched for `children.jsonl` (the `--out` folders of `ludeme
    /// evolve`'s partitions).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// The combined records file (JSON Lines), written in the order one process writes.
    #[arg(long, short)]
    out: PathBuf,
    /// How many of the best children the closing table of an evolution lists.
    #[arg(long, default_value_t = 19)]
    best: usize,
}

/// The name of the records file of one run of `ludeme evolve`, the file a folder is searched
/// for.
pub const CHILDREN_FILE: &str = "children.jsonl";

/// One line of a records file, read as a `T`.
pub struct Line<T> {
    pub record: T,
    /// Where it was read: `file:line`, for messages.
    pub at: String,
    /// The line as written, copied unchanged into the merged file.
    pub text: String,
}

/// The records files of `path`: itself, or the `children.jsonl` files under a folder, sorted.
fn records_files(path: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    if !path.is_dir() {
        found.push(path.to_path_buf());
        return Ok(());
    }
    let entries =
        std::fs::read_dir(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|error| format!("{}: {error}", path.display()))?;
    paths.sort();
    for inner in paths {
        if inner.is_dir() {
            records_files(&inner, found)?;
        } else if inner.file_name().is_some_and(|name| name == CHILDREN_FILE) {
            found.push(inner);
        }
    }
    Ok(())
}

/// Every non-blank line of `files`, with where it was read (`file:line`).
fn read_lines(files: &[PathBuf]) -> Result<Vec<(String, String)>, String> {
    let mut lines = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|error| format!("{}: {error}", file.display()))?;
        for (index, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                lines.push((format!("{}:{}", file.display(), index + 1), line.to_owned()));
            }
        }
    }
    Ok(lines)
}

/// `lines` read as records of one kind, `what` naming it in the error at the first line that
/// is not one.
fn parse<T: DeserializeOwned>(
    lines: Vec<(String, String)>,
    what: &str,
) -> Result<Vec<Line<T>>, String> {
    lines
        .into_iter()
        .map(|(at, text)| match serde_json::from_str(&text) {
            Ok(record) => Ok(Line { record, at, text }),
            Err(error) => Err(format!("{at}: not {what}: {error}")),
        })
        .collect()
}

/// `lines` sorted by `key`, refusing two with the same key (a partition given twice); `name`
/// says which record a key stands for.
pub fn sorted_once<T, K: Ord + Copy>(
    mut lines: Vec<Line<T>>,
    key: impl Fn(&T) -> K,
    name: impl Fn(&T) -> String,
) -> Result<Vec<Line<T>>, String> {
    lines.sort_by_key(|line| key(&line.record));
    for pair in lines.windows(2) {
        if key(&pair[0].record) == key(&pair[1].record) {
            return Err(format!(
                "{} is recorded twice ({} and {})",
                name(&pair[0].record),
                pair[0].at,
                pair[1].at
            ));
        }
    }
    Ok(lines)
}

/// Refuses `lines` written with different settings: partitions of one
/// command run with another seed or budget would merge into records no single run gives. The
/// message names the first setting that differs and where. Lines of a ludeme that recorded no
/// settings (an older one) merge among themselves unchecked, but not with lines that record
/// them: which settings they were made with cannot be told. A setting recorded on one side
/// only names the other line as one of an older ludeme (that did not yet record it), not as
/// other options.
fn same_settings<T>(lines: &[Line<T>]) -> Result<(), String> {
    let settings_of = |text: &str| match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut line)) => match line.remove("settings") {
            Some(Value::Object(settings)) => Some(settings),
            _ => None,
        },
        _ => None,
    };
    let recorded: Vec<Option<Map<String, Value>>> =
        lines.iter().map(|line| settings_of(&line.text)).collect();
    if recorded.iter().all(Option::is_none) {
        return Ok(());
    }
    if let Some(unrecorded) = lines
        .iter()
        .zip(&recorded)
        .find_map(|(line, settings)| settings.is_none().then_some(line))
    {
        return Err(format!(
            "{} was written by a ludeme that records no settings; re-run that partition, or \
             merge only lines of one version",
            unrecorded.at
        ));
    }
    let recorded: Vec<Map<String, Value>> = recorded.into_iter().flatten().collect();
    let Some(Line { at: first_at, .. }) = lines.first() else {
        return Ok(());
    };
    let first = &recorded[0];
    for (Line { at, .. }, these) in lines[1..].iter().zip(&recorded[1..]) {
        if these == first {
            continue;
        }
        let names: BTreeSet<&String> = first.keys().chain(these.keys()).collect();
        let Some(name) = names
            .into_iter()
            .find(|&name| first.get(name) != these.get(name))
        else {
            continue;
        };
        let (was, is) = match (first.get(name), these.get(name)) {
            (Some(was), Some(is)) => (was, is),
            // A setting recorded on one side only: the other line comes from a version that
            // did not record it, not from other options.
            (was, _) => {
                let older = if was.is_none() { first_at } else { at };
                return Err(format!(
                    "{older} was written by an older ludeme, which does not record `{name}`; \
                     re-run that partition, or merge only lines of one version"
                ));
            }
        };
        let shown = |value: &Value| match value {
            Value::Object(_) | Value::Array(_) => "a table".to_owned(),
            value => value.to_string(),
        };
        let difference = if was.is_object() && is.is_object() {
            format!("`{name}` differs between {first_at} and {at}")
        } else {
            format!(
                "`{name}` is {} at {first_at} but {} at {at}",
                shown(was),
                shown(is)
            )
        };
        return Err(format!(
            "the records were written with different settings: {difference}; merge the \
             partitions of one command, run with the same options"
        ));
    }
    Ok(())
}

/// Writes the lines, in order, to `out`.
fn write_lines<T>(out: &Path, lines: &[Line<T>]) -> Result<(), String> {
    let text: String = lines
        .iter()
        .map(|line| format!("{}\n", line.text))
        .collect();
    std::fs::write(out, text).map_err(|error| format!("cannot write {}: {error}", out.display()))
}

pub fn run(args: &MergeArgs) -> u8 {
    match merge(args) {
        Ok(()) => exit::CLEAN,
        Err(message) => {
            eprintln!("ludeme merge: {message}");
            exit::FAILURE
        }
    }
}

fn merge(args: &MergeArgs) -> Result<(), String> {
    let mut files = Vec::new();
    for path in &args.paths {
        records_files(path, &mut files)?;
    }
    if files.is_empty() {
        return Err(format!("no {CHILDREN_FILE} under the paths given"));
    }
    let lines = read_lines(&files)?;
    let Some((_, first)) = lines.first() else {
        return Err("the records files given hold no record".to_owned());
    };
    // The first line tells which command wrote the records: a game's record of `ludeme probe`
    // names its place in the corpus, which a child's record never has.
    if serde_json::from_str::<GameLine>(first).is_ok() {
        let games = parse(lines, "a game's record of `ludeme probe` over a corpus")?;
        // Settings first: partitions run differently also leave gaps and repeats, which would
        // hide the cause.
        same_settings(&games)?;
        let games = crate::probe::merged_games(games)?;
        write_lines(&args.out, &games)?;
        println!(
            "{} games merged from {} records files into {}",
            games.len(),
            files.len(),
            args.out.display()
        );
        crate::probe::print_corpus(games.iter().map(|line| &line.record));
    } else {
        let children = parse::<ChildRecord>(lines, "a child's record of `ludeme evolve`")?;
        same_settings(&children)?;
        let children = crate::evolve::merged_children(children)?;
        write_lines(&args.out, &children)?;
        let runs = children.last().map_or(0, |line| line.record.run);
        println!(
            "{} children of {runs} runs merged from {} records files into {}",
            children.len(),
            files.len(),
            args.out.display()
        );
        let records: Vec<ChildRecord> = children.into_iter().map(|line| line.record).collect();
        crate::evolve::print_outcome(&records, args.best);
    }
    Ok(())
}

//! `ludeme evolve`: new Ludi games bred from known ones, as the Ludi paper's synthesis module
//! (Browne & Maire 2010, §V) does — see [`ludeme_analysis::evolve`] for the stages a child goes
//! through. Every child that survives them is written to `OUT/run-NN/NAME.ludi` with its
//! ancestry, score and verdict in a comment header; every child, kept or culled and why, is one
//! line of `OUT/run-NN/children.jsonl`. The same seed gives the same children.
//!
//! `--partition K/N` does the runs whose number is K modulo N, so that N processes (a SLURM job
//! array, a CI matrix) together do the whole evolution; each run writes only its own folder.
//! `ludeme merge` then combines the partitions' records into one, in run and child order, and
//! prints the counts and the table of the best children that one process would have printed.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use ludeme_analysis::Syntax;
use ludeme_analysis::aesthetic::AestheticWeights;
use ludeme_analysis::config::{Config, DEFAULTS_USED};
use ludeme_analysis::evolve::{
    ChildRecord, EvolveSettings, Partition, SourceGame, Stage, children_of_run, evolve_run,
    judge_source, runs_of, sorted_population,
};
use ludeme_analysis::play::ProbeSettings;
use rayon::prelude::*;
use serde::Serialize;

use crate::exit;
use crate::merge::{Line, sorted_once};
use crate::progress::Progress;
use crate::project::{open_paths, settings_for};

/// The options of `ludeme evolve`.
#[derive(Args, Debug)]
pub struct EvolveArgs {
    /// The Ludi games (files or folders) the population starts from.
    #[arg(default_value = "corpus/ludi")]
    paths: Vec<PathBuf>,
    /// Children to breed, over all runs.
    #[arg(long, default_value_t = 100)]
    children: usize,
    /// Independent evolutionary runs sharing the children; the unit `--partition` splits.
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// The random seed: the same seed, runs and options give the same children.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The folder the children are written to (made if missing).
    #[arg(long, short, default_value = "evolved")]
    out: PathBuf,
    /// Do only the runs numbered K modulo N (`1/4`, `2/4`, ...: cargo-nextest's convention),
    /// so that N processes share the work.
    #[arg(long, value_name = "K/N", value_parser = Partition::parse)]
    partition: Option<Partition>,
    /// Self-play games of each child's probe.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// States each search may visit per move in the probe; a larger budget also widens the
    /// search's beam (the most moves per position with which it finishes two plies, at least 11).
    #[arg(long, default_value_t = 60)]
    move_nodes: u64,
    /// The CPU seconds a child's probe may take (the speed test): over it, the child is culled.
    #[arg(long, default_value_t = 4.0)]
    child_seconds: f64,
    /// Children at most this ludeme-tree distance from a member of the population are culled
    /// as inbred.
    #[arg(long, default_value_t = 0.02)]
    min_distance: f64,
    /// The aesthetic weights (TOML: `bias`, and `[weights]` one per criterion); by default the
    /// ones shipped with ludeme.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// How many of the best children the closing table lists.
    #[arg(long, default_value_t = 19)]
    best: usize,
}

fn fail(message: impl std::fmt::Display) -> u8 {
    eprintln!("ludeme evolve: {message}");
    exit::FAILURE
}

impl EvolveArgs {
    fn settings(&self) -> Result<EvolveSettings, String> {
        if !(self.child_seconds > 0.0 && self.child_seconds.is_finite()) {
            return Err("--child-seconds must be a positive number of seconds".to_owned());
        }
        if self.runs == 0 || self.games == 0 {
            return Err("--runs and --games must be at least 1".to_owned());
        }
        if self.runs > self.children.max(1) {
            // `ludeme merge` reads a run without children as one a partition did not do.
            return Err(format!(
                "--runs {} is more than --children {}: a run would breed nothing",
                self.runs, self.children
            ));
        }
        let weights = match &self.weights {
            None => AestheticWeights::default(),
            Some(path) => AestheticWeights::read_file(path)?,
        };
        Ok(EvolveSettings {
            seed: self.seed,
            children: self.children,
            runs: self.runs,
            probe: ProbeSettings {
                games: self.games,
                seed: self.seed,
                nodes_per_move: self.move_nodes,
                time_per_move: Duration::from_secs(5),
                time_limit: Some(Duration::from_secs_f64(self.child_seconds)),
                ..ProbeSettings::default()
            },
            min_distance: self.min_distance,
            weights,
            // The first Ctrl-C stops every run before its next child, and the child being
            // judged (unrecorded); `run` installs the handler.
            stop: Some(crate::interrupt::stop_flag()),
            run_budget: None,
            // The games are read, and their children checked and culled, with the project's
            // `ludeme.toml`.
            project: std::sync::Arc::new(project_settings(&self.paths)),
        })
    }
}

/// The settings of the project of `paths`. The children are culled by the severities they
/// set, so a file that cannot be read, or has mistakes, is warned about (its first problem,
/// placed, and what applies instead) rather than silently; `ludeme check` reports every one.
fn project_settings(paths: &[PathBuf]) -> Config {
    const DEFAULTS_APPLY: &str = "the default settings apply";
    let warn = |problem: &str, consequence: &str| {
        eprintln!(
            "ludeme evolve: warning: {problem}; {consequence} (`ludeme check` reports the \
             settings file)"
        );
    };
    match settings_for(paths, None) {
        Ok((project, None)) => project,
        Ok((project, Some(report))) => {
            if let Some(first) = report.diagnostics.first() {
                let at = report.span(first.range).start;
                let others = report.diagnostics.len() - 1;
                let more = match others {
                    0 => String::new(),
                    others => format!(" (and {others} more)"),
                };
                // A file that could not be read as a whole gives the defaults; otherwise only
                // the entries with mistakes are ignored.
                let (message, consequence) = match first.message.strip_suffix(DEFAULTS_USED) {
                    Some(message) => (message, DEFAULTS_APPLY),
                    None if others == 0 => (
                        first.message.as_str(),
                        "that entry is ignored; the rest of the file applies",
                    ),
                    None => (
                        first.message.as_str(),
                        "those entries are ignored; the rest of the file applies",
                    ),
                };
                warn(
                    &format!(
                        "{}:{}:{}: {message}{more}",
                        report.display_path(),
                        at.line,
                        at.column,
                    ),
                    consequence,
                );
            }
            project
        }
        Err(problem) => {
            warn(&problem, DEFAULTS_APPLY);
            Config::default()
        }
    }
}

/// The Ludi games of `paths`, read through the analysis host with the `project`'s settings.
fn source_games(paths: &[PathBuf], project: &Config) -> Result<Vec<SourceGame>, String> {
    let (host, loaded) = open_paths(paths, project.clone());
    if let Some(problem) = loaded.problems.first() {
        return Err(format!("{}: {}", problem.path.display(), problem.message));
    }
    let analysis = host.snapshot();
    let mut sources = Vec::new();
    for (path, file) in &loaded.checked {
        let Ok(file) = file else { continue };
        if analysis.syntax(*file) != Syntax::Ludi {
            continue;
        }
        let text = analysis.text(*file).map_err(|_| "cancelled".to_owned())?;
        sources.push(SourceGame {
            path: path.clone(),
            text: text.to_string(),
        });
    }
    if sources.is_empty() {
        return Err("no Ludi game (.ludi) among the paths given".to_owned());
    }
    // By file name and text, as their fingerprint names them, not by path: the population's
    // games of equal score keep this order, which is then the same on another machine.
    sources.sort_by(|a, b| (a.path.file_name(), &a.text).cmp(&(b.path.file_name(), &b.text)));
    Ok(sources)
}

/// Where the children of run `run` go.
fn run_folder(out: &Path, run: usize, runs: usize) -> PathBuf {
    let width = runs.to_string().len().max(2);
    out.join(format!("run-{run:0width$}"))
}

/// The settings that decide the children, on every child's line, so that `ludeme merge`
/// refuses lines of partitions run differently (the partition itself is not among them: the
/// lines of every partition and of one process are alike).
#[derive(Serialize)]
struct EvolvedWith<'a> {
    /// A fingerprint of the games the population starts from (their file names and texts:
    /// the same on another machine, where their paths differ), in hexadecimal.
    sources: String,
    /// A fingerprint of the project's rule selection (`[rules]` of `ludeme.toml`), which
    /// decides the children the rule-safety check culls, in hexadecimal.
    rules: String,
    seed: u64,
    children: usize,
    runs: usize,
    games: usize,
    move_nodes: u64,
    child_seconds: f64,
    min_distance: f64,
    weights: &'a AestheticWeights,
}

impl<'a> EvolvedWith<'a> {
    fn of(args: &EvolveArgs, settings: &'a EvolveSettings, sources: &[SourceGame]) -> Self {
        EvolvedWith {
            // Hexadecimal: JSON numbers stop at 64 bits.
            sources: format!("{:032x}", SourceGame::fingerprint(sources)),
            rules: format!("{:032x}", settings.project.rules.fingerprint()),
            seed: settings.seed,
            children: settings.children,
            runs: settings.runs,
            games: settings.probe.games,
            move_nodes: settings.probe.nodes_per_move,
            child_seconds: args.child_seconds,
            min_distance: settings.min_distance,
            weights: &settings.weights,
        }
    }
}

/// One line of a run's records: the child's record and the settings.
#[derive(Serialize)]
struct RecordLine<'a> {
    #[serde(flatten)]
    record: &'a ChildRecord,
    settings: &'a EvolvedWith<'a>,
}

/// What the runs' threads share: the records files, the bar, the best so far, the first
/// I/O error.
struct Sink<'a> {
    settings: EvolvedWith<'a>,
    records: Mutex<BTreeMap<usize, BufWriter<File>>>,
    folders: BTreeMap<usize, PathBuf>,
    progress: Progress,
    best: Mutex<Option<(f64, String)>>,
    error: Mutex<Option<String>>,
}

impl Sink<'_> {
    fn hear(&self, record: &ChildRecord) {
        if let Err(message) = self.write(record) {
            let mut error = self.error.lock().unwrap_or_else(|e| e.into_inner());
            error.get_or_insert(message);
        }
        if record.stage == Stage::Kept
            && let Some(score) = record.score
        {
            let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
            if best.as_ref().is_none_or(|(top, _)| score > *top) {
                *best = Some((score, record.name.clone()));
                self.progress
                    .set_message(format!("best {score:.3} ({})", record.name));
            }
        }
        self.progress.advance(1);
    }

    fn write(&self, record: &ChildRecord) -> Result<(), String> {
        let folder = &self.folders[&record.run];
        if let Some(text) = &record.text {
            let path = folder.join(format!("{}.ludi", record.name));
            std::fs::write(&path, text)
                .map_err(|error| format!("cannot write {}: {error}", path.display()))?;
        }
        let line = serde_json::to_string(&RecordLine {
            record,
            settings: &self.settings,
        })
        .map_err(|error| error.to_string())?;
        let mut records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        let writer = records
            .get_mut(&record.run)
            .ok_or_else(|| format!("no records file for run {}", record.run))?;
        writeln!(writer, "{line}")
            .and_then(|()| writer.flush())
            .map_err(|error| format!("cannot write {}: {error}", folder.display()))
    }
}

pub fn run(args: &EvolveArgs) -> u8 {
    crate::interrupt::stop_at_first_interrupt();
    let settings = match args.settings() {
        Ok(settings) => settings,
        Err(message) => return fail(message),
    };
    let partition = args.partition.unwrap_or(Partition::WHOLE);
    let sources = match source_games(&args.paths, &settings.project) {
        Ok(sources) => sources,
        Err(message) => return fail(message),
    };
    let judged: Vec<Result<_, String>> = {
        let progress = Progress::bar("judging the initial games", sources.len() as u64, "games");
        sources
            .par_iter()
            .map(|source| {
                let member = judge_source(source, &settings);
                progress.advance(1);
                member
            })
            .collect()
    };
    let mut members = Vec::new();
    for result in judged {
        match result {
            Ok(member) => members.push(member),
            Err(why) => eprintln!("ludeme evolve: left out of the population: {why}"),
        }
    }
    if crate::interrupt::interrupted() {
        return fail("stopped (Ctrl-C) while judging the initial games; nothing was bred");
    }
    if members.is_empty() {
        return fail("no game could start the population");
    }
    let population = sorted_population(members);
    let runs = runs_of(partition, settings.runs);
    let mut folders = BTreeMap::new();
    let mut files = BTreeMap::new();
    for &run in &runs {
        let folder = run_folder(&args.out, run, settings.runs);
        let created = std::fs::create_dir_all(&folder)
            .and_then(|()| File::create(folder.join("children.jsonl")));
        match created {
            Ok(file) => {
                files.insert(run, BufWriter::new(file));
                folders.insert(run, folder);
            }
            Err(error) => return fail(format!("cannot make {}: {error}", folder.display())),
        }
    }
    let total: usize = runs
        .iter()
        .map(|&run| children_of_run(settings.children, settings.runs, run))
        .sum();
    let sink = Sink {
        settings: EvolvedWith::of(args, &settings, &sources),
        records: Mutex::new(files),
        folders,
        progress: Progress::rate_bar("breeding", total as u64, "children"),
        best: Mutex::new(None),
        error: Mutex::new(None),
    };
    let records: Vec<ChildRecord> = runs
        .par_iter()
        .map(|&run| evolve_run(&population, &settings, run, &|record| sink.hear(record)))
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect();
    drop(sink.progress);
    if let Some(message) = sink.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return fail(message);
    }
    println!(
        "{} children bred from {} games into {}",
        records.len(),
        population.len(),
        args.out.display()
    );
    print_outcome(&records, args.best);
    if crate::interrupt::interrupted() {
        return fail(
            "stopped (Ctrl-C): the children recorded are whole, the child being judged was left out",
        );
    }
    exit::CLEAN
}

/// How many children each stage culled and kept, and the table of the `best` kept children.
pub fn print_outcome(records: &[ChildRecord], best: usize) {
    for stage in Stage::ALL {
        let count = records.iter().filter(|r| r.stage == stage).count();
        println!("  {count:>6}  {}", stage.describe());
    }
    let viable = records
        .iter()
        .filter(|r| r.stage == Stage::Kept && r.viable == Some(true))
        .count();
    println!("  {viable:>6}  of the kept are viable");
    let mut kept: Vec<&ChildRecord> = records.iter().filter(|r| r.stage == Stage::Kept).collect();
    kept.sort_by(|a, b| {
        b.score
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&a.score.unwrap_or(f64::NEG_INFINITY))
            .then((a.run, a.child).cmp(&(b.run, b.child)))
    });
    if kept.is_empty() {
        return;
    }
    println!("best children:");
    println!(
        "  {:<12} {:>6}  {:<10}  {:<26}  nearest",
        "name", "score", "verdict", "parents"
    );
    for record in kept.iter().take(best) {
        let verdict = if record.viable == Some(true) {
            "viable"
        } else {
            "not viable"
        };
        let nearest = match (&record.nearest, record.distance) {
            (Some(name), Some(d)) => format!("{name} ({d:.3})"),
            _ => String::new(),
        };
        println!(
            "  {:<12} {:>6.3}  {:<10}  {:<26}  {nearest}",
            record.name,
            record.score.unwrap_or(0.0),
            verdict,
            format!("{} × {}", record.parents[0], record.parents[1]),
        );
    }
}

/// The children's records of the partitions in run and child order, refusing a child recorded
/// twice and a gap (a run or a child missing before the last: a partition that did not finish,
/// or was not given).
pub fn merged_children(lines: Vec<Line<ChildRecord>>) -> Result<Vec<Line<ChildRecord>>, String> {
    let lines = sorted_once(
        lines,
        |record| (record.run, record.child),
        |record| format!("run {} child {}", record.run, record.child),
    )?;
    let (mut expected_run, mut expected_child) = (1, 1);
    for Line { record, at, .. } in &lines {
        let (run, child) = (record.run, record.child);
        // A run after one with children starts at child 1.
        let next_run = if expected_child == 1 {
            expected_run
        } else {
            expected_run + 1
        };
        if run == expected_run && child == expected_child {
            expected_child += 1;
            continue;
        }
        if run == next_run && child == 1 {
            (expected_run, expected_child) = (next_run, 2);
            continue;
        }
        let missing = if run == expected_run {
            format!("child {expected_child} of run {run}")
        } else if run == next_run {
            format!("child 1 of run {run}")
        } else {
            format!("run {next_run}")
        };
        return Err(format!(
            "{at}: run {run} child {child} follows a gap: {missing} is missing (did every \
             partition finish, and is every one given?)"
        ));
    }
    Ok(lines)
}

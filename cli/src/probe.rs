//! `ludeme probe FILE`: the self-play viability probe of the Ludi paper (Browne & Maire, 2010).
//! Search players play N games
//! with random first moves; the report gives completion, drawishness, timeouts, balance,
//! first-move advantage, length, branching, the quality criteria and the viability verdict.
//! Ludi games are evaluated by their advisors; GDL and EGGG games are probed with a neutral
//! evaluation (the analysis chooses: [`ludeme_analysis::play::PlayableGame::probe`]).
//!
//! Over a corpus (several files, or folders), every game is probed with the same options, on
//! every core, and each gives one line of JSON Lines: its report with its place in the corpus's
//! games sorted by path. `--partition K/N` probes only the games whose place is K modulo N (as
//! `ludeme evolve` splits its runs), so that N processes together write the lines one process
//! writes, and `ludeme merge` combines them. The first Ctrl-C starts no new game and stops the
//! games under way at once, unwritten (part of a probe is not its report): the lines written
//! are whole, and the command stops. On one game, the first Ctrl-C stops the probe and the
//! games finished by then are reported.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use ludeme_analysis::CpuInstant;
use ludeme_analysis::aesthetic::{CRITERIA, Criterion, aesthetic_score, criterion_named};
use ludeme_analysis::evolve::Partition;
use ludeme_analysis::files::collect_game_files;
use ludeme_analysis::play::{EngineOptions, ProbeReport, ProbeSettings};
use ludeme_analysis::probe_plots::{game_lengths_svg, lead_history_svg, outcomes_svg};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::exit;
use crate::interrupt;
use crate::merge::{Line, sorted_once};
use crate::progress::Progress;
use crate::project::{KnownGames, open_game};

/// The options of `ludeme probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// A Ludi game (.ludi), a GDL game (.kif, .gdl, .hrf) or an EGGG game (.egg) the EGGG
    /// engine plays; or a corpus: several games, or folders of games, each probed alike.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    self_play: SelfPlayArgs,
    #[arg(long, value_enum, default_value_t = ProbeFormat::Human)]
    format: ProbeFormat,
    /// Also draw the probe's plots into this folder (made if missing), as SVG: each game's lead
    /// history (`lead-history-001.svg`, ...: every role's estimate after each move, as in the
    /// Ludi paper's figures 7 and 8), the outcomes (`outcomes.svg`) and the game lengths
    /// (`lengths.svg`).
    #[arg(long, value_name = "FOLDER")]
    plots: Option<PathBuf>,
    /// Also print these criteria, with their sources: `all`, or names separated by commas
    /// (`uncertainty,permanence`). The JSON report always holds every criterion.
    #[arg(long, value_name = "all|NAME,...")]
    criteria: Option<String>,
    /// Over a corpus, probe only the games whose place in path order is K modulo N (`1/4`,
    /// `2/4`, ...: cargo-nextest's convention), so that N processes share the work; `ludeme
    /// merge` combines their records.
    #[arg(long, value_name = "K/N", value_parser = Partition::parse)]
    partition: Option<Partition>,
    /// Over a corpus, write one JSON line per game to this file, in path order (a line as soon
    /// as its game and those before it have ended), and print the summary; without it,
    /// `--format json` prints the lines instead.
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// How the self-play games are played: the options `ludeme probe` and `ludeme report` share.
#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// How many games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// The random seed of the opening moves and of the players' choice between equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Each player's first moves played at random, every player's alike (the opening is not
    /// measured).
    #[arg(long, default_value_t = 1)]
    pub random_plies: usize,
    /// States each search may visit per move (repeatable, unlike a clock); by default 150 on
    /// Ludi games, whose advisors value the states the search stops at, and 2,000 on GDL and
    /// EGGG games, whose generic evaluators (material, goal value, mobility; piece power) tell
    /// less, so that the search's depth must tell more. On Ludi games a larger budget also
    /// widens the search's beam: the most moves per position with which it finishes two plies
    /// (at least 11).
    #[arg(long)]
    pub move_nodes: Option<u64>,
    /// Start no new game this many seconds after the command starts (over a corpus: after the
    /// game's probe starts), reading and setting up the game included; a game under way stops
    /// by twice this (default: `[probe] seconds` of `ludeme.toml`, else 60, as in the editor).
    #[arg(long)]
    pub time_limit: Option<f64>,
}

impl SelfPlayArgs {
    /// Why the options cannot be used, if they cannot.
    pub fn problem(&self) -> Option<&'static str> {
        match self.time_limit {
            Some(seconds) if !(seconds > 0.0 && seconds.is_finite()) => {
                Some("--time-limit must be a positive number of seconds")
            }
            _ => None,
        }
    }

    /// The time limit of the game at `path`, in seconds: the one given, else that of the
    /// settings the game is read with (its `ludeme.toml`'s, as [`crate::project::open_game`]
    /// reads them; the defaults when there is none or it is broken).
    pub fn seconds_for(&self, path: &Path) -> f64 {
        self.time_limit
            .unwrap_or_else(|| settings_of_game(path).probe.seconds)
    }
}

/// The settings the game at `path` is read with (its nearest `ludeme.toml`'s, as
/// [`crate::project::open_game`] reads them; the defaults when there is none or it is broken).
fn settings_of_game(path: &Path) -> ludeme_analysis::config::Config {
    crate::project::settings_for(&[path.to_path_buf()], None)
        .map(|(settings, _)| settings)
        .unwrap_or_default()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProbeFormat {
    Human,
    Json,
}

/// The JSON report: the keys scripts rely on, then one per further metric.
#[derive(Serialize)]
struct Json<'a> {
    game: String,
    games: usize,
    completion: f64,
    drawishness: f64,
    timeouts: f64,
    balance: Option<f64>,
    first_move_advantage: Option<f64>,
    avg_length: f64,
    viable: bool,
    reasons: &'a [String],
    /// Set when the verdict rests on too few games: a sentence saying so.
    tentative: Option<&'a str>,
    length_spread: f64,
    duration: f64,
    branching_factor: f64,
    drama: f64,
    uncertainty: f64,
    lead_change: f64,
    decisiveness: f64,
    wins: BTreeMap<&'a str, usize>,
    draws: usize,
    seconds: f64,
    /// Every criterion of the probe by name (`null` when the games gave it nothing to
    /// measure), and the aesthetic score, their weighted sum.
    criteria: BTreeMap<&'static str, Option<f64>>,
    aesthetic_score: f64,
    /// Every game in order, with its lead history: the series the quality criteria are
    /// measured on, for scripts that draw or measure it themselves.
    lead_histories: Vec<GameJson<'a>>,
}

/// One game of the JSON report.
#[derive(Serialize)]
struct GameJson<'a> {
    /// Plies played, the random opening included.
    length: usize,
    /// The winning role's name; `null` for a draw.
    winner: Option<&'a str>,
    /// Abandoned as a draw (at the length limit, or because the game could not go on).
    abandoned: bool,
    /// The ply (from 1) after which the first estimates were taken.
    first_measured_ply: usize,
    /// After each searched ply, every role's estimate of its position, 0..1, in role order.
    estimates: &'a [Vec<f64>],
}

fn fail(path: &Path, message: impl std::fmt::Display) -> u8 {
    eprintln!("ludeme probe: {}: {message}", path.display());
    exit::FAILURE
}

pub fn run(args: &ProbeArgs) -> u8 {
    let corpus = args.paths.len() > 1
        || args.paths.iter().any(|path| path.is_dir())
        || args.partition.is_some()
        || args.out.is_some();
    if corpus {
        return run_corpus(args);
    }
    let path = &args.paths[0];
    if let Some(problem) = args.self_play.problem() {
        return fail(path, problem);
    }
    let shown_criteria = match args.criteria.as_deref().map(chosen_criteria).transpose() {
        Ok(shown) => shown,
        Err(message) => return fail(path, message),
    };
    // The first Ctrl-C stops the probe at once; the games finished by then are reported.
    interrupt::stop_at_first_interrupt();
    let (report, settings) = match probe_game(path, &args.self_play, true) {
        Ok(probed) => probed,
        Err(message) => return fail(path, message),
    };
    if let Some(folder) = &args.plots
        && let Err(message) = write_plots(folder, &report, &settings)
    {
        return fail(path, message);
    }
    if args.format == ProbeFormat::Json {
        match serde_json::to_string_pretty(&json_report(path, &report)) {
            Ok(text) => println!("{text}"),
            Err(error) => return fail(path, format!("cannot write the report: {error}")),
        }
    } else {
        print_human(path, &report);
        if let Some(shown) = shown_criteria {
            print_criteria(&report, &shown);
        }
    }
    if interrupt::interrupted() {
        return fail(
            path,
            format!(
                "stopped (Ctrl-C) after {} of {} games; the report covers those",
                report.games, settings.games
            ),
        );
    }
    exit::CLEAN
}

/// The probe of the game at `path` as `self_play` says, and the settings it was played with;
/// `bars` shows the reading spinner and the games bar.
fn probe_game(
    path: &Path,
    self_play: &SelfPlayArgs,
    bars: bool,
) -> Result<(ProbeReport, ProbeSettings), String> {
    // The time limit counts from here, before the game is read: reading, setting up and
    // playing share it. It is CPU time, as the engines count it, so that where a game stops
    // does not depend on the machine's load (over a corpus every core is busy).
    let started_cpu = CpuInstant::now();
    let reading = bars.then(|| Progress::spinner(format!("reading {}", path.display())));
    let (analysis, file) = open_game(path, KnownGames::FromSettings)?;
    let time_limit = Duration::from_secs_f64(self_play.seconds_for(path));
    // No new game starts once the time limit has passed; a game under way, and a question of
    // the engine that never ends, stop at twice the limit.
    let options = EngineOptions {
        deadline: Some(started_cpu.deadline(time_limit * 2)),
        interpreter: false,
    };
    let game = match analysis.playable(file, &options) {
        Ok(Ok(game)) => game,
        Ok(Err(message)) => return Err(message),
        Err(_) => return Err("cancelled".to_owned()),
    };
    drop(reading);
    let settings = ProbeSettings {
        games: self_play.games,
        seed: self_play.seed,
        random_plies: self_play.random_plies,
        nodes_per_move: self_play
            .move_nodes
            .unwrap_or_else(|| game.default_probe_nodes()),
        time_limit: Some(time_limit.saturating_sub(started_cpu.elapsed())),
        stop: Some(interrupt::stop_flag()),
        ..ProbeSettings::default()
    };
    let report = if bars {
        let progress = games_progress(path, self_play.games);
        game.probe_with_progress(&settings, &mut |done| progress.set_position(done as u64))
    } else {
        game.probe(&settings)
    };
    Ok((report, settings))
}

/// The JSON report of the probe of the game at `path`.
fn json_report<'a>(path: &Path, report: &'a ProbeReport) -> Json<'a> {
    Json {
        game: path.display().to_string(),
        games: report.games,
        completion: report.completion,
        drawishness: report.drawishness,
        timeouts: report.timeouts,
        balance: report.balance,
        first_move_advantage: report.first_move_advantage,
        avg_length: report.avg_length,
        viable: report.verdict.viable,
        reasons: &report.verdict.reasons,
        tentative: report.verdict.tentative.as_deref(),
        length_spread: report.length_spread,
        duration: report.duration,
        branching_factor: report.branching_factor,
        drama: report.drama,
        uncertainty: report.uncertainty,
        lead_change: report.lead_change,
        decisiveness: report.decisiveness,
        wins: report
            .roles
            .iter()
            .map(String::as_str)
            .zip(report.wins.iter().copied())
            .collect(),
        draws: report.draws,
        seconds: report.seconds,
        criteria: report
            .criteria
            .iter()
            .map(|criterion| (criterion.name, criterion.value))
            .collect(),
        aesthetic_score: aesthetic_score(report),
        lead_histories: report
            .histories
            .iter()
            .map(|history| GameJson {
                length: history.length,
                winner: history
                    .winner
                    .and_then(|winner| report.roles.get(winner))
                    .map(String::as_str),
                abandoned: history.abandoned,
                first_measured_ply: history.first_measured_ply,
                estimates: &history.estimates,
            })
            .collect(),
    }
}

/// One line of the JSON Lines of a corpus: a game's place among the corpus's games sorted by
/// path (from 1), their number, its report or why it could not be probed, what of its own
/// `ludeme.toml` decided it, and the options it was probed with.
#[derive(Serialize)]
struct CorpusRecord<'a> {
    index: usize,
    of: usize,
    #[serde(flatten)]
    outcome: Outcome<'a>,
    /// The time limit in force for this game, in seconds: `--time-limit`, else its
    /// `ludeme.toml`'s. Outside `settings`: games of one corpus may have different
    /// `ludeme.toml`s, so it may differ between the lines of one run.
    time_limit: f64,
    /// A fingerprint of the rule selection this game was read under (`[rules]` of its
    /// `ludeme.toml`), which decides whether the engines refuse it, in hexadecimal; outside
    /// `settings` for the same reason.
    rules: String,
    settings: ProbedWith,
}

/// The options that decide a game's report, on every line of a corpus alike, so that `ludeme
/// merge` refuses lines of partitions probed differently (`move_nodes` and `time_limit`
/// `None`: not given, and each game's default applied).
#[derive(Serialize)]
struct ProbedWith {
    games: usize,
    seed: u64,
    random_plies: usize,
    move_nodes: Option<u64>,
    time_limit: Option<f64>,
}

impl SelfPlayArgs {
    fn recorded(&self) -> ProbedWith {
        ProbedWith {
            games: self.games,
            seed: self.seed,
            random_plies: self.random_plies,
            move_nodes: self.move_nodes,
            time_limit: self.time_limit,
        }
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum Outcome<'a> {
    Probed(Box<Json<'a>>),
    Failed { game: String, error: String },
}

/// What the summary of a corpus and `ludeme merge` read of a game's line (the rest of the line
/// is copied as it is).
#[derive(Deserialize)]
pub struct GameLine {
    index: usize,
    of: usize,
    game: String,
    #[serde(default)]
    viable: Option<bool>,
    #[serde(default)]
    games: Option<usize>,
    #[serde(default)]
    aesthetic_score: Option<f64>,
    #[serde(default)]
    error: Option<String>,
}

/// The line of the game at `path`, the `index`th of `of`. `None` when Ctrl-C stopped the
/// game's probe part-way (fewer games than asked): a partial report is not written.
fn corpus_line(index: usize, of: usize, path: &Path, self_play: &SelfPlayArgs) -> Option<String> {
    let game = path.display().to_string();
    let in_force = settings_of_game(path);
    let time_limit = self_play.time_limit.unwrap_or(in_force.probe.seconds);
    // Hexadecimal: JSON numbers stop at 64 bits.
    let rules = format!("{:032x}", in_force.rules.fingerprint());
    let line = |outcome| {
        serde_json::to_string(&CorpusRecord {
            index,
            of,
            outcome,
            time_limit,
            rules: rules.clone(),
            settings: self_play.recorded(),
        })
    };
    let failed = |error: String| {
        line(Outcome::Failed {
            game: game.clone(),
            error,
        })
    };
    // A panic (a bug in an engine) costs this game's line, not the rest of the corpus.
    let probed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        probe_game(path, self_play, false)
    }))
    .unwrap_or_else(|panic| {
        Err(format!(
            "the probe panicked ({}): this is a bug in ludeme, please report it",
            ludeme_analysis::panic_message(&*panic)
        ))
    });
    if let Ok((report, settings)) = &probed
        && report.games < settings.games
        && interrupt::interrupted()
    {
        return None;
    }
    let written = match probed {
        Ok((report, _)) => line(Outcome::Probed(Box::new(json_report(path, &report))))
            .or_else(|error| failed(format!("cannot write the report: {error}"))),
        Err(error) => failed(error),
    };
    // Only a report can fail to serialise, and its failure is then written instead.
    Some(written.unwrap_or_default())
}

/// The lines of a corpus's games, written in the corpus's order as they end (a game that ends
/// before an earlier one waits for it), each flushed, so that what a stopped run leaves is
/// whole lines.
struct CorpusLines {
    writer: Option<Box<dyn Write + Send>>,
    next: usize,
    waiting: BTreeMap<usize, String>,
    written: Vec<String>,
    error: Option<String>,
}

impl CorpusLines {
    /// The line of this process's `slot`th game.
    fn add(&mut self, slot: usize, line: String) {
        self.waiting.insert(slot, line);
        while let Some(line) = self.waiting.remove(&self.next) {
            self.write(line);
            self.next += 1;
        }
    }

    /// Writes the lines still waiting for an earlier game that was never started (stopped).
    fn finish(&mut self) {
        for line in std::mem::take(&mut self.waiting).into_values() {
            self.write(line);
        }
    }

    fn write(&mut self, line: String) {
        if let Some(writer) = &mut self.writer
            && self.error.is_none()
            && let Err(error) = writeln!(writer, "{line}").and_then(|()| writer.flush())
        {
            self.error = Some(format!("cannot write the records: {error}"));
        }
        self.written.push(line);
    }
}

fn run_corpus(args: &ProbeArgs) -> u8 {
    let fail = |message: String| {
        eprintln!("ludeme probe: {message}");
        exit::FAILURE
    };
    if let Some(problem) = args.self_play.problem() {
        return fail(problem.to_owned());
    }
    if args.plots.is_some() || args.criteria.is_some() {
        return fail(
            "--plots and --criteria show one game: give one game file (over a corpus, each \
             game's JSON line holds every criterion)"
                .to_owned(),
        );
    }
    let (games, problems) = collect_game_files(&args.paths);
    if let Some(problem) = problems.first() {
        return fail(format!("{}: {}", problem.path.display(), problem.message));
    }
    let partition = args.partition.unwrap_or(Partition::WHOLE);
    let of = games.len();
    let mine: Vec<(usize, &PathBuf)> = (1..)
        .zip(&games)
        .filter(|&(index, _)| partition.has(index))
        .collect();
    let records_to_stdout = args.out.is_none() && args.format == ProbeFormat::Json;
    let writer: Option<Box<dyn Write + Send>> = match &args.out {
        Some(file) => match File::create(file) {
            Ok(created) => Some(Box::new(BufWriter::new(created))),
            Err(error) => return fail(format!("cannot write {}: {error}", file.display())),
        },
        None if records_to_stdout => Some(Box::new(std::io::stdout())),
        None => None,
    };
    let lines = Mutex::new(CorpusLines {
        writer,
        next: 0,
        waiting: BTreeMap::new(),
        written: Vec::new(),
        error: None,
    });
    interrupt::stop_at_first_interrupt();
    {
        let progress = Progress::rate_bar("probing", mine.len() as u64, "games");
        mine.par_iter()
            .enumerate()
            .for_each(|(slot, &(index, path))| {
                if interrupt::interrupted() {
                    return;
                }
                let Some(line) = corpus_line(index, of, path, &args.self_play) else {
                    return;
                };
                if let Some(name) = path.file_name() {
                    progress.set_message(format!("last: {}", name.to_string_lossy()));
                }
                progress.advance(1);
                let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
                lines.add(slot, line);
            });
    }
    let mut lines = lines.into_inner().unwrap_or_else(|e| e.into_inner());
    lines.finish();
    if let Some(message) = lines.error {
        return fail(message);
    }
    let read: Result<Vec<GameLine>, _> = lines
        .written
        .iter()
        .map(|line| serde_json::from_str(line))
        .collect();
    let read = match read {
        Ok(read) => read,
        Err(error) => return fail(format!("a record cannot be read back: {error}")),
    };
    if !records_to_stdout {
        let share = if partition == Partition::WHOLE {
            String::new()
        } else {
            format!(" (partition {}/{})", partition.index, partition.count)
        };
        let into = args
            .out
            .as_ref()
            .map_or(String::new(), |out| format!(" into {}", out.display()));
        println!("{} of the {of} games probed{share}{into}", read.len());
        print_corpus(read.iter());
    }
    if read.len() < mine.len() {
        return fail(format!(
            "stopped (Ctrl-C) after {} of this run's {} games; the lines written are whole",
            read.len(),
            mine.len()
        ));
    }
    // As `check` exits 1 on errors: every line is written, but a job depending on the run's
    // success (SLURM's `afterok`) should know that some games were not probed.
    let not_probed = read.iter().filter(|line| line.error.is_some()).count();
    if not_probed > 0 {
        eprintln!(
            "ludeme probe: {not_probed} of the {} games could not be probed (their lines say why)",
            read.len()
        );
        return exit::PROBLEMS_FOUND;
    }
    exit::CLEAN
}

/// The summary of a corpus's probe, one line per game in order, and the count of each verdict.
pub fn print_corpus<'a>(lines: impl Iterator<Item = &'a GameLine>) {
    let (mut viable, mut not_viable, mut failed) = (0, 0, 0);
    println!("  {:<10}  {:>6}  {:>5}  game", "verdict", "score", "games");
    for line in lines {
        match (&line.error, line.viable) {
            (Some(error), _) => {
                failed += 1;
                println!(
                    "  {:<10}  {:>6}  {:>5}  {}: {error}",
                    "not probed", "-", "-", line.game
                );
            }
            (None, viable_game) => {
                let verdict = if viable_game == Some(true) {
                    viable += 1;
                    "viable"
                } else {
                    not_viable += 1;
                    "not viable"
                };
                let score = line
                    .aesthetic_score
                    .map_or("-".to_owned(), |score| format!("{score:.3}"));
                let games = line.games.map_or("-".to_owned(), |games| games.to_string());
                println!("  {verdict:<10}  {score:>6}  {games:>5}  {}", line.game);
            }
        }
    }
    println!("{viable} viable, {not_viable} not viable, {failed} not probed");
}

/// The games' lines of the partitions in the corpus's order, refusing a game recorded twice,
/// a game missing, and lines of different corpora.
pub fn merged_games(lines: Vec<Line<GameLine>>) -> Result<Vec<Line<GameLine>>, String> {
    let Some(first) = lines.first() else {
        return Ok(lines);
    };
    let (of, first_at) = (first.record.of, first.at.clone());
    for Line { record, at, .. } in &lines {
        if record.of != of {
            return Err(format!(
                "{at}: a game of a corpus of {} games, but {first_at} is of {of}: \
                 records of different probes?",
                record.of
            ));
        }
        if record.index == 0 || record.index > of {
            return Err(format!("{at}: game {} of {of} cannot be", record.index));
        }
    }
    let lines = sorted_once(
        lines,
        |record| record.index,
        |record| format!("game {} ({})", record.index, record.game),
    )?;
    for pair in lines.windows(2) {
        // Compared as paths, as the corpus was sorted (folder by folder: `hex/` before
        // `hex-7x7.ludi`, which a comparison of the texts puts the other way round).
        if Path::new(&pair[0].record.game) >= Path::new(&pair[1].record.game) {
            return Err(format!(
                "{}: {} is game {} but {} is game {} ({}): records of different probes?",
                pair[1].at,
                pair[1].record.game,
                pair[1].record.index,
                pair[0].record.game,
                pair[0].record.index,
                pair[0].at
            ));
        }
    }
    if let Some(missing) = (1..=of).find(|&index| {
        lines
            .get(index - 1)
            .is_none_or(|line| line.record.index != index)
    }) {
        return Err(format!(
            "game {missing} of {of} is missing (did every partition finish, and is every one \
             given?)"
        ));
    }
    Ok(lines)
}

fn print_human(path: &Path, report: &ProbeReport) {
    let percent = |share: f64| format!("{:.0} %", share * 100.0);
    let verdict = if report.verdict.viable {
        "viable"
    } else {
        "not viable"
    };
    println!(
        "{}: {verdict} ({} games of self-play in {:.1} s)",
        path.display(),
        report.games,
        report.seconds
    );
    if let Some(tentative) = &report.verdict.tentative {
        println!("  ({tentative})");
    }
    for reason in &report.verdict.reasons {
        println!("  - {reason}");
    }
    println!("  wins: {}, draws {}", report.wins_listed(), report.draws);
    println!(
        "  completion {}, drawishness {}, timeouts {}",
        percent(report.completion),
        percent(report.drawishness),
        percent(report.timeouts)
    );
    let optional = |value: Option<f64>| value.map_or("n/a".to_owned(), |v| format!("{v:.2}"));
    println!(
        "  balance {}, first-move advantage {}",
        optional(report.balance),
        optional(report.first_move_advantage)
    );
    println!(
        "  length {:.1} ± {:.1} plies (duration {:.2}), branching factor {:.1}",
        report.avg_length, report.length_spread, report.duration, report.branching_factor
    );
    println!(
        "  drama {:.2}, uncertainty {:.2}, lead change {:.2}, decisiveness {:.2}",
        report.drama, report.uncertainty, report.lead_change, report.decisiveness
    );
}

/// The criteria `--criteria` names: `all`, or names separated by commas.
fn chosen_criteria(names: &str) -> Result<Vec<&'static Criterion>, String> {
    if names.trim() == "all" {
        return Ok(CRITERIA.iter().collect());
    }
    names
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            criterion_named(name).ok_or_else(|| {
                let known: Vec<&str> = CRITERIA.iter().map(|c| c.name).collect();
                format!(
                    "--criteria: `{name}` is not a criterion (all, or some of: {})",
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// The criteria `shown`, one a line with their value, meaning and source, and the aesthetic
/// score.
fn print_criteria(report: &ProbeReport, shown: &[&Criterion]) {
    println!("  criteria:");
    let width = shown.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for criterion in shown {
        let value = report
            .criteria
            .iter()
            .find(|measured| measured.name == criterion.name)
            .and_then(|measured| measured.value)
            .map_or("n/a".to_owned(), |v| format!("{v:.3}"));
        println!(
            "    {:width$}  {value:>7}  {} [{}; {}]",
            criterion.name,
            criterion.meaning,
            criterion.category.name(),
            criterion.source
        );
    }
    println!("  aesthetic score {:.3}", aesthetic_score(report));
}

/// The bar of a probe of `games` games of the game at `path`.
pub fn games_progress(path: &Path, games: usize) -> Progress {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    Progress::bar(format!("probing {name}"), games as u64, "games")
}

/// Writes the probe's plots into `folder`: each game's lead history, the outcomes and the
/// lengths.
fn write_plots(
    folder: &Path,
    report: &ProbeReport,
    settings: &ProbeSettings,
) -> Result<(), String> {
    std::fs::create_dir_all(folder)
        .map_err(|error| format!("cannot make {}: {error}", folder.display()))?;
    let mut plots = vec![
        ("outcomes.svg".to_owned(), outcomes_svg(report)),
        (
            "lengths.svg".to_owned(),
            game_lengths_svg(report, settings.max_length),
        ),
    ];
    // Numbered with enough digits that the files sort in playing order.
    let digits = report.histories.len().to_string().len().max(3);
    plots.extend((0..report.histories.len()).map(|game| {
        (
            format!("lead-history-{:0digits$}.svg", game + 1),
            lead_history_svg(report, game),
        )
    }));
    for (name, plot) in plots {
        let svg = plot.map_err(|error| format!("{name}: {error}"))?;
        let target = folder.join(&name);
        std::fs::write(&target, svg)
            .map_err(|error| format!("cannot write {}: {error}", target.display()))?;
    }
    Ok(())
}

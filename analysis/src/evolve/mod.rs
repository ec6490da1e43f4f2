//! The synthesis module (Browne & Maire 2010, §V): new Ludi games bred from known ones.
//!
//! A population is initialised with given games, each judged as a child would be. Each
//! iteration chooses two parents by stochastic universal sampling over the population (sorted by
//! aesthetic score), crosses their ludeme trees with one as the template and mutates the child
//! ([`breed`]), names it ([`names`]), and judges it in stages, culling at the first it fails:
//!
//! 1. *unchanged*: the child's rules are those of a member of the population;
//! 2. *rule safety*: `ludeme check` finds an error in it (the checker of the analysis facade,
//!    the same diagnostics as the command) — such a child is never written;
//! 3. *engine*: the Ludi engine refuses to build it;
//! 4. *policy choice*: the child's default advisor policy and its parents' play a short round
//!    robin on the child's rules ([`policy`]); the best is kept and the probe plays with it,
//!    and the child is culled when more than half the games have no winner (as the paper's);
//! 5. *too slow*: the round robin and the probe's self-play together do not finish their games
//!    within the child's CPU budget (the paper's speed test);
//! 6. *inbred*: its ludeme-tree distance to some member is at most the minimum distance.
//!
//! Survivors are scored by the aesthetic score of their probe and return to the population in
//! score order; all are kept, viable or not (the paper's "emergence": flawed rules are
//! recessive genes). The paper's later optimisation of the viable children's policies by a
//! (1 + 1) evolution strategy is not done.
//!
//! Work is split into independent *runs* (the paper's "number of evolutionary runs ... on three
//! machines"), each from the same initial population with its own random stream: a run's
//! children depend only on the seed and the run's number, so runs may be spread over machines
//! ([`Partition`]) and the union of the partitions is the whole run. Within a machine the
//! command line runs them in parallel.

pub mod breed;
pub mod genome;
pub mod names;
pub mod policy;
pub mod variants;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ludeme_engine::ludi::LudiGame;
use ludeme_engine::ludi::advisors::Advisors;

use rand::RngExt;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::{Deserialize, Serialize};

use crate::aesthetic::AestheticWeights;
use crate::config::Config;
use crate::distance::{LudemeTree, distance, ludeme_tree};
use crate::play::{EngineOptions, PlayableGame, ProbeSettings};
use crate::{AnalysisHost, Change, CpuDeadline, CpuInstant, DiagnosticDepth, Severity, Syntax};
use genome::{Gene, GenePool};
use names::NameMaker;
use policy::{Contender, DEFAULT_POLICY, Halted, PolicyChoice, RoundRobin};

/// How an evolution is run.
#[derive(Clone, Debug)]
pub struct EvolveSettings {
    pub seed: u64,
    /// Children bred in all, over every run.
    pub children: usize,
    /// Independent runs the children are shared between.
    pub runs: usize,
    /// The probe of each child (and of each initial game): its games, states per move and
    /// seed; `time_limit` is the child's CPU budget, the speed test.
    pub probe: ProbeSettings,
    /// Children at most this ludeme-tree distance from a member are culled as inbred.
    pub min_distance: f64,
    pub weights: AestheticWeights,
    /// When set, each run stops before its next child (or inside a child's round robin, which
    /// is then not recorded): the editor's cancel.
    pub stop: Option<Arc<AtomicBool>>,
    /// The CPU time a run may take: no child's work goes past it, and a child it cuts short is
    /// not recorded (the editor's budget; the command line breeds every child it is asked for).
    pub run_budget: Option<Duration>,
    /// The project's settings (its `ludeme.toml`): rule safety culls a child for what the
    /// project's rule selection and severities make an error, as `ludeme check` and the
    /// editor report it.
    pub project: Arc<Config>,
}

impl EvolveSettings {
    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }
}

impl Default for EvolveSettings {
    fn default() -> Self {
        EvolveSettings {
            seed: 0,
            children: 100,
            runs: 1,
            probe: ProbeSettings {
                games: 10,
                nodes_per_move: 60,
                time_per_move: Duration::from_secs(5),
                time_limit: Some(Duration::from_secs(4)),
                ..ProbeSettings::default()
            },
            min_distance: 0.02,
            weights: AestheticWeights::default(),
            stop: None,
            run_budget: None,
            project: Arc::new(Config::default()),
        }
    }
}

/// The share of the runs one process does: `K/N` takes the runs whose number is K modulo N
/// (cargo-nextest's `--partition count:K/N` naming), so that N processes together do them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    pub index: usize,
    pub count: usize,
}

impl Partition {
    pub const WHOLE: Partition = Partition { index: 1, count: 1 };

    /// `K/N` with 1 ≤ K ≤ N.
    pub fn parse(text: &str) -> Result<Partition, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("`{text}` is not K/N (such as 1/4)"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("`{text}` is not K/N: `{part}` is not a whole number"))
        };
        let (index, count) = (number(k)?, number(n)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("`{text}`: K/N needs 1 ≤ K ≤ N"));
        }
        Ok(Partition { index, count })
    }

    /// Whether run `run` (counted from 1) is this partition's.
    pub fn has(self, run: usize) -> bool {
        (run - 1) % self.count == self.index - 1
    }
}

/// A game the population starts from.
#[derive(Clone, Debug)]
pub struct SourceGame {
    /// Where it was read from, for messages.
    pub path: PathBuf,
    pub text: String,
}

impl SourceGame {
    /// A fingerprint of the games `sources`: their file names and texts, sorted, not their
    /// paths (the same games have other paths on another machine), for a record of the
    /// children they were bred into. The same on every machine.
    pub fn fingerprint(sources: &[SourceGame]) -> u128 {
        let mut named: Vec<(String, &str)> = sources
            .iter()
            .map(|source| {
                let name = source.path.file_name().unwrap_or_default();
                (name.to_string_lossy().into_owned(), source.text.as_str())
            })
            .collect();
        named.sort_unstable();
        // Lengths as little-endian u64s, not through `Hash` (which writes a `usize` in the
        // machine's width and byte order), so that 32-bit and big-endian machines agree.
        use std::hash::Hasher as _;
        let mut hasher = siphasher::sip128::SipHasher13::new();
        for (name, text) in &named {
            for bytes in [name.as_bytes(), text.as_bytes()] {
                hasher.write(&(bytes.len() as u64).to_le_bytes());
                hasher.write(bytes);
            }
        }
        siphasher::sip128::Hasher128::finish128(&hasher).as_u128()
    }
}

/// The stage a child reached: kept, or the stage that culled it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Unchanged,
    RuleSafety,
    Engine,
    PolicyChoice,
    TooSlow,
    Inbred,
    Kept,
}

impl Stage {
    pub const ALL: [Stage; 7] = [
        Stage::Unchanged,
        Stage::RuleSafety,
        Stage::Engine,
        Stage::PolicyChoice,
        Stage::TooSlow,
        Stage::Inbred,
        Stage::Kept,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            Stage::Unchanged => "unchanged (the rules of a member)",
            Stage::RuleSafety => "rule safety (ludeme check found an error)",
            Stage::Engine => "engine (the Ludi engine refused it)",
            Stage::PolicyChoice => "policy choice (most round-robin games without a winner)",
            Stage::TooSlow => "too slow (self-play over the CPU budget)",
            Stage::Inbred => "inbred (too close to a member)",
            Stage::Kept => "kept",
        }
    }
}

/// What became of one child: one line of the JSON Lines record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChildRecord {
    /// The run (from 1) and the child's number in it (from 1).
    pub run: usize,
    pub child: usize,
    pub name: String,
    /// One more than its older parent's (the initial games are generation 0).
    pub generation: usize,
    /// The template parent, then the other, and their scores when the child was bred.
    pub parents: [String; 2],
    pub parent_scores: [f64; 2],
    /// Elements crossed in from the other parent, and mutations made.
    pub crossed: usize,
    pub mutations: usize,
    pub stage: Stage,
    /// Why it was culled (the first error, the engine's refusal, ...).
    pub reason: Option<String>,
    pub score: Option<f64>,
    pub viable: Option<bool>,
    /// Why the probe judged it not viable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The nearest member of the population when it was judged, and its distance.
    pub nearest: Option<String>,
    pub distance: Option<f64>,
    /// The round robin of the child's policy against its parents', when it got that far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicyChoice>,
    /// The file's text, for a kept child: its header (ancestry, score, verdict), then its rules.
    #[serde(skip)]
    pub text: Option<String>,
}

/// A member of the population.
#[derive(Clone, Debug)]
pub struct Member {
    pub name: String,
    pub gene: Gene,
    /// The rules with the name left out: what makes two members the same game.
    key: Gene,
    tree: LudemeTree,
    pub score: f64,
    pub viable: bool,
    pub generation: usize,
}

/// A judged game.
struct Judged {
    tree: LudemeTree,
    score: f64,
    viable: bool,
    reasons: Vec<String>,
    /// The policy choice of a child (the initial games keep their own policy).
    policy: Option<PolicyChoice>,
}

/// Why a game was culled: the stage, the reason, and the policy choice when it got that far.
struct Culled {
    stage: Stage,
    reason: String,
    policy: Option<PolicyChoice>,
}

impl Culled {
    fn at(stage: Stage, reason: String) -> Self {
        Culled {
            stage,
            reason,
            policy: None,
        }
    }
}

/// Judges games on one analysis host: each under the same virtual path, replaced each time
/// (and a second path for the hybrids of the policy choice).
struct Judge<'s> {
    host: AnalysisHost,
    key: PathBuf,
    hybrid_key: PathBuf,
    settings: &'s EvolveSettings,
    /// When the run's budget is spent: no child's work goes past it.
    run_deadline: Option<CpuDeadline>,
}

impl<'s> Judge<'s> {
    fn new(name: &str, settings: &'s EvolveSettings) -> Self {
        let mut host = AnalysisHost::new();
        let mut project = Change::new();
        project.set_settings(settings.project.clone());
        host.apply_change(project);
        Judge {
            host,
            key: PathBuf::from(format!("evolve/{name}.ludi")),
            hybrid_key: PathBuf::from(format!("evolve/{name}-policy.ludi")),
            settings,
            run_deadline: None,
        }
    }

    /// The rules of `text`, under `key`, checked (an error culls at rule safety) and built by
    /// the Ludi engine; with their ludeme tree.
    fn build(&mut self, key: &Path, text: &str) -> Result<(Box<LudiGame>, LudemeTree), Culled> {
        let mut change = Change::new();
        change.set_file(key.to_path_buf(), Syntax::Ludi, Arc::from(text), None);
        let file = self.host.apply_change(change).files[0];
        let analysis = self.host.snapshot();
        let cancelled = |_| Culled::at(Stage::RuleSafety, "cancelled".to_owned());
        let checked = analysis
            .check(file, &DiagnosticDepth::Full { simulation: None })
            .map_err(cancelled)?;
        if let Some(error) = checked
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
        {
            return Err(Culled::at(
                Stage::RuleSafety,
                format!("{}: {}", error.code, error.message),
            ));
        }
        let budget = self.child_budget();
        let options = EngineOptions {
            deadline: Some(CpuInstant::now().deadline(budget * 2)),
            interpreter: false,
        };
        let game = match analysis.playable(file, &options).map_err(cancelled)? {
            Ok(PlayableGame::Ludi(game)) => game,
            Ok(_) => return Err(Culled::at(Stage::Engine, "not a Ludi game".to_owned())),
            Err(refusal) => return Err(Culled::at(Stage::Engine, refusal)),
        };
        let tree = analysis
            .with_db(|db| ludeme_tree(db, file).clone())
            .map_err(cancelled)?;
        Ok((game, tree))
    }

    fn child_budget(&self) -> Duration {
        self.settings
            .probe
            .time_limit
            .unwrap_or(Duration::from_secs(60))
    }

    /// The rule-safety and engine stages, the policy choice between the child's policy and
    /// its `parents'` (none for an initial game), the speed test, then the score.
    /// The round robin and the probe share one CPU deadline: the child's budget, or what is
    /// left of the run's when that comes first.
    fn judge(&mut self, gene: &Gene, parents: &[(&str, &Gene)]) -> Result<Judged, Culled> {
        let child_deadline = CpuDeadline::after(self.child_budget());
        let deadline = self
            .run_deadline
            .map_or(child_deadline, |run| child_deadline.earlier(run));
        let (game, tree) = self.build(&self.key.clone(), &gene.to_text())?;
        let probe = &self.settings.probe;
        let own = Advisors::for_game(&game, probe.seed, probe.nodes_per_move);
        let (advisors, policy) = if parents.is_empty() {
            (Rc::new(own), None)
        } else {
            let mut contenders = vec![Contender {
                name: DEFAULT_POLICY.to_owned(),
                advisors: own,
            }];
            let mut left_out = Vec::new();
            for candidate in policy::candidates(gene, parents).into_iter().skip(1) {
                match self.build(&self.hybrid_key.clone(), &candidate.rules.to_text()) {
                    Ok((hybrid, _)) => contenders.push(Contender {
                        name: candidate.name,
                        advisors: Advisors::for_game(&hybrid, probe.seed, probe.nodes_per_move),
                    }),
                    Err(culled) => left_out.push(format!("{}: {}", candidate.name, culled.reason)),
                }
            }
            let round_robin = RoundRobin {
                probe,
                stop: self.settings.stop.clone(),
                deadline,
            };
            let (choice, advisors) = match round_robin.play(&game, contenders, left_out) {
                Ok(played) => played,
                Err(Halted::Stopped) => {
                    return Err(Culled::at(Stage::PolicyChoice, "stopped".to_owned()));
                }
                Err(Halted::OutOfTime) => {
                    return Err(Culled::at(
                        Stage::TooSlow,
                        format!(
                            "the policy round robin was over {:.1} CPU s",
                            self.child_budget().as_secs_f64()
                        ),
                    ));
                }
            };
            if choice.too_indecisive() {
                return Err(Culled {
                    stage: Stage::PolicyChoice,
                    reason: format!(
                        "{} of {} round-robin games without a winner",
                        choice.games - choice.decided,
                        choice.games
                    ),
                    policy: Some(choice),
                });
            }
            (advisors, Some(choice))
        };
        let probe = ProbeSettings {
            time_limit: Some(deadline.remaining()),
            // The stop flag ends the probe inside a move's search too.
            stop: self.settings.stop.clone(),
            ..probe.clone()
        };
        let report = ludeme_engine::probe::probe(&*game, &*advisors, &probe);
        if report.games < probe.games {
            return Err(Culled {
                stage: Stage::TooSlow,
                reason: format!(
                    "{} of {} self-play games in {:.1} CPU s",
                    report.games,
                    probe.games,
                    self.child_budget().as_secs_f64()
                ),
                policy,
            });
        }
        Ok(Judged {
            tree,
            score: self.settings.weights.score(&report),
            viable: report.verdict.viable,
            reasons: report.verdict.reasons,
            policy,
        })
    }
}

/// A source game as a member of the initial population: read, checked, played and scored as
/// a child is (with its own policy: it has no parents); or why it cannot be one.
pub fn judge_source(source: &SourceGame, settings: &EvolveSettings) -> Result<Member, String> {
    let fail = |why: String| format!("{}: {why}", source.path.display());
    let gene = Gene::read_game(&source.text)
        .ok_or_else(|| fail("not a Ludi game that reads without errors".to_owned()))?;
    let name = gene.game_name().unwrap_or("Game").to_owned();
    // The stop flag is read on each side of the probe (which it also stops part-way, leaving
    // fewer games than asked: a source judged so is not a member).
    let stopped = || fail("stopped".to_owned());
    if settings.stopped() {
        return Err(stopped());
    }
    let judged = Judge::new(&name, settings).judge(&gene, &[]);
    if settings.stopped() {
        return Err(stopped());
    }
    let judged =
        judged.map_err(|culled| fail(format!("{}: {}", culled.stage.describe(), culled.reason)))?;
    Ok(member(name, gene, judged, 0))
}

/// The initial population from its judged members, best first (equal scores keep their order).
pub fn sorted_population(mut members: Vec<Member>) -> Vec<Member> {
    members.sort_by(|a, b| b.score.total_cmp(&a.score));
    members
}

fn member(name: String, gene: Gene, judged: Judged, generation: usize) -> Member {
    let mut key = gene.clone();
    key.set_game_name("");
    Member {
        name,
        gene,
        key,
        tree: judged.tree,
        score: judged.score,
        viable: judged.viable,
        generation,
    }
}

/// The file names Windows reserves for devices (whatever the case or extension), lower case.
fn windows_device_names() -> impl Iterator<Item = String> {
    ["con", "prn", "aux", "nul"]
        .into_iter()
        .map(str::to_owned)
        .chain((1..=9).flat_map(|n| [format!("com{n}"), format!("lpt{n}")]))
}

impl ChildRecord {
    /// "viable", or "not viable: the reasons".
    pub fn verdict(&self) -> String {
        if self.viable == Some(true) {
            "viable".to_owned()
        } else {
            format!("not viable: {}", self.reasons.join("; "))
        }
    }
}

/// Whether the run started at `started` has spent its budget.
fn run_budget_spent(settings: &EvolveSettings, started: CpuInstant) -> bool {
    settings
        .run_budget
        .is_some_and(|budget| started.elapsed() >= budget)
}

/// How many children run `run` (from 1) of `runs` breeds, of `children` in all.
pub fn children_of_run(children: usize, runs: usize, run: usize) -> usize {
    children / runs + usize::from(run <= children % runs)
}

/// The runs `partition` does (numbered from 1), of `runs`.
pub fn runs_of(partition: Partition, runs: usize) -> Vec<usize> {
    (1..=runs.max(1))
        .filter(|&run| partition.has(run))
        .collect()
}

/// One run: its children, bred one after the other from the population as it grows.
pub fn evolve_run(
    population: &[Member],
    settings: &EvolveSettings,
    run: usize,
    on_child: &(dyn Fn(&ChildRecord) + Sync),
) -> Vec<ChildRecord> {
    // One stream per run, whatever the partition: SplitMix-style mixing of seed and run.
    let mut rng = SmallRng::seed_from_u64(
        settings
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(run as u64),
    );
    let mut population = population.to_vec();
    let pool = GenePool::new(population.iter().map(|m| &m.gene));
    let maker = NameMaker::default();
    let mut taken: BTreeSet<String> = population.iter().map(|m| m.name.to_lowercase()).collect();
    // A child's name names its file: none that Windows reserves for a device.
    taken.extend(windows_device_names());
    let mut judge = Judge::new(&format!("run-{run}"), settings);
    let mut records = Vec::new();
    let started = CpuInstant::now();
    judge.run_deadline = settings.run_budget.map(|budget| started.deadline(budget));
    let run_spent = || run_budget_spent(settings, started);
    for child in 1..=children_of_run(settings.children, settings.runs.max(1), run) {
        if population.is_empty() || run_spent() || settings.stopped() {
            break;
        }
        let fitness: Vec<f64> = population.iter().map(|m| m.score).collect();
        let (first, second) = breed::select_parents(&fitness, &mut rng);
        let (template, donor) = if rng.random_bool(0.5) {
            (first, second)
        } else {
            (second, first)
        };
        let (mut gene, crossed) = breed::crossover(
            &population[template].gene,
            &population[donor].gene,
            &mut rng,
        );
        let mutations = breed::mutate(&mut gene, &pool, &mut rng);
        // Every child's name is its own, kept or culled, so that the records name one child.
        let name = maker.name(&taken, &mut rng);
        taken.insert(name.to_lowercase());
        gene.set_game_name(&name);
        let mut record = ChildRecord {
            run,
            child,
            name: name.clone(),
            generation: 1 + population[template]
                .generation
                .max(population[donor].generation),
            parents: [
                population[template].name.clone(),
                population[donor].name.clone(),
            ],
            parent_scores: [population[template].score, population[donor].score],
            crossed,
            mutations,
            stage: Stage::Kept,
            reason: None,
            score: None,
            viable: None,
            reasons: Vec::new(),
            nearest: None,
            distance: None,
            policy: None,
            text: None,
        };
        let mut key = gene.clone();
        key.set_game_name("");
        if let Some(same) = population.iter().find(|m| m.key == key) {
            record.stage = Stage::Unchanged;
            record.reason = Some(format!("the rules of {}", same.name));
        } else {
            let parents = [
                (
                    population[template].name.as_str(),
                    &population[template].gene,
                ),
                (population[donor].name.as_str(), &population[donor].gene),
            ];
            match judge.judge(&gene, &parents) {
                // A child stopped half-way (by the stop flag or the run's budget) is not a
                // child: it is not recorded.
                Err(_) if settings.stopped() || run_spent() => break,
                Err(culled) => {
                    record.stage = culled.stage;
                    record.reason = Some(culled.reason);
                    record.policy = culled.policy;
                }
                Ok(judged) => {
                    let nearest = population
                        .iter()
                        .map(|m| (m, distance(&judged.tree, &m.tree)))
                        .min_by(|a, b| a.1.total_cmp(&b.1));
                    record.score = Some(judged.score);
                    record.viable = Some(judged.viable);
                    record.policy = judged.policy.clone();
                    record.reasons = judged.reasons.clone();
                    if let Some((near, d)) = nearest {
                        record.nearest = Some(near.name.clone());
                        record.distance = Some(d);
                    }
                    if nearest.is_some_and(|(_, d)| d <= settings.min_distance) {
                        record.stage = Stage::Inbred;
                        record.reason = Some(format!(
                            "at distance {:.3} from {}",
                            record.distance.unwrap_or(0.0),
                            record.nearest.as_deref().unwrap_or("")
                        ));
                    } else {
                        let rules = gene.to_text();
                        record.text = Some(header(&record, settings) + &rules);
                        let new = member(name, gene, judged, record.generation);
                        let at = population.partition_point(|m| m.score >= new.score);
                        population.insert(at, new);
                    }
                }
            }
        }
        on_child(&record);
        records.push(record);
    }
    records
}

/// The comment header of a kept child: its ancestry, score and verdict.
fn header(record: &ChildRecord, settings: &EvolveSettings) -> String {
    let mut lines = vec![
        format!(
            "{}: bred by `ludeme evolve` (seed {}, run {}, child {}, generation {})",
            record.name, settings.seed, record.run, record.child, record.generation
        ),
        format!(
            "parents: {} (template, score {:.3}) × {} (score {:.3}); {} elements crossed in, {} mutations",
            record.parents[0],
            record.parent_scores[0],
            record.parents[1],
            record.parent_scores[1],
            record.crossed,
            record.mutations
        ),
        format!(
            "aesthetic score {:.3}; {}",
            record.score.unwrap_or(0.0),
            record.verdict()
        ),
    ];
    if let Some(policy) = &record.policy {
        lines.push(policy.describe());
    }
    if let (Some(nearest), Some(d)) = (&record.nearest, record.distance) {
        lines.push(format!("nearest member: {nearest} at distance {d:.3}"));
    }
    lines
        .iter()
        .map(|line| format!("; {line}\n"))
        .collect::<String>()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same games in another folder and order have the same fingerprint; another text or
    /// name, another one.
    #[test]
    fn the_sources_fingerprint_names_the_games_not_where_they_are() {
        let game = |path: &str, text: &str| SourceGame {
            path: PathBuf::from(path),
            text: text.to_owned(),
        };
        let here = [game("/a/x.ludi", "one"), game("/a/y.ludi", "two")];
        let there = [game("/b/c/y.ludi", "two"), game("x.ludi", "one")];
        assert_eq!(
            SourceGame::fingerprint(&here),
            SourceGame::fingerprint(&there)
        );
        let edited = [game("/a/x.ludi", "one"), game("/a/y.ludi", "two!")];
        assert_ne!(
            SourceGame::fingerprint(&here),
            SourceGame::fingerprint(&edited)
        );
        let renamed = [game("/a/x.ludi", "one"), game("/a/z.ludi", "two")];
        assert_ne!(
            SourceGame::fingerprint(&here),
            SourceGame::fingerprint(&renamed)
        );
    }

    /// The fingerprint hashes, for each game in (file name, text) order, the file name's and
    /// then the text's length as a little-endian u64 followed by its bytes: a stream the same
    /// whatever the machine's width and byte order.
    #[test]
    fn the_sources_fingerprint_hashes_explicit_little_endian_lengths() {
        use std::hash::Hasher as _;
        let sources = [
            SourceGame {
                path: PathBuf::from("/b/y.ludi"),
                text: "two".to_owned(),
            },
            SourceGame {
                path: PathBuf::from("/a/x.ludi"),
                text: "one".to_owned(),
            },
        ];
        let mut stream = Vec::new();
        for part in ["x.ludi", "one", "y.ludi", "two"] {
            stream.extend_from_slice(&(part.len() as u64).to_le_bytes());
            stream.extend_from_slice(part.as_bytes());
        }
        let mut hasher = siphasher::sip128::SipHasher13::new();
        hasher.write(&stream);
        let expected = siphasher::sip128::Hasher128::finish128(&hasher).as_u128();
        assert_eq!(SourceGame::fingerprint(&sources), expected);
    }

    /// Four in a row on 6×6: the game's own policy (make lines) against a parent's that is the
    /// misère game's (avoid lines, so it builds none and blocks none beyond what its search
    /// sees): the child's own must win the round robin, and the choice is the same on a second
    /// judging.
    #[test]
    fn the_round_robin_keeps_the_policy_that_wins() {
        let game = |end: &str| {
            Gene::read_game(&format!(
                "(game T (players White Black) (board (tiling square) (size 6 6)) (end {end}))"
            ))
            .expect("a game")
        };
        let child = game("(All win (in-a-row 4))");
        let misere = game("(All lose (in-a-row 4))");
        let settings = EvolveSettings::default();
        let choice = |judge: &mut Judge| match judge.judge(&child, &[("Misere", &misere)]) {
            Ok(judged) => judged.policy,
            Err(culled) => culled.policy,
        };
        let mut judge = Judge::new("t", &settings);
        let first = choice(&mut judge).expect("a round robin was played");
        assert_eq!(first.chosen, DEFAULT_POLICY, "{first:?}");
        assert_eq!(first.games, 2);
        let own = &first.standings[0];
        let other = &first.standings[1];
        assert_eq!(
            (own.policy.as_str(), other.policy.as_str()),
            (DEFAULT_POLICY, "from Misere")
        );
        assert!(own.points > other.points, "{first:?}");
        assert_eq!(own.points + other.points, 2.0);
        assert_eq!(choice(&mut Judge::new("u", &settings)), Some(first));
    }

    #[test]
    fn a_parents_policy_that_names_what_the_child_lacks_is_left_out() {
        let child = Gene::read_game(
            "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))",
        )
        .expect("a game");
        let parent = Gene::read_game(
            "(game P (players White Black) (board (tiling square) (size 3 3) (regions (Goal All A1 B1))) (end (All win (reach Goal))))",
        )
        .expect("a game");
        let settings = EvolveSettings::default();
        let policy = match Judge::new("t", &settings).judge(&child, &[("P", &parent)]) {
            Ok(judged) => judged.policy,
            Err(culled) => culled.policy,
        }
        .expect("a round robin was played");
        assert_eq!(policy.standings.len(), 1, "{policy:?}");
        assert_eq!(policy.left_out.len(), 1, "{policy:?}");
        assert!(policy.left_out[0].starts_with("from P: "), "{policy:?}");
    }

    #[test]
    fn partitions_share_the_runs_out_between_them() {
        assert_eq!(
            Partition::parse("2/3"),
            Ok(Partition { index: 2, count: 3 })
        );
        for bad in ["0/3", "4/3", "1/0", "a/2", "2"] {
            assert!(Partition::parse(bad).is_err(), "{bad}");
        }
        // Every run in exactly one of the three partitions.
        for run in 1..=10 {
            let owners = (1..=3)
                .filter(|&k| Partition { index: k, count: 3 }.has(run))
                .count();
            assert_eq!(owners, 1, "run {run}");
        }
        assert_eq!(runs_of(Partition { index: 1, count: 2 }, 3), vec![1, 3]);
        // 10 children over 3 runs: 4, 3, 3.
        let shares: Vec<usize> = (1..=3).map(|run| children_of_run(10, 3, run)).collect();
        assert_eq!(shares, vec![4, 3, 3]);
    }
}

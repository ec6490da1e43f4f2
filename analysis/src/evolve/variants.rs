//! Variants of one game, for the editor's "Breed variants of this game": a short evolution whose
//! population starts from the game alone (its first children are its mutations; later ones
//! also cross the game with its kept children), under a CPU budget and a stop flag, whose best
//! kept children are written next to the game in a folder named after it, each with its
//! ancestry, score, verdict and policy in its header, and a table of their verdicts
//! (`verdicts.md`). A breeding never replaces or removes a file: a child whose name is taken
//! gets a number, and each breeding's table is added below the earlier ones.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{
    ChildRecord, EvolveSettings, SourceGame, Stage, evolve_run, judge_source, sorted_population,
};
use crate::config::Config;
use crate::play::ProbeSettings;

/// The table of the children written, in the folder beside them.
pub const VERDICTS_FILE: &str = "verdicts.md";

/// What to breed, and under which budget.
#[derive(Clone, Debug)]
pub struct VariantRequest {
    /// Children to breed (fewer when the budget runs out first).
    pub children: usize,
    /// How many of the best kept children are written.
    pub best: usize,
    /// The CPU time the breeding may take, the judging of the game itself aside.
    pub cpu_seconds: f64,
    /// Self-play games of each child's probe, and the CPU seconds they may take.
    pub games: usize,
    pub child_seconds: f64,
    /// Set from elsewhere to stop: nothing is written then.
    pub stop: Option<Arc<AtomicBool>>,
    /// The settings in force for the game's file (its project's `ludeme.toml`), which the
    /// children are checked with.
    pub project: Arc<Config>,
}

impl Default for VariantRequest {
    /// A minute of CPU for thirty children, the five best written: enough for a few kept
    /// children of a small game, short enough to wait for in an editor.
    fn default() -> Self {
        VariantRequest {
            children: 30,
            best: 5,
            cpu_seconds: 60.0,
            games: 6,
            child_seconds: 2.0,
            stop: None,
            project: Arc::new(Config::default()),
        }
    }
}

/// What a breeding did.
#[derive(Clone, Debug)]
pub struct Variants {
    /// The game's name.
    pub game: String,
    /// Where the children were written.
    pub folder: PathBuf,
    /// Every child bred, kept or culled, in order.
    pub records: Vec<ChildRecord>,
    /// The children written, best first, with their files.
    pub written: Vec<(ChildRecord, PathBuf)>,
    /// Children asked for.
    pub asked: usize,
}

/// The folder the variants of the game at `path` go to: `NAME-variants` beside it.
pub fn variants_folder(path: &Path) -> Option<PathBuf> {
    let stem = path.file_stem()?.to_string_lossy();
    Some(path.with_file_name(format!("{stem}-variants")))
}

/// Breeds variants of the game `text` read from `path` and writes the best next to it. An error
/// says why nothing was written: the game itself cannot be judged (it does not check, or its
/// self-play is over the budget), the breeding was stopped, or a file could not be written.
pub fn breed_variants(
    path: &Path,
    text: &str,
    request: &VariantRequest,
) -> Result<Variants, String> {
    let folder = variants_folder(path)
        .ok_or_else(|| format!("{} names no file to write beside", path.display()))?;
    let seconds = |what: &str, seconds: f64| {
        Duration::try_from_secs_f64(seconds)
            .map_err(|_| format!("{what} must be a finite number of seconds, not {seconds}"))
    };
    let settings = EvolveSettings {
        children: request.children.max(1),
        probe: ProbeSettings {
            games: request.games.max(1),
            time_limit: Some(seconds(
                "the CPU time of a child",
                request.child_seconds.max(0.1),
            )?),
            ..EvolveSettings::default().probe
        },
        stop: request.stop.clone(),
        project: request.project.clone(),
        run_budget: Some(seconds(
            "the CPU time of the breeding",
            request.cpu_seconds.max(0.0),
        )?),
        ..EvolveSettings::default()
    };
    let source = SourceGame {
        path: path.to_path_buf(),
        text: text.to_owned(),
    };
    let stopped = || "stopped before the breeding ended".to_owned();
    let game = judge_source(&source, &settings)
        .map_err(|why| if settings.stopped() { stopped() } else { why })?;
    let name = game.name.clone();
    let records = evolve_run(&sorted_population(vec![game]), &settings, 1, &|_| {});
    if settings.stopped() {
        return Err(stopped());
    }
    let mut kept: Vec<&ChildRecord> = records
        .iter()
        .filter(|record| record.stage == Stage::Kept && record.text.is_some())
        .collect();
    kept.sort_by(|a, b| {
        b.score
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&a.score.unwrap_or(f64::NEG_INFINITY))
    });
    let mut variants = Variants {
        game: name,
        folder,
        records: records.clone(),
        written: Vec::new(),
        asked: settings.children,
    };
    if !kept.is_empty() {
        std::fs::create_dir_all(&variants.folder)
            .map_err(|error| format!("cannot make {}: {error}", variants.folder.display()))?;
    }
    for record in kept.into_iter().take(request.best) {
        let text = record.text.as_deref().unwrap_or_default();
        let file = write_new_file(&variants.folder, &record.name, text)?;
        variants.written.push((record.clone(), file));
    }
    if !variants.written.is_empty() {
        let table = variants.folder.join(VERDICTS_FILE);
        // The tables of earlier breedings stay above this one's: their children are still in
        // the folder (nothing a breeding wrote is removed: the designer may have edited it).
        let earlier = std::fs::read_to_string(&table).unwrap_or_default();
        let joined = if earlier.trim().is_empty() {
            variants.markdown()
        } else {
            format!("{}\n\n{}", earlier.trim_end(), variants.markdown())
        };
        write_whole(&table, &joined)?;
    }
    Ok(variants)
}

/// Writes `text` as a new file `NAME.ludi` in `folder` (`NAME-2.ludi`, `NAME-3.ludi`, … when the
/// name is taken, by an earlier breeding or by the designer), whole or not at all: it is
/// written under a temporary name and linked into place, which fails rather than replace a
/// file that appeared meanwhile. Returns the file's path.
fn write_new_file(folder: &Path, name: &str, text: &str) -> Result<PathBuf, String> {
    let temporary = folder.join(format!(".{name}.ludi.partial"));
    let cleanup = |error: String| {
        let _ = std::fs::remove_file(&temporary);
        error
    };
    std::fs::write(&temporary, text)
        .map_err(|error| cleanup(format!("cannot write {}: {error}", temporary.display())))?;
    for number in 1..=1_000 {
        let file = match number {
            1 => folder.join(format!("{name}.ludi")),
            _ => folder.join(format!("{name}-{number}.ludi")),
        };
        match std::fs::hard_link(&temporary, &file) {
            Ok(()) => {
                let _ = std::fs::remove_file(&temporary);
                return Ok(file);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => {
                return Err(cleanup(format!("cannot write {}: {error}", file.display())));
            }
        }
    }
    Err(cleanup(format!(
        "cannot write {name}.ludi in {}: a thousand names like it are taken",
        folder.display()
    )))
}

/// Replaces `path` with `text` whole or not at all: written beside under a temporary name,
/// then renamed over it.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let file_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.partial"));
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|error| {
            let _ = std::fs::remove_file(&temporary);
            format!("cannot write {}: {error}", path.display())
        })
}

impl Variants {
    /// How many children each stage culled, in the stages' order, the kept last: "12 rule
    /// safety, 3 policy choice, 9 kept".
    pub fn stage_counts(&self) -> String {
        Stage::ALL
            .iter()
            .filter_map(|&stage| {
                let count = self.records.iter().filter(|r| r.stage == stage).count();
                let short = stage.describe().split(" (").next().unwrap_or_default();
                (count > 0).then(|| format!("{count} {short}"))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// One line for the editor: what was bred and written.
    pub fn headline(&self) -> String {
        if self.records.is_empty() {
            return format!(
                "Ludeme bred no variant of {}: the CPU budget was spent first",
                self.game
            );
        }
        let budget = if self.records.len() < self.asked {
            format!(
                " (the CPU budget allowed {} of {})",
                self.records.len(),
                self.asked
            )
        } else {
            String::new()
        };
        match self.written.first() {
            None => format!(
                "Ludeme bred {} variants of {}{budget}; none was kept ({})",
                self.records.len(),
                self.game,
                self.stage_counts()
            ),
            Some((best, _)) => format!(
                "Ludeme bred {} variants of {}{budget} and wrote the {} best to {}: the best is {} ({:.3}, {})",
                self.records.len(),
                self.game,
                self.written.len(),
                self.folder.display(),
                best.name,
                best.score.unwrap_or(0.0),
                best.verdict()
            ),
        }
    }

    /// The table of the children written, with their verdicts (the folder's `verdicts.md`).
    pub fn markdown(&self) -> String {
        let mut text = format!(
            "# Variants of {}\n\n{} children bred ({}); the {} best kept:\n\n",
            self.game,
            self.records.len(),
            self.stage_counts(),
            self.written.len()
        );
        text.push_str("| child | score | verdict | parents | policy |\n|---|---|---|---|---|\n");
        for (record, file) in &self.written {
            let file_name = file
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            text.push_str(&format!(
                "| [{}]({file_name}) | {:.3} | {} | {} × {} | {} |\n",
                record.name,
                record.score.unwrap_or(0.0),
                record.verdict(),
                record.parents[0],
                record.parents[1],
                record
                    .policy
                    .as_ref()
                    .map_or("default", |policy| policy.chosen.as_str())
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_named_after_the_game_beside_it() {
        assert_eq!(
            variants_folder(Path::new("/games/yavalath.ludi")),
            Some(PathBuf::from("/games/yavalath-variants"))
        );
        assert_eq!(variants_folder(Path::new("/")), None);
    }

    const TIC_TAC_TOE: &str = "(game Tic (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))";

    /// Nothing may be written in this folder: a breeding that tried would fail to make it.
    fn unwritable() -> PathBuf {
        PathBuf::from("/nonexistent-folder-of-the-variants-test/tic.ludi")
    }

    #[test]
    fn a_child_never_replaces_a_file_and_the_table_keeps_earlier_breedings() {
        let folder = std::env::temp_dir().join(format!("ludeme-variants-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("Ost.ludi"), "the designer's edit").unwrap();
        let written = write_new_file(&folder, "Ost", "(game Ost)").unwrap();
        assert_eq!(written, folder.join("Ost-2.ludi"));
        assert_eq!(
            std::fs::read_to_string(folder.join("Ost.ludi")).unwrap(),
            "the designer's edit"
        );
        assert_eq!(std::fs::read_to_string(&written).unwrap(), "(game Ost)");
        let table = folder.join(VERDICTS_FILE);
        write_whole(&table, "first").unwrap();
        write_whole(&table, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&table).unwrap(), "second");
        let mut left: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            ["Ost-2.ludi", "Ost.ludi", "verdicts.md"],
            "no partial file is left"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_stopped_breeding_writes_nothing() {
        let request = VariantRequest {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..VariantRequest::default()
        };
        let outcome = breed_variants(&unwritable(), TIC_TAC_TOE, &request);
        assert_eq!(
            outcome.map(|v| v.records.len()),
            Err("stopped before the breeding ended".to_owned())
        );
    }

    #[test]
    fn a_spent_budget_breeds_and_writes_nothing_and_says_so() {
        let request = VariantRequest {
            cpu_seconds: 0.0,
            ..VariantRequest::default()
        };
        let variants = breed_variants(&unwritable(), TIC_TAC_TOE, &request).expect("judged");
        assert!(variants.records.is_empty() && variants.written.is_empty());
        assert_eq!(
            variants.headline(),
            "Ludeme bred no variant of Tic: the CPU budget was spent first"
        );
    }

    /// The children are checked with the project's settings, not the defaults: a project whose
    /// `ludeme.toml` makes an impossible end condition an error has a game with one refused at
    /// rule safety, which the default settings (a warning) let through.
    #[test]
    fn the_judging_follows_the_projects_rule_severities() {
        let game = "(game Tic (players White Black) (board (tiling square) (size 3 3)) \
                    (end (All win (in-a-row 3)) (All win (in-a-row 4))))";
        let (project, problems) = crate::config::parse_config(
            Path::new("/project/ludeme.toml"),
            "[rules]\nseverity = { \"ludi/impossible-condition\" = \"error\" }\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let judged_only = VariantRequest {
            cpu_seconds: 0.0,
            ..VariantRequest::default()
        };
        assert!(breed_variants(&unwritable(), game, &judged_only).is_ok());
        let strict = VariantRequest {
            project: Arc::new(project),
            ..judged_only
        };
        let refused = breed_variants(&unwritable(), game, &strict).expect_err("refused");
        assert!(
            refused.contains("rule safety") && refused.contains("ludi/impossible-condition"),
            "{refused}"
        );
    }
}

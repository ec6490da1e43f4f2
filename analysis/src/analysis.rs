//! [`Analysis`]: a snapshot of the database with one method per feature, the only way the
//! front ends ask for analyses and engines.
//!
//! Every method runs under [`salsa::Cancelled::catch`]: a write to the host while it runs makes
//! it return `Err(Cancelled)` (the front end drops or retries the answer), never a stale one.
//! The methods choose by language, so that no front end has to: the command line and the
//! editor format, explain, play and diagnose every language alike.

use std::panic::AssertUnwindSafe;

use salsa::Cancelled;

use crate::config::Config;
use crate::egg::EggExplanation;
use crate::gdl::FormatError;
use crate::gdl::english::GameExplanation;
use crate::gdl::simulate::{Simulation, SimulationOptions};
use crate::ludi::LudiExplanation;
use crate::play::{EngineOptions, PlayableGame};
use crate::project::{NearestGames, duplicate_of_known_game, nearest_known_games};
use crate::{Db, Diagnostic, RootDatabase, Severity, SourceFile, Syntax, TextRange};

/// The answer of a query, or the news that a write cancelled it.
pub type Cancellable<T> = Result<T, Cancelled>;

/// How deep [`Analysis::diagnostics`] looks.
#[derive(Clone, Debug, PartialEq)]
pub enum DiagnosticDepth {
    /// What reading the file finds: syntax, lowering and the static checks. Fast enough for
    /// every keystroke: in a GDL file of megabytes the checks over the whole rule set are left
    /// to [`DiagnosticDepth::Full`] (see [`crate::quick_file_diagnostics`]).
    Static,
    /// Also a known game the file duplicates (`distance/duplicate`) and, with options, what
    /// random play finds (GDL games).
    Full {
        simulation: Option<SimulationOptions>,
    },
}

/// A game's rules in English, in its language's form.
pub enum Explanation<'db> {
    Gdl(&'db GameExplanation),
    Ludi(&'db LudiExplanation),
    Egg(&'db EggExplanation),
}

impl Explanation<'_> {
    /// Plain text wrapped at `width` columns.
    pub fn to_plain_text(&self, width: usize) -> String {
        match self {
            Explanation::Gdl(explanation) => explanation.to_plain_text(width),
            Explanation::Ludi(sheet) => sheet.to_plain_text(width),
            Explanation::Egg(sheet) => sheet.to_plain_text(width),
        }
    }

    /// Why there is nothing to explain, when there is not.
    pub fn emptiness(&self) -> Option<&'static str> {
        match self {
            Explanation::Ludi(sheet) if sheet.title.is_empty() => {
                Some("holds no `(game NAME ...)` to explain")
            }
            _ => None,
        }
    }
}

/// A snapshot of the analyses. Cheap to make ([`crate::AnalysisHost::snapshot`]), `Send`, and
/// cancelled by the host's next write.
#[derive(Clone)]
pub struct Analysis {
    db: RootDatabase,
}

impl Analysis {
    pub(crate) fn new(db: RootDatabase) -> Self {
        Self { db }
    }

    /// Runs `query` on this snapshot, catching the cancellation a write causes.
    pub fn with_db<T>(&self, query: impl FnOnce(&RootDatabase) -> T) -> Cancellable<T> {
        // A cancellation unwinds out of the query; nothing of this snapshot is used after it.
        let call = AssertUnwindSafe(move || query(&self.db));
        Cancelled::catch(call)
    }

    /// The database, for the editor features that take it directly (hover, completion, ...):
    /// they choose by language themselves, inside the analysis crate ([`crate::ide`]).
    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    pub fn text(&self, file: SourceFile) -> Cancellable<std::sync::Arc<str>> {
        self.with_db(|db| file.text(db).clone())
    }

    pub fn syntax(&self, file: SourceFile) -> Syntax {
        file.syntax(&self.db)
    }

    /// The rules of `file` as a GGP match sends them (prefix KIF, as written), or why it
    /// cannot be sent: the protocol carries KIF only.
    pub fn match_rules(
        &self,
        file: SourceFile,
    ) -> Cancellable<Result<std::sync::Arc<str>, String>> {
        self.with_db(|db| match file.syntax(db) {
            Syntax::GdlKif => Ok(file.text(db).clone()),
            _ => Err("a match sends the rules in prefix KIF: play a .kif game".to_owned()),
        })
    }

    /// The settings in force.
    pub fn settings(&self) -> Cancellable<std::sync::Arc<Config>> {
        self.with_db(|db| crate::project::settings(db))
    }

    /// Every diagnostic of `file` down to `depth`, with the rule selection and severities of
    /// the settings applied, sorted by position.
    pub fn diagnostics(
        &self,
        file: SourceFile,
        depth: &DiagnosticDepth,
    ) -> Cancellable<Vec<Diagnostic>> {
        self.check(file, depth).map(|checked| checked.diagnostics)
    }

    /// [`Analysis::diagnostics`], with the one-line summary of random play when it ran.
    pub fn check(&self, file: SourceFile, depth: &DiagnosticDepth) -> Cancellable<Checked> {
        self.with_db(|db| check(db, file, depth))
    }

    /// A fingerprint of everything [`Analysis::check`] of `file` at `depth` reads, for a cache
    /// of its results across runs (`ludeme check`'s): the file's path, syntax and text, the
    /// settings in force, the depth, and what the check reads from other files — the known
    /// games of the file's language (see [`crate::project::known_games_fingerprint`]) when
    /// `distance/duplicate` runs or the file is EGGG (whose `is like` names other games). Two
    /// runs with the same fingerprint and the same build give the same diagnostics; the caller
    /// adds which build. `None` when the result is not a function of these: random play is
    /// budgeted in CPU time, so what it finds varies from run to run.
    pub fn check_fingerprint(
        &self,
        file: SourceFile,
        depth: &DiagnosticDepth,
    ) -> Cancellable<Option<u128>> {
        self.with_db(|db| check_fingerprint(db, file, depth))
    }

    /// Whether the static diagnostics of `file` leave checks to the full ones (a large GDL
    /// file: [`crate::quick_file_diagnostics`]).
    pub fn defers_whole_file_checks(&self, file: SourceFile) -> Cancellable<bool> {
        self.with_db(|db| crate::is_large_gdl(db, file))
    }

    /// Whether `diagnostics` holds an error.
    pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
        diagnostics.iter().any(|d| d.severity == Severity::Error)
    }

    /// What random play found in the editor's small budget (GDL), shared by the diagnostics,
    /// the lens and the hovers.
    pub fn editor_simulation(&self, file: SourceFile) -> Cancellable<Option<Simulation>> {
        self.with_db(|db| {
            crate::gdl::simulate::lens_anchor(db, file)
                .map(|_| crate::gdl::simulate::editor_simulation(db, file).clone())
        })
    }

    /// The whole file in its canonical layout, or in `target` syntax (GDL converts between
    /// prefix KIF and infix). A file with syntax errors is not formatted: formatting never
    /// loses text.
    pub fn format(
        &self,
        file: SourceFile,
        target: Option<Syntax>,
    ) -> Cancellable<Result<String, FormatError>> {
        self.with_db(|db| {
            let syntax = file.syntax(db);
            let target = target.unwrap_or(syntax);
            let text = file.text(db);
            match syntax {
                Syntax::GdlKif | Syntax::GdlInfix => crate::gdl::format_gdl(db, file, target),
                Syntax::Ludi | Syntax::Egg if target != syntax => Err(FormatError::NotGdl),
                Syntax::Ludi => {
                    crate::ludi::format::format_ludi(text).ok_or_else(|| syntax_errors(db, file))
                }
                Syntax::Egg => {
                    crate::egg::format::format_egg(text).ok_or_else(|| syntax_errors(db, file))
                }
            }
        })
    }

    /// The top-level forms `range` touches, formatted: the span they cover and its new text,
    /// or `None` when nothing changes or the file does not format.
    pub fn format_range(
        &self,
        file: SourceFile,
        range: TextRange,
    ) -> Cancellable<Option<(TextRange, String)>> {
        self.with_db(|db| {
            let text = file.text(db);
            match file.syntax(db) {
                Syntax::Ludi => crate::ludi::format::format_ludi_range(text, range),
                Syntax::Egg => crate::egg::format::format_egg_range(text, range),
                Syntax::GdlKif | Syntax::GdlInfix => {
                    crate::ide::format_range(db, file, range).ok().flatten()
                }
            }
        })
    }

    /// The rules in English.
    pub fn explain(&self, file: SourceFile) -> Cancellable<Explanation<'_>> {
        let db = AssertUnwindSafe(&self.db);
        Cancelled::catch(move || {
            let db: &RootDatabase = *db;
            match file.syntax(db) {
                Syntax::GdlKif | Syntax::GdlInfix => {
                    Explanation::Gdl(crate::gdl::english::gdl_explanation(db, file))
                }
                Syntax::Ludi => Explanation::Ludi(crate::ludi::ludi_explanation(db, file)),
                Syntax::Egg => Explanation::Egg(crate::egg::egg_explanation(db, file)),
            }
        })
    }

    /// The rules as a player reads them ([`crate::rulebook`]): overview, equipment, setup,
    /// turns, moves, the end; [`Analysis::explain`] is the rule-by-rule level under it.
    pub fn rulebook(&self, file: SourceFile) -> Cancellable<&crate::rulebook::Rulebook> {
        let db = AssertUnwindSafe(&self.db);
        Cancelled::catch(move || {
            let db: &RootDatabase = *db;
            crate::rulebook::rulebook_of(db, file)
        })
    }

    /// The game of `file` on its language's engine, or why it cannot be played (one line).
    pub fn playable(
        &self,
        file: SourceFile,
        options: &EngineOptions,
    ) -> Cancellable<Result<PlayableGame, String>> {
        self.with_db(|db| playable(db, file, options))
    }

    /// The known games of the project nearest to `file`: of its language, or of any language.
    pub fn nearest(
        &self,
        file: SourceFile,
        count: usize,
        any_language: bool,
    ) -> Cancellable<NearestGames> {
        self.with_db(|db| nearest_known_games(db, file, count, any_language).clone())
    }
}

fn syntax_errors(db: &dyn Db, file: SourceFile) -> FormatError {
    let errors = crate::syntax_diagnostics(db, file)
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    FormatError::SyntaxErrors(errors.max(1))
}

/// What [`Analysis::check`] found.
#[derive(Clone, Debug)]
pub struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    /// The summary of random play (or why the game was not played), when it was asked for.
    pub simulation: Option<String>,
}

fn check(db: &dyn Db, file: SourceFile, depth: &DiagnosticDepth) -> Checked {
    // The simulation's time counts from here, in CPU time (see `ludeme_engine::cpu_time`).
    let started = ludeme_engine::cpu_time::CpuInstant::now();
    let mut found = match depth {
        DiagnosticDepth::Static => crate::quick_file_diagnostics(db, file),
        DiagnosticDepth::Full { .. } => crate::file_diagnostics(db, file),
    };
    let mut headline = None;
    if let DiagnosticDepth::Full { simulation } = depth {
        if let Some(options) = simulation
            && matches!(file.syntax(db), Syntax::GdlKif | Syntax::GdlInfix)
        {
            let simulation = if *options == SimulationOptions::editor() {
                crate::gdl::simulate::editor_simulation(db, file).clone()
            } else {
                crate::gdl::simulate::simulate_from(db, file, options, started)
            };
            headline = Some(simulation.headline());
            found.extend(simulation.diagnostics);
        }
        // A rule the settings turn off is not worked out at all: the search among the known
        // games is the costliest part of a batch check.
        let settings = crate::project::settings(db);
        if settings
            .rules
            .is_enabled(crate::distance::DUPLICATE_GAME.code)
        {
            found.extend(duplicate_of_known_game(db, file).iter().cloned());
        }
        found.sort_by_key(|d| (d.range.start, d.range.end));
    }
    Checked {
        diagnostics: crate::project::settings(db).rules.apply(found),
        simulation: headline,
    }
}

fn check_fingerprint(db: &dyn Db, file: SourceFile, depth: &DiagnosticDepth) -> Option<u128> {
    use std::hash::Hash;
    let reads_other_games = match depth {
        DiagnosticDepth::Full {
            simulation: Some(_),
        } => return None,
        DiagnosticDepth::Full { simulation: None } => crate::project::settings(db)
            .rules
            .is_enabled(crate::distance::DUPLICATE_GAME.code),
        DiagnosticDepth::Static => false,
    } || file.syntax(db) == Syntax::Egg;
    let mut hasher = siphasher::sip128::SipHasher13::new();
    file.path(db).hash(&mut hasher);
    file.syntax(db).hash(&mut hasher);
    file.text(db).hash(&mut hasher);
    matches!(depth, DiagnosticDepth::Static).hash(&mut hasher);
    // Every setting, whatever it affects: the debug form names each field and lists the
    // selection's maps in their (sorted) order, so equal settings always print alike.
    format!("{:?}", crate::project::settings(db)).hash(&mut hasher);
    if reads_other_games {
        crate::project::known_games_fingerprint(db, file).hash(&mut hasher);
    }
    Some(siphasher::sip128::Hasher128::finish128(&hasher).as_u128())
}

fn playable(
    db: &dyn Db,
    file: SourceFile,
    options: &EngineOptions,
) -> Result<PlayableGame, String> {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => {
            let program = crate::gdl::engine::program_for(db, file).map_err(|e| e.to_string())?;
            PlayableGame::gdl(program, options)
        }
        Syntax::Ludi => crate::ludi::engine::ludi_engine_for(db, file)
            .map(|game| PlayableGame::Ludi(Box::new(game)))
            .map_err(|refusal| refusal.to_string()),
        Syntax::Egg => crate::egg::engine::egg_engine_for(db, file)
            .map(|game| PlayableGame::Egg(Box::new(game)))
            .map_err(|refusal| refusal.to_string()),
    }
}

/// Unwinds with `cancelled` again, for a caller that runs under [`Cancelled::catch`] itself and
/// asked the snapshot inside it: the outer catch then sees the cancellation.
pub fn resume_cancelled(cancelled: Cancelled) -> ! {
    std::panic::resume_unwind(Box::new(cancelled))
}

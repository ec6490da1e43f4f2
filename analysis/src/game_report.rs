//! A game's report: everything Ludeme can say about one game on one self-contained HTML page —
//! the rules in English, the starting board, the probe's verdict, criteria and plots (the lead
//! histories of the Ludi paper's Figs. 7 and 8), the nearest known games and the diagnostics.
//!
//! Made of two steps, so that a front end can show what it gathered in its own way:
//! [`GameReport::gather`] asks an [`Analysis`] (and plays the probe's games), and
//! [`GameReport::to_html`] fills the page's template (`game_report.html`, beside this file).
//! The template escapes every value (minijinja's HTML auto-escaping); only the SVG pictures,
//! whose writers escape the game's names themselves, go in as they are. The page needs no
//! network: its style sheet and pictures are inline.

use std::time::Duration;

use minijinja::Environment;
use serde::Serialize;

use crate::analysis::{Analysis, Cancellable, DiagnosticDepth, Explanation};
use crate::distance::game_title;
use crate::picture::svg;
use crate::play::{EngineOptions, PlayableGame, ProbeReport, ProbeSettings};
use crate::probe_plots::{
    PlotError, describe_game, featured_games, game_lengths_svg, lead_history_svg, outcomes_svg,
};
use crate::{Diagnostic, Severity, SourceFile, Syntax};

/// The page's template.
const TEMPLATE: &str = include_str!("game_report.html");

/// What to put in a report, and how hard to work for it.
#[derive(Clone, Debug)]
pub struct ReportOptions {
    /// The probe to play; `None` leaves the verdict, criteria and plots out.
    pub probe: Option<ProbeRequest>,
    /// How many of the nearest known games to list.
    pub nearest: usize,
    /// How deep the diagnostics look.
    pub depth: DiagnosticDepth,
    /// How to build the game's engine (its deadline bounds the probe's games too).
    pub engine: EngineOptions,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            probe: Some(ProbeRequest::default()),
            nearest: 5,
            depth: DiagnosticDepth::Full { simulation: None },
            engine: EngineOptions::default(),
        }
    }
}

/// The probe a report plays: [`ProbeSettings`] whose states per move may be left to the game
/// ([`crate::play::PlayableGame::default_probe_nodes`]: more for games without advisors).
#[derive(Clone, Debug)]
pub struct ProbeRequest {
    pub games: usize,
    pub seed: u64,
    pub random_plies: usize,
    /// States each search may visit per move; `None`: the game's default.
    pub nodes_per_move: Option<u64>,
    /// No new game starts after this.
    pub time_limit: Option<Duration>,
}

impl Default for ProbeRequest {
    fn default() -> Self {
        let settings = ProbeSettings::default();
        ProbeRequest {
            games: settings.games,
            seed: settings.seed,
            random_plies: settings.random_plies,
            nodes_per_move: None,
            time_limit: settings.time_limit,
        }
    }
}

/// What a report says about a game, gathered; [`GameReport::to_html`] lays it out.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's name (a Ludi game's own, else the file's).
    pub title: String,
    /// The file, as the front end named it.
    pub path: String,
    pub language: &'static str,
    pub rules: Vec<RulesSection>,
    /// Why the rules cannot be told, when they cannot.
    pub rules_note: Option<String>,
    /// The game on its engine, or why it cannot be played (one line).
    pub play: Result<PlayedGame, String>,
    pub nearest: Vec<NearbyGame>,
    pub diagnostics: Vec<ReportedDiagnostic>,
}

/// One part of the rules in English: a heading (none for a sheet of one part), a remark on it,
/// and its sentences.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RulesSection {
    pub heading: Option<String>,
    pub note: Option<String>,
    pub sentences: Vec<String>,
}

/// What playing the game showed.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The engine that plays it (`ludi`, `eggg`, `grounded`, `interpreter`).
    pub engine: &'static str,
    pub roles: Vec<String>,
    /// The starting position, as SVG.
    pub board: String,
    /// The probe's figures and the settings it ran with, when one was asked for.
    pub probe: Option<(ProbeReport, ProbeSettings)>,
    /// Whether the probe's players value positions with the game's advisors (Ludi); without
    /// them every position before the end is even, and a lead history shows only the end.
    pub advised: bool,
}

/// A known game near the reported one.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NearbyGame {
    pub title: String,
    pub path: String,
    pub distance: f64,
    /// `duplicate`, `variant` or `new game`.
    pub class: &'static str,
}

/// A diagnostic with its place as a person reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReportedDiagnostic {
    pub severity: &'static str,
    pub code: &'static str,
    /// Line and column, from 1 (the column in characters).
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Why the page could not be written (the template failed: a bug, said in words).
#[derive(Debug)]
pub struct ReportError(String);

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write the report: {}", self.0)
    }
}

impl std::error::Error for ReportError {}

/// The probe `request` asks for, played on `game`, with the settings it ran with.
fn play_probe(
    game: &PlayableGame,
    request: &ProbeRequest,
    games_done: &mut dyn FnMut(usize),
) -> (ProbeReport, ProbeSettings) {
    let settings = ProbeSettings {
        games: request.games,
        seed: request.seed,
        random_plies: request.random_plies,
        nodes_per_move: request
            .nodes_per_move
            .unwrap_or_else(|| game.default_probe_nodes()),
        time_limit: request.time_limit,
        ..ProbeSettings::default()
    };
    (game.probe_with_progress(&settings, games_done), settings)
}

impl GameReport {
    /// Asks `analysis` everything the report shows about `file`, playing the probe's games when
    /// `options` asks for them (telling `games_done` after each one), and names the file `path`.
    pub fn gather(
        analysis: &Analysis,
        file: SourceFile,
        path: &str,
        options: &ReportOptions,
        games_done: &mut dyn FnMut(usize),
    ) -> Cancellable<GameReport> {
        let syntax = analysis.syntax(file);
        let title = analysis.with_db(|db| game_title(db, file))?;
        let (rules, rules_note) = {
            let explanation = analysis.explain(file)?;
            let note = explanation
                .emptiness()
                .map(|why| format!("The file {why}."));
            (rules_sections(&explanation), note)
        };
        let play = analysis.playable(file, &options.engine)?.and_then(|game| {
            let start = game
                .position_after(&[])
                .map_err(|error| error.to_string())?;
            let board = svg(&game.picture(&start));
            let probe = options
                .probe
                .as_ref()
                .map(|request| play_probe(&game, request, games_done));
            Ok(PlayedGame {
                engine: game.engine_name(),
                roles: game.roles().to_vec(),
                board,
                probe,
                advised: matches!(game, PlayableGame::Ludi(_)),
            })
        });
        let nearest = if options.nearest == 0 {
            Vec::new()
        } else {
            let found = analysis.nearest(file, options.nearest, true)?;
            let mut all: Vec<_> = found.workspace.into_iter().chain(found.corpus).collect();
            let db = analysis.db();
            all.sort_by(|a, b| {
                a.distance
                    .total_cmp(&b.distance)
                    .then_with(|| a.file.path(db).cmp(b.file.path(db)))
            });
            all.into_iter()
                .take(options.nearest)
                .map(|neighbour| {
                    Ok(NearbyGame {
                        title: analysis.with_db(|db| game_title(db, neighbour.file))?,
                        path: neighbour.file.path(db).display().to_string(),
                        distance: neighbour.distance,
                        class: neighbour.class.name(),
                    })
                })
                .collect::<Cancellable<Vec<_>>>()?
        };
        let text = analysis.text(file)?;
        let diagnostics = analysis
            .diagnostics(file, &options.depth)?
            .iter()
            .map(|diagnostic| reported(diagnostic, &text))
            .collect();
        Ok(GameReport {
            title,
            path: path.to_owned(),
            language: language_name(syntax),
            rules,
            rules_note,
            play,
            nearest,
            diagnostics,
        })
    }

    /// Plays the probe `request` asks for on `game` (the reported game's engine) and puts its
    /// figures in the report: for a front end that gathers the rest without the probe, so as
    /// not to hold its analysis snapshot (and so block every write) while the games are played.
    pub fn add_probe(&mut self, game: &PlayableGame, request: &ProbeRequest) {
        if let Ok(played) = &mut self.play {
            played.probe = Some(play_probe(game, request, &mut |_| {}));
        }
    }

    /// The page: one HTML document with its style sheet and pictures inline.
    pub fn to_html(&self) -> Result<String, ReportError> {
        let mut environment = Environment::new();
        // The name ends in `.html`: minijinja escapes every value for HTML.
        environment
            .add_template("game_report.html", TEMPLATE)
            .map_err(|error| ReportError(error.to_string()))?;
        let template = environment
            .get_template("game_report.html")
            .map_err(|error| ReportError(error.to_string()))?;
        template
            .render(minijinja::value::Serde(self.page()))
            .map_err(|error| ReportError(error.to_string()))
    }

    /// The values the template shows, formatted.
    fn page(&self) -> Page<'_> {
        let (engine, roles, board, play_note, probe) = match &self.play {
            Ok(played) => (
                Some(played.engine),
                played.roles.clone(),
                Some(played.board.as_str()),
                None,
                played
                    .probe
                    .as_ref()
                    .map(|(report, settings)| probe_view(report, settings, played.advised)),
            ),
            Err(why) => (None, Vec::new(), None, Some(why.as_str()), None),
        };
        let count = |severity: Severity| {
            self.diagnostics
                .iter()
                .filter(|d| d.severity == severity.as_str())
                .count()
        };
        Page {
            title: &self.title,
            path: &self.path,
            language: self.language,
            engine,
            roles,
            board,
            play_note,
            rules: &self.rules,
            rules_note: self.rules_note.as_deref(),
            probe,
            nearest: self
                .nearest
                .iter()
                .map(|game| NearbyView {
                    title: &game.title,
                    path: &game.path,
                    distance: format!("{:.3}", game.distance),
                    class: game.class,
                })
                .collect(),
            diagnostics: &self.diagnostics,
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// The template's values.
#[derive(Serialize)]
struct Page<'a> {
    title: &'a str,
    path: &'a str,
    language: &'a str,
    engine: Option<&'a str>,
    roles: Vec<String>,
    /// SVG, inserted as it is.
    board: Option<&'a str>,
    play_note: Option<&'a str>,
    rules: &'a [RulesSection],
    rules_note: Option<&'a str>,
    probe: Option<ProbeView>,
    nearest: Vec<NearbyView<'a>>,
    diagnostics: &'a [ReportedDiagnostic],
    errors: usize,
    warnings: usize,
    infos: usize,
    version: &'a str,
}

#[derive(Serialize)]
struct NearbyView<'a> {
    title: &'a str,
    path: &'a str,
    distance: String,
    class: &'a str,
}

#[derive(Serialize)]
struct ProbeView {
    games: usize,
    seconds: String,
    nodes_per_move: u64,
    random_plies: usize,
    advised: bool,
    viable: bool,
    reasons: Vec<String>,
    /// Why the verdict is tentative (too few games to be firm), when it is.
    tentative: Option<String>,
    criteria: Vec<Criterion>,
    /// SVG, or why it could not be drawn.
    outcomes: Plot,
    lengths: Plot,
    lead_histories: Vec<LeadPlot>,
}

#[derive(Serialize)]
struct Criterion {
    name: &'static str,
    value: String,
    meaning: &'static str,
}

#[derive(Serialize)]
struct Plot {
    svg: Option<String>,
    problem: Option<String>,
}

impl From<Result<String, PlotError>> for Plot {
    fn from(drawn: Result<String, PlotError>) -> Self {
        match drawn {
            Ok(svg) => Plot {
                svg: Some(svg),
                problem: None,
            },
            Err(error) => Plot {
                svg: None,
                problem: Some(error.to_string()),
            },
        }
    }
}

#[derive(Serialize)]
struct LeadPlot {
    why: &'static str,
    caption: String,
    plot: Plot,
}

fn probe_view(report: &ProbeReport, settings: &ProbeSettings, advised: bool) -> ProbeView {
    let percent = |share: f64| format!("{:.0} %", share * 100.0);
    let figure = |value: f64| format!("{value:.2}");
    let optional = |value: Option<f64>| value.map_or_else(|| "n/a".to_owned(), figure);
    let criteria = vec![
        Criterion {
            name: "outcomes",
            value: format!("{}; draws {}", report.wins_listed(), report.draws),
            meaning: "games won by each role, and drawn",
        },
        Criterion {
            name: "completion",
            value: percent(report.completion),
            meaning: "games won by some player",
        },
        Criterion {
            name: "drawishness",
            value: percent(report.drawishness),
            meaning: "games drawn, abandoned ones included",
        },
        Criterion {
            name: "timeouts",
            value: percent(report.timeouts),
            meaning: "games abandoned at the length limit",
        },
        Criterion {
            name: "balance",
            value: optional(report.balance),
            meaning: "1 − the gap between the roles' shares of the decided games",
        },
        Criterion {
            name: "first-move advantage",
            value: optional(report.first_move_advantage),
            meaning: "0 when the first player wins an even share, 1 when every decided game",
        },
        Criterion {
            name: "length",
            value: format!(
                "{:.1} ± {:.1} plies",
                report.avg_length, report.length_spread
            ),
            meaning: "plies per game, the random opening included",
        },
        Criterion {
            name: "duration",
            value: figure(report.duration),
            meaning: "1 − the mean distance from the preferred length of 60 plies, relative to it",
        },
        Criterion {
            name: "branching factor",
            value: format!("{:.1}", report.branching_factor),
            meaning: "legal moves per decision",
        },
        Criterion {
            name: "drama",
            value: figure(report.drama),
            meaning: "how far behind, and how often, the eventual winner was",
        },
        Criterion {
            name: "uncertainty",
            value: figure(report.uncertainty),
            meaning: "how far the winner's lead stays below a steady rise to victory",
        },
        Criterion {
            name: "lead change",
            value: figure(report.lead_change),
            meaning: "how often the leader changes from one round to the next",
        },
        Criterion {
            name: "decisiveness",
            value: figure(report.decisiveness),
            meaning: "the share of a decided game played before its outcome was settled",
        },
    ];
    ProbeView {
        games: report.games,
        seconds: format!("{:.1}", report.seconds),
        nodes_per_move: settings.nodes_per_move,
        random_plies: settings.random_plies,
        advised,
        viable: report.verdict.viable,
        reasons: report.verdict.reasons.clone(),
        tentative: report.verdict.tentative.clone(),
        criteria,
        outcomes: outcomes_svg(report).into(),
        lengths: game_lengths_svg(report, settings.max_length).into(),
        lead_histories: featured_games(report)
            .into_iter()
            .map(|game| LeadPlot {
                why: game.why,
                caption: describe_game(report, game.index),
                plot: lead_history_svg(report, game.index).into(),
            })
            .collect(),
    }
}

/// The explanation of any language as headed lists of sentences.
fn rules_sections(explanation: &Explanation<'_>) -> Vec<RulesSection> {
    match explanation {
        Explanation::Gdl(explanation) => explanation
            .sections
            .iter()
            .map(|section| RulesSection {
                heading: Some(section.title.clone()),
                note: section.note.clone(),
                sentences: section.items.iter().map(|item| item.text.clone()).collect(),
            })
            .collect(),
        Explanation::Ludi(sheet) => vec![RulesSection {
            heading: None,
            note: None,
            sentences: sheet.sentences.iter().map(|s| s.text.clone()).collect(),
        }],
        Explanation::Egg(sheet) => sheet
            .sections
            .iter()
            .map(|section| RulesSection {
                heading: Some(section.title.to_owned()),
                note: None,
                sentences: section.sentences.iter().map(|s| s.text.clone()).collect(),
            })
            .chain(std::iter::once(RulesSection {
                heading: Some("Classification (Orwant's twelve attributes)".to_owned()),
                note: None,
                sentences: sheet.classification.lines(),
            }))
            .collect(),
    }
}

fn language_name(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Egg => "EGGG",
        Syntax::Ludi => "Ludi",
        Syntax::GdlKif => "Stanford GDL (KIF)",
        Syntax::GdlInfix => "Stanford GDL (infix)",
    }
}

fn reported(diagnostic: &Diagnostic, text: &str) -> ReportedDiagnostic {
    let (line, column) = line_and_column(text, diagnostic.range.start);
    ReportedDiagnostic {
        severity: diagnostic.severity.as_str(),
        code: diagnostic.code,
        line,
        column,
        message: diagnostic.message.clone(),
    }
}

/// The line and column (from 1; the column in characters) of byte `offset` of `text`; an
/// offset past the end or inside a character counts from the character before it.
pub(crate) fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_in_lines_and_characters() {
        let text = "ab\nçd\n";
        assert_eq!(line_and_column(text, 0), (1, 1));
        assert_eq!(line_and_column(text, 3), (2, 1));
        // After the two-byte ç: the second character of the line.
        assert_eq!(line_and_column(text, 5), (2, 2));
        // Inside the ç, and past the end.
        assert_eq!(line_and_column(text, 4), (2, 1));
        assert_eq!(line_and_column(text, 99), (3, 1));
    }
}

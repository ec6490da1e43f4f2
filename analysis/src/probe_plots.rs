//! The probe's plots as SVG (drawn with `plotters`): a game's lead history as the Ludi paper
//! draws it (seed 004, Figs. 7 and 8: each role's estimate of its position after every
//! searched ply, and the eventual winner's lead over the strongest loser as a thick line), the
//! outcomes of the games as bars, and the distribution of their lengths.
//!
//! Text is written as SVG `<text>` for the viewer's fonts: plotters is built without its font
//! features, so nothing reads font files. Every name that comes from a game file (role names)
//! is escaped by plotters' SVG writer.

use std::fmt;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::play::{LeadHistory, PREFERRED_LENGTH, ProbeReport};

/// The size of every plot, in SVG pixels.
const SIZE: (u32, u32) = (640, 360);

/// The roles' colours, in role order (repeated past the sixth role): distinguishable without
/// relying on red against green alone.
const ROLE_COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];
const GREY: RGBColor = RGBColor(128, 128, 128);
const LIGHT_GREY: RGBColor = RGBColor(200, 200, 200);

/// Why a plot could not be drawn (plotters' own error, in words).
#[derive(Clone, Debug, PartialEq)]
pub struct PlotError(String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot draw the plot: {}", self.0)
    }
}

impl std::error::Error for PlotError {}

fn plot_error(error: impl fmt::Display) -> PlotError {
    PlotError(error.to_string())
}

/// The colour of role `role` in every plot.
fn role_colour(role: usize) -> RGBColor {
    ROLE_COLOURS[role % ROLE_COLOURS.len()]
}

fn role_name(report: &ProbeReport, role: usize) -> String {
    report
        .roles
        .get(role)
        .cloned()
        .unwrap_or_else(|| format!("role {}", role + 1))
}

/// Draws into an SVG string of [`SIZE`]; `draw` gets the white drawing area.
fn svg_of(
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), PlotError>,
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        draw(&root)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// A game the report shows, and why it was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct FeaturedGame {
    /// Its index in [`ProbeReport::histories`].
    pub index: usize,
    /// Why it is shown: `the most dramatic game`, ...
    pub why: &'static str,
}

/// The games whose lead histories tell most, as the paper picks its figures: the most dramatic
/// decided game (Fig. 7), the most uncertain and the most certain (Fig. 8 a and b); each game
/// once. Without a decided game, the first game.
pub fn featured_games(report: &ProbeReport) -> Vec<FeaturedGame> {
    let decided: Vec<(usize, &LeadHistory)> = report
        .histories
        .iter()
        .enumerate()
        .filter(|(_, history)| history.winner.is_some() && !history.estimates.is_empty())
        .collect();
    let by = |figure: fn(&LeadHistory) -> Option<f64>| {
        move |&(_, a): &&(usize, &LeadHistory), &(_, b): &&(usize, &LeadHistory)| {
            figure(a)
                .unwrap_or(0.0)
                .total_cmp(&figure(b).unwrap_or(0.0))
        }
    };
    // The first of equals, so that the choice does not depend on the sort's whims.
    let most = |figure: fn(&LeadHistory) -> Option<f64>| {
        decided
            .iter()
            .rev()
            .max_by(by(figure))
            .map(|&(index, _)| index)
    };
    let least = |figure: fn(&LeadHistory) -> Option<f64>| {
        decided.iter().min_by(by(figure)).map(|&(index, _)| index)
    };
    let dramatic = most(|history| history.drama).filter(|&index| {
        report.histories[index]
            .drama
            .is_some_and(|drama| drama > 0.0)
    });
    let mut candidates = vec![
        (dramatic, "the most dramatic game"),
        (
            most(|history| history.uncertainty),
            "the most uncertain game",
        ),
        (
            least(|history| history.uncertainty),
            "the most certain game",
        ),
    ];
    if decided.is_empty() && !report.histories.is_empty() {
        candidates.push((Some(0), "the first game"));
    }
    let mut featured: Vec<FeaturedGame> = Vec::new();
    for (index, why) in candidates {
        if let Some(index) = index
            && featured.iter().all(|game| game.index != index)
        {
            featured.push(FeaturedGame { index, why });
        }
    }
    featured
}

/// One line about game `index`: its number (from 1), outcome, length and figures.
pub fn describe_game(report: &ProbeReport, index: usize) -> String {
    let Some(history) = report.histories.get(index) else {
        return format!("game {} was not played", index + 1);
    };
    let outcome = match history.winner {
        Some(winner) => format!("{} won", role_name(report, winner)),
        None if history.abandoned => "abandoned as a draw".to_owned(),
        None => "drawn".to_owned(),
    };
    let mut line = format!(
        "Game {}: {outcome} after {} plies",
        index + 1,
        history.length
    );
    if let (Some(drama), Some(uncertainty)) = (history.drama, history.uncertainty) {
        line.push_str(&format!(
            " (drama {drama:.2}, uncertainty {uncertainty:.2})"
        ));
    }
    line
}

/// The lead history of game `index` of the report: each role's estimate (0..1) after every
/// searched ply, dotted; in a decided game the winner's lead over the strongest loser (−1..1)
/// as a thick line, below zero while the winner was behind, and the steady rise from even to
/// won that the uncertainty criterion measures the lead against, dashed.
pub fn lead_history_svg(report: &ProbeReport, index: usize) -> Result<String, PlotError> {
    let history = report
        .histories
        .get(index)
        .ok_or_else(|| PlotError(format!("no game {} in the report", index + 1)))?;
    let caption = describe_game(report, index);
    let first = history.first_measured_ply;
    let last = history.ply(history.estimates.len().saturating_sub(1));
    // One point still needs a width to be drawn in.
    let x_range = first..last.max(first + 1);
    svg_of(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(x_range.clone(), -1.0f64..1.0)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc("estimate · lead")
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new(
                [(x_range.start, 0.0), (x_range.end, 0.0)],
                LIGHT_GREY.stroke_width(1),
            ))
            .map_err(plot_error)?;
        if history.estimates.is_empty() {
            chart
                .draw_series(std::iter::once(Text::new(
                    "no searched ply: the game ended in its random opening",
                    (first, 0.5),
                    ("sans-serif", 14).into_font(),
                )))
                .map_err(plot_error)?;
        }
        let plies = |values: Vec<f64>| -> Vec<(usize, f64)> {
            values
                .into_iter()
                .enumerate()
                .map(|(i, value)| (history.ply(i), value))
                .collect()
        };
        if let Some(lead) = history.winner_lead()
            && !lead.is_empty()
        {
            let winner = history
                .winner
                .map_or_else(String::new, |winner| role_name(report, winner));
            chart
                .draw_series(DashedLineSeries::new(
                    [(first, 0.0), (last, 1.0)],
                    6,
                    4,
                    GREY.stroke_width(1),
                ))
                .map_err(plot_error)?
                .label("a steady rise to victory")
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], GREY.stroke_width(1)));
            chart
                .draw_series(LineSeries::new(plies(lead), BLACK.stroke_width(4)))
                .map_err(plot_error)?
                .label(format!("{winner}'s lead"))
                .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.stroke_width(4)));
        }
        for role in 0..report.roles.len() {
            let colour = role_colour(role);
            let estimates = history
                .estimates
                .iter()
                .map(|estimates| estimates.get(role).copied().unwrap_or(0.0))
                .collect();
            chart
                .draw_series(
                    LineSeries::new(plies(estimates), colour.filled().stroke_width(1))
                        .point_size(3),
                )
                .map_err(plot_error)?
                .label(role_name(report, role))
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
        }
        chart
            .configure_series_labels()
            // Early in a game the estimates are near even, and the lead and the steady rise
            // near zero: the lower left is the corner the lines leave free.
            .position(SeriesLabelPosition::LowerLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(LIGHT_GREY)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(plot_error)
    })
}

/// The outcomes of the probe's games: a bar of wins per role, then the draws the rules gave
/// and the games abandoned as draws.
pub fn outcomes_svg(report: &ProbeReport) -> Result<String, PlotError> {
    let abandoned = report
        .histories
        .iter()
        .filter(|history| history.abandoned)
        .count();
    let mut bars: Vec<(String, usize, RGBColor)> = report
        .wins
        .iter()
        .enumerate()
        .map(|(role, &wins)| {
            (
                format!("{} wins", role_name(report, role)),
                wins,
                role_colour(role),
            )
        })
        .collect();
    bars.push((
        "draws".to_owned(),
        report.draws.saturating_sub(abandoned),
        GREY,
    ));
    bars.push(("abandoned".to_owned(), abandoned, LIGHT_GREY));
    let highest = bars.iter().map(|&(_, count, _)| count).max().unwrap_or(0);
    let caption = format!(
        "Outcomes of {} game{}",
        report.games,
        if report.games == 1 { "" } else { "s" }
    );
    svg_of(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(
                // plotters' integer ranges hold their end: `0..n - 1` is n bars (and there
                // are always the two of draws).
                (0..bars.len() - 1).into_segmented(),
                0..(highest + highest / 10 + 1),
            )
            .map_err(plot_error)?;
        let label = |value: &SegmentValue<usize>| match value {
            SegmentValue::CenterOf(bar) => bars
                .get(*bar)
                .map_or_else(String::new, |(name, _, _)| name.clone()),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len())
            .x_label_formatter(&label)
            .y_desc("games")
            .draw()
            .map_err(plot_error)?;
        for (bar, (_, count, colour)) in bars.iter().enumerate() {
            chart
                .draw_series(
                    Histogram::vertical(&chart)
                        .style(colour.filled())
                        .margin(14)
                        .data([(bar, *count)]),
                )
                .map_err(plot_error)?;
        }
        Ok(())
    })
}

/// How long the games were: a histogram of their lengths in plies (random opening included),
/// with the seed's preferred length and the length at which a game is abandoned.
pub fn game_lengths_svg(report: &ProbeReport, abandoned_after: usize) -> Result<String, PlotError> {
    let lengths: Vec<usize> = report
        .histories
        .iter()
        .map(|history| history.length)
        .collect();
    let longest = lengths
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(abandoned_after)
        .max(PREFERRED_LENGTH);
    let width = bin_width(longest);
    let mut counts = vec![0usize; longest / width + 1];
    for &length in &lengths {
        counts[length / width] += 1;
    }
    let highest = counts.iter().copied().max().unwrap_or(0);
    let y_top = highest + highest / 10 + 1;
    let x_end = counts.len() * width;
    let caption = format!("Game lengths (mean {:.1} plies)", report.avg_length);
    svg_of(|root| {
        let mut chart = ChartBuilder::on(root)
            .caption(caption, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(0..x_end, 0..y_top)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc("plies")
            .y_desc("games")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(
                counts
                    .iter()
                    .enumerate()
                    .filter(|&(_, &n)| n > 0)
                    .map(|(bin, &count)| {
                        let start = bin * width;
                        Rectangle::new(
                            [(start, 0), (start + width, count)],
                            role_colour(0).mix(0.8).filled(),
                        )
                    }),
            )
            .map_err(plot_error)?;
        let marks = [
            (
                PREFERRED_LENGTH,
                format!("preferred length ({PREFERRED_LENGTH})"),
                role_colour(2),
            ),
            (
                abandoned_after,
                format!("abandoned at {abandoned_after}"),
                role_colour(3),
            ),
        ];
        for (x, label, colour) in marks {
            chart
                .draw_series(DashedLineSeries::new(
                    [(x, 0), (x, y_top)],
                    6,
                    4,
                    colour.stroke_width(2),
                ))
                .map_err(plot_error)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(LIGHT_GREY)
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(plot_error)
    })
}

/// A round bin width (1, 2 or 5 times a power of ten) that gives at most 40 bins up to
/// `longest`.
fn bin_width(longest: usize) -> usize {
    let mut unit = 1;
    loop {
        for step in [1, 2, 5] {
            let width = step * unit;
            if longest / width < 40 {
                return width;
            }
        }
        unit *= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::{ProbeSettings, Verdict};

    fn history(winner: Option<usize>, estimates: &[[f64; 2]]) -> LeadHistory {
        LeadHistory {
            length: estimates.len() + 1,
            winner,
            abandoned: false,
            first_measured_ply: 2,
            estimates: estimates.iter().map(|e| e.to_vec()).collect(),
            drama: winner.map(|_| 0.0),
            uncertainty: winner.map(|_| 0.0),
            options: Vec::new(),
            state_hashes: Vec::new(),
            board_cells: 0,
            cells_used: 0,
        }
    }

    fn report(histories: Vec<LeadHistory>) -> ProbeReport {
        let roles = vec!["White <&>".to_owned(), "Black".to_owned()];
        let mut wins = vec![0; 2];
        for winner in histories.iter().filter_map(|h| h.winner) {
            wins[winner] += 1;
        }
        let draws = histories.len() - wins.iter().sum::<usize>();
        ProbeReport {
            roles,
            games: histories.len(),
            wins,
            draws,
            completion: 0.0,
            drawishness: 0.0,
            timeouts: 0.0,
            balance: None,
            first_move_advantage: None,
            avg_length: 0.0,
            length_spread: 0.0,
            duration: 0.0,
            branching_factor: 0.0,
            drama: 0.0,
            uncertainty: 0.0,
            lead_change: 0.0,
            decisiveness: 0.0,
            criteria: Vec::new(),
            verdict: Verdict {
                viable: true,
                reasons: Vec::new(),
                tentative: None,
            },
            seconds: 0.0,
            histories,
        }
    }

    #[test]
    fn the_paper_figures_are_chosen_once_each() {
        let mut dramatic = history(Some(0), &[[0.2, 0.8], [1.0, 0.0]]);
        dramatic.drama = Some(0.7);
        dramatic.uncertainty = Some(0.5);
        let mut certain = history(Some(1), &[[0.1, 0.9], [0.0, 1.0]]);
        certain.uncertainty = Some(0.0);
        let report = report(vec![history(None, &[[0.5, 0.5]]), dramatic, certain]);
        let featured = featured_games(&report);
        let chosen: Vec<(usize, &str)> = featured.iter().map(|g| (g.index, g.why)).collect();
        assert_eq!(
            chosen,
            [(1, "the most dramatic game"), (2, "the most certain game")],
            "the dramatic game is also the most uncertain: it is shown once"
        );
    }

    #[test]
    fn without_a_decided_game_the_first_is_shown() {
        let report = report(vec![history(None, &[[0.5, 0.5]])]);
        assert_eq!(
            featured_games(&report),
            [FeaturedGame {
                index: 0,
                why: "the first game"
            }]
        );
        assert!(featured_games(&super::tests::report(Vec::new())).is_empty());
    }

    /// The contents of the SVG's `<text>` elements, trimmed.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|rest| {
                let (_, content) = rest.split_once('>')?;
                let (content, _) = content.split_once("</text>")?;
                Some(content.trim().to_owned())
            })
            .collect()
    }

    #[test]
    fn a_lead_history_draws_every_role_and_the_winners_lead_with_names_escaped() {
        let report = report(vec![history(
            Some(0),
            &[[0.3, 0.7], [0.6, 0.4], [1.0, 0.0]],
        )]);
        let svg = lead_history_svg(&report, 0).expect("drawn");
        assert!(svg.starts_with("<svg"), "{svg}");
        let labels = texts(&svg);
        for label in [
            "Game 1: White &lt;&amp;&gt; won after 4 plies (drama 0.00, uncertainty 0.00)",
            "White &lt;&amp;&gt;",
            "White &lt;&amp;&gt;&apos;s lead",
            "Black",
            "a steady rise to victory",
            "ply",
        ] {
            assert!(labels.iter().any(|l| l == label), "{label} in {labels:?}");
        }
        assert!(!svg.contains("White <&>"), "unescaped name in {svg}");
        assert!(lead_history_svg(&report, 1).is_err());
    }

    #[test]
    fn a_game_over_in_its_random_opening_still_gets_a_picture() {
        let report = report(vec![history(None, &[])]);
        let labels = texts(&lead_history_svg(&report, 0).expect("drawn"));
        assert!(
            labels.iter().any(|l| l.starts_with("no searched ply")),
            "{labels:?}"
        );
    }

    #[test]
    fn outcomes_count_wins_draws_and_abandoned_games() {
        let mut abandoned = history(None, &[[0.5, 0.5]]);
        abandoned.abandoned = true;
        let report = report(vec![
            history(Some(0), &[[1.0, 0.0]]),
            history(None, &[[0.5, 0.5]]),
            abandoned,
        ]);
        let labels = texts(&outcomes_svg(&report).expect("drawn"));
        for label in [
            "White &lt;&amp;&gt; wins",
            "Black wins",
            "draws",
            "abandoned",
            "Outcomes of 3 games",
        ] {
            assert!(labels.iter().any(|l| l == label), "{label} in {labels:?}");
        }
    }

    #[test]
    fn lengths_mark_the_preferred_length_and_the_limit() {
        let report = report(vec![history(Some(0), &[[1.0, 0.0]]); 3]);
        let limit = ProbeSettings::default().max_length;
        let labels = texts(&game_lengths_svg(&report, limit).expect("drawn"));
        for label in [
            format!("abandoned at {limit}"),
            format!("preferred length ({PREFERRED_LENGTH})"),
            "Game lengths (mean 0.0 plies)".to_owned(),
        ] {
            assert!(labels.contains(&label), "{label} in {labels:?}");
        }
    }

    #[test]
    fn bins_stay_few_and_round() {
        assert_eq!(bin_width(10), 1);
        assert_eq!(bin_width(120), 5);
        assert_eq!(bin_width(1_000), 50);
    }
}

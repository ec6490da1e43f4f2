//! The top-N curve as an SVG picture: the share of test moves ranked within the first N
//! against N, the model's curve solid with a dot per N, a random ranking's dashed, as the
//! seed's figures draw them.

use std::fmt::Write as _;

use super::TopNCurve;
use crate::picture::escape;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 360.0;
/// Room for the axes' labels (left, bottom) and the title and legend (top).
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 50.0;

/// The curve as a standalone SVG document titled `title`.
pub fn top_n_svg(curve: &TopNCurve, title: &str) -> String {
    let widest = curve.within.len().max(1);
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    // N runs from 1 to `widest`; a curve of one point sits at the left edge.
    let x = |n: usize| {
        let span = (widest - 1).max(1) as f64;
        LEFT + (n - 1) as f64 / span * plot_width
    };
    let y = |share: f64| TOP + (1.0 - share.clamp(0.0, 1.0)) * plot_height;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<title>{}</title>"#, escape(title));
    let _ = writeln!(
        svg,
        r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    // Horizontal grid lines and the share axis, every 20 %.
    for step in 0..=5 {
        let share = f64::from(step) / 5.0;
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
            WIDTH - RIGHT,
            y = y(share)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{} %</text>"#,
            LEFT - 6.0,
            y(share) + 4.0,
            step * 20
        );
    }
    // The N axis: every N when there are few, else about ten labels.
    let label_every = widest.div_ceil(10);
    for n in (1..=widest).filter(|n| (n - 1) % label_every == 0 || *n == widest) {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{n}</text>"#,
            x(n),
            HEIGHT - BOTTOM + 18.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{bottom:.1}" x2="{:.1}" y2="{bottom:.1}" stroke="#000"/>"##,
        WIDTH - RIGHT,
        bottom = HEIGHT - BOTTOM
    );
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{:.1}" stroke="#000"/>"##,
        HEIGHT - BOTTOM
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">N (rank of the move made)</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 12.0
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">moves ranked within the first N</text>"#,
        TOP + plot_height / 2.0
    );
    let points = |shares: &[f64]| -> String {
        shares
            .iter()
            .enumerate()
            .map(|(index, &share)| format!("{:.1},{:.1}", x(index + 1), y(share)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#888" stroke-width="1.5" stroke-dasharray="5 4"/>"##,
        points(&curve.chance)
    );
    let _ = writeln!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#1f5fbf" stroke-width="2"/>"##,
        points(&curve.within)
    );
    for (index, &share) in curve.within.iter().enumerate() {
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3" fill="#1f5fbf"><title>N = {}: {:.1} %</title></circle>"##,
            x(index + 1),
            y(share),
            index + 1,
            share * 100.0
        );
    }
    // The legend, top right.
    let legend_x = WIDTH - RIGHT - 170.0;
    let _ = writeln!(
        svg,
        r##"<line x1="{legend_x:.1}" y1="36" x2="{:.1}" y2="36" stroke="#1f5fbf" stroke-width="2"/><text x="{:.1}" y="40">the model ({} decisions)</text>"##,
        legend_x + 20.0,
        legend_x + 26.0,
        curve.decisions
    );
    let _ = writeln!(
        svg,
        r##"<line x1="{:.1}" y1="36" x2="{:.1}" y2="36" stroke="#888" stroke-width="1.5" stroke-dasharray="5 4"/><text x="{:.1}" y="40">at random</text>"##,
        legend_x - 110.0,
        legend_x - 90.0,
        legend_x - 84.0
    );
    svg.push_str("</svg>\n");
    svg
}

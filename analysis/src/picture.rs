//! Board pictures as SVG: the one writer of the engines' [`Picture`]s, for `ludeme render` and
//! whatever else shows a board.
//!
//! The output is deterministic — numbers with one decimal, elements in the picture's order —
//! so that snapshots of it are stable, and every text from a game (names come from user files)
//! is escaped. Boards beyond [`MAX_DRAWN_CELLS`] cells are not drawn; their notes say so.

use std::fmt::Write;

pub use ludeme_engine::picture::{Caption, Cell, Picture, PieceMark, Point};

/// The most cells drawn: a larger board gets its notes and a line saying why it is missing.
pub const MAX_DRAWN_CELLS: usize = 4_096;

/// The most lines of notes shown; the rest are counted.
const MAX_NOTES: usize = 200;

/// The most characters of a line of notes or a label.
const MAX_TEXT: usize = 100;

/// The width of the widest cell, in pixels, unless the board is too large for it.
const CELL_PIXELS: f64 = 44.0;

/// The width of the narrowest cell (the small squares of the 4.8.8 tiling), in pixels, unless
/// the board is too large for it: room for its label.
const NARROW_CELL_PIXELS: f64 = 36.0;

/// The largest board, in pixels, before cells shrink.
const BOARD_PIXELS: f64 = 1_600.0;

const MARGIN: f64 = 16.0;
const NOTE_LINE: f64 = 16.0;
/// A generous width of a character of the notes' monospace font, so that no renderer cuts them.
const NOTE_CHAR: f64 = 8.0;
const LEGEND_LINE: f64 = 26.0;

/// Cell fills by shade.
const SHADES: [&str; 3] = ["#f3e7c9", "#dcc190", "#c8a872"];

/// Per player (cycling): fill, outline, text.
const PLAYER_COLOURS: [(&str, &str, &str); 8] = [
    ("#fbfbf8", "#222222", "#222222"),
    ("#2b2b2b", "#000000", "#fbfbf8"),
    ("#c0392b", "#6e1f17", "#ffffff"),
    ("#2e6fd8", "#173a73", "#ffffff"),
    ("#27ae60", "#145a32", "#ffffff"),
    ("#e67e22", "#7e4510", "#ffffff"),
    ("#8e44ad", "#4a235a", "#ffffff"),
    ("#16a085", "#0b5345", "#ffffff"),
];

/// Players named after a colour are drawn in it: (name, fill, outline, text).
const NAMED_COLOURS: [(&str, &str, &str, &str); 8] = [
    ("white", "#fbfbf8", "#222222", "#222222"),
    ("black", "#2b2b2b", "#000000", "#fbfbf8"),
    ("red", "#c0392b", "#6e1f17", "#ffffff"),
    ("blue", "#2e6fd8", "#173a73", "#ffffff"),
    ("green", "#27ae60", "#145a32", "#ffffff"),
    ("orange", "#e67e22", "#7e4510", "#ffffff"),
    ("purple", "#8e44ad", "#4a235a", "#ffffff"),
    ("yellow", "#f4d03f", "#7d6608", "#222222"),
];

/// A piece that belongs to no player.
const NEUTRAL_COLOURS: (&str, &str, &str) = ("#a5a5a5", "#555555", "#111111");

/// The picture as a standalone SVG document.
pub fn svg(picture: &Picture) -> String {
    write_svg(picture, CellIds::Omitted)
}

/// [`svg`] with each cell's polygon and each piece's group marked `data-cell="INDEX"` (the
/// index in [`Picture::cells`]) and the polygons of class `cell`, for a page that maps a click
/// to a cell (the play page of `ludeme serve`).
pub fn svg_with_cell_ids(picture: &Picture) -> String {
    write_svg(picture, CellIds::Marked)
}

/// Whether the elements of cells and pieces carry their cell's index.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CellIds {
    Omitted,
    Marked,
}

impl CellIds {
    /// The attributes that mark the elements of cell `index`: ` data-cell="3"`, or nothing.
    fn attribute(self, index: usize) -> String {
        match self {
            CellIds::Omitted => String::new(),
            CellIds::Marked => format!(r#" data-cell="{index}""#),
        }
    }
}

fn write_svg(picture: &Picture, cell_ids: CellIds) -> String {
    let mut notes: Vec<String> = Vec::new();
    let drawn = picture.cells.len() <= MAX_DRAWN_CELLS;
    if !drawn {
        notes.push(format!(
            "the board has {} cells: too many to draw (at most {MAX_DRAWN_CELLS})",
            picture.cells.len()
        ));
    }
    notes.extend(picture.notes.iter().take(MAX_NOTES).cloned());
    if picture.notes.len() > MAX_NOTES {
        notes.push(format!("… and {} more", picture.notes.len() - MAX_NOTES));
    }
    let notes: Vec<String> = notes.iter().map(|note| shorten(note)).collect();

    let board = if drawn && !picture.cells.is_empty() {
        Some(Layout::of(picture))
    } else {
        None
    };
    let (board_width, board_height) = board
        .as_ref()
        .map_or((0.0, 0.0), |b| (b.width(), b.height()));
    let notes_left = if board.is_some() {
        MARGIN + board_width + 2.0 * MARGIN
    } else {
        MARGIN
    };
    let notes_width = notes
        .iter()
        .map(|note| note.chars().count() as f64 * NOTE_CHAR)
        .fold(0.0, f64::max);
    let notes_height = notes.len() as f64 * NOTE_LINE;
    let legend_top = MARGIN + board_height.max(notes_height) + MARGIN;
    let legend_width = picture
        .roles
        .iter()
        .map(|role| 40.0 + shorten(role).chars().count() as f64 * NOTE_CHAR)
        .fold(0.0, f64::max);
    let legend_height = picture.roles.len() as f64 * LEGEND_LINE;
    let width = (notes_left + notes_width + MARGIN).max(MARGIN + legend_width + MARGIN);
    let height = legend_top + legend_height + MARGIN;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = number(width),
        h = number(height)
    );
    let _ = writeln!(
        out,
        r##"<rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let palette = role_colours(&picture.roles);
    if let Some(board) = &board {
        board.draw(picture, &palette, cell_ids, &mut out);
    }
    if !notes.is_empty() {
        let _ = writeln!(
            out,
            r##"<g font-family="monospace" font-size="12" fill="#222222">"##
        );
        for (line, note) in notes.iter().enumerate() {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                number(notes_left),
                number(MARGIN + 12.0 + line as f64 * NOTE_LINE),
                escape(note)
            );
        }
        let _ = writeln!(out, "</g>");
    }
    for (role, name) in picture.roles.iter().enumerate() {
        let (fill, stroke, _) = colours(Some(role), &palette);
        let y = legend_top + role as f64 * LEGEND_LINE + LEGEND_LINE / 2.0;
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="9" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            number(MARGIN + 10.0),
            number(y)
        );
        let _ = writeln!(
            out,
            r##"<text x="{}" y="{}" font-size="14" fill="#222222">{}</text>"##,
            number(MARGIN + 28.0),
            number(y + 5.0),
            escape(&shorten(name))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Where the board goes: the plane's bounding box and the scale from plane units to pixels.
struct Layout {
    min: Point,
    max: Point,
    scale: f64,
}

impl Layout {
    fn of(picture: &Picture) -> Layout {
        let points = picture
            .cells
            .iter()
            .flat_map(|cell| cell.outline.iter())
            .chain(picture.captions.iter().map(|caption| &caption.at));
        let mut min = Point::new(f64::INFINITY, f64::INFINITY);
        let mut max = Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
        for point in points.filter(|p| p.x.is_finite() && p.y.is_finite()) {
            min = Point::new(min.x.min(point.x), min.y.min(point.y));
            max = Point::new(max.x.max(point.x), max.y.max(point.y));
        }
        if !min.x.is_finite() {
            (min, max) = (Point::new(0.0, 0.0), Point::new(1.0, 1.0));
        }
        let widths: Vec<f64> = picture
            .cells
            .iter()
            .map(|cell| {
                let xs = cell.outline.iter().map(|p| p.x);
                xs.clone().fold(f64::NEG_INFINITY, f64::max) - xs.fold(f64::INFINITY, f64::min)
            })
            .filter(|w| w.is_finite() && *w > 0.0)
            .collect();
        let widest = widths.iter().copied().fold(0.0, f64::max);
        let narrowest = widths.iter().copied().fold(f64::INFINITY, f64::min);
        let extent = (max.x - min.x).max(max.y - min.y).max(f64::EPSILON);
        let scale = if widths.is_empty() {
            CELL_PIXELS
        } else {
            (CELL_PIXELS / widest).max(NARROW_CELL_PIXELS / narrowest)
        };
        let scale = scale.min(BOARD_PIXELS / extent);
        Layout { min, max, scale }
    }

    fn width(&self) -> f64 {
        (self.max.x - self.min.x) * self.scale
    }

    fn height(&self) -> f64 {
        (self.max.y - self.min.y) * self.scale
    }

    /// A plane point in pixels: the plane's y points north, the picture's down.
    fn place(&self, p: Point) -> Point {
        Point::new(
            MARGIN + (p.x - self.min.x) * self.scale,
            MARGIN + (self.max.y - p.y) * self.scale,
        )
    }

    fn draw(&self, picture: &Picture, palette: &[Colours], cell_ids: CellIds, out: &mut String) {
        let _ = writeln!(
            out,
            r##"<g stroke="#5a4a32" stroke-width="1" stroke-linejoin="round">"##
        );
        for (index, cell) in picture.cells.iter().enumerate() {
            let corners: Vec<String> = cell
                .outline
                .iter()
                .map(|&p| {
                    let p = self.place(p);
                    format!("{},{}", number(p.x), number(p.y))
                })
                .collect();
            let shade = SHADES[usize::from(cell.shade) % SHADES.len()];
            let class = match cell_ids {
                CellIds::Omitted => "",
                CellIds::Marked => r#" class="cell""#,
            };
            let _ = writeln!(
                out,
                r#"<polygon{class}{} points="{}" fill="{shade}"/>"#,
                cell_ids.attribute(index),
                corners.join(" ")
            );
        }
        let _ = writeln!(out, "</g>");

        let _ = writeln!(out, r##"<g fill="#6b5a3e" text-anchor="middle">"##);
        for cell in &picture.cells {
            let Some(label) = &cell.label else { continue };
            let (at, size) = self.label_place(cell);
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="{}">{}</text>"#,
                number(at.x),
                number(at.y),
                number(size),
                escape(&shorten(label))
            );
        }
        for caption in &picture.captions {
            let at = self.place(caption.at);
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="14" fill="#222222">{}</text>"##,
                number(at.x),
                number(at.y),
                escape(&shorten(&caption.text))
            );
        }
        let _ = writeln!(out, "</g>");

        for piece in &picture.pieces {
            self.draw_piece(picture, palette, piece, cell_ids, out);
        }
    }

    /// Where a cell's label goes and its size: low in the cell, under where a piece stands,
    /// when the cell is round enough to leave room there (squares, hexagons, octagons); nearer
    /// the centre in a triangle, and at the centre of a square standing on a corner.
    fn label_place(&self, cell: &Cell) -> (Point, f64) {
        let centre = self.place(cell.centre());
        let radius = cell.inner_radius() * self.scale;
        let xs = cell.outline.iter().map(|p| p.x);
        let half_width =
            (xs.clone().fold(f64::NEG_INFINITY, f64::max) - xs.fold(f64::INFINITY, f64::min)) / 2.0;
        let round = half_width > 0.0 && cell.inner_radius() / half_width > 0.95;
        let (drop, size) = match (round, cell.outline.len()) {
            (true, _) => (0.85, 0.42),
            (false, 3) => (0.45, 0.6),
            (false, _) => (0.0, 0.75),
        };
        let at = Point::new(centre.x, centre.y + radius * drop);
        (at, (radius * size).clamp(5.0, 12.0))
    }

    fn draw_piece(
        &self,
        picture: &Picture,
        palette: &[Colours],
        piece: &PieceMark,
        cell_ids: CellIds,
        out: &mut String,
    ) {
        let Some(cell) = picture.cells.get(piece.cell) else {
            return;
        };
        let inner = cell.inner_radius() * self.scale;
        let centre = self.place(cell.centre());
        let centre = Point::new(centre.x, centre.y - inner * 0.15);
        let radius = inner * 0.6;
        let (fill, stroke, text_colour) = colours(piece.owner, palette);
        let owner = piece
            .owner
            .and_then(|role| picture.roles.get(role))
            .map_or_else(String::new, |role| format!(" of {role}"));
        let stack = if piece.count > 1 {
            format!(", a stack of {}", piece.count)
        } else {
            String::new()
        };
        let _ = writeln!(out, "<g{}>", cell_ids.attribute(piece.cell));
        let _ = writeln!(
            out,
            "<title>{}</title>",
            escape(&shorten(&format!("{}{owner}{stack}", piece.name)))
        );
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
            number(centre.x),
            number(centre.y),
            number(radius)
        );
        let short = initials(&piece.name);
        if !short.is_empty() {
            let size = (radius * if short.chars().count() > 1 { 0.8 } else { 1.1 }).max(4.0);
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" font-size="{}" fill="{text_colour}" text-anchor="middle" dominant-baseline="central">{}</text>"#,
                number(centre.x),
                number(centre.y),
                number(size),
                escape(&short)
            );
        }
        if piece.count > 1 {
            let badge = Point::new(centre.x + radius * 0.75, centre.y - radius * 0.75);
            let badge_radius = (radius * 0.5).max(6.0);
            let _ = writeln!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#ffd54f" stroke="#7a5c00" stroke-width="1"/>"##,
                number(badge.x),
                number(badge.y),
                number(badge_radius)
            );
            let _ = writeln!(
                out,
                r##"<text x="{}" y="{}" font-size="{}" fill="#222222" text-anchor="middle" dominant-baseline="central">{}</text>"##,
                number(badge.x),
                number(badge.y),
                number(badge_radius * 1.2),
                piece.count
            );
        }
        let _ = writeln!(out, "</g>");
    }
}

type Colours = (&'static str, &'static str, &'static str);

/// Each role's colours: those its name says when every role's name is a different colour
/// (`red` and `black` in connect four), else the palette's in role order.
fn role_colours(roles: &[String]) -> Vec<Colours> {
    let named: Option<Vec<Colours>> = roles
        .iter()
        .map(|role| {
            NAMED_COLOURS
                .iter()
                .find(|(name, ..)| role.eq_ignore_ascii_case(name))
                .map(|&(_, fill, stroke, text)| (fill, stroke, text))
        })
        .collect();
    match named {
        Some(named) if distinct(&named) => named,
        _ => (0..roles.len())
            .map(|role| PLAYER_COLOURS[role % PLAYER_COLOURS.len()])
            .collect(),
    }
}

fn distinct(colours: &[Colours]) -> bool {
    colours
        .iter()
        .enumerate()
        .all(|(i, colour)| !colours[..i].contains(colour))
}

fn colours(owner: Option<usize>, roles: &[Colours]) -> Colours {
    owner.map_or(NEUTRAL_COLOURS, |role| {
        roles
            .get(role)
            .copied()
            .unwrap_or(PLAYER_COLOURS[role % PLAYER_COLOURS.len()])
    })
}

/// What a piece shows: its name when short (GDL marks such as `x` or `wr`), else its initial.
fn initials(name: &str) -> String {
    if name.chars().count() <= 2 {
        name.to_owned()
    } else {
        name.chars().take(1).flat_map(char::to_uppercase).collect()
    }
}

/// A text cut to [`MAX_TEXT`] characters.
fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_TEXT {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(MAX_TEXT - 1).collect();
        short.push('…');
        short
    }
}

/// A number of pixels with one decimal, never `-0.0`: stable across platforms and runs.
fn number(value: f64) -> String {
    let value = if value.is_finite() { value } else { 0.0 };
    let text = format!("{value:.1}");
    if text == "-0.0" {
        "0.0".to_owned()
    } else {
        text
    }
}

/// Text for an SVG element or attribute: markup characters escaped, and the control
/// characters XML does not allow replaced.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, label: &str) -> Cell {
        Cell {
            outline: vec![
                Point::new(x, y),
                Point::new(x + 1.0, y),
                Point::new(x + 1.0, y + 1.0),
                Point::new(x, y + 1.0),
            ],
            label: Some(label.to_owned()),
            shade: 0,
        }
    }

    #[test]
    fn text_from_games_is_escaped() {
        let picture = Picture {
            roles: vec!["<script>".to_owned(), "a&b".to_owned()],
            cells: vec![square(0.0, 0.0, "\"A1\"")],
            pieces: vec![PieceMark {
                cell: 0,
                owner: Some(1),
                name: "it's".to_owned(),
                count: 1,
            }],
            captions: Vec::new(),
            notes: vec!["(cell 1 1 <x>)\u{7}".to_owned()],
        };
        let svg = svg(&picture);
        assert!(!svg.contains("<script>"));
        assert!(svg.contains("&lt;script&gt;"));
        assert!(svg.contains("a&amp;b"));
        assert!(svg.contains("&quot;A1&quot;"));
        assert!(svg.contains("it&apos;s"));
        assert!(svg.contains("(cell 1 1 &lt;x&gt;)\u{FFFD}"));
    }

    #[test]
    fn the_board_is_flipped_north_up() {
        let picture = Picture {
            cells: vec![square(0.0, 0.0, "A1"), square(0.0, 1.0, "A2")],
            ..Picture::default()
        };
        let svg = svg(&picture);
        let y_of = |label: &str| -> f64 {
            let at = svg.find(&format!(">{label}<")).expect("the label");
            let before = &svg[..at];
            let y = before.rfind("y=\"").expect("a y") + 3;
            before[y..].split('"').next().unwrap().parse().unwrap()
        };
        assert!(y_of("A2") < y_of("A1"), "A2 is drawn above A1");
    }

    #[test]
    fn huge_boards_are_summarised() {
        let cells = (0..=MAX_DRAWN_CELLS)
            .map(|i| square(i as f64, 0.0, "x"))
            .collect();
        let svg = svg(&Picture {
            cells,
            ..Picture::default()
        });
        assert!(!svg.contains("<polygon"));
        assert!(svg.contains("too many to draw"));
    }

    #[test]
    fn cells_and_pieces_are_marked_with_their_cell_only_when_asked() {
        let picture = Picture {
            roles: vec!["white".to_owned()],
            cells: vec![square(0.0, 0.0, "A1"), square(1.0, 0.0, "B1")],
            pieces: vec![PieceMark {
                cell: 1,
                owner: Some(0),
                name: "x".to_owned(),
                count: 1,
            }],
            ..Picture::default()
        };
        let plain = svg(&picture);
        assert!(!plain.contains("data-cell"));
        let marked = svg_with_cell_ids(&picture);
        assert_eq!(
            marked
                .matches(r#"<polygon class="cell" data-cell="0""#)
                .count(),
            1
        );
        assert_eq!(
            marked
                .matches(r#"<polygon class="cell" data-cell="1""#)
                .count(),
            1
        );
        assert_eq!(
            marked.matches(r#"<g data-cell="1">"#).count(),
            1,
            "the piece"
        );
        // Nothing else differs.
        let unmarked = marked
            .replace(r#" class="cell""#, "")
            .replace(r#" data-cell="0""#, "")
            .replace(r#" data-cell="1""#, "");
        assert_eq!(unmarked, plain);
    }

    #[test]
    fn numbers_have_one_decimal_and_no_negative_zero() {
        assert_eq!(number(-0.01), "0.0");
        assert_eq!(number(1.26), "1.3");
        assert_eq!(number(f64::NAN), "0.0");
    }
}

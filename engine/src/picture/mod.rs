//! Board pictures: a language-neutral model of a position, drawn from each engine's own
//! geometry ([`Depict`]), for front ends to turn into SVG or anything else.
//!
//! A [`Picture`] is a set of cells — polygons in a plane whose y axis points north, as boards
//! are read — with labels and a shade, the pieces on them (owner, name, stack height), captions
//! (a 3-D board's layers) and notes: what the position holds besides the board (whose turn it
//! is, hands, scores, a GDL game's other fluents). The engines fill it in: [`ludi`] from the
//! board graph's coordinates for every tiling, [`egg`] from the grid, [`gdl`] by recognising a
//! board among the fluents.

mod egg;
mod gdl;
mod ludi;

use crate::{Game, RoleIndex};

/// A point of the picture's plane: x grows eastwards, y northwards; one unit is about a cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }
}

/// A cell: a convex polygon.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The corners, in order around the cell.
    pub outline: Vec<Point>,
    /// The cell's name (`A1`), if it is shown.
    pub label: Option<String>,
    /// The cell's colour class (0, 1 or 2), as on a checkerboard.
    pub shade: u8,
}

impl Cell {
    /// The centroid of the corners: the centre of the regular polygons boards are made of.
    pub fn centre(&self) -> Point {
        let n = self.outline.len().max(1) as f64;
        let (x, y) = self
            .outline
            .iter()
            .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
        Point::new(x / n, y / n)
    }

    /// The distance from the centre to the nearest side: the radius of the largest circle
    /// centred in the cell that stays inside it.
    pub fn inner_radius(&self) -> f64 {
        let centre = self.centre();
        let corners = self.outline.len();
        (0..corners)
            .map(|i| {
                let (a, b) = (self.outline[i], self.outline[(i + 1) % corners]);
                let (dx, dy) = (b.x - a.x, b.y - a.y);
                let length = dx.hypot(dy);
                if length == 0.0 {
                    f64::INFINITY
                } else {
                    ((centre.x - a.x) * dy - (centre.y - a.y) * dx).abs() / length
                }
            })
            .fold(f64::INFINITY, f64::min)
            .min(1e6)
    }
}

/// A piece (or a stack of pieces) on a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMark {
    /// The index of the cell in [`Picture::cells`].
    pub cell: usize,
    /// The player it belongs to; `None` for a neutral piece.
    pub owner: Option<RoleIndex>,
    /// The piece's name as the game writes it (the top piece's, for a stack).
    pub name: String,
    /// The pieces in the stack: 1 for a single piece.
    pub count: usize,
}

/// A text placed in the plane (the name of a layer).
#[derive(Clone, Debug, PartialEq)]
pub struct Caption {
    /// Where the text's baseline is centred.
    pub at: Point,
    pub text: String,
}

/// A position, ready to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    /// The roles, in the game's order: owners index them.
    pub roles: Vec<String>,
    pub cells: Vec<Cell>,
    pub pieces: Vec<PieceMark>,
    pub captions: Vec<Caption>,
    /// Lines of text shown beside the board.
    pub notes: Vec<String>,
}

/// A game whose positions can be drawn.
pub trait Depict: Game {
    /// The picture of `state`.
    fn picture(&self, state: &Self::State) -> Picture;
}

/// The regular polygon of `corners` corners centred on `centre`, with corners `radius` away,
/// the first at `first_angle` degrees anticlockwise from east.
fn regular_polygon(centre: Point, corners: usize, radius: f64, first_angle: f64) -> Vec<Point> {
    (0..corners)
        .map(|i| {
            let angle = (first_angle + 360.0 * i as f64 / corners as f64).to_radians();
            Point::new(
                centre.x + radius * angle.cos(),
                centre.y + radius * angle.sin(),
            )
        })
        .collect()
}

/// The unit square whose south-west corner is `(x, y)`.
fn unit_square(x: f64, y: f64) -> Vec<Point> {
    vec![
        Point::new(x, y),
        Point::new(x + 1.0, y),
        Point::new(x + 1.0, y + 1.0),
        Point::new(x, y + 1.0),
    ]
}

/// The centre of the hexagon at axial (column, row), rows 1.5 apart northwards, for hexagons
/// with corners 1 from their centre and points up. Each row is shifted by `row_shift` of a
/// cell's width from the one before: −½ when the diagonal neighbours differ by ±(1, 1) (Ludi),
/// +½ when they differ by ±(1, −1) (EGGG).
fn hexagon_centre(column: i64, row: i64, row_shift: f64) -> Point {
    let root3 = 3f64.sqrt();
    Point::new(
        root3 * (column as f64 + row_shift * row as f64),
        1.5 * row as f64,
    )
}

#[cfg(test)]
mod tests;

//! Board graphs: cells with integer coordinates, the neighbours of each cell in every direction
//! of the tiling, and the line axes `in-a-row`, `flank` and `num-between` walk along.
//!
//! Every tiling but the triangular one is a lattice: a cell's neighbour in a direction is the
//! cell at its coordinates plus the direction's vector, so one table (`step`) answers both
//! adjacency and lines. Square cells sit at (column, row, layer); hex cells at axial
//! (column, row), where the six neighbours differ by (±1, 0), (0, ±1) and ±(1, 1) (docs/ludi.md
//! "Cell names"); the 4.8.8 tiling puts octagons at even (2i, 2j) and the small squares between
//! them at odd coordinates. Triangles alternate up and down along a row, so the triangular
//! tiling gets its neighbours explicitly and has no straight lines.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Adjacency, BoardSpec, Compass, LudiError, Shape, Symmetry, Tiling};

/// A cell's index into the board's tables.
pub type CellIndex = u16;

/// "No cell": off the board.
pub const NO_CELL: CellIndex = CellIndex::MAX;

/// The largest board the engine builds: cell indices are `u16`, and every table is a few bytes
/// per cell and direction.
pub const MAX_CELLS: usize = 16_384;

type Coord = [i32; 3];

#[derive(Clone, Debug)]
pub struct Board {
    coords: Vec<Coord>,
    /// The direction vectors; the first `direct_directions` are the tiling's edge neighbours,
    /// the rest touch at a corner only.
    directions: Vec<Coord>,
    direct_directions: usize,
    /// `step[cell * directions + d]`: the neighbour of `cell` in direction `d`, or [`NO_CELL`].
    step: Vec<CellIndex>,
    /// Neighbours sharing an edge (`d-nbors`).
    direct: Vec<Vec<CellIndex>>,
    /// Neighbours sharing an edge or a corner (`i-nbors`).
    all: Vec<Vec<CellIndex>>,
    /// Pairs of opposite directions along which lines run: (forwards, backwards).
    axes: Vec<(usize, usize)>,
    /// The axes along edge directions only (an end condition's `d-nbors`).
    direct_axes: Vec<(usize, usize)>,
    /// The axes along every direction, corners included (an end condition's `i-nbors`).
    all_axes: Vec<(usize, usize)>,
    /// The colour class of each cell (checkerboard on square boards, three colours on hex).
    phases: Vec<u8>,
    /// The cells of each board side, by [`Compass`] order.
    sides: [Vec<CellIndex>; 8],
    /// `i-nbors` written: adjacency, groups and lines include corner neighbours.
    diagonal: bool,
    /// The longest straight line of cells the board has.
    longest_line: usize,
    /// `distances[a * cells + b]`: steps from `a` to `b` through the adjacency (`u8::MAX`:
    /// unreachable), for boards of at most [`DISTANCE_TABLE_CELLS`] cells, built the first time
    /// a move asks for a distance: move generation tests `distance` for every candidate move.
    distances: OnceLock<Vec<u8>>,
}

/// The largest board whose distances are tabled (a table of cells² bytes).
const DISTANCE_TABLE_CELLS: usize = 256;

impl Board {
    pub fn new(spec: &BoardSpec) -> Result<Board, LudiError> {
        let size = |i: usize, default: u32| spec.size.get(i).copied().unwrap_or(default);
        let first = size(0, 0);
        if first == 0 {
            return Err(LudiError::new("the board has no size"));
        }
        let (width, height, depth) = (first, size(1, first), size(2, 1));
        let too_big = |cells: u64| {
            LudiError::new(format!(
                "a board of {cells} cells is larger than the engine's {MAX_CELLS}"
            ))
        };
        let box_cells = u64::from(width) * u64::from(height) * u64::from(depth);
        if box_cells > MAX_CELLS as u64 * 4 {
            return Err(too_big(box_cells));
        }
        let (width, height, depth) = (width as i32, height as i32, depth as i32);
        let mut coords: Vec<Coord> = Vec::new();
        match (spec.tiling, spec.shape) {
            (_, Shape::Boardless) => {
                return Err(LudiError::new("boardless games (an unbounded board)"));
            }
            (Tiling::Square, Shape::Square) => {
                for z in 0..depth {
                    for y in 0..height {
                        for x in 0..width {
                            coords.push([x, y, z]);
                        }
                    }
                }
            }
            (Tiling::TruncSquare, Shape::Square) => {
                for y in 0..2 * height - 1 {
                    for x in 0..2 * width - 1 {
                        if x % 2 == y % 2 {
                            coords.push([x, y, 0]);
                        }
                    }
                }
            }
            (Tiling::Hex, shape) => {
                let span = match shape {
                    Shape::Hex => 2 * width - 1,
                    Shape::Trapezium => width + height,
                    _ => width.max(height),
                };
                for y in 0..span {
                    for x in 0..span {
                        let inside = match shape {
                            Shape::Hex => (x - y).abs() < width,
                            Shape::Tri => x <= y && y < width,
                            Shape::Rhombus => x < width && y < height,
                            Shape::Trapezium => y < height && x < width + y,
                            Shape::Square | Shape::Boardless => false,
                        };
                        if inside {
                            coords.push([x, y, 0]);
                        }
                    }
                }
            }
            (Tiling::Tri, Shape::Tri | Shape::Hex | Shape::Rhombus | Shape::Trapezium) => {
                if spec.shape != Shape::Tri {
                    return Err(LudiError::new(
                        "triangular tilings cut to a shape other than a triangle",
                    ));
                }
                // Row r holds 2r + 1 triangles, even x pointing up.
                for y in 0..width {
                    for x in 0..=2 * y {
                        coords.push([x, y, 0]);
                    }
                }
            }
            (tiling, shape) => {
                return Err(LudiError::new(format!(
                    "a {} tiling cut to a {} shape",
                    tiling.name(),
                    shape.name()
                )));
            }
        }
        if coords.len() > MAX_CELLS {
            return Err(too_big(coords.len() as u64));
        }
        let index: HashMap<Coord, CellIndex> = coords
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as CellIndex))
            .collect();
        let (directions, direct_directions): (Vec<Coord>, usize) = match spec.tiling {
            Tiling::Square => {
                let mut direct = Vec::new();
                let mut corner = Vec::new();
                let dz_range = if depth > 1 { -1..=1 } else { 0..=0 };
                for dz in dz_range {
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            let nonzero = [dx, dy, dz].iter().filter(|&&v| v != 0).count();
                            match nonzero {
                                1 => direct.push([dx, dy, dz]),
                                2 | 3 => corner.push([dx, dy, dz]),
                                _ => {}
                            }
                        }
                    }
                }
                let n = direct.len();
                direct.extend(corner);
                (direct, n)
            }
            // Octagons meet octagons across an edge orthogonally and the small squares across
            // an edge diagonally; nothing touches at a corner only.
            Tiling::TruncSquare => (
                vec![
                    [2, 0, 0],
                    [-2, 0, 0],
                    [0, 2, 0],
                    [0, -2, 0],
                    [1, 1, 0],
                    [-1, -1, 0],
                    [1, -1, 0],
                    [-1, 1, 0],
                ],
                8,
            ),
            Tiling::Hex => (
                vec![
                    [1, 0, 0],
                    [-1, 0, 0],
                    [0, 1, 0],
                    [0, -1, 0],
                    [1, 1, 0],
                    [-1, -1, 0],
                ],
                6,
            ),
            Tiling::Tri => (Vec::new(), 0),
        };
        let cells = coords.len();
        let mut step = vec![NO_CELL; cells * directions.len()];
        for (cell, c) in coords.iter().enumerate() {
            for (d, v) in directions.iter().enumerate() {
                // On 4.8.8 the small squares (odd coordinates) touch octagons only.
                let long_step = v[0].abs() == 2 || v[1].abs() == 2;
                if spec.tiling == Tiling::TruncSquare && long_step && c[0] % 2 == 1 {
                    continue;
                }
                let target = [c[0] + v[0], c[1] + v[1], c[2] + v[2]];
                if let Some(&n) = index.get(&target) {
                    step[cell * directions.len() + d] = n;
                }
            }
        }
        let diagonal = spec.diagonal_adjacency;
        let mut direct = vec![Vec::new(); cells];
        let mut all = vec![Vec::new(); cells];
        if spec.tiling == Tiling::Tri {
            for (cell, c) in coords.iter().enumerate() {
                let (x, y) = (c[0], c[1]);
                let mut edge = vec![[x - 1, y, 0], [x + 1, y, 0]];
                // An up triangle shares its base with the down triangle below it in the next
                // row; a down triangle its top with the up triangle above.
                edge.push(if x % 2 == 0 {
                    [x + 1, y + 1, 0]
                } else {
                    [x - 1, y - 1, 0]
                });
                direct[cell] = edge.iter().filter_map(|c| index.get(c).copied()).collect();
                let mut around: Vec<CellIndex> = Vec::new();
                for dy in -1..=1 {
                    for dx in -2..=2 {
                        if let Some(&n) = index.get(&[x + dx, y + dy, 0])
                            && usize::from(n) != cell
                            && triangles_touch(coords[cell], coords[usize::from(n)])
                        {
                            around.push(n);
                        }
                    }
                }
                all[cell] = around;
            }
        } else {
            let width = directions.len();
            for cell in 0..cells {
                for d in 0..width {
                    let n = step[cell * width + d];
                    if n != NO_CELL {
                        if d < direct_directions {
                            direct[cell].push(n);
                        }
                        all[cell].push(n);
                    }
                }
            }
        }
        // Lines run along the edge directions, and along the corner directions too when the
        // board has `i-nbors` (square boards) or corner lines are the only diagonals (4.8.8).
        let line_directions = if diagonal || spec.tiling == Tiling::TruncSquare {
            directions.len()
        } else {
            direct_directions
        };
        let axes_up_to = |count: usize| {
            let mut axes = Vec::new();
            for d in 0..count {
                let v = directions[d];
                let opposite = directions
                    .iter()
                    .position(|w| w[0] == -v[0] && w[1] == -v[1] && w[2] == -v[2]);
                if let Some(o) = opposite
                    && d < o
                {
                    axes.push((d, o));
                }
            }
            axes
        };
        let axes = axes_up_to(line_directions);
        let direct_axes = axes_up_to(direct_directions);
        let all_axes = axes_up_to(directions.len());
        let phases = coords
            .iter()
            .map(|c| match spec.tiling {
                Tiling::Square => ((c[0] + c[1] + c[2]).rem_euclid(2)) as u8,
                Tiling::Hex => ((c[0] + c[1]).rem_euclid(3)) as u8,
                Tiling::TruncSquare => {
                    if c[0] % 2 == 1 {
                        2
                    } else {
                        ((c[0] / 2 + c[1] / 2) % 2) as u8
                    }
                }
                Tiling::Tri => (c[0].rem_euclid(2)) as u8,
            })
            .collect();
        let mut board = Board {
            coords,
            directions,
            direct_directions,
            step,
            direct,
            all,
            axes,
            direct_axes,
            all_axes,
            phases,
            sides: Default::default(),
            diagonal,
            longest_line: 0,
            distances: OnceLock::new(),
        };
        board.sides = board.compute_sides(spec.shape, spec.tiling, width);
        board.longest_line = (0..board.cell_count())
            .flat_map(|cell| {
                let board = &board;
                board.axes.iter().map(move |&(forward, backward)| {
                    if board.neighbour(cell as CellIndex, backward) == NO_CELL {
                        board.ray(cell as CellIndex, forward).count() + 1
                    } else {
                        0
                    }
                })
            })
            .max()
            .unwrap_or(1)
            .max(1);
        Ok(board)
    }

    fn compute_sides(&self, shape: Shape, tiling: Tiling, side: i32) -> [Vec<CellIndex>; 8] {
        let mut sides: [Vec<CellIndex>; 8] = Default::default();
        let rows: Vec<i32> = self.coords.iter().map(|c| c[1]).collect();
        let (min_row, max_row) = (
            rows.iter().copied().min().unwrap_or(0),
            rows.iter().copied().max().unwrap_or(0),
        );
        let max_column = self.coords.iter().map(|c| c[0]).max().unwrap_or(0);
        let min_column = self.coords.iter().map(|c| c[0]).min().unwrap_or(0);
        // The first and last cell of each row.
        let mut row_ends: HashMap<i32, (i32, i32)> = HashMap::new();
        for c in &self.coords {
            let entry = row_ends.entry(c[1]).or_insert((c[0], c[0]));
            entry.0 = entry.0.min(c[0]);
            entry.1 = entry.1.max(c[0]);
        }
        for (cell, c) in self.coords.iter().enumerate() {
            let (x, y) = (c[0], c[1]);
            let (_, last) = row_ends[&y];
            let mut put = |compass: Compass| sides[compass as usize].push(cell as CellIndex);
            if y == min_row {
                put(Compass::S);
            }
            if y == max_row {
                put(Compass::N);
            }
            // West is the first column (docs/ludi.md, "Board sides").
            if x == min_column {
                put(Compass::W);
            }
            // A hexagon has six sides, so its east side is the last column, not the last cell
            // of each row (which would take in the south-east side too).
            let east = if tiling == Tiling::Hex && shape == Shape::Hex {
                x == max_column
            } else {
                x == last
            };
            if east {
                put(Compass::E);
            }
            if tiling == Tiling::Hex && shape == Shape::Hex {
                if x - y == side - 1 {
                    put(Compass::SE);
                }
                if y - x == side - 1 {
                    put(Compass::NW);
                }
            }
        }
        sides
    }

    pub fn cell_count(&self) -> usize {
        self.coords.len()
    }

    /// The coordinates of `cell` as the module's opening describes them (column, row, layer),
    /// for drawing and naming the board; `None` off the board.
    pub fn coordinates(&self, cell: CellIndex) -> Option<[i32; 3]> {
        self.coords.get(usize::from(cell)).copied()
    }

    /// The neighbour of `cell` in direction `d`, or [`NO_CELL`].
    #[inline]
    pub fn neighbour(&self, cell: CellIndex, d: usize) -> CellIndex {
        self.step
            .get(usize::from(cell) * self.directions.len() + d)
            .copied()
            .unwrap_or(NO_CELL)
    }

    /// The cells after `cell` in direction `d`, nearest first, to the board's edge.
    pub fn ray(&self, cell: CellIndex, d: usize) -> impl Iterator<Item = CellIndex> + '_ {
        let mut at = cell;
        std::iter::from_fn(move || {
            at = self.neighbour(at, d);
            (at != NO_CELL).then_some(at)
        })
    }

    pub fn direction_count(&self) -> usize {
        self.directions.len()
    }

    /// The line axes: (forwards, backwards) direction pairs.
    pub fn axes(&self) -> &[(usize, usize)] {
        &self.axes
    }

    /// The line axes under an end condition's adjacency (`None`: the board's own).
    pub fn axes_for(&self, adjacency: Option<Adjacency>) -> &[(usize, usize)] {
        match adjacency {
            None => &self.axes,
            Some(Adjacency::Direct) => &self.direct_axes,
            Some(Adjacency::All) => &self.all_axes,
        }
    }

    /// The cells adjacent to `cell` under an end condition's adjacency (`None`: the board's).
    pub fn neighbours_for(&self, cell: CellIndex, adjacency: Option<Adjacency>) -> &[CellIndex] {
        match adjacency {
            None => self.neighbours(cell),
            Some(Adjacency::Direct) => self.direct_neighbours(cell),
            Some(Adjacency::All) => self.all_neighbours(cell),
        }
    }

    /// The image of `cell` under a symmetry of the board's bounding box, if it is a cell of
    /// the board: half a turn about the centre, or the reflection across the middle row.
    pub fn image(&self, cell: CellIndex, symmetry: Symmetry) -> Option<CellIndex> {
        let [x, y, z] = self.coordinates(cell)?;
        let span = |axis: usize| {
            let values = self.coords.iter().map(|c| c[axis]);
            values.clone().min().unwrap_or(0) + values.max().unwrap_or(0)
        };
        let image = match symmetry {
            Symmetry::HalfTurn => [span(0) - x, span(1) - y, z],
            Symmetry::Reflect => [x, span(1) - y, z],
        };
        self.coords
            .iter()
            .position(|&c| c == image)
            .map(|i| i as CellIndex)
    }

    /// The directions lines run in (both ways along every axis).
    pub fn line_directions(&self) -> impl Iterator<Item = usize> + '_ {
        self.axes.iter().flat_map(|&(f, b)| [f, b])
    }

    /// The cells adjacent to `cell` under the board's adjacency (`i-nbors` or not).
    pub fn neighbours(&self, cell: CellIndex) -> &[CellIndex] {
        let table = if self.diagonal {
            &self.all
        } else {
            &self.direct
        };
        table.get(usize::from(cell)).map_or(&[], Vec::as_slice)
    }

    pub fn direct_neighbours(&self, cell: CellIndex) -> &[CellIndex] {
        self.direct
            .get(usize::from(cell))
            .map_or(&[], Vec::as_slice)
    }

    pub fn all_neighbours(&self, cell: CellIndex) -> &[CellIndex] {
        self.all.get(usize::from(cell)).map_or(&[], Vec::as_slice)
    }

    pub fn phase(&self, cell: CellIndex) -> u8 {
        self.phases.get(usize::from(cell)).copied().unwrap_or(0)
    }

    pub fn side(&self, compass: Compass) -> &[CellIndex] {
        &self.sides[compass as usize]
    }

    pub fn longest_line(&self) -> usize {
        self.longest_line
    }

    /// The cell named by (column, row) as `A1` names it, if it is on the board. On the 4.8.8
    /// tiling names count octagons.
    pub fn cell_at(&self, column: u32, row: u32, tiling: Tiling) -> Option<CellIndex> {
        let (x, y) = (i32::try_from(column).ok()?, i32::try_from(row).ok()?);
        let (x, y) = match tiling {
            Tiling::TruncSquare => (x.checked_mul(2)?, y.checked_mul(2)?),
            _ => (x, y),
        };
        self.coords
            .iter()
            .position(|c| c[0] == x && c[1] == y && c[2] == 0)
            .map(|i| i as CellIndex)
    }

    /// The edge directions of the tiling (the turtle's headings).
    pub fn direct_direction_count(&self) -> usize {
        self.direct_directions
    }

    /// The direction vector of `d`.
    pub fn direction(&self, d: usize) -> [i32; 3] {
        self.directions[d]
    }

    /// The direction whose vector is `v`, if the tiling has it.
    pub fn direction_of(&self, v: [i32; 3]) -> Option<usize> {
        self.directions.iter().position(|&w| w == v)
    }

    /// The number of steps from `from` to `to` through the board's adjacency, if connected.
    pub fn distance(&self, from: CellIndex, to: CellIndex) -> Option<usize> {
        let cells = self.cell_count();
        if usize::from(from) >= cells || usize::from(to) >= cells {
            return None;
        }
        if cells > DISTANCE_TABLE_CELLS {
            return self.distances_from(from)[usize::from(to)];
        }
        let table = self.distances.get_or_init(|| {
            (0..cells as CellIndex)
                .flat_map(|a| {
                    self.distances_from(a)
                        .into_iter()
                        .map(|d| d.map_or(u8::MAX, |d| d.min(usize::from(u8::MAX - 1)) as u8))
                })
                .collect()
        });
        let d = table[usize::from(from) * cells + usize::from(to)];
        (d != u8::MAX).then_some(usize::from(d))
    }

    /// The steps from `from` to every cell (breadth first through the adjacency).
    fn distances_from(&self, from: CellIndex) -> Vec<Option<usize>> {
        let mut distance = vec![None; self.cell_count()];
        distance[usize::from(from)] = Some(0);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            let next = distance[usize::from(at)].map(|d| d + 1);
            for &n in self.neighbours(at) {
                if distance[usize::from(n)].is_none() {
                    distance[usize::from(n)] = next;
                    queue.push_back(n);
                }
            }
        }
        distance
    }

    /// The number of steps from `a` to `b` along a straight line, if they share one.
    pub fn line_distance(&self, a: CellIndex, b: CellIndex) -> Option<(usize, usize)> {
        self.line_directions().find_map(|d| {
            self.ray(a, d)
                .position(|cell| cell == b)
                .map(|steps| (d, steps + 1))
        })
    }
}

/// Whether two triangles of a triangular tiling share at least a corner. The triangle (x, y)
/// has corners on the lattice of points (column, row); an up triangle (even x) spans
/// (x/2, y)..(x/2 + 1, y + 1), a down one the points around it.
fn triangles_touch(a: Coord, b: Coord) -> bool {
    let corners = |c: Coord| -> [(i32, i32); 3] {
        let (x, y) = (c[0], c[1]);
        let k = x.div_euclid(2);
        if x % 2 == 0 {
            [(k, y), (k, y + 1), (k + 1, y + 1)]
        } else {
            [(k, y), (k + 1, y), (k + 1, y + 1)]
        }
    };
    let ca = corners(a);
    corners(b).iter().any(|p| ca.contains(p))
}

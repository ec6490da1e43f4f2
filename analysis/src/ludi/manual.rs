//! The Ludi manual, `docs/ludi.md`, generated from the schema: one entry per ludeme with its
//! meaning, how it is written, its arguments, its default, where it may appear, an example and
//! its English. A test keeps the committed file equal to [`manual`]
//! (`LUDEME_UPDATE_DOCS=1 cargo test -p ludeme-analysis ludi::manual` rewrites it).

use std::fmt::Write;

use crate::ludi::schema::{self, Form, Kind, LUDEMES, Ludeme};

/// The manual's introduction: the language in brief and the meanings this project chose where
/// the seed is silent.
const INTRODUCTION: &str = "\
# Ludi GDL manual

Ludi GDL is the game description language of Browne and Maire, *Evolutionary Game Design*
(IEEE TCIAIG 2(1), 2010, Appendix I). A game is a tree of ludemes, `(name arguments...)`:

```
(game Tic-Tac-Toe
  (players White Black)
  (board (tiling square i-nbors) (size 3 3))
  (end (All win (in-a-row 3))))
```

`;` starts a comment. This manual is generated from the schema in
`analysis/src/ludi/schema/table.rs`, which the checker (`ludeme check`), the editor's completion
and hovers, and the English renderer (`ludeme explain`) all read. Each `ludi/...` diagnostic
links to an entry here.

## Choices where the seed is silent

- **Defaults.** Without `pieces`, each player places one piece of their colour on an empty cell
  per turn (one piece type, named `Piece`, owned by `All`). Without `start`, the board is empty.
  Players hold every piece type in hand without limit, unless `in-hand` gives a number (Valion
  places a stone of each colour with `start` and then places stones from unlimited hands;
  Gorodruir gives each player five). Without `play`, players cannot pass voluntarily, but a player with no
  move passes (unless `no-move` ends the game). Without `shape`, the board has the tiling's own
  shape (square for square and 4.8.8 tilings, hex for hex, tri for tri).
- **Arguments by type.** A ludeme's arguments are matched to its parameters by type, so
  `(capture d-nbors (if ...))` and `(capture (if ...) d-nbors)` mean the same. Numbers and
  names of the same type are taken in order (`(> left right)`).
- **End clauses.** After each move every clause is tested for every player it names (`All`:
  each player). For one player the first clause that holds, in the order written, decides. When
  a move ends the game for several players at once, the tie rule decides (`mover-wins` unless
  `mover-loses` or `draw` is written). A game exceeding twice the preferred length (120 moves) is
  a draw. `in-a-row N` holds for a line of *at least* N (Yavalath writes
  `(and (in-a-row 3) (not (in-a-row 4)))` for exactly three). `no-move` holds for the player to
  move when they have no legal move.
- **Record names.** A list headed by a name the game declares is a record: `(White N)` in
  `players`, `(Stone All ...)` in `pieces`, `(All win ...)` in `end`, `(Stone White)` in `place`
  and `in-hand`, `(Goal White A8 B8)` in `regions`, `(mobility 0.5)` in `advisors`.
- **Turtle paths.** Knight-like moves are written `(steps f f r)` in `pre`.
- **Captures.** `surround` takes enemy groups next to the destination left with no empty
  neighbour (as in Go); `d-nbors` the enemy pieces on the destination's orthogonal neighbours
  (the default), `i-nbors` on all its neighbours; `flank` those in a line between the
  destination and another piece of the mover (as in Othello); `replace` the enemy pieces under
  the moved piece on the destination, so that a move onto an enemy piece takes it (capture by
  replacement, as in Chess; Breakthrough, Clobber, Hexapawn). Without `replace`, a piece moved
  onto another is stacked on it, as the seed's `push` says. `(if ...)` filters the candidates,
  each tested as the cell `current` (for `replace`, the destination).
- **Home.** A player's home row is the edge opposite their compass direction; without
  directions, the first row for the first player and the last row for the second. The seed
  places pieces \"relative to each player's home row\", so `home` is read for each player: a
  start that places one player's pieces on `home`, of a type every player has (`(Stone All
  ...)`) and without `symmetric`, places the same on their own home row for each player it
  otherwise gives nothing (no placement names them, nothing in hand). Teiglith, as the paper
  prints it, has only `(place (Stone White) home)`: read for White alone, Black has no stone and
  wins at once by `(All win (no-move))`, yet the paper ranks Teiglith fourth of its viable
  games, which needs Black's stones. A player the start names gets exactly what it names
  (`(place (Pawn White) home) (place (Pawn Black) home)` places each once), and a type of one
  player's own is never given to another.
- **Game parameters.** The seed's grammar shows `(game NAME [params] ...)` without saying what
  the params are. Here they are numbers and strings written after the name,
  `(game Hex 11 \"swap\" ...)`: a variant's parameters, kept with the name and shown with it
  (\"Hex (11, swap)\"). No rule reads them; the board's size is still `size`.
- **Piece set.** Likewise `(pieces piece_defns [NAME])`: a name after the piece definitions
  names the set they make up, `(pieces (Stone All ...) Stones)`, said in the rules and changing
  nothing else.
- **Orientation.** Every piece faces a direction, at first its owner's (see *Directions*), and
  carries its orientation as it moves, is stacked or converted. `(rotate l)` and `(rotate r)` in
  `post` turn the moved piece by one of the tiling's headings (a quarter turn on square and 4.8.8
  cells, a sixth on hex cells), `(rotate b)` half round, `(rotate r 2)` twice. A move's turtle
  direction `(dirn f|b|l|r)` is relative to the moving piece's orientation; a compass direction
  stays absolute. A turtle path `(steps ...)` starts along any heading, so that a knight-like
  leap goes every way whatever the piece faces. Triangular cells have no headings: a rotation
  there is the error `ludi/inapplicable`, as is `(rotate f)`, which does not turn.
- **Place specifiers.** `(cell-phase N)` in `place` keeps only the cells of phase N among the
  locations (checkers' dark squares: `(place (Man White) Camp (cell-phase 1))`).
  `(symmetric half-turn Black)` also places the same pieces for Black on the images of those
  cells under half a turn about the board's centre; `(symmetric reflect Black)` on their mirror
  images across the middle row. A half turn fits square boards, hexagons and rhombuses; a
  reflection only square cells (mirrored hex rows are not hex rows); elsewhere, and for a phase
  the tiling lacks, the checker reports `ludi/inapplicable`.
- **End condition constraints.** `connect`, `group` and `in-a-row` take an adjacency, `d-nbors`
  (only neighbours across an edge join pieces or make lines) or `i-nbors` (corner neighbours
  too), whatever the board's own adjacency; `connect` and `group` take a stacking constraint,
  `(min-height N)`: only pieces on top of stacks at least N high count. `stack` takes a piece
  type (the piece on top) and `pure`: every piece of the stack the player's. Hexagonal cells have
  no corner neighbours, so `i-nbors` on them is reported (`ludi/inapplicable`).
- **Pie rule.** `(play swap)` is the appendix's first-move equalizer: on the second move
  of the game (when the first was not a pass) the second player may answer `swap` instead of
  moving. The board stays as it is; the seats change: the second player takes the first colour
  and its stone, and the first player moves next with the second colour. Results are given to
  the players by the colour they hold at the end. Two players only.
- **Flags.** `(flags NAME...)` declares flags the pieces of a type carry, each a yes/no that
  travels with the piece (stacked, moved or converted); all are clear when a piece enters play.
  `(set-flag NAME)` and `(clear-flag NAME)` in `post` change the moved piece's;
  `(flag NAME [CELL])` in `pre` or `if` tests the piece on the cell (without a cell, the moving
  piece on the origin: a piece being placed has none set). At most 8 distinct flags per game. A
  flag that no move tests, or that no move sets, gets the warning `ludi/inert-flag`.
- **Cell state.** Every cell has a state number, 0 at the start; `(set-cell-state N [CELL])` in
  `post` sets the destination's (or, with `from`, the cell the piece left), and
  `(cell-state CELL)` reads it in conditions. Cell states belong to the board, not to pieces:
  they stay when pieces come and go.
- **Displacement.** `(displace)` in `post` pushes each piece on a neighbour of the destination
  (across an edge; with `i-nbors`, diagonal neighbours too) one cell further along the line from
  the destination, friend or enemy alike, when that cell is on the board and empty; a piece with
  no room stays, and none is pushed off the board. Only the top piece of a stack moves.
- **Group.** `(group)` without a size holds when all the player's pieces (at least two) form one
  connected group.
- **Group size.** `(group-size CELL)` in a move's `pre` is measured on the position before the
  move: the number of pieces in the group of same-owner pieces on that cell, 0 when it is empty.
  So Teiglith's `(> (group-size to) (phase to))` allows a move only onto an occupied cell
  (the move stacks on it): onto a light cell (phase 0) above any group, onto a dark one (phase
  1) above a group of two or more.
- **Connect.** `(connect Region...)` needs one chain touching every target; with a count first,
  `(connect 3 Side1 ... Side6)`, any that many of them (Havannah's fork and bridge).
- **Directions.** `(dirn D)` restricts a move to the cells along that direction from the
  origin (add `(= (distance) 1)` for one step); a turtle step is relative to the piece's
  orientation, which is its owner's direction until the piece turns (`f`: towards it; without
  a declared direction, north for the first player and south for the second). A direction the
  tiling does not have (north-west on hex cells) gives no move.

## Cell names

Cells are named by column letters then row number: `A1` is the first column of the first row,
`AA1` the 27th column. Square boards of W×H cells run from `A1` to the W-th letter and row H.
Hex boards use axial coordinates over their bounding parallelogram: on a hexagon of side n,
columns and rows run 1..2n−1 and a cell exists when its column and row differ by less than n
(`A1` is a corner, `E5` the centre of a side-5 hexagon); a hex triangle of side n keeps the
cells whose column is at most their row; a trapezium `(size W H)` has H rows, row r (from 1)
holding W+r−1 cells; a rhombus `(size W H)` is the whole W×H parallelogram.

## Board sides

Regions, `reach` and the players' directions name board sides by compass direction, in the
cell coordinates above (columns west to east, rows south to north): `S` is the first row, `N`
the last row, `W` the first column, `E` the last cell of each row. A hexagon of side n has six
sides: those four and `SE` (column − row = n−1) and `NW` (row − column = n−1). A hex triangle
has three: `W` (the first column), `N` (the last row) and `E` (column = row). A side may name
several cells at once, and the corners belong to both their sides.

## Board lines

`in-a-row` is checked against the longest straight line a board has: the longer side of a
square board (or its depth), 2n−1 on a hexagon of side n, n on a hex triangle, W+H−1 on a
trapezium, the longer side of a rhombus.
";

const SECTIONS: &[&str] = &[
    "Structure",
    "Records",
    "Board words",
    "Cells of a move",
    "Conditions and logic",
    "Functions",
    "Actions",
    "Post-conditions",
    "Start",
    "Play",
    "End",
    "Support",
];

/// The whole manual.
pub fn manual() -> String {
    let mut out = String::from(INTRODUCTION);
    for section in SECTIONS {
        let _ = write!(out, "\n## {section}\n");
        for ludeme in LUDEMES.iter().filter(|l| l.kind.section() == *section) {
            entry(&mut out, ludeme);
        }
    }
    out
}

fn entry(out: &mut String, ludeme: &Ludeme) {
    let written = match ludeme.form {
        Form::List => format!("`({}{})`", ludeme.name, signature(ludeme)),
        Form::Word => format!("`{}`", ludeme.name),
        Form::Either => format!("`{0}` or `({0})`", ludeme.name),
        Form::Record { .. } => format!("`({})`", signature(ludeme).trim_start()),
    };
    let _ = write!(
        out,
        "\n### <a id=\"{}\"></a>{} ({})\n\n{}\n\nWritten {written}.\n",
        ludeme.anchor(),
        ludeme.name,
        ludeme.kind.describe(),
        ludeme.meaning
    );
    if !ludeme.params.is_empty() {
        out.push_str("\n| argument | count | type | default |\n|---|---|---|---|\n");
        for param in ludeme.params {
            let types: Vec<String> = param.accepts.iter().map(|a| a.describe()).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                param.name,
                param.count(),
                types.join(" or "),
                param.default.unwrap_or("")
            );
        }
    }
    if let Some(default) = ludeme.default {
        let _ = writeln!(out, "\nWhen absent: {default}.");
    }
    let places = places(ludeme);
    if !places.is_empty() {
        let _ = writeln!(out, "\nAppears in: {places}.");
    }
    if !ludeme.example.is_empty() {
        let _ = writeln!(out, "\nExample: `{}`", ludeme.example);
    }
    let _ = writeln!(out, "\nEnglish: “{}”", ludeme.english);
}

/// `" length [piece]"`: the parameters in order, optional ones in brackets, repeated ones with
/// `...`.
pub(crate) fn signature(ludeme: &Ludeme) -> String {
    ludeme
        .params
        .iter()
        .map(|param| {
            let repeat = if param.max > 1 { "..." } else { "" };
            if param.is_optional() {
                format!(" [{}{repeat}]", param.name)
            } else {
                format!(" {}{repeat}", param.name)
            }
        })
        .collect()
}

fn places(ludeme: &Ludeme) -> String {
    if ludeme.kind == Kind::Logic {
        return "wherever a move condition or an end condition may stand".to_owned();
    }
    let mut names: Vec<String> = schema::places_of(ludeme)
        .iter()
        .map(|(parent, param)| format!("[{}](#{}) ({})", parent.name, parent.anchor(), param.name))
        .collect();
    names.dedup();
    names.join(", ")
}

/// The line after which `docs/ludi.md` holds what was measured rather than generated (the
/// corpus games' probe verdicts); regenerating the manual keeps it.
pub const MEASURED_MARKER: &str =
    "\n<!-- Measured below, not generated: regenerating the manual keeps this part. -->\n";

/// A committed manual split into its generated part and its measured part (from the marker on).
pub fn split_measured(committed: &str) -> (&str, &str) {
    match committed.find(MEASURED_MARKER) {
        Some(at) => committed.split_at(at),
        None => (committed, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/ludi.md` is the generated manual (and the measured part after it); rewrite it with
    /// `LUDEME_UPDATE_DOCS=1`.
    #[test]
    fn the_committed_manual_is_up_to_date() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/ludi.md");
        let generated = manual();
        if std::env::var_os("LUDEME_UPDATE_DOCS").is_some() {
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            let (_, measured) = split_measured(&committed);
            std::fs::write(&path, format!("{generated}{measured}"))
                .expect("docs/ludi.md is writable");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let (committed, _) = split_measured(&committed);
        assert!(
            committed == generated,
            "docs/ludi.md is out of date: run `LUDEME_UPDATE_DOCS=1 cargo test -p ludeme-analysis ludi::manual`"
        );
    }

    #[test]
    fn every_manual_anchor_is_unique() {
        let mut anchors: Vec<String> = LUDEMES.iter().map(Ludeme::anchor).collect();
        anchors.sort();
        let before = anchors.len();
        anchors.dedup();
        assert_eq!(before, anchors.len());
    }
}

//! `ludeme render`: board pictures of every language, as SVG snapshots, and the positions
//! after named moves, including moves that are not legal.
//!
//! Each snapshot was looked at once, converted to PNG, before it was accepted. Between them the
//! Ludi boards cover every tiling (square, hex, triangular, 4.8.8) and shape (square, hexagon,
//! rhombus, triangle, trapezium) the engine plays, a 3-D board, pieces of both players and a
//! stack; the EGGG boards a grid of squares and a hexagon of hexagons; the GDL boards
//! tic-tac-toe, and, from `../shared/corpus`, connect four, breakthrough and chess.

mod support;

use std::process::Output;

use support::{ludeme, project_root, shared_corpus};

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The SVG of `path` after `moves` (none: the start); the command must succeed.
fn render(path: &str, moves: Option<&str>) -> String {
    let mut args = vec!["render", path];
    if let Some(moves) = moves {
        args.extend(["--state", moves]);
    }
    let output = ludeme(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "ludeme render {path}: {}",
        stderr(&output)
    );
    let svg = stdout(&output);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.ends_with("</svg>\n"));
    svg
}

/// How many times `needle` occurs in `svg`.
fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// The pieces drawn, by their tooltip (`Piece of White, a stack of 3`).
fn pieces(svg: &str) -> Vec<&str> {
    svg.split("<title>")
        .skip(1)
        .filter_map(|rest| rest.split("</title>").next())
        .collect()
}

// ── Ludi: every tiling and shape ─────────────────────────────────────────────────────────────

#[test]
fn ludi_square_board() {
    let svg = render("corpus/ludi/tic-tac-toe.ludi", None);
    assert_eq!(count(&svg, "<polygon"), 9);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_square_board_with_the_pieces_of_both_players() {
    let svg = render("corpus/ludi/breakthrough.ludi", None);
    assert_eq!(count(&svg, "<polygon"), 64);
    let pieces = pieces(&svg);
    assert_eq!(
        pieces.iter().filter(|p| p.ends_with("of White")).count(),
        16
    );
    assert_eq!(
        pieces.iter().filter(|p| p.ends_with("of Black")).count(),
        16
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_rectangular_board_full_of_pieces() {
    let svg = render("corpus/ludi/clobber.ludi", None);
    assert_eq!(count(&svg, "<polygon"), 30);
    assert_eq!(pieces(&svg).len(), 30);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_small_square_board_with_pawns() {
    let svg = render("corpus/ludi/hexapawn.ludi", None);
    assert_eq!(pieces(&svg).len(), 6);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_hex_hexagon() {
    let svg = render("corpus/ludi/yavalath.ludi", None);
    // A hexagon of side 5: 3·5·4 + 1 cells.
    assert_eq!(count(&svg, "<polygon"), 61);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_hex_rhombus() {
    let svg = render("corpus/ludi/hex-7x7.ludi", None);
    assert_eq!(count(&svg, "<polygon"), 49);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_hex_triangle() {
    let svg = render("corpus/ludi/y.ludi", None);
    assert_eq!(count(&svg, "<polygon"), 45);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_hex_trapezium() {
    let svg = render("corpus/ludi/ndengrod.ludi", None);
    // Seven rows of 7 to 13 cells.
    assert_eq!(count(&svg, "<polygon"), (7..=13).sum::<usize>());
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_triangular_tiling() {
    let svg = render("tests/fixtures/ludi/every-board-tri.ludi", None);
    // Rows of 1, 3, 5, ... triangles: 6² of them.
    assert_eq!(count(&svg, "<polygon"), 36);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_truncated_square_tiling() {
    let svg = render("tests/fixtures/render/octagons.ludi", None);
    // 16 octagons and the 9 small squares between them.
    assert_eq!(count(&svg, "<polygon"), 25);
    assert_eq!(
        pieces(&svg),
        ["Piece of White", "Piece of White", "Piece of Black"]
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_3d_board_as_layers() {
    let svg = render("corpus/ludi/qubic.ludi", Some("A1, B2/2, C3/3, D4/4"));
    assert_eq!(count(&svg, "<polygon"), 64);
    for layer in 1..=4 {
        assert!(svg.contains(&format!(">layer {layer}</text>")));
    }
    assert_eq!(pieces(&svg).len(), 4);
    insta::assert_snapshot!(svg);
}

#[test]
fn ludi_stacks_show_their_height() {
    let svg = render("tests/fixtures/render/stacks.ludi", Some("A1; A1; A1; B2"));
    assert_eq!(
        pieces(&svg),
        ["Stone of White, a stack of 3", "Stone of Black"]
    );
    insta::assert_snapshot!(svg);
}

// ── EGGG ─────────────────────────────────────────────────────────────────────────────────────

#[test]
fn egg_grid_of_squares() {
    let svg = render("corpus/egg/tic-tac-toe.egg", Some("B2, A1"));
    assert_eq!(count(&svg, "<polygon"), 9);
    assert_eq!(pieces(&svg), ["O of o", "X of x"]);
    assert!(svg.contains(">to move: x</text>"));
    insta::assert_snapshot!(svg);
}

#[test]
fn egg_hexagon_of_hexagons() {
    let svg = render("tests/fixtures/render/hexagon-three.egg", Some("C3, B3"));
    // The hexagon of side 3 inside a 5 × 5 rhombus.
    assert_eq!(count(&svg, "<polygon"), 19);
    assert_eq!(pieces(&svg), ["O of o", "X of x"]);
    insta::assert_snapshot!(svg);
}

#[test]
fn egg_simultaneous_choices_are_one_ply() {
    let svg = render("corpus/egg/rock-paper-scissors.egg", Some("Rock & Paper"));
    assert!(svg.contains(">player chose Rock</text>"), "{svg}");
    assert!(svg.contains(">opponent chose Paper</text>"), "{svg}");
}

// ── GDL ──────────────────────────────────────────────────────────────────────────────────────

#[test]
fn gdl_tic_tac_toe_after_two_moves() {
    let svg = render("corpus/gdl/ticTacToe.kif", Some("(mark 2 2), (mark 1 1)"));
    assert_eq!(count(&svg, "<polygon"), 9);
    assert_eq!(pieces(&svg), ["o of oplayer", "x of xplayer"]);
    // The board's fluents are drawn, the others listed.
    assert!(svg.contains(">(control xplayer)</text>"));
    assert!(!svg.contains("(cell"));
    // Moves are read as loosely as a person types them, and infix keeps its commas.
    assert_eq!(
        render("corpus/gdl/ticTacToe.kif", Some("( MARK 2 2 ) ;(mark 1 1)")),
        svg
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn gdl_infix_tic_tac_toe_is_the_same_board() {
    let kif = render("corpus/gdl/ticTacToe.kif", Some("(mark 3 1)"));
    let infix = render("corpus/gdl/ticTacToe.hrf", Some("(mark 3 1)"));
    // The two files name their roles differently (`xplayer`, `x`); the marks are the same.
    let marks = |svg: &str| -> Vec<String> {
        pieces(svg)
            .iter()
            .map(|p| p.split(" of ").next().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(marks(&kif), ["x"]);
    assert_eq!(marks(&kif), marks(&infix));
    assert_eq!(count(&kif, "<polygon"), count(&infix, "<polygon"));
}

/// A game of `../shared/corpus`, or `None` (said loudly) when it is absent.
fn shared_game(path: &str) -> Option<String> {
    let corpus = shared_corpus()?;
    Some(corpus.join(path).to_string_lossy().into_owned())
}

#[test]
fn gdl_connect_four_from_the_shared_corpus() {
    let Some(game) = shared_game("gdl/ggp-base/connectFour.kif") else {
        return;
    };
    // The board starts empty, with no `cell` fluent: the grounded game's fluents give it.
    let start = render(&game, None);
    assert_eq!(count(&start, "<polygon"), 48);
    assert!(pieces(&start).is_empty());
    let svg = render(&game, Some("(drop 1), (drop 1), (drop 2)"));
    // Row by row from the bottom: red at (1, 1) and (2, 1), black on top of the first.
    assert_eq!(pieces(&svg), ["red of red", "red of red", "black of black"]);
    insta::assert_snapshot!(svg);
}

#[test]
fn gdl_breakthrough_from_the_shared_corpus() {
    let Some(game) = shared_game("gdl/ggplib/breakthrough.kif") else {
        return;
    };
    let svg = render(&game, None);
    assert_eq!(count(&svg, "<polygon"), 64);
    let pieces = pieces(&svg);
    assert_eq!(
        pieces.iter().filter(|p| **p == "white of white").count(),
        16
    );
    assert_eq!(
        pieces.iter().filter(|p| **p == "black of black").count(),
        16
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn gdl_chess_from_the_shared_corpus() {
    let Some(game) = shared_game("gdl/ggp-repository/chess.kif") else {
        return;
    };
    let svg = render(&game, None);
    assert_eq!(count(&svg, "<polygon"), 64);
    let pieces = pieces(&svg);
    assert_eq!(
        pieces.iter().filter(|p| p.ends_with("of white")).count(),
        16
    );
    assert_eq!(
        pieces.iter().filter(|p| p.ends_with("of black")).count(),
        16
    );
    insta::assert_snapshot!(svg);
}

#[test]
fn gdl_games_without_a_board_list_their_fluents() {
    let Some(game) = shared_game("gdl/ggp-base/simpleMutex.kif") else {
        return;
    };
    let svg = render(&game, None);
    assert_eq!(count(&svg, "<polygon"), 0);
    assert!(count(&svg, "<text") > 1, "{svg}");
}

// ── Output and errors ────────────────────────────────────────────────────────────────────────

#[test]
fn output_goes_to_the_file_named() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let file = folder.path().join("board.svg");
    let file_name = file.to_str().expect("a UTF-8 path");
    let output = ludeme(&[
        "render",
        "corpus/ludi/tic-tac-toe.ludi",
        "--state",
        "B2",
        "-o",
        file_name,
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let written = std::fs::read_to_string(&file).expect("the picture was written");
    assert_eq!(written, render("corpus/ludi/tic-tac-toe.ludi", Some("B2")));
}

/// `ludeme render` with `moves` fails with status 2; its message.
fn refused(path: &str, moves: &str) -> String {
    let output = ludeme(&["render", path, "--state", moves]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    stderr(&output)
}

#[test]
fn an_illegal_move_is_named_with_its_ply_and_the_legal_moves() {
    let message = refused("corpus/ludi/tic-tac-toe.ludi", "B2, A1, B2");
    assert!(
        message.contains("move 3 (`B2`): not a legal move"),
        "{message}"
    );
    let legal = message
        .split("the legal moves of White are ")
        .nth(1)
        .expect("the legal moves");
    let legal: Vec<&str> = legal.trim().split(", ").collect();
    assert_eq!(legal, ["B1", "C1", "A2", "C2", "A3", "B3", "C3"]);
}

#[test]
fn an_unknown_move_is_refused_in_every_language() {
    let message = refused("corpus/gdl/ticTacToe.kif", "(mark 2 2), (mark 4 4)");
    assert!(message.contains("move 2 (`(mark 4 4)`)"), "{message}");
    assert!(message.contains("the legal moves of oplayer are (mark 1 1)"));
    let message = refused("corpus/egg/tic-tac-toe.egg", "Z9");
    assert!(
        message.contains("move 1 (`Z9`): not a legal move"),
        "{message}"
    );
    assert!(
        message.contains("the legal moves of x are A1, B1"),
        "{message}"
    );
}

#[test]
fn a_move_after_the_end_is_refused() {
    // x takes the first column and wins on move 5.
    let message = refused(
        "corpus/gdl/ticTacToe.kif",
        "(mark 1 1), (mark 2 1), (mark 1 2), (mark 2 2), (mark 1 3), (mark 3 3)",
    );
    assert!(
        message.contains("move 6 (`(mark 3 3)`): the game is already over"),
        "{message}"
    );
}

#[test]
fn a_simultaneous_ply_needs_every_choosing_role() {
    let message = refused("corpus/egg/rock-paper-scissors.egg", "Rock");
    assert!(
        message.contains("move 1 (`Rock`): no move for opponent"),
        "{message}"
    );
}

#[test]
fn a_board_too_large_to_draw_is_summarised() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let game = folder.path().join("huge.ludi");
    std::fs::write(
        &game,
        "(game Huge (players White Black) (board (tiling square) (size 100 100)) \
         (end (All win (in-a-row 5))))\n",
    )
    .expect("written");
    let svg = render(game.to_str().expect("a UTF-8 path"), Some("A1"));
    assert_eq!(count(&svg, "<polygon"), 0);
    assert!(svg.contains("the board has 10000 cells: too many to draw"));
    assert!(svg.contains(">to move: Black</text>"));
}

#[test]
fn names_from_the_game_file_are_escaped() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let game = folder.path().join("escape.kif");
    let source = std::fs::read_to_string(project_root().join("corpus/gdl/ticTacToe.kif"))
        .expect("the corpus game");
    std::fs::write(&game, source.replace("xplayer", "x<p>")).expect("written");
    let svg = render(game.to_str().expect("a UTF-8 path"), None);
    assert!(!svg.contains("<p>"), "{svg}");
    assert!(svg.contains(">(control x&lt;p&gt;)</text>"), "{svg}");
    assert!(svg.contains(">x&lt;p&gt;</text>"), "{svg}");
}

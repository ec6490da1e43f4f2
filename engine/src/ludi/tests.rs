//! Engine unit tests: board graphs against counts worked out by hand, and rules and end
//! conditions against hand-checked positions.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::*;
use crate::Game;
use crate::playout::{PlayoutEnd, random_playout};

fn board(tiling: Tiling, shape: Shape, size: &[u32], diagonal: bool) -> Board {
    Board::new(&BoardSpec {
        tiling,
        shape,
        size: size.to_vec(),
        diagonal_adjacency: diagonal,
    })
    .expect("a valid board")
}

fn clause(result: GameResult, condition: EndCondition) -> EndClauseSpec {
    EndClauseSpec {
        player: None,
        result,
        condition,
    }
}

fn in_a_row(length: i64) -> EndCondition {
    EndCondition::InARow {
        length,
        piece: None,
        adjacency: None,
    }
}

fn square(size: &[u32], diagonal: bool) -> BoardSpec {
    BoardSpec {
        tiling: Tiling::Square,
        shape: Shape::Square,
        size: size.to_vec(),
        diagonal_adjacency: diagonal,
    }
}

/// The seed's default placement game on `board`, won by a line of `length`.
fn line_game(name: &str, board: BoardSpec, length: i64) -> LudiGame {
    LudiGame::new(Description::placement_game(
        name,
        &["White", "Black"],
        board,
        vec![clause(GameResult::Win, in_a_row(length))],
    ))
    .expect("playable")
}

fn tic_tac_toe() -> LudiGame {
    LudiGame::new(Description::placement_game(
        "Tic-Tac-Toe",
        &["White", "Black"],
        square(&[3, 3], true),
        vec![clause(GameResult::Win, in_a_row(3))],
    ))
    .expect("playable")
}

fn yavalath() -> LudiGame {
    LudiGame::new(Description::placement_game(
        "Yavalath",
        &["White", "Black"],
        BoardSpec {
            tiling: Tiling::Hex,
            shape: Shape::Hex,
            size: vec![5],
            diagonal_adjacency: false,
        },
        vec![
            clause(GameResult::Win, in_a_row(4)),
            clause(
                GameResult::Lose,
                EndCondition::And(vec![in_a_row(3), EndCondition::Not(Box::new(in_a_row(4)))]),
            ),
        ],
    ))
    .expect("playable")
}

/// The cell an `A1`-style `name` names.
fn cell(name: &str) -> CellName {
    CellName::parse(name).expect("a cell name")
}

/// A piece type (owned by every player) moving by `rule` alone.
fn moving_piece(rule: MoveSpec) -> PieceSpec {
    PieceSpec {
        name: "Piece".to_owned(),
        owner: None,
        value: 1,
        state: 0,
        flags: Vec::new(),
        moves: vec![rule],
    }
}

/// A step of the piece on `from` to `to` by its first rule.
fn step(game: &LudiGame, from: &str, to: &str) -> LudiMove {
    LudiMove {
        kind: MoveKind::Step,
        piece: 0,
        rule: 0,
        from: game.cell(from).expect("on the board"),
        to: game.cell(to).expect("on the board"),
    }
}

fn place(piece: usize, owner: usize, cells: &[&str]) -> PlacementSpec {
    PlacementSpec {
        piece,
        owner: Some(owner),
        locations: cells.iter().map(|&c| Location::Cell(cell(c))).collect(),
        phase: None,
        symmetric: None,
    }
}

/// Placements on the named cells, players alternating from the first.
fn placements(game: &LudiGame, cells: &[&str]) -> Vec<LudiMove> {
    cells
        .iter()
        .map(|name| LudiMove {
            kind: MoveKind::Place,
            piece: 0,
            rule: 0,
            from: board::NO_CELL,
            to: game
                .cell(name)
                .unwrap_or_else(|| panic!("{name} is on the board")),
        })
        .collect()
}

#[test]
fn square_boards_have_the_neighbours_and_lines_of_a_grid() {
    let plain = board(Tiling::Square, Shape::Square, &[3, 3], false);
    let diagonal = board(Tiling::Square, Shape::Square, &[3, 3], true);
    assert_eq!(plain.cell_count(), 9);
    let centre = 4;
    assert_eq!(plain.neighbours(centre).len(), 4);
    assert_eq!(diagonal.neighbours(centre).len(), 8);
    assert_eq!(diagonal.neighbours(0).len(), 3);
    // Rows and columns; with i-nbors the two diagonals too.
    assert_eq!(plain.axes().len(), 2);
    assert_eq!(diagonal.axes().len(), 4);
    assert_eq!(diagonal.longest_line(), 3);
    let cube = board(Tiling::Square, Shape::Square, &[3, 3, 3], true);
    assert_eq!(cube.cell_count(), 27);
    assert_eq!(cube.neighbours(13).len(), 26);
    // 26 directions make 13 lines through the centre of a cube.
    assert_eq!(cube.axes().len(), 13);
}

#[test]
fn hex_boards_have_the_sizes_of_their_shapes() {
    let hexagon = board(Tiling::Hex, Shape::Hex, &[5], false);
    assert_eq!(hexagon.cell_count(), 61); // 3n(n − 1) + 1
    assert_eq!(hexagon.longest_line(), 9); // 2n − 1
    let degrees: Vec<usize> = (0..61).map(|c| hexagon.neighbours(c).len()).collect();
    assert_eq!(degrees.iter().filter(|&&d| d == 6).count(), 37); // the inner hexagon of side 4
    assert_eq!(degrees.iter().filter(|&&d| d == 3).count(), 6); // the corners
    for side in [
        Compass::N,
        Compass::S,
        Compass::E,
        Compass::W,
        Compass::SE,
        Compass::NW,
    ] {
        assert_eq!(hexagon.side(side).len(), 5, "{side:?}");
    }
    let rhombus = board(Tiling::Hex, Shape::Rhombus, &[11], false);
    assert_eq!(rhombus.cell_count(), 121);
    assert_eq!(rhombus.side(Compass::N).len(), 11);
    let triangle = board(Tiling::Hex, Shape::Tri, &[9], false);
    assert_eq!(triangle.cell_count(), 45); // n(n + 1) / 2
    let trapezium = board(Tiling::Hex, Shape::Trapezium, &[7, 7], false);
    assert_eq!(trapezium.cell_count(), 7 * 7 + 21); // HW + H(H − 1)/2
}

#[test]
fn other_tilings_build_their_graphs() {
    // 4.8.8: nine octagons and the four small squares between them.
    let truncated = board(Tiling::TruncSquare, Shape::Square, &[3, 3], false);
    assert_eq!(truncated.cell_count(), 13);
    // A small square touches four octagons; the centre octagon four octagons and four squares.
    let square_cell = (0..13)
        .find(|&c| truncated.neighbours(c).len() == 4 && truncated.phase(c) == 2)
        .expect("a small square");
    assert_eq!(truncated.neighbours(square_cell).len(), 4);
    assert_eq!(truncated.neighbours(6).len(), 8);
    // A triangle of side 3 is cut into 9 triangles; the middle one of the bottom row (a down
    // triangle) shares its three edges.
    let triangles = board(Tiling::Tri, Shape::Tri, &[3], false);
    assert_eq!(triangles.cell_count(), 9);
    let edges: usize = (0..9).map(|c| triangles.direct_neighbours(c).len()).sum();
    assert_eq!(edges / 2, 9); // the 9 inner edges of a side-3 triangle
    assert!(
        Board::new(&BoardSpec {
            tiling: Tiling::Square,
            shape: Shape::Boardless,
            size: vec![],
            diagonal_adjacency: false,
        })
        .is_err()
    );
}

#[test]
fn three_in_a_row_wins_tic_tac_toe() {
    let game = tic_tac_toe();
    let moves = placements(&game, &["A1", "A2", "B1", "B2", "C1"]);
    let state = game.replay(&moves).expect("legal");
    assert_eq!(state.result(), Some(&[100, 0][..]));
    assert!(game.is_terminal(&state));
    // One move earlier nothing was decided, and only the empty cells could be played.
    let before = game.replay(&moves[..4]).expect("legal");
    assert!(!game.is_terminal(&before));
    assert_eq!(game.legal_moves(&before, 0).len(), 5);
    assert_eq!(game.legal_moves(&before, 1), vec![LudiMove::NOOP]);
}

#[test]
fn a_full_tic_tac_toe_board_without_a_line_is_a_draw() {
    let game = tic_tac_toe();
    // X O X / X O O / O X X: no line for anyone.
    let moves = placements(
        &game,
        &["A3", "B3", "C3", "B2", "A2", "C2", "B1", "A1", "C1"],
    );
    let state = game.replay(&moves).expect("legal");
    assert_eq!(state.result(), Some(&[50, 50][..]));
}

#[test]
fn yavalath_four_in_a_row_wins_and_three_loses() {
    let game = yavalath();
    // White: A1 B1 D1 then C1 makes four along the first row. Black plays far apart.
    let four = placements(&game, &["A1", "E9", "B1", "G9", "D1", "I9", "C1"]);
    assert_eq!(
        game.replay(&four).expect("legal").result(),
        Some(&[100, 0][..])
    );
    // White: A1 B1 C1 is three: White loses.
    let three = placements(&game, &["A1", "E9", "B1", "G9", "C1"]);
    assert_eq!(
        game.replay(&three).expect("legal").result(),
        Some(&[0, 100][..])
    );
    // C1 makes four along the row and three up the column at once: the first clause, the
    // win, decides.
    let both = placements(
        &game,
        &[
            "A1", "E9", "B1", "G9", "D1", "I9", "C2", "A5", "C3", "E7", "C1",
        ],
    );
    assert_eq!(
        game.replay(&both).expect("legal").result(),
        Some(&[100, 0][..])
    );
}

#[test]
fn surrounded_groups_are_captured_and_the_capture_ends_the_game() {
    let mut description = Description::placement_game(
        "Atari",
        &["Black", "White"],
        square(&[3, 3], false),
        vec![clause(
            GameResult::Win,
            EndCondition::Capture {
                count: Some(1),
                piece: None,
            },
        )],
    );
    description.pieces[0].moves[0].post = vec![Effect::Capture {
        methods: vec![Method::Surround],
        condition: None,
    }];
    let game = LudiGame::new(description).expect("playable");
    let moves = placements(&game, &["B1", "A1", "A2"]);
    let state = game.replay(&moves).expect("legal");
    let corner = game.cell("A1").expect("A1");
    assert!(state.piece(corner).is_empty(), "the white stone is taken");
    assert_eq!(state.result(), Some(&[100, 0][..]));
}

#[test]
fn flanked_pieces_are_converted() {
    let mut description = Description::placement_game(
        "Flip",
        &["Black", "White"],
        square(&[8, 8], true),
        vec![clause(GameResult::Win, EndCondition::Eliminate(None))],
    );
    description.pieces[0].moves[0].post = vec![Effect::Convert {
        methods: vec![Method::Flank],
        condition: None,
    }];
    description.placements = vec![
        PlacementSpec {
            piece: 0,
            owner: Some(1),
            locations: vec![Location::Cell(cell("D4")), Location::Cell(cell("E5"))],
            phase: None,
            symmetric: None,
        },
        PlacementSpec {
            piece: 0,
            owner: Some(0),
            locations: vec![Location::Cell(cell("D5")), Location::Cell(cell("E4"))],
            phase: None,
            symmetric: None,
        },
    ];
    let game = LudiGame::new(description).expect("playable");
    // Black at C4 closes C4-D4-E4 around the white D4.
    let state = game.replay(&placements(&game, &["C4"])).expect("legal");
    let d4 = game.cell("D4").expect("D4");
    assert_eq!(state.owner(d4), Some(0));
    assert_eq!(state.owner(game.cell("E5").expect("E5")), Some(1));
    assert!(!state.is_over(), "White still has E5");
}

#[test]
fn direct_neighbour_captures_take_only_enemies_next_to_the_destination() {
    let mut description = Description::placement_game(
        "Custodian",
        &["White", "Black"],
        square(&[3, 3], true),
        vec![clause(GameResult::Win, in_a_row(3))],
    );
    description.pieces[0].moves[0].post = vec![Effect::Capture {
        methods: vec![Method::DirectNeighbours],
        condition: None,
    }];
    let game = LudiGame::new(description).expect("playable");
    // Black's B1 and A2 touch White's A1 orthogonally; Black's B2 only diagonally.
    let state = game
        .replay(&placements(&game, &["C3", "B2", "A1"]))
        .expect("legal");
    assert_eq!(state.owner(game.cell("B2").expect("B2")), Some(1));
    // Black's B3 lands between White's A3 and C3 and takes both; White's A1 then takes B1.
    let state = game
        .replay(&placements(&game, &["C3", "B1", "A3", "B3", "A1"]))
        .expect("legal");
    assert!(state.piece(game.cell("A3").expect("A3")).is_empty());
    assert!(state.piece(game.cell("C3").expect("C3")).is_empty());
    assert!(state.piece(game.cell("B1").expect("B1")).is_empty());
    assert_eq!(state.owner(game.cell("B3").expect("B3")), Some(1));
    assert_eq!(state.captured, vec![1, 2]);
}

#[test]
fn a_line_longer_than_the_board_never_wins_and_the_game_ends_at_the_length_limit() {
    // 19 × 19 with a line of 20: nobody can win; the board is far from full at 120 moves.
    let game = line_game("Endless", square(&[19, 19], false), 20);
    let mut rng = SmallRng::seed_from_u64(7);
    for _ in 0..20 {
        let playout = random_playout(&game, &game.initial_state(), &mut rng, 10_000);
        assert_eq!(playout.end, PlayoutEnd::Terminal);
        assert_eq!(playout.plies, usize::from(MAX_LENGTH));
        assert_eq!(playout.goals, Some(vec![50, 50]));
    }
}

#[test]
fn the_fast_playout_agrees_with_the_rules() {
    // The allocation-free loop and the step-by-step one must end the same games the same way:
    // replay the fast loop's odds on a small game through the Game methods.
    let game = tic_tac_toe();
    assert!(game.traits.plain_placement);
    let mut rng = SmallRng::seed_from_u64(3);
    let start = game.initial_state();
    let (mut fast, mut slow) = ([0u32; 3], [0u32; 3]);
    let bucket = |goals: &Option<Vec<u8>>| match goals.as_deref() {
        Some([100, 0]) => 0,
        Some([0, 100]) => 1,
        _ => 2,
    };
    for _ in 0..20_000 {
        fast[bucket(&random_playout(&game, &start, &mut rng, 100).goals)] += 1;
        slow[bucket(&crate::playout::step_by_step_playout(&game, &start, &mut rng, 100).goals)] +=
            1;
    }
    for outcome in 0..3 {
        let difference = (f64::from(fast[outcome]) - f64::from(slow[outcome])).abs() / 20_000.0;
        assert!(difference < 0.02, "outcome {outcome}: {fast:?} vs {slow:?}");
    }
}

#[test]
fn a_two_by_two_board_never_has_a_line_of_three() {
    let game = LudiGame::new(Description::placement_game(
        "2x2",
        &["White", "Black"],
        square(&[2, 2], true),
        vec![clause(GameResult::Win, in_a_row(3))],
    ))
    .expect("playable");
    let mut rng = SmallRng::seed_from_u64(1);
    for _ in 0..100 {
        let playout = random_playout(&game, &game.initial_state(), &mut rng, 100);
        assert_eq!(playout.goals, Some(vec![50, 50]));
        assert_eq!(playout.plies, 4);
    }
}

#[test]
fn unplayable_descriptions_are_refused_not_panicked_on() {
    let mut description = Description::placement_game(
        "Lines on triangles",
        &["White", "Black"],
        BoardSpec {
            tiling: Tiling::Tri,
            shape: Shape::Tri,
            size: vec![4],
            diagonal_adjacency: false,
        },
        vec![clause(GameResult::Win, in_a_row(3))],
    );
    assert!(LudiGame::new(description.clone()).is_err());
    description.board.size = vec![0];
    assert!(LudiGame::new(description.clone()).is_err());
    description.players.clear();
    assert!(LudiGame::new(description).is_err());
}

#[test]
fn a_move_onto_an_enemy_piece_captures_it_by_replacement() {
    let mut description = Description::placement_game(
        "Clobber",
        &["White", "Black"],
        square(&[3, 1], false),
        vec![clause(GameResult::Win, EndCondition::Eliminate(None))],
    );
    description.pieces = vec![moving_piece(MoveSpec {
        priority: 0,
        mandatory: false,
        direction: None,
        owner: None,
        pre: Some(Condition::And(vec![
            Condition::Enemy(CellRef::To),
            Condition::Compare(Comparison::Equal, Number::Distance, Number::Constant(1)),
        ])),
        actions: vec![Action::Pop, Action::Push],
        post: vec![Effect::Capture {
            methods: vec![Method::Replace],
            condition: None,
        }],
    })];
    description.placements = vec![place(0, 0, &["A1"]), place(0, 1, &["B1", "C1"])];
    let game = LudiGame::new(description).expect("playable");
    // White's only move: A1 onto the black B1 (C1 is two steps away).
    let moves = game.legal_moves(&game.initial_state(), 0);
    assert_eq!(moves, vec![step(&game, "A1", "B1")]);
    let state = game.replay(&moves).expect("legal");
    let b1 = game.cell("B1").expect("B1");
    assert_eq!(state.owner(b1), Some(0), "White stands on B1");
    assert_eq!(state.height(b1), 1, "the black piece under it is gone");
    assert!(state.piece(game.cell("A1").expect("A1")).is_empty());
    assert!(!state.is_over(), "Black still has C1");
    // Black takes back on B1: White has nothing left.
    let state = game
        .replay(&[moves[0], step(&game, "C1", "B1")])
        .expect("legal");
    assert_eq!(state.height(b1), 1);
    assert_eq!(state.result(), Some(&[0, 100][..]));
}

#[test]
fn connect_with_a_count_needs_that_many_of_the_targets() {
    let side = |name: &str, compass: Compass| RegionSpec {
        name: name.to_owned(),
        owner: None,
        parts: vec![RegionPart::Side(compass)],
    };
    let targets = ["West", "East", "North"]
        .map(|name| ConnectTarget::Region(name.to_owned()))
        .to_vec();
    let game_needing = |count: Option<usize>| {
        let mut description = Description::placement_game(
            "Fork",
            &["White", "Black"],
            square(&[3, 3], false),
            vec![clause(
                GameResult::Win,
                EndCondition::Connect {
                    targets: targets.clone(),
                    count,
                    piece: None,
                    constraint: Default::default(),
                },
            )],
        );
        description.regions = vec![
            side("West", Compass::W),
            side("East", Compass::E),
            side("North", Compass::N),
        ];
        LudiGame::new(description).expect("playable")
    };
    // White's A1-B1-C1 joins West and East but not North; Black's B2-B3 touches North only.
    let play = ["A1", "B2", "B1", "B3", "C1"];
    let two = game_needing(Some(2));
    let before = two.replay(&placements(&two, &play[..4])).expect("legal");
    assert!(!before.is_over(), "A1-B1 touches West only");
    let after = two.replay(&placements(&two, &play)).expect("legal");
    assert_eq!(after.result(), Some(&[100, 0][..]));
    let all = game_needing(None);
    let after = all.replay(&placements(&all, &play)).expect("legal");
    assert!(!after.is_over(), "North is not reached");
}

#[test]
fn a_move_direction_the_board_lacks_gives_no_move() {
    // Hex cells have no north-west neighbour in axial coordinates (docs/ludi.md, "Cell names").
    let mut description = Description::placement_game(
        "Slide",
        &["White", "Black"],
        BoardSpec {
            tiling: Tiling::Hex,
            shape: Shape::Hex,
            size: vec![3],
            diagonal_adjacency: false,
        },
        vec![clause(GameResult::Win, EndCondition::NoMove)],
    );
    description.pieces = vec![moving_piece(MoveSpec {
        priority: 0,
        mandatory: false,
        direction: Some(MoveDirection::Compass(Compass::NW)),
        owner: None,
        pre: Some(Condition::Empty(CellRef::To)),
        actions: vec![Action::Pop, Action::Push],
        post: Vec::new(),
    })];
    description.placements = vec![place(0, 0, &["C3"])];
    let game = LudiGame::new(description).expect("playable");
    assert_eq!(
        game.legal_moves(&game.initial_state(), 0),
        vec![LudiMove::PASS]
    );
}

#[test]
fn distances_follow_the_adjacency_on_small_and_large_boards() {
    let orthogonal = board(Tiling::Square, Shape::Square, &[3, 3], false);
    let diagonal = board(Tiling::Square, Shape::Square, &[3, 3], true);
    let corner = |b: &Board, name: &str| {
        let c = cell(name);
        b.cell_at(c.column, c.row, Tiling::Square)
            .expect("on the board")
    };
    let (a1, c3) = (corner(&orthogonal, "A1"), corner(&orthogonal, "C3"));
    assert_eq!(orthogonal.distance(a1, c3), Some(4));
    assert_eq!(diagonal.distance(a1, c3), Some(2));
    assert_eq!(diagonal.distance(a1, a1), Some(0));
    // 20×20 = 400 cells: beyond the table, searched breadth first.
    let large = board(Tiling::Square, Shape::Square, &[20, 20], true);
    let (a1, t20) = (corner(&large, "A1"), corner(&large, "T20"));
    assert_eq!(large.distance(a1, t20), Some(19));
    assert_eq!(large.distance(a1, board::NO_CELL), None);
}

#[test]
fn group_size_in_a_precondition_is_measured_before_the_move() {
    // Teiglith's move: `(pre (> (group-size to) (phase to)))` with `(action (pop) (push))`.
    let mut description = Description::placement_game(
        "Teiglith",
        &["White", "Black"],
        square(&[3, 3], false),
        vec![clause(GameResult::Win, EndCondition::NoMove)],
    );
    description.pieces = vec![moving_piece(MoveSpec {
        priority: 0,
        mandatory: false,
        direction: None,
        owner: None,
        pre: Some(Condition::Compare(
            Comparison::Greater,
            Number::GroupSize(CellRef::To),
            Number::Phase(CellRef::To),
        )),
        actions: vec![Action::Pop, Action::Push],
        post: Vec::new(),
    })];
    description.placements = vec![place(0, 0, &["A1", "B1"]), place(0, 1, &["C2"])];
    let game = LudiGame::new(description).expect("playable");
    // Empty cells have a group of 0, never above their phase (0 or 1). The white pair A1-B1
    // is a group of 2, above both phases; the lone black C2 is a group of 1 on a dark cell
    // (phase 1), not above it.
    let mut moves = game.legal_moves(&game.initial_state(), 0);
    moves.sort_by_key(|m| (m.from, m.to));
    let mut expected = vec![step(&game, "A1", "B1"), step(&game, "B1", "A1")];
    expected.sort_by_key(|m| (m.from, m.to));
    assert_eq!(moves, expected);
}

#[test]
fn cell_names_read_column_letters_then_a_row_number() {
    // docs/ludi.md "Cell names": A is the first column, Z the 26th, AA the 27th; rows count from 1.
    let at = |column, row| Some(CellName { column, row });
    assert_eq!(CellName::parse("A1"), at(0, 0));
    assert_eq!(CellName::parse("E5"), at(4, 4));
    assert_eq!(CellName::parse("Z1"), at(25, 0));
    assert_eq!(CellName::parse("AA1"), at(26, 0));
    assert_eq!(CellName::parse("AB12"), at(27, 11));
    for not_a_cell in ["", "A", "12", "a1", "A0", "1A", "A-1", "ZZZZZZZZ1"] {
        assert_eq!(CellName::parse(not_a_cell), None, "{not_a_cell:?}");
    }
}

#[test]
fn symmetric_start_placements_map_cells_or_are_refused() {
    let hexagon = BoardSpec {
        tiling: Tiling::Hex,
        shape: Shape::Hex,
        size: vec![3],
        diagonal_adjacency: false,
    };
    let with_start = |symmetry: Symmetry| {
        let mut description =
            Description::placement_game("T", &["White", "Black"], hexagon.clone(), Vec::new());
        description.placements = vec![PlacementSpec {
            symmetric: Some((symmetry, 1)),
            ..place(0, 0, &["A1", "C2"])
        }];
        LudiGame::new(description)
    };
    // Half a turn maps the corner A1 to the opposite corner E5, C2 to C4.
    let game = with_start(Symmetry::HalfTurn).expect("a hexagon has the half turn");
    let state = game.initial_state();
    for (name, owner) in [("A1", 0), ("C2", 0), ("E5", 1), ("C4", 1)] {
        assert_eq!(state.owner(game.cell(name).unwrap()), Some(owner), "{name}");
    }
    // Mirrored axial rows are not hex rows: refused.
    assert!(with_start(Symmetry::Reflect).is_err());
}

/// `home` is relative to each player's home row (docs/ludi.md, *Home*): Teiglith's start, one
/// player's pieces on `home`, gives the other player the same on their own home row, unless
/// the start names that player, the type is the one player's own, or a symmetry is written.
#[test]
fn a_home_placement_for_one_player_is_mirrored_for_a_player_given_nothing() {
    let start = |placements: Vec<PlacementSpec>, owned_by_white: bool, in_hand: bool| {
        let mut description = Description::placement_game(
            "T",
            &["White", "Black"],
            square(&[4, 4], false),
            Vec::new(),
        );
        if owned_by_white {
            description.pieces[0].owner = Some(0);
        }
        if in_hand {
            description.in_hand = vec![InHandSpec {
                piece: 0,
                owner: Some(1),
                count: 2,
            }];
        }
        description.placements = placements;
        let game = LudiGame::new(description).expect("playable");
        let state = game.initial_state();
        let row = |row: u32| -> Vec<Option<usize>> {
            (0..4)
                .map(|column| {
                    let name = CellName { column, row };
                    let cell = game.board.cell_at(name.column, name.row, Tiling::Square);
                    state.owner(cell.expect("on the board"))
                })
                .collect()
        };
        (row(0), row(3))
    };
    let home = |owner: usize| PlacementSpec {
        locations: vec![Location::Home],
        ..place(0, owner, &[])
    };
    let white = vec![Some(0); 4];
    let black = vec![Some(1); 4];
    let empty = vec![None; 4];
    // Teiglith's start: White's stones on White's home row (the first), Black's on the last.
    assert_eq!(
        start(vec![home(0)], false, false),
        (white.clone(), black.clone())
    );
    // Each named: each as written, nothing doubled.
    assert_eq!(
        start(vec![home(0), home(1)], false, false),
        (white.clone(), black.clone())
    );
    // Black given something else: only what is written.
    assert_eq!(
        start(vec![home(0), place(0, 1, &["B3"])], false, false).1,
        empty
    );
    assert_eq!(start(vec![home(0)], false, true).1, empty);
    // A type only White has is White's alone.
    assert_eq!(start(vec![home(0)], true, false).1, empty);
    // A symmetry written says where Black's go.
    let reflected = PlacementSpec {
        symmetric: Some((Symmetry::Reflect, 1)),
        ..home(0)
    };
    assert_eq!(start(vec![reflected], false, false), (white, black));
}

/// The search players' beam (`advisors::beam_width`, the seed's "beam width reduction"): of
/// Yavalath's 61 opening placements a search of the probe's budget looks at the width's worth,
/// those next to most pieces; a pass stays whenever it is legal; a board with fewer moves keeps
/// them all.
#[test]
fn the_search_looks_at_a_beam_of_the_best_ordered_moves() {
    use crate::players::Heuristic;
    use crate::probe::ProbeSettings;
    use advisors::{Advisors, MIN_BEAM_WIDTH};
    let game = yavalath();
    let advisors = Advisors::for_game(&game, 1, ProbeSettings::default().nodes_per_move);
    let state = game
        .replay(&placements(&game, &["E5", "E6", "F5"]))
        .expect("legal");
    let mut moves = game.legal_moves(&state, 1);
    assert_eq!(moves.len(), 58);
    advisors.select(&game, &state, 1, &mut moves);
    assert_eq!(moves.len(), MIN_BEAM_WIDTH);
    let occupied_neighbours = |m: &LudiMove| {
        game.board
            .neighbours(m.to)
            .iter()
            .filter(|&&n| !state.piece(n).is_empty())
            .count()
    };
    let fewest_kept = moves.iter().map(occupied_neighbours).min();
    let most_dropped = game
        .legal_moves(&state, 1)
        .iter()
        .filter(|m| !moves.contains(m))
        .map(occupied_neighbours)
        .max();
    assert!(
        fewest_kept >= most_dropped,
        "{fewest_kept:?} {most_dropped:?}"
    );

    let mut passing = Description::placement_game(
        "Yavalath with passes",
        &["White", "Black"],
        game.description.board.clone(),
        game.description.end.clone(),
    );
    passing.can_pass = true;
    let passing = LudiGame::new(passing).expect("playable");
    let mut moves = passing.legal_moves(&passing.initial_state(), 0);
    advisors.select(&passing, &passing.initial_state(), 0, &mut moves);
    assert_eq!(moves.len(), MIN_BEAM_WIDTH + 1);
    assert!(moves.contains(&LudiMove::PASS));

    let small = tic_tac_toe();
    let mut moves = small.legal_moves(&small.initial_state(), 0);
    Advisors::for_game(&small, 1, 150).select(&small, &small.initial_state(), 0, &mut moves);
    assert_eq!(moves.len(), 9);
}

/// The beam follows the node budget: the widest with which a search finishes two plies, the
/// first pass of iterative deepening included (`w² + 2w` states), never narrower than the width
/// of the probe's default 150 states (11: 121 + 22 = 143 ≤ 150 < 144 + 24). With
/// `--move-nodes 1000`, 30 moves (900 + 60 = 960 ≤ 1000 < 961 + 62): of Yavalath's 58
/// replies, the search looks at 30.
#[test]
fn the_beam_widens_with_the_node_budget() {
    use crate::players::Heuristic;
    use advisors::{Advisors, MIN_BEAM_WIDTH, beam_width};
    assert_eq!(MIN_BEAM_WIDTH, 11);
    assert_eq!(beam_width(150), 11);
    assert_eq!(beam_width(167), 11);
    assert_eq!(beam_width(168), 12); // 144 + 24
    assert_eq!(beam_width(60), 11);
    assert_eq!(beam_width(0), 11);
    assert_eq!(beam_width(1000), 30);
    assert_eq!(beam_width(1023), 31); // 961 + 62
    assert_eq!(beam_width(5000), 69); // 4761 + 138 = 4899; 4900 + 140 = 5040
    assert!(beam_width(u64::MAX) > 2_000_000_000); // no overflow at any budget
    let game = yavalath();
    let state = game
        .replay(&placements(&game, &["E5", "E6", "F5"]))
        .expect("legal");
    let mut moves = game.legal_moves(&state, 1);
    assert_eq!(moves.len(), 58);
    Advisors::for_game(&game, 1, 1000).select(&game, &state, 1, &mut moves);
    assert_eq!(moves.len(), 30);
}

/// With the beam, the probe's search of 150 states per move sees the reply to its move on a
/// large board (Ndengrod's 70 cells): it finishes two plies or more. Without it, it finished
/// only one, and a player never looked at what its opponent would do next.
#[test]
fn a_probe_search_sees_the_reply_on_a_large_board() {
    use crate::players::{Clock, MoveBudget, SearchPlayer};
    use crate::probe::ProbeSettings;
    let ndengrod = line_game(
        "Ndengrod without captures",
        BoardSpec {
            tiling: Tiling::Hex,
            shape: Shape::Trapezium,
            size: vec![7, 7],
            diagonal_adjacency: false,
        },
        5,
    );
    let state = ndengrod
        .replay(&placements(&ndengrod, &["D3", "D4", "E3"]))
        .expect("legal");
    assert!(ndengrod.legal_moves(&state, 1).len() > 60);
    // The probe's budget, and a larger one whose wider beam must still finish two plies.
    for nodes in [ProbeSettings::default().nodes_per_move, 1000, 5000] {
        let advisors = advisors::Advisors::for_game(&ndengrod, 0, nodes);
        let budget = MoveBudget::nodes(nodes);
        let outcome = SearchPlayer::iterative_deepening().analyse_with(
            &ndengrod,
            &state,
            1,
            &mut Clock::start(&budget),
            &advisors,
        );
        assert!(outcome.depth >= 2, "{nodes} states: {outcome:?}");
    }
}

/// A move that wins at once is looked at even when the order leaves it out of the beam: here
/// White's fifth stone on the first row touches one piece, while 17 cells between Black's
/// stones touch two.
#[test]
fn a_winning_move_joins_the_beam() {
    use crate::players::Heuristic;
    use advisors::{Advisors, MIN_BEAM_WIDTH};
    let game = line_game("Five in a row", square(&[9, 9], false), 5);
    let at = |x: u32, y: u32| {
        game.board
            .cell_at(x, y, Tiling::Square)
            .expect("on the board")
    };
    let stone = |owner: u8| Piece {
        owner,
        ..Piece::EMPTY
    };
    let mut state = game.initial_state();
    for x in 0..4 {
        state.push(at(x, 0), stone(0));
    }
    for x in [1, 3, 5, 7] {
        for y in [3, 5, 7] {
            state.push(at(x, y), stone(1));
        }
    }
    let winning = LudiMove {
        kind: MoveKind::Place,
        piece: 0,
        rule: 0,
        from: board::NO_CELL,
        to: at(4, 0),
    };
    let advisors = Advisors::for_game(&game, 1, 150);
    let mut ordered = game.legal_moves(&state, 0);
    advisors.order(&game, &state, 0, &mut ordered);
    let rank = ordered.iter().position(|&m| m == winning);
    assert!(rank.is_some_and(|rank| rank >= MIN_BEAM_WIDTH), "{rank:?}");
    let mut selected = game.legal_moves(&state, 0);
    advisors.select(&game, &state, 0, &mut selected);
    assert_eq!(selected.len(), MIN_BEAM_WIDTH);
    assert_eq!(selected[0], winning);
    assert!(game.next_state(&state, &[winning, LudiMove::NOOP]).result() == Some(&[100, 0][..]));
}

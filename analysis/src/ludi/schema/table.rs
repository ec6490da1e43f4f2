//! The entries of the schema. Grouped as the seed's Appendix I presents the language: the game
//! and its parts, the board, pieces and moves, conditions and functions, actions and
//! post-conditions, start, play, end and support. Meanings the seed leaves open are chosen here
//! and documented in `docs/ludi.md`, which is generated from this table.

use super::Accepts::{
    Cell, Declares, Integer, Kind as OfKind, Number, Part, PlayerType, Record, Refers, SameKind,
    Text,
};
use super::Form::{Either, List, Word};
use super::{Accepts, Form, Kind, Ludeme, Namespace, any, one, opt, some};

const ANY_INTEGER: Accepts = Integer { min: i64::MIN };
const COUNT: Accepts = Integer { min: 1 };
/// A number in a condition: a literal or a function.
const NUMBER_EXPRESSION: &[Accepts] = &[ANY_INTEGER, OfKind(Kind::Function)];
const CELL_OF_MOVE: &[Accepts] = &[OfKind(Kind::CellRef)];
/// An end condition's adjacency constraint.
const ADJACENCY: &[Accepts] = &[Part("d-nbors"), Part("i-nbors")];

const fn record(
    name: &'static str,
    namespace: Namespace,
    declares: bool,
    meaning: &'static str,
) -> Ludeme {
    Ludeme::new(
        name,
        Kind::Record,
        Form::Record {
            namespace,
            declares,
        },
        meaning,
    )
}

const fn part(name: &'static str, form: Form, meaning: &'static str) -> Ludeme {
    Ludeme::new(name, Kind::Part, form, meaning)
}

const fn word(
    name: &'static str,
    kind: Kind,
    meaning: &'static str,
    english: &'static str,
) -> Ludeme {
    Ludeme::new(name, kind, Word, meaning).english(english)
}

const COMPARED: &[super::Param] = &[
    one("left", NUMBER_EXPRESSION),
    one("right", NUMBER_EXPRESSION),
];

/// A comparison `(op left right)` between two numbers.
const fn comparison(
    op: &'static str,
    meaning: &'static str,
    english: &'static str,
    example: &'static str,
) -> Ludeme {
    Ludeme::new(op, Kind::Condition, List, meaning)
        .params(COMPARED)
        .english(english)
        .example(example)
}

/// The terms of arithmetic: two or more numbers (exactly two for `-` and `/`).
const fn arithmetic(
    op: &'static str,
    meaning: &'static str,
    params: &'static [super::Param],
    example: &'static str,
) -> Ludeme {
    Ludeme::new(op, Kind::Function, List, meaning)
        .params(params)
        .english("{terms}")
        .example(example)
}

pub static LUDEMES: &[Ludeme] = &[
    // ── The game and its parts ──────────────────────────────────────────────────────────
    Ludeme::new("game", Kind::Game, List, "The root of a game: its name, players, board, rules and support.")
        .params(&[
            one("name", &[Declares(Namespace::Game)]),
            any("params", &[Number, Text]).default("none"),
            one("players", &[Part("players")]),
            one("board", &[Part("board")]),
            opt("pieces", &[Part("pieces")]).default("one piece type, named Piece, which players place on empty cells"),
            opt("start", &[Part("start")]).default("an empty board, every piece type in hand without limit"),
            opt("play", &[Part("play")]).default("no voluntary passing"),
            one("end", &[Part("end")]),
            opt("support", &[Part("support")]),
        ])
        .example("(game Tic-Tac-Toe (players White Black) (board (tiling square i-nbors) (size 3 3)) (end (All win (in-a-row 3))))")
        .english("{name}"),
    part("players", List, "The players, in turn order, each with an optional compass direction of play.")
        .params(&[super::Param::new("players", &[Declares(Namespace::Player), Record("player declaration")], 1, 8)])
        .example("(players White Black)")
        .english("{players} play"),
    record("player declaration", Namespace::Player, true, "A player with the compass direction its pieces move towards.")
        .params(&[one("name", &[Declares(Namespace::Player)]), one("direction", &[OfKind(Kind::Compass)])])
        .example("(players (White N) (Black S))")
        .english("{name} (playing towards the {direction})"),
    // ── Board ───────────────────────────────────────────────────────────────────────────
    part("board", List, "The board: its tiling, shape, size, optional phases and regions.")
        .params(&[
            opt("phase", &[Part("phase")]).default("cells are not phased"),
            one("tiling", &[Part("tiling")]),
            opt("shape", &[Part("shape")]).default("the tiling's own shape: square for square and 4.8.8 tilings, hex for hex, tri for tri"),
            one("size", &[Part("size")]),
            opt("regions", &[Part("regions")]).default("no regions"),
        ])
        .example("(board (tiling hex) (shape hex) (size 5))")
        .english("on {shape}[, made of {tiling}][, {adjacency}][; {phase}]"),
    part("phase", Word, "Cells are coloured in phases, so that neighbours differ (light and dark, or three colours on trivalent tilings).")
        .example("(board phase (tiling square) (size 8 8))")
        .english("cells are coloured in alternating phases"),
    part("tiling", List, "The cells' tiling, and whether cells touching at a corner are neighbours too.")
        .params(&[one("type", &[OfKind(Kind::Tiling)]), opt("i-nbors", &[Part("i-nbors")]).default("only cells sharing an edge are neighbours")])
        .example("(tiling square i-nbors)")
        .english("{type}[, {i-nbors}]"),
    part("i-nbors", Word, "Indirect (diagonal) neighbours are adjacent too, not only orthogonal ones.")
        .example("(tiling square i-nbors)")
        .english("with diagonal adjacency"),
    word("tri", Kind::Tiling, "A tiling of triangles.", "triangular cells").example("(tiling tri)"),
    word("square", Kind::Tiling, "A tiling of squares.", "square cells").example("(tiling square)"),
    word("hex", Kind::Tiling, "A tiling of hexagons.", "hexagonal cells").example("(tiling hex)"),
    word("trunc-square", Kind::Tiling, "The 4.8.8 semiregular tiling of octagons and squares.", "octagonal and square cells (4.8.8)")
        .example("(tiling trunc-square)"),
    part("shape", List, "The outline of the board.")
        .params(&[one("type", &[OfKind(Kind::Shape)])])
        .example("(shape hex)")
        .english("{type}"),
    word("tri", Kind::Shape, "A triangle; size: its side.", "triangular board of side {size}").example("(shape tri) (size 6)"),
    word("square", Kind::Shape, "A square or rectangle (a box of layers when three sizes are given); size: N, W H, or W H D.", "{size} square board")
        .example("(size 3 3)"),
    word("hex", Kind::Shape, "A hexagon; size: its side.", "hexagonal board of side {size}").example("(shape hex) (size 5)"),
    word("rhombus", Kind::Shape, "A rhombus (parallelogram); size: N or W H.", "{size} rhombus board").example("(tiling hex) (shape rhombus) (size 11)"),
    word("trapezium", Kind::Shape, "A trapezium; size: W H, a first row of W cells and H rows, each one cell longer than the one before.", "trapezium board of {height} rows, the first {width} cells long")
        .example("(tiling hex) (shape trapezium) (size 7 7)"),
    word("boardless", Kind::Shape, "No board: pieces are placed next to each other on an open surface; size: the largest extent.", "boardless surface at most {size} cells across")
        .example("(tiling hex) (shape boardless) (size 12)"),
    part("size", List, "The board's dimensions; how many and what they mean depends on the shape.")
        .params(&[super::Param::new("dimensions", &[COUNT], 1, 3).joined("×")])
        .example("(size 3 3)")
        .english("size {dimensions}"),
    part("regions", List, "Named sets of cells or board sides: goals, promotion zones, connection targets.")
        .params(&[some("regions", &[Record("region")])])
        .example("(regions (North White N) (South White S))")
        .english("the regions are {regions}"),
    record("region", Namespace::Region, true, "A named region, optionally owned by a player: cells, or the board sides named by compass directions.")
        .params(&[
            one("name", &[Declares(Namespace::Region)]),
            opt("owner", &[PlayerType]).default("nobody"),
            some("cells", &[Cell, OfKind(Kind::Compass)]),
        ])
        .example("(regions (Goal White A8 B8 C8))")
        .english("{name}[ of {owner}] ({cells})"),
    // Compass directions: player directions, region sides and move directions.
    word("N", Kind::Compass, "North: towards the last row.", "north").example("(players (White N) (Black S))"),
    word("NE", Kind::Compass, "North-east.", "north-east").example("(dirn NE)"),
    word("E", Kind::Compass, "East: towards the last column.", "east").example("(regions (Right White E))"),
    word("SE", Kind::Compass, "South-east.", "south-east").example("(dirn SE)"),
    word("S", Kind::Compass, "South: towards the first row.", "south").example("(players (White N) (Black S))"),
    word("SW", Kind::Compass, "South-west.", "south-west").example("(dirn SW)"),
    word("W", Kind::Compass, "West: towards the first column.", "west").example("(regions (Left White W))"),
    word("NW", Kind::Compass, "North-west.", "north-west").example("(dirn NW)"),
    // Turtle steps, relative to a piece's orientation (its owner's direction).
    word("f", Kind::Turtle, "One step forwards.", "forward").example("(steps f f l)"),
    word("b", Kind::Turtle, "One step back.", "back").example("(steps b)"),
    word("l", Kind::Turtle, "Turn left, then step.", "left").example("(steps f f l)"),
    word("r", Kind::Turtle, "Turn right, then step.", "right").example("(steps f f r)"),
    // ── Pieces and moves ────────────────────────────────────────────────────────────────
    part("pieces", List, "The piece types and how they move.")
        .params(&[some("pieces", &[Record("piece definition")]), opt("set", &[Declares(Namespace::Game)])])
        .default("players take turns placing a piece of their colour on an empty cell")
        .example("(pieces (Stone All (moves (move (pre (empty to)) (action (push))))))")
        .english("{pieces}"),
    record("piece definition", Namespace::Piece, true, "A piece type: its name, the players who own one, optional label, value, state and flags, and its moves.")
        .params(&[
            one("name", &[Declares(Namespace::Piece)]),
            one("owner", &[PlayerType]),
            opt("label", &[Part("label")]),
            opt("value", &[Part("value")]).default("1"),
            opt("state", &[Part("state")]).default("0"),
            opt("flags", &[Part("flags")]),
            one("moves", &[Part("moves")]),
        ])
        .example("(Stone All (state 1) (moves (move (pre (empty to)) (action (push)))))")
        .english("{owner} has {name} pieces[ (labelled {label})][, each worth {value}][, starting in state {state}][, with {flags}]"),
    part("label", List, "A label for display: of a piece, or of a move when the player must choose between moves.")
        .params(&[one("text", &[Text])])
        .example("(label \"Jump\")")
        .english("“{text}”"),
    part("value", List, "The value of a piece (its material worth).")
        .params(&[one("value", &[ANY_INTEGER])])
        .example("(value 3)")
        .english("{value}"),
    part("state", List, "The state a piece starts in: a number that moves may test and change.")
        .params(&[one("state", &[ANY_INTEGER])])
        .example("(state 1)")
        .english("{state}"),
    part("flags", List, "Named flags a piece carries, which moves may test and change.")
        .params(&[some("flags", &[Declares(Namespace::Flag)])])
        .example("(flags royal)")
        .english("the flags {flags}"),
    part("moves", List, "The moves of a piece type: one or more move definitions.")
        .params(&[some("moves", &[Part("move")])])
        .example("(moves (move (pre (empty to)) (action (push))))")
        .english("{moves}"),
    part("move", List, "One way a piece may move: optional priority, mandatory flag, label, direction, owner and precondition; the action; optional post-conditions.")
        .params(&[
            opt("priority", &[Part("priority")]).default("0"),
            opt("mandatory", &[Part("mandatory")]),
            opt("label", &[Part("label")]),
            opt("dirn", &[Part("dirn")]).default("any direction"),
            opt("owner", &[Part("owner")]),
            opt("pre", &[Part("pre")]).default("always allowed"),
            one("action", &[Part("action")]),
            opt("post", &[Part("post")]).default("nothing happens after the move"),
        ])
        .example("(move (pre (empty to)) (action (push)) (post (capture surround)))")
        .english("[{label}: ]a move with a {piece}: {action}[ {dirn}][ ({owner})][, when {pre}][; then {post}][; {mandatory}][ (priority {priority})]"),
    part("priority", List, "The order in which moves are preferred: a move of higher priority, when possible, excludes those of lower priority.")
        .params(&[one("priority", &[Integer { min: 0 }])])
        .example("(priority 1)")
        .english("{priority}"),
    part("mandatory", Either, "The move must be made whenever it is possible.")
        .example("(move mandatory (pre (enemy to)) (action (pop) (push)))")
        .english("this move must be made when possible"),
    part("dirn", List, "The direction of a move: absolute (a compass direction) or relative to the piece (a turtle step).")
        .params(&[one("direction", &[OfKind(Kind::Compass), OfKind(Kind::Turtle)])])
        .example("(dirn N)")
        .english("heading {direction}"),
    part("owner", List, "Only this player may make the move.")
        .params(&[one("player", &[PlayerType])])
        .example("(owner White)")
        .english("made by {player} only"),
    part("pre", List, "The precondition of a move: a tree of conditions combined with and, or, not.")
        .params(&[one("condition", &[OfKind(Kind::Condition)])])
        .example("(pre (and (owner from) (empty to)))")
        .english("{condition}"),
    part("action", List, "What the move does: pass, or a sequence of actions such as pop and push.")
        .params(&[some("actions", &[OfKind(Kind::Action)])])
        .example("(action (pop) (push))")
        .english("{actions}"),
    part("post", List, "What happens after the move: captures, conversions, state and score changes.")
        .params(&[some("effects", &[OfKind(Kind::Effect)])])
        .example("(post (capture surround) (inc-state))")
        .english("{effects}"),
    // ── Cells of a move and cell contents ───────────────────────────────────────────────
    word("from", Kind::CellRef, "The cell the moving piece starts on (the origin).", "the origin").example("(owner from)"),
    word("to", Kind::CellRef, "The cell the move goes to (the destination).", "the destination").example("(empty to)"),
    word("current", Kind::CellRef, "The cell being considered: in a capture, each candidate cell in turn; elsewhere the destination.", "the cell considered")
        .example("(capture (if (>= (height current) 2)) d-nbors)"),
    word("empty", Kind::Occupant, "Cells with no piece.", "empty").example("(num-between empty)"),
    word("enemy", Kind::Occupant, "Cells holding a piece of another player.", "enemy").example("(num-nbors to enemy)"),
    word("friend", Kind::Occupant, "Cells holding a piece of the mover.", "friendly").example("(num-nbors to friend)"),
    word("any", Kind::Occupant, "Cells holding any piece.", "occupied").example("(num-between any)"),
    // ── Conditions and logic ────────────────────────────────────────────────────────────
    Ludeme::new("and", Kind::Logic, List, "Every condition holds.")
        .params(&[super::Param::new("conditions", &[SameKind], 2, super::MANY)])
        .example("(and (empty to) (connected))")
        .english("{conditions}"),
    Ludeme::new("or", Kind::Logic, List, "At least one condition holds.")
        .params(&[super::Param::new("conditions", &[SameKind], 2, super::MANY).joined("or")])
        .example("(or (no-move) (in-a-row 3))")
        .english("{conditions}"),
    Ludeme::new("not", Kind::Logic, List, "The condition does not hold.")
        .params(&[one("condition", &[SameKind])])
        .example("(not (in-a-row 4))")
        .english("not {condition}"),
    Ludeme::new("empty", Kind::Condition, List, "The cell holds no piece.")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(pre (empty to))")
        .english("{cell} is empty"),
    Ludeme::new("owner", Kind::Condition, List, "The cell holds a piece of the mover.")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(pre (owner from))")
        .english("{cell} holds a piece of the mover"),
    Ludeme::new("enemy", Kind::Condition, List, "The cell holds a piece of another player.")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(pre (enemy from))")
        .english("{cell} holds an enemy piece"),
    Ludeme::new("line", Kind::Condition, Either, "The destination lies on a straight line of adjacent cells from the origin.")
        .example("(pre (and (owner from) (line)))")
        .english("the destination is in a straight line from the origin"),
    Ludeme::new("connected", Kind::Condition, Either, "The destination touches another piece of the mover (for a moved piece: other than itself).")
        .example("(pre (and (empty to) (connected)))")
        .english("the destination touches another piece of the mover"),
    Ludeme::new("steps", Kind::Condition, List, "The destination is reached from the origin by this path of turtle steps (knight-like moves).")
        .params(&[some("steps", &[OfKind(Kind::Turtle)])])
        .example("(pre (steps f f r))")
        .english("the destination is reached from the origin by the steps {steps}"),
    Ludeme::new("flag", Kind::Condition, List, "The piece on the cell has this flag set; without a cell, the moving piece (on the origin). A placed piece has every flag clear.")
        .params(&[one("flag", &[Refers(Namespace::Flag)]), opt("cell", CELL_OF_MOVE).default("the origin")])
        .example("(pre (and (owner from) (flag armed)))")
        .english("the piece on {cell} has its {flag} flag set"),
    comparison(">", "The left number is greater than the right.", "{left} is greater than {right}", "(> (group-size to) (phase to))"),
    comparison("<", "The left number is less than the right.", "{left} is less than {right}", "(< (height to) 3)"),
    comparison(">=", "The left number is at least the right.", "{left} is at least {right}", "(>= (num-nbors to enemy) 1)"),
    comparison("<=", "The left number is at most the right.", "{left} is at most {right}", "(<= (distance) 2)"),
    comparison("=", "The two numbers are equal.", "{left} equals {right}", "(= (+ (piece-state) 1) (distance))"),
    comparison("!=", "The two numbers differ.", "{left} differs from {right}", "(!= (phase to) 1)"),
    // ── Functions ───────────────────────────────────────────────────────────────────────
    Ludeme::new("num-between", Kind::Function, List, "The number of cells of this content strictly between the origin and the destination.")
        .params(&[one("content", &[OfKind(Kind::Occupant)])])
        .example("(= (num-between enemy) 1)")
        .english("the number of {content} cells between the origin and the destination"),
    Ludeme::new("group-size", Kind::Function, List, "The number of pieces in the group of connected same-coloured pieces at the cell (0 when empty).")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(> (group-size to) (phase to))")
        .english("the size of the group at {cell}"),
    Ludeme::new("phase", Kind::Function, List, "The phase (colour class, numbered from 0) of the cell.")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(> (group-size to) (phase to))")
        .english("the phase of {cell}"),
    Ludeme::new("num-nbors", Kind::Function, List, "The number of neighbours of the cell with this content.")
        .params(&[one("cell", CELL_OF_MOVE), opt("content", &[OfKind(Kind::Occupant)]).default("occupied")])
        .example("(>= (num-nbors to enemy) 1)")
        .english("the number of {content} neighbours of {cell}"),
    Ludeme::new("distance", Kind::Function, Either, "The number of steps from the origin to the destination.")
        .example("(= (+ (piece-state) 1) (distance))")
        .english("the distance from the origin to the destination"),
    Ludeme::new("piece-state", Kind::Function, Either, "The state of the moving piece.")
        .example("(= (+ (piece-state) 1) (distance))")
        .english("the piece's state"),
    Ludeme::new("height", Kind::Function, List, "The number of pieces stacked on the cell.")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(>= (height current) 2)")
        .english("the height of the stack on {cell}"),
    Ludeme::new("cell-state", Kind::Function, List, "The state of the cell itself, a number moves may set (0 at the start).")
        .params(&[one("cell", CELL_OF_MOVE)])
        .example("(= (cell-state to) 0)")
        .english("the state of {cell}"),
    arithmetic("+", "The sum of the numbers.", &[super::Param::new("terms", NUMBER_EXPRESSION, 2, super::MANY).joined("plus")], "(+ (piece-state) 1)"),
    arithmetic("-", "The first number minus the second.", &[super::Param::new("terms", NUMBER_EXPRESSION, 2, 2).joined("minus")], "(- (distance) 1)"),
    arithmetic("*", "The product of the numbers.", &[super::Param::new("terms", NUMBER_EXPRESSION, 2, super::MANY).joined("times")], "(* (piece-state) 2)"),
    arithmetic("/", "The first number divided by the second, rounded down.", &[super::Param::new("terms", NUMBER_EXPRESSION, 2, 2).joined("divided by")], "(/ (distance) 2)"),
    // ── Actions ─────────────────────────────────────────────────────────────────────────
    Ludeme::new("pass", Kind::Action, Either, "The move does nothing: the player passes.")
        .example("(action pass)")
        .english("pass"),
    Ludeme::new("pop", Kind::Action, Either, "Lift the moving piece (the top of its stack) off the origin.")
        .example("(action (pop) (push))")
        .english("lift the piece off the origin"),
    Ludeme::new("push", Kind::Action, Either, "Put the piece on the destination, on top of any stack there; without a pop, a new piece from the mover's hand.")
        .example("(action (push))")
        .english("put the piece on the destination"),
    // ── Post-conditions ─────────────────────────────────────────────────────────────────
    Ludeme::new("capture", Kind::Effect, List, "Remove enemy pieces (whole stacks) chosen by the methods, optionally only those meeting a condition.")
        .params(&[
            any("methods", &[OfKind(Kind::Method)]).default("orthogonally adjacent to the destination"),
            opt("if", &[Part("if")]),
        ])
        .example("(capture (if (>= (height current) 2)) d-nbors)")
        .english("capture the enemy pieces {methods}[ where {if}]"),
    Ludeme::new("convert", Kind::Effect, List, "Turn enemy pieces chosen by the methods into pieces of the mover.")
        .params(&[
            any("methods", &[OfKind(Kind::Method)]).default("orthogonally adjacent to the destination"),
            opt("if", &[Part("if")]),
        ])
        .example("(convert flank)")
        .english("turn the enemy pieces {methods} into the mover's[ where {if}]"),
    part("if", List, "A condition on the cell considered (`current`) that a capture or conversion requires.")
        .params(&[one("condition", &[OfKind(Kind::Condition)])])
        .example("(capture (if (>= (height current) 2)) d-nbors)")
        .english("{condition}"),
    word("surround", Kind::Method, "Enemy groups next to the destination left with no empty neighbour (as in Go).", "left with no empty neighbour")
        .example("(capture surround)"),
    word("d-nbors", Kind::Method, "Enemy pieces on the direct (orthogonal) neighbours of the destination.", "orthogonally adjacent to the destination")
        .example("(capture d-nbors)"),
    word("i-nbors", Kind::Method, "Enemy pieces on all neighbours of the destination, diagonal ones included.", "adjacent to the destination, diagonally included")
        .example("(capture i-nbors)"),
    word("flank", Kind::Method, "Enemy pieces in an unbroken line between the destination and another piece of the mover (as in Othello).", "flanked in a line between the destination and another piece of the mover")
        .example("(convert flank)"),
    word("replace", Kind::Method, "Enemy pieces under the moved piece on the destination: a move onto an enemy piece takes it (capture by replacement, as in Chess).", "the moved piece lands on")
        .example("(capture replace)"),
    Ludeme::new("inc-state", Kind::Effect, Either, "Add 1 to the moved piece's state.")
        .example("(post (inc-state))")
        .english("add 1 to the piece's state"),
    Ludeme::new("dec-state", Kind::Effect, Either, "Subtract 1 from the moved piece's state.")
        .example("(post (dec-state))")
        .english("subtract 1 from the piece's state"),
    Ludeme::new("set-state", Kind::Effect, List, "Set the moved piece's state.")
        .params(&[one("state", &[ANY_INTEGER])])
        .example("(post (set-state 0))")
        .english("set the piece's state to {state}"),
    Ludeme::new("score", Kind::Effect, List, "Add points to the mover's score.")
        .params(&[one("points", &[ANY_INTEGER])])
        .example("(post (capture surround) (score 1))")
        .english("the mover scores {points}"),
    Ludeme::new("set-flag", Kind::Effect, List, "Set a flag of the moved piece (one its type declares in `flags`).")
        .params(&[one("flag", &[Refers(Namespace::Flag)])])
        .example("(post (set-flag armed))")
        .english("set the piece's {flag} flag"),
    Ludeme::new("clear-flag", Kind::Effect, List, "Clear a flag of the moved piece.")
        .params(&[one("flag", &[Refers(Namespace::Flag)])])
        .example("(post (clear-flag armed))")
        .english("clear the piece's {flag} flag"),
    Ludeme::new("set-cell-state", Kind::Effect, List, "Set the state of a cell of the move: the destination, or the origin the piece left.")
        .params(&[one("state", &[ANY_INTEGER]), opt("cell", CELL_OF_MOVE).default("the destination")])
        .example("(post (set-cell-state 1 from))")
        .english("set the state of {cell} to {state}"),
    Ludeme::new("rotate", Kind::Effect, List, "Turn the moved piece: left (anticlockwise) or right by one of the tiling's headings (a quarter turn on square cells, a sixth on hex cells), or back (half round); with a count, that many times. Turtle directions of its moves (`dirn f`) turn with it.")
        .params(&[one("turn", &[OfKind(Kind::Turtle)]), opt("times", &[COUNT]).default("once")])
        .example("(post (rotate r))")
        .english("turn the piece {turn}[ {times} times]"),
    Ludeme::new("displace", Kind::Effect, List, "Push each piece next to the destination one cell further away from it, along the line from the destination, when that cell is on the board and empty; with i-nbors, diagonal neighbours too.")
        .params(&[opt("i-nbors", &[Part("i-nbors")]).default("only across an edge")])
        .example("(post (displace))")
        .english("push each piece next to the destination one cell further away where that cell is empty[, {i-nbors}]"),
    // ── Start ───────────────────────────────────────────────────────────────────────────
    part("start", List, "The initial position: pieces placed on the board and pieces held in hand.")
        .params(&[some("clauses", &[OfKind(Kind::StartClause)])])
        .default("an empty board; players hold every piece type in hand without limit (unless in-hand gives a number)")
        .example("(start (place (Stone White) A1) (place (Stone Black) D4))")
        .english("{clauses}"),
    Ludeme::new("place", Kind::StartClause, List, "Put pieces on the board before the game starts: on cells, on a region, or on each owner's home row.")
        .params(&[
            one("piece", &[Record("piece reference")]),
            some("locations", &[Cell, Refers(Namespace::Region), OfKind(Kind::Location)]),
            opt("phase", &[Part("cell-phase")]).default("every cell of the locations"),
            opt("symmetric", &[Part("symmetric")]),
        ])
        .example("(place (Stone White) A1)")
        .english("{piece} pieces start on {locations}[, {phase}][; {symmetric}]"),
    part("cell-phase", List, "Only the cells of this phase (colour class, numbered from 0: light 0 and dark 1 on square cells, three phases on hex and 4.8.8 cells) among a placement's locations.")
        .params(&[one("phase", &[Integer { min: 0 }])])
        .example("(place (Man White) home (cell-phase 1))")
        .english("only on the cells of phase {phase}"),
    part("symmetric", List, "The same pieces also start for another player, on the images of the cells under a symmetry of the board.")
        .params(&[one("symmetry", &[OfKind(Kind::Symmetry)]), one("player", &[Refers(Namespace::Player)])])
        .example("(place (Man White) A1 C1 (symmetric half-turn Black))")
        .english("and {player}'s on the cells {symmetry}"),
    word("half-turn", Kind::Symmetry, "Half a turn about the board's centre: the first row's cells go to the last row, reversed.", "half a turn away about the board's centre")
        .example("(place (Man White) A1 C1 (symmetric half-turn Black))"),
    word("reflect", Kind::Symmetry, "The mirror image across the board's middle row: north and south exchanged, columns kept (square, rhombus and 4.8.8 boards).", "mirrored across the board's middle row")
        .example("(place (Man White) A2 B2 (symmetric reflect Black))"),
    Ludeme::new("in-hand", Kind::StartClause, List, "The number of pieces of a type each owner holds off the board, to enter play later.")
        .params(&[one("piece", &[Record("piece reference")]), one("count", &[Integer { min: 0 }])])
        .example("(in-hand (Stone All) 5)")
        .english("{piece} pieces in hand at the start: {count}"),
    record("piece reference", Namespace::Piece, false, "A piece type and its owner (a player, or All for each player).")
        .params(&[one("name", &[Refers(Namespace::Piece)]), opt("owner", &[PlayerType]).default("each player")])
        .example("(place (Stone White) A1)")
        .english("{owner}'s {name}"),
    word("home", Kind::Location, "The owner's home row: the board's first row for the first player (or the side opposite the player's direction), the last row for the second. A start that places one player's pieces of a type every player has on `home`, without `symmetric`, places the same on their own home row for each player the start otherwise gives nothing.", "their home row")
        .example("(place (Stone White) home)"),
    // ── Play ────────────────────────────────────────────────────────────────────────────
    part("play", List, "Constraints on play.")
        .params(&[any("options", &[OfKind(Kind::PlayOption)])])
        .default("players may not pass voluntarily (they pass when they have no move, unless no-move ends the game)")
        .example("(play can-pass)")
        .english("{options}"),
    Ludeme::new("can-pass", Kind::PlayOption, Either, "Players may pass voluntarily.")
        .example("(play can-pass)")
        .english("a player may pass instead of moving"),
    Ludeme::new("swap", Kind::PlayOption, Either, "The pie rule (a first-move equalizer): after the first move, the second player may swap seats with the first instead of moving, taking over the first move; the first player then moves with the second colour. Two players only.")
        .example("(play swap)")
        .english("after the first move, the second player may swap seats with the first instead of moving (the pie rule)"),
    // ── End ─────────────────────────────────────────────────────────────────────────────
    part("end", List, "How the game ends: end clauses, and what happens when a move ends it for several players at once.")
        .params(&[
            some("clauses", &[Record("end clause")]),
            opt("tie", &[OfKind(Kind::TieRule)]).default("mover-wins"),
        ])
        .example("(end (All win (in-a-row 4)) (All lose (in-a-row 3)))")
        .english("{clauses}"),
    record("end clause", Namespace::Player, false, "A player (or All), a result, and the condition that gives that player that result.")
        .params(&[
            one("player", &[PlayerType]),
            one("result", &[OfKind(Kind::Result)]),
            one("condition", &[OfKind(Kind::EndCondition)]),
        ])
        .example("(All win (in-a-row 3))")
        .english("{player} {result} by {condition}"),
    word("win", Kind::Result, "The player wins.", "wins").example("(All win (in-a-row 3))"),
    word("lose", Kind::Result, "The player loses.", "loses").example("(All lose (no-move))"),
    word("draw", Kind::Result, "The game is drawn.", "draws").example("(All draw (no-move))"),
    word("mover-wins", Kind::TieRule, "When a move ends the game for several players at once, the mover wins.", "if a move ends the game for both players at once, the mover wins")
        .example("(end (All win (connect own-regions)) mover-wins)"),
    word("mover-loses", Kind::TieRule, "When a move ends the game for several players at once, the mover loses.", "if a move ends the game for both players at once, the mover loses")
        .example("(end (All win (in-a-row 5)) mover-loses)"),
    word("draw", Kind::TieRule, "When a move ends the game for several players at once, the game is drawn.", "if a move ends the game for both players at once, the game is a draw")
        .example("(end (All win (in-a-row 5)) draw)"),
    Ludeme::new("connect", Kind::EndCondition, List, "Connect the target regions with a chain of the player's pieces; with a count, any that many of them.")
        .params(&[
            opt("count", &[Integer { min: 2 }]).default("all the targets"),
            some("targets", &[Refers(Namespace::Region), Part("own-regions")]),
            opt("piece", &[Refers(Namespace::Piece)]),
            opt("adjacency", ADJACENCY).default("the board's adjacency"),
            opt("min-height", &[Part("min-height")]).default("every piece counts"),
        ])
        .example("(All win (connect own-regions))")
        .english("connecting [{count} of ]{targets} with a chain of their[ {piece}] pieces[ {min-height}][, {adjacency}]"),
    part("own-regions", Word, "All the regions the player owns.")
        .example("(All win (connect own-regions))")
        .english("their own regions"),
    Ludeme::new("group", Kind::EndCondition, List, "Form a connected group of this many pieces; without a size, all the player's pieces (at least two) in one group.")
        .params(&[
            opt("size", &[COUNT]).default("all their"),
            opt("piece", &[Refers(Namespace::Piece)]),
            opt("adjacency", ADJACENCY).default("the board's adjacency"),
            opt("min-height", &[Part("min-height")]).default("every piece counts"),
        ])
        .example("(White lose (group 5))")
        .english("forming a connected group of {size}[ {piece}] pieces[ {min-height}][, {adjacency}]"),
    Ludeme::new("in-a-row", Kind::EndCondition, List, "Form a line of at least N consecutive pieces of the player's along one direction; with d-nbors, only along the edge directions, with i-nbors along diagonals too.")
        .params(&[one("length", &[COUNT]), opt("piece", &[Refers(Namespace::Piece)]), opt("adjacency", ADJACENCY).default("the board's lines")])
        .example("(All win (in-a-row 3))")
        .english("making a line of {length}[ {piece} pieces][, {adjacency}]"),
    part("d-nbors", Word, "In an end condition: only neighbours across an edge (orthogonal ones on square cells) join pieces, whatever the board's adjacency.")
        .example("(All win (in-a-row 4 d-nbors))")
        .english("counting only neighbours that share an edge"),
    part("min-height", List, "In an end condition: only pieces on top of stacks at least this high count.")
        .params(&[one("height", &[COUNT])])
        .example("(All win (group 4 (min-height 2)))")
        .english("on stacks of at least {height}"),
    Ludeme::new("reach", Kind::EndCondition, List, "Bring pieces to a cell, region or board side.")
        .params(&[
            one("target", &[Cell, Refers(Namespace::Region), OfKind(Kind::Compass)]),
            opt("count", &[COUNT]).default("one"),
            opt("piece", &[Refers(Namespace::Piece)]),
        ])
        .example("(All win (reach Goal))")
        .english("getting {count} of their[ {piece}] pieces to {target}"),
    Ludeme::new("capture", Kind::EndCondition, List, "Capture this many enemy pieces over the game.")
        .params(&[opt("count", &[COUNT]).default("all"), opt("piece", &[Refers(Namespace::Piece)])])
        .example("(All win (capture 5))")
        .english("capturing {count} of the opponent's[ {piece}] pieces"),
    Ludeme::new("eliminate", Kind::EndCondition, List, "Leave a player with no piece on the board or in hand.")
        .params(&[opt("player", &[PlayerType]).default("the opponent")])
        .example("(All win (eliminate))")
        .english("eliminating {player}"),
    Ludeme::new("score", Kind::EndCondition, List, "Reach this score.")
        .params(&[one("points", &[ANY_INTEGER])])
        .example("(All win (score 10))")
        .english("reaching a score of {points}"),
    Ludeme::new("stack", Kind::EndCondition, List, "Build a stack of at least this height with the player's piece (of this type, if given) on top; with pure, every piece of the stack the player's.")
        .params(&[one("height", &[COUNT]), opt("piece", &[Refers(Namespace::Piece)]), opt("pure", &[Part("pure")]).default("pieces of any player under the top")])
        .example("(All win (stack 4))")
        .english("building a stack of {height}[ with a {piece} on top][, {pure}]"),
    part("pure", Word, "In `stack`: every piece of the stack is the player's.")
        .example("(All win (stack 3 pure))")
        .english("all of their own pieces"),
    Ludeme::new("state", Kind::EndCondition, List, "Bring a piece of the player's to this state.")
        .params(&[one("value", &[ANY_INTEGER]), opt("piece", &[Refers(Namespace::Piece)])])
        .example("(All win (state 3))")
        .english("bringing a[ {piece}] piece to state {value}"),
    Ludeme::new("no-move", Kind::EndCondition, Either, "The player to move has no legal move.")
        .example("(All lose (no-move))")
        .english("having no move on their turn"),
    // ── Support ─────────────────────────────────────────────────────────────────────────
    part("support", List, "Metadata: the strategy policy, descriptions, evolutionary ancestry and measured scores.")
        .params(&[any("items", &[OfKind(Kind::Support)])])
        .example("(support (aim \"Make four in a row without first making three.\"))")
        .english("{items}"),
    Ludeme::new("advisors", Kind::Support, List, "The strategy policy: advisors and their weights.")
        .params(&[some("advisors", &[Record("advisor")])])
        .example("(advisors (in-a-row 1.0) (mobility 0.25))")
        .english("the players' advisors are {advisors}"),
    record("advisor", Namespace::Advisor, true, "An advisor of the strategy module and its weight.")
        .params(&[one("name", &[Declares(Namespace::Advisor)]), one("weight", &[Number])])
        .example("(mobility 0.25)")
        .english("{name} (weight {weight})"),
    Ludeme::new("description", Kind::Support, List, "A description of the game for the manual.")
        .params(&[one("text", &[Text])])
        .example("(description \"A game of lines on a hexagonal board.\")")
        .english("{text}"),
    Ludeme::new("aim", Kind::Support, List, "The aim of the game, in words.")
        .params(&[one("text", &[Text])])
        .example("(aim \"Make four in a row without first making three.\")")
        .english("aim: {text}"),
    Ludeme::new("ancestry", Kind::Support, List, "The game's evolutionary history: parents' names, generation, distances.")
        .params(&[any("items", &[Text, Number, Declares(Namespace::Game)])])
        .example("(ancestry Tic-Tac-Toe Hex 3)")
        .english("ancestry: {items}"),
    Ludeme::new("ranking", Kind::Support, List, "The game's estimated ranking within its population.")
        .params(&[one("rank", &[Number])])
        .example("(ranking 2)")
        .english("estimated ranking: {rank}"),
    Ludeme::new("viable", Kind::Support, List, "The game's estimated viability (1 viable, 0 not).")
        .params(&[one("value", &[Number])])
        .example("(viable 1)")
        .english("estimated viability: {value}"),
    Ludeme::new("score", Kind::Support, List, "The game's estimated aesthetic score.")
        .params(&[one("value", &[Number])])
        .example("(score 0.82)")
        .english("estimated aesthetic score: {value}"),
];

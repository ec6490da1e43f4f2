//! The typed game model: what an engine plays. Built from the bound ludeme tree with every
//! default of the seed filled in (see `docs/ludi.md`): no `pieces` gives one piece type that is
//! placed on an empty cell; no `start` gives an empty board and unlimited hands; no `play` forbids
//! voluntary passing; no tie rule gives `mover-wins`; an absent shape is the tiling's own.
//!
//! The model is built even from a game with errors: what is missing or wrong is left out (and
//! reported by the checks), so that hovers and English still work while a game is being written.

use crate::TextRange;
use crate::ludi::bind::{Node, Value};

/// The rule words are the engine's own types, one definition for the checks, the English and
/// the engine: the model keeps what only the editor needs (names as written, source ranges)
/// beside them.
pub use ludeme_engine::ludi::{
    Action, Adjacency, Arithmetic, CellName, CellRef, Comparison, Compass, Condition,
    ConnectTarget, Constraint, Effect, GameResult, Location, Method, MoveDirection, Number,
    Occupant, RegionPart, Shape, Symmetry, Target, TieRule, Tiling, Turtle,
};

/// A name as written, with where.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Named {
    pub name: String,
    pub range: TextRange,
}

/// An engine value with where it is written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spanned<T> {
    pub value: T,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub name: Option<Named>,
    /// The values written after the name, `(game Hex 11 ...)`: a variant's parameters, shown
    /// with the name (no rule reads them; docs/ludi.md).
    pub params: Vec<String>,
    /// The name of the piece set, written after the piece definitions (`(pieces ... Stones)`).
    pub piece_set: Option<Named>,
    /// In turn order: the first moves first.
    pub players: Vec<Player>,
    pub board: Option<Board>,
    pub pieces: Vec<PieceType>,
    /// Whether `pieces` was absent and the default piece type was supplied.
    pub default_pieces: bool,
    pub start: Start,
    pub play: Play,
    pub end: End,
    pub range: TextRange,
}

impl Game {
    /// The names the game declares in `namespace`: its players, piece types or regions (other
    /// namespaces hold no declared names). For the undefined-name check and completion alike.
    pub fn declared_names(&self, namespace: crate::ludi::schema::Namespace) -> Vec<&str> {
        use crate::ludi::schema::Namespace;
        match namespace {
            Namespace::Player => self.players.iter().map(|p| p.name.name.as_str()).collect(),
            Namespace::Piece => self.pieces.iter().map(|p| p.name.name.as_str()).collect(),
            Namespace::Region => self
                .board
                .iter()
                .flat_map(|board| board.regions.iter().map(|r| r.name.name.as_str()))
                .collect(),
            Namespace::Flag => {
                let mut flags: Vec<&str> = Vec::new();
                for flag in self.pieces.iter().flat_map(|p| &p.flags) {
                    if !flags.contains(&flag.as_str()) {
                        flags.push(flag);
                    }
                }
                flags
            }
            Namespace::Game | Namespace::Advisor => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    pub name: Named,
    pub direction: Option<Compass>,
}

/// Who a rule applies to: every player, or one by name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerRef {
    All,
    Player(Named),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub tiling: Tiling,
    pub shape: Shape,
    /// Whether `shape` was written (otherwise it is the tiling's natural shape).
    pub shape_written: bool,
    /// Where the shape is written, or else the tiling.
    pub shape_range: TextRange,
    /// The dimensions as written (`(size 3 3)` → `[3, 3]`).
    pub size: Vec<u32>,
    pub size_range: Option<TextRange>,
    /// `i-nbors`: cells touching at a corner are neighbours too.
    pub diagonal_adjacency: bool,
    pub phased: bool,
    pub regions: Vec<Region>,
    pub range: TextRange,
}

impl Board {
    /// The dimensions the shape needs, with the missing ones completed as the seed's games
    /// write them (`(size 5)` on a square board is 5×5): (width, height, depth).
    fn box_size(&self) -> Option<(u64, u64, u64)> {
        let at = |i: usize| self.size.get(i).map(|&n| u64::from(n));
        let first = at(0)?;
        Some((first, at(1).unwrap_or(first), at(2).unwrap_or(1)))
    }

    /// The number of cells, when the board is bounded and its size fits its shape.
    pub fn cell_count(&self) -> Option<u64> {
        let (width, height, depth) = self.box_size()?;
        let side = width;
        match (self.tiling, self.shape) {
            (_, Shape::Boardless) => None,
            (Tiling::Square | Tiling::TruncSquare, Shape::Square) => Some(width * height * depth),
            (Tiling::Hex, Shape::Hex) => Some(3 * side * (side - 1) + 1),
            (Tiling::Hex, Shape::Tri) => Some(side * (side + 1) / 2),
            (Tiling::Hex, Shape::Rhombus) => Some(width * height),
            // H rows, the first W cells long, each one longer than the one before.
            (Tiling::Hex, Shape::Trapezium) => Some(height * width + height * (height - 1) / 2),
            _ => None,
        }
    }

    /// The most cells a straight line of neighbours can have on this board, when known: what
    /// bounds `in-a-row`. `None` where the tiling's lines are not simple (tri, 4.8.8) or the
    /// board is unbounded.
    pub fn longest_line(&self) -> Option<u64> {
        let (width, height, depth) = self.box_size()?;
        match (self.tiling, self.shape) {
            (Tiling::Square, Shape::Square) => Some(width.max(height).max(depth)),
            (Tiling::Hex, Shape::Hex) => Some(2 * width - 1),
            (Tiling::Hex, Shape::Tri) => Some(width),
            (Tiling::Hex, Shape::Rhombus) => Some(width.max(height)),
            (Tiling::Hex, Shape::Trapezium) => Some(width + height - 1),
            _ => None,
        }
    }

    /// Whether a cell is on the board, when the board's naming is known: columns `A..` and rows
    /// `1..` of the board's bounding box (square boards; hex boards in axial coordinates, where
    /// a hexagon of side n keeps the cells with |column − row| < n; a hex triangle those with
    /// column ≤ row; a trapezium of H rows row r holds columns 0..W+r).
    pub fn contains(&self, cell: CellName) -> Option<bool> {
        let (width, height, _) = self.box_size()?;
        let (column, row) = (u64::from(cell.column), u64::from(cell.row));
        match (self.tiling, self.shape) {
            (Tiling::Square, Shape::Square) | (Tiling::Hex, Shape::Rhombus) => {
                Some(column < width && row < height)
            }
            (Tiling::Hex, Shape::Hex) => {
                let span = 2 * width - 1;
                Some(column < span && row < span && column.abs_diff(row) < width)
            }
            (Tiling::Hex, Shape::Tri) => Some(row < width && column <= row),
            (Tiling::Hex, Shape::Trapezium) => Some(row < height && column < width + row),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: Named,
    pub owner: Option<PlayerRef>,
    pub cells: Vec<Spanned<RegionPart>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceType {
    pub name: Named,
    pub owner: PlayerRef,
    pub label: Option<String>,
    pub value: i64,
    pub state: i64,
    pub flags: Vec<String>,
    pub moves: Vec<MoveRule>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub priority: i64,
    pub mandatory: bool,
    pub label: Option<String>,
    pub direction: Option<MoveDirection>,
    pub owner: Option<PlayerRef>,
    /// `None`: always allowed.
    pub pre: Option<Condition>,
    pub actions: Vec<Action>,
    pub post: Vec<Effect>,
    pub range: TextRange,
}

/// The initial position. Hands: a piece type (for an owner) that no `in-hand` clause counts is
/// held without limit, so `(push)` moves can always place one; `in-hand` limits it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    pub placements: Vec<Placement>,
    pub in_hand: Vec<InHand>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub piece: Named,
    pub owner: PlayerRef,
    pub locations: Vec<Spanned<Location>>,
    /// `(cell-phase N)`: only the locations' cells of this phase.
    pub phase: Option<i64>,
    /// `(symmetric SYMMETRY PLAYER)`: the same pieces for that player on the image cells.
    pub symmetric: Option<(Symmetry, PlayerRef)>,
    /// The `place` clause (the English finds the placement a clause made by it).
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InHand {
    pub piece: Named,
    pub owner: PlayerRef,
    pub count: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Play {
    pub can_pass: bool,
    /// `swap`: the pie rule.
    pub pie_rule: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct End {
    /// In the order written: for one player, the first clause that holds decides.
    pub clauses: Vec<EndClause>,
    pub tie: TieRule,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndClause {
    pub player: PlayerRef,
    pub result: GameResult,
    pub condition: EndCondition,
    pub range: TextRange,
}

/// An end condition, evaluated for one player: the engine's [`ludeme_engine::ludi::EndCondition`]
/// before its names are resolved to indices, with the ranges the checks report at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndCondition {
    And(Vec<EndCondition>),
    Or(Vec<EndCondition>),
    Not(Box<EndCondition>),
    /// `count: None`: every target.
    Connect {
        targets: Vec<Spanned<ConnectTarget>>,
        count: Option<i64>,
        piece: Option<Named>,
        constraint: Constraint,
        range: TextRange,
    },
    /// `size: None`: all the player's pieces (at least two) form one group.
    Group {
        size: Option<i64>,
        piece: Option<Named>,
        constraint: Constraint,
        range: TextRange,
    },
    InARow {
        length: i64,
        piece: Option<Named>,
        adjacency: Option<Adjacency>,
        range: TextRange,
    },
    Reach {
        target: Spanned<Target>,
        count: i64,
        piece: Option<Named>,
    },
    /// `count: None`: all the opponent's pieces.
    Capture {
        count: Option<i64>,
        piece: Option<Named>,
    },
    /// `None`: the opponent.
    Eliminate(Option<PlayerRef>),
    Score(i64),
    Stack {
        height: i64,
        piece: Option<Named>,
        pure: bool,
    },
    State {
        value: i64,
        piece: Option<Named>,
    },
    NoMove,
}

// ── Building the model from the bound tree ──────────────────────────────────────────────────

fn named(value: &Value) -> Option<Named> {
    Some(Named {
        name: value.text()?.to_owned(),
        range: value.range(),
    })
}

fn player_ref(value: &Value) -> Option<PlayerRef> {
    let name = named(value)?;
    Some(if name.name == "All" {
        PlayerRef::All
    } else {
        PlayerRef::Player(name)
    })
}

fn spanned<T>(written: &Value, value: T) -> Spanned<T> {
    Spanned {
        value,
        range: written.range(),
    }
}

fn word(node: &Node, param: &str) -> Option<&'static str> {
    node.child(param).map(Node::name)
}

fn integer(node: &Node, param: &str) -> Option<i64> {
    node.value(param).and_then(Value::integer)
}

/// The integer inside a part such as `(value 3)`: `part` of `node`, its `param`.
fn part_integer(node: &Node, part: &str, param: &str) -> Option<i64> {
    node.child(part).and_then(|child| integer(child, param))
}

fn part_text(node: &Node, part: &str) -> Option<String> {
    node.child(part)
        .and_then(|child| child.value("text"))
        .and_then(|value| value.text().map(str::to_owned))
}

pub fn build(game: &Node) -> Game {
    let mut model = Game {
        name: game.value("name").and_then(named),
        params: game
            .values("params")
            .filter_map(|value| value.text().map(str::to_owned))
            .collect(),
        piece_set: game
            .child("pieces")
            .and_then(|pieces| pieces.value("set"))
            .and_then(named),
        players: Vec::new(),
        board: None,
        pieces: Vec::new(),
        default_pieces: false,
        start: Start::default(),
        play: Play::default(),
        end: End::default(),
        range: game.range,
    };
    if let Some(players) = game.child("players") {
        for value in players.values("players") {
            match value {
                Value::Node(record) => {
                    if let Some(name) = record.value("name").and_then(named) {
                        let direction = word(record, "direction").and_then(Compass::from_name);
                        model.players.push(Player { name, direction });
                    }
                }
                other => {
                    if let Some(name) = named(other) {
                        model.players.push(Player {
                            name,
                            direction: None,
                        });
                    }
                }
            }
        }
    }
    model.board = game.child("board").and_then(board);
    match game.child("pieces") {
        Some(pieces) => {
            model.pieces = pieces
                .values("pieces")
                .filter_map(Value::node)
                .filter_map(piece_type)
                .collect()
        }
        None => {
            model.default_pieces = true;
            model.pieces = vec![default_piece(game.range)];
        }
    }
    if let Some(start) = game.child("start") {
        {
            for clause in start.values("clauses").filter_map(Value::node) {
                let Some(reference) = clause.child("piece") else {
                    continue;
                };
                let Some(piece) = reference.value("name").and_then(named) else {
                    continue;
                };
                let owner = reference
                    .value("owner")
                    .and_then(player_ref)
                    .unwrap_or(PlayerRef::All);
                match clause.name() {
                    "place" => model.start.placements.push(Placement {
                        piece,
                        owner,
                        locations: clause.values("locations").filter_map(location).collect(),
                        phase: part_integer(clause, "phase", "phase"),
                        symmetric: clause.child("symmetric").and_then(|symmetric| {
                            Some((
                                Symmetry::from_name(word(symmetric, "symmetry")?)?,
                                symmetric.value("player").and_then(player_ref)?,
                            ))
                        }),
                        range: clause.range,
                    }),
                    "in-hand" => model.start.in_hand.push(InHand {
                        piece,
                        owner,
                        count: integer(clause, "count").unwrap_or(0),
                    }),
                    _ => {}
                }
            }
        }
    }
    if let Some(play) = game.child("play") {
        let written = |name: &str| {
            play.values("options")
                .filter_map(Value::node)
                .any(|o| o.name() == name)
        };
        model.play.can_pass = written("can-pass");
        model.play.pie_rule = written("swap");
    }
    if let Some(end) = game.child("end") {
        model.end.tie = match word(end, "tie") {
            Some("mover-loses") => TieRule::MoverLoses,
            Some("draw") => TieRule::Draw,
            _ => TieRule::MoverWins,
        };
        for clause in end.values("clauses").filter_map(Value::node) {
            let player = clause.value("player").and_then(player_ref);
            let result = match word(clause, "result") {
                Some("win") => Some(GameResult::Win),
                Some("lose") => Some(GameResult::Lose),
                Some("draw") => Some(GameResult::Draw),
                _ => None,
            };
            let condition = clause.child("condition").and_then(end_condition);
            if let (Some(player), Some(result), Some(condition)) = (player, result, condition) {
                model.end.clauses.push(EndClause {
                    player,
                    result,
                    condition,
                    range: clause.range,
                });
            }
        }
    }
    model
}

/// The piece type of a game without `pieces`: each player places one on an empty cell.
fn default_piece(range: TextRange) -> PieceType {
    PieceType {
        name: Named {
            name: "Piece".to_owned(),
            range,
        },
        owner: PlayerRef::All,
        label: None,
        value: 1,
        state: 0,
        flags: Vec::new(),
        moves: vec![MoveRule {
            priority: 0,
            mandatory: false,
            label: None,
            direction: None,
            owner: None,
            pre: Some(Condition::Empty(CellRef::To)),
            actions: vec![Action::Push],
            post: Vec::new(),
            range,
        }],
    }
}

fn board(node: &Node) -> Option<Board> {
    let tiling_node = node.child("tiling")?;
    let tiling = Tiling::from_name(word(tiling_node, "type")?)?;
    let shape_range = node
        .child("shape")
        .map_or(tiling_node.range, |shape| shape.range);
    let shape = node
        .child("shape")
        .and_then(|shape| word(shape, "type"))
        .and_then(Shape::from_name);
    let size_node = node.child("size");
    let size = size_node
        .map(|size| {
            size.values("dimensions")
                .filter_map(Value::integer)
                .filter_map(|n| u32::try_from(n).ok())
                .collect()
        })
        .unwrap_or_default();
    let regions = node
        .child("regions")
        .map(|regions| {
            regions
                .values("regions")
                .filter_map(Value::node)
                .filter_map(region)
                .collect()
        })
        .unwrap_or_default();
    Some(Board {
        tiling,
        shape: shape.unwrap_or(tiling.natural_shape()),
        shape_written: shape.is_some(),
        shape_range,
        size,
        size_range: size_node.map(|size| size.range),
        diagonal_adjacency: tiling_node.child("i-nbors").is_some(),
        phased: node.child("phase").is_some(),
        regions,
        range: node.range,
    })
}

fn region(node: &Node) -> Option<Region> {
    Some(Region {
        name: node.value("name").and_then(named)?,
        owner: node.value("owner").and_then(player_ref),
        cells: node
            .values("cells")
            .filter_map(|value| {
                let part = match value {
                    Value::Cell { text, .. } => RegionPart::Cell(CellName::parse(text)?),
                    Value::Node(side) => RegionPart::Side(Compass::from_name(side.name())?),
                    _ => return None,
                };
                Some(spanned(value, part))
            })
            .collect(),
    })
}

fn location(value: &Value) -> Option<Spanned<Location>> {
    let location = match value {
        Value::Cell { text, .. } => Location::Cell(CellName::parse(text)?),
        Value::Name { text, .. } => Location::Region(text.clone()),
        Value::Node(node) if node.name() == "home" => Location::Home,
        _ => return None,
    };
    Some(spanned(value, location))
}

fn piece_type(node: &Node) -> Option<PieceType> {
    Some(PieceType {
        name: node.value("name").and_then(named)?,
        owner: node
            .value("owner")
            .and_then(player_ref)
            .unwrap_or(PlayerRef::All),
        label: part_text(node, "label"),
        value: part_integer(node, "value", "value").unwrap_or(1),
        state: part_integer(node, "state", "state").unwrap_or(0),
        flags: node
            .child("flags")
            .map(|flags| {
                flags
                    .values("flags")
                    .filter_map(|v| v.text().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
        moves: node
            .child("moves")
            .map(|moves| {
                moves
                    .values("moves")
                    .filter_map(Value::node)
                    .map(move_rule)
                    .collect()
            })
            .unwrap_or_default(),
    })
}

fn move_rule(node: &Node) -> MoveRule {
    let direction = node
        .child("dirn")
        .and_then(|dirn| word(dirn, "direction"))
        .and_then(|name| {
            Compass::from_name(name)
                .map(MoveDirection::Compass)
                .or_else(|| Turtle::from_name(name).map(MoveDirection::Turtle))
        });
    MoveRule {
        priority: part_integer(node, "priority", "priority").unwrap_or(0),
        mandatory: node.child("mandatory").is_some(),
        label: part_text(node, "label"),
        direction,
        owner: node
            .child("owner")
            .and_then(|owner| owner.value("player"))
            .and_then(player_ref),
        pre: node
            .child("pre")
            .and_then(|pre| pre.child("condition"))
            .and_then(condition),
        actions: node
            .child("action")
            .map(|action| {
                action
                    .values("actions")
                    .filter_map(Value::node)
                    .filter_map(|a| match a.name() {
                        "pass" => Some(Action::Pass),
                        "pop" => Some(Action::Pop),
                        "push" => Some(Action::Push),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        post: node
            .child("post")
            .map(|post| {
                post.values("effects")
                    .filter_map(Value::node)
                    .filter_map(effect)
                    .collect()
            })
            .unwrap_or_default(),
        range: node.range,
    }
}

fn cell_ref(node: &Node, param: &str) -> Option<CellRef> {
    Some(match word(node, param)? {
        "from" => CellRef::From,
        "to" => CellRef::To,
        _ => CellRef::Current,
    })
}

fn occupant(node: &Node, param: &str) -> Option<Occupant> {
    Some(match word(node, param)? {
        "empty" => Occupant::Empty,
        "enemy" => Occupant::Enemy,
        "friend" => Occupant::Friend,
        _ => Occupant::Any,
    })
}

/// The ludemes bound to `param`, each built by `build`; `None` if one cannot be. A plain loop,
/// not an iterator chain: conditions recurse through here along the nesting of the file, and
/// each level should cost little stack (the reader bounds the nesting, see
/// [`crate::rules::MAX_NESTING_DEPTH`]).
fn children<T>(node: &Node, param: &str, build: fn(&Node) -> Option<T>) -> Option<Vec<T>> {
    let mut built = Vec::new();
    for value in node.values(param) {
        if let Value::Node(child) = value {
            built.push(build(child)?);
        }
    }
    Some(built)
}

/// A condition: the connectives, which recurse, here; the rest in [`simple_condition`], so
/// that a level of recursion costs little stack.
fn condition(node: &Node) -> Option<Condition> {
    match node.name() {
        "and" => Some(Condition::And(children(node, "conditions", condition)?)),
        "or" => Some(Condition::Or(children(node, "conditions", condition)?)),
        "not" => Some(Condition::Not(Box::new(condition(
            node.child("condition")?,
        )?))),
        _ => simple_condition(node),
    }
}

fn simple_condition(node: &Node) -> Option<Condition> {
    Some(match node.name() {
        "empty" => Condition::Empty(cell_ref(node, "cell")?),
        "owner" => Condition::Owner(cell_ref(node, "cell")?),
        "enemy" => Condition::Enemy(cell_ref(node, "cell")?),
        "line" => Condition::Line,
        "connected" => Condition::Connected,
        "steps" => Condition::Steps(
            node.values("steps")
                .filter_map(Value::node)
                .filter_map(|s| Turtle::from_name(s.name()))
                .collect(),
        ),
        "flag" => Condition::Flag(
            node.value("flag")?.text()?.to_owned(),
            cell_ref(node, "cell"),
        ),
        op => {
            let comparison = match op {
                ">" => Comparison::Greater,
                "<" => Comparison::Less,
                ">=" => Comparison::AtLeast,
                "<=" => Comparison::AtMost,
                "=" => Comparison::Equal,
                "!=" => Comparison::NotEqual,
                _ => return None,
            };
            Condition::Compare(
                comparison,
                number(node.value("left")?)?,
                number(node.value("right")?)?,
            )
        }
    })
}

/// A number: arithmetic, which recurses, here; the rest in [`simple_number`], so that a level
/// of recursion costs little stack.
fn number(value: &Value) -> Option<Number> {
    let node = match value {
        Value::Integer { value, .. } => return Some(Number::Constant(*value)),
        Value::Node(node) => node,
        _ => return None,
    };
    let operation = match node.name() {
        "+" => Arithmetic::Add,
        "-" => Arithmetic::Subtract,
        "*" => Arithmetic::Multiply,
        "/" => Arithmetic::Divide,
        _ => return simple_number(node),
    };
    let mut terms = Vec::new();
    for term in node.values("terms") {
        terms.push(number(term)?);
    }
    Some(Number::Arithmetic(operation, terms))
}

fn simple_number(node: &Node) -> Option<Number> {
    Some(match node.name() {
        "num-between" => Number::Between(occupant(node, "content")?),
        "group-size" => Number::GroupSize(cell_ref(node, "cell")?),
        "phase" => Number::Phase(cell_ref(node, "cell")?),
        "num-nbors" => Number::Neighbours(
            cell_ref(node, "cell")?,
            occupant(node, "content").unwrap_or(Occupant::Any),
        ),
        "distance" => Number::Distance,
        "piece-state" => Number::PieceState,
        "height" => Number::Height(cell_ref(node, "cell")?),
        "cell-state" => Number::CellState(cell_ref(node, "cell")?),
        _ => return None,
    })
}

fn methods(node: &Node) -> Vec<Method> {
    let written: Vec<Method> = node
        .values("methods")
        .filter_map(Value::node)
        .filter_map(|m| match m.name() {
            "surround" => Some(Method::Surround),
            "d-nbors" => Some(Method::DirectNeighbours),
            "i-nbors" => Some(Method::AllNeighbours),
            "flank" => Some(Method::Flank),
            "replace" => Some(Method::Replace),
            _ => None,
        })
        .collect();
    if written.is_empty() {
        vec![Method::DirectNeighbours]
    } else {
        written
    }
}

fn effect(node: &Node) -> Option<Effect> {
    let guard = || {
        node.child("if")
            .and_then(|guard| guard.child("condition"))
            .and_then(condition)
    };
    Some(match node.name() {
        "capture" => Effect::Capture {
            methods: methods(node),
            condition: guard(),
        },
        "convert" => Effect::Convert {
            methods: methods(node),
            condition: guard(),
        },
        "inc-state" => Effect::IncrementState,
        "dec-state" => Effect::DecrementState,
        "set-state" => Effect::SetState(integer(node, "state")?),
        "score" => Effect::Score(integer(node, "points")?),
        "set-flag" => Effect::SetFlag(node.value("flag")?.text()?.to_owned()),
        "clear-flag" => Effect::ClearFlag(node.value("flag")?.text()?.to_owned()),
        "set-cell-state" => Effect::SetCellState(
            integer(node, "state")?,
            cell_ref(node, "cell").unwrap_or(CellRef::To),
        ),
        "displace" => Effect::Displace {
            diagonal: node.child("i-nbors").is_some(),
        },
        "rotate" => Effect::Rotate {
            turn: Turtle::from_name(word(node, "turn")?)?,
            times: u8::try_from(integer(node, "times").unwrap_or(1).clamp(0, 255)).unwrap_or(1),
        },
        _ => return None,
    })
}

/// An end condition's adjacency constraint, `d-nbors` or `i-nbors`.
fn adjacency(node: &Node) -> Option<Adjacency> {
    match word(node, "adjacency")? {
        "d-nbors" => Some(Adjacency::Direct),
        _ => Some(Adjacency::All),
    }
}

/// An end condition's adjacency and stacking constraints.
fn constraint(node: &Node) -> Constraint {
    Constraint {
        adjacency: adjacency(node),
        min_height: part_integer(node, "min-height", "height")
            .map(|height| u16::try_from(height.clamp(1, i64::from(u16::MAX))).unwrap_or(1)),
    }
}

fn piece(node: &Node) -> Option<Named> {
    node.value("piece").and_then(named)
}

/// An end condition: the connectives, which recurse, here; the rest in
/// [`simple_end_condition`], so that a level of recursion costs little stack.
fn end_condition(node: &Node) -> Option<EndCondition> {
    match node.name() {
        "and" => Some(EndCondition::And(children(
            node,
            "conditions",
            end_condition,
        )?)),
        "or" => Some(EndCondition::Or(children(
            node,
            "conditions",
            end_condition,
        )?)),
        "not" => Some(EndCondition::Not(Box::new(end_condition(
            node.child("condition")?,
        )?))),
        _ => simple_end_condition(node),
    }
}

fn simple_end_condition(node: &Node) -> Option<EndCondition> {
    Some(match node.name() {
        "connect" => EndCondition::Connect {
            targets: node
                .values("targets")
                .filter_map(|value| {
                    let target = match value {
                        Value::Node(_) => ConnectTarget::OwnRegions,
                        name => ConnectTarget::Region(name.text()?.to_owned()),
                    };
                    Some(spanned(value, target))
                })
                .collect(),
            count: integer(node, "count"),
            piece: piece(node),
            constraint: constraint(node),
            range: node.range,
        },
        "group" => EndCondition::Group {
            size: integer(node, "size"),
            piece: piece(node),
            constraint: constraint(node),
            range: node.range,
        },
        "in-a-row" => EndCondition::InARow {
            length: integer(node, "length")?,
            piece: piece(node),
            adjacency: adjacency(node),
            range: node.range,
        },
        "reach" => EndCondition::Reach {
            target: {
                let written = node.value("target")?;
                let target = match written {
                    Value::Cell { text, .. } => Target::Cell(CellName::parse(text)?),
                    Value::Node(side) => Target::Side(Compass::from_name(side.name())?),
                    name => Target::Region(name.text()?.to_owned()),
                };
                spanned(written, target)
            },
            count: integer(node, "count").unwrap_or(1),
            piece: piece(node),
        },
        "capture" => EndCondition::Capture {
            count: integer(node, "count"),
            piece: piece(node),
        },
        "eliminate" => EndCondition::Eliminate(node.value("player").and_then(player_ref)),
        "score" => EndCondition::Score(integer(node, "points")?),
        "stack" => EndCondition::Stack {
            height: integer(node, "height")?,
            piece: piece(node),
            pure: node.child("pure").is_some(),
        },
        "state" => EndCondition::State {
            value: integer(node, "value")?,
            piece: piece(node),
        },
        "no-move" => EndCondition::NoMove,
        _ => return None,
    })
}

//! The rules: the start position, move conditions, legal moves with priorities, and what a move
//! does (actions, then post-conditions: captures, conversions, piece states, scores).

use super::board::{Board, CellIndex, NO_CELL};
use super::state::{LudiMove, LudiState, MoveKind, Piece, UNLIMITED};
use super::{
    Action, Arithmetic, CellRef, Comparison, Compass, Condition, Description, Effect, EndCondition,
    LudiError, LudiGame, MAX_TREE_DEPTH, Method, MoveDirection, Number, Occupant, Symmetry, Tiling,
    Turtle,
};

/// What the fast paths may assume about a game, worked out once.
#[derive(Clone, Debug)]
pub(crate) struct Traits {
    /// Pieces are only ever added to empty cells: no stacking, lifting, capturing or
    /// converting. Lines then only grow, so each player's longest line is kept in the state.
    pub additive: bool,
    /// The seed's default game exactly: one way to move, placing on an empty cell from an
    /// unlimited hand, and end conditions built from `in-a-row` and `no-move` only. The random
    /// playout then runs without allocating (see `playout.rs`).
    pub plain_placement: bool,
    /// Some move sets a cell's state: the state keeps one per cell.
    pub cell_states: bool,
    /// Some move turns a piece: its turtle directions then depend on its orientation.
    pub rotations: bool,
}

/// The headings of the turtle, in turning order (anticlockwise), per tiling.
fn headings(tiling: Tiling) -> &'static [[i32; 3]] {
    match tiling {
        Tiling::Square => &[[1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]],
        Tiling::TruncSquare => &[[2, 0, 0], [0, 2, 0], [-2, 0, 0], [0, -2, 0]],
        Tiling::Hex => &[
            [1, 0, 0],
            [1, 1, 0],
            [0, 1, 0],
            [-1, 0, 0],
            [-1, -1, 0],
            [0, -1, 0],
        ],
        Tiling::Tri => &[],
    }
}

impl Traits {
    pub fn of(description: &Description, board: &Board) -> Result<Traits, LudiError> {
        let mut additive = true;
        let mut plain_placement = true;
        let mut rules = 0;
        let mut cell_states = false;
        let mut rotations = false;
        let declared = |flag: &String| description.pieces.iter().any(|p| p.flags.contains(flag));
        let undeclared =
            |flag: &String| LudiError::new(format!("the flag {flag}, which no piece declares"));
        for piece in &description.pieces {
            for rule in &piece.moves {
                rules += 1;
                if let Some(pre) = &rule.pre {
                    check_condition(pre, 0, description.board.tiling)?;
                    if let Some(flag) = flags_tested(pre).into_iter().find(|f| !declared(f)) {
                        return Err(undeclared(flag));
                    }
                }
                for effect in &rule.post {
                    match effect {
                        Effect::SetFlag(flag) | Effect::ClearFlag(flag) if !declared(flag) => {
                            return Err(undeclared(flag));
                        }
                        Effect::SetCellState(..) => cell_states = true,
                        Effect::Rotate { .. } if description.board.tiling == Tiling::Tri => {
                            return Err(LudiError::new(
                                "rotations on a triangular tiling (its cells have no headings)",
                            ));
                        }
                        Effect::Rotate { .. } => rotations = true,
                        _ => {}
                    }
                    if let Effect::Capture {
                        condition: Some(c), ..
                    }
                    | Effect::Convert {
                        condition: Some(c), ..
                    } = effect
                    {
                        check_condition(c, 0, description.board.tiling)?;
                    }
                }
                let kind = rule_kind(&rule.actions);
                let onto_empty = rule.pre.as_ref().is_some_and(requires_empty_destination);
                let changes_others = rule.post.iter().any(|effect| {
                    matches!(
                        effect,
                        Effect::Capture { .. } | Effect::Convert { .. } | Effect::Displace { .. }
                    )
                });
                if kind != RuleKind::Place || !onto_empty || changes_others {
                    additive = false;
                }
                if kind != RuleKind::Place
                    || rule.pre != Some(Condition::Empty(CellRef::To))
                    || !rule.post.is_empty()
                    || rule.owner.is_some()
                {
                    plain_placement = false;
                }
            }
            if piece.owner.is_some() {
                plain_placement = false;
            }
        }
        if rules != 1
            || !description.in_hand.is_empty()
            || description.can_pass
            || description.pie_rule
        {
            plain_placement = false;
        }
        for clause in &description.end {
            check_end(&clause.condition, 0, board)?;
            if !only_lines(&clause.condition) {
                plain_placement = false;
            }
        }
        Ok(Traits {
            additive,
            plain_placement: plain_placement && additive,
            cell_states,
            rotations,
        })
    }
}

/// The refusal of a condition tree deeper than [`MAX_TREE_DEPTH`]; numbers and end conditions
/// count as conditions, as a designer sees them (one tree of parentheses).
fn too_deep() -> LudiError {
    LudiError::new(format!("conditions nested more than {MAX_TREE_DEPTH} deep"))
}

fn check_condition(condition: &Condition, depth: usize, tiling: Tiling) -> Result<(), LudiError> {
    if depth > MAX_TREE_DEPTH {
        return Err(too_deep());
    }
    match condition {
        Condition::And(parts) | Condition::Or(parts) => parts
            .iter()
            .try_for_each(|part| check_condition(part, depth + 1, tiling)),
        Condition::Not(inner) => check_condition(inner, depth + 1, tiling),
        Condition::Steps(_) if tiling == Tiling::Tri => Err(LudiError::new(
            "turtle steps on a triangular tiling (its cells have no straight headings)",
        )),
        Condition::Compare(_, left, right) => {
            check_number(left, depth + 1)?;
            check_number(right, depth + 1)
        }
        _ => Ok(()),
    }
}

fn check_number(number: &Number, depth: usize) -> Result<(), LudiError> {
    if depth > MAX_TREE_DEPTH {
        return Err(too_deep());
    }
    match number {
        Number::Arithmetic(_, terms) => terms.iter().try_for_each(|t| check_number(t, depth + 1)),
        _ => Ok(()),
    }
}

fn check_end(condition: &EndCondition, depth: usize, board: &Board) -> Result<(), LudiError> {
    if depth > MAX_TREE_DEPTH {
        return Err(too_deep());
    }
    match condition {
        EndCondition::And(parts) | EndCondition::Or(parts) => parts
            .iter()
            .try_for_each(|part| check_end(part, depth + 1, board)),
        EndCondition::Not(inner) => check_end(inner, depth + 1, board),
        EndCondition::InARow { .. } if board.axes().is_empty() => Err(LudiError::new(
            "`in-a-row` on a triangular tiling (its cells form no straight lines)",
        )),
        EndCondition::Connect { targets, .. } if targets.len() > 64 => {
            Err(LudiError::new("`connect` with more than 64 targets"))
        }
        _ => Ok(()),
    }
}

/// The flags a condition tests.
fn flags_tested(condition: &Condition) -> Vec<&String> {
    match condition {
        Condition::And(parts) | Condition::Or(parts) => {
            parts.iter().flat_map(flags_tested).collect()
        }
        Condition::Not(inner) => flags_tested(inner),
        Condition::Flag(flag, _) => vec![flag],
        _ => Vec::new(),
    }
}

/// Whether `pre` can only hold on an empty destination.
fn requires_empty_destination(pre: &Condition) -> bool {
    match pre {
        Condition::Empty(CellRef::To | CellRef::Current) => true,
        Condition::And(parts) => parts.iter().any(requires_empty_destination),
        _ => false,
    }
}

fn only_lines(condition: &EndCondition) -> bool {
    match condition {
        EndCondition::And(parts) | EndCondition::Or(parts) => parts.iter().all(only_lines),
        EndCondition::Not(inner) => only_lines(inner),
        EndCondition::InARow {
            piece: None,
            adjacency: None,
            ..
        }
        | EndCondition::NoMove => true,
        _ => false,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuleKind {
    Pass,
    Place,
    Step,
    Lift,
}

pub(crate) fn rule_kind(actions: &[Action]) -> RuleKind {
    let push = actions.contains(&Action::Push);
    let pop = actions.contains(&Action::Pop);
    match (pop, push) {
        (true, true) => RuleKind::Step,
        (false, true) => RuleKind::Place,
        (true, false) => RuleKind::Lift,
        (false, false) => RuleKind::Pass,
    }
}

/// Whether a condition speaks of an enemy piece on the origin: such moves lift enemy pieces
/// (Gorodruir); every other move lifts the mover's own.
fn moves_enemy_pieces(condition: &Condition) -> bool {
    match condition {
        Condition::Enemy(CellRef::From) => true,
        Condition::And(parts) | Condition::Or(parts) => parts.iter().any(moves_enemy_pieces),
        _ => false,
    }
}

/// The cells of a move a condition is evaluated against.
#[derive(Clone, Copy)]
pub(crate) struct Context {
    pub mover: usize,
    pub kind: usize,
    pub from: Option<CellIndex>,
    pub to: CellIndex,
    pub current: CellIndex,
}

impl LudiGame {
    pub(crate) fn start_position(&self) -> Result<LudiState, LudiError> {
        let d = &self.description;
        let players = d.players.len();
        let kinds = d.pieces.len();
        let mut state = LudiState::empty(self.board.cell_count(), players, kinds);
        if self.traits.cell_states {
            state.cell_states = vec![0; self.board.cell_count()];
        }
        for placement in &d.placements {
            let kind = placement.piece;
            let spec = d
                .pieces
                .get(kind)
                .ok_or_else(|| LudiError::new("a start placement of an unknown piece type"))?;
            // Every (cell, owner) the clause names, before its phase and symmetry.
            let mut placed: Vec<(CellIndex, usize)> = Vec::new();
            for location in &placement.locations {
                match location {
                    super::Location::Home => {
                        let owners: Vec<usize> = match placement.owner {
                            Some(owner) => std::iter::once(owner)
                                .chain(d.mirrored_home_owners(placement))
                                .collect(),
                            None => (0..players).collect(),
                        };
                        for owner in owners {
                            placed.extend(self.home(owner)?.iter().map(|&cell| (cell, owner)));
                        }
                    }
                    super::Location::Cell(name) => {
                        let cell = self
                            .board
                            .cell_at(name.column, name.row, d.board.tiling)
                            .ok_or_else(|| LudiError::new("a start placement off the board"))?;
                        placed.push((cell, single_owner(placement.owner)?));
                    }
                    super::Location::Region(name) => {
                        let index = d
                            .regions
                            .iter()
                            .position(|r| &r.name == name)
                            .ok_or_else(|| LudiError::new(format!("the unknown region {name}")))?;
                        let owner = single_owner(placement.owner.or(d.regions[index].owner))?;
                        placed.extend(self.regions[index].iter().map(|&cell| (cell, owner)));
                    }
                }
            }
            if let Some(phase) = placement.phase {
                placed.retain(|&(cell, _)| self.board.phase(cell) == phase);
            }
            if let Some((symmetry, owner)) = placement.symmetric {
                // Mirrored axial coordinates are not a hex board's cells' neighbours.
                if d.board.tiling == Tiling::Tri
                    || (symmetry == Symmetry::Reflect && d.board.tiling == Tiling::Hex)
                {
                    return Err(LudiError::new(format!(
                        "a {} start placement on {} cells",
                        symmetry.name(),
                        d.board.tiling.name()
                    )));
                }
                let images = placed
                    .iter()
                    .map(|&(cell, _)| {
                        self.board
                            .image(cell, symmetry)
                            .map(|image| (image, owner))
                            .ok_or_else(|| {
                                LudiError::new(format!(
                                    "a start placement whose {} image is off the board",
                                    symmetry.name()
                                ))
                            })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                placed.extend(images);
            }
            for (cell, owner) in placed {
                state.push(cell, piece_of(owner, kind, spec.state));
            }
        }
        for hand in &d.in_hand {
            let count = u16::try_from(hand.count.clamp(0, i64::from(UNLIMITED - 1)))
                .unwrap_or(UNLIMITED - 1);
            let owners: Vec<usize> = match hand.owner {
                Some(owner) => vec![owner],
                None => (0..players).collect(),
            };
            for owner in owners {
                if let Some(slot) = state.hands.get_mut(owner * kinds + hand.piece) {
                    *slot = count;
                }
            }
        }
        if self.traits.additive {
            for player in 0..players {
                state.longest_run[player] = self.longest_line_of(&state, player, None) as u8;
            }
        }
        Ok(state)
    }

    /// A player's home row (the side [`Description::home_side`] names).
    fn home(&self, player: usize) -> Result<&[CellIndex], LudiError> {
        let side = self
            .description
            .home_side(player)
            .ok_or_else(|| LudiError::new("home rows for a third player without a direction"))?;
        Ok(self.board.side(side))
    }

    /// The mover's legal moves: those of the highest priority among the mandatory ones if any
    /// is mandatory, else among all; a pass when there is none (or passing is allowed).
    pub(crate) fn mover_moves(&self, state: &LudiState) -> Vec<LudiMove> {
        let mut found: Vec<(LudiMove, i64, bool)> = Vec::new();
        self.generate(state, &mut |m, priority, mandatory| {
            found.push((m, priority, mandatory));
            true
        });
        if found.iter().any(|&(_, _, mandatory)| mandatory) {
            found.retain(|&(_, _, mandatory)| mandatory);
        }
        let top = found.iter().map(|&(_, p, _)| p).max().unwrap_or(0);
        let mut moves: Vec<LudiMove> = found
            .into_iter()
            .filter(|&(_, p, _)| p == top)
            .map(|(m, _, _)| m)
            .collect();
        if moves.is_empty() || self.description.can_pass {
            moves.push(LudiMove::PASS);
        }
        if self.pie_offered(state) {
            moves.push(LudiMove::SWAP);
        }
        moves
    }

    /// Whether the mover may take the pie rule's swap: the second move of a game with the pie
    /// rule, when the first was a move on the board (a first player who passed offers nothing
    /// to take).
    pub(crate) fn pie_offered(&self, state: &LudiState) -> bool {
        self.description.pie_rule && state.plies == 1 && state.passes == 0 && !state.swapped
    }

    /// Whether the mover of `state` has a move other than a pass.
    pub(crate) fn has_move(&self, state: &LudiState) -> bool {
        let mut any = false;
        self.generate(state, &mut |_, _, _| {
            any = true;
            false
        });
        any
    }

    /// Calls `emit(move, priority, mandatory)` for each move of the mover's piece rules until it
    /// answers false.
    fn generate(&self, state: &LudiState, emit: &mut dyn FnMut(LudiMove, i64, bool) -> bool) {
        let d = &self.description;
        let mover = state.mover();
        let kinds = d.pieces.len();
        let cells = self.board.cell_count() as CellIndex;
        for (kind, spec) in d.pieces.iter().enumerate() {
            if spec.owner.is_some_and(|owner| owner != mover) {
                continue;
            }
            for (rule_index, rule) in spec.moves.iter().enumerate() {
                if rule.owner.is_some_and(|owner| owner != mover) {
                    continue;
                }
                let holds = |from: Option<CellIndex>, to: CellIndex| {
                    let context = Context {
                        mover,
                        kind,
                        from,
                        to,
                        current: to,
                    };
                    rule.pre
                        .as_ref()
                        .is_none_or(|pre| self.condition(state, pre, &context))
                };
                let make = |kind_of: MoveKind, from: CellIndex, to: CellIndex| LudiMove {
                    kind: kind_of,
                    piece: kind as u8,
                    rule: rule_index.min(usize::from(u8::MAX)) as u8,
                    from,
                    to,
                };
                match rule_kind(&rule.actions) {
                    RuleKind::Pass => {
                        if holds(None, NO_CELL)
                            && !emit(LudiMove::PASS, rule.priority, rule.mandatory)
                        {
                            return;
                        }
                    }
                    RuleKind::Place => {
                        if state.hands.get(mover * kinds + kind).copied().unwrap_or(0) == 0 {
                            continue;
                        }
                        for to in 0..cells {
                            if holds(None, to)
                                && !emit(
                                    make(MoveKind::Place, NO_CELL, to),
                                    rule.priority,
                                    rule.mandatory,
                                )
                            {
                                return;
                            }
                        }
                    }
                    RuleKind::Step | RuleKind::Lift => {
                        let enemy_origin = rule.pre.as_ref().is_some_and(moves_enemy_pieces);
                        // A direction the board does not have: no such move (a turned piece
                        // may have it, see below).
                        let unturned = rule
                            .direction
                            .as_ref()
                            .map(|direction| self.heading(direction, mover, 0));
                        if matches!(unturned, Some(None)) && !self.traits.rotations {
                            continue;
                        }
                        for from in 0..cells {
                            let piece = state.piece(from);
                            if piece.is_empty()
                                || usize::from(piece.kind) != kind
                                || (usize::from(piece.owner) != mover && !enemy_origin)
                            {
                                continue;
                            }
                            if rule_kind(&rule.actions) == RuleKind::Lift {
                                if holds(Some(from), from)
                                    && !emit(
                                        make(MoveKind::Lift, from, from),
                                        rule.priority,
                                        rule.mandatory,
                                    )
                                {
                                    return;
                                }
                                continue;
                            }
                            // With a heading, only the cells along it from the origin; a turtle
                            // heading turns with the piece.
                            let heading = match (unturned, &rule.direction) {
                                (Some(_), Some(direction)) if piece.turn != 0 => {
                                    self.heading(direction, mover, piece.turn)
                                }
                                (Some(heading), _) => heading,
                                (None, _) => None,
                            };
                            let candidates: Box<dyn Iterator<Item = CellIndex>> =
                                match (unturned, heading) {
                                    (None, _) => Box::new((0..cells).filter(move |&to| to != from)),
                                    (Some(_), Some(d)) => Box::new(self.board.ray(from, d)),
                                    (Some(_), None) => continue,
                                };
                            for to in candidates {
                                if holds(Some(from), to)
                                    && !emit(
                                        make(MoveKind::Step, from, to),
                                        rule.priority,
                                        rule.mandatory,
                                    )
                                {
                                    return;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The board direction a `dirn` names for `player`'s piece turned `turn` steps (see
    /// [`Piece::turn`]): a compass point, or a turtle step relative to the piece's orientation,
    /// which starts as the player's forward direction (north for the first player, south for
    /// the second, unless declared).
    fn heading(&self, direction: &MoveDirection, player: usize, turn: u8) -> Option<usize> {
        let unturned = self.unturned_heading(direction, player)?;
        if turn == 0 || matches!(direction, MoveDirection::Compass(_)) {
            return Some(unturned);
        }
        let turns = headings(self.description.board.tiling);
        let v = self.board.direction(unturned);
        match turns.iter().position(|&h| h == v) {
            Some(at) => self
                .board
                .direction_of(turns[(at + usize::from(turn)) % turns.len()]),
            // A diagonal on square cells: quarter turns of the vector itself.
            None => {
                let turned = (0..turn).fold(v, |[x, y, z], _| [-y, x, z]);
                self.board.direction_of(turned)
            }
        }
    }

    /// [`Self::heading`] for a piece that has not turned.
    fn unturned_heading(&self, direction: &MoveDirection, player: usize) -> Option<usize> {
        let forward = self
            .description
            .directions
            .get(player)
            .copied()
            .flatten()
            .unwrap_or(if player == 1 { Compass::S } else { Compass::N });
        let compass = match direction {
            MoveDirection::Compass(c) => *c,
            MoveDirection::Turtle(Turtle::Forward) => forward,
            MoveDirection::Turtle(Turtle::Back) => forward.opposite(),
            MoveDirection::Turtle(turn @ (Turtle::Left | Turtle::Right)) => {
                let v = forward.vector();
                let (x, y) = (v[0], v[1]);
                let rotated = if *turn == Turtle::Left {
                    [-y, x, 0]
                } else {
                    [y, -x, 0]
                };
                return self.board.direction_of(self.scaled(rotated));
            }
        };
        self.board.direction_of(self.scaled(compass.vector()))
    }

    /// A unit vector in the board's coordinates (the 4.8.8 lattice steps by 2 orthogonally).
    fn scaled(&self, v: [i32; 3]) -> [i32; 3] {
        if self.description.board.tiling == Tiling::TruncSquare && (v[0] == 0 || v[1] == 0) {
            [v[0] * 2, v[1] * 2, v[2]]
        } else {
            v
        }
    }

    fn cell_of(&self, context: &Context, cell: CellRef) -> Option<CellIndex> {
        let cell = match cell {
            CellRef::From => context.from?,
            CellRef::To => context.to,
            CellRef::Current => context.current,
        };
        (cell != NO_CELL).then_some(cell)
    }

    fn matches(state: &LudiState, cell: CellIndex, occupant: Occupant, mover: usize) -> bool {
        let piece = state.piece(cell);
        match occupant {
            Occupant::Empty => piece.is_empty(),
            Occupant::Any => !piece.is_empty(),
            Occupant::Friend => !piece.is_empty() && usize::from(piece.owner) == mover,
            Occupant::Enemy => !piece.is_empty() && usize::from(piece.owner) != mover,
        }
    }

    /// Evaluates a move condition (depth bounded by `Traits::of`).
    pub(crate) fn condition(&self, state: &LudiState, condition: &Condition, c: &Context) -> bool {
        match condition {
            Condition::And(parts) => parts.iter().all(|p| self.condition(state, p, c)),
            Condition::Or(parts) => parts.iter().any(|p| self.condition(state, p, c)),
            Condition::Not(inner) => !self.condition(state, inner, c),
            Condition::Empty(cell) => self
                .cell_of(c, *cell)
                .is_some_and(|cell| state.piece(cell).is_empty()),
            Condition::Owner(cell) => self
                .cell_of(c, *cell)
                .is_some_and(|cell| state.owner(cell) == Some(c.mover)),
            Condition::Enemy(cell) => self
                .cell_of(c, *cell)
                .and_then(|cell| state.owner(cell))
                .is_some_and(|owner| owner != c.mover),
            Condition::Line => c
                .from
                .is_some_and(|from| self.board.line_distance(from, c.to).is_some()),
            Condition::Connected => self
                .board
                .neighbours(c.to)
                .iter()
                .any(|&n| Some(n) != c.from && state.owner(n) == Some(c.mover)),
            Condition::Steps(steps) => c.from.is_some_and(|from| self.reaches(from, c.to, steps)),
            Condition::Flag(flag, cell) => {
                let cell = match cell {
                    Some(cell) => self.cell_of(c, *cell),
                    None => c.from,
                };
                cell.is_some_and(|cell| state.piece(cell).flags & self.flag_bit(flag) != 0)
            }
            Condition::Compare(comparison, left, right) => {
                let (l, r) = (self.number(state, left, c), self.number(state, right, c));
                match comparison {
                    Comparison::Greater => l > r,
                    Comparison::Less => l < r,
                    Comparison::AtLeast => l >= r,
                    Comparison::AtMost => l <= r,
                    Comparison::Equal => l == r,
                    Comparison::NotEqual => l != r,
                }
            }
        }
    }

    /// Whether the turtle path leads from `from` to `to`, starting along any heading (so that
    /// knight-like moves go every way). `l` and `r` turn, then step.
    fn reaches(&self, from: CellIndex, to: CellIndex, steps: &[Turtle]) -> bool {
        let headings = headings(self.description.board.tiling);
        let turns = headings.len();
        let direction: Vec<Option<usize>> = headings
            .iter()
            .map(|&v| self.board.direction_of(v))
            .collect();
        (0..turns).any(|start| {
            let mut at = from;
            let mut heading = start;
            for step in steps {
                let go = match step {
                    Turtle::Forward => heading,
                    Turtle::Back => (heading + turns / 2) % turns,
                    Turtle::Left => {
                        heading = (heading + 1) % turns;
                        heading
                    }
                    Turtle::Right => {
                        heading = (heading + turns - 1) % turns;
                        heading
                    }
                };
                let Some(d) = direction[go] else {
                    return false;
                };
                at = self.board.neighbour(at, d);
                if at == NO_CELL {
                    return false;
                }
            }
            at == to
        })
    }

    fn number(&self, state: &LudiState, number: &Number, c: &Context) -> i64 {
        match number {
            Number::Constant(value) => *value,
            Number::Between(occupant) => {
                let Some(from) = c.from else { return 0 };
                match self.board.line_distance(from, c.to) {
                    Some((d, steps)) => self
                        .board
                        .ray(from, d)
                        .take(steps.saturating_sub(1))
                        .filter(|&cell| Self::matches(state, cell, *occupant, c.mover))
                        .count() as i64,
                    None => 0,
                }
            }
            Number::GroupSize(cell) => self
                .cell_of(c, *cell)
                .map_or(0, |cell| self.group_at(state, cell).len() as i64),
            Number::Phase(cell) => self
                .cell_of(c, *cell)
                .map_or(0, |cell| i64::from(self.board.phase(cell))),
            Number::Neighbours(cell, occupant) => self.cell_of(c, *cell).map_or(0, |cell| {
                self.board
                    .neighbours(cell)
                    .iter()
                    .filter(|&&n| Self::matches(state, n, *occupant, c.mover))
                    .count() as i64
            }),
            Number::Distance => c
                .from
                .and_then(|from| self.board.distance(from, c.to))
                .map_or(0, |d| d as i64),
            Number::PieceState => match c.from {
                Some(from) => i64::from(state.piece(from).state),
                None => self.description.pieces.get(c.kind).map_or(0, |p| p.state),
            },
            Number::Height(cell) => self
                .cell_of(c, *cell)
                .map_or(0, |cell| state.height(cell) as i64),
            Number::CellState(cell) => self
                .cell_of(c, *cell)
                .map_or(0, |cell| state.cell_state(cell)),
            Number::Arithmetic(operation, terms) => {
                let mut values = terms.iter().map(|t| self.number(state, t, c));
                let first = values.next().unwrap_or(0);
                values.fold(first, |acc, v| match operation {
                    Arithmetic::Add => acc.saturating_add(v),
                    Arithmetic::Subtract => acc.saturating_sub(v),
                    Arithmetic::Multiply => acc.saturating_mul(v),
                    Arithmetic::Divide => acc.checked_div(v).unwrap_or(0),
                })
            }
        }
    }

    /// The cells of the group of same-owner pieces at `cell` (empty when the cell is).
    pub(crate) fn group_at(&self, state: &LudiState, cell: CellIndex) -> Vec<CellIndex> {
        let Some(owner) = state.owner(cell) else {
            return Vec::new();
        };
        let mut seen = vec![false; self.board.cell_count()];
        let mut group = vec![cell];
        seen[usize::from(cell)] = true;
        let mut i = 0;
        while let Some(&at) = group.get(i) {
            i += 1;
            for &n in self.board.neighbours(at) {
                if state.owner(n) == Some(owner)
                    && !std::mem::replace(&mut seen[usize::from(n)], true)
                {
                    group.push(n);
                }
            }
        }
        group
    }

    /// The state after the mover plays `m`, with the game's result when it ends.
    pub(crate) fn apply(&self, state: &LudiState, m: LudiMove) -> LudiState {
        let d = &self.description;
        let players = d.players.len();
        let kinds = d.pieces.len();
        let mover = state.mover();
        let mut next = state.clone();
        next.plies = next.plies.saturating_add(1);
        let spec = d.pieces.get(usize::from(m.piece));
        let rule = spec.and_then(|spec| spec.moves.get(usize::from(m.rule)));
        match m.kind {
            MoveKind::Noop | MoveKind::Pass => next.passes = next.passes.saturating_add(1),
            MoveKind::Swap => {
                // The seats change, not the board: the colour to move stays the second, now
                // played by the first role.
                next.swapped = !next.swapped;
                next.passes = 0;
                return next;
            }
            MoveKind::Place => {
                let slot = mover * kinds + usize::from(m.piece);
                if let Some(hand) = next.hands.get_mut(slot)
                    && *hand != UNLIMITED
                {
                    *hand = hand.saturating_sub(1);
                }
                let initial = spec.map_or(0, |spec| spec.state);
                next.push(m.to, piece_of(mover, usize::from(m.piece), initial));
                next.passes = 0;
            }
            MoveKind::Step => {
                let piece = next.pop(m.from);
                next.push(m.to, piece);
                next.passes = 0;
            }
            MoveKind::Lift => {
                next.pop(m.from);
                next.passes = 0;
            }
        }
        if let Some(rule) = rule
            && matches!(m.kind, MoveKind::Place | MoveKind::Step)
        {
            for effect in &rule.post {
                self.effect(&mut next, effect, mover, m);
            }
        }
        if self.traits.additive && m.kind == MoveKind::Place {
            let run = self.run_through(&next, m.to) as u8;
            let best = &mut next.longest_run[mover];
            *best = (*best).max(run);
        }
        next.mover = ((mover + 1) % players) as u8;
        let next_has_move = self.has_move(&next);
        self.settle(&mut next, mover, next_has_move);
        next
    }

    fn effect(&self, state: &mut LudiState, effect: &Effect, mover: usize, m: LudiMove) {
        match effect {
            Effect::Capture { methods, condition } | Effect::Convert { methods, condition } => {
                let mut targets = self.targets(state, methods, mover, m.to);
                if let Some(condition) = condition {
                    targets.retain(|&cell| {
                        let context = Context {
                            mover,
                            kind: usize::from(m.piece),
                            from: (m.from != NO_CELL).then_some(m.from),
                            to: m.to,
                            current: cell,
                        };
                        self.condition(state, condition, &context)
                    });
                }
                let capture = matches!(effect, Effect::Capture { .. });
                for cell in targets {
                    if capture {
                        let removed = state.clear(cell) as u16;
                        state.captured[mover] = state.captured[mover].saturating_add(removed);
                    } else {
                        state.top[usize::from(cell)].owner = mover as u8;
                    }
                }
                if methods.contains(&Method::Replace) {
                    self.replace(state, condition.as_ref(), capture, mover, m);
                }
            }
            Effect::IncrementState => adjust_state(state, m.to, |s| s.saturating_add(1)),
            Effect::DecrementState => adjust_state(state, m.to, |s| s.saturating_sub(1)),
            Effect::SetState(value) => {
                let value = (*value).clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
                adjust_state(state, m.to, |_| value);
            }
            Effect::Score(points) => {
                let points = (*points).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
                state.scores[mover] = state.scores[mover].saturating_add(points);
            }
            Effect::SetFlag(flag) => {
                let bit = self.flag_bit(flag);
                adjust_piece(state, m.to, |piece| piece.flags |= bit);
            }
            Effect::ClearFlag(flag) => {
                let bit = self.flag_bit(flag);
                adjust_piece(state, m.to, |piece| piece.flags &= !bit);
            }
            Effect::SetCellState(value, cell) => {
                let cell = match cell {
                    CellRef::From if m.from != NO_CELL => m.from,
                    CellRef::From => return,
                    CellRef::To | CellRef::Current => m.to,
                };
                let value = (*value).clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
                if let Some(slot) = state.cell_states.get_mut(usize::from(cell)) {
                    *slot = value;
                }
            }
            Effect::Displace { diagonal } => self.displace(state, m.to, *diagonal),
            Effect::Rotate { turn, times } => {
                let headings = headings(self.description.board.tiling).len() as u8;
                if headings == 0 {
                    return;
                }
                let step = match turn {
                    Turtle::Forward => 0,
                    Turtle::Left => 1,
                    Turtle::Right => headings - 1,
                    Turtle::Back => headings / 2,
                };
                let by = ((u32::from(step) * u32::from(*times)) % u32::from(headings)) as u8;
                adjust_piece(state, m.to, |piece| {
                    piece.turn = (piece.turn + by) % headings;
                });
            }
        }
    }

    /// The board direction the piece on `cell` faces: its owner's direction turned by the
    /// piece's orientation (`None` for an empty cell, or a direction the tiling lacks).
    pub fn facing(&self, state: &LudiState, cell: CellIndex) -> Option<usize> {
        let piece = state.piece(cell);
        if piece.is_empty() {
            return None;
        }
        self.heading(
            &MoveDirection::Turtle(Turtle::Forward),
            usize::from(piece.owner),
            piece.turn,
        )
    }

    /// The bit of the named flag in [`Piece::flags`] (0 for a flag no piece declares, which
    /// `Traits::of` refuses).
    fn flag_bit(&self, flag: &str) -> u8 {
        self.flag_names
            .iter()
            .position(|name| name == flag)
            .map_or(0, |index| 1 << index)
    }

    /// Pushes each piece next to `to` one cell further along the line from `to`, when that
    /// cell is on the board and empty (the top piece of a stack moves; a blocked piece stays).
    fn displace(&self, state: &mut LudiState, to: CellIndex, diagonal: bool) {
        let directions = if diagonal {
            self.board.direction_count()
        } else {
            self.board.direct_direction_count()
        };
        for d in 0..directions {
            let neighbour = self.board.neighbour(to, d);
            if neighbour == NO_CELL || state.piece(neighbour).is_empty() {
                continue;
            }
            let beyond = self.board.neighbour(neighbour, d);
            if beyond != NO_CELL && state.piece(beyond).is_empty() {
                let piece = state.pop(neighbour);
                state.push(beyond, piece);
            }
        }
    }

    /// Capture by replacement: the enemy pieces buried under the piece just put on the
    /// destination are removed (or, for a conversion, turned into the mover's), when the
    /// condition holds with the destination as `current`.
    fn replace(
        &self,
        state: &mut LudiState,
        condition: Option<&Condition>,
        capture: bool,
        mover: usize,
        m: LudiMove,
    ) {
        let context = Context {
            mover,
            kind: usize::from(m.piece),
            from: (m.from != NO_CELL).then_some(m.from),
            to: m.to,
            current: m.to,
        };
        if condition.is_some_and(|condition| !self.condition(state, condition, &context)) {
            return;
        }
        let enemy_below =
            |(cell, piece): &(CellIndex, Piece)| *cell == m.to && usize::from(piece.owner) != mover;
        if capture {
            let before = state.buried.len();
            state.buried.retain(|entry| !enemy_below(entry));
            let removed = (before - state.buried.len()) as u16;
            state.captured[mover] = state.captured[mover].saturating_add(removed);
        } else {
            for entry in state.buried.iter_mut() {
                if enemy_below(entry) {
                    entry.1.owner = mover as u8;
                }
            }
        }
    }

    /// The enemy cells the capture methods pick around `to`, each once (capture by
    /// replacement, which takes pieces under the mover's, is [`Self::replace`]).
    fn targets(
        &self,
        state: &LudiState,
        methods: &[Method],
        mover: usize,
        to: CellIndex,
    ) -> Vec<CellIndex> {
        let enemy = |cell: CellIndex| state.owner(cell).is_some_and(|o| o != mover);
        let mut targets: Vec<CellIndex> = Vec::new();
        for method in methods {
            match method {
                Method::DirectNeighbours => targets.extend(
                    self.board
                        .direct_neighbours(to)
                        .iter()
                        .copied()
                        .filter(|&n| enemy(n)),
                ),
                Method::AllNeighbours => targets.extend(
                    self.board
                        .all_neighbours(to)
                        .iter()
                        .copied()
                        .filter(|&n| enemy(n)),
                ),
                Method::Surround => {
                    for &n in self.board.neighbours(to) {
                        if enemy(n) && !targets.contains(&n) {
                            let group = self.group_at(state, n);
                            let free = group.iter().any(|&cell| {
                                self.board
                                    .neighbours(cell)
                                    .iter()
                                    .any(|&m| state.piece(m).is_empty())
                            });
                            if !free {
                                targets.extend(group);
                            }
                        }
                    }
                }
                Method::Replace => {}
                Method::Flank => {
                    for d in self.board.line_directions() {
                        let run: Vec<CellIndex> = self
                            .board
                            .ray(to, d)
                            .take_while(|&cell| enemy(cell))
                            .collect();
                        let closed = self
                            .board
                            .ray(to, d)
                            .nth(run.len())
                            .is_some_and(|cell| state.owner(cell) == Some(mover));
                        if !run.is_empty() && closed {
                            targets.extend(run);
                        }
                    }
                }
            }
        }
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// The longest line of the same owner's pieces through `cell`.
    pub(crate) fn run_through(&self, state: &LudiState, cell: CellIndex) -> usize {
        let Some(owner) = state.owner(cell) else {
            return 0;
        };
        self.board
            .axes()
            .iter()
            .map(|&(forward, backward)| {
                let count = |d| {
                    self.board
                        .ray(cell, d)
                        .take_while(|&c| state.owner(c) == Some(owner))
                        .count()
                };
                1 + count(forward) + count(backward)
            })
            .max()
            .unwrap_or(1)
    }
}

/// The one owner of start pieces on named cells or a region (every player's pieces cannot
/// share the same cells).
fn single_owner(owner: Option<usize>) -> Result<usize, LudiError> {
    owner.ok_or_else(|| {
        LudiError::new("start pieces of every player on the same cells (name the owner)")
    })
}

fn piece_of(owner: usize, kind: usize, state: i64) -> Piece {
    Piece {
        owner: owner as u8,
        kind: kind as u8,
        state: state.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16,
        flags: 0,
        turn: 0,
    }
}

fn adjust_state(state: &mut LudiState, cell: CellIndex, change: impl Fn(i16) -> i16) {
    adjust_piece(state, cell, |piece| piece.state = change(piece.state));
}

/// Changes the top piece on `cell`, if there is one.
fn adjust_piece(state: &mut LudiState, cell: CellIndex, change: impl FnOnce(&mut Piece)) {
    if let Some(piece) = state.top.get_mut(usize::from(cell))
        && !piece.is_empty()
    {
        change(piece);
    }
}

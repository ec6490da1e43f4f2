//! End conditions and results (docs/ludi.md, "End clauses"): after each move every clause is
//! tested for every player it names; for one player the first clause that holds decides; when
//! the move decides for several players at once in a way that does not fit together (two
//! winners, everybody losing, a draw beside a win), the tie rule decides. A game exceeding twice
//! the preferred length, or in which nobody can move any more, is a draw.

use super::board::CellIndex;
use super::rules::{RuleKind, rule_kind};
use super::state::LudiState;
use super::{
    ConnectTarget, Constraint, EndCondition, GameResult, LudiGame, MAX_LENGTH, Target, TieRule,
};
use crate::Reward;

const WIN: Reward = 100;
const LOSS: Reward = 0;
const DRAW: Reward = 50;

impl LudiGame {
    /// Decides whether the game is over after `mover`'s move; `next_has_move` tells whether the
    /// player now to move has a move other than a pass.
    pub(crate) fn settle(&self, state: &mut LudiState, mover: usize, next_has_move: bool) {
        let players = self.description.players.len();
        let mut decided: Vec<Option<GameResult>> = vec![None; players];
        for (player, slot) in decided.iter_mut().enumerate() {
            *slot = self
                .description
                .end
                .iter()
                .filter(|clause| clause.player.is_none_or(|p| p == player))
                .find(|clause| self.holds(state, &clause.condition, player, next_has_move))
                .map(|clause| clause.result);
        }
        if let Some(goals) = combine(&decided, mover, self.description.tie) {
            state.result = Some(goals.into_boxed_slice());
            return;
        }
        let stuck = !next_has_move && !self.description.can_pass && {
            // Nobody at all can move: the game cannot go on.
            (1..players).all(|offset| {
                let mut probe = state.clone();
                probe.mover = ((state.mover() + offset) % players) as u8;
                !self.has_move(&probe)
            })
        };
        if stuck || state.plies >= MAX_LENGTH || usize::from(state.passes) >= players {
            state.result = Some(vec![DRAW; players].into_boxed_slice());
        }
    }

    /// Whether `condition` holds for `player` (depth bounded by `Traits::of`).
    pub(crate) fn holds(
        &self,
        state: &LudiState,
        condition: &EndCondition,
        player: usize,
        next_has_move: bool,
    ) -> bool {
        let players = self.description.players.len();
        let kind_matches = |piece: Option<usize>, cell: CellIndex| {
            let top = state.piece(cell);
            !top.is_empty()
                && usize::from(top.owner) == player
                && piece.is_none_or(|k| usize::from(top.kind) == k)
        };
        let cells = self.board.cell_count() as CellIndex;
        // The manual's "no piece on the board or in hand": a piece held counts only where a
        // rule of its kind places pieces (every game starts with unlimited hands, which a game
        // without placement never plays from).
        let kinds = self.description.pieces.len();
        let placeable = |kind: usize| {
            self.description.pieces[kind]
                .moves
                .iter()
                .any(|rule| rule_kind(&rule.actions) == RuleKind::Place)
        };
        let holds_in_hand = |p: usize| {
            (0..kinds).any(|kind| {
                state
                    .hands
                    .get(p * kinds + kind)
                    .is_some_and(|&held| held > 0)
                    && placeable(kind)
            })
        };
        let has_pieces =
            |p: usize| (0..cells).any(|cell| state.owner(cell) == Some(p)) || holds_in_hand(p);
        match condition {
            EndCondition::And(parts) => parts
                .iter()
                .all(|c| self.holds(state, c, player, next_has_move)),
            EndCondition::Or(parts) => parts
                .iter()
                .any(|c| self.holds(state, c, player, next_has_move)),
            EndCondition::Not(inner) => !self.holds(state, inner, player, next_has_move),
            EndCondition::InARow {
                length,
                piece,
                adjacency,
            } => {
                let longest = if self.traits.additive && piece.is_none() && adjacency.is_none() {
                    usize::from(state.longest_run[player])
                } else {
                    self.longest_line_along(state, player, *piece, self.board.axes_for(*adjacency))
                };
                longest as i64 >= *length
            }
            EndCondition::Connect {
                targets,
                count,
                piece,
                constraint,
            } => self.connects(state, player, targets, *count, *piece, *constraint),
            EndCondition::Group {
                size,
                piece,
                constraint,
            } => {
                let groups = self.constrained_groups_of(state, player, *piece, *constraint);
                match size {
                    Some(size) => groups.iter().any(|g| g.len() as i64 >= *size),
                    None => groups.len() == 1 && groups[0].len() >= 2,
                }
            }
            EndCondition::Reach {
                target,
                count,
                piece,
            } => {
                let cells: Vec<CellIndex> = match target {
                    Target::Cell(name) => self
                        .board
                        .cell_at(name.column, name.row, self.description.board.tiling)
                        .into_iter()
                        .collect(),
                    Target::Region(name) => self.region_cells(name).to_vec(),
                    Target::Side(compass) => self.board.side(*compass).to_vec(),
                };
                let on = cells.iter().filter(|&&c| kind_matches(*piece, c)).count();
                on as i64 >= *count
            }
            EndCondition::Capture { count, .. } => {
                let taken = i64::from(state.captured[player]);
                match count {
                    Some(count) => taken >= *count,
                    None => taken > 0 && (0..players).all(|p| p == player || !has_pieces(p)),
                }
            }
            // A player without pieces before everyone has moved once has not been eliminated,
            // only not yet started.
            EndCondition::Eliminate(target) => {
                state.plies() >= players
                    && match target {
                        Some(p) => *p != player && !has_pieces(*p),
                        None => (0..players).all(|p| p == player || !has_pieces(p)),
                    }
            }
            EndCondition::Score(points) => i64::from(state.scores[player]) >= *points,
            EndCondition::Stack {
                height,
                piece,
                pure,
            } => (0..cells).any(|cell| {
                kind_matches(*piece, cell)
                    && state.height(cell) as i64 >= *height
                    && (!pure
                        || state
                            .buried
                            .iter()
                            .all(|(at, below)| *at != cell || usize::from(below.owner) == player))
            }),
            EndCondition::State { value, piece } => (0..cells).any(|cell| {
                kind_matches(*piece, cell) && i64::from(state.piece(cell).state) >= *value
            }),
            EndCondition::NoMove => player == state.mover() && !next_has_move,
        }
    }

    fn region_cells(&self, name: &str) -> &[CellIndex] {
        self.description
            .regions
            .iter()
            .position(|r| r.name == name)
            .map_or(&[], |i| self.regions[i].as_slice())
    }

    /// The longest line of `player`'s pieces (of one type, if given) anywhere on the board.
    pub(crate) fn longest_line_of(
        &self,
        state: &LudiState,
        player: usize,
        piece: Option<usize>,
    ) -> usize {
        self.longest_line_along(state, player, piece, self.board.axes())
    }

    /// [`Self::longest_line_of`] along the given axes.
    fn longest_line_along(
        &self,
        state: &LudiState,
        player: usize,
        piece: Option<usize>,
        axes: &[(usize, usize)],
    ) -> usize {
        let counts = |cell: CellIndex| {
            let top = state.piece(cell);
            !top.is_empty()
                && usize::from(top.owner) == player
                && piece.is_none_or(|k| usize::from(top.kind) == k)
        };
        let mut longest = 0;
        for cell in 0..self.board.cell_count() as CellIndex {
            if !counts(cell) {
                continue;
            }
            for &(forward, backward) in axes {
                let before = self.board.neighbour(cell, backward);
                if before != super::board::NO_CELL && counts(before) {
                    continue; // not the start of the run
                }
                let run = 1 + self
                    .board
                    .ray(cell, forward)
                    .take_while(|&c| counts(c))
                    .count();
                longest = longest.max(run);
            }
            longest = longest.max(1);
        }
        longest
    }

    /// The groups of `player`'s pieces (of one type, if given).
    pub(crate) fn groups_of(
        &self,
        state: &LudiState,
        player: usize,
        piece: Option<usize>,
    ) -> Vec<Vec<CellIndex>> {
        self.constrained_groups_of(state, player, piece, Constraint::default())
    }

    /// The groups of `player`'s pieces (of one type, if given) under an end condition's
    /// adjacency and stacking constraints.
    fn constrained_groups_of(
        &self,
        state: &LudiState,
        player: usize,
        piece: Option<usize>,
        constraint: Constraint,
    ) -> Vec<Vec<CellIndex>> {
        let counts = |cell: CellIndex| {
            let top = state.piece(cell);
            !top.is_empty()
                && usize::from(top.owner) == player
                && piece.is_none_or(|k| usize::from(top.kind) == k)
                && constraint
                    .min_height
                    .is_none_or(|min| state.height(cell) >= usize::from(min))
        };
        let mut seen = vec![false; self.board.cell_count()];
        let mut groups = Vec::new();
        for start in 0..self.board.cell_count() as CellIndex {
            if seen[usize::from(start)] || !counts(start) {
                continue;
            }
            seen[usize::from(start)] = true;
            let mut group = vec![start];
            let mut i = 0;
            while let Some(&at) = group.get(i) {
                i += 1;
                for &n in self.board.neighbours_for(at, constraint.adjacency) {
                    if counts(n) && !std::mem::replace(&mut seen[usize::from(n)], true) {
                        group.push(n);
                    }
                }
            }
            groups.push(group);
        }
        groups
    }

    /// Whether one group of `player`'s pieces touches `count` of the target regions (every one
    /// when `count` is `None`).
    fn connects(
        &self,
        state: &LudiState,
        player: usize,
        targets: &[ConnectTarget],
        count: Option<usize>,
        piece: Option<usize>,
        constraint: Constraint,
    ) -> bool {
        let mut regions: Vec<&[CellIndex]> = Vec::new();
        for target in targets {
            match target {
                ConnectTarget::Region(name) => regions.push(self.region_cells(name)),
                ConnectTarget::OwnRegions => {
                    for (i, region) in self.description.regions.iter().enumerate() {
                        if region.owner == Some(player) {
                            regions.push(&self.regions[i]);
                        }
                    }
                }
            }
        }
        let needed = count.unwrap_or(regions.len());
        if regions.is_empty() || regions.len() > 64 || needed == 0 || needed > regions.len() {
            return false;
        }
        let mut masks = vec![0u64; self.board.cell_count()];
        for (bit, cells) in regions.iter().enumerate() {
            for &cell in cells.iter() {
                masks[usize::from(cell)] |= 1 << bit;
            }
        }
        self.constrained_groups_of(state, player, piece, constraint)
            .iter()
            .any(|group| {
                let touched = group
                    .iter()
                    .fold(0u64, |acc, &cell| acc | masks[usize::from(cell)]);
                touched.count_ones() as usize >= needed
            })
    }
}

/// The goals when the move decided something, by the players' results and the tie rule.
pub(crate) fn combine(
    decided: &[Option<GameResult>],
    mover: usize,
    tie: TieRule,
) -> Option<Vec<Reward>> {
    let players = decided.len();
    if decided.iter().all(Option::is_none) {
        return None;
    }
    let count = |result: GameResult| decided.iter().filter(|&&d| d == Some(result)).count();
    let (wins, losses, draws) = (
        count(GameResult::Win),
        count(GameResult::Lose),
        count(GameResult::Draw),
    );
    let tie_break = || match tie {
        TieRule::MoverWins => (0..players)
            .map(|p| if p == mover { WIN } else { LOSS })
            .collect(),
        TieRule::MoverLoses => (0..players)
            .map(|p| if p == mover { LOSS } else { WIN })
            .collect(),
        TieRule::Draw => vec![DRAW; players],
    };
    Some(if draws > 0 {
        if wins + losses == 0 {
            vec![DRAW; players]
        } else {
            tie_break()
        }
    } else if wins == 1 {
        decided
            .iter()
            .map(|&d| {
                if d == Some(GameResult::Win) {
                    WIN
                } else {
                    LOSS
                }
            })
            .collect()
    } else if wins == 0 && losses < players {
        decided
            .iter()
            .map(|&d| {
                if d == Some(GameResult::Lose) {
                    LOSS
                } else {
                    WIN
                }
            })
            .collect()
    } else {
        tie_break()
    })
}

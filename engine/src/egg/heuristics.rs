//! EGGG's own heuristics (Orwant 2000, "Computer opponents"): the power of a piece — motility
//! times rank times rarity — and the generic static evaluator (`score_board`) built on it, which
//! "can be dropped into any game". The evaluator is the [`Heuristic`] the EGGG games are
//! searched with (the probe's players, and the search players of `ludeme play`).
//!
//! The paper's formulas, as this module reads them (n is the board's dimension, 2 here):
//! - **motility** of a piece: over the rules moving it, the sum of the rule's length plus
//!   `n^n − n^c` (c: the dimensions the rule constrains), divided by the square of the number
//!   of times the piece stands on the starting board (at least one: a piece the board does not
//!   start with is counted once); then normalised so that the lowest piece has 1.
//! - **rank**: 1 for every piece when "beats" has a cycle (rock-paper-scissors, as the paper
//!   says); otherwise one plus the number of pieces a piece beats, directly or through others.
//! - **rarity**: the size of the bag (the pieces on the starting board) divided by the number of
//!   times the piece is in it; 1 for a piece drawn from an unlimited supply.
//! - **score_board**: for a binary or trinary goal, each piece on the board scores its power,
//!   plus its power times the n-th root of its number of moves, plus, for every other location,
//!   its power divided by the n-th root of the (Euclidean) distance to it — the paper's Figure 3
//!   weights. A comparative goal (`score increments`) uses the scores themselves, the paper's
//!   "direct means of determining how many points a board is worth", while they are not all 0.

use super::{EggEngine, EggMove, EggState, Goal, Moves, PieceIndex, Scoring};
use crate::players::{Clock, Heuristic, Player, SearchPlayer, player_by_name};
use crate::probe::criteria::mine_and_strongest_other;
use crate::{Reward, RoleIndex};

/// The board's dimension: every board of the core is a plane of squares or hexagons.
const DIMENSION: u32 = 2;

/// Words in the one rule that moves every piece of the core: `move is place` or `move is
/// choose`.
const MOVE_RULE_WORDS: usize = 3;

/// A rule that moves a piece, as the motility estimate reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionRule {
    /// The rule's length, in words.
    pub length: usize,
    /// How many of the board's dimensions the rule constrains (0: the piece may go anywhere;
    /// the board's dimension: it does not move on the board).
    pub constrained_dimensions: u32,
}

/// The power of one piece and its three factors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PiecePower {
    pub motility: f64,
    pub rank: f64,
    pub rarity: f64,
    /// `motility × rank × rarity`.
    pub power: f64,
}

/// Each piece's motility before normalisation: `rules[p]` are the rules moving piece `p`,
/// `on_start_board[p]` the times it stands on the starting board.
pub fn raw_motility(
    rules: &[Vec<MotionRule>],
    on_start_board: &[usize],
    dimension: u32,
) -> Vec<f64> {
    let d = f64::from(dimension);
    rules
        .iter()
        .zip(on_start_board)
        .map(|(rules, &count)| {
            let sum: f64 = rules
                .iter()
                .map(|rule| {
                    rule.length as f64 + d.powf(d) - d.powi(rule.constrained_dimensions as i32)
                })
                .sum();
            let count = count.max(1) as f64;
            sum / (count * count)
        })
        .collect()
}

/// `values` scaled so that the lowest positive one is 1 (all 1 when none is positive).
pub fn normalised_to_lowest(values: &[f64]) -> Vec<f64> {
    let lowest = values
        .iter()
        .copied()
        .filter(|&v| v > 0.0)
        .fold(f64::INFINITY, f64::min);
    if lowest.is_finite() {
        values.iter().map(|v| v / lowest).collect()
    } else {
        vec![1.0; values.len()]
    }
}

/// Each piece's rank from `beats[p]`, the pieces `p` beats: 1 for all when the relation has a
/// cycle, else one plus the number of pieces `p` beats directly or through others.
pub fn ranks(beats: &[Vec<PieceIndex>]) -> Vec<f64> {
    let pieces = beats.len();
    let reachable: Vec<Vec<bool>> = (0..pieces)
        .map(|from| {
            let mut seen = vec![false; pieces];
            let mut stack: Vec<usize> = beats[from].iter().map(|&p| usize::from(p)).collect();
            while let Some(piece) = stack.pop() {
                if piece < pieces && !seen[piece] {
                    seen[piece] = true;
                    stack.extend(beats[piece].iter().map(|&p| usize::from(p)));
                }
            }
            seen
        })
        .collect();
    if (0..pieces).any(|piece| reachable[piece][piece]) {
        return vec![1.0; pieces];
    }
    reachable
        .iter()
        .map(|seen| 1.0 + seen.iter().filter(|&&s| s).count() as f64)
        .collect()
}

/// Each piece's rarity: the bag's size over its count in the bag; 1 for a piece not in it.
pub fn rarities(in_bag: &[usize]) -> Vec<f64> {
    let bag: usize = in_bag.iter().sum();
    in_bag
        .iter()
        .map(|&count| {
            if count == 0 {
                1.0
            } else {
                bag as f64 / count as f64
            }
        })
        .collect()
}

/// For every cell of a board (`None`: cut away), the location term of the static evaluator:
/// the sum over every other present cell of one over the n-th root of the distance to it.
fn location_weights(centres: &[Option<(f64, f64)>], dimension: u32) -> Vec<f64> {
    let root = 1.0 / f64::from(dimension);
    centres
        .iter()
        .map(|here| {
            let Some((x, y)) = *here else { return 0.0 };
            centres
                .iter()
                .flatten()
                .map(|&(ox, oy)| (ox - x).hypot(oy - y))
                .filter(|&distance| distance > 0.0)
                .map(|distance| 1.0 / distance.powf(root))
                .sum()
        })
        .collect()
}

/// The generic static evaluator of an EGGG game, with the powers of its pieces worked out once.
#[derive(Clone, Debug)]
pub struct EggEvaluator {
    powers: Vec<PiecePower>,
    /// Per cell: the piece's score on it per unit of power (its location weight plus one; a
    /// placed piece has no moves, so the mobility term is 0).
    cell_factor: Vec<f64>,
    /// Per piece, the role that places it (placing games).
    owner: Vec<Option<RoleIndex>>,
}

/// The power of every piece of `game` (motility × rank × rarity), in the order the game names
/// them: what the hover on a piece shows, without the board's location weights.
pub fn piece_powers(game: &EggEngine) -> Vec<PiecePower> {
    let description = game.description();
    let pieces = description.pieces.len();
    let board = &description.board;
    let mut on_start = vec![0; pieces];
    for piece in board.start.iter().flatten() {
        if let Some(count) = on_start.get_mut(usize::from(*piece)) {
            *count += 1;
        }
    }
    // Placing puts a piece anywhere (no dimension constrained); choosing does not move it
    // on the board at all.
    let constrained_dimensions = match description.moves {
        Moves::Place { .. } => 0,
        Moves::Choose { .. } => DIMENSION,
    };
    let rule = MotionRule {
        length: MOVE_RULE_WORDS,
        constrained_dimensions,
    };
    let motility = normalised_to_lowest(&raw_motility(
        &vec![vec![rule]; pieces],
        &on_start,
        DIMENSION,
    ));
    let mut beats = vec![Vec::new(); pieces];
    if let Goal::Outcome(alternatives) = &description.goal {
        for tests in alternatives {
            use super::ChoiceTest::{Opponent, Own};
            for own in tests.iter().filter_map(|t| match t {
                Own(p) => Some(*p),
                Opponent(_) => None,
            }) {
                for beaten in tests.iter().filter_map(|t| match t {
                    Opponent(p) => Some(*p),
                    Own(_) => None,
                }) {
                    beats[usize::from(own)].push(beaten);
                }
            }
        }
    }
    let rank = ranks(&beats);
    let rarity = rarities(&on_start);
    (0..pieces)
        .map(|p| PiecePower {
            motility: motility[p],
            rank: rank[p],
            rarity: rarity[p],
            power: motility[p] * rank[p] * rarity[p],
        })
        .collect()
}

/// Boards of more cells than this get no location weights (every cell the same factor): the
/// weights compare every cell with every other, a billion distances on EGGG's largest boards.
const MAX_WEIGHTED_CELLS: usize = 4096;

impl EggEvaluator {
    pub fn new(game: &EggEngine) -> EggEvaluator {
        let description = game.description();
        let pieces = description.pieces.len();
        let board = &description.board;
        let powers = piece_powers(game);
        let centres: Vec<Option<(f64, f64)>> = (0..board.cell_count())
            .map(|cell| {
                let (x, y) = ((cell % board.width) as f64, (cell / board.width) as f64);
                board.present[cell].then(|| {
                    if board.hexagon_cells {
                        // Axial coordinates to the plane: rows shift by half a cell.
                        (x + y / 2.0, y * 3f64.sqrt() / 2.0)
                    } else {
                        (x, y)
                    }
                })
            })
            .collect();
        let cell_factor = if centres.len() <= MAX_WEIGHTED_CELLS {
            location_weights(&centres, DIMENSION)
                .into_iter()
                .map(|weight| 1.0 + weight)
                .collect()
        } else {
            vec![1.0; centres.len()]
        };
        let mut owner = vec![None; pieces];
        if let Moves::Place { piece_of_role } = &description.moves {
            for (role, &piece) in piece_of_role.iter().enumerate() {
                owner[usize::from(piece)] = Some(role);
            }
        }
        EggEvaluator {
            powers,
            cell_factor,
            owner,
        }
    }

    /// The power of every piece, in the order the game names them.
    pub fn powers(&self) -> &[PiecePower] {
        &self.powers
    }

    /// `score_board` for every role: the sum of its pieces' scores (binary and trinary goals).
    pub fn board_scores(&self, state: &EggState, roles: usize) -> Vec<f64> {
        let mut scores = vec![0.0; roles];
        for (cell, factor) in self.cell_factor.iter().enumerate() {
            let Some(piece) = state.piece_at(cell) else {
                continue;
            };
            let piece = usize::from(piece);
            if let (Some(Some(role)), Some(power)) = (self.owner.get(piece), self.powers.get(piece))
                && let Some(score) = scores.get_mut(*role)
            {
                *score += power.power * factor;
            }
        }
        scores
    }
}

/// `role`'s share of the lead over its strongest rival, 0..100: 50 when they are level.
fn lead_value(scores: &[f64], role: RoleIndex) -> Reward {
    let (own, rival) = mine_and_strongest_other(scores, role);
    if own + rival <= 0.0 {
        return 50;
    }
    (50.0 + 50.0 * (own - rival) / (own + rival)).round() as Reward
}

impl Heuristic<EggEngine> for EggEvaluator {
    fn value(&self, game: &EggEngine, state: &EggState, role: RoleIndex) -> Reward {
        let roles = game.description().roles.len();
        if game.description().scoring == Scoring::CountGoals
            && state.scores().iter().any(|&s| s > 0)
        {
            let scores: Vec<f64> = state.scores().iter().map(|&s| f64::from(s)).collect();
            return lead_value(&scores, role);
        }
        lead_value(&self.board_scores(state, roles), role)
    }
}

/// A search player of an EGGG game that values the states it cuts off with the game's static
/// evaluator (the paper's generic minimax procedure with `score_board`).
pub struct EvaluatedSearch {
    search: SearchPlayer,
    evaluator: EggEvaluator,
}

impl Player<EggEngine> for EvaluatedSearch {
    fn name(&self) -> &'static str {
        Player::<EggEngine>::name(&self.search)
    }

    fn choose_move(
        &mut self,
        game: &EggEngine,
        state: &EggState,
        role: RoleIndex,
        clock: &mut Clock,
    ) -> Option<EggMove> {
        self.search
            .choose_move_with(game, state, role, clock, &self.evaluator)
    }
}

/// The player `name` names (see [`crate::players::PLAYER_NAMES`]) for `game`: the search
/// players value cut-off states with the game's [`EggEvaluator`], the others are as
/// [`player_by_name`] makes them.
pub fn egg_player_by_name(
    name: &str,
    seed: u64,
    game: &EggEngine,
) -> Option<Box<dyn Player<EggEngine>>> {
    let search = match name {
        "maximizer" => SearchPlayer::maximizer(),
        "minimax" => SearchPlayer::minimax(),
        "bounded" => SearchPlayer::bounded_minimax(),
        "alphabeta" => SearchPlayer::alpha_beta(),
        "iterative" => SearchPlayer::iterative_deepening(),
        _ => return player_by_name(name, seed),
    };
    Some(Box::new(EvaluatedSearch {
        search,
        evaluator: EggEvaluator::new(game),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;
    use crate::egg::{Board, ChoiceTest, Description, EggMove, LineGoal, Turns};

    /// The paper's Figure 3: the weights of the chessboard's squares "assuming unit power",
    /// row by row; the figure prints one decimal.
    const FIGURE_3: [[f64; 8]; 4] = [
        [29.2, 31.2, 32.4, 32.9, 32.9, 32.4, 31.2, 29.2],
        [31.2, 33.6, 34.9, 35.6, 35.6, 34.9, 33.6, 31.2],
        [32.4, 34.9, 36.5, 37.2, 37.2, 36.5, 34.9, 32.4],
        [32.9, 35.6, 37.2, 38.0, 38.0, 37.2, 35.6, 32.9],
    ];

    #[test]
    fn location_weights_are_the_papers_figure_3() {
        let centres: Vec<Option<(f64, f64)>> = (0..64)
            .map(|cell| Some(((cell % 8) as f64, (cell / 8) as f64)))
            .collect();
        let weights = location_weights(&centres, 2);
        for (cell, weight) in weights.iter().enumerate() {
            let (x, y) = (cell % 8, cell / 8);
            // The figure is symmetric: its lower half mirrors the upper.
            let expected = FIGURE_3[y.min(7 - y)][x];
            assert!(
                (weight - expected).abs() < 0.05,
                "square ({x}, {y}): {weight} against the figure's {expected}"
            );
        }
    }

    #[test]
    fn chess_rarities_are_the_papers() {
        // Pieces on chess's starting board: king, queen, rook, knight, bishop, pawn (both
        // colours, 32 in all); the paper: king and queen 16, rook, bishop, knight 8, pawn 2.
        assert_eq!(
            rarities(&[2, 2, 4, 4, 4, 16]),
            vec![16.0, 16.0, 8.0, 8.0, 8.0, 2.0]
        );
        // A piece drawn from an unlimited supply is not rare.
        assert_eq!(rarities(&[0, 0]), vec![1.0, 1.0]);
    }

    #[test]
    fn ranks_follow_beats_unless_it_has_a_cycle() {
        // Rock beats scissors, scissors paper, paper rock: a cycle, rank 1 each (the paper).
        assert_eq!(ranks(&[vec![2], vec![0], vec![1]]), vec![1.0, 1.0, 1.0]);
        // A beats B, B beats C: A beats two pieces (one through B), B one, C none.
        assert_eq!(ranks(&[vec![1], vec![2], vec![]]), vec![3.0, 2.0, 1.0]);
    }

    #[test]
    fn motility_counts_rule_length_freedom_and_starting_count() {
        let free = MotionRule {
            length: 3,
            constrained_dimensions: 0,
        };
        let fixed = MotionRule {
            length: 5,
            constrained_dimensions: 2,
        };
        // Piece 0: one free rule of 3 words on a plane: 3 + 2^2 − 2^0 = 6, twice on the
        // starting board: 6 / 2^2 = 1.5. Piece 1: 5 + 4 − 4 = 5 plus 6, on the board once: 11.
        // Piece 2: not on the board, counted once: 6.
        let raw = raw_motility(&[vec![free], vec![fixed, free], vec![free]], &[2, 1, 0], 2);
        assert_eq!(raw, vec![1.5, 11.0, 6.0]);
        assert_eq!(normalised_to_lowest(&raw), vec![1.0, 11.0 / 1.5, 4.0]);
    }

    fn tic_tac_toe(scoring: Scoring) -> EggEngine {
        EggEngine::new(Description {
            roles: vec!["x".into(), "o".into()],
            pieces: vec!["X".into(), "O".into()],
            board: Board::rectangle(3, 3),
            turns: Turns::Alternate { order: vec![0, 1] },
            moves: Moves::Place {
                piece_of_role: vec![0, 1],
            },
            goal: Goal::Lines(vec![LineGoal {
                length: 3,
                axes: vec![(1, 0), (0, 1), (1, 1), (1, -1)],
            }]),
            scoring,
        })
        .expect("playable")
    }

    #[test]
    fn the_centre_is_worth_more_than_a_corner() {
        let game = tic_tac_toe(Scoring::FirstGoalWins);
        let evaluator = EggEvaluator::new(&game);
        // X and O: same rule, neither on the starting board, no beats: power 1 each.
        for power in evaluator.powers() {
            assert_eq!((power.motility, power.rank, power.rarity), (1.0, 1.0, 1.0));
        }
        let state = game.initial_state();
        let state = game.next_state(&state, &[EggMove::Place(4), EggMove::Pass]);
        let state = game.next_state(&state, &[EggMove::Pass, EggMove::Place(0)]);
        // X in the centre: 1 + 4·1 + 4/2^(1/4) = 8.3636; O in the corner:
        // 1 + 2·1 + 1/2^(1/4) + 2/√2 + 2/5^(1/4) + 1/8^(1/4) = 7.1872.
        let scores = evaluator.board_scores(&state, 2);
        assert!((scores[0] - 8.3636).abs() < 1e-4, "{scores:?}");
        assert!((scores[1] - 7.1872).abs() < 1e-4, "{scores:?}");
        // 50 + 50 · (8.3636 − 7.1872) / (8.3636 + 7.1872) = 53.78, and 46.22 for O.
        assert_eq!(evaluator.value(&game, &state, 0), 54);
        assert_eq!(evaluator.value(&game, &state, 1), 46);
        assert_eq!(evaluator.value(&game, &game.initial_state(), 0), 50);
    }

    #[test]
    fn a_comparative_goal_is_valued_by_its_scores() {
        use ChoiceTest::{Opponent, Own};
        let game = EggEngine::new(Description {
            roles: vec!["player".into(), "opponent".into()],
            pieces: vec!["Rock".into(), "Paper".into(), "Scissors".into()],
            board: Board::rectangle(3, 1),
            turns: Turns::Simultaneous,
            moves: Moves::Choose {
                options: vec![0, 1, 2],
            },
            goal: Goal::Outcome(vec![
                vec![Own(0), Opponent(2)],
                vec![Own(2), Opponent(1)],
                vec![Own(1), Opponent(0)],
            ]),
            scoring: Scoring::CountGoals,
        })
        .expect("playable");
        let evaluator = EggEvaluator::new(&game);
        assert!(evaluator.powers().iter().all(|p| p.rank == 1.0));
        let state = game.initial_state();
        assert_eq!(evaluator.value(&game, &state, 0), 50);
        // Rock against scissors: the player scores 1, the opponent 0: 50 + 50 · 1/1.
        let state = game.next_state(&state, &[EggMove::Choose(0), EggMove::Choose(2)]);
        assert_eq!(evaluator.value(&game, &state, 0), 100);
        assert_eq!(evaluator.value(&game, &state, 1), 0);
    }
}

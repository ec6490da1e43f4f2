//! The players on small games written directly on [`Game`]: tic-tac-toe and connect four (turn
//! taking, the idle role passing), a one-player counting puzzle, rock-paper-scissors
//! (simultaneous), and faulty games. Every expected value below is a fact about the game,
//! worked out by hand, not something the searches computed.

use std::cell::Cell;
use std::collections::{HashSet, VecDeque};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::{Game, Reward, RoleIndex};

// ---------------------------------------------------------------------------------------------
// The games.

/// A move in the turn-taking games: a cell or column, or the idle role's no-op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Turn {
    Place(u8),
    Noop,
}

fn two_roles() -> Vec<String> {
    vec!["first".to_owned(), "second".to_owned()]
}

/// Goals of a two-player game with a winner (1 or 2) or none (a draw).
fn win_loss_draw(winner: u8) -> Vec<Reward> {
    match winner {
        1 => vec![100, 0],
        2 => vec![0, 100],
        _ => vec![50, 50],
    }
}

struct TicTacToe {
    roles: Vec<String>,
}

impl TicTacToe {
    fn new() -> Self {
        TicTacToe { roles: two_roles() }
    }

    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];

    fn winner(board: &Board) -> u8 {
        Self::LINES
            .iter()
            .find(|line| {
                board.cells[line[0]] != 0
                    && line.iter().all(|&c| board.cells[c] == board.cells[line[0]])
            })
            .map_or(0, |line| board.cells[line[0]])
    }
}

/// Tic-tac-toe: cells 0–8 row by row, 0 empty, 1 and 2 the players' marks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Board {
    cells: [u8; 9],
    /// The role to move: 0 or 1.
    mover: u8,
}

impl Game for TicTacToe {
    type State = Board;
    type Move = Turn;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> Board {
        Board {
            cells: [0; 9],
            mover: 0,
        }
    }

    fn is_terminal(&self, state: &Board) -> bool {
        Self::winner(state) != 0 || state.cells.iter().all(|&c| c != 0)
    }

    fn legal_moves(&self, state: &Board, role: RoleIndex) -> Vec<Turn> {
        if self.is_terminal(state) {
            return Vec::new();
        }
        if role != usize::from(state.mover) {
            return vec![Turn::Noop];
        }
        (0..9u8)
            .filter(|&c| state.cells[usize::from(c)] == 0)
            .map(Turn::Place)
            .collect()
    }

    fn next_state(&self, state: &Board, joint: &[Turn]) -> Board {
        let mut next = state.clone();
        if let Turn::Place(cell) = joint[usize::from(state.mover)] {
            next.cells[usize::from(cell)] = state.mover + 1;
        }
        next.mover = 1 - state.mover;
        next
    }

    fn goals(&self, state: &Board) -> Vec<Reward> {
        win_loss_draw(Self::winner(state))
    }
}

/// Connect four on the usual 7 columns of 6.
struct ConnectFour {
    roles: Vec<String>,
}

impl ConnectFour {
    const COLUMNS: usize = 7;
    const ROWS: usize = 6;

    fn new() -> Self {
        ConnectFour { roles: two_roles() }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Columns {
    /// `cells[column][row]`, row 0 at the bottom; 0 empty, 1 and 2 the players' discs.
    cells: [[u8; ConnectFour::ROWS]; ConnectFour::COLUMNS],
    heights: [u8; ConnectFour::COLUMNS],
    mover: u8,
    /// 1 or 2 once someone has four in a row.
    winner: u8,
    discs: u8,
}

impl Columns {
    /// Whether the disc just dropped at (`column`, `row`) completes four in a row.
    fn completes_four(&self, column: usize, row: usize) -> bool {
        let disc = self.cells[column][row];
        let run = |dc: isize, dr: isize| {
            let mut count = 0;
            let (mut c, mut r) = (column as isize + dc, row as isize + dr);
            while (0..ConnectFour::COLUMNS as isize).contains(&c)
                && (0..ConnectFour::ROWS as isize).contains(&r)
                && self.cells[c as usize][r as usize] == disc
            {
                count += 1;
                c += dc;
                r += dr;
            }
            count
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| 1 + run(dc, dr) + run(-dc, -dr) >= 4)
    }
}

impl Game for ConnectFour {
    type State = Columns;
    type Move = Turn;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> Columns {
        Columns {
            cells: [[0; Self::ROWS]; Self::COLUMNS],
            heights: [0; Self::COLUMNS],
            mover: 0,
            winner: 0,
            discs: 0,
        }
    }

    fn is_terminal(&self, state: &Columns) -> bool {
        state.winner != 0 || usize::from(state.discs) == Self::ROWS * Self::COLUMNS
    }

    fn legal_moves(&self, state: &Columns, role: RoleIndex) -> Vec<Turn> {
        if self.is_terminal(state) {
            return Vec::new();
        }
        if role != usize::from(state.mover) {
            return vec![Turn::Noop];
        }
        (0..Self::COLUMNS as u8)
            .filter(|&c| usize::from(state.heights[usize::from(c)]) < Self::ROWS)
            .map(Turn::Place)
            .collect()
    }

    fn next_state(&self, state: &Columns, joint: &[Turn]) -> Columns {
        let mut next = state.clone();
        if let Turn::Place(column) = joint[usize::from(state.mover)] {
            let column = usize::from(column);
            let row = usize::from(next.heights[column]);
            next.cells[column][row] = state.mover + 1;
            next.heights[column] += 1;
            next.discs += 1;
            if next.completes_four(column, row) {
                next.winner = state.mover + 1;
            }
        }
        next.mover = 1 - state.mover;
        next
    }

    fn goals(&self, state: &Columns) -> Vec<Reward> {
        win_loss_draw(state.winner)
    }
}

/// A one-player puzzle: start at 1, make exactly five moves, each adding one or doubling; the
/// reward is 100 less the distance to the target (never below 0).
struct Counting {
    roles: Vec<String>,
    target: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    AddOne,
    Double,
}

impl Counting {
    const STEPS: u8 = 5;

    fn new(target: u32) -> Self {
        Counting {
            roles: vec!["solver".to_owned()],
            target,
        }
    }
}

impl Game for Counting {
    /// (value, moves made)
    type State = (u32, u8);
    type Move = Step;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> (u32, u8) {
        (1, 0)
    }

    fn is_terminal(&self, state: &(u32, u8)) -> bool {
        state.1 >= Self::STEPS
    }

    fn legal_moves(&self, state: &(u32, u8), _role: RoleIndex) -> Vec<Step> {
        if self.is_terminal(state) {
            Vec::new()
        } else {
            vec![Step::AddOne, Step::Double]
        }
    }

    fn next_state(&self, &(value, steps): &(u32, u8), joint: &[Step]) -> (u32, u8) {
        match joint[0] {
            Step::AddOne => (value + 1, steps + 1),
            Step::Double => (value * 2, steps + 1),
        }
    }

    fn goals(&self, &(value, _): &(u32, u8)) -> Vec<Reward> {
        vec![100u32.saturating_sub(value.abs_diff(self.target)) as Reward]
    }
}

/// One round of rock-paper-scissors, both roles choosing at once: 100 to the winner, 0 to the
/// loser, 50 each for a tie. With `fold`, a role may also stay out for a sure 40 (the other then
/// gets 60, or 40 if it folded too).
struct RockPaperScissors {
    roles: Vec<String>,
    fold: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Hand {
    Rock,
    Paper,
    Scissors,
    Fold,
}

impl RockPaperScissors {
    fn new(fold: bool) -> Self {
        RockPaperScissors {
            roles: two_roles(),
            fold,
        }
    }

    fn score(mine: Hand, theirs: Hand) -> Reward {
        use Hand::*;
        match (mine, theirs) {
            (Fold, _) => 40,
            (_, Fold) => 60,
            (Rock, Scissors) | (Paper, Rock) | (Scissors, Paper) => 100,
            (a, b) if a == b => 50,
            _ => 0,
        }
    }
}

impl Game for RockPaperScissors {
    /// The hands shown, once shown.
    type State = Option<(Hand, Hand)>;
    type Move = Hand;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> Self::State {
        None
    }

    fn is_terminal(&self, state: &Self::State) -> bool {
        state.is_some()
    }

    fn legal_moves(&self, state: &Self::State, _role: RoleIndex) -> Vec<Hand> {
        match (state, self.fold) {
            (Some(_), _) => Vec::new(),
            (None, false) => vec![Hand::Rock, Hand::Paper, Hand::Scissors],
            (None, true) => vec![Hand::Rock, Hand::Paper, Hand::Scissors, Hand::Fold],
        }
    }

    fn next_state(&self, _state: &Self::State, joint: &[Hand]) -> Self::State {
        Some((joint[0], joint[1]))
    }

    fn goals(&self, state: &Self::State) -> Vec<Reward> {
        match state {
            Some((a, b)) => vec![Self::score(*a, *b), Self::score(*b, *a)],
            None => vec![0, 0],
        }
    }
}

/// A faulty game: not terminal, yet the second role has no legal move.
struct Stuck {
    roles: Vec<String>,
}

impl Game for Stuck {
    type State = ();
    type Move = u8;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) {}

    fn is_terminal(&self, _state: &()) -> bool {
        false
    }

    fn legal_moves(&self, _state: &(), role: RoleIndex) -> Vec<u8> {
        if role == 0 { vec![1, 2] } else { Vec::new() }
    }

    fn next_state(&self, _state: &(), _joint: &[u8]) {}

    fn goals(&self, _state: &()) -> Vec<Reward> {
        vec![0, 0]
    }
}

/// Tic-tac-toe on an engine that gives up after so many calls, and then answers as the
/// [`Game::failure`] contract says: terminal, no moves, no goals.
struct GivesUp {
    inner: TicTacToe,
    calls_left: Cell<u64>,
}

impl GivesUp {
    fn after(calls: u64) -> Self {
        GivesUp {
            inner: TicTacToe::new(),
            calls_left: Cell::new(calls),
        }
    }

    /// Counts a call; false once the engine has given up.
    fn working(&self) -> bool {
        let left = self.calls_left.get();
        self.calls_left.set(left.saturating_sub(1));
        left > 0
    }
}

impl Game for GivesUp {
    type State = Board;
    type Move = Turn;

    fn roles(&self) -> &[String] {
        self.inner.roles()
    }

    fn initial_state(&self) -> Board {
        self.inner.initial_state()
    }

    fn is_terminal(&self, state: &Board) -> bool {
        !self.working() || self.inner.is_terminal(state)
    }

    fn legal_moves(&self, state: &Board, role: RoleIndex) -> Vec<Turn> {
        if self.working() {
            self.inner.legal_moves(state, role)
        } else {
            Vec::new()
        }
    }

    fn next_state(&self, state: &Board, joint: &[Turn]) -> Board {
        if self.working() {
            self.inner.next_state(state, joint)
        } else {
            state.clone()
        }
    }

    fn goals(&self, state: &Board) -> Vec<Reward> {
        if self.working() {
            self.inner.goals(state)
        } else {
            Vec::new()
        }
    }

    fn failure(&self) -> Option<String> {
        (self.calls_left.get() == 0).then(|| "out of calls".to_owned())
    }
}

/// A one-player corridor of `length` steps with one move a step, worth 100 at its end: deeper
/// than any search may go when long enough.
struct Corridor {
    roles: Vec<String>,
    length: u32,
}

impl Game for Corridor {
    type State = u32;
    type Move = ();

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> u32 {
        0
    }

    fn is_terminal(&self, state: &u32) -> bool {
        *state >= self.length
    }

    fn legal_moves(&self, state: &u32, _role: RoleIndex) -> Vec<()> {
        if self.is_terminal(state) {
            Vec::new()
        } else {
            vec![()]
        }
    }

    fn next_state(&self, state: &u32, _joint: &[()]) -> u32 {
        state + 1
    }

    fn goals(&self, _state: &u32) -> Vec<Reward> {
        vec![100]
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

fn all_players<G: Game>(seed: u64) -> Vec<Box<dyn Player<G>>> {
    PLAYER_NAMES
        .iter()
        .map(|name| player_by_name(name, seed).expect("a known player"))
        .collect()
}

/// Every state reachable from the initial state.
fn reachable_states<G: Game>(game: &G) -> Vec<G::State> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([game.initial_state()]);
    let mut states = Vec::new();
    while let Some(state) = queue.pop_front() {
        if !seen.insert(state.clone()) {
            continue;
        }
        if !game.is_terminal(&state) {
            let moves: Vec<Vec<G::Move>> = (0..game.roles().len())
                .map(|role| game.legal_moves(&state, role))
                .collect();
            for mine in &moves[0] {
                for joint in JointMoves::new(0, mine, &moves) {
                    queue.push_back(game.next_state(&state, &joint));
                }
            }
        }
        states.push(state);
    }
    states
}

/// The worst goal `role` gets when `player` plays it from `state` and the other roles try every
/// joint move, in every line of play (the game tree is walked exhaustively).
fn worst_against_every_reply<G: Game>(
    game: &G,
    player: &mut dyn Player<G>,
    role: RoleIndex,
    state: &G::State,
) -> Reward {
    if game.is_terminal(state) {
        return game.goals(state)[role];
    }
    let chosen = player
        .choose_move(game, state, role, &mut Clock::unlimited())
        .expect("a move in a non-terminal state");
    let moves: Vec<Vec<G::Move>> = (0..game.roles().len())
        .map(|r| game.legal_moves(state, r))
        .collect();
    assert!(moves[role].contains(&chosen), "{chosen:?} is not legal");
    JointMoves::new(role, &chosen, &moves)
        .map(|joint| worst_against_every_reply(game, player, role, &game.next_state(state, &joint)))
        .min()
        .expect("some reply")
}

// ---------------------------------------------------------------------------------------------
// Tic-tac-toe: never losing, and the searches agreeing on every position.

#[test]
fn the_adversarial_searches_never_lose_tic_tac_toe_as_either_player() {
    let game = TicTacToe::new();
    let searchers: Vec<Box<dyn Player<TicTacToe>>> = vec![
        Box::new(SearchPlayer::alpha_beta()),
        Box::new(SearchPlayer::iterative_deepening()),
        Box::new(SearchPlayer::bounded_minimax()),
        Box::new(SearchPlayer::minimax()),
    ];
    for mut player in searchers {
        for role in 0..2 {
            let worst =
                worst_against_every_reply(&game, player.as_mut(), role, &game.initial_state());
            // Tic-tac-toe is a draw with best play: a player who never loses gets 50 at worst,
            // and no player can be sure of more.
            assert_eq!(worst, 50, "{} as role {role}", player.name());
        }
    }
}

#[test]
fn tic_tac_toe_is_worth_a_draw_to_both_players() {
    let game = TicTacToe::new();
    let start = game.initial_state();
    for role in 0..2 {
        let outcomes = [
            SearchPlayer::minimax().analyse(&game, &start, role, &mut Clock::unlimited()),
            SearchPlayer::bounded_minimax().analyse(&game, &start, role, &mut Clock::unlimited()),
            SearchPlayer::alpha_beta().analyse(&game, &start, role, &mut Clock::unlimited()),
            SearchPlayer::iterative_deepening().analyse(
                &game,
                &start,
                role,
                &mut Clock::unlimited(),
            ),
        ];
        for outcome in outcomes {
            assert_eq!(outcome.value, Some(50));
            assert!(outcome.solved);
        }
    }
}

#[test]
fn minimax_bounded_minimax_and_alpha_beta_agree_on_every_tic_tac_toe_position() {
    let game = TicTacToe::new();
    let states = reachable_states(&game);
    // The number of legal tic-tac-toe positions, a well-known figure: a check on the walk.
    assert_eq!(states.len(), 5478);
    for state in &states {
        for role in 0..2 {
            let reference =
                SearchPlayer::minimax().analyse(&game, state, role, &mut Clock::unlimited());
            let bounded = SearchPlayer::bounded_minimax().analyse(
                &game,
                state,
                role,
                &mut Clock::unlimited(),
            );
            let alpha_beta =
                SearchPlayer::alpha_beta().analyse(&game, state, role, &mut Clock::unlimited());
            let iterative = SearchPlayer::iterative_deepening().analyse(
                &game,
                state,
                role,
                &mut Clock::unlimited(),
            );
            assert!(reference.value.is_some());
            assert_eq!(bounded.value, reference.value, "{state:?} role {role}");
            assert_eq!(alpha_beta.value, reference.value, "{state:?} role {role}");
            assert_eq!(iterative.value, reference.value, "{state:?} role {role}");
        }
    }
}

#[test]
fn a_one_ply_search_takes_an_immediate_win() {
    let game = TicTacToe::new();
    // X on 0 and 1, O on 3 and 4, X to move: 2 wins at once (and anything else lets O win).
    let state = Board {
        cells: [1, 1, 0, 2, 2, 0, 0, 0, 0],
        mover: 0,
    };
    let outcome = SearchPlayer::alpha_beta().with_depth_limit(1).analyse(
        &game,
        &state,
        0,
        &mut Clock::unlimited(),
    );
    assert_eq!(outcome.best_move, Some(Turn::Place(2)));
    assert_eq!(outcome.value, Some(100));
    let bounded = SearchPlayer::bounded_minimax().with_depth_limit(1).analyse(
        &game,
        &state,
        0,
        &mut Clock::unlimited(),
    );
    assert_eq!(bounded.best_move, Some(Turn::Place(2)));
    // O, not to move, can see it has lost.
    let loser = SearchPlayer::alpha_beta().analyse(&game, &state, 1, &mut Clock::unlimited());
    assert_eq!(loser.value, Some(0));
}

// ---------------------------------------------------------------------------------------------
// Puzzles: the maximizer.

#[test]
fn the_maximizer_solves_the_counting_puzzle() {
    // 1 → 2 → 4 → 5 → 10 → 11 reaches 11 in exactly five steps.
    let game = Counting::new(11);
    let outcome =
        SearchPlayer::maximizer().analyse(&game, &game.initial_state(), 0, &mut Clock::unlimited());
    assert_eq!(outcome.value, Some(100));
    let mut players: Vec<Box<dyn Player<Counting>>> = vec![Box::new(SearchPlayer::maximizer())];
    let result = play_match(&game, &mut players, &MatchSettings::default());
    assert_eq!(result.end, MatchEnd::Terminal);
    assert_eq!(result.goals, Some(vec![100]));
    assert_eq!(result.plies, 5);
}

#[test]
fn the_maximizer_gets_as_close_as_the_puzzle_allows() {
    // Five steps from 1 reach at most 32 (doubling every time), one short of 33: 99 is the best.
    let game = Counting::new(33);
    let mut players: Vec<Box<dyn Player<Counting>>> = vec![Box::new(SearchPlayer::maximizer())];
    let result = play_match(&game, &mut players, &MatchSettings::default());
    assert_eq!(result.goals, Some(vec![99]));
}

// ---------------------------------------------------------------------------------------------
// Simultaneous moves.

#[test]
fn the_searches_see_rock_paper_scissors_as_a_sure_loss_against_an_opponent_who_knows_our_hand() {
    let game = RockPaperScissors::new(false);
    for role in 0..2 {
        for outcome in [
            SearchPlayer::minimax().analyse(&game, &None, role, &mut Clock::unlimited()),
            SearchPlayer::alpha_beta().analyse(&game, &None, role, &mut Clock::unlimited()),
        ] {
            assert_eq!(outcome.value, Some(0));
        }
    }
}

#[test]
fn the_searches_fold_when_every_other_hand_can_be_beaten() {
    let game = RockPaperScissors::new(true);
    for role in 0..2 {
        let mut searchers: Vec<Box<dyn Player<RockPaperScissors>>> = vec![
            Box::new(SearchPlayer::minimax()),
            Box::new(SearchPlayer::bounded_minimax()),
            Box::new(SearchPlayer::alpha_beta()),
            Box::new(SearchPlayer::iterative_deepening()),
        ];
        for player in &mut searchers {
            let chosen = player.choose_move(&game, &None, role, &mut Clock::unlimited());
            assert_eq!(chosen, Some(Hand::Fold), "{} as role {role}", player.name());
        }
        let value = SearchPlayer::alpha_beta()
            .analyse(&game, &None, role, &mut Clock::unlimited())
            .value;
        assert_eq!(value, Some(40));
    }
    // The maximizer assumes the world plays along: any hand could win, so it does not fold.
    let hopeful = SearchPlayer::maximizer().analyse(&game, &None, 0, &mut Clock::unlimited());
    assert_eq!(hopeful.value, Some(100));
}

#[test]
fn every_player_plays_a_simultaneous_game_to_its_end() {
    let game = RockPaperScissors::new(true);
    for seed in 0..3 {
        let mut players = all_players::<RockPaperScissors>(seed);
        for pair in players.chunks_mut(2) {
            let result = play_match(&game, pair, &MatchSettings::default());
            assert_eq!(result.end, MatchEnd::Terminal);
            assert_eq!(result.plies, 1);
        }
    }
}

#[test]
fn joint_moves_cover_every_combination_of_the_other_roles_moves_once() {
    let moves = vec![vec!['a', 'b'], vec!['x'], vec!['1', '2', '3']];
    let joints: Vec<Vec<char>> = JointMoves::new(1, &'y', &moves).collect();
    assert_eq!(joints.len(), 6);
    assert_eq!(joints.iter().collect::<HashSet<_>>().len(), 6);
    assert!(joints.iter().all(|joint| joint[1] == 'y'));
    let blocked = vec![vec!['a'], Vec::new()];
    assert_eq!(JointMoves::new(0, &'a', &blocked).count(), 0);
}

// ---------------------------------------------------------------------------------------------
// Clocks.

#[test]
fn iterative_deepening_answers_within_its_play_clock() {
    let game = ConnectFour::new();
    let start = game.initial_state();
    let budget = Duration::from_millis(50);
    let mut clock = Clock::start(&MoveBudget::time(budget));
    let started = Instant::now();
    let outcome = SearchPlayer::iterative_deepening().analyse(&game, &start, 0, &mut clock);
    let elapsed = started.elapsed();
    // A shared machine may pause us; the search itself stops at its next state after 50 ms.
    assert!(elapsed < budget + Duration::from_millis(200), "{elapsed:?}");
    assert!(outcome.best_move.is_some());
    assert!(outcome.depth >= 2, "only depth {} in 50 ms", outcome.depth);
    // Connect four is far too deep to solve in 50 ms.
    assert!(!outcome.solved);
}

#[test]
fn searches_stop_at_their_node_budget() {
    let game = ConnectFour::new();
    let start = game.initial_state();
    let mut clock = Clock::start(&MoveBudget::nodes(1_000));
    let outcome = SearchPlayer::iterative_deepening().analyse(&game, &start, 0, &mut clock);
    assert_eq!(outcome.nodes, 1_000);
    assert!(matches!(outcome.best_move, Some(Turn::Place(_))));
    // A full search cut short still answers with a legal move, though with no value.
    let mut clock = Clock::start(&MoveBudget::nodes(1_000));
    let outcome = SearchPlayer::alpha_beta().analyse(&game, &start, 0, &mut clock);
    assert_eq!(outcome.value, None);
    assert!(matches!(outcome.best_move, Some(Turn::Place(_))));
}

#[test]
fn searches_stop_at_their_depth_cap_within_a_small_thread_stack() {
    // Threads get 2 MiB of stack by default (an editor's worker, a test); the deepest search
    // allowed must fit in it.
    let outcome = std::thread::spawn(|| {
        let game = Corridor {
            roles: vec!["walker".to_owned()],
            length: 100_000,
        };
        SearchPlayer::minimax().analyse(&game, &0, 0, &mut Clock::unlimited())
    })
    .join()
    .expect("no stack overflow");
    // The end is out of sight: the search stops at its cap and knows nothing.
    assert_eq!(outcome.value, Some(search::NEUTRAL));
    assert!(!outcome.solved);
    assert_eq!(outcome.depth, search::MAX_SEARCH_DEPTH);
    // A corridor within reach is walked to its end.
    let game = Corridor {
        roles: vec!["walker".to_owned()],
        length: 50,
    };
    let outcome = SearchPlayer::alpha_beta().analyse(&game, &0, 0, &mut Clock::unlimited());
    assert_eq!(outcome.value, Some(100));
    assert!(outcome.solved);
}

#[test]
fn a_cancel_flag_stops_a_search() {
    let game = ConnectFour::new();
    let flag = Arc::new(AtomicBool::new(true));
    let mut clock = Clock::unlimited().with_cancel(flag);
    let started = Instant::now();
    let chosen = SearchPlayer::minimax().choose_move(&game, &game.initial_state(), 0, &mut clock);
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(matches!(chosen, Some(Turn::Place(_))));
}

// ---------------------------------------------------------------------------------------------
// Monte-Carlo tree search.

#[test]
fn mcts_beats_random_at_connect_four_in_at_least_95_of_100_games() {
    let game = ConnectFour::new();
    let settings = MatchSettings {
        // An iteration budget instead of the 0.1 s play clock: the same games on every machine.
        move_budget: MoveBudget::nodes(1_000),
        ..MatchSettings::default()
    };
    let mut wins = 0;
    for seed in 0..100u64 {
        let mcts_role = (seed % 2) as usize;
        let mut players: Vec<Box<dyn Player<ConnectFour>>> = vec![
            Box::new(Mcts::new(seed)),
            Box::new(RandomPlayer::new(seed + 1_000)),
        ];
        if mcts_role == 1 {
            players.reverse();
        }
        let result = play_match(&game, &mut players, &settings);
        assert_eq!(result.end, MatchEnd::Terminal);
        if result.goals.expect("goals")[mcts_role] == 100 {
            wins += 1;
        }
    }
    assert!(wins >= 95, "MCTS won {wins} of 100");
}

#[test]
fn mcts_with_an_iteration_budget_is_repeatable() {
    let game = ConnectFour::new();
    let start = game.initial_state();
    let choose = || {
        let mut clock = Clock::start(&MoveBudget::nodes(300));
        Mcts::new(7).choose_move(&game, &start, 0, &mut clock)
    };
    assert_eq!(choose(), choose());
}

#[test]
fn mcts_completes_a_won_tic_tac_toe() {
    // X to move with two threats: either completes a line.
    let game = TicTacToe::new();
    let state = Board {
        cells: [1, 1, 0, 1, 2, 0, 2, 0, 2],
        mover: 0,
    };
    let mut clock = Clock::start(&MoveBudget::nodes(500));
    let chosen = Mcts::new(5).choose_move(&game, &state, 0, &mut clock);
    let next = game.next_state(&state, &[chosen.expect("a move"), Turn::Noop]);
    assert_eq!(game.goals(&next), vec![100, 0]);
}

// ---------------------------------------------------------------------------------------------
// Faulty games and engines.

#[test]
fn players_stop_cleanly_when_a_role_has_no_legal_move() {
    let game = Stuck { roles: two_roles() };
    for mut player in all_players::<Stuck>(1) {
        let mut clock = Clock::start(&MoveBudget::nodes(100));
        assert_eq!(player.choose_move(&game, &(), 1, &mut clock), None);
        let mut clock = Clock::start(&MoveBudget::nodes(100));
        let chosen = player.choose_move(&game, &(), 0, &mut clock);
        assert!(
            matches!(chosen, Some(1 | 2)),
            "{}: {chosen:?}",
            player.name()
        );
    }
    let mut players = all_players::<Stuck>(1);
    let result = play_match(&game, &mut players[..2], &MatchSettings::default());
    assert_eq!(result.end, MatchEnd::NoLegalMove(1));
}

#[test]
fn players_stop_cleanly_when_the_engine_gives_up() {
    // A match of tic-tac-toe needs more than 40 calls to the engine (at least 5 plies of several
    // calls each), so the first budgets always fail; the last ones may let the match finish.
    for calls in [0, 1, 5, 30, 500, 5_000] {
        for seed in 0..2 {
            let game = GivesUp::after(calls);
            let mut players = all_players::<GivesUp>(seed);
            for pair in players.chunks_mut(2) {
                let settings = MatchSettings {
                    move_budget: MoveBudget::nodes(200),
                    ..MatchSettings::default()
                };
                let result = play_match(&game, pair, &settings);
                match result.end {
                    MatchEnd::Terminal if calls >= 500 => assert!(result.goals.is_some()),
                    MatchEnd::Failure(message) => {
                        assert_eq!(message, "out of calls");
                        assert_eq!(result.goals, None);
                    }
                    end => panic!("after {calls} calls: {end:?}"),
                }
                // The next pair gets a fresh engine.
                game.calls_left.set(calls);
            }
        }
    }
}

#[test]
fn a_match_with_the_wrong_number_of_players_is_refused() {
    let game = TicTacToe::new();
    let mut players = all_players::<TicTacToe>(1);
    let result = play_match(&game, &mut players[..1], &MatchSettings::default());
    assert!(matches!(result.end, MatchEnd::Failure(_)));
}

#[test]
fn a_match_stops_at_its_ply_limit() {
    let game = ConnectFour::new();
    let mut players: Vec<Box<dyn Player<ConnectFour>>> =
        vec![Box::new(LegalPlayer), Box::new(RandomPlayer::new(1))];
    let settings = MatchSettings {
        max_plies: 3,
        ..MatchSettings::default()
    };
    let result = play_match(&game, &mut players, &settings);
    assert_eq!(result.end, MatchEnd::PlyLimit);
    assert_eq!(result.plies, 3);
}

#[test]
fn the_legal_player_takes_the_first_legal_move_and_the_random_player_any_of_them() {
    let game = TicTacToe::new();
    let start = game.initial_state();
    let choose = |player: &mut dyn Player<TicTacToe>, role| {
        player.choose_move(
            &game,
            &start,
            role,
            &mut Clock::start(&MoveBudget::nodes(1)),
        )
    };
    let mut legal = LegalPlayer;
    assert_eq!(Player::<TicTacToe>::name(&legal), "legal");
    assert_eq!(choose(&mut legal, 0), Some(Turn::Place(0)));
    // The idle role's only move needs no choice.
    assert_eq!(choose(&mut legal, 1), Some(Turn::Noop));
    let mut drawn = HashSet::new();
    for seed in 0..200 {
        let mut random = RandomPlayer::new(seed);
        assert_eq!(Player::<TicTacToe>::name(&random), "random");
        drawn.extend(choose(&mut random, 0));
    }
    // Each of the nine openings has a (8/9)^200 < 1e-10 chance of never being drawn.
    assert_eq!(drawn.len(), 9, "{drawn:?}");
}

#[test]
fn kept_tree_mcts_starts_each_decision_from_the_subtree_of_the_moves_played() {
    let game = ConnectFour::new();
    let iterations = 2_000;
    let decide = |player: &mut KeptTreeMcts<ConnectFour>, state: &Columns, role| {
        let mut clock = Clock::start(&MoveBudget::nodes(iterations));
        player.choose_move(&game, state, role, &mut clock)
    };
    let mut player = KeptTreeMcts::new(11);
    let start = game.initial_state();
    let first = decide(&mut player, &start, 0).expect("a move");
    assert_eq!(
        player.reused_visits(),
        0,
        "the first decision has nothing kept"
    );
    let (root, moves) = player.root_visits(0);
    assert_eq!(u64::from(root), iterations);
    let first_visits = moves
        .iter()
        .find(|(m, _)| *m == first)
        .expect("a root move")
        .1;

    // The second player replies: the first player's tree is now the subtree of its own move,
    // every visit of that move at the root.
    let after_first = game.next_state(&start, &[first, Turn::Noop]);
    assert_eq!(decide(&mut player, &after_first, 0), Some(Turn::Noop));
    assert_eq!(player.reused_visits(), first_visits);
    let (_, replies) = player.root_visits(1);
    let (reply, reply_visits) = replies
        .iter()
        .copied()
        .max_by_key(|(_, visits)| *visits)
        .expect("the replies were searched");
    assert!(reply_visits > 0);

    // Its next decision starts from the subtree of the reply, with that reply's visits, and
    // adds its own iterations to them.
    let after_reply = game.next_state(&after_first, &[Turn::Noop, reply]);
    decide(&mut player, &after_reply, 0).expect("a move");
    assert_eq!(player.reused_visits(), reply_visits);
    assert_eq!(
        u64::from(player.root_visits(0).0),
        u64::from(reply_visits) + iterations
    );

    // A position the kept tree does not hold (the start, behind it) starts afresh.
    decide(&mut player, &start, 0).expect("a move");
    assert_eq!(player.reused_visits(), 0);
}

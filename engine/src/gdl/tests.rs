//! Unit tests of the program builder and the interpreter. Programs are written in KIF and read by
//! a tiny test-only reader (the real front end is the analysis layer's parser and lowering).

use super::*;
use crate::Game;
use crate::playout::random_playouts;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

fn read(text: &str) -> Vec<Sexp> {
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut token = String::new();
    let flush = |token: &mut String, stack: &mut Vec<Vec<Sexp>>| {
        if !token.is_empty() {
            stack
                .last_mut()
                .unwrap()
                .push(Sexp::Atom(std::mem::take(token)));
        }
    };
    for line in text.lines() {
        let line = line.split(';').next().unwrap();
        for c in line.chars() {
            match c {
                '(' => {
                    flush(&mut token, &mut stack);
                    stack.push(Vec::new());
                }
                ')' => {
                    flush(&mut token, &mut stack);
                    let list = stack.pop().unwrap();
                    stack.last_mut().unwrap().push(Sexp::List(list));
                }
                c if c.is_whitespace() => flush(&mut token, &mut stack),
                c => token.push(c),
            }
        }
        flush(&mut token, &mut stack);
    }
    stack.pop().unwrap()
}

fn term(b: &mut ProgramBuilder, s: &Sexp) -> Term {
    match s {
        Sexp::Atom(a) if a.starts_with('?') => Term::Var(b.symbol(a)),
        Sexp::Atom(a) => Term::Const(b.symbol(a)),
        Sexp::List(items) => {
            let Sexp::Atom(name) = &items[0] else {
                panic!("function name")
            };
            let f = b.symbol(name);
            Term::Func(f, items[1..].iter().map(|i| term(b, i)).collect())
        }
    }
}

fn atom(b: &mut ProgramBuilder, s: &Sexp) -> Atom {
    match term(b, s) {
        Term::Const(relation) => Atom {
            relation,
            args: Vec::new(),
        },
        Term::Func(relation, args) => Atom { relation, args },
        Term::Var(_) => panic!("a variable is not a sentence"),
    }
}

fn literal(b: &mut ProgramBuilder, s: &Sexp) -> Literal {
    if let Sexp::List(items) = s
        && let Sexp::Atom(head) = &items[0]
    {
        match head.as_str() {
            "not" => return Literal::Not(Box::new(literal(b, &items[1]))),
            "or" => return Literal::Or(items[1..].iter().map(|i| literal(b, i)).collect()),
            "distinct" => return Literal::Distinct(term(b, &items[1]), term(b, &items[2])),
            _ => {}
        }
    }
    Literal::Atom(atom(b, s))
}

pub(super) fn program(text: &str) -> Result<Program, GdlError> {
    let mut b = ProgramBuilder::new();
    for form in read(text) {
        let rule = match &form {
            Sexp::List(items) if matches!(&items[0], Sexp::Atom(a) if a == "<=") => {
                let head = atom(&mut b, &items[1]);
                let body = items[2..].iter().map(|i| literal(&mut b, i)).collect();
                Rule { head, body }
            }
            _ => Rule {
                head: atom(&mut b, &form),
                body: Vec::new(),
            },
        };
        b.add_rule(rule);
    }
    b.build()
}

fn interpreter(text: &str) -> Interpreter {
    Interpreter::new(program(text).expect("builds"), Budget::default()).expect("runs")
}

/// The facts of a one-role game's state after no move, as text: a handy probe of derived views.
fn rendered(game: &Interpreter, terms: &[Ground]) -> Vec<String> {
    terms.iter().map(|t| game.render(t)).collect()
}

const TIC_TAC_TOE: &str = include_str!("../../../corpus/gdl/ticTacToe.kif");

fn ttt_move(game: &Interpreter, text: &str) -> Ground {
    let state = game.initial_state();
    (0..game.roles().len())
        .flat_map(|r| game.legal_moves(&state, r))
        .find(|m| game.render(m) == text)
        .expect("a legal move of the initial state")
}

#[test]
fn tic_tac_toe_initial_state_and_moves() {
    let game = interpreter(TIC_TAC_TOE);
    assert_eq!(game.roles(), ["xplayer", "oplayer"]);
    let state = game.initial_state();
    let mut expected: Vec<String> = (1..=3)
        .flat_map(|m| (1..=3).map(move |n| format!("(cell {m} {n} b)")))
        .collect();
    expected.push("(control xplayer)".to_owned());
    let mut actual = rendered(&game, &state);
    actual.sort();
    expected.sort();
    assert_eq!(actual, expected);
    assert!(!game.is_terminal(&state));
    assert_eq!(game.legal_moves(&state, 0).len(), 9);
    assert_eq!(rendered(&game, &game.legal_moves(&state, 1)), ["noop"]);
    let mark = ttt_move(&game, "(mark 2 2)");
    let noop = ttt_move(&game, "noop");
    let next = game.next_state(&state, &[mark, noop]);
    let shown = rendered(&game, &next);
    assert!(shown.contains(&"(cell 2 2 x)".to_owned()));
    assert!(shown.contains(&"(control oplayer)".to_owned()));
    assert!(!shown.contains(&"(cell 2 2 b)".to_owned()));
    assert_eq!(next.len(), 10);
}

#[test]
fn random_tic_tac_toe_playouts_end_with_consistent_goals() {
    let game = interpreter(TIC_TAC_TOE);
    let mut rng = SmallRng::seed_from_u64(7);
    let stats = random_playouts(&game, &mut rng, 50, 20);
    assert_eq!(stats.completed, 50);
    // Zero-sum: one wins and the other loses, or both draw.
    for (value, count) in &stats.outcomes[0] {
        let partner = 100 - value;
        assert_eq!(stats.outcomes[1].get(&partner), Some(count));
    }
    assert!(stats.average_plies() >= 5.0 && stats.average_plies() <= 9.0);
}

#[test]
fn recursion_reaches_the_transitive_closure() {
    let mut text = String::from(
        "(role r) (<= (reach ?x ?y) (edge ?x ?y)) (<= (reach ?x ?z) (edge ?x ?y) (reach ?y ?z))
         (<= (legal r (go ?y)) (true (at ?x)) (reach ?x ?y)) (init (at n0))",
    );
    for i in 0..30 {
        text.push_str(&format!(" (edge n{i} n{})", i + 1));
    }
    let game = interpreter(&text);
    let state = game.initial_state();
    // From n0 every one of n1..n30 is reachable.
    assert_eq!(game.legal_moves(&state, 0).len(), 30);
}

#[test]
fn or_not_and_distinct_follow_their_logic() {
    let game = interpreter(
        "(role r) (init (a 1)) (init (b 2)) (v 1) (v 2) (v 3)
         (<= (legal r (either ?x)) (v ?x) (or (true (a ?x)) (true (b ?x))))
         (<= (legal r (neither ?x)) (v ?x) (not (or (true (a ?x)) (true (b ?x)))))
         (<= (legal r (same ?x ?y)) (v ?x) (v ?y) (not (distinct ?x ?y)))
         (<= (legal r (lower ?x)) (v ?x) (distinct ?x 3) (not (true (a ?x))))",
    );
    let state = game.initial_state();
    let moves = rendered(&game, &game.legal_moves(&state, 0));
    let mut moves = moves;
    moves.sort();
    assert_eq!(
        moves,
        [
            "(either 1)",
            "(either 2)",
            "(lower 2)",
            "(neither 3)",
            "(same 1 1)",
            "(same 2 2)",
            "(same 3 3)"
        ]
    );
}

#[test]
fn negation_reads_a_complete_lower_stratum() {
    // `blocked` is recursive; `free` negates it and must see its fixpoint, not a partial one.
    let game = interpreter(
        "(role r) (cell 1) (cell 2) (cell 3) (cell 4) (wall 1)
         (adj 1 2) (adj 2 3) (adj 3 4)
         (<= (blocked ?x) (wall ?x))
         (<= (blocked ?y) (blocked ?x) (adj ?x ?y) (distinct ?y 4))
         (<= (legal r (free ?x)) (cell ?x) (not (blocked ?x)))",
    );
    let state = game.initial_state();
    assert_eq!(rendered(&game, &game.legal_moves(&state, 0)), ["(free 4)"]);
}

#[test]
fn unstratified_and_unsafe_rules_are_refused() {
    let error = program("(role r) (<= p (not q)) (<= q (not p))").unwrap_err();
    assert!(
        matches!(error, GdlError::Build(ref m) if m.contains("not stratified")),
        "{error}"
    );
    let error = program("(role r) (<= (p ?x) (not (q ?x)))").unwrap_err();
    assert!(matches!(error, GdlError::Build(ref m) if m.contains("unsafe") && m.contains("?x")));
    let error = program("(role r) (<= (true a) (b))").unwrap_err();
    assert!(matches!(error, GdlError::Build(_)));
}

#[test]
fn runaway_recursion_stops_with_a_budget_error() {
    // The relations are read by `legal`: the goal-directed evaluation leaves a relation no
    // question reads underived.
    for evaluation in [Evaluation::GoalDirected, Evaluation::BottomUp] {
        // The naturals via function terms never end: the term depth limit stops them.
        let deep =
            program("(role r) (nat 0) (<= (nat (s ?x)) (nat ?x)) (<= (legal r ?x) (nat ?x))")
                .unwrap();
        let error = Interpreter::with_evaluation(deep, Budget::default(), evaluation).unwrap_err();
        assert!(
            matches!(error, GdlError::Budget(ref m) if m.contains("levels deep")),
            "{error}"
        );
        // Wide growth: the fact budget stops it.
        let wide =
            program("(role r) (n 0) (<= (n (s ?x ?y)) (n ?x) (n ?y)) (<= (legal r ?x) (n ?x))")
                .unwrap();
        let budget = Budget {
            max_facts: 10_000,
            ..Budget::default()
        };
        let error = Interpreter::with_evaluation(wide, budget, evaluation).unwrap_err();
        assert!(matches!(error, GdlError::Budget(_)), "{error}");
    }
}

#[test]
fn a_budget_error_during_play_ends_the_playout_with_its_message() {
    let mut text = String::from(
        "(role r) (init (at n0)) (<= (reach ?x ?y) (true (edge ?x ?y)))
         (<= (reach ?x ?z) (true (edge ?x ?y)) (reach ?y ?z))
         (<= (legal r (go ?y)) (true (at ?x)) (reach ?x ?y))
         (<= (next (at ?y)) (does r (go ?y)))",
    );
    for i in 0..40 {
        text.push_str(&format!(" (init (edge n{i} n{}))", i + 1));
    }
    let budget = Budget {
        max_steps: 500,
        ..Budget::default()
    };
    let game = Interpreter::new(program(&text).unwrap(), budget).unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    let stats = random_playouts(&game, &mut rng, 3, 10);
    assert_eq!(stats.failures, 1);
    assert!(stats.first_failure.unwrap().contains("join steps"));
    assert!(matches!(game.error(), Some(GdlError::Budget(_))));
}

#[test]
fn roles_keep_their_written_order_and_random_is_the_chance_role() {
    let game = interpreter("(role white) (role random) (role black)");
    assert_eq!(game.roles(), ["white", "random", "black"]);
    assert!(game.is_random(1) && !game.is_random(0));
}

#[test]
fn negation_between_instances_of_one_relation_is_accepted() {
    // Stratified only once head constants count: goal 100 reads goal 0, never the reverse.
    let game = interpreter(
        "(role robot) (init (score 3))
         (<= (goal robot 0) (true (score 3)))
         (<= (goal robot 100) (not (goal robot 0)))",
    );
    assert_eq!(game.goals(&game.initial_state()), [0]);
    assert_eq!(game.goals(&Vec::new()), [100]);
}

/// Facts of one relation make one stratum, not one each: a game with thousands of `init`
/// facts is prepared in time linear in them (a million once took tens of gigabytes), and the
/// interpreter still plays it with the facts in its initial state.
#[test]
fn the_facts_of_a_relation_make_one_stratum() {
    let mut text = String::from(TIC_TAC_TOE);
    for i in 0..5_000 {
        text.push_str(&format!("(init (extra {i}))\n(unused {i})\n"));
    }
    let program = program(&text).unwrap();
    assert!(
        program.strata.len() < 100,
        "{} strata for {} rules",
        program.strata.len(),
        program.rules.len()
    );
    let game = interpreter(&text);
    let initial = game.initial_state();
    assert_eq!(initial.len(), 9 + 1 + 5_000);
    assert!(!game.legal_moves(&initial, 0).is_empty());
}

/// A small GDL-II game: chance hides one of three coins, the guesser is told the coin unless
/// it is `edge`, then guesses. Chance's goal is fixed; the guesser wins by guessing right.
const HIDDEN_COIN: &str = "
    (role guesser) (role random)
    (init (phase hide))
    (coin heads) (coin tails) (coin edge)
    (<= (legal random (hide ?c)) (true (phase hide)) (coin ?c))
    (<= (legal random noop) (true (phase guess)))
    (<= (legal guesser wait) (true (phase hide)))
    (<= (legal guesser (guess ?c)) (true (phase guess)) (coin ?c))
    (<= (next (hidden ?c)) (does random (hide ?c)))
    (<= (next (hidden ?c)) (true (hidden ?c)))
    (<= (next (phase guess)) (true (phase hide)))
    (<= (next (phase over)) (true (phase guess)))
    (<= (next right) (does guesser (guess ?c)) (true (hidden ?c)))
    (<= (sees guesser (hint ?c)) (does random (hide ?c)) (distinct ?c edge))
    (<= (sees random (guessed ?c)) (does guesser (guess ?c)))
    (<= terminal (true (phase over)))
    (<= (goal guesser 100) (true right))
    (<= (goal guesser 0) (not (true right)))
    (<= (goal random 50))";

/// The game's two engines: grounded and interpreted.
fn hidden_coin_engines() -> [Reasoner; 2] {
    let program = || program(HIDDEN_COIN).expect("builds");
    let grounded = Reasoner::new(program(), Budget::default()).expect("runs");
    assert_eq!(grounded.engine_name(), "grounded");
    let interpreted = Reasoner::interpreted(program(), Budget::default()).expect("runs");
    [grounded, interpreted]
}

/// The joint move of the first ply with chance hiding `coin`.
fn hiding(game: &Reasoner, coin: &str) -> Vec<ReasonerMove> {
    let start = game.initial_state();
    let hide = format!("(hide {coin})");
    let chance_move = game
        .legal_moves(&start, 1)
        .into_iter()
        .find(|m| game.render_move(m) == hide)
        .expect("chance may hide every coin");
    vec![game.legal_moves(&start, 0)[0].clone(), chance_move]
}

/// What each role sees comes through the `Game` interface, the same on both engines: the
/// guesser the hint (none for `edge`), chance nothing until the guess, then the guess.
#[test]
fn gdl_ii_percepts_come_through_the_game_interface() {
    for game in hidden_coin_engines() {
        let engine = game.engine_name();
        assert!(
            game.is_chance_role(1) && !game.is_chance_role(0),
            "{engine}"
        );
        let start = game.initial_state();
        for (coin, hint) in [("heads", vec!["(hint heads)"]), ("edge", vec![])] {
            let joint = hiding(&game, coin);
            assert_eq!(game.percepts(&start, &joint, 0), hint, "{engine}: {coin}");
            assert!(game.percepts(&start, &joint, 1).is_empty(), "{engine}");
            let after = game.next_state(&start, &joint);
            let guess = game.legal_moves(&after, 0);
            assert_eq!(guess.len(), 3, "{engine}");
            let joint = vec![guess[0].clone(), game.legal_moves(&after, 1)[0].clone()];
            let guessed = game.render_move(&guess[0]).replace("(guess ", "(guessed ");
            assert_eq!(game.percepts(&after, &joint, 1), [guessed], "{engine}");
            assert!(game.percepts(&after, &joint, 0).is_empty(), "{engine}");
        }
        assert_eq!(game.failure(), None, "{engine}");
    }
}

/// A player that must never be asked: chance's moves are the match's to draw.
struct NeverAsked;

impl<G: Game> crate::players::Player<G> for NeverAsked {
    fn name(&self) -> &'static str {
        "never asked"
    }

    fn choose_move(
        &mut self,
        _game: &G,
        _state: &G::State,
        role: crate::RoleIndex,
        _clock: &mut crate::players::Clock,
    ) -> Option<G::Move> {
        panic!("a player was asked to choose for chance (role {role})");
    }
}

/// In a match, chance moves uniformly at random and no player chooses for it: a guesser that
/// always guesses the first coin wins about a third of the matches (two thirds would mean the
/// draw is not uniform), on both engines; the same seed draws the same coins.
#[test]
fn gdl_ii_chance_moves_uniformly_and_no_player_chooses_for_it() {
    use crate::players::{LegalPlayer, MatchEnd, MatchSettings, Player, play_match};
    for game in hidden_coin_engines() {
        let engine = game.engine_name();
        let matches = 600;
        let wins_from = |seeds: std::ops::Range<u64>| {
            seeds
                .filter(|&seed| {
                    let mut players: Vec<Box<dyn Player<Reasoner>>> =
                        vec![Box::new(LegalPlayer), Box::new(NeverAsked)];
                    let settings = MatchSettings {
                        chance_seed: seed,
                        ..MatchSettings::default()
                    };
                    let result = play_match(&game, &mut players, &settings);
                    assert_eq!(result.end, MatchEnd::Terminal, "{engine}");
                    assert_eq!(result.moves[1], 0, "{engine}: chance's player was asked");
                    result.goals == Some(vec![100, 50])
                })
                .count()
        };
        let wins = wins_from(0..matches);
        let share = wins as f64 / matches as f64;
        // One third, within four standard deviations (0.019 at 600 matches).
        assert!((share - 1.0 / 3.0).abs() < 0.077, "{engine}: {share}");
        assert_eq!(wins_from(0..matches), wins, "{engine}: repeatable");
    }
}

/// A walker on a small graph flees a fire that spreads along the edges a burner has not walled
/// off. `burning` is recursive and read under `not`; `reach` is recursive and always read with
/// its first argument known, so the goal-directed evaluation derives it only from the walker's
/// cell (a demand that is itself recursive); `safe` is read with its first argument known.
const FIRE_ESCAPE: &str = "
    (role walker) (role burner)
    (cell a) (cell b) (cell c) (cell d) (cell e)
    (edge a b) (edge b c) (edge c d) (edge d a) (edge b d) (edge c a) (edge a c) (edge e b)
    (edge d e)
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6)
    (init (at a)) (init (fire e)) (init (dry b)) (init (step 0))
    (<= (open ?x ?y) (edge ?x ?y) (not (true (wall ?x ?y))))
    (<= (burning ?x) (true (fire ?x)))
    (<= (burning ?y) (burning ?x) (open ?x ?y) (true (dry ?y)))
    (<= (reach ?x ?y) (open ?x ?y))
    (<= (reach ?x ?z) (open ?x ?y) (reach ?y ?z))
    (<= (safe ?x ?y) (edge ?x ?y) (not (burning ?y)))
    (<= (legal walker (go ?y)) (true (at ?x)) (safe ?x ?y))
    (<= (legal walker (jump ?z)) (true (at ?x)) (reach ?x ?z) (not (burning ?z)))
    (<= (legal walker stay) (true (at ?x)))
    (<= (legal burner (wall ?x ?y)) (open ?x ?y) (true (step ?n)))
    (<= (legal burner (parch ?x)) (cell ?x) (not (true (dry ?x))) (true (step ?n)))
    (<= (legal burner noop) (true (step ?n)))
    (<= (next (at ?y)) (does walker (go ?y)))
    (<= (next (at ?z)) (does walker (jump ?z)))
    (<= (next (at ?x)) (does walker stay) (true (at ?x)))
    (<= (next (wall ?x ?y)) (does burner (wall ?x ?y)))
    (<= (next (wall ?x ?y)) (true (wall ?x ?y)))
    (<= (next (dry ?x)) (does burner (parch ?x)))
    (<= (next (dry ?x)) (true (dry ?x)))
    (<= (next (fire ?x)) (true (fire ?x)))
    (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
    (<= terminal (true (step 6)))
    (<= terminal (true (at ?x)) (burning ?x))
    (<= (goal walker 100) (true (at ?x)) (not (burning ?x)))
    (<= (goal walker 0) (true (at ?x)) (burning ?x))
    (<= (goal burner 100) (true (at ?x)) (burning ?x))
    (<= (goal burner 0) (true (at ?x)) (not (burning ?x)))";

/// Plays `trajectories` seeded random trajectories through the goal-directed and the
/// reference evaluation, which must agree on every answer at every state; the number of
/// states compared.
fn goal_directed_agrees_with_bottom_up(text: &str, trajectories: u64) -> usize {
    let fast = Interpreter::new(program(text).unwrap(), Budget::default()).unwrap();
    let reference = Interpreter::bottom_up(program(text).unwrap(), Budget::default()).unwrap();
    let mut states = 0;
    for seed in 0..trajectories {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut state = reference.initial_state();
        assert_eq!(fast.initial_state(), state);
        for ply in 0..100 {
            let terminal = reference.try_is_terminal(&state).unwrap();
            assert_eq!(fast.try_is_terminal(&state), Ok(terminal), "ply {ply}");
            let goals = reference.try_goal_values(&state).unwrap();
            assert_eq!(fast.try_goal_values(&state), Ok(goals), "ply {ply}");
            let mut joint = Vec::new();
            for role in 0..reference.roles().len() {
                let moves = reference.try_legal_moves(&state, role).unwrap();
                assert_eq!(fast.try_legal_moves(&state, role).as_ref(), Ok(&moves));
                if !moves.is_empty() {
                    joint.push(moves[rng.random_range(0..moves.len())].clone());
                }
            }
            states += 1;
            if terminal || joint.len() < reference.roles().len() {
                break;
            }
            let next = reference.try_next_state(&state, &joint).unwrap();
            assert_eq!(fast.try_next_state(&state, &joint).as_ref(), Ok(&next));
            state = next;
        }
    }
    assert_eq!(fast.error(), None);
    states
}

/// The goal-directed evaluation (rules rewritten for demand, indexed joins) answers exactly as
/// the reference one, on a recursive game where the demand rewriting applies and on
/// tic-tac-toe.
#[test]
fn goal_directed_evaluation_agrees_with_the_bottom_up_one() {
    let fire = Interpreter::new(program(FIRE_ESCAPE).unwrap(), Budget::default()).unwrap();
    let rewritten = fire.evaluated_program();
    let demanded = |name: &str| {
        rewritten
            .rules
            .iter()
            .any(|rule| rewritten.symbols.name(rule.head.relation) == name)
    };
    assert!(demanded("demand for reach/2") && demanded("demand for safe/2"));
    let fire_states = goal_directed_agrees_with_bottom_up(FIRE_ESCAPE, 60);
    assert!(fire_states > 200);
    assert!(goal_directed_agrees_with_bottom_up(TIC_TAC_TOE, 30) > 150);
}

/// ruleDepthExponential of the corpus cut to `levels` levels: `prereqK` has `K` bit arguments
/// and holds for every bit pattern when `prereqK+1` holds for both extensions of it, or when
/// the step is `K`. Bottom-up, each level derives its 2^K facts once; goal-directed, the demand
/// for `prereqK+1` doubles at each level and all of it is one recursive stratum, so that the
/// demand costs more than it saves.
pub(super) fn rule_depth_exponential(levels: usize) -> String {
    let bits = |k: usize| (0..k).rev().map(|b| format!(" ?b{b}")).collect::<String>();
    let bit_literals = |k: usize| {
        (0..k)
            .rev()
            .map(|b| format!(" (bit ?b{b})"))
            .collect::<String>()
    };
    let mut text = String::from(
        "(role robot) (init (step 1)) (bit 0) (bit 1)
         (legal robot giveUp)
         (<= (legal robot continue) (prereq1 0))
         (<= (next gameOver) (does robot giveUp))
         (<= (next (step ?m)) (true (step ?n)) (does robot continue) (succ ?n ?m))
         (<= terminal (true gameOver))
         (<= (goal robot 100) (true gameOver))\n",
    );
    for k in 1..=levels {
        text += &format!("(succ {k} {})\n", k + 1);
        text += &format!(
            "(<= (prereq{k}{}){} (true (step {k})))\n",
            bits(k),
            bit_literals(k)
        );
        if k < levels {
            text += &format!(
                "(<= (prereq{k}{}){} (not (true (step {k}))) (prereq{}{} 0) (prereq{}{} 1))\n",
                bits(k),
                bit_literals(k),
                k + 1,
                bits(k),
                k + 1,
                bits(k)
            );
        }
    }
    text
}

/// A question that exhausts its budget goal-directed is asked again of the bottom-up
/// evaluation, which answers it. At the last step of [`rule_depth_exponential`] the demand costs
/// about twice the bottom-up evaluation's steps (measured: 16,384 against 8,192 join steps for
/// the legal moves at six levels); with the smallest budget (a power of two) in which the
/// bottom-up evaluation answers, the goal-directed interpreter gives the same moves, and only
/// through its reference.
#[test]
fn a_question_too_costly_goal_directed_is_answered_bottom_up() {
    let levels = 6;
    let text = rule_depth_exponential(levels);
    let budget = |max_steps| Budget {
        max_steps,
        ..Budget::default()
    };
    // The state at the last step, reached by `continue`.
    let unbounded = Interpreter::bottom_up(program(&text).unwrap(), Budget::default()).unwrap();
    let mut state = unbounded.initial_state();
    for _ in 1..levels {
        let moves = unbounded.try_legal_moves(&state, 0).unwrap();
        let continues = moves
            .into_iter()
            .find(|action| unbounded.render(action) == "continue")
            .expect("`continue` is legal before the last step");
        state = unbounded.try_next_state(&state, &[continues]).unwrap();
    }
    let answers_bottom_up = |max_steps| {
        let reference = Interpreter::bottom_up(program(&text).unwrap(), budget(max_steps)).ok()?;
        reference.try_legal_moves(&state, 0).ok()
    };
    let mut max_steps = 64;
    let moves = loop {
        if let Some(moves) = answers_bottom_up(max_steps) {
            break moves;
        }
        max_steps *= 2;
        assert!(
            max_steps < 1 << 24,
            "the bottom-up evaluation never answers"
        );
    };
    assert_eq!(moves.len(), 2, "`continue` and `giveUp` at the last step");

    let goal_directed = Interpreter::new(program(&text).unwrap(), budget(max_steps)).unwrap();
    assert!(!goal_directed.asked_the_reference());
    assert_eq!(goal_directed.try_legal_moves(&state, 0), Ok(moves));
    assert!(
        goal_directed.asked_the_reference(),
        "with {max_steps} steps the goal-directed evaluation answered alone: the game no longer tests the fallback"
    );
    // The reference failing too gives the goal-directed evaluation's error, not a wrong answer.
    let starved = Interpreter::new(program(&text).unwrap(), budget(max_steps / 4)).unwrap();
    assert!(matches!(
        starved.try_legal_moves(&state, 0),
        Err(GdlError::Budget(_))
    ));
    assert!(starved.asked_the_reference());
}

/// For each corpus file listed in `GDL_INTERPRETER_PROFILE` (paths separated by `:`), the
/// relations each evaluation derives for the initial state's questions and its first next
/// state, largest first, with the CPU time and the first error: where a query spends its
/// facts. A measuring aid, run in release with `--ignored --nocapture`.
#[test]
#[ignore = "a measuring aid: reads the corpus named in GDL_INTERPRETER_PROFILE"]
fn profile_interpreter_on_listed_games() {
    let Ok(list) = std::env::var("GDL_INTERPRETER_PROFILE") else {
        return;
    };
    let budget = Budget {
        max_steps: 2_000_000_000,
        max_facts: 20_000_000,
        deadline: None,
    };
    for path in list.split(':').filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(path).expect("readable");
        let evaluations = match std::env::var("GDL_PROFILE_BOTH") {
            Ok(_) => &[Evaluation::GoalDirected, Evaluation::BottomUp][..],
            Err(_) => &[Evaluation::GoalDirected][..],
        };
        for &evaluation in evaluations {
            let started = crate::cpu_time::CpuInstant::now();
            let game = match Interpreter::with_evaluation(
                program(&text).expect("builds"),
                budget.clone(),
                evaluation,
            ) {
                Ok(game) => game,
                Err(error) => {
                    println!("{path} {evaluation:?}: {error}");
                    continue;
                }
            };
            let state = game.initial_state();
            let joint: Vec<Ground> = (0..game.roles().len())
                .filter_map(|role| game.legal_moves(&state, role).first().cloned())
                .collect();
            for (question, moves) in [("state", &[][..]), ("next", &joint[..])] {
                let sizes = game.relation_sizes(&state, moves);
                let shown = match &sizes {
                    Ok(sizes) => sizes[..sizes.len().min(16)]
                        .iter()
                        .map(|(name, size)| format!("{name} {size}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    Err(error) => error.to_string(),
                };
                println!(
                    "{path} {evaluation:?} {question} ({:.2} CPU s): {shown}",
                    started.elapsed().as_secs_f64()
                );
            }
        }
    }
}

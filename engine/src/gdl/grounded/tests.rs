//! Small games on the grounded reasoner, each checked against the interpreter (the oracle) and
//! the fallback for a game that cannot be grounded. The corpus-wide differential test lives in
//! `tests/gdl_reasoner.rs`.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::super::tests::program;
use super::super::{Budget, GdlError, Reasoner, ReasonerMove, ReasonerState};
use crate::Game;

fn both(text: &str) -> (Reasoner, Reasoner) {
    let program = program(text).expect("builds");
    let oracle = Reasoner::interpreted(program.clone(), Budget::default()).expect("runs");
    let fast = Reasoner::new(program, Budget::default()).expect("runs");
    assert_eq!(
        fast.engine_name(),
        "grounded",
        "{:?}",
        fast.fallback_reason()
    );
    (oracle, fast)
}

fn moves(game: &Reasoner, state: &ReasonerState, role: usize) -> Vec<String> {
    let mut shown: Vec<String> = game
        .legal_moves(state, role)
        .iter()
        .map(|m| game.render_move(m))
        .collect();
    shown.sort();
    shown
}

fn find(game: &Reasoner, state: &ReasonerState, role: usize, text: &str) -> ReasonerMove {
    game.legal_moves(state, role)
        .into_iter()
        .find(|m| game.render_move(m) == text)
        .expect("a legal move")
}

/// Random trajectories on both engines, comparing everything at every step.
fn agree(text: &str, trajectories: u64) {
    let (oracle, fast) = both(text);
    agree_on_trajectories(&oracle, &fast, trajectories);
}

fn agree_on_trajectories(oracle: &Reasoner, fast: &Reasoner, trajectories: u64) {
    for seed in 0..trajectories {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut expected, mut actual) = (oracle.initial_state(), fast.initial_state());
        for _ in 0..30 {
            assert_eq!(fast.render_state(&actual), oracle.render_state(&expected));
            assert_eq!(fast.is_terminal(&actual), oracle.is_terminal(&expected));
            assert_eq!(
                fast.try_goal_values(&actual),
                oracle.try_goal_values(&expected)
            );
            let legal: Vec<Vec<String>> = (0..oracle.roles().len())
                .map(|role| moves(oracle, &expected, role))
                .collect();
            for (role, expected_moves) in legal.iter().enumerate() {
                assert_eq!(&moves(fast, &actual, role), expected_moves);
                assert_eq!(
                    fast.playout_legal_moves(&actual, role),
                    fast.legal_moves(&actual, role)
                );
            }
            if oracle.is_terminal(&expected) || legal.iter().any(Vec::is_empty) {
                break;
            }
            let chosen: Vec<&String> = legal
                .iter()
                .map(|m| &m[rng.random_range(0..m.len())])
                .collect();
            let joint = |game: &Reasoner, state: &ReasonerState| -> Vec<ReasonerMove> {
                chosen
                    .iter()
                    .enumerate()
                    .map(|(role, text)| find(game, state, role, text))
                    .collect()
            };
            let (expected_joint, actual_joint) = (joint(oracle, &expected), joint(fast, &actual));
            for role in 0..oracle.roles().len() {
                assert_eq!(
                    fast.try_percepts(&actual, &actual_joint, role),
                    oracle.try_percepts(&expected, &expected_joint, role)
                );
            }
            expected = oracle.next_state(&expected, &expected_joint);
            actual = fast.next_state(&actual, &actual_joint);
        }
    }
    assert_eq!(fast.failure(), None);
}

/// Grounds `program` under `limits` with its factored rules rewritten by `rewrite` (the
/// identity: as written), alone (no retry), and the join steps it took; on a copy, whose
/// symbols name the rewriting's relations in errors.
fn ground_rewritten(
    program: &super::super::Program,
    limits: &super::GroundingLimits,
    rewrite: impl FnOnce(
        Vec<super::super::program::CompiledRule>,
        &mut super::super::Symbols,
    ) -> Vec<super::super::program::CompiledRule>,
) -> Result<u64, GdlError> {
    let mut probe = program.clone();
    let rules = super::factor::factor(&probe.rules, &mut probe.symbols);
    let rules = rewrite(rules, &mut probe.symbols);
    super::domain::ground(&probe, &rules, &Default::default(), limits).map(|g| g.steps)
}

/// `program` grounded under `limits` (with every retry) agrees with the interpreter.
fn agrees_when_grounded_under(
    program: super::super::Program,
    limits: &super::GroundingLimits,
    trajectories: u64,
) {
    let oracle = Reasoner::interpreted(program.clone(), Budget::default()).expect("runs");
    let fast = Reasoner::with_limits(program, Budget::default(), limits).expect("runs");
    assert_eq!(
        fast.engine_name(),
        "grounded",
        "{:?}",
        fast.fallback_reason()
    );
    agree_on_trajectories(&oracle, &fast, trajectories);
}

/// Static recursion (`reach`), a recursive view over the state (`seen`), negation of it in
/// goals, and a zero-argument function term as a fluent.
#[test]
fn recursion_and_negation_agree_with_the_interpreter() {
    agree(
        "(role robot)
         (init (at a)) (init (clock))
         (edge a b) (edge b c) (edge c a) (edge c d) (edge b d)
         (<= (reach ?x ?y) (edge ?x ?y))
         (<= (reach ?x ?z) (edge ?x ?y) (reach ?y ?z))
         (<= (legal robot (go ?y)) (true (at ?x)) (edge ?x ?y) (reach ?y d))
         (<= (next (at ?y)) (does robot (go ?y)))
         (<= (next (visited ?x)) (true (at ?x)))
         (<= (next (visited ?x)) (true (visited ?x)))
         (<= (next (clock)) (true (clock)))
         (<= (seen ?x) (true (visited ?x)))
         (<= (seen ?y) (seen ?x) (edge ?x ?y) (true (visited ?y)))
         (<= (linked ?x) (seen ?x) (seen ?y) (edge ?y ?x))
         (<= terminal (true (at d)))
         (<= (goal robot 100) (true (at d)) (not (linked b)))
         (<= (goal robot 50) (true (at d)) (linked b))
         (<= (goal robot 0) (not (true (at d))))",
        20,
    );
}

/// GDL-II: the `random` role and what each role sees.
#[test]
fn chance_and_percepts_agree_with_the_interpreter() {
    agree(
        "(role random) (role guesser)
         (init (phase hide))
         (coin heads) (coin tails)
         (<= (legal random (hide ?c)) (true (phase hide)) (coin ?c))
         (<= (legal random noop) (true (phase guess)))
         (<= (legal guesser noop) (true (phase hide)))
         (<= (legal guesser (guess ?c)) (true (phase guess)) (coin ?c))
         (<= (next (hidden ?c)) (does random (hide ?c)))
         (<= (next (hidden ?c)) (true (hidden ?c)))
         (<= (next (phase guess)) (true (phase hide)))
         (<= (next (phase over)) (true (phase guess)))
         (<= (next (right)) (does guesser (guess ?c)) (true (hidden ?c)))
         (<= (sees guesser (hint ?c)) (does random (hide ?c)) (distinct ?c tails))
         (<= (sees random done) (does guesser (guess ?c)))
         (<= terminal (true (phase over)))
         (<= (goal guesser 100) (true (right)))
         (<= (goal guesser 0) (not (true (right))))
         (<= (goal random 0))",
        10,
    );
}

/// A counter built from function terms has no finite ground form: the reasoner falls back to
/// the interpreter and says why.
#[test]
fn an_unbounded_game_falls_back_to_the_interpreter() {
    let program = program(
        "(role counter)
         (init (count zero))
         (<= (legal counter tick) (true (count ?n)))
         (<= (next (count (s ?n))) (true (count ?n)))
         (<= terminal (true (count (s (s (s zero))))))
         (<= (goal counter 100) terminal)",
    )
    .expect("builds");
    let game = Reasoner::new(program, Budget::default()).expect("runs on the interpreter");
    assert_eq!(game.engine_name(), "interpreter");
    let reason = game.fallback_reason().expect("a reason");
    assert!(reason.contains("too large to ground"), "{reason}");
    let mut state = game.initial_state();
    for _ in 0..3 {
        let tick = game.legal_moves(&state, 0);
        state = game.next_state(&state, &tick);
    }
    assert!(game.is_terminal(&state));
    assert_eq!(game.goals(&state), [100]);
}

#[test]
fn a_runaway_join_is_refused_at_the_ground_rule_limit_before_its_matches_are_collected() {
    // `crowd` matches 729,000 times in the first round: more than the limit of 1,000 ground
    // rules, so grounding must stop at the 1,001st match instead of collecting them all first.
    // It is read with every argument free, so grounding on demand cannot narrow it either, and
    // its arguments are compared, so none is dropped as a mere member of a domain.
    let program = program(
        "(role robot) (init on) (legal robot wait) (<= (next on) (true on))
         (digit 0) (digit 1) (digit 2) (digit 3) (digit 4)
         (digit 5) (digit 6) (digit 7) (digit 8) (digit 9)
         (<= (crowd ?a ?b ?c ?d ?e ?f) (true on)
             (digit ?a) (digit ?b) (digit ?c) (digit ?d) (digit ?e) (digit ?f)
             (distinct ?a ?b) (distinct ?c ?d) (distinct ?e ?f))
         (<= terminal (crowd ?a ?b ?c ?d ?e ?f)) (goal robot 100)",
    )
    .expect("builds");
    let limits = super::GroundingLimits {
        max_ground_rules: 1_000,
        ..super::GroundingLimits::default()
    };
    let game = Reasoner::with_limits(program, Budget::default(), &limits).expect("runs");
    assert_eq!(game.engine_name(), "interpreter");
    let reason = game.fallback_reason().expect("a reason");
    assert!(
        reason.contains("a rule for `crowd` matches more than 1000 times"),
        "{reason}"
    );
}

/// A game whose goal counts lit cells along a chain of `cells` (the parity of lit cells up to
/// each cell, as reversi counts its pieces): the goal reads a chain of views as deep as the
/// board is long, each changing with a cell, and nothing else reads them. `init` lists the
/// cells lit at the start; one cell is offered to light per turn until turn `cells + 1`.
fn parity_chain_game(cells: usize, init: &[usize]) -> String {
    let mut text = String::from(
        "(role lighter)
         (init (turn 1))
         (<= (legal lighter (light ?n)) (true (turn ?n)))
         (<= (legal lighter (pass ?n)) (true (turn ?n)))
         (<= (next (on ?n)) (does lighter (light ?n)))
         (<= (next (on ?n)) (true (on ?n)))
         (<= (next (turn ?m)) (true (turn ?n)) (succ ?n ?m))
         (parity 0 even) (flip even odd) (flip odd even)
         (<= (parity ?m ?q) (succ ?n ?m) (parity ?n ?p) (true (on ?m)) (flip ?p ?q))
         (<= (parity ?m ?p) (succ ?n ?m) (parity ?n ?p) (not (true (on ?m))))\n",
    );
    for cell in 0..=cells {
        text.push_str(&format!("(succ {cell} {})\n", cell + 1));
    }
    for cell in init {
        text.push_str(&format!("(init (on {cell}))\n"));
    }
    text.push_str(&format!(
        "(<= terminal (true (turn {})))
         (<= (goal lighter 100) (parity {cells} odd))
         (<= (goal lighter 0) (parity {cells} even))",
        cells + 1
    ));
    text
}

/// The goals read a chain of views that only they read (evaluated when asked, by pulling):
/// the same values as the interpreter in every state, terminal or not.
#[test]
fn goals_over_a_chain_of_views_agree_with_the_interpreter() {
    agree(&parity_chain_game(9, &[2]), 20);
}

/// A chain of 1,000 views below the goal is pulled without recursion: asked on a thread with
/// a 16 KB stack, which a recursive evaluation (a frame per level, of 32 bytes at the very
/// least) would overflow. (Grounding, not evaluation, bounds the length here: the chain takes
/// one round of the reachability fixpoint per cell, 2 s for 2,000 cells in a release build.)
#[test]
fn goals_over_a_chain_of_1_000_views_are_evaluated_without_deep_recursion() {
    const CELLS: usize = 1_000;
    // Every third cell lit: 333 cells, an odd count.
    let lit: Vec<usize> = (3..=CELLS).step_by(3).collect();
    let program = program(&parity_chain_game(CELLS, &lit)).expect("builds");
    let game = Reasoner::new(program, Budget::default()).expect("runs");
    assert_eq!(
        game.engine_name(),
        "grounded",
        "{:?}",
        game.fallback_reason()
    );
    let goals = std::thread::Builder::new()
        .stack_size(16 * 1024)
        .spawn(move || {
            let initial = game.initial_state();
            let first = game.goals(&initial);
            // Light one more cell (the first, unlit): the count becomes even.
            let light = find(&game, &initial, 0, "(light 1)");
            let next = game.next_state(&initial, &[light]);
            (first, game.goals(&next))
        })
        .expect("a thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(goals, (vec![100], vec![0]));
}

/// Three players each guess a number from 0 to 9 and the goal reads their total, summed in
/// one rule body as gt_two_thirds does. As written, `total` has one ground instance per
/// combination of guesses (1,000); cut into a chain (the first two guesses summed into a link
/// relation over their sum) it has 100 + 19 × 10 (`sum` itself is static arithmetic, folded
/// while grounding: no ground rules). Under a limit of 900 ground rules the game
/// does not ground as written but does as a chain (the grounder tries eliminating variables
/// first, which grounds it too), and must play exactly as the interpreter does.
#[test]
fn a_sum_of_guesses_too_large_as_written_grounds_as_a_chain_and_agrees() {
    let mut text = String::from(
        "(role p1) (role p2) (role p3) (init start)
         (<= (legal ?p (guess ?n)) (role ?p) (true start) (digit ?n))
         (<= (next (guessed ?p ?n)) (does ?p (guess ?n)))
         (<= (next (guessed ?p ?n)) (true (guessed ?p ?n)))
         (<= terminal (not (true start)))
         (<= (sum ?a 0 ?a) (number ?a))
         (<= (sum ?a ?b ?c) (succ ?b0 ?b) (succ ?c0 ?c) (sum ?a ?b0 ?c0))
         (<= (number ?n) (succ ?n ?m)) (<= (number ?m) (succ ?n ?m))
         (<= (total ?t) (true (guessed p1 ?a)) (true (guessed p2 ?b)) (sum ?a ?b ?ab)
             (true (guessed p3 ?c)) (sum ?ab ?c ?t))
         (<= (goal ?p 100) (role ?p) (total ?t) (even ?t))
         (<= (goal ?p 0) (role ?p) (total ?t) (not (even ?t)))
         (<= (goal ?p 0) (role ?p) (true start))",
    );
    for n in 0..27 {
        text.push_str(&format!(" (succ {n} {})", n + 1));
        if n % 2 == 0 {
            text.push_str(&format!(" (even {n})"));
        }
        if n < 10 {
            text.push_str(&format!(" (digit {n})"));
        }
    }
    let program = program(&text).expect("builds");
    let limits = super::GroundingLimits {
        max_ground_rules: 900,
        ..super::GroundingLimits::default()
    };
    let as_written = ground_rewritten(&program, &limits, |rules, _| rules);
    assert!(
        matches!(&as_written, Err(GdlError::Budget(_))),
        "{as_written:?}"
    );
    let as_chain = ground_rewritten(&program, &limits, |rules, symbols| {
        super::factor::chain(&rules, symbols)
    });
    assert!(as_chain.is_ok(), "{as_chain:?}");
    agrees_when_grounded_under(program, &limits, 20);
}

/// Two players claim cells of a row of twelve; a line is three given cells of one owner, read
/// through a helper `(three ?a ?b ?c ?owner)` whose rule holds for any three cells. Grounded
/// bottom-up, `three` has 12³ × 3 atoms; read only as `(three c0 c1 c2 ?p)` and the like, with
/// `?p` known from `(line red)`, grounding driven by demand makes only the twelve it is asked
/// about. Under a limit of 4,000 ground terms the game grounds only that way, and must play
/// exactly as the interpreter does.
#[test]
fn a_helper_read_with_known_arguments_grounds_on_demand_and_agrees() {
    let mut text = String::from(
        "(role red) (role blue) (init (control red))
         (<= (legal ?p (claim ?c)) (true (control ?p)) (true (owner ?c none)))
         (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
         (<= (next (owner ?c ?p)) (does ?p (claim ?c)))
         (<= (next (owner ?c ?o)) (true (owner ?c ?o)) (not (claimed ?c)))
         (<= (claimed ?c) (does ?p (claim ?c)))
         (<= (next (control blue)) (true (control red)))
         (<= (next (control red)) (true (control blue)))
         (<= (three ?a ?b ?c ?p) (true (owner ?a ?p)) (true (owner ?b ?p)) (true (owner ?c ?p)))
         (<= (line ?p) (three c0 c1 c2 ?p)) (<= (line ?p) (three c3 c4 c5 ?p))
         (<= (line ?p) (three c6 c7 c8 ?p)) (<= (line ?p) (three c9 c10 c11 ?p))
         (<= (line ?p) (three c0 c4 c8 ?p))
         (<= open (true (owner ?c none)))
         (<= terminal (line red)) (<= terminal (line blue)) (<= terminal (not open))
         (<= (goal red 100) (line red)) (<= (goal red 0) (not (line red)))
         (<= (goal blue 100) (line blue)) (<= (goal blue 0) (not (line blue)))",
    );
    for cell in 0..12 {
        text.push_str(&format!(" (init (owner c{cell} none))"));
    }
    let program = program(&text).expect("builds");
    let limits = super::GroundingLimits {
        max_terms: 4_000,
        ..super::GroundingLimits::default()
    };
    // The limit bites: bottom-up, with or without chains, the domain is too large.
    for chained in [false, true] {
        let bottom_up = ground_rewritten(&program, &limits, |rules, symbols| {
            if chained {
                super::factor::chain(&rules, symbols)
            } else {
                rules
            }
        });
        assert!(
            matches!(&bottom_up, Err(GdlError::Budget(m)) if m.contains("ground terms")),
            "{bottom_up:?}"
        );
    }
    agrees_when_grounded_under(program, &limits, 20);
}

/// The first attempt as written gets only a share of the join steps, so that a game that
/// needs a rewriting does not spend its time failing as written (merrills); a game that needs
/// more than that share, and that no rewriting grounds within the limits, grounds on the last
/// attempt, as written with the whole allowance, and plays as the interpreter does.
#[test]
fn a_game_beyond_the_first_attempts_share_of_join_steps_grounds_as_written_at_last() {
    let program = program(&parity_chain_game(40, &[3])).expect("builds");
    let as_written =
        |limits: &super::GroundingLimits| ground_rewritten(&program, limits, |rules, _| rules);
    let steps = as_written(&super::GroundingLimits::default()).expect("grounds as written");
    let limits = super::GroundingLimits {
        max_steps: steps,
        ..super::GroundingLimits::default()
    };
    let share = super::GroundingLimits {
        max_steps: steps / super::game::FIRST_TRY_SHARE_OF_STEPS,
        ..limits.clone()
    };
    let first = as_written(&share);
    assert!(
        first.as_ref().is_err_and(super::domain::is_out_of_steps),
        "{first:?}"
    );
    // No rewriting grounds it within the whole allowance either.
    let eliminated = ground_rewritten(&program, &limits, |rules, symbols| {
        super::factor::eliminate(&rules, symbols)
    });
    let chained = ground_rewritten(&program, &limits, |rules, symbols| {
        super::factor::chain(&rules, symbols)
    });
    let mut probe = program.clone();
    let rules = super::factor::factor(&probe.rules, &mut probe.symbols);
    let on_demand = super::game::ground_on_demand(&mut probe, &rules, &limits)
        .map(|grounded| grounded.map(|grounding| grounding.steps));
    assert!(
        eliminated.is_err()
            && chained.is_err()
            && on_demand.as_ref().is_none_or(|grounded| grounded.is_err()),
        "{eliminated:?} {chained:?} {on_demand:?}"
    );
    agrees_when_grounded_under(program, &limits, 10);
}

/// Three players each guess a number below 30, and a player wins with a guess above both
/// others', compared in one rule body as crossers3's goals compare step counts. As written,
/// `best` has one ground instance per combination of the three guesses (over 150,000); cut into
/// a chain in the written order, its first link still joins all three. With the other players'
/// guesses eliminated first (`(above ?r2 ?a) :- (guessed ?r2 ?b) (less ?b ?a)`, 2,700
/// instances), it has a few thousand. Under a limit of 10,000 ground rules the game grounds
/// only that way, and must play exactly as the interpreter does.
#[test]
fn a_comparison_of_three_guesses_grounds_with_its_variables_eliminated_and_agrees() {
    let mut text = String::from(
        "(role p1) (role p2) (role p3) (init start)
         (<= (legal ?p (guess ?n)) (role ?p) (true start) (number ?n))
         (<= (next (guessed ?p ?n)) (does ?p (guess ?n)))
         (<= terminal (not (true start)))
         (<= (less ?a ?b) (succ ?a ?b))
         (<= (less ?a ?c) (succ ?b ?c) (less ?a ?b))
         (<= (number ?n) (succ ?n ?m)) (<= (number ?m) (succ ?n ?m))
         (<= (best ?r) (true (guessed ?r ?a)) (true (guessed ?r2 ?b)) (distinct ?r ?r2)
             (true (guessed ?r3 ?c)) (distinct ?r ?r3) (distinct ?r2 ?r3)
             (less ?b ?a) (less ?c ?a))
         (<= (goal ?p 100) (best ?p))
         (<= (goal ?p 0) (role ?p) (not (best ?p)))",
    );
    for n in 0..29 {
        text.push_str(&format!(" (succ {n} {})", n + 1));
    }
    let program = program(&text).expect("builds");
    let limits = super::GroundingLimits {
        max_ground_rules: 10_000,
        ..super::GroundingLimits::default()
    };
    // The limit bites: as written and as a chain, the rules are too many.
    for chained in [false, true] {
        let grounded = ground_rewritten(&program, &limits, |rules, symbols| {
            if chained {
                super::factor::chain(&rules, symbols)
            } else {
                rules
            }
        });
        assert!(
            matches!(&grounded, Err(GdlError::Budget(m))
                if m.contains("ground rules") || m.contains("matches")),
            "{grounded:?}"
        );
    }
    let eliminated = ground_rewritten(&program, &limits, |rules, symbols| {
        super::factor::eliminate(&rules, symbols)
    });
    assert!(eliminated.is_ok(), "{eliminated:?}");
    agrees_when_grounded_under(program, &limits, 40);
}

/// A static counter bounded by negation, as urmAdd numbers its program lines:
/// `(position ?m)` follows `(position ?n)` unless `(last ?n)`. Negation ignored, the counter
/// would run to the end of `succ` (60) and the moves `(go ?a ?b ?c)` over three positions to
/// 60³; computed exactly before the rest, it stops at 5, the moves at 125. The domain holds
/// exactly the five positions, and the game plays as the interpreter does.
#[test]
fn a_static_relation_bounded_by_negation_grounds_exactly_and_agrees() {
    let mut text = String::from(
        "(role robot) (init (at 1)) (init (turn 0)) (last 5) (position 1)
         (<= (position ?m) (succ ?n ?m) (not (last ?n)) (position ?n))
         (<= (outside ?n) (succ ?n ?m) (not (position ?n)))
         (<= (legal robot (go ?a ?b ?c)) (true (at ?a)) (position ?b) (position ?c)
             (not (outside ?c)))
         (<= (next (at ?c)) (does robot (go ?a ?b ?c)))
         (<= (next (turn ?m)) (true (turn ?n)) (succ ?n ?m))
         (<= terminal (true (turn 4)))
         (<= (goal robot 100) (true (at 5))) (<= (goal robot 0) (not (true (at 5))))",
    );
    for n in 0..60 {
        text.push_str(&format!(" (succ {n} {})", n + 1));
    }
    let mut program = program(&text).expect("builds");
    let rules = super::factor::factor(&program.rules, &mut program.symbols);
    let grounding =
        super::domain::ground(&program, &rules, &Default::default(), &Default::default())
            .expect("grounds");
    let position = program.symbols.get("position").expect("a relation");
    let positions = displayed_facts(&grounding, (position, 1), &program.symbols);
    assert_eq!(
        positions,
        [
            "(position 1)",
            "(position 2)",
            "(position 3)",
            "(position 4)",
            "(position 5)"
        ]
    );
    let legal = program.keywords.legal;
    assert_eq!(grounding.facts((legal, 2)).len(), 5 * 25);
    agrees_when_grounded_under(program, &Default::default(), 20);
}

/// Only the static strata whose exactness decides a negation are saturated before the rest:
/// those some rule negates and those they read. `sum` and `gt` (negated nowhere) wait for the
/// dynamic rules, so that they grow alongside them (see `saturate_static_first`); `last` and
/// `position`, read under `not`, and `succ` and `seed`, which `position` reads, go first.
#[test]
fn only_the_strata_a_negation_reads_are_saturated_first() {
    let text = "(role robot) (init (at 1)) (last 3) (seed 1)
         (succ 0 1) (succ 1 2) (succ 2 3)
         (<= (position ?n) (seed ?n))
         (<= (position ?m) (succ ?n ?m) (not (last ?n)) (position ?n))
         (<= (sum ?x 0 ?x) (position ?x))
         (<= (sum ?x ?y ?z) (succ ?y0 ?y) (succ ?z0 ?z) (sum ?x ?y0 ?z0))
         (<= (gt ?a ?b) (position ?x) (not (position ?b)) (sum ?b ?x ?a))
         (<= (legal robot (go ?b)) (true (at ?a)) (gt ?b ?a))
         (<= (next (at ?b)) (does robot (go ?b)))
         (<= terminal (true (at 3)))
         (<= (goal robot 100) (true (at 3)))";
    let mut program = program(text).expect("builds");
    let rules = super::factor::factor(&program.rules, &mut program.symbols);
    let stratified = program
        .with_rules(program.symbols.clone(), rules.clone())
        .expect("stratifies");
    let first = super::domain::strata_deciding_negations(&stratified.strata, &rules);
    let mut going_first: Vec<&str> = stratified
        .strata
        .iter()
        .zip(&first)
        .filter(|(_, first)| **first)
        .flat_map(|(stratum, _)| &stratum.relations)
        .map(|&(relation, _)| program.symbols.name(relation))
        .collect();
    going_first.sort_unstable();
    // `position`'s rules lie in two strata (the one from `seed`, the recursive one): both go.
    assert_eq!(
        going_first,
        ["last", "position", "position", "seed", "succ"]
    );
    agrees_when_grounded_under(program, &Default::default(), 20);
}

/// A one-robot game on a line of numbers 0 to 40: the robot starts at 2, moves to the place its
/// `go` names, scores 100 at 4, and the game ends after 30 turns; `walls_and_moves` says where
/// the walls are and which moves are legal.
fn corridor(walls_and_moves: &str) -> String {
    format!(
        "(role robot) (init (at 2)) (init (turn 0))
         {walls_and_moves}
         (<= (next (at ?b)) (does robot (go ?b)))
         (<= (next (turn ?m)) (true (turn ?n)) (succ ?n ?m))
         (<= terminal (true (turn 30)))
         (<= (goal robot 100) (true (at 4))) (<= (goal robot 0) (not (true (at 4))))
         {}",
        succ_facts(40)
    )
}

/// A corridor whose walls are fluents that never change (`next` is only their frame), read
/// under `not`: the relaxed domain would assume a wall absent and walk the robot along every
/// number `succ` has (0 to 40). Read as a static relation built from `init`, a wall is known
/// while grounding, and the robot's places are the four between the walls, as in play.
#[test]
fn a_never_changing_fluent_under_not_bounds_the_domain_and_agrees() {
    let text = corridor(
        "(init (wall 0)) (init (wall 5))
         (<= (next (wall ?x)) (true (wall ?x)))
         (<= (legal robot (go ?b)) (true (at ?a)) (succ ?a ?b) (not (true (wall ?b))))
         (<= (legal robot (go ?b)) (true (at ?a)) (succ ?b ?a) (not (true (wall ?b))))",
    );
    let program = program(&text).expect("builds");
    let game = super::GroundedGame::new(program.clone(), &Default::default()).expect("grounds");
    let mut places: Vec<String> = game
        .possible_fluents()
        .iter()
        .map(|fluent| fluent.display(&game.program().symbols).to_string())
        .filter(|fluent| fluent.starts_with("(at "))
        .collect();
    places.sort();
    assert_eq!(places, ["(at 1)", "(at 2)", "(at 3)", "(at 4)"]);
    agrees_when_grounded_under(program, &Default::default(), 20);
}

/// Grounding on demand may break stratification: here `step` negates `tired`, whose demand
/// comes from `step`'s, which reads `step` (the second move of `legal` starts where the first
/// ends). The static relations still stratify, so `wall`, negated, is still computed exactly
/// first and decides `(not (wall ?b))`: the places are those play reaches (two steps a move
/// from 2, between the walls at 0 and 5: 2 and 4), rather than every number along `succ`
/// (the relaxed domain of the whole, every negation assumed to hold).
#[test]
fn a_negated_static_relation_is_decided_on_demand_even_when_the_rewriting_does_not_stratify() {
    let text = corridor(
        "(wall 0) (wall 5) (last 40)
         (<= (tired ?a) (succ ?a ?b) (last ?b))
         (<= (step ?a ?b) (succ ?a ?b) (not (wall ?b)) (not (tired ?a)))
         (<= (step ?a ?b) (succ ?b ?a) (not (wall ?b)) (not (tired ?a)))
         (<= (legal robot (go ?c)) (true (at ?a)) (step ?a ?b) (step ?b ?c))",
    );
    let program = program(&text).expect("builds");
    let mut probe = program.clone();
    let rules = super::factor::factor(&probe.rules, &mut probe.symbols);
    let demanded = super::demand::demand(
        &rules,
        &probe.keywords,
        &mut probe.symbols,
        &|_| true,
        &|_| false,
    )
    .expect("`step` and `tired` are read with an argument known");
    assert!(
        probe
            .with_rules(probe.symbols.clone(), demanded.rules)
            .is_err(),
        "the rewriting no longer stratifies"
    );
    let grounding = super::game::ground_on_demand(&mut probe, &rules, &Default::default())
        .expect("a rewriting")
        .expect("grounds");
    let places: Vec<String> =
        displayed_facts(&grounding, (probe.keywords.true_, 1), &probe.symbols)
            .into_iter()
            .filter(|fluent| fluent.starts_with("(true (at "))
            .collect();
    // Two steps a move: from 2 to 2 or 4 (0 is a wall), from 4 to 2 or 4 (5 is a wall).
    assert_eq!(places, ["(true (at 2))", "(true (at 4))"]);
    agrees_when_grounded_under(program, &Default::default(), 20);
}

/// The atoms of relation `key` in a grounding's domain, as text, sorted.
fn displayed_facts(
    grounding: &super::domain::Grounding,
    key: super::super::program::RelKey,
    symbols: &super::super::program::Symbols,
) -> Vec<String> {
    let mut facts: Vec<String> = grounding
        .facts(key)
        .iter()
        .map(|&atom| grounding.terms.to_ground(atom).display(symbols).to_string())
        .collect();
    facts.sort();
    facts
}

/// `succ` from 0 to `n`, as facts.
fn succ_facts(n: usize) -> String {
    (0..n).map(|i| format!(" (succ {i} {})", i + 1)).collect()
}

/// The rules grounded as written under `limits`, on a copy of `program`.
fn ground_as_written(
    program: &super::super::Program,
    limits: &super::GroundingLimits,
) -> Result<super::domain::Grounding, GdlError> {
    let mut probe = program.clone();
    let rules = super::factor::factor(&probe.rules, &mut probe.symbols);
    super::domain::ground(&probe, &rules, &Default::default(), limits)
}

/// `lte` over the numbers 0 to 120 (7,381 atoms, each derived by its own rule instance) is
/// static arithmetic: every atom of it holds in every state, so grounding folds it into facts
/// and its rules get no ground instances. The game's own rules (a counter stepping up to 120)
/// have a few hundred; the game plays as the interpreter does.
#[test]
fn static_arithmetic_is_folded_into_facts_and_agrees() {
    let text = format!(
        "(role p) (init (count 0))
         (<= (number ?n) (succ ?n ?m)) (<= (number ?m) (succ ?n ?m))
         (<= (lte ?x ?x) (number ?x)) (<= (lte ?x ?y) (succ ?z ?y) (lte ?x ?z))
         (<= (legal p (step ?m)) (true (count ?n)) (succ ?n ?m) (lte ?m 120))
         (<= (next (count ?m)) (does p (step ?m)))
         (<= terminal (true (count ?n)) (lte 10 ?n))
         (<= (goal p 100) (true (count ?n)) (lte 10 ?n))
         (<= (goal p 0) (true (count ?n)) (lte ?n 9)) {}",
        succ_facts(120)
    );
    let program = program(&text).expect("builds");
    let grounding = ground_as_written(&program, &Default::default()).expect("grounds");
    let lte = program.symbols.get("lte").expect("a relation");
    assert_eq!(grounding.facts((lte, 2)).len(), 121 * 122 / 2);
    assert!(grounding.rules.len() < 1_000, "{}", grounding.rules.len());
    agrees_when_grounded_under(program, &Default::default(), 20);
}

/// A static relation saturated before the relation it reads is complete is not folded: `f`
/// reads `(g a)`, which holds, but `g`'s other rule (through `s`) may come after `f`'s in the
/// first phase (`f` is negated, so its stratum goes first), leaving `f` inexact. Folded, `f`
/// would have no ground rules and `(not f)` would fold to true: the goal would say 100 where
/// the interpreter says 0. A relation assumed over a negation (`h`, which holds only if `(r b)`
/// does not) must not be folded either.
#[test]
fn a_static_relation_saturated_before_what_it_reads_is_complete_is_not_folded() {
    agree(
        "(role p) (init (at 0)) (g a) (s) (r b)
         (<= f (g a)) (<= (g b) s)
         (<= (h a) (not (r b))) (<= (r c) s)
         (<= u (not f)) (<= v (not (h a)))
         (<= (legal p go) (true (at 0)))
         (<= (next (at 1)) (does p go))
         (<= terminal (true (at 1)))
         (<= (goal p 100) u) (<= (goal p 50) (h a)) (<= (goal p 0) f v)",
        3,
    );
}

/// `(diff ?x ?y ?d)` over the numbers 0 to 200, read with `?x` and `?y` known, has one atom
/// per pair but up to 201 per value of either: through an index on one argument, each of its
/// 20,100 recursive derivations (one per `(lt ?y ?x)`) scans up to 200 atoms, and grounding
/// takes 1.56 M join steps. The pair index the join asks for finds each in one: 0.31 M.
#[test]
fn a_relation_read_with_two_arguments_known_is_joined_through_a_pair_index() {
    let text = format!(
        "(role p) (init (at 0)) (init (step 0))
         (<= (number ?n) (succ ?n ?m)) (<= (number ?m) (succ ?n ?m))
         (<= (lt ?x ?y) (succ ?x ?y)) (<= (lt ?x ?z) (succ ?y ?z) (lt ?x ?y))
         (<= (diff ?x ?x 0) (number ?x))
         (<= (diff ?x ?y ?d) (lt ?y ?x) (succ ?x0 ?x) (diff ?x0 ?y ?d0) (succ ?d0 ?d))
         (<= (legal p (go ?y)) (true (at ?x)) (number ?y) (diff ?y ?x 1))
         (<= (next (at ?y)) (does p (go ?y)))
         (<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))
         (<= terminal (true (step 5)))
         (<= (goal p 100) (true (at 5))) (<= (goal p 0) (not (true (at 5)))) {}",
        succ_facts(200)
    );
    let program = program(&text).expect("builds");
    let grounding = ground_as_written(&program, &Default::default()).expect("grounds");
    let diff = program.symbols.get("diff").expect("a relation");
    assert_eq!(grounding.facts((diff, 3)).len(), 201 * 201 - 201 * 200 / 2);
    assert!(grounding.steps < 600_000, "{}", grounding.steps);
    agrees_when_grounded_under(program, &Default::default(), 20);
}

/// Four players each guess a number from 0 to 59, and the game is won when their total is
/// 230 or more, summed in one body (gt_two_thirds' `total`) over a table of sums. As written,
/// the join tries each of the 13 M combinations of guesses for the few hundred that reach
/// 230. The first attempt as written stops at that join (instead of spending its
/// share of join steps on it); a rewriting grounds the game, which plays as the interpreter
/// does.
#[test]
fn a_costly_join_of_many_guesses_stops_the_first_attempt_and_grounds_rewritten() {
    let text = format!(
        "(role p1) (role p2) (role p3) (role p4) (init start)
         (<= (legal ?p (guess ?n)) (role ?p) (true start) (guessable ?n))
         (<= (next (guessed ?p ?n)) (does ?p (guess ?n)))
         (<= terminal (not (true start)))
         (<= high (true (guessed p1 ?a)) (true (guessed p2 ?b)) (sum ?a ?b ?ab)
             (true (guessed p3 ?c)) (sum ?ab ?c ?abc) (true (guessed p4 ?d))
             (sum ?abc ?d ?t) (winning ?t))
         (<= (goal ?p 100) (role ?p) high)
         (<= (goal ?p 0) (role ?p) (not (true start)) (not high))
         (<= (goal ?p 0) (role ?p) (true start)) {} {} {}",
        // The sums as a table, so that all of them are there when the guesses arrive.
        (0..180)
            .flat_map(|a| (0..60).map(move |b| format!(" (sum {a} {b} {})", a + b)))
            .collect::<String>(),
        (0..60)
            .map(|n| format!(" (guessable {n})"))
            .collect::<String>(),
        (230..237)
            .map(|n| format!(" (winning {n})"))
            .collect::<String>(),
    );
    let program = program(&text).expect("builds");
    let first_try = super::GroundingLimits {
        stop_at_costly_joins: true,
        ..Default::default()
    };
    let first = ground_as_written(&program, &first_try).map(|grounding| grounding.steps);
    assert!(
        first.as_ref().is_err_and(super::domain::is_costly_join),
        "{first:?}"
    );
    agrees_when_grounded_under(program, &Default::default(), 5);
}

/// A rule pairing numbers that grow one a round never matches more than the limit in one
/// round, but its matches over the rounds are its ground instances: grounding stops as soon
/// as they pass the limit, while the domain is still being saturated, rather than after it.
#[test]
fn a_rule_whose_instances_pass_the_limit_over_the_rounds_stops_the_saturation() {
    let text = format!(
        "(role p) (init on)
         (first 0) (<= (number ?m) (succ ?n ?m) (number ?n)) (<= (number ?n) (first ?n))
         (<= (pair ?a ?b) (true on) (number ?a) (number ?b))
         (<= (legal p (pick ?b)) (pair 0 ?b))
         (<= (next off) (does p (pick ?b)))
         (<= terminal (true off)) (<= (goal p 100) (true off)) (<= (goal p 0) (true on)) {}",
        succ_facts(40)
    );
    let program = program(&text).expect("builds");
    let limits = super::GroundingLimits {
        max_ground_rules: 500,
        ..Default::default()
    };
    let grounded = ground_as_written(&program, &limits).map(|grounding| grounding.steps);
    assert!(
        matches!(&grounded, Err(GdlError::Budget(message))
            if message.contains("the instances of a rule for `pair` found so far")),
        "{grounded:?}"
    );
}

/// ruleDepthExponential cut to 12 levels has 2^12 atoms of `prereq12` as written (8,190 over
/// the twelve relations), each with its own rules; every argument is a bit passed along, so all
/// of them are dropped and each relation grounds to one atom. The game plays as the interpreter
/// does.
#[test]
fn arguments_that_only_name_a_member_of_a_domain_are_dropped_and_the_game_agrees() {
    let program = program(&super::super::tests::rule_depth_exponential(12)).expect("builds");
    let as_written = ground_as_written(&program, &Default::default()).expect("grounds");
    assert!(as_written.terms.len() > 8_000, "{}", as_written.terms.len());
    let game = super::GroundedGame::new(program.clone(), &Default::default()).expect("grounds");
    let (props, rules) = game.size();
    assert!(props < 200 && rules < 200, "{props} props, {rules} rules");
    agrees_when_grounded_under(program, &Default::default(), 5);
}

/// Where an argument is not only a domain member, it stays, and the game plays as the
/// interpreter does: `p`'s two rules give its argument different domains (bits, digits); `q`
/// is read negatively with a variable; `r` is read with a constant outside its domain
/// (positively: never holds; negatively: always holds) and inside it.
#[test]
fn arguments_that_are_more_than_a_domain_member_are_kept_and_the_game_agrees() {
    agree(
        "(role p) (init (at 0)) (bit 0) (bit 1) (digit 0) (digit 1) (digit 2)
         (<= (p ?x) (bit ?x) (true (at 0)))
         (<= (p ?x) (digit ?x) (true (at 1)))
         (<= (q ?x) (bit ?x) (true (at 1)))
         (<= (r ?x) (bit ?x) (true (at 1)))
         (<= (legal p (go ?x)) (digit ?x) (p ?x))
         (<= (legal p (skip ?x)) (digit ?x) (not (q ?x)))
         (<= (legal p never) (r 2))
         (<= (legal p always) (not (r 2)))
         (<= (legal p once) (r 1))
         (<= (next (at 1)) (true (at 0)))
         (<= (next (at 2)) (true (at 1)))
         (<= terminal (true (at 2)))
         (<= (goal p 100) (true (at 2)))",
        3,
    );
}

/// Domain arguments found through two relations, in three passes: `r` reads `p`, which reads
/// `q`, each named before what it reads; `init` reads `r`. `s` drops two positions of different
/// domains read in one literal, where a variable keeps its guards and a constant outside the
/// domain makes the literal false.
#[test]
fn domain_arguments_through_several_relations_are_dropped_and_the_game_agrees() {
    let text = "(role robot) (bit 0) (bit 1) (digit 0) (digit 1) (digit 2)
         (<= (r ?y) (p ?y)) (<= (p ?x) (q ?x a)) (<= (q ?x a) (bit ?x)) (<= (q ?x b) (bit ?x))
         (<= (init (at 0)) (r 1)) (<= (init (at 9)) (r 2))
         (<= (s ?b ?d) (bit ?b) (digit ?d) (true (at 0)))
         (<= (legal robot (go ?d)) (s 1 ?d)) (<= (legal robot stay) (s 1 5))
         (<= (legal robot wait) (not (s 2 0)))
         (<= (next (at 1)) (does robot (go ?d)))
         (<= terminal (true (at 1))) (goal robot 100)";
    let mut program = program(text).expect("builds");
    let reduced = super::domain_arguments::drop_domain_arguments(
        &program.rules,
        &program.strata,
        &program.keywords,
        &mut program.symbols,
    );
    let mut names: Vec<&str> = reduced
        .iter()
        .map(|rule| program.symbols.name(rule.head.relation))
        .filter(|name| name.contains("without"))
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names,
        [
            "p without its domain arguments 1",
            "q without its domain arguments 1",
            "r without its domain arguments 1",
            "s without its domain arguments 1, 2",
        ]
    );
    agree(text, 3);
}

/// A relation that nothing play reads is not grounded: `later` (every pair of 1,100 numbers
/// in order, 604,450 atoms, more than the limit of ground terms) is read by no rule, so its
/// rules are left out, with `succ`'s (before, grounding as written failed on it and grounding
/// on demand found it never asked). The game grounds, and plays as the interpreter does.
#[test]
fn a_relation_nothing_reads_is_not_grounded() {
    let text = format!(
        "(role robot) (init (at 0)) (legal robot wait)
         (<= (next (at 1)) (true (at 0)))
         (<= (later ?a ?b) (succ ?a ?b)) (<= (later ?a ?c) (succ ?a ?b) (later ?b ?c))
         (<= terminal (true (at 1))) (goal robot 100) {}",
        succ_facts(1_100)
    );
    let program = program(&text).expect("builds");
    let error = ground_as_written(&program, &Default::default()).expect_err("too large");
    assert!(matches!(error, GdlError::Budget(_)), "{error}");
    let played = super::played::played_rules(&program, super::played::GoalRules::Grounded);
    let heads: Vec<&str> = played
        .iter()
        .map(|rule| program.symbols.name(rule.head.relation))
        .collect();
    // `succ` goes too: only `later` reads it.
    assert_eq!(heads, ["role", "init", "legal", "next", "terminal", "goal"]);
    agree(&text, 2);
}

/// Seven dials, each turned to a digit, one a turn; the player wins when neighbours differ,
/// which the goal asks of `differ`, a static relation of 10 × 9⁶ tuples: too large to ground,
/// and read only by the goal. The rest is grounded, the goal values come from the
/// interpreter, and the game plays as the interpreter does. After the seventh turn comes a
/// forced `wait`, so that a random playout from there ends one ply later in a known state:
/// its goals are those of the state it ends in, not of the one it starts from.
#[test]
fn a_goal_too_large_to_ground_is_answered_by_the_interpreter_and_the_game_agrees() {
    let mut text = String::from(
        "(role p) (init (step 0))
         (<= (legal p (turn ?d ?v)) (true (step ?n)) (early ?n) (dial ?d) (digit ?v))
         (<= (legal p wait) (true (step 7)))
         (<= (next (at ?d ?v)) (does p (turn ?d ?v)))
         (<= (next (at ?d ?v)) (true (at ?d ?v)) (not (turned ?d)))
         (<= (turned ?d) (does p (turn ?d ?v)))
         (<= (next (step ?m)) (true (step ?n)) (tick ?n ?m))
         (<= terminal (true (step 8)))
         (<= win (true (at 1 ?a)) (true (at 2 ?b)) (true (at 3 ?c)) (true (at 4 ?d))
             (true (at 5 ?e)) (true (at 6 ?f)) (true (at 7 ?g)) (differ ?a ?b ?c ?d ?e ?f ?g))
         (<= (goal p 100) win)
         (<= (goal p 0) (not win))
         (<= (differ ?a ?b ?c ?d ?e ?f ?g)
             (digit ?a) (digit ?b) (digit ?c) (digit ?d) (digit ?e) (digit ?f) (digit ?g)
             (distinct ?a ?b) (distinct ?b ?c) (distinct ?c ?d) (distinct ?d ?e)
             (distinct ?e ?f) (distinct ?f ?g))",
    );
    for digit in 0..10 {
        text.push_str(&format!(" (digit {digit})"));
    }
    for dial in 1..=7 {
        text.push_str(&format!(" (dial {dial}) (init (at {dial} 0))"));
    }
    for step in 0..8 {
        text.push_str(&format!(" (tick {step} {})", step + 1));
        if step < 7 {
            text.push_str(&format!(" (early {step})"));
        }
    }
    let program = program(&text).expect("builds");
    let whole = super::GroundedGame::new(program.clone(), &Default::default())
        .expect_err("the goal is too large to ground");
    assert!(whole.to_string().contains("`differ`"), "{whole}");
    let oracle = Reasoner::interpreted(program.clone(), Budget::default()).expect("runs");
    let fast = Reasoner::new(program, Budget::default()).expect("runs");
    assert_eq!(fast.engine_name(), "grounded");
    let reason = fast
        .interpreted_goals_reason()
        .expect("goals from the interpreter");
    assert!(reason.contains("`differ`"), "{reason}");
    agree_on_trajectories(&oracle, &fast, 20);
    // Neighbours made to differ (2, 1, 2, ...), then one random playout of the forced wait.
    let mut state = fast.initial_state();
    for dial in 1..=7 {
        let turn = find(&fast, &state, 0, &format!("(turn {dial} {})", dial % 2 + 1));
        state = fast.next_state(&state, &[turn]);
    }
    assert_eq!(fast.try_goal_values(&state), Ok(vec![vec![100]]));
    let mut rng = SmallRng::seed_from_u64(0);
    let playout = fast.random_playout(&state, &mut rng, 10);
    assert_eq!((playout.plies, playout.goals), (1, Some(vec![100])));
    // From the start, every playout ends after seven random turns and the wait.
    let playout = fast.random_playout(&fast.initial_state(), &mut rng, 10);
    assert_eq!(playout.plies, 8);
    assert_eq!(fast.failure(), None);
}

/// Grounds the corpus files listed in `GDL_GROUND_PROFILE` (paths separated by `:`) and prints
/// each outcome with its CPU time, then, when `GDL_PLAYOUT_SECONDS` is set, plays random
/// playouts from the initial state (at most 500 plies each) for that many CPU seconds and
/// prints how many per CPU second: a measuring aid for the grounder, run in release with
/// `--ignored --nocapture`.
#[test]
#[ignore = "a measuring aid: reads the corpus named in GDL_GROUND_PROFILE"]
fn profile_grounding_of_listed_games() {
    let Ok(list) = std::env::var("GDL_GROUND_PROFILE") else {
        return;
    };
    for path in list.split(':').filter(|p| !p.is_empty()) {
        let text = std::fs::read_to_string(path).expect("readable");
        let program = match program(&text) {
            Ok(program) => program,
            Err(error) => {
                println!("{path}: does not build: {error}");
                continue;
            }
        };
        // `GDL_GROUND_UNBOUNDED` lifts the size limits (not the CPU deadline): what a game
        // needs, measured rather than cut off.
        let sizes = if std::env::var_os("GDL_GROUND_UNBOUNDED").is_some() {
            super::GroundingLimits {
                max_terms: usize::MAX,
                max_ground_rules: usize::MAX,
                max_literals: usize::MAX,
                ..super::GroundingLimits::default()
            }
        } else {
            super::GroundingLimits::default()
        };
        // `GDL_GROUND_MAX_STEPS` sets the join-step limit: which games need more than it.
        let max_steps = std::env::var("GDL_GROUND_MAX_STEPS")
            .ok()
            .and_then(|steps| steps.parse().ok())
            .unwrap_or(sizes.max_steps);
        let started = crate::cpu_time::CpuInstant::now();
        let limits = super::GroundingLimits {
            deadline: Some(started.deadline(std::time::Duration::from_secs(60))),
            max_steps,
            ..sizes
        };
        if std::env::var_os("GDL_GROUND_AS_WRITTEN").is_some() {
            let mut probe = program.clone();
            let rules = super::factor::factor(&probe.rules, &mut probe.symbols);
            match super::domain::ground(&probe, &rules, &Default::default(), &limits) {
                Ok(grounding) => println!(
                    "{path}: as written: {} terms, {} ground rules, {} literals, {} join steps after {:.2} CPU s",
                    grounding.terms.len(),
                    grounding.rules.len(),
                    grounding.rules.literals.len(),
                    grounding.steps,
                    started.elapsed().as_secs_f64()
                ),
                Err(error) => println!("{path}: as written: {error}"),
            }
            // `GDL_GROUND_AS_WRITTEN=only`: that attempt alone, over many games.
            if std::env::var("GDL_GROUND_AS_WRITTEN").is_ok_and(|v| v == "only") {
                continue;
            }
            let eliminated = ground_rewritten(&program, &limits, |rules, symbols| {
                super::factor::eliminate(&rules, symbols)
            });
            println!(
                "{path}: eliminated: {:?} after {:.2} CPU s",
                eliminated.err(),
                started.elapsed().as_secs_f64()
            );
        }
        let grounded = super::GroundedGame::new(program, &limits);
        let outcome = match &grounded {
            Ok(game) => {
                let (props, rules) = game.size();
                format!("grounds: {props} props, {rules} rules")
            }
            Err(error) => format!("fails: {error}"),
        };
        println!(
            "{path}: {outcome} after {:.2} CPU s",
            started.elapsed().as_secs_f64()
        );
        let seconds = std::env::var("GDL_PLAYOUT_SECONDS").ok();
        if let (Ok(game), Some(seconds)) = (&grounded, seconds.and_then(|s| s.parse().ok())) {
            let mut rng = SmallRng::seed_from_u64(21);
            let start = game.initial_state();
            let playing = crate::cpu_time::CpuInstant::now();
            let mut playouts = 0u64;
            // The clock is read every 64 playouts: reading it costs about as much as a
            // tic-tac-toe playout.
            while playing.elapsed().as_secs_f64() < seconds {
                for _ in 0..64 {
                    game.fast_random_playout(&start, &mut rng, 500);
                }
                playouts += 64;
            }
            let spent = playing.elapsed().as_secs_f64();
            println!(
                "{path}: {playouts} playouts in {spent:.2} CPU s, {:.0} per CPU s",
                playouts as f64 / spent
            );
        }
    }
}

/// Lane playouts of `text`, goals batched `goal_batch` lanes at a time, replayed on the
/// circuit step by step; how many recursive groups and props of input classes they evaluate.
fn lane_playouts_replay(
    text: &str,
    count: u64,
    goal_batch: u32,
    max_plies: usize,
) -> (usize, usize) {
    let game = super::GroundedGame::new(program(text).expect("builds"), &Default::default())
        .expect("grounds");
    game.replay_lane_playouts_batched(count, 7, max_plies, goal_batch)
        .unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn lane_playouts_are_playouts_of_the_circuit_whether_goals_wait_or_not() {
    let tic_tac_toe = include_str!("../../../../corpus/gdl/ticTacToe.kif");
    for goal_batch in [1, 5, 64] {
        let (_, played) = lane_playouts_replay(tic_tac_toe, 500, goal_batch, 100);
        // The frame axiom "a mark elsewhere" is read through the moves it leaves out.
        assert!(played > 0);
    }
    // Playouts cut at the ply limit, in the middle of the game.
    lane_playouts_replay(tic_tac_toe, 200, 3, 4);
    // Recursive views over the state (`seen`, through a cycle of edges), read by a legal move
    // and by the goals: groups of props evaluated to a fixpoint in every lane at once.
    let loops = "(role walker)
        (init (at a))
        (edge a b) (edge b c) (edge c a) (edge c d) (edge b d)
        (<= (legal walker (go ?y)) (true (at ?x)) (edge ?x ?y))
        (<= (legal walker stay) (seen b))
        (<= (next (at ?y)) (does walker (go ?y)))
        (<= (next (at ?x)) (does walker stay) (true (at ?x)))
        (<= (next (visited ?x)) (true (at ?x)))
        (<= (next (visited ?x)) (true (visited ?x)))
        (<= (seen ?x) (true (at ?x)))
        (<= (seen ?y) (seen ?x) (edge ?x ?y) (true (visited ?y)))
        (<= terminal (true (at d)))
        (<= (goal walker 100) (true (at d)) (seen a))
        (<= (goal walker 50) (true (at d)) (not (seen a)))
        (<= (goal walker 0) (not (true (at d))))";
    let (groups, _) = lane_playouts_replay(loops, 300, 4, 100);
    assert!(groups > 0);
    // A walk that may end where no move is legal, in a state that is not terminal.
    let dead_end = "(role walker)
        (init (at a))
        (edge a b) (edge a c) (edge b d) (edge b e) (edge c e)
        (<= (legal walker (go ?y)) (true (at ?x)) (edge ?x ?y))
        (<= (next (at ?y)) (does walker (go ?y)))
        (<= terminal (true (at d)))
        (<= (goal walker 100) (true (at d)))
        (<= (goal walker 0) (not (true (at d))))";
    lane_playouts_replay(dead_end, 300, 2, 100);
}

/// A game whose grounding takes some work: 9,000 moves, each four digits.
const DIGIT_GRID_GAME: &str = "(role robot) (init on) (<= (next on) (true on))
     (digit 0) (digit 1) (digit 2) (digit 3) (digit 4)
     (digit 5) (digit 6) (digit 7) (digit 8) (digit 9)
     (<= (pick ?a ?b ?c ?d) (digit ?a) (digit ?b) (digit ?c) (digit ?d) (distinct ?a ?d))
     (<= (legal robot (pick ?a ?b ?c ?d)) (true on) (pick ?a ?b ?c ?d))
     (<= terminal (true on)) (goal robot 100)";

/// Whether a game grounds is decided by the count of grounding's work, not by a clock: the
/// same grounding counts the same work every time (so every machine, fast or slow, loaded or
/// idle, reaches the same verdict), and with no time limit at all an allowance smaller than
/// that work sends the game to the interpreter, saying why.
#[test]
fn the_count_of_work_decides_whether_a_game_grounds() {
    let program = program(DIGIT_GRID_GAME).expect("builds");
    let counted = |allowance: super::WorkAllowance| {
        let limits = super::GroundingLimits {
            work: allowance,
            deadline: None,
            ..super::GroundingLimits::default()
        };
        let game = Reasoner::with_limits(program.clone(), Budget::default(), &limits)
            .expect("runs on one engine or the other");
        (game, limits.work.done(), limits.work.spent())
    };
    let (grounded, done, spent) = counted(super::WorkAllowance::default());
    assert_eq!(grounded.engine_name(), "grounded");
    let (_, done_again, _) = counted(super::WorkAllowance::default());
    assert_eq!(done, done_again, "the same grounding counts the same work");
    // 9,000 matches of `pick`'s rule, each a join step at least, and its ground terms.
    let [steps, probes, terms, _literals, joins] = done;
    assert!(
        steps >= 10_000 && probes > 0 && terms >= 9_000 && joins > 0,
        "{done:?}"
    );

    let (short, _, short_spent) = counted(super::WorkAllowance::new(spent / 2));
    assert_eq!(short.engine_name(), "interpreter");
    let reason = short.fallback_reason().expect("a reason");
    assert!(
        reason.contains("grounding spent its allowance of work"),
        "{reason}"
    );
    // It stopped soon after the allowance ran out, and tried no other way after that.
    assert!(
        (spent / 2..spent).contains(&short_spent),
        "{short_spent} of {spent}"
    );
}

/// Every attempt of one engine choice draws on one allowance: limits and their clones share
/// it, so the last resort and the grounding without the goal do not start afresh.
#[test]
fn the_attempts_of_one_engine_choice_share_one_allowance() {
    let limits = super::GroundingLimits::default();
    let last_resort = limits.last_resort();
    let program = program(DIGIT_GRID_GAME).expect("builds");
    super::GroundedGame::new(program, &last_resort).expect("grounds");
    assert!(limits.work.spent() > 0);
    assert_eq!(limits.work.spent(), last_resort.work.spent());
    // A fresh set of limits starts with a fresh allowance.
    assert_eq!(super::GroundingLimits::default().work.spent(), 0);
}

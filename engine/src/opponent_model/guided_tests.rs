//! The model-guided search on Nim, small enough to work out by hand: a pile of stones, each
//! player in turn takes 1, 2 or 3, and whoever takes the last stone wins. A pile that is a
//! multiple of 4 is lost for the player to move against perfect play (whatever it takes, the
//! other restores a multiple of 4), so the plain search must call it lost, while a search that
//! knows its opponent always takes 1 stone (the legal player: its first legal move) finds a win.

use std::sync::Arc;

use super::{
    DuelSettings, FeatureSet, GuidanceFor, ModelGuidance, ModelledSearchPlayer, MoveModel, Observe,
    PlayerModel, PruningCounts, Searcher, SimulationSettings, compare_search_with_model,
    moves_to_keep, simulate,
};
use crate::notation::Notation;
use crate::players::{
    Clock, Heuristic, MatchEnd, MatchSettings, MoveBudget, Player, SearchPlayer, play_match,
    player_by_name,
};
use crate::{Game, Reward, RoleIndex};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pile {
    stones: u8,
    mover: RoleIndex,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Take {
    Stones(u8),
    Noop,
}

struct Nim {
    roles: Vec<String>,
    start: u8,
}

impl Nim {
    fn new(start: u8) -> Self {
        Nim {
            roles: vec!["first".to_owned(), "second".to_owned()],
            start,
        }
    }
}

impl Game for Nim {
    type State = Pile;
    type Move = Take;

    fn roles(&self) -> &[String] {
        &self.roles
    }

    fn initial_state(&self) -> Pile {
        Pile {
            stones: self.start,
            mover: 0,
        }
    }

    fn is_terminal(&self, state: &Pile) -> bool {
        state.stones == 0
    }

    fn legal_moves(&self, state: &Pile, role: RoleIndex) -> Vec<Take> {
        if state.stones == 0 {
            Vec::new()
        } else if role == state.mover {
            (1..=state.stones.min(3)).map(Take::Stones).collect()
        } else {
            vec![Take::Noop]
        }
    }

    fn next_state(&self, state: &Pile, joint: &[Take]) -> Pile {
        let taken = match joint[state.mover] {
            Take::Stones(count) => count,
            Take::Noop => 0,
        };
        Pile {
            stones: state.stones.saturating_sub(taken),
            mover: 1 - state.mover,
        }
    }

    /// The player who took the last stone (the one not to move) wins.
    fn goals(&self, state: &Pile) -> Vec<Reward> {
        if state.stones > 0 {
            return vec![50, 50];
        }
        let mut goals = vec![100, 100];
        goals[state.mover] = 0;
        goals
    }
}

impl Notation for Nim {
    fn move_text(&self, _state: &Pile, _role: RoleIndex, action: &Take) -> String {
        match action {
            Take::Stones(count) => format!("take {count}"),
            Take::Noop => "noop".to_owned(),
        }
    }
}

impl Observe for Nim {
    fn atoms(&self, state: &Pile) -> Vec<String> {
        vec![
            format!("mover {}", state.mover),
            format!("stones {}", state.stones),
        ]
    }
}

fn rows(counts: &[(&str, usize)]) -> Vec<(Vec<String>, String)> {
    counts
        .iter()
        .flat_map(|&(name, count)| std::iter::repeat_n((Vec::new(), name.to_owned()), count))
        .collect()
}

/// A model of the second player that ignores the state (no feature kept), so that its
/// posteriors are its priors: take 1 six times in ten, take 2 three, take 3 once.
fn prior_only_guidance(confidence: f64) -> ModelGuidance {
    let model = MoveModel::train(
        &rows(&[("take 1", 6), ("take 2", 3), ("take 3", 1)]),
        Some(0),
    );
    let second = PlayerModel {
        features: FeatureSet::State,
        model,
    };
    ModelGuidance::new(vec![None, Some(second)], confidence)
}

fn selected(guidance: &ModelGuidance, state: &Pile, role: RoleIndex, moves: &[Take]) -> Vec<Take> {
    let mut moves = moves.to_vec();
    guidance.select(&Nim::new(7), state, role, &mut moves);
    moves
}

#[test]
fn the_modelled_players_moves_are_cut_to_the_fewest_reaching_the_confidence() {
    let second_to_move = Pile {
        stones: 7,
        mover: 1,
    };
    // Given in the engine's reverse order, the kept moves come most probable first.
    let legal = [Take::Stones(3), Take::Stones(2), Take::Stones(1)];
    // 0.6 reaches 0.5 alone; 0.6 + 0.3 reaches 0.9 (not 0.6 + 0.3 + 0.1: the fewest); 0.95
    // needs all three.
    let cases = [
        (0.5, vec![Take::Stones(1)]),
        (0.9, vec![Take::Stones(1), Take::Stones(2)]),
        (
            0.95,
            vec![Take::Stones(1), Take::Stones(2), Take::Stones(3)],
        ),
        (1.0, vec![Take::Stones(1), Take::Stones(2), Take::Stones(3)]),
    ];
    for (confidence, expected) in cases {
        let guidance = prior_only_guidance(confidence);
        assert_eq!(
            selected(&guidance, &second_to_move, 1, &legal),
            expected,
            "p = {confidence}"
        );
        assert_eq!(
            guidance.counts(),
            PruningCounts {
                nodes: 1,
                legal: 3,
                kept: expected.len() as u64,
            }
        );
    }
    // The role without a model (the searching one) keeps every move, in the engine's order.
    let guidance = prior_only_guidance(0.5);
    let first_to_move = Pile {
        stones: 7,
        mover: 0,
    };
    assert_eq!(selected(&guidance, &first_to_move, 0, &legal), legal);
    assert_eq!(guidance.counts(), PruningCounts::default());
}

#[test]
fn a_move_training_never_saw_is_kept_only_at_full_confidence() {
    // Trained on take 1 (two in three) and take 2: take 3 has no probability.
    let model = MoveModel::train(&rows(&[("take 1", 2), ("take 2", 1)]), Some(0));
    let guidance = |confidence| {
        let second = PlayerModel {
            features: FeatureSet::State,
            model: model.clone(),
        };
        ModelGuidance::new(vec![None, Some(second)], confidence)
    };
    let state = Pile {
        stones: 5,
        mover: 1,
    };
    let legal = [Take::Stones(1), Take::Stones(2), Take::Stones(3)];
    assert_eq!(
        selected(&guidance(0.99), &state, 1, &legal),
        [Take::Stones(1), Take::Stones(2)]
    );
    // At confidence 1 the model only orders: every legal move, the unseen one last.
    assert_eq!(selected(&guidance(1.0), &state, 1, &legal), legal);
}

/// A model of the legal player as `second`, trained on `matches` simulated matches.
fn legal_player_guidance(game: &Nim, matches: u64, confidence: f64) -> Arc<ModelGuidance> {
    let settings = SimulationSettings::new("legal", 1);
    let decisions = simulate(game, &settings, 0..matches).expect("simulates");
    let features = FeatureSet::StateAndLegal;
    let rows: Vec<(Vec<String>, String)> = decisions
        .iter()
        .map(|d| (features.features(&d.atoms, &d.legal), d.chosen.clone()))
        .collect();
    let model = MoveModel::train(&rows, None);
    Arc::new(ModelGuidance::new(
        vec![None, Some(PlayerModel { features, model })],
        confidence,
    ))
}

#[test]
fn knowing_the_opponent_turns_a_lost_pile_into_a_win_with_fewer_states() {
    // 8 stones: lost for the first player against perfect play, won against a player who
    // always takes 1 (take 1 → 7, 1 → 6, take 2 → 4, 1 → 3, take 3).
    let game = Nim::new(8);
    let start = game.initial_state();
    let guidance = legal_player_guidance(&game, 20, 0.9);
    let search = SearchPlayer::iterative_deepening();
    let plain = search.analyse(&game, &start, 0, &mut Clock::unlimited());
    let guided = search.analyse_with(&game, &start, 0, &mut Clock::unlimited(), &*guidance);
    assert_eq!(plain.value, Some(0));
    // Won if the model holds: the best value a search that pruned the opponent's moves gives
    // (only a win against every reply is proven, 100).
    assert_eq!(guided.value, Some(99));
    assert!(!guided.solved);
    // The whole tree, searched to its end, is smaller with the opponent's moves pruned.
    // (Iterative deepening may spend more: it stops at a proven win or loss, which a win that
    // holds only if the model does is not.)
    let whole = SearchPlayer::alpha_beta();
    let plain = whole.analyse(&game, &start, 0, &mut Clock::unlimited());
    let guided = whole.analyse_with(&game, &start, 0, &mut Clock::unlimited(), &*guidance);
    assert_eq!((plain.value, guided.value), (Some(0), Some(99)));
    assert!(
        guided.nodes < plain.nodes,
        "guided {} states, plain {}",
        guided.nodes,
        plain.nodes
    );
    // At every node of the second player with a choice, one move was kept.
    let counts = guidance.counts();
    assert!(
        counts.nodes > 0 && counts.kept == counts.nodes,
        "{counts:?}"
    );
    assert!(counts.legal > counts.kept, "{counts:?}");

    // In a match against the legal player it plays only legal moves and wins.
    let mut players: Vec<Box<dyn Player<Nim>>> = vec![
        Box::new(ModelledSearchPlayer::new(guidance)),
        player_by_name("legal", 0).expect("a player"),
    ];
    let result = play_match(&game, &mut players, &MatchSettings::default());
    assert_eq!(result.end, MatchEnd::Terminal);
    assert_eq!(result.goals, Some(vec![100, 0]));
}

#[test]
fn the_comparison_plays_every_match_with_legal_moves_and_counts_it_once() {
    let game = Nim::new(9);
    let settings = DuelSettings {
        opponent: SimulationSettings::new("legal", 0),
        training_matches: 10,
        features: FeatureSet::StateAndLegal,
        select: None,
        confidence: 0.9,
        search_budget: MoveBudget::nodes(50),
        matches: 6,
        opening_plies: 2,
        searcher: Searcher::AlphaBeta,
    };
    let report = compare_search_with_model(&game, &settings).expect("runs");
    assert_eq!(report.seats, [0, 1]);
    // The legal player chose in every state of both seats in training: some decisions each.
    assert!(report.training_decisions.iter().all(|&count| count > 0));
    for tally in [&report.with_model, &report.without_model] {
        assert_eq!(
            tally.wins + tally.draws + tally.losses + tally.unfinished,
            6,
            "{tally:?}"
        );
        // Nim has no draw.
        assert_eq!(tally.draws, 0, "{tally:?}");
        assert!(tally.nodes <= 50 * tally.searched_moves, "{tally:?}");
    }
    assert!(report.pruning.nodes > 0);
}

/// A prior that favours one move of every role with a choice.
struct Favourite(usize);

impl crate::players::MovePrior<Nim> for Favourite {
    fn prior(&self, _: &Nim, _: &Pile, _: RoleIndex, moves: &[Take]) -> Option<Vec<(usize, f64)>> {
        let favourite = self.0.min(moves.len() - 1);
        Some(
            (0..moves.len())
                .map(|index| (index, if index == favourite { 0.7 } else { 0.3 / 2.0 }))
                .collect(),
        )
    }
}

/// MCTS with a prior tries the most probable untried move first: after one iteration the only
/// move visited, and so the one chosen, is the favourite, wherever it stands among the legal
/// moves (plain MCTS would pick an untried move at random).
#[test]
fn mcts_with_a_prior_tries_the_most_probable_move_first() {
    let game = Nim::new(9);
    let state = game.initial_state();
    let legal = game.legal_moves(&state, 0);
    assert_eq!(legal.len(), 3);
    for (favourite, expected) in legal.iter().enumerate() {
        for seed in 0..5 {
            let mut mcts = crate::players::Mcts::new(seed);
            let mut clock = Clock::start(&MoveBudget::nodes(1));
            let chosen = mcts.choose_move_with(&game, &state, 0, &mut clock, &Favourite(favourite));
            assert_eq!(
                chosen.as_ref(),
                Some(expected),
                "favourite {favourite}, seed {seed}"
            );
        }
    }
}

/// The model's prior is its posterior over the legal moves, in the order of the moves given.
#[test]
fn the_model_prior_follows_the_moves_order() {
    let game = Nim::new(9);
    let state = game.initial_state();
    let legal = game.legal_moves(&state, 0);
    let names: Vec<String> = legal.iter().map(|m| game.move_text(&state, 0, m)).collect();
    // Trained to take the last legal move.
    let rows: Vec<(Vec<String>, String)> = (0..5)
        .map(|_| (game.atoms(&state), names[2].clone()))
        .chain(std::iter::once((game.atoms(&state), names[0].clone())))
        .collect();
    let model = PlayerModel {
        features: FeatureSet::State,
        model: MoveModel::train(&rows, None),
    };
    let guidance = ModelGuidance::new(vec![Some(model), None], 1.0);
    let prior = crate::players::MovePrior::prior(&guidance, &game, &state, 0, &legal).unwrap();
    // At confidence 1 every move is kept, most probable first, the probabilities adding to 1.
    let order: Vec<usize> = prior.iter().map(|&(index, _)| index).collect();
    assert_eq!(order, [2, 0, 1], "{prior:?}");
    assert!(
        prior[0].1 > prior[1].1 && prior[1].1 > prior[2].1,
        "{prior:?}"
    );
    let total: f64 = prior.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9, "{prior:?}");
    assert!(crate::players::MovePrior::prior(&guidance, &game, &state, 1, &legal).is_none());
}

/// The pruning rule on hand-made rankings: the fewest moves whose probabilities reach p,
/// never none of a non-empty list, all of them at p = 1.
#[test]
fn pruning_keeps_the_smallest_prefix_reaching_the_confidence_and_never_drops_all_moves() {
    let ranked = [0.5, 0.25, 0.15, 0.1];
    let cases = [
        (0.0, 1),
        (0.4, 1),
        (0.5, 1),
        (0.6, 2),
        (0.75, 2),
        (0.76, 3),
        (0.9, 3),
        (0.95, 4),
        (1.0, 4),
    ];
    for (confidence, expected) in cases {
        assert_eq!(
            moves_to_keep(&ranked, confidence),
            expected,
            "p = {confidence}"
        );
    }
    // Posteriors too small to reach p (a model that saw none of these moves) keep all of them,
    // never more than there are.
    assert_eq!(moves_to_keep(&[1e-12, 1e-12], 0.95), 2);
    assert_eq!(moves_to_keep(&[0.0, 0.0, 0.0], 0.5), 3);
    assert_eq!(moves_to_keep(&[1e-12], 0.99), 1);
    assert_eq!(moves_to_keep(&[], 0.5), 0);
}

/// A prior that keeps one move of every role with a choice.
struct Only(usize);

impl crate::players::MovePrior<Nim> for Only {
    fn prior(&self, _: &Nim, _: &Pile, _: RoleIndex, moves: &[Take]) -> Option<Vec<(usize, f64)>> {
        Some(vec![(self.0.min(moves.len() - 1), 1.0)])
    }
}

/// MCTS never tries a move its prior prunes: from 5 stones taking 1 wins (4 is lost for the
/// mover), and plain MCTS finds it; kept to `take 3` alone, MCTS plays it whatever it costs.
#[test]
fn mcts_never_tries_a_move_its_prior_prunes() {
    let game = Nim::new(5);
    let state = game.initial_state();
    for seed in 0..3 {
        let budget = MoveBudget::nodes(300);
        let plain = crate::players::Mcts::new(seed).choose_move(
            &game,
            &state,
            0,
            &mut Clock::start(&budget),
        );
        assert_eq!(plain, Some(Take::Stones(1)), "seed {seed}");
        let pruned = crate::players::Mcts::new(seed).choose_move_with(
            &game,
            &state,
            0,
            &mut Clock::start(&budget),
            &Only(2),
        );
        assert_eq!(pruned, Some(Take::Stones(3)), "seed {seed}");
    }
}

/// Seen through [`GuidanceFor`], a guidance never prunes the searcher's own moves, even when
/// its role is modelled too (the duel models both seats), and prunes the other role's.
#[test]
fn the_searchers_own_moves_are_never_pruned() {
    let model = MoveModel::train(
        &rows(&[("take 1", 6), ("take 2", 3), ("take 3", 1)]),
        Some(0),
    );
    let player = PlayerModel {
        features: FeatureSet::State,
        model,
    };
    let guidance = ModelGuidance::new(vec![Some(player.clone()), Some(player)], 0.5);
    let legal = [Take::Stones(1), Take::Stones(2), Take::Stones(3)];
    let state = Pile {
        stones: 7,
        mover: 0,
    };
    for searcher in [0, 1] {
        let view = GuidanceFor {
            guidance: &guidance,
            searcher,
            evaluator: &crate::probe::NoAdvice,
        };
        for role in [0, 1] {
            let mut moves = legal.to_vec();
            Heuristic::<Nim>::select(&view, &Nim::new(7), &state, role, &mut moves);
            let expected: &[Take] = if role == searcher {
                &legal
            } else {
                &[Take::Stones(1)]
            };
            assert_eq!(moves, expected, "searcher {searcher}, role {role}");
            let prior =
                crate::players::MovePrior::<Nim>::prior(&view, &Nim::new(7), &state, role, &legal);
            assert_eq!(prior.is_none(), role == searcher, "{prior:?}");
        }
    }
}

/// With a model, an EGGG search still values the states it cuts off with the game's static
/// evaluator (the model only chooses which of the modelled role's moves are searched): in
/// EGGG tic-tac-toe with X in the centre and O in a corner, X's position is worth 54 (the
/// evaluator's own test works the figure out), not the even 50 of a search without one.
#[test]
fn an_egg_search_with_a_model_values_cut_off_states_with_the_egg_evaluator() {
    use crate::egg::heuristics::EggEvaluator;
    use crate::egg::{Board, Description, EggEngine, EggMove, Goal, LineGoal, Moves, Scoring};
    let game = EggEngine::new(Description {
        roles: vec!["x".into(), "o".into()],
        pieces: vec!["X".into(), "O".into()],
        board: Board::rectangle(3, 3),
        turns: crate::egg::Turns::Alternate { order: vec![0, 1] },
        moves: Moves::Place {
            piece_of_role: vec![0, 1],
        },
        goal: Goal::Lines(vec![LineGoal {
            length: 3,
            axes: vec![(1, 0), (0, 1), (1, 1), (1, -1)],
        }]),
        scoring: Scoring::FirstGoalWins,
    })
    .expect("playable");
    let state = game.initial_state();
    let state = game.next_state(&state, &[EggMove::Place(4), EggMove::Pass]);
    let state = game.next_state(&state, &[EggMove::Pass, EggMove::Place(0)]);
    let evaluator = EggEvaluator::new(&game);
    // O is modelled as always playing one move: its replies are pruned to one.
    let guidance = ModelGuidance::new(
        vec![
            None,
            Some(PlayerModel {
                features: FeatureSet::State,
                model: MoveModel::train(&rows(&[("(place O 1)", 9), ("(place O 2)", 1)]), Some(0)),
            }),
        ],
        0.5,
    );
    let view = GuidanceFor {
        guidance: &guidance,
        searcher: 0,
        evaluator: &evaluator,
    };
    assert_eq!(Heuristic::<EggEngine>::value(&view, &game, &state, 0), 54);
    assert_eq!(Heuristic::<EggEngine>::value(&view, &game, &state, 1), 46);
    // One ply deep every state is cut off: the guided search finds what the EGGG search does.
    let search = SearchPlayer::alpha_beta().with_depth_limit(1);
    let evaluated = search.analyse_with(&game, &state, 0, &mut Clock::unlimited(), &evaluator);
    let guided = search.analyse_with(&game, &state, 0, &mut Clock::unlimited(), &view);
    assert_eq!(guided.value, evaluated.value);
    assert_eq!(guided.best_move, evaluated.best_move);
    assert!(guided.value.is_some_and(|value| value > 54), "{guided:?}");
}

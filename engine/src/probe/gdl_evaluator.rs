//! A generic evaluator for GDL games, so that their probe has lead histories: GDL says nothing
//! about a position but its rules, so the evaluator reads three features any game has, each a
//! lead of the role over its strongest rival in −1..1, and averages the ones a state offers:
//!
//! - **goal**: the role's goal value in the state minus its rival's, over 100. Many games
//!   define goals before the end (a piece count, a score), the "goal proximity" feature of
//!   general game players; a game whose goals are all 0 before the end offers nothing here.
//! - **fluent count**: the true fluents (of two or more arguments, so that a turn marker such
//!   as `(control white)` is no piece) naming the role — an argument that is the role's name or
//!   starts with it (`(cellHolds 1 1 white)`, `(location 1 1 blackPawn)`) — against its rival's:
//!   `(own − rival) / (own + rival)`, a material count. Absent when no fluent names a role
//!   (tic-tac-toe marks its cells `x`, its roles are `xplayer`).
//! - **mobility**: the role's legal moves against its rival's, `(own − rival) / (own + rival)`,
//!   only where two or more roles have a choice (simultaneous moves). In a turn-taking game the
//!   waiting role's one no-op says nothing of its mobility, and a one-sided count would swing
//!   the lead with every turn.
//!
//! The value is `50 + 50 × mean`, 50 when the state offers no feature. A game of one role has no
//! rival to lead: its value is the goal value of the state.

use crate::gdl::program::Ground;
use crate::gdl::{Reasoner, ReasonerState};
use crate::players::Heuristic;
use crate::probe::criteria::mine_and_strongest_other;
use crate::{Game, Reward, RoleIndex};

/// The features of one state, each per role.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GdlFeatures {
    /// Goal values, 0..100.
    pub goals: Vec<f64>,
    /// True fluents naming each role.
    pub fluents: Vec<usize>,
    /// Legal moves per role.
    pub moves: Vec<usize>,
}

/// `(own − rival) / (own + rival)` against the strongest rival; `None` when both are 0.
fn share_lead(values: &[f64], role: RoleIndex) -> Option<f64> {
    let (own, rival) = mine_and_strongest_other(values, role);
    (own + rival > 0.0).then(|| (own - rival) / (own + rival))
}

impl GdlFeatures {
    /// The role's value, 0..100, as the module says.
    pub fn value(&self, role: RoleIndex) -> Reward {
        if self.goals.len() < 2 {
            // Alone, a role leads nobody: its goal value is its estimate.
            return self
                .goals
                .first()
                .map_or(50, |&goal| goal.round() as Reward);
        }
        let mut leads = Vec::with_capacity(3);
        let (own, rival) = mine_and_strongest_other(&self.goals, role);
        if own > 0.0 || rival > 0.0 {
            leads.push((own - rival) / 100.0);
        }
        let fluents: Vec<f64> = self.fluents.iter().map(|&n| n as f64).collect();
        leads.extend(share_lead(&fluents, role));
        if self.moves.iter().filter(|&&n| n > 1).count() >= 2 {
            let moves: Vec<f64> = self.moves.iter().map(|&n| n as f64).collect();
            leads.extend(share_lead(&moves, role));
        }
        if leads.is_empty() {
            return 50;
        }
        let mean = leads.iter().sum::<f64>() / leads.len() as f64;
        (50.0 + 50.0 * mean).round().clamp(0.0, 100.0) as Reward
    }
}

/// The generic GDL evaluator (see the module).
#[derive(Clone, Debug)]
pub struct GdlEvaluator {
    /// The role names, lower-cased, in role order.
    roles: Vec<String>,
}

impl GdlEvaluator {
    pub fn new(reasoner: &Reasoner) -> GdlEvaluator {
        GdlEvaluator {
            roles: reasoner.roles().iter().map(|r| r.to_lowercase()).collect(),
        }
    }

    /// The role a constant names: its name, or a name starting with it (`blackPawn`).
    fn role_named(&self, name: &str) -> Option<RoleIndex> {
        let name = name.to_lowercase();
        self.roles
            .iter()
            .position(|role| name.starts_with(role.as_str()))
    }

    /// Per role, the fluents (of two or more arguments) with an argument naming it.
    pub fn fluent_counts(&self, reasoner: &Reasoner, fluents: &[Ground]) -> Vec<usize> {
        let symbols = &reasoner.program().symbols;
        let mut counts = vec![0; self.roles.len()];
        for fluent in fluents {
            // `(true (cell 1 1 x))` is stored as the fluent `(cell 1 1 x)`.
            let (_, args) = fluent.parts();
            if args.len() < 2 {
                continue;
            }
            let mut named = vec![false; counts.len()];
            for arg in args {
                if let Ground::Const(sym) = arg
                    && let Some(role) = self.role_named(symbols.name(*sym))
                {
                    named[role] = true;
                }
            }
            for (count, named) in counts.iter_mut().zip(named) {
                *count += usize::from(named);
            }
        }
        counts
    }

    /// The features of `state`.
    pub fn features(&self, reasoner: &Reasoner, state: &ReasonerState) -> GdlFeatures {
        let roles = self.roles.len();
        GdlFeatures {
            goals: reasoner.goals(state).into_iter().map(f64::from).collect(),
            fluents: reasoner
                .fluents(state)
                .map_or_else(|| vec![0; roles], |f| self.fluent_counts(reasoner, &f)),
            moves: (0..roles)
                .map(|role| reasoner.legal_moves(state, role).len())
                .collect(),
        }
    }
}

impl Heuristic<Reasoner> for GdlEvaluator {
    fn value(&self, game: &Reasoner, state: &ReasonerState, role: RoleIndex) -> Reward {
        self.features(game, state).value(role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(goals: [f64; 2], fluents: [usize; 2], moves: [usize; 2]) -> GdlFeatures {
        GdlFeatures {
            goals: goals.to_vec(),
            fluents: fluents.to_vec(),
            moves: moves.to_vec(),
        }
    }

    #[test]
    fn no_feature_is_even() {
        // Goals all 0, no fluent names a role, one role to move: nothing to read.
        let f = features([0.0, 0.0], [0, 0], [9, 1]);
        assert_eq!((f.value(0), f.value(1)), (50, 50));
    }

    #[test]
    fn material_alone() {
        // 12 pieces against 8: (12 − 8) / 20 = 0.2, so 50 + 10 = 60 and 50 − 10 = 40. Turn-
        // taking (8 moves against a no-op): mobility is not read.
        let f = features([0.0, 0.0], [12, 8], [8, 1]);
        assert_eq!((f.value(0), f.value(1)), (60, 40));
    }

    #[test]
    fn goal_material_and_mobility_are_averaged() {
        // Goal 60 against 40: 0.2. Fluents 3 against 1: 0.5. Moves 2 against 6 (both choose):
        // −0.5. Mean 0.2 / 3 = 0.0667: 50 + 3.33 = 53; the rival: mean −0.0667, 46.67 → 47.
        let f = features([60.0, 40.0], [3, 1], [2, 6]);
        assert_eq!((f.value(0), f.value(1)), (53, 47));
    }

    #[test]
    fn one_role_is_valued_by_its_goal() {
        let f = GdlFeatures {
            goals: vec![25.0],
            fluents: vec![7],
            moves: vec![4],
        };
        assert_eq!(f.value(0), 25);
    }

    #[test]
    fn three_roles_against_the_strongest_rival() {
        // Goals 10, 30, 20: role 0 against 30 gives −0.2 → 40; role 1 against 20: 0.1 → 55.
        let f = GdlFeatures {
            goals: vec![10.0, 30.0, 20.0],
            fluents: vec![0; 3],
            moves: vec![1; 3],
        };
        assert_eq!((f.value(0), f.value(1), f.value(2)), (40, 55, 45));
    }
}

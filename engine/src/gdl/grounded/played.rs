//! The rules a grounded game needs: those play reads.
//!
//! A relation that neither `legal`, `next`, `terminal`, `sees`, `init` nor `goal` depends on
//! cannot change the game, and grounding it can only fail: a helper the author left unused may
//! be as large as any. Without its goal ([`GoalRules::Left`]), the relations only the goal reads
//! are left out too: sudoku's `exactlyFirst` has 9 × 8⁸ tuples and is read only to judge the
//! final grid, which the interpreter answers from one state in under a millisecond.

use super::super::program::{CompiledRule, Program, RelKey};

/// Whether the goal's rules are grounded with the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GoalRules {
    Grounded,
    /// Left to the interpreter.
    Left,
}

/// The rules of the relations play depends on, in the program's order.
pub(super) fn played_rules(program: &Program, goal: GoalRules) -> Vec<CompiledRule> {
    let mut keep = vec![false; program.rules.len()];
    for stratum in program.strata_for(&played_relations(program, goal)) {
        for &rule in &program.strata[stratum].rules {
            keep[rule] = true;
        }
    }
    program
        .rules
        .iter()
        .zip(keep)
        .filter(|(_, keep)| *keep)
        .map(|(rule, _)| rule.clone())
        .collect()
}

/// The relations only the goal depends on, the goal's own left aside: empty when leaving the
/// goal to the interpreter would ground nothing less.
pub(super) fn relations_only_the_goal_reads(program: &Program) -> Vec<RelKey> {
    let without_goal = program.strata_for(&played_relations(program, GoalRules::Left));
    let goal = program.keywords.goal;
    let mut only_goal: Vec<RelKey> = program
        .strata_for(&program.keys_named(goal))
        .into_iter()
        .filter(|stratum| !without_goal.contains(stratum))
        .flat_map(|stratum| program.strata[stratum].relations.iter().copied())
        .filter(|&(name, _)| name != goal)
        .collect();
    only_goal.sort_unstable();
    only_goal
}

/// The keyword relations (with `role`, which the circuit names moves by), the goal's unless
/// it is left out.
fn played_relations(program: &Program, goal: GoalRules) -> Vec<RelKey> {
    let left_out = match goal {
        GoalRules::Grounded => None,
        GoalRules::Left => Some(program.keywords.goal),
    };
    program
        .keywords
        .relations()
        .into_iter()
        .filter(|&name| Some(name) != left_out)
        .flat_map(|name| program.keys_named(name))
        .collect()
}

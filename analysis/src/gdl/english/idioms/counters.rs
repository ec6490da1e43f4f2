//! Step counters as move limits. A one-argument fluent that starts at one value and, on every
//! move, takes the next value of a successor chain (`(<= (next (step ?y)) (true (step ?x))
//! (succ ?x ?y))`) counts the moves: a test of it for a value of the chain says how many moves
//! have been played, so `(<= terminal (true (step 10)))` with `(init (step 1))` reads "the game
//! ends after 9 moves".
//!
//! Recognised from the rules' structure only: one `init` fact, one `next` rule whose body is
//! exactly the fluent's current value and the chain, and a chain of static pairs. A counter
//! that moves only under some condition is not a move count, and is left to the literal level.

use std::collections::HashMap;

use crate::TextRange;
use crate::gdl::keywords;
use crate::gdl::model::{Compound, Literal, Rule, Term};
use crate::rulebook::Line;

use super::super::terms::join_list;
use super::{Game, Said, fluent_of, is_true_sentence, keyword};

/// A fluent counting the moves.
#[derive(Clone, Debug)]
pub(super) struct Counter {
    pub(super) fluent: String,
    /// The values it takes, in order, from the one it starts at to the end of the chain.
    values: Vec<String>,
    /// Its `init` fact and its `next` rule.
    ranges: Vec<TextRange>,
}

/// What one step of the game is: a move of the only player, a move of the player whose turn
/// it is, or a round in which every player moves at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Move,
    Round,
}

impl Step {
    fn noun(self) -> &'static str {
        match self {
            Step::Move => "move",
            Step::Round => "round",
        }
    }

    /// "1 move", "9 moves".
    fn count(self, n: usize) -> String {
        let plural = if n == 1 { "" } else { "s" };
        format!("{n} {}{plural}", self.noun())
    }
}

impl Game<'_> {
    /// The fluents that count the moves (see the module's documentation).
    pub(super) fn find_counters(&self) -> Vec<Counter> {
        // The one-argument `init` facts and `next` rules of each fluent, counted once: a game
        // may have tens of thousands of `init` facts, and asking of each how many others share
        // its fluent took minutes.
        let mut inits: HashMap<&str, usize> = HashMap::new();
        for init in self.rules_of(keywords::INIT) {
            if let Some(fluent) = fluent_of(&init.head).filter(|f| f.arity() == 1) {
                *inits.entry(&*fluent.name.name).or_default() += 1;
            }
        }
        let mut nexts: HashMap<&str, Vec<&Rule>> = HashMap::new();
        for next in self.rules_of(keywords::NEXT) {
            if let Some(fluent) = fluent_of(&next.head).filter(|f| f.arity() == 1) {
                nexts.entry(&*fluent.name.name).or_default().push(next);
            }
        }
        let mut counters = Vec::new();
        for init in self.rules_of(keywords::INIT) {
            let Some(fluent) = fluent_of(&init.head) else {
                continue;
            };
            let [Term::Constant(start)] = fluent.args.as_slice() else {
                continue;
            };
            let name = &*fluent.name.name;
            let is_turn = self.turns.as_ref().is_some_and(|t| *t.fluent == *name);
            let inits = inits.get(name).copied().unwrap_or(0);
            let nexts = nexts.get(name).map_or(&[][..], Vec::as_slice);
            let ([next], 1, false) = (nexts, inits, is_turn) else {
                continue;
            };
            let Some(chain) = self.counting_step(next) else {
                continue;
            };
            if counters.iter().any(|c: &Counter| c.fluent == name) {
                continue;
            }
            counters.push(Counter {
                fluent: name.to_owned(),
                values: self.chain_from(&chain, &start.name),
                ranges: vec![init.range, next.range],
            });
        }
        counters
    }

    /// The chain relation of a rule `(next (F ?y)) :- (true (F ?x)), (S ?x ?y)`, when `S` is
    /// a successor chain and the body has nothing else.
    fn counting_step(&self, rule: &Rule) -> Option<String> {
        let head = fluent_of(&rule.head)?;
        let [Term::Variable(after)] = head.args.as_slice() else {
            return None;
        };
        let [first, second] = rule.body.as_slice() else {
            return None;
        };
        let (current, step) = match (is_true_sentence(first), is_true_sentence(second)) {
            (Some(current), None) => (current, second),
            (None, Some(current)) => (current, first),
            _ => return None,
        };
        let [Term::Variable(before)] = current.args.as_slice() else {
            return None;
        };
        if current.name.name != head.name.name {
            return None;
        }
        let Literal::Sentence(step) = step else {
            return None;
        };
        let relation = &*step.name.name;
        match step.args.as_slice() {
            [Term::Variable(a), Term::Variable(b)]
                if a.name == before.name && b.name == after.name && self.is_chain(relation) =>
            {
                Some(relation.to_owned())
            }
            _ => None,
        }
    }

    /// The values of chain `relation` from `start` on, `start` first.
    fn chain_from(&self, relation: &str, start: &str) -> Vec<String> {
        let pairs = self.statics.get(relation).map(Vec::as_slice).unwrap_or(&[]);
        let mut values = vec![start.to_owned()];
        while let Some(next) = pairs.iter().find_map(|pair| match pair.as_slice() {
            [from, to] if Some(from) == values.last() => Some(to.clone()),
            _ => None,
        }) {
            // A chain has no cycle ([`Game::is_chain`]); the bound is a second guard.
            if values.contains(&next) || values.len() > pairs.len() {
                break;
            }
            values.push(next);
        }
        values
    }

    fn step(&self) -> Step {
        if self.roles.len() == 1 || self.turns.is_some() {
            Step::Move
        } else {
            Step::Round
        }
    }

    /// The counter a fluent test reads, and how many moves its value stands for:
    /// `(true (step 10))` → 9.
    fn counted(&self, fluent: &Compound) -> Option<usize> {
        let [Term::Constant(value)] = fluent.args.as_slice() else {
            return None;
        };
        let counter = self
            .counters
            .iter()
            .find(|c| *c.fluent == *fluent.name.name)?;
        counter.values.iter().position(|v| **v == *value.name)
    }

    /// A test of a counter said as moves played: "9 moves have been played".
    pub(super) fn say_counter(&self, fluent: &Compound) -> Option<Said> {
        let played = self.counted(fluent)?;
        let step = self.step();
        let positive = match played {
            0 => format!("no {} has been played yet", step.noun()),
            1 => format!("{} has been played", step.count(1)),
            n => format!("{} have been played", step.count(n)),
        };
        Some(Said {
            positive,
            negative: Some(format!(
                "the number of {}s played is not {played}",
                step.noun()
            )),
        })
    }

    /// "after 9 moves": a rule whose only condition is a counter's value.
    pub(super) fn move_limit(&self, rule: &Rule) -> Option<String> {
        let [literal] = rule.body.as_slice() else {
            return None;
        };
        let played = self.counted(is_true_sentence(literal)?)?;
        Some(match played {
            0 => "before the first move".to_owned(),
            n => format!("after {}", self.step().count(n)),
        })
    }

    /// Whether `rule` is an `init` fact of a counter (said by [`Game::counter_lines`]).
    pub(super) fn is_counter_init(&self, rule: &Rule) -> bool {
        keyword(&rule.head) == Some(keywords::INIT)
            && self
                .counters
                .iter()
                .any(|counter| counter.ranges.contains(&rule.range))
    }

    /// "step counts the moves: it starts at 1 and goes up one step along succ after every
    /// move."
    pub(super) fn counter_lines(&self) -> Vec<Line> {
        // A round names who moves in it, chance too, when they are few.
        let round = match self.roles.len() {
            0..=4 => format!(
                "after every round, in which {} move at once",
                join_list(&self.roles, "and")
            ),
            _ => "after every round, in which all players move at once".to_owned(),
        };
        let (what, when) = match (self.step(), self.roles.len()) {
            (Step::Move, 1) => ("the moves", "after every move"),
            (Step::Move, 2) => (
                "the moves (both players' moves together)",
                "after every move",
            ),
            (Step::Move, _) => (
                "the moves (all players' moves together)",
                "after every move",
            ),
            (Step::Round, _) => ("the rounds", round.as_str()),
        };
        self.counters
            .iter()
            .map(|counter| {
                let values = &counter.values;
                let numbers: Option<Vec<i64>> = values.iter().map(|v| v.parse().ok()).collect();
                let by_one = numbers.is_some_and(|numbers| {
                    numbers
                        .windows(2)
                        .all(|pair| pair[0].checked_add(1) == Some(pair[1]))
                });
                let step = if by_one {
                    "goes up by one"
                } else {
                    "takes the next value"
                };
                let last = values.last().filter(|_| values.len() > 1);
                let reach = last.map_or_else(String::new, |last| format!(", up to {last}"));
                Line::new(
                    format!(
                        "{} counts {what}: it starts at {} and {step} {when}{reach}",
                        counter.fluent, values[0]
                    ),
                    counter.ranges.clone(),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::book;

    const COUNTED: &str = "(role robot) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
         (init (step 1)) (init (gold c))
         (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
         (<= (legal robot grab) (true (gold c)))
         (<= terminal (true (step 5)))
         (<= terminal (true (gold a)))
         (<= (goal robot 100) (true (gold a)))
         (<= (goal robot 0) (true (step 4)) (true (gold c)))";

    #[test]
    fn a_counter_from_one_to_five_allows_four_moves() {
        let said = book(COUNTED);
        // Five values, 1 to 5: the end comes with the fifth, after four moves.
        assert!(
            said.contains("The game ends after 4 moves, or when gold is a."),
            "{said}"
        );
        assert!(
            said.contains(
                "step counts the moves: it starts at 1 and goes up by one after every move, up to 5."
            ),
            "{said}"
        );
        assert!(
            said.contains("robot loses (0) when 3 moves have been played and gold is c"),
            "{said}"
        );
        assert!(!said.contains("step is 5"), "{said}");
    }

    #[test]
    fn the_count_starts_where_init_puts_it() {
        // Starting at 3, the fifth value is two moves away.
        let said = book(&COUNTED.replace("(init (step 1))", "(init (step 3))"));
        assert!(said.contains("The game ends after 2 moves"), "{said}");
    }

    #[test]
    fn simultaneous_players_count_rounds() {
        let text = COUNTED.replace("(role robot)", "(role robot) (role rival)");
        let said = book(&text);
        assert!(said.contains("The game ends after 4 rounds"), "{said}");
        assert!(
            said.contains("in which robot and rival move at once"),
            "{said}"
        );
    }

    #[test]
    fn a_counter_that_moves_on_a_condition_or_off_the_chain_is_no_move_count() {
        // Counting only some moves: the value no longer says how many moves were played.
        let conditional = COUNTED.replace(
            "(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))",
            "(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y) (true (gold c)))",
        );
        let said = book(&conditional);
        assert!(!said.contains("after 4 moves"), "{said}");
        assert!(said.contains("step is 5"), "{said}");
        // A value the chain never reaches from the start is not a number of moves.
        let unreachable = COUNTED.replace("(true (step 5))", "(true (step 9))");
        let said = book(&unreachable);
        assert!(
            said.contains("The game ends when step is 9, or when gold is a."),
            "{said}"
        );
        // Two successor facts from one value: no chain, no count.
        let branching = COUNTED.replace("(succ 4 5)", "(succ 4 5) (succ 1 5)");
        assert!(!book(&branching).contains("after"), "{}", book(&branching));
    }
}

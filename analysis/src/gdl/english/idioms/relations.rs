//! The game's own relations said in a player's words, where their structure allows: a
//! relation whose first argument is always a player, and whose name (split into words) starts
//! like a predicate, says the player first. `(in_check ?player)` reads "Player is in check",
//! `(threatened_with_capture ?p ?x ?y)` "P is threatened with capture (X, Y)",
//! `(has_legal_move white)` "white has legal move"; negated, "is not", "does not have".
//!
//! A first argument is a player when every rule of the relation gives it a player: a `role`
//! constant, or a variable its body ranges over players (`role`, the player of `does`,
//! `legal` or `goal`, a static
//! relation whose values there are all players, a fluent or relation already known to hold a
//! player there); found to a fixed point. The predicate shapes are closed lists of English
//! words, never the game's names: a preposition ("in", "on"), a participle ("threatened",
//! "stuck"), or "has", "can", "is".

use std::collections::HashSet;

use crate::gdl::keywords;
use crate::gdl::model::{Compound, Literal, Term};
use crate::rulebook::words_of_code_name;

use super::super::terms;
use super::{Game, Said, fluent_of, keyword};

/// Words that start a predicate read "is …".
const PREPOSITIONS: [&str; 9] = [
    "in", "on", "at", "under", "within", "out", "off", "inside", "without",
];

/// Participles that do not end in "-ed".
const IRREGULAR_PARTICIPLES: [&str; 14] = [
    "stuck", "won", "lost", "taken", "caught", "beaten", "held", "done", "broken", "frozen",
    "chosen", "eaten", "given", "hit",
];

/// Where a player stands: the first argument of these relations, these places of fluents.
#[derive(Debug, Default)]
pub(super) struct PlayerPlaces {
    relations: HashSet<String>,
    /// (fluent, place).
    fluents: HashSet<(String, usize)>,
}

impl Game<'_> {
    /// The relations whose first argument is a player, and the fluent places that hold one.
    pub(super) fn find_player_places(&self) -> PlayerPlaces {
        let mut places = PlayerPlaces::default();
        // Fluent places from the initial state: every value a player.
        let mut init_values: Vec<((String, usize), Vec<String>)> = Vec::new();
        for rule in self.rules_of(keywords::INIT) {
            let Some(fluent) = fluent_of(&rule.head) else {
                continue;
            };
            for (place, arg) in fluent.args.iter().enumerate() {
                let key = (fluent.name.name.to_string(), place);
                let value = terms::term(arg);
                match init_values.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, values)) => values.push(value),
                    None => init_values.push((key, vec![value])),
                }
            }
        }
        // A fluent place holds a player when its initial values (if any) all are players and
        // every `next` rule for the fluent puts a player there.
        let init_all_players: Vec<((String, usize), bool)> = init_values
            .into_iter()
            .map(|(key, values)| {
                let all = values.iter().all(|v| self.roles.contains(v));
                (key, all)
            })
            .collect();
        // To a fixed point: a place or relation found lets more terms count as players, so the
        // sets only grow, and they are bounded by the game's relations and fluent places.
        loop {
            let before = places.relations.len() + places.fluents.len();
            let mut heads: Vec<(&str, bool)> = Vec::new();
            let mut fluent_places: Vec<((String, usize), bool)> = init_all_players.clone();
            for rule in self.rules {
                if keyword(&rule.head) == Some(keywords::NEXT) {
                    let Some(fluent) = fluent_of(&rule.head) else {
                        continue;
                    };
                    for (place, arg) in fluent.args.iter().enumerate() {
                        let key = (fluent.name.name.to_string(), place);
                        let is_player = self.is_player_term(arg, &rule.body, &places);
                        match fluent_places.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, all)) => *all &= is_player,
                            None => fluent_places.push((key, is_player)),
                        }
                    }
                    continue;
                }
                if keyword(&rule.head).is_some() {
                    continue;
                }
                let name = &*rule.head.name.name;
                let first = rule.head.args.first();
                let is_player = first.is_some_and(|f| self.is_player_term(f, &rule.body, &places));
                match heads.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, all)) => *all &= is_player,
                    None => heads.push((name, is_player)),
                }
            }
            for (key, all) in fluent_places {
                if all {
                    places.fluents.insert(key);
                }
            }
            for (name, all) in heads {
                if all && !self.statics.contains_key(name) {
                    places.relations.insert(name.to_owned());
                }
            }
            if places.relations.len() + places.fluents.len() == before {
                break;
            }
        }
        places
    }

    /// Whether `term` is a player in a rule with `body`.
    fn is_player_term(&self, term: &Term, body: &[Literal], places: &PlayerPlaces) -> bool {
        let name = match term {
            Term::Constant(c) => return self.roles.iter().any(|r| **r == *c.name),
            Term::Variable(v) => &v.name,
            Term::Function(_) => return false,
        };
        let at = |args: &[Term], place: usize| matches!(args.get(place), Some(Term::Variable(v)) if v.name == *name);
        body.iter().any(|literal| {
            let Literal::Sentence(sentence) = literal else {
                return false;
            };
            let args = sentence.args.as_slice();
            match keyword(sentence) {
                Some(keywords::ROLE | keywords::DOES | keywords::LEGAL | keywords::GOAL) => {
                    at(args, 0)
                }
                Some(keywords::TRUE) => fluent_of(sentence).is_some_and(|fluent| {
                    (0..fluent.arity()).any(|place| {
                        at(&fluent.args, place)
                            && places
                                .fluents
                                .contains(&(fluent.name.name.to_string(), place))
                    })
                }),
                Some(_) => false,
                None => {
                    let relation = &*sentence.name.name;
                    if places.relations.contains(relation) && at(args, 0) {
                        return true;
                    }
                    // A static relation whose values at that place are all players.
                    self.statics.get(relation).is_some_and(|tuples| {
                        (0..args.len()).any(|place| {
                            at(args, place)
                                && tuples.iter().all(|tuple| {
                                    tuple.get(place).is_some_and(|v| self.roles.contains(v))
                                })
                        })
                    })
                }
            }
        })
    }

    /// `sentence` with its player first, when its relation allows (see the module's
    /// documentation): "Player is in check".
    pub(super) fn say_relation(&self, sentence: &Compound) -> Option<Said> {
        if keyword(sentence).is_some()
            || !self.player_places.relations.contains(&*sentence.name.name)
        {
            return None;
        }
        let (player, rest) = sentence.args.split_first()?;
        let words = words_of_code_name(&sentence.name.name).to_lowercase();
        let (first, tail) = words
            .split_once(' ')
            .map_or((words.as_str(), ""), |(first, tail)| (first, tail));
        let player = terms::term(player);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(" {}", terms::name_with("", rest).trim_start())
        };
        let with_tail = |verb: &str| {
            if tail.is_empty() {
                format!("{verb}{rest}")
            } else {
                format!("{verb} {tail}{rest}")
            }
        };
        let participle =
            (first.len() > 4 && first.ends_with("ed")) || IRREGULAR_PARTICIPLES.contains(&first);
        let (positive, negative) = match first {
            "has" => (with_tail("has"), with_tail("does not have")),
            "can" => (with_tail("can"), with_tail("cannot")),
            "is" => (with_tail("is"), with_tail("is not")),
            _ if PREPOSITIONS.contains(&first) || participle => {
                (format!("is {words}{rest}"), format!("is not {words}{rest}"))
            }
            _ => return None,
        };
        Some(Said {
            positive: format!("{player} {positive}"),
            negative: Some(format!("{player} {negative}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::book;

    const CHECKS: &str = "(role white) (role black) (opponent white black) (opponent black white)
         (init (control white))
         (<= (next (threat ?p)) (role ?p) (true (control ?p)))
         (<= (in_check ?p) (true (threat ?p)))
         (<= (threatened_with_capture ?owner ?x) (opponent ?owner ?o) (true (spot ?o ?x)))
         (<= (has_legal_move ?p) (legal ?p (go ?x)))
         (<= (legal ?p (go ?x)) (true (control ?p)) (true (spot ?p ?x))
             (not (in_check ?p)) (not (threatened_with_capture ?p ?x)))
         (<= (legal ?p noop) (role ?p) (not (has_legal_move ?p)))
         (<= (line ?p) (true (spot ?p 1)))
         (<= terminal (line white))";

    #[test]
    fn a_relation_of_a_player_says_the_player_first() {
        let said = book(CHECKS);
        assert!(
            said.contains("P is not in check, P is not threatened with capture (X), control is P"),
            "{said}"
        );
        assert!(said.contains("P does not have legal move"), "{said}");
        // A noun is no predicate: line (white) stays as written.
        assert!(said.contains("line (white) holds"), "{said}");
    }

    #[test]
    fn a_first_argument_that_is_not_always_a_player_is_not_a_subject() {
        // One rule puts a number first: the relation is not about a player.
        let text = CHECKS.replace(
            "(<= (in_check ?p) (true (threat ?p)))",
            "(<= (in_check ?p) (true (threat ?p))) (<= (in_check 3) (true (threat white)))",
        );
        let said = book(&text);
        assert!(said.contains("in check (P) does not hold"), "{said}");
    }

    #[test]
    fn a_fluent_place_holds_a_player_only_when_every_source_puts_one_there() {
        // `threat` starts holding `nobody`: one `next` rule putting a player there does not make
        // the place a player's, so `in_check` (read from it) is not about a player.
        let text = CHECKS.replace(
            "(init (control white))",
            "(init (control white)) (init (threat nobody))",
        );
        let said = book(&text);
        assert!(said.contains("in check (P) does not hold"), "{said}");
        // The same with a second `next` rule that puts a number there.
        let text = CHECKS.replace(
            "(<= (in_check ?p) (true (threat ?p)))",
            "(<= (in_check ?p) (true (threat ?p))) (<= (next (threat 3)) (true (control black)))",
        );
        let said = book(&text);
        assert!(said.contains("in check (P) does not hold"), "{said}");
    }
}

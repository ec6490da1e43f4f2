//! Goal tables merged across symmetric players. When every player's goal rules are the first
//! player's with the players' names exchanged (red's "red wins when line (red)" is black's
//! "black wins when line (black)"; with two players, red's opponent black becomes black's
//! opponent red), the scores are said once, for "a player": "A player wins (100) when they
//! have four pieces in a line".
//!
//! The comparison is on the rules, renamed, never on the names: two tables that differ in
//! anything but the players (a row 8 against a row 1) are said player by player. When a
//! player's name stands where "they" does not read (an argument, `cell (X, Y) is red`), the
//! first player's scores are said with names, and the others as "the same, with the names
//! exchanged".

use std::collections::HashMap;

use crate::gdl::model::{Compound, Literal, Rule, Term};
use crate::rulebook::Line;

use super::super::terms::join_list;
use super::super::vocabulary::is_random_role;
use super::super::{literals, rules};
use super::{Game, Scored};

/// Players' goal tables that are one table up to the players' names.
pub(super) struct SymmetricGoals<'a> {
    /// The player whose rules are said.
    pub(super) first: String,
    pub(super) scores: Vec<Scored<'a>>,
    /// The other players, in the order of the `role` facts.
    others: Vec<String>,
}

/// Words that "a player", "they" and "their opponent" use: a player with one of these names
/// would be confused with them.
const GENERAL_WORDS: [&str; 5] = ["a", "player", "they", "their", "opponent"];

impl<'a> Game<'a> {
    /// The goal table when it is symmetric (see the module's documentation): at least two
    /// players, all with goal rules, each the first's under the exchange of names. `random`
    /// without goal rules is chance, not a player.
    pub(super) fn symmetric_goals(
        &self,
        table: &[(String, Vec<Scored<'a>>)],
    ) -> Option<SymmetricGoals<'a>> {
        let players: Vec<&String> = self
            .roles
            .iter()
            .filter(|role| !is_random_role(role) || table.iter().any(|(r, _)| r == *role))
            .collect();
        if players.len() < 2 || table.len() != players.len() {
            return None;
        }
        let (first, first_scores) = &table[0];
        for (other, other_scores) in &table[1..] {
            let mut names: HashMap<&str, &str> = HashMap::from([(first.as_str(), other.as_str())]);
            if players.len() == 2 {
                names.insert(other, first);
            }
            if self.canonical(first_scores, &names) != self.canonical(other_scores, &HashMap::new())
            {
                return None;
            }
        }
        Some(SymmetricGoals {
            first: first.clone(),
            scores: first_scores.clone(),
            others: table[1..].iter().map(|(role, _)| role.clone()).collect(),
        })
    }

    /// A table as sorted sentences of its rules, names exchanged by `names`, each rule's
    /// conditions sorted.
    fn canonical(&self, scores: &[Scored<'_>], names: &HashMap<&str, &str>) -> Vec<String> {
        let mut sentences: Vec<String> = scores
            .iter()
            .flat_map(|(_, rules)| rules.iter())
            .map(|rule| {
                // Conditions in any order: a conjunction is order-free.
                let mut rule = renamed_rule(rule, names);
                rule.body.sort_by_cached_key(|literal| {
                    literals::literal(literal, self.vocabulary).text()
                });
                rules::read(&rule, self.vocabulary).sentence()
            })
            .collect();
        sentences.sort();
        sentences
    }

    /// The scores said once: for "a player" when the names read as "they" and "their
    /// opponent", else for the first player, then that the others score the same way.
    pub(super) fn symmetric_scoring(&self, symmetric: &SymmetricGoals<'_>) -> Vec<Line> {
        self.general_scoring(symmetric)
            .unwrap_or_else(|| self.named_symmetric_scoring(symmetric))
    }

    /// The scores for "a player", when every sentence reads with "they".
    fn general_scoring(&self, symmetric: &SymmetricGoals<'_>) -> Option<Vec<Line>> {
        let highest = self.highest_score();
        let words = self.general_words(symmetric)?;
        let mut lines = Vec::new();
        for (score, rules) in &symmetric.scores {
            let verb = score_verb(score, highest);
            for line in self.alternative_lines(
                &format!("A player {verb}"),
                &format!("A player also {verb}"),
                rules,
                false,
            ) {
                lines.push(Line::new(words.say(&line.text)?, line.ranges));
            }
        }
        Some(lines)
    }

    fn named_symmetric_scoring(&self, symmetric: &SymmetricGoals<'_>) -> Vec<Line> {
        let highest = self.highest_score();
        let first = &symmetric.first;
        let mut lines = Vec::new();
        for (score, rules) in &symmetric.scores {
            let verb = score_verb(score, highest);
            lines.extend(self.alternative_lines(
                &format!("{first} {verb}"),
                &format!("{first} also {verb}"),
                rules,
                false,
            ));
        }
        let others = join_list(&symmetric.others, "and");
        let same = match symmetric.others.as_slice() {
            [other] => format!(
                "{other} scores in the same way, with {first} and {other} exchanged in these rules"
            ),
            _ => format!("{others} score in the same way, each in the place of {first}"),
        };
        lines.push(Line::new(same, Vec::new()));
        lines
    }

    /// The words for the first player and its opponent, when no player is named like them.
    fn general_words(&self, symmetric: &SymmetricGoals<'_>) -> Option<GeneralWords> {
        if self
            .roles
            .iter()
            .any(|role| GENERAL_WORDS.contains(&role.to_lowercase().as_str()))
        {
            return None;
        }
        Some(GeneralWords {
            me: symmetric.first.clone(),
            opponent: match symmetric.others.as_slice() {
                [only] => Some(only.clone()),
                _ => None,
            },
        })
    }

    /// "A player wins when they have four pieces in a line": the object of a symmetric game,
    /// when its scores read with "they".
    pub(super) fn symmetric_object(&self, symmetric: &SymmetricGoals<'_>) -> Option<Line> {
        let highest = self.highest_score()?.to_string();
        let (_, rules) = symmetric.scores.iter().find(|(s, _)| *s == highest)?;
        self.general_scoring(symmetric)?;
        let words = self.general_words(symmetric)?;
        let text = words.say(&format!(
            "A player wins {}",
            self.alternatives(rules, false)
        ))?;
        (text.split_whitespace().count() <= 40)
            .then(|| Line::new(text, rules.iter().map(|r| r.range).collect()))
    }
}

/// "wins (100)", "loses (0)", "scores 50".
pub(super) fn score_verb(score: &str, highest: Option<i64>) -> String {
    match score.parse::<i64>().ok() {
        Some(s) if Some(s) == highest => format!("wins ({score})"),
        Some(0) => "loses (0)".to_owned(),
        _ => format!("scores {score}"),
    }
}

/// The first player said as "they", its one opponent as "their opponent".
struct GeneralWords {
    me: String,
    opponent: Option<String>,
}

impl GeneralWords {
    /// `text` with the players' names as "they" and "their opponent", each name the subject of
    /// "has", "does" or "is" (conjugated for "they"); `None` when a name stands anywhere else.
    fn say(&self, text: &str) -> Option<String> {
        let words = split_words(text);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        while at < words.len() {
            let word = words[at];
            let me = word == self.me;
            let opponent = self.opponent.as_deref() == Some(word);
            if !me && !opponent {
                out.push_str(word);
                at += 1;
                continue;
            }
            let verb = words.get(at + 2).copied();
            let spaced = words.get(at + 1).copied() == Some(" ");
            let conjugated = match verb {
                Some("has") => "have",
                Some("does") => "do",
                Some("is") => "are",
                _ => return None,
            };
            if !spaced {
                return None;
            }
            if me {
                out.push_str("they ");
                out.push_str(conjugated);
            } else {
                out.push_str("their opponent ");
                out.push_str(verb.unwrap_or_default());
            }
            at += 3;
        }
        Some(match &self.opponent {
            Some(_) => neither_player(&out),
            None => out,
        })
    }
}

/// "they do not have X, their opponent does not have X" (or "… and …") → "neither player has
/// X".
fn neither_player(text: &str) -> String {
    const THEY: &str = "they do not have ";
    const OPPONENT: &str = "their opponent does not have ";
    let mut out = text.to_owned();
    let mut from = 0;
    while let Some(found) = out[from..].find(THEY) {
        let start = from + found;
        let after = start + THEY.len();
        let merged = out[after..].find(OPPONENT).and_then(|gap| {
            let between = &out[after..after + gap];
            let said = between
                .strip_suffix(", ")
                .or_else(|| between.strip_suffix(" and "))?;
            let end = after + gap + OPPONENT.len();
            out[end..]
                .starts_with(said)
                .then(|| (format!("neither player has {said}"), end + said.len()))
        });
        match merged {
            Some((said, end)) => {
                out.replace_range(start..end, &said);
                from = start + said.len();
            }
            None => from = after,
        }
    }
    out
}

/// The words of `text` and what lies between them, in order: "red has" → ["red", " ", "has"].
fn split_words(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut in_word = None;
    for (at, c) in text.char_indices() {
        let word_char = c.is_alphanumeric() || c == '_';
        if in_word != Some(word_char) {
            if at > start {
                parts.push(&text[start..at]);
            }
            start = at;
            in_word = Some(word_char);
        }
    }
    if start < text.len() {
        parts.push(&text[start..]);
    }
    parts
}

fn renamed_rule(rule: &Rule, names: &HashMap<&str, &str>) -> Rule {
    Rule {
        head: renamed_compound(&rule.head, names),
        body: rule
            .body
            .iter()
            .map(|literal| renamed_literal(literal, names))
            .collect(),
        ..rule.clone()
    }
}

fn renamed_compound(compound: &Compound, names: &HashMap<&str, &str>) -> Compound {
    Compound {
        args: compound
            .args
            .iter()
            .map(|arg| renamed_term(arg, names))
            .collect(),
        ..compound.clone()
    }
}

fn renamed_term(term: &Term, names: &HashMap<&str, &str>) -> Term {
    match term {
        Term::Constant(symbol) => match names.get(&*symbol.name) {
            Some(name) => Term::Constant(crate::gdl::model::Symbol {
                name: (*name).into(),
                range: symbol.range,
            }),
            None => term.clone(),
        },
        Term::Variable(_) => term.clone(),
        Term::Function(function) => Term::Function(renamed_compound(function, names)),
    }
}

fn renamed_literal(literal: &Literal, names: &HashMap<&str, &str>) -> Literal {
    match literal {
        Literal::Sentence(sentence) => Literal::Sentence(renamed_compound(sentence, names)),
        Literal::Not { inner, range } => Literal::Not {
            inner: Box::new(renamed_literal(inner, names)),
            range: *range,
        },
        Literal::Distinct { left, right, range } => Literal::Distinct {
            left: renamed_term(left, names),
            right: renamed_term(right, names),
            range: *range,
        },
        Literal::Or { disjuncts, range } => Literal::Or {
            disjuncts: disjuncts
                .iter()
                .map(|literal| renamed_literal(literal, names))
                .collect(),
            range: *range,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::book;
    use super::{neither_player, split_words};

    const LINES: &str = "(role red) (role black) (index 1) (index 2) (index 3)
         (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
         (<= (line ?p) (role ?p) (true (cell 1 ?y ?p)) (true (cell 2 ?y ?p)) (true (cell 3 ?y ?p)))
         (<= (goal red 100) (line red))
         (<= (goal red 0) (line black))
         (<= (goal black 100) (line black))
         (<= (goal black 0) (line red))
         (<= terminal (line red))";

    #[test]
    fn symmetric_goals_are_said_once_for_a_player() {
        let said = book(LINES);
        assert!(
            said.contains("A player wins (100) when they have three pieces in a line."),
            "{said}"
        );
        assert!(
            said.contains("A player loses (0) when their opponent has three pieces in a line."),
            "{said}"
        );
        assert!(!said.contains("black wins"), "{said}");
        assert!(
            said.contains("A player wins when they have three pieces in a line."),
            "{said}"
        );
    }

    #[test]
    fn goals_that_differ_beyond_the_names_are_said_per_player() {
        // Black needs a line of a different cell content: not the same rules.
        let text = LINES.replace(
            "(<= (goal black 100) (line black))",
            "(<= (goal black 100) (line b))",
        );
        let said = book(&text);
        assert!(!said.contains("A player"), "{said}");
        assert!(said.contains("red wins (100)"), "{said}");
        assert!(said.contains("black wins (100)"), "{said}");
        // A player with no goal rule at all: no symmetry either.
        let text = LINES.replace("(role black)", "(role black) (role green)");
        assert!(!book(&text).contains("A player"), "{}", book(&text));
    }

    #[test]
    fn a_name_where_they_does_not_read_keeps_the_names() {
        // "control is red" cannot become "control is they".
        let text = format!(
            "{LINES} (init (control red))
             (<= (goal red 50) (true (control red)))
             (<= (goal black 50) (true (control black)))"
        );
        let said = book(&text);
        assert!(said.contains("red scores 50 when control is red"), "{said}");
        assert!(
            said.contains(
                "black scores in the same way, with red and black exchanged in these rules."
            ),
            "{said}"
        );
        assert!(!said.contains("black scores 50"), "{said}");
    }

    #[test]
    fn neither_player_for_a_condition_on_both() {
        assert_eq!(
            neither_player(
                "A player scores 50 when they do not have a line, their opponent does not have a line and the board is full"
            ),
            "A player scores 50 when neither player has a line and the board is full"
        );
        // Different conditions stay apart.
        let apart = "when they do not have a line and their opponent does not have a ring";
        assert_eq!(neither_player(apart), apart);
    }

    #[test]
    fn words_and_what_lies_between() {
        assert_eq!(
            split_words("red has (X, Y)."),
            ["red", " ", "has", " (", "X", ", ", "Y", ")."]
        );
    }
}

//! Long rules said in sentences a player can follow. A rule whose conditions make one sentence
//! of more than [`LONGEST_SENTENCE`] words is said as its conclusion, then its conditions
//! grouped by what they are about (the board, the moves made, the rest of the state, the
//! game's fixed facts, the conditions it defines), as many conditions to a sentence as fit.
//! Only a single condition too long for a sentence of its own is counted instead of said ("1
//! condition on diff, said in full by `ludeme explain --literal`"), which stays true.

use crate::gdl::keywords;
use crate::gdl::model::{Literal, Rule, RuleSet};
use crate::rulebook::{LONGEST_SENTENCE, Line};

use super::super::sections;
use super::super::terms::join_list;
use super::super::{GameExplanation, Item, SectionKind};
use super::{Game, is_true_sentence, keyword, plain_names};

/// What a condition is about, in the order the groups are said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Subject {
    Board,
    Moves,
    State,
    Fixed,
    Defined,
}

impl Subject {
    fn label(self) -> &'static str {
        match self {
            Subject::Board => "On the board",
            Subject::Moves => "Moves made",
            Subject::State => "In the rest of the state",
            Subject::Fixed => "Fixed facts",
            Subject::Defined => "Conditions the game defines",
        }
    }
}

/// Words as the reader sees them (names written as code become several words).
pub(super) fn words(text: &str) -> usize {
    plain_names(text).split_whitespace().count()
}

/// Whether `text` fits in one sentence of a rulebook.
pub(super) fn fits(text: &str) -> bool {
    words(text) <= LONGEST_SENTENCE
}

/// The relation a condition tests (`threatened`, `cell`, `distinct`).
fn relation_name(literal: &Literal) -> String {
    match literal {
        Literal::Sentence(sentence) => match keyword(sentence) {
            Some(keywords::TRUE) | Some(keywords::DOES) => sentence
                .args
                .last()
                .and_then(|arg| match arg {
                    crate::gdl::model::Term::Function(f) => Some(f.name.name.to_string()),
                    crate::gdl::model::Term::Constant(c) => Some(c.name.to_string()),
                    crate::gdl::model::Term::Variable(_) => None,
                })
                .unwrap_or_else(|| sentence.name.name.to_string()),
            _ => sentence.name.name.to_string(),
        },
        Literal::Not { inner, .. } => relation_name(inner),
        Literal::Distinct { .. } => "distinct".to_owned(),
        Literal::Or { disjuncts, .. } => disjuncts
            .first()
            .map_or_else(|| "or".to_owned(), relation_name),
    }
}

/// "2 conditions on threatened and in check": what a sentence says of conditions too long to
/// be said.
fn counted(literals: &[Literal]) -> String {
    let mut names: Vec<String> = Vec::new();
    for literal in literals {
        let name = relation_name(literal);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let plural = if literals.len() == 1 { "" } else { "s" };
    format!(
        "{} condition{plural} on {}, said in full by `ludeme explain --literal`",
        literals.len(),
        join_list(&names, "and")
    )
}

impl Game<'_> {
    fn subject(&self, literal: &Literal) -> Subject {
        let inner = match literal {
            Literal::Not { inner, .. } => inner.as_ref(),
            other => other,
        };
        if self.is_static_test(inner) {
            Subject::Fixed
        } else if self.is_said_relation(inner) {
            Subject::Defined
        } else if self.board_test(inner).is_some() || self.say_literal(inner, false).is_some() {
            Subject::Board
        } else if matches!(inner, Literal::Sentence(s) if keyword(s) == Some(keywords::DOES)) {
            Subject::Moves
        } else if is_true_sentence(inner).is_some() {
            Subject::State
        } else {
            Subject::Defined
        }
    }

    /// `{lead} when {conditions}{tail}` as one sentence when it fits; otherwise the lead, then
    /// the conditions grouped by subject, a sentence per group. `tail` is " for some X" or
    /// empty.
    pub(super) fn rule_sentences(&self, lead: &str, body: &[Literal], tail: &str) -> String {
        let whole = format!("{lead} when {}{tail}", self.conditions(body));
        if fits(&whole) {
            return whole;
        }
        let mut groups: Vec<(Subject, Vec<Literal>)> = Vec::new();
        for literal in body {
            let subject = self.subject(literal);
            match groups.iter_mut().find(|(s, _)| *s == subject) {
                Some((_, literals)) => literals.push(literal.clone()),
                None => groups.push((subject, vec![literal.clone()])),
            }
        }
        groups.sort_by_key(|(subject, _)| *subject);
        let mut out = format!("{lead} when all of the following hold{tail}.");
        for (subject, literals) in &groups {
            for sentence in self.group_sentences(*subject, literals) {
                out.push(' ');
                out.push_str(&sentence);
            }
        }
        out
    }

    /// One group of conditions as sentences, each led by the group's label: as many
    /// conditions in each as fit; a condition too long for a sentence of its own is counted,
    /// not said.
    fn group_sentences(&self, subject: Subject, literals: &[Literal]) -> Vec<String> {
        let label = subject.label();
        let continued = format!("Also {}{}", label[..1].to_lowercase(), &label[1..]);
        let mut out: Vec<String> = Vec::new();
        let mut start = 0;
        while start < literals.len() {
            let lead = if out.is_empty() { label } else { &continued };
            let sentence = |said: String| format!("{lead}: {said}.");
            let mut end = start + 1;
            while end < literals.len() && fits(&sentence(self.conditions(&literals[start..=end]))) {
                end += 1;
            }
            let text = sentence(self.conditions(&literals[start..end]));
            out.push(if fits(&text) {
                text
            } else {
                sentence(counted(&literals[start..end]))
            });
            start = end;
        }
        out
    }

    /// The sentences of a literal section's item, each short enough: an item over many rules
    /// that is too long is said again over halves of its rules, recursively; a single rule too
    /// long is said by [`Game::rule_sentences`].
    pub(super) fn literal_lines(&self, kind: SectionKind, item: &Item) -> Vec<Line> {
        if fits(&item.text) {
            return vec![Line::new(item.text.clone(), item.ranges.clone())];
        }
        let rules: Vec<&Rule> = self
            .rules
            .iter()
            .filter(|rule| item.ranges.contains(&rule.range))
            .collect();
        match rules.as_slice() {
            [] => vec![Line::new(item.text.clone(), item.ranges.clone())],
            [rule] => vec![Line::new(self.single_rule(rule), vec![rule.range])],
            many => {
                let (first, second) = many.split_at(many.len() / 2);
                [first, second]
                    .into_iter()
                    .flat_map(|half| {
                        let subset = RuleSet {
                            rules: half.iter().map(|rule| (*rule).clone()).collect(),
                        };
                        let explained: GameExplanation =
                            sections::explain(&subset, self.vocabulary);
                        explained
                            .section(kind)
                            .map(|section| section.items.clone())
                            .unwrap_or_default()
                    })
                    .flat_map(|item| self.literal_lines(kind, &item))
                    .collect()
            }
        }
    }

    /// One rule too long for a sentence: its head as the literal level reads it, then its
    /// conditions grouped.
    fn single_rule(&self, rule: &Rule) -> String {
        let reading = super::rules::read(rule, self.vocabulary).sentence();
        let head = reading
            .split_once(" when ")
            .map_or(reading.as_str(), |(head, _)| head)
            .trim_end_matches('.')
            .to_owned();
        if rule.body.is_empty() {
            return reading;
        }
        self.rule_sentences(&head, &rule.body, &self.existential_tail(rule))
    }
}

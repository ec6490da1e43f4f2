//! One rule as one English sentence: its head read by what the keyword means ("R may A",
//! "F becomes V", "The game ends"), then "when" and the body's conditions.

use crate::gdl::keywords;
use crate::gdl::model::{Literal, Rule, Term};

use super::literals::{self, Conjunction, Phrase, PhraseKind};
use super::terms;
use super::vocabulary::{Vocabulary, keyword_name};

/// A rule split into what it concludes and under which conditions; sentences with the same
/// conclusion can share it ("The game ends when A, when B, or when C").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The conclusion, as it stands before "when": "xplayer may mark (M, N)".
    pub head: String,
    /// The conditions; empty for facts.
    pub conditions: Conjunction,
    /// What to say when there are no conditions: "xplayer may always noop".
    pub unconditional: String,
}

impl Reading {
    pub fn sentence(&self) -> String {
        let text = if self.conditions.items.is_empty() {
            self.unconditional.clone()
        } else {
            format!("{} when {}", self.head, self.conditions.join_and())
        };
        finish(&text)
    }
}

/// Ends a sentence with a period and capitalises its first letter, unless the sentence starts
/// with a game's own name (`xplayer may ...`): names are always shown as written.
pub fn finish(text: &str) -> String {
    let mut out = text.trim_end().to_owned();
    if !out.ends_with(['.', '?', '!']) {
        out.push('.');
    }
    out
}

pub fn read(rule: &Rule, vocabulary: &Vocabulary) -> Reading {
    let head = &rule.head;
    let args = head.args.as_slice();
    let (head_text, unconditional) = match (keyword_name(&head.name.name), args) {
        (Some(keywords::ROLE), [role]) => {
            let role = terms::term(role);
            (format!("{role} is a player"), format!("{role} is a player"))
        }
        (Some(keywords::INIT), [fluent]) => {
            let phrase = literals::fluent(fluent, vocabulary).text();
            (
                format!("Initially, {phrase}"),
                format!("Initially, {phrase}"),
            )
        }
        (Some(keywords::LEGAL), [role, action]) => {
            let (role, action) = (terms::term(role), terms::term(action));
            (
                format!("{role} may {action}"),
                format!("{role} may always {action}"),
            )
        }
        (Some(keywords::NEXT), [fluent]) => {
            let phrase = literals::fluent(fluent, vocabulary);
            // A frame rule: the fluent carries over when it holds now (and the rest holds).
            let frame = rule
                .body
                .iter()
                .position(|literal| is_true_of(literal, fluent));
            let (verb, rest) = match frame {
                Some(index) => {
                    let mut rest: Vec<Literal> = rule.body.clone();
                    rest.remove(index);
                    ("stays", Some(rest))
                }
                None => ("becomes", None),
            };
            let text = match &phrase.kind {
                PhraseKind::Is { subject, value } => format!("{subject} {verb} {value}"),
                PhraseKind::Holds { subject } => format!("{subject} {verb} true"),
                _ => format!("{} {verb} true", phrase.text()),
            };
            if let Some(rest) = rest {
                let conditions = literals::body(&rest, vocabulary);
                return Reading {
                    head: text.clone(),
                    conditions,
                    unconditional: text,
                };
            }
            (text.clone(), format!("{text} after every move"))
        }
        (Some(keywords::TERMINAL), []) => (
            "The game ends".to_owned(),
            "The game is over in every state".to_owned(),
        ),
        (Some(keywords::GOAL), [role, value]) => {
            let (role, value) = (terms::term(role), terms::term(value));
            (
                format!("{role} scores {value}"),
                format!("{role} always scores {value}"),
            )
        }
        (Some(keywords::BASE), [fluent]) => {
            let text = match literals::fluent(fluent, vocabulary).kind {
                PhraseKind::Is { subject, value } => format!("{subject} can be {value}"),
                PhraseKind::Holds { subject } => format!("{subject} can hold"),
                _ => format!("{} can hold", terms::term(fluent)),
            };
            (text.clone(), text)
        }
        (Some(keywords::INPUT), [role, action]) => {
            let (role, action) = (terms::term(role), terms::term(action));
            let text = format!("{action} is a possible move of {role}");
            (text.clone(), text)
        }
        (Some(keywords::SEES), [role, percept]) => {
            let (role, percept) = (terms::term(role), terms::term(percept));
            (
                format!("{role} sees {percept}"),
                format!("{role} always sees {percept}"),
            )
        }
        _ => {
            let text = Phrase::holds(terms::compound(head), None).text();
            (text.clone(), text)
        }
    };
    let mut conditions = literals::body(&rule.body, vocabulary);
    if !conditions.items.is_empty() {
        conditions.for_some = existential_variables(rule);
    }
    Reading {
        head: head_text,
        conditions,
        unconditional,
    }
}

/// The variables of the body of a rule whose head has none, as read ("M and N"): they are
/// existential, as in `open :- true(cell(M, N, b))`, which says that some cell is blank, not
/// something of cells M and N.
pub fn existential_variables(rule: &Rule) -> Option<String> {
    let mut head_variables = 0;
    rule.head.for_each_variable(&mut |_| head_variables += 1);
    if head_variables > 0 {
        return None;
    }
    let mut body_variables: Vec<String> = Vec::new();
    for literal in &rule.body {
        literal_variables(literal, &mut body_variables);
    }
    (!body_variables.is_empty()).then(|| terms::join_list(&body_variables, "and"))
}

/// The variables of `literal` as read ("M"), each once, added to `out` in order.
pub fn literal_variables(literal: &Literal, out: &mut Vec<String>) {
    match literal {
        Literal::Sentence(sentence) => sentence.for_each_variable(&mut |symbol| {
            let name = terms::variable(&symbol.name);
            if !out.contains(&name) {
                out.push(name);
            }
        }),
        Literal::Not { inner, .. } => literal_variables(inner, out),
        Literal::Distinct { left, right, .. } => {
            for term in [left, right] {
                term.for_each_variable(&mut |symbol| {
                    let name = terms::variable(&symbol.name);
                    if !out.contains(&name) {
                        out.push(name);
                    }
                });
            }
        }
        Literal::Or { disjuncts, .. } => {
            for disjunct in disjuncts {
                literal_variables(disjunct, out);
            }
        }
    }
}

/// Whether `literal` is `(true F)` for exactly the fluent `fluent` (compared as written, ranges
/// aside).
fn is_true_of(literal: &Literal, fluent: &Term) -> bool {
    let Literal::Sentence(sentence) = literal else {
        return false;
    };
    matches!(keyword_name(&sentence.name.name), Some(keywords::TRUE))
        && matches!(sentence.args.as_slice(), [current] if terms::term(current) == terms::term(fluent))
}

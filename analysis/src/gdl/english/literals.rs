//! Body literals in English, and conjunctions of them with similar conditions grouped:
//! "cell (M, 1), cell (M, 2) and cell (M, 3) are all F", "cell (X, Y) is neither red nor black",
//! "neither line (x) nor line (o) holds".

use crate::gdl::keywords;
use crate::gdl::model::{Compound, Literal, Term};

use super::terms::{self, join_list};
use super::vocabulary::{FluentForm, Vocabulary, keyword_name};

/// One condition, kept in a shape that lets neighbours be grouped and negation be natural.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrase {
    pub kind: PhraseKind,
    pub negated: bool,
    /// Conditions with the same key may be grouped (the relation and its arity; `distinct`).
    pub key: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PhraseKind {
    /// "S holds" / "S does not hold".
    Holds { subject: String },
    /// "S is V" / "S is not V".
    Is { subject: String, value: String },
    /// A clause with its own negative form: "R does A" / "R does not A".
    Clause { positive: String, negative: String },
    /// "either A or B".
    Either(Vec<Phrase>),
}

impl Phrase {
    fn new(kind: PhraseKind, key: Option<String>) -> Self {
        Self {
            kind,
            negated: false,
            key,
        }
    }

    pub fn holds(subject: String, key: Option<String>) -> Self {
        Self::new(PhraseKind::Holds { subject }, key)
    }

    pub fn is(subject: String, value: String, key: Option<String>) -> Self {
        Self::new(PhraseKind::Is { subject, value }, key)
    }

    pub fn clause(positive: String, negative: String) -> Self {
        Self::new(PhraseKind::Clause { positive, negative }, None)
    }

    pub fn negate(mut self) -> Self {
        self.negated = !self.negated;
        self
    }

    /// The phrase alone, as a clause.
    pub fn text(&self) -> String {
        match (&self.kind, self.negated) {
            (PhraseKind::Holds { subject }, false) => format!("{subject} holds"),
            (PhraseKind::Holds { subject }, true) => format!("{subject} does not hold"),
            (PhraseKind::Is { subject, value }, false) => format!("{subject} is {value}"),
            (PhraseKind::Is { subject, value }, true) => format!("{subject} is not {value}"),
            (PhraseKind::Clause { positive, .. }, false) => positive.clone(),
            (PhraseKind::Clause { negative, .. }, true) => negative.clone(),
            (PhraseKind::Either(options), false) => either(options),
            (PhraseKind::Either(options), true) => {
                // ¬(A ∨ B) = neither A nor B.
                let negated: Vec<Phrase> = options.iter().cloned().map(Phrase::negate).collect();
                conjunction(&negated).join_and()
            }
        }
    }
}

/// "either A or B holds" when every option is a positive "holds"; "either A or B" otherwise.
fn either(options: &[Phrase]) -> String {
    if let [only] = options {
        return only.text();
    }
    let all_holds = options
        .iter()
        .all(|option| !option.negated && matches!(option.kind, PhraseKind::Holds { .. }));
    if all_holds {
        let subjects: Vec<String> = options
            .iter()
            .map(|option| match &option.kind {
                PhraseKind::Holds { subject } => subject.clone(),
                _ => unreachable!("checked above"),
            })
            .collect();
        return format!("either {} holds", join_list(&subjects, "or"));
    }
    let texts: Vec<String> = options.iter().map(Phrase::text).collect();
    format!("either {}", join_list(&texts, "or"))
}

/// A fluent (the argument of `true`, `init`, `next`, `base`) as a phrase: "cell (M, N) is b" in
/// the value form, "moved (wk, e, 1) holds" in the holds form, "X holds" for a variable.
pub fn fluent(term: &Term, vocabulary: &Vocabulary) -> Phrase {
    match term {
        Term::Function(function) => {
            let key = Some(relation_key(function));
            match vocabulary.fluent_form(&function.name.name, function.arity()) {
                FluentForm::Value => {
                    let (value, prefix) = function.args.split_last().expect("value form has args");
                    Phrase::is(
                        terms::name_with(&function.name.name, prefix),
                        terms::term(value),
                        key,
                    )
                }
                FluentForm::Holds => Phrase::holds(terms::compound(function), key),
            }
        }
        Term::Constant(symbol) => {
            Phrase::holds(symbol.name.to_string(), Some(symbol.name.to_string()))
        }
        Term::Variable(_) => Phrase::holds(terms::term(term), None),
    }
}

/// The grouping key of a relation: its name and arity.
pub fn relation_key(compound: &Compound) -> String {
    format!("{}/{}", compound.name.name, compound.arity())
}

/// A body sentence as a phrase. Keyword relations read as what they mean (`true` as the fluent,
/// `does` as "R does A", `role` as "P is a player"); other relations as "r (a, b) holds".
pub fn sentence(sentence: &Compound, vocabulary: &Vocabulary) -> Phrase {
    let args = sentence.args.as_slice();
    match (keyword_name(&sentence.name.name), args) {
        (Some(keywords::TRUE), [fluent_term]) => fluent(fluent_term, vocabulary),
        (Some(keywords::DOES), [role, action]) => {
            let (role, action) = (terms::term(role), terms::term(action));
            Phrase::clause(
                format!("{role} does {action}"),
                format!("{role} does not {action}"),
            )
        }
        (Some(keywords::ROLE), [role]) => {
            let role = terms::term(role);
            Phrase::clause(
                format!("{role} is a player"),
                format!("{role} is not a player"),
            )
        }
        (Some(keywords::LEGAL), [role, action]) => {
            let (role, action) = (terms::term(role), terms::term(action));
            Phrase::clause(
                format!("{role} may {action}"),
                format!("{role} may not {action}"),
            )
        }
        (Some(keywords::GOAL), [role, value]) => {
            let (role, value) = (terms::term(role), terms::term(value));
            Phrase::clause(
                format!("{role} scores {value}"),
                format!("{role} does not score {value}"),
            )
        }
        (Some(keywords::TERMINAL), []) => Phrase::clause(
            "the game is over".to_owned(),
            "the game is not over".to_owned(),
        ),
        _ => Phrase::holds(terms::compound(sentence), Some(relation_key(sentence))),
    }
}

/// A body literal as a phrase.
pub fn literal(literal: &Literal, vocabulary: &Vocabulary) -> Phrase {
    match literal {
        Literal::Sentence(s) => sentence(s, vocabulary),
        Literal::Not { inner, .. } => self::literal(inner, vocabulary).negate(),
        Literal::Distinct { left, right, .. } => Phrase::is(
            terms::term(left),
            terms::term(right),
            Some("distinct".to_owned()),
        )
        .negate(),
        Literal::Or { disjuncts, .. } => or(disjuncts, vocabulary),
    }
}

/// `(or (distinct a1 b1) (distinct a2 b2))` says the pairs differ: "(A1, A2) is not (B1, B2)".
/// Other disjunctions read "either A or B".
///
/// Disjunctions nest as deep as the file does (up to [`crate::rules::MAX_NESTING_DEPTH`]), so
/// the recursion is a plain loop and the `distinct` case a function of its own: a level costs
/// little stack.
fn or(disjuncts: &[Literal], vocabulary: &Vocabulary) -> Phrase {
    if let Some(phrase) = distinct_pairs(disjuncts) {
        return phrase;
    }
    let mut options = Vec::with_capacity(disjuncts.len());
    for disjunct in disjuncts {
        options.push(literal(disjunct, vocabulary));
    }
    match <[Phrase; 1]>::try_from(options) {
        Ok([only]) => only,
        Err(options) => Phrase::new(PhraseKind::Either(options), None),
    }
}

/// "(A1, A2) is not (B1, B2)" for two or more `distinct` disjuncts and nothing else.
fn distinct_pairs(disjuncts: &[Literal]) -> Option<Phrase> {
    let pairs: Vec<(&Term, &Term)> = disjuncts
        .iter()
        .map(|disjunct| match disjunct {
            Literal::Distinct { left, right, .. } => Some((left, right)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    if pairs.len() < 2 {
        return None;
    }
    let lefts: Vec<String> = pairs.iter().map(|(left, _)| terms::term(left)).collect();
    let rights: Vec<String> = pairs.iter().map(|(_, right)| terms::term(right)).collect();
    Some(
        Phrase::is(
            format!("({})", lefts.join(", ")),
            format!("({})", rights.join(", ")),
            Some("distinct".to_owned()),
        )
        .negate(),
    )
}

/// A conjunction of conditions, grouped, as its list items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conjunction {
    pub items: Vec<String>,
    /// The variables of the conditions alone, when the conclusion has none: "for some M and
    /// N", said after the whole list.
    pub for_some: Option<String>,
}

impl Conjunction {
    /// "A, B and C", then "for some X" when the conditions have variables of their own.
    pub fn join_and(&self) -> String {
        let joined = join_list(&self.items, "and");
        match &self.for_some {
            Some(variables) => format!("{joined} for some {variables}"),
            None => joined,
        }
    }
}

/// The conditions of a rule body, in order, with similar conditions grouped at the place of the
/// first:
/// - positive "is" phrases of one relation with one value: "cell (1, 1), cell (2, 2) and
///   cell (3, 3) are all F";
/// - negative "is" phrases of one subject: "cell (X, Y) is neither red nor black", "P is neither
///   wp nor bp";
/// - positive "holds" phrases of one relation: "index (M) and index (N) hold"; then runs of
///   positive "holds" phrases: "succ (Y1, Y2) and cellEmpty (X, Y2) hold";
/// - runs of negative "holds" phrases: "neither line (x) nor line (o) holds".
///
/// Conjunction is order-free in GDL, so moving a condition next to its like keeps the meaning.
pub fn conjunction(phrases: &[Phrase]) -> Conjunction {
    // Each phrase joins the group of the first phrase like it.
    let mut groups: Vec<Vec<&Phrase>> = Vec::new();
    for phrase in phrases {
        let like = groups
            .iter_mut()
            .find(|group| group.first().is_some_and(|first| groupable(first, phrase)));
        match like {
            Some(group) => group.push(phrase),
            None => groups.push(vec![phrase]),
        }
    }
    let mut items: Vec<String> = Vec::new();
    // The subjects of a run of "holds" phrases, and whether the run is negative.
    let mut run: Vec<String> = Vec::new();
    let mut run_negated = false;
    let flush = |run: &mut Vec<String>, negated: bool, items: &mut Vec<String>| {
        let text = match (run.len(), negated) {
            (0, _) => return,
            (1, false) => format!("{} holds", run[0]),
            (1, true) => format!("{} does not hold", run[0]),
            (_, false) => format!("{} hold", join_list(run, "and")),
            (2, true) => format!("neither {} nor {} holds", run[0], run[1]),
            (_, true) => format!("none of {} holds", join_list(run, "and")),
        };
        items.push(text);
        run.clear();
    };
    for group in groups {
        let first = group[0];
        if let PhraseKind::Holds { .. } = first.kind {
            if first.negated != run_negated {
                flush(&mut run, run_negated, &mut items);
                run_negated = first.negated;
            }
            run.extend(group.iter().map(|phrase| subject_of(phrase)));
            continue;
        }
        flush(&mut run, run_negated, &mut items);
        items.push(group_text(&group));
    }
    flush(&mut run, run_negated, &mut items);
    Conjunction {
        items,
        for_some: None,
    }
}

/// Whether `phrase` joins the group that `first` opened.
fn groupable(first: &Phrase, phrase: &Phrase) -> bool {
    if first.key.is_none() || first.key != phrase.key || first.negated != phrase.negated {
        return false;
    }
    match (&first.kind, &phrase.kind) {
        (PhraseKind::Holds { subject: a }, PhraseKind::Holds { subject: b }) => {
            !first.negated && a != b
        }
        (
            PhraseKind::Is {
                subject: a,
                value: x,
            },
            PhraseKind::Is {
                subject: b,
                value: y,
            },
        ) => {
            if first.negated {
                a == b && x != y
            } else {
                x == y && a != b
            }
        }
        _ => false,
    }
}

fn group_text(group: &[&Phrase]) -> String {
    let first = group[0];
    if group.len() == 1 {
        return first.text();
    }
    match &first.kind {
        PhraseKind::Holds { .. } => {
            let subjects: Vec<String> = group.iter().map(|p| subject_of(p)).collect();
            format!("{} hold", join_list(&subjects, "and"))
        }
        PhraseKind::Is { subject, value } if first.negated => {
            let values: Vec<String> = group.iter().map(|p| value_of(p)).collect();
            if let [a, b] = values.as_slice() {
                format!("{subject} is neither {a} nor {b}")
            } else {
                format!("{subject} is none of {}", join_list(&values, "and"))
            }
        }
        PhraseKind::Is { value, .. } => {
            let subjects: Vec<String> = group.iter().map(|p| subject_of(p)).collect();
            let quantifier = if subjects.len() == 2 { "both" } else { "all" };
            format!("{} are {quantifier} {value}", join_list(&subjects, "and"))
        }
        _ => first.text(),
    }
}

fn subject_of(phrase: &Phrase) -> String {
    match &phrase.kind {
        PhraseKind::Holds { subject } | PhraseKind::Is { subject, .. } => subject.clone(),
        _ => phrase.text(),
    }
}

fn value_of(phrase: &Phrase) -> String {
    match &phrase.kind {
        PhraseKind::Is { value, .. } => value.clone(),
        _ => phrase.text(),
    }
}

/// The conditions of a body as one English condition: "A, B and C".
pub fn body(body: &[Literal], vocabulary: &Vocabulary) -> Conjunction {
    let phrases: Vec<Phrase> = body.iter().map(|item| literal(item, vocabulary)).collect();
    conjunction(&phrases)
}

//! What the renderer knows of a game beyond one rule: which fluents read as "name is value".

use std::collections::{HashMap, HashSet};

use crate::gdl::keywords::{self, keyword_relation_ignoring_case};
use crate::gdl::model::{Name, RuleSet, Term};

use super::terms;

/// How a fluent reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FluentForm {
    /// The last argument is a value: `(cell 1 1 b)` → "cell (1, 1) is b", `(control x)` →
    /// "control is x".
    Value,
    /// The fluent is a fact that holds or not: `(moved wk e 1)` → "moved (wk, e, 1) holds".
    Holds,
}

/// The facts about a game's names that one rule's English depends on. Built once per file
/// ([`Vocabulary::new`]) and shared by every sentence.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// Fluent relations read in the value form, with the arities they are read so at.
    value_fluents: HashMap<Name, Vec<usize>>,
}

impl Vocabulary {
    /// Decides each fluent's form from the initial state. A fluent `(f a1 … ak v)` reads as
    /// "f (a1, …, ak) is v" when, in the `init` facts, the first arguments determine the last one
    /// (one value per cell), some value is shared by several cells, and the values do not look
    /// like one more coordinate: they are not
    /// all names used in another place (`(at robot 1 1)`), nor numbers beside a place of numbers
    /// (`(at 3 4)` stays "at (3, 4) holds"). A one-argument
    /// fluent reads as "control is x" when it starts with exactly one value. Fluents absent from
    /// the initial state read in the holds form: nothing shows they are functions.
    pub fn new(rules: &RuleSet) -> Self {
        let mut instances: HashMap<(Name, usize), Vec<Vec<String>>> = HashMap::new();
        for rule in &rules.rules {
            if !rule.is_fact() || !is_keyword(&rule.head.name.name, keywords::INIT) {
                continue;
            }
            let [Term::Function(fluent)] = rule.head.args.as_slice() else {
                continue;
            };
            if fluent.args.is_empty() || !fluent.args.iter().all(terms::is_ground) {
                continue;
            }
            instances
                .entry((fluent.name.name.clone(), fluent.args.len()))
                .or_default()
                .push(fluent.args.iter().map(terms::term).collect());
        }
        let mut value_fluents: HashMap<Name, Vec<usize>> = HashMap::new();
        for ((name, arity), tuples) in instances {
            if reads_as_value(&tuples) {
                value_fluents.entry(name).or_default().push(arity);
            }
        }
        Self { value_fluents }
    }

    pub fn fluent_form(&self, name: &str, arity: usize) -> FluentForm {
        match self.value_fluents.get(name) {
            Some(arities) if arity > 0 && arities.contains(&arity) => FluentForm::Value,
            _ => FluentForm::Holds,
        }
    }
}

/// Whether `name` is the keyword relation `keyword`, in any case (as the reference validator
/// reads keywords).
pub fn is_keyword(name: &str, keyword: &str) -> bool {
    keyword_relation_ignoring_case(name).is_some_and(|found| found.name == keyword)
}

/// The keyword relation `name` spells, in any case.
pub fn keyword_name(name: &str) -> Option<&'static str> {
    keyword_relation_ignoring_case(name).map(|keyword| keyword.name)
}

/// Whether the ground instances of a fluent (its arguments, rendered) show a value in the last
/// place.
fn reads_as_value(tuples: &[Vec<String>]) -> bool {
    let Some(arity) = tuples.first().map(Vec::len) else {
        return false;
    };
    if arity == 1 {
        let first = &tuples[0][0];
        return tuples.iter().all(|tuple| &tuple[0] == first);
    }
    let mut value_of: HashMap<&[String], &String> = HashMap::new();
    for tuple in tuples {
        let (value, prefix) = tuple.split_last().expect("arity above one");
        match value_of.get(prefix) {
            Some(&previous) if previous != value => return false,
            Some(_) => {}
            None => {
                value_of.insert(prefix, value);
            }
        }
    }
    let values: HashSet<&String> = tuples.iter().map(|tuple| &tuple[arity - 1]).collect();
    // A value shared by several cells (`b` for blank) shows the last place is a value; one
    // fact alone, `(porder p5 p3 p6 p1 p4 p2)`, shows nothing.
    if values.len() == value_of.len() {
        return false;
    }
    let numeric_values = values.iter().all(|value| is_number(value));
    (0..arity - 1).all(|place| {
        let names: HashSet<&String> = tuples.iter().map(|tuple| &tuple[place]).collect();
        // Values that are names of another place (`(at robot 1 1)`), or numbers beside a place
        // of numbers (`(at 3 4)`), are coordinates rather than values.
        let coordinates = values.is_subset(&names)
            || (numeric_values && names.iter().all(|name| is_number(name)));
        !coordinates
    })
}

pub fn is_number(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|byte| byte.is_ascii_digit())
}

/// The role GDL-II reserves for chance.
pub fn is_random_role(name: &str) -> bool {
    name == keywords::RANDOM_ROLE
}

//! Patterns in English: `StraightFlush is (R, S) and (R-1, S) and (R-2, S) and (R-3, S) and
//! (R-4, S)` is "five cards of consecutive ranks, all of the same suit".
//!
//! How the seed's poker reads its patterns: each tuple is one card (rank, suit); an upper-case
//! letter must be the same in every card where it appears (`S` in a flush), a lower-case one is
//! free (`s` in four of a kind), `R-1` is one less than `R`, and two upper-case letters in one
//! place (`R` and `Q` in a full house) are two different values. A pattern outside this reading
//! is rendered as written.

use crate::egg::model::{Term, Value};
use crate::egg::words::{join_and, number_word};

/// What the tuples require at one place.
#[derive(Debug, PartialEq)]
enum Place {
    /// Lower-case letters: anything.
    Free,
    /// One upper-case letter, everywhere the same.
    Same,
    /// One upper-case letter with offsets 0, -1, -2, ...: a run.
    Consecutive,
    /// Several upper-case letters: groups of equal values, by size in order of appearance.
    Groups(Vec<usize>),
}

/// The pattern as "five cards of consecutive ranks, all of the same suit", or `None` when it
/// does not follow the reading above. `noun` is what one tuple is ("card").
pub fn describe(tuples: &[Vec<Value>], noun: &str) -> Option<String> {
    let width = tuples.first()?.len();
    if tuples.iter().any(|tuple| tuple.len() != width) {
        return None;
    }
    let places: Vec<Place> = (0..width)
        .map(|p| place(tuples.iter().map(|tuple| &tuple[p])))
        .collect::<Option<_>>()?;
    let count = tuples.len();
    let plural = |n: usize| {
        if n == 1 {
            noun.to_owned()
        } else {
            format!("{noun}s")
        }
    };
    if count == 1 {
        return Some(format!("one {noun}"));
    }
    let attribute = |p: usize| -> String {
        match (noun, p) {
            ("card", 0) => "rank".to_owned(),
            ("card", 1) => "suit".to_owned(),
            _ => format!("value {}", p + 1),
        }
    };
    let mut base = None;
    let mut constraints = Vec::new();
    for (p, place) in places.iter().enumerate() {
        match place {
            Place::Free => {}
            Place::Same => constraints.push(format!("of the same {}", attribute(p))),
            Place::Consecutive => constraints.push(format!("of consecutive {}s", attribute(p))),
            Place::Groups(sizes) => {
                if base.is_some() {
                    return None;
                }
                let parts: Vec<String> = sizes
                    .iter()
                    .enumerate()
                    .map(|(i, &size)| {
                        let n = number_word(size as u64);
                        if i == 0 {
                            format!("{n} {} of one {}", plural(size), attribute(p))
                        } else {
                            format!("{n} of another")
                        }
                    })
                    .collect();
                base = Some(join_and(&parts));
            }
        }
    }
    let mut text =
        base.unwrap_or_else(|| format!("{} {}", number_word(count as u64), plural(count)));
    let mut constraints = constraints.into_iter();
    if let Some(first) = constraints.next() {
        text.push(' ');
        text.push_str(&first);
    }
    for rest in constraints {
        text.push_str(", all ");
        text.push_str(&rest);
    }
    Some(text)
}

/// The requirement at one place, from the values the tuples put there.
fn place<'v>(values: impl Iterator<Item = &'v Value>) -> Option<Place> {
    let mut letters: Vec<(String, i64)> = Vec::new();
    for value in values {
        letters.push(letter(value.single()?)?);
    }
    let upper: Vec<&(String, i64)> = letters
        .iter()
        .filter(|(name, _)| name.chars().next().is_some_and(char::is_uppercase))
        .collect();
    if upper.is_empty() {
        return Some(Place::Free);
    }
    if upper.len() != letters.len() {
        return None;
    }
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in &letters {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    if let [_] = names.as_slice() {
        let offsets: Vec<i64> = letters.iter().map(|(_, offset)| *offset).collect();
        if offsets.iter().all(|&o| o == 0) {
            return Some(Place::Same);
        }
        let mut sorted = offsets.clone();
        sorted.sort_unstable();
        return sorted
            .windows(2)
            .all(|pair| pair[1] - pair[0] == 1)
            .then_some(Place::Consecutive);
    }
    if letters.iter().any(|(_, offset)| *offset != 0) {
        return None;
    }
    Some(Place::Groups(
        names
            .iter()
            .map(|name| letters.iter().filter(|(n, _)| n == name).count())
            .collect(),
    ))
}

/// `R` → (R, 0); `R-1` → (R, -1); `R+2` → (R, 2).
fn letter(term: &Term) -> Option<(String, i64)> {
    match term {
        Term::Word(word) => Some((word.text.clone(), 0)),
        Term::Arithmetic(arithmetic) => {
            let Term::Word(word) = &arithmetic.left else {
                return None;
            };
            let amount = i64::try_from(arithmetic.right.whole_number()?).ok()?;
            let offset = match arithmetic.operator {
                '-' => -amount,
                '+' => amount,
                _ => return None,
            };
            Some((word.text.clone(), offset))
        }
        _ => None,
    }
}

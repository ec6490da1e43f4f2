//! Baptism (§V.A.5 of the paper): each child gets a short name unique to its population,
//! made by a Markov chain over the letter pairs of a list of source words shipped with the
//! project (`names.txt`).

use std::collections::{BTreeMap, BTreeSet};

use rand::RngExt;
use rand::rngs::SmallRng;

const SOURCE_WORDS: &str = include_str!("names.txt");

/// The letters before a word and after it, in the chain.
const START: char = '^';
const END: char = '$';

/// The shortest and longest names made.
const SHORTEST: usize = 3;
const LONGEST: usize = 9;

/// An order-2 Markov chain over letters: for each pair of letters, the letters that follow it
/// in the source words, with their counts.
pub struct NameMaker {
    next: BTreeMap<(char, char), Vec<(char, usize)>>,
    sources: BTreeSet<String>,
}

impl Default for NameMaker {
    fn default() -> Self {
        Self::new(
            SOURCE_WORDS
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with('#')),
        )
    }
}

impl NameMaker {
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> NameMaker {
        let mut counts: BTreeMap<(char, char), BTreeMap<char, usize>> = BTreeMap::new();
        let mut sources = BTreeSet::new();
        for word in words {
            let word = word.to_lowercase();
            let letters: Vec<char> = [START, START]
                .into_iter()
                .chain(word.chars())
                .chain([END])
                .collect();
            for window in letters.windows(3) {
                *counts
                    .entry((window[0], window[1]))
                    .or_default()
                    .entry(window[2])
                    .or_default() += 1;
            }
            sources.insert(word);
        }
        NameMaker {
            next: counts
                .into_iter()
                .map(|(pair, followers)| (pair, followers.into_iter().collect()))
                .collect(),
            sources,
        }
    }

    /// A new name, capitalised, not among the source words nor `taken` (compared without
    /// case). After many tries without one, the last name tried with a number.
    pub fn name(&self, taken: &BTreeSet<String>, rng: &mut SmallRng) -> String {
        let mut last = String::from("Ludeme");
        for _ in 0..200 {
            let Some(word) = self.word(rng) else {
                continue;
            };
            let name = capitalise(&word);
            if !self.sources.contains(&word) && !taken.contains(&name.to_lowercase()) {
                return name;
            }
            last = name;
        }
        (2..)
            .map(|n| format!("{last}{n}"))
            .find(|name| !taken.contains(&name.to_lowercase()))
            .unwrap_or(last)
    }

    fn word(&self, rng: &mut SmallRng) -> Option<String> {
        let (mut a, mut b) = (START, START);
        let mut word = String::new();
        loop {
            let followers = self.next.get(&(a, b))?;
            let total: usize = followers.iter().map(|(_, n)| n).sum();
            let mut draw = rng.random_range(0..total);
            let &(letter, _) = followers.iter().find(|(_, n)| {
                if draw < *n {
                    true
                } else {
                    draw -= n;
                    false
                }
            })?;
            if letter == END {
                break;
            }
            word.push(letter);
            if word.chars().count() > LONGEST {
                return None;
            }
            (a, b) = (b, letter);
        }
        (word.chars().count() >= SHORTEST).then_some(word)
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn names_are_new_short_and_unique() {
        let maker = NameMaker::default();
        let mut taken = BTreeSet::new();
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..100 {
            let name = maker.name(&taken, &mut rng);
            assert!(name.len() >= SHORTEST, "{name}");
            assert!(
                name.chars().next().is_some_and(char::is_uppercase),
                "{name}"
            );
            assert!(!maker.sources.contains(&name.to_lowercase()), "{name}");
            assert!(taken.insert(name.to_lowercase()), "{name} twice");
        }
    }
}

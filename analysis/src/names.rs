//! "Did you mean": which known names are plausible misspellings of a name written.
//!
//! A normalised similarity alone let short words suggest unrelated ones (`Stone` was offered
//! `score` and `state`, two letters of five changed). A suggestion here is a name within a few
//! edits of what was written, few for its length: one edit in a word of up to five letters, then
//! one more per three letters (`in-a-rwo` → `in-a-row`, a swap, counts one edit). Case is
//! ignored: `beat` for `Beat` is one name in EGGG, and a likely slip elsewhere.

/// The edits allowed between a word of `length` characters and a name it may misspell.
fn allowed_edits(length: usize) -> usize {
    (length / 3).max(1)
}

/// The number of edits (insertions, deletions, substitutions, swaps of neighbours) between
/// `written` and `candidate` when it is small enough for `candidate` to be a plausible
/// correction, case ignored; `None` otherwise.
///
/// Most pairs are far apart: [`fewest_edits`] decides them without the quadratic distance (a
/// Ludi file of unknown ludemes spent 60 % of its check in the distances this skips).
pub fn typo_distance(written: &str, candidate: &str) -> Option<usize> {
    let written = written.to_lowercase();
    let candidate = candidate.to_lowercase();
    let longer = written.chars().count().max(candidate.chars().count());
    if fewest_edits(&written, &candidate) > allowed_edits(longer) {
        return None;
    }
    let distance = strsim::damerau_levenshtein(&written, &candidate);
    (distance <= allowed_edits(longer)).then_some(distance)
}

/// A lower bound of the Damerau–Levenshtein distance of `a` and `b`, in linear time: no edit
/// changes more than one character of each string's multiset of characters (a transposition
/// changes none), so the distance is at least the larger of the two multiset differences.
pub(crate) fn fewest_edits(a: &str, b: &str) -> usize {
    let mut surplus: std::collections::HashMap<char, i64> = std::collections::HashMap::new();
    for c in a.chars() {
        *surplus.entry(c).or_default() += 1;
    }
    for c in b.chars() {
        *surplus.entry(c).or_default() -= 1;
    }
    let only_in_a: i64 = surplus.values().filter(|&&n| n > 0).sum();
    let only_in_b: i64 = -surplus.values().filter(|&&n| n < 0).sum::<i64>();
    only_in_a.max(only_in_b) as usize
}

/// The names of `candidates` that `written` plausibly misspells, closest first (ties in the
/// candidates' order), each once, `written` itself left out.
pub fn plausible_corrections<'a>(
    written: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (order, candidate) in candidates.into_iter().enumerate() {
        if candidate == written || scored.iter().any(|(_, _, seen)| *seen == candidate) {
            continue;
        }
        if let Some(distance) = typo_distance(written, candidate) {
            scored.push((distance, order, candidate));
        }
    }
    scored.sort();
    scored.into_iter().map(|(_, _, name)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_slip_is_a_typo() {
        assert_eq!(typo_distance("in-a-rwo", "in-a-row"), Some(1));
        assert_eq!(typo_distance("sqaure", "square"), Some(1));
        assert_eq!(typo_distance("Whte", "White"), Some(1));
        assert_eq!(typo_distance("Baet", "Beat"), Some(1));
        assert_eq!(typo_distance("beat", "Beat"), Some(0));
    }

    /// The examples: a short word two letters away from another is a different word.
    #[test]
    fn different_short_words_are_not_suggested() {
        assert_eq!(plausible_corrections("Stone", ["score", "state"]), [""; 0]);
        assert_eq!(typo_distance("5", "hexagon"), None);
        assert_eq!(typo_distance("foo", "game"), None);
    }

    /// The bound decides only pairs the distance would refuse: on every pair of a list of
    /// names (Ludi's ludemes, with slips of every kind), the answer is the unbounded one.
    #[test]
    fn the_bound_never_changes_an_answer() {
        let mut names: Vec<String> = crate::ludi::schema::LUDEMES
            .iter()
            .map(|ludeme| ludeme.name.to_owned())
            .collect();
        for slip in [
            "in-a-rwo", "sqaure", "Whte", "emtpy", "pices", "bord", "xx", "eend", "ñame",
        ] {
            names.push(slip.to_owned());
        }
        let unbounded = |written: &str, candidate: &str| {
            let (written, candidate) = (written.to_lowercase(), candidate.to_lowercase());
            let longer = written.chars().count().max(candidate.chars().count());
            let distance = strsim::damerau_levenshtein(&written, &candidate);
            (distance <= allowed_edits(longer)).then_some(distance)
        };
        let mut decided_by_the_bound = 0;
        for a in &names {
            for b in &names {
                assert_eq!(typo_distance(a, b), unbounded(a, b), "{a} / {b}");
                let longer = a.chars().count().max(b.chars().count());
                if fewest_edits(&a.to_lowercase(), &b.to_lowercase()) > allowed_edits(longer) {
                    decided_by_the_bound += 1;
                }
            }
        }
        assert!(decided_by_the_bound > names.len() * names.len() / 2);
    }

    #[test]
    fn longer_words_allow_more_edits_closest_first() {
        assert_eq!(typo_distance("alternat", "alternate"), Some(1));
        assert_eq!(typo_distance("synchronise", "synchronize"), Some(1));
        assert_eq!(
            plausible_corrections("conect", ["connected", "connect", "collect"]),
            ["connect", "collect", "connected"]
        );
    }
}

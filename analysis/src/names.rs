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
pub fn typo_distance(written: &str, candidate: &str) -> Option<usize> {
    let written = written.to_lowercase();
    let candidate = candidate.to_lowercase();
    let longer = written.chars().count().max(candidate.chars().count());
    let distance = strsim::damerau_levenshtein(&written, &candidate);
    (distance <= allowed_edits(longer)).then_some(distance)
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

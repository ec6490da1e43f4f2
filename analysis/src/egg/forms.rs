//! The statement forms the model understands, and the vocabulary it knows: one table that the
//! lowering, the "did you mean" of `egg/unknown-statement` and docs/egg.md agree on.

/// The statement forms, each as an example a designer can copy. The first word of each is the
/// head that selects it (case and number ignored).
pub const FORMS: &[&str] = &[
    "game is NAME",
    "NAME is like GAME",
    "2 players",
    "2..6 players",
    "players are white and black",
    "players are 0..20",
    "turns alternate",
    "turns alternate clockwise",
    "turns alternate counterclockwise",
    "turns synchronize",
    "move is choose",
    "move is place",
    "pieces are Rock and Paper and Scissors",
    "pieces are [I, O, T]",
    "3 × 3 grid",
    "board is hexagon",
    "squares are hexagons",
    "board starts [[Rock, Paper, Scissors]]",
    "NAME means PHRASE",
    "NAME is PHRASE",
    "hands are [StraightFlush, FourKind]",
    "hand is five cards",
    "goal is NAME",
    "goal is highest(hand)",
    "goal is maximize(score)",
    "game is Shuffle(deck) and Deal(cards, 5)",
    "score increments",
    "game ends if CONDITION",
    "assert NAME: CONDITION",
    "networked multiplayer text game",
    "port 10900",
];

/// Heads (keys) that only the forms above may start: a statement starting with one of them that
/// fits none of its forms is not understood, rather than taken as a free rule.
pub const RESERVED_HEADS: &[&str] = &["turn", "port", "grid", "square"];

/// Subjects a free rule may have (keys): `pieces fall from top to bottom`, `speed doubles`,
/// `serving player chooses piece`. A rule about something else must name a defined term.
pub const RULE_SUBJECTS: &[&str] = &[
    "player", "opponent", "piece", "card", "hand", "deck", "row", "column", "diagonal", "board",
    "edge", "cell", "square", "speed", "score", "level", "time", "money", "round", "game", "line",
];

/// Words that make a subject and its verb a modal phrase: `player may bounce`, the verb is
/// `bounce`.
pub const MODALS: &[&str] = &["may", "can", "must", "cannot", "should", "might"];

/// Board shapes (`board is hexagon`): polygons, and the topologies of the seed's taxonomy.
pub const BOARD_SHAPES: &[&str] = &[
    "triangle",
    "square",
    "rectangle",
    "pentagon",
    "hexagon",
    "octagon",
    "circle",
    "sphere",
    "torus",
];

/// Adjectives of `networked multiplayer text game`.
pub const NETWORK_WORDS: &[&str] = &["networked", "multiplayer", "text", "chat", "online"];

/// Actions EGGG supplies (its reusable components), usable in `game is ...` steps and goals
/// without a definition: `Shuffle(deck)`, `Deal(cards, 5)`, `bet(money)`, `compare(cards)`.
pub const BUILTIN_ACTIONS: &[&str] = &[
    "shuffle", "deal", "bet", "compare", "draw", "pass", "reveal", "roll", "discard",
];

/// Goal functions: `highest(hand)`, `maximize(level)`.
pub const GOAL_FUNCTIONS: &[&str] = &["highest", "lowest", "maximize", "minimize"];

/// Quantities every game has: `maximize(score)`, `maximize(level)`.
pub const BUILTIN_QUANTITIES: &[&str] = &["score", "level", "point", "money", "time"];

/// Words that stand for an empty cell in `board starts [...]`.
pub const EMPTY_CELLS: &[&str] = &["empty", "blank", "none", "_"];

/// The form most like `written` (the statement's text), among those whose head is `head` when
/// it is given; `None` when nothing is close.
///
/// A form is close when the statement's words from its start, as many as the form has, read
/// like the form (normalised Damerau–Levenshtein similarity of at least one half) and, past the
/// words the two share, what is left reads like the form too: `board is 5 x 5 grid` is not
/// `board is hexagon`, the two sharing only `board is`. Numbers stand for any number (`5 x 5
/// grid` is the form `3 × 3 grid`), and a form found nearly word for word later in the
/// statement counts as well (`board is 5 x 5 grid` holds `5 x 5 grid`).
pub fn closest_form(written: &str, head: Option<&str>) -> Option<&'static str> {
    // The forms are a few short words: a statement's first words and a word's first characters
    // are all that can resemble one, and comparing more makes a hostile statement (one word of
    // 100,000 brackets, thousands of words) cost seconds for a suggestion nobody would read.
    const WORDS_COMPARED: usize = 24;
    const CHARACTERS_COMPARED: usize = 32;
    let words: Vec<String> = written
        .split_whitespace()
        .take(WORDS_COMPARED)
        .map(|word| {
            let end = word
                .char_indices()
                .nth(CHARACTERS_COMPARED)
                .map_or(word.len(), |(at, _)| at);
            normalised_word(&word[..end])
        })
        .collect();
    let similarity = |a: &[String], b: &[String], threshold: f64| {
        similarity_at_least(&a.join(" "), &b.join(" "), threshold)
    };
    FORMS
        .iter()
        .filter(|form| {
            head.is_none_or(|head| {
                form.split(' ')
                    .next()
                    .is_some_and(|first| crate::egg::words::key(first) == head)
            })
        })
        .filter_map(|form| {
            let shape: Vec<String> = form.split(' ').map(normalised_word).collect();
            let at_start = {
                let prefix = &words[..shape.len().min(words.len())];
                let shared = prefix
                    .iter()
                    .zip(&shape)
                    .take_while(|(word, form_word)| word == form_word)
                    .count();
                let score = similarity(prefix, &shape, 0.5);
                let rest_alike = shared == shape.len()
                    || similarity(&prefix[shared.min(prefix.len())..], &shape[shared..], 0.5)
                        .is_some();
                score.filter(|_| rest_alike)
            };
            // Later in the statement, only a near copy of the form counts.
            let later = (1..words.len().saturating_sub(shape.len()) + 1)
                .filter_map(|start| similarity(&words[start..start + shape.len()], &shape, 0.8))
                .max_by(f64::total_cmp);
            let score = match (at_start, later) {
                (Some(a), Some(b)) => a.max(b),
                (one, other) => one.or(other)?,
            };
            Some((score, *form))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, form)| form)
}

/// The normalised Damerau–Levenshtein similarity of `a` and `b` when it is at least
/// `threshold`, else `None`; the same figure as `strsim::normalized_damerau_levenshtein`.
///
/// Most comparisons of a statement with a form are far apart, so a bound
/// ([`crate::names::fewest_edits`]) decides them without the quadratic distance. A fuzzed EGGG
/// file spent 80 % of its check in the distances this skips.
fn similarity_at_least(a: &str, b: &str, threshold: f64) -> Option<f64> {
    let longest = a.chars().count().max(b.chars().count());
    if longest > 0 {
        let fewest_edits = crate::names::fewest_edits(a, b) as f64;
        if 1.0 - fewest_edits / (longest as f64) < threshold {
            return None;
        }
    }
    let similarity = strsim::normalized_damerau_levenshtein(a, b);
    (similarity >= threshold).then_some(similarity)
}

/// A word as [`closest_form`] compares it: lower case, every number written `#` (`2..6` is
/// `#..#`), and `x` between dimensions the `×` of the forms.
fn normalised_word(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower == "x" {
        return "×".to_owned();
    }
    let mut out = String::with_capacity(lower.len());
    let mut in_number = false;
    for c in lower.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// The candidates `name` plausibly misspells (case ignored, [`crate::names`]), closest first.
pub fn close_names<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    crate::names::plausible_corrections(name, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelled_statements_find_their_form() {
        assert_eq!(
            closest_form("turns alternat", Some("turn")),
            Some("turns alternate")
        );
        assert_eq!(
            closest_form("turns synchronise", Some("turn")),
            Some("turns synchronize")
        );
        assert_eq!(closest_form("3 x 3 grd", None), Some("3 × 3 grid"));
        assert_eq!(closest_form("blorp frobnicates the widget", None), None);
    }

    /// A statement of a form followed by one word of 100,000 brackets (the `deep` fuzz target's
    /// find, which took seconds per statement) still gets its form from its first words.
    #[test]
    fn a_huge_statement_is_compared_by_its_first_words() {
        let written = format!("turns alternat {}", ")".repeat(100_000));
        assert_eq!(
            closest_form(&written, Some("turn")),
            Some("turns alternate")
        );
        let many_words = format!("3 x 3 grd {}", "b ".repeat(50_000));
        assert_eq!(closest_form(&many_words, None), Some("3 × 3 grid"));
    }

    /// The example: `board is 5 x 5 grid` was offered `board is hexagon`, which shares
    /// its first two words only; the grid form it holds is the one it means.
    #[test]
    fn a_form_is_suggested_for_what_it_says_not_for_its_first_words() {
        assert_eq!(
            closest_form("board is 5 x 5 grid", None),
            Some("3 × 3 grid")
        );
        assert_eq!(closest_form("board is 5", None), None);
        assert_eq!(
            closest_form("board is hexagonal", None),
            Some("board is hexagon")
        );
        assert_eq!(closest_form("8 x 8 grid", None), Some("3 × 3 grid"));
    }

    #[test]
    fn the_bound_never_changes_a_similarity() {
        // Every pair of a few short strings over a small alphabet (so that near and far pairs,
        // transpositions and repeats all occur): the bounded figure is strsim's whenever it
        // reaches the threshold, and `None` exactly when strsim's does not.
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "acb",
            "cab",
            "aab",
            "abb",
            "board is",
            "boadr is",
            "×",
            "# × # grid",
            "#×# grd",
            "turns alternate",
            "turn alternat",
            "éa",
            "aé",
        ];
        for a in words {
            for b in words {
                let exact = strsim::normalized_damerau_levenshtein(a, b);
                for threshold in [0.0, 0.3, 0.5, 0.8, 1.0] {
                    let expected = (exact >= threshold).then_some(exact);
                    assert_eq!(
                        similarity_at_least(a, b, threshold),
                        expected,
                        "{a:?} {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn names_find_their_neighbours() {
        assert_eq!(close_names("Beet", ["Beat", "Fold"]), ["Beat"]);
        assert!(close_names("Xyzzy", ["Beat", "Fold"]).is_empty());
    }
}

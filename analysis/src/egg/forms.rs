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

/// The form most like `written` (lower-cased statement text), among those whose head is `head`
/// when it is given; `None` when nothing is close.
pub fn closest_form(written: &str, head: Option<&str>) -> Option<&'static str> {
    let written = written.to_lowercase();
    FORMS
        .iter()
        .filter(|form| {
            head.is_none_or(|head| {
                form.split(' ')
                    .next()
                    .is_some_and(|first| crate::egg::words::key(first) == head)
            })
        })
        .map(|form| {
            // Compare with as much of the statement as the form has words, so that a long
            // statement is not penalised for what follows its head.
            let length = form.split(' ').count();
            let prefix: Vec<&str> = written.split_whitespace().take(length).collect();
            let score =
                strsim::normalized_damerau_levenshtein(&prefix.join(" "), &form.to_lowercase());
            (score, *form)
        })
        .filter(|(score, _)| *score >= 0.5)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, form)| form)
}

/// The candidate closest to `name` (case ignored), if any is close enough to suggest.
pub fn closest_name<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let name = name.to_lowercase();
    candidates
        .into_iter()
        .map(|candidate| {
            let score = strsim::normalized_damerau_levenshtein(&name, &candidate.to_lowercase());
            (score, candidate)
        })
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
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

    #[test]
    fn names_find_their_neighbours() {
        assert_eq!(closest_name("Beet", ["Beat", "Fold"]), Some("Beat"));
        assert_eq!(closest_name("Xyzzy", ["Beat", "Fold"]), None);
    }
}

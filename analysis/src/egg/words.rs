//! Words as EGGG reads them. The seed: "When EGGG parses a game description, it ignores case and
//! number wherever possible" — `players are white and black` is `players are black and white`,
//! `1 player` is `1 players`, `Beat` is `beat`. Every comparison of names goes through [`key`],
//! and every game name through [`game_key`], so that the rule lives in one place.

/// The comparison key of a word: lower case and singular (`Pieces` → `piece`, `Scissors` →
/// `scissor`). Both sides of every comparison use it, so an imperfect singular is harmless.
pub fn key(word: &str) -> String {
    singular(&word.to_lowercase())
}

/// The singular of a lower-case English word, by the common suffix rules. Words ending in `ss`,
/// `us` or `is` are left alone (`chess`, `bonus`, `axis`).
fn singular(word: &str) -> String {
    if word.len() <= 3 || word.ends_with("ss") || word.ends_with("us") || word.ends_with("is") {
        return word.to_owned();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for suffix in ["ches", "shes", "xes"] {
        if word.ends_with(suffix) {
            return word[..word.len() - 2].to_owned();
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_owned()
}

/// The key a game is found by for `X is like Y`: lower case, letters and digits only, so that
/// the file `two-player-tetris.egg`, `game is Two-Player-Tetris` and `TwoPlayerTetris` agree.
pub fn game_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Number words, by value: what `hand is five cards` and `two players` may use, and how counts
/// are said in English.
pub const NUMBER_WORDS: [&str; 14] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen",
];

/// A count as a player reads it: "two", "twelve", "20".
pub fn number_word(n: u64) -> String {
    NUMBER_WORDS
        .get(usize::try_from(n).unwrap_or(usize::MAX))
        .map_or_else(|| n.to_string(), |word| (*word).to_owned())
}

/// The value of a number word: `five` → 5.
pub fn number_word_value(word: &str) -> Option<u64> {
    let word = word.to_lowercase();
    let position = NUMBER_WORDS.iter().position(|n| *n == word)?;
    u64::try_from(position).ok()
}

/// "a, b and c".
pub fn join_and(items: &[String]) -> String {
    join(items, "and")
}

/// "a, b or c".
pub fn join_or(items: &[String]) -> String {
    join(items, "or")
}

fn join(items: &[String], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

/// The plural of a shape or piece name: `hexagon` → "hexagons" (one already plural stays).
pub fn plural(noun: &str) -> String {
    if noun.ends_with('s') {
        noun.to_owned()
    } else {
        format!("{noun}s")
    }
}

/// The text with its first letter in upper case.
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// "a" or "an" before `word`.
pub fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_and_number_are_ignored() {
        assert_eq!(key("Players"), key("player"));
        assert_eq!(key("Pieces"), "piece");
        assert_eq!(key("Scissors"), key("scissors"));
        assert_eq!(key("squares"), key("Square"));
        assert_eq!(key("hexagons"), "hexagon");
        assert_eq!(key("chess"), "chess");
        assert_eq!(key("boxes"), "box");
        assert_eq!(key("synchronizes"), key("synchronize"));
    }

    #[test]
    fn game_names_ignore_case_and_punctuation() {
        assert_eq!(game_key("two-player-tetris"), game_key("TwoPlayerTetris"));
        assert_eq!(game_key("Tic-Tac-Toe"), "tictactoe");
    }

    #[test]
    fn lists_read_as_english() {
        let items = |xs: &[&str]| xs.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(join_and(&items(&["a"])), "a");
        assert_eq!(join_and(&items(&["a", "b", "c"])), "a, b and c");
        assert_eq!(join_or(&items(&["a", "b"])), "a or b");
        assert_eq!(number_word(2), "two");
        assert_eq!(number_word(20), "20");
    }
}

//! What completion does the same way in every language: read the word typed at the cursor,
//! keep the candidates that match it, rank them and cap the list, as rust-analyzer does. A
//! 3,000-line game has hundreds of names; an editor shown all of them at every keystroke is
//! slow and the one wanted is lost among them.
//!
//! - Matching ignores case: the candidates whose label starts with the typed word, then those
//!   that hold its letters in order starting at the start of a word of the label (`ad` finds
//!   `can-advance`, `tu` finds `turns alternate`), and no others.
//! - Ranking, within the prefix matches and then within the other matches: the candidates the
//!   language prefers at the cursor (keywords and names in scope, or what the place expects)
//!   first, then those whose label starts with the typed word in its own case, then the shorter
//!   labels (when something is typed); ties keep the language's order.
//! - At most [`COMPLETION_LIMIT`] are returned; [`Completions::is_incomplete`] says that some
//!   were cut, so that the editor asks again as the user types on.

use super::Completion;
use crate::Syntax;

/// The most completions returned at once.
pub const COMPLETION_LIMIT: usize = 50;

/// The completions at a place, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completions {
    pub items: Vec<Completion>,
    /// More candidates matched than were returned: typing on gives a different list, so the
    /// editor must ask again rather than filter this one.
    pub is_incomplete: bool,
}

/// Whether `c` belongs to a word as the editor extensions' word patterns define it for
/// `syntax` (`editors/vscode/language-configuration`): in KIF anything but spaces and
/// `(`, `)`, `;`; elsewhere letters, digits, `_` and `-` (and `.` for EGGG's `2..6`).
fn is_word_char(syntax: Syntax, c: char) -> bool {
    match syntax {
        Syntax::GdlKif => !c.is_whitespace() && !matches!(c, '(' | ')' | ';'),
        Syntax::GdlInfix | Syntax::Ludi => c.is_alphanumeric() || matches!(c, '_' | '-'),
        Syntax::Egg => c.is_alphanumeric() || matches!(c, '_' | '-' | '.'),
    }
}

/// The part of the word at `offset` written before it: what the user has typed so far.
pub fn typed_word(text: &str, offset: usize, syntax: Syntax) -> &str {
    let (start, end) = typed_range(text, offset, syntax);
    &text[start..end]
}

/// Where the word typed before `offset` starts and ends (`offset`, kept in the text and on a
/// character boundary).
pub fn typed_range(text: &str, offset: usize, syntax: Syntax) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let start = text[..end]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word_char(syntax, c))
        .last()
        .map_or(end, |(index, _)| index);
    (start, end)
}

/// How a label matches the typed word; the order is the ranking's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Match {
    /// The label starts with the typed word, ignoring case.
    Prefix,
    /// The typed word's characters appear in the label in order, the first at a word start.
    WordStarts,
}

/// Whether `c` separates the words of a label (`in-a-row`, `add_piece`, `turns alternate`).
fn is_separator(c: char) -> bool {
    !c.is_alphanumeric()
}

/// How `label` matches `typed`, ignoring case; `None` when it does not.
fn matches(label: &str, typed: &str) -> Option<Match> {
    let mut wanted = typed.chars().flat_map(char::to_lowercase).peekable();
    let Some(&first) = wanted.peek() else {
        return Some(Match::Prefix);
    };
    let lower: Vec<char> = label.chars().flat_map(char::to_lowercase).collect();
    if lower
        .iter()
        .copied()
        .take(typed.chars().count())
        .eq(wanted.clone())
    {
        return Some(Match::Prefix);
    }
    // The first character at the start of a word of the label, the others in order after it.
    let word_starts = (0..lower.len()).filter(|&index| {
        lower[index] == first
            && (index == 0 || is_separator(lower[index - 1]) && !is_separator(lower[index]))
    });
    for start in word_starts {
        let mut rest = wanted.clone().skip(1).peekable();
        for &c in &lower[start + 1..] {
            if rest.peek() == Some(&c) {
                rest.next();
            }
        }
        if rest.peek().is_none() {
            return Some(Match::WordStarts);
        }
    }
    None
}

/// The candidates of `items` that match `typed`, best first, at most `limit` of them.
pub fn filter_and_rank(items: Vec<Completion>, typed: &str, limit: usize) -> Completions {
    let mut ranked: Vec<(Match, bool, bool, usize, usize, Completion)> = items
        .into_iter()
        .enumerate()
        .filter_map(|(index, item)| {
            let how = matches(&item.label, typed)?;
            let exact_case = item.label.starts_with(typed);
            // Shorter labels first when something is typed (the shorter, the closer to it);
            // with nothing typed the language's order stands.
            let length = if typed.is_empty() {
                0
            } else {
                item.label.chars().count()
            };
            Some((how, !item.preferred, !exact_case, length, index, item))
        })
        .collect();
    ranked.sort_by_key(|(how, not_preferred, not_exact, length, index, _)| {
        (*how, *not_preferred, *not_exact, *length, *index)
    });
    let is_incomplete = ranked.len() > limit;
    ranked.truncate(limit);
    Completions {
        items: ranked.into_iter().map(|(.., item)| item).collect(),
        is_incomplete,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::CompletionKind;

    fn item(label: &str, preferred: bool) -> Completion {
        Completion {
            preferred,
            ..Completion::plain(label, "", CompletionKind::Relation)
        }
    }

    fn labels(completions: &Completions) -> Vec<&str> {
        completions
            .items
            .iter()
            .map(|item| item.label.as_str())
            .collect()
    }

    #[test]
    fn the_typed_word_is_read_as_each_language_writes_words() {
        assert_eq!(typed_word("(<= (legal ?p", 13, Syntax::GdlKif), "?p");
        assert_eq!(typed_word("(true (ce", 9, Syntax::GdlKif), "ce");
        assert_eq!(typed_word("(true (cell ", 12, Syntax::GdlKif), "");
        assert_eq!(typed_word("legal(P) :- ~op", 15, Syntax::GdlInfix), "op");
        assert_eq!(
            typed_word("(end (All win (in-a-", 20, Syntax::Ludi),
            "in-a-"
        );
        assert_eq!(typed_word("game is x\n2..", 13, Syntax::Egg), "2..");
        // Past the end, or inside a character: the text before it.
        assert_eq!(typed_word("(rôle", 3, Syntax::GdlKif), "r");
        assert_eq!(typed_word("(role", 99, Syntax::GdlKif), "role");
    }

    #[test]
    fn only_prefix_and_word_start_matches_are_kept_prefix_matches_first() {
        let items = ["board", "can-advance", "adjacent", "Address", "lead", "a-d"]
            .map(|label| item(label, false))
            .to_vec();
        let found = filter_and_rank(items, "ad", COMPLETION_LIMIT);
        // `board` and `lead` hold `a` then `d`, but not at a word start.
        assert_eq!(
            labels(&found),
            ["adjacent", "Address", "a-d", "can-advance"]
        );
        assert!(!found.is_incomplete);
    }

    #[test]
    fn preferred_then_exact_case_then_shorter() {
        let items = vec![
            item("cellular", false),
            item("Cell", false),
            item("cells", true),
            item("cell", false),
            item("celll", true),
        ];
        let found = filter_and_rank(items, "cel", COMPLETION_LIMIT);
        assert_eq!(
            labels(&found),
            ["cells", "celll", "cell", "cellular", "Cell"]
        );
    }

    #[test]
    fn nothing_typed_keeps_everything_in_order_preferred_first() {
        let items = vec![item("bbb", false), item("aa", true), item("c", false)];
        assert_eq!(labels(&filter_and_rank(items, "", 10)), ["aa", "bbb", "c"]);
    }

    #[test]
    fn a_long_list_is_cut_and_says_so() {
        let items: Vec<Completion> = (0..80).map(|i| item(&format!("name{i}"), false)).collect();
        let found = filter_and_rank(items.clone(), "na", COMPLETION_LIMIT);
        assert_eq!(found.items.len(), COMPLETION_LIMIT);
        assert!(found.is_incomplete);
        // The shortest first: `name0` to `name9` before the two-digit ones.
        assert_eq!(
            labels(&found)[..10],
            (0..10).map(|i| format!("name{i}")).collect::<Vec<_>>()
        );
        // `name7` and `name70`..`name79` start with `name7`; `name17`..`name67` hold its
        // letters in order from their start.
        let found = filter_and_rank(items, "name7", COMPLETION_LIMIT);
        assert!(!found.is_incomplete);
        let expected: Vec<String> = std::iter::once(7)
            .chain(70..80)
            .chain([17, 27, 37, 47, 57, 67])
            .map(|i| format!("name{i}"))
            .collect();
        assert_eq!(labels(&found), expected);
    }
}

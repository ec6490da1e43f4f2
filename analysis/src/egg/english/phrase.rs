//! Values in English. The seed: "by letting game designers express their rules grammatically,
//! EGGG can transform the rules into instructions without a deep understanding of what the
//! rules mean". So the renderer stays close to the words written, and only turns the game's own
//! vocabulary into a player's: `player` is "you" (with the verb after it agreeing),
//! `player(Rock)` is "you choose Rock", `0..3` is "0 to 3", `lastmove("Understand")` is "the last
//! move was “Understand”", and EGGG's supplied actions (`Shuffle(deck)`) read as orders.
//!
//! Recursion follows the value's nesting, which the lowering bounds.

use crate::egg::model::{Call, Connective, Term, Value};
use crate::egg::words::key;

/// How the game's words are said: the verb of a move (`choose`, `place`), for `player(X)`.
#[derive(Clone, Copy, Debug)]
pub struct Voice<'a> {
    /// The verb for showing a piece, in the base form: "choose", "place", "play".
    pub move_verb: &'a str,
}

impl Default for Voice<'_> {
    fn default() -> Self {
        Self { move_verb: "play" }
    }
}

/// A value as an English clause (no capital, no full stop).
pub fn render(value: &Value, voice: Voice<'_>) -> String {
    render_terms(&value.terms, voice)
}

/// Terms as an English clause.
pub fn render_terms(terms: &[Term], voice: Voice<'_>) -> String {
    let mut out = String::new();
    let mut after_you = false;
    let mut clause_start = true;
    let long_alternatives = terms
        .split(|t| matches!(t, Term::Connective(Connective::Or, _)))
        .any(|alternative| alternative.len() > 1);
    for (at, term) in terms.iter().enumerate() {
        let mut piece = match term {
            // `if Ace` (the paper's poker: discard up to 4 cards "if Ace") is a condition on
            // the hand: "if you hold an ace".
            Term::Word(word)
                if at > 0
                    && matches!(terms[at - 1], Term::Connective(Connective::If, _))
                    && matches!(terms.get(at + 1), None | Some(Term::Connective(..))) =>
            {
                match card_rank(&word.text) {
                    Some(rank) => format!("you hold {} {rank}", crate::egg::words::article(rank)),
                    None => render_term(term, voice),
                }
            }
            // A comma before `or` when the alternatives are longer than a word each, so that
            // "a and b, or c and d" groups as the designer most likely meant.
            Term::Connective(Connective::Or, _) if long_alternatives => ",or".to_owned(),
            // `player` starting a clause is the reader; `serving player` stays a player.
            Term::Word(word) if key(&word.text) == "player" && clause_start => "you".to_owned(),
            Term::Word(word) if key(&word.text) == "opponent" && clause_start => {
                "your opponent".to_owned()
            }
            Term::Word(word) if after_you => base_form(&word.text),
            other => render_term(other, voice),
        };
        after_you = clause_start && matches!(term, Term::Word(word) if key(&word.text) == "player");
        clause_start = matches!(term, Term::Connective(..));
        if let Some(rest) = piece.strip_prefix(',') {
            out.push(',');
            piece = rest.to_owned();
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&piece);
    }
    out
}

/// One term in English.
pub fn render_term(term: &Term, voice: Voice<'_>) -> String {
    match term {
        Term::Word(word) => spoken_name(&word.text),
        Term::Number(word) | Term::Opaque(word) => word.text.clone(),
        Term::Text(text) => format!("“{}”", text.text),
        Term::Range(range) => format!(
            "{} to {}",
            render_term(&range.start, voice),
            render_term(&range.end, voice)
        ),
        Term::Dimensions { sizes, .. } => sizes
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" × "),
        Term::List { items, .. } => {
            let items: Vec<String> = items.iter().map(|item| render(item, voice)).collect();
            crate::egg::words::join_and(&items)
        }
        Term::Tuple { items, .. } => {
            let items: Vec<String> = items.iter().map(|item| render(item, voice)).collect();
            format!("({})", items.join(", "))
        }
        Term::Group(inner) => render(inner, voice),
        Term::Call(call) => render_call(call, voice),
        Term::Arithmetic(arithmetic) => {
            let operator = match arithmetic.operator {
                '-' => "−".to_owned(),
                '*' => "×".to_owned(),
                other => other.to_string(),
            };
            format!(
                "{} {operator} {}",
                render_term(&arithmetic.left, voice),
                render_term(&arithmetic.right, voice)
            )
        }
        Term::Connective(connective, _) => connective.as_str().to_owned(),
    }
}

/// A call: the game's vocabulary, EGGG's supplied actions, or `name(arguments)` as written.
pub fn render_call(call: &Call, voice: Voice<'_>) -> String {
    let argument = |i: usize| {
        call.arguments
            .get(i)
            .map(|a| render(a, voice))
            .unwrap_or_default()
    };
    let noun = |i: usize| the(&argument(i));
    match (key(&call.function.text).as_str(), call.arguments.len()) {
        ("player", 1) => format!("you {} {}", voice.move_verb, argument(0)),
        ("opponent", 1) => format!(
            "your opponent {} {}",
            third_person(voice.move_verb),
            argument(0)
        ),
        ("lastmove", 1) => format!("the last move was {}", argument(0)),
        ("shuffle", 1) => format!("shuffle {}", noun(0)),
        ("deal", 2) => format!("deal {} {} to each player", argument(1), argument(0)),
        ("deal", 1) => format!("deal {} to each player", noun(0)),
        ("bet", 1) => format!("bet {}", argument(0)),
        ("compare", 1) => format!("compare {}", noun(0)),
        // `Discard(hand, N)`: N counts cards (the seed's poker deals 5 − N back).
        ("discard", 2) => format!("discard {} cards from {}", argument(1), noun(0)),
        ("draw", 1) => format!("draw {}", argument(0)),
        ("reveal", 1) => format!("reveal {}", noun(0)),
        ("roll", 1) => format!("roll {}", noun(0)),
        ("highest", 1) => format!("the highest {}", argument(0)),
        ("lowest", 1) => format!("the lowest {}", argument(0)),
        ("maximize", 1) => format!("your {} as high as you can", argument(0)),
        ("minimize", 1) => format!("your {} as low as you can", argument(0)),
        _ => {
            let arguments: Vec<String> = (0..call.arguments.len()).map(argument).collect();
            format!("{}({})", call.function.text, arguments.join(", "))
        }
    }
}

/// A name written as code, as words: `StraightFlush` → "straight flush", `ThreeInARow` →
/// "three in a row", `FourKind` → "four of a kind" (a number of a kind, as card players say
/// it). Names of one word (`Fold`, `Rock`) and names with digits stay as written.
pub fn spoken_name(name: &str) -> String {
    let words = crate::rulebook::words_of_code_name(name);
    if !words.contains(' ') || name.chars().any(|c| c.is_ascii_digit()) {
        return name.to_owned();
    }
    let lower = words.to_lowercase();
    match lower.split_once(' ') {
        Some((count, "kind")) if crate::egg::words::number_word_value(count).is_some() => {
            format!("{count} of a kind")
        }
        _ => lower,
    }
}

/// The rank a card word names (`Ace`, `kings`), in lower case: EGGG's cards are its built-in
/// equipment (`Shuffle(deck)`, `Deal(cards, 5)`), so their ranks are words of the language.
fn card_rank(word: &str) -> Option<&'static str> {
    const RANKS: &[&str] = &["ace", "king", "queen", "jack"];
    let word = key(word);
    RANKS.iter().copied().find(|rank| *rank == word)
}

/// "the deck", but "money" and "5 cards" stay as they are.
fn the(noun: &str) -> String {
    const MASS_NOUNS: &[&str] = &["money", "score", "time"];
    if noun.is_empty()
        || noun.starts_with(|c: char| c.is_ascii_digit())
        || MASS_NOUNS.contains(&key(noun).as_str())
    {
        noun.to_owned()
    } else {
        format!("the {noun}")
    }
}

/// The verb after "you": `loses` → "lose", `removes` → "remove", `passes` → "pass".
fn base_form(verb: &str) -> String {
    for suffix in ["sses", "shes", "ches", "xes", "zes"] {
        if verb.ends_with(suffix) {
            return verb[..verb.len() - 2].to_owned();
        }
    }
    match verb.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') && stem.len() > 1 => stem.to_owned(),
        _ => verb.to_owned(),
    }
}

/// "choose" → "chooses", "pass" → "passes".
pub fn third_person(verb: &str) -> String {
    if ["s", "sh", "ch", "x", "z"]
        .iter()
        .any(|s| verb.ends_with(s))
    {
        format!("{verb}es")
    } else {
        format!("{verb}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_are_said_as_words() {
        assert_eq!(spoken_name("StraightFlush"), "straight flush");
        assert_eq!(spoken_name("ThreeInARow"), "three in a row");
        assert_eq!(spoken_name("FourKind"), "four of a kind");
        assert_eq!(spoken_name("Fold"), "Fold");
        assert_eq!(spoken_name("x"), "x");
    }

    #[test]
    fn verbs_agree_with_you() {
        assert_eq!(base_form("loses"), "lose");
        assert_eq!(base_form("removes"), "remove");
        assert_eq!(base_form("passes"), "pass");
        assert_eq!(base_form("may"), "may");
        assert_eq!(third_person("choose"), "chooses");
        assert_eq!(third_person("pass"), "passes");
    }
}

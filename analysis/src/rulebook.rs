//! A game's rulebook: the rules as a player reads them, in the order published rulebooks use,
//! the same for every language.
//!
//! The overview comes first: who plays on what (one sentence) and the object of the game. Then
//! the chapters: the equipment, the set-up, how turns go, the moves, how the game ends and who
//! wins, the scoring, and notes. Each language builds its rulebook from what it recognises of
//! the game (see `ludi::english`, `gdl::english::idioms`, `egg::english`); the literal level,
//! one sentence per rule, stays each language's [`crate::Explanation`] (`ludeme explain
//! --literal`).

use serde::Serialize;

use crate::wrap::wrap_into;
use crate::{Db, SourceFile, Syntax, TextRange};

/// A game's rules as a player reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Rulebook {
    /// The game's name, or the file's when the game has none.
    pub title: String,
    /// The overview: players and board in one sentence, then the object of the game.
    pub overview: Vec<Line>,
    /// The chapters after the overview, in [`Part`] order, none empty.
    pub chapters: Vec<Chapter>,
}

/// A chapter of a rulebook.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Chapter {
    pub part: Part,
    pub lines: Vec<Line>,
}

/// One sentence and the source it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Line {
    pub text: String,
    /// The ranges (in the game's own file) of what the sentence renders; empty for a sentence
    /// that only joins others or comes from an inherited file.
    pub ranges: Vec<TextRange>,
}

impl Line {
    pub fn new(text: impl Into<String>, ranges: Vec<TextRange>) -> Self {
        Line {
            text: text.into(),
            ranges,
        }
    }
}

/// The parts of a rulebook, in reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    Equipment,
    Setup,
    Turns,
    Moves,
    /// What each player sees (GDL-II's `sees`): games of imperfect information.
    Information,
    Ending,
    Scoring,
    Notes,
}

impl Part {
    pub fn title(self) -> &'static str {
        match self {
            Part::Equipment => "Equipment",
            Part::Setup => "Setup",
            Part::Turns => "Turns",
            Part::Moves => "Moves",
            Part::Information => "What each player sees",
            Part::Ending => "End of the game",
            Part::Scoring => "Scoring",
            Part::Notes => "Notes",
        }
    }
}

impl Rulebook {
    pub fn new(title: impl Into<String>) -> Self {
        Rulebook {
            title: title.into(),
            ..Rulebook::default()
        }
    }

    /// Adds a sentence to the chapter `part` (made when missing, kept in [`Part`] order). An
    /// empty text is dropped.
    pub fn add(&mut self, part: Part, line: Line) {
        if line.text.trim().is_empty() {
            return;
        }
        let line = Line {
            text: finish(&line.text),
            ..line
        };
        match self
            .chapters
            .binary_search_by_key(&part, |chapter| chapter.part)
        {
            Ok(at) => self.chapters[at].lines.push(line),
            Err(at) => self.chapters.insert(
                at,
                Chapter {
                    part,
                    lines: vec![line],
                },
            ),
        }
    }

    /// Adds a sentence to the overview (an empty text is dropped).
    pub fn add_overview(&mut self, line: Line) {
        if !line.text.trim().is_empty() {
            self.overview.push(Line {
                text: finish(&line.text),
                ..line
            });
        }
    }

    pub fn chapter(&self, part: Part) -> Option<&Chapter> {
        self.chapters.iter().find(|chapter| chapter.part == part)
    }

    /// What [`faults`] finds in the rulebook's sentences (the title, a name, aside).
    pub fn faults(&self) -> Vec<String> {
        self.overview
            .iter()
            .chain(self.chapters.iter().flat_map(|chapter| &chapter.lines))
            .flat_map(|line| faults(&line.text))
            .collect()
    }

    /// Every sentence, the overview's first, in reading order.
    pub fn sentences(&self) -> impl Iterator<Item = &str> {
        self.overview
            .iter()
            .chain(self.chapters.iter().flat_map(|chapter| &chapter.lines))
            .map(|line| line.text.as_str())
    }

    /// Plain text wrapped at `width` columns: the title, the overview as a paragraph, then each
    /// chapter's title and its sentences as `- ` bullets.
    pub fn to_plain_text(&self, width: usize) -> String {
        let mut out = format!("{}\n", self.title);
        if !self.overview.is_empty() {
            let paragraph: Vec<&str> = self.overview.iter().map(|l| l.text.as_str()).collect();
            wrap_into(&mut out, &paragraph.join(" "), "  ", "  ", width);
        }
        for chapter in &self.chapters {
            out.push('\n');
            out.push_str(chapter.part.title());
            out.push('\n');
            for line in &chapter.lines {
                wrap_into(&mut out, &line.text, "  - ", "    ", width);
            }
        }
        out
    }

    /// Markdown, for the editors' rulebook beside the game: the title as a heading, the
    /// overview as a paragraph, then each chapter as a second-level heading over a list of its
    /// sentences. The sentences' own characters are escaped: `x_player` stays as written.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("# {}\n", markdown_escape(&self.title));
        if !self.overview.is_empty() {
            let paragraph: Vec<String> = self
                .overview
                .iter()
                .map(|line| markdown_escape(&line.text))
                .collect();
            out.push('\n');
            out.push_str(&paragraph.join(" "));
            out.push('\n');
        }
        for chapter in &self.chapters {
            out.push_str("\n## ");
            out.push_str(chapter.part.title());
            out.push_str("\n\n");
            for line in &chapter.lines {
                out.push_str("- ");
                out.push_str(&markdown_escape(&line.text));
                out.push('\n');
            }
        }
        out
    }
}

/// `text` with the characters Markdown would read as markup escaped by a backslash.
fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The rulebook of `file`, whatever its language.
pub fn rulebook_of(db: &dyn Db, file: SourceFile) -> &Rulebook {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => crate::gdl::english::gdl_rulebook(db, file),
        Syntax::Ludi => crate::ludi::ludi_rulebook(db, file),
        Syntax::Egg => crate::egg::egg_rulebook(db, file),
    }
}

/// Where `file` names its game: Ludi's `(game Hex ...)`, EGGG's `game is poker` or `Pong is
/// like SquareBounce`. A GDL file names no game.
pub fn game_name_range(db: &dyn Db, file: SourceFile) -> Option<TextRange> {
    match file.syntax(db) {
        Syntax::Ludi => crate::ludi::ludi_game(db, file)
            .as_ref()
            .and_then(|game| game.name.as_ref())
            .map(|name| name.range),
        Syntax::Egg => {
            use crate::egg::model::StatementKind;
            crate::egg::egg_file(db, file)
                .statements
                .iter()
                .find_map(|statement| match &statement.kind {
                    StatementKind::GameName(name) | StatementKind::Like { name, .. } => {
                        Some(name.range)
                    }
                    _ => None,
                })
        }
        Syntax::GdlKif | Syntax::GdlInfix => None,
    }
}

/// The hover on a game's name: the rulebook's title and overview, as Markdown, with the range
/// of the name; `None` elsewhere.
pub fn overview_hover(db: &dyn Db, file: SourceFile, offset: usize) -> Option<(TextRange, String)> {
    let range = game_name_range(db, file)?;
    if !(range.start <= offset && offset <= range.end) {
        return None;
    }
    let book = rulebook_of(db, file);
    let overview: Vec<&str> = book
        .overview
        .iter()
        .map(|line| line.text.as_str())
        .collect();
    if overview.is_empty() {
        return None;
    }
    Some((
        range,
        format!(
            "**{}**\n\n{}\n\n*The whole rulebook: `ludeme explain`.*",
            markdown_escape(&book.title),
            markdown_escape(&overview.join(" "))
        ),
    ))
}

/// "a hexagonal board", "an 8×8 square board", "an 11×11 rhombus board".
pub fn with_indefinite_article(phrase: &str) -> String {
    let number: String = phrase.chars().take_while(char::is_ascii_digit).collect();
    let vowel_sound = if number.is_empty() {
        phrase.starts_with(['a', 'e', 'i', 'o', 'u'])
    } else {
        // Spoken numbers starting with a vowel: eight, eighty..., eleven, eighteen.
        number.starts_with('8') || number == "11" || number == "18"
    };
    format!("{} {phrase}", if vowel_sound { "an" } else { "a" })
}

/// A final period; the case is the caller's (GDL names stay as written, `xplayer`).
fn finish(text: &str) -> String {
    let mut out = text.trim().to_owned();
    if !out.is_empty() && !ends_sentence(&out) {
        out.push('.');
    }
    out
}

/// Capital first letter, final period.
pub fn sentence(text: &str) -> String {
    let text = text.trim();
    let mut chars = text.chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !ends_sentence(&out) {
        out.push('.');
    }
    out
}

/// Whether `text` needs no period: it ends with one, or with `!`, `?`, `:`, or it is a note
/// in parentheses ("(a rule that could not be read: line 4)").
fn ends_sentence(text: &str) -> bool {
    text.ends_with(['.', '!', '?', ':']) || (text.starts_with('(') && text.ends_with(')'))
}

/// A name written as code, as words: `WhiteCamp` → "White Camp", `SideSE` → "Side SE",
/// `two_pair` → "two pair". Capitals are kept (the caller lowercases common nouns).
pub fn words_of_code_name(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (at, &c) in chars.iter().enumerate() {
        if c == '_' {
            out.push(' ');
            continue;
        }
        let previous = at.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(at + 1).copied();
        // A capital starts a word after a small letter (`WhiteCamp`), or ends a run of
        // capitals when a small letter follows it (`ARow` in `ThreeInARow`).
        let starts_word = c.is_uppercase()
            && (previous.is_some_and(char::is_lowercase)
                || (previous.is_some_and(char::is_uppercase)
                    && next.is_some_and(char::is_lowercase)));
        if starts_word {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// What [`crate::Explanation`]s and rulebooks must never print, for the tests over every game:
/// an empty clause ("wins by ."), a code name left in place of words (`StraightFlush`, a
/// `snake_case` or `kebab-case` name outside quotes and parentheses), or a sentence longer
/// than [`LONGEST_SENTENCE`] words. Returns the faults found, each with its sentence.
pub fn faults(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for sentence in sentences_of(text) {
        let words = sentence.split_whitespace().count();
        if words > LONGEST_SENTENCE {
            found.push(format!("{words} words: {sentence}"));
        }
        if has_empty_clause(sentence) {
            found.push(format!("an empty clause: {sentence}"));
        }
        if let Some(name) = code_name(sentence) {
            found.push(format!("the code name `{name}`: {sentence}"));
        }
    }
    found
}

/// The most words a sentence of a rulebook may have.
pub const LONGEST_SENTENCE: usize = 60;

/// The parts that could not be read a rulebook names one by one; the rest are counted (a file
/// of thousands of syntax errors gets a short note, in time linear in its size).
pub(crate) const UNREADABLE_NAMED: usize = 100;

/// The 1-based line of each byte offset of a text, each found by a binary search.
pub(crate) struct LineNumbers {
    starts: Vec<usize>,
}

impl LineNumbers {
    pub(crate) fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        LineNumbers { starts }
    }

    /// The line `offset` is on (an offset past the end is on the last line).
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset)
    }
}

/// The sentences of plain text: bullets and lines joined, split after `.`, `!`, `?` followed by
/// a space or the end.
fn sentences_of(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for paragraph in text.split("\n  - ").flat_map(|p| p.split("\n\n")) {
        let mut start = 0;
        let bytes = paragraph.as_bytes();
        for (at, &byte) in bytes.iter().enumerate() {
            let ends = matches!(byte, b'.' | b'!' | b'?')
                && bytes
                    .get(at + 1)
                    .is_none_or(|next| next.is_ascii_whitespace());
            if ends {
                out.push(paragraph[start..=at].trim());
                start = at + 1;
            }
        }
        if start < paragraph.len() && !paragraph[start..].trim().is_empty() {
            out.push(paragraph[start..].trim());
        }
    }
    out
}

/// A clause with nothing where words should be: "by .", "when ,", "is .", "( )".
fn has_empty_clause(sentence: &str) -> bool {
    const DANGLING: [&str; 10] = [
        "by", "when", "is", "are", "of", "to", "on", "with", "the", "and",
    ];
    let words: Vec<&str> = sentence.split_whitespace().collect();
    words.windows(2).any(|pair| {
        DANGLING.contains(&pair[0].to_lowercase().as_str())
            && matches!(pair[1], "." | "," | ";" | ":")
    }) || sentence.contains("()")
        || sentence.contains(" ,")
        || sentence.contains(" .")
        || sentence.ends_with(" by.")
        || sentence.ends_with(" when.")
}

/// A word written as code outside quotes: `StraightFlush` (inner capitals) or `two_pair`.
/// Names the game's author gave as names (quoted, in parentheses as in "(drop (X))", or with
/// digits like `c1`) are left alone.
fn code_name(sentence: &str) -> Option<String> {
    let mut depth = 0usize;
    let mut quoted = false;
    for token in sentence.split_whitespace() {
        let opens = token.matches(['(', '“', '`']).count();
        let closes = token.matches([')', '”', '`']).count();
        if token.contains('“') || token.contains('`') {
            quoted = !token.contains('”') && token.matches('`').count() % 2 == 1 || quoted;
        }
        let inside = depth > 0 || quoted || opens > 0;
        let word = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
        if !inside && is_code_word(word) {
            return Some(word.to_owned());
        }
        depth = (depth + opens).saturating_sub(closes);
        if token.contains('”') || (token.contains('`') && !token.starts_with('`')) {
            quoted = false;
        }
    }
    None
}

/// `StraightFlush`, `threeKind`, `two_pair`: capitals inside a word of letters, or an
/// underscore between letters.
pub fn is_code_word(word: &str) -> bool {
    if word.chars().any(|c| c.is_ascii_digit()) || word.len() < 3 {
        return false;
    }
    let inner_capital = word.char_indices().skip(1).any(|(at, c)| {
        c.is_uppercase() && word[..at].chars().last().is_some_and(char::is_lowercase)
    });
    let underscore = word.trim_matches('_').contains('_');
    inner_capital || underscore
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_numbers_count_from_one_and_keep_offsets_past_the_end_on_the_last_line() {
        let lines = LineNumbers::new("ab\ncd\n\nef");
        let found: Vec<usize> = [0, 2, 3, 5, 6, 7, 9, 100]
            .iter()
            .map(|&offset| lines.line_of(offset))
            .collect();
        assert_eq!(found, [1, 1, 2, 2, 3, 4, 4, 4]);
    }

    #[test]
    fn hover_on_the_games_name_shows_the_overview() {
        use std::sync::Arc;
        let db = crate::RootDatabase::default();
        let text = "game is tic-tac-toe\nplayers are x and o\nturns alternate\n3 x 3 grid\nmove is place\npieces are X and O\n";
        let file = SourceFile::new(&db, "t.egg".into(), Syntax::Egg, Arc::from(text), None);
        let on_name = text.find("tic-tac-toe").unwrap() + 2;
        let (range, markdown) = overview_hover(&db, file, on_name).expect("a hover on the name");
        assert_eq!(&text[range.start..range.end], "tic-tac-toe");
        assert!(markdown.contains("for two players"), "{markdown}");
        assert!(markdown.contains("3 × 3 grid"), "{markdown}");
        // Elsewhere, no overview.
        assert!(overview_hover(&db, file, text.find("players").unwrap()).is_none());
        let ludi = "(game Hex (players White Black) (board (rhombus 11)) (end (All win (connect All-sides))))";
        let file = SourceFile::new(&db, "h.ludi".into(), Syntax::Ludi, Arc::from(ludi), None);
        let (range, markdown) = overview_hover(&db, file, 7).expect("a hover on Hex");
        assert_eq!(&ludi[range.start..range.end], "Hex");
        assert!(markdown.contains("**Hex**"), "{markdown}");
        let gdl = "(role x) (role o)";
        let file = SourceFile::new(&db, "g.kif".into(), Syntax::GdlKif, Arc::from(gdl), None);
        assert!(overview_hover(&db, file, 2).is_none());
    }

    #[test]
    fn markdown_has_the_title_the_overview_and_the_chapters_in_order() {
        let mut book = Rulebook::new("Tic_tac_toe");
        book.add(
            Part::Ending,
            Line::new("x_player wins with *three* in a row", vec![]),
        );
        book.add(Part::Equipment, Line::new("A 3×3 board", vec![]));
        book.add_overview(Line::new("Two players mark a board", vec![]));
        assert_eq!(
            book.to_markdown(),
            "# Tic\\_tac\\_toe\n\nTwo players mark a board.\n\
             \n## Equipment\n\n- A 3×3 board.\n\
             \n## End of the game\n\n- x\\_player wins with \\*three\\* in a row.\n"
        );
    }

    #[test]
    fn empty_clauses_are_found() {
        assert!(!faults("A player wins by .").is_empty());
        assert!(faults("A player wins by making a line of 3.").is_empty());
    }

    #[test]
    fn code_names_are_found_outside_quotes_and_parentheses() {
        assert!(!faults("The hands are StraightFlush and Flush.").is_empty());
        assert!(!faults("A two_pair is two pairs.").is_empty());
        assert!(faults("Players alternate (control (xplayer)).").is_empty());
        assert!(faults("A move labelled “JumpOver” jumps.").is_empty());
        assert!(!faults("White's pieces start on WhiteCamp.").is_empty());
        assert!(faults("White's pieces start on their camp (WhiteCamp).").is_empty());
    }

    #[test]
    fn code_names_become_words() {
        assert_eq!(words_of_code_name("WhiteCamp"), "White Camp");
        assert_eq!(words_of_code_name("SideSE"), "Side SE");
        assert_eq!(words_of_code_name("two_pair"), "two pair");
        assert_eq!(words_of_code_name("Stone"), "Stone");
        assert_eq!(words_of_code_name("ThreeInARow"), "Three In A Row");
    }

    #[test]
    fn long_sentences_are_found() {
        let long = vec!["word"; 61].join(" ") + ".";
        assert!(!faults(&long).is_empty());
        let short = vec!["word"; 60].join(" ") + ".";
        assert!(faults(&short).is_empty());
    }
}

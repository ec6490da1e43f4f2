//! Word wrapping for the plain-text rules sheets of every language (`ludeme explain`).

/// Appends `text` word-wrapped at `width` columns, the first line after `first`, the others after
/// `rest`. A name and its arguments, `cell (1, 2)`, stay on one line; so do words longer than a
/// line.
pub(crate) fn wrap_into(out: &mut String, text: &str, first: &str, rest: &str, width: usize) {
    let mut line = String::from(first);
    let mut line_len = first.chars().count();
    let mut empty = true;
    for word in unbreakable_words(text) {
        let word_len = word.chars().count();
        if !empty && line_len + 1 + word_len > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from(rest);
            line_len = rest.chars().count();
            empty = true;
        }
        if !empty {
            line.push(' ');
            line_len += 1;
        }
        line.push_str(word);
        line_len += word_len;
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
}

/// The words of `text` for wrapping: split at spaces outside parentheses, except between a name
/// and its arguments.
fn unbreakable_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 && !(names_arguments(text, at)) => {
                if start < at {
                    words.push(&text[start..at]);
                }
                start = at + 1;
            }
            _ => {}
        }
    }
    if start < text.len() {
        words.push(&text[start..]);
    }
    words
}

/// Whether the space at `at` stands between a name and its argument list: `cell (1, 2)`, not
/// `(1, 2), (2, 3)`.
fn names_arguments(text: &str, at: usize) -> bool {
    text[at + 1..].starts_with('(')
        && text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| !matches!(c, ',' | ';' | ':' | '(' | ')'))
}

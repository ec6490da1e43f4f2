//! Range formatting for GDL: the whole top-level rules and facts a range touches, printed by the
//! one GDL formatter (`crate::gdl::format`). Other languages have no formatter, so no range
//! formatting either.

use crate::gdl::{FormatError, format_gdl_text};
use crate::{Db, SourceFile, Syntax, TextRange, parse};

/// The edit (range, new text) that formats the top-level forms `range` touches; `Ok(None)` when
/// they are formatted already or the range touches none. A range whose forms do not format
/// (syntax errors, names the syntax cannot spell) gives the formatter's reason.
///
/// Call this outside salsa queries: the formatter checks its output in a database of its own.
pub fn format_range(
    db: &dyn Db,
    file: SourceFile,
    range: TextRange,
) -> Result<Option<(TextRange, String)>, FormatError> {
    let syntax = file.syntax(db);
    if !matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix) {
        return Err(FormatError::NotGdl);
    }
    let parse = parse(db, file);
    let root = parse.root();
    let mut cursor = root.walk();
    let touched: Vec<TextRange> = root
        .named_children(&mut cursor)
        .filter(|item| !item.is_extra())
        .map(|item| TextRange::new(item.start_byte(), item.end_byte()))
        .filter(|item| item.is_touched_by(range))
        .collect();
    let (Some(first), Some(last)) = (touched.first(), touched.last()) else {
        return Ok(None);
    };
    let span = TextRange::new(first.start, last.end);
    let original = &file.text(db)[span.start..span.end];
    let formatted = format_gdl_text(original, syntax, syntax)?;
    // The formatter ends a file with a newline; the forms are followed by what followed them.
    let formatted = formatted.trim_end_matches('\n');
    Ok((formatted != original).then(|| (span, formatted.to_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RootDatabase;
    use crate::ide::fixture::source;

    fn format(
        text: &str,
        syntax: Syntax,
        range: std::ops::Range<usize>,
    ) -> Result<Option<String>, FormatError> {
        let db = RootDatabase::default();
        let file = source(&db, "t", syntax, text);
        format_range(&db, file, range.into()).map(|edit| {
            edit.map(|(span, new)| format!("{}{new}{}", &text[..span.start], &text[span.end..]))
        })
    }

    #[test]
    fn only_the_touched_forms_are_formatted() {
        let text = "(role   x)\n(<= terminal   (true (done)))\n(init    (done))\n";
        let middle = text.find("terminal").unwrap();
        let result = format(text, Syntax::GdlKif, middle..middle + 3)
            .unwrap()
            .unwrap();
        assert_eq!(
            result,
            "(role   x)\n(<= terminal\n    (true (done)))\n(init    (done))\n"
        );
    }

    #[test]
    fn formatted_forms_and_empty_ranges_outside_forms_give_nothing() {
        let text = "(role x)\n\n(init (done))\n";
        assert_eq!(format(text, Syntax::GdlKif, 0..text.len()).unwrap(), None);
        assert_eq!(format(text, Syntax::GdlKif, 9..9).unwrap(), None);
    }

    #[test]
    fn broken_forms_are_left_alone_with_the_reason() {
        let text = "(role x)\n(init (done)\n";
        assert!(matches!(
            format(text, Syntax::GdlKif, 10..11),
            Err(FormatError::SyntaxErrors(_))
        ));
        assert_eq!(
            format("x", Syntax::Ludi, 0..1).unwrap_err(),
            FormatError::NotGdl
        );
    }

    #[test]
    fn infix_forms_format_too() {
        let text = "role(x)\nterminal :-   true(done)\n";
        let result = format(text, Syntax::GdlInfix, 10..10).unwrap().unwrap();
        assert_eq!(result, "role(x)\nterminal :- true(done)\n");
    }
}

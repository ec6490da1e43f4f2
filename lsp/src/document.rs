//! An open document: its text as a rope, and the conversions between LSP positions and byte
//! offsets in the negotiated position encoding.

use ludeme_analysis::{TextEdit, TextRange};
use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range};

/// How LSP `character` offsets count: UTF-16 code units (the protocol's default) or bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PositionEncoding {
    Utf8,
    #[default]
    Utf16,
}

/// The text of an open document.
///
/// Lines end at `\n` (a `\r\n` pair ends with it); a lone `\r` is not a line break here, unlike
/// in the LSP specification, so that lines are exactly tree-sitter's rows. Editors do not produce
/// lone `\r` line endings in practice.
#[derive(Clone, Debug)]
pub struct Document {
    rope: Rope,
    pub version: i32,
    encoding: PositionEncoding,
}

impl Document {
    pub fn new(text: &str, version: i32, encoding: PositionEncoding) -> Self {
        Self {
            rope: Rope::from_str(text),
            version,
            encoding,
        }
    }

    pub fn text(&self) -> String {
        self.rope.to_string()
    }

    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    /// Replaces `range` (or the whole text when `None`) by `new_text` and returns the edit in the
    /// form tree-sitter needs. Positions past the end of a line or of the text are clamped, as
    /// the protocol asks, so a confused client cannot make the server fail.
    pub fn apply_change(&mut self, range: Option<Range>, new_text: &str) -> TextEdit {
        let (start, old_end) = match range {
            Some(range) => {
                let start = self.offset(range.start);
                let end = self.offset(range.end);
                (start.min(end), start.max(end))
            }
            None => (0, self.rope.len_bytes()),
        };
        let start_point = self.point(start);
        let old_end_point = self.point(old_end);
        let start_char = self.rope.byte_to_char(start);
        let old_end_char = self.rope.byte_to_char(old_end);
        self.rope.remove(start_char..old_end_char);
        self.rope.insert(start_char, new_text);
        let new_end = start + new_text.len();
        TextEdit::new(start_point, old_end_point, self.point(new_end))
    }

    /// (byte, row, byte column) of `offset`, as tree-sitter counts positions.
    fn point(&self, offset: usize) -> (usize, usize, usize) {
        let row = self.rope.byte_to_line(offset);
        (offset, row, offset - self.rope.line_to_byte(row))
    }

    /// The byte offset of an LSP position, clamped into the text.
    pub fn offset(&self, position: Position) -> usize {
        let line = position.line as usize;
        if line >= self.rope.len_lines() {
            return self.rope.len_bytes();
        }
        let line_start = self.rope.line_to_byte(line);
        let line_end = line_start + self.line_len_without_break(line);
        let character = position.character as usize;
        match self.encoding {
            PositionEncoding::Utf8 => {
                let byte = (line_start + character).min(line_end);
                // Inside a multi-byte character: snap back to its start.
                self.rope.char_to_byte(self.rope.byte_to_char(byte))
            }
            PositionEncoding::Utf16 => {
                let line_start_cu = self
                    .rope
                    .char_to_utf16_cu(self.rope.byte_to_char(line_start));
                let line_end_cu = self.rope.char_to_utf16_cu(self.rope.byte_to_char(line_end));
                let target = (line_start_cu + character).min(line_end_cu);
                self.rope.char_to_byte(self.rope.utf16_cu_to_char(target))
            }
        }
    }

    /// The LSP position of a byte offset (clamped into the text).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.rope.len_bytes());
        let line = self.rope.byte_to_line(offset);
        let line_start = self.rope.line_to_byte(line);
        let character = match self.encoding {
            PositionEncoding::Utf8 => offset - line_start,
            PositionEncoding::Utf16 => {
                self.rope.char_to_utf16_cu(self.rope.byte_to_char(offset))
                    - self
                        .rope
                        .char_to_utf16_cu(self.rope.byte_to_char(line_start))
            }
        };
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, range: TextRange) -> Range {
        Range::new(self.position(range.start), self.position(range.end))
    }

    fn line_len_without_break(&self, line: usize) -> usize {
        let slice = self.rope.line(line);
        let mut len = slice.len_bytes();
        if len > 0 && slice.byte(len - 1) == b'\n' {
            len -= 1;
            if len > 0 && slice.byte(len - 1) == b'\r' {
                len -= 1;
            }
        }
        len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn utf16_positions_count_code_units() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 units.
        let doc = Document::new("(a é)\n(𝄞 b)\n", 1, PositionEncoding::Utf16);
        assert_eq!(doc.offset(pos(0, 4)), 5); // the `)` after é
        assert_eq!(doc.offset(pos(1, 3)), 12); // the space after 𝄞
        assert_eq!(doc.position(12), pos(1, 3));
        assert_eq!(doc.position(5), pos(0, 4));
    }

    #[test]
    fn utf8_positions_count_bytes_and_snap_to_characters() {
        let doc = Document::new("é)", 1, PositionEncoding::Utf8);
        assert_eq!(doc.offset(pos(0, 1)), 0); // inside é: snapped back
        assert_eq!(doc.offset(pos(0, 2)), 2);
        assert_eq!(doc.position(2), pos(0, 2));
    }

    #[test]
    fn out_of_range_positions_are_clamped() {
        let doc = Document::new("ab\r\ncd", 1, PositionEncoding::Utf16);
        assert_eq!(doc.offset(pos(0, 99)), 2); // end of line 0, before \r\n
        assert_eq!(doc.offset(pos(7, 0)), 6); // past the last line: end of text
    }

    #[test]
    fn changes_edit_the_text_and_report_tree_sitter_points() {
        let mut doc = Document::new("(role x)\n(role o)\n", 1, PositionEncoding::Utf16);
        let range = Range::new(pos(1, 6), pos(1, 7));
        doc.apply_change(Some(range), "oplayer");
        assert_eq!(doc.text(), "(role x)\n(role oplayer)\n");
        doc.apply_change(None, "whole");
        assert_eq!(doc.text(), "whole");
    }
}

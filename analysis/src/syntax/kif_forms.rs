//! The forms of a KIF file — constants, variables, numbers, lists and `(<= ...)` rules — as a
//! flat arena that the KIF lowering walks.
//!
//! Two builders fill it:
//!
//! - [`read_kif`], a byte-level reader for text without syntax errors. A batch check reads every
//!   form of hundreds of games; reading them here takes a fraction of a tree-sitter parse, and
//!   the tree is never built. The reader accepts a strict subset of what the grammar accepts
//!   without errors (see [`read_kif`]) and gives up on anything else, so a file it accepts has
//!   no syntax diagnostics and exactly the forms the grammar would give (a test compares both on
//!   every corpus game and on random text).
//! - [`Forms::from_tree`], from the tree-sitter tree, for every other file: one with syntax errors
//!   (whose ERROR and MISSING nodes are left out, reported as syntax diagnostics already).

use crate::TextRange;

/// The index of a form in its [`Forms`].
pub type FormId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormKind {
    Constant,
    Variable,
    Number,
    /// `(...)`; its elements are its children.
    List,
    /// `(<= ...)`; its elements (the head, then the body) are its children, `<=` is not.
    Rule,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    pub kind: FormKind,
    pub range: TextRange,
    children_start: u32,
    children_len: u32,
}

/// Every form of a file. Children of a form are stored contiguously, so a form's elements are a
/// slice; the top-level forms are the elements of [`Forms::top_level`].
/// Equal forms have equal arenas: both builders number forms in the order they close.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Forms {
    forms: Vec<Form>,
    children: Vec<FormId>,
    top_level: std::ops::Range<usize>,
}

impl Forms {
    pub fn top_level(&self) -> &[FormId] {
        &self.children[self.top_level.clone()]
    }

    pub fn get(&self, id: FormId) -> &Form {
        &self.forms[id as usize]
    }

    /// Every form, in the order they close (children before their parent).
    pub fn all(&self) -> &[Form] {
        &self.forms
    }

    /// The elements of a list or rule (empty for atoms).
    pub fn elements(&self, id: FormId) -> &[FormId] {
        let form = self.get(id);
        let start = form.children_start as usize;
        &self.children[start..start + form.children_len as usize]
    }

    /// Whether the form is a constant or a number: what may head a sentence or function term.
    pub fn is_atom(&self, id: FormId) -> bool {
        matches!(self.get(id).kind, FormKind::Constant | FormKind::Number)
    }

    /// Adds a form whose children are `pending[from..]`, which it takes.
    fn close(
        &mut self,
        kind: FormKind,
        range: TextRange,
        pending: &mut Vec<FormId>,
        from: usize,
    ) -> FormId {
        let children_start = self.children.len();
        self.children.extend(pending.drain(from..));
        let id = FormId::try_from(self.forms.len()).expect("fewer than 2^32 forms");
        self.forms.push(Form {
            kind,
            range,
            children_start: u32::try_from(children_start).expect("fewer than 2^32 forms"),
            children_len: u32::try_from(self.children.len() - children_start)
                .expect("fewer than 2^32 forms"),
        });
        id
    }

    fn finish(&mut self, pending: &mut Vec<FormId>) {
        let start = self.children.len();
        self.children.append(pending);
        self.top_level = start..self.children.len();
    }

    /// The forms of a tree-sitter tree of the KIF grammar (either of its two parsers), walked
    /// with one cursor and without recursion.
    pub fn from_tree(root: tree_sitter::Node<'_>) -> Forms {
        let language = root.language();
        let id = |kind: &str| language.id_for_node_kind(kind, true);
        let kinds = [
            (id("constant"), FormKind::Constant),
            (id("variable"), FormKind::Variable),
            (id("number"), FormKind::Number),
            (id("list"), FormKind::List),
            (id("rule"), FormKind::Rule),
        ];
        let kind_of = |node: tree_sitter::Node<'_>| {
            if node.is_extra() || node.is_error() || node.is_missing() {
                return None;
            }
            let kind_id = node.kind_id();
            kinds
                .iter()
                .find(|(id, _)| *id == kind_id)
                .map(|(_, kind)| *kind)
        };

        let mut forms = Forms::default();
        let mut pending = Vec::new();
        // The open lists and rules: (kind, range, where their children start in `pending`).
        let mut open: Vec<(FormKind, TextRange, usize)> = Vec::new();
        let mut cursor = root.walk();
        if !cursor.goto_first_child() {
            forms.finish(&mut pending);
            return forms;
        }
        loop {
            let node = cursor.node();
            let range = TextRange::new(node.start_byte(), node.end_byte());
            match kind_of(node) {
                Some(kind @ (FormKind::List | FormKind::Rule)) => {
                    open.push((kind, range, pending.len()));
                    if cursor.goto_first_child() {
                        continue;
                    }
                    let (kind, range, from) = open.pop().expect("just pushed");
                    let id = forms.close(kind, range, &mut pending, from);
                    pending.push(id);
                }
                Some(kind) => {
                    let from = pending.len();
                    let id = forms.close(kind, range, &mut pending, from);
                    pending.push(id);
                }
                None => {}
            }
            // Next sibling, or climb until there is one, closing the forms climbed out of.
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() || open.is_empty() {
                    forms.finish(&mut pending);
                    return forms;
                }
                let (kind, range, from) = open.pop().expect("checked non-empty");
                let id = forms.close(kind, range, &mut pending, from);
                pending.push(id);
            }
        }
    }
}

/// The deepest nesting [`read_kif`] accepts; deeper text goes through the tree-sitter parser.
/// Real games nest a handful of levels.
const MAX_DEPTH: usize = 64;

/// Reads `text` as KIF forms if it certainly has no syntax error, and returns `None` otherwise
/// (then the tree-sitter parser reports the errors with recovery).
///
/// Accepted: ASCII symbols, numbers and variables (the grammar's token rules: a `?` starts a
/// variable, a run of digits is a number, any other run is a constant), `(`, `)`, `;` comments
/// (any text), ASCII whitespace (with vertical tab and form feed), and `<=` only as the first element of a top-level form.
/// Refused, to be left to the grammar: unbalanced parentheses, nesting deeper than
/// [`MAX_DEPTH`], the characters the grammar rejects (`"'`,\#^` and control characters),
/// non-ASCII text outside comments, other whitespace, `<=` elsewhere, and rules nested in forms
/// (which the recovering grammar may read differently when they begin a line).
pub fn read_kif(text: &str) -> Option<Forms> {
    let bytes = text.as_bytes();
    let mut forms = Forms {
        forms: Vec::with_capacity(text.len() / 4),
        children: Vec::with_capacity(text.len() / 4),
        top_level: 0..0,
    };
    let mut pending: Vec<FormId> = Vec::with_capacity(64);
    // The open forms: (start byte, where their children start in `pending`, is a rule).
    let mut open: Vec<(usize, usize, bool)> = Vec::with_capacity(MAX_DEPTH);
    // Whether the next token is the first inside a just opened `(`.
    let mut first_in_form = false;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        match byte {
            // Whitespace and comments leave `first_in_form` alone: `( <= ...)` is a rule.
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => {
                at += 1;
                continue;
            }
            b';' => {
                // A comment runs to the end of the line; control characters other than tabs and
                // form feeds are left to the grammar.
                while at < bytes.len() && bytes[at] != b'\n' && bytes[at] != b'\r' {
                    if bytes[at] < 0x20 && !matches!(bytes[at], b'\t' | 0x0b | 0x0c) {
                        return None;
                    }
                    at += 1;
                }
                continue;
            }
            b'(' => {
                if open.len() == MAX_DEPTH {
                    return None;
                }
                open.push((at, pending.len(), false));
                first_in_form = true;
                at += 1;
                continue;
            }
            b')' => {
                let (start, from, is_rule) = open.pop()?;
                let kind = if is_rule {
                    FormKind::Rule
                } else {
                    FormKind::List
                };
                let id = forms.close(kind, TextRange::new(start, at + 1), &mut pending, from);
                pending.push(id);
                at += 1;
            }
            _ => {
                let start = at;
                while at < bytes.len() && is_symbol_byte(bytes[at]) {
                    at += 1;
                }
                if at == start {
                    // A character the grammar rejects, or non-ASCII text.
                    return None;
                }
                let symbol = &bytes[start..at];
                if symbol == b"<=" {
                    // The rule keyword, accepted only where it opens a top-level rule.
                    if !first_in_form || open.len() != 1 {
                        return None;
                    }
                    open.last_mut().expect("inside a form").2 = true;
                    first_in_form = false;
                    continue;
                }
                let kind = if symbol[0] == b'?' {
                    FormKind::Variable
                } else if symbol.iter().all(u8::is_ascii_digit) {
                    FormKind::Number
                } else {
                    FormKind::Constant
                };
                let from = pending.len();
                let id = forms.close(kind, TextRange::new(start, at), &mut pending, from);
                pending.push(id);
            }
        }
        first_in_form = false;
    }
    if !open.is_empty() {
        return None;
    }
    forms.finish(&mut pending);
    Some(forms)
}

/// ASCII bytes that may stand in a symbol: not whitespace, parentheses, `;`, the KIF quoting
/// characters or control characters.
fn is_symbol_byte(byte: u8) -> bool {
    byte.is_ascii_graphic() && !b"();\"'`,\\#^".contains(&byte)
}

/// The comments of a KIF text that [`read_kif`] accepts, in source order: there every `;`
/// starts a comment running to the end of the line, as the grammar reads it (no string or
/// symbol holds a `;`).
pub fn clean_kif_comment_ranges(text: &str) -> impl Iterator<Item = TextRange> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        let start = at + bytes.get(at..)?.iter().position(|&byte| byte == b';')?;
        let end = bytes[start..]
            .iter()
            .position(|&byte| byte == b'\n' || byte == b'\r')
            .map_or(bytes.len(), |length| start + length);
        at = end;
        Some(TextRange::new(start, end))
    })
}

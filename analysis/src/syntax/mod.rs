//! Parsing: text → tree-sitter concrete syntax tree, and the syntax diagnostics read off it;
//! for KIF also a fast reader of error-free text into forms, without a tree.

mod errors;
pub mod kif_forms;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::{Db, Diagnostic, SourceFile, Syntax};

pub use errors::syntax_diagnostics_of;

/// The concrete syntax tree of one file. Cheap to clone (the tree is reference counted).
#[derive(Clone, Debug)]
pub struct Parse {
    tree: tree_sitter::Tree,
}

impl Parse {
    pub fn tree(&self) -> &tree_sitter::Tree {
        &self.tree
    }

    pub fn root(&self) -> tree_sitter::Node<'_> {
        self.tree.root_node()
    }
}

/// A previous tree with the edits made since applied to it (see [`SourceFile::edited_tree`]).
#[derive(Clone, Debug)]
pub struct EditedTree(tree_sitter::Tree);

impl EditedTree {
    /// Starts from the tree of the text as it was before the edits.
    pub fn new(parse: &Parse) -> Self {
        Self(parse.tree.clone())
    }

    /// Starts from a tree of `text` (the text before the edits) read by the parser that
    /// re-parses edited texts (the recovering one, see [`parse_text`]), so that every later
    /// re-parse can reuse it. For a front end that keeps applying edits to one tree without
    /// asking for each revision's parse.
    pub fn parse_for_editing(syntax: Syntax, text: &str) -> Self {
        Self(run_parser(syntax, Grammar::Recovering, text, None).tree)
    }

    /// Records one edit; edits must be applied in the order they were made to the text.
    pub fn edit(&mut self, edit: &TextEdit) {
        self.0.edit(&edit.0);
    }
}

/// One change to a text, in the form tree-sitter needs to re-use the unchanged parts of a tree.
#[derive(Clone, Copy, Debug)]
pub struct TextEdit(tree_sitter::InputEdit);

impl TextEdit {
    /// `start..old_end` (bytes, in the old text) was replaced by text ending at `new_end` (bytes,
    /// in the new text); each position is also given as (line, byte column), zero-based.
    pub fn new(
        start: (usize, usize, usize),
        old_end: (usize, usize, usize),
        new_end: (usize, usize, usize),
    ) -> Self {
        let point = |(_, row, column): (usize, usize, usize)| tree_sitter::Point { row, column };
        Self(tree_sitter::InputEdit {
            start_byte: start.0,
            old_end_byte: old_end.0,
            new_end_byte: new_end.0,
            start_position: point(start),
            old_end_position: point(old_end),
            new_end_position: point(new_end),
        })
    }
}

thread_local! {
    /// One parser per grammar and thread: creating a parser is cheap but not free, and the
    /// CLI parses hundreds of files per thread.
    static PARSERS: RefCell<HashMap<(Syntax, Grammar), tree_sitter::Parser>> = RefCell::new(HashMap::new());
}

/// Which of a syntax's parsers: the one with error recovery (always right), or a faster one
/// without it that gives the same tree for text without syntax errors (see
/// [`Syntax::fast_tree_sitter_language`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Grammar {
    Recovering,
    Fast,
}

fn run_parser(
    syntax: Syntax,
    grammar: Grammar,
    text: &str,
    old_tree: Option<&tree_sitter::Tree>,
) -> Parse {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = parsers.entry((syntax, grammar)).or_insert_with(|| {
            let language = match grammar {
                Grammar::Fast => syntax.fast_tree_sitter_language(),
                Grammar::Recovering => None,
            }
            .unwrap_or_else(|| syntax.tree_sitter_language());
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&language)
                .expect("the bundled grammars are compatible with the tree-sitter runtime");
            parser
        });
        // Without a timeout or cancellation flag, tree-sitter always returns a tree.
        let tree = parser
            .parse(text, old_tree)
            .expect("parsing without a timeout always yields a tree");
        Parse { tree }
    })
}

/// Parses `text` as `syntax`, re-using `old_tree` (already edited) when given.
///
/// A fresh parse (no old tree) tries the syntax's fast parser first, when it has one, and falls
/// back to the recovering parser only when the text has a syntax error. An edited text goes to
/// the recovering parser: its tree is the one the next edit can re-use (re-parsing
/// incrementally needs the same grammar), so an editor's first edit moves the document to the
/// recovering parser — were the fast parser tried first after each edit, every edit would pay a
/// full parse. Where the two grammars disagree (the recovering one finds an error the fast one
/// reads through, such as a rule nested in another form), the fast parser's reading wins, as
/// on a fresh parse: the diagnostics of a text never depend on how it was typed.
pub fn parse_text(syntax: Syntax, text: &str, old_tree: Option<&tree_sitter::Tree>) -> Parse {
    let recovering = syntax.tree_sitter_language();
    let has_fast = syntax.fast_tree_sitter_language().is_some();
    let Some(old_tree) = old_tree else {
        if has_fast {
            let parse = run_parser(syntax, Grammar::Fast, text, None);
            if !parse.root().has_error() {
                return parse;
            }
        }
        return run_parser(syntax, Grammar::Recovering, text, None);
    };
    let reusable = (old_tree.language().name() == recovering.name()).then_some(old_tree);
    let parse = run_parser(syntax, Grammar::Recovering, text, reusable);
    if parse.root().has_error() && has_fast {
        let fast = run_parser(syntax, Grammar::Fast, text, None);
        if !fast.root().has_error() {
            return fast;
        }
    }
    parse
}

/// The syntax tree of `file`.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    let old_tree = file.edited_tree(db).as_ref().map(|edited| &edited.0);
    parse_text(file.syntax(db), file.text(db), old_tree)
}

/// Syntax errors of `file`: one diagnostic per unparsable stretch or missing token.
#[salsa::tracked(returns(ref))]
pub fn syntax_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    if kif_forms_read(db, file).is_some() {
        // The fast reader accepts only text the grammar parses without errors.
        return Vec::new();
    }
    syntax_diagnostics_of(parse(db, file), file.text(db))
}

/// The forms of a KIF file read without tree-sitter, when the text certainly has no syntax
/// error (see [`kif_forms::read_kif`]); `None` for other files and other syntaxes. Batch checks
/// of clean KIF files thus never build a tree-sitter tree.
#[salsa::tracked(returns(ref), no_eq)]
pub fn kif_forms_read(db: &dyn Db, file: SourceFile) -> Option<kif_forms::Forms> {
    match file.syntax(db) {
        Syntax::GdlKif => kif_forms::read_kif(file.text(db)),
        _ => None,
    }
}

/// Whether `formatted` parses without errors into the same tree, with the same tokens and
/// comments, as `original`: the check every formatter that only moves white space (this one and
/// EGGG's) makes before it offers its text.
pub(crate) fn reads_the_same(syntax: Syntax, original: &str, formatted: &str) -> bool {
    let before = parse_text(syntax, original, None);
    let after = parse_text(syntax, formatted, None);
    !after.root().has_error()
        && before.root().to_sexp() == after.root().to_sexp()
        && tokens(before.root(), original) == tokens(after.root(), formatted)
}

/// The texts of the leaves under `node` without trailing white space, in order; leaves that are
/// only white space (EGGG's line ends, which blank lines multiply) are left out.
fn tokens<'a>(node: tree_sitter::Node<'_>, text: &'a str) -> Vec<&'a str> {
    let mut leaves = Vec::new();
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        if node.child_count() == 0 {
            let leaf = text[node.byte_range()].trim_end();
            if !leaf.is_empty() {
                leaves.push(leaf);
            }
        } else {
            let mut cursor = node.walk();
            let children: Vec<_> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
    leaves
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inserts a space at `offset` of `text` (on its first line) into `tree`.
    fn insert_space(tree: &tree_sitter::Tree, text: &str, offset: usize) -> (String, EditedTree) {
        let edited_text = format!("{} {}", &text[..offset], &text[offset..]);
        let mut edited = EditedTree(tree.clone());
        edited.edit(&TextEdit::new(
            (offset, 0, offset),
            (offset, 0, offset),
            (offset + 1, 0, offset + 1),
        ));
        (edited_text, edited)
    }

    #[test]
    fn an_edited_text_is_parsed_by_the_parser_whose_tree_the_next_edit_reuses() {
        let syntax = Syntax::GdlKif;
        let recovering = syntax.tree_sitter_language();
        let text = "(role x) (<= (legal x noop) (true (control x)))\n";
        let fresh = parse_text(syntax, text, None);
        // The fast parser read the opened file; every edited text goes to the recovering one,
        // so that each later edit re-parses incrementally instead of from scratch.
        let (first_text, first_edit) = insert_space(fresh.tree(), text, 9);
        let first = parse_text(syntax, &first_text, Some(&first_edit.0));
        assert_eq!(first.tree().language().name(), recovering.name());
        let (second_text, second_edit) = insert_space(first.tree(), &first_text, 9);
        let second = parse_text(syntax, &second_text, Some(&second_edit.0));
        assert_eq!(second.tree().language().name(), recovering.name());
        assert_eq!(
            second.root().to_sexp(),
            parse_text(syntax, &second_text, None).root().to_sexp()
        );
    }
}

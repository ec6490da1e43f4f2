//! Parsing: text → tree-sitter concrete syntax tree, and the syntax diagnostics read off it;
//! for KIF also a fast reader of error-free text into forms, without a tree.

mod errors;
pub mod kif_forms;

use std::cell::RefCell;
use std::collections::HashMap;

use crate::rules::MAX_NESTING_DEPTH;
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
///
/// A tree deeper than [`MAX_FORMATTED_TREE_DEPTH`] never reads the same: comparing trees goes
/// through tree-sitter's printer, whose recursion follows the depth.
pub(crate) fn reads_the_same(syntax: Syntax, original: &str, formatted: &str) -> bool {
    let before = parse_text(syntax, original, None);
    let after = parse_text(syntax, formatted, None);
    !after.root().has_error()
        && !nests_deeper_than(before.root(), MAX_FORMATTED_TREE_DEPTH)
        && !nests_deeper_than(after.root(), MAX_FORMATTED_TREE_DEPTH)
        && before.root().to_sexp() == after.root().to_sexp()
        && tokens(before.root(), original) == tokens(after.root(), formatted)
}

/// The deepest syntax tree the formatters of Ludi and EGGG, which recurse along the tree, take:
/// a ludeme at the deepest level read ([`MAX_NESTING_DEPTH`], counting the top-level forms,
/// the root's children, as level 1) has its tokens one level deeper.
pub(crate) const MAX_FORMATTED_TREE_DEPTH: usize = MAX_NESTING_DEPTH + 1;

/// Whether some node of the tree under `node` stands more than `limit` levels below it (its
/// children at level 1). A walk with one cursor, without recursion: what passes that do
/// recurse over a syntax tree (the formatters) ask before they start.
pub(crate) fn nests_deeper_than(node: tree_sitter::Node<'_>, limit: usize) -> bool {
    let mut cursor = node.walk();
    let mut depth = 0;
    loop {
        if depth > limit {
            return true;
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return false;
            }
            depth -= 1;
        }
    }
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
    use crate::{RootDatabase, rules};
    use std::sync::Arc;

    /// A game of `syntax` with one form nested `depth` levels deep (a top-level form counts as
    /// level 1), closed or left open.
    fn nested(syntax: Syntax, depth: usize, closed: bool) -> String {
        let inner = depth - 1;
        let close = |closing: &str| {
            if closed {
                closing.repeat(inner)
            } else {
                String::new()
            }
        };
        match syntax {
            Syntax::GdlKif => format!(
                "(role x)\n(init {}a{})\n(role y)\n",
                "(f ".repeat(inner),
                close(")")
            ),
            Syntax::GdlInfix => format!(
                "role(x)\ninit({}a{})\nrole(y)\n",
                "f(".repeat(inner),
                close(")")
            ),
            Syntax::Ludi => format!("(game X {}{})\n", "(a ".repeat(inner), close(")")),
            Syntax::Egg => format!("x is {}a{}\n2 players\n", "(".repeat(inner), close(")")),
        }
    }

    /// Every analysis a command or the editor runs on a whole file, and the editor's requests at
    /// a few places (the start, the deepest point, the end).
    fn analyse_everything(syntax: Syntax, text: &str) -> Vec<Diagnostic> {
        let db = RootDatabase::default();
        let file = SourceFile::new(&db, "deep".into(), syntax, Arc::from(text), None);
        let diagnostics = crate::file_diagnostics(&db, file);
        let _ = crate::document_symbols(&db, file);
        let _ = crate::ide::folding_ranges(&db, file);
        let _ = crate::ide::semantic_tokens(&db, file);
        let _ = crate::distance::compare_files(&db, file, file);
        for offset in [0, text.len() / 2, text.len()] {
            let _ = crate::ide::hover(&db, file, offset);
            let _ = crate::ide::references(&db, file, offset);
        }
        match syntax {
            Syntax::GdlKif | Syntax::GdlInfix => {
                let _ = crate::gdl::gdl_explanation(&db, file);
                let _ = crate::gdl::format_gdl(&db, file, Syntax::GdlKif);
                let _ = crate::gdl::format_gdl(&db, file, Syntax::GdlInfix);
            }
            Syntax::Ludi => {
                let _ = crate::ludi::ludi_explanation(&db, file);
                let _ = crate::ludi::format::format_ludi(text);
            }
            Syntax::Egg => {
                let _ = crate::egg::egg_explanation(&db, file);
                let _ = crate::egg::format::format_egg(text);
            }
        }
        diagnostics
    }

    /// Runs [`analyse_everything`] on a thread with half the stack of a worker thread (which
    /// Rust gives 2 MiB, and Rayon's workers, the command line's, too): every pass over a text
    /// nested [`MAX_NESTING_DEPTH`] levels deep fits in it with room to spare, even in a debug
    /// build (where it needs about 512 KiB), and none recurses deeper than that.
    fn analyse_on_a_small_stack(syntax: Syntax, text: String) -> Vec<Diagnostic> {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || analyse_everything(syntax, &text))
            .expect("a thread")
            .join()
            .expect("no analysis panics")
    }

    fn too_deep(diagnostics: &[Diagnostic]) -> usize {
        diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.code == rules::TOO_DEEP.code)
            .count()
    }

    #[test]
    fn a_form_at_the_depth_limit_is_read_and_every_pass_fits_a_small_stack() {
        for syntax in [Syntax::GdlKif, Syntax::GdlInfix, Syntax::Ludi, Syntax::Egg] {
            let text = nested(syntax, MAX_NESTING_DEPTH, true);
            let diagnostics = analyse_on_a_small_stack(syntax, text);
            assert_eq!(too_deep(&diagnostics), 0, "{syntax:?}: {diagnostics:?}");
        }
    }

    /// Texts whose deepest form stands exactly `depth` levels deep, in every shape that nests:
    /// terms in facts, heads and `distinct`, chains of negations and disjunctions, infix groups,
    /// Ludi conditions (which the binder, the model, the checks and the English all walk).
    fn shapes(depth: usize) -> Vec<(Syntax, String)> {
        let chain = |open: &str, inner: &str, close: &str, count: usize| {
            format!("{}{inner}{}", open.repeat(count), close.repeat(count))
        };
        vec![
            (
                Syntax::GdlKif,
                format!("(<= p {})\n", chain("(not ", "q", ")", depth - 1)),
            ),
            (
                Syntax::GdlKif,
                format!("(<= p {})\n", chain("(or ", "q", ")", depth - 1)),
            ),
            (
                Syntax::GdlKif,
                format!(
                    "(<= p (distinct {} b))\n",
                    chain("(f ", "a", ")", depth - 2)
                ),
            ),
            (
                Syntax::GdlKif,
                format!("(<= (p {}) (q ?x))\n", chain("(f ", "?x", ")", depth - 2)),
            ),
            (
                Syntax::GdlInfix,
                format!("p :- {}q\n", "~".repeat(depth - 1)),
            ),
            (
                Syntax::GdlInfix,
                format!("p :- {}\n", chain("(", "q", ")", depth - 1)),
            ),
            (
                Syntax::GdlInfix,
                format!("p :- {}\n", chain("(r | ", "q", ")", (depth - 1) / 2)),
            ),
            (
                Syntax::GdlInfix,
                format!("p(X) :- q({})\n", chain("f(", "X", ")", depth - 2)),
            ),
            (
                Syntax::Ludi,
                format!(
                    "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win {})))\n",
                    chain("(not ", "(in-a-row 3)", ")", depth - 4)
                ),
            ),
            (
                Syntax::Ludi,
                format!(
                    "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win {})))\n",
                    chain("(and (in-a-row 3) ", "(in-a-row 3)", ")", depth - 4)
                ),
            ),
        ]
    }

    #[test]
    fn every_shape_at_the_depth_limit_is_read_and_fits_a_small_stack() {
        for (syntax, text) in shapes(MAX_NESTING_DEPTH) {
            let diagnostics = analyse_on_a_small_stack(syntax, text.clone());
            assert_eq!(too_deep(&diagnostics), 0, "{syntax:?} {}", &text[..30]);
        }
        // One level deeper, each deepest form is reported (some shapes have two).
        for (syntax, text) in shapes(MAX_NESTING_DEPTH + 1) {
            let diagnostics = analyse_on_a_small_stack(syntax, text.clone());
            assert!(
                matches!(too_deep(&diagnostics), 1 | 2),
                "{syntax:?} {}: {diagnostics:?}",
                &text[..30]
            );
        }
    }

    #[test]
    fn the_formatters_take_forms_at_the_depth_limit_and_refuse_deeper_ones() {
        for depth in [MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 1] {
            let fits = depth <= MAX_NESTING_DEPTH;
            for source in [Syntax::GdlKif, Syntax::GdlInfix] {
                for target in [Syntax::GdlKif, Syntax::GdlInfix] {
                    let text = nested(source, depth, true);
                    let formatted = crate::gdl::format::format_gdl_text(&text, source, target);
                    assert_eq!(
                        formatted.is_ok(),
                        fits,
                        "{source:?} → {target:?} {formatted:?}"
                    );
                }
            }
            let text = nested(Syntax::Ludi, depth, true);
            assert_eq!(crate::ludi::format::format_ludi(&text).is_some(), fits);
        }
    }

    #[test]
    fn the_first_form_past_the_depth_limit_is_reported_once() {
        for syntax in [Syntax::GdlKif, Syntax::GdlInfix, Syntax::Ludi] {
            let text = nested(syntax, MAX_NESTING_DEPTH + 1, true);
            let diagnostics = analyse_on_a_small_stack(syntax, text.clone());
            let reported: Vec<&Diagnostic> = diagnostics
                .iter()
                .filter(|diagnostic| diagnostic.code == rules::TOO_DEEP.code)
                .collect();
            assert_eq!(reported.len(), 1, "{syntax:?}: {diagnostics:?}");
            // The innermost form, at its first character.
            let at = reported[0].range;
            assert_eq!(at.len(), 1, "{syntax:?}");
            let expected = match syntax {
                Syntax::GdlInfix => text.rfind("f(").unwrap(),
                Syntax::GdlKif => text.rfind("(f").unwrap(),
                _ => text.rfind("(a").unwrap(),
            };
            assert_eq!(at.start, expected, "{syntax:?}");
        }
    }

    #[test]
    fn text_nested_far_too_deep_gets_diagnostics_on_a_small_stack() {
        for syntax in Syntax::ALL {
            for closed in [true, false] {
                let text = nested(syntax, 20_000, closed);
                let diagnostics = analyse_on_a_small_stack(syntax, text);
                assert!(!diagnostics.is_empty(), "{syntax:?} closed {closed}");
                if closed && syntax != Syntax::Egg {
                    assert_eq!(too_deep(&diagnostics), 1, "{syntax:?}: {diagnostics:?}");
                }
            }
        }
    }

    #[test]
    fn deep_negations_disjunctions_and_groups_are_bounded_too() {
        let depth = 20_000;
        let texts = [
            (
                Syntax::GdlKif,
                format!("(<= p {}q{})\n", "(not ".repeat(depth), ")".repeat(depth)),
            ),
            (
                Syntax::GdlKif,
                format!("(<= p {}q{})\n", "(or ".repeat(depth), ")".repeat(depth)),
            ),
            (Syntax::GdlInfix, format!("p :- {}q\n", "~".repeat(depth))),
            (
                Syntax::GdlInfix,
                format!("p :- {}q{}\n", "(".repeat(depth), ")".repeat(depth)),
            ),
            (
                Syntax::GdlInfix,
                format!("p :- {}q{}\n", "(r | ".repeat(depth), ")".repeat(depth)),
            ),
        ];
        for (syntax, text) in texts {
            let diagnostics = analyse_on_a_small_stack(syntax, text.clone());
            assert!(
                too_deep(&diagnostics) >= 1,
                "{syntax:?} {}: {diagnostics:?}",
                &text[..20]
            );
        }
    }

    #[test]
    fn nesting_is_measured_without_recursion() {
        let depth = 100_000;
        let text = format!("(game X {}{})", "(a ".repeat(depth), ")".repeat(depth));
        let parse = parse_text(Syntax::Ludi, &text, None);
        assert!(nests_deeper_than(parse.root(), MAX_NESTING_DEPTH));
        let parse = parse_text(Syntax::Ludi, "(game X (a (b c)))", None);
        // The tokens of `(b c)` stand 4 levels below the root.
        assert!(nests_deeper_than(parse.root(), 3));
        assert!(!nests_deeper_than(parse.root(), 4));
    }

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

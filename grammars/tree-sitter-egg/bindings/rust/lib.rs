//! Tree-sitter grammar for EGGG, the game description language of the Extensible Graphical Game
//! Generator (J. Orwant, IBM Systems Journal 39(3&4), 2000). Files use the `.egg` extension.
//!
//! A file is a series of statements, one per line; a statement continues on the following lines
//! while they are indented. The children of `source_file` are `statement`, `definition`,
//! `like_statement`, `assert_statement`, `code_statement` and `comment` nodes, separated by
//! anonymous `"\n"` terminator tokens. See `grammar.js` for the full shape.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_egg::LANGUAGE.into())
//!     .expect("Error loading the EGGG grammar");
//! let tree = parser.parse("game is poker\n2..6 players\n", None).unwrap();
//! assert!(!tree.root_node().has_error());
//! assert_eq!(tree.root_node().named_child(0).unwrap().kind(), "definition");
//! ```

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_egg() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for EGGG.
///
/// Turn it into a `tree_sitter::Language` with `LANGUAGE.into()`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_egg) };

/// The content of the [`node-types.json`] file for this grammar.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// Syntax highlighting query (Neovim/Helix capture names: `@keyword`, `@function`, `@constant` ...).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// Folding query (`@fold`): multi-line statements and brackets.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

/// Indentation query in nvim-treesitter style (`@indent.begin`, `@indent.branch`, ...).
pub const INDENTS_QUERY: &str = include_str!("../../queries/indents.scm");

/// Locals query (`@local.scope`, `@local.definition`, `@local.reference`).
pub const LOCALS_QUERY: &str = include_str!("../../queries/locals.scm");

/// Injections query: the opaque `code` of code statements is Perl.
pub const INJECTIONS_QUERY: &str = include_str!("../../queries/injections.scm");

#[cfg(test)]
mod tests {
    use super::*;

    fn parser() -> tree_sitter::Parser {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&LANGUAGE.into())
            .expect("Error loading the EGGG grammar");
        parser
    }

    #[test]
    fn can_load_grammar() {
        parser();
    }

    #[test]
    fn queries_compile() {
        let language: tree_sitter::Language = LANGUAGE.into();
        for (name, source) in [
            ("highlights", HIGHLIGHTS_QUERY),
            ("folds", FOLDS_QUERY),
            ("indents", INDENTS_QUERY),
            ("locals", LOCALS_QUERY),
            ("injections", INJECTIONS_QUERY),
        ] {
            if let Err(error) = tree_sitter::Query::new(&language, source) {
                panic!("{name}.scm does not compile: {error}");
            }
        }
    }

    #[test]
    fn node_types_is_json() {
        assert!(NODE_TYPES.trim_start().starts_with('['));
        assert!(NODE_TYPES.contains("\"definition\""));
    }

    #[test]
    fn statement_kinds() {
        let source = "game is poker\n\
                      2..6 players\n\
                      SideTetris is like Tetris\n\
                      assert VoteYes: lastmove(\"Understand\")\n\
                      Tester(1) is Tot++ if grid[x][y]; return Tot > 12\n\
                      # a comment\n";
        let tree = parser().parse(source, None).unwrap();
        let root = tree.root_node();
        assert!(!root.has_error(), "{}", root.to_sexp());
        let kinds: Vec<&str> = (0..root.named_child_count())
            .map(|i| root.named_child(i as u32).unwrap().kind())
            .collect();
        assert_eq!(
            kinds,
            [
                "definition",
                "statement",
                "like_statement",
                "assert_statement",
                "code_statement",
                "comment"
            ]
        );
        let code = root.named_child(4).unwrap();
        let text = code.child_by_field_name("code").unwrap();
        assert_eq!(
            &source[text.byte_range()],
            "Tot++ if grid[x][y]; return Tot > 12"
        );
    }

    #[test]
    fn continuation_lines_belong_to_the_statement() {
        let source = "Discard means player removes 0..3 cards or 4 cards\n  if Ace\nFold means player loses\n";
        let tree = parser().parse(source, None).unwrap();
        let root = tree.root_node();
        assert!(!root.has_error());
        assert_eq!(root.named_child_count(), 2);
        let first = root.named_child(0).unwrap();
        assert_eq!(first.end_position().row, 1);
    }
}

//! [Tree-sitter] grammar for the Ludi game description language
//! (Browne & Maire, *Evolutionary Game Design*, IEEE TCIAIG 2(1), 2010).
//!
//! A Ludi file is a sequence of s-expression forms; every element is a
//! `list` whose first item, when it is a `symbol` or an `operator`, is the
//! field `head`. Atoms are `symbol`, `operator`, `integer`, `float`, `cell`
//! (`A1`, `AB12`) and `string`; `comment`s (`;` to end of line) are extras.
//!
//! ```
//! let code = "(game Tic-Tac-Toe (players White Black) (end (All win (in-a-row 3))))";
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_ludi::LANGUAGE.into())
//!     .expect("Error loading Ludi parser");
//! let tree = parser.parse(code, None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```
//!
//! [Tree-sitter]: https://tree-sitter.github.io/

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_ludi() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for Ludi.
///
/// Convert it with `.into()` to pass it to `tree_sitter::Parser::set_language`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_ludi) };

/// The content of the [`node-types.json`] file for this grammar.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// Syntax highlighting query (Neovim/Helix-style capture names).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// Folding query: every multi-line list folds (`@fold`).
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

/// Indentation query (nvim-treesitter style `@indent.*` captures).
pub const INDENTS_QUERY: &str = include_str!("../../queries/indents.scm");

/// Locals query: the game, player and piece names as definitions, names as references.
pub const LOCALS_QUERY: &str = include_str!("../../queries/locals.scm");

#[cfg(test)]
mod tests {
    use super::*;

    fn language() -> tree_sitter::Language {
        LANGUAGE.into()
    }

    #[test]
    fn can_load_grammar() {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&language())
            .expect("Error loading Ludi parser");
        let tree = parser
            .parse(
                "(game G (players White Black) (start (place (Stone White) A1)))",
                None,
            )
            .unwrap();
        assert!(!tree.root_node().has_error());
    }

    #[test]
    fn queries_compile() {
        for (name, source) in [
            ("highlights", HIGHLIGHTS_QUERY),
            ("folds", FOLDS_QUERY),
            ("indents", INDENTS_QUERY),
            ("locals", LOCALS_QUERY),
        ] {
            if let Err(err) = tree_sitter::Query::new(&language(), source) {
                panic!("{name}.scm does not compile: {err}");
            }
        }
    }

    #[test]
    fn node_types_name_the_contract_kinds() {
        for kind in [
            "source_file",
            "list",
            "symbol",
            "operator",
            "integer",
            "cell",
            "string",
            "comment",
        ] {
            assert!(
                NODE_TYPES.contains(&format!("\"type\": \"{kind}\"")),
                "node-types.json lacks {kind}"
            );
        }
    }
}

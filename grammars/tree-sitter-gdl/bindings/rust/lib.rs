//! [Tree-sitter] grammars for the Stanford Game Description Language, in its two syntaxes:
//!
//! - **KIF** (prefix, `.kif` and `.gdl` files whose first form is `(`): grammar `gdl`,
//!   [`LANGUAGE_KIF`]. Top-level items are `rule` (`(<= head body...)`, fields `head` and
//!   repeated `body`), `list` (field `head` when its first element is a `constant` or `number`),
//!   `constant`, `variable` (`?x`), `number` and `comment`.
//! - **Infix** (the Stanford Gamemaster / Epilog form, `.hrf`): grammar `hrf`,
//!   [`LANGUAGE_INFIX`]. Top-level items are `rule` (`head :- body`, fields `head` and `body`)
//!   and `fact` (field `sentence`); sentences are `atom`s (fields `name`, `arguments`), terms are
//!   `compound` (fields `name`, `arguments`), `constant`, `variable` and `number`; bodies use
//!   `conjunction` (`&`), `disjunction` (`|`), `negation` (`~`) and `group` (parentheses).
//!
//! Each grammar's `grammar.js` header documents the node kinds, the characters that are syntax
//! errors and the column-0 error recovery.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser
//!     .set_language(&tree_sitter_gdl::LANGUAGE_KIF.into())
//!     .expect("Error loading the GDL (KIF) parser");
//! let tree = parser
//!     .parse("(<= (legal ?p noop) (role ?p))", None)
//!     .unwrap();
//! assert!(!tree.root_node().has_error());
//!
//! parser
//!     .set_language(&tree_sitter_gdl::LANGUAGE_INFIX.into())
//!     .expect("Error loading the GDL (infix) parser");
//! let tree = parser
//!     .parse("legal(P,noop) :- role(P)", None)
//!     .unwrap();
//! assert!(!tree.root_node().has_error());
//! ```
//!
//! [Tree-sitter]: https://tree-sitter.github.io/

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_gdl() -> *const ();
    fn tree_sitter_gdl_fast() -> *const ();
    fn tree_sitter_hrf() -> *const ();
}

/// The tree-sitter [`LanguageFn`] for GDL in prefix KIF syntax (grammar `gdl`).
///
/// Convert it with `.into()` to pass it to `tree_sitter::Parser::set_language`.
pub const LANGUAGE_KIF: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_gdl) };

/// The same KIF grammar without its error-recovery scanner (grammar `gdl_fast`, generated from
/// `kif/grammar.js` with `GDL_KIF_FAST=1`): it parses about 1.7 times faster and gives the very
/// same tree as [`LANGUAGE_KIF`] for text without syntax errors, but recovers worse from a missing
/// `)`. Batch checking parses with it first and re-parses with [`LANGUAGE_KIF`] when the tree has
/// an error; editors use [`LANGUAGE_KIF`].
pub const LANGUAGE_KIF_FAST: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_gdl_fast) };

/// The tree-sitter [`LanguageFn`] for GDL in the infix Gamemaster syntax (grammar `hrf`).
///
/// Convert it with `.into()` to pass it to `tree_sitter::Parser::set_language`.
pub const LANGUAGE_INFIX: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_hrf) };

/// The content of the KIF grammar's [`node-types.json`] file.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES_KIF: &str = include_str!("../../kif/src/node-types.json");

/// The content of the infix grammar's [`node-types.json`] file.
///
/// [`node-types.json`]: https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types
pub const NODE_TYPES_INFIX: &str = include_str!("../../infix/src/node-types.json");

/// KIF syntax highlighting query (Neovim/Helix-style capture names; the first matching pattern wins).
pub const HIGHLIGHTS_QUERY_KIF: &str = include_str!("../../kif/queries/highlights.scm");

/// KIF folding query: rules and forms fold (`@fold`).
pub const FOLDS_QUERY_KIF: &str = include_str!("../../kif/queries/folds.scm");

/// KIF indentation query (nvim-treesitter style `@indent.*` captures).
pub const INDENTS_QUERY_KIF: &str = include_str!("../../kif/queries/indents.scm");

/// KIF locals query: each rule is a scope; variables in a rule's head are definitions.
pub const LOCALS_QUERY_KIF: &str = include_str!("../../kif/queries/locals.scm");

/// Infix syntax highlighting query (Neovim/Helix-style capture names; the first matching pattern
/// wins).
pub const HIGHLIGHTS_QUERY_INFIX: &str = include_str!("../../infix/queries/highlights.scm");

/// Infix folding query: rules, groups and argument lists fold (`@fold`).
pub const FOLDS_QUERY_INFIX: &str = include_str!("../../infix/queries/folds.scm");

/// Infix indentation query (nvim-treesitter style `@indent.*` captures).
pub const INDENTS_QUERY_INFIX: &str = include_str!("../../infix/queries/indents.scm");

/// Infix locals query: each rule or fact is a scope; variables in a rule's head are definitions.
pub const LOCALS_QUERY_INFIX: &str = include_str!("../../infix/queries/locals.scm");

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(language: LanguageFn, source: &str) -> tree_sitter::Tree {
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&language.into())
            .expect("Error loading GDL parser");
        parser.parse(source, None).unwrap()
    }

    #[test]
    fn can_load_kif_grammar() {
        let tree = parse(
            LANGUAGE_KIF,
            "(role x)\n(<= (legal ?p (mark ?m ?n)) (true (cell ?m ?n b)))\n(<=)\n()\n",
        );
        assert!(!tree.root_node().has_error());
        assert_eq!(tree.root_node().named_child_count(), 4);
    }

    #[test]
    fn can_load_infix_grammar() {
        let tree = parse(
            LANGUAGE_INFIX,
            "role(x)\nterminal :- ~open\nlegal(P,mark(M,N)) :-\n  true(cell(M,N,b)) &\n  true(control(P))\n",
        );
        assert!(!tree.root_node().has_error());
        assert_eq!(tree.root_node().named_child_count(), 3);
    }

    #[test]
    fn queries_compile() {
        for (language, name, source) in [
            (LANGUAGE_KIF, "kif/highlights", HIGHLIGHTS_QUERY_KIF),
            (LANGUAGE_KIF, "kif/folds", FOLDS_QUERY_KIF),
            (LANGUAGE_KIF, "kif/indents", INDENTS_QUERY_KIF),
            (LANGUAGE_KIF, "kif/locals", LOCALS_QUERY_KIF),
            (LANGUAGE_INFIX, "infix/highlights", HIGHLIGHTS_QUERY_INFIX),
            (LANGUAGE_INFIX, "infix/folds", FOLDS_QUERY_INFIX),
            (LANGUAGE_INFIX, "infix/indents", INDENTS_QUERY_INFIX),
            (LANGUAGE_INFIX, "infix/locals", LOCALS_QUERY_INFIX),
        ] {
            if let Err(err) = tree_sitter::Query::new(&language.into(), source) {
                panic!("{name}.scm does not compile: {err}");
            }
        }
    }

    #[test]
    fn node_types_name_the_contract_kinds() {
        for kind in [
            "source_file",
            "rule",
            "list",
            "constant",
            "variable",
            "number",
            "comment",
        ] {
            assert!(
                NODE_TYPES_KIF.contains(&format!("\"type\": \"{kind}\"")),
                "kif node-types.json lacks {kind}"
            );
        }
        for kind in [
            "source_file",
            "rule",
            "fact",
            "atom",
            "compound",
            "arguments",
            "negation",
            "conjunction",
            "disjunction",
            "group",
            "constant",
            "variable",
            "number",
            "comment",
        ] {
            assert!(
                NODE_TYPES_INFIX.contains(&format!("\"type\": \"{kind}\"")),
                "infix node-types.json lacks {kind}"
            );
        }
    }

    /// The highlight capture of every node, as tree-sitter-highlight and Helix choose it: the
    /// capture of the first pattern (in file order) that matches the node.
    fn highlights(language: LanguageFn, query: &str, source: &str) -> Vec<(usize, usize, String)> {
        use tree_sitter::StreamingIterator;
        let tree = parse(language, source);
        let query = tree_sitter::Query::new(&language.into(), query).unwrap();
        let mut best: std::collections::BTreeMap<(usize, usize), (usize, String)> =
            Default::default();
        let mut cursor = tree_sitter::QueryCursor::new();
        let mut matches = cursor.matches(&query, tree.root_node(), source.as_bytes());
        while let Some(m) = matches.next() {
            for capture in m.captures() {
                let range = (capture.node.start_byte(), capture.node.end_byte());
                let name = query.capture_names()[capture.index as usize].to_string();
                let entry = best.entry(range).or_insert((m.pattern_index, name.clone()));
                if m.pattern_index < entry.0 {
                    *entry = (m.pattern_index, name);
                }
            }
        }
        best.into_iter()
            .map(|((a, b), (_, name))| (a, b, name))
            .collect()
    }

    /// The capture of the `nth` occurrence (0-based) of `needle` in `source`.
    fn capture_of(
        all: &[(usize, usize, String)],
        source: &str,
        needle: &str,
        nth: usize,
    ) -> String {
        let start = source.match_indices(needle).nth(nth).expect("needle").0;
        all.iter()
            .find(|(a, b, _)| *a == start && *b == start + needle.len())
            .map(|(_, _, name)| name.clone())
            .unwrap_or_else(|| panic!("no capture for {needle:?} #{nth}"))
    }

    #[test]
    fn kif_highlights() {
        let source = "; roles\n(role xplayer)\n(<= (legal ?p (mark ?m ?n)) (true (cell ?m ?n b)) (succ 1 2))\n(<= (line ?x) (row ?m ?x))\n(<= terminal (not open))\n";
        let all = highlights(LANGUAGE_KIF, HIGHLIGHTS_QUERY_KIF, source);
        for (needle, nth, expected) in [
            ("; roles", 0, "comment"),
            ("role", 1, "keyword"),
            ("xplayer", 0, "constant"),
            ("<=", 0, "keyword"),
            ("legal", 0, "keyword"),
            ("?p", 0, "variable"),
            ("mark", 0, "function.call"),
            ("cell", 0, "function.call"),
            ("b", 0, "constant"),
            ("1", 0, "number"),
            ("line", 0, "function"),
            ("row", 0, "function.call"),
            ("terminal", 0, "keyword"),
            ("not", 0, "keyword"),
            ("open", 0, "constant"),
            ("(", 0, "punctuation.bracket"),
        ] {
            assert_eq!(
                capture_of(&all, source, needle, nth),
                expected,
                "{needle} #{nth}"
            );
        }
    }

    #[test]
    fn infix_highlights() {
        let source = "% roles\nrole(x)\nlegal(P,mark(M,N)) :- true(cell(M,N,b)) & ~open\nline(X) :- row(M,X) | diagonal(X)\nsucc(1,2).\n";
        let all = highlights(LANGUAGE_INFIX, HIGHLIGHTS_QUERY_INFIX, source);
        for (needle, nth, expected) in [
            ("% roles", 0, "comment"),
            ("role", 1, "keyword"),
            ("x", 0, "constant"),
            ("legal", 0, "keyword"),
            ("P", 0, "variable"),
            ("mark", 0, "constructor"),
            (":-", 0, "keyword"),
            ("&", 0, "operator"),
            ("~", 0, "operator"),
            ("open", 0, "function.call"),
            ("line", 0, "function"),
            ("row", 0, "function.call"),
            ("|", 0, "operator"),
            ("succ", 0, "function.call"),
            ("1", 0, "number"),
            (",", 0, "punctuation.delimiter"),
            (".", 0, "punctuation.delimiter"),
        ] {
            assert_eq!(
                capture_of(&all, source, needle, nth),
                expected,
                "{needle} #{nth}"
            );
        }
    }

    /// Folds, indents and locals capture what they promise on a small rule.
    #[test]
    fn structural_queries_capture() {
        use tree_sitter::StreamingIterator;
        for (language, source, queries) in [
            (
                LANGUAGE_KIF,
                "(<= (legal ?p (mark ?m ?n))\n    (true (control ?p)))\n",
                [FOLDS_QUERY_KIF, INDENTS_QUERY_KIF, LOCALS_QUERY_KIF],
            ),
            (
                LANGUAGE_INFIX,
                "legal(P,mark(M,N)) :-\n  true(cell(M,N,b)) &\n  true(control(P))\n",
                [FOLDS_QUERY_INFIX, INDENTS_QUERY_INFIX, LOCALS_QUERY_INFIX],
            ),
        ] {
            let tree = parse(language, source);
            for (query, wanted) in queries.iter().zip([
                &["fold"][..],
                &["indent.begin", "indent.branch", "indent.end"][..],
                &["local.scope", "local.definition", "local.reference"][..],
            ]) {
                let query = tree_sitter::Query::new(&language.into(), query).unwrap();
                let mut seen = std::collections::BTreeSet::new();
                let mut cursor = tree_sitter::QueryCursor::new();
                let mut captures = cursor.captures(&query, tree.root_node(), source.as_bytes());
                while let Some((m, i)) = captures.next() {
                    seen.insert(query.capture_names()[m.captures()[*i].index as usize]);
                }
                for name in wanted {
                    assert!(seen.contains(name), "{name} not captured in {source:?}");
                }
            }
        }
    }

    /// A missing `)` in the middle of a file costs one MISSING node, and the rules after it parse.
    #[test]
    fn kif_recovers_at_line_initial_rules() {
        let source = "(<= (legal ?p (mark ?m ?n))\n    (true (cell ?m ?n b)\n    (true (control ?p\n(<= terminal (line x))\n(role x)\n";
        let tree = parse(LANGUAGE_KIF, source);
        let root = tree.root_node();
        let kinds: Vec<_> = root
            .named_children(&mut root.walk())
            .map(|n| n.kind())
            .collect();
        assert_eq!(kinds, ["rule", "rule", "list"]);
        assert!(!root.named_child(1).unwrap().has_error());
        assert!(!root.named_child(2).unwrap().has_error());
        assert!(root.named_child(0).unwrap().has_error());
    }

    /// A broken rule in infix does not swallow the next rule.
    #[test]
    fn infix_recovers_at_line_initial_rules() {
        let source = "next(cell(M,N,o)) :- does(o,mark(M,N) & true(cell(M,N,b))\nterminal :- ~open\nopen :- true(cell(M,N,b)\nline(x) :- row(x)\nrole(x)\n";
        let tree = parse(LANGUAGE_INFIX, source);
        let root = tree.root_node();
        let kinds: Vec<_> = root
            .named_children(&mut root.walk())
            .map(|n| n.kind())
            .collect();
        assert_eq!(kinds, ["rule", "rule", "rule", "rule", "fact"]);
        let broken: Vec<_> = root
            .named_children(&mut root.walk())
            .map(|n| n.has_error())
            .collect();
        assert_eq!(broken, [true, false, true, false, false]);
    }
}

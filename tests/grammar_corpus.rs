//! Runs every grammar's `test/corpus/*.txt` cases through the Rust bindings, so the grammar
//! tests need no tree-sitter CLI. The format is tree-sitter's: a `===` header with the case name
//! (and optional `:error` / `:skip` attributes), the input, a `---` line, the expected tree.

mod support;

use std::path::Path;

use ludeme_analysis::Syntax;
use ludeme_analysis::kif_forms::{Forms, read_kif};

struct Case {
    name: String,
    input: String,
    expected: String,
    expects_error: bool,
    skip: bool,
}

fn is_rule(line: &str, ch: char) -> bool {
    let trimmed = line.trim_end();
    trimmed.len() >= 3 && trimmed.chars().all(|c| c == ch)
}

fn parse_corpus(text: &str) -> Vec<Case> {
    let lines: Vec<&str> = text.lines().collect();
    let header_starts: Vec<usize> = {
        // A header is `===` / name and attributes / `===`; find the opening lines.
        let mut starts = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            if is_rule(lines[i], '=') {
                starts.push(i);
                i += 1;
                while i < lines.len() && !is_rule(lines[i], '=') {
                    i += 1;
                }
            }
            i += 1;
        }
        starts
    };
    let mut cases = Vec::new();
    for (n, &start) in header_starts.iter().enumerate() {
        let mut close = start + 1;
        while close < lines.len() && !is_rule(lines[close], '=') {
            close += 1;
        }
        let header = &lines[start + 1..close.min(lines.len())];
        let name = header
            .iter()
            .map(|line| line.trim())
            .find(|line| !line.starts_with(':'))
            .unwrap_or("")
            .to_owned();
        let has = |attribute: &str| header.iter().any(|line| line.trim() == attribute);
        let body_end = header_starts.get(n + 1).copied().unwrap_or(lines.len());
        let body = &lines[(close + 1).min(body_end)..body_end];
        // As tree-sitter does: the longest `---` line divides input from output (the later one
        // on ties), and the input loses one trailing newline.
        let Some(divider) = body
            .iter()
            .enumerate()
            .filter(|(_, line)| is_rule(line, '-'))
            .max_by_key(|(index, line)| (line.trim_end().len(), *index))
            .map(|(index, _)| index)
        else {
            continue;
        };
        let mut input: String = body[..divider]
            .iter()
            .map(|line| format!("{line}\n"))
            .collect();
        input.pop();
        cases.push(Case {
            name,
            input,
            expected: body[divider + 1..].join("\n"),
            expects_error: has(":error"),
            skip: has(":skip"),
        });
    }
    cases
}

/// Whitespace-insensitive S-expression text.
fn normalize(sexp: &str) -> String {
    let spaced = sexp.replace('(', " ( ").replace(')', " ) ");
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Removes `field:` prefixes, for expectations written without field names.
fn strip_fields(normalized: &str) -> String {
    normalized
        .split(' ')
        .filter(|token| !(token.ends_with(':') && token.len() > 1 && !token.starts_with('"')))
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_corpus(syntax: Syntax, folder: &Path) {
    let files = support::files_with_extensions(folder, &["txt"]);
    assert!(!files.is_empty(), "no corpus files in {}", folder.display());
    let mut failures = Vec::new();
    let mut count = 0;
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&syntax.tree_sitter_language()).unwrap();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for case in parse_corpus(&text) {
            if case.skip {
                continue;
            }
            count += 1;
            let tree = parser.parse(&case.input, None).unwrap();
            let root = tree.root_node();
            let where_ = format!("{} / {}", file.display(), case.name);
            if case.expects_error {
                if !root.has_error() {
                    failures.push(format!("{where_}: expected a syntax error, got none"));
                }
                continue;
            }
            let expected = normalize(&case.expected);
            let mut actual = normalize(&root.to_sexp());
            if !expected.split(' ').any(|t| t.ends_with(':') && t.len() > 1) {
                actual = strip_fields(&actual);
            }
            if actual != expected {
                failures.push(format!(
                    "{where_}:\n  expected {expected}\n  actual   {actual}"
                ));
            }
        }
    }
    assert!(count > 0, "no cases in {}", folder.display());
    assert!(
        failures.is_empty(),
        "{} of {count} corpus cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn grammar_dir(relative: &str) -> std::path::PathBuf {
    support::project_root()
        .join("grammars")
        .join(relative)
        .join("test/corpus")
}

#[test]
fn egg_corpus() {
    run_corpus(Syntax::Egg, &grammar_dir("tree-sitter-egg"));
}

#[test]
fn ludi_corpus() {
    run_corpus(Syntax::Ludi, &grammar_dir("tree-sitter-ludi"));
}

#[test]
fn kif_corpus() {
    run_corpus(Syntax::GdlKif, &grammar_dir("tree-sitter-gdl/kif"));
}

#[test]
fn infix_corpus() {
    run_corpus(Syntax::GdlInfix, &grammar_dir("tree-sitter-gdl/infix"));
}

#[test]
fn corpus_format_reader_splits_cases() {
    let text = "===\nfirst\n===\n\n(a)\n\n---\n\n(x (y))\n\n=====\nsecond\n:error\n=====\n(\n---\n";
    let cases = parse_corpus(text);
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].name, "first");
    assert_eq!(cases[0].input, "\n(a)\n");
    assert_eq!(normalize(&cases[0].expected), "( x ( y ) )");
    assert!(cases[1].expects_error);
}

/// Every KIF text the tests have: the games of the shared corpus and of this project, and every
/// grammar test case (those with syntax errors too), as (name, text).
fn kif_texts() -> Vec<(String, String)> {
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut folders = vec![support::project_root().join("corpus")];
    folders.extend(support::shared_corpus());
    for folder in folders {
        for file in support::files_with_extensions(&folder, &["kif"]) {
            texts.push((
                file.display().to_string(),
                std::fs::read_to_string(&file).unwrap(),
            ));
        }
    }
    for file in support::files_with_extensions(&grammar_dir("tree-sitter-gdl/kif"), &["txt"]) {
        for case in parse_corpus(&std::fs::read_to_string(&file).unwrap()) {
            texts.push((format!("{} / {}", file.display(), case.name), case.input));
        }
    }
    texts
}

fn kif_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&Syntax::GdlKif.tree_sitter_language())
        .unwrap();
    parser
}

/// The fast KIF parser (no error recovery) must give exactly the recovering parser's tree on
/// text without syntax errors: every game of the shared corpus and of this project, and every
/// error-free grammar test case.
#[test]
fn fast_kif_parser_gives_the_same_trees() {
    let fast = Syntax::GdlKif
        .fast_tree_sitter_language()
        .expect("KIF has a fast parser");
    let mut fast_parser = tree_sitter::Parser::new();
    fast_parser.set_language(&fast).unwrap();
    let mut parser = kif_parser();
    let mut compared = 0;
    for (name, text) in &kif_texts() {
        let tree = parser.parse(text, None).unwrap();
        if tree.root_node().has_error() {
            continue;
        }
        let fast_tree = fast_parser.parse(text, None).unwrap();
        assert_eq!(
            fast_tree.root_node().to_sexp(),
            tree.root_node().to_sexp(),
            "{name}"
        );
        compared += 1;
    }
    assert!(compared > 20, "compared only {compared} texts");
}

/// The fast KIF reader accepts only text the grammar parses without errors, and reads exactly
/// the grammar's forms; it accepts every error-free game (none of them needs what it leaves to
/// the grammar), so batch checks never build a tree for them.
#[test]
fn kif_reader_reads_what_the_grammar_parses() {
    let mut parser = kif_parser();
    let mut accepted = 0;
    for (name, text) in &kif_texts() {
        let tree = parser.parse(text, None).unwrap();
        let read = read_kif(text);
        if let Some(forms) = &read {
            assert!(
                !tree.root_node().has_error(),
                "{name}: accepted with errors"
            );
            assert_eq!(forms, &Forms::from_tree(tree.root_node()), "{name}");
            accepted += 1;
        } else if name.ends_with(".kif") {
            assert!(
                tree.root_node().has_error(),
                "{name}: an error-free game refused by the reader"
            );
        }
    }
    assert!(accepted > 20, "accepted only {accepted} texts");
}

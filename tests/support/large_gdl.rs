//! A large, valid GDL game for the language server's stress test and latency benchmark: the
//! project's tic-tac-toe rules (`corpus/gdl/ticTacToe.kif`) copied until the file has the lines
//! asked for, each copy's relations, functions, constants and roles renamed apart (`cell_7`),
//! so that the copies neither clash nor repeat each other.

use std::path::Path;

/// GDL's reserved words keep their names in every copy.
const KEYWORDS: [&str; 13] = [
    "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input",
    "distinct", "not", "or",
];

/// At least `lines` lines of GDL in prefix KIF. `project_root` is the folder holding `corpus/`.
pub fn large_gdl(project_root: &Path, lines: usize) -> String {
    let rules = std::fs::read_to_string(project_root.join("corpus/gdl/ticTacToe.kif"))
        .expect("corpus/gdl/ticTacToe.kif is readable");
    let per_copy = rules.lines().count().max(1);
    let mut text = String::new();
    for copy in 0..lines.div_ceil(per_copy) {
        text.push_str(&renamed_apart(&rules, copy));
    }
    text
}

/// `rules` with every name that is neither a keyword nor a variable suffixed `_copy`.
/// Comments are copied as they are.
fn renamed_apart(rules: &str, copy: usize) -> String {
    let mut out = String::with_capacity(rules.len() + rules.len() / 4);
    for line in rules.split_inclusive('\n') {
        if line.trim_start().starts_with(';') {
            out.push_str(line);
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic()) {
            let (before, word_on) = rest.split_at(start);
            let end = word_on
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(word_on.len());
            let (word, after) = word_on.split_at(end);
            out.push_str(before);
            out.push_str(word);
            let is_variable = before.ends_with('?');
            if !is_variable && !KEYWORDS.contains(&word) {
                out.push_str(&format!("_{copy}"));
            }
            rest = after;
        }
        out.push_str(rest);
    }
    out
}

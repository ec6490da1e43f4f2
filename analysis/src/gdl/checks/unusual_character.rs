//! `gdl/unusual-character`: a name with characters other than ASCII letters, digits, `_` and `-`.

use crate::gdl::keywords::reserved_word_ignoring_case;
use crate::gdl::model::{Symbol, Term};
use crate::rules::Rule;
use crate::{Diagnostic, Severity};

use super::Context;

pub const UNUSUAL_CHARACTER: Rule = Rule {
    code: "gdl/unusual-character",
    // Information, not a warning: the published games of the GGP repository spell arithmetic
    // relations `+`, `++`, `map+`, `<` and play wherever they are played (docs/rules-defaults.md).
    severity: Severity::Info,
    summary: "a name with characters other than ASCII letters, digits, `_` and `-`",
    explanation: "\
KIF allows almost any character in a symbol, but GDL players and tools differ in what they
accept: some split `a.b` or `x+y`, some choke on `<`, `=`, `:` or `#`, some read their input
as ASCII and mangle `é`. Names made of ASCII letters, digits, `_` and `-` work everywhere. The
reference validator warns about any other character.

It is information rather than a warning: games published in the GGP repository name their
arithmetic `+`, `++`, `map+`, `<` and `>` in some 1,400 places, and the players they were
written for read them.

    (<= (sum ?x ?y ?z) (+ ?x ?y ?z))       ; `+` is unusual: call it `plus`
    (init (cell a1 étoile))                  ; `é` is unusual

Fix: rename the symbol using letters, digits, `_` and `-`.",
};

pub fn check(context: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for rule in context.rules {
        // Only the symbols with an unusual character are kept: most games have none.
        let mut symbols: Vec<&Symbol> = Vec::new();
        let keep = |symbol: &Symbol| {
            let name = symbol.name.strip_prefix('?').unwrap_or(&symbol.name);
            name.chars().any(is_unusual)
        };
        rule.for_each_sentence(&mut |sentence| {
            if keep(&sentence.name) {
                symbols.push(&sentence.name);
            }
        });
        rule.for_each_term(&mut |term| {
            let symbol = match term {
                Term::Constant(symbol) | Term::Variable(symbol) => symbol,
                Term::Function(function) => &function.name,
            };
            if keep(symbol) {
                symbols.push(symbol);
            }
        });
        symbols.sort_by_key(|symbol| symbol.range);
        for symbol in symbols {
            // `<=`, `not`, ... as names are errors of their own (`gdl/reserved-word`).
            if reserved_word_ignoring_case(&symbol.name).is_some() {
                continue;
            }
            let mut unusual: Vec<char> = Vec::new();
            // KIF variables keep their `?`, which is not part of the name (constants never start
            // with `?`).
            let name = symbol.name.strip_prefix('?').unwrap_or(&symbol.name);
            for character in name.chars().filter(|&c| is_unusual(c)) {
                if !unusual.contains(&character) {
                    unusual.push(character);
                }
            }
            if unusual.is_empty() {
                continue;
            }
            let listed: Vec<String> = unusual.iter().map(|c| format!("`{c}`")).collect();
            let message = format!(
                "`{}` contains {}, which some GDL players do not handle: use only ASCII letters, digits, `_` and `-`",
                symbol.name,
                listed.join(", ")
            );
            out.push(Diagnostic::new(&UNUSUAL_CHARACTER, symbol.range, message));
        }
    }
}

/// Whether the reference validator calls the character unusual: anything but ASCII letters,
/// digits, `_` and `-`.
fn is_unusual(character: char) -> bool {
    !(character.is_ascii_alphanumeric() || character == '_' || character == '-')
}

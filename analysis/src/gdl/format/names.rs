//! How names are spelled in the target syntax, and the names a conversion cannot spell.
//!
//! KIF → infix:
//! - variables: `?x` → `X`, `?x1` → `X1`, `?_x` → `_x` (the first letter is capitalised, the rest
//!   kept). What follows the `?` must then be an infix identifier: letters, digits, `_` and `-`,
//!   starting with a letter or `_`. `?`, `?1` and `?x++` cannot be converted.
//! - constants (and relation and function names) are kept, except that a name starting with a
//!   capital letter is lower-cased as a whole (`WHITE` → `white`, `NWtoSE` → `nwtose`): infix reads
//!   capitalised names as variables, and GDL compares names case-insensitively. The result must be
//!   an infix constant (letters, digits, `_` and `-`, starting with a lower-case letter or a digit)
//!   or a number; `map+`, `<`, `++`, `-1` cannot be converted.
//! - the spelling must stay injective: two names of the file that would be written the same
//!   (`WHITE` and `white`), or two variables of one rule (`?x` and `?X`), stop the conversion.
//!
//! Infix → KIF:
//! - variables: `X` → `?x`, `Xy` → `?xy`, `_x` → `?_x` (the first letter is lower-cased). Infix
//!   variables start with a capital or `_`, so this is injective, and KIF → infix → KIF gives back
//!   every variable up to renaming (`?X` comes back as `?x`).
//! - constants are kept: every infix constant is a KIF symbol.
//! - a body sentence named `not` or `or` in any case (`~p & not(q)`, `oR()`) cannot be
//!   converted: KIF recognises its connectives in any case, so it would read `(not q)` as a
//!   negation and `(oR)` as an empty disjunction.
//!
//! A conversion never changes the meaning of the rules: when a name cannot be spelled, it fails
//! and says which names stand in the way, and where.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::gdl::model::{Compound, Literal, RuleSet, Symbol, Term};
use crate::{Syntax, TextRange};

/// A name a conversion cannot spell, every place it is written, and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unconvertible {
    /// The name as written in the source.
    pub name: String,
    /// Where it is written, in source order.
    pub ranges: Vec<TextRange>,
    /// Why it cannot be converted, and what to do.
    pub reason: String,
}

/// The spelling of names in the target syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NameMap {
    /// Same syntax: every name as written.
    Identity,
    KifToInfix,
    InfixToKif,
}

impl NameMap {
    pub(super) fn new(source: Syntax, target: Syntax) -> Self {
        match (source, target) {
            (Syntax::GdlKif, Syntax::GdlInfix) => NameMap::KifToInfix,
            (Syntax::GdlInfix, Syntax::GdlKif) => NameMap::InfixToKif,
            _ => NameMap::Identity,
        }
    }

    /// A constant, relation or function name in the target syntax.
    pub(super) fn constant<'a>(self, name: &'a str) -> Cow<'a, str> {
        match self {
            NameMap::KifToInfix if name.starts_with(|c: char| c.is_ascii_uppercase()) => {
                Cow::Owned(name.to_ascii_lowercase())
            }
            _ => Cow::Borrowed(name),
        }
    }

    /// A variable name in the target syntax.
    pub(super) fn variable<'a>(self, name: &'a str) -> Cow<'a, str> {
        match self {
            NameMap::Identity => Cow::Borrowed(name),
            NameMap::KifToInfix => {
                let rest = name.strip_prefix('?').unwrap_or(name);
                let mut chars = rest.chars();
                match chars.next() {
                    Some(first) => {
                        Cow::Owned(first.to_ascii_uppercase().to_string() + chars.as_str())
                    }
                    None => Cow::Borrowed(rest),
                }
            }
            NameMap::InfixToKif => {
                let mut chars = name.chars();
                match chars.next() {
                    Some(first) => {
                        Cow::Owned(format!("?{}{}", first.to_ascii_lowercase(), chars.as_str()))
                    }
                    None => Cow::Borrowed("?"),
                }
            }
        }
    }

    /// The names of `rules` this conversion cannot spell (none for [`NameMap::Identity`]), in
    /// order of first occurrence.
    pub(super) fn check(self, rules: &RuleSet) -> Result<(), Vec<Unconvertible>> {
        let mut problems = Problems::default();
        match self {
            NameMap::Identity => {}
            NameMap::KifToInfix => self.check_kif_to_infix(rules, &mut problems),
            NameMap::InfixToKif => {
                for rule in &rules.rules {
                    for literal in &rule.body {
                        check_connective_names(literal, &mut problems);
                    }
                }
            }
        }
        problems.finish()
    }

    fn check_kif_to_infix<'a>(self, rules: &'a RuleSet, problems: &mut Problems) {
        // Constants: spellable, and no two written the same.
        let mut spellings: HashMap<String, BTreeMap<&str, TextRange>> = HashMap::new();
        let mut constant = |symbol: &'a Symbol| {
            let spelled = self.constant(&symbol.name);
            if !is_infix_constant(&spelled) {
                problems.add(
                    symbol,
                    "infix names are letters, digits, `_` and `-`, starting with a lower-case letter or a digit; rename it",
                );
            }
            spellings
                .entry(spelled.into_owned())
                .or_default()
                .entry(&symbol.name)
                .or_insert(symbol.range);
        };
        for rule in &rules.rules {
            for_each_constant_in_compound(&rule.head, &mut constant);
            for literal in &rule.body {
                for_each_constant_in_literal(literal, &mut constant);
            }
        }
        let mut collisions: Vec<(&String, &BTreeMap<&str, TextRange>)> = spellings
            .iter()
            .filter(|(_, names)| names.len() > 1)
            .collect();
        collisions.sort_by_key(|(_, names)| names.values().min().copied());
        for (spelled, names) in collisions {
            let listed = names
                .keys()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(" and ");
            for (name, &range) in names {
                problems.add_named(
                    name,
                    range,
                    format!(
                        "{listed} would all be written `{spelled}` in infix; write them alike if they mean the same thing, or rename one"
                    ),
                );
            }
        }

        // Variables: spellable, and no two of one rule written the same.
        for rule in &rules.rules {
            let mut in_rule: HashMap<String, BTreeMap<&str, TextRange>> = HashMap::new();
            let mut variable = |symbol: &'a Symbol| {
                let spelled = self.variable(&symbol.name);
                if !is_infix_variable(&spelled) {
                    problems.add(
                        symbol,
                        "an infix variable is a capital letter or `_` followed by letters, digits, `_` and `-`; rename it",
                    );
                }
                in_rule
                    .entry(spelled.into_owned())
                    .or_default()
                    .entry(&symbol.name)
                    .or_insert(symbol.range);
            };
            rule.head.for_each_variable(&mut variable);
            for literal in &rule.body {
                literal.for_each_variable(&mut variable);
            }
            for (spelled, names) in in_rule.iter().filter(|(_, names)| names.len() > 1) {
                let listed = names
                    .keys()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(" and ");
                for (name, &range) in names {
                    problems.add_named(
                        name,
                        range,
                        format!(
                            "{listed} are different variables of one rule but would both be written `{spelled}` in infix; rename one"
                        ),
                    );
                }
            }
        }
    }
}

/// An infix constant (`/([a-z]|[0-9]+[a-zA-Z_-])[a-zA-Z0-9_-]*/`) or number (`/[0-9]+/`).
fn is_infix_constant(name: &str) -> bool {
    let identifier = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let digits = name.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &name[digits..];
    let starts_well = if digits == 0 {
        rest.starts_with(|c: char| c.is_ascii_lowercase())
    } else {
        true
    };
    !name.is_empty() && starts_well && rest.chars().all(identifier)
}

/// An infix variable: `/[A-Z_][a-zA-Z0-9_-]*/`.
fn is_infix_variable(name: &str) -> bool {
    let identifier = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    name.starts_with(|c: char| c.is_ascii_uppercase() || c == '_') && name.chars().all(identifier)
}

/// Infix → KIF: a body sentence named `not` or `or`, in any case, would read as the connective
/// in KIF. (`distinct` needs no check: infix reads it as the connective too, in any case.)
fn check_connective_names(literal: &Literal, problems: &mut Problems) {
    literal.for_each_sentence(false, &mut |sentence, _| {
        let name = &sentence.name.name;
        if name.eq_ignore_ascii_case("not") || name.eq_ignore_ascii_case("or") {
            problems.add(
                &sentence.name,
                "a body sentence named like a KIF connective would read as the connective in KIF; rename the relation",
            );
        }
    });
}

fn for_each_constant_in_compound<'a>(compound: &'a Compound, visit: &mut impl FnMut(&'a Symbol)) {
    visit(&compound.name);
    for arg in &compound.args {
        match arg {
            Term::Constant(symbol) => visit(symbol),
            Term::Variable(_) => {}
            Term::Function(function) => for_each_constant_in_compound(function, visit),
        }
    }
}

fn for_each_constant_in_literal<'a>(literal: &'a Literal, visit: &mut impl FnMut(&'a Symbol)) {
    match literal {
        Literal::Sentence(sentence) => for_each_constant_in_compound(sentence, visit),
        Literal::Not { inner, .. } => for_each_constant_in_literal(inner, visit),
        Literal::Distinct { left, right, .. } => {
            for term in [left, right] {
                match term {
                    Term::Constant(symbol) => visit(symbol),
                    Term::Variable(_) => {}
                    Term::Function(function) => for_each_constant_in_compound(function, visit),
                }
            }
        }
        Literal::Or { disjuncts, .. } => {
            for disjunct in disjuncts {
                for_each_constant_in_literal(disjunct, visit);
            }
        }
    }
}

/// Problems grouped by name and reason, in order of first occurrence.
#[derive(Default)]
struct Problems {
    by_name: Vec<Unconvertible>,
}

impl Problems {
    fn add(&mut self, symbol: &Symbol, reason: &str) {
        self.add_named(&symbol.name, symbol.range, reason.to_owned());
    }

    fn add_named(&mut self, name: &str, range: TextRange, reason: String) {
        match self
            .by_name
            .iter_mut()
            .find(|problem| problem.name == name && problem.reason == reason)
        {
            Some(problem) => problem.ranges.push(range),
            None => self.by_name.push(Unconvertible {
                name: name.to_owned(),
                ranges: vec![range],
                reason,
            }),
        }
    }

    fn finish(mut self) -> Result<(), Vec<Unconvertible>> {
        if self.by_name.is_empty() {
            return Ok(());
        }
        for problem in &mut self.by_name {
            problem.ranges.sort();
            problem.ranges.dedup();
        }
        self.by_name.sort_by_key(|problem| problem.ranges[0]);
        Err(self.by_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infix_identifiers() {
        for good in ["a", "cell", "x1", "1st", "10", "game-over", "a_b", "nWtoSE"] {
            assert!(is_infix_constant(good), "{good}");
        }
        for bad in ["", "map+", "<", "++", "-1", "_a", "Ab", "é"] {
            assert!(!is_infix_constant(bad), "{bad}");
        }
        for good in ["X", "_", "_x", "X1", "Xy-z"] {
            assert!(is_infix_variable(good), "{good}");
        }
        for bad in ["", "x", "1", "X+", "Ü"] {
            assert!(!is_infix_variable(bad), "{bad}");
        }
    }

    #[test]
    fn spellings() {
        let to_infix = NameMap::KifToInfix;
        assert_eq!(to_infix.variable("?x1"), "X1");
        assert_eq!(to_infix.variable("?_x"), "_x");
        assert_eq!(to_infix.constant("WHITE"), "white");
        assert_eq!(to_infix.constant("cellA"), "cellA");
        let to_kif = NameMap::InfixToKif;
        assert_eq!(to_kif.variable("X1"), "?x1");
        assert_eq!(to_kif.variable("_"), "?_");
        assert_eq!(to_kif.constant("cellA"), "cellA");
    }
}

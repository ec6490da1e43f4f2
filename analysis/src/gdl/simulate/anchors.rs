//! Where a simulation finding is reported: the rules it concerns (a role's `legal` or `goal`
//! rules, the `base` declarations of a fluent, the `role` fact), found in the rule model.

use crate::TextRange;
use crate::gdl::keywords::ROLE;
use crate::gdl::model::{Rule, RuleSet, Term};

/// How many further rules a diagnostic points at besides its primary one.
const MAX_LABELS: usize = 3;

pub struct Anchors<'a> {
    rules: &'a [Rule],
}

/// A primary range and secondary ones with their notes.
pub struct Place {
    pub range: TextRange,
    pub labels: Vec<(TextRange, String)>,
}

impl<'a> Anchors<'a> {
    pub fn new(rules: &'a RuleSet) -> Self {
        Anchors {
            rules: &rules.rules,
        }
    }

    fn is(rule: &Rule, keyword: &str) -> bool {
        rule.head.name.name.eq_ignore_ascii_case(keyword)
    }

    /// The head of the `(role NAME)` fact.
    pub fn role_fact(&self, role: &str) -> Option<TextRange> {
        self.rules
            .iter()
            .find(|rule| {
                Self::is(rule, ROLE)
                    && matches!(rule.head.args.as_slice(), [Term::Constant(name)] if &*name.name == role)
            })
            .map(|rule| rule.head.range)
    }

    /// The `(role NAME)` facts, whole, in the order written.
    pub fn role_facts(&self) -> impl Iterator<Item = TextRange> + '_ {
        self.rules
            .iter()
            .filter(|rule| Self::is(rule, ROLE) && rule.is_fact())
            .map(|rule| rule.range)
    }

    /// The heads of the rules of `keyword` (`legal`, `goal`) that can speak for `role`: those
    /// whose first argument is the role or a variable.
    pub fn role_rules(&self, keyword: &str, role: &str) -> Vec<TextRange> {
        self.rules
            .iter()
            .filter(|rule| Self::is(rule, keyword))
            .filter(|rule| match rule.head.args.first() {
                Some(Term::Constant(name)) => &*name.name == role,
                Some(Term::Variable(_)) => true,
                _ => false,
            })
            .map(|rule| rule.head.range)
            .collect()
    }

    /// The heads of the declarations (`base`, `input`) whose argument at `position` can be a
    /// term of `name/arity` (written so, or a variable); all of them when none can.
    pub fn declarations(&self, keyword: &str, position: usize, group: &str) -> Vec<TextRange> {
        let (name, arity) = group.rsplit_once('/').unwrap_or((group, "0"));
        let arity: usize = arity.parse().unwrap_or(0);
        let all: Vec<&Rule> = self
            .rules
            .iter()
            .filter(|rule| Self::is(rule, keyword))
            .collect();
        let matching: Vec<TextRange> = all
            .iter()
            .filter(|rule| match rule.head.args.get(position) {
                Some(Term::Variable(_)) => true,
                Some(Term::Constant(constant)) => arity == 0 && &*constant.name == name,
                Some(Term::Function(function)) => {
                    &*function.name.name == name && function.args.len() == arity
                }
                None => false,
            })
            .map(|rule| rule.head.range)
            .collect();
        if matching.is_empty() {
            all.iter().map(|rule| rule.head.range).collect()
        } else {
            matching
        }
    }

    /// The first rule of the file: where problems of the whole game are reported.
    pub fn first_rule(&self) -> TextRange {
        self.rules
            .first()
            .map_or(TextRange::empty(0), |rule| rule.head.range)
    }

    /// A place for a problem of `role` concerning its `keyword` rules: the first such rule, the
    /// others and the role fact as labels; the role fact when it has no such rule.
    pub fn for_role(&self, keyword: &str, role: &str) -> Place {
        let rules = self.role_rules(keyword, role);
        let role_fact = self.role_fact(role);
        let Some((&first, others)) = rules.split_first() else {
            return Place {
                range: role_fact.unwrap_or_else(|| self.first_rule()),
                labels: Vec::new(),
            };
        };
        let mut labels: Vec<(TextRange, String)> = others
            .iter()
            .take(MAX_LABELS)
            .map(|&range| {
                (
                    range,
                    format!("another `{keyword}` rule that can apply to `{role}`"),
                )
            })
            .collect();
        if let Some(range) = role_fact {
            labels.push((range, "the role is declared here".to_owned()));
        }
        Place {
            range: first,
            labels,
        }
    }

    /// A place for a problem with the rules of `keyword` as a whole (`terminal`): the first of
    /// them, and the next few as labels.
    pub fn for_keyword(&self, keyword: &str) -> Place {
        let rules: Vec<TextRange> = self
            .rules
            .iter()
            .filter(|rule| Self::is(rule, keyword))
            .map(|rule| rule.head.range)
            .collect();
        let Some((&first, others)) = rules.split_first() else {
            return Place {
                range: self.first_rule(),
                labels: Vec::new(),
            };
        };
        Place {
            range: first,
            labels: others
                .iter()
                .take(MAX_LABELS)
                .map(|&range| (range, format!("another `{keyword}` rule")))
                .collect(),
        }
    }

    /// A place for a problem with the declarations of `keyword` about `group`.
    pub fn for_declarations(&self, keyword: &str, position: usize, group: &str) -> Place {
        let rules = self.declarations(keyword, position, group);
        let Some((&first, others)) = rules.split_first() else {
            return Place {
                range: self.first_rule(),
                labels: Vec::new(),
            };
        };
        Place {
            range: first,
            labels: others
                .iter()
                .take(MAX_LABELS)
                .map(|&range| (range, format!("another `{keyword}` declaration")))
                .collect(),
        }
    }
}

impl Place {
    pub fn diagnostic(self, rule: &crate::rules::Rule, message: String) -> crate::Diagnostic {
        self.labels.into_iter().fold(
            crate::Diagnostic::new(rule, self.range, message),
            |diagnostic, (range, note)| diagnostic.with_label(range, note),
        )
    }
}

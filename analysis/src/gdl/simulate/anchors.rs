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
        self.heads(ROLE, |rule| {
            matches!(rule.head.args.as_slice(), [Term::Constant(name)] if &*name.name == role)
        })
        .first()
        .copied()
    }

    /// The `(role NAME)` facts, whole, in the order written.
    pub fn role_facts(&self) -> impl Iterator<Item = TextRange> + '_ {
        self.rules
            .iter()
            .filter(|rule| Self::is(rule, ROLE) && rule.is_fact())
            .map(|rule| rule.range)
    }

    /// The heads of the rules of `keyword` that `applies` accepts, in the order written.
    fn heads(&self, keyword: &str, applies: impl Fn(&Rule) -> bool) -> Vec<TextRange> {
        self.rules
            .iter()
            .filter(|rule| Self::is(rule, keyword) && applies(rule))
            .map(|rule| rule.head.range)
            .collect()
    }

    /// The heads of the rules of `keyword` (`legal`, `goal`) that can speak for `role`: those
    /// whose first argument is the role or a variable.
    fn role_rules(&self, keyword: &str, role: &str) -> Vec<TextRange> {
        self.heads(keyword, |rule| match rule.head.args.first() {
            Some(Term::Constant(name)) => &*name.name == role,
            Some(Term::Variable(_)) => true,
            _ => false,
        })
    }

    /// The heads of the declarations (`base`, `input`) whose argument at `position` can be a
    /// term of `name/arity` (written so, or a variable); all of them when none can.
    fn declarations(&self, keyword: &str, position: usize, group: &str) -> Vec<TextRange> {
        let (name, arity) = group.rsplit_once('/').unwrap_or((group, "0"));
        let arity: usize = arity.parse().unwrap_or(0);
        let matching = self.heads(keyword, |rule| match rule.head.args.get(position) {
            Some(Term::Variable(_)) => true,
            Some(Term::Constant(constant)) => arity == 0 && &*constant.name == name,
            Some(Term::Function(function)) => {
                &*function.name.name == name && function.args.len() == arity
            }
            None => false,
        });
        if matching.is_empty() {
            self.heads(keyword, |_| true)
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

    /// The place of a problem found at `ranges`: the first of them, with the next few as labels
    /// saying `note`; `None` when there are none.
    fn place(ranges: &[TextRange], note: &str) -> Option<Place> {
        let (&first, others) = ranges.split_first()?;
        Some(Place {
            range: first,
            labels: others
                .iter()
                .take(MAX_LABELS)
                .map(|&range| (range, note.to_owned()))
                .collect(),
        })
    }

    /// A place for a problem of `role` concerning its `keyword` rules: the first such rule, the
    /// others and the role fact as labels; the role fact when it has no such rule.
    pub fn for_role(&self, keyword: &str, role: &str) -> Place {
        let role_fact = self.role_fact(role);
        let note = format!("another `{keyword}` rule that can apply to `{role}`");
        match Self::place(&self.role_rules(keyword, role), &note) {
            Some(mut place) => {
                if let Some(range) = role_fact {
                    place
                        .labels
                        .push((range, "the role is declared here".to_owned()));
                }
                place
            }
            None => Place {
                range: role_fact.unwrap_or_else(|| self.first_rule()),
                labels: Vec::new(),
            },
        }
    }

    /// A place for a problem with the rules of `keyword` as a whole (`terminal`): the first of
    /// them, and the next few as labels.
    pub fn for_keyword(&self, keyword: &str) -> Place {
        let note = format!("another `{keyword}` rule");
        Self::place(&self.heads(keyword, |_| true), &note).unwrap_or_else(|| self.whole_game())
    }

    /// A place for a problem with the declarations of `keyword` about `group`.
    pub fn for_declarations(&self, keyword: &str, position: usize, group: &str) -> Place {
        let note = format!("another `{keyword}` declaration");
        Self::place(&self.declarations(keyword, position, group), &note)
            .unwrap_or_else(|| self.whole_game())
    }

    /// The first rule, unlabelled: for a problem no particular rule is responsible for.
    fn whole_game(&self) -> Place {
        Place {
            range: self.first_rule(),
            labels: Vec::new(),
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

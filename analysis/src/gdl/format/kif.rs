//! The canonical prefix KIF layout, the one the GGP repository's games are written in:
//!
//! ```text
//! (role xplayer)
//! (<= (legal ?p (mark ?m ?n))
//!     (true (cell ?m ?n b))
//!     (true (control ?p)))
//! (<= terminal
//!     (not open))
//! (<= (next (cell ?m ?n b))
//!     (true (cell ?m ?n b))
//!     (does ?r (mark ?j ?k))
//!     (or (distinct ?m ?j) (distinct ?n ?k)))
//! ```
//!
//! Facts are written on one line. A rule is never written on one line, however short: `(<= head`
//! stands on the first line and each body literal on its own line, indented four spaces, with the
//! closing parentheses on the last literal's line. (92 % of the rules of the 351 games of the GGP
//! corpus are written so, one-literal rules included; the infix syntax, where short rules are
//! usually written on one line, keeps them so.) An `or` that does not fit in
//! [`WIDTH`] columns puts each disjunct on its own line, aligned after `(or `:
//!
//! ```text
//!     (or (distinct ?x ?x2)
//!         (distinct ?y ?y2)
//!         (true (frozen ?x ?y))))
//! ```
//!
//! Terms are never broken. A rule without a body stays `(<= head)`.

use super::comments::{RuleComments, trail};
use super::names::NameMap;
use super::{WIDTH, width};
use crate::gdl::model::{Compound, Literal, Rule, Term};

pub(super) const MARKER: char = ';';

const INDENT: usize = 4;

pub(super) struct Kif {
    pub names: NameMap,
}

impl Kif {
    pub(super) fn rule(&self, rule: &Rule, comments: &RuleComments) -> Vec<String> {
        let head = self.compound(&rule.head);
        let mut lines = Vec::new();
        if rule.body.is_empty() {
            lines.push(if rule.written_as_rule {
                format!("(<= {head})")
            } else {
                head
            });
        } else {
            let mut first = format!("(<= {head}");
            trail(&mut first, comments.head.as_ref(), MARKER);
            lines.push(first);
            let indent = " ".repeat(INDENT);
            let last = rule.body.len() - 1;
            for (index, literal) in rule.body.iter().enumerate() {
                for comment in &comments.leading[index] {
                    lines.push(format!("{indent}{}", comment.render(MARKER)));
                }
                let suffix = if index == last { 1 } else { 0 };
                let mut literal_lines = self.literal_lines(literal, INDENT, suffix);
                literal_lines[0].insert_str(0, &indent);
                let end = literal_lines.last_mut().expect("at least one line");
                if index == last {
                    end.push(')');
                }
                trail(end, comments.trailing[index].as_ref(), MARKER);
                lines.extend(literal_lines);
            }
        }
        let last_commented = comments.trailing.last().is_some_and(Option::is_some);
        super::trail_or_follow(&mut lines, comments.after.as_ref(), last_commented, MARKER);
        lines
    }

    fn literal(&self, literal: &Literal) -> String {
        match literal {
            Literal::Sentence(sentence) => self.compound(sentence),
            Literal::Not { inner, .. } => format!("(not {})", self.literal(inner)),
            Literal::Distinct { left, right, .. } => {
                format!("(distinct {} {})", self.term(left), self.term(right))
            }
            Literal::Or { disjuncts, .. } => {
                let mut text = "(or".to_owned();
                for disjunct in disjuncts {
                    text.push(' ');
                    text.push_str(&self.literal(disjunct));
                }
                text.push(')');
                text
            }
        }
    }

    /// The lines of `literal` written at `column`, `suffix` characters following its last line:
    /// the first line without indentation, the others with theirs.
    fn literal_lines(&self, literal: &Literal, column: usize, suffix: usize) -> Vec<String> {
        let flat = self.literal(literal);
        let Literal::Or { disjuncts, .. } = literal else {
            return vec![flat];
        };
        if column + width(&flat) + suffix <= WIDTH || disjuncts.len() < 2 {
            return vec![flat];
        }
        let inner = column + "(or ".len();
        let mut lines = Vec::new();
        let last = disjuncts.len() - 1;
        for (index, disjunct) in disjuncts.iter().enumerate() {
            let suffix = if index == last { suffix + 1 } else { 0 };
            let mut disjunct_lines = self.literal_lines(disjunct, inner, suffix);
            let prefix = if index == 0 {
                "(or ".to_owned()
            } else {
                " ".repeat(inner)
            };
            disjunct_lines[0].insert_str(0, &prefix);
            lines.extend(disjunct_lines);
        }
        lines.last_mut().expect("two disjuncts").push(')');
        lines
    }

    pub(super) fn compound(&self, compound: &Compound) -> String {
        let name = self.names.constant(&compound.name.name);
        if compound.args.is_empty() && !compound.empty_parentheses {
            return name.into_owned();
        }
        let mut text = format!("({name}");
        for arg in &compound.args {
            text.push(' ');
            text.push_str(&self.term(arg));
        }
        text.push(')');
        text
    }

    fn term(&self, term: &Term) -> String {
        match term {
            Term::Constant(symbol) => self.names.constant(&symbol.name).into_owned(),
            Term::Variable(symbol) => self.names.variable(&symbol.name).into_owned(),
            Term::Function(function) => self.compound(function),
        }
    }
}

//! The canonical infix layout (Stanford Gamemaster / Epilog).
//!
//! ```text
//! role(x)
//! legal(P, mark(M, N)) :- true(cell(M, N, b)) & true(control(P))
//! next(cell(M, N, b)) :-
//!   true(cell(M, N, b)) &
//!   does(R, mark(J, K)) &
//!   (distinct(M, J) | distinct(N, K))
//! ```
//!
//! Arguments are separated by `, `; `~` negates, `|` separates disjuncts, and a disjunction is
//! parenthesised when it is one conjunct among several (or a disjunct, or negated), never when it
//! is the whole body. A rule is written on one line when it fits in [`WIDTH`] columns
//! and no comment must go inside it; otherwise `head :-` stands on the first line and each body
//! literal on its own line, indented two spaces, each but the last ending with ` &`. A disjunction
//! that does not fit puts each disjunct on its own line, each but the last ending with ` |`. No
//! rule ends with `.`.

use super::comments::{RuleComments, trail};
use super::names::NameMap;
use super::{WIDTH, width};
use crate::gdl::model::{Compound, Literal, Rule, Term};

pub(super) const MARKER: char = '%';

const INDENT: usize = 2;

/// Where a literal stands: a disjunction needs parentheses everywhere but as a whole body.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    WholeBody,
    Nested,
}

pub(super) struct Infix {
    pub names: NameMap,
}

impl Infix {
    pub(super) fn rule(&self, rule: &Rule, comments: &RuleComments) -> Vec<String> {
        let head = self.compound(&rule.head);
        let mut lines = Vec::new();
        if rule.body.is_empty() {
            // A KIF `(<= p)`: infix has no rule without a body; the fact means the same.
            lines.push(head);
        } else {
            let place = if rule.body.len() == 1 {
                Place::WholeBody
            } else {
                Place::Nested
            };
            let literals: Vec<String> = rule
                .body
                .iter()
                .map(|literal| self.literal(literal, place))
                .collect();
            let mut one_line = format!("{head} :- {}", literals.join(" & "));
            // A comment after the last literal ends the rule's last line either way, and read
            // back it follows the rule (infix rules have no closing bracket to keep it inside):
            // it must not decide the layout, or formatting twice would not agree.
            if !comments.inside_before_last_literal_ends() && width(&one_line) <= WIDTH {
                trail(
                    &mut one_line,
                    comments.trailing.last().and_then(Option::as_ref),
                    MARKER,
                );
                lines.push(one_line);
            } else {
                let mut first = format!("{head} :-");
                trail(&mut first, comments.head.as_ref(), MARKER);
                lines.push(first);
                let indent = " ".repeat(INDENT);
                let last = rule.body.len() - 1;
                for (index, literal) in rule.body.iter().enumerate() {
                    for comment in &comments.leading[index] {
                        lines.push(format!("{indent}{}", comment.render(MARKER)));
                    }
                    let suffix = if index == last { 0 } else { 2 };
                    let mut literal_lines = self.literal_lines(literal, INDENT, suffix, place);
                    literal_lines[0].insert_str(0, &indent);
                    let end = literal_lines.last_mut().expect("at least one line");
                    if index != last {
                        end.push_str(" &");
                    }
                    trail(end, comments.trailing[index].as_ref(), MARKER);
                    lines.extend(literal_lines);
                }
            }
        }
        let last_commented = comments.trailing.last().is_some_and(Option::is_some);
        super::trail_or_follow(&mut lines, comments.after.as_ref(), last_commented, MARKER);
        lines
    }

    fn literal(&self, literal: &Literal, place: Place) -> String {
        match literal {
            Literal::Sentence(sentence) => self.compound(sentence),
            Literal::Not { inner, .. } => format!("~{}", self.literal(inner, Place::Nested)),
            Literal::Distinct { left, right, .. } => {
                format!("distinct({}, {})", self.term(left), self.term(right))
            }
            // A KIF `(or p)`: infix has no one-disjunct disjunction; `p` means the same.
            Literal::Or { disjuncts, .. } if disjuncts.len() == 1 => {
                self.literal(&disjuncts[0], place)
            }
            Literal::Or { disjuncts, .. } => {
                let text = disjuncts
                    .iter()
                    .map(|disjunct| self.literal(disjunct, Place::Nested))
                    .collect::<Vec<_>>()
                    .join(" | ");
                match place {
                    Place::WholeBody => text,
                    Place::Nested => format!("({text})"),
                }
            }
        }
    }

    /// The lines of `literal` written at `column`, `suffix` characters following its last line:
    /// the first line without indentation, the others with theirs.
    fn literal_lines(
        &self,
        literal: &Literal,
        column: usize,
        suffix: usize,
        place: Place,
    ) -> Vec<String> {
        let flat = self.literal(literal, place);
        let disjuncts = match literal {
            Literal::Or { disjuncts, .. } if disjuncts.len() >= 2 => disjuncts,
            // A KIF `(or p)` is written as `p` (see [`Infix::literal`]), so it is laid out as
            // `p`: read back, the output has no one-disjunct disjunction to keep it on one line.
            Literal::Or { disjuncts, .. } if disjuncts.len() == 1 => {
                return self.literal_lines(&disjuncts[0], column, suffix, place);
            }
            _ => return vec![flat],
        };
        if column + width(&flat) + suffix <= WIDTH {
            return vec![flat];
        }
        let parenthesised = place == Place::Nested;
        let inner = column + usize::from(parenthesised);
        let mut lines = Vec::new();
        let last = disjuncts.len() - 1;
        for (index, disjunct) in disjuncts.iter().enumerate() {
            let own_suffix = if index == last {
                suffix + usize::from(parenthesised)
            } else {
                2
            };
            let mut disjunct_lines = self.literal_lines(disjunct, inner, own_suffix, Place::Nested);
            let prefix = match (index, parenthesised) {
                (0, true) => "(".to_owned(),
                (0, false) => String::new(),
                _ => " ".repeat(inner),
            };
            disjunct_lines[0].insert_str(0, &prefix);
            if index != last {
                disjunct_lines
                    .last_mut()
                    .expect("at least one line")
                    .push_str(" |");
            }
            lines.extend(disjunct_lines);
        }
        if parenthesised {
            lines.last_mut().expect("two disjuncts").push(')');
        }
        lines
    }

    pub(super) fn compound(&self, compound: &Compound) -> String {
        let name = self.names.constant(&compound.name.name);
        if compound.args.is_empty() && !compound.empty_parentheses {
            return name.into_owned();
        }
        let args: Vec<String> = compound.args.iter().map(|arg| self.term(arg)).collect();
        format!("{name}({})", args.join(", "))
    }

    fn term(&self, term: &Term) -> String {
        match term {
            Term::Constant(symbol) => self.names.constant(&symbol.name).into_owned(),
            Term::Variable(symbol) => self.names.variable(&symbol.name).into_owned(),
            Term::Function(function) => self.compound(function),
        }
    }
}

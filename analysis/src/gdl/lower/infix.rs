//! Lowering of the infix (Gamemaster) syntax: `head :- lit & lit`, `~`, `|`, `f(a, B)`.

use tree_sitter::Node;

use super::{
    CONJUNCTION_IN_DISJUNCTION, CONNECTIVE_ARITY, Lowered, Lowerer, NEGATED_NON_SENTENCE,
    NOT_A_SENTENCE, NOT_A_TERM, items,
};
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Sentence, Term};

pub fn lower(root: Node<'_>, text: &str) -> Lowered {
    let mut lowerer = InfixLowering(Lowerer::new(text));
    let mut rules = Vec::new();
    for item in items(root) {
        let rule = match item.kind() {
            "rule" => lowerer.rule(item),
            "fact" => item
                .child_by_field_name("sentence")
                .and_then(|sentence| lowerer.sentence(sentence, 1))
                .map(|head| Rule {
                    head,
                    body: Vec::new(),
                    written_as_rule: false,
                    complete: true,
                    range: Lowerer::range(item),
                }),
            _ => None,
        };
        rules.extend(lowerer.finish(rule));
    }
    Lowered {
        rules: RuleSet { rules },
        diagnostics: lowerer.0.diagnostics,
    }
}

/// The infix-specific half of lowering; the shared state is in [`Lowerer`].
struct InfixLowering<'t>(Lowerer<'t>);

impl<'t> std::ops::Deref for InfixLowering<'t> {
    type Target = Lowerer<'t>;
    fn deref(&self) -> &Lowerer<'t> {
        &self.0
    }
}

impl std::ops::DerefMut for InfixLowering<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl InfixLowering<'_> {
    /// Whether `node`, standing `depth` levels deep, is too deep to read (then reported, and
    /// left out by the caller): see [`Lowerer::too_deep`]. Levels are counted as in KIF, where
    /// a rule is a form of its own: a fact's sentence stands at level 1, a rule's head and
    /// body literals at level 2, and each argument, negated literal, disjunct or group one
    /// level deeper than what holds it.
    /// Only what holds something counts (a compound, a negation, a group, ...): a symbol, or
    /// an atom without arguments, holds nothing deeper.
    fn too_deep(&mut self, node: Node<'_>, depth: usize) -> bool {
        let holds_nothing = matches!(node.kind(), "constant" | "number" | "variable")
            || (node.kind() == "atom" && node.child_by_field_name("arguments").is_none());
        !holds_nothing && self.0.too_deep(Lowerer::range(node), depth)
    }

    fn rule(&mut self, node: Node<'_>) -> Option<Rule> {
        let head = self.sentence(node.child_by_field_name("head")?, 2)?;
        let body = match node.child_by_field_name("body") {
            Some(formula) => self.conjunction(formula, 2),
            None => Vec::new(),
        };
        Some(Rule {
            head,
            body,
            written_as_rule: true,
            complete: true,
            range: Lowerer::range(node),
        })
    }

    /// The literals of a body formula at level `depth`, with conjunctions and groups flattened.
    fn conjunction(&mut self, node: Node<'_>, depth: usize) -> Vec<Literal> {
        if self.too_deep(node, depth) {
            return Vec::new();
        }
        match node.kind() {
            "conjunction" => {
                let mut literals = Vec::new();
                for literal in items(node) {
                    literals.extend(self.conjunction(literal, depth));
                }
                literals
            }
            "group" => match items(node).first() {
                Some(&inner) => self.conjunction(inner, depth + 1),
                None => Vec::new(),
            },
            _ => self.literal(node, depth).into_iter().collect(),
        }
    }

    /// A body literal at level `depth`. The recursion along negations, disjunctions and groups
    /// runs through this dispatch and one small function per kind, so that a level costs
    /// little stack even in a debug build.
    fn literal(&mut self, node: Node<'_>, depth: usize) -> Option<Literal> {
        if self.too_deep(node, depth) {
            return None;
        }
        match node.kind() {
            "atom" => self.atom_literal(node, depth),
            "negation" => self.negation(node, depth),
            "disjunction" => self.disjunction(node, depth),
            "group" => self.group(node, depth),
            _ => self.sentence(node, depth).map(Literal::Sentence),
        }
    }

    /// A sentence, or `distinct(a, b)`.
    fn atom_literal(&mut self, node: Node<'_>, depth: usize) -> Option<Literal> {
        let sentence = self.sentence(node, depth)?;
        if !sentence.name.name.eq_ignore_ascii_case("distinct") {
            return Some(Literal::Sentence(sentence));
        }
        let [left, right] = sentence.args.as_slice() else {
            let message = format!(
                "`distinct` takes exactly two terms, not {}",
                sentence.arity()
            );
            self.report(&CONNECTIVE_ARITY, node, message);
            return None;
        };
        Some(Literal::Distinct {
            left: left.clone(),
            right: right.clone(),
            range: sentence.range,
        })
    }

    /// `~literal` at level `depth`.
    fn negation(&mut self, node: Node<'_>, depth: usize) -> Option<Literal> {
        let inner_node = *items(node).first()?;
        let inner = self.literal(inner_node, depth + 1)?;
        if !matches!(inner, Literal::Sentence(_)) {
            self.report(
                &NEGATED_NON_SENTENCE,
                node,
                "GDL negates single sentences only: negate each sentence, or define a relation for the condition and negate that"
                    .to_owned(),
            );
        }
        Some(Literal::Not {
            inner: Box::new(inner),
            range: Lowerer::range(node),
        })
    }

    /// `a | b | ...` at level `depth`.
    fn disjunction(&mut self, node: Node<'_>, depth: usize) -> Option<Literal> {
        let mut disjuncts = Vec::new();
        for disjunct in items(node) {
            let mut conjuncts = self.conjunction(disjunct, depth + 1);
            if conjuncts.len() == 1 {
                disjuncts.extend(conjuncts.pop());
            } else if !conjuncts.is_empty() {
                self.report(
                    &CONJUNCTION_IN_DISJUNCTION,
                    disjunct,
                    "GDL's `or` takes single literals: write one rule per alternative instead of `a & b | c`"
                        .to_owned(),
                );
            }
        }
        Some(Literal::Or {
            disjuncts,
            range: Lowerer::range(node),
        })
    }

    /// `(formula)` where one literal must stand (after `~`) at level `depth`.
    fn group(&mut self, node: Node<'_>, depth: usize) -> Option<Literal> {
        let inner = *items(node).first()?;
        let mut conjuncts = self.conjunction(inner, depth + 1);
        if conjuncts.len() == 1 {
            return conjuncts.pop();
        }
        self.report(
            &NEGATED_NON_SENTENCE,
            node,
            "GDL negates single sentences only: `~(a & b)` has no GDL form; define a relation for `a & b` and negate it"
                .to_owned(),
        );
        None
    }

    /// A sentence at level `depth`: an atom whose name is a constant or number.
    fn sentence(&mut self, node: Node<'_>, depth: usize) -> Option<Sentence> {
        if self.too_deep(node, depth) {
            return None;
        }
        match node.kind() {
            "atom" => self.application(
                node,
                &NOT_A_SENTENCE,
                "a sentence starts with a relation name",
                depth,
            ),
            "variable" => {
                let message = format!(
                    "the variable `{}` stands where a sentence must: GDL cannot quantify over relations",
                    self.quote(node)
                );
                self.report(&NOT_A_SENTENCE, node, message);
                None
            }
            "negation" => {
                let message = format!(
                    "`{}` cannot be a fact or a rule head: only sentences can be defined, never their negation",
                    self.quote(node)
                );
                self.report(&NOT_A_SENTENCE, node, message);
                None
            }
            _ => None,
        }
    }

    /// An atom or compound at level `depth`: `name` or `name(arguments)`, its arguments one
    /// level deeper. A plain loop, not an iterator chain: this recursion follows the nesting of
    /// terms, and each level should cost little stack.
    fn application(
        &mut self,
        node: Node<'_>,
        rule: &crate::rules::Rule,
        what_it_needs: &str,
        depth: usize,
    ) -> Option<Compound> {
        let name_node = node.child_by_field_name("name")?;
        if name_node.kind() == "variable" {
            self.variable_as_name(name_node, rule, what_it_needs);
            return None;
        }
        let arguments = node.child_by_field_name("arguments");
        let terms: Vec<Node<'_>> = arguments.map(items).unwrap_or_default();
        let mut args = Vec::with_capacity(terms.len());
        for &term in &terms {
            args.push(self.term(term, depth + 1)?);
        }
        Some(Compound {
            name: self.symbol(name_node),
            args,
            range: Lowerer::range(node),
            empty_parentheses: arguments.is_some() && terms.is_empty(),
        })
    }

    #[inline(never)]
    fn variable_as_name(&mut self, name: Node<'_>, rule: &crate::rules::Rule, what_it_needs: &str) {
        let message = format!(
            "`{}` starts with a capital letter, so it reads as a variable, and {what_it_needs}; write names in lower case",
            self.text_of(name)
        );
        self.report(rule, name, message);
    }

    fn term(&mut self, node: Node<'_>, depth: usize) -> Option<Term> {
        if self.too_deep(node, depth) {
            return None;
        }
        match node.kind() {
            "constant" | "number" => Some(Term::Constant(self.symbol(node))),
            "variable" => Some(Term::Variable(self.symbol(node))),
            "compound" => self
                .application(
                    node,
                    &NOT_A_TERM,
                    "a function term starts with a function name",
                    depth,
                )
                .map(Term::Function),
            _ => None,
        }
    }
}

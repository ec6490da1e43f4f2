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
                .and_then(|sentence| lowerer.sentence(sentence))
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
    fn rule(&mut self, node: Node<'_>) -> Option<Rule> {
        let head = self.sentence(node.child_by_field_name("head")?)?;
        let body = match node.child_by_field_name("body") {
            Some(formula) => self.conjunction(formula),
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

    /// The literals of a body formula, with conjunctions and groups flattened.
    fn conjunction(&mut self, node: Node<'_>) -> Vec<Literal> {
        match node.kind() {
            "conjunction" => items(node)
                .into_iter()
                .flat_map(|literal| self.conjunction(literal))
                .collect(),
            "group" => match items(node).first() {
                Some(&inner) => self.conjunction(inner),
                None => Vec::new(),
            },
            _ => self.literal(node).into_iter().collect(),
        }
    }

    fn literal(&mut self, node: Node<'_>) -> Option<Literal> {
        match node.kind() {
            "atom" => {
                let sentence = self.sentence(node)?;
                if sentence.name.name.eq_ignore_ascii_case("distinct") {
                    let [left, right] = sentence.args.as_slice() else {
                        let message = format!(
                            "`distinct` takes exactly two terms, not {}",
                            sentence.arity()
                        );
                        self.report(&CONNECTIVE_ARITY, node, message);
                        return None;
                    };
                    return Some(Literal::Distinct {
                        left: left.clone(),
                        right: right.clone(),
                        range: sentence.range,
                    });
                }
                Some(Literal::Sentence(sentence))
            }
            "negation" => {
                let inner_node = *items(node).first()?;
                let inner = self.literal(inner_node)?;
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
            "disjunction" => {
                let mut disjuncts = Vec::new();
                for disjunct in items(node) {
                    let mut conjuncts = self.conjunction(disjunct);
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
            "group" => {
                let inner = *items(node).first()?;
                let mut conjuncts = self.conjunction(inner);
                if conjuncts.len() == 1 {
                    conjuncts.pop()
                } else {
                    self.report(
                        &NEGATED_NON_SENTENCE,
                        node,
                        "GDL negates single sentences only: `~(a & b)` has no GDL form; define a relation for `a & b` and negate it"
                            .to_owned(),
                    );
                    None
                }
            }
            _ => self.sentence(node).map(Literal::Sentence),
        }
    }

    /// A sentence: an atom whose name is a constant or number.
    fn sentence(&mut self, node: Node<'_>) -> Option<Sentence> {
        match node.kind() {
            "atom" => self.application(
                node,
                &NOT_A_SENTENCE,
                "a sentence starts with a relation name",
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

    /// An atom or compound: `name` or `name(arguments)`.
    fn application(
        &mut self,
        node: Node<'_>,
        rule: &crate::rules::Rule,
        what_it_needs: &str,
    ) -> Option<Compound> {
        let name_node = node.child_by_field_name("name")?;
        if name_node.kind() == "variable" {
            let message = format!(
                "`{}` starts with a capital letter, so it reads as a variable, and {what_it_needs}; write names in lower case",
                self.text_of(name_node)
            );
            self.report(rule, name_node, message);
            return None;
        }
        let arguments = node.child_by_field_name("arguments");
        let terms: Vec<Node<'_>> = arguments.map(items).unwrap_or_default();
        let args: Option<Vec<Term>> = terms.iter().map(|&term| self.term(term)).collect();
        Some(Compound {
            name: self.symbol(name_node),
            args: args?,
            range: Lowerer::range(node),
            empty_parentheses: arguments.is_some() && terms.is_empty(),
        })
    }

    fn term(&mut self, node: Node<'_>) -> Option<Term> {
        match node.kind() {
            "constant" | "number" => Some(Term::Constant(self.symbol(node))),
            "variable" => Some(Term::Variable(self.symbol(node))),
            "compound" => self
                .application(
                    node,
                    &NOT_A_TERM,
                    "a function term starts with a function name",
                )
                .map(Term::Function),
            _ => None,
        }
    }
}

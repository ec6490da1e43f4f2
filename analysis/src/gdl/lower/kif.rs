//! Lowering of prefix KIF: `(<= head body...)` rules, lists, constants, `?variables`.

use tree_sitter::Node;

use super::{
    CONNECTIVE_ARITY, Lowered, Lowerer, MALFORMED_RULE, MISPLACED_RULE, NEGATED_NON_SENTENCE,
    NOT_A_SENTENCE, NOT_A_TERM, items,
};
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Sentence, Term};

pub fn lower(root: Node<'_>, text: &str) -> Lowered {
    let mut lowerer = KifLowering(Lowerer::new(text));
    let mut rules = Vec::new();
    for item in items(root) {
        if let Some(rule) = lowerer.top_level(item) {
            rules.push(rule);
        }
    }
    Lowered {
        rules: RuleSet { rules },
        diagnostics: lowerer.0.diagnostics,
    }
}

/// A list's elements: (its head node, the argument nodes); the head is `None` when the first
/// element is not a constant or number (or the list is empty) — exactly when the grammar gives
/// the list a `head` field. One pass over the children: this runs for every form of every game.
fn split_list(list: Node<'_>) -> (Option<Node<'_>>, Vec<Node<'_>>) {
    let mut elements = items(list);
    let has_head = elements
        .first()
        .is_some_and(|first| matches!(first.kind(), "constant" | "number"));
    if has_head {
        let head = elements.remove(0);
        (Some(head), elements)
    } else {
        (None, elements)
    }
}

/// The KIF-specific half of lowering; the shared state is in [`Lowerer`].
struct KifLowering<'t>(Lowerer<'t>);

impl<'t> std::ops::Deref for KifLowering<'t> {
    type Target = Lowerer<'t>;
    fn deref(&self) -> &Lowerer<'t> {
        &self.0
    }
}

impl std::ops::DerefMut for KifLowering<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl KifLowering<'_> {
    fn top_level(&mut self, node: Node<'_>) -> Option<Rule> {
        match node.kind() {
            "rule" => {
                let Some(head_node) = node.child_by_field_name("head") else {
                    self.report(
                        &MALFORMED_RULE,
                        node,
                        "this rule has no head: write `(<= head literal ...)`".to_owned(),
                    );
                    return None;
                };
                let head = self.sentence(head_node)?;
                let mut cursor = node.walk();
                let body_nodes: Vec<Node<'_>> = node
                    .children_by_field_name("body", &mut cursor)
                    .filter(|child| !child.is_extra() && !child.is_error() && !child.is_missing())
                    .collect();
                let body = body_nodes
                    .into_iter()
                    .filter_map(|literal| self.literal(literal))
                    .collect();
                Some(Rule {
                    head,
                    body,
                    written_as_rule: true,
                    range: Lowerer::range(node),
                })
            }
            _ => {
                let head = self.sentence(node)?;
                Some(Rule {
                    head,
                    body: Vec::new(),
                    written_as_rule: false,
                    range: Lowerer::range(node),
                })
            }
        }
    }

    /// A sentence: a relation constant, or a list starting with one.
    fn sentence(&mut self, node: Node<'_>) -> Option<Sentence> {
        match node.kind() {
            "constant" | "number" => {
                let name = self.text_of(node);
                Some(Compound {
                    name: self.symbol(node, name),
                    args: Vec::new(),
                    range: Lowerer::range(node),
                    empty_parentheses: false,
                })
            }
            "list" => match split_list(node) {
                (Some(head), arguments) => self.compound(node, head, &arguments),
                (None, _) => {
                    let message = format!(
                        "`{}` is not a sentence: a sentence starts with a relation name",
                        self.quote(node)
                    );
                    self.report(&NOT_A_SENTENCE, node, message);
                    None
                }
            },
            "variable" => {
                let message = format!(
                    "the variable `{}` stands where a sentence must: GDL cannot quantify over relations",
                    self.quote(node)
                );
                self.report(&NOT_A_SENTENCE, node, message);
                None
            }
            "rule" => {
                self.misplaced_rule(node);
                None
            }
            _ => None,
        }
    }

    fn compound(
        &mut self,
        node: Node<'_>,
        head: Node<'_>,
        arguments: &[Node<'_>],
    ) -> Option<Compound> {
        let args: Option<Vec<Term>> = arguments
            .iter()
            .map(|&argument| self.term(argument))
            .collect();
        Some(Compound {
            name: self.symbol(head, self.text_of(head)),
            args: args?,
            range: Lowerer::range(node),
            empty_parentheses: arguments.is_empty(),
        })
    }

    fn term(&mut self, node: Node<'_>) -> Option<Term> {
        match node.kind() {
            "constant" | "number" => Some(Term::Constant(self.symbol(node, self.text_of(node)))),
            "variable" => Some(Term::Variable(self.symbol(node, self.text_of(node)))),
            "list" => match split_list(node) {
                (Some(head), arguments) => {
                    self.compound(node, head, &arguments).map(Term::Function)
                }
                (None, _) => {
                    let message = format!(
                        "`{}` is not a term: a function term starts with a function name",
                        self.quote(node)
                    );
                    self.report(&NOT_A_TERM, node, message);
                    None
                }
            },
            "rule" => {
                self.misplaced_rule(node);
                None
            }
            _ => None,
        }
    }

    fn literal(&mut self, node: Node<'_>) -> Option<Literal> {
        // Connectives are recognised in any case (`NOT`, `Distinct`), as GDL symbols are
        // case-insensitive and the reference validator accepts them.
        let connective = match (node.kind(), split_list(node)) {
            ("list", (Some(head), arguments)) => {
                Some((self.text_of(head).to_ascii_lowercase(), arguments))
            }
            _ => None,
        };
        let connective = connective
            .as_ref()
            .map(|(name, arguments)| (name.as_str(), arguments.as_slice()));
        match connective {
            Some(("not", arguments)) => {
                let [inner] = arguments[..] else {
                    return self.connective_arity(
                        node,
                        "not",
                        "exactly one literal",
                        arguments.len(),
                    );
                };
                let inner_node = inner;
                let inner = self.literal(inner_node)?;
                if !matches!(inner, Literal::Sentence(_)) {
                    let message = format!(
                        "GDL negates single sentences only, not `{}`; rewrite the condition over sentences",
                        self.quote(inner_node)
                    );
                    self.report(&NEGATED_NON_SENTENCE, node, message);
                }
                Some(Literal::Not {
                    inner: Box::new(inner),
                    range: Lowerer::range(node),
                })
            }
            Some(("distinct", arguments)) => {
                let [left, right] = arguments[..] else {
                    return self.connective_arity(
                        node,
                        "distinct",
                        "exactly two terms",
                        arguments.len(),
                    );
                };
                let (left, right) = (self.term(left)?, self.term(right)?);
                Some(Literal::Distinct {
                    left,
                    right,
                    range: Lowerer::range(node),
                })
            }
            Some(("or", arguments)) => {
                if arguments.is_empty() {
                    return self.connective_arity(node, "or", "at least one literal", 0);
                }
                let disjuncts: Option<Vec<Literal>> = arguments
                    .iter()
                    .map(|&argument| self.literal(argument))
                    .collect();
                Some(Literal::Or {
                    disjuncts: disjuncts?,
                    range: Lowerer::range(node),
                })
            }
            _ => self.sentence(node).map(Literal::Sentence),
        }
    }

    fn connective_arity(
        &mut self,
        node: Node<'_>,
        name: &str,
        wanted: &str,
        got: usize,
    ) -> Option<Literal> {
        let message = format!("`{name}` takes {wanted}, not {got}");
        self.report(&CONNECTIVE_ARITY, node, message);
        None
    }

    fn misplaced_rule(&mut self, node: Node<'_>) {
        self.report(
            &MISPLACED_RULE,
            node,
            "a rule `(<= ...)` cannot stand inside another form; move it to the top level (or add the `)` missing before it)"
                .to_owned(),
        );
    }
}

//! Lowering of prefix KIF: `(<= head body...)` rules, lists, constants, `?variables`.
//!
//! This runs over every form of every game a batch check reads, so it walks the tree with one
//! reusable cursor and compares node kinds by id, not by name.

use smallvec::SmallVec;
use tree_sitter::{Language, Node, TreeCursor};

use super::{
    CONNECTIVE_ARITY, Lowered, Lowerer, MALFORMED_RULE, MISPLACED_RULE, NEGATED_NON_SENTENCE,
    NOT_A_SENTENCE, NOT_A_TERM,
};
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Sentence, Term};

pub fn lower(root: Node<'_>, text: &str) -> Lowered {
    let mut lowerer = KifLowering {
        common: Lowerer::new(text),
        kinds: Kinds::of(&root.language()),
        cursor: root.walk(),
    };
    let mut rules = Vec::new();
    for item in lowerer.items(root) {
        let rule = lowerer.top_level(item);
        rules.extend(lowerer.finish(rule));
    }
    Lowered {
        rules: RuleSet { rules },
        diagnostics: lowerer.common.diagnostics,
    }
}

/// The ids of the node kinds lowering tells apart, in the grammar the tree comes from (the fast
/// and the recovering KIF grammars number their kinds differently).
struct Kinds {
    rule: u16,
    list: u16,
    constant: u16,
    variable: u16,
    number: u16,
}

impl Kinds {
    fn of(language: &Language) -> Self {
        let id = |kind: &str| language.id_for_node_kind(kind, true);
        Kinds {
            rule: id("rule"),
            list: id("list"),
            constant: id("constant"),
            variable: id("variable"),
            number: id("number"),
        }
    }
}

/// A form's elements: few, so kept on the stack.
type Elements<'tree> = SmallVec<[Node<'tree>; 8]>;

/// The KIF-specific half of lowering; the shared state is in [`Lowerer`].
struct KifLowering<'t, 'tree> {
    common: Lowerer<'t>,
    kinds: Kinds,
    /// One cursor for the whole file: creating one per node would allocate every time.
    cursor: TreeCursor<'tree>,
}

impl<'t> std::ops::Deref for KifLowering<'t, '_> {
    type Target = Lowerer<'t>;
    fn deref(&self) -> &Lowerer<'t> {
        &self.common
    }
}

impl std::ops::DerefMut for KifLowering<'_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.common
    }
}

impl<'tree> KifLowering<'_, 'tree> {
    /// The named children of `node` that are not comments or error nodes (errors are reported
    /// as syntax diagnostics already).
    fn items(&mut self, node: Node<'tree>) -> Elements<'tree> {
        let mut elements = Elements::new();
        self.cursor.reset(node);
        if self.cursor.goto_first_child() {
            loop {
                let child = self.cursor.node();
                if child.is_named() && !child.is_extra() && !child.is_error() && !child.is_missing()
                {
                    elements.push(child);
                }
                if !self.cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        elements
    }

    fn is_atom(&self, node: Node<'_>) -> bool {
        let kind = node.kind_id();
        kind == self.kinds.constant || kind == self.kinds.number
    }

    /// A list's elements: (its head node, the argument nodes); the head is `None` when the first
    /// element is not a constant or number (or the list is empty) — exactly when the grammar
    /// gives the list a `head` field.
    fn split_list(&mut self, list: Node<'tree>) -> (Option<Node<'tree>>, Elements<'tree>) {
        let mut elements = self.items(list);
        if elements.first().is_some_and(|&first| self.is_atom(first)) {
            let head = elements.remove(0);
            (Some(head), elements)
        } else {
            (None, elements)
        }
    }

    fn top_level(&mut self, node: Node<'tree>) -> Option<Rule> {
        if node.kind_id() != self.kinds.rule {
            let head = self.sentence(node)?;
            return Some(Rule {
                head,
                body: Vec::new(),
                written_as_rule: false,
                complete: true,
                range: Lowerer::range(node),
            });
        }
        // A rule's named elements are its head and then its body (`<=` is anonymous).
        let elements = self.items(node);
        let Some((&head_node, body_nodes)) = elements.split_first() else {
            self.report(
                &MALFORMED_RULE,
                node,
                "this rule has no head: write `(<= head literal ...)`".to_owned(),
            );
            return None;
        };
        let head = self.sentence(head_node)?;
        let body = body_nodes
            .iter()
            .filter_map(|&literal| self.literal(literal))
            .collect();
        Some(Rule {
            head,
            body,
            written_as_rule: true,
            complete: true,
            range: Lowerer::range(node),
        })
    }

    /// A sentence: a relation constant, or a list starting with one.
    fn sentence(&mut self, node: Node<'tree>) -> Option<Sentence> {
        let kind = node.kind_id();
        if self.is_atom(node) {
            return Some(Compound {
                name: self.symbol(node),
                args: Vec::new(),
                range: Lowerer::range(node),
                empty_parentheses: false,
            });
        }
        if kind == self.kinds.list {
            let (head, arguments) = self.split_list(node);
            return self.list_sentence(node, head, &arguments);
        }
        if kind == self.kinds.variable {
            let message = format!(
                "the variable `{}` stands where a sentence must: GDL cannot quantify over relations",
                self.quote(node)
            );
            self.report(&NOT_A_SENTENCE, node, message);
        } else if kind == self.kinds.rule {
            self.misplaced_rule(node);
        }
        None
    }

    /// A sentence written as a list, from its already split elements.
    fn list_sentence(
        &mut self,
        node: Node<'tree>,
        head: Option<Node<'tree>>,
        arguments: &[Node<'tree>],
    ) -> Option<Sentence> {
        match head {
            Some(head) => self.compound(node, head, arguments),
            None => {
                let message = format!(
                    "`{}` is not a sentence: a sentence starts with a relation name",
                    self.quote(node)
                );
                self.report(&NOT_A_SENTENCE, node, message);
                None
            }
        }
    }

    fn compound(
        &mut self,
        node: Node<'tree>,
        head: Node<'tree>,
        arguments: &[Node<'tree>],
    ) -> Option<Compound> {
        let args: Option<Vec<Term>> = arguments
            .iter()
            .map(|&argument| self.term(argument))
            .collect();
        Some(Compound {
            name: self.symbol(head),
            args: args?,
            range: Lowerer::range(node),
            empty_parentheses: arguments.is_empty(),
        })
    }

    fn term(&mut self, node: Node<'tree>) -> Option<Term> {
        let kind = node.kind_id();
        if self.is_atom(node) {
            return Some(Term::Constant(self.symbol(node)));
        }
        if kind == self.kinds.variable {
            return Some(Term::Variable(self.symbol(node)));
        }
        if kind == self.kinds.list {
            return match self.split_list(node) {
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
            };
        }
        if kind == self.kinds.rule {
            self.misplaced_rule(node);
        }
        None
    }

    fn literal(&mut self, node: Node<'tree>) -> Option<Literal> {
        if node.kind_id() != self.kinds.list {
            return self.sentence(node).map(Literal::Sentence);
        }
        let (head, arguments) = self.split_list(node);
        // Connectives are recognised in any case (`NOT`, `Distinct`), as GDL symbols are
        // case-insensitive and the reference validator accepts them.
        let connective = head.map(|head| self.text_of(head)).and_then(|name| {
            ["not", "distinct", "or"]
                .into_iter()
                .find(|connective| name.eq_ignore_ascii_case(connective))
        });
        match connective {
            Some("not") => {
                let [inner_node] = arguments[..] else {
                    return self.connective_arity(
                        node,
                        "not",
                        "exactly one literal",
                        arguments.len(),
                    );
                };
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
            Some("distinct") => {
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
            Some(_) => {
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
            None => self
                .list_sentence(node, head, &arguments)
                .map(Literal::Sentence),
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

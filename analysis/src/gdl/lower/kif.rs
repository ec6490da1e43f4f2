//! Lowering of prefix KIF: `(<= head body...)` rules, lists, constants, `?variables`.
//!
//! This runs over every form of every game a batch check reads, so it walks the tree with one
//! reusable cursor and compares node kinds by id, not by name.

use super::{
    CONNECTIVE_ARITY, Lowered, Lowerer, MALFORMED_RULE, MISPLACED_RULE, NEGATED_NON_SENTENCE,
    NOT_A_SENTENCE, NOT_A_TERM,
};
use crate::TextRange;
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Sentence, Term};
use crate::syntax::kif_forms::{FormId, FormKind, Forms};

pub fn lower(forms: &Forms, text: &str) -> Lowered {
    let mut lowerer = KifLowering {
        common: Lowerer::new(text),
        forms,
    };
    let mut rules = Vec::with_capacity(forms.top_level().len());
    for &item in forms.top_level() {
        let rule = lowerer.top_level(item);
        rules.extend(lowerer.finish(rule));
    }
    Lowered {
        rules: RuleSet { rules },
        diagnostics: lowerer.common.diagnostics,
    }
}

/// The KIF-specific half of lowering; the shared state is in [`Lowerer`].
struct KifLowering<'t, 'f> {
    common: Lowerer<'t>,
    forms: &'f Forms,
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

impl<'f> KifLowering<'_, 'f> {
    fn kind(&self, node: FormId) -> FormKind {
        self.forms.get(node).kind
    }

    fn range(&self, node: FormId) -> TextRange {
        self.forms.get(node).range
    }

    fn symbol(&mut self, node: FormId) -> crate::gdl::model::Symbol {
        let range = self.range(node);
        self.common.symbol_at(range)
    }

    fn report(&mut self, rule: &crate::rules::Rule, node: FormId, message: String) {
        let range = self.range(node);
        self.common.report_at(rule, range, message);
    }

    fn quote(&self, node: FormId) -> String {
        self.common.quote_at(self.range(node))
    }

    /// A list's elements: (its head, the arguments); the head is `None` when the first element
    /// is not a constant or number (or the list is empty).
    fn split_list(&self, list: FormId) -> (Option<FormId>, &'f [FormId]) {
        let elements = self.forms.elements(list);
        match elements.split_first() {
            Some((&first, arguments)) if self.forms.is_atom(first) => (Some(first), arguments),
            _ => (None, elements),
        }
    }

    fn top_level(&mut self, node: FormId) -> Option<Rule> {
        if self.kind(node) != FormKind::Rule {
            let head = self.sentence(node, 1)?;
            return Some(Rule {
                head,
                body: Vec::new(),
                written_as_rule: false,
                complete: true,
                range: self.range(node),
            });
        }
        // A rule's named elements are its head and then its body (`<=` is anonymous).
        let elements = self.forms.elements(node);
        let Some((&head_node, body_nodes)) = elements.split_first() else {
            self.report(
                &MALFORMED_RULE,
                node,
                "this rule has no head: write `(<= head literal ...)`".to_owned(),
            );
            return None;
        };
        let head = self.sentence(head_node, 2)?;
        let body = body_nodes
            .iter()
            .filter_map(|&literal| self.literal(literal, 2))
            .collect();
        Some(Rule {
            head,
            body,
            written_as_rule: true,
            complete: true,
            range: self.range(node),
        })
    }

    /// Whether `node`, standing `depth` levels deep, is too deep to read (then reported, and
    /// left out by the caller): see [`Lowerer::too_deep`]. Only lists and rules count: a
    /// symbol holds nothing deeper.
    fn too_deep(&mut self, node: FormId, depth: usize) -> bool {
        if !matches!(self.kind(node), FormKind::List | FormKind::Rule) {
            return false;
        }
        let range = self.range(node);
        self.common.too_deep(range, depth)
    }

    /// A sentence: a relation constant, or a list starting with one.
    fn sentence(&mut self, node: FormId, depth: usize) -> Option<Sentence> {
        if self.too_deep(node, depth) {
            return None;
        }
        let kind = self.kind(node);
        if self.forms.is_atom(node) {
            return Some(Compound {
                name: self.symbol(node),
                args: Vec::new(),
                range: self.range(node),
                empty_parentheses: false,
            });
        }
        if kind == FormKind::List {
            let (head, arguments) = self.split_list(node);
            return self.list_sentence(node, head, arguments, depth);
        }
        if kind == FormKind::Variable {
            let message = format!(
                "the variable `{}` stands where a sentence must: GDL cannot quantify over relations",
                self.quote(node)
            );
            self.report(&NOT_A_SENTENCE, node, message);
        } else if kind == FormKind::Rule {
            self.misplaced_rule(node);
        }
        None
    }

    /// A sentence written as a list, from its already split elements.
    fn list_sentence(
        &mut self,
        node: FormId,
        head: Option<FormId>,
        arguments: &[FormId],
        depth: usize,
    ) -> Option<Sentence> {
        match head {
            Some(head) => self.compound(node, head, arguments, depth),
            None => {
                self.not_a_sentence(node);
                None
            }
        }
    }

    #[inline(never)]
    fn not_a_sentence(&mut self, node: FormId) {
        let message = format!(
            "`{}` is not a sentence: a sentence starts with a relation name",
            self.quote(node)
        );
        self.report(&NOT_A_SENTENCE, node, message);
    }

    /// The compound `node` at level `depth`, its arguments one level deeper. A plain loop, not
    /// an iterator chain: this recursion follows the nesting of terms, and each level should
    /// cost little stack.
    fn compound(
        &mut self,
        node: FormId,
        head: FormId,
        arguments: &[FormId],
        depth: usize,
    ) -> Option<Compound> {
        let mut args = Vec::with_capacity(arguments.len());
        for &argument in arguments {
            args.push(self.term(argument, depth + 1)?);
        }
        Some(Compound {
            name: self.symbol(head),
            args,
            range: self.range(node),
            empty_parentheses: arguments.is_empty(),
        })
    }

    fn term(&mut self, node: FormId, depth: usize) -> Option<Term> {
        if self.too_deep(node, depth) {
            return None;
        }
        let kind = self.kind(node);
        if self.forms.is_atom(node) {
            return Some(Term::Constant(self.symbol(node)));
        }
        if kind == FormKind::Variable {
            return Some(Term::Variable(self.symbol(node)));
        }
        if kind == FormKind::List {
            return match self.split_list(node) {
                (Some(head), arguments) => self
                    .compound(node, head, arguments, depth)
                    .map(Term::Function),
                (None, _) => {
                    self.not_a_term(node);
                    None
                }
            };
        }
        if kind == FormKind::Rule {
            self.misplaced_rule(node);
        }
        None
    }

    #[inline(never)]
    fn not_a_term(&mut self, node: FormId) {
        let message = format!(
            "`{}` is not a term: a function term starts with a function name",
            self.quote(node)
        );
        self.report(&NOT_A_TERM, node, message);
    }

    /// A body literal at level `depth`. The recursion along negations and disjunctions runs
    /// through this dispatch and one small function per connective, and what only a mistake
    /// needs (messages) is in functions of its own: in a debug build, where every temporary
    /// has its own stack slot, a level then costs a few hundred bytes of stack, not kilobytes.
    fn literal(&mut self, node: FormId, depth: usize) -> Option<Literal> {
        if self.too_deep(node, depth) {
            return None;
        }
        if self.kind(node) != FormKind::List {
            // A bare `distinct` is the connective without its terms, as infix reads
            // `distinct` alone: not a proposition of that name.
            if matches!(self.connective(node), Some(Connective::Distinct)) {
                return self.connective_arity(node, "distinct", "exactly two terms", 0);
            }
            return self.sentence(node, depth).map(Literal::Sentence);
        }
        let (head, arguments) = self.split_list(node);
        match head.and_then(|head| self.connective(head)) {
            Some(Connective::Not) => self.negation(node, arguments, depth),
            Some(Connective::Distinct) => self.distinct(node, arguments, depth),
            Some(Connective::Or) => self.disjunction(node, arguments, depth),
            None => self
                .list_sentence(node, head, arguments, depth)
                .map(Literal::Sentence),
        }
    }

    /// The connective `head` names. Connectives are recognised in any case (`NOT`,
    /// `Distinct`), as GDL symbols are case-insensitive and the reference validator accepts
    /// them.
    fn connective(&self, head: FormId) -> Option<Connective> {
        let name = self.text_at(self.range(head));
        [
            ("not", Connective::Not),
            ("distinct", Connective::Distinct),
            ("or", Connective::Or),
        ]
        .into_iter()
        .find(|(connective, _)| name.eq_ignore_ascii_case(connective))
        .map(|(_, connective)| connective)
    }

    /// `(not literal)` at level `depth`.
    fn negation(&mut self, node: FormId, arguments: &[FormId], depth: usize) -> Option<Literal> {
        let [inner_node] = arguments[..] else {
            return self.connective_arity(node, "not", "exactly one literal", arguments.len());
        };
        let inner = self.literal(inner_node, depth + 1)?;
        if !matches!(inner, Literal::Sentence(_)) {
            self.negated_non_sentence(node, inner_node);
        }
        Some(Literal::Not {
            inner: Box::new(inner),
            range: self.range(node),
        })
    }

    #[inline(never)]
    fn negated_non_sentence(&mut self, node: FormId, inner: FormId) {
        let message = format!(
            "GDL negates single sentences only, not `{}`; rewrite the condition over sentences",
            self.quote(inner)
        );
        self.report(&NEGATED_NON_SENTENCE, node, message);
    }

    /// `(distinct term term)` at level `depth`.
    fn distinct(&mut self, node: FormId, arguments: &[FormId], depth: usize) -> Option<Literal> {
        let [left, right] = arguments[..] else {
            return self.connective_arity(node, "distinct", "exactly two terms", arguments.len());
        };
        let left = self.term(left, depth + 1)?;
        let right = self.term(right, depth + 1)?;
        Some(Literal::Distinct {
            left,
            right,
            range: self.range(node),
        })
    }

    /// `(or literal ...)` at level `depth`.
    fn disjunction(&mut self, node: FormId, arguments: &[FormId], depth: usize) -> Option<Literal> {
        if arguments.is_empty() {
            return self.connective_arity(node, "or", "at least one literal", 0);
        }
        let mut disjuncts = Vec::with_capacity(arguments.len());
        for &argument in arguments {
            disjuncts.push(self.literal(argument, depth + 1)?);
        }
        Some(Literal::Or {
            disjuncts,
            range: self.range(node),
        })
    }

    #[inline(never)]
    fn connective_arity(
        &mut self,
        node: FormId,
        name: &str,
        wanted: &str,
        got: usize,
    ) -> Option<Literal> {
        let message = format!("`{name}` takes {wanted}, not {got}");
        self.report(&CONNECTIVE_ARITY, node, message);
        None
    }

    fn misplaced_rule(&mut self, node: FormId) {
        self.report(&MISPLACED_RULE, node,
            "a rule `(<= ...)` cannot stand inside another form; move it to the top level (or add the `)` missing before it)"
                .to_owned(),
        );
    }
}

/// The connectives a body literal may start with.
#[derive(Clone, Copy)]
enum Connective {
    Not,
    Distinct,
    Or,
}

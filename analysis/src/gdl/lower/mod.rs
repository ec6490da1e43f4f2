//! Lowering: the concrete syntax tree of either GDL syntax → the one [`RuleSet`] model.
//!
//! Structural problems that leave no rule to build (a variable where a sentence must stand, a
//! rule without a head, `not` with two arguments) are reported here; everything that can be
//! expressed in the model is lowered as written and judged by the checks.

mod infix;
mod kif;

use crate::gdl::model::{Name, Rule, RuleSet, Symbol};
use crate::rules::Rule as DiagnosticRule;
use crate::syntax::kif_forms::Forms;
use crate::{Db, Diagnostic, Severity, SourceFile, Syntax, TextRange, kif_forms_read, parse};

/// The rule model of a GDL file and the problems met while building it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lowered {
    pub rules: RuleSet,
    pub diagnostics: Vec<Diagnostic>,
}

/// The rule model of `file` (empty for files that are not GDL).
#[salsa::tracked(returns(ref))]
pub fn gdl_rules(db: &dyn Db, file: SourceFile) -> Lowered {
    let text = file.text(db);
    match file.syntax(db) {
        Syntax::GdlKif => match kif_forms_read(db, file) {
            Some(forms) => kif::lower(forms, text),
            None => kif::lower(&Forms::from_tree(parse(db, file).root()), text),
        },
        Syntax::GdlInfix => infix::lower(parse(db, file).root(), text),
        Syntax::Egg | Syntax::Ludi => Lowered::default(),
    }
}

pub const NOT_A_SENTENCE: DiagnosticRule = DiagnosticRule {
    code: "gdl/not-a-sentence",
    severity: Severity::Error,
    summary: "something other than a sentence stands where GDL needs a sentence",
    explanation: "\
Facts, rule heads and body literals must be sentences: a relation name, alone (`terminal`) or
applied to terms (`(cell 1 1 b)`, `cell(1,1,b)`). A variable, a number alone, an empty form `()`
or a form that starts with a variable or another form is not a sentence.

    (role xplayer)          ; a sentence
    (?r xplayer)            ; not a sentence: the relation name is a variable

Fix: write the relation name first. The rest of the file is still checked.",
};

pub const NOT_A_TERM: DiagnosticRule = DiagnosticRule {
    code: "gdl/not-a-term",
    severity: Severity::Error,
    summary: "something other than a term stands where GDL needs a term",
    explanation: "\
Arguments are terms: constants (`xplayer`, `1`), variables (`?x`, `X`) or function terms that
start with a function name (`(mark 1 1)`, `mark(1,1)`). An empty form `()` or a form starting
with a variable or another form is not a term.

Fix: start the form with a function name.",
};

pub const MISPLACED_RULE: DiagnosticRule = DiagnosticRule {
    code: "gdl/misplaced-rule",
    severity: Severity::Error,
    summary: "a rule `(<= ...)` written inside another form",
    explanation: "\
Rules stand at the top level of a file only; GDL has no nested rules.

Fix: move the rule out, or, if this is a missing `)` of the form before it, add the `)`.",
};

pub const MALFORMED_RULE: DiagnosticRule = DiagnosticRule {
    code: "gdl/malformed-rule",
    severity: Severity::Error,
    summary: "a rule without a head",
    explanation: "\
A rule is `(<= head literal ...)`: `<=` needs at least a head sentence. `(<=)` defines nothing.

Fix: write the head after `<=`, or delete the form.",
};

pub const CONNECTIVE_ARITY: DiagnosticRule = DiagnosticRule {
    code: "gdl/connective-arity",
    severity: Severity::Error,
    summary: "`not` or `distinct` with the wrong number of arguments, or an empty `or`",
    explanation: "\
`not` takes exactly one literal, `distinct` exactly two terms, and `or` at least one literal.

    (not (true (control ?p)))    ; right
    (distinct ?x ?y)             ; right
    (distinct ?x ?y ?z)          ; wrong: write (distinct ?x ?y) (distinct ?y ?z) (distinct ?x ?z)

Fix: give the connective its arguments.",
};

pub const CONJUNCTION_IN_DISJUNCTION: DiagnosticRule = DiagnosticRule {
    code: "gdl/conjunction-in-disjunction",
    severity: Severity::Error,
    summary: "a conjunction (`&`) inside a disjunction (`|`), which GDL's `or` cannot express",
    explanation: "\
GDL's `or` takes single literals, so `p :- a & b | c` has no GDL reading (and no KIF form).

Fix: write one rule per alternative:

    p :- a & b
    p :- c",
};

pub const NEGATED_NON_SENTENCE: DiagnosticRule = DiagnosticRule {
    code: "gdl/negated-non-sentence",
    severity: Severity::Error,
    summary: "`not` applied to something other than a sentence",
    explanation: "\
GDL's negation applies to one sentence: `(not (true (control ?p)))`. Negating a `distinct`, an
`or`, another `not` or (in infix) a parenthesised conjunction is outside the language, and the
reference validator rejects it.

    (not (distinct ?x ?y))      ; write the equality with the same variable twice instead
    (not (or a b))              ; write (not a) (not b)

Fix: rewrite the condition over sentences, or define a relation for it and negate that.",
};

pub const RULES: &[&DiagnosticRule] = &[
    &NOT_A_SENTENCE,
    &NOT_A_TERM,
    &MISPLACED_RULE,
    &MALFORMED_RULE,
    &CONNECTIVE_ARITY,
    &CONJUNCTION_IN_DISJUNCTION,
    &NEGATED_NON_SENTENCE,
];

/// State shared by both lowerings: the text and the diagnostics.
struct Lowerer<'t> {
    text: &'t str,
    diagnostics: Vec<Diagnostic>,
    /// Whether the item being lowered had a problem: its rule is then marked incomplete, so
    /// that checks do not report what is only a consequence (a rule whose malformed literals
    /// were left out would look like a rule with an empty body).
    item_had_problem: bool,
    /// The names met so far, each allocated once.
    names: rustc_hash::FxHashMap<&'t str, Name>,
}

impl<'t> Lowerer<'t> {
    fn new(text: &'t str) -> Self {
        Self {
            text,
            diagnostics: Vec::new(),
            item_had_problem: false,
            names: rustc_hash::FxHashMap::default(),
        }
    }

    fn range(node: tree_sitter::Node<'_>) -> TextRange {
        TextRange::new(node.start_byte(), node.end_byte())
    }

    fn text_at(&self, range: TextRange) -> &'t str {
        self.text
            .get(std::ops::Range::from(range))
            .unwrap_or_default()
    }

    fn text_of(&self, node: tree_sitter::Node<'_>) -> &'t str {
        self.text_at(Self::range(node))
    }

    /// The symbol written at `range`; every occurrence of a name shares one allocation.
    fn symbol_at(&mut self, range: TextRange) -> Symbol {
        let name = self.text_at(range);
        let name = self
            .names
            .entry(name)
            .or_insert_with(|| Name::from(name))
            .clone();
        Symbol { name, range }
    }

    fn symbol(&mut self, node: tree_sitter::Node<'_>) -> Symbol {
        self.symbol_at(Self::range(node))
    }

    fn report_at(&mut self, rule: &DiagnosticRule, range: TextRange, message: String) {
        self.item_had_problem = true;
        self.diagnostics.push(Diagnostic::new(rule, range, message));
    }

    fn report(&mut self, rule: &DiagnosticRule, node: tree_sitter::Node<'_>, message: String) {
        self.report_at(rule, Self::range(node), message);
    }

    /// Marks a lowered top-level rule incomplete if a part of it had a problem, and starts
    /// afresh for the next item.
    fn finish(&mut self, rule: Option<Rule>) -> Option<Rule> {
        let had_problem = std::mem::take(&mut self.item_had_problem);
        rule.map(|rule| Rule {
            complete: !had_problem,
            ..rule
        })
    }

    /// A short quotation of the text at `range` for messages.
    fn quote_at(&self, range: TextRange) -> String {
        let text: String = self
            .text_at(range)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.chars().count() > 40 {
            text.chars().take(40).collect::<String>() + "…"
        } else {
            text
        }
    }

    fn quote(&self, node: tree_sitter::Node<'_>) -> String {
        self.quote_at(Self::range(node))
    }
}

/// Named children of `node` that are not comments or error nodes (errors are reported as syntax
/// diagnostics already).
fn items(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|child| !child.is_extra() && !child.is_error() && !child.is_missing())
        .collect()
}

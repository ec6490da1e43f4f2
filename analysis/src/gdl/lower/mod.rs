//! Lowering: the concrete syntax tree of either GDL syntax → the one [`RuleSet`] model.
//!
//! Structural problems that leave no rule to build (a variable where a sentence must stand, a
//! rule without a head, `not` with two arguments) are reported here; everything that can be
//! expressed in the model is lowered as written and judged by the checks.
//!
//! Both lowerings count how deep they are (a top-level form is at level 1) and leave out, with a
//! `syntax/too-deep` diagnostic, any form deeper than [`MAX_NESTING_DEPTH`]: the model never
//! nests deeper than that, so the checks, the English, the formatter and the engines, which walk
//! it recursively, have bounded stack use whatever the file holds.

mod infix;
mod kif;

use crate::gdl::model::{Name, Rule, RuleSet, Symbol};
use crate::rules::{MAX_NESTING_DEPTH, Rule as DiagnosticRule};
use crate::syntax::kif_forms::Forms;
use crate::{Db, Diagnostic, Severity, SourceFile, Syntax, TextRange, kif_forms_read, parse};

/// The rule model of a GDL file and the problems met while building it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lowered {
    pub rules: RuleSet,
    pub diagnostics: Vec<Diagnostic>,
}

/// The rule model of `file` (empty for files that are not GDL).
///
/// A KIF file the fast reader accepts is lowered one top-level form at a time ([`lower_form`],
/// memoised per form), and the forms' rules are placed where the forms stand; any other file
/// (infix, or KIF with syntax errors) is lowered whole from its syntax tree.
#[salsa::tracked(returns(ref))]
pub fn gdl_rules(db: &dyn Db, file: SourceFile) -> Lowered {
    let text = file.text(db);
    match file.syntax(db) {
        Syntax::GdlKif => match gdl_forms(db, file) {
            Some(forms) => {
                let offsets = FormOffsets::of(db, file);
                let mut rules = Vec::with_capacity(forms.len());
                let mut diagnostics = Vec::new();
                for &form in forms {
                    let lowered = lower_form(db, form);
                    rules.extend(lowered.rules.rules.iter().map(|rule| {
                        let mut rule = rule.clone();
                        rule.shift(offsets.delta_of(form.index(db)));
                        rule
                    }));
                    diagnostics.extend(lowered.diagnostics.iter().map(|diagnostic| {
                        let mut diagnostic = diagnostic.clone();
                        diagnostic.map_ranges(|range| offsets.to_file(range));
                        diagnostic
                    }));
                }
                Lowered {
                    rules: RuleSet { rules },
                    diagnostics,
                }
            }
            None => match kif_forms_read(db, file) {
                Some(forms) => kif::lower(forms, text),
                None => kif::lower(&Forms::from_tree(parse(db, file).root()), text),
            },
        },
        Syntax::GdlInfix => infix::lower(parse(db, file).root(), text),
        Syntax::Egg | Syntax::Ludi => Lowered::default(),
    }
}

/// The one finding of a `.kif` file whose text is infix GDL (see [`INFIX_IN_KIF`]): it reads as
/// KIF without declaring a role, and as infix without a syntax error, declaring one. The KIF
/// reading is checked first, so a real KIF game never pays for the second parse.
#[salsa::tracked(returns(ref))]
pub fn infix_in_kif(db: &dyn Db, file: SourceFile) -> Option<Diagnostic> {
    let declares_roles = |lowered: &Lowered| {
        lowered.rules.rules.iter().any(|rule| {
            rule.is_fact()
                && rule.head.arity() == 1
                && rule
                    .head
                    .name
                    .name
                    .eq_ignore_ascii_case(crate::gdl::keywords::ROLE)
        })
    };
    if file.syntax(db) != Syntax::GdlKif || declares_roles(gdl_rules(db, file)) {
        return None;
    }
    let text = file.text(db);
    let infix = crate::parse_text(Syntax::GdlInfix, text, None);
    if infix.root().has_error() || !declares_roles(&infix::lower(infix.root(), text)) {
        return None;
    }
    let first_line = text.find('\n').unwrap_or(text.len());
    Some(Diagnostic::new(
        &INFIX_IN_KIF,
        TextRange::new(0, first_line),
        "this file is written in infix GDL (`role(x)`, `head :- body`), but a `.kif` file is read \
         as prefix KIF: rename it to `.hrf` (then `ludeme fmt --to kif` converts it, if KIF is \
         wanted)",
    ))
}

/// One unit of a KIF file read form by form: a top-level form, or in a large file a run of
/// [`FORMS_PER_UNIT_OF_A_LARGE_FILE`] of them; its text and its place among the file's units.
/// Interned, so that an edit inside one rule leaves every other unit the same salsa value, and
/// their lowering and per-rule checks are not done again.
#[salsa::interned(debug)]
pub struct GdlForm<'db> {
    /// The unit's position among the units of its file (0 for the first).
    #[returns(copy)]
    pub index: u32,
    #[returns(ref)]
    pub text: String,
}

/// The bits of a range in *form coordinates* that give the offset inside the form; the bits
/// above give the form's index. Forms are lowered and checked on their own, with ranges
/// `index << FORM_OFFSET_BITS | offset in the form`: such a range does not change when an edit
/// elsewhere moves the form, yet keeps the forms' order (checks sort and compare ranges), and
/// [`FormOffsets::to_file`] turns it into a range of the file.
pub const FORM_OFFSET_BITS: u32 = 32;
const _: () = assert!(
    usize::BITS >= 2 * FORM_OFFSET_BITS,
    "form coordinates need 64-bit offsets"
);

/// The largest text read one top-level form per unit. Each unit costs a few salsa queries of
/// its own, which a game of the corpus (a few hundred kilobytes at most) never notices; a
/// generated file of megabytes has hundreds of thousands of forms, and is read in runs of
/// [`FORMS_PER_UNIT_OF_A_LARGE_FILE`] forms, so that an edit still lowers and checks again a
/// few dozen forms, not the whole file.
pub const MAX_FORM_BY_FORM_BYTES: usize = 1 << 20;

/// The top-level forms in one unit of a file larger than [`MAX_FORM_BY_FORM_BYTES`].
pub const FORMS_PER_UNIT_OF_A_LARGE_FILE: usize = 64;

/// The spans of the units of a file of `text_len` bytes whose top-level forms are `forms`.
fn unit_spans(forms: &Forms, text_len: usize) -> impl Iterator<Item = TextRange> + '_ {
    let per_unit = if text_len <= MAX_FORM_BY_FORM_BYTES {
        1
    } else {
        FORMS_PER_UNIT_OF_A_LARGE_FILE
    };
    forms.top_level().chunks(per_unit).map(|unit| {
        let first = forms.get(unit[0]).range;
        let last = forms.get(unit[unit.len() - 1]).range;
        TextRange::new(first.start, last.end)
    })
}

/// The units of `file` (see [`GdlForm`]) when it is a KIF file the fast reader accepts (see
/// [`crate::kif_forms::read_kif`]); `None` for any other file. The list is equal from one text
/// to the next when only the blank space or comments between units changed.
#[salsa::tracked(returns(ref))]
pub fn gdl_forms(db: &dyn Db, file: SourceFile) -> Option<Vec<GdlForm<'_>>> {
    if file.syntax(db) != Syntax::GdlKif {
        return None;
    }
    let forms = kif_forms_read(db, file).as_ref()?;
    let text = file.text(db);
    let list = unit_spans(forms, text.len())
        .enumerate()
        .map(|(index, span)| {
            let index = u32::try_from(index).expect("fewer than 2^32 forms in a file");
            GdlForm::new(db, index, &text[std::ops::Range::from(span)])
        })
        .collect();
    Some(list)
}

/// The rules of one top-level form, in form coordinates (see [`FORM_OFFSET_BITS`]).
#[salsa::tracked(returns(ref))]
pub fn lower_form<'db>(db: &'db dyn Db, form: GdlForm<'db>) -> Lowered {
    let text = form.text(db);
    // The form was read as part of a file the reader accepted, so it reads on its own too (the
    // reader's rules only look inside a top-level form).
    let Some(forms) = crate::kif_forms::read_kif(text) else {
        debug_assert!(
            false,
            "a top-level form of a clean file reads cleanly: {text}"
        );
        return Lowered::default();
    };
    let mut lowered = kif::lower(&forms, text);
    let base = FormOffsets::base(form.index(db));
    for rule in &mut lowered.rules.rules {
        rule.shift(base);
    }
    for diagnostic in &mut lowered.diagnostics {
        diagnostic.map_ranges(|range| range.shifted(base));
    }
    lowered
}

/// Where the top-level forms of a file start: turns ranges in form coordinates into ranges of
/// the file.
pub struct FormOffsets {
    starts: Vec<usize>,
}

impl FormOffsets {
    /// The start of every top-level form of `file` (none for a file without [`gdl_forms`]).
    pub fn of(db: &dyn Db, file: SourceFile) -> Self {
        let starts = match kif_forms_read(db, file) {
            Some(forms) => unit_spans(forms, file.text(db).len())
                .map(|span| span.start)
                .collect(),
            None => Vec::new(),
        };
        Self { starts }
    }

    /// Where the form with `index` starts in form coordinates.
    fn base(index: u32) -> usize {
        (index as usize) << FORM_OFFSET_BITS
    }

    /// What moves a range of the form with `index` from form coordinates to the file's.
    fn delta_of(&self, index: u32) -> usize {
        let start = self.starts.get(index as usize).copied().unwrap_or_default();
        start.wrapping_sub(Self::base(index))
    }

    /// `range`, given in form coordinates, as a range of the file. A range outside any form
    /// (an empty file's) is kept as it is.
    pub fn to_file(&self, range: TextRange) -> TextRange {
        let index = range.start >> FORM_OFFSET_BITS;
        match u32::try_from(index) {
            Ok(index) if (index as usize) < self.starts.len() => {
                range.shifted(self.delta_of(index))
            }
            _ => range,
        }
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

pub const INFIX_IN_KIF: DiagnosticRule = DiagnosticRule {
    code: "gdl/infix-in-kif",
    severity: Severity::Error,
    summary: "a `.kif` file holds infix (Gamemaster) GDL",
    explanation: "\
A `.kif` file is read as prefix KIF, `(role white)`. Text in the infix form of the Gamemaster
(`role(white)`, `legal(W, mark(X, Y)) :- ...`) read as KIF is a list of odd constants and lists:
hundreds of findings, none of them the real problem. When the whole file reads cleanly as infix
and declares its roles there, this one finding replaces them.

    role(xplayer)           ; in `game.kif`: infix text under a KIF name

Fix: rename the file to `.hrf` (the editor offers it); `ludeme fmt --to kif` then converts it
if KIF is wanted.",
};

pub const RULES: &[&DiagnosticRule] = &[
    &INFIX_IN_KIF,
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

    /// Whether the form at `range`, standing `depth` levels deep (a top-level form is at level
    /// 1), is deeper than [`MAX_NESTING_DEPTH`]. If so it is reported, and the caller leaves it
    /// out, so that the model, and every pass that walks it, stays within the limit. The
    /// diagnostic covers the form's first character (its `(` or the first letter of its name),
    /// not the whole form, which may run to the end of the file.
    fn too_deep(&mut self, range: TextRange, depth: usize) -> bool {
        if depth <= MAX_NESTING_DEPTH {
            return false;
        }
        let first = self.text_at(range).chars().next().map_or(0, char::len_utf8);
        self.item_had_problem = true;
        self.diagnostics.push(crate::rules::too_deep(TextRange::new(
            range.start,
            range.start + first,
        )));
        true
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

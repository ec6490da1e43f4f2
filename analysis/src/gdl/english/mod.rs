//! GDL rules in plain English, for a designer checking that the rules say what they meant.
//!
//! [`gdl_explanation`] renders a whole game as [`Section`]s in the order a player reads them:
//! the players, the initial state, the legal moves, how the state changes, what the players see
//! (GDL-II), when the game ends, the scores, then the helper relations (in the order the rules
//! above first need them), the `base`/`input` declarations, and the static facts, grouped by
//! relation. Every [`Item`] carries the ranges of the rules it comes from. [`explain_rule`]
//! renders one rule as one sentence, for hovers.
//!
//! # How GDL reads
//!
//! - Names are shown exactly as written (never capitalised, never split), so that every word of
//!   the English can be found in the source. Numbers stay numbers.
//! - Variables read as capitals: `?m` → `M`, `?player` → `Player`; infix variables as written.
//! - A function term or sentence reads `name (argument, ...)`: `(mark ?m ?n)` → `mark (M, N)`;
//!   a name without arguments reads as itself (`noop`, `open`).
//! - Fluents (the arguments of `true`, `init`, `next`, `base`) read in one of two forms, decided
//!   per relation from the initial state (see [`Vocabulary::new`]):
//!   the value form, when the last argument is the fluent's value — `(cell 1 1 b)` →
//!   "cell (1, 1) is b", `(control xplayer)` → "control is xplayer"; and the holds form
//!   otherwise — `(moved wk e 1)` → "moved (wk, e, 1) holds".
//! - Other relations read "r (a, b) holds" / "r (a, b) does not hold"; `(does R A)` reads
//!   "R does A" / "R does not A"; `(role P)` "P is a player"; `(distinct A B)` "A is not B";
//!   `(or (distinct a c) (distinct b d))` "(A, B) is not (C, D)"; other `or`s "either X or Y".
//! - Heads: `legal` → "R may A when …"; `next` → "F becomes V when …" in the value form,
//!   "F becomes true when …" in the holds form, or "F stays V when …" for a frame rule (one whose
//!   body tests the very fluent it carries over; that test is then left out); `terminal` → "The
//!   game ends when …"; `goal` → "R scores N when …"; `sees` → "R sees P when …"; `init` →
//!   "Initially, …"; `base` → "F can be V" / "F can hold"; `input` → "A is a possible move of
//!   R"; any other relation "r (A) holds when …". Facts read without "when": "R may always A".
//! - Conditions are joined with commas and "and"; like conditions are grouped (conjunction is
//!   order-free in GDL): "index (M) and index (N) hold", "cell (M, 1), cell (M, 2) and
//!   cell (M, 3) are all F", "cell (X, Y) is neither red nor black", "neither line (x) nor
//!   line (o) holds". An Oxford comma sets off a last item that has an "and" of its own.
//! - Rules with the same conclusion whose conditions are not lists share one sentence: "The
//!   game ends when line (x) holds, when line (o) holds, or when open does not hold."
//! - Ground facts are grouped: `init` facts that differ in arguments only become products of
//!   ranges, "each cell (1..3, 1..3) is b" (ranges of integers, letters and numbered names like
//!   `c1..c8`); a row of different values reads "cell (a, 1) to cell (h, 1) are wr, wn, …";
//!   static facts become one list per relation, "index: 1, 2, 3", or a chain for a successor
//!   relation, "succ: 1 → 2 → 3"; long lists are cut after 64 items.
//! - Sections: the players, the initial state, the legal moves, the next state, the end and the
//!   scores are always there (an empty one says what is missing); the others appear when the
//!   game has rules for them. Rules of one `next` fluent are listed together.
//! - Sentences end with a period; those starting with an English word start with a capital.

mod facts;
mod idioms;
mod literals;
mod rules;
mod sections;
mod terms;
mod vocabulary;

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::gdl::lower::gdl_rules;
use crate::gdl::model::{Rule, RuleSet};
use crate::wrap::wrap_into;
use crate::{Db, SourceFile, TextRange};

pub use vocabulary::{FluentForm, Vocabulary};

/// A game in English: its sections, in reading order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct GameExplanation {
    pub sections: Vec<Section>,
}

/// One part of the explanation: the players, the legal moves, ...
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Section {
    pub kind: SectionKind,
    /// The heading: "Legal moves".
    pub title: String,
    /// A remark on the whole section; for a section the game leaves empty, what is missing.
    pub note: Option<String>,
    pub items: Vec<Item>,
}

/// One sentence and the rules it renders.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Item {
    pub text: String,
    /// The ranges of the rules (facts included) the sentence comes from, in source order.
    pub ranges: Vec<TextRange>,
}

/// The sections, in the order they are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SectionKind {
    /// `role` facts.
    Roles,
    /// `init` facts and rules.
    InitialState,
    /// `legal` rules.
    Legal,
    /// `next` rules.
    Next,
    /// `sees` rules (GDL-II).
    Sees,
    /// `terminal` rules.
    Terminal,
    /// `goal` rules.
    Goal,
    /// Rules of the game's own relations.
    Definitions,
    /// `base` and `input`.
    Signature,
    /// Facts of the game's own relations.
    Facts,
}

impl SectionKind {
    pub fn title(self) -> &'static str {
        match self {
            SectionKind::Roles => "Players",
            SectionKind::InitialState => "Initial state",
            SectionKind::Legal => "Legal moves",
            SectionKind::Next => "How the state changes",
            SectionKind::Sees => "What the players see",
            SectionKind::Terminal => "End of the game",
            SectionKind::Goal => "Scores",
            SectionKind::Definitions => "Definitions",
            SectionKind::Signature => "Possible fluents and moves",
            SectionKind::Facts => "Static facts",
        }
    }

    /// The sections every explanation has, empty or not (the others appear when the game has
    /// rules for them).
    pub const ALWAYS_SHOWN: [SectionKind; 6] = [
        SectionKind::Roles,
        SectionKind::InitialState,
        SectionKind::Legal,
        SectionKind::Next,
        SectionKind::Terminal,
        SectionKind::Goal,
    ];
}

/// The English explanation of a GDL file (empty for other languages).
#[salsa::tracked(returns(ref))]
pub fn gdl_explanation(db: &dyn Db, file: SourceFile) -> GameExplanation {
    match file.syntax(db) {
        crate::Syntax::GdlKif | crate::Syntax::GdlInfix => {
            explain_rules(&gdl_rules(db, file).rules)
        }
        crate::Syntax::Egg | crate::Syntax::Ludi => GameExplanation::default(),
    }
}

/// The rulebook of a GDL file ([`idioms`]): the game's board, turns, lines and goals said at
/// the level of the game, the rest rule by rule. The title is the file's name.
#[salsa::tracked(returns(ref))]
pub fn gdl_rulebook(db: &dyn Db, file: SourceFile) -> crate::rulebook::Rulebook {
    let title = file
        .path(db)
        .file_stem()
        .map_or_else(String::new, |stem| stem.to_string_lossy().into_owned());
    match file.syntax(db) {
        crate::Syntax::GdlKif | crate::Syntax::GdlInfix => {
            let lowered = gdl_rules(db, file);
            let rules = &lowered.rules;
            // What could not be read is named in the rulebook, never silently left out.
            let unreadable: Vec<TextRange> = crate::syntax::syntax_diagnostics(db, file)
                .iter()
                .chain(&lowered.diagnostics)
                .filter(|diagnostic| diagnostic.severity == crate::Severity::Error)
                .map(|diagnostic| diagnostic.range)
                .collect();
            idioms::rulebook(
                &title,
                file.text(db),
                rules,
                &Vocabulary::new(rules),
                gdl_explanation(db, file),
                &unreadable,
            )
        }
        crate::Syntax::Egg | crate::Syntax::Ludi => crate::rulebook::Rulebook::new(title),
    }
}

/// The explanation of a rule set (what [`gdl_explanation`] computes for a file).
pub fn explain_rules(rules: &RuleSet) -> GameExplanation {
    sections::explain(rules, &Vocabulary::new(rules))
}

/// One rule as one English sentence, as a hover shows it: "xplayer may mark (M, N) when
/// cell (M, N) is b and control is xplayer." Build the [`Vocabulary`] once per file.
pub fn explain_rule(rule: &Rule, vocabulary: &Vocabulary) -> String {
    rules::read(rule, vocabulary).sentence()
}

/// The rule of a GDL file at `offset` (a byte offset into its text), with its range and its
/// sentence; `None` outside every rule.
pub fn explain_rule_at(
    db: &dyn Db,
    file: SourceFile,
    offset: usize,
) -> Option<(TextRange, String)> {
    let rules = &gdl_rules(db, file).rules;
    let rule = rules
        .rules
        .iter()
        .find(|rule| rule.range.contains(offset))?;
    Some((rule.range, explain_rule(rule, &Vocabulary::new(rules))))
}

impl GameExplanation {
    pub fn section(&self, kind: SectionKind) -> Option<&Section> {
        self.sections.iter().find(|section| section.kind == kind)
    }

    /// Plain text: each section's title, its note, then its items as `- ` bullets, wrapped at
    /// `width` columns.
    pub fn to_plain_text(&self, width: usize) -> String {
        let mut out = String::new();
        for (index, section) in self.sections.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&section.title);
            out.push('\n');
            if let Some(note) = &section.note {
                wrap_into(&mut out, note, "  ", "  ", width);
            }
            for item in &section.items {
                wrap_into(&mut out, &item.text, "  - ", "    ", width);
            }
        }
        out
    }
}

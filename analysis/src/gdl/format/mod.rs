//! `ludeme fmt`: the canonical text of a GDL file, in prefix KIF or infix, with every comment kept.
//!
//! The text is printed from the rule model ([`gdl_rules`]), not from the syntax tree, so the same
//! printer formats a file and converts it to the other syntax. Comments and blank lines, which the
//! model does not hold, are read off the syntax tree and attached to the items around them
//! (`comments.rs` says where each one goes).
//!
//! Guarantees:
//! - a file with syntax errors or lowering errors is not formatted ([`FormatError`] says how
//!   many): its text does not all reach the model, and formatting must never lose text;
//! - the result is checked before it is returned: parsed and lowered again, it must give the same
//!   rules (with the names spelled as the conversion spells them) and the same number of
//!   comments, or formatting fails with [`FormatError::Unstable`] (a bug, never a silent loss);
//! - formatting is idempotent: formatting the result gives it back unchanged;
//! - a conversion that cannot spell a name in the target syntax fails and lists the names
//!   (`names.rs` gives the spelling rules: `?x` ↔ `X`, capitalised KIF constants lower-cased).
//!
//! Layout: the top-level items in source order, one per line group, blank lines kept where the
//! source had them (a run of blank lines becomes one), comments at column 0 between items or at
//! the end of the line they trailed. Facts stand on one line. In KIF every rule puts its body
//! literals on lines of their own, as the GGP repository's games do; in infix a rule stays on one
//! line when it fits in [`WIDTH`] columns, as the Gamemaster's games do (`kif.rs` and `infix.rs`
//! give the details). Lines end with `\n` (Windows line ends become `\n`), and the text ends
//! with one.

mod comments;
mod infix;
mod kif;
mod names;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

pub use names::Unconvertible;

use self::comments::{Comment, EntryKind, Layout};
use self::names::NameMap;
use crate::gdl::gdl_rules;
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Symbol, Term};
use crate::{Db, RootDatabase, Severity, SourceFile, Syntax, TextRange, parse, syntax_diagnostics};

/// The widest line: an infix rule longer than this puts its body literals on lines of their own,
/// and a disjunction (in either syntax) its disjuncts.
pub const WIDTH: usize = 80;

/// Why a file was not formatted.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FormatError {
    /// The file, or the syntax asked for, is not Stanford GDL.
    NotGdl,
    /// The file has this many syntax errors.
    SyntaxErrors(usize),
    /// The file parses but this many parts of it are not GDL rules (`gdl/not-a-sentence`,
    /// `gdl/negated-non-sentence`, ...).
    LoweringErrors(usize),
    /// The conversion cannot spell these names in the target syntax.
    Unconvertible(Vec<Unconvertible>),
    /// The formatted text does not read back as the same rules: a bug in the formatter. The file
    /// is left as it is.
    Unstable(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |count: usize| if count == 1 { "" } else { "s" };
        match self {
            FormatError::NotGdl => write!(
                f,
                "only Stanford GDL files (.kif, .gdl, .hrf) can be formatted"
            ),
            FormatError::SyntaxErrors(count) => write!(
                f,
                "not formatted: the file has {count} syntax error{}; fix it first (`ludeme check` shows where)",
                plural(*count)
            ),
            FormatError::LoweringErrors(count) => write!(
                f,
                "not formatted: {count} part{} of the file {} not GDL rules; fix {} first (`ludeme check` shows where)",
                plural(*count),
                if *count == 1 { "is" } else { "are" },
                if *count == 1 { "it" } else { "them" },
            ),
            FormatError::Unconvertible(problems) => {
                let names: Vec<String> = problems.iter().map(|p| format!("`{}`", p.name)).collect();
                write!(
                    f,
                    "cannot convert: the target syntax cannot spell {}",
                    names.join(", ")
                )
            }
            FormatError::Unstable(what) => write!(
                f,
                "not formatted: the formatted text would not read back as the same rules ({what}); this is a bug in ludeme, please report it"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

fn is_gdl(syntax: Syntax) -> bool {
    matches!(syntax, Syntax::GdlKif | Syntax::GdlInfix)
}

/// The canonical text of `file` in the `target` syntax (its own syntax to format it, the other
/// one to convert it), checked: it reads back as the same rules with the same comments.
///
/// Call this outside salsa queries: the check parses the result in a database of its own.
pub fn format_gdl(db: &dyn Db, file: SourceFile, target: Syntax) -> Result<String, FormatError> {
    let formatted = gdl_formatted(db, file, target);
    let (output, comment_count) = formatted.as_ref().map_err(Clone::clone)?;
    let source = file.syntax(db);
    verify(
        &gdl_rules(db, file).rules,
        *comment_count,
        output,
        target,
        NameMap::new(source, target),
    )?;
    Ok(output.clone())
}

/// The query behind [`format_gdl`]: the canonical text of `file` in `target`, not yet checked,
/// and the number of comments in the file.
#[salsa::tracked(returns(ref))]
pub fn gdl_formatted(
    db: &dyn Db,
    file: SourceFile,
    target: Syntax,
) -> Result<(String, usize), FormatError> {
    let source = file.syntax(db);
    if !is_gdl(source) || !is_gdl(target) {
        return Err(FormatError::NotGdl);
    }
    let comments = comments_of(db, file)?;
    let lowered = gdl_rules(db, file);
    if !lowered.diagnostics.is_empty() {
        return Err(FormatError::LoweringErrors(lowered.diagnostics.len()));
    }
    let names = NameMap::new(source, target);
    names
        .check(&lowered.rules)
        .map_err(FormatError::Unconvertible)?;
    let text = file.text(db);
    let comment_count = comments.len();
    let layout = comments::layout(&lowered.rules, comments, text);
    Ok((print(&layout, target, names), comment_count))
}

/// Every comment of `file`, in source order, or the count of its syntax errors. A KIF file the
/// fast reader accepts has its comments read off the text (there a `;` always starts one), so
/// that formatting a large clean file builds no syntax tree: tree-sitter's tree of a 20 MB file
/// alone takes more than a gigabyte.
fn comments_of(db: &dyn Db, file: SourceFile) -> Result<Vec<Comment>, FormatError> {
    let text = file.text(db);
    if crate::syntax::kif_forms_read(db, file).is_some() {
        return Ok(comments::collect_from_clean_kif(text));
    }
    let tree = parse(db, file);
    let syntax_errors = syntax_diagnostics(db, file)
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    if syntax_errors > 0 || tree.root().has_error() {
        return Err(FormatError::SyntaxErrors(syntax_errors.max(1)));
    }
    Ok(comments::collect(tree.root(), text))
}

/// [`format_gdl`] for a text outside any database (tools and tests).
pub fn format_gdl_text(text: &str, source: Syntax, target: Syntax) -> Result<String, FormatError> {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, PathBuf::new(), source, Arc::from(text), None);
    format_gdl(&db, file, target)
}

fn print(layout: &Layout<'_>, target: Syntax, names: NameMap) -> String {
    let kif = kif::Kif { names };
    let infix = infix::Infix { names };
    let marker = match target {
        Syntax::GdlInfix => infix::MARKER,
        _ => kif::MARKER,
    };
    let mut output = String::new();
    for (index, entry) in layout.entries.iter().enumerate() {
        if entry.blank_before && index > 0 {
            output.push('\n');
        }
        let lines = match &entry.kind {
            EntryKind::Comment(comment) => vec![comment.render(marker)],
            EntryKind::Rule(rule, comments) => match target {
                Syntax::GdlInfix => infix.rule(rule, comments),
                _ => kif.rule(rule, comments),
            },
        };
        for line in lines {
            output.push_str(&line);
            output.push('\n');
        }
    }
    output
}

/// Puts `comment` at the end of the last line, or on a line of its own after it when that line
/// already ends with a comment.
fn trail_or_follow(
    lines: &mut Vec<String>,
    comment: Option<&Comment>,
    last_commented: bool,
    marker: char,
) {
    let Some(comment) = comment else { return };
    match lines.last_mut() {
        Some(line) if !last_commented => {
            line.push(' ');
            line.push_str(&comment.render(marker));
        }
        _ => lines.push(comment.render(marker)),
    }
}

/// Display width, in characters.
fn width(text: &str) -> usize {
    text.chars().count()
}

/// Parses and lowers `output` again and compares it with the source's rules.
fn verify(
    source: &RuleSet,
    comment_count: usize,
    output: &str,
    target: Syntax,
    names: NameMap,
) -> Result<(), FormatError> {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, PathBuf::new(), target, Arc::from(output), None);
    let Ok(comments_after) = comments_of(&db, file) else {
        return Err(FormatError::Unstable("it has syntax errors".to_owned()));
    };
    let lowered = gdl_rules(&db, file);
    if !lowered.diagnostics.is_empty() {
        return Err(FormatError::Unstable(format!(
            "it has {} lowering errors",
            lowered.diagnostics.len()
        )));
    }
    let converting = names != NameMap::Identity;
    let (expected, actual) = (&source.rules, &lowered.rules.rules);
    if expected.len() != actual.len() {
        return Err(FormatError::Unstable(format!(
            "{} rules instead of {}",
            actual.len(),
            expected.len()
        )));
    }
    // Rule by rule, so that a large file is not held twice more in normalised copies.
    let differs = |index: usize| {
        normalise_rule(&expected[index], Some(names), converting)
            != normalise_rule(&actual[index], None, converting)
    };
    if let Some(index) = (0..expected.len()).find(|&index| differs(index)) {
        return Err(FormatError::Unstable(format!("rule {} differs", index + 1)));
    }
    let comments_after = comments_after.len();
    if comments_after != comment_count {
        return Err(FormatError::Unstable(format!(
            "{comments_after} comments instead of {comment_count}"
        )));
    }
    Ok(())
}

/// `rule` without ranges, its names spelled by `names` when given; when `converting`, in the
/// form both syntaxes share (a body-less rule is a fact, a one-disjunct `or` its disjunct).
fn normalise_rule(rule: &Rule, names: Option<NameMap>, converting: bool) -> Rule {
    let no_range = TextRange::empty(0);
    let symbol = |symbol: &Symbol, variable: bool| Symbol {
        name: match names {
            Some(names) if variable => names.variable(&symbol.name).into(),
            Some(names) => names.constant(&symbol.name).into(),
            None => symbol.name.clone(),
        },
        range: no_range,
    };
    fn compound(c: &Compound, symbol: &dyn Fn(&Symbol, bool) -> Symbol) -> Compound {
        Compound {
            name: symbol(&c.name, false),
            args: c.args.iter().map(|t| term(t, symbol)).collect(),
            range: TextRange::empty(0),
            empty_parentheses: c.empty_parentheses,
        }
    }
    fn term(t: &Term, symbol: &dyn Fn(&Symbol, bool) -> Symbol) -> Term {
        match t {
            Term::Constant(s) => Term::Constant(symbol(s, false)),
            Term::Variable(s) => Term::Variable(symbol(s, true)),
            Term::Function(c) => Term::Function(compound(c, symbol)),
        }
    }
    fn literal(l: &Literal, symbol: &dyn Fn(&Symbol, bool) -> Symbol, converting: bool) -> Literal {
        let range = TextRange::empty(0);
        match l {
            Literal::Sentence(s) => Literal::Sentence(compound(s, symbol)),
            Literal::Not { inner, .. } => Literal::Not {
                inner: Box::new(literal(inner, symbol, converting)),
                range,
            },
            Literal::Distinct { left, right, .. } => Literal::Distinct {
                left: term(left, symbol),
                right: term(right, symbol),
                range,
            },
            Literal::Or { disjuncts, .. } if converting && disjuncts.len() == 1 => {
                literal(&disjuncts[0], symbol, converting)
            }
            Literal::Or { disjuncts, .. } => {
                // A loop, not an iterator chain: this recursion follows the nesting.
                let mut normalised = Vec::with_capacity(disjuncts.len());
                for disjunct in disjuncts {
                    normalised.push(literal(disjunct, symbol, converting));
                }
                Literal::Or {
                    disjuncts: normalised,
                    range,
                }
            }
        }
    }
    Rule {
        head: compound(&rule.head, &symbol),
        body: rule
            .body
            .iter()
            .map(|l| literal(l, &symbol, converting))
            .collect(),
        written_as_rule: if converting {
            !rule.body.is_empty()
        } else {
            rule.written_as_rule
        },
        complete: rule.complete,
        range: no_range,
    }
}

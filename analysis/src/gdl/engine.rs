//! From the lowered rule model to the engine's input form: the analysis layer owns parsing and
//! static checks, the engine only runs games (DESIGN.md: text → parse → lower → analyses →
//! engines).

use ludeme_engine::gdl::{
    Atom, Budget, GdlError, Interpreter, Literal, Program, ProgramBuilder, Reasoner, Rule, Term,
};

use super::model::{self, RuleSet};
use crate::{Db, Severity, SourceFile};

/// The engine program of a rule set. Names are kept as written; KIF variables keep their `?`
/// and infix variables their capital, which is what tells them apart in the model already.
pub fn program_of(rules: &RuleSet) -> Result<Program, GdlError> {
    let mut builder = ProgramBuilder::new();
    for rule in &rules.rules {
        let head = atom(&mut builder, &rule.head);
        let body = rule
            .body
            .iter()
            .map(|literal| convert_literal(&mut builder, literal))
            .collect();
        builder.add_rule(Rule { head, body });
    }
    builder.build()
}

/// Why a file cannot be run, or its interpreter: files with static errors are refused (their
/// rules may be missing parts the lowering left out).
pub fn interpreter_for(
    db: &dyn Db,
    file: SourceFile,
    budget: Budget,
) -> Result<Interpreter, GdlError> {
    Interpreter::new(program_for(db, file)?, budget)
}

/// The file's fastest reasoner: grounded when the game grounds, else the interpreter (see
/// [`Reasoner::new`]); refused like [`interpreter_for`].
pub fn reasoner_for(db: &dyn Db, file: SourceFile, budget: Budget) -> Result<Reasoner, GdlError> {
    Reasoner::new(program_for(db, file)?, budget)
}

/// The engine program of a file, refused as [`crate::engine_gate::engine_gate`] says: static
/// errors under the project's rule selection, or forms the lowering left out.
pub fn program_for(db: &dyn Db, file: SourceFile) -> Result<Program, GdlError> {
    crate::engine_gate::engine_gate(db, file, Severity::Error)
        .map_err(|refusal| GdlError::Build(refusal.to_string()))?;
    program_of(&super::gdl_rules(db, file).rules)
}

/// A sentence of the rules. Its relation is keyed as the checks key it: a keyword in any case
/// is the keyword (`(ROLE a)` declares a role, as it does for the checks and the English).
fn atom(builder: &mut ProgramBuilder, sentence: &model::Sentence) -> Atom {
    Atom {
        relation: builder.symbol(super::keywords::relation_key(&sentence.name.name)),
        args: sentence.args.iter().map(|arg| term(builder, arg)).collect(),
    }
}

/// Converts a term. Recursion follows the nesting of the written term, which the lowering
/// produced by recursion of the same depth.
fn term(builder: &mut ProgramBuilder, term_: &model::Term) -> Term {
    match term_ {
        model::Term::Constant(symbol) => Term::Const(builder.symbol(&symbol.name)),
        model::Term::Variable(symbol) => Term::Var(builder.symbol(&symbol.name)),
        model::Term::Function(compound) => Term::Func(
            builder.symbol(&compound.name.name),
            compound.args.iter().map(|arg| term(builder, arg)).collect(),
        ),
    }
}

fn convert_literal(builder: &mut ProgramBuilder, literal: &model::Literal) -> Literal {
    match literal {
        model::Literal::Sentence(sentence) => Literal::Atom(atom(builder, sentence)),
        model::Literal::Not { inner, .. } => {
            Literal::Not(Box::new(convert_literal(builder, inner)))
        }
        model::Literal::Distinct { left, right, .. } => {
            Literal::Distinct(term(builder, left), term(builder, right))
        }
        model::Literal::Or { disjuncts, .. } => Literal::Or(
            disjuncts
                .iter()
                .map(|d| convert_literal(builder, d))
                .collect(),
        ),
    }
}

//! The engines the simulation plays with. Everything else in the simulation reads them through
//! the two functions here, so that the plain interpreter can be swapped for a faster reasoner
//! once that one answers the same GDL-level questions (every goal value of a role, the state's
//! fluents).

use std::collections::HashSet;
use std::sync::Arc;

use ludeme_engine::Game;
use ludeme_engine::gdl::{Budget, GdlError, Interpreter};

use crate::gdl::engine::{interpreter_for, program_of};
use crate::gdl::keywords::{BASE, INIT, INPUT};
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Symbol, Term};
use crate::{Db, SourceFile, TextRange};

/// The engine that plays the game.
pub type SimulationEngine = Interpreter;

/// Builds the engine for `file` (refused when the file has static errors).
pub fn simulation_engine(
    db: &dyn Db,
    file: SourceFile,
    budget: Budget,
) -> Result<SimulationEngine, GdlError> {
    interpreter_for(db, file, budget)
}

/// What the game declares with `base` and `input`, rendered in KIF form; `None` for a
/// declaration the game does not make at all (both are optional in GDL).
#[derive(Debug, Default)]
pub struct Declarations {
    pub base: Option<HashSet<String>>,
    /// (role, action) pairs.
    pub input: Option<HashSet<(String, String)>>,
}

/// Names no GDL text can spell (they hold spaces), for the wrappers below.
const DECLARED_BASE: &str = "declared base";
const DECLARED_INPUT: &str = "declared input";

/// Evaluates the game's `base` and `input` declarations.
///
/// The engine answers only the game manager's questions (`init`, `legal`, `goal`, ...), so the
/// declarations are asked for as an initial state: a copy of the rules gets two more `init`
/// rules, `(<= (init (DECLARED_BASE ?x)) (base ?x))` and the same for `input`, and the initial
/// state of that copy holds every declared fact, wrapped. The game's own `init` facts come
/// along unwrapped and are left out.
pub fn declarations(rules: &RuleSet, budget: Budget) -> Result<Declarations, GdlError> {
    let declares = |keyword: &str| {
        rules
            .rules
            .iter()
            .any(|rule| rule.head.name.name.eq_ignore_ascii_case(keyword))
    };
    let (declares_base, declares_input) = (declares(BASE), declares(INPUT));
    if !declares_base && !declares_input {
        return Ok(Declarations::default());
    }
    let mut copy = rules.clone();
    copy.rules
        .push(wrapping_rule(DECLARED_BASE, BASE, &["?declared"]));
    copy.rules.push(wrapping_rule(
        DECLARED_INPUT,
        INPUT,
        &["?declared-role", "?declared-action"],
    ));
    let engine = Interpreter::new(program_of(&copy)?, budget)?;
    let symbols = &engine.program().symbols;
    let mut declared = Declarations {
        base: declares_base.then(HashSet::new),
        input: declares_input.then(HashSet::new),
    };
    for fact in engine.initial_state() {
        let (name, args) = fact.parts();
        match (symbols.name(name), args) {
            (DECLARED_BASE, [fluent]) => {
                if let Some(base) = &mut declared.base {
                    base.insert(engine.render(fluent));
                }
            }
            (DECLARED_INPUT, [role, action]) => {
                if let Some(input) = &mut declared.input {
                    input.insert((engine.render(role), engine.render(action)));
                }
            }
            _ => {}
        }
    }
    Ok(declared)
}

/// `(<= (init (wrapper ?a ...)) (keyword ?a ...))`, with no position in the file.
fn wrapping_rule(wrapper: &str, keyword: &str, variables: &[&str]) -> Rule {
    let nowhere = TextRange::empty(0);
    let symbol = |name: &str| Symbol {
        name: Arc::from(name),
        range: nowhere,
    };
    let compound = |name: &str, args: Vec<Term>| Compound {
        name: symbol(name),
        args,
        range: nowhere,
        empty_parentheses: false,
    };
    let variables: Vec<Term> = variables
        .iter()
        .map(|name| Term::Variable(symbol(name)))
        .collect();
    Rule {
        head: compound(
            INIT,
            vec![Term::Function(compound(wrapper, variables.clone()))],
        ),
        body: vec![Literal::Sentence(compound(keyword, variables))],
        written_as_rule: true,
        complete: true,
        range: nowhere,
    }
}

//! The engine the simulation plays with: the GDL [`Reasoner`], which grounds the game into a
//! circuit when it can and falls back to the plain interpreter (keeping the reason) when it
//! cannot, so that big games get played far enough to find something. Everything else in the
//! simulation reads the engine through the [`Game`] trait and the reasoner's rendering of terms.

use ludeme_engine::cpu_time::CpuInstant;
use std::collections::HashSet;
use std::sync::Arc;

use ludeme_engine::Game;
use ludeme_engine::gdl::grounded::GroundingLimits;
use ludeme_engine::gdl::{Budget, Engine, GdlError, Interpreter, Reasoner};

use super::SimulationOptions;
use crate::gdl::engine::{program_for, program_of};
use crate::gdl::keywords::{BASE, INIT, INPUT};
use crate::gdl::model::{Compound, Literal, Rule, RuleSet, Symbol, Term};
use crate::{Db, SourceFile, TextRange};

/// The engine that plays the game.
pub type SimulationEngine = Reasoner;

/// The part of the simulation's time that grounding may take. Grounding is what makes big games
/// playable, so it gets most of the time; the rest is left to the interpreter when a game does
/// not ground in time, so that it still checks the states it reaches.
const GROUNDING_SHARE: f64 = 0.75;

/// Builds the engine for `file` (refused when the file has static errors): grounded when the
/// game grounds within [`grounding_limits`], the interpreter under `budget` otherwise.
pub fn simulation_engine(
    db: &dyn Db,
    file: SourceFile,
    budget: Budget,
    started: CpuInstant,
    options: &SimulationOptions,
) -> Result<SimulationEngine, GdlError> {
    let program = program_for(db, file)?;
    Reasoner::with_limits(program, budget, &grounding_limits(started, options))
}

/// The default grounding limits, with the simulation's budgets of time and work: grounding may
/// take its share of the time from `started`, and join steps in the proportion the engine's
/// defaults set between grounding (which prepares every question at once) and one question of
/// the interpreter, so that `--simulate-steps` bounds both.
fn grounding_limits(started: CpuInstant, options: &SimulationOptions) -> GroundingLimits {
    let defaults = GroundingLimits::default();
    let steps_per_question = Budget::default().max_steps.max(1);
    let grounding_steps_per_question = (defaults.max_steps / steps_per_question).max(1);
    GroundingLimits {
        deadline: Some(started.deadline(super::duration_of(options.seconds * GROUNDING_SHARE))),
        max_steps: options
            .max_steps
            .saturating_mul(grounding_steps_per_question),
        ..defaults
    }
}

/// Which engine plays, for people: "the grounded reasoner", or "the interpreter" and why the
/// game did not ground.
pub fn engine_description(engine: &SimulationEngine) -> String {
    match (engine.engine(), engine.fallback_reason()) {
        (Engine::Grounded(game), _) => match game.interpreted_goals_reason() {
            None => "the grounded reasoner".to_owned(),
            Some(reason) => format!(
                "the grounded reasoner, with goal values from the interpreter (the goal alone did not ground: {reason})"
            ),
        },
        (Engine::Interpreted(_), None) => "the interpreter".to_owned(),
        (Engine::Interpreted(_), Some(reason)) => {
            format!("the interpreter (the game did not ground: {reason})")
        }
    }
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

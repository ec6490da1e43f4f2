//! The static checks of GDL, one small module per rule, each reading a [`Context`] (the rules,
//! the relation table and the dependency graph): the checks that look at one rule at a time are
//! run per top-level form, the others once over the file's rule set.

mod context;

// Checks of the rules' logic: required relations, safety, stratification, recursion, and how
// the keyword relations may depend on each other.
// (lead's section)
mod missing_relation;
mod recursion;
mod safety;
mod state_dependency;
mod stratification;

// Checks of names, arities and forms.
// (helper's section)
mod arity_consistency;
mod empty_body;
mod goal_value;
mod inconsistent_case;
mod keyword_arity;
mod keyword_as_function;
mod keyword_definition;
mod keyword_in_body;
mod relation_as_function;
mod reserved_word;
mod role_argument;
mod unproduced_relation;
mod unused_relation;
mod unusual_character;
mod variable_outside_rule;
mod zero_arity_parentheses;

pub use context::{Context, Dependency, RelationInfo};

use crate::gdl::lower::{FormOffsets, GdlForm, gdl_forms, gdl_rules, lower_form};
use crate::gdl::model::Rule as GdlRule;
use crate::rules::Rule;
use crate::{Db, Diagnostic, SourceFile};

/// A check: reads the context, reports into the list.
type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// What a check needs to see.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// One rule at a time: run on each top-level form alone, and memoised per form, so that an
    /// edit inside one rule checks that rule again and no other.
    Rule,
    /// The whole rule set (the relation table, the dependency graph, every use of a name).
    File,
}

/// The checks, in the order their findings are listed for one position.
const CHECKS: &[(Check, Scope)] = &[
    // (lead's checks)
    (missing_relation::check, Scope::File),
    (safety::check, Scope::Rule),
    (stratification::check, Scope::File),
    (recursion::check, Scope::File),
    (state_dependency::check, Scope::File),
    // (helper's checks)
    (keyword_arity::check, Scope::Rule),
    (keyword_as_function::check, Scope::Rule),
    (reserved_word::check, Scope::Rule),
    (keyword_definition::check, Scope::Rule),
    (keyword_in_body::check, Scope::Rule),
    (variable_outside_rule::check, Scope::Rule),
    (inconsistent_case::check, Scope::File),
    (role_argument::check, Scope::File),
    (goal_value::check, Scope::Rule),
    (zero_arity_parentheses::check, Scope::Rule),
    (empty_body::check, Scope::Rule),
    (arity_consistency::check, Scope::File),
    (relation_as_function::check, Scope::File),
    (unproduced_relation::check, Scope::File),
    (unused_relation::check, Scope::File),
    (unusual_character::check, Scope::Rule),
];

/// A diagnostic with the rank of what found it: 0 for lowering, then 1 + the check's index in
/// [`CHECKS`]. Findings at one position are listed in this order.
type Ranked = (usize, Diagnostic);

/// Runs the checks of `scope` over `rules`, each finding ranked. `checkpoint` runs between two
/// checks: over the rule set of a file of megabytes each check takes a while, and an edit
/// (a salsa write) waits until the queries under way notice it.
fn run_checks(rules: &[&GdlRule], scope: Scope, out: &mut Vec<Ranked>, checkpoint: &dyn Fn()) {
    let context = Context::new(rules);
    let mut found = Vec::new();
    for (index, &(check, check_scope)) in CHECKS.iter().enumerate() {
        if check_scope == scope {
            checkpoint();
            check(&context, &mut found);
            out.extend(found.drain(..).map(|diagnostic| (index + 1, diagnostic)));
        }
    }
}

/// Lowering problems first, ranked 0.
fn ranked_lowering(diagnostics: &[Diagnostic]) -> impl Iterator<Item = Ranked> + '_ {
    diagnostics.iter().map(|diagnostic| (0, diagnostic.clone()))
}

/// Every GDL diagnostic of `file`, sorted by position: lowering problems, then every check's
/// findings (at one position, in that order).
///
/// A KIF file the fast reader accepts is checked form by form: the per-rule checks on each
/// top-level form alone ([`form_diagnostics`], memoised per form), the others on the whole rule
/// set ([`rule_set_diagnostics`], memoised while no form changes), all in form coordinates and
/// then placed in the file. Any other file is checked whole, with the same checks.
#[salsa::tracked(returns(ref))]
pub fn gdl_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    gdl_diagnostics_of(db, file, true)
}

/// [`gdl_diagnostics`] without the whole-rule-set checks when the file is read form by form:
/// an edit then checks again only the forms it touched (see [`crate::quick_file_diagnostics`]).
#[salsa::tracked(returns(ref))]
pub fn gdl_form_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    gdl_diagnostics_of(db, file, false)
}

fn gdl_diagnostics_of(db: &dyn Db, file: SourceFile, whole_rule_set: bool) -> Vec<Diagnostic> {
    let mut ranked: Vec<Ranked> = match gdl_forms(db, file) {
        Some(forms) => {
            let whole = whole_rule_set.then(|| rule_set_diagnostics(db, file));
            let mut ranked: Vec<Ranked> = forms
                .iter()
                .flat_map(|&form| form_diagnostics(db, form).iter().cloned())
                .chain(whole.into_iter().flatten().cloned())
                .collect();
            let offsets = FormOffsets::of(db, file);
            for (_, diagnostic) in &mut ranked {
                diagnostic.map_ranges(|range| offsets.to_file(range));
            }
            ranked
        }
        None => {
            let lowered = gdl_rules(db, file);
            let rules: Vec<&GdlRule> = lowered.rules.rules.iter().collect();
            let mut ranked: Vec<Ranked> = ranked_lowering(&lowered.diagnostics).collect();
            let checkpoint = || db.unwind_if_revision_cancelled();
            run_checks(&rules, Scope::Rule, &mut ranked, &checkpoint);
            run_checks(&rules, Scope::File, &mut ranked, &checkpoint);
            ranked
        }
    };
    // Stable: findings of one rank keep their order (the order the check gave, which for the
    // per-rule checks is the rules' order either way).
    ranked.sort_by_key(|(rank, diagnostic)| (diagnostic.range.start, diagnostic.range.end, *rank));
    ranked
        .into_iter()
        .map(|(_, diagnostic)| diagnostic)
        .collect()
}

/// The lowering problems and the per-rule checks' findings of one top-level form, in form
/// coordinates.
#[salsa::tracked(returns(ref))]
fn form_diagnostics<'db>(db: &'db dyn Db, form: GdlForm<'db>) -> Vec<Ranked> {
    let lowered = lower_form(db, form);
    let rules: Vec<&GdlRule> = lowered.rules.rules.iter().collect();
    let mut ranked: Vec<Ranked> = ranked_lowering(&lowered.diagnostics).collect();
    run_checks(&rules, Scope::Rule, &mut ranked, &|| ());
    ranked
}

/// The whole-rule-set checks' findings of a file read form by form, in form coordinates. It
/// reads the forms and their rules only, not their places: moving forms does not run it again.
#[salsa::tracked(returns(ref))]
fn rule_set_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Ranked> {
    let Some(forms) = gdl_forms(db, file) else {
        return Vec::new();
    };
    let rules: Vec<&GdlRule> = forms
        .iter()
        .flat_map(|&form| lower_form(db, form).rules.rules.iter())
        .collect();
    db.unwind_if_revision_cancelled();
    let mut ranked = Vec::new();
    run_checks(&rules, Scope::File, &mut ranked, &|| {
        db.unwind_if_revision_cancelled()
    });
    ranked
}

/// The rules the checks report.
pub const RULES: &[&Rule] = &[
    // (lead's rules)
    &missing_relation::MISSING_ROLE,
    &missing_relation::MISSING_LEGAL,
    &missing_relation::MISSING_GOAL,
    &missing_relation::MISSING_TERMINAL,
    &safety::UNSAFE_VARIABLE,
    &stratification::UNSTRATIFIED_NEGATION,
    &recursion::RECURSION_RESTRICTION,
    &state_dependency::STATE_DEPENDENCY,
    // (helper's rules)
    &keyword_arity::KEYWORD_ARITY,
    &keyword_as_function::KEYWORD_AS_FUNCTION,
    &reserved_word::RESERVED_WORD,
    &keyword_definition::KEYWORD_DEFINED,
    &keyword_in_body::KEYWORD_IN_BODY,
    &variable_outside_rule::VARIABLE_OUTSIDE_RULE,
    &inconsistent_case::INCONSISTENT_CASE,
    &role_argument::ROLE_ARGUMENT,
    &goal_value::GOAL_VALUE,
    &zero_arity_parentheses::ZERO_ARITY_PARENTHESES,
    &empty_body::EMPTY_BODY,
    &arity_consistency::INCONSISTENT_ARITY,
    &relation_as_function::RELATION_AS_FUNCTION,
    &unproduced_relation::UNPRODUCED_RELATION,
    &unused_relation::UNUSED_RELATION,
    &unusual_character::UNUSUAL_CHARACTER,
];

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::{Arc, Mutex};

    use salsa::Setter;

    use super::gdl_diagnostics;
    use crate::{Db, SourceFile, Syntax};

    /// A database that records which queries run.
    #[salsa::db]
    #[derive(Clone)]
    struct LoggedDatabase {
        storage: salsa::Storage<Self>,
        executed: Arc<Mutex<Vec<String>>>,
    }

    impl LoggedDatabase {
        fn new() -> Self {
            let executed: Arc<Mutex<Vec<String>>> = Arc::default();
            let log = executed.clone();
            let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
                if let salsa::EventKind::WillExecute { database_key } = event.kind {
                    log.lock().unwrap().push(format!("{database_key:?}"));
                }
            })));
            Self { storage, executed }
        }

        /// How many times each of `queries` ran since the last call.
        fn runs_of<const N: usize>(&self, queries: [&str; N]) -> [usize; N] {
            let executed = std::mem::take(&mut *self.executed.lock().unwrap());
            queries.map(|query| {
                executed
                    .iter()
                    .filter(|key| key.starts_with(&format!("{query}(")))
                    .count()
            })
        }
    }

    #[salsa::db]
    impl salsa::Database for LoggedDatabase {}

    #[salsa::db]
    impl Db for LoggedDatabase {}

    const GAME: &str = "\
(role robot)
(init (cell 1))
(<= (legal robot (move ?x)) (true (cell ?x)))
(<= (next (cell ?y)) (does robot (move ?x)) (succ ?x ?y))
(succ 1 2)
(<= (goal robot 100) (true (cell 2)))
(<= terminal (true (cell 2)))
(<= (unsafe ?z) (true (cell 1)))
";

    fn file(db: &LoggedDatabase, text: &str) -> SourceFile {
        SourceFile::new(
            db,
            PathBuf::from("game.kif"),
            Syntax::GdlKif,
            Arc::from(text),
            None,
        )
    }

    /// The diagnostics of `text` in a database of their own.
    fn fresh_diagnostics(text: &str) -> Vec<crate::Diagnostic> {
        let db = LoggedDatabase::new();
        gdl_diagnostics(&db, file(&db, text)).clone()
    }

    #[test]
    fn an_edit_inside_one_rule_lowers_and_checks_that_rule_alone() {
        let mut db = LoggedDatabase::new();
        let game = file(&db, GAME);
        let before = gdl_diagnostics(&db, game).clone();
        // Every form is lowered and checked once on the first look.
        assert_eq!(
            db.runs_of(["lower_form", "form_diagnostics", "rule_set_diagnostics"]),
            [8, 8, 1]
        );
        assert!(
            before
                .iter()
                .any(|diagnostic| diagnostic.code == "gdl/unsafe-variable"),
            "{before:?}"
        );

        // Spaces inside the `legal` rule: that form alone is lowered and checked again, and the
        // forms after it, moved, keep their findings at their new places.
        let edited = GAME.replace("(true (cell ?x))", "(true   (cell ?x))");
        game.set_text(&mut db).to(Arc::from(edited.as_str()));
        let after = gdl_diagnostics(&db, game).clone();
        assert_eq!(
            db.runs_of(["lower_form", "form_diagnostics", "rule_set_diagnostics"]),
            [1, 1, 1]
        );
        assert_eq!(after, fresh_diagnostics(&edited));
        let unsafe_at = |diagnostics: &[crate::Diagnostic], text: &str| {
            let diagnostic = diagnostics
                .iter()
                .find(|diagnostic| diagnostic.code == "gdl/unsafe-variable")
                .expect("the unsafe rule is reported");
            text[std::ops::Range::from(diagnostic.range)].to_owned()
        };
        assert_eq!(unsafe_at(&after, &edited), "?z");
        assert_eq!(unsafe_at(&before, GAME), "?z");
        // The rule model of the file is put together from the forms already lowered.
        let _ = crate::gdl::gdl_rules(&db, game);
        assert_eq!(db.runs_of(["lower_form"]), [0]);

        // Undoing the edit finds the first text's forms again.
        game.set_text(&mut db).to(Arc::from(GAME));
        assert_eq!(gdl_diagnostics(&db, game), &before);
        let _ = crate::gdl::gdl_rules(&db, game);
        assert_eq!(db.runs_of(["lower_form", "form_diagnostics"]), [0, 0]);
        game.set_text(&mut db).to(Arc::from(edited.as_str()));
        assert_eq!(gdl_diagnostics(&db, game), &after);
        assert_eq!(db.runs_of(["lower_form", "form_diagnostics"]), [0, 0]);

        // Blank lines between forms change no form: nothing is lowered or checked again.
        let spaced = edited.replace("(succ 1 2)\n", "(succ 1 2)\n\n\n");
        game.set_text(&mut db).to(Arc::from(spaced.as_str()));
        let spaced_diagnostics = gdl_diagnostics(&db, game).clone();
        assert_eq!(
            db.runs_of(["lower_form", "form_diagnostics", "rule_set_diagnostics"]),
            [0, 0, 0]
        );
        assert_eq!(spaced_diagnostics, fresh_diagnostics(&spaced));
    }

    #[test]
    fn typing_back_and_forth_keeps_the_other_forms_memoised() {
        let mut db = LoggedDatabase::new();
        let game = file(&db, GAME);
        let _ = gdl_diagnostics(&db, game);
        let edited = GAME.replace("(true (cell ?x))", "(true  (cell ?x))");
        for round in 0..20 {
            let text = if round % 2 == 0 {
                edited.as_str()
            } else {
                GAME
            };
            game.set_text(&mut db).to(Arc::from(text));
            db.runs_of([""]);
            let _ = gdl_diagnostics(&db, game);
            let _ = crate::gdl::gdl_rules(&db, game);
            let [lowered, checked] = db.runs_of(["lower_form", "form_diagnostics"]);
            assert!(
                lowered <= 1 && checked <= 1,
                "round {round}: {lowered} lowered, {checked} checked"
            );
        }
    }
}

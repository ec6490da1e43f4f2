//! Code actions: the fixes diagnostics carry ("did you mean" → replace, a mandatory Ludi part
//! added from the schema's example, ...), the same fixes `ludeme check --fix` applies, the
//! conversion of a GDL file between prefix KIF and infix (by the formatter `ludeme fmt --to`
//! uses), and the breeding of variants of a Ludi game ([`breed_target`], done by
//! [`crate::evolve::variants`]).

use crate::gdl::{FormatError, format_gdl, gdl_rules};
use crate::{
    Applicability, Db, Diagnostic, Severity, SourceFile, Syntax, TextRange, file_diagnostics,
    syntax_diagnostics,
};

/// What a code action does, for the editor's menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeActionKind {
    /// Resolves a diagnostic.
    QuickFix,
    /// Rewrites the whole file (a syntax conversion).
    Rewrite,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub kind: CodeActionKind,
    /// Replacements (range, new text) in the file.
    pub edits: Vec<(TextRange, String)>,
    /// The diagnostic it resolves.
    pub diagnostic: Option<Diagnostic>,
    /// The one fix of its diagnostic, which an editor may apply without asking.
    pub preferred: bool,
}

/// The quick fixes for the diagnostics that overlap `range` (or touch it, when it is empty).
/// The conversion between GDL syntaxes is offered apart ([`conversion_target`]), so that
/// listing actions never runs the converter.
pub fn code_actions(db: &dyn Db, file: SourceFile, range: TextRange) -> Vec<CodeAction> {
    let touches = |other: TextRange| other.start <= range.end && range.start <= other.end;
    let diagnostics: Vec<Diagnostic> = file_diagnostics(db, file)
        .into_iter()
        .filter(|diagnostic| touches(diagnostic.range))
        .collect();
    let mut actions = Vec::new();
    for diagnostic in &diagnostics {
        for fix in &diagnostic.fixes {
            actions.push(CodeAction {
                title: fix.title.clone(),
                kind: CodeActionKind::QuickFix,
                edits: fix.edits.clone(),
                diagnostic: Some(diagnostic.clone()),
                // What `ludeme check --fix` would apply unasked, the editor may too.
                preferred: diagnostic.fixes.len() == 1 && fix.applicability == Applicability::Safe,
            });
        }
    }
    actions
}

/// The title of the action that breeds variants of a Ludi game.
pub const BREED_TITLE: &str = "Breed variants of this game";

/// The name of the Ludi game the action "Breed variants of this game" is offered for: a Ludi
/// file the Ludi engine's gate lets through ([`crate::engine_gate::engine_gate`]: no errors under
/// the project's rule selection and severities, which `ludeme check` would refuse and evolution
/// would only cull, and nothing the reading left out), holding one game. Offering it is cheap; the
/// breeding is long work for the caller to run in the background
/// ([`crate::evolve::variants::breed_variants`], given the same settings).
pub fn breed_target(db: &dyn Db, file: SourceFile) -> Option<String> {
    if file.syntax(db) != Syntax::Ludi {
        return None;
    }
    // The engine's own gate: breeding plays the game's variants on the Ludi engine.
    if crate::engine_gate::engine_gate(db, file, Severity::Error).is_err() {
        return None;
    }
    // The lowered game salsa keeps for the diagnostics: nothing is parsed again per request.
    let game = crate::ludi::ludi_game(db, file).as_ref()?;
    game.name.as_ref().map(|name| name.name.clone())
}

/// The other GDL syntax, when the file is whole enough to convert: no syntax errors and every
/// form a rule (what the diagnostics computed already). Whether each name can be spelled in
/// the target syntax is left to the conversion itself ([`convert_gdl`]), which says why not:
/// printing the file on every request for code actions would be too slow for large files.
pub fn conversion_target(db: &dyn Db, file: SourceFile) -> Option<Syntax> {
    // Infix text in a `.kif` file is renamed, not converted: read as KIF it means nothing.
    if crate::gdl::infix_in_kif(db, file).is_some() {
        return None;
    }
    let target = match file.syntax(db) {
        Syntax::GdlKif => Syntax::GdlInfix,
        Syntax::GdlInfix => Syntax::GdlKif,
        Syntax::Egg | Syntax::Ludi => return None,
    };
    let syntax_errors = syntax_diagnostics(db, file)
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error);
    let lowered = gdl_rules(db, file).diagnostics.is_empty();
    (!syntax_errors && lowered).then_some(target)
}

/// The whole file converted to the other GDL syntax, checked as `ludeme fmt --to` checks it.
/// Call this outside salsa queries.
pub fn convert_gdl(db: &dyn Db, file: SourceFile) -> Result<(Syntax, String), FormatError> {
    let target = match file.syntax(db) {
        Syntax::GdlKif => Syntax::GdlInfix,
        Syntax::GdlInfix => Syntax::GdlKif,
        Syntax::Egg | Syntax::Ludi => return Err(FormatError::NotGdl),
    };
    format_gdl(db, file, target).map(|text| (target, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RootDatabase;
    use crate::ide::fixture::source;
    use crate::ludi::schema;

    fn apply(text: &str, edits: &[(TextRange, String)]) -> String {
        let mut out = text.to_owned();
        let mut edits = edits.to_vec();
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        for (range, new) in edits {
            out.replace_range(range.start..range.end, &new);
        }
        out
    }

    fn actions(text: &str, syntax: Syntax, at: usize) -> Vec<CodeAction> {
        let db = RootDatabase::default();
        let file = source(&db, "t", syntax, text);
        code_actions(&db, file, TextRange::empty(at))
    }

    #[test]
    fn did_you_mean_becomes_a_replacement() {
        let text = "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-rwo 3))))";
        let found = actions(text, Syntax::Ludi, text.find("rwo").unwrap());
        let fix = found
            .iter()
            .find(|action| action.title == "Replace with `in-a-row`")
            .expect("the fix");
        assert_eq!(fix.diagnostic.as_ref().unwrap().code, "ludi/unknown-ludeme");
        assert_eq!(
            apply(text, &fix.edits),
            text.replace("in-a-rwo", "in-a-row")
        );
    }

    #[test]
    fn an_undefined_player_is_replaced_by_the_closest() {
        let text = "(game T (players White Black) (board (tiling square) (size 3 3)) (end (Whte win (in-a-row 3))))";
        let found = actions(text, Syntax::Ludi, text.find("Whte").unwrap());
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].preferred);
        assert_eq!(apply(text, &found[0].edits), text.replace("Whte", "White"));
    }

    #[test]
    fn a_missing_end_is_added_from_the_schema_example() {
        let text = "(game T\n  (players White Black)\n  (board (tiling square) (size 3 3)))\n";
        let found = actions(text, Syntax::Ludi, 2);
        let add = found
            .iter()
            .find(|action| action.title.starts_with("Add `(end "))
            .expect("the end is mandatory");
        let fixed = apply(text, &add.edits);
        let example = schema::named("end").next().unwrap().example;
        assert_eq!(
            fixed,
            format!(
                "(game T\n  (players White Black)\n  (board (tiling square) (size 3 3))\n  {example})\n"
            )
        );
        // The fixed game has no missing part left.
        let db = RootDatabase::default();
        let file = source(&db, "t", Syntax::Ludi, &fixed);
        assert!(
            file_diagnostics(&db, file)
                .iter()
                .all(|d| d.code != "ludi/missing-part"),
            "{fixed}"
        );
    }

    #[test]
    fn players_go_after_the_name_on_one_line() {
        let text = "(game T (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))";
        let found = actions(text, Syntax::Ludi, 1);
        let add = found
            .iter()
            .find(|action| action.title.starts_with("Add `(players "))
            .expect("players are mandatory");
        assert_eq!(
            apply(text, &add.edits),
            text.replace("(game T ", "(game T (players White Black) ")
        );
    }

    #[test]
    fn egg_names_are_fixed_and_forms_replace_whole_statements() {
        let text = "game is rps\npieces are Rock and Paper\nBeat means player(Paper) and opponent(Rock)\ngoal is Baet\nturns alternat\n";
        let found = actions(text, Syntax::Egg, text.find("Baet").unwrap());
        assert_eq!(apply(text, &found[0].edits), text.replace("Baet", "Beat"));
        let found = actions(text, Syntax::Egg, text.find("alternat").unwrap());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            apply(text, &found[0].edits),
            text.replace("alternat", "alternate")
        );
    }

    #[test]
    fn gdl_parentheses_around_a_bare_name_are_dropped() {
        let text = "(role x)\n(<= (open) (true (cell b)))\n(<= terminal (not open))\n";
        let found = actions(text, Syntax::GdlKif, text.find("(open)").unwrap() + 1);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            apply(text, &found[0].edits),
            text.replace("(<= (open)", "(<= open")
        );
    }

    #[test]
    fn breeding_is_offered_for_a_ludi_game_without_errors_only() {
        let db = RootDatabase::default();
        let game = "(game Tic (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-row 3))))";
        let ludi = source(&db, "tic.ludi", Syntax::Ludi, game);
        assert_eq!(breed_target(&db, ludi), Some("Tic".to_owned()));
        let broken = source(
            &db,
            "typo.ludi",
            Syntax::Ludi,
            &game.replace("in-a-row", "in-a-rwo"),
        );
        assert_eq!(breed_target(&db, broken), None);
        let kif = source(&db, "t.kif", Syntax::GdlKif, "(role x)\n");
        assert_eq!(breed_target(&db, kif), None);
    }

    #[test]
    fn gdl_converts_both_ways() {
        let db = RootDatabase::default();
        let kif = source(
            &db,
            "t.kif",
            Syntax::GdlKif,
            "(role x)\n(<= terminal (true (done ?x)))\n",
        );
        assert_eq!(conversion_target(&db, kif), Some(Syntax::GdlInfix));
        let (target, text) = convert_gdl(&db, kif).unwrap();
        assert_eq!(target, Syntax::GdlInfix);
        assert_eq!(text, "role(x)\nterminal :- true(done(X))\n");
        let broken = source(&db, "b.kif", Syntax::GdlKif, "(role x");
        assert_eq!(conversion_target(&db, broken), None);
        let ludi = source(&db, "t.ludi", Syntax::Ludi, "(game T)");
        assert_eq!(conversion_target(&db, ludi), None);
    }
}

//! What the English of a rule must be, written by hand for the phrasings that are easy to get
//! wrong: negation, `or`, `distinct`, frame rules, grouping of facts and conditions.

use std::sync::Arc;

use super::{GameExplanation, SectionKind, Vocabulary, explain_rule, explain_rules};
use crate::gdl::gdl_rules;
use crate::gdl::model::RuleSet;
use crate::{RootDatabase, SourceFile, Syntax};

/// The rules of a text, which must lower without a problem unless `odd`.
fn lower(syntax: Syntax, text: &str, odd: bool) -> RuleSet {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, "test".into(), syntax, Arc::from(text), None);
    let lowered = gdl_rules(&db, file);
    assert!(
        odd || lowered.diagnostics.is_empty(),
        "{:?}",
        lowered.diagnostics
    );
    lowered.rules.clone()
}

fn rules_of(syntax: Syntax, text: &str) -> RuleSet {
    lower(syntax, text, false)
}

/// The sentence of every rule of a KIF text, in order.
fn sentences(text: &str) -> Vec<String> {
    let rules = rules_of(Syntax::GdlKif, text);
    let vocabulary = Vocabulary::new(&rules);
    rules
        .rules
        .iter()
        .map(|rule| explain_rule(rule, &vocabulary))
        .collect()
}

/// The sentence of the last rule of a KIF text (the ones before give the context: the initial
/// state decides how fluents read).
fn last_sentence(text: &str) -> String {
    sentences(text).pop().expect("a rule")
}

fn explanation(text: &str) -> GameExplanation {
    explain_rules(&rules_of(Syntax::GdlKif, text))
}

fn items(explanation: &GameExplanation, kind: SectionKind) -> Vec<String> {
    explanation
        .section(kind)
        .map(|section| section.items.iter().map(|item| item.text.clone()).collect())
        .unwrap_or_default()
}

/// A board of blank cells and a player in control: enough for `cell` and `control` to read in
/// the value form.
const BOARD: &str = "
    (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 2 1 b)) (init (cell 2 2 b))
    (init (control xplayer))
";

#[test]
fn variables_read_as_capitals_and_function_terms_with_their_arguments() {
    assert_eq!(
        last_sentence("(<= (legal ?player (move ?x1 ?y1)) (true (at ?player ?x1 ?y1)))"),
        "Player may move (X1, Y1) when at (Player, X1, Y1) holds."
    );
}

#[test]
fn fluents_with_a_value_read_as_name_is_value() {
    let text =
        format!("{BOARD} (<= (legal ?r (mark ?m ?n)) (true (cell ?m ?n b)) (true (control ?r)))");
    assert_eq!(
        last_sentence(&text),
        "R may mark (M, N) when cell (M, N) is b and control is R."
    );
}

#[test]
fn fluents_without_evidence_of_a_value_read_as_holding() {
    // `moved` is not in the initial state: nothing says its last argument is a value.
    assert_eq!(
        last_sentence("(<= (next (moved ?p)) (does ?p go))"),
        "moved (P) becomes true when P does go."
    );
    // One fact alone, and coordinates after a name, show no value either.
    assert_eq!(
        last_sentence("(init (at robot 1 1)) (<= terminal (true (at robot 3 3)))"),
        "The game ends when at (robot, 3, 3) holds."
    );
}

#[test]
fn negated_relations_read_with_neither_and_none() {
    assert_eq!(
        last_sentence("(<= (goal xplayer 50) (not (line x)) (not (line o)))"),
        "xplayer scores 50 when neither line (x) nor line (o) holds."
    );
    assert_eq!(
        last_sentence("(<= (goal red 50) (not (line red)) (not (line black)) (not boardOpen))"),
        "red scores 50 when none of line (red), line (black) and boardOpen holds."
    );
    assert_eq!(
        last_sentence("(<= terminal (not open))"),
        "The game ends when open does not hold."
    );
}

#[test]
fn negated_fluents_read_with_is_not_and_is_neither() {
    let text = format!(
        "{BOARD} (<= (empty ?x ?y) (not (true (cell ?x ?y red))) (not (true (cell ?x ?y black))))"
    );
    assert_eq!(
        last_sentence(&text),
        "empty (X, Y) holds when cell (X, Y) is neither red nor black."
    );
    let text = format!("{BOARD} (<= (waiting) (not (true (control xplayer))))");
    assert_eq!(
        last_sentence(&text),
        "waiting holds when control is not xplayer."
    );
}

/// `open :- true(cell(M, N, b))` says that some cell is blank (issue 26), not something of
/// cells M and N; a rule whose head has the variables speaks of them.
#[test]
fn variables_of_the_body_alone_are_some() {
    assert_eq!(
        last_sentence("(init (cell 1 1 b)) (init (cell 1 2 b)) (<= open (true (cell ?m ?n b)))"),
        "open holds when cell (M, N) is b for some M and N."
    );
    assert_eq!(
        last_sentence(
            "(init (cell 1 1 b)) (init (cell 1 2 b)) (<= (free ?m ?n) (true (cell ?m ?n b)))"
        ),
        "free (M, N) holds when cell (M, N) is b."
    );
}

#[test]
fn negated_moves_and_roles() {
    assert_eq!(
        last_sentence("(<= calm (not (does white noop)) (role ?p) (not (role ?q)))"),
        // P and Q are the body's own: existential.
        "calm holds when white does not noop, P is a player and Q is not a player for some P and Q."
    );
}

#[test]
fn distinct_reads_as_is_not() {
    let text =
        format!("{BOARD} (<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)) (distinct ?f b))");
    assert_eq!(last_sentence(&text), "cell (M, N) stays F when F is not b.");
    assert_eq!(
        last_sentence("(<= (other ?a ?b) (index ?a) (index ?b) (distinct ?a ?b))"),
        "other (A, B) holds when index (A) and index (B) hold, and A is not B."
    );
    assert_eq!(
        last_sentence("(<= (pawn ?p) (piece ?p) (distinct ?p king) (distinct ?p queen))"),
        "pawn (P) holds when piece (P) holds and P is neither king nor queen."
    );
}

#[test]
fn or_reads_as_either() {
    assert_eq!(
        last_sentence("(<= (line ?p) (or (row ?p) (column ?p)))"),
        "line (P) holds when either row (P) or column (P) holds."
    );
    assert_eq!(
        last_sentence("(<= (near ?x) (or (left ?x) (not (far ?x)) (distinct ?x 0)))"),
        "near (X) holds when either left (X) holds, far (X) does not hold or X is not 0."
    );
}

#[test]
fn or_of_distinct_pairs_reads_as_the_pairs_differing() {
    let text = format!(
        "{BOARD} (<= (next (cell ?m ?n b)) (true (cell ?m ?n b)) (does ?r (mark ?j ?k))
             (or (distinct ?m ?j) (distinct ?n ?k)))"
    );
    assert_eq!(
        last_sentence(&text),
        "cell (M, N) stays b when R does mark (J, K) and (M, N) is not (J, K)."
    );
}

#[test]
fn next_rules_say_becomes_or_stays() {
    let text = format!(
        "{BOARD}
        (<= (next (control oplayer)) (true (control xplayer)))
        (<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))
        (<= (next (cell ?m ?n ?f)) (true (cell ?m ?n ?f)))
        (next (cell 1 1 b))"
    );
    let all = sentences(&text);
    assert_eq!(
        all[all.len() - 4..],
        [
            "control becomes oplayer when control is xplayer.",
            "cell (M, N) becomes x when xplayer does mark (M, N) and cell (M, N) is b.",
            "cell (M, N) stays F.",
            "cell (1, 1) becomes b after every move.",
        ]
    );
}

#[test]
fn like_conditions_are_grouped() {
    let text = format!(
        "{BOARD} (<= (row ?m ?f) (true (cell ?m 1 ?f)) (true (cell ?m 2 ?f)) (true (cell ?m 3 ?f)))"
    );
    assert_eq!(
        last_sentence(&text),
        "row (M, F) holds when cell (M, 1), cell (M, 2) and cell (M, 3) are all F."
    );
    assert_eq!(
        last_sentence("(<= (line ?a ?d) (succ ?a ?b) (near ?a) (succ ?b ?c) (succ ?c ?d))"),
        "line (A, D) holds when succ (A, B), succ (B, C), succ (C, D) and near (A) hold."
    );
}

#[test]
fn keyword_heads_read_by_their_meaning() {
    let text = "
        (role robot)
        (legal robot noop)
        (goal robot 100)
        (<= (base (cell ?x)) (index ?x))
        (<= (input robot (push ?x)) (index ?x))
        (<= (sees robot (light ?x)) (does robot (push ?x)))
        (<= terminal (true (step 10)))
        (index 1)
        open";
    assert_eq!(
        sentences(text),
        [
            "robot is a player.",
            "robot may always noop.",
            "robot always scores 100.",
            "cell (X) can hold when index (X) holds.",
            "push (X) is a possible move of robot when index (X) holds.",
            "robot sees light (X) when robot does push (X).",
            "The game ends when step (10) holds.",
            "index (1) holds.",
            "open holds.",
        ]
    );
}

#[test]
fn the_initial_state_groups_facts_that_differ_in_arguments() {
    let text = "
        (role xplayer) (role oplayer)
        (init (cell 1 1 b)) (init (cell 1 2 b)) (init (cell 1 3 b))
        (init (cell 2 1 b)) (init (cell 2 2 b)) (init (cell 2 3 b))
        (init (cell 3 1 b)) (init (cell 3 2 b)) (init (cell 3 3 b))
        (init (control xplayer))";
    let explanation = explanation(text);
    assert_eq!(
        items(&explanation, SectionKind::Roles),
        ["The players are xplayer and oplayer."]
    );
    assert_eq!(
        items(&explanation, SectionKind::InitialState),
        ["Initially, each cell (1..3, 1..3) is b and control is xplayer."]
    );
    let initial = &explanation
        .section(SectionKind::InitialState)
        .unwrap()
        .items[0];
    assert_eq!(initial.ranges.len(), 10, "every init fact is a source");
}

#[test]
fn a_row_of_different_values_reads_as_a_sequence() {
    let text = "
        (init (cell a 1 wr)) (init (cell b 1 wn)) (init (cell c 1 wb))
        (init (cell a 2 wp)) (init (cell b 2 wp)) (init (cell c 2 wp))";
    assert_eq!(
        items(&explanation(text), SectionKind::InitialState),
        ["Initially, cell (a, 1) to cell (c, 1) are wr, wn and wb; and each cell (a..c, 2) is wp."]
    );
}

#[test]
fn facts_in_the_holds_form_are_listed_with_one_verb() {
    let text = "(init (on d2 p1)) (init (on d1 d2)) (init (clear d1)) (init (clear p2))";
    assert_eq!(
        items(&explanation(text), SectionKind::InitialState),
        ["Initially, on (d2, p1), on (d1, d2), clear (d1) and clear (p2) hold."]
    );
}

#[test]
fn static_facts_are_summarised_per_relation() {
    let text = "
        (index 1) (index 2) (index 3)
        (succ 1 2) (succ 2 3) (succ 3 4)
        (coordinate 1) (coordinate 2) (coordinate 3) (coordinate 4) (coordinate a) (coordinate b)
        (opponent white black) (opponent black white)";
    assert_eq!(
        items(&explanation(text), SectionKind::Facts),
        [
            "index: 1, 2, 3.",
            "succ: 1 → 2 → 3 → 4.",
            "coordinate: 1..4, a, b.",
            "opponent: (white, black), (black, white).",
        ]
    );
}

#[test]
fn rules_with_one_conclusion_share_a_sentence() {
    let text = "
        (<= terminal (line x))
        (<= terminal (line o))
        (<= terminal (not open))";
    assert_eq!(
        items(&explanation(text), SectionKind::Terminal),
        ["The game ends when line (x) holds, when line (o) holds, or when open does not hold."]
    );
    // Alternatives that are lists themselves stay apart.
    let text = "
        (<= terminal (line x))
        (<= terminal (full) (not (line x)) (not (line o)))";
    assert_eq!(
        items(&explanation(text), SectionKind::Terminal),
        [
            "The game ends when line (x) holds.",
            "The game ends when full holds, and neither line (x) nor line (o) holds.",
        ]
    );
}

#[test]
fn helper_relations_follow_the_order_the_rules_need_them() {
    let text = "
        (<= (row ?m) (true (cell ?m 1 x)))
        (<= open (true (cell ?m ?n b)))
        (<= (line ?m) (row ?m))
        (<= terminal (line ?m))
        (<= terminal (not open))
        (<= unused (row 1))";
    let definitions = items(&explanation(text), SectionKind::Definitions);
    let heads: Vec<&str> = definitions
        .iter()
        .map(|sentence| sentence.split(" holds").next().unwrap())
        .collect();
    assert_eq!(heads, ["line (M)", "open", "row (M)", "unused"]);
}

#[test]
fn every_explanation_has_the_main_sections_and_says_what_is_missing() {
    let explanation = explanation("(role robot)");
    for kind in SectionKind::ALWAYS_SHOWN {
        assert!(explanation.section(kind).is_some(), "{kind:?}");
    }
    let terminal = explanation.section(SectionKind::Terminal).unwrap();
    assert!(terminal.items.is_empty());
    assert_eq!(
        terminal.note.as_deref(),
        Some("No rule says when the game ends.")
    );
}

#[test]
fn the_chance_player_is_named() {
    assert_eq!(
        items(
            &explanation("(role alice) (role random)"),
            SectionKind::Roles
        ),
        [
            "The players are alice and random.",
            "random stands for chance: it picks one of its legal moves at random.",
        ]
    );
}

#[test]
fn infix_rules_read_as_their_prefix_twins() {
    let infix = rules_of(
        Syntax::GdlInfix,
        "init(cell(1,1,b))\ninit(cell(1,2,b))\ninit(control(x))\n\
         legal(R,mark(M,N)) :- true(cell(M,N,b)) & true(control(R))\n\
         terminal :- ~open | line(x)",
    );
    let vocabulary = Vocabulary::new(&infix);
    let english: Vec<String> = infix
        .rules
        .iter()
        .map(|rule| explain_rule(rule, &vocabulary))
        .collect();
    assert_eq!(
        english[3..],
        [
            "R may mark (M, N) when cell (M, N) is b and control is R.",
            "The game ends when either open does not hold or line (x) holds.",
        ]
    );
}

#[test]
fn odd_rules_still_read() {
    // Outside GDL (lowering reports them), but the English must not fail on them.
    let odd = |text: &str| {
        let rules = lower(Syntax::GdlKif, text, true);
        let vocabulary = Vocabulary::new(&rules);
        explain_rule(rules.rules.last().expect("a rule"), &vocabulary)
    };
    assert_eq!(
        odd("(<= (same ?x) (num ?x) (not (distinct ?x 1)))"),
        "same (X) holds when num (X) holds and X is 1."
    );
    assert_eq!(
        odd("(<= (p ?x) (q ?x) (not (not (r ?x))))"),
        "p (X) holds when q (X) and r (X) hold."
    );
    assert_eq!(
        odd("(<= (p ?x) (q ?x) (not (or (r ?x) (s ?x))))"),
        "p (X) holds when q (X) holds, and neither r (X) nor s (X) holds."
    );
    assert_eq!(odd("(legal)"), "legal holds.");
}

#[test]
fn plain_text_wraps_without_breaking_a_term() {
    let explanation = explanation("(role a) (<= terminal (line (mark 1 2 3 4 5 6 7 8 9)))");
    let text = explanation.to_plain_text(40);
    assert!(
        text.contains("line (mark (1, 2, 3, 4, 5, 6, 7, 8, 9))"),
        "{text}"
    );
    assert!(text.lines().all(|line| !line.ends_with(' ')), "{text}");
}

//! The engines' gate follows the project's rule selection (`ludeme.toml`), as `ludeme check`
//! does: a game the project's selection leaves without errors is played by `ludeme probe` (and
//! simulated by `ludeme check --simulate`), one the selection gives an error is refused; and a
//! finding that says the reading left part of the game out refuses the engine whatever the
//! selection says of it, with a message naming it.

mod support;

use std::path::Path;

use support::ludeme_in;
use support::projects::{project, yavalath_with_inapplicable_neighbours};

/// Tic-tac-toe in KIF with a goal of 101 that never holds (`gdl/goal-value`, an error by
/// default): the game plays as tic-tac-toe does.
fn tic_tac_toe_with_a_goal_out_of_range() -> String {
    corpus_text("corpus/gdl/ticTacToe.kif")
        + "\n(<= (goal xplayer 101)\n    (true (control nobody)))\n"
}

fn corpus_text(path: &str) -> String {
    std::fs::read_to_string(support::project_root().join(path)).expect("the corpus game")
}

/// `ludeme check` of `name` in `folder` finds no error (its summary line says so).
fn assert_check_finds_no_error(folder: &Path, name: &str) {
    let output = ludeme_in(&["check", "--color", "never", name], folder);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("checked 1 file: 0 errors"), "{stdout}");
}

/// `ludeme probe` of `name` in `folder`, two short games: its standard output, or its refusal.
fn probe(folder: &Path, name: &str) -> Result<String, String> {
    let output = ludeme_in(
        &["probe", name, "--games", "2", "--move-nodes", "20"],
        folder,
    );
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        Err(stderr)
    }
}

#[test]
fn probe_plays_a_ludi_game_whose_error_rule_the_project_disables() {
    let folder = project(
        "[rules]\ndisable = [\"ludi/inapplicable\"]\n",
        "yavalath.ludi",
        &yavalath_with_inapplicable_neighbours(),
    );
    assert_check_finds_no_error(folder.path(), "yavalath.ludi");
    let report =
        probe(folder.path(), "yavalath.ludi").unwrap_or_else(|refusal| panic!("{refusal}"));
    assert!(report.contains("2 games of self-play"), "{report}");
}

/// Lowering the severity of what the binder leaves out does not open the gate: the game the
/// engine would get has no such end condition.
#[test]
fn probe_refuses_a_ludi_game_whose_reading_left_a_part_out_whatever_the_selection() {
    let text = corpus_text("corpus/ludi/yavalath.ludi").replace(
        "(All win (in-a-row 4))",
        "(All win (in-a-row 4) (frobnicate 3))",
    );
    for config in [
        "[rules]\ndisable = [\"ludi/unknown-ludeme\"]\n",
        "[rules]\nseverity = { \"ludi\" = \"warning\" }\n",
    ] {
        let folder = project(config, "yavalath.ludi", &text);
        assert_check_finds_no_error(folder.path(), "yavalath.ludi");
        let refusal = probe(folder.path(), "yavalath.ludi").expect_err("refused");
        assert!(
            refusal.contains("`ludi/unknown-ludeme` reports at line 8, column 28")
                && refusal.contains("`frobnicate`"),
            "{config}: {refusal}"
        );
    }
}

#[test]
fn probe_and_simulation_play_a_gdl_game_whose_error_rule_the_project_disables() {
    let folder = project(
        "[rules]\ndisable = [\"gdl/goal-value\"]\n",
        "tictactoe.kif",
        &tic_tac_toe_with_a_goal_out_of_range(),
    );
    assert_check_finds_no_error(folder.path(), "tictactoe.kif");
    let report =
        probe(folder.path(), "tictactoe.kif").unwrap_or_else(|refusal| panic!("{refusal}"));
    assert!(report.contains("2 games of self-play"), "{report}");
    let simulated = ludeme_in(
        &["check", "--simulate", "--color", "never", "tictactoe.kif"],
        folder.path(),
    );
    let stdout = String::from_utf8_lossy(&simulated.stdout);
    assert!(simulated.status.success(), "{stdout}");
    assert!(!stdout.contains("not simulated"), "{stdout}");
}

/// A form the GDL lowering cannot read is not in the rules the engine gets: disabling its rule
/// does not open the gate.
#[test]
fn probe_refuses_a_gdl_game_with_a_form_the_lowering_left_out_whatever_the_selection() {
    let folder = project(
        "[rules]\ndisable = [\"gdl/malformed-rule\"]\n",
        "tictactoe.kif",
        &format!("(<=)\n{}", corpus_text("corpus/gdl/ticTacToe.kif")),
    );
    assert_check_finds_no_error(folder.path(), "tictactoe.kif");
    let refusal = probe(folder.path(), "tictactoe.kif").expect_err("refused");
    assert!(
        refusal.contains("`gdl/malformed-rule` reports at line 1, column 1"),
        "{refusal}"
    );
}

/// A finding the project makes an error of refuses the engine, as `ludeme check` fails: an
/// inexact name (an info by default) in EGGG tic-tac-toe.
#[test]
fn probe_refuses_an_eggg_game_the_project_gives_an_error() {
    let text = corpus_text("corpus/egg/tic-tac-toe.egg")
        .replace("goal is ThreeInARow", "goal is threeinarow");
    let default = project("", "tic-tac-toe.egg", &text);
    probe(default.path(), "tic-tac-toe.egg").unwrap_or_else(|refusal| panic!("{refusal}"));
    let strict = project(
        "[rules]\nseverity = { \"egg/inexact-name\" = \"error\" }\n",
        "tic-tac-toe.egg",
        &text,
    );
    let refusal = probe(strict.path(), "tic-tac-toe.egg").expect_err("refused");
    assert!(
        refusal.contains("the game has 1 error(s) or warning(s)"),
        "{refusal}"
    );
}

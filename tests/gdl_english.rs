//! `ludeme explain FILE`: GDL games in English. Snapshots of real games (read and reviewed: each
//! must read as English a designer understands), the JSON form, the languages without English
//! yet, and every game of the shared corpus rendered without a panic.

mod support;

use std::sync::Arc;

use ludeme_analysis::gdl::english::{SectionKind, gdl_explanation};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use serde_json::Value;

use support::{explain, ludeme};

const REPOSITORY: &str = "../shared/corpus/gdl/ggp-repository";

#[test]
fn tic_tac_toe_in_english() {
    if support::shared_corpus().is_none() {
        return;
    }
    insta::assert_snapshot!(
        "ticTacToe_kif",
        explain(&format!("{REPOSITORY}/ticTacToe.kif"))
    );
}

#[test]
fn connect_four_in_english() {
    if support::shared_corpus().is_none() {
        return;
    }
    insta::assert_snapshot!(
        "connectFour_kif",
        explain(&format!("{REPOSITORY}/connectFour.kif"))
    );
}

#[test]
fn breakthrough_in_english() {
    if support::shared_corpus().is_none() {
        return;
    }
    insta::assert_snapshot!(
        "breakthrough_kif",
        explain(&format!("{REPOSITORY}/breakthrough.kif"))
    );
}

#[test]
fn chess_in_english_has_every_section() {
    if support::shared_corpus().is_none() {
        return;
    }
    let text = explain(&format!("{REPOSITORY}/chess.kif"));
    for title in [
        "Players",
        "Initial state",
        "Legal moves",
        "How the state changes",
        "End of the game",
        "Scores",
        "Definitions",
        "Static facts",
    ] {
        assert!(
            text.lines().any(|line| line == title),
            "no `{title}` section:\n{text}"
        );
    }
    insta::assert_snapshot!("chess_kif", text);
}

#[test]
fn the_infix_tic_tac_toe_in_english() {
    insta::assert_snapshot!("ticTacToe_hrf", explain("corpus/gdl/ticTacToe.hrf"));
}

#[test]
fn the_prefix_and_infix_tic_tac_toe_of_the_project_say_the_same_things() {
    // The two files differ in role names and one rule (the infix game marks with the role's own
    // name), so compare the section structure only.
    let kif = explain("corpus/gdl/ticTacToe.kif");
    let hrf = explain("corpus/gdl/ticTacToe.hrf");
    let titles = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| !line.starts_with(' ') && !line.is_empty())
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(titles(&kif), titles(&hrf));
}

#[test]
fn json_gives_sections_items_and_rule_positions() {
    let output = ludeme(&[
        "explain",
        "--literal",
        "--format",
        "json",
        "corpus/gdl/ticTacToe.kif",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    assert_eq!(json["file"], "corpus/gdl/ticTacToe.kif");
    let sections = json["sections"].as_array().expect("sections");
    let kinds: Vec<&str> = sections
        .iter()
        .map(|section| section["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds[..6],
        [
            "roles",
            "initial-state",
            "legal",
            "next",
            "terminal",
            "goal"
        ]
    );
    let roles = &sections[0]["items"][0];
    assert_eq!(roles["text"], "The players are xplayer and oplayer.");
    // `(role xplayer)` is on line 7 of the file, `(role oplayer)` on line 8.
    let ranges = roles["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 2);
    assert_eq!(ranges[0]["start"]["line"], 7);
    assert_eq!(ranges[0]["start"]["column"], 1);
    assert_eq!(ranges[1]["end"]["line"], 8);
    assert_eq!(ranges[1]["end"]["column"], 15, "end columns are exclusive");
}

// Every language has English now: Ludi in tests/ludi_english.rs, EGGG in tests/egg_english.rs.

#[test]
fn codes_and_missing_files_keep_their_meaning() {
    let code = ludeme(&["explain", "syntax/missing-token"]);
    assert_eq!(code.status.code(), Some(0));
    assert!(
        String::from_utf8(code.stdout)
            .unwrap()
            .starts_with("syntax/missing-token (error)")
    );
    let missing = ludeme(&["explain", "no/such/game.kif"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8(missing.stderr)
            .unwrap()
            .contains("no such file")
    );
}

/// Every game of the shared corpus renders, in-process, with the sections every explanation
/// has, sentences that end with a period, and ranges inside the file.
#[test]
fn every_corpus_game_renders() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    let files = support::files_with_extensions(&corpus.join("gdl"), &["kif"]);
    assert!(files.len() >= 300, "only {} games found", files.len());
    let db = RootDatabase::default();
    let mut problems = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let file = SourceFile::new(
            &db,
            path.clone(),
            Syntax::GdlKif,
            Arc::from(text.as_str()),
            None,
        );
        let explanation = gdl_explanation(&db, file);
        for kind in SectionKind::ALWAYS_SHOWN {
            if explanation.section(kind).is_none() {
                problems.push(format!("{}: no {kind:?} section", path.display()));
            }
        }
        for section in &explanation.sections {
            if section.items.is_empty() && section.note.is_none() {
                problems.push(format!("{}: {:?} is blank", path.display(), section.kind));
            }
            for item in &section.items {
                if !item.text.ends_with('.') || item.ranges.is_empty() {
                    problems.push(format!("{}: {:?}", path.display(), item));
                }
                for range in &item.ranges {
                    if range.end > text.len() {
                        problems.push(format!("{}: {range:?} is outside", path.display()));
                    }
                }
            }
        }
    }
    eprintln!("rendered {} games of {}", files.len(), corpus.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Text made of GDL's own words and brackets, in either syntax.
fn gdl_like_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "(",
        ")",
        " ",
        "\n",
        "<=",
        ":-",
        "&",
        "|",
        "~",
        ",",
        "role",
        "init",
        "true",
        "next",
        "legal",
        "does",
        "goal",
        "terminal",
        "base",
        "input",
        "sees",
        "not",
        "or",
        "distinct",
        "cell",
        "control",
        "?x",
        "?y",
        "X",
        "Y",
        "1",
        "2",
        "b",
        "random",
        "(cell 1 1 b)",
        "(init (cell 1 2 b))",
        "(succ 1 2)",
        "(<= (next ?x) (true ?x))",
        "é",
    ]);
    prop::collection::vec(pieces, 0..60).prop_map(|parts| parts.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// No text makes the English fail, and every range it gives lies inside the text.
    #[test]
    fn any_text_renders_without_panic(text in gdl_like_text()) {
        let db = RootDatabase::default();
        for syntax in [Syntax::GdlKif, Syntax::GdlInfix] {
            let file = SourceFile::new(&db, "game".into(), syntax, Arc::from(text.as_str()), None);
            let explanation = gdl_explanation(&db, file);
            let _ = explanation.to_plain_text(40);
            for item in explanation.sections.iter().flat_map(|section| &section.items) {
                for range in &item.ranges {
                    proptest::prop_assert!(range.end <= text.len());
                }
            }
        }
    }
}

//! Robustness: no Ludi analysis panics on any input, and every range stays inside the text.
//! Inputs: every prefix of every game of `corpus/ludi` and the test fixtures (the states a game
//! passes through as it is typed), and random soups of ludeme names, names, numbers, cells and
//! parentheses.

use std::sync::Arc;

use proptest::prelude::*;
use salsa::Setter;

use crate::ludi::schema::LUDEMES;
use crate::ludi::{ludi_diagnostics, ludi_explanation, ludi_game};
use crate::{RootDatabase, SourceFile, Syntax};

fn analyse(text: &str) {
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, "test.ludi".into(), Syntax::Ludi, Arc::from(text), None);
    check(&db, file, text);
}

/// Runs every Ludi query on `file`, whose text is `text`, checking the ranges.
fn check(db: &RootDatabase, file: SourceFile, text: &str) {
    for diagnostic in ludi_diagnostics(db, file) {
        assert!(
            diagnostic.range.end <= text.len(),
            "{diagnostic:?} in {text:?}"
        );
        assert!(!diagnostic.message.is_empty());
    }
    for sentence in &ludi_explanation(db, file).sentences {
        assert!(
            sentence.ranges.iter().all(|r| r.end <= text.len()),
            "{sentence:?}"
        );
        assert!(
            !sentence.text.contains(['{', '}']),
            "{sentence:?} in {text:?}"
        );
    }
    let _ = ludi_game(db, file);
}

fn games() -> Vec<String> {
    ["corpus/ludi", "tests/fixtures/ludi"]
        .into_iter()
        .flat_map(|folder| crate::test_files::project_files(folder, "ludi"))
        .map(|(_, text)| text)
        .collect()
}

#[test]
fn every_prefix_of_every_game_is_analysed_without_panic() {
    let games = games();
    assert!(!games.is_empty());
    // One database whose file is edited, as in an editor (and much faster than a database per
    // prefix).
    let mut db = RootDatabase::default();
    let file = SourceFile::new(&db, "test.ludi".into(), Syntax::Ludi, Arc::from(""), None);
    for text in &games {
        // Cutting after each parenthesis gives every shape of tree an unfinished game has.
        let boundaries = (0..=text.len())
            .filter(|&end| text.is_char_boundary(end) && text[..end].ends_with(['(', ')']));
        for end in boundaries {
            file.set_text(&mut db).to(Arc::from(&text[..end]));
            check(&db, file, &text[..end]);
        }
    }
}

fn token() -> impl Strategy<Value = String> {
    let names: Vec<String> = LUDEMES.iter().map(|l| l.name.to_owned()).collect();
    prop_oneof![
        4 => prop::sample::select(names),
        3 => Just("(".to_owned()),
        3 => Just(")".to_owned()),
        1 => prop::sample::select(vec!["White", "Black", "All", "Stone", "Goal", "Zork"]).prop_map(str::to_owned),
        1 => (-3i64..12).prop_map(|n| n.to_string()),
        1 => prop::sample::select(vec!["A1", "D4", "ZZ99", "\"text\"", "0.5", "99999999999999999999"]).prop_map(str::to_owned),
    ]
}

proptest! {
    #[test]
    fn ludeme_soup_never_panics(tokens in prop::collection::vec(token(), 0..80)) {
        analyse(&format!("(game Soup {})", tokens.join(" ")));
        analyse(&tokens.join(" "));
    }
}

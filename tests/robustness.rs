//! Property tests: no input makes a parser, the analyses or the editor's document store panic,
//! and incremental re-parsing after any edits gives the tree a fresh parse gives.

mod support;

use ludeme_analysis::fuzzing::analyse_text;
use ludeme_analysis::kif_forms::{Forms, read_kif};
use ludeme_analysis::{Syntax, decode_source, parse, parse_text};
use ludeme_lsp::PositionEncoding;
use ludeme_lsp::session::Session;
use proptest::prelude::*;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

/// Text that looks like game descriptions: brackets, operators, keywords, newlines, indentation,
/// non-ASCII characters, and a few arbitrary characters.
fn game_like_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(", ")", "[", "]", " ", "\n", "\n  ", "\t", ";", "#", "%", "?x", "<=", ":-", "&", "~",
        "|", "game", "role", "is", "like", "assert", "..", "2", "×", "x", "\"", "é", "𝄞", ",", ".",
        "A1", "-", ">=", "players", "\r\n", "++", "{", "}",
    ]);
    prop::collection::vec(
        prop_oneof![
            4 => pieces.prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

/// KIF-like text, balanced more often than not: forms, rules in odd places, comments, odd
/// whitespace and the characters the grammar rejects.
fn kif_like_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(", "(", ")", ")", "(<= ", "( <=", "<=", " ", "\n", "\t", "\r\n", "\x0c", ";c\n", "; é\n",
        "?x", "?", "role", "true", "not", "distinct", "or", "1", "10", "1st", "a?b", "++", "é",
        "\"", "#", ",", "\x01", "\u{a0}",
    ]);
    (prop::collection::vec(pieces, 0..60), any::<bool>()).prop_map(|(parts, balance)| {
        let mut text = parts.concat();
        if balance {
            let open = text.matches('(').count();
            let closed = text.matches(')').count();
            text.push_str(&")".repeat(open.saturating_sub(closed)));
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The fast KIF reader accepts only error-free text and reads the grammar's forms.
    #[test]
    fn kif_reader_agrees_with_the_grammar(text in kif_like_text()) {
        if let Some(forms) = read_kif(&text) {
            let parse = parse_text(Syntax::GdlKif, &text, None);
            prop_assert!(!parse.root().has_error(), "accepted with errors: {:?}", text);
            prop_assert_eq!(forms, Forms::from_tree(parse.root()), "{:?}", text);
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(text) = decode_source(&bytes) {
            for syntax in Syntax::ALL {
                analyse_text(syntax, text);
            }
        }
    }

    #[test]
    fn game_like_text_never_panics(text in game_like_text()) {
        for syntax in Syntax::ALL {
            analyse_text(syntax, &text);
        }
    }
}

/// One change as a client could send it, positions possibly out of range.
fn change() -> impl Strategy<Value = (Option<(u32, u32, u32, u32)>, String)> {
    (
        prop::option::weighted(0.95, (0..30u32, 0..50u32, 0..30u32, 0..50u32)),
        game_like_text().prop_map(|text| text.chars().take(12).collect::<String>()),
    )
}

fn seed_games() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "file:///w/ttt.ludi",
            "(game Tic-Tac-Toe\n  (players White Black)\n  (board (tiling square i-nbors) (size 3 3))\n  (end (All win (in-a-row 3)))\n)\n",
        ),
        (
            "file:///w/ttt.kif",
            "(role xplayer)\n(<= (legal ?p (mark ?x ?y))\n    (true (cell ?x ?y b))\n    (true (control ?p)))\n",
        ),
        (
            "file:///w/ttt.hrf",
            "role(x)\nlegal(P,mark(M,N)) :-\n  true(cell(M,N,b)) &\n  true(control(P))\n",
        ),
        (
            "file:///w/rps.egg",
            "move is choose\nBeat means player(Rock) and opponent(Scissors) or\n    player(Paper) and opponent(Rock)\n3 × 1 grid\n",
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn incremental_reparse_matches_a_fresh_parse(
        game in 0..4usize,
        encoding in prop::bool::ANY,
        changes in prop::collection::vec(prop::collection::vec(change(), 1..3), 1..25),
    ) {
        let (uri, text) = seed_games()[game];
        let uri: Uri = uri.parse().unwrap();
        let encoding = if encoding { PositionEncoding::Utf16 } else { PositionEncoding::Utf8 };
        let mut session = Session::new(encoding);
        prop_assert!(session.open(uri.clone(), "", text, 1));
        for (version, batch) in changes.into_iter().enumerate() {
            let events: Vec<TextDocumentContentChangeEvent> = batch
                .into_iter()
                .map(|(range, text)| TextDocumentContentChangeEvent {
                    range: range.map(|(l1, c1, l2, c2)| {
                        Range::new(Position::new(l1, c1), Position::new(l2, c2))
                    }),
                    range_length: None,
                    text,
                })
                .collect();
            prop_assert!(session.change(&uri, version as i32 + 2, &events));
            let snapshot = session.snapshot(&uri).unwrap();
            let text = snapshot.document.text();
            prop_assert_eq!(snapshot.file.text(&snapshot.db).as_ref(), text.as_str());
            let incremental = parse(&snapshot.db, snapshot.file).root();
            let fresh = parse_text(snapshot.file.syntax(&snapshot.db), &text, None);
            let fresh = fresh.root();
            // Tree-sitter's error recovery may shape the error region of broken text differently
            // when re-parsing; valid text must give the very same tree.
            prop_assert_eq!(incremental.has_error(), fresh.has_error(), "text {:?}", text);
            if !fresh.has_error() {
                prop_assert_eq!(incremental.to_sexp(), fresh.to_sexp(), "text {:?}", text);
            }
        }
    }
}

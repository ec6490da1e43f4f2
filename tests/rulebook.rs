//! `ludeme explain FILE`: rulebooks, the rules as a player reads them, in every language.
//! Snapshots of the games issue 26 names (each read against the game's real rules before it
//! was accepted); tic-tac-toe named in full within three sentences in all three languages;
//! and every game of `corpus/` and the shared corpus free of empty clauses, code names and
//! sentences too long to follow, with every rule in the literal level.

mod support;

use std::path::Path;
use std::sync::Arc;

use ludeme_analysis::gdl::english::{gdl_explanation, gdl_rulebook};
use ludeme_analysis::gdl::gdl_rules;
use ludeme_analysis::ludi::{ludi_explanation, ludi_rulebook, ludi_tree};
use ludeme_analysis::rulebook::{Rulebook, faults};
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};

use support::ludeme;

const REPOSITORY: &str = "../shared/corpus/gdl/ggp-repository";

fn source_file(db: &RootDatabase, path: &Path) -> (SourceFile, String) {
    let text = std::fs::read_to_string(path).unwrap();
    let syntax = Syntax::detect(path, &text).expect("a game file");
    let file = SourceFile::new(
        db,
        path.to_path_buf(),
        syntax,
        Arc::from(text.as_str()),
        None,
    );
    (file, text)
}

#[test]
fn the_issues_games_as_rulebooks() {
    let mut games = vec![
        "corpus/gdl/ticTacToe.kif",
        "corpus/ludi/tic-tac-toe.ludi",
        "corpus/egg/tic-tac-toe.egg",
        "corpus/ludi/yavalath.ludi",
        "corpus/ludi/hex.ludi",
        "corpus/ludi/breakthrough.ludi",
        "corpus/egg/poker.egg",
        "corpus/egg/rock-paper-scissors.egg",
    ];
    let shared: Vec<String> = ["connectFour.kif", "breakthrough.kif", "chess.kif"]
        .iter()
        .map(|game| format!("{REPOSITORY}/{game}"))
        .collect();
    if support::shared_corpus().is_some() {
        games.extend(shared.iter().map(String::as_str));
    }
    for game in games {
        let name = game.rsplit('/').next().unwrap().replace('.', "_");
        insta::assert_snapshot!(name, support::rulebook(game));
    }
}

/// The issue: "The tic-tac-toe rulebooks name the board, the marks, the turn order and the
/// three-in-a-row goal within their first three sentences, in all three languages."
#[test]
fn tic_tac_toe_is_named_in_three_sentences_in_every_language() {
    let db = RootDatabase::default();
    let root = support::project_root();
    let checks: [(&str, [&str; 4]); 3] = [
        // (game, [board, marks, turn order, three in a row])
        (
            "corpus/gdl/ticTacToe.kif",
            [
                "3×3 board",
                "marked x or o",
                "with xplayer first",
                "three cells in a line",
            ],
        ),
        (
            "corpus/ludi/tic-tac-toe.ludi",
            [
                "3×3 square board",
                "a piece of their colour",
                "White first",
                "a line of 3",
            ],
        ),
        (
            "corpus/egg/tic-tac-toe.egg",
            [
                "3 × 3 grid",
                "pieces X and O",
                "x first",
                "three pieces in a row",
            ],
        ),
    ];
    for (game, wanted) in checks {
        let (file, _) = source_file(&db, &root.join(game));
        let book: &Rulebook = match file.syntax(&db) {
            Syntax::Ludi => ludi_rulebook(&db, file),
            Syntax::Egg => ludeme_analysis::egg::egg_rulebook(&db, file),
            _ => gdl_rulebook(&db, file),
        };
        let first_three: Vec<&str> = book.sentences().take(3).collect();
        let opening = first_three.join(" ");
        for phrase in wanted {
            assert!(
                opening.contains(phrase),
                "{game}: {phrase:?} is not in the first three sentences: {opening}"
            );
        }
    }
}

/// The sentences the issue quotes no longer occur for the games they came from.
#[test]
fn the_quoted_sentences_are_gone() {
    // Wrapping aside: one space between words.
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let kitchen_sink = flat(support::rulebook("tests/fixtures/ludi/every-ludeme.ludi"));
    let hex = flat(support::rulebook("corpus/ludi/hex.ludi"));
    let achi = flat(support::rulebook("corpus/ludi/achi.ludi"));
    let tic_tac_toe = flat(support::explain("corpus/gdl/ticTacToe.kif"));
    let poker = flat(support::rulebook("corpus/egg/poker.egg"));
    for (text, gone) in [
        (&kitchen_sink, "not the destination"),
        (&kitchen_sink, "not the number of empty cells"),
        (
            &kitchen_sink,
            "having no move on their turn and connecting their own regions with a chain of their pieces or building",
        ),
        (&achi, "Piece pieces"),
        (&tic_tac_toe, "open holds when cell (M, N) is b."),
        (&poker, "StraightFlush"),
        (&poker, "A HighCard is one card"),
        (&poker, "Discard N from the hand"),
        (&poker, "4 cards if Ace"),
    ] {
        assert!(!text.contains(gone), "{gone:?} still in:\n{text}");
    }
    // The paper's Fig. 14: "a line that contains either no empty spaces or a single enemy piece".
    assert!(
        kitchen_sink.contains("either no empty cells lie between the origin and the destination"),
        "{kitchen_sink}"
    );
    assert!(
        kitchen_sink
            .contains("exactly one enemy piece lies between the origin and the destination"),
        "{kitchen_sink}"
    );
    assert!(
        tic_tac_toe.contains("open holds when cell (M, N) is b for some M and N."),
        "{tic_tac_toe}"
    );
    assert!(!hex.contains("orthogonal"), "{hex}");
    assert!(poker.contains("straight flush"), "{poker}");
    assert!(poker.contains("or 4 cards if you hold an ace"), "{poker}");
}

/// The three GDL idioms that came last: a step counter read as a move limit (maze: `step`
/// starts at 1 and the game ends at 10, so after 9 moves), goal tables said once for symmetric
/// players, and what each player sees in a GDL-II game (a Monty Hall fixture, snapshot read
/// against its rules).
#[test]
fn move_limits_symmetric_goals_and_what_players_see() {
    let flat = |text: String| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let monty = support::rulebook("tests/fixtures/rulebook/montyHall.kif");
    insta::assert_snapshot!("montyHall_kif", monty);
    let monty = flat(monty);
    assert!(monty.contains("The game ends after 4 rounds."), "{monty}");
    assert!(
        monty.contains("candidate sees opened (D) when random does open door (D)."),
        "{monty}"
    );
    assert!(
        monty.contains("A puzzle for one player, candidate."),
        "{monty}"
    );
    if support::shared_corpus().is_none() {
        return;
    }
    let maze = flat(support::rulebook(&format!("{REPOSITORY}/maze.kif")));
    assert!(
        maze.contains("The game ends after 9 moves, or when gold is a."),
        "{maze}"
    );
    assert!(!maze.contains("step is 10"), "{maze}");
    let connect_four = flat(support::rulebook(&format!("{REPOSITORY}/connectFour.kif")));
    assert!(
        connect_four.contains("A player wins (100) when they have four pieces in a line."),
        "{connect_four}"
    );
    assert!(!connect_four.contains("black wins (100)"), "{connect_four}");
}

/// A capture of the direct neighbours on a hexagonal board has no "orthogonal" about it.
#[test]
fn adjacency_words_fit_the_tiling() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hex-capture.ludi");
    std::fs::write(
        &path,
        "(game Hexcap (players White Black) (board (tiling hex) (size 4))
           (pieces (Stone All (moves (move (pre (empty to)) (action (push)) (post (capture d-nbors))))))
           (end (All win (capture 3))))",
    )
    .unwrap();
    let text = support::rulebook(path.to_str().unwrap())
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("capture the enemy pieces adjacent to the destination"),
        "{text}"
    );
    assert!(!text.contains("orthogonal"), "{text}");
    assert!(text.contains("Each player has stones."), "{text}");
}

/// A file with an error: the rule that cannot be read says so, with its line, and the command
/// exits 1 after printing what it could.
#[test]
fn an_unreadable_rule_is_said_and_the_exit_status_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ludi");
    std::fs::write(
        &path,
        "(game Bad\n  (players White Black)\n  (board (tiling square) (size 3 3))\n  (end (All win (in-a-rwo 3))))\n",
    )
    .unwrap();
    let output = ludeme(&["explain", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("3×3 square board"), "{text}");
    assert!(
        text.contains("(a rule that could not be read: line 4)"),
        "{text}"
    );
    assert!(!text.contains("wins by ."), "{text}");
}

/// GDL and EGGG name what they could not read, by its line: a malformed part of a rule on the
/// rule's sentence, a form or statement read as nothing as a note of its own.
#[test]
fn past_a_hundred_unreadable_parts_the_rest_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let egg = dir.path().join("many.egg");
    let statements: String = (1..=150).map(|n| format!("zzz qqq {n}\n")).collect();
    std::fs::write(&egg, format!("game is Many\n{statements}")).unwrap();
    let output = ludeme(&["explain", egg.to_str().unwrap()]);
    let text = String::from_utf8(output.stdout).unwrap();
    // Statements on lines 2 to 151: the first hundred named, the last fifty counted.
    assert!(
        text.contains("(a statement that could not be read: line 101)"),
        "{text}"
    );
    assert!(!text.contains("line 102)"), "{text}");
    assert!(
        text.contains("(50 more statements could not be read; `ludeme check` lists them)"),
        "{text}"
    );
}

#[test]
fn unreadable_gdl_and_eggg_parts_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let gdl = dir.path().join("bad.kif");
    std::fs::write(
        &gdl,
        "(role x)\n(role o)\n(<= (legal x noop))\n(<= (goal x 100) (true (cell 1 x)) (not))\n(<=)\n(<= terminal (true (cell 1 x)))\n",
    )
    .unwrap();
    let output = ludeme(&["explain", gdl.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains(
            "x wins (100) when cell (1, x) holds (part of this rule, at line 4, could not be read)."
        ),
        "{text}"
    );
    assert!(
        text.contains("(a rule that could not be read: line 5)"),
        "{text}"
    );
    let egg = dir.path().join("bad.egg");
    std::fs::write(
        &egg,
        "game is tic\nplayers are x and o\nturns alternate\n3 x 3 grid\nfoo bar baz qux\nmove is place\n",
    )
    .unwrap();
    for arguments in [vec!["explain"], vec!["explain", "--literal"]] {
        let mut arguments = arguments;
        arguments.push(egg.to_str().unwrap());
        let text = String::from_utf8(ludeme(&arguments).stdout).unwrap();
        assert!(
            text.contains("(a statement that could not be read: line 5)"),
            "{arguments:?}: {text}"
        );
        assert!(text.contains("place a piece"), "{text}");
    }
}

/// Every game of `corpus/` and of the shared corpus: the rulebook has no empty clause, no code
/// name in place of words and no sentence of more than 60 words; the literal level renders
/// every rule (GDL: each rule's range is in some sentence; Ludi: each move, start, end and
/// support clause).
#[test]
fn every_corpus_rulebook_reads_as_english() {
    let root = support::project_root();
    let db = RootDatabase::default();
    let mut problems = Vec::new();
    let mut gdl_files = support::files_with_extensions(&root.join("corpus/gdl"), &["kif", "hrf"]);
    if let Some(shared) = support::shared_corpus() {
        gdl_files.extend(support::files_with_extensions(
            &shared.join("gdl"),
            &["kif", "hrf", "gdl"],
        ));
    }
    assert!(!gdl_files.is_empty());
    for path in &gdl_files {
        let (file, _) = source_file(&db, path);
        let found = gdl_rulebook(&db, file).faults();
        problems.extend(
            found
                .into_iter()
                .map(|f| format!("{}: {f}", path.display())),
        );
        let covered: Vec<_> = gdl_explanation(&db, file)
            .sections
            .iter()
            .flat_map(|section| &section.items)
            .flat_map(|item| &item.ranges)
            .collect();
        for rule in &gdl_rules(&db, file).rules.rules {
            if !covered.iter().any(|range| range.contains(rule.range.start)) {
                problems.push(format!(
                    "{}: the rule at {:?} is not in the literal level",
                    path.display(),
                    rule.range
                ));
            }
        }
    }
    for path in support::files_with_extensions(&root.join("corpus/ludi"), &["ludi"]) {
        let (file, _) = source_file(&db, &path);
        let found = ludi_rulebook(&db, file).faults();
        problems.extend(
            found
                .into_iter()
                .map(|f| format!("{}: {f}", path.display())),
        );
        let sheet = ludi_explanation(&db, file);
        let Some(game) = &ludi_tree(&db, file).game else {
            problems.push(format!("{}: no game", path.display()));
            continue;
        };
        let mut clauses = Vec::new();
        for part in ["start", "play", "end", "support"] {
            for node in game.child(part).iter().flat_map(|node| node.args.iter()) {
                clauses.push(node.value.range());
            }
        }
        game.walk(&mut |node| {
            if node.name() == "move" {
                clauses.push(node.range);
            }
        });
        for clause in clauses {
            if !sheet.sentences.iter().any(|s| {
                s.ranges
                    .iter()
                    .any(|r| r.start <= clause.start && clause.end <= r.end)
            }) {
                problems.push(format!(
                    "{}: {clause:?} is not in the literal level",
                    path.display()
                ));
            }
        }
    }
    // EGGG games read their bases (`is like`) through the command's project.
    for path in support::files_with_extensions(&root.join("corpus/egg"), &["egg"]) {
        // The first line is the title, a name.
        let text = support::rulebook(path.to_str().unwrap());
        let (_, body) = text.split_once('\n').unwrap_or_default();
        problems.extend(
            faults(body)
                .into_iter()
                .map(|f| format!("{}: {f}", path.display())),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

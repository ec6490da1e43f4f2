//! The ludeme distance (docs/distance.md): its invariances, its orderings on the corpus, the
//! classes, the CLI's JSON, and its properties on random trees.
//!
//! One test runs over `../shared/corpus/gdl/ggp-repository` and says so loudly (and skips) when
//! that corpus is absent.

mod support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ludeme_analysis::distance::weighted::VARIANT_AT_MOST;
use ludeme_analysis::distance::{
    ChildOrder, Class, LudemeTree, NodeKind, TreeBuilder, compare, distance, ludeme_tree,
};
use ludeme_analysis::gdl::format_gdl_text;
use ludeme_analysis::{RootDatabase, SourceFile, Syntax};
use proptest::prelude::*;
use serde_json::Value;

use support::{ludeme, project_root};

/// The distance between two game texts (each with a file name giving its language).
fn text_distance(first: (&str, &str), second: (&str, &str)) -> f64 {
    let db = RootDatabase::default();
    let file = |(name, text): (&str, &str)| {
        let path = PathBuf::from(name);
        let syntax = Syntax::detect(&path, text).expect("a game file name");
        SourceFile::new(&db, path, syntax, Arc::from(text), None)
    };
    let (a, b) = (file(first), file(second));
    distance(ludeme_tree(&db, a), ludeme_tree(&db, b))
}

fn ludi(first: &str, second: &str) -> f64 {
    text_distance(("a.ludi", first), ("b.ludi", second))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(project_root().join(path)).expect("a corpus file")
}

const TIC_TAC_TOE: &str = "corpus/ludi/tic-tac-toe.ludi";

// ── Invariances ─────────────────────────────────────────────────────────────────────────

#[test]
fn reordering_the_parts_of_a_ludeme_gives_zero() {
    assert_eq!(
        ludi(
            "(game G (players White Black) (board (size 5) (tiling hex)) (end (All win (in-a-row 4))))",
            "(game G (players White Black) (board (tiling hex) (size 5)) (end (All win (in-a-row 4))))",
        ),
        0.0
    );
    // The sections of `game`, and the clauses of `end`, are sets too.
    assert_eq!(
        ludi(
            "(game G (players White Black) (board (tiling hex) (size 5)) (end (All win (in-a-row 4)) (All lose (in-a-row 3))))",
            "(game G (end (All lose (in-a-row 3)) (All win (in-a-row 4))) (board (size 5) (tiling hex)) (players White Black))",
        ),
        0.0
    );
}

#[test]
fn renaming_a_game_or_its_players_gives_zero() {
    let original = read(TIC_TAC_TOE);
    let renamed = original
        .replace("White", "Red")
        .replace("Black", "Blue")
        .replace("(game Tic-Tac-Toe", "(game Noughts");
    assert_eq!(ludi(&original, &renamed), 0.0);
}

#[test]
fn meaningful_order_still_counts() {
    // The dimensions of a board, and the two sides of a comparison, keep their places.
    let board = |size: &str| {
        format!(
            "(game G (players White Black) (board (tiling square) (size {size})) (end (All win (in-a-row 3))))"
        )
    };
    assert!(ludi(&board("3 4"), &board("4 3")) > 0.0);
    let teiglith = read("corpus/ludi/teiglith.ludi");
    let swapped = teiglith.replace(
        "(> (group-size to) (phase to))",
        "(> (phase to) (group-size to))",
    );
    assert_ne!(teiglith, swapped, "the comparison is in the corpus game");
    assert!(ludi(&teiglith, &swapped) > 0.0);
}

#[test]
fn reordering_eggg_statements_and_and_lists_gives_zero() {
    let first = "players are white and black\nturns alternate\nboard is 3 x 3 grid\n";
    let second = "board is 3 x 3 grid\nplayers are Black and White\nturns alternate\n";
    assert_eq!(text_distance(("a.egg", first), ("b.egg", second)), 0.0);
    let third = "board is 4 x 4 grid\nplayers are Black and White\nturns alternate\n";
    assert!(text_distance(("a.egg", first), ("c.egg", third)) > 0.0);
}

const SMALL_GDL: &str = "\
(role xplayer) (role oplayer)
(init (control xplayer))
(<= (legal ?player (mark ?x ?y)) (true (cell ?x ?y b)) (true (control ?player)))
(<= (next (cell ?m ?n ?w)) (does ?w (mark ?m ?n)) (true (cell ?m ?n b)))
(<= (next (control oplayer)) (true (control xplayer)))
(<= terminal (true (cell ?a ?b ?c)) (distinct ?c b) (not open))
(<= open (true (cell ?m ?n b)))
(<= (goal xplayer 100) (line x))
";

#[test]
fn renaming_gdl_variables_gives_zero() {
    let renamed = SMALL_GDL
        .replace("?player", "?who")
        .replace("?x", "?column")
        .replace("?y", "?row")
        .replace("?m", "?q")
        .replace("?n", "?m")
        .replace("?w", "?n")
        .replace("?a", "?i")
        .replace("?c", "?k");
    assert_ne!(renamed, SMALL_GDL);
    assert_eq!(
        text_distance(("a.kif", SMALL_GDL), ("b.kif", &renamed)),
        0.0
    );
}

/// The top-level forms of a KIF text without comments.
fn kif_forms(text: &str) -> Vec<String> {
    let mut forms = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or_default();
        for c in line.chars() {
            current.push(c);
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        forms.push(current.trim().to_owned());
                        current.clear();
                    }
                }
                _ => {}
            }
        }
        current.push('\n');
    }
    forms
}

#[test]
fn reordering_gdl_rules_and_bodies_gives_zero() {
    let text = read("corpus/gdl/ticTacToe.kif");
    let forms = kif_forms(&text);
    assert!(forms.len() > 20, "the game has its rules");
    // Every rule in reverse order, except that the roles keep theirs: the order of the `role`
    // facts is the order of the players in the game protocol, which means something.
    let (roles, rules): (Vec<&String>, Vec<&String>) =
        forms.iter().partition(|form| form.starts_with("(role "));
    assert_eq!(roles.len(), 2);
    let reversed: Vec<&str> = roles
        .into_iter()
        .chain(rules.into_iter().rev())
        .map(String::as_str)
        .collect();
    let reversed = reversed.join("\n");
    assert_eq!(text_distance(("a.kif", &text), ("b.kif", &reversed)), 0.0);
    // A body in another order.
    let body_swapped = SMALL_GDL.replace(
        "(true (cell ?x ?y b)) (true (control ?player))",
        "(true (control ?player)) (true (cell ?x ?y b))",
    );
    assert_ne!(body_swapped, SMALL_GDL);
    assert_eq!(
        text_distance(("a.kif", SMALL_GDL), ("b.kif", &body_swapped)),
        0.0
    );
}

#[test]
fn a_gdl_game_and_its_infix_translation_are_duplicates() {
    let kif = read("corpus/gdl/ticTacToe.kif");
    let infix = format_gdl_text(&kif, Syntax::GdlKif, Syntax::GdlInfix).expect("it converts");
    let d = text_distance(("a.kif", &kif), ("a.hrf", &infix));
    assert_eq!(Class::of(d), Class::Duplicate, "distance {d}");
}

#[test]
fn the_corpus_kif_and_infix_tic_tac_toe_are_one_game_written_two_ways() {
    // The two files are the same game but not the same rules: the infix file names its roles
    // x and o and marks cells with the role's name in one `next` rule where the KIF file has
    // one rule per role. So they are close variants, not duplicates (docs/distance.md).
    let d = text_distance(
        ("a.kif", &read("corpus/gdl/ticTacToe.kif")),
        ("a.hrf", &read("corpus/gdl/ticTacToe.hrf")),
    );
    assert_eq!(Class::of(d), Class::Variant, "distance {d}");
}

// ── Weighting ───────────────────────────────────────────────────────────────────────────

fn tic_tac_toe_with(from: &str, to: &str) -> f64 {
    let original = read(TIC_TAC_TOE);
    let changed = original.replace(from, to);
    assert_ne!(original, changed, "{from} is in the game");
    ludi(&original, &changed)
}

#[test]
fn a_parameter_change_is_a_variant() {
    for (from, to) in [
        ("(size 3 3)", "(size 4 4)"),
        ("(in-a-row 3)", "(in-a-row 2)"),
    ] {
        let d = tic_tac_toe_with(from, to);
        assert_eq!(Class::of(d), Class::Variant, "{from} → {to}: {d}");
    }
}

#[test]
fn parameter_changes_are_graded() {
    assert!(
        tic_tac_toe_with("(size 3 3)", "(size 4 3)")
            < tic_tac_toe_with("(size 3 3)", "(size 19 3)")
    );
    assert!(
        tic_tac_toe_with("(in-a-row 3)", "(in-a-row 4)")
            < tic_tac_toe_with("(in-a-row 3)", "(in-a-row 9)")
    );
}

#[test]
fn swapping_the_end_condition_is_farther_than_any_parameter_change() {
    let original = read(TIC_TAC_TOE);
    // Every integer of the game, changed to every value from 1 to 100 in turn.
    let mut farthest_parameter_change: f64 = 0.0;
    let digits: Vec<(usize, char)> = original
        .char_indices()
        .filter(|(at, c)| {
            c.is_ascii_digit() && !original[..*at].ends_with(|p: char| p.is_alphanumeric())
        })
        .filter(|(at, _)| {
            // Only numbers inside the game, not in its comments.
            let line_start = original[..*at].rfind('\n').map_or(0, |i| i + 1);
            !original[line_start..*at].contains(';')
        })
        .collect();
    assert!(digits.len() >= 3, "the game has parameters");
    for &(at, _) in &digits {
        for value in [1, 2, 4, 5, 10, 19, 100] {
            let changed = format!("{}{value}{}", &original[..at], &original[at + 1..]);
            farthest_parameter_change = farthest_parameter_change.max(ludi(&original, &changed));
        }
    }
    for condition in ["(no-move)", "(group 3)", "(capture 3)", "(stack 3)"] {
        let swapped = tic_tac_toe_with("(in-a-row 3)", condition);
        assert!(
            swapped > farthest_parameter_change,
            "{condition}: {swapped} ≤ {farthest_parameter_change}"
        );
    }
}

// ── The corpus ──────────────────────────────────────────────────────────────────────────

/// Distances from one corpus game to every other game of `corpus/ludi`, by file stem.
fn distances_from(game: &str) -> Vec<(String, f64)> {
    let db = RootDatabase::default();
    let folder = project_root().join("corpus/ludi");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("corpus/ludi")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    files.sort();
    let load = |path: &Path| {
        let text = std::fs::read_to_string(path).expect("readable");
        SourceFile::new(&db, path.to_path_buf(), Syntax::Ludi, Arc::from(text), None)
    };
    let target = load(&folder.join(format!("{game}.ludi")));
    let target_tree = ludeme_tree(&db, target);
    files
        .iter()
        .filter(|path| path.file_stem().is_some_and(|stem| stem != game))
        .map(|path| {
            let other = load(path);
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, distance(target_tree, ludeme_tree(&db, other)))
        })
        .collect()
}

#[test]
fn tic_tac_toe_is_nearest_to_its_variants() {
    let distances = distances_from("tic-tac-toe");
    let to = |stem: &str| {
        distances
            .iter()
            .find(|(name, _)| name == stem)
            .unwrap_or_else(|| panic!("{stem} in corpus/ludi"))
            .1
    };
    let variants = [
        "tic-tac-toe-misere",
        "tic-tac-toe-3d",
        "tic-tac-toe-2x2",
        "tic-tac-toe-in-a-row-2",
    ];
    let farthest_variant = variants.iter().map(|v| to(v)).fold(0.0, f64::max);
    // The N-in-a-row family (Tic-Tac-Toe 4×4 and 3-D misère, Qubic, Gomoku and its versions)
    // changes only parameters, or the same rule, so it may come nearer than the misère variant.
    let in_a_row_family = |stem: &str| {
        ["tic-tac-toe", "gomoku", "qubic"]
            .iter()
            .any(|family| stem.starts_with(family))
    };
    for (stem, d) in &distances {
        if !in_a_row_family(stem) {
            assert!(
                farthest_variant < *d,
                "a variant at {farthest_variant} is farther than {stem} at {d}"
            );
        }
    }
    for variant in variants {
        assert_eq!(Class::of(to(variant)), Class::Variant, "{variant}");
    }
    assert!(
        to("yavalath") < to("teiglith"),
        "Yavalath nearer than Teiglith"
    );
    assert_eq!(Class::of(to("yavalath")), Class::NewGame);
    assert_eq!(Class::of(to("teiglith")), Class::NewGame);
}

#[test]
fn differences_name_the_end_condition_first() {
    let db = RootDatabase::default();
    let load = |name: &str, text: String| {
        SourceFile::new(
            &db,
            PathBuf::from(name),
            Syntax::Ludi,
            Arc::from(text),
            None,
        )
    };
    let original = read(TIC_TAC_TOE);
    let changed = original.replace("(in-a-row 3)", "(in-a-row 2)");
    let (a, b) = (load("a.ludi", original), load("b.ludi", changed));
    let comparison = compare(ludeme_tree(&db, a), ludeme_tree(&db, b));
    let first = comparison.differences.first().expect("a difference");
    assert_eq!(
        first.to_string(),
        "end condition: (in-a-row 3) → (in-a-row 2)"
    );
    let total: f64 = comparison.differences.iter().map(|d| d.weight).sum();
    assert!(
        (total - comparison.distance).abs() < 1e-9,
        "{total} vs {comparison:?}"
    );
}

/// The families of the repository's games named in the issue: a game's older or renamed
/// versions.
const FAMILIES: &[&[&str]] = &[
    &[
        "ticTacToe",
        "ticTacToeLarge",
        "ticTacToeLargeSuicide",
        "ticTacToeNoVars",
        "ticTacToeParallel",
        "ticTacToeSerial",
        "tictactoe2",
        "tictactoe-init1",
        "tictactoe_orthogonal",
    ],
    &[
        "breakthrough",
        "breakthroughHoles",
        "breakthroughSmall",
        "breakthroughSmallHoles",
        "breakthroughSuicide",
        "breakthroughSuicideSmall",
        "breakthroughWalls",
    ],
    &[
        "connectFour",
        "connectFourLarge",
        "connectFourLarger",
        "connectFourSimultaneous",
        "connectFourSuicide",
        "connectFourSuicide_7x7",
        "connectFour_9x6",
    ],
];

#[test]
fn repository_families_are_nearest_neighbours_far_more_often_than_chance() {
    let Some(shared) = support::shared_corpus() else {
        return;
    };
    let folder = shared.join("gdl/ggp-repository");
    let db = RootDatabase::default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("the repository folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "kif"))
        .collect();
    files.sort();
    let stems: Vec<String> = files
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("readable");
            SourceFile::new(&db, path.clone(), Syntax::GdlKif, Arc::from(text), None)
        })
        .collect();
    let trees: Vec<&LudemeTree> = sources.iter().map(|&f| ludeme_tree(&db, f)).collect();
    let (mut members, mut hits, mut chance) = (0usize, 0usize, 0.0);
    for family in FAMILIES {
        let present: Vec<usize> = family
            .iter()
            .filter_map(|name| stems.iter().position(|stem| stem == name))
            .collect();
        assert!(
            present.len() >= 3,
            "the family of {} is in the corpus",
            family[0]
        );
        for &game in &present {
            let nearest = (0..trees.len())
                .filter(|&other| other != game)
                .map(|other| (distance(trees[game], trees[other]), other))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .expect("other games")
                .1;
            members += 1;
            if present.contains(&nearest) {
                hits += 1;
            } else {
                eprintln!("{}: nearest is {}", stems[game], stems[nearest]);
            }
            chance += (present.len() - 1) as f64 / (trees.len() - 1) as f64;
        }
    }
    let share = hits as f64 / members as f64;
    let chance = chance / members as f64;
    eprintln!(
        "repository families: the nearest neighbour is of the family for {hits} of {members} games ({:.0}%); chance {:.1}%",
        share * 100.0,
        chance * 100.0
    );
    assert!(share >= 0.75, "share {share}");
    assert!(share >= 10.0 * chance, "share {share}, chance {chance}");
}

// ── The command line ────────────────────────────────────────────────────────────────────

fn json(args: &[&str]) -> Value {
    let output = ludeme(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON output")
}

#[test]
fn distance_json_has_the_distance_the_class_and_the_differences() {
    let report = json(&[
        "distance",
        TIC_TAC_TOE,
        "corpus/ludi/tic-tac-toe-misere.ludi",
        "--format",
        "json",
    ]);
    let d = report["distance"].as_f64().expect("a number");
    assert!(d > 0.0 && d <= VARIANT_AT_MOST);
    assert_eq!(report["class"], "variant");
    let differences = report["differences"].as_array().expect("a list");
    assert!(!differences.is_empty());
    assert!(differences.iter().all(Value::is_string));
    assert!(report["tree_edit_distance"].as_u64().is_some());
    assert!(report["jaccard_distance"].as_f64().is_some());
}

#[test]
fn nearest_lists_the_nearest_games_first() {
    let report = json(&[
        "nearest",
        TIC_TAC_TOE,
        "--corpus",
        "corpus/ludi",
        "-n",
        "4",
        "--format",
        "json",
    ]);
    let list = report.as_array().expect("a list");
    assert_eq!(list.len(), 4);
    let distances: Vec<f64> = list
        .iter()
        .map(|n| n["distance"].as_f64().unwrap())
        .collect();
    assert!(distances.windows(2).all(|w| w[0] <= w[1]), "{distances:?}");
    assert!(
        list.iter()
            .all(|n| n["file"].as_str().unwrap().contains("tic-tac-toe-")
                || ["qubic", "gomoku"]
                    .iter()
                    .any(|g| n["file"].as_str().unwrap().contains(g))),
        "{list:?}"
    );
}

#[test]
fn cluster_puts_the_tic_tac_toe_family_together_and_draws_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let svg = dir.path().join("families.svg");
    let report = json(&[
        "cluster",
        "corpus/ludi",
        "--format",
        "json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let families = report["families"].as_array().expect("families");
    let family_of = |name: &str| {
        families
            .iter()
            .position(|family| {
                family
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|file| file.as_str().unwrap().ends_with(name))
            })
            .unwrap_or_else(|| panic!("{name} is in a family"))
    };
    let tic_tac_toe = family_of("/tic-tac-toe.ludi");
    for variant in ["misere", "3d", "2x2", "in-a-row-2"] {
        assert_eq!(
            family_of(&format!("/tic-tac-toe-{variant}.ludi")),
            tic_tac_toe
        );
    }
    assert_ne!(family_of("/teiglith.ludi"), tic_tac_toe);
    let drawing = std::fs::read_to_string(&svg).expect("the SVG was written");
    assert!(drawing.starts_with("<svg") && drawing.contains("Tic-Tac-Toe-Misere"));
}

#[test]
fn cluster_writes_every_distance_exactly() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let matrix = dir.path().join("distances.tsv");
    json(&[
        "cluster",
        "corpus/ludi",
        "--format",
        "json",
        "--matrix",
        matrix.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&matrix).expect("the matrix was written");
    let rows: Vec<(String, Vec<f64>)> = text
        .lines()
        .map(|line| {
            let mut fields = line.split('\t');
            let path = fields.next().expect("a path").to_owned();
            let values = fields.map(|v| v.parse().expect("a number")).collect();
            (path, values)
        })
        .collect();
    let n = rows.len();
    assert!(n > 5, "{text}");
    for (i, (_, values)) in rows.iter().enumerate() {
        assert_eq!(values.len(), n);
        assert_eq!(values[i], 0.0);
        for (j, value) in values.iter().enumerate() {
            assert_eq!(*value, rows[j].1[i], "the matrix is symmetric");
        }
    }
    let row_of = |name: &str| {
        rows.iter()
            .position(|(path, _)| path.ends_with(name))
            .unwrap_or_else(|| panic!("{name} has a row"))
    };
    let (original, misere) = (
        row_of("/tic-tac-toe.ludi"),
        row_of("/tic-tac-toe-misere.ludi"),
    );
    let report = json(&[
        "distance",
        TIC_TAC_TOE,
        "corpus/ludi/tic-tac-toe-misere.ludi",
        "--format",
        "json",
    ]);
    assert_eq!(
        rows[original].1[misere],
        report["distance"].as_f64().expect("a number"),
        "the file holds the distance itself, to the last bit"
    );
}

#[test]
fn missing_files_are_a_usage_failure() {
    let output = ludeme(&["distance", "no-such-game.ludi", TIC_TAC_TOE]);
    assert_eq!(output.status.code(), Some(2));
}

// ── Properties on random trees ──────────────────────────────────────────────────────────

/// A random tree: a label from a small alphabet (so that trees share labels), a kind, whether
/// children are ordered, and children.
#[derive(Clone, Debug)]
struct RandomNode {
    label: u8,
    parameter: bool,
    unordered: bool,
    children: Vec<RandomNode>,
}

fn random_tree() -> impl Strategy<Value = RandomNode> {
    let leaf = (0u8..6, any::<bool>()).prop_map(|(label, parameter)| RandomNode {
        label,
        parameter,
        unordered: false,
        children: Vec::new(),
    });
    leaf.prop_recursive(4, 40, 5, |inner| {
        (0u8..6, any::<bool>(), prop::collection::vec(inner, 0..5)).prop_map(
            |(label, unordered, children)| RandomNode {
                label,
                parameter: false,
                unordered,
                children,
            },
        )
    })
}

/// Builds the tree; `reverse` lists the children of unordered nodes backwards.
fn build(root: &RandomNode, reverse: bool) -> LudemeTree {
    let mut builder = TreeBuilder::new();
    let mut stack = vec![(root, LudemeTree::ROOT)];
    while let Some((node, parent)) = stack.pop() {
        let kind = if node.parameter {
            NodeKind::Parameter
        } else {
            NodeKind::Structure
        };
        let label = if node.parameter {
            node.label.to_string()
        } else {
            format!("l{}", node.label)
        };
        let Some(id) = builder.add(parent, label, kind, 0, None) else {
            continue;
        };
        if node.unordered {
            builder.set_order(id, ChildOrder::Unordered);
        }
        let mut children: Vec<&RandomNode> = node.children.iter().collect();
        if reverse && node.unordered {
            children.reverse();
        }
        // The stack pops the last first: push in reverse to add in order.
        for child in children.into_iter().rev() {
            stack.push((child, id));
        }
    }
    builder.finish()
}

proptest! {
    #[test]
    fn distance_is_symmetric_in_range_and_zero_on_itself(a in random_tree(), b in random_tree()) {
        let (ta, tb) = (build(&a, false), build(&b, false));
        let (pa, pb) = (&ta, &tb);
        let ab = distance(pa, pb);
        prop_assert!((0.0..=1.0).contains(&ab));
        prop_assert_eq!(ab, distance(pb, pa));
        prop_assert_eq!(distance(pa, pa), 0.0);
    }

    #[test]
    fn unordered_children_may_come_in_any_order(a in random_tree()) {
        let (forward, backward) = (build(&a, false), build(&a, true));
        prop_assert_eq!(distance(&forward, &backward), 0.0);
    }

    #[test]
    fn differences_add_up_to_the_distance(a in random_tree(), b in random_tree()) {
        let (ta, tb) = (build(&a, false), build(&b, false));
        let comparison = compare(&ta, &tb);
        let total: f64 = comparison.differences.iter().map(|d| d.weight).sum();
        prop_assert!(total >= comparison.distance - 1e-9);
    }
}

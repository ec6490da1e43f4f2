//! `ludeme report`: one self-contained HTML page per game, in every language. The page is read
//! back with an HTML parser and each part is checked against what the other commands say of the
//! same game (`explain`, `probe`, `nearest`), so the test never hard-codes the figures.
//!
//! The probes are small (a few games, small budgets) so the test stays quick in the debug build.

mod support;

use scraper::{ElementRef, Html, Selector};
use serde_json::Value;
use support::{ludeme, project_root};

fn select<'a>(page: &'a Html, css: &str) -> Vec<ElementRef<'a>> {
    let selector = Selector::parse(css).expect("a valid selector");
    page.select(&selector).collect()
}

fn one<'a>(page: &'a Html, css: &str) -> ElementRef<'a> {
    let found = select(page, css);
    assert_eq!(found.len(), 1, "one {css} in the page");
    found[0]
}

fn text(element: ElementRef<'_>) -> String {
    // Spaces normalised: the page wraps its text as it likes.
    element
        .text()
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn normalised(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Writes the report of `game` (relative to the project root) with `options` into a temporary
/// file and parses it; the command must succeed quietly (its standard error is no terminal,
/// so no progress is drawn).
fn report(game: &str, options: &[&str]) -> (Html, String) {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let output_path = folder.path().join("report.html");
    let output_path = output_path.to_str().expect("a UTF-8 path");
    let mut args = vec!["report", game, "-o", output_path];
    args.extend(options);
    let output = ludeme(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "ludeme report {game}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "nothing on standard error when it is not a terminal: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let html = std::fs::read_to_string(output_path).expect("the report is written");
    (Html::parse_document(&html), html)
}

fn json(args: &[&str]) -> Value {
    let output = ludeme(args);
    assert!(
        output.status.success(),
        "ludeme {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// Nothing the page refers to is fetched from the network: no `src`, `href` or style sheet
/// outside the document, no script.
fn assert_self_contained(page: &Html, html: &str) {
    for element in select(page, "[src], [href], link, script, iframe, object, embed") {
        let tag = element.value().name();
        assert!(
            !matches!(tag, "script" | "link" | "iframe" | "object" | "embed"),
            "a <{tag}> in the page"
        );
        for attribute in ["src", "href"] {
            if let Some(target) = element.value().attr(attribute) {
                assert!(
                    target.starts_with('#'),
                    "<{tag} {attribute}=\"{target}\"> leaves the page"
                );
            }
        }
    }
    assert!(!html.contains("@import"), "a style sheet imported");
    assert!(!html.contains("url("), "a resource loaded by the style");
}

/// The English of the page's rules is the English `ludeme explain` prints.
fn assert_rules_are_explained(page: &Html, game: &str) {
    let explanation = normalised(&support::explain(game));
    let sentences = select(page, "#rules li");
    assert!(!sentences.is_empty(), "the rules of {game} are told");
    for sentence in sentences {
        let sentence = text(sentence);
        assert!(
            explanation.contains(&sentence),
            "{sentence:?} is in `ludeme explain {game}`: {explanation}"
        );
    }
}

/// The starting board is drawn inline: an SVG picture in the board's card.
fn board(page: &Html) -> ElementRef<'_> {
    one(page, "#board svg")
}

/// The verdict, reasons and figures are those of `ludeme probe` with the same settings.
fn assert_probe_agrees(page: &Html, game: &str, settings: &[&str]) {
    let mut args = vec!["probe", game, "--format", "json"];
    args.extend(settings);
    let probe = json(&args);
    let verdict = text(one(page, "#verdict .verdict"));
    let expected = if probe["viable"] == true {
        "Viable"
    } else {
        "Not viable"
    };
    assert_eq!(verdict, expected, "{probe}");
    let reasons: Vec<String> = select(page, "#verdict li").into_iter().map(text).collect();
    let probe_reasons: Vec<String> = probe["reasons"]
        .as_array()
        .expect("reasons")
        .iter()
        .map(|reason| normalised(reason.as_str().expect("a sentence")))
        .collect();
    assert_eq!(reasons, probe_reasons);
    let criteria: Vec<(String, String)> = select(page, "#criteria tbody tr")
        .into_iter()
        .map(|row| {
            let cells: Vec<String> = row.child_elements().map(text).collect();
            (cells[0].clone(), cells[1].clone())
        })
        .collect();
    let value_of = |name: &str| {
        criteria
            .iter()
            .find(|(criterion, _)| criterion == name)
            .map(|(_, value)| value.clone())
            .unwrap_or_else(|| panic!("{name} among the criteria {criteria:?}"))
    };
    for (name, key) in [
        ("drama", "drama"),
        ("uncertainty", "uncertainty"),
        ("lead change", "lead_change"),
        ("decisiveness", "decisiveness"),
    ] {
        let figure = probe[key].as_f64().expect("a number");
        assert_eq!(value_of(name), format!("{figure:.2}"), "{name}");
    }
    let completion = probe["completion"].as_f64().expect("a number") * 100.0;
    assert_eq!(value_of("completion"), format!("{completion:.0} %"));
}

/// The lead histories are drawn: one line and one legend entry per role, and the winner's lead.
fn assert_lead_histories(page: &Html, roles: &[&str]) {
    let figures = select(page, "#lead-histories figure.lead-history");
    assert!(!figures.is_empty(), "at least one lead history");
    for figure in figures {
        let svg = figure
            .select(&Selector::parse("svg").expect("a selector"))
            .next();
        let svg = svg.expect("a lead history drawn as SVG");
        let labels: Vec<String> = svg
            .select(&Selector::parse("text").expect("a selector"))
            .map(text)
            .collect();
        for role in roles {
            assert!(
                labels.iter().any(|label| label == role),
                "{role} in {labels:?}"
            );
        }
        assert!(
            labels.iter().any(|label| label == "ply"),
            "the moves across: {labels:?}"
        );
    }
}

#[test]
fn yavalath_has_board_english_verdict_lead_histories_and_nearest_games() {
    let game = "corpus/ludi/yavalath.ludi";
    let settings = ["--games", "4", "--seed", "3"];
    let (page, html) = report(game, &settings);
    assert_self_contained(&page, &html);
    assert_eq!(text(one(&page, "h1")), "Yavalath");

    // A hexagon of side 5 has 61 cells, each a polygon of the picture.
    let cells = board(&page)
        .select(&Selector::parse("polygon").expect("a selector"))
        .count();
    assert_eq!(cells, 61);

    assert_rules_are_explained(&page, game);
    assert_probe_agrees(&page, game, &settings);
    assert_lead_histories(&page, &["White", "Black"]);
    let lead_lines = select(&page, "#lead-histories svg text")
        .into_iter()
        .filter(|label| text(*label).ends_with("'s lead"))
        .count();
    assert!(
        lead_lines > 0,
        "the winner's lead is drawn in a decided game"
    );
    assert!(
        !text(one(&page, "#probe")).contains("no advisors"),
        "Ludi games are valued by their advisors"
    );
    let distributions = select(&page, "#distributions svg");
    assert_eq!(distributions.len(), 2, "the outcomes and the game lengths");

    // The nearest games are those of `ludeme nearest`, in its order and at its distances.
    let nearest = json(&["nearest", game, "--format", "json"]);
    let rows: Vec<Vec<String>> = select(&page, "#nearest tbody tr")
        .into_iter()
        .map(|row| row.child_elements().map(text).collect())
        .collect();
    let expected = nearest.as_array().expect("a list");
    assert_eq!(rows.len(), expected.len());
    for (row, neighbour) in rows.iter().zip(expected) {
        let distance = neighbour["distance"].as_f64().expect("a number");
        let class = neighbour["class"].as_str().expect("a class");
        assert_eq!(row[0], format!("{distance:.3} {class}"));
        assert_eq!(row[1], neighbour["game"].as_str().expect("a title"));
        assert_eq!(row[2], neighbour["file"].as_str().expect("a path"));
    }

    let diagnostics = text(one(&page, "#diagnostics"));
    assert!(diagnostics.contains("No problem found"), "{diagnostics}");
}

#[test]
fn a_gdl_game_gets_its_board_rules_and_probe() {
    let game = "corpus/gdl/ticTacToe.kif";
    let settings = ["--games", "2", "--move-nodes", "200"];
    let (page, html) = report(game, &settings);
    assert_self_contained(&page, &html);
    board(&page);
    // The GDL English comes in sections, each with its heading.
    assert!(select(&page, "#rules h3").len() > 1);
    assert_rules_are_explained(&page, game);
    assert_probe_agrees(&page, game, &settings);
    assert_lead_histories(&page, &["xplayer", "oplayer"]);
    // Without advisors the estimates stay even until the end, and the page says so.
    assert!(text(one(&page, "#probe")).contains("no advisors"));
    // Two games make no firm verdict, and the page says that beside it.
    assert_eq!(
        normalised(&text(one(&page, "#tentative"))),
        "tentative: judged on 2 games; a firm verdict needs 20"
    );
}

#[test]
fn an_eggg_game_gets_its_board_rules_and_probe() {
    let game = "corpus/egg/tic-tac-toe.egg";
    let settings = ["--games", "2", "--move-nodes", "200"];
    let (page, html) = report(game, &settings);
    assert_self_contained(&page, &html);
    board(&page);
    assert_rules_are_explained(&page, game);
    assert_probe_agrees(&page, game, &settings);
    let roles = json(&["probe", game, "--format", "json", "--games", "1"]);
    let roles: Vec<&str> = roles["wins"]
        .as_object()
        .expect("wins by role")
        .keys()
        .map(String::as_str)
        .collect();
    assert_lead_histories(&page, &roles);
}

/// Names from the game's file reach the page as text, never as markup.
#[test]
fn names_from_the_file_are_escaped() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    // Every character but the slash is allowed in a file name.
    let name = "<i>odd<b> & \"name\"";
    let path = folder.path().join(format!("{name}.kif"));
    let tic_tac_toe = project_root().join("corpus/gdl/ticTacToe.kif");
    std::fs::copy(&tic_tac_toe, &path).expect("a copy of tic-tac-toe");
    let (page, html) = report(path.to_str().expect("a UTF-8 path"), &["--no-probe"]);
    assert_eq!(text(one(&page, "h1")), name);
    assert!(select(&page, "i").is_empty(), "markup from the file's name");
    assert!(!html.contains("<i>odd"), "an unescaped name");
    assert!(
        text(one(&page, "#probe")).contains("Not probed"),
        "--no-probe leaves the probe out"
    );
}

/// A game that does not read still gets a page: what is wrong with it, and why it is not
/// played.
#[test]
fn a_broken_game_gets_its_diagnostics_instead_of_a_board() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("broken.ludi");
    std::fs::write(
        &path,
        "(game Broken\n  (players White Black)\n  (board (tiling hex)\n",
    )
    .expect("a broken game");
    let check = ludeme(&[
        "check",
        path.to_str().expect("a UTF-8 path"),
        "--format",
        "json",
    ]);
    let check: Value = serde_json::from_slice(&check.stdout).expect("check's JSON");
    let codes = codes_of(&check);
    assert!(!codes.is_empty(), "check finds what is wrong: {check}");
    let (page, _) = report(path.to_str().expect("a UTF-8 path"), &["--games", "1"]);
    assert!(
        select(&page, "#board svg").is_empty(),
        "no board for a broken game"
    );
    assert!(text(one(&page, "#board")).contains("cannot be played"));
    let shown: Vec<String> = select(&page, "#diagnostics code")
        .into_iter()
        .map(text)
        .collect();
    for code in codes {
        assert!(shown.contains(&code), "{code} in {shown:?}");
    }
}

/// The codes of the diagnostics of `ludeme check --format json`, whatever its nesting.
fn codes_of(value: &Value) -> Vec<String> {
    let mut codes = Vec::new();
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(code)), Some(Value::String(_))) =
                (map.get("code"), map.get("severity"))
            {
                codes.push(code.clone());
            }
            for value in map.values() {
                codes.extend(codes_of(value));
            }
        }
        Value::Array(values) => values.iter().for_each(|v| codes.extend(codes_of(v))),
        _ => {}
    }
    codes
}

/// The page is written where `-o` says, and to standard output without it.
#[test]
fn without_an_output_file_the_page_goes_to_standard_output() {
    let output = ludeme(&[
        "report",
        "corpus/ludi/tic-tac-toe.ludi",
        "--no-probe",
        "-n",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let html = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(html.starts_with("<!DOCTYPE html>"));
    let page = Html::parse_document(&html);
    assert_eq!(select(&page, "#nearest tbody tr").len(), 1);
}

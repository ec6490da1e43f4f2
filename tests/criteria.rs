//! `ludeme probe --criteria`: every criterion of the catalog is printed with its source, and
//! the JSON report holds every one and the aesthetic score.

mod support;

use ludeme_analysis::aesthetic::CRITERIA;
use serde_json::Value;
use support::ludeme;

fn yavalath() -> String {
    let path = support::project_root().join("corpus/ludi/yavalath.ludi");
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// The standard output of `ludeme probe` of four games of Yavalath with `options`, which must
/// succeed.
fn probe_yavalath(options: &[&str]) -> Vec<u8> {
    let game = yavalath();
    let mut args = vec!["probe", game.as_str(), "--games", "4"];
    args.extend(options);
    let output = ludeme(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

#[test]
fn criteria_all_prints_every_criterion_with_its_source() {
    let stdout = probe_yavalath(&["--criteria", "all"]);
    let text = String::from_utf8_lossy(&stdout);
    let (_, listed) = text.split_once("criteria:").expect("the criteria section");
    for criterion in CRITERIA {
        let line = listed
            .lines()
            .find(|line| {
                line.trim_start()
                    .starts_with(&format!("{} ", criterion.name))
            })
            .unwrap_or_else(|| panic!("{} in {text}", criterion.name));
        assert!(line.contains(criterion.source), "{line}");
    }
    assert!(text.contains("aesthetic score"), "{text}");
}

#[test]
fn the_json_report_holds_every_criterion_and_the_score() {
    let report: Value =
        serde_json::from_slice(&probe_yavalath(&["--format", "json"])).expect("JSON");
    let criteria = report["criteria"].as_object().expect("an object");
    assert_eq!(criteria.len(), CRITERIA.len());
    for criterion in CRITERIA {
        assert!(criteria.contains_key(criterion.name), "{}", criterion.name);
    }
    // Four games of Yavalath are all won: completion is measured and is 1.
    assert_eq!(criteria["completion"], 1.0);
    assert!(report["aesthetic_score"].is_number(), "{report}");
}

#[test]
fn an_unknown_criterion_is_refused_with_the_known_names() {
    let game = yavalath();
    let output = ludeme(&["probe", &game, "--games", "1", "--criteria", "fun"]);
    assert_eq!(output.status.code(), Some(2));
    let text = String::from_utf8_lossy(&output.stderr);
    assert!(
        text.contains("`fun` is not a criterion") && text.contains("uncertainty"),
        "{text}"
    );
}

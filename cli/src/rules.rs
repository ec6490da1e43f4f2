//! `ludeme rules`: every rule, for people (a table) or for tools (`--format json`: code, name,
//! default severity, whether it may carry a fix, summary, explanation and its example), as
//! `ruff rule --all --output-format json` does for Python.

use clap::ValueEnum;
use ludeme_analysis::rules::{self, Rule};
use serde_json::{Value, json};

use crate::exit;

/// Output formats of `ludeme rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// One line per rule: code, default severity, `[*]` when fixable, summary.
    Text,
    /// A JSON array with one object per rule.
    Json,
}

pub fn run(format: RulesFormat) -> u8 {
    let text = match format {
        RulesFormat::Text => rules::all()
            .map(|rule| {
                let fixable = if rules::is_fixable(rule) { "[*]" } else { "" };
                format!(
                    "{:<33} {:<8} {:<3} {}\n",
                    rule.code,
                    rule.severity.as_str(),
                    fixable,
                    rule.summary
                )
            })
            .collect(),
        RulesFormat::Json => {
            let all: Vec<Value> = rules::all().map(rule_json).collect();
            format!(
                "{}\n",
                serde_json::to_string_pretty(&all).expect("JSON values serialise")
            )
        }
    };
    // A closed pipe (`ludeme rules | head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes());
    exit::CLEAN
}

/// The example of `rule` as `explain CODE` prints it, after the explanation: empty when it has
/// none.
pub fn example_text(rule: &Rule) -> String {
    let Some(example) = rules::example_of(rule.code) else {
        return String::new();
    };
    let indent = |text: &str| {
        text.lines()
            .map(|line| {
                format!(
                    "    {line}
"
                )
            })
            .collect::<String>()
    };
    format!(
        "\nExample, from {}:\n\n  Wrong:\n{}\n  Right:\n{}",
        example.game,
        indent(example.wrong),
        indent(example.right)
    )
}

/// One rule as `--format json` lists it.
pub fn rule_json(rule: &Rule) -> Value {
    let example = rules::example_of(rule.code).map(|example| {
        json!({
            "game": example.game,
            "wrong": example.wrong,
            "right": example.right,
            "verbatim": example.verbatim,
        })
    });
    json!({
        "code": rule.code,
        "name": rule.code.split_once('/').map_or(rule.code, |(_, name)| name),
        "area": rule.code.split_once('/').map_or("", |(area, _)| area),
        "severity": rule.severity.as_str(),
        "fixable": rules::is_fixable(rule),
        "summary": rule.summary,
        "explanation": rule.explanation,
        "example": example,
    })
}

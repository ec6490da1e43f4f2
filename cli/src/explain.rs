//! `ludeme explain FILE`: a game's rules in plain English. `ludeme explain CODE`: the long form
//! of a diagnostic.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use clap::ValueEnum;
use ludeme_analysis::gdl::english::{GameExplanation, gdl_explanation};
use ludeme_analysis::{RootDatabase, Severity, SourceFile, Syntax, decode_source, rules};
use serde_json::{Value, json};

use crate::exit;
use crate::inputs::is_game_file;
use crate::report::FileReport;

/// Output formats of `ludeme explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// Plain text: section headings and one sentence per rule.
    Human,
    /// The structured form: sections, sentences, and the source ranges they come from.
    Json,
}

/// Plain text is wrapped at this many columns.
const TEXT_WIDTH: usize = 100;

pub fn run(target: Option<&str>, format: ExplainFormat) -> u8 {
    let Some(target) = target else {
        return list_codes(format);
    };
    let path = Path::new(target);
    if path.is_file() {
        if is_game_file(path) {
            return explain_file(path, format);
        }
        eprintln!(
            "ludeme explain: {target} is not a game file (.kif, .gdl, .hrf, .egg or .ludi) and no diagnostic has this code"
        );
        return exit::FAILURE;
    }
    if let Some(rule) = rules::find(target) {
        return explain_code(rule, format);
    }
    if is_game_file(path) || target.contains(['/', '\\']) {
        eprintln!("ludeme explain: {target}: no such file");
    } else {
        eprintln!(
            "ludeme explain: no diagnostic has the code `{target}` and no file has this name; `ludeme explain` lists the codes"
        );
    }
    exit::FAILURE
}

fn list_codes(format: ExplainFormat) -> u8 {
    let text = match format {
        ExplainFormat::Human => rules::all()
            .map(|rule| {
                format!(
                    "{:<28} {:<8} {}\n",
                    rule.code,
                    rule.severity.as_str(),
                    rule.summary
                )
            })
            .collect(),
        ExplainFormat::Json => format!("{}\n", Value::Array(rules::all().map(code_json).collect())),
    };
    emit(&text);
    exit::CLEAN
}

fn explain_code(rule: &rules::Rule, format: ExplainFormat) -> u8 {
    let text = match format {
        ExplainFormat::Human => format!(
            "{} ({})\n\n{}\n\n{}\n",
            rule.code,
            rule.severity.as_str(),
            rule.summary,
            rule.explanation
        ),
        ExplainFormat::Json => format!("{}\n", code_json(rule)),
    };
    emit(&text);
    exit::CLEAN
}

/// Writes to standard output. A closed pipe (`ludeme explain game.kif | head`) is not an error
/// worth a panic.
fn emit(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn code_json(rule: &rules::Rule) -> Value {
    json!({
        "code": rule.code,
        "severity": rule.severity.as_str(),
        "summary": rule.summary,
        "explanation": rule.explanation,
    })
}

fn explain_file(path: &Path, format: ExplainFormat) -> u8 {
    let shown = path.display();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("ludeme explain: {shown}: cannot read it: {error}");
            return exit::FAILURE;
        }
    };
    let text = match decode_source(&bytes) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("ludeme explain: {shown}: {}", error.diagnostic().message);
            return exit::FAILURE;
        }
    };
    let Some(syntax) = Syntax::detect(path, text) else {
        eprintln!("ludeme explain: {shown} is not a game file");
        return exit::FAILURE;
    };
    if matches!(syntax, Syntax::Egg | Syntax::Ludi) {
        eprintln!(
            "ludeme explain: {shown}: English for {} arrives with its analyses; today `ludeme explain` reads Stanford GDL (.kif, .gdl, .hrf)",
            syntax.display_name()
        );
        return exit::FAILURE;
    }
    let db = RootDatabase::default();
    let file = SourceFile::new(&db, path.to_path_buf(), syntax, Arc::from(text), None);
    let explanation = gdl_explanation(&db, file);
    let output = match format {
        ExplainFormat::Human => explanation.to_plain_text(TEXT_WIDTH),
        ExplainFormat::Json => {
            let report = FileReport::new(path.to_path_buf(), text.to_owned(), Vec::new());
            format!("{}\n", explanation_json(&report, explanation))
        }
    };
    emit(&output);
    let errors = ludeme_analysis::file_diagnostics(&db, file)
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        eprintln!(
            "ludeme explain: {shown} has {errors} error{plural}; the English covers what could be read (`ludeme check {shown}` lists them)"
        );
    }
    exit::CLEAN
}

/// The explanation with 1-based lines and columns, as `ludeme check --format json` gives them.
fn explanation_json(report: &FileReport, explanation: &GameExplanation) -> Value {
    let sections: Vec<Value> = explanation
        .sections
        .iter()
        .map(|section| {
            let items: Vec<Value> = section
                .items
                .iter()
                .map(|item| {
                    let ranges: Vec<Value> = item
                        .ranges
                        .iter()
                        .map(|&range| json!(report.span(range)))
                        .collect();
                    json!({ "text": item.text, "ranges": ranges })
                })
                .collect();
            json!({
                "kind": section.kind,
                "title": section.title,
                "note": section.note,
                "items": items,
            })
        })
        .collect();
    json!({ "file": report.display_path(), "sections": sections })
}

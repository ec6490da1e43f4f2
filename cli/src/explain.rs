//! `ludeme explain FILE`: a game's rules in plain English. `ludeme explain CODE`: the long form
//! of a diagnostic.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use clap::ValueEnum;
use ludeme_analysis::egg::{EggExplanation, egg_explanation, load_egg_workspace};
use ludeme_analysis::gdl::english::{GameExplanation, gdl_explanation};
use ludeme_analysis::ludi::{LudiExplanation, ludi_explanation};
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
    let mut db = RootDatabase::default();
    // EGGG: `X is like Y` finds Y among the files beside this one and in the project's corpus.
    let egg_file = (syntax == Syntax::Egg)
        .then(|| load_egg_workspace(&mut db, &[path.to_path_buf()]).remove(path))
        .flatten();
    let file = egg_file
        .unwrap_or_else(|| SourceFile::new(&db, path.to_path_buf(), syntax, Arc::from(text), None));
    let output = if syntax == Syntax::Egg {
        egg_output(&db, file, egg_explanation(&db, file), format)
    } else if syntax == Syntax::Ludi {
        let sheet = ludi_explanation(&db, file);
        if sheet.title.is_empty() {
            eprintln!(
                "ludeme explain: {shown} holds no `(game NAME ...)` to explain (`ludeme check {shown}` says more)"
            );
            return exit::FAILURE;
        }
        ludi_output(path, text, sheet, format)
    } else {
        let explanation = gdl_explanation(&db, file);
        match format {
            ExplainFormat::Human => explanation.to_plain_text(TEXT_WIDTH),
            ExplainFormat::Json => {
                let report = FileReport::new(path.to_path_buf(), text.to_owned(), Vec::new());
                format!("{}\n", explanation_json(&report, explanation))
            }
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

/// A Ludi rules sheet as text, or as JSON: the title and the sentences with the 1-based spans
/// of the ludemes they render.
fn ludi_output(path: &Path, text: &str, sheet: &LudiExplanation, format: ExplainFormat) -> String {
    match format {
        ExplainFormat::Human => sheet.to_plain_text(TEXT_WIDTH),
        ExplainFormat::Json => {
            let report = FileReport::new(path.to_path_buf(), text.to_owned(), Vec::new());
            let sentences: Vec<Value> = sheet
                .sentences
                .iter()
                .map(|sentence| {
                    let ranges: Vec<Value> = sentence
                        .ranges
                        .iter()
                        .map(|&range| json!(report.span(range)))
                        .collect();
                    json!({ "text": sentence.text, "ranges": ranges })
                })
                .collect();
            let file = report.display_path();
            format!(
                "{}\n",
                json!({ "file": file, "title": sheet.title, "sentences": sentences })
            )
        }
    }
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

/// EGGG instructions as text, or as JSON: the title, the sections with their sentences and the
/// 1-based spans of the statements they render (in this file or, for inherited statements, in
/// the base's file), and the twelve attributes.
fn egg_output(
    db: &RootDatabase,
    file: SourceFile,
    sheet: &EggExplanation,
    format: ExplainFormat,
) -> String {
    if format == ExplainFormat::Human {
        return sheet.to_plain_text(TEXT_WIDTH);
    }
    let mut reports: Vec<(SourceFile, FileReport)> = Vec::new();
    let mut origins_json = |origins: &[ludeme_analysis::egg::model::Origin]| -> Vec<Value> {
        origins
            .iter()
            .map(|origin| {
                let index = match reports.iter().position(|(f, _)| *f == origin.file) {
                    Some(index) => index,
                    None => {
                        let report = FileReport::new(
                            origin.file.path(db).clone(),
                            origin.file.text(db).to_string(),
                            Vec::new(),
                        );
                        reports.push((origin.file, report));
                        reports.len() - 1
                    }
                };
                let report = &reports[index].1;
                json!({ "file": report.display_path(), "range": report.span(origin.range) })
            })
            .collect()
    };
    let sections: Vec<Value> = sheet
        .sections
        .iter()
        .map(|section| {
            let sentences: Vec<Value> = section
                .sentences
                .iter()
                .map(|s| json!({ "text": s.text, "origins": origins_json(&s.origins) }))
                .collect();
            json!({ "title": section.title, "sentences": sentences })
        })
        .collect();
    let attributes: Vec<Value> = sheet
        .classification
        .attributes
        .iter()
        .map(|a| json!({ "name": a.name, "value": a.value, "origins": origins_json(&a.origins) }))
        .collect();
    let path = file.path(db).display().to_string();
    format!(
        "{}\n",
        json!({ "file": path, "title": sheet.title, "sections": sections, "classification": attributes })
    )
}

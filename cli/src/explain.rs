//! `ludeme explain FILE`: a game's rulebook in plain English (`--literal`: the rules one by
//! one). `ludeme explain CODE`: the long form of a diagnostic.

use std::io::Write;
use std::path::Path;

use clap::ValueEnum;
use ludeme_analysis::egg::EggExplanation;
use ludeme_analysis::files::is_game_file;
use ludeme_analysis::gdl::english::GameExplanation;
use ludeme_analysis::ludi::LudiExplanation;
use ludeme_analysis::rulebook::{Line, Rulebook};
use ludeme_analysis::{DiagnosticDepth, Explanation, RootDatabase, Severity, SourceFile, rules};
use serde_json::{Value, json};

use crate::exit;
use crate::project::{KnownGames, open_game};
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

pub fn run(target: Option<&str>, format: ExplainFormat, literal: bool) -> u8 {
    let Some(target) = target else {
        return list_codes(format);
    };
    let path = Path::new(target);
    if path.exists() && !path.is_dir() {
        if is_game_file(path) {
            return explain_file(path, format, literal);
        }
        eprintln!(
            "ludeme explain: {target} is not a game file (.kif, .gdl, .hrf, .egg or .ludi) and no diagnostic has this code"
        );
        return exit::FAILURE;
    }
    if let Some(rule) = rules::find(target) {
        return explain_code(rule, format);
    }
    if let Some(nearest) = nearest_codes(target) {
        eprintln!(
            "ludeme explain: no diagnostic has the code `{target}`; did you mean {nearest}? \
             (`ludeme explain` lists the codes)"
        );
        return exit::FAILURE;
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

/// The codes `written` plausibly misspells, as "`a` or `b`": whole codes, or codes whose name
/// alone was written (`unsafe-varible` for `gdl/unsafe-variable`); `None` when none is close.
fn nearest_codes(written: &str) -> Option<String> {
    let codes: Vec<&str> = rules::all().map(|rule| rule.code).collect();
    let mut close = ludeme_analysis::names::plausible_corrections(written, codes.iter().copied());
    if close.is_empty() && !written.contains('/') {
        let names = codes
            .iter()
            .filter_map(|code| code.split_once('/').map(|(_, name)| name));
        let close_names = ludeme_analysis::names::plausible_corrections(written, names);
        close = codes
            .iter()
            .copied()
            .filter(|code| {
                code.split_once('/')
                    .is_some_and(|(_, name)| close_names.contains(&name))
            })
            .collect();
    }
    close.truncate(3);
    let quoted: Vec<String> = close.iter().map(|code| format!("`{code}`")).collect();
    match quoted.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [init @ .., last] => Some(format!("{} or {last}", init.join(", "))),
    }
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
            "{} ({})\n\n{}\n\n{}\n{}",
            rule.code,
            rule.severity.as_str(),
            rule.summary,
            rule.explanation,
            crate::rules::example_text(rule)
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

/// A rule as `ludeme rules --format json` lists it.
fn code_json(rule: &rules::Rule) -> Value {
    crate::rules::rule_json(rule)
}

fn explain_file(path: &Path, format: ExplainFormat, literal: bool) -> u8 {
    let shown = path.display();
    let (analysis, file) = match open_game(path, KnownGames::FromSettings) {
        Ok(opened) => opened,
        Err(message) => {
            eprintln!("ludeme explain: {shown}: {message}");
            return exit::FAILURE;
        }
    };
    // Nothing writes to the database here: a cancellation cannot happen.
    let explanation = analysis
        .explain(file)
        .expect("no write during `ludeme explain`");
    if let Some(why) = explanation.emptiness() {
        eprintln!("ludeme explain: {shown} {why} (`ludeme check {shown}` says more)");
        return exit::FAILURE;
    }
    let text = analysis
        .text(file)
        .expect("no write during `ludeme explain`");
    let output = match (format, &explanation) {
        (ExplainFormat::Human, _) if !literal => analysis
            .rulebook(file)
            .expect("no write during `ludeme explain`")
            .to_plain_text(TEXT_WIDTH),
        (ExplainFormat::Json, _) if !literal => {
            let book = analysis
                .rulebook(file)
                .expect("no write during `ludeme explain`");
            rulebook_json(path, &text, book)
        }
        (ExplainFormat::Human, _) => explanation.to_plain_text(TEXT_WIDTH),
        (ExplainFormat::Json, Explanation::Egg(sheet)) => egg_output(analysis.db(), file, sheet),
        (ExplainFormat::Json, Explanation::Ludi(sheet)) => ludi_json(path, &text, sheet),
        (ExplainFormat::Json, Explanation::Gdl(explanation)) => {
            let report = FileReport::new(path.to_path_buf(), text.to_string(), Vec::new());
            format!("{}\n", explanation_json(&report, explanation))
        }
    };
    emit(&output);
    let diagnostics = analysis
        .diagnostics(file, &DiagnosticDepth::Static)
        .expect("no write during `ludeme explain`");
    let errors = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        eprintln!(
            "ludeme explain: {shown} has {errors} error{plural}; the English covers what could be read (`ludeme check {shown}` lists them)"
        );
        return exit::PROBLEMS_FOUND;
    }
    exit::CLEAN
}

/// A rulebook as JSON: the title, the overview and the chapters, each sentence with the
/// 1-based spans of what it renders.
fn rulebook_json(path: &Path, text: &str, book: &Rulebook) -> String {
    let report = FileReport::new(path.to_path_buf(), text.to_owned(), Vec::new());
    let lines = |lines: &[Line]| -> Vec<Value> {
        lines
            .iter()
            .map(|line| {
                let ranges: Vec<Value> = line
                    .ranges
                    .iter()
                    .map(|&range| json!(report.span(range)))
                    .collect();
                json!({ "text": line.text, "ranges": ranges })
            })
            .collect()
    };
    let chapters: Vec<Value> = book
        .chapters
        .iter()
        .map(|chapter| {
            json!({
                "part": chapter.part,
                "title": chapter.part.title(),
                "sentences": lines(&chapter.lines),
            })
        })
        .collect();
    format!(
        "{}\n",
        json!({
            "file": report.display_path(),
            "title": book.title,
            "overview": lines(&book.overview),
            "chapters": chapters,
        })
    )
}

/// A Ludi rules sheet as JSON: the title and the sentences with the 1-based spans of the
/// ludemes they render.
fn ludi_json(path: &Path, text: &str, sheet: &LudiExplanation) -> String {
    {
        {
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

/// EGGG instructions as JSON: the title, the sections with their sentences and the 1-based
/// spans of the statements they render (in this file or, for inherited statements, in the
/// base's file), and the twelve attributes.
fn egg_output(db: &RootDatabase, file: SourceFile, sheet: &EggExplanation) -> String {
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

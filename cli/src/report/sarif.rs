//! SARIF 2.1.0 output, for code-scanning services. Files under the current folder are named by
//! URIs relative to it, resolved against the base `%SRCROOT%` (which `originalUriBaseIds` gives
//! as the current folder's `file:` URI), so that a log made in a checkout matches the paths of
//! the repository wherever the checkout was; other files get an absolute `file:` URI.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use ludeme_analysis::{Severity, rules};
use serde_json::{Value, json};

use super::FileReport;

/// The base of relative artifact URIs: the folder `ludeme check` ran in, the usual name SARIF
/// consumers (GitHub code scanning among them) know for a source tree's root.
const SOURCE_ROOT: &str = "%SRCROOT%";

pub fn write(reports: &[FileReport]) -> std::io::Result<()> {
    let root = std::env::current_dir()?;
    let used: BTreeSet<&str> = reports
        .iter()
        .flat_map(|report| report.diagnostics.iter().map(|diagnostic| diagnostic.code))
        .collect();
    let rule_table: Vec<Value> = rules::all()
        .filter(|rule| used.contains(rule.code))
        .map(|rule| {
            json!({
                "id": rule.code,
                "shortDescription": { "text": rule.summary },
                "fullDescription": { "text": rule.explanation },
                "defaultConfiguration": { "level": level(rule.severity) },
            })
        })
        .collect();
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|report| {
            let location = artifact_location(&root, &report.path);
            report.diagnostics.iter().map(move |diagnostic| {
                let span = report.span(diagnostic.range);
                json!({
                    "ruleId": diagnostic.code,
                    "level": level(diagnostic.severity),
                    "message": { "text": diagnostic.message },
                    "locations": [{
                        "physicalLocation": {
                            "artifactLocation": location.clone(),
                            "region": {
                                "startLine": span.start.line,
                                "startColumn": span.start.column,
                                "endLine": span.end.line,
                                "endColumn": span.end.column,
                            }
                        }
                    }]
                })
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "ludeme",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rule_table,
                }
            },
            "originalUriBaseIds": {
                SOURCE_ROOT: { "uri": folder_uri(&root) },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    });
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &log)?;
    writeln!(out)
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Where `path` is: relative to [`SOURCE_ROOT`] when it lies under `root`, else an absolute
/// `file:` URI.
fn artifact_location(root: &Path, path: &Path) -> Value {
    let absolute = normalise(&root.join(path));
    match absolute.strip_prefix(root) {
        Ok(relative) => json!({ "uri": relative_uri(relative), "uriBaseId": SOURCE_ROOT }),
        Err(_) => json!({ "uri": file_uri(&absolute) }),
    }
}

/// `path` with `.` and `..` resolved by name (the file need not exist, and a link is not
/// followed: the path stays the one the user gave).
fn normalise(path: &Path) -> PathBuf {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    normal
}

/// A relative URI reference: each name percent-encoded, joined by `/`.
fn relative_uri(path: &Path) -> String {
    path.components()
        .map(|component| encode(&component.as_os_str().to_string_lossy()))
        .collect::<Vec<_>>()
        .join("/")
}

/// The `file:` URI of an absolute path.
fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for component in path.components() {
        match component {
            Component::RootDir => {}
            // A Windows drive (`C:`) stays as it is, as `file:///C:/...` writes it.
            Component::Prefix(prefix) => {
                uri.push('/');
                uri.push_str(&prefix.as_os_str().to_string_lossy());
            }
            other => {
                uri.push('/');
                uri.push_str(&encode(&other.as_os_str().to_string_lossy()));
            }
        }
    }
    if uri == "file://" {
        uri.push('/');
    }
    uri
}

/// The `file:` URI of a folder, which ends with `/` as SARIF requires of a base URI.
fn folder_uri(path: &Path) -> String {
    let mut uri = file_uri(path);
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// `name` percent-encoded but for RFC 3986's unreserved characters: a `:` in a first name
/// would otherwise read as a scheme, a `#` or `?` as the end of the path.
fn encode(name: &str) -> String {
    let mut encoded = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_under_the_root_are_relative_to_it_and_others_absolute() {
        let root = Path::new("/home/me/games");
        assert_eq!(
            artifact_location(root, Path::new("corpus/gdl/ticTacToe.kif")),
            json!({ "uri": "corpus/gdl/ticTacToe.kif", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location(root, Path::new("./corpus/../corpus/a b#1.kif")),
            json!({ "uri": "corpus/a%20b%231.kif", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location(root, Path::new("/home/me/games/x:y.kif")),
            json!({ "uri": "x%3Ay.kif", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location(root, Path::new("../shared/corpus/échecs.kif")),
            json!({ "uri": "file:///home/me/shared/corpus/%C3%A9checs.kif" })
        );
        assert_eq!(folder_uri(root), "file:///home/me/games/");
        assert_eq!(folder_uri(Path::new("/")), "file:///");
    }
}

//! The command line and the editor say the same of every game: each game of the project's
//! `corpus/` and of the shared corpus (`../shared/corpus`, skipped loudly when absent) is checked
//! by `ludeme check --format json` and opened in `ludeme lsp`, under a `ludeme.toml` that disables
//! a rule and changes a severity, and the two sets of diagnostics — codes, ranges, severities —
//! must be identical. The editor's random play is switched off (`ludeme.randomPlay`): the command
//! line plays only with `--simulate`, and its budget is not the editor's.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use support::stdio_client::StdioClient;

/// The settings both front ends read.
const SETTINGS: &str = "[rules]\n\
    disable = [\"gdl/unusual-character\"]\n\
    severity = { \"gdl/unused-relation\" = \"info\", \"ludi\" = \"warning\" }\n";

/// One diagnostic as both front ends can state it: code, severity, and the range as byte
/// offsets of (line, column) pairs, 0-based.
type Finding = (String, String, (usize, usize), (usize, usize));

#[test]
fn the_project_corpus_gets_the_same_diagnostics_from_check_and_the_editor() {
    assert_front_ends_agree(&support::project_root().join("corpus"));
}

#[test]
fn the_shared_corpus_gets_the_same_diagnostics_from_check_and_the_editor() {
    let Some(corpus) = support::shared_corpus() else {
        return;
    };
    assert_front_ends_agree(&corpus);
}

fn assert_front_ends_agree(corpus: &Path) {
    let copy = tempfile::tempdir().expect("a temporary folder");
    let root = copy.path().canonicalize().expect("the folder's path");
    copy_games(corpus, &root);
    std::fs::write(root.join("ludeme.toml"), SETTINGS).expect("the settings are written");
    let texts = game_texts(&root);
    assert!(!texts.is_empty(), "no games under {}", corpus.display());

    let from_check = check_findings(&root, &texts);
    let from_editor = editor_findings(&root, &texts);
    let mut differences = Vec::new();
    for path in texts.keys() {
        let (check, editor) = (&from_check[path], &from_editor[path]);
        if check != editor {
            differences.push(format!(
                "{}:\n  check only:  {:?}\n  editor only: {:?}",
                path.display(),
                check.difference(editor).collect::<Vec<_>>(),
                editor.difference(check).collect::<Vec<_>>()
            ));
        }
    }
    let findings: usize = from_check.values().map(BTreeSet::len).sum();
    eprintln!(
        "{}: {} games, {findings} diagnostics, {} games differ",
        corpus.display(),
        texts.len(),
        differences.len()
    );
    assert!(findings > 0, "the corpus gave no diagnostics at all");
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

fn copy_games(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("the corpus folder is readable") {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            std::fs::create_dir_all(&target).expect("a folder is made");
            copy_games(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a file is copied");
        }
    }
}

/// Every game file under `root`, with its text.
fn game_texts(root: &Path) -> BTreeMap<PathBuf, String> {
    support::files_with_extensions(root, &["egg", "ludi", "kif", "gdl", "hrf"])
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("a UTF-8 game");
            (path, text)
        })
        .collect()
}

/// The byte column of the `column`-th character (0-based) of line `line` (0-based) of `text`.
fn byte_column(text: &str, line: usize, column: usize) -> usize {
    let line_text = text.split('\n').nth(line).unwrap_or("");
    line_text
        .char_indices()
        .nth(column)
        .map_or(line_text.len(), |(byte, _)| byte)
}

fn check_findings(
    root: &Path,
    texts: &BTreeMap<PathBuf, String>,
) -> BTreeMap<PathBuf, BTreeSet<Finding>> {
    let output = support::ludeme_in(&["check", "--format", "json", "."], root);
    let status = output.status.code();
    assert!(
        matches!(status, Some(0 | 1)),
        "ludeme check ended with {status:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    let mut found: BTreeMap<PathBuf, BTreeSet<Finding>> = texts
        .keys()
        .map(|path| (path.clone(), BTreeSet::new()))
        .collect();
    for diagnostic in report.as_array().expect("an array") {
        let path = root.join(diagnostic["file"].as_str().expect("a file"));
        let path = path.canonicalize().unwrap_or(path);
        if path.file_name().is_some_and(|name| name == "ludeme.toml") {
            continue;
        }
        let text = &texts[&path];
        let position = |at: &Value| {
            let line = at["line"].as_u64().expect("a line") as usize - 1;
            let column = at["column"].as_u64().expect("a column") as usize - 1;
            (line, byte_column(text, line, column))
        };
        let range = &diagnostic["range"];
        found.get_mut(&path).expect("a checked file").insert((
            diagnostic["code"].as_str().expect("a code").to_owned(),
            diagnostic["severity"]
                .as_str()
                .expect("a severity")
                .to_owned(),
            position(&range["start"]),
            position(&range["end"]),
        ));
    }
    found
}

fn editor_findings(
    root: &Path,
    texts: &BTreeMap<PathBuf, String>,
) -> BTreeMap<PathBuf, BTreeSet<Finding>> {
    let mut client = StdioClient::spawn(support::ludeme_lsp(root));
    let root_uri = uri_of(root);
    let response = client.initialize(json!({
        "processId": null,
        "rootUri": root_uri,
        "workspaceFolders": [{"uri": root_uri, "name": "corpus"}],
        "capabilities": {"general": {"positionEncodings": ["utf-8"]}},
        "initializationOptions": {"ludeme": {"randomPlay": false}},
    }));
    assert_eq!(
        response["result"]["capabilities"]["positionEncoding"], "utf-8",
        "{response}"
    );
    let mut uris = BTreeMap::new();
    for (path, text) in texts {
        let uri = uri_of(path);
        let language = match path.extension().and_then(|e| e.to_str()) {
            Some("egg") => "egg",
            Some("ludi") => "ludi",
            Some("hrf") => "hrf",
            _ => "gdl",
        };
        client.open(&uri, language, text);
        uris.insert(uri, path.clone());
    }
    // Each document's final diagnostics, at the version opened, once the server knows the
    // workspace's games (`ludeme/diagnostics` waits for the scan).
    let mut latest: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for uri in uris.keys() {
        let response = client.request("ludeme/diagnostics", json!({"textDocument": {"uri": uri}}));
        let result = &response["result"];
        assert_eq!(result["version"], 1, "{uri}: {response}");
        let diagnostics = result["diagnostics"].as_array().cloned();
        latest.insert(uri.clone(), diagnostics.expect("a list of diagnostics"));
    }
    client.shutdown();
    let severity = |value: &Value| match value.as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "info",
        _ => "hint",
    };
    let mut found = BTreeMap::new();
    for (uri, path) in &uris {
        let findings = latest[uri]
            .iter()
            .map(|diagnostic| {
                let range = &diagnostic["range"];
                let position = |at: &Value| {
                    (
                        at["line"].as_u64().expect("a line") as usize,
                        at["character"].as_u64().expect("a character") as usize,
                    )
                };
                (
                    diagnostic["code"].as_str().unwrap_or("").to_owned(),
                    severity(&diagnostic["severity"]).to_owned(),
                    position(&range["start"]),
                    position(&range["end"]),
                )
            })
            .collect();
        found.insert(path.clone(), findings);
    }
    found
}

fn uri_of(path: &Path) -> String {
    let text = path.to_str().expect("a UTF-8 path");
    let mut uri = String::from("file://");
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

//! End-to-end sessions with the real `ludeme lsp` binary over standard input and output, as an
//! editor drives it: initialized with Visual Studio Code's client capabilities
//! (`tests/fixtures/lsp/vscode-initialize.json`) on a workspace folder of games, every feature
//! requested for each of the four syntaxes, the answers snapshotted. A second session starts
//! with the capabilities Neovim 0.11 really sent (`tests/fixtures/lsp/neovim-0.11-initialize.json`,
//! recorded by `editors/nvim/test/record-initialize.sh`), which negotiate UTF-8 positions.
//!
//! URIs are normalised to `file:///WORKSPACE/...` and measured figures (playouts per second)
//! redacted; everything else in the snapshots is what the editor receives.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::stdio_client::StdioClient;

/// A temporary workspace folder holding the project's corpus of games and settings.
struct Workspace {
    dir: tempfile::TempDir,
}

impl Workspace {
    fn new(settings: &str) -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let corpus = support::project_root().join("corpus");
        for language in ["egg", "gdl", "ludi"] {
            let target = dir.path().join("games").join(language);
            std::fs::create_dir_all(&target).unwrap();
            for entry in std::fs::read_dir(corpus.join(language)).unwrap() {
                let path = entry.unwrap().path();
                std::fs::copy(&path, target.join(path.file_name().unwrap())).unwrap();
            }
        }
        std::fs::write(dir.path().join("ludeme.toml"), settings).unwrap();
        Workspace { dir }
    }

    /// A workspace folder with no games and no settings.
    fn bare() -> Self {
        Workspace {
            dir: tempfile::tempdir().expect("a temporary folder"),
        }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root().join(relative)
    }

    fn uri(&self, relative: &str) -> String {
        format!("{}/{relative}", self.root_uri())
    }

    fn root_uri(&self) -> String {
        format!("file://{}", self.root().display())
    }

    fn text(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap()
    }

    /// Visual Studio Code's `initialize` parameters, opened on this workspace.
    fn vscode_initialize(&self) -> Value {
        self.recorded_initialize("vscode-initialize.json")
    }

    /// The `initialize` parameters Neovim 0.11 sent to `ludeme lsp`, opened on this workspace.
    fn neovim_initialize(&self) -> Value {
        self.recorded_initialize("neovim-0.11-initialize.json")
    }

    /// The `initialize` parameters of a client, from `tests/fixtures/lsp/`, with this
    /// workspace and this process in place of the placeholders, and without the fixture's
    /// note on how it was recorded.
    fn recorded_initialize(&self, fixture: &str) -> Value {
        let recorded = std::fs::read_to_string(
            support::project_root()
                .join("tests/fixtures/lsp")
                .join(fixture),
        )
        .unwrap();
        let filled = recorded
            .replace("${ROOT_URI}", &self.root_uri())
            .replace("${ROOT_PATH}", &self.root().display().to_string())
            .replace("\"${PROCESS_ID}\"", &std::process::id().to_string());
        let mut params: Value = serde_json::from_str(&filled).expect("the fixture is JSON");
        params.as_object_mut().unwrap().remove("_recorded");
        params
    }

    /// `value` with this workspace's URIs and paths written as `file:///WORKSPACE`.
    fn normalise(&self, value: &Value) -> Value {
        let text = value
            .to_string()
            .replace(&self.root_uri(), "file:///WORKSPACE")
            .replace(&self.root().display().to_string(), "/WORKSPACE");
        serde_json::from_str(&text).unwrap()
    }
}

const SETTINGS: &str = "\
# The editor's probe plays few games; the corpus folder is the workspace's own.
[probe]
games = 4

[rules]
disable = [\"gdl/unused-relation\"]
";

/// The LSP position of the `$0` marker of `needle` (its start when it has none) at the first
/// occurrence of the needle in `text` (UTF-16 columns; the games used here are ASCII).
fn position_of(text: &str, needle: &str) -> Value {
    let marker = needle.find("$0").unwrap_or(0);
    let needle = needle.replacen("$0", "", 1);
    let offset = marker
        + text
            .find(&needle)
            .unwrap_or_else(|| panic!("`{needle}` is not in the text"));
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    json!({"line": line, "character": column})
}

fn end_position(text: &str) -> Value {
    let line = text.matches('\n').count();
    let column = text.len() - text.rfind('\n').map_or(0, |newline| newline + 1);
    json!({"line": line, "character": column})
}

/// The result of a response, or its error's code and message.
fn answer(response: &Value) -> Value {
    match response.get("error") {
        Some(error) => json!({"error": {"code": error["code"], "message": error["message"]}}),
        None => response["result"].clone(),
    }
}

/// A document of one syntax and where to put the cursor for each feature.
struct Subject {
    /// Relative to the workspace root.
    file: &'static str,
    language_id: &'static str,
    /// A keyword or ludeme (hover, completion, signature help, selection ranges), the cursor at
    /// its `$0`.
    keyword: &'static str,
    /// A name with definitions and references (definition, references, highlights, rename).
    symbol: &'static str,
    /// Text inserted at the start of the last line by the edit step: a mistake the server has
    /// a fix for.
    edit: &'static str,
}

const SUBJECTS: [Subject; 4] = [
    Subject {
        file: "games/ludi/tic-tac-toe.ludi",
        language_id: "ludi",
        keyword: "(in-a-$0row",
        symbol: "White",
        edit: "(peices (Disc All))\n",
    },
    Subject {
        file: "games/gdl/ticTacToe.kif",
        language_id: "kif",
        keyword: "(dis$0tinct",
        symbol: "(true ($0cell",
        edit: "    (not (open))\n",
    },
    Subject {
        file: "games/gdl/ticTacToe.hrf",
        language_id: "gdl",
        keyword: "dis$0tinct(",
        symbol: "true($0cell(",
        edit: "terminal :- open()\n",
    },
    Subject {
        file: "games/egg/square-bounce.egg",
        language_id: "egg",
        keyword: "$0pieces are",
        // The statement, not the comment above it that quotes it.
        symbol: "\nSquareBounce is like $0BounceFast",
        edit: "turns alternat\n",
    },
];

/// Asks every feature of `subject` and returns the answers by feature.
fn sweep(client: &mut StdioClient, workspace: &Workspace, subject: &Subject) -> Value {
    let uri = workspace.uri(subject.file);
    let text = workspace.text(subject.file);
    let document = json!({"uri": uri});
    let keyword = position_of(&text, subject.keyword);
    let symbol = position_of(&text, subject.symbol);
    let whole = json!({"start": {"line": 0, "character": 0}, "end": end_position(&text)});
    let at = |position: &Value| json!({"textDocument": document, "position": position});

    client.open(&uri, subject.language_id, &text);
    let opened = client.diagnostics_for(&uri, 1);
    let mut answers = serde_json::Map::new();
    answers.insert("diagnostics".into(), Value::Array(opened.clone()));
    let mut ask = |name: &str, method: &str, params: Value| {
        let response = client.request(method, params);
        answers.insert(name.to_owned(), answer(&response));
    };
    ask("hover", "textDocument/hover", at(&keyword));
    ask(
        "completion",
        "textDocument/completion",
        json!({"textDocument": document, "position": keyword,
               "context": {"triggerKind": 1}}),
    );
    ask(
        "signatureHelp",
        "textDocument/signatureHelp",
        json!({"textDocument": document, "position": keyword,
               "context": {"triggerKind": 1, "isRetrigger": false}}),
    );
    ask("definition", "textDocument/definition", at(&symbol));
    ask(
        "references",
        "textDocument/references",
        json!({"textDocument": document, "position": symbol,
               "context": {"includeDeclaration": true}}),
    );
    ask(
        "documentHighlight",
        "textDocument/documentHighlight",
        at(&symbol),
    );
    ask("prepareRename", "textDocument/prepareRename", at(&symbol));
    ask(
        "rename",
        "textDocument/rename",
        json!({"textDocument": document, "position": symbol, "newName": "renamed"}),
    );
    ask(
        "documentSymbol",
        "textDocument/documentSymbol",
        json!({"textDocument": document}),
    );
    ask(
        "semanticTokens",
        "textDocument/semanticTokens/full",
        json!({"textDocument": document}),
    );
    ask(
        "foldingRange",
        "textDocument/foldingRange",
        json!({"textDocument": document}),
    );
    ask(
        "selectionRange",
        "textDocument/selectionRange",
        json!({"textDocument": document, "positions": [keyword]}),
    );
    let formatting_options = json!({"tabSize": 2, "insertSpaces": true});
    ask(
        "formatting",
        "textDocument/formatting",
        json!({"textDocument": document, "options": formatting_options}),
    );
    ask(
        "rangeFormatting",
        "textDocument/rangeFormatting",
        json!({"textDocument": document, "range": whole, "options": formatting_options}),
    );
    ask(
        "codeAction",
        "textDocument/codeAction",
        json!({"textDocument": document, "range": whole,
               "context": {"diagnostics": opened, "triggerKind": 1}}),
    );
    ask(
        "inlayHint",
        "textDocument/inlayHint",
        json!({"textDocument": document, "range": whole}),
    );
    answers.insert("codeLens".into(), resolved_lenses(client, &document));

    // An edit: a line that is wrong in this language, inserted before the last line.
    let last_line = text.trim_end().matches('\n').count();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": {"line": last_line, "character": 0},
                                             "end": {"line": last_line, "character": 0}},
                                   "text": subject.edit}]}),
    );
    let edited = client.diagnostics_for(&uri, 2);
    // The fixes the editor offers on the line that is wrong.
    let inserted = json!({"start": {"line": last_line, "character": 0},
                          "end": {"line": last_line + 1, "character": 0}});
    let fixes = client.request(
        "textDocument/codeAction",
        json!({"textDocument": document, "range": inserted,
               "context": {"diagnostics": edited, "triggerKind": 1}}),
    );
    answers.insert("diagnosticsAfterEdit".into(), Value::Array(edited));
    answers.insert("codeActionAfterEdit".into(), answer(&fixes));
    workspace.normalise(&Value::Object(answers))
}

/// The document's code lenses, each resolved until its work is done: a first resolve starts
/// the work and answers a provisional title; the server asks for a refresh when it is done.
fn resolved_lenses(client: &mut StdioClient, document: &Value) -> Value {
    let listed = client.request("textDocument/codeLens", json!({"textDocument": document}));
    let lenses = match listed["result"].as_array() {
        Some(lenses) => lenses.clone(),
        None => return answer(&listed),
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let resolved: Vec<Value> = lenses
            .iter()
            .map(|lens| answer(&client.request("codeLens/resolve", lens.clone())))
            .collect();
        let provisional = resolved.iter().any(|lens| {
            lens["command"]["title"]
                .as_str()
                .is_some_and(|t| t.ends_with('…'))
        });
        if !provisional {
            return Value::Array(resolved.iter().map(redact_figures).collect());
        }
        assert!(
            Instant::now() < deadline,
            "lenses still unresolved: {resolved:?}"
        );
        client.next_message("workspace/codeLens/refresh");
    }
}

/// A bench lens's figures and a probe's duration vary from run to run: the bench title keeps
/// its shape, the numbers go.
fn redact_figures(lens: &Value) -> Value {
    let mut lens = lens.clone();
    if lens["command"]["command"] == "ludeme.showProbe" {
        lens["command"]["arguments"][0]["seconds"] = json!("[redacted]");
    }
    // Random play runs under a time limit: on a loaded machine it plays fewer games, and the
    // shares change. The title keeps its shape.
    if lens["command"]["command"] == "ludeme.showSimulation" {
        let title = lens["command"]["title"].as_str().unwrap_or_default();
        assert!(
            title.starts_with("2 roles · random play ends after"),
            "simulation lens title: {title}"
        );
        lens["command"]["title"] = json!("2 roles · random play ends after [figures]");
        lens["command"]["arguments"][0]["markdown"] = json!("[redacted]");
    }
    if lens["command"]["command"] == "ludeme.showBench" {
        let title = lens["command"]["title"].as_str().unwrap_or_default();
        assert!(
            title.starts_with("≈ ") && title.ends_with(" playouts/s"),
            "bench lens title: {title}"
        );
        lens["command"]["title"] = json!("≈ [figure] playouts/s");
        lens["command"]["arguments"] = json!("[redacted]");
    }
    lens
}

#[test]
fn every_feature_of_every_syntax_over_stdio_as_vscode_drives_it() {
    let workspace = Workspace::new(SETTINGS);
    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    let initialized = client.initialize(workspace.vscode_initialize());
    insta::assert_json_snapshot!("initialize", workspace.normalise(&answer(&initialized)));
    // The server asks to watch the game files and the settings (VS Code registers dynamically).
    let registration = client.next_message("client/registerCapability");
    insta::assert_json_snapshot!("watch_registration", registration["params"]);

    for subject in &SUBJECTS {
        let answers = sweep(&mut client, &workspace, subject);
        let name = Path::new(subject.file)
            .extension()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        insta::assert_json_snapshot!(format!("features_{name}"), answers);
    }

    let symbols = client.request("workspace/symbol", json!({"query": "tic-tac"}));
    insta::assert_json_snapshot!("workspace_symbols", workspace.normalise(&answer(&symbols)));
    client.shutdown();
}

/// A representative set of features, as Neovim 0.11 asks them on the workspace file `relative`
/// (opened as it is on disk): diagnostics, hover and completion at `cursor`, semantic tokens,
/// inlay hints, code lenses and formatting with the options of an unconfigured Neovim
/// (`--clean`: 'shiftwidth' 8, no 'expandtab').
fn neovim_answers(
    client: &mut StdioClient,
    workspace: &Workspace,
    relative: &str,
    language_id: &str,
    cursor: &Value,
) -> Value {
    let uri = workspace.uri(relative);
    let text = workspace.text(relative);
    let document = json!({"uri": uri});
    client.open(&uri, language_id, &text);
    let mut answers = serde_json::Map::new();
    answers.insert(
        "diagnostics".into(),
        Value::Array(client.diagnostics_for(&uri, 1)),
    );
    let mut ask = |name: &str, method: &str, params: Value| {
        let response = client.request(method, params);
        answers.insert(name.to_owned(), answer(&response));
    };
    ask(
        "hover",
        "textDocument/hover",
        json!({"textDocument": document, "position": cursor}),
    );
    ask(
        "completion",
        "textDocument/completion",
        json!({"textDocument": document, "position": cursor,
               "context": {"triggerKind": 1}}),
    );
    ask(
        "semanticTokens",
        "textDocument/semanticTokens/full",
        json!({"textDocument": document}),
    );
    ask(
        "inlayHint",
        "textDocument/inlayHint",
        json!({"textDocument": document,
               "range": {"start": {"line": 0, "character": 0}, "end": end_position(&text)}}),
    );
    ask(
        "formatting",
        "textDocument/formatting",
        json!({"textDocument": document, "options": {"tabSize": 8, "insertSpaces": false}}),
    );
    answers.insert("codeLens".into(), resolved_lenses(client, &document));
    workspace.normalise(&Value::Object(answers))
}

/// An LSP position as `(line, character)`, to compare positions whatever else they carry.
fn line_and_character(position: &Value) -> (u64, u64) {
    (
        position["line"].as_u64().expect("a line"),
        position["character"].as_u64().expect("a character"),
    )
}

#[test]
fn neovim_negotiates_utf8_positions_and_gets_every_feature() {
    let workspace = Workspace::new(SETTINGS);
    // Non-ASCII text before the names the test looks at, on the same line, so that UTF-8 and
    // UTF-16 columns differ there: `é` is two bytes but one UTF-16 unit.
    let kif = workspace.text("games/gdl/ticTacToe.kif").replacen(
        "(filler b)",
        "(filler b) (étiquette b blank)",
        1,
    );
    std::fs::write(workspace.path("games/gdl/ticTacToe.kif"), &kif).unwrap();
    let ludi = workspace.text("games/ludi/tic-tac-toe.ludi").replacen(
        "(game Tic-Tac-Toe\n  (players",
        "(game Tic-Tac-Toé (players",
        1,
    );
    std::fs::write(workspace.path("games/ludi/tic-tac-toe.ludi"), &ludi).unwrap();

    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    let initialized = client.initialize(workspace.neovim_initialize());
    // Neovim offers UTF-8 first (then UTF-16 and UTF-32); the server takes it, so every column
    // below counts bytes.
    assert_eq!(
        initialized["result"]["capabilities"]["positionEncoding"], "utf-8",
        "{initialized}"
    );

    // Columns in bytes: what `position_of` measures.
    let kif_cursor = position_of(&kif, "(dis$0tinct");
    let kif_answers = neovim_answers(
        &mut client,
        &workspace,
        "games/gdl/ticTacToe.kif",
        "gdl",
        &kif_cursor,
    );
    // The arity hint of `étiquette` stands right after the name, counted in bytes.
    let after_name = position_of(&kif, "(étiquette$0 b");
    let hint = kif_answers["inlayHint"]
        .as_array()
        .expect("inlay hints")
        .iter()
        .find(|hint| hint["label"] == "/2")
        .expect("a hint for `étiquette`");
    assert_eq!(
        line_and_character(&hint["position"]),
        line_and_character(&after_name),
        "{hint}"
    );
    insta::assert_json_snapshot!("neovim_features_kif", kif_answers);

    let ludi_cursor = position_of(&ludi, "(play$0ers");
    let ludi_answers = neovim_answers(
        &mut client,
        &workspace,
        "games/ludi/tic-tac-toe.ludi",
        "ludi",
        &ludi_cursor,
    );
    // The hover covers the word under the cursor, `players`, in bytes.
    let hover_start = position_of(&ludi, "($0players");
    assert_eq!(
        line_and_character(&ludi_answers["hover"]["range"]["start"]),
        line_and_character(&hover_start),
        "{}",
        ludi_answers["hover"]
    );
    insta::assert_json_snapshot!("neovim_features_ludi", ludi_answers);
    client.shutdown();
}

/// The document's nearest-game lens, resolved once.
fn nearest_lens_title(client: &mut StdioClient, uri: &str) -> String {
    let listed = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    let lens = listed["result"]
        .as_array()
        .expect("lenses")
        .iter()
        .find(|lens| lens["data"]["kind"] == "nearest")
        .cloned()
        .unwrap_or_else(|| panic!("no nearest-game lens in {listed}"));
    let resolved = client.request("codeLens/resolve", lens);
    let title = resolved["result"]["command"]["title"].as_str();
    title.expect("a title").to_owned()
}

/// The nearest-game lens of `mine.kif` (tic-tac-toe), opened while the workspace scan is held
/// back (a test hook delays it 1.5 s): its first title, then the one it settles on once the
/// client is asked to resolve again.
fn nearest_lens_during_the_scan(workspace: &Workspace) -> (String, String) {
    let mine =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    std::fs::write(workspace.path("mine.kif"), &mine).unwrap();
    let mut server = support::ludeme_lsp(workspace.root());
    server.env(ludeme_lsp::TEST_SCAN_DELAY, "1500");
    let mut client = StdioClient::spawn(server);
    client.initialize(workspace.vscode_initialize());
    let uri = workspace.uri("mine.kif");
    client.open(&uri, "gdl", &mine);
    let first = nearest_lens_title(&mut client, &uri);
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut settled = first.clone();
    while settled.ends_with('…') {
        assert!(Instant::now() < deadline, "still provisional: {settled}");
        client.next_message("workspace/codeLens/refresh");
        settled = nearest_lens_title(&mut client, &uri);
    }
    client.shutdown();
    (first, settled)
}

/// A lens resolved while the workspace is still being read does not answer about the open
/// files alone: it is provisional until the scan lands, and the client is then asked to resolve
/// again (it used to answer "no other game of this language is known", for good).
#[test]
fn the_nearest_game_lens_waits_for_the_workspace() {
    let (first, settled) = nearest_lens_during_the_scan(&Workspace::new(SETTINGS));
    assert_eq!(first, "looking for the nearest game…");
    assert!(
        settled.starts_with("nearest: ticTacToe · 0.00"),
        "{settled}"
    );
}

/// The same where the scan finds nothing new (the workspace holds only the open game): the
/// landing still asks the client to resolve the provisional lens again.
#[test]
fn a_lens_answered_before_a_scan_that_changes_nothing_is_refreshed() {
    let (first, settled) = nearest_lens_during_the_scan(&Workspace::bare());
    assert_eq!(first, "looking for the nearest game…");
    assert_eq!(settled, "nearest: no other game of this language is known");
}

#[test]
fn a_copy_of_a_known_game_is_reported_as_a_duplicate() {
    let workspace = Workspace::new(SETTINGS);
    // The same game with the board's parts in another order: distance 0 to the corpus game.
    let original = workspace.text("games/ludi/tic-tac-toe.ludi");
    let copy = original.replace(
        "    (tiling square i-nbors)\n    (size 3 3)\n",
        "    (size 3 3)\n    (tiling square i-nbors)\n",
    );
    assert_ne!(copy, original, "the reordering applies");
    std::fs::write(workspace.path("my-game.ludi"), &copy).unwrap();

    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    client.initialize(workspace.vscode_initialize());
    let uri = workspace.uri("my-game.ludi");
    client.open(&uri, "ludi", &copy);
    let first_round = client.diagnostics_for(&uri, 1);
    assert!(
        first_round
            .iter()
            .all(|diagnostic| diagnostic["code"] != "distance/duplicate"),
        "the search for duplicates does not hold back the first round"
    );
    // The workspace may still be loading when the game opens: the publications that follow
    // (the workspace loaded, then the slow round) end with the duplicate.
    let published = client.wait_for("the duplicate warning", |message| {
        message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == uri.as_str()
            && message["params"]["diagnostics"]
                .as_array()
                .is_some_and(|diagnostics| !diagnostics.is_empty())
    });
    let published = published["params"]["diagnostics"].as_array().unwrap();
    let duplicate = published
        .iter()
        .find(|diagnostic| diagnostic["code"] == "distance/duplicate")
        .unwrap_or_else(|| panic!("no duplicate warning in {published:?}"));
    assert_eq!(duplicate["severity"], 2, "a warning");
    // On the `(game ...)` form, lines 3 to 10 (0-based 2 to 9).
    assert_eq!(
        duplicate["range"]["start"],
        json!({"line": 2, "character": 0})
    );
    let message = duplicate["message"].as_str().unwrap();
    assert!(
        message.contains("Tic-Tac-Toe") && message.contains("tic-tac-toe.ludi"),
        "{message}"
    );
    client.shutdown();
}

/// Without the tests' environment variable, the panicking methods do not exist.
#[test]
fn the_panicking_test_methods_are_unknown_unless_asked_for() {
    let workspace = Workspace::new(SETTINGS);
    let mut server = support::ludeme_lsp(workspace.root());
    server.env_remove(ludeme_lsp::TEST_PANICS);
    let mut client = StdioClient::spawn(server);
    client.initialize(workspace.vscode_initialize());
    let response = client.request("ludeme/debugPanic", json!({}));
    assert_eq!(
        response["error"]["code"], -32601,
        "method not found: {response}"
    );
    client.shutdown();
}

/// At `exit` the server ends at once, even while a handler waits for the client: here the
/// `initialized` handler, whose requests (a lens refresh, the registration of file watching)
/// this client never answers, as an editor closed right after it opened the folder. The server
/// used to wait for the answer for good.
#[test]
fn the_server_exits_at_exit_while_its_own_request_is_unanswered() {
    let workspace = Workspace::new(SETTINGS);
    with_its_own_request_unanswered(&workspace).shutdown();
}

/// A session opened as VS Code opens it, by a client that never answers the server's requests,
/// once the server has sent one.
fn with_its_own_request_unanswered(workspace: &Workspace) -> StdioClient {
    let mut client = StdioClient::spawn_unanswering(support::ludeme_lsp(workspace.root()));
    client.initialize(workspace.vscode_initialize());
    let request = client.wait_for("a request of the server", |message| {
        message.get("method").is_some() && message.get("id").is_some()
    });
    eprintln!("left unanswered: {}", request["method"]);
    client
}

/// When the client hangs up without `exit` (an editor that crashed), the server ends too, even
/// while a handler waits for the client: what it asked the client gives up.
#[test]
fn the_server_exits_when_the_client_hangs_up_with_its_own_request_unanswered() {
    let workspace = Workspace::new(SETTINGS);
    with_its_own_request_unanswered(&workspace).hang_up();
}

#[test]
fn a_panic_in_a_request_or_a_notification_is_reported_and_the_session_goes_on() {
    let workspace = Workspace::new(SETTINGS);
    let mut server = support::ludeme_lsp(workspace.root());
    // The two panicking methods exist only when asked for.
    server.env(ludeme_lsp::TEST_PANICS, "1");
    let mut client = StdioClient::spawn(server);
    client.initialize(workspace.vscode_initialize());

    let response = client.request("ludeme/debugPanic", json!({}));
    assert_eq!(
        response["error"]["code"], -32603,
        "internal error: {response}"
    );
    let shown = client.next_message("window/showMessage");
    assert_eq!(shown["params"]["type"], 1, "an error message");
    assert!(
        shown["params"]["message"]
            .as_str()
            .unwrap()
            .contains("ludeme/debugPanic"),
        "{shown}"
    );

    client.notify("ludeme/debugPanicNotification", json!({}));
    let shown = client.next_message("window/showMessage");
    assert!(
        shown["params"]["message"]
            .as_str()
            .unwrap()
            .contains("ludeme/debugPanicNotification"),
        "{shown}"
    );

    // The session goes on: a document opens and gets its diagnostics and hovers.
    let uri = workspace.uri("games/ludi/tic-tac-toe.ludi");
    let text = workspace.text("games/ludi/tic-tac-toe.ludi");
    client.open(&uri, "ludi", &text);
    assert_eq!(client.diagnostics_for(&uri, 1), Vec::<Value>::new());
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, "in-a-row")}),
    );
    assert!(hover.get("error").is_none(), "{hover}");
    assert!(client.is_running());
    client.shutdown();
}

#[test]
fn settings_mistakes_are_published_and_watched_files_are_applied() {
    let workspace = Workspace::new("[rules]\ndisable = [\"gdl/unused-relatoin\"]\n");
    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    client.initialize(workspace.vscode_initialize());
    let settings_uri = workspace.uri("ludeme.toml");
    let published = client.wait_for("the settings' diagnostics", |message| {
        message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == settings_uri.as_str()
    });
    let diagnostics = &published["params"]["diagnostics"];
    assert_eq!(diagnostics.as_array().unwrap().len(), 1, "{diagnostics}");
    assert_eq!(diagnostics[0]["code"], "config/unknown-rule");
    // `"gdl/unused-relatoin"` on line 2 (0-based 1), after `disable = [`.
    assert_eq!(
        diagnostics[0]["range"],
        json!({"start": {"line": 1, "character": 11}, "end": {"line": 1, "character": 32}})
    );

    // An EGGG game whose base is not in the workspace yet: `is like` cannot resolve.
    let uri = workspace.uri("games/egg/drop-tetris.egg");
    let text = "DropTetris is like HoverTetris\nspeed doubles\n";
    std::fs::write(workspace.path("games/egg/drop-tetris.egg"), text).unwrap();
    client.open(&uri, "egg", text);
    let codes = |diagnostics: &[Value]| -> Vec<String> {
        diagnostics
            .iter()
            .map(|diagnostic| diagnostic["code"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let before = client.diagnostics_for(&uri, 1);
    assert!(
        codes(&before).iter().any(|code| code.contains("base")),
        "an unresolved base is reported: {before:?}"
    );
    // The base appears on disk; the watcher reports it; the open game is checked again.
    let base = workspace.path("games/egg/hover-tetris.egg");
    std::fs::write(
        &base,
        "game is HoverTetris\nplayers are one\nturns alternate\n10 x 20 grid\n",
    )
    .unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": workspace.uri("games/egg/hover-tetris.egg"), "type": 1}]}),
    );
    let after = client.diagnostics_for(&uri, 1);
    assert!(
        !codes(&after).iter().any(|code| code.contains("base")),
        "the base is found once the watcher reports it: {after:?}"
    );
    client.shutdown();
}

#[test]
fn a_ten_megabyte_file_stays_responsive() {
    let workspace = Workspace::new(SETTINGS);
    // Ten megabytes of GDL: the tic-tac-toe rules over and over with renamed relations, plus
    // one mistake per copy, so that there are more problems than the editor is sent.
    let rules = workspace.text("games/gdl/ticTacToe.kif");
    let mut text = String::with_capacity(10 << 20);
    let mut copy = 0;
    while text.len() < 10 << 20 {
        text.push_str(&rules.replace("cell", &format!("cell{copy}")));
        text.push_str(&format!(
            "(<= (broken{copy} ?x) (true (cell{copy} ?y ?y b)))\n"
        ));
        copy += 1;
    }
    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    client.initialize(workspace.vscode_initialize());
    let uri = workspace.uri("huge.kif");
    let started = Instant::now();
    client.open(&uri, "kif", &text);
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position_of(&text, "(role xplayer)")}),
    );
    let hover_time = started.elapsed();
    assert!(hover.get("error").is_none(), "{hover}");
    let first = client.diagnostics_for(&uri, 1);
    let first_time = started.elapsed();
    // A file this large gets its per-rule findings at once, with a note that the checks over
    // the whole rule set follow when typing pauses; then everything.
    assert!(
        first.iter().any(|d| d["message"]
            .as_str()
            .unwrap_or_default()
            .contains("run once typing pauses")),
        "{:?}",
        first.last()
    );
    let diagnostics = client.diagnostics_for(&uri, 1);
    let diagnostics_time = started.elapsed();
    eprintln!(
        "10 MB file: hover after {hover_time:?}, first diagnostics after {first_time:?}, all after {diagnostics_time:?}"
    );
    // Bounded: the whole file parsed and checked in a debug build on a shared machine.
    assert!(
        hover_time < Duration::from_secs(60),
        "hover took {hover_time:?}"
    );
    assert!(
        diagnostics.len() <= 1_001,
        "diagnostics are capped: {}",
        diagnostics.len()
    );
    assert!(
        diagnostics.len() > 1_000,
        "with {copy} mistakes, the last diagnostic says how many more there are"
    );
    let last = diagnostics.last().unwrap();
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .contains("more problems are not shown"),
        "{last}"
    );
    // And an edit is answered in bounded time too.
    let started = Instant::now();
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                             "end": {"line": 0, "character": 0}},
                                   "text": "; edited\n"}]}),
    );
    client.diagnostics_for(&uri, 2);
    let edit_time = started.elapsed();
    eprintln!("10 MB file: diagnostics after an edit in {edit_time:?}");
    assert!(
        edit_time < Duration::from_secs(60),
        "edit took {edit_time:?}"
    );
    client.shutdown();
}

/// Three EGGG files of a workspace folder: Blockfall defines `Line`, SideBlockfall is like
/// Blockfall, TwoBlockfall is like SideBlockfall. Only the middle one is open.
const FAMILY: [(&str, &str); 3] = [
    (
        "family/blockfall.egg",
        "game is Blockfall\nLine means row is full\npieces are [I, O, T]\n",
    ),
    (
        "family/side.egg",
        "SideBlockfall is like Blockfall\nLine removes row\n",
    ),
    (
        "family/two.egg",
        "TwoBlockfall is like SideBlockfall\nlines score twice\n",
    ),
];

fn lsp_range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1},
           "end": {"line": end.0, "character": end.1}})
}

#[test]
fn an_eggg_workspace_navigates_across_is_like_files() {
    let workspace = Workspace::new(SETTINGS);
    std::fs::create_dir_all(workspace.path("family")).unwrap();
    for (file, text) in FAMILY {
        std::fs::write(workspace.path(file), text).unwrap();
    }
    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    client.initialize(workspace.vscode_initialize());
    // The server registers file watching once it has read the workspace's games.
    client.next_message("client/registerCapability");
    let (side_uri, base_uri) = (
        workspace.uri("family/side.egg"),
        workspace.uri("family/blockfall.egg"),
    );
    let side = FAMILY[1].1;
    client.open(&side_uri, "egg", side);
    // Incomplete as a game (no players, no goal), but its base is found.
    let diagnostics = client.diagnostics_for(&side_uri, 1);
    assert!(
        diagnostics
            .iter()
            .all(|diagnostic| diagnostic["code"] != "egg/unresolved-base"),
        "{diagnostics:?}"
    );
    let at = |position: Value| json!({"textDocument": {"uri": side_uri}, "position": position});
    let on_line = position_of(side, "\n$0Line");
    let on_base = position_of(side, "like $0Blockfall");

    // `Line` is defined in Blockfall's file; the base name goes to Blockfall's `game is`.
    let definition = client.request("textDocument/definition", at(on_line.clone()));
    assert_eq!(
        answer(&definition),
        json!([{"uri": base_uri, "range": lsp_range((1, 0), (1, 4))}])
    );
    let definition = client.request("textDocument/definition", at(on_base.clone()));
    assert_eq!(
        answer(&definition),
        json!([{"uri": base_uri, "range": lsp_range((0, 8), (0, 17))}])
    );

    // In this document, `Line` is written once, as a use (kind 2: read).
    let highlight = client.request("textDocument/documentHighlight", at(on_line.clone()));
    assert_eq!(
        answer(&highlight),
        json!([{"range": lsp_range((1, 0), (1, 4)), "kind": 2}])
    );
    // An inherited name can be renamed from here: the range is this document's word.
    let prepared = client.request("textDocument/prepareRename", at(on_line));
    assert_eq!(answer(&prepared), lsp_range((1, 0), (1, 4)));

    // The game names are types (index 2), `SideBlockfall` declared here (modifier 1); the
    // inherited `Line` is a function (index 1); `removes` and `row` name nothing.
    let tokens = client.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": side_uri}}),
    );
    assert_eq!(
        answer(&tokens)["data"],
        json!([0, 0, 13, 2, 1, 0, 22, 9, 2, 0, 1, 0, 4, 1, 0])
    );
    client.shutdown();
}

/// Whether a response is an answer or an error a client can act on: anything but the internal
/// error a panicking request gets (-32603).
fn assert_handled(response: &Value, what: &str) {
    assert!(
        response.get("result").is_some() || response["error"]["code"].is_i64(),
        "{what}: {response}"
    );
    assert_ne!(response["error"]["code"], -32603, "{what}: {response}");
}

#[test]
fn odd_requests_get_an_empty_answer_or_an_error_never_a_crash() {
    let workspace = Workspace::new(SETTINGS);
    let mut client = StdioClient::spawn(support::ludeme_lsp(workspace.root()));
    client.initialize(workspace.vscode_initialize());
    let document = |uri: &str| json!({"uri": uri});
    let at = |uri: &str, line: u32, character: u32| json!({"textDocument": document(uri), "position": {"line": line, "character": character}});

    // A document never opened: no answer (null), for every request about a position or a file.
    let never = workspace.uri("games/gdl/never-opened.kif");
    for (method, params) in [
        ("textDocument/hover", at(&never, 0, 0)),
        ("textDocument/definition", at(&never, 0, 0)),
        ("textDocument/documentHighlight", at(&never, 0, 0)),
        ("textDocument/prepareRename", at(&never, 0, 0)),
        (
            "textDocument/references",
            json!({"textDocument": document(&never), "position": {"line": 0, "character": 0},
                   "context": {"includeDeclaration": true}}),
        ),
        (
            "textDocument/rename",
            json!({"textDocument": document(&never), "position": {"line": 0, "character": 0},
                   "newName": "other"}),
        ),
        (
            "textDocument/documentSymbol",
            json!({"textDocument": document(&never)}),
        ),
        (
            "textDocument/semanticTokens/full",
            json!({"textDocument": document(&never)}),
        ),
    ] {
        let response = client.request(method, params);
        assert_eq!(response["result"], Value::Null, "{method}: {response}");
        assert!(response.get("error").is_none(), "{method}: {response}");
    }

    // Positions past the end of the file, and past the end of a line: read as the end.
    let subjects = [
        ("games/gdl/ticTacToe.kif", "kif", "(true ($0cell"),
        ("games/gdl/ticTacToe.hrf", "gdl", "true($0cell("),
        ("games/ludi/tic-tac-toe.ludi", "ludi", "(players $0White"),
        ("games/egg/rock-paper-scissors.egg", "egg", "are $0Rock"),
    ];
    for (file, language_id, _) in subjects {
        let uri = workspace.uri(file);
        let text = workspace.text(file);
        client.open(&uri, language_id, &text);
        client.diagnostics_for(&uri, 1);
        for (line, character) in [(100_000, 3), (0, 100_000), (u32::MAX, u32::MAX)] {
            let position = at(&uri, line, character);
            for method in [
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/documentHighlight",
                "textDocument/signatureHelp",
                "textDocument/completion",
                "textDocument/prepareRename",
            ] {
                let response = client.request(method, position.clone());
                assert_handled(&response, &format!("{method} at {position} in {file}"));
            }
            let far = json!({"line": line, "character": character});
            let whole = json!({"start": {"line": 0, "character": 0}, "end": far});
            for (method, params) in [
                (
                    "textDocument/selectionRange",
                    json!({"textDocument": document(&uri), "positions": [far]}),
                ),
                (
                    "textDocument/inlayHint",
                    json!({"textDocument": document(&uri), "range": whole}),
                ),
                (
                    "textDocument/codeAction",
                    json!({"textDocument": document(&uri), "range": whole,
                           "context": {"diagnostics": []}}),
                ),
                (
                    "textDocument/rangeFormatting",
                    json!({"textDocument": document(&uri), "range": whole,
                           "options": {"tabSize": 2, "insertSpaces": true}}),
                ),
            ] {
                let response = client.request(method, params);
                assert_handled(&response, &format!("{method} to {far} in {file}"));
            }
        }
    }

    // Renaming to an empty name, to two words or to a name of the wrong sort is refused with
    // an invalid-params error saying why; nothing is edited.
    for (file, _, symbol) in subjects {
        let uri = workspace.uri(file);
        let text = workspace.text(file);
        let position = position_of(&text, symbol);
        for new_name in ["", "two words", "?x", "("] {
            let response = client.request(
                "textDocument/rename",
                json!({"textDocument": document(&uri), "position": position, "newName": new_name}),
            );
            assert_eq!(
                response["error"]["code"], -32602,
                "renaming to {new_name:?} in {file}: {response}"
            );
            let message = response["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains(&format!("`{new_name}`")),
                "the refusal names the new name: {message}"
            );
        }
    }

    // Parameters of the wrong shape, or none: invalid params, answered.
    let uri = workspace.uri("games/gdl/ticTacToe.kif");
    for (method, params) in [
        ("textDocument/hover", json!({"textDocument": 5})),
        (
            "textDocument/hover",
            json!({"textDocument": document(&uri), "position": "here"}),
        ),
        (
            "textDocument/rename",
            json!({"textDocument": document(&uri)}),
        ),
        ("textDocument/references", Value::Null),
        ("textDocument/semanticTokens/full", json!([1, 2])),
        ("codeLens/resolve", json!({"range": 3})),
    ] {
        let response = client.request(method, params.clone());
        assert_eq!(
            response["error"]["code"], -32602,
            "{method} with {params}: {response}"
        );
    }

    // And the session goes on.
    let text = workspace.text("games/gdl/ticTacToe.kif");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": document(&uri), "position": position_of(&text, "(dis$0tinct")}),
    );
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .is_some_and(|markdown| markdown.starts_with("**distinct**")),
        "{hover}"
    );
    assert!(client.is_running());
    client.shutdown();
}

//! End-to-end sessions with the language server, driven by an in-process client over the real
//! protocol (JSON-RPC framing included).

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::lsp_client::LspClient;

const TIC_TAC_TOE: &str = "\
(game Tic-Tac-Toe
  (players White Black)
  (board
    (tiling square i-nbors)
    (size 3 3)
  )
  (end (All win (in-a-row 3)))
)
";

const URI: &str = "file:///workspace/tic-tac-toe.ludi";

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1},
           "end": {"line": end.0, "character": end.1}})
}

async fn open(client: &mut LspClient, uri: &str, language_id: &str, text: &str) {
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}}),
        )
        .await;
}

async fn change(client: &mut LspClient, uri: &str, version: i64, range: Value, text: &str) {
    client
        .notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version},
                   "contentChanges": [{"range": range, "text": text}]}),
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diagnostics_appear_and_clear_as_a_file_is_edited() {
    let mut client = LspClient::start();
    let init = client.initialize().await;
    let capabilities = &init["result"]["capabilities"];
    assert_eq!(
        capabilities["textDocumentSync"]["change"], 2,
        "incremental sync"
    );
    assert_eq!(capabilities["positionEncoding"], "utf-16");

    open(&mut client, URI, "ludi", TIC_TAC_TOE).await;
    assert_eq!(client.diagnostics_for(URI, 1).await, Vec::<Value>::new());

    // A stray `)` after the game's closing parenthesis (line 8, column 2).
    change(&mut client, URI, 2, range((7, 1), (7, 1)), ")").await;
    let diagnostics = client.diagnostics_for(URI, 2).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "syntax/unexpected-input");
    assert_eq!(diagnostics[0]["severity"], 1);
    assert_eq!(diagnostics[0]["range"], range((7, 1), (7, 2)));

    // Undo it: the diagnostics clear.
    change(&mut client, URI, 3, range((7, 1), (7, 2)), "").await;
    assert_eq!(client.diagnostics_for(URI, 3).await, Vec::<Value>::new());

    // Delete the `)` closing `(size 3 3)`: a missing `)` is reported with the unclosed `(`.
    change(&mut client, URI, 4, range((4, 13), (4, 14)), "").await;
    let diagnostics = client.diagnostics_for(URI, 4).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "syntax/missing-token");
    assert!(
        diagnostics[0]["relatedInformation"][0]["message"]
            .as_str()
            .unwrap()
            .contains("never closed"),
        "{diagnostics:#?}"
    );
    change(&mut client, URI, 5, range((4, 13), (4, 13)), ")").await;
    assert_eq!(client.diagnostics_for(URI, 5).await, Vec::<Value>::new());

    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_count_utf16_code_units() {
    let mut client = LspClient::start();
    client.initialize().await;
    let uri = "file:///workspace/strings.ludi";
    // `é` is one UTF-16 unit (two bytes), `𝄞` two units (four bytes).
    // (A complete game, so that the Ludi checks have nothing to say before the edit.)
    let line = "(game T (players A B) (board (tiling hex) (size 2)) (end (All win (in-a-row 2))) (support (description \"é𝄞\")))";
    open(&mut client, uri, "ludi", &format!("{line}\n")).await;
    assert_eq!(client.diagnostics_for(uri, 1).await, Vec::<Value>::new());
    let end_utf16 = line.encode_utf16().count() as u32;
    assert_eq!(end_utf16, 111, "the test's own arithmetic");
    change(
        &mut client,
        uri,
        2,
        range((0, end_utf16), (0, end_utf16)),
        ")",
    )
    .await;
    let diagnostics = client.diagnostics_for(uri, 2).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["range"], range((0, 111), (0, 112)));
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn document_symbols_outline_the_game() {
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, URI, "ludi", TIC_TAC_TOE).await;
    client.diagnostics_for(URI, 1).await;
    let response = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .await;
    let symbols = response["result"].as_array().expect("a symbol list");
    assert_eq!(symbols.len(), 1);
    assert_eq!(symbols[0]["name"], "Tic-Tac-Toe");
    let children: Vec<&str> = symbols[0]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|child| child["name"].as_str().unwrap())
        .collect();
    assert_eq!(children, ["players", "board", "end"]);
    assert_eq!(symbols[0]["selectionRange"], range((0, 6), (0, 17)));
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_a_file_clears_its_diagnostics() {
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, URI, "ludi", "(game Broken\n").await;
    assert_eq!(client.diagnostics_for(URI, 1).await.len(), 1);
    client
        .notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": URI}}),
        )
        .await;
    let params = client
        .next_notification("textDocument/publishDiagnostics")
        .await;
    assert_eq!(params["uri"], URI);
    assert_eq!(params["diagnostics"], json!([]));
    client.shutdown().await;
}

/// The (line, UTF-16 column) of the `nth` occurrence of `needle` in `text`.
fn position_of(text: &str, needle: &str, nth: usize) -> (u32, u32) {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` occurs {nth} times"))
        .0;
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        line as u32,
        before[line_start..].encode_utf16().count() as u32,
    )
}

fn at(uri: &str, position: (u32, u32)) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": position.0, "character": position.1}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gdl_navigation_hover_rename_and_tokens() {
    let text =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    let uri = "file:///workspace/ticTacToe.kif";
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", &text).await;
    assert_eq!(client.diagnostics_for(uri, 1).await, Vec::<Value>::new());

    // Hover on the keyword `legal` and on the relation `line`.
    let legal = position_of(&text, "(legal ", 0);
    let hover = client
        .request("textDocument/hover", at(uri, (legal.0, legal.1 + 2)))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.starts_with("**legal** — GDL keyword, 2 arguments"),
        "{markdown}"
    );
    let line_use = position_of(&text, "(line x)", 0);
    let hover = client
        .request("textDocument/hover", at(uri, (line_use.0, line_use.1 + 1)))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.contains("**line** — relation of arity 1"),
        "{markdown}"
    );
    assert!(
        markdown.contains("Defined by 3 rules and facts"),
        "{markdown}"
    );

    // Go to definition from a use of `line`: the three rule heads.
    let definition = client
        .request(
            "textDocument/definition",
            at(uri, (line_use.0, line_use.1 + 1)),
        )
        .await;
    let targets = definition["result"].as_array().unwrap();
    let expected_lines: Vec<u32> = (0..3)
        .map(|n| position_of(&text, "(<= (line ?f)", n).0)
        .collect();
    let lines: Vec<u32> = targets
        .iter()
        .map(|t| t["range"]["start"]["line"].as_u64().unwrap() as u32)
        .collect();
    assert_eq!(lines, expected_lines);

    // References of `line`: three definitions and every use in a body.
    let references = client
        .request(
            "textDocument/references",
            json!({"textDocument": {"uri": uri}, "position": {"line": line_use.0, "character": line_use.1 + 1},
                   "context": {"includeDeclaration": true}}),
        )
        .await;
    let uses = text.matches("(line ").count();
    assert_eq!(references["result"].as_array().unwrap().len(), uses);

    // Rename the relation `line` to `three-in-a-row`: one edit per occurrence.
    let rename = client
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri}, "position": {"line": line_use.0, "character": line_use.1 + 1},
                   "newName": "three-in-a-row"}),
        )
        .await;
    let edits = rename["result"]["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), uses);
    assert!(edits.iter().all(|edit| edit["newText"] == "three-in-a-row"));

    // Renaming a keyword is refused with a reason.
    let refused = client
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri}, "position": {"line": legal.0, "character": legal.1 + 2}, "newName": "allowed"}),
        )
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("keyword"),
        "{refused}"
    );

    // A variable renames within its rule only.
    let variable = position_of(&text, "(<= (line ?f)\n    (row ?m ?f))", 0);
    let rename = client
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri}, "position": {"line": variable.0, "character": variable.1 + 11},
                   "newName": "?player"}),
        )
        .await;
    let edits = rename["result"]["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), 2, "{rename}");
    let rule_lines = [variable.0, variable.0 + 1];
    assert!(edits.iter().all(|edit| {
        let line = edit["range"]["start"]["line"].as_u64().unwrap() as u32;
        rule_lines.contains(&line)
    }));

    // Semantic tokens decode back onto the names of the text.
    let tokens = client
        .request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let data: Vec<u64> = tokens["result"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(data.len() % 5, 0);
    let lines: Vec<&str> = text.lines().collect();
    let (mut line, mut start) = (0usize, 0usize);
    let mut decoded = Vec::new();
    for token in data.chunks(5) {
        if token[0] > 0 {
            line += token[0] as usize;
            start = 0;
        }
        start += token[1] as usize;
        decoded.push(lines[line][start..start + token[2] as usize].to_owned());
    }
    assert!(decoded.iter().any(|name| name == "legal"));
    assert!(decoded.iter().any(|name| name == "?f"));
    assert!(
        decoded
            .iter()
            .all(|name| !name.contains(' ') && !name.contains('(')),
        "{decoded:?}"
    );

    // The hover on a relation in a rule also reads the rule in English.
    let hover = client
        .request("textDocument/hover", at(uri, (line_use.0, line_use.1 + 1)))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("*This rule reads:* "), "{markdown}");

    // Multi-line rules fold.
    let folds = client
        .request(
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert!(folds["result"].as_array().unwrap().len() > 10);
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn formatting_is_one_edit_and_then_nothing() {
    let text =
        std::fs::read_to_string(support::project_root().join("tests/fixtures/format/messy.kif"))
            .unwrap();
    let uri = "file:///workspace/messy.kif";
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", &text).await;
    client.diagnostics_for(uri, 1).await;
    let params =
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}});
    let response = client
        .request("textDocument/formatting", params.clone())
        .await;
    let edits = response["result"]
        .as_array()
        .expect("edits for a messy file");
    assert_eq!(edits.len(), 1);
    let formatted = edits[0]["newText"].as_str().unwrap().to_owned();
    assert_ne!(formatted, text);
    // Apply it: a second formatting request has nothing to change.
    client
        .notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": formatted}]}),
        )
        .await;
    client.diagnostics_for(uri, 2).await;
    let response = client.request("textDocument/formatting", params).await;
    assert_eq!(response["result"], Value::Null);
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_get_an_error_and_the_session_goes_on() {
    let mut client = LspClient::start();
    client.initialize().await;
    // Not JSON, a JSON value that is not an object, a frame without Content-Length.
    client.send_raw("{ this is not json").await;
    client.send_raw("[1, 2, 3]").await;
    client
        .send_raw_bytes(b"Content-Type: nothing\r\n\r\n")
        .await;
    // A request with wrong parameters gets an error response of its own.
    let bad = client
        .request("textDocument/documentSymbol", json!({"oops": 1}))
        .await;
    assert!(bad["error"]["code"].is_i64(), "{bad}");
    let errors = client.take_unsolicited_errors();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors.iter().all(|error| error["error"]["code"] == -32700));
    // The server still answers.
    open(&mut client, URI, "ludi", TIC_TAC_TOE).await;
    assert_eq!(client.diagnostics_for(URI, 1).await, Vec::<Value>::new());
    let response = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .await;
    assert!(response["result"].is_array(), "{response}");
    client.shutdown().await;
}

/// The real binary over stdio, as an editor runs it: it answers, and it exits on `exit` even
/// though the editor keeps its end of the pipe open.
#[test]
fn the_binary_serves_stdio_and_exits_on_exit() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let frame = |message: Value| {
        let body = message.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    };
    let mut server = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ludeme lsp starts");
    let mut stdin = server.stdin.take().unwrap();
    let mut stdout = BufReader::new(server.stdout.take().unwrap());
    let mut read_response = || {
        let mut length = 0;
        loop {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice::<Value>(&body).unwrap()
    };
    let mut send = |message: Value| {
        stdin.write_all(frame(message).as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let initialized = read_response();
    assert_eq!(
        initialized["result"]["serverInfo"]["name"], "ludeme",
        "{initialized}"
    );
    send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    let shutdown = read_response();
    assert_eq!(shutdown["id"], 2);
    assert!(shutdown.get("error").is_none(), "{shutdown}");
    send(json!({"jsonrpc": "2.0", "method": "exit"}));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not exit after `exit`"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success());
}

/// Three code lenses sit above the first `role`: nearest game, bench figure and random play.
/// The random-play lens is titled lazily by `codeLens/resolve`, and the hover on a `role` fact
/// gives the figures per role.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gdl_code_lens_summarises_random_play() {
    let text =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    let uri = "file:///workspace/ticTacToe.kif";
    let mut client = LspClient::start();
    let init = client.initialize().await;
    assert_eq!(
        init["result"]["capabilities"]["codeLensProvider"]["resolveProvider"],
        true
    );
    open(&mut client, uri, "gdl", &text).await;
    assert_eq!(client.diagnostics_for(uri, 1).await, Vec::<Value>::new());

    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let lenses = lenses["result"].as_array().expect("a lens list").clone();
    let kinds: Vec<&str> = lenses
        .iter()
        .filter_map(|lens| lens["data"]["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["nearest", "bench", "simulation"], "{lenses:#?}");
    let role = position_of(&text, "(role xplayer)", 0);
    for lens in &lenses {
        assert_eq!(lens["range"]["start"]["line"], role.0);
        assert!(lens["command"].is_null(), "titled only on resolve");
    }
    let simulation = lenses[2].clone();

    let resolved = client.request("codeLens/resolve", simulation).await;
    let title = resolved["result"]["command"]["title"]
        .as_str()
        .unwrap_or_else(|| panic!("{resolved}"));
    // Random tic-tac-toe: two roles, 5 to 9 plies, and the first player wins most often.
    assert!(
        title.starts_with("2 roles · random play ends after "),
        "{title}"
    );
    assert!(title.contains(" · xplayer wins "), "{title}");

    let hover = client
        .request("textDocument/hover", at(uri, (role.0, role.1 + 2)))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("**Random play**"), "{markdown}");
    assert!(markdown.contains("| xplayer |"), "{markdown}");
    assert!(markdown.contains("| oplayer |"), "{markdown}");
    client.shutdown().await;
}

/// Random play on one document, cancelled midway by an edit of another, is played again at the
/// next pause in the edits, and its findings come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_play_cancelled_by_another_documents_edit_runs_again() {
    let uri = "file:///workspace/never-ends.kif";
    let other = "file:///workspace/ticTacToe.kif";
    let mut client = LspClient::start();
    client.initialize().await;
    open_simulation_fixture(&mut client, other, "ticTacToe.kif").await;
    let first_round = open_simulation_fixture(&mut client, uri, "never-ends.kif").await;
    assert_eq!(first_round, Vec::<Value>::new());
    // Random play on `never-ends` plays every game to the length limit: the edit lands while
    // it runs.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    change(&mut client, other, 2, range((0, 0), (0, 0)), " ").await;
    let diagnostics = client.diagnostics_for(uri, 1).await;
    assert!(
        diagnostics
            .iter()
            .any(|diagnostic| diagnostic["code"] == "gdl/playout-no-terminal"),
        "{diagnostics:#?}"
    );
    client.shutdown().await;
}

/// The nearest-game lens of a document that did not change is worked out again once another
/// game becomes known: a result is only as good as the games it was compared with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nearest_game_lens_follows_the_games_known() {
    let uri = "file:///workspace/ticTacToe.kif";
    let text =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", &text).await;
    client.diagnostics_for(uri, 1).await;
    let nearest = lens_of_kind(&mut client, uri, "nearest").await;
    let alone = lens_title(&client.request("codeLens/resolve", nearest.clone()).await);
    assert_eq!(alone, "nearest: no other game of this language is known");

    let other = "file:///workspace/never-ends.kif";
    open_simulation_fixture(&mut client, other, "never-ends.kif").await;
    let beside_another = lens_title(&client.request("codeLens/resolve", nearest).await);
    assert!(
        beside_another.starts_with("nearest: never-ends · "),
        "{beside_another}"
    );
    client.shutdown().await;
}

/// The probe's lens is worked out again under budgets changed in the editor's settings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_lens_follows_the_budgets_set() {
    let mut client = LspClient::start();
    client
        .initialize_with_options(json!({"probe": {"enabled": true, "games": 10, "seconds": 5}}))
        .await;
    open(&mut client, URI, "ludi", TIC_TAC_TOE).await;
    client.diagnostics_for(URI, 1).await;
    let probe = lens_of_kind(&mut client, URI, "probe").await;
    let first = lens_title(&client.request("codeLens/resolve", probe.clone()).await);
    // Fewer games than a firm verdict needs (20): the lens says it is tentative.
    assert!(first.contains(" · 10 games, tentative · "), "{first}");
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"ludeme": {"probe": {"enabled": true, "games": 20, "seconds": 5}}}}),
        )
        .await;
    let again = lens_title(&client.request("codeLens/resolve", probe).await);
    assert!(again.contains(" · 20 games · "), "{again}");
    client.shutdown().await;
}

/// The probe lens plays a game whose only errors the project's `ludeme.toml` disables, as
/// `ludeme check` finds none: Yavalath with `i-nbors` in its end conditions, which hexagonal
/// cells give no meaning to (`ludi/inapplicable`), plays as Yavalath does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_lens_follows_the_projects_rule_selection() {
    let folder = support::projects::project(
        "[rules]\ndisable = [\"ludi/inapplicable\"]\n\n[probe]\ngames = 2\nseconds = 20.0\n",
        "yavalath.ludi",
        &support::projects::yavalath_with_inapplicable_neighbours(),
    );
    let (mut client, uri) =
        support::projects::open_in_workspace(folder.path(), "yavalath.ludi", "ludi").await;
    let probe = lens_of_kind(&mut client, &uri, "probe").await;
    // The workspace's settings are read off the protocol thread: until they apply, the default
    // selection makes the game's findings errors.
    let title = resolve_until(&mut client, &probe, |title| !title.contains("error(s)")).await;
    assert!(title.contains(" · 2 games, tentative · "), "{title}");
    client.shutdown().await;
}

/// A change of `ludeme.toml` to its `[rules]` alone (the probe budgets and the document stay
/// as they were) is a new verdict of the engine gate: the probe lens worked out under the old
/// selection is not shown again, and the game the selection now makes an error of is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_probe_lens_follows_a_change_of_the_rules_alone() {
    const PROBE: &str = "[probe]\ngames = 2\nseconds = 20.0\n";
    let folder = support::projects::project(
        &format!("[rules]\ndisable = [\"ludi/inapplicable\"]\n\n{PROBE}"),
        "yavalath.ludi",
        &support::projects::yavalath_with_inapplicable_neighbours(),
    );
    let (mut client, uri) =
        support::projects::open_in_workspace(folder.path(), "yavalath.ludi", "ludi").await;
    let probe = lens_of_kind(&mut client, &uri, "probe").await;
    // Played under the project's settings (the defaults refuse the game): the result is done
    // for this version and these budgets.
    let played = resolve_until(&mut client, &probe, |title| title.contains(" · 2 games")).await;
    assert!(played.contains(" · 2 games, tentative · "), "{played}");

    // The same budgets, the default rule selection: `ludi/inapplicable` is an error again, at
    // each of the game's two `in-a-row` conditions.
    let settings = folder.path().join("ludeme.toml");
    std::fs::write(&settings, PROBE).expect("written");
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": format!("file://{}", settings.display()), "type": 2}]}),
        )
        .await;
    let refused = resolve_until(&mut client, &probe, |title| title.contains("error(s)")).await;
    assert!(refused.contains("the game has 2 error(s)"), "{refused}");
    client.shutdown().await;
}

/// The title of `lens` resolved again and again (for up to 20 s) until `done` holds of it, as
/// settings read off the protocol thread and background work take a while; the last title.
async fn resolve_until(
    client: &mut LspClient,
    lens: &Value,
    done: impl Fn(&str) -> bool,
) -> String {
    let mut title = String::new();
    for _ in 0..100 {
        title = lens_title(&client.request("codeLens/resolve", lens.clone()).await);
        if done(&title) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    title
}

/// An edit stops the probe of the text before it: the run under way ends at its next state
/// (not after its budget of minutes), so the lens of the new text can be worked out at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_stops_the_probe_of_the_text_before_it() {
    let uri = "file:///workspace/yavalath.ludi";
    let text = std::fs::read_to_string(support::project_root().join("corpus/ludi/yavalath.ludi"))
        .expect("the corpus game");
    let mut client = LspClient::start();
    // A probe of many minutes: far longer than the test waits.
    client
        .initialize_with_options(json!({"probe": {"enabled": true, "games": 500, "seconds": 600}}))
        .await;
    open(&mut client, uri, "ludi", &text).await;
    client.diagnostics_for(uri, 1).await;
    let probe = lens_of_kind(&mut client, uri, "probe").await;
    let (_, first) = client
        .start_request("codeLens/resolve", probe.clone())
        .await;
    // Into the games: building the game comes first.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    client
        .notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"text": format!("{text}\n")}]}),
        )
        .await;
    // Resolving the lens of the new text finds the old run and tells it to stop.
    let second = lens_title(&client.request("codeLens/resolve", probe).await);
    assert!(second.ends_with('…'), "{second}");
    let stopped = Instant::now();
    let first = tokio::time::timeout(Duration::from_secs(20), first)
        .await
        .expect("the old probe stopped within seconds, not after its budget")
        .expect("the reader task is alive");
    assert!(
        lens_title(&first).contains("the document changed meanwhile"),
        "{first}"
    );
    assert!(stopped.elapsed() < Duration::from_secs(20));
    client.shutdown().await;
}

/// The unresolved lens of `kind` ("nearest", "probe", ...) of the open document `uri`.
async fn lens_of_kind(client: &mut LspClient, uri: &str, kind: &str) -> Value {
    let lenses = client
        .request(
            "textDocument/codeLens",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    lenses["result"]
        .as_array()
        .expect("a lens list")
        .iter()
        .find(|lens| lens["data"]["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} lens in {lenses}"))
        .clone()
}

/// The title of a `codeLens/resolve` answer.
fn lens_title(resolved: &Value) -> String {
    resolved["result"]["command"]["title"]
        .as_str()
        .unwrap_or_else(|| panic!("{resolved}"))
        .to_owned()
}

/// A game of `tests/fixtures/simulate`, written for the simulation checks.
fn simulation_fixture(name: &str) -> String {
    std::fs::read_to_string(
        support::project_root()
            .join("tests/fixtures/simulate")
            .join(name),
    )
    .unwrap()
}

/// Opens the simulation fixture `name` as `uri` and waits for its first diagnostics.
async fn open_simulation_fixture(client: &mut LspClient, uri: &str, name: &str) -> Vec<Value> {
    open(client, uri, "gdl", &simulation_fixture(name)).await;
    client.diagnostics_for(uri, 1).await
}

/// What random play finds follows the static diagnostics in a second publication.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulation_findings_are_published_after_the_static_ones() {
    let text = simulation_fixture("goal-missing.kif");
    let uri = "file:///workspace/goal-missing.kif";
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", &text).await;
    assert_eq!(client.diagnostics_for(uri, 1).await, Vec::<Value>::new());
    let diagnostics = client.diagnostics_for(uri, 1).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "gdl/goal-missing");
    let goal = position_of(&text, "(goal robot 100)", 0);
    assert_eq!(diagnostics[0]["range"]["start"]["line"], goal.0);
    client.shutdown().await;
}

/// An edit writes to the analysis database, which cancels every computation under way, among
/// them that of another document's latest diagnostics (an editor sends one `didChange` per
/// document when a replace-all touches several). That document did not change again, so no
/// later edit publishes it: its diagnostics must still come, and a publication must never be
/// older than the one before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edit_is_published_though_the_next_edit_elsewhere_cancels_its_checks() {
    const ROUNDS: i64 = 40;
    let text = support::large_gdl::large_gdl(&support::project_root(), 2_000);
    let uris = [
        "file:///workspace/first.kif",
        "file:///workspace/second.kif",
    ];
    let mut client = LspClient::start();
    client.initialize().await;
    for uri in uris {
        open(&mut client, uri, "gdl", &text).await;
        client.diagnostics_for(uri, 1).await;
    }
    let mut newest_published = [1, 1];
    for round in 0..ROUNDS {
        let version = round + 2;
        for uri in uris {
            change(&mut client, uri, version, range((0, 0), (0, 0)), " ").await;
        }
        while newest_published.iter().any(|&newest| newest < version) {
            let params = client
                .next_notification("textDocument/publishDiagnostics")
                .await;
            let Some(document) = uris.iter().position(|uri| params["uri"] == *uri) else {
                continue;
            };
            let published = params["version"].as_i64().unwrap();
            assert!(
                published >= newest_published[document],
                "{}: version {published} was published after version {}",
                uris[document],
                newest_published[document]
            );
            newest_published[document] = published;
        }
    }
    client.shutdown().await;
}

/// Random play on one document is cancelled by edits of another; it starts again when they
/// pause, and its findings still come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simulation_findings_survive_edits_of_another_document() {
    let uri = "file:///workspace/goal-missing.kif";
    let other = "file:///workspace/ticTacToe.kif";
    let mut client = LspClient::start();
    client.initialize().await;
    open_simulation_fixture(&mut client, other, "ticTacToe.kif").await;
    let first_round = open_simulation_fixture(&mut client, uri, "goal-missing.kif").await;
    assert_eq!(first_round, Vec::<Value>::new());
    // Longer than the pause before the slow round, with edits closer together than the round
    // takes.
    let editing = std::time::Instant::now();
    let mut version = 1;
    while editing.elapsed() < std::time::Duration::from_millis(1_500) {
        version += 1;
        change(&mut client, other, version, range((0, 0), (0, 0)), " ").await;
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let diagnostics = client.diagnostics_for(uri, 1).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["code"], "gdl/goal-missing");
    client.shutdown().await;
}

/// The labels of a completion answer.
fn completion_labels(response: &Value) -> Vec<String> {
    response["result"]["items"]
        .as_array()
        .expect("a completion list")
        .iter()
        .map(|item| item["label"].as_str().unwrap().to_owned())
        .collect()
}

/// The text `range` covers in `text` (ASCII text: columns are bytes).
fn covered<'a>(text: &'a str, range: &Value) -> &'a str {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap() as usize;
        let character = position["character"].as_u64().unwrap() as usize;
        text.split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum::<usize>()
            + character
    };
    &text[offset(&range["start"])..offset(&range["end"])]
}

const LUDI_GAME: &str = "\
(game Race
  (players White Black)
  (board (tiling square) (size 3 3) (regions (Goal White A3 B3 C3)))
  (end (White win (reach Goal)) (Black win (in-a-row 3))))
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ludi_hover_completion_signature_and_names() {
    let uri = "file:///workspace/race.ludi";
    let mut client = LspClient::start();
    let init = client.initialize().await;
    let capabilities = &init["result"]["capabilities"];
    assert_eq!(
        capabilities["completionProvider"]["triggerCharacters"],
        json!(["(", " "])
    );
    assert!(capabilities["signatureHelpProvider"].is_object());
    open(&mut client, uri, "ludi", LUDI_GAME).await;
    assert_eq!(client.diagnostics_for(uri, 1).await, Vec::<Value>::new());

    // The hover of a ludeme: its manual entry, its English here and its rule's.
    let reach = position_of(LUDI_GAME, "reach", 0);
    let hover = client
        .request("textDocument/hover", at(uri, (reach.0, reach.1 + 1)))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.starts_with("**reach** (an end condition)"),
        "{markdown}"
    );
    assert!(markdown.contains("This rule: “"), "{markdown}");
    assert!(
        markdown.contains("docs/ludi.md#endcondition-reach"),
        "{markdown}"
    );

    // In the end clause after `win`: end conditions, not board parts; with snippets.
    let after_win = position_of(LUDI_GAME, "(in-a-row 3)", 0);
    let completion = client
        .request(
            "textDocument/completion",
            at(uri, (after_win.0, after_win.1 + 1)),
        )
        .await;
    let labels = completion_labels(&completion);
    assert!(labels.contains(&"in-a-row".to_owned()), "{labels:?}");
    assert!(!labels.contains(&"tiling".to_owned()), "{labels:?}");
    let items = completion["result"]["items"].as_array().unwrap();
    let connect = items.iter().find(|item| item["label"] == "group").unwrap();
    assert_eq!(connect["kind"], 3, "a ludeme shows as a function");

    // Signature help inside `(size 3 3)`.
    let size = position_of(LUDI_GAME, "(size 3 3)", 0);
    let help = client
        .request("textDocument/signatureHelp", at(uri, (size.0, size.1 + 6)))
        .await;
    let signature = &help["result"]["signatures"][0];
    assert!(
        signature["label"].as_str().unwrap().starts_with("(size "),
        "{help}"
    );
    assert_eq!(help["result"]["activeParameter"], 0);

    // The player White: declared once, used by the region and the end clause.
    let white_use = position_of(LUDI_GAME, "(White win", 0);
    let position = (white_use.0, white_use.1 + 2);
    let definition = client
        .request("textDocument/definition", at(uri, position))
        .await;
    let targets = definition["result"].as_array().unwrap();
    assert_eq!(targets.len(), 1);
    assert_eq!(
        targets[0]["range"],
        range(position_of(LUDI_GAME, "White", 0), (1, 16))
    );
    let highlights = client
        .request("textDocument/documentHighlight", at(uri, position))
        .await;
    assert_eq!(
        highlights["result"].as_array().unwrap().len(),
        3,
        "{highlights}"
    );
    let rename = client
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": uri}, "position": {"line": position.0, "character": position.1},
                   "newName": "Red"}),
        )
        .await;
    let edits = rename["result"]["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), 3);
    assert!(
        edits
            .iter()
            .all(|edit| covered(LUDI_GAME, &edit["range"]) == "White")
    );
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egg_hover_completion_and_definition_across_is_like() {
    let base_uri = "file:///workspace/eggs/tetris.egg";
    let base = "game is Tetris\nLine means row is full\npieces are [I, O, T]\n";
    let side_uri = "file:///workspace/eggs/side.egg";
    let side = "SideTetris is like Tetris\nLine removes row\n";
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, base_uri, "egg", base).await;
    client.diagnostics_for(base_uri, 1).await;
    open(&mut client, side_uri, "egg", side).await;
    client.diagnostics_for(side_uri, 1).await;

    // `Line` in SideTetris is defined in Tetris's file.
    let line = position_of(side, "Line", 0);
    let definition = client
        .request("textDocument/definition", at(side_uri, line))
        .await;
    let targets = definition["result"].as_array().unwrap();
    assert_eq!(targets.len(), 1, "{definition}");
    assert_eq!(targets[0]["uri"], base_uri);
    assert_eq!(targets[0]["range"], range((1, 0), (1, 4)));

    // Its hover quotes the definition; `game is` shows the classification.
    let hover = client
        .request("textDocument/hover", at(side_uri, line))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("Line means row is full"), "{markdown}");
    let hover = client
        .request("textDocument/hover", at(base_uri, (0, 1)))
        .await;
    let markdown = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("- Synchrony: "), "{markdown}");

    // At the start of a new statement: the forms, and the inherited names, that match what is
    // typed.
    change(&mut client, side_uri, 2, range((2, 0), (2, 0)), "tu").await;
    client.diagnostics_for(side_uri, 2).await;
    let completion = client
        .request("textDocument/completion", at(side_uri, (2, 2)))
        .await;
    let labels = completion_labels(&completion);
    assert_eq!(labels[0], "turns alternate", "{labels:?}");
    assert!(!labels.contains(&"Line".to_owned()), "{labels:?}");
    assert_eq!(completion["result"]["isIncomplete"], false);
    change(&mut client, side_uri, 3, range((2, 0), (2, 2)), "Li").await;
    client.diagnostics_for(side_uri, 3).await;
    let completion = client
        .request("textDocument/completion", at(side_uri, (2, 2)))
        .await;
    let labels = completion_labels(&completion);
    assert!(labels.contains(&"Line".to_owned()), "{labels:?}");
    client.shutdown().await;
}

const GDL_GAME: &str = "\
(role x)
(role o)
(init (control x))
(<= (legal ?who noop) (role ?who) (not (true (control ?who))))
(<= terminal   (true (control o)))
";

/// More matches than a completion list holds: the list is cut, says so (the editor asks again
/// as the user types on), and its order is the server's, shorter names first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_completion_list_is_cut_and_marked_incomplete() {
    let uri = "file:///workspace/many.kif";
    let mut text = String::from("(role x)\n");
    for index in 0..120 {
        text.push_str(&format!(
            "(<= (legal x (move{index})) (row{index} 1))\n(row{index} 1)\n"
        ));
    }
    text.push_str("(<= terminal (ro))\n");
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", &text).await;
    client.diagnostics_for(uri, 1).await;
    let typed = position_of(&text, "(ro))", 0);
    let completion = client
        .request("textDocument/completion", at(uri, (typed.0, typed.1 + 3)))
        .await;
    assert_eq!(completion["result"]["isIncomplete"], true);
    let items = completion["result"]["items"].as_array().unwrap();
    assert_eq!(items.len(), 50);
    let labels = completion_labels(&completion);
    assert_eq!(labels[..3], ["role", "row0", "row1"], "{labels:?}");
    let sort_texts: Vec<&str> = items
        .iter()
        .map(|item| item["sortText"].as_str().unwrap())
        .collect();
    assert!(sort_texts.is_sorted(), "{sort_texts:?}");
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gdl_completion_signature_selection_and_range_formatting() {
    let uri = "file:///workspace/small.kif";
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", GDL_GAME).await;
    client.diagnostics_for(uri, 1).await;

    let control = position_of(GDL_GAME, "(control ?who)", 0);
    let completion = client
        .request(
            "textDocument/completion",
            at(uri, (control.0, control.1 + 1)),
        )
        .await;
    let labels = completion_labels(&completion);
    for expected in ["role", "legal", "does", "sees", "random", "?who", "x"] {
        assert!(
            labels.contains(&expected.to_owned()),
            "{expected} in {labels:?}"
        );
    }

    let does = position_of(GDL_GAME, "(role ?who)", 0);
    let help = client
        .request("textDocument/signatureHelp", at(uri, (does.0, does.1 + 6)))
        .await;
    assert_eq!(help["result"]["signatures"][0]["label"], "(role role-name)");
    assert_eq!(help["result"]["activeParameter"], 0);

    // Expanding the selection from `control`: the list, `true`'s list, `not`'s, the rule.
    let selection = client
        .request(
            "textDocument/selectionRange",
            json!({"textDocument": {"uri": uri},
                   "positions": [{"line": control.0, "character": control.1 + 2}]}),
        )
        .await;
    let mut node = &selection["result"][0];
    let mut steps = Vec::new();
    while node.is_object() {
        steps.push(covered(GDL_GAME, &node["range"]).to_owned());
        node = &node["parent"];
    }
    assert_eq!(
        steps[..4],
        [
            "control",
            "(control ?who)",
            "(true (control ?who))",
            "(not (true (control ?who)))"
        ]
    );
    assert_eq!(steps.last().unwrap(), GDL_GAME);

    // Range formatting touches the `terminal` rule only.
    let terminal = position_of(GDL_GAME, "terminal", 0);
    let formatted = client
        .request(
            "textDocument/rangeFormatting",
            json!({"textDocument": {"uri": uri}, "range": range(terminal, terminal),
                   "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .await;
    let edits = formatted["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{formatted}");
    assert_eq!(
        covered(GDL_GAME, &edits[0]["range"]),
        "(<= terminal   (true (control o)))"
    );
    // The formatter's KIF layout: each body literal on a line of its own.
    assert_eq!(edits[0]["newText"], "(<= terminal\n    (true (control o)))");
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_actions_fix_add_and_convert() {
    let mut client = LspClient::start();
    client.initialize().await;

    // "Did you mean" becomes an edit, tied to its diagnostic.
    let uri = "file:///workspace/typo.ludi";
    let typo = "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-rwo 3))))\n";
    open(&mut client, uri, "ludi", typo).await;
    let diagnostics = client.diagnostics_for(uri, 1).await;
    let rwo = position_of(typo, "in-a-rwo", 0);
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range(rwo, rwo),
                   "context": {"diagnostics": diagnostics}}),
        )
        .await;
    let fix = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|action| action["title"] == "Replace with `in-a-row`")
        .unwrap_or_else(|| panic!("{actions}"));
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["diagnostics"][0]["code"], "ludi/unknown-ludeme");
    let edit = &fix["edit"]["changes"][uri][0];
    assert_eq!(covered(typo, &edit["range"]), "in-a-rwo");
    assert_eq!(edit["newText"], "in-a-row");

    // A game without its end gets one from the schema.
    let uri = "file:///workspace/endless.ludi";
    let endless = "(game T (players White Black) (board (tiling square) (size 3 3)))\n";
    open(&mut client, uri, "ludi", endless).await;
    client.diagnostics_for(uri, 1).await;
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range((0, 2), (0, 2)),
                   "context": {"diagnostics": []}}),
        )
        .await;
    let titles: Vec<&str> = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|action| action["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.iter().any(|title| title.starts_with("Add `(end ")),
        "{titles:?}"
    );

    // KIF → infix: listed cheaply, computed on resolve, and the `.kif` file becomes `.hrf`.
    let uri = "file:///workspace/small.kif";
    open(&mut client, uri, "gdl", GDL_GAME).await;
    client.diagnostics_for(uri, 1).await;
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range((0, 0), (0, 0)),
                   "context": {"diagnostics": []}}),
        )
        .await;
    let convert = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|action| action["title"] == "Convert the file to GDL (infix)")
        .unwrap_or_else(|| panic!("{actions}"))
        .clone();
    assert!(convert.get("edit").is_none(), "{convert}");
    let resolved = client.request("codeAction/resolve", convert).await;
    let operations = resolved["result"]["edit"]["documentChanges"]
        .as_array()
        .unwrap_or_else(|| panic!("{resolved}"));
    let text = operations[0]["edits"][0]["newText"].as_str().unwrap();
    assert!(text.starts_with("role(x)\nrole(o)\n"), "{text}");
    assert!(text.contains("legal(Who, noop) :- "), "{text}");
    assert_eq!(operations[1]["kind"], "rename");
    assert_eq!(operations[1]["newUri"], "file:///workspace/small.hrf");
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inlay_hints_show_defaults_and_english_only_when_asked() {
    let uri = "file:///workspace/race.ludi";
    let whole = range((0, 0), (4, 0));
    let hints_request = json!({"textDocument": {"uri": uri}, "range": whole});

    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "ludi", LUDI_GAME).await;
    client.diagnostics_for(uri, 1).await;
    let hints = client
        .request("textDocument/inlayHint", hints_request.clone())
        .await;
    let labels: Vec<&str> = hints["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hint| hint["label"].as_str().unwrap())
        .collect();
    // `(reach Goal)` leaves out the count: one piece is enough.
    assert!(labels.contains(&"count: one"), "{labels:?}");
    assert!(
        labels.iter().all(|label| !label.starts_with('—')),
        "{labels:?}"
    );
    client.shutdown().await;

    let mut client = LspClient::start();
    client
        .initialize_with_options(json!({"ludeme": {"inlayHints": {"english": true}}}))
        .await;
    open(&mut client, uri, "ludi", LUDI_GAME).await;
    client.diagnostics_for(uri, 1).await;
    let hints = client
        .request("textDocument/inlayHint", hints_request)
        .await;
    let english: Vec<&str> = hints["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hint| hint["label"].as_str().unwrap())
        .filter(|label| label.starts_with('—'))
        .collect();
    assert!(
        english.iter().any(|label| label.contains("line of 3")),
        "{english:?}"
    );
    client.shutdown().await;
}

/// Completion in a 3,000-line game (22 copies of tic-tac-toe renamed apart) after two letters:
/// a short list, not every name of the file, the file's own names that start with what was
/// typed, shortest first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn completion_after_two_letters_in_a_large_game_is_short_and_ranked() {
    let uri = "file:///workspace/large.kif";
    let mut text = support::large_gdl::large_gdl(&support::project_root(), 3_000);
    assert!(text.lines().count() >= 3_000);
    text.push_str("(<= (goal xplayer_0 100) (li))\n");
    let mut client = LspClient::start();
    client.initialize().await;
    open(&mut client, uri, "gdl", &text).await;
    client.diagnostics_for(uri, 1).await;
    let typed = position_of(&text, "(li))", 0);
    let completion = client
        .request("textDocument/completion", at(uri, (typed.0, typed.1 + 3)))
        .await;
    let labels = completion_labels(&completion);
    assert!(labels.len() < 50, "{} items: {labels:?}", labels.len());
    assert_eq!(
        labels.first().map(String::as_str),
        Some("line_0"),
        "{labels:?}"
    );
    assert!(
        labels.iter().all(|label| label.starts_with("li")),
        "{labels:?}"
    );
    client.shutdown().await;
}

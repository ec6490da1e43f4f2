//! End-to-end sessions with the language server, driven by an in-process client over the real
//! protocol (JSON-RPC framing included).

mod support;

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
    let line = "(game T (description \"é𝄞\"))";
    open(&mut client, uri, "ludi", &format!("{line}\n")).await;
    assert_eq!(client.diagnostics_for(uri, 1).await, Vec::<Value>::new());
    let end_utf16 = line.encode_utf16().count() as u32;
    assert_eq!(end_utf16, 28, "the test's own arithmetic");
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
    assert_eq!(diagnostics[0]["range"], range((0, 28), (0, 29)));
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

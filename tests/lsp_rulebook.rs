//! The rulebook in the editor: hovering a game's name shows the rulebook's overview, over the
//! real protocol, in Ludi and EGGG (a GDL file names no game).

mod support;

use serde_json::json;
use support::lsp_client::LspClient;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_on_a_games_name_shows_its_overview() {
    let mut client = LspClient::start();
    client.initialize().await;
    for (uri, language, text, name_at, wanted) in [
        (
            "file:///workspace/hex.ludi",
            "ludi",
            "(game Hex (players White Black) (board (tiling hex) (shape rhombus) (size 5 5)) (end (All win (connect All-sides))))",
            (0, 7),
            "**Hex**\n\nWhite and Black play on a 5×5 rhombus board",
        ),
        (
            "file:///workspace/tic.egg",
            "egg",
            "game is tic-tac-toe\nplayers are x and o\nturns alternate\n3 x 3 grid\nmove is place\npieces are X and O\n",
            (0, 10),
            "for two players, o and x, on a 3 × 3 grid",
        ),
    ] {
        client
            .notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
            )
            .await;
        let hover = client
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri},
                       "position": {"line": name_at.0, "character": name_at.1}}),
            )
            .await;
        let markdown = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(markdown.contains(wanted), "{uri}: {hover}");
        // Elsewhere than on the name, no overview.
        let hover = client
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri},
                       "position": {"line": name_at.0, "character": 0}}),
            )
            .await;
        let elsewhere = hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(!elsewhere.contains(wanted), "{uri}: {hover}");
    }
    client.shutdown().await;
}

/// `ludeme/rulebook` answers the whole rulebook as Markdown from the document's live text: an
/// edit that is not saved (there is no file on disk at all here) shows in the next answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rulebook_request_follows_unsaved_edits() {
    let mut client = LspClient::start();
    client.initialize().await;
    let uri = "file:///workspace/hex.ludi";
    let text = "(game Hex (players White Black) (board (tiling hex) (shape rhombus) (size 5 5)) (end (All win (connect All-sides))))";
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "ludi", "version": 1, "text": text}}),
        )
        .await;
    let request = json!({"textDocument": {"uri": uri}});
    let first = client.request("ludeme/rulebook", request.clone()).await;
    let markdown = first["result"]["markdown"].as_str().unwrap_or_default();
    assert_eq!(first["result"]["title"], "Hex", "{first}");
    assert_eq!(first["result"]["version"], 1, "{first}");
    assert!(markdown.starts_with("# Hex\n"), "{first}");
    assert!(markdown.contains("5×5 rhombus board"), "{first}");
    assert!(markdown.contains("\n## "), "chapters as headings: {first}");

    // The board grows to 7×7, unsaved.
    client
        .notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"text": text.replace("(size 5 5)", "(size 7 7)")}]}),
        )
        .await;
    let second = client.request("ludeme/rulebook", request).await;
    let markdown = second["result"]["markdown"].as_str().unwrap_or_default();
    assert_eq!(second["result"]["version"], 2, "{second}");
    assert!(markdown.contains("7×7 rhombus board"), "{second}");
    assert!(!markdown.contains("5×5"), "{second}");

    // A document that is not open is an error, not an empty rulebook.
    let closed = client
        .request(
            "ludeme/rulebook",
            json!({"textDocument": {"uri": "file:///workspace/absent.ludi"}}),
        )
        .await;
    assert!(
        closed["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("not open")),
        "{closed}"
    );
    client.shutdown().await;
}

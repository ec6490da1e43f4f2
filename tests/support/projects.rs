//! Projects with their own `ludeme.toml`, for the tests that the front ends follow the project's
//! settings: a temporary folder holding the settings and one game, and the game opened in the
//! language server started on that folder.

use std::path::Path;

use serde_json::json;

use super::lsp_client::LspClient;

/// The corpus's Yavalath with `i-nbors` in its end conditions, which hexagonal cells give no
/// meaning to (`ludi/inapplicable`, an error by default): the game plays as Yavalath does.
pub fn yavalath_with_inapplicable_neighbours() -> String {
    std::fs::read_to_string(super::project_root().join("corpus/ludi/yavalath.ludi"))
        .expect("the corpus game")
        .replace("(in-a-row 4)", "(in-a-row 4 i-nbors)")
}

/// A temporary project folder holding `config` as its `ludeme.toml` and `text` as the game
/// `name`.
pub fn project(config: &str, name: &str, text: &str) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(folder.path().join("ludeme.toml"), config).expect("written");
    std::fs::write(folder.path().join(name), text).expect("written");
    folder
}

/// The server started on the workspace `folder`, with its game `name` (of `language_id`) open
/// and its first diagnostics received; the game's URI.
pub async fn open_in_workspace(
    folder: &Path,
    name: &str,
    language_id: &str,
) -> (LspClient, String) {
    let path = folder.join(name);
    let text = std::fs::read_to_string(&path).expect("the game is written");
    let uri = format!("file://{}", path.display());
    let mut client = LspClient::start();
    client.initialize_on_workspace(folder).await;
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}}),
        )
        .await;
    client.diagnostics_for(&uri, 1).await;
    (client, uri)
}

//! "Breed variants of this game" in the editor, over the real protocol: the code action on a
//! Ludi game runs a command that writes the best children next to the game, in a folder named
//! after it, each with its verdict, and a table of the verdicts; a cancelled breeding writes
//! nothing and leaves the server answering.

mod support;

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use support::lsp_client::LspClient;
use support::projects::{open_in_workspace, project, yavalath_with_inapplicable_neighbours};

/// How long a test waits for a breeding (a debug build, on a loaded machine).
const BREEDING_TIMEOUT: Duration = Duration::from_secs(300);

/// Longer than the two-child breeding of the cancel test takes when it is not cancelled.
const CANCELLED_BREEDING_WAIT: Duration = Duration::from_secs(15);

/// Opens the corpus's Yavalath as a file of `folder` and returns its URI.
async fn open_yavalath(client: &mut LspClient, folder: &Path) -> String {
    let text = std::fs::read_to_string(support::project_root().join("corpus/ludi/yavalath.ludi"))
        .expect("the corpus game");
    let path = folder.join("yavalath.ludi");
    std::fs::write(&path, &text).expect("written");
    let uri = format!("file://{}", path.display());
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "ludi", "version": 1, "text": text}}),
        )
        .await;
    client.diagnostics_for(&uri, 1).await;
    uri
}

/// The breeding action offered for `uri`, if any.
async fn breed_action(client: &mut LspClient, uri: &str) -> Option<Value> {
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri},
                   "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                   "context": {"diagnostics": []}}),
        )
        .await;
    actions["result"]
        .as_array()
        .expect("a list of actions")
        .iter()
        .find(|action| action["title"] == "Breed variants of this game")
        .cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breeding_writes_the_best_children_beside_the_game_with_their_verdicts() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let mut client = LspClient::start();
    client.initialize().await;
    let uri = open_yavalath(&mut client, temp.path()).await;
    let action = breed_action(&mut client, &uri)
        .await
        .expect("the action is offered on a Ludi game");
    assert_eq!(action["kind"], "source.ludeme.breed", "{action}");
    let command = &action["command"];
    assert_eq!(command["command"], "ludeme.breedVariants", "{action}");
    // The editor runs the command with the action's argument; a test budget on top.
    let mut argument = command["arguments"][0].clone();
    // Generous CPU budgets, so that all the children are bred however loaded the machine.
    argument["children"] = json!(6);
    argument["best"] = json!(3);
    argument["games"] = json!(2);
    argument["cpuSeconds"] = json!(600);
    argument["childSeconds"] = json!(30);
    let response = client
        .request_within(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": [argument]}),
            BREEDING_TIMEOUT,
        )
        .await;
    let result = &response["result"];
    let folder = temp.path().join("yavalath-variants");
    assert_eq!(
        result["folder"].as_str(),
        Some(folder.to_string_lossy().as_ref()),
        "{response}"
    );
    assert_eq!(result["bred"], 6, "{response}");
    let written = result["written"].as_array().expect("the children written");
    assert!(!written.is_empty() && written.len() <= 3, "{response}");
    let table = std::fs::read_to_string(folder.join("verdicts.md")).expect("the verdicts");
    let mut scores = Vec::new();
    for child in written {
        let name = child["name"].as_str().expect("a name");
        let file = Path::new(child["file"].as_str().expect("a file"));
        assert_eq!(file, folder.join(format!("{name}.ludi")));
        let text = std::fs::read_to_string(file).expect("the child is written");
        // Its header names it and its parent, and gives its score, verdict and policy.
        assert!(
            text.starts_with(&format!("; {name}: bred by `ludeme evolve`")),
            "{text}"
        );
        assert!(text.contains("Yavalath (template, score "), "{text}");
        let verdict = if child["viable"] == true {
            "viable".to_owned()
        } else {
            "not viable: ".to_owned()
        };
        assert!(
            text.contains(&format!(
                "; aesthetic score {:.3}; {verdict}",
                child["score"].as_f64().unwrap()
            )),
            "{text}"
        );
        assert!(text.contains("; policy kept: "), "{text}");
        assert!(
            table.contains(&format!("| [{name}]({name}.ludi) |")),
            "{table}"
        );
        scores.push(child["score"].as_f64().expect("a score"));
    }
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    // Every child written checks clean of errors.
    let check = support::ludeme(&["check", &folder.to_string_lossy()]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // The editor was told where they went.
    let message = client.next_notification("window/showMessage").await;
    assert!(
        message["message"]
            .as_str()
            .is_some_and(|m| m.contains("variants of Yavalath") && m.contains("yavalath-variants")),
        "{message}"
    );
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_progress_cancel_button_stops_the_breeding_and_ends_the_progress() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let mut client = LspClient::start();
    client.initialize().await;
    let uri = open_yavalath(&mut client, temp.path()).await;
    // A breeding that would write children (as the test above shows), stopped by the button.
    let (_, response) = client
        .start_request(
            "workspace/executeCommand",
            json!({"command": "ludeme.breedVariants",
                   "arguments": [{"uri": uri, "children": 6, "games": 2,
                                  "cpuSeconds": 600, "childSeconds": 30}]}),
        )
        .await;
    let create = client
        .next_server_request("window/workDoneProgress/create")
        .await;
    let token = create["params"]["token"].clone();
    client.respond(&create["id"], Value::Null).await;
    let begin = client.next_notification("$/progress").await;
    assert_eq!(begin["token"], token, "{begin}");
    assert_eq!(begin["value"]["kind"], "begin", "{begin}");
    assert_eq!(begin["value"]["cancellable"], true, "{begin}");
    client
        .notify("window/workDoneProgress/cancel", json!({"token": token}))
        .await;
    // The work itself answers (the request was not dropped): stopped, nothing written.
    let response = tokio::time::timeout(BREEDING_TIMEOUT, response)
        .await
        .expect("an answer to the stopped breeding")
        .expect("the reader task is alive");
    assert!(
        response["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("stopped")),
        "{response}"
    );
    let end = client.next_notification("$/progress").await;
    assert_eq!(end["token"], token, "{end}");
    assert_eq!(end["value"]["kind"], "end", "{end}");
    assert!(!temp.path().join("yavalath-variants").exists());
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_breeding_writes_nothing_and_a_broken_game_is_not_offered() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let mut client = LspClient::start();
    client.initialize().await;
    let uri = open_yavalath(&mut client, temp.path()).await;
    // A short breeding (a few seconds), cancelled at once.
    let (id, response) = client
        .start_request(
            "workspace/executeCommand",
            json!({"command": "ludeme.breedVariants",
                   "arguments": [{"uri": uri, "children": 2, "games": 2,
                                  "cpuSeconds": 600, "childSeconds": 30}]}),
        )
        .await;
    client.notify("$/cancelRequest", json!({"id": id})).await;
    let response = tokio::time::timeout(BREEDING_TIMEOUT, response)
        .await
        .expect("an answer to the cancelled request")
        .expect("the reader task is alive");
    assert_eq!(response["error"]["code"], -32800, "{response}");
    // Past the time the breeding would have taken, it has written nothing: it was stopped.
    tokio::time::sleep(CANCELLED_BREEDING_WAIT).await;
    assert!(!temp.path().join("yavalath-variants").exists());
    // The server goes on answering.
    client
        .notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
                   "contentChanges": [{"text": "(game Broken (players White Black) (board (tiling square) (size 3 3)) (end (All win (in-a-rwo 3))))"}]}),
        )
        .await;
    client.diagnostics_for(&uri, 2).await;
    assert!(breed_action(&mut client, &uri).await.is_none());
    assert_breeding_refused(&mut client, &uri, &temp.path().join("yavalath-variants")).await;
    client.shutdown().await;
}

/// Runs the command on `uri`, which must be refused as a game with errors, writing nothing in
/// `folder`.
async fn assert_breeding_refused(client: &mut LspClient, uri: &str, folder: &Path) {
    let refused = client
        .request(
            "workspace/executeCommand",
            json!({"command": "ludeme.breedVariants", "arguments": [{"uri": uri}]}),
        )
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("without errors")),
        "{refused}"
    );
    assert!(!folder.exists());
}

/// The action and the breeding follow the project's `ludeme.toml`, as the editor's diagnostics
/// do: where the project makes an impossible end condition an error, a game with one is not
/// offered for breeding and the command refuses it (the default settings only warn).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breeding_follows_the_projects_ludeme_toml() {
    let temp = project(
        "[rules]\nseverity = { \"ludi/impossible-condition\" = \"error\" }\n",
        "tic.ludi",
        "(game Tic (players White Black) (board (tiling square) (size 3 3))\n  \
         (end (All win (in-a-row 3)) (All win (in-a-row 4))))\n",
    );
    let (mut client, uri) = open_in_workspace(temp.path(), "tic.ludi", "ludi").await;
    assert!(
        breed_action_once_settings_apply(&mut client, &uri, false)
            .await
            .is_none(),
        "offered on a game the project's settings give an error"
    );
    assert_breeding_refused(&mut client, &uri, &temp.path().join("tic-variants")).await;
    client.shutdown().await;
}

/// Breeding plays a game whose only errors the project's `ludeme.toml` disables, as
/// `ludeme check` finds none: Yavalath with `i-nbors` in its end conditions, which hexagonal
/// cells give no meaning to (`ludi/inapplicable`), plays as Yavalath does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breeding_plays_a_game_whose_errors_the_project_disables() {
    let temp = project(
        "[rules]\ndisable = [\"ludi/inapplicable\"]\n",
        "yavalath.ludi",
        &yavalath_with_inapplicable_neighbours(),
    );
    let (mut client, uri) = open_in_workspace(temp.path(), "yavalath.ludi", "ludi").await;
    let action = breed_action_once_settings_apply(&mut client, &uri, true)
        .await
        .expect("offered on a game the project's settings leave without errors");
    let mut argument = action["command"]["arguments"][0].clone();
    argument["children"] = json!(1);
    argument["best"] = json!(1);
    argument["games"] = json!(2);
    argument["cpuSeconds"] = json!(120);
    argument["childSeconds"] = json!(20);
    let response = client
        .request_within(
            "workspace/executeCommand",
            json!({"command": "ludeme.breedVariants", "arguments": [argument]}),
            BREEDING_TIMEOUT,
        )
        .await;
    assert_eq!(response["result"]["bred"], 1, "{response}");
    client.shutdown().await;
}

/// The breeding action of `uri` once the workspace's settings apply: they are read off the
/// protocol thread, so the action is asked again (for some seconds) until it is `offered`, or
/// not, as the settings make it.
async fn breed_action_once_settings_apply(
    client: &mut LspClient,
    uri: &str,
    offered: bool,
) -> Option<Value> {
    let mut action = breed_action(client, uri).await;
    for _ in 0..100 {
        if action.is_some() == offered {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        action = breed_action(client, uri).await;
    }
    action
}

//! "Play a match" in the editor: `ludeme/playMatch` runs matches of the open game's live text
//! between players of the server's process over the GGP protocol, and answers the summary and
//! the records; a cancelled request stops its matches.

mod support;

use std::time::Duration;

use serde_json::json;
use support::lsp_client::LspClient;

const TIC_TAC_TOE: &str = include_str!("../corpus/gdl/ticTacToe.kif");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_a_match_runs_local_players_on_the_live_text_and_summarises() {
    let mut client = LspClient::start();
    client.initialize().await;
    let uri = "file:///workspace/ticTacToe.kif";
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "gdl", "version": 1, "text": TIC_TAC_TOE}}),
        )
        .await;
    let answer = client
        .request(
            "ludeme/playMatch",
            json!({"textDocument": {"uri": uri}, "players": ["mcts", "random"], "matches": 2,
                   "startClock": 1, "playClock": 1}),
        )
        .await;
    let records = answer["result"]["records"].as_array().expect("records");
    assert_eq!(records.len(), 2, "{answer}");
    for record in records {
        assert_eq!(record["isCompleted"], true, "{record}");
        let goals = record["goalValues"].as_array().expect("goals");
        assert_eq!(goals.len(), 2);
        // Seats rotate: the two players swap roles between the matches.
        let steps = record["moves"].as_array().unwrap().len();
        assert_eq!(record["states"].as_array().unwrap().len(), steps + 1);
    }
    assert_ne!(
        records[0]["playerNamesFromHost"][0],
        records[1]["playerNamesFromHost"][0]
    );
    let summary = answer["result"]["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("| player | matches | won |"), "{summary}");
    assert_eq!(
        summary.matches("| 2 |").count(),
        2,
        "both players played two: {summary}"
    );

    // A game not in prefix KIF cannot be sent, and says so.
    client
        .notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": "file:///workspace/hex.ludi", "languageId": "ludi",
                   "version": 1, "text": "(game Hex (players White Black) (board (tiling hex) (shape rhombus) (size 5 5)) (end (All win (connect All-sides))))"}}),
        )
        .await;
    let refused = client
        .request(
            "ludeme/playMatch",
            json!({"textDocument": {"uri": "file:///workspace/hex.ludi"}}),
        )
        .await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("prefix KIF")),
        "{refused}"
    );

    // A cancelled series stops: MCTS players would otherwise spend every play clock of sixty
    // matches on both cores. (In this test, after the others: the process's CPU time is the
    // measure, and nothing else of it runs now.)
    let (id, response) = client
        .start_request(
            "ludeme/playMatch",
            json!({"textDocument": {"uri": uri}, "players": ["mcts", "mcts"], "matches": 60,
                   "startClock": 1, "playClock": 1}),
        )
        .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    client.notify("$/cancelRequest", json!({"id": id})).await;
    let response = tokio::time::timeout(Duration::from_secs(20), response)
        .await
        .expect("an answer to the cancelled request")
        .expect("the reader task is alive");
    assert_eq!(response["error"]["code"], -32800, "{response}");
    // The step under way ends within its clock and the manager's grace, then `abort` ends the
    // players' searches.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let before = process_cpu_time();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let spent = process_cpu_time() - before;
    assert!(
        spent < Duration::from_millis(1000),
        "{spent:?} of CPU in 3 s after the cancel: the matches went on"
    );
    client.shutdown().await;
}

/// The CPU time of this process (every thread), user and system.
fn process_cpu_time() -> Duration {
    // SAFETY: `getrusage` writes only into the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        assert_eq!(libc::getrusage(libc::RUSAGE_SELF, &mut usage), 0);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

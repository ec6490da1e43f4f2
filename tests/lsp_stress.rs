//! The language server under a storm of edits: 1,000 random edits (seeded) to a 3,000-line
//! GDL game, interleaved with hovers and completions, over stdio with the real binary. The
//! server must answer every request, and the diagnostics it publishes for the final text must
//! equal those a fresh server publishes when that text is opened.

mod support;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use support::stdio_client::StdioClient;

const URI: &str = "file:///stress/large.kif";
const EDITS: usize = 1_000;

/// Snippets an edit inserts: GDL fragments, brackets that unbalance the text, blanks.
const SNIPPETS: [&str; 10] = [
    "(",
    ")",
    " ",
    "\n",
    "?x",
    "cell_3",
    "(true (control_1 ?p))",
    "(<= (legal ?r noop_2) (role ?r))\n",
    "; a comment\n",
    "distinct",
];

fn start_server() -> StdioClient {
    let mut client = StdioClient::spawn(support::ludeme_lsp(&support::project_root()));
    let response = client.initialize(json!({
        "processId": null,
        "rootUri": null,
        "capabilities": {"general": {"positionEncodings": ["utf-16"]}}
    }));
    assert!(response.get("error").is_none(), "{response}");
    client
}

/// The (line, column) of byte `offset` in `text` (ASCII, so columns are UTF-16 units too).
fn position(text: &str, offset: usize) -> Value {
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    json!({"line": line, "character": column})
}

#[test]
fn a_thousand_random_edits_leave_the_diagnostics_of_a_fresh_open() {
    let mut text = support::large_gdl::large_gdl(&support::project_root(), 3_000);
    assert!(text.lines().count() >= 3_000);
    let mut rng = SmallRng::seed_from_u64(8);
    let mut client = start_server();
    client.open(URI, "kif", &text);

    for edit in 0..EDITS {
        let version = edit as i64 + 2;
        let start = rng.random_range(0..=text.len());
        let end = (start + rng.random_range(0..20)).min(text.len());
        let inserted = match rng.random_range(0..3) {
            0 => "", // a deletion
            _ => SNIPPETS[rng.random_range(0..SNIPPETS.len())],
        };
        let range = json!({"start": position(&text, start), "end": position(&text, end)});
        text.replace_range(start..end, inserted);
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version},
                   "contentChanges": [{"range": range, "text": inserted}]}),
        );
        if edit % 10 == 0 {
            let at = position(&text, rng.random_range(0..=text.len()));
            let hover = client.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": URI}, "position": at}),
            );
            assert_answered(&hover, "hover", edit);
        }
        if edit % 10 == 5 {
            let at = position(&text, rng.random_range(0..=text.len()));
            let completion = client.request(
                "textDocument/completion",
                json!({"textDocument": {"uri": URI}, "position": at}),
            );
            assert_answered(&completion, "completion", edit);
        }
    }
    let final_version = EDITS as i64 + 1;
    let after_edits = client.diagnostics_for(URI, final_version);
    assert!(client.is_running(), "the server survived the edits");
    client.shutdown();

    let mut fresh = start_server();
    fresh.open(URI, "kif", &text);
    let on_open = fresh.diagnostics_for(URI, 1);
    fresh.shutdown();
    assert!(!on_open.is_empty(), "random edits break the game somewhere");
    assert_eq!(
        after_edits, on_open,
        "the diagnostics after 1,000 edits differ from those of the same text opened afresh"
    );
}

/// A request is answered: a result, or the "content modified" error a newer edit may cause
/// (-32801), or "method not found" for a feature the server does not offer (-32601). Never an
/// internal error.
fn assert_answered(response: &Value, what: &str, edit: usize) {
    if let Some(error) = response.get("error") {
        let code = error["code"].as_i64();
        assert!(
            matches!(code, Some(-32801 | -32601)),
            "{what} after edit {edit} failed: {response}"
        );
    }
}

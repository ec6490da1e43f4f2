//! The language server's own latency, over standard input and output as an editor sees it:
//! from sending an edit notification to receiving its `publishDiagnostics`, and from sending a
//! hover or a completion request to its response, on a 3,000-line GDL game
//! (`tests/support/large_gdl.rs`). Then the edit latency again while a Ludi probe (self-play,
//! the editor's heaviest background work) runs: it must not grow.
//!
//! `cargo bench -p ludeme-lsp --bench latency`. The benchmark runs the server in a child
//! process: itself, re-executed with `LUDEME_LSP_BENCH_SERVE=1`, which then serves exactly as
//! `ludeme lsp` does (`ludeme_lsp::run_stdio`). With `LUDEME_LSP_BENCH_PHASES=LINES` it times
//! instead, in process, each step of the same edits on an analysis host (see [`phases`]).

#[path = "../../tests/support/large_gdl.rs"]
mod large_gdl;
#[path = "../../tests/support/stdio_client.rs"]
#[allow(dead_code)] // the tests use more of the client than the benchmark
mod stdio_client;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use stdio_client::StdioClient;

const SERVE: &str = "LUDEME_LSP_BENCH_SERVE";
/// Set: time the analysis phases of an edit in process instead (`phases`), without a server.
const PHASES: &str = "LUDEME_LSP_BENCH_PHASES";
const GDL_URI: &str = "file:///bench/large.kif";
const LUDI_URI: &str = "file:///bench/yavalath.ludi";
/// Measured edits, hovers and completions (after a few unmeasured ones).
const SAMPLES: usize = 300;
const WARM_UP: usize = 20;

fn main() {
    if std::env::var_os(SERVE).is_some() {
        ludeme_lsp::run_stdio().expect("the server runs");
        return;
    }
    // `cargo bench` passes `--bench`; a filter argument selecting nothing of ours skips.
    let root = project_root();
    if let Some(lines) = std::env::var_os(PHASES) {
        // `LUDEME_LSP_BENCH_PHASES=LINES`: the phases on a game of that many lines (default
        // 3,000), with fewer samples for a large one.
        let lines = lines.to_str().and_then(|n| n.parse().ok()).unwrap_or(3_000);
        let samples = if lines > 50_000 { 10 } else { SAMPLES };
        phases(&large_gdl::large_gdl(&root, lines), samples);
        return;
    }
    let text = large_gdl::large_gdl(&root, 3_000);
    let mut command = Command::new(std::env::current_exe().expect("the benchmark's own path"));
    command.env(SERVE, "1").current_dir(&root);
    let mut client = StdioClient::spawn(command);
    let response = client.initialize(json!({
        "processId": null,
        "rootUri": null,
        "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                         "workspace": {"codeLens": {"refreshSupport": true}}},
        // A probe that runs for the whole second measurement.
        "initializationOptions": {"probe": {"games": 10_000, "seconds": 120}}
    }));
    assert!(response.get("error").is_none(), "{response}");
    client.open(GDL_URI, "kif", &text);
    client.diagnostics_for(GDL_URI, 1);
    println!(
        "language server latency over stdio, {} lines of GDL ({} bytes), {} samples each",
        text.lines().count(),
        text.len(),
        SAMPLES
    );

    let mut version = 1;
    let quiet = edit_latencies(&mut client, &text, &mut version);
    report("edit → publishDiagnostics", &quiet);
    let positions = cursor_positions(&text);
    report(
        "hover",
        &request_latencies(&mut client, "textDocument/hover", &positions),
    );
    report(
        "completion",
        &request_latencies(&mut client, "textDocument/completion", &positions),
    );

    // A probe of Yavalath in the background: the editor's lens starts it on resolve.
    let yavalath = std::fs::read_to_string(root.join("corpus/ludi/yavalath.ludi"))
        .expect("corpus/ludi/yavalath.ludi");
    client.open(LUDI_URI, "ludi", &yavalath);
    client.diagnostics_for(LUDI_URI, 1);
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": LUDI_URI}}),
    );
    let probe_lens = lenses["result"]
        .as_array()
        .and_then(|lenses| lenses.iter().find(|lens| lens["data"]["kind"] == "probe"))
        .cloned()
        .expect("a probe lens on a Ludi game");
    let started = client.request("codeLens/resolve", probe_lens.clone());
    let title = started["result"]["command"]["title"]
        .as_str()
        .unwrap_or_default();
    assert!(
        title.ends_with('…'),
        "the probe starts in the background: {title}"
    );
    let busy = edit_latencies(&mut client, &text, &mut version);
    let still_running = client.request("codeLens/resolve", probe_lens);
    let title = still_running["result"]["command"]["title"]
        .as_str()
        .unwrap_or_default();
    assert!(
        title.ends_with('…'),
        "the probe ran through the whole measurement: {title}"
    );
    report("edit → publishDiagnostics, probe running", &busy);
    client.shutdown();
}

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lsp/ has a parent")
        .to_path_buf()
}

/// Inserts and deletes a space inside a rule, alternately, waiting for each edit's diagnostics.
fn edit_latencies(client: &mut StdioClient, text: &str, version: &mut i64) -> Vec<Duration> {
    // Inside the first `legal` rule, between two of its literals.
    let offset = text.find("(<= (legal").expect("the game has legal rules") + 3;
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    let mut latencies = Vec::with_capacity(SAMPLES);
    for sample in 0..WARM_UP + SAMPLES {
        *version += 1;
        let inserting = *version % 2 == 0;
        let end = if inserting { column } else { column + 1 };
        let change = json!({
            "range": {"start": {"line": line, "character": column},
                      "end": {"line": line, "character": end}},
            "text": if inserting { " " } else { "" }
        });
        let started = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": GDL_URI, "version": *version},
                   "contentChanges": [change]}),
        );
        client.diagnostics_for(GDL_URI, *version);
        if sample >= WARM_UP {
            latencies.push(started.elapsed());
        }
    }
    // Slow-round publications of the measured versions are not waited for; drop them.
    client.drain();
    latencies
}

/// Positions spread over the file, on names and between them.
fn cursor_positions(text: &str) -> Vec<Value> {
    let lines: Vec<&str> = text.lines().collect();
    (0..WARM_UP + SAMPLES)
        .map(|sample| {
            let line = (sample * 7919) % lines.len();
            let column = lines[line].len() / 2;
            json!({"line": line, "character": column})
        })
        .collect()
}

fn request_latencies(client: &mut StdioClient, method: &str, positions: &[Value]) -> Vec<Duration> {
    let mut latencies = Vec::with_capacity(SAMPLES);
    for (sample, position) in positions.iter().enumerate() {
        let started = Instant::now();
        let response = client.request(
            method,
            json!({"textDocument": {"uri": GDL_URI}, "position": position}),
        );
        let elapsed = started.elapsed();
        if let Some(error) = response.get("error") {
            println!("  {method}: {}", error["message"]);
            return Vec::new();
        }
        if sample >= WARM_UP {
            latencies.push(elapsed);
        }
    }
    latencies
}

fn report(what: &str, latencies: &[Duration]) {
    if latencies.is_empty() {
        println!("{what:<45} not measured");
        return;
    }
    let mut sorted = latencies.to_vec();
    sorted.sort();
    let percentile = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!(
        "{what:<45} p50 {:>7.2} ms   p99 {:>7.2} ms   max {:>7.2} ms",
        ms(percentile(0.5)),
        ms(percentile(0.99)),
        ms(*sorted.last().expect("not empty")),
    );
}

/// Where an edit's time goes inside the server, phase by phase, on one thread: the same edits
/// as [`edit_latencies`] applied to an [`ludeme_lsp::Document`] and the analysis host, each
/// phase forced in the order the server meets them. Medians over the measured samples.
fn phases(text: &str, measured: usize) {
    use ludeme_analysis::{AnalysisHost, Change, EditedTree, Syntax};
    use std::sync::Arc;
    use tower_lsp_server::ls_types::{Position, Range};

    let key = Path::new("/bench/large.kif");
    let mut host = AnalysisHost::new();
    let mut document = ludeme_lsp::Document::new(text, 0, ludeme_lsp::PositionEncoding::Utf16);
    let mut change = Change::new();
    change.set_file(key, Syntax::GdlKif, Arc::from(text), None);
    let file = host.apply_change(change).files[0];
    let _ = ludeme_analysis::file_diagnostics(host.db(), file);
    let offset = text.find("(<= (legal").expect("the game has legal rules") + 3;
    let line = text[..offset].matches('\n').count() as u32;
    let column = (offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1)) as u32;
    let names = [
        "old tree",
        "edit",
        "set_file",
        "read forms",
        "checks",
        "diagnostics",
        "to LSP",
        "rule model",
        "parse",
    ];
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); names.len()];
    let warm_up = WARM_UP.min(measured);
    for sample in 0..warm_up + measured {
        let inserting = sample % 2 == 0;
        let end = if inserting { column } else { column + 1 };
        let range = Range::new(Position::new(line, column), Position::new(line, end));
        let mut marks = vec![Instant::now()];
        let mut edited = EditedTree::new(ludeme_analysis::parse(host.db(), file));
        marks.push(Instant::now());
        let edit = document.apply_change(Some(range), if inserting { " " } else { "" });
        edited.edit(&edit);
        let new_text: Arc<str> = Arc::from(document.text());
        marks.push(Instant::now());
        let mut change = Change::new();
        change.set_file(key, Syntax::GdlKif, new_text, Some(edited));
        host.apply_change(change);
        marks.push(Instant::now());
        let _ = ludeme_analysis::kif_forms_read(host.db(), file);
        marks.push(Instant::now());
        let _ = ludeme_analysis::gdl::gdl_diagnostics(host.db(), file);
        marks.push(Instant::now());
        let diagnostics = ludeme_analysis::file_diagnostics(host.db(), file);
        marks.push(Instant::now());
        let ranges: Vec<Range> = diagnostics
            .iter()
            .map(|d| document.range(d.range))
            .collect();
        std::hint::black_box(ranges);
        marks.push(Instant::now());
        // What the features read after an edit, off the diagnostics' path.
        let _ = ludeme_analysis::gdl::gdl_rules(host.db(), file);
        marks.push(Instant::now());
        let _ = ludeme_analysis::parse(host.db(), file);
        marks.push(Instant::now());
        if sample >= warm_up {
            for (phase, pair) in marks.windows(2).enumerate() {
                times[phase].push(pair[1] - pair[0]);
            }
        }
    }
    println!("analysis phases of one edit, in process, {measured} samples (p50 / p99):");
    for (name, mut samples) in names.iter().zip(times) {
        samples.sort();
        let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
        println!(
            "  {name:<12} {:>8.3} ms {:>8.3} ms",
            at(0.5).as_secs_f64() * 1e3,
            at(0.99).as_secs_f64() * 1e3
        );
    }
}

//! The language server on one very large document, over standard input and output as an editor
//! sees it: a GDL game of about 10 MB (`tests/support/large_gdl.rs`: the project's tic-tac-toe
//! copied until it is that large, each copy renamed apart). Measured: the time from `didOpen`
//! to the first `publishDiagnostics`, to a hover and to the document's symbols; then the time
//! from each one-character edit to its diagnostics; and the server's peak resident memory
//! (`VmHWM` of its process) against the size of the text.
//!
//! `cargo bench -p ludeme-lsp --bench big_document` (`LUDEME_BIG_DOCUMENT_MB` sets the size,
//! default 10; `LUDEME_BIG_DOCUMENT_WRAPPER` a command the server runs under, such as a memory
//! profiler). As in the latency benchmark, the server is this benchmark re-executed with
//! `LUDEME_LSP_BENCH_SERVE=1`, serving exactly as `ludeme lsp` does. The goals (issue 20): first
//! diagnostics within 3 s, an edit's diagnostics within 1 s, peak memory under 1 GB.

#[path = "../../tests/support/large_gdl.rs"]
mod large_gdl;
#[path = "../../tests/support/stdio_client.rs"]
#[allow(dead_code)] // the tests use more of the client than the benchmark
mod stdio_client;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use stdio_client::StdioClient;

const SERVE: &str = "LUDEME_LSP_BENCH_SERVE";
const SIZE_MB: &str = "LUDEME_BIG_DOCUMENT_MB";
const WRAPPER: &str = "LUDEME_BIG_DOCUMENT_WRAPPER";
const URI: &str = "file:///bench/big.kif";
const EDITS: usize = 10;

fn main() {
    if std::env::var_os(SERVE).is_some() {
        ludeme_lsp::run_stdio().expect("the server runs");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lsp/ has a parent")
        .to_path_buf();
    let megabytes: f64 = std::env::var(SIZE_MB)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(10.0);
    let text = text_of_about(&root, (megabytes * 1e6) as usize);
    let server = std::env::current_exe().expect("the benchmark's own path");
    // `LUDEME_BIG_DOCUMENT_WRAPPER="heaptrack -o /tmp/server"` runs the server under a profiler,
    // to see where its memory goes.
    let wrapper: Vec<String> = std::env::var(WRAPPER)
        .map(|words| words.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let mut command = match wrapper.split_first() {
        Some((program, arguments)) => {
            let mut command = Command::new(program);
            command.args(arguments).arg(&server);
            command
        }
        None => Command::new(&server),
    };
    command.env(SERVE, "1").current_dir(&root);
    let mut client = StdioClient::spawn(command);
    client.initialize(json!({
        "processId": null,
        "rootUri": null,
        "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
    }));
    println!(
        "language server on one document of {} lines ({:.1} MB of GDL)",
        text.lines().count(),
        text.len() as f64 / 1e6
    );

    let started = Instant::now();
    client.open(URI, "kif", &text);
    let diagnostics = client.diagnostics_for(URI, 1);
    print_time("didOpen → first publishDiagnostics", started.elapsed());
    println!("  ({} diagnostics)", diagnostics.len());
    print_peak_so_far(client.pid(), text.len());
    let started = Instant::now();
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 3, "character": 8}}),
    );
    print_time("then a hover", started.elapsed());
    assert!(hover.get("error").is_none(), "{hover}");
    print_peak_so_far(client.pid(), text.len());
    let started = Instant::now();
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    print_time("then the document's symbols", started.elapsed());
    assert!(symbols.get("error").is_none(), "{symbols}");
    print_peak_so_far(client.pid(), text.len());

    let offset = text.find("(<= (legal").expect("the game has legal rules") + 3;
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1);
    let mut latencies = Vec::new();
    for version in 2..2 + EDITS as i64 {
        let inserting = version % 2 == 0;
        let end = if inserting { column } else { column + 1 };
        let started = Instant::now();
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version},
                   "contentChanges": [{
                       "range": {"start": {"line": line, "character": column},
                                 "end": {"line": line, "character": end}},
                       "text": if inserting { " " } else { "" }}]}),
        );
        client.diagnostics_for(URI, version);
        latencies.push(started.elapsed());
    }
    latencies.sort();
    print_time("edit → publishDiagnostics, median", latencies[EDITS / 2]);
    print_time("edit → publishDiagnostics, slowest", latencies[EDITS - 1]);
    match peak_resident_bytes(client.pid()) {
        Some(bytes) => println!(
            "{:<45} {:>8.0} MB ({:.1} × the text)",
            "server's peak resident memory",
            bytes as f64 / 1e6,
            bytes as f64 / text.len() as f64
        ),
        None => println!("server's peak resident memory: not readable here"),
    }
    client.shutdown();
}

/// The peak so far, after a phase: which request grew the server shows in the step.
fn print_peak_so_far(pid: u32, text_len: usize) {
    if let Some(bytes) = peak_resident_bytes(pid) {
        println!(
            "{:<45} {:>8.0} MB ({:.1} × the text)",
            "  peak so far",
            bytes as f64 / 1e6,
            bytes as f64 / text_len as f64
        );
    }
}

/// The large game of at least `bytes` bytes.
fn text_of_about(root: &Path, bytes: usize) -> String {
    // The generator counts lines; one copy of tic-tac-toe tells how long a line is.
    let sample = large_gdl::large_gdl(root, 1_000);
    let bytes_per_line = sample.len() / sample.lines().count().max(1);
    large_gdl::large_gdl(root, bytes / bytes_per_line.max(1) + 1)
}

fn print_time(what: &str, elapsed: Duration) {
    println!("{what:<45} {:>8.0} ms", elapsed.as_secs_f64() * 1e3);
}

/// `VmHWM` of process `pid` (Linux), in bytes.
fn peak_resident_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

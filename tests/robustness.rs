//! Property tests: no input makes a parser, the analyses or the editor's document store panic,
//! and incremental re-parsing after any edits gives the tree a fresh parse gives. And hostile
//! inputs: text nested far deeper than any game, in every syntax, ends every command with a
//! diagnostic and leaves the language server answering; malformed message headers cost the
//! server one error response and no later request.

mod support;

use ludeme_analysis::fuzzing::analyse_text;
use ludeme_analysis::kif_forms::{Forms, read_kif};
use ludeme_analysis::{Syntax, decode_source, parse, parse_text};
use ludeme_lsp::PositionEncoding;
use ludeme_lsp::session::Session;
use proptest::prelude::*;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent, Uri};

/// Text that looks like game descriptions: brackets, operators, keywords, newlines, indentation,
/// non-ASCII characters, and a few arbitrary characters.
fn game_like_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(", ")", "[", "]", " ", "\n", "\n  ", "\t", ";", "#", "%", "?x", "<=", ":-", "&", "~",
        "|", "game", "role", "is", "like", "assert", "..", "2", "×", "x", "\"", "é", "𝄞", ",", ".",
        "A1", "-", ">=", "players", "\r\n", "++", "{", "}",
    ]);
    prop::collection::vec(
        prop_oneof![
            4 => pieces.prop_map(str::to_owned),
            1 => any::<char>().prop_map(String::from),
        ],
        0..80,
    )
    .prop_map(|parts| parts.concat())
}

/// KIF-like text, balanced more often than not: forms, rules in odd places, comments, odd
/// whitespace and the characters the grammar rejects.
fn kif_like_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "(", "(", ")", ")", "(<= ", "( <=", "<=", " ", "\n", "\t", "\r\n", "\x0c", ";c\n", "; é\n",
        "?x", "?", "role", "true", "not", "distinct", "or", "1", "10", "1st", "a?b", "++", "é",
        "\"", "#", ",", "\x01", "\u{a0}",
    ]);
    (prop::collection::vec(pieces, 0..60), any::<bool>()).prop_map(|(parts, balance)| {
        let mut text = parts.concat();
        if balance {
            let open = text.matches('(').count();
            let closed = text.matches(')').count();
            text.push_str(&")".repeat(open.saturating_sub(closed)));
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The fast KIF reader accepts only error-free text and reads the grammar's forms.
    #[test]
    fn kif_reader_agrees_with_the_grammar(text in kif_like_text()) {
        if let Some(forms) = read_kif(&text) {
            let parse = parse_text(Syntax::GdlKif, &text, None);
            prop_assert!(!parse.root().has_error(), "accepted with errors: {:?}", text);
            prop_assert_eq!(forms, Forms::from_tree(parse.root()), "{:?}", text);
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(text) = decode_source(&bytes) {
            for syntax in Syntax::ALL {
                analyse_text(syntax, text);
            }
        }
    }

    #[test]
    fn game_like_text_never_panics(text in game_like_text()) {
        for syntax in Syntax::ALL {
            analyse_text(syntax, &text);
        }
    }
}

/// One change as a client could send it, positions possibly out of range.
fn change() -> impl Strategy<Value = (Option<(u32, u32, u32, u32)>, String)> {
    (
        prop::option::weighted(0.95, (0..30u32, 0..50u32, 0..30u32, 0..50u32)),
        game_like_text().prop_map(|text| text.chars().take(12).collect::<String>()),
    )
}

fn seed_games() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "file:///w/ttt.ludi",
            "(game Tic-Tac-Toe\n  (players White Black)\n  (board (tiling square i-nbors) (size 3 3))\n  (end (All win (in-a-row 3)))\n)\n",
        ),
        (
            "file:///w/ttt.kif",
            "(role xplayer)\n(<= (legal ?p (mark ?x ?y))\n    (true (cell ?x ?y b))\n    (true (control ?p)))\n",
        ),
        (
            "file:///w/ttt.hrf",
            "role(x)\nlegal(P,mark(M,N)) :-\n  true(cell(M,N,b)) &\n  true(control(P))\n",
        ),
        (
            "file:///w/rps.egg",
            "move is choose\nBeat means player(Rock) and opponent(Scissors) or\n    player(Paper) and opponent(Rock)\n3 × 1 grid\n",
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn incremental_reparse_matches_a_fresh_parse(
        game in 0..4usize,
        encoding in prop::bool::ANY,
        changes in prop::collection::vec(prop::collection::vec(change(), 1..3), 1..25),
    ) {
        let (uri, text) = seed_games()[game];
        let uri: Uri = uri.parse().unwrap();
        let encoding = if encoding { PositionEncoding::Utf16 } else { PositionEncoding::Utf8 };
        let mut session = Session::new(encoding);
        prop_assert!(session.open(uri.clone(), "", text, 1));
        for (version, batch) in changes.into_iter().enumerate() {
            let events: Vec<TextDocumentContentChangeEvent> = batch
                .into_iter()
                .map(|(range, text)| TextDocumentContentChangeEvent {
                    range: range.map(|(l1, c1, l2, c2)| {
                        Range::new(Position::new(l1, c1), Position::new(l2, c2))
                    }),
                    range_length: None,
                    text,
                })
                .collect();
            prop_assert!(session.change(&uri, version as i32 + 2, &events));
            let snapshot = session.snapshot(&uri).unwrap();
            let text = snapshot.document.text();
            prop_assert_eq!(snapshot.file.text(snapshot.db()).as_ref(), text.as_str());
            let incremental = parse(snapshot.db(), snapshot.file).root();
            let fresh = parse_text(snapshot.file.syntax(snapshot.db()), &text, None);
            let fresh = fresh.root();
            // Tree-sitter's error recovery may shape the error region of broken text differently
            // when re-parsing; valid text must give the very same tree.
            prop_assert_eq!(incremental.has_error(), fresh.has_error(), "text {:?}", text);
            if !fresh.has_error() {
                prop_assert_eq!(incremental.to_sexp(), fresh.to_sexp(), "text {:?}", text);
            }
        }
    }
}

// Deep nesting. Every pass that follows the nesting of a file used to recurse along it, so that a
// file nested some thousands of levels deep overflowed the stack and aborted every command (and
// the language server with all its documents). The readers now leave out, with a
// `syntax/too-deep` diagnostic, any form nested deeper than `MAX_NESTING_DEPTH`.

use ludeme_analysis::rules::MAX_NESTING_DEPTH;
use std::process::Output;
use std::time::{Duration, Instant};

/// The four syntaxes by the extension of their files.
const EXTENSIONS: [&str; 4] = ["kif", "hrf", "ludi", "egg"];

/// A game in the syntax of `extension` with one form nested `depth` levels deep (a term, a
/// ludeme, a value).
fn deeply_nested(extension: &str, depth: usize) -> String {
    let (open, close) = (depth - 1, ")".repeat(depth - 1));
    match extension {
        "kif" => format!(
            "(role x)\n(init {}a{close})\n(role y)\n",
            "(f ".repeat(open)
        ),
        "hrf" => format!("role(x)\ninit({}a{close})\nrole(y)\n", "f(".repeat(open)),
        "ludi" => format!("(game X {}{close})\n", "(a ".repeat(open)),
        _ => format!("x is {}a{close}\n2 players\n", "f(".repeat(open)),
    }
}

/// A game in the syntax of `extension` that opens `count` brackets and closes none.
fn unclosed(extension: &str, count: usize) -> String {
    match extension {
        "kif" => format!("(role x)\n{}", "(".repeat(count)),
        "hrf" => format!("role(x)\ninit({}", "f(".repeat(count)),
        "ludi" => format!("(game X {}", "(a ".repeat(count)),
        _ => format!("2 players\nx is {}", "(".repeat(count)),
    }
}

/// Runs `ludeme ARGS FILE`; the command must end within `budget` of CPU time (the clock its
/// own budgets count in, so that a loaded machine does not fail the test; where the system
/// cannot tell, wall-clock time) with status 0, 1 or 2, never by a signal, and (on Linux) with
/// a peak resident memory under [`MEMORY_BOUND`]. A command that waits instead of working
/// spends no CPU time: it must also end within a generous multiple of the budget in wall-clock
/// time.
fn run_on(args: &[&str], file: &std::path::Path, budget: Duration) -> Output {
    let started = Instant::now();
    let mut all = args.to_vec();
    all.push(file.to_str().unwrap());
    let (output, usage) = run_measured(&all);
    let took = started.elapsed();
    if let Some(usage) = &usage {
        assert!(
            usage.peak_bytes < MEMORY_BOUND,
            "ludeme {all:?} took {} bytes",
            usage.peak_bytes
        );
    }
    let status = output.status.code();
    assert!(
        matches!(status, Some(0..=2)),
        "ludeme {all:?} ended with {:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let cpu = usage.map_or(took, |usage| usage.cpu);
    assert!(cpu < budget, "ludeme {all:?} took {cpu:?} of CPU time");
    assert!(
        took < budget * 4 + Duration::from_secs(30),
        "ludeme {all:?} took {took:?} of wall-clock time"
    );
    output
}

/// The most memory one command may hold on the hostile inputs of these tests: the issue's
/// 1 GB for deep nesting (its 2 GB for a game of a million facts; the CI size here takes a
/// fraction of either).
const MEMORY_BOUND: u64 = 1 << 30;

/// What a finished command used, as the system counted it.
struct Usage {
    /// Peak resident memory, in bytes.
    peak_bytes: u64,
    /// CPU time, user and system, of all its threads.
    cpu: Duration,
}

/// `ludeme ARGS` from the project's root: its output and, on Linux, what it used (`wait4`'s
/// `rusage`: its own peak resident memory and CPU time).
// On Linux the child is waited for by `wait4`, which clippy does not know.
#[allow(clippy::zombie_processes)]
fn run_measured(args: &[&str]) -> (Output, Option<Usage>) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .args(args)
        .current_dir(support::project_root())
        .env(support::CACHE_DIR_VARIABLE, support::test_cache_dir())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the ludeme binary runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reading_out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut bytes).map(|_| bytes)
    });
    let reading_err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut bytes).map(|_| bytes)
    });
    #[cfg(target_os = "linux")]
    let (status, usage) = {
        use std::os::unix::process::ExitStatusExt;
        let mut raw_status = 0;
        // SAFETY: wait4 writes the status and the usage it is given; the pid is our child's,
        // not yet waited for.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let pid = child.id() as libc::pid_t;
            assert_eq!(libc::wait4(pid, &mut raw_status, 0, &mut usage), pid);
            usage
        };
        let time = |value: libc::timeval| {
            Duration::from_secs(value.tv_sec as u64) + Duration::from_micros(value.tv_usec as u64)
        };
        (
            std::process::ExitStatus::from_raw(raw_status),
            Some(Usage {
                peak_bytes: usage.ru_maxrss as u64 * 1024,
                cpu: time(usage.ru_utime) + time(usage.ru_stime),
            }),
        )
    };
    #[cfg(not(target_os = "linux"))]
    let (status, usage) = (child.wait().expect("the child ends"), None);
    let output = Output {
        status,
        stdout: reading_out.join().unwrap().unwrap(),
        stderr: reading_err.join().unwrap().unwrap(),
    };
    (output, usage)
}

/// `check`, `explain` and `fmt --stdout` on each syntax's deeply nested game and unclosed
/// brackets, `size` levels or brackets each.
fn every_command_ends_with_a_diagnostic(size: usize, budget: Duration) {
    let dir = tempfile::tempdir().unwrap();
    for extension in EXTENSIONS {
        for (shape, text) in [
            ("deep", deeply_nested(extension, size)),
            ("unclosed", unclosed(extension, size)),
        ] {
            let file = dir.path().join(format!("{shape}.{extension}"));
            std::fs::write(&file, text).unwrap();
            let check = run_on(&["check", "--format", "json"], &file, budget);
            let diagnostics: serde_json::Value = serde_json::from_slice(&check.stdout)
                .unwrap_or_else(|error| panic!("{shape}.{extension}: {error}"));
            let codes: Vec<&str> = diagnostics
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|diagnostic| diagnostic["code"].as_str())
                .collect();
            assert!(!codes.is_empty(), "{shape}.{extension}: no diagnostic");
            // EGGG values stop being read at 32 levels without a report.
            if shape == "deep" && extension != "egg" {
                assert!(
                    codes.contains(&"syntax/too-deep"),
                    "{shape}.{extension}: {codes:?}"
                );
            }
            let explain = run_on(&["explain"], &file, budget);
            assert!(
                !explain.stdout.is_empty() || !explain.stderr.is_empty(),
                "{shape}.{extension}: explain says nothing"
            );
            run_on(&["fmt", "--stdout"], &file, budget);
        }
    }
}

/// 100,000 levels: every syntax but EGGG overflowed the stack and aborted the process here.
#[test]
fn text_nested_a_hundred_thousand_deep_ends_every_command_with_a_diagnostic() {
    every_command_ends_with_a_diagnostic(100_000, Duration::from_secs(60));
}

/// The size the issue asks for, within its time: a full suite (CI's optimised build), where it
/// takes a few seconds; an unoptimised build takes minutes.
#[test]
fn text_nested_a_million_deep_ends_every_command_with_a_diagnostic_within_ten_seconds() {
    if support::full_suites("nesting a million deep") {
        every_command_ends_with_a_diagnostic(1_000_000, Duration::from_secs(10));
    }
}

/// Games whose deepest form stands exactly at the limit are read whole, and the engines, which
/// have limits of their own, play them or refuse them with a message.
#[test]
fn the_engines_play_or_refuse_games_nested_to_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let tic_tac_toe =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    // `(init (junk (f ... a)))`: the deepest `(f` at the limit; a rule carries it from state
    // to state.
    let inner = MAX_NESTING_DEPTH - 2;
    let kif = format!(
        "{tic_tac_toe}\n(init (junk {}a{}))\n(<= (next (junk ?x)) (true (junk ?x)))\n",
        "(f ".repeat(inner),
        ")".repeat(inner)
    );
    // `(end (All win (not ... (in-a-row 3))))`: the deepest `(not` at the limit.
    let inner = MAX_NESTING_DEPTH - 4;
    let ludi = format!(
        "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win {}(in-a-row 3){})))\n",
        "(not ".repeat(inner),
        ")".repeat(inner)
    );
    let budget = Duration::from_secs(60);
    for (name, text) in [("limit.kif", kif), ("limit.ludi", ludi)] {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let check = run_on(&["check", "--format", "json"], &file, budget);
        let check = String::from_utf8(check.stdout).unwrap();
        assert!(!check.contains("syntax/too-deep"), "{name}: {check}");
        run_on(&["check", "--simulate", "--playouts", "5"], &file, budget);
        run_on(&["bench", "--seconds", "0.2"], &file, budget);
        run_on(&["play", "--games", "1"], &file, budget);
        run_on(&["probe", "--games", "2"], &file, budget);
        run_on(&["explain"], &file, budget);
        run_on(&["fmt", "--stdout"], &file, budget);
    }
}

/// The real server (whose threads run the analyses) on a KIF document nested 100,000 deep, one
/// with 100,000 unclosed brackets, and a normal game: it answers hover and document symbols on
/// each, and the normal game keeps being served. Each deep document used to abort the server
/// (a 3,000-deep term did, on the smaller stack of the runtime's threads).
#[test]
fn the_language_server_answers_beside_deeply_nested_documents() {
    use support::stdio_client::StdioClient;
    let dir = tempfile::tempdir().unwrap();
    let mut client = StdioClient::spawn(support::ludeme_lsp(dir.path()));
    client.initialize(serde_json::json!({"capabilities": {}}));
    let normal_text =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    // The million in the full suites (CI's optimised build); an unoptimised build's
    // parsers take minutes at that size.
    let size = if support::full_suites_enabled() {
        1_000_000
    } else {
        100_000
    };
    let mut documents: Vec<(String, String)> = Vec::new();
    for extension in EXTENSIONS {
        documents.push((
            format!("file:///w/deep.{extension}"),
            deeply_nested(extension, size),
        ));
        documents.push((
            format!("file:///w/unclosed.{extension}"),
            unclosed(extension, size),
        ));
    }
    documents.push(("file:///w/normal.kif".to_owned(), normal_text));
    for (uri, text) in &documents {
        let language = match uri.rsplit('.').next() {
            Some("ludi") => "ludi",
            Some("egg") => "egg",
            _ => "gdl",
        };
        client.open(uri, language, text);
    }
    for (uri, _) in &documents {
        let diagnostics = client.diagnostics_for(uri, 1);
        let too_deep = diagnostics
            .iter()
            .any(|diagnostic| diagnostic["code"] == "syntax/too-deep");
        // EGGG values stop being read at 32 levels without a report.
        if uri.contains("/deep.") && !uri.ends_with(".egg") {
            assert!(too_deep, "{uri}: {diagnostics:?}");
        }
        if uri.contains("/normal.") {
            assert!(!too_deep, "{uri}: {diagnostics:?}");
        }
    }
    for _round in 0..2 {
        for (uri, _) in &documents {
            let document = serde_json::json!({"uri": uri});
            let symbols = client.request(
                "textDocument/documentSymbol",
                serde_json::json!({"textDocument": document}),
            );
            assert!(symbols["result"].is_array(), "{uri}: {symbols}");
            for method in [
                "textDocument/foldingRange",
                "textDocument/semanticTokens/full",
            ] {
                let answer = client.request(method, serde_json::json!({"textDocument": document}));
                assert!(answer.get("error").is_none(), "{uri} {method}: {answer}");
            }
            // On the first line, and deep inside the nesting (the 10,000th line has nothing).
            for line in [0, 1] {
                let hover = client.request(
                    "textDocument/hover",
                    serde_json::json!({"textDocument": document,
                        "position": {"line": line, "character": 30_000}}),
                );
                assert!(hover.get("error").is_none(), "{uri}: {hover}");
            }
        }
    }
    // An edit re-parses the deep document incrementally and analyses it again.
    client.notify(
        "textDocument/didChange",
        serde_json::json!({"textDocument": {"uri": "file:///w/deep.kif", "version": 2},
            "contentChanges": [{"range": {"start": {"line": 1, "character": 1},
                "end": {"line": 1, "character": 1}}, "text": " "}]}),
    );
    let diagnostics = client.diagnostics_for("file:///w/deep.kif", 2);
    assert!(
        diagnostics
            .iter()
            .any(|diagnostic| diagnostic["code"] == "syntax/too-deep"),
        "{diagnostics:?}"
    );
    // The first `role` of the normal game.
    let normal_text = &documents.last().expect("the normal game").1;
    let role = normal_text.find("(role ").expect("a role") + 1;
    let line = normal_text[..role].matches('\n').count();
    let character = role - normal_text[..role].rfind('\n').map_or(0, |at| at + 1);
    let normal = serde_json::json!({"uri": "file:///w/normal.kif"});
    let hover = client.request(
        "textDocument/hover",
        serde_json::json!({"textDocument": normal,
            "position": {"line": line, "character": character}}),
    );
    assert!(hover["result"].is_object(), "{hover}");
    assert!(client.is_running());
    client.shutdown();
}

/// After a header without a readable length (`Content-Length: abc`, a misspelt
/// `Content-Lenght`), whose body is still in the stream, the server answers a parse error and
/// then every well-formed request. It used to lose the next request, or stop answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_every_request_after_a_malformed_header() {
    use support::lsp_client::LspClient;
    let mut client = LspClient::start();
    client.initialize().await;
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 9000, "method": "shutdown"}).to_string();
    let malformed = [
        format!("Content-Length: abc\r\n\r\n{body}"),
        format!("Content-Lenght: {}\r\n\r\n{body}", body.len()),
    ];
    for (round, bad) in malformed.iter().enumerate() {
        client.send_raw_bytes(bad.as_bytes()).await;
        for _ in 0..2 {
            let symbols = client
                .request("workspace/symbol", serde_json::json!({"query": "x"}))
                .await;
            assert!(symbols.get("error").is_none(), "after {bad:?}: {symbols}");
        }
        let errors = client.take_unsolicited_errors();
        assert_eq!(errors.len(), 1, "round {round}: {errors:?}");
        assert_eq!(errors[0]["error"]["code"], -32700);
    }
    client.shutdown().await;
}

/// A GDL game of tic-tac-toe plus 50,000 `init` facts (the million is measured in
/// BENCHMARKS.md): every command that reads, plays or prints it ends within its budget, plus
/// a margin, with a report or a message, under [`MEMORY_BOUND`]. A million such facts once made `bench`
/// and `check --simulate` grow past 8 GB and `explain` never end.
#[test]
fn a_game_with_many_init_facts_ends_every_command_within_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let mut text =
        std::fs::read_to_string(support::project_root().join("corpus/gdl/ticTacToe.kif")).unwrap();
    for fact in 0..50_000 {
        text.push_str(&format!("(init (fact {fact}))\n"));
    }
    let file = dir.path().join("many-facts.kif");
    std::fs::write(&file, text).unwrap();
    // The margin is 2 s, held in the full suites (CI's optimised build; BENCHMARKS.md
    // has the release figures); an unoptimised build beside the other tests of this binary
    // needs more for what cannot be interrupted.
    let margin = Duration::from_secs(if support::full_suites_enabled() { 2 } else { 8 });
    // (the command, its budget): `bench --seconds S` sets up within 2S + 1 s, at least 181 s
    // (grounding's time limit, twice, and a second), and plays S s; a
    // probe starts no game after its time limit and stops the one under way by twice it;
    // explain and fmt have no time budget of their own, and must simply be quick.
    let commands: [(&[&str], u64); 5] = [
        (&["check", "--simulate", "--simulate-seconds", "2"], 2),
        (&["bench", "--seconds", "1"], 182),
        (&["probe", "--time-limit", "3", "--games", "4"], 6),
        (&["explain"], 5),
        (&["fmt", "--stdout"], 5),
    ];
    for (args, seconds) in commands {
        let output = run_on(args, &file, Duration::from_secs(seconds) + margin);
        assert!(
            !output.stdout.is_empty() || !output.stderr.is_empty(),
            "{args:?} says nothing"
        );
    }
    let explained = run_on(&["explain", "--literal"], &file, Duration::from_secs(60));
    assert!(
        String::from_utf8_lossy(&explained.stdout).contains("each fact (0..49999) holds"),
        "the facts are read as one range"
    );
}

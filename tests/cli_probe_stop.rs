//! Ctrl-C during `ludeme probe` of one game: the probe stops at once (its search reads the stop
//! flag at every state), reports the games finished by then, and exits 2 saying so.

mod support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether the process has a handler for SIGINT (Linux: the `SigCgt` mask of
/// `/proc/PID/status`): a signal sent before would end it the default way, not test the probe.
#[cfg(target_os = "linux")]
fn catches_interrupt(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        // SIGINT is signal 2 on every Linux architecture; bit n-1 stands for signal n.
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_a_probe_at_once_and_reports_the_games_finished() {
    let game = support::project_root().join("corpus/ludi/yavalath.ludi");
    // A probe of many minutes: far longer than the test waits.
    let child = Command::new(env!("CARGO_BIN_EXE_ludeme"))
        .arg("probe")
        .arg(&game)
        .args(["--games", "500", "--move-nodes", "3000", "--format", "json"])
        .args(["--time-limit", "600"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ludeme runs");
    let waited = Instant::now();
    while !catches_interrupt(child.id()) {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "the probe never set up its Ctrl-C handler"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // Into the games (reading and setting up the game come first).
    std::thread::sleep(Duration::from_millis(1500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let stopped = Instant::now();
    let output = child.wait_with_output().expect("ran");
    let stop_took = stopped.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("stopped (Ctrl-C) after"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    let games = report["games"].as_u64().expect("a number of games");
    assert!(games < 500, "{games} games");
    assert!(
        stderr.contains(&format!("after {games} of 500 games")),
        "{stderr}"
    );
    // At once: a search at 3,000 states per move stops at its next state, not at the end of
    // its game (generous for a loaded debug build).
    assert!(stop_took < Duration::from_secs(10), "took {stop_took:?}");
}

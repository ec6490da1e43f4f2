//! Ctrl-C sent to a running `ludeme` as a terminal sends it: SIGINT, once the process handles
//! it (Linux only: the handler is read from `/proc`).

use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

/// `command` with SIGINT at its default action in the child, as a terminal's foreground job
/// has it, for a command that ends on Ctrl-C by that default (`check --watch`). A shell starts
/// a background job (`cargo test &`, a CI runner's `nohup … &`) with SIGINT ignored, and an
/// ignored signal stays ignored across `exec`: without this, such a run of the tests would
/// wait forever for the command to end.
#[cfg(unix)]
pub fn with_default_interrupt(command: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: the hook runs in the child between fork and exec, where only async-signal-safe
    // calls are allowed: `signal` is one, and nothing is allocated.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        })
    }
}

/// Whether the process has a handler for SIGINT (the `SigCgt` mask of `/proc/PID/status`): a
/// signal sent before would end it the default way, and test nothing of the command.
pub fn catches_interrupt(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        // SIGINT is signal 2 on every Linux architecture; bit n-1 stands for signal n.
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}

/// Waits until `child` handles Ctrl-C and `ready` holds, sends SIGINT, and returns its output
/// and how long it took to end after the signal.
pub fn interrupt_when(child: Child, ready: impl Fn() -> bool) -> (Output, Duration) {
    let waited = Instant::now();
    while !(catches_interrupt(child.id()) && ready()) {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the command never got ready to be interrupted"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let sent = Instant::now();
    let output = child.wait_with_output().expect("ran");
    (output, sent.elapsed())
}

/// Sends SIGINT `settled` after `child` first handles Ctrl-C: into its work, past reading and
/// setting up the game. Returns as [`interrupt_when`] does.
pub fn interrupt_after_handler(child: Child, settled: Duration) -> (Output, Duration) {
    let handler_seen = std::cell::Cell::new(None::<Instant>);
    interrupt_when(child, || {
        let since = handler_seen.get().unwrap_or_else(Instant::now);
        handler_seen.set(Some(since));
        since.elapsed() > settled
    })
}

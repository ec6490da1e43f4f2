//! Ctrl-C during a long command that can stop at a safe point (between the games of a corpus):
//! the first Ctrl-C asks the work to stop there; a second one ends the process at once, as
//! usual.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_signal: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
    // SAFETY: `signal` is async-signal-safe; it gives the next Ctrl-C the default disposition
    // (the process ends), for work that does not reach its safe point soon enough.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Makes the first Ctrl-C set [`interrupted`] instead of ending the process.
pub fn stop_at_first_interrupt() {
    #[cfg(unix)]
    // SAFETY: the handler only stores to an atomic and calls `signal`, both async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// Whether Ctrl-C was pressed since [`stop_at_first_interrupt`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

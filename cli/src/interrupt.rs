//! Ctrl-C during a long command that can stop at a safe point (between the games of a corpus,
//! or the probe's search, which reads the flag as it goes): the first Ctrl-C asks the work to
//! stop there; a second one ends the process at once, as usual.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag the first Ctrl-C raises: an `Arc`, so that engines can watch it as they watch any
/// other stop flag. Set before the handler is installed, so the handler only reads it.
static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

fn flag() -> &'static Arc<AtomicBool> {
    INTERRUPTED.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

#[cfg(unix)]
extern "C" fn on_interrupt(_signal: libc::c_int) {
    // An initialised `OnceLock` is read with one atomic load: safe in a signal handler.
    if let Some(flag) = INTERRUPTED.get() {
        flag.store(true, Ordering::Relaxed);
    }
    // SAFETY: `signal` is async-signal-safe; it gives the next Ctrl-C the default disposition
    // (the process ends), for work that does not reach its safe point soon enough.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// Makes the first Ctrl-C set [`interrupted`] instead of ending the process.
pub fn stop_at_first_interrupt() {
    flag();
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
    flag().load(Ordering::Relaxed)
}

/// The flag [`interrupted`] reads, for work that stops by a flag of its own (the probe).
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::clone(flag())
}

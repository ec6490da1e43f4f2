//! Progress on long work — a probe's games, the games of a corpus read and compared — as an
//! indicatif bar on standard error when it is a terminal, and nothing at all otherwise (a pipe,
//! a file, CI): what scripts read is never mixed with it. Every command that may run for long
//! makes its bars here, so that they all look and behave alike.

use std::borrow::Cow;
use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often a spinner turns, and a bar redraws its clock, while nothing else moves it.
const TICK: Duration = Duration::from_millis(120);

/// A bar or spinner on standard error, cleared when dropped (its work is done or given up).
/// Cheap to share between threads: every method takes `&self`.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar counting up to `total`, e.g. `Progress::bar("probing yavalath", 100, "games")`.
    pub fn bar(what: impl Into<Cow<'static, str>>, total: u64, unit: &'static str) -> Progress {
        let template = format!("{{prefix}} [{{bar:32}}] {{pos}}/{{len}} {unit} · {{elapsed}}");
        Self::bar_from_template(what, total, &template)
    }

    fn bar_from_template(
        what: impl Into<Cow<'static, str>>,
        total: u64,
        template: &str,
    ) -> Progress {
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(total), draw_target())
            .with_style(style)
            .with_prefix(what);
        bar.enable_steady_tick(TICK);
        Progress { bar }
    }

    /// A bar that also shows how fast the work goes and a message (`set_message`), e.g. the
    /// children of `ludeme evolve` per second and the best score so far.
    pub fn rate_bar(
        what: impl Into<Cow<'static, str>>,
        total: u64,
        unit: &'static str,
    ) -> Progress {
        let template = format!(
            "{{prefix}} [{{bar:32}}] {{pos}}/{{len}} {unit} · {{per_sec}} · {{msg}} · {{elapsed}}"
        );
        Self::bar_from_template(what, total, &template)
    }

    /// The message of a [`Progress::rate_bar`].
    pub fn set_message(&self, message: String) {
        self.bar.set_message(message);
    }

    /// A spinner for work of unknown size, e.g. `Progress::spinner("reading the corpus")`.
    pub fn spinner(what: impl Into<Cow<'static, str>>) -> Progress {
        let style = ProgressStyle::with_template("{spinner} {prefix} · {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
        let bar = ProgressBar::with_draw_target(None, draw_target())
            .with_style(style)
            .with_prefix(what);
        bar.enable_steady_tick(TICK);
        Progress { bar }
    }

    /// How much of the work is done.
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
    }

    /// Whether the bar is drawn (standard error is a terminal): work may be cut finer for it.
    pub fn is_shown(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// `done` more pieces of the work done.
    pub fn advance(&self, done: u64) {
        self.bar.inc(done);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Standard error when it is a terminal; else nowhere.
fn draw_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

//! The figures of random play, for people: a one-line headline (the CLI's summary line and the
//! editor's code lens) and a Markdown table (the editor's hover on the `role` facts).

use std::collections::BTreeMap;
use std::fmt::Write;

use ludeme_engine::Reward;

use super::SimulationOptions;
use super::anchors::Anchors;
use super::run::Observed;
use crate::TextRange;

/// How one role fared in the finished playouts.
#[derive(Clone, Debug, PartialEq)]
pub struct RoleOutcome {
    pub name: String,
    /// The `(role NAME)` fact.
    pub range: Option<TextRange>,
    /// GDL-II's chance player: it has no goals and wins nothing.
    pub random: bool,
    /// Finished playouts this role won alone.
    pub wins: u64,
    /// How often each goal value ended a finished playout.
    pub goal_counts: BTreeMap<Reward, u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SimulationSummary {
    pub roles: Vec<RoleOutcome>,
    pub playouts_requested: u64,
    /// Playouts played to their end (a terminal state, the ply limit or a stuck role).
    pub playouts: u64,
    /// Of those, the ones that reached a terminal state.
    pub finished: u64,
    /// Mean joint moves of the finished playouts.
    pub average_plies: f64,
    /// Finished playouts that nobody won alone.
    pub draws: u64,
    pub seed: u64,
    /// Which engine played: "the grounded reasoner", or "the interpreter" and why.
    pub engine: String,
    /// Why fewer playouts than asked for were played.
    pub stopped_early: Option<String>,
}

fn percent(count: u64, total: u64) -> String {
    if total == 0 {
        "–".to_owned()
    } else {
        format!("{:.0} %", count as f64 * 100.0 / total as f64)
    }
}

fn plural(count: u64, word: &str) -> String {
    format!("{count} {word}{}", if count == 1 { "" } else { "s" })
}

impl SimulationSummary {
    pub(super) fn new(
        observed: &Observed,
        anchors: &Anchors<'_>,
        options: &SimulationOptions,
    ) -> Self {
        let roles = observed
            .roles
            .iter()
            .enumerate()
            .map(|(role, name)| RoleOutcome {
                name: name.clone(),
                range: anchors.role_fact(name),
                random: observed.random[role],
                wins: observed.wins[role],
                goal_counts: observed.goal_counts[role].clone(),
            })
            .collect();
        let stopped_early = if observed.failure.is_some() {
            Some(format!(
                "the engine gave up after {} of {} playouts",
                observed.playouts, options.playouts
            ))
        } else {
            observed.time_ran_out.map(|_| {
                format!(
                    "the time limit ({} s) ran out after {} of {} playouts",
                    options.seconds, observed.playouts, options.playouts
                )
            })
        };
        SimulationSummary {
            roles,
            playouts_requested: options.playouts,
            playouts: observed.playouts,
            finished: observed.completed,
            average_plies: if observed.completed == 0 {
                0.0
            } else {
                observed.completed_plies as f64 / observed.completed as f64
            },
            draws: observed.draws,
            seed: options.seed,
            engine: observed.engine.clone(),
            stopped_early,
        }
    }

    fn players(&self) -> impl Iterator<Item = &RoleOutcome> {
        self.roles.iter().filter(|role| !role.random)
    }

    /// "2 roles · random play ends after 7.6 plies · xplayer wins 58 %".
    pub fn headline(&self) -> String {
        let roles = plural(self.roles.len() as u64, "role");
        if self.playouts == 0 {
            return format!("{roles} · no random game finished");
        }
        if self.finished == 0 {
            return format!(
                "{roles} · random play never reached a terminal state ({})",
                plural(self.playouts, "playout")
            );
        }
        let mut line = format!(
            "{roles} · random play ends after {:.1} plies",
            self.average_plies
        );
        // The role that wins most often (the first one written, on a tie).
        let leader = self
            .players()
            .reduce(|best, role| if role.wins > best.wins { role } else { best });
        match leader {
            Some(leader) if leader.wins > 0 => {
                let _ = write!(
                    line,
                    " · {} wins {}",
                    leader.name,
                    percent(leader.wins, self.finished)
                );
            }
            Some(_) if self.draws == self.finished => line.push_str(" · always a draw"),
            Some(_) => line.push_str(" · nobody wins"),
            None => {}
        }
        if self.finished < self.playouts {
            let _ = write!(
                line,
                " · {} of {} did not end",
                self.playouts - self.finished,
                plural(self.playouts, "playout")
            );
        }
        line
    }

    /// The figures as Markdown: per role, how often it wins and each goal value.
    pub fn details_markdown(&self) -> String {
        let mut text = format!(
            "**Random play**: {} from the initial state (seed {}) on {}",
            plural(self.playouts, "playout"),
            self.seed,
            self.engine
        );
        if self.finished > 0 {
            let _ = write!(
                text,
                ", ending after {:.1} plies on average",
                self.average_plies
            );
        }
        text.push_str(".\n\n");
        if self.finished > 0 {
            text.push_str("| role | wins | goal values |\n|---|---|---|\n");
            for role in &self.roles {
                if role.random {
                    let _ = writeln!(text, "| {} | (chance) | – |", role.name);
                    continue;
                }
                let goals = role
                    .goal_counts
                    .iter()
                    .rev()
                    .map(|(value, &count)| format!("{value}: {}", percent(count, self.finished)))
                    .collect::<Vec<_>>()
                    .join(", ");
                let _ = writeln!(
                    text,
                    "| {} | {} | {} |",
                    role.name,
                    percent(role.wins, self.finished),
                    if goals.is_empty() { "none" } else { &goals }
                );
            }
            if self.players().count() > 1 {
                let _ = writeln!(
                    text,
                    "\nNo single winner: {}.",
                    percent(self.draws, self.finished)
                );
            }
        }
        if self.finished < self.playouts {
            let _ = writeln!(
                text,
                "\n{} of {} reached no terminal state.",
                self.playouts - self.finished,
                plural(self.playouts, "playout")
            );
        }
        if let Some(why) = &self.stopped_early {
            let _ = writeln!(text, "\nStopped early: {why}.");
        }
        text
    }
}

//! `ludeme bench FILE`: uniformly random playouts from the initial state, on one thread, for a
//! given CPU time or number of playouts; playouts per CPU second (a figure the machine's load does not change) and the
//! outcome frequencies. Every language: the game is
//! played on the engine the analysis chooses for it.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use ludeme_analysis::CpuInstant;
use ludeme_analysis::play::{
    ENGINE_CHOICE_SETUP_TIME, EngineOptions, PlayableGame, PlayoutFigures, Reward,
};
use serde::Serialize;

use crate::exit;
use crate::project::{KnownGames, open_game};

#[derive(Serialize)]
struct Report {
    game: String,
    /// The engine that ran: `grounded` or `interpreter` (GDL), `ludi`, `eggg`.
    engine: String,
    /// Why the interpreter ran, when the game could not be grounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback_reason: Option<String>,
    /// Why the goal values come from the interpreter, when the game is grounded without its
    /// goal (the goal alone did not ground; a playout asks it once, at its end).
    #[serde(skip_serializing_if = "Option::is_none")]
    interpreted_goals: Option<String>,
    /// Loading, checking and (for the grounded reasoner) grounding the game, in CPU seconds.
    setup_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    circuit: Option<CircuitSize>,
    playouts: u64,
    /// Playouts that reached a terminal state (the outcomes are theirs).
    completed: u64,
    /// Playouts cut at the ply limit, and ended by a role without legal moves: a game that
    /// often does either is a finding, not a detail.
    ply_limits: u64,
    no_legal_move: u64,
    /// Completed playouts whose terminal state gave a role several goal values: a fault of the
    /// game (`check --simulate` reports it), counted in `outcomes` at the highest.
    ambiguous_goals: u64,
    /// CPU seconds of play.
    seconds: f64,
    /// Playouts per CPU second.
    playouts_per_second: f64,
    avg_plies: f64,
    /// Per role, the frequency of each goal value among completed playouts.
    outcomes: BTreeMap<String, BTreeMap<Reward, f64>>,
    /// The roles in the game's order (the JSON object above is keyed by name).
    #[serde(skip)]
    roles: Vec<String>,
}

#[derive(Serialize)]
struct CircuitSize {
    propositions: usize,
    ground_rules: usize,
    /// 64 when the playouts were played 64 at a time, one in each bit of a word.
    playouts_at_once: usize,
    /// The work grounding spent (failed attempts included) and the most it may spend, in the
    /// grounder's units: how close the game came to running on the interpreter instead.
    grounding_work: u64,
    grounding_work_allowed: u64,
}

/// When `bench` stops playing.
#[derive(Clone, Copy, Debug)]
pub enum Until {
    /// After this many CPU seconds of play (`--seconds`).
    Seconds(f64),
    /// After exactly this many playouts (`--playouts`).
    Playouts(u64),
}

impl Until {
    /// `--playouts` when given, `--seconds` otherwise (the two options conflict).
    pub fn new(seconds: f64, playouts: Option<u64>) -> Self {
        playouts.map_or(Until::Seconds(seconds), Until::Playouts)
    }
}

pub fn run(path: &Path, until: Until, seed: u64, json: bool, interpreter: bool) -> u8 {
    let fail = |message: String| {
        eprintln!("ludeme bench: {}: {message}", path.display());
        exit::FAILURE
    };
    match until {
        Until::Seconds(seconds) if !(seconds > 0.0 && seconds.is_finite()) => {
            return fail(format!(
                "--seconds must be a positive number, not {seconds}"
            ));
        }
        Until::Playouts(0) => return fail("--playouts must be at least 1".to_owned()),
        _ => {}
    }
    // Counted in CPU time, as the engines count it: setting up a game takes the same budget
    // whatever the machine's load.
    let started = CpuInstant::now();
    let (analysis, file) = match open_game(path, KnownGames::FromSettings) {
        Ok(opened) => opened,
        Err(message) => return fail(message),
    };
    // With --seconds, the whole command's budget, from before the game is read: setting it up
    // (reading, checking, grounding; `setup_time`), then the playouts for the time asked for.
    // A question that never ends stops at the budget's end. With --playouts, the engines' own
    // limits: a count is not cut by a clock.
    let deadline = match until {
        Until::Seconds(seconds) => {
            let play = Duration::from_secs_f64(seconds);
            Some(started.deadline(setup_time(seconds) + play))
        }
        Until::Playouts(_) => None,
    };
    let options = EngineOptions {
        deadline,
        interpreter,
    };
    let hint = |message: String| match until {
        Until::Seconds(seconds) => with_budget_hint(message, seconds),
        Until::Playouts(_) => message,
    };
    let game = match analysis.playable(file, &options) {
        Ok(Ok(game)) => game,
        Ok(Err(message)) => return fail(hint(message)),
        Err(_) => return fail("cancelled".to_owned()),
    };
    let setup_seconds = started.elapsed().as_secs_f64();
    let figures = match until {
        Until::Seconds(seconds) => game.random_playouts(Duration::from_secs_f64(seconds), seed),
        Until::Playouts(count) => game.counted_random_playouts(count, seed),
    };
    let figures = match figures {
        Ok(figures) => figures,
        Err(message) => return fail(hint(message)),
    };
    let report = report(path, &game, setup_seconds, figures);
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{text}"),
            Err(error) => return fail(format!("cannot write the report: {error}")),
        }
    } else {
        print_human(&report);
    }
    exit::CLEAN
}

/// The CPU time reading and setting up a game may take with `--seconds seconds`: twice the
/// time asked for plus a second, and never less than the engines need to choose as they would
/// with no budget (grounding's whole time limit, behind its count of work). With the setup
/// cut to a share of a short `--seconds`, amazons, racer4 and gt_two_thirds_6p, which ground in
/// 10-15 CPU s, played on the interpreter at `--seconds 5` on a slower machine: the engine, and
/// so the figures, depended on the time asked for and on the machine.
fn setup_time(seconds: f64) -> Duration {
    (Duration::from_secs_f64(seconds) * 2 + Duration::from_secs(1)).max(ENGINE_CHOICE_SETUP_TIME)
}

/// `message`, and when an engine's budget stopped the work, which budget and how to raise it.
fn with_budget_hint(message: String, seconds: f64) -> String {
    if message.starts_with("budget exhausted") && message.contains("time limit") {
        format!(
            "{message} (bench's budget: {:.0} s to read and set up the game, then {seconds} s of \
             play, from --seconds {seconds}; a larger --seconds allows more)",
            setup_time(seconds).as_secs_f64()
        )
    } else {
        message
    }
}

/// `part` as a percentage of `whole`, for people ("under 0.1 %" rather than "0.0 %").
fn share_percent(part: u64, whole: u64) -> String {
    let percent = part as f64 * 100.0 / whole.max(1) as f64;
    if percent < 0.1 {
        "under 0.1 %".to_owned()
    } else {
        format!("{percent:.1} %")
    }
}

fn report(path: &Path, game: &PlayableGame, setup_seconds: f64, figures: PlayoutFigures) -> Report {
    let roles = game.roles().to_vec();
    Report {
        game: path.display().to_string(),
        engine: game.engine_name().to_owned(),
        fallback_reason: game.fallback_reason().map(str::to_owned),
        interpreted_goals: game.interpreted_goals_reason().map(str::to_owned),
        setup_seconds,
        circuit: game.circuit_size().map(|size| CircuitSize {
            propositions: size.propositions,
            ground_rules: size.ground_rules,
            playouts_at_once: size.playouts_at_once,
            grounding_work: size.grounding_work.0,
            grounding_work_allowed: size.grounding_work.1,
        }),
        playouts: figures.playouts,
        seconds: figures.seconds,
        playouts_per_second: figures.per_second(),
        avg_plies: figures.average_plies,
        outcomes: roles.iter().cloned().zip(figures.outcomes).collect(),
        roles,
        completed: figures
            .playouts
            .saturating_sub(figures.ply_limits + figures.no_legal_move),
        ply_limits: figures.ply_limits,
        no_legal_move: figures.no_legal_move,
        ambiguous_goals: figures.ambiguous_goals,
    }
}

fn print_human(report: &Report) {
    println!(
        "{}: {} random playouts in {:.1} s of CPU time ({:.0} per CPU second, one thread, {} reasoner), {:.2} plies on average",
        report.game,
        report.playouts,
        report.seconds,
        report.playouts_per_second,
        report.engine,
        report.avg_plies
    );
    if let Some(reason) = &report.fallback_reason {
        println!("  (not grounded: {reason})");
    }
    if let Some(reason) = &report.interpreted_goals {
        println!("  (goal values from the interpreter: the goal alone did not ground: {reason})");
    }
    if let Some(circuit) = &report.circuit {
        println!(
            "  ({} propositions, {} ground rules; loaded and grounded in {:.2} s of CPU time, {} of grounding's allowance of work{})",
            circuit.propositions,
            circuit.ground_rules,
            report.setup_seconds,
            share_percent(circuit.grounding_work, circuit.grounding_work_allowed),
            if circuit.playouts_at_once > 1 {
                format!("; {} playouts at a time", circuit.playouts_at_once)
            } else {
                String::new()
            }
        );
    }
    for role in &report.roles {
        let values = &report.outcomes[role];
        let shares: Vec<String> = values
            .iter()
            .rev()
            .map(|(value, share)| format!("{value}: {:.1} %", share * 100.0))
            .collect();
        println!("  {role}: {}", shares.join(", "));
    }
    if report.ambiguous_goals > 0 {
        println!(
            "  {} playouts ended in a state giving a role several goal values (counted above at the highest; `ludeme check --simulate` shows one)",
            report.ambiguous_goals
        );
    }
    let (ply_limits, no_legal_move) = (report.ply_limits, report.no_legal_move);
    if ply_limits + no_legal_move > 0 {
        println!(
            "  {} playouts did not end ({ply_limits} at the ply limit, {no_legal_move} with a role without legal moves)",
            ply_limits + no_legal_move
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--seconds`' help, the README and the robustness test's bound state the set-up floor in
    /// seconds: a change of grounding's allowance must change them too.
    #[test]
    fn the_set_up_floor_is_the_one_the_help_states() {
        assert_eq!(ENGINE_CHOICE_SETUP_TIME, Duration::from_secs(181));
        assert_eq!(setup_time(1.0), Duration::from_secs(181));
        assert_eq!(setup_time(100.0), Duration::from_secs(201));
    }
}

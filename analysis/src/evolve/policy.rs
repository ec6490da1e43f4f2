//! Policy choice (Browne & Maire 2010, §V.B.3): "comparing all combinations of the child's
//! default policy with both parents' policies in round-robin matches and choosing the most
//! successful hybrid. The child is discarded if match games take too long or more than half
//! fail to produce a winner."
//!
//! A policy is the weighting of the advisors, and Ludi's default policy comes from a game's end
//! conditions ([`Advisors::for_game`]). A parent's policy on the child's rules — the hybrid — is
//! therefore the default policy of the child's rules with the parent's `end`: the parent's
//! advisors and weights, measured on the child's board, with the pieces and regions its end
//! conditions name read in the child's definitions (a parent's end naming a piece or region the
//! child lacks gives no policy for the child, and is left out with the checker's reason).
//! Policies that weigh the same (the child's end is often a parent's) are one candidate.
//!
//! The distinct candidates play a round robin on the child's rules: every pair both ways round
//! (one candidate plays itself, so that the child is still tried), each player's first move
//! with a choice at random so that games differ, then iterative-deepening alpha-beta under the
//! probe's states per move (no wall-clock limit per move), at most the probe's length limit of
//! plies — a game still going then took too long and has no winner (a limit of 0 plies: every
//! game, as in the probe). A win scores 1, a game without a winner ½ to each side; the
//! candidate with most points is kept (the child's own policy on a tie). Every move is counted
//! in steps and seeded, so the same child gets the same choice; the whole round robin runs
//! under a CPU deadline (the child's budget), and a round robin that overruns it chooses
//! nothing: the child is too slow.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ludeme_engine::Game;
use ludeme_engine::cpu_time::CpuDeadline;
use ludeme_engine::ludi::advisors::Advisors;
use ludeme_engine::ludi::{LudiGame, LudiMove, LudiState};
use ludeme_engine::players::{
    Clock, MatchEnd, MatchSettings, MoveBudget, Player, SearchPlayer, play_match,
};
use ludeme_engine::probe::ProbeSettings;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::genome::Gene;

/// The head of the part a game's default policy is derived from.
const END: &str = "end";

/// The name of the child's own policy in records.
pub const DEFAULT_POLICY: &str = "default";

/// One candidate policy for the child: its name and the child's rules with its `end`.
pub struct Candidate {
    /// [`DEFAULT_POLICY`], or `from PARENT`.
    pub name: String,
    /// The rules whose default policy it is (the child's, with the parent's `end`).
    pub rules: Gene,
}

/// The candidates for `child` bred from `parents` (names and genes): the child's own policy,
/// then each parent's whose `end` differs from those before it.
pub fn candidates(child: &Gene, parents: &[(&str, &Gene)]) -> Vec<Candidate> {
    let mut found = vec![Candidate {
        name: DEFAULT_POLICY.to_owned(),
        rules: child.clone(),
    }];
    let mut ends = vec![child.part(END).cloned()];
    for (name, parent) in parents {
        let Some(end) = parent.part(END) else {
            continue;
        };
        if ends.iter().any(|seen| seen.as_ref() == Some(end)) {
            continue;
        }
        ends.push(Some(end.clone()));
        let mut rules = child.clone();
        rules.set_part(end.clone());
        found.push(Candidate {
            name: format!("from {name}"),
            rules,
        });
    }
    found
}

/// How one candidate fared in the round robin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    pub policy: String,
    pub points: f64,
    pub games: usize,
}

/// The policy choice of a child: what the JSON Lines record keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyChoice {
    /// The policy kept: [`DEFAULT_POLICY`] or `from PARENT`.
    pub chosen: String,
    /// Every candidate that played, in candidate order.
    pub standings: Vec<Standing>,
    /// Games of the round robin, and how many had a winner.
    pub games: usize,
    pub decided: usize,
    /// Parents' policies that do not apply to the child's rules, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
}

impl PolicyChoice {
    /// Whether more than half the games failed to produce a winner: the paper's cull.
    pub fn too_indecisive(&self) -> bool {
        self.decided * 2 < self.games
    }

    /// One line for the child's header: "policy kept: from Yavalath (3.5 points in 4 games;
    /// default 0.5); 4 of 4 round-robin games had a winner".
    pub fn describe(&self) -> String {
        let standing = |s: &Standing| format!("{} {}", s.policy, points(s.points));
        let chosen = self.standings.iter().find(|s| s.policy == self.chosen);
        let others: Vec<String> = self
            .standings
            .iter()
            .filter(|s| s.policy != self.chosen)
            .map(standing)
            .collect();
        let mut line = format!("policy kept: {}", self.chosen);
        if let Some(chosen) = chosen
            && !others.is_empty()
        {
            line.push_str(&format!(
                " ({} in {} games; {})",
                points_in_words(chosen.points),
                chosen.games,
                others.join(", ")
            ));
        }
        line.push_str(&format!(
            "; {} of {} round-robin games had a winner",
            self.decided, self.games
        ));
        line
    }
}

/// "1 point", "2.5 points".
fn points_in_words(value: f64) -> String {
    let unit = if value == 1.0 { "point" } else { "points" };
    format!("{} {unit}", points(value))
}

fn points(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// A candidate ready to play: its name and its advisors, built on its rules.
pub struct Contender {
    pub name: String,
    pub advisors: Advisors,
}

/// How the round robin is played: the probe's search budget, length limit and seed.
pub struct RoundRobin<'a> {
    pub probe: &'a ProbeSettings,
    /// Stops the games, inside a move's search too (the editor's cancel).
    pub stop: Option<Arc<AtomicBool>>,
    /// The CPU time the whole round robin may take (checked before every move).
    pub deadline: CpuDeadline,
}

/// Why a round robin chose nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halted {
    /// The stop flag was raised.
    Stopped,
    /// The CPU deadline passed.
    OutOfTime,
}

impl RoundRobin<'_> {
    /// Plays the round robin of `contenders` on `game` (the child's rules) and returns the
    /// choice and the advisors of the contender kept, or why it chose nothing.
    pub fn play(
        &self,
        game: &LudiGame,
        contenders: Vec<Contender>,
        left_out: Vec<String>,
    ) -> Result<(PolicyChoice, Rc<Advisors>), Halted> {
        let contenders: Vec<(String, Rc<Advisors>)> = contenders
            .into_iter()
            .map(|c| (c.name, Rc::new(c.advisors)))
            .collect();
        let pairs: Vec<(usize, usize)> = if contenders.len() == 1 {
            vec![(0, 0)]
        } else {
            (0..contenders.len())
                .flat_map(|a| (a + 1..contenders.len()).map(move |b| (a, b)))
                .collect()
        };
        let roles = game.roles().len();
        let mut standings: Vec<Standing> = contenders
            .iter()
            .map(|(name, _)| Standing {
                policy: name.clone(),
                points: 0.0,
                games: 0,
            })
            .collect();
        let (mut games, mut decided) = (0, 0);
        // Raised by a player that finds the stop flag or the deadline before its move; the
        // match then ends before the next move.
        let halt = Arc::new(AtomicBool::new(false));
        let settings = MatchSettings {
            // Nodes only: a wall-clock guard would make the choice depend on the machine's load.
            move_budget: MoveBudget::nodes(self.probe.nodes_per_move.max(1)),
            max_plies: self.probe.max_length,
            cancel: Some(halt.clone()),
            chance_seed: self.probe.seed,
        };
        let stopped = || {
            self.stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed))
        };
        for (a, b) in pairs {
            // Each way round: `first` takes the first seat, `second` the others.
            for (first, second) in [(a, b), (b, a)] {
                let seats: Vec<usize> = (0..roles)
                    .map(|role| if role == 0 { first } else { second })
                    .collect();
                let mut players: Vec<Box<dyn Player<LudiGame>>> = seats
                    .iter()
                    .enumerate()
                    .map(|(role, &policy)| {
                        let seed = self
                            .probe
                            .seed
                            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                            .wrapping_add((games * roles + role) as u64);
                        Box::new(PolicyPlayer {
                            advisors: contenders[policy].1.clone(),
                            random_moves_left: self.probe.random_plies,
                            rng: SmallRng::seed_from_u64(seed),
                            stop: self.stop.clone(),
                            deadline: self.deadline,
                            halt: halt.clone(),
                        }) as Box<dyn Player<LudiGame>>
                    })
                    .collect();
                // The probe abandons a game at `max_length` plies, so a limit of 0 leaves every
                // game without a winner (for `play_match`, 0 would mean no limit).
                let winner = if self.probe.max_length == 0 {
                    None
                } else {
                    let result = play_match(game, &mut players, &settings);
                    if stopped() {
                        return Err(Halted::Stopped);
                    }
                    if result.end == MatchEnd::Cancelled || self.deadline.is_past() {
                        return Err(Halted::OutOfTime);
                    }
                    result.goals.as_deref().and_then(sole_winner)
                };
                games += 1;
                for (role, &policy) in seats.iter().enumerate() {
                    let standing = &mut standings[policy];
                    // A candidate playing itself plays one game, not one per seat.
                    if role == 0 || seats[..role].iter().all(|&p| p != policy) {
                        standing.games += 1;
                    }
                    standing.points += match winner {
                        Some(w) if w == role => 1.0,
                        Some(_) => 0.0,
                        None => 0.5 / seats.iter().filter(|&&p| p == policy).count() as f64,
                    };
                }
                if winner.is_some() {
                    decided += 1;
                }
            }
        }
        // Most points; the earlier candidate (the child's own first) on a tie.
        let best = (0..standings.len())
            .rev()
            .max_by(|&x, &y| standings[x].points.total_cmp(&standings[y].points))
            .unwrap_or(0);
        let chosen = standings[best].policy.clone();
        let mut contenders = contenders;
        let (_, advisors) = contenders.swap_remove(best);
        Ok((
            PolicyChoice {
                chosen,
                standings,
                games,
                decided,
                left_out,
            },
            advisors,
        ))
    }
}

/// The role whose goal is above every other's.
fn sole_winner(goals: &[ludeme_engine::Reward]) -> Option<usize> {
    let best = goals.iter().copied().max()?;
    let mut leaders = (0..goals.len()).filter(|&r| goals[r] == best);
    match (leaders.next(), leaders.next()) {
        (Some(winner), None) => Some(winner),
        _ => None,
    }
}

/// A player of one policy: its first moves with a choice at random (as the probe's players),
/// then iterative-deepening alpha-beta valuing states by the policy's advisors.
struct PolicyPlayer {
    advisors: Rc<Advisors>,
    random_moves_left: usize,
    rng: SmallRng,
    /// The outside stop, also seen inside a move's search.
    stop: Option<Arc<AtomicBool>>,
    deadline: CpuDeadline,
    /// The match's cancel flag, raised when the stop or the deadline is found.
    halt: Arc<AtomicBool>,
}

impl Player<LudiGame> for PolicyPlayer {
    fn name(&self) -> &'static str {
        "policy"
    }

    fn choose_move(
        &mut self,
        game: &LudiGame,
        state: &LudiState,
        role: usize,
        clock: &mut Clock,
    ) -> Option<LudiMove> {
        let moves = game.legal_moves(state, role);
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed));
        if stopped || self.deadline.is_past() {
            // Any legal move: the match ends before the next one and is not counted.
            self.halt.store(true, Ordering::Relaxed);
            return moves.first().copied();
        }
        if moves.len() > 1 && self.random_moves_left > 0 {
            self.random_moves_left -= 1;
            return moves.get(self.rng.random_range(0..moves.len())).copied();
        }
        // The match's clock stops on `halt`, which only this player raises (above); the search
        // must stop on the outside flag instead.
        let mut clock = match &self.stop {
            Some(stop) => clock.clone().with_cancel(stop.clone()),
            None => clock.clone(),
        };
        SearchPlayer::iterative_deepening()
            .choose_move_with(game, state, role, &mut clock, &*self.advisors)
            .or_else(|| moves.first().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(end: &str) -> Gene {
        Gene::read_game(&format!(
            "(game T (players White Black) (board (tiling square) (size 3 3)) {end})"
        ))
        .expect("a game")
    }

    #[test]
    fn parents_with_the_childs_end_add_no_candidate() {
        let child = game("(end (All win (in-a-row 3)))");
        let same = game("(end (All win (in-a-row 3)))");
        let other = game("(end (All lose (in-a-row 3)))");
        let found = candidates(
            &child,
            &[("Same", &same), ("Other", &other), ("Again", &other)],
        );
        let names: Vec<&str> = found.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec![DEFAULT_POLICY, "from Other"]);
        // The hybrid is the child's rules with the parent's end.
        let mut expected = child.clone();
        expected.set_part(other.part(END).unwrap().clone());
        assert_eq!(found[1].rules, expected);
        assert!(found[1].rules.to_text().contains("(All lose (in-a-row 3))"));
    }

    #[test]
    fn the_paper_culls_when_more_than_half_have_no_winner() {
        let choice = |games, decided| PolicyChoice {
            chosen: DEFAULT_POLICY.to_owned(),
            standings: Vec::new(),
            games,
            decided,
            left_out: Vec::new(),
        };
        assert!(choice(6, 2).too_indecisive());
        assert!(!choice(6, 3).too_indecisive());
        assert!(!choice(2, 1).too_indecisive());
        assert!(choice(2, 0).too_indecisive());
    }

    #[test]
    fn the_header_line_names_the_policy_kept_and_the_others_points() {
        let standing = |policy: &str, points: f64| Standing {
            policy: policy.to_owned(),
            points,
            games: 2,
        };
        // Each won with White: a tie, which the child's own policy wins.
        let tie = PolicyChoice {
            chosen: DEFAULT_POLICY.to_owned(),
            standings: vec![standing(DEFAULT_POLICY, 1.0), standing("from Misere", 1.0)],
            games: 2,
            decided: 2,
            left_out: Vec::new(),
        };
        assert_eq!(
            tie.describe(),
            "policy kept: default (1 point in 2 games; from Misere 1); 2 of 2 round-robin games had a winner"
        );
        // One win and one game without a winner.
        let won = PolicyChoice {
            chosen: "from Misere".to_owned(),
            standings: vec![standing(DEFAULT_POLICY, 0.5), standing("from Misere", 1.5)],
            decided: 1,
            ..tie
        };
        assert_eq!(
            won.describe(),
            "policy kept: from Misere (1.5 points in 2 games; default 0.5); 1 of 2 round-robin games had a winner"
        );
    }

    #[test]
    fn the_winner_is_the_one_role_above_the_others() {
        assert_eq!(sole_winner(&[100, 0]), Some(0));
        assert_eq!(sole_winner(&[0, 100]), Some(1));
        assert_eq!(sole_winner(&[50, 50]), None);
        assert_eq!(sole_winner(&[]), None);
    }
}

//! Random playouts 64 at a time: each proposition is a word whose bit `l` is its value in the
//! playout of lane `l` ("bit slicing", as logic simulators evaluate many test vectors at once).
//!
//! The [`Evaluator`](super::evaluator::Evaluator) updates one playout's circuit incrementally,
//! in proportion to what changes; here every proposition a ply needs is recomputed from its
//! rules, but one AND per literal serves 64 playouts. On small and mid-sized circuits that is
//! cheaper per playout than the incremental evaluator's bookkeeping (connect four: 318 props,
//! 466 rules), and it needs no counts, dirty bits or move sets.
//!
//! Each lane plays its own playout: its moves are drawn uniformly among its own legal moves
//! from the one random generator, and when its playout ends (a terminal state, the ply limit,
//! a role without legal moves) the lane starts the next one from the start state, so that no
//! lane idles while others play long games. Every playout begun is played to its end, so the
//! playouts counted are exactly those begun: none is left out for being long when the measure
//! stops (which would bias the figures toward short games).
//!
//! Where a ply's circuit is large and changes little, the incremental evaluator is cheaper:
//! the grounded game measures both engines' work per ply once and keeps lanes only where they
//! win (`LANES_AT_MOST` in `game.rs`).

use rand::{Rng, RngExt};
use rustc_hash::{FxHashMap, FxHashSet};

use super::circuit::{Circuit, InputClass, NO_GROUP, Prop};
use crate::playout::{Playout, PlayoutEnd, PlayoutStats};
use crate::{Reward, RoleIndex};

/// Lanes in a word.
pub(super) const LANES: usize = 64;

/// One step of an evaluation: a proposition from its rules, or a recursive group to its least
/// fixpoint.
#[derive(Clone, Copy, Debug)]
enum Step {
    Prop(Prop),
    Group(Prop, Prop),
    /// A prop of an input class (see [`InputClass`]): "one of these moves is played", read as
    /// "some role played a move of the class and not one the prop leaves out", so that a frame
    /// axiom does not read every move of the game. `left_out` indexes
    /// [`LanePlan::left_out`].
    Played {
        prop: Prop,
        class: u32,
        left_out: u32,
    },
}

/// An input class as lanes read it: per role of the class, its moves.
#[derive(Debug)]
struct LaneClass {
    role_moves: Vec<Vec<Prop>>,
    /// Where the class's words start in the per-ply scratch: one per role, the lanes in which
    /// the role played a move of the class.
    words_at: usize,
}

/// What a ply evaluates, in dependency order, worked out once per circuit: only the cones of
/// the propositions a playout reads.
#[derive(Debug)]
pub(super) struct LanePlan {
    /// The state layer's props below `terminal` and the `legal` props.
    every_state: Vec<Step>,
    /// The state layer's props only the goals read: evaluated in the plies where some lane
    /// reaches a terminal state.
    goals_only: Vec<Step>,
    /// The move layer's props below the `next` props.
    every_move: Vec<Step>,
    /// Per role: (goal prop, its value, or `None` for a value that is not a number 0-100).
    goals: Vec<Vec<(Prop, Option<Reward>)>>,
    classes: Vec<LaneClass>,
    /// Per [`Step::Played`]: per role of its class, the moves it leaves out.
    left_out: Vec<Vec<Vec<Prop>>>,
    /// How many lanes wait in a terminal state before the goals' cone is evaluated for them
    /// all at once (see [`goal_batch`]).
    goal_batch: u32,
    /// What the steps of a ply and the goals' cone cost, in words read (see [`LanePlan::cost`]).
    every_ply_cost: u64,
    goals_cost: u64,
}

impl LanePlan {
    /// The plan for `circuit`, whose playouts read `terminal`, each role's `legal` props of
    /// `moves` and the goal props of `goals`.
    pub(super) fn new(
        circuit: &Circuit,
        moves: &[Vec<(Prop, Prop)>],
        goals: Vec<Vec<(Prop, Option<Reward>)>>,
    ) -> LanePlan {
        let every_ply_roots = std::iter::once(circuit.terminal)
            .chain(moves.iter().flatten().map(|&(_, legal)| legal))
            .chain(circuit.next_of_base.iter().copied());
        let every_ply = cone(circuit, every_ply_roots);
        let with_goals = cone(
            circuit,
            (0..circuit.props as Prop)
                .filter(|&p| every_ply[p as usize])
                .chain(goals.iter().flatten().map(|&(prop, _)| prop)),
        );
        let layer_end = circuit.state_layer_end;
        let mut reads = ClassReads::new(circuit);
        let mut steps = |keep: &dyn Fn(Prop) -> bool, range: std::ops::Range<Prop>| {
            let mut steps = Vec::new();
            let mut prop = range.start;
            while prop < range.end {
                let group = circuit.wiring[prop as usize].group;
                if group != NO_GROUP {
                    let (first, end) = circuit.groups[group as usize];
                    if (first..end).any(keep) {
                        steps.push(Step::Group(first, end));
                    }
                    prop = end;
                    continue;
                }
                if keep(prop) {
                    steps.push(reads.step(prop));
                }
                prop += 1;
            }
            steps
        };
        let every_state = steps(&|p| every_ply[p as usize], circuit.derived_start..layer_end);
        let goals_only = steps(
            &|p| with_goals[p as usize] && !every_ply[p as usize],
            circuit.derived_start..layer_end,
        );
        let every_move = steps(&|p| every_ply[p as usize], layer_end..circuit.props as Prop);
        let mut plan = LanePlan {
            every_state,
            goals_only,
            every_move,
            goals,
            classes: reads.classes,
            left_out: reads.left_out,
            goal_batch: 1,
            every_ply_cost: 0,
            goals_cost: 0,
        };
        plan.every_ply_cost = plan.cost(circuit, &plan.every_state)
            + plan.cost(circuit, &plan.every_move)
            + plan.classes_cost();
        plan.goals_cost = plan.cost(circuit, &plan.goals_only);
        plan.goal_batch = goal_batch(plan.every_ply_cost, plan.goals_cost);
        plan
    }
}

/// The input classes as lanes read them, gathered while the steps are laid out: a class's
/// moves by role once its first member is met, and each member's left-out moves.
struct ClassReads<'c> {
    circuit: &'c Circuit,
    /// Per member prop of an input class, the class's index in the circuit.
    class_of: FxHashMap<Prop, usize>,
    /// Per input class of the circuit, its index in `classes` once met.
    index: Vec<Option<u32>>,
    classes: Vec<LaneClass>,
    left_out: Vec<Vec<Vec<Prop>>>,
}

impl<'c> ClassReads<'c> {
    fn new(circuit: &'c Circuit) -> ClassReads<'c> {
        let class_of = circuit
            .input_classes
            .iter()
            .enumerate()
            .flat_map(|(index, class)| class.members.iter().map(move |&member| (member, index)))
            .collect();
        ClassReads {
            circuit,
            class_of,
            index: vec![None; circuit.input_classes.len()],
            classes: Vec::new(),
            left_out: Vec::new(),
        }
    }

    /// The step evaluating `prop`: [`Step::Played`] for a member of an input class.
    fn step(&mut self, prop: Prop) -> Step {
        let Some(&found) = self.class_of.get(&prop) else {
            return Step::Prop(prop);
        };
        let circuit = self.circuit;
        let classes = &mut self.classes;
        let index = *self.index[found].get_or_insert_with(|| {
            let words_at = classes.iter().map(|c| c.role_moves.len()).sum();
            let role_moves = class_moves(circuit, &circuit.input_classes[found]);
            classes.push(LaneClass {
                role_moves,
                words_at,
            });
            classes.len() as u32 - 1
        });
        // Each rule of a member is one move (see `InputClass`).
        let read: FxHashSet<Prop> = rules(circuit, prop).map(|rule| rule[0] >> 1).collect();
        let not_read = |moves: &Vec<Prop>| {
            moves
                .iter()
                .copied()
                .filter(|m| !read.contains(m))
                .collect()
        };
        let role_moves = &self.classes[index as usize].role_moves;
        self.left_out
            .push(role_moves.iter().map(not_read).collect());
        Step::Played {
            prop,
            class: index,
            left_out: self.left_out.len() as u32 - 1,
        }
    }
}

/// An input class's moves by role, in the order of the roles.
fn class_moves(circuit: &Circuit, class: &InputClass) -> Vec<Vec<Prop>> {
    let mut by_role: Vec<(usize, Vec<Prop>)> = Vec::new();
    for (input, _) in class
        .inputs
        .iter()
        .enumerate()
        .filter(|&(_, &member)| member)
    {
        let Some(role) = circuit.input_roles[input] else {
            continue;
        };
        let prop = circuit.input_start + input as Prop;
        match by_role.iter_mut().find(|(r, _)| *r == role) {
            Some((_, moves)) => moves.push(prop),
            None => by_role.push((role, vec![prop])),
        }
    }
    by_role.sort_by_key(|&(role, _)| role);
    by_role.into_iter().map(|(_, moves)| moves).collect()
}

impl LanePlan {
    /// What evaluating `steps` costs, in words read: one per literal and one per rule; a
    /// prop of an input class reads the moves it leaves out.
    fn cost(&self, circuit: &Circuit, steps: &[Step]) -> u64 {
        let rules_cost =
            |prop: Prop| -> u64 { rules(circuit, prop).map(|rule| rule.len() as u64 + 1).sum() };
        steps
            .iter()
            .map(|step| match *step {
                Step::Prop(prop) => rules_cost(prop),
                Step::Group(first, end) => (first..end).map(rules_cost).sum(),
                Step::Played { left_out, .. } => self.left_out[left_out as usize]
                    .iter()
                    .map(|moves| moves.len() as u64 + 1)
                    .sum(),
            })
            .sum()
    }

    /// What a ply's words of the input classes cost: one per move of each class.
    fn classes_cost(&self) -> u64 {
        self.classes
            .iter()
            .flat_map(|class| &class.role_moves)
            .map(|moves| moves.len() as u64)
            .sum()
    }
}

/// How many lanes should wait in a terminal state before the goals' cone is evaluated for
/// them together, when a ply costs `ply` and the goals' cone `goals` (in words read).
///
/// Evaluating the cone costs `goals` whether one lane or many need it; a waiting lane plays
/// nothing. With `b` lanes to a batch, each playout pays `goals / b` for its goals and, while
/// it waits for the batch to fill (half of `b` endings on average, with one ending every
/// `plies / 64` plies of the 64 lanes), about `b · plies · ply / 8192` for idling. The sum is
/// least at `b = √(8192 · goals / (plies · ply))`; with games of about 64 plies that is
/// `√(128 · goals / ply)`. Reversi's piece count (33,000 words against 11,000 for a ply)
/// gets batches of 20; where the goals are a few props, lanes do not wait.
fn goal_batch(ply: u64, goals: u64) -> u32 {
    let batch = (128.0 * goals as f64 / ply.max(1) as f64).sqrt().round();
    batch.clamp(1.0, 32.0) as u32
}

impl LanePlan {
    /// What a ply costs each lane, in words read: the steps of a ply shared by 64 lanes.
    pub(super) fn work_per_lane_ply(&self) -> f64 {
        let words = self.every_ply_cost + self.goals_cost / u64::from(self.goal_batch);
        words as f64 / LANES as f64
    }
}

#[cfg(test)]
impl LanePlan {
    pub(super) fn set_goal_batch(&mut self, goal_batch: u32) {
        self.goal_batch = goal_batch;
    }

    /// How many of its steps are recursive groups and props of input classes.
    pub(super) fn groups_and_played(&self) -> (usize, usize) {
        let steps = || {
            [&self.every_state, &self.goals_only, &self.every_move]
                .into_iter()
                .flatten()
        };
        (
            steps().filter(|s| matches!(s, Step::Group(..))).count(),
            steps().filter(|s| matches!(s, Step::Played { .. })).count(),
        )
    }
}

/// The derived props `roots` read, themselves included, through the rules; a recursive group
/// whole when any member is read.
fn cone(circuit: &Circuit, roots: impl Iterator<Item = Prop>) -> Vec<bool> {
    let mut read = vec![false; circuit.props];
    for root in roots {
        read[root as usize] = true;
    }
    let mark_read_by = |read: &mut Vec<bool>, prop: Prop| {
        for rule in rules(circuit, prop) {
            for &literal in rule {
                read[(literal >> 1) as usize] = true;
            }
        }
    };
    // Rules read earlier props only, besides a group's own members, and a group's members are
    // numbered together: descending once reaches everything, a group entered at its last
    // member and taken whole.
    let mut prop = circuit.props as Prop;
    while prop > circuit.derived_start {
        prop -= 1;
        let group = circuit.wiring[prop as usize].group;
        if group == NO_GROUP {
            if read[prop as usize] {
                mark_read_by(&mut read, prop);
            }
        } else {
            let (first, end) = circuit.groups[group as usize];
            if (first..end).any(|member| read[member as usize]) {
                for member in first..end {
                    read[member as usize] = true;
                    mark_read_by(&mut read, member);
                }
            }
            prop = first;
        }
    }
    read
}

/// The rules of a derived prop, each its literals (a prop shifted left once, low bit set when
/// negated).
fn rules(circuit: &Circuit, prop: Prop) -> impl Iterator<Item = &[u32]> {
    let index = (prop - circuit.derived_start) as usize;
    let code =
        &circuit.code[circuit.code_start[index] as usize..circuit.code_start[index + 1] as usize];
    let mut at = 0;
    std::iter::from_fn(move || {
        (at < code.len()).then(|| {
            let length = code[at] as usize;
            let literals = &code[at + 1..at + 1 + length];
            at += 1 + length;
            literals
        })
    })
}

/// The lanes in which a derived prop holds: the OR of its rules, each the AND of its literals.
#[inline]
fn evaluate(circuit: &Circuit, values: &[u64], prop: Prop) -> u64 {
    let index = (prop - circuit.derived_start) as usize;
    let code =
        &circuit.code[circuit.code_start[index] as usize..circuit.code_start[index + 1] as usize];
    let mut holds = 0u64;
    let mut at = 0;
    while at < code.len() {
        let length = code[at] as usize;
        let mut all = !0u64;
        for &literal in &code[at + 1..at + 1 + length] {
            // A negated literal flips every lane: XOR with all ones.
            all &= values[(literal >> 1) as usize] ^ 0u64.wrapping_sub(u64::from(literal & 1));
        }
        holds |= all;
        at += 1 + length;
    }
    holds
}

impl LanePlan {
    /// Evaluates `steps` in every lane. `played` holds the words of the input classes (see
    /// [`LanePlan::classes_played`]) when the steps read moves.
    fn run(&self, circuit: &Circuit, values: &mut [u64], steps: &[Step], played: &[u64]) {
        for &step in steps {
            match step {
                Step::Prop(prop) => values[prop as usize] = evaluate(circuit, values, prop),
                Step::Group(first, end) => {
                    // From false to the least fixpoint in every lane at once: the group reads
                    // itself only positively, so each pass only adds.
                    values[first as usize..end as usize].fill(0);
                    loop {
                        let mut changed = false;
                        for prop in first..end {
                            let now = evaluate(circuit, values, prop);
                            changed |= now != values[prop as usize];
                            values[prop as usize] = now;
                        }
                        if !changed {
                            break;
                        }
                    }
                }
                Step::Played {
                    prop,
                    class,
                    left_out,
                } => {
                    // Each role plays one move: it played one of the prop's moves when it
                    // played one of the class's and none of those left out.
                    let words_at = self.classes[class as usize].words_at;
                    let mut holds = 0;
                    for (slot, left_out) in self.left_out[left_out as usize].iter().enumerate() {
                        let left_out_played = left_out
                            .iter()
                            .fold(0, |lanes, &input| lanes | values[input as usize]);
                        holds |= played[words_at + slot] & !left_out_played;
                    }
                    values[prop as usize] = holds;
                }
            }
        }
    }

    /// Per input class and role of it, the lanes in which the role played a move of the class
    /// (the inputs set).
    fn classes_played(&self, values: &[u64], played: &mut [u64]) {
        for class in &self.classes {
            for (slot, moves) in class.role_moves.iter().enumerate() {
                played[class.words_at + slot] = moves
                    .iter()
                    .fold(0, |lanes, &input| lanes | values[input as usize]);
            }
        }
    }
}

/// What a test watches of lane playouts; [`Unwatched`] in play, where it compiles to nothing.
pub(super) trait LaneWatch {
    /// Lane `lane` begins a playout.
    fn began(&mut self, _lane: usize) {}
    /// In lane `lane`, `role` plays `input`, drawn from `legal` legal moves.
    fn moved(&mut self, _lane: usize, _role: RoleIndex, _input: Prop, _legal: u32) {}
    /// Lane `lane`'s playout ended so (built only when watched).
    fn ended(&mut self, _lane: usize, _playout: &dyn Fn() -> Playout) {}
}

/// Watches nothing.
pub(super) struct Unwatched;

impl LaneWatch for Unwatched {}

/// The game a lane playout plays: the circuit, each role's (input prop, legal prop) and the
/// start state (base prop bits).
pub(super) struct LaneGame<'g> {
    pub circuit: &'g Circuit,
    pub moves: &'g [Vec<(Prop, Prop)>],
    pub start: &'g [u64],
}

/// Each lane's legal moves of a role, found in one of two ways (the same moves in the same
/// order either way, so the same draw picks the same move):
/// - listed: the set bits of each legal prop's word, lane by lane, into the lane's row of
///   `listed`, at a cost per legal move of each lane;
/// - transposed: the legal props' words, 64 at a time, turned into one word per lane (a 64 × 64
///   bit transpose), at a cost per 64 moves of the role, whatever the lanes' legal moves:
///   cheaper where lanes have many (a simultaneous game of 256 moves a ply).
struct Draw {
    /// Per lane, how many legal moves it has.
    counts: [u32; LANES],
    /// Listed: per lane, a row of `stride` inputs.
    listed: Vec<Prop>,
    stride: usize,
    /// Transposed: per lane, `blocks` words, bit `j` of word `b` for move `64 b + j`.
    transposed: Vec<u64>,
    blocks: usize,
    /// Whether the current role's moves were transposed.
    is_transposed: bool,
}

/// Legal moves (counted over all lanes) from which transposing a block of 64 of the role's
/// moves costs less than listing them: about ten a lane. Measured: connect four's mover, with
/// about 7 of 8 moves legal in each lane (450 a block), lost a tenth of its playouts
/// transposed; a simultaneous game with all 64 moves of each role legal (4,096 a block)
/// played four times as many.
const TRANSPOSE_FROM_LEGAL_PER_BLOCK: u32 = 640;

impl Draw {
    fn new(moves: &[Vec<(Prop, Prop)>]) -> Draw {
        let stride = moves.iter().map(Vec::len).max().unwrap_or(0);
        let blocks = stride.div_ceil(LANES);
        Draw {
            counts: [0; LANES],
            listed: vec![0; LANES * stride],
            stride,
            transposed: vec![0; LANES * blocks],
            blocks,
            is_transposed: false,
        }
    }

    /// Finds the legal moves of `role_moves` (input prop, legal prop) in the `moving` lanes.
    #[inline]
    fn find_legal(&mut self, role_moves: &[(Prop, Prop)], values: &[u64], moving: u64) {
        self.counts = [0; LANES];
        let legal_lanes = |&(_, legal): &(Prop, Prop)| values[legal as usize] & moving;
        let blocks = role_moves.len().div_ceil(LANES) as u32;
        // A role with few moves is listed without counting them first.
        let could_transpose =
            role_moves.len() * LANES > (TRANSPOSE_FROM_LEGAL_PER_BLOCK * blocks) as usize;
        self.is_transposed = could_transpose && {
            let total: u32 = role_moves.iter().map(|m| legal_lanes(m).count_ones()).sum();
            total > TRANSPOSE_FROM_LEGAL_PER_BLOCK * blocks
        };
        if !self.is_transposed {
            for role_move in role_moves {
                let mut lanes = legal_lanes(role_move);
                let input = role_move.0;
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    self.listed[lane * self.stride + self.counts[lane] as usize] = input;
                    self.counts[lane] += 1;
                }
            }
            return;
        }
        let mut block = [0u64; LANES];
        for (b, chunk) in role_moves.chunks(LANES).enumerate() {
            for (word, role_move) in block.iter_mut().zip(chunk) {
                *word = legal_lanes(role_move);
            }
            block[chunk.len()..].fill(0);
            transpose(&mut block);
            for (lane, &word) in block.iter().enumerate() {
                self.transposed[lane * self.blocks + b] = word;
                self.counts[lane] += word.count_ones();
            }
        }
    }

    /// The input of lane `lane`'s legal move number `n` (counted in the order of the role's
    /// moves), as [`Draw::find_legal`] last found them.
    #[inline]
    fn nth_legal(&self, role_moves: &[(Prop, Prop)], lane: usize, mut n: u32) -> Prop {
        if !self.is_transposed {
            return self.listed[lane * self.stride + n as usize];
        }
        for (b, &word) in self.transposed[lane * self.blocks..][..self.blocks]
            .iter()
            .enumerate()
        {
            let count = word.count_ones();
            if n < count {
                let mut word = word;
                for _ in 0..n {
                    word &= word - 1;
                }
                return role_moves[b * LANES + word.trailing_zeros() as usize].0;
            }
            n -= count;
        }
        unreachable!("a legal move number below the lane's count")
    }
}

/// Transposes a 64 × 64 bit matrix in place: bit `j` of word `i` becomes bit `i` of word `j`
/// (swapping ever smaller blocks across the diagonal, as in Hacker's Delight, section 7-3).
fn transpose(m: &mut [u64; LANES]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_ffff_ffff;
    while width != 0 {
        let mut k = 0;
        while k < LANES {
            let swapped = ((m[k] >> width) ^ m[k + width]) & mask;
            m[k] ^= swapped << width;
            m[k + width] ^= swapped;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

/// Ends lane `lane`'s playout short of a terminal state, after `plies`.
fn end_short(
    lane: usize,
    plies: usize,
    end: PlayoutEnd,
    stats: &mut PlayoutStats,
    watch: &mut impl LaneWatch,
) {
    let playout = Playout {
        plies,
        end,
        goals: None,
        ambiguous_goals: false,
    };
    watch.ended(lane, &|| playout.clone());
    stats.add(&playout);
}

/// A goal prop that held with a value that is not a number: the role and the prop's index
/// among the role's goals.
pub(super) struct BadGoal {
    pub role: RoleIndex,
    pub goal: usize,
}

impl LanePlan {
    /// Plays random playouts of `game` into `stats` while `another` says to begin one more
    /// (see [`Game::random_playouts_while`](crate::Game::random_playouts_while)). Stops at a
    /// goal value that is not a number.
    pub(super) fn playouts<R: Rng + ?Sized>(
        &self,
        game: &LaneGame<'_>,
        rng: &mut R,
        max_plies: usize,
        stats: &mut PlayoutStats,
        another: &mut dyn FnMut(u64) -> bool,
        watch: &mut impl LaneWatch,
    ) -> Result<(), BadGoal> {
        let LaneGame {
            circuit,
            moves,
            start,
        } = *game;
        let base_count = circuit.base_count;
        let roles = moves.len();
        let mut values = vec![0u64; circuit.props];
        values[circuit.true_prop as usize] = !0;
        let start_bit = |base: usize| start[base >> 6] >> (base & 63) & 1 == 1;
        let mut started = 0u64;
        // Lanes playing; each lane's plies.
        let mut active = 0u64;
        let mut plies = [0usize; LANES];
        // Per role, each lane's move chosen.
        let mut draw = Draw::new(moves);
        let mut chosen = vec![[0 as Prop; LANES]; roles];
        let mut goals = vec![0 as Reward; roles];
        let mut begin = |lanes: u64,
                         values: &mut [u64],
                         plies: &mut [usize; LANES],
                         watch: &mut dyn LaneWatch|
         -> u64 {
            // Which of `lanes` begin a new playout: the first ones while `another` agrees.
            let mut begun = 0u64;
            let mut rest = lanes;
            while rest != 0 {
                let lane = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if !another(started) {
                    break;
                }
                started += 1;
                begun |= 1 << lane;
                plies[lane] = 0;
                watch.began(lane);
            }
            for (base, word) in values[..base_count].iter_mut().enumerate() {
                let bit = if start_bit(base) { begun } else { 0 };
                *word = (*word & !begun) | bit;
            }
            begun
        };
        let mut played = vec![0u64; self.classes.iter().map(|c| c.role_moves.len()).sum()];
        // Lanes in a terminal state waiting for their goals (see `goal_batch`).
        let mut waiting = 0u64;
        active |= begin(!0, &mut values, &mut plies, watch);
        while active != 0 {
            self.run(circuit, &mut values, &self.every_state, &played);
            waiting |= values[circuit.terminal as usize] & active;
            let mut ended = 0;
            if waiting != 0 && (waiting.count_ones() >= self.goal_batch || waiting == active) {
                self.run(circuit, &mut values, &self.goals_only, &played);
                self.record_terminals(&values, waiting, &plies, &mut goals, stats, watch)?;
                ended = waiting;
                waiting = 0;
            }
            let mut moving = active & !waiting & !ended;
            let mut lanes = moving;
            while lanes != 0 {
                let lane = lanes.trailing_zeros() as usize;
                lanes &= lanes - 1;
                if plies[lane] >= max_plies {
                    end_short(lane, plies[lane], PlayoutEnd::PlyLimit, stats, watch);
                    moving &= !(1 << lane);
                    ended |= 1 << lane;
                }
            }
            values[circuit.input_start as usize..circuit.derived_start as usize].fill(0);
            for (role, role_moves) in moves.iter().enumerate() {
                draw.find_legal(role_moves, &values, moving);
                let mut lanes = moving;
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    let count = draw.counts[lane];
                    if count == 0 {
                        let end = PlayoutEnd::NoLegalMove(role);
                        end_short(lane, plies[lane], end, stats, watch);
                        moving &= !(1 << lane);
                        ended |= 1 << lane;
                        continue;
                    }
                    // A role with one move (a turn-taking game's waiting role) needs no draw.
                    let pick = if count > 1 {
                        rng.random_range(0..count)
                    } else {
                        0
                    };
                    let input = draw.nth_legal(role_moves, lane, pick);
                    chosen[role][lane] = input;
                    watch.moved(lane, role, input, count);
                }
            }
            // Lanes that ended for want of a move of a later role drop the moves of the
            // earlier ones: only lanes still moving set inputs.
            for role_chosen in &chosen {
                let mut lanes = moving;
                while lanes != 0 {
                    let lane = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    values[role_chosen[lane] as usize] |= 1 << lane;
                }
            }
            self.classes_played(&values, &mut played);
            self.run(circuit, &mut values, &self.every_move, &played);
            for base in 0..base_count {
                let next = values[circuit.next_of_base[base] as usize];
                values[base] = (next & moving) | (values[base] & !moving);
            }
            let mut lanes = moving;
            while lanes != 0 {
                plies[lanes.trailing_zeros() as usize] += 1;
                lanes &= lanes - 1;
            }
            if ended != 0 {
                active &= !ended;
                active |= begin(ended, &mut values, &mut plies, watch);
            }
        }
        Ok(())
    }

    /// Adds the playouts of the `terminal` lanes to `stats`: each role's goal value (the
    /// highest of several, 0 for none, as [`Game::goals`](crate::Game::goals)).
    fn record_terminals(
        &self,
        values: &[u64],
        terminal: u64,
        plies: &[usize; LANES],
        goals: &mut [Reward],
        stats: &mut PlayoutStats,
        watch: &mut impl LaneWatch,
    ) -> Result<(), BadGoal> {
        let mut lanes = terminal;
        while lanes != 0 {
            let lane = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let mut ambiguous = false;
            for (role, role_goals) in self.goals.iter().enumerate() {
                let mut best: Option<Reward> = None;
                for (goal, &(prop, value)) in role_goals.iter().enumerate() {
                    if values[prop as usize] >> lane & 1 == 1 {
                        let value = value.ok_or(BadGoal { role, goal })?;
                        ambiguous |= best.is_some_and(|best| best != value);
                        best = best.max(Some(value));
                    }
                }
                goals[role] = best.unwrap_or(0);
            }
            stats.add_terminal(plies[lane], goals, ambiguous);
            watch.ended(lane, &|| Playout {
                plies: plies[lane],
                end: PlayoutEnd::Terminal,
                goals: Some(goals.to_vec()),
                ambiguous_goals: ambiguous,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::{LANES, transpose};

    #[test]
    fn a_transposed_matrix_has_each_bit_across_the_diagonal() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut matrix = [0u64; LANES];
        for word in &mut matrix {
            *word = rng.random();
        }
        let original = matrix;
        transpose(&mut matrix);
        for (i, word) in original.iter().enumerate() {
            for (j, transposed) in matrix.iter().enumerate() {
                assert_eq!(transposed >> i & 1, word >> j & 1, "bit {j} of word {i}");
            }
        }
    }
}

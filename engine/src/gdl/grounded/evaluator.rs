//! Evaluating the circuit: one bit per proposition, updated incrementally.
//!
//! The evaluator keeps the values of every proposition for its current base props (the state)
//! and inputs (the joint move), and for every rule the number of its literals that fail, and
//! for every prop the number of its rules that hold. When a prop changes, the counts of the
//! rules that read it are updated at once; a head whose count of holding rules crosses zero is
//! marked dirty. [`Evaluator::propagate`] settles dirty props in numbering order (dependency
//! order), so that each prop is decided once its inputs are final. Consecutive states of a game
//! differ in a few fluents, so a step costs in proportion to what changes, not to the size of
//! the circuit. Recursive groups are recomputed as a whole, from false to their least fixpoint,
//! by reading their rules. Dirty bits have a summary level (one bit per word) so that finding
//! the next dirty prop skips clean stretches. Nothing here allocates after construction.
//!
//! The counts are updated without branches: whether a count goes up or down and whether a rule
//! or a head crosses are data no branch predictor can learn, and mispredictions cost more than
//! the arithmetic. For the same reason the next state and the playable moves are bit vectors
//! that a flipping prop flips by index (spare bits for the props that feed neither).

use std::hint::select_unpredictable;

use super::circuit::{Circuit, GROUPED, LEFT_OUT, NO_GROUP, NO_SET, Occurrence, Prop, Wiring};

#[derive(Clone, Debug)]
pub(super) struct Evaluator {
    values: Vec<u64>,
    dirty: Vec<u64>,
    summary: Vec<u64>,
    /// The inputs currently set, one per role at most.
    inputs: Vec<Prop>,
    /// Scratch for recursive groups: the values before re-evaluation.
    previous: Vec<bool>,
    /// Per counted rule (see `Circuit::counters`: rules of recursive groups, of lazy props and
    /// of props of input classes are not counted): how many of its literals fail; the rule
    /// holds at 0. Failing rather than holding literals, so that whether a rule crosses needs
    /// no rule length. One byte each, so that the counts of big circuits stay in the cache:
    /// counted rules have at most [`MAX_COUNTED_LENGTH`](super::circuit::MAX_COUNTED_LENGTH)
    /// literals (the circuit checks).
    failing: Vec<u8>,
    /// Per prop (by its number, so that no offset is subtracted in the counting loop): how
    /// many of its rules hold; base props and inputs keep 0.
    holding: Vec<u32>,
    /// The base props of the next state: bit `i` is the value of base prop `i`'s `next` prop,
    /// kept up to date as `next` props change, so that stepping needs no scan of the state.
    next: Vec<u64>,
    /// The moves whose watched prop holds, by set (see `MoveSets` of the circuit).
    moves: Moves,
    /// Per input class of the circuit: the number of inputs of its roles set, as last added to
    /// its members' counts.
    class_totals: Vec<u32>,
    /// Props of input classes whose count changed while loading inputs, to be marked if
    /// their value changes once every input is loaded (room for all: no allocation).
    touched: Vec<Prop>,
    /// Per prop (by its number, like `holding`): whether it is in `touched`.
    is_touched: Vec<bool>,
    /// Per prop (by its number): for a lazy prop pulled since the values last changed,
    /// `epoch << 1 | value`, an entry of another epoch being unknown; for every other prop
    /// [`NOT_LAZY`], so that reading a literal while pulling takes one lookup.
    pulled: Vec<u32>,
    /// The current epoch of `pulled`, advanced whenever a value may change (below
    /// [`EPOCH_LIMIT`], so that no entry of a lazy prop equals [`NOT_LAZY`]).
    epoch: u32,
    /// The props being pulled, innermost last (room for every lazy prop: no allocation).
    pull_stack: Vec<PullFrame>,
}

/// The entry of `Evaluator::pulled` for a prop that is not lazy: its value is its bit.
const NOT_LAZY: u32 = u32::MAX;

/// Epochs stay below this: `epoch << 1 | 1` then stays below [`NOT_LAZY`].
const EPOCH_LIMIT: u32 = 1 << 30;

/// A lazy prop being pulled: the rule being read (the position of its length in the code)
/// and the literal of it to read next.
#[derive(Clone, Copy, Debug)]
struct PullFrame {
    prop: Prop,
    rule_at: u32,
    literal: u32,
}

/// The playable moves: one bit per input of each set (see `MoveSets` of the circuit), and
/// per set the number of its bits set (one spare set at the end, as the spare word).
#[derive(Clone, Debug)]
pub(super) struct Moves {
    bits: Vec<u64>,
    len: Vec<u32>,
}

impl Moves {
    /// Empty sets.
    fn new(circuit: &Circuit) -> Moves {
        let sets = &circuit.move_sets;
        Moves {
            bits: vec![0; sets.set_words[sets.set_count] as usize + 1],
            len: vec![0; sets.set_count + 1],
        }
    }

    fn copy_from(&mut self, source: &Moves) {
        self.bits.copy_from_slice(&source.bits);
        self.len.copy_from_slice(&source.len);
    }

    /// Flips an input's bit; `now` is whether it is now in its set.
    #[inline]
    fn flip(&mut self, bit: u32, set: u32, now: bool) {
        self.bits[(bit >> 6) as usize] ^= 1 << (bit & 63);
        let len = &mut self.len[set as usize];
        *len = len.wrapping_add((u32::from(now) << 1).wrapping_sub(1));
    }

    /// How many inputs of a set are playable (their watched props hold).
    #[inline]
    pub(super) fn len(&self, set: u32) -> usize {
        self.len[set as usize] as usize
    }

    /// The `n`th playable input (numbered from the first input) of a set, in input order.
    pub(super) fn nth(&self, circuit: &Circuit, set: u32, mut n: usize) -> Option<u32> {
        let sets = &circuit.move_sets;
        for word in sets.words(set) {
            let mut bits = self.bits[word];
            let count = bits.count_ones() as usize;
            if n < count {
                for _ in 0..n {
                    bits &= bits - 1;
                }
                return Some(sets.bit_input[word << 6 | bits.trailing_zeros() as usize]);
            }
            n -= count;
        }
        None
    }

    /// The playable inputs (numbered from the first input) of a set, in input order.
    pub(super) fn members<'a>(
        &'a self,
        circuit: &'a Circuit,
        set: u32,
    ) -> impl Iterator<Item = u32> + 'a {
        let sets = &circuit.move_sets;
        sets.words(set).flat_map(move |word| {
            let mut bits = self.bits[word];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    sets.bit_input[word << 6 | bit]
                })
            })
        })
    }
}

impl Evaluator {
    /// Every prop evaluated for the empty state and no moves.
    pub(super) fn new(circuit: &Circuit) -> Evaluator {
        let words = circuit.props.div_ceil(64);
        let mut evaluator = Evaluator {
            values: vec![0; words],
            dirty: vec![0; words],
            summary: vec![0; words.div_ceil(64)],
            inputs: Vec::new(),
            previous: Vec::new(),
            failing: vec![0; circuit.counters],
            holding: vec![0; circuit.props],
            // One spare word for the props that are no `next` prop (see `Wiring::next_bit`).
            next: vec![0; circuit.base_count.div_ceil(64) + 1],
            moves: Moves::new(circuit),
            // No input is set yet, and the counts below start from no rule holding.
            class_totals: vec![0; circuit.input_classes.len()],
            touched: Vec::with_capacity(
                circuit
                    .input_classes
                    .iter()
                    .map(|class| class.members.len())
                    .sum(),
            ),
            is_touched: vec![false; circuit.props],
            pulled: (0..circuit.props as Prop)
                .map(|prop| {
                    let lazy = prop >= circuit.derived_start
                        && circuit.lazy[(prop - circuit.derived_start) as usize];
                    if lazy { 0 } else { NOT_LAZY }
                })
                .collect(),
            epoch: 1,
            pull_stack: Vec::with_capacity(circuit.lazy.iter().filter(|&&lazy| lazy).count()),
        };
        evaluator.flip(circuit.true_prop);
        // Every prop by reading its rules, in order; then the counts.
        let mut prop = circuit.derived_start;
        while (prop as usize) < circuit.props {
            let group = circuit.wiring[prop as usize].group;
            if group == NO_GROUP {
                if evaluator.rules_hold(circuit, prop) {
                    evaluator.flip(prop);
                }
                prop += 1;
            } else {
                evaluator.settle_group(circuit, group as usize);
                prop = circuit.groups[group as usize].1;
            }
        }
        // The counts: a counted literal that fails adds one to its rule's counter, and a rule
        // with none failing one to its head's count.
        let mut counter_head = vec![0; circuit.counters];
        for (prop, wiring) in circuit.wiring.iter().enumerate() {
            let value = evaluator.get(prop as Prop);
            let counted = wiring.readers_start as usize..wiring.special_start as usize;
            for occurrence in &circuit.occurs[counted] {
                let counter = (occurrence.counter_literal >> 1) as usize;
                counter_head[counter] = occurrence.head;
                if value == (occurrence.counter_literal & 1 == 1) {
                    evaluator.failing[counter] += 1;
                }
            }
        }
        for (counter, &head) in counter_head.iter().enumerate() {
            if evaluator.failing[counter] == 0 {
                evaluator.holding[head as usize] += 1;
            }
        }
        for (i, &prop) in circuit.next_of_base.iter().enumerate() {
            if evaluator.get(prop) {
                evaluator.next[i >> 6] |= 1 << (i & 63);
            }
        }
        let sets = &circuit.move_sets;
        for (input, &set) in sets.input_set.iter().enumerate() {
            if set != NO_SET && evaluator.get(sets.input_watch[input]) {
                evaluator.moves.flip(sets.input_bit[input], set, true);
            }
        }
        evaluator
    }

    /// Becomes a copy of `source` (an evaluator of the same circuit) without allocating:
    /// cheaper than loading a state that differs in many fluents and propagating it.
    pub(super) fn restore_from(&mut self, source: &Evaluator) {
        self.forget_pulled();
        self.values.copy_from_slice(&source.values);
        self.dirty.copy_from_slice(&source.dirty);
        self.summary.copy_from_slice(&source.summary);
        self.inputs.clone_from(&source.inputs);
        self.failing.copy_from_slice(&source.failing);
        self.holding.copy_from_slice(&source.holding);
        self.next.copy_from_slice(&source.next);
        self.moves.copy_from(&source.moves);
        self.class_totals.copy_from_slice(&source.class_totals);
    }

    /// The value of every prop, one bit each (lazy props: as last evaluated eagerly, which
    /// is never).
    pub(super) fn values(&self) -> &[u64] {
        &self.values
    }

    /// The move sets, up to date once the state layer is propagated.
    pub(super) fn moves(&self) -> &Moves {
        &self.moves
    }

    /// The next state as evaluated (valid after propagating the move layer).
    pub(super) fn next_state(&self) -> &[u64] {
        &self.next[..self.next.len() - 1]
    }

    /// Flips a derived prop to `now` after evaluation, keeping the next state and the move sets
    /// in step (without a branch: a prop that is no `next` prop or watched by no move flips
    /// spare bits).
    #[inline]
    fn flip_derived(&mut self, prop: Prop, now: bool, wiring: &Wiring) {
        self.flip(prop);
        let next_bit = wiring.next_bit;
        self.next[(next_bit >> 6) as usize] ^= 1 << (next_bit & 63);
        self.moves.flip(wiring.watch_bit, wiring.watch_set, now);
    }

    /// The value of any prop: lazy props are evaluated from their rules (whose eager literals
    /// are up to date once the layer they belong to is propagated).
    #[inline]
    pub(super) fn query(&mut self, circuit: &Circuit, prop: Prop) -> bool {
        if prop < circuit.derived_start {
            return self.get(prop);
        }
        let index = (prop - circuit.derived_start) as usize;
        if !circuit.lazy[index] {
            self.get(prop)
        } else if circuit.reads_lazy[index] {
            self.pull(circuit, prop)
        } else {
            // `terminal`, `legal`: every literal at hand, nothing worth remembering.
            self.rules_hold(circuit, prop)
        }
    }

    /// Evaluates a lazy prop by reading its rules, first pulling the lazy props they read
    /// that are not known yet: depth first on an explicit stack (chains of lazy props can be
    /// thousands deep), each prop once per epoch, stopping at a rule's first failing literal
    /// and at the first rule that holds. Lazy props do not form cycles (recursive groups are
    /// eager).
    fn pull(&mut self, circuit: &Circuit, root: Prop) -> bool {
        let derived_start = circuit.derived_start;
        let epoch = self.epoch;
        let known = self.pulled[root as usize];
        if known >> 1 == epoch {
            return known & 1 == 1;
        }
        self.pull_stack.clear();
        self.pull_stack.push(PullFrame {
            prop: root,
            rule_at: circuit.code_start[(root - derived_start) as usize],
            literal: 0,
        });
        let mut holds = false;
        'frames: while let Some(&PullFrame {
            prop,
            mut rule_at,
            mut literal,
        }) = self.pull_stack.last()
        {
            let end = circuit.code_start[(prop - derived_start) as usize + 1];
            holds = false;
            while rule_at < end {
                let length = circuit.code[rule_at as usize];
                while literal < length {
                    let code = circuit.code[(rule_at + 1 + literal) as usize];
                    let target = code >> 1;
                    let known = self.pulled[target as usize];
                    let value = if known == NOT_LAZY {
                        self.get(target)
                    } else {
                        if known >> 1 != epoch {
                            // Back to this literal once the target is known.
                            *self.pull_stack.last_mut().expect("the current frame") = PullFrame {
                                prop,
                                rule_at,
                                literal,
                            };
                            self.pull_stack.push(PullFrame {
                                prop: target,
                                rule_at: circuit.code_start[(target - derived_start) as usize],
                                literal: 0,
                            });
                            continue 'frames;
                        }
                        known & 1 == 1
                    };
                    if value == (code & 1 == 1) {
                        break;
                    }
                    literal += 1;
                }
                if literal == length {
                    holds = true;
                    break;
                }
                rule_at += 1 + length;
                literal = 0;
            }
            self.pulled[prop as usize] = epoch << 1 | u32::from(holds);
            self.pull_stack.pop();
        }
        holds
    }

    /// Forgets every pulled value: called before values change.
    #[inline]
    fn forget_pulled(&mut self) {
        self.epoch += 1;
        if self.epoch == EPOCH_LIMIT {
            for known in &mut self.pulled {
                if *known != NOT_LAZY {
                    *known = 0;
                }
            }
            self.epoch = 1;
        }
    }

    #[inline]
    pub(super) fn get(&self, prop: Prop) -> bool {
        self.values[(prop >> 6) as usize] >> (prop & 63) & 1 == 1
    }

    #[inline]
    fn flip(&mut self, prop: Prop) {
        self.values[(prop >> 6) as usize] ^= 1 << (prop & 63);
    }

    #[inline]
    fn mark(&mut self, prop: Prop) {
        mark(&mut self.dirty, &mut self.summary, prop);
    }

    /// After a prop (whose wiring is given) changed to `now`: updates the counts of the rules
    /// reading it, marking the heads whose value may change (and the heads in recursive
    /// groups, which are re-read), except heads below `skip_below` (the prop's own group; 0
    /// for a prop outside groups). The callers know the new value: passing it spares a reload
    /// of the value word.
    #[inline(always)]
    fn mark_readers(&mut self, circuit: &Circuit, now: bool, wiring: &Wiring, skip_below: Prop) {
        // Many props changing each ply (`next` props, watched props) have no reader.
        if wiring.readers_start != wiring.readers_end {
            self.update_readers(circuit, now, wiring, skip_below);
        }
    }

    /// Inlined into its few callers: most props have one or two readers, so the call would
    /// cost as much as the work.
    #[inline(always)]
    fn update_readers(&mut self, circuit: &Circuit, now: bool, wiring: &Wiring, skip_below: Prop) {
        let now_bit = u32::from(now);
        let (counted, special) = circuit.occurs
            [wiring.readers_start as usize..wiring.readers_end as usize]
            .split_at((wiring.special_start - wiring.readers_start) as usize);
        // Counted rules, without a branch: which way a count moves and whether a rule or a
        // head changes depend on the data, and mispredicted branches cost more than this
        // arithmetic. Slices, so that no store is thought to move the vectors' buffers and
        // their addresses stay in registers through the loop.
        let (dirty, summary) = (self.dirty.as_mut_slice(), self.summary.as_mut_slice());
        let (failing, holding) = (self.failing.as_mut_slice(), self.holding.as_mut_slice());
        for occurrence in counted {
            // 1 when the literal now holds, 0 when it stopped holding.
            let holds = now_bit ^ (occurrence.counter_literal & 1);
            // +1 or -1 (wrapping): how a holding count moves; a failing count moves the other way.
            let step = (holds << 1).wrapping_sub(1);
            let counter = (occurrence.counter_literal >> 1) as usize;
            let rule_failing = failing[counter].wrapping_sub(step as u8);
            failing[counter] = rule_failing;
            // The rule went from failing to holding (no literal fails now) or back (one fails,
            // this one).
            let rule_changed = u32::from(rule_failing) == holds ^ 1;
            let head = occurrence.head as usize;
            let heads_count =
                holding[head].wrapping_add(select_unpredictable(rule_changed, step, 0));
            holding[head] = heads_count;
            // The head's count of holding rules went from 0 to 1 or from 1 to 0.
            let crossed = rule_changed & (heads_count == holds);
            mark_if(dirty, summary, occurrence.head, crossed);
        }
        if !special.is_empty() {
            self.update_special_readers(now, special, skip_below);
        }
    }

    /// The readers of a prop that are not counted rules: rules of recursive groups (marked,
    /// from `skip_below` on) and left-out moves of input classes (see `InputClass`). Apart
    /// from [`Self::update_readers`], so that its loop keeps its values in registers.
    #[cold]
    #[inline(never)]
    fn update_special_readers(&mut self, now: bool, special: &[Occurrence], skip_below: Prop) {
        for occurrence in special {
            let head = occurrence.head;
            if occurrence.counter_literal == GROUPED {
                if head >= skip_below {
                    self.mark(head);
                }
            } else {
                debug_assert_eq!(occurrence.counter_literal, LEFT_OUT);
                // A left-out move of a prop of an input class: one move of the class fewer.
                let heads_count = &mut self.holding[head as usize];
                *heads_count = if now {
                    heads_count.wrapping_sub(1)
                } else {
                    heads_count.wrapping_add(1)
                };
                if !self.is_touched[head as usize] {
                    self.is_touched[head as usize] = true;
                    self.touched.push(head);
                }
            }
        }
    }

    /// Sets an input or base prop, marking its readers when it changes (the caller has
    /// forgotten the pulled values).
    #[inline]
    fn set(&mut self, circuit: &Circuit, prop: Prop, value: bool) {
        if self.get(prop) != value {
            self.flip(prop);
            self.mark_readers(circuit, value, &circuit.wiring[prop as usize], 0);
        }
    }

    /// Makes `state` (a bit vector over the base props) the current base.
    pub(super) fn load_state(&mut self, circuit: &Circuit, state: &[u64]) {
        self.forget_pulled();
        for (w, &word) in state.iter().enumerate() {
            let mask = base_mask(circuit.base_count, w);
            let mut changed = (self.values[w] ^ word) & mask;
            while changed != 0 {
                let bit = changed.trailing_zeros();
                changed &= changed - 1;
                let prop = (w as Prop) << 6 | bit;
                self.flip(prop);
                let now = word >> bit & 1 == 1;
                self.mark_readers(circuit, now, &circuit.wiring[prop as usize], 0);
            }
        }
    }

    /// Sets exactly the inputs in `joint` (one per role).
    ///
    /// The new inputs are set before the old ones are cleared: a rule "some move elsewhere"
    /// (frame axioms, factored into one prop per fluent) then goes from one holding rule to two
    /// and back to one, instead of through zero, so its head is not marked for nothing.
    pub(super) fn load_inputs(&mut self, circuit: &Circuit, joint: &[Prop]) {
        self.forget_pulled();
        if self.inputs.as_slice() == joint {
            return;
        }
        for &input in joint {
            self.set(circuit, input, true);
        }
        for i in 0..self.inputs.len() {
            let input = self.inputs[i];
            if !joint.contains(&input) {
                self.set(circuit, input, false);
            }
        }
        self.inputs.clear();
        self.inputs.extend_from_slice(joint);
        self.update_class_totals(circuit);
        // Every count is exact again: mark the props of input classes whose value changes.
        for i in 0..self.touched.len() {
            let prop = self.touched[i];
            self.is_touched[prop as usize] = false;
            if (self.holding[prop as usize] > 0) != self.get(prop) {
                self.mark(prop);
            }
        }
        self.touched.clear();
    }

    /// Adds the change of each input class's total to its members' counts (see
    /// `InputClass`), marking them (they are few and this is rare). A joint move with one input
    /// per role leaves the totals as they are, so this costs nothing while playing.
    fn update_class_totals(&mut self, circuit: &Circuit) {
        for (class, input_class) in circuit.input_classes.iter().enumerate() {
            let mut total = 0u32;
            for (i, &input) in self.inputs.iter().enumerate() {
                if input_class.inputs[(input - circuit.input_start) as usize]
                    && !self.inputs[..i].contains(&input)
                {
                    total += 1;
                }
            }
            let change = total.wrapping_sub(self.class_totals[class]);
            if change == 0 {
                continue;
            }
            self.class_totals[class] = total;
            for &member in &input_class.members {
                let holding = &mut self.holding[member as usize];
                *holding = holding.wrapping_add(change);
                self.mark(member);
            }
        }
    }

    /// Re-evaluates the dirty props below `limit`; those above stay dirty for later.
    pub(super) fn propagate(&mut self, circuit: &Circuit, limit: Prop) {
        self.forget_pulled();
        let limit = limit as usize;
        let mut s = 0;
        while s < self.summary.len() {
            let summary = self.summary[s];
            if summary == 0 {
                s += 1;
                continue;
            }
            let word = s << 6 | summary.trailing_zeros() as usize;
            loop {
                let bits = self.dirty[word];
                if bits == 0 {
                    break;
                }
                let prop = word << 6 | bits.trailing_zeros() as usize;
                if prop >= limit {
                    return;
                }
                self.dirty[word] = bits & (bits - 1);
                self.evaluate(circuit, prop as Prop);
            }
            self.summary[s] &= !(1 << (word & 63));
        }
    }

    fn evaluate(&mut self, circuit: &Circuit, prop: Prop) {
        let wiring = &circuit.wiring[prop as usize];
        if wiring.group != NO_GROUP {
            self.evaluate_group(circuit, wiring.group as usize);
            return;
        }
        let value = self.holding[prop as usize] > 0;
        if value != self.get(prop) {
            self.flip_derived(prop, value, wiring);
            self.mark_readers(circuit, value, wiring, 0);
        }
    }

    /// Whether one of the prop's rules has all its literals true.
    #[inline]
    fn rules_hold(&self, circuit: &Circuit, prop: Prop) -> bool {
        let index = (prop - circuit.derived_start) as usize;
        let code = &circuit.code
            [circuit.code_start[index] as usize..circuit.code_start[index + 1] as usize];
        let mut at = 0;
        while at < code.len() {
            let length = code[at] as usize;
            let literals = &code[at + 1..at + 1 + length];
            if literals
                .iter()
                .all(|&literal| self.get(literal >> 1) != (literal & 1 == 1))
            {
                return true;
            }
            at += 1 + length;
        }
        false
    }

    /// A recursive group from all-false to its least fixpoint (its rules read the group only
    /// positively: the game is stratified), then the readers of what changed.
    fn evaluate_group(&mut self, circuit: &Circuit, group: usize) {
        let (first, end) = circuit.groups[group];
        self.previous.clear();
        for prop in first..end {
            let word = (prop >> 6) as usize;
            self.dirty[word] &= !(1 << (prop & 63));
            self.previous.push(self.get(prop));
        }
        self.settle_group(circuit, group);
        for prop in first..end {
            let value = self.get(prop);
            if value != self.previous[(prop - first) as usize] {
                // Settling flipped it directly; keep the next state in step once.
                self.flip(prop);
                let wiring = &circuit.wiring[prop as usize];
                self.flip_derived(prop, value, wiring);
                self.mark_readers(circuit, value, wiring, end);
            }
        }
    }

    /// The least fixpoint of a group, reading its rules.
    fn settle_group(&mut self, circuit: &Circuit, group: usize) {
        let (first, end) = circuit.groups[group];
        for prop in first..end {
            if self.get(prop) {
                self.flip(prop);
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for prop in first..end {
                if !self.get(prop) && self.rules_hold(circuit, prop) {
                    self.flip(prop);
                    changed = true;
                }
            }
        }
    }
}

/// Marks a prop dirty when `condition` holds, without a branch.
#[inline]
fn mark_if(dirty: &mut [u64], summary: &mut [u64], prop: Prop, condition: bool) {
    let word = (prop >> 6) as usize;
    dirty[word] |= u64::from(condition) << (prop & 63);
    summary[word >> 6] |= u64::from(condition) << (word & 63);
}

/// Marks a prop dirty, with its word in the summary.
#[inline]
fn mark(dirty: &mut [u64], summary: &mut [u64], prop: Prop) {
    let word = (prop >> 6) as usize;
    dirty[word] |= 1 << (prop & 63);
    summary[word >> 6] |= 1 << (word & 63);
}

/// The bits of word `w` that are base props.
#[inline]
fn base_mask(base_count: usize, w: usize) -> u64 {
    let first = w * 64;
    if base_count >= first + 64 {
        u64::MAX
    } else if base_count <= first {
        0
    } else {
        (1u64 << (base_count - first)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::super::{circuit, domain, factor};
    use super::*;
    use crate::gdl::tests::program;

    /// A goal read through a chain of lazy props (pulled), and a state that turns it around.
    const GAME: &str = "
        (role a)
        (init (p 1))
        (<= (next (p 2)) (true (p 1)))
        (<= (legal a go))
        (<= q (true (p 1)))
        (<= r q)
        (<= (goal a 100) r)
        (<= (goal a 0) (not r))
        (<= terminal (true (p 2)))";

    #[test]
    fn pulled_values_are_forgotten_when_the_epochs_start_over() {
        let mut program = program(GAME).expect("builds");
        let rules = factor::factor(&program.rules, &mut program.symbols);
        let no_guards = Default::default();
        let limits = domain::GroundingLimits::default();
        let grounding = domain::ground(&program, &rules, &no_guards, &limits).expect("grounds");
        let circuit = circuit::build(&program, &grounding).expect("a circuit");
        let goal = |value: &str| {
            circuit.goals[0]
                .iter()
                .find(|&&(_, term)| {
                    grounding
                        .terms
                        .to_ground(term)
                        .display(&program.symbols)
                        .to_string()
                        == value
                })
                .expect("the goal")
                .0
        };
        let (won, lost) = (goal("100"), goal("0"));
        let index = |prop: Prop| (prop - circuit.derived_start) as usize;
        assert!(
            circuit.lazy[index(won)] && circuit.reads_lazy[index(won)],
            "pulled"
        );
        // Two fluents, `(p 1)` the one `init` makes true.
        assert_eq!(circuit.base_count, 2);
        let mut evaluator = Evaluator::new(&circuit);
        let first = (0..circuit.base_count)
            .find(|&i| evaluator.query(&circuit, circuit.init_of_base[i]))
            .expect("an initial fluent");
        let state = |fluent: usize| vec![1u64 << fluent];
        evaluator.load_state(&circuit, &state(first));
        evaluator.propagate(&circuit, circuit.state_layer_end);
        assert!(evaluator.query(&circuit, won) && !evaluator.query(&circuit, lost));
        // The next change of values starts the epochs over: what was pulled is forgotten, and
        // the props that are not lazy are still read from their bits.
        evaluator.epoch = EPOCH_LIMIT - 1;
        evaluator.load_state(&circuit, &state(1 - first));
        evaluator.propagate(&circuit, circuit.state_layer_end);
        // Loading started them over, propagating advanced them once.
        assert_eq!(evaluator.epoch, 2);
        assert!(!evaluator.query(&circuit, won) && evaluator.query(&circuit, lost));
        let not_lazy = (0..circuit.props as Prop)
            .filter(|&prop| prop < circuit.derived_start || !circuit.lazy[index(prop)]);
        assert!(
            not_lazy
                .into_iter()
                .all(|prop| evaluator.pulled[prop as usize] == NOT_LAZY)
        );
    }
}

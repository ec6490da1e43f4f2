//! Hash-consed ground terms: every distinct ground term (and ground atom: an atom is a term whose
//! functor is the relation) gets one dense [`TermId`], so that grounding compares, hashes and
//! stores terms as integers.

use rustc_hash::FxHashMap;

use super::super::program::{Ground, Pattern, PatternAtom, Sym};

/// A ground term's number in its [`Terms`] table.
pub(in crate::gdl) type TermId = u32;

/// The table of ground terms. A term is its functor and its arguments' ids; a constant has no
/// arguments (GDL has no zero-argument functions, so `c` and `(c)` need not differ).
#[derive(Debug, Default)]
pub(in crate::gdl) struct Terms {
    functors: Vec<Sym>,
    /// Where each term's arguments start in `arguments`; one extra entry closes the last term.
    starts: Vec<u32>,
    arguments: Vec<TermId>,
    depths: Vec<u16>,
    /// Whether a term without arguments was written as a function, `(f)`, which GDL keeps
    /// apart from the constant `f` (the interpreter does too).
    empty_function: Vec<bool>,
    /// `[functor, argument ids...]` to the term's id, for keys of up to [`INLINE_KEY`] entries
    /// (padded with [`PAD`]): most terms, looked up without following a pointer to their key.
    short_ids: FxHashMap<[u32; INLINE_KEY], TermId>,
    /// The same for longer keys.
    long_ids: FxHashMap<Box<[u32]>, TermId>,
    /// Each constant's id by its symbol's number ([`UNBOUND`] where not made): constants are
    /// most lookups, and this one is an array read.
    constants: Vec<TermId>,
}

/// The key entry that marks a function without arguments (never a term id: the grounding
/// limits, and the interpreter's cutting back of its table, keep ids far below it).
const EMPTY_FUNCTION: u32 = u32::MAX;

/// The entries of a key kept in place in [`Terms`]' table: a functor and up to seven arguments.
const INLINE_KEY: usize = 8;

/// What fills a short key's unused entries (never a term id, nor [`EMPTY_FUNCTION`]).
const PAD: u32 = u32::MAX - 1;

/// `key` padded to [`INLINE_KEY`] entries, if it fits.
fn short_key(key: &[u32]) -> Option<[u32; INLINE_KEY]> {
    let mut short = [PAD; INLINE_KEY];
    short.get_mut(..key.len())?.copy_from_slice(key);
    Some(short)
}

/// Reusable buffers for term lookups: the key looked up, and a stack of argument ids for the
/// instances of nested patterns ([`find_instance`], [`intern_instance`]), so that a lookup
/// allocates nothing once the buffers have grown.
#[derive(Debug, Default)]
pub(in crate::gdl) struct KeyScratch {
    key: Vec<u32>,
    stack: Vec<TermId>,
}

impl KeyScratch {
    pub(in crate::gdl) fn new() -> KeyScratch {
        KeyScratch::default()
    }
}

impl Terms {
    pub(in crate::gdl) fn new() -> Terms {
        Terms {
            starts: vec![0],
            ..Terms::default()
        }
    }

    pub(in crate::gdl) fn len(&self) -> usize {
        self.functors.len()
    }

    pub(in crate::gdl) fn functor(&self, term: TermId) -> Sym {
        self.functors[term as usize]
    }

    pub(in crate::gdl) fn args(&self, term: TermId) -> &[TermId] {
        let i = term as usize;
        &self.arguments[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    pub(in crate::gdl) fn depth(&self, term: TermId) -> usize {
        usize::from(self.depths[term as usize])
    }

    /// Whether the term is `(f)`: a function applied to no arguments.
    pub(in crate::gdl) fn is_empty_function(&self, term: TermId) -> bool {
        self.empty_function[term as usize]
    }

    /// The id of `functor(args)` if the term exists (a constant when `args` is empty).
    pub(in crate::gdl) fn find(
        &self,
        functor: Sym,
        args: &[TermId],
        key: &mut KeyScratch,
    ) -> Option<TermId> {
        self.find_written(functor, args, false, key)
    }

    /// As [`Terms::find`]; `function` tells `(f)` from `f` when there are no arguments.
    pub(in crate::gdl) fn find_written(
        &self,
        functor: Sym,
        args: &[TermId],
        function: bool,
        key: &mut KeyScratch,
    ) -> Option<TermId> {
        if args.is_empty() && !function {
            return self.constant(functor);
        }
        let key = &mut key.key;
        key.clear();
        key.push(functor.0);
        key.extend_from_slice(args);
        if function && args.is_empty() {
            key.push(EMPTY_FUNCTION);
        }
        match short_key(key) {
            Some(short) => self.short_ids.get(&short).copied(),
            None => self.long_ids.get(key.as_slice()).copied(),
        }
    }

    /// The id of the constant `name`, if made.
    pub(in crate::gdl) fn constant(&self, name: Sym) -> Option<TermId> {
        self.constants
            .get(name.0 as usize)
            .copied()
            .filter(|&id| id != UNBOUND)
    }

    /// The id of `functor(args)`, made if new. The caller keeps depths within its limit.
    pub(in crate::gdl) fn intern(&mut self, functor: Sym, args: &[TermId]) -> TermId {
        self.intern_written(functor, args, false)
    }

    /// As [`Terms::intern`]; `function` tells `(f)` from `f` when there are no arguments.
    pub(in crate::gdl) fn intern_written(
        &mut self,
        functor: Sym,
        args: &[TermId],
        function: bool,
    ) -> TermId {
        self.find_or_intern(functor, args, function, &mut KeyScratch::new())
    }

    /// The id of `functor(args)`, made if new, looked up with the caller's buffers: a lookup
    /// that finds the term allocates nothing once they have grown.
    pub(in crate::gdl) fn find_or_intern(
        &mut self,
        functor: Sym,
        args: &[TermId],
        function: bool,
        key: &mut KeyScratch,
    ) -> TermId {
        if let Some(id) = self.find_written(functor, args, function, key) {
            return id;
        }
        // The lookup built the key, except a constant's (found in `constants`).
        let key = &mut key.key;
        if args.is_empty() && !function {
            key.clear();
            key.push(functor.0);
        }
        let id = TermId::try_from(self.functors.len()).expect("fewer than 2^32 terms");
        match short_key(key) {
            Some(short) => self.short_ids.insert(short, id),
            None => self
                .long_ids
                .insert(std::mem::take(key).into_boxed_slice(), id),
        };
        self.empty_function.push(function && args.is_empty());
        let depth = 1 + args.iter().map(|&a| self.depth(a)).max().unwrap_or(0);
        self.functors.push(functor);
        self.arguments.extend_from_slice(args);
        self.starts.push(self.arguments.len() as u32);
        self.depths.push(u16::try_from(depth).unwrap_or(u16::MAX));
        if args.is_empty() && !function {
            let at = functor.0 as usize;
            if self.constants.len() <= at {
                self.constants.resize(at + 1, UNBOUND);
            }
            self.constants[at] = id;
        }
        id
    }

    /// The id of a [`Ground`] term, made if new. Iterative, as [`Terms::to_ground`].
    pub(in crate::gdl) fn intern_ground(&mut self, term: &Ground, key: &mut KeyScratch) -> TermId {
        // Post-order: a term's arguments get their ids before it does.
        let mut ids: Vec<TermId> = Vec::new();
        let mut pending: Vec<(&Ground, bool)> = vec![(term, false)];
        while let Some((term, children_done)) = pending.pop() {
            match term {
                Ground::Const(name) => ids.push(self.find_or_intern(*name, &[], false, key)),
                Ground::Func(name, args) if children_done || args.is_empty() => {
                    let start = ids.len() - args.len();
                    let id = self.find_or_intern(*name, &ids[start..], true, key);
                    ids.truncate(start);
                    ids.push(id);
                }
                Ground::Func(_, args) => {
                    pending.push((term, true));
                    pending.extend(args.iter().rev().map(|a| (a, false)));
                }
            }
        }
        ids.pop().expect("one term interned")
    }

    /// Forgets every term made after the first `len`: a table kept across many questions (the
    /// interpreter's) would otherwise grow with every term any state ever derived.
    pub(in crate::gdl) fn truncate(&mut self, len: usize) {
        if self.len() <= len {
            return;
        }
        self.functors.truncate(len);
        self.starts.truncate(len + 1);
        self.arguments.truncate(self.starts[len] as usize);
        self.depths.truncate(len);
        self.empty_function.truncate(len);
        self.short_ids.retain(|_, id| (*id as usize) < len);
        self.long_ids.retain(|_, id| (*id as usize) < len);
        for id in &mut self.constants {
            if *id != UNBOUND && *id as usize >= len {
                *id = UNBOUND;
            }
        }
    }

    /// The term as the interpreter's [`Ground`], for rendering and comparison. Iterative: the
    /// term's depth is bounded by the grounding limits, but it comes from user input.
    pub(in crate::gdl) fn to_ground(&self, term: TermId) -> Ground {
        // Post-order over an explicit stack: children are built before their parent.
        let mut built: Vec<Ground> = Vec::new();
        let mut pending: Vec<(TermId, bool)> = vec![(term, false)];
        while let Some((id, children_done)) = pending.pop() {
            let args = self.args(id);
            if args.is_empty() && self.is_empty_function(id) {
                built.push(Ground::Func(self.functor(id), Vec::new().into()));
            } else if args.is_empty() {
                built.push(Ground::Const(self.functor(id)));
            } else if children_done {
                let children = built.split_off(built.len() - args.len());
                built.push(Ground::Func(self.functor(id), children.into()));
            } else {
                pending.push((id, true));
                pending.extend(args.iter().rev().map(|&a| (a, false)));
            }
        }
        built.pop().expect("one term built")
    }
}

/// Variable bindings of one rule during a join: a slot holds a term id or [`UNBOUND`].
pub(in crate::gdl) const UNBOUND: TermId = TermId::MAX;

/// Matches `pattern` against `term`, binding unbound slots (recorded on `trail` so that the
/// caller can undo them). Runs on the explicit stack `pending`, reused between calls.
pub(in crate::gdl) fn match_pattern<'p>(
    terms: &Terms,
    pattern: &'p Pattern,
    term: TermId,
    bindings: &mut [TermId],
    trail: &mut Vec<usize>,
    pending: &mut Vec<(&'p Pattern, TermId)>,
) -> bool {
    pending.clear();
    pending.push((pattern, term));
    while let Some((pattern, term)) = pending.pop() {
        match pattern {
            Pattern::Const(sym) => {
                if terms.functor(term) != *sym
                    || !terms.args(term).is_empty()
                    || terms.is_empty_function(term)
                {
                    return false;
                }
            }
            Pattern::Var(slot) => {
                let bound = bindings[*slot];
                if bound == UNBOUND {
                    bindings[*slot] = term;
                    trail.push(*slot);
                } else if bound != term {
                    return false;
                }
            }
            Pattern::Func(sym, args) => {
                let term_args = terms.args(term);
                if terms.functor(term) != *sym
                    || term_args.len() != args.len()
                    || (args.is_empty() && !terms.is_empty_function(term))
                {
                    return false;
                }
                pending.extend(args.iter().zip(term_args.iter().copied()));
            }
        }
    }
    true
}

/// The id of a pattern whose variables are all bound, if that term exists (no new terms).
/// Recursion follows the pattern's written nesting, which the program builder bounds; the
/// arguments' ids wait on `key`'s stack, so nothing is allocated once it has grown.
pub(in crate::gdl) fn find_instance(
    terms: &Terms,
    pattern: &Pattern,
    bindings: &[TermId],
    key: &mut KeyScratch,
) -> Option<TermId> {
    match pattern {
        Pattern::Const(sym) => terms.constant(*sym),
        Pattern::Var(slot) => Some(bindings[*slot]).filter(|&t| t != UNBOUND),
        Pattern::Func(sym, args) => {
            let start = key.stack.len();
            for arg in args {
                let Some(id) = find_instance(terms, arg, bindings, key) else {
                    key.stack.truncate(start);
                    return None;
                };
                key.stack.push(id);
            }
            let arg_ids = std::mem::take(&mut key.stack);
            let found = terms.find_written(*sym, &arg_ids[start..], true, key);
            key.stack = arg_ids;
            key.stack.truncate(start);
            found
        }
    }
}

/// One side of an equality test: a pattern under the bindings, or a term.
#[derive(Clone, Copy)]
enum Side<'p> {
    Pattern(&'p Pattern),
    Term(TermId),
}

/// Whether two patterns (variables bound) denote the same ground term, without making terms:
/// `(distinct ?x (f ?y))` may name a term that no rule ever produced.
pub(in crate::gdl) fn instances_equal(
    terms: &Terms,
    left: &Pattern,
    right: &Pattern,
    bindings: &[TermId],
) -> bool {
    fn resolve<'p>(side: Side<'p>, bindings: &[TermId]) -> Side<'p> {
        match side {
            Side::Pattern(Pattern::Var(slot)) => Side::Term(bindings[*slot]),
            other => other,
        }
    }
    let mut pending = vec![(Side::Pattern(left), Side::Pattern(right))];
    while let Some(pair) = pending.pop() {
        match (resolve(pair.0, bindings), resolve(pair.1, bindings)) {
            (Side::Term(a), Side::Term(b)) => {
                if a != b {
                    return false;
                }
            }
            (Side::Pattern(Pattern::Const(c)), Side::Term(t))
            | (Side::Term(t), Side::Pattern(Pattern::Const(c))) => {
                if terms.functor(t) != *c || !terms.args(t).is_empty() || terms.is_empty_function(t)
                {
                    return false;
                }
            }
            (Side::Pattern(Pattern::Func(f, args)), Side::Term(t))
            | (Side::Term(t), Side::Pattern(Pattern::Func(f, args))) => {
                let term_args = terms.args(t);
                if terms.functor(t) != *f
                    || term_args.len() != args.len()
                    || (args.is_empty() && !terms.is_empty_function(t))
                {
                    return false;
                }
                pending.extend(
                    args.iter()
                        .zip(term_args)
                        .map(|(a, &b)| (Side::Pattern(a), Side::Term(b))),
                );
            }
            (Side::Pattern(Pattern::Const(a)), Side::Pattern(Pattern::Const(b))) => {
                if a != b {
                    return false;
                }
            }
            (Side::Pattern(Pattern::Func(f, xs)), Side::Pattern(Pattern::Func(g, ys))) => {
                if f != g || xs.len() != ys.len() {
                    return false;
                }
                pending.extend(
                    xs.iter()
                        .zip(ys)
                        .map(|(a, b)| (Side::Pattern(a), Side::Pattern(b))),
                );
            }
            _ => return false,
        }
    }
    true
}

/// The id of `atom` under `bindings` as a term (an atom is a term whose functor is the
/// relation; one without arguments is a constant), if it exists.
pub(in crate::gdl) fn find_atom(
    terms: &Terms,
    atom: &PatternAtom,
    bindings: &[TermId],
    key: &mut KeyScratch,
) -> Option<TermId> {
    let start = key.stack.len();
    for arg in &atom.args {
        let Some(id) = find_instance(terms, arg, bindings, key) else {
            key.stack.truncate(start);
            return None;
        };
        key.stack.push(id);
    }
    let arg_ids = std::mem::take(&mut key.stack);
    let found = terms.find_written(atom.relation, &arg_ids[start..], false, key);
    key.stack = arg_ids;
    key.stack.truncate(start);
    found
}

/// As [`find_atom`], the atom made if new.
pub(in crate::gdl) fn intern_atom(
    terms: &mut Terms,
    atom: &PatternAtom,
    bindings: &[TermId],
    key: &mut KeyScratch,
) -> TermId {
    let start = key.stack.len();
    for arg in &atom.args {
        let id = intern_instance(terms, arg, bindings, key);
        key.stack.push(id);
    }
    let arg_ids = std::mem::take(&mut key.stack);
    let id = terms.find_or_intern(atom.relation, &arg_ids[start..], false, key);
    key.stack = arg_ids;
    key.stack.truncate(start);
    id
}

/// The id of a pattern whose variables are all bound, made if new; buffers as in
/// [`find_instance`].
pub(in crate::gdl) fn intern_instance(
    terms: &mut Terms,
    pattern: &Pattern,
    bindings: &[TermId],
    key: &mut KeyScratch,
) -> TermId {
    match pattern {
        Pattern::Var(slot) => bindings[*slot],
        Pattern::Const(sym) => match terms.constant(*sym) {
            Some(id) => id,
            None => terms.intern(*sym, &[]),
        },
        Pattern::Func(sym, args) => {
            let start = key.stack.len();
            for arg in args {
                let id = intern_instance(terms, arg, bindings, key);
                key.stack.push(id);
            }
            let arg_ids = std::mem::take(&mut key.stack);
            let id = terms.find_or_intern(*sym, &arg_ids[start..], true, key);
            key.stack = arg_ids;
            key.stack.truncate(start);
            id
        }
    }
}

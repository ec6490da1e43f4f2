//! The engine's input form of a GDL game: interned symbols, rules over terms with named
//! variables, built through [`ProgramBuilder`] (no parsing here: the analysis layer converts its
//! rule model, tests build small programs by hand).
//!
//! [`ProgramBuilder::build`] checks that the rules can run and compiles them into the form the
//! interpreter evaluates: `or` and `not` pushed into disjunctive normal form (one compiled rule
//! per alternative), variables numbered per rule, literals reordered so that every negation and
//! `distinct` comes after the positive literals that bind its variables, and the relations split
//! into strata (strongly connected components of the dependency graph, in dependency order) with
//! negation only on lower strata.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::GdlError;

/// An interned name: a relation, function, constant or variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// The table of interned names. Ids are dense, in order of first interning.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    names: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, Sym>,
}

impl Symbols {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&sym) = self.ids.get(name) {
            return sym;
        }
        let sym = Sym(u32::try_from(self.names.len()).expect("fewer than 2^32 symbols"));
        let name: Arc<str> = Arc::from(name);
        self.names.push(name.clone());
        self.ids.insert(name, sym);
        sym
    }

    pub fn get(&self, name: &str) -> Option<Sym> {
        self.ids.get(name).copied()
    }

    /// The number of names: every symbol's number is below it.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn name(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }
}

/// A term of a rule as written: variables are named (scoped to their rule).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Const(Sym),
    Var(Sym),
    Func(Sym, Vec<Term>),
}

/// A relation applied to terms; `terminal` is an atom with no arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub relation: Sym,
    pub args: Vec<Term>,
}

/// A body literal as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    Atom(Atom),
    Not(Box<Literal>),
    Distinct(Term, Term),
    Or(Vec<Literal>),
}

/// `head :- body`; a fact has an empty body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub head: Atom,
    pub body: Vec<Literal>,
}

/// A ground term: a constant or a function applied to ground terms. Sentences (facts) are ground
/// terms too: `(cell 1 1 b)` is `Func(cell, [1, 1, b])` and `terminal` is `Const(terminal)`.
///
/// Equality, ordering, hashing and dropping recurse over the term's depth; the builder and the
/// interpreter keep every term within [`MAX_TERM_DEPTH`] so that this never threatens the stack.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ground {
    Const(Sym),
    Func(Sym, Arc<[Ground]>),
}

/// The deepest term the engine builds or accepts. Real games nest a handful of levels; the limit
/// turns runaway function-term recursion (`(succ ?x (s ?x))` without bound) into a clear error
/// long before recursion over terms could exhaust the stack.
pub const MAX_TERM_DEPTH: usize = 256;

impl Ground {
    /// The relation (or function) name and the arguments.
    pub fn parts(&self) -> (Sym, &[Ground]) {
        match self {
            Ground::Const(sym) => (*sym, &[]),
            Ground::Func(sym, args) => (*sym, args),
        }
    }

    pub fn arity(&self) -> usize {
        self.parts().1.len()
    }

    /// Levels of nesting: a constant has depth 1.
    pub fn depth(&self) -> usize {
        match self {
            Ground::Const(_) => 1,
            Ground::Func(_, args) => 1 + args.iter().map(Ground::depth).max().unwrap_or(0),
        }
    }

    /// The term in KIF form, names looked up in `symbols`.
    pub fn display<'a>(&'a self, symbols: &'a Symbols) -> impl fmt::Display + 'a {
        DisplayGround {
            ground: self,
            symbols,
        }
    }
}

struct DisplayGround<'a> {
    ground: &'a Ground,
    symbols: &'a Symbols,
}

impl fmt::Display for DisplayGround<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ground {
            Ground::Const(sym) => f.write_str(self.symbols.name(*sym)),
            Ground::Func(sym, args) => {
                write!(f, "({}", self.symbols.name(*sym))?;
                for arg in args.iter() {
                    write!(f, " {}", arg.display(self.symbols))?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A relation: a name and an arity (GDL games use one arity per name; keying by both keeps a
/// game that does not apart from undefined behaviour).
pub type RelKey = (Sym, usize);

/// A compiled term: variables are slots of the rule's binding array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    Const(Sym),
    Var(usize),
    Func(Sym, Vec<Pattern>),
}

/// A compiled atom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternAtom {
    pub relation: Sym,
    pub args: Vec<Pattern>,
}

impl PatternAtom {
    pub fn key(&self) -> RelKey {
        (self.relation, self.args.len())
    }
}

/// A compiled body literal; `or` and nested `not` are gone (normal form).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompiledLiteral {
    /// Matches facts, binding variables.
    Positive(PatternAtom),
    /// Holds when the (fully bound) atom is not a fact.
    Negative(PatternAtom),
    /// Holds when the two (fully bound) terms differ.
    Distinct(Pattern, Pattern),
    /// Holds when the two (fully bound) terms are equal: `(not (distinct a b))`.
    Equal(Pattern, Pattern),
}

/// A compiled rule: positive literals first in written order, each test right after the literal
/// that binds its last variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledRule {
    pub head: PatternAtom,
    pub body: Vec<CompiledLiteral>,
    /// The number of variable slots.
    pub variables: usize,
}

/// A stratum: one strongly connected component of the relation dependency graph.
#[derive(Clone, Debug)]
pub struct Stratum {
    pub relations: Vec<RelKey>,
    /// Indices into [`Program::rules`] of the rules whose head is in this stratum.
    pub rules: Vec<usize>,
    /// Some rule of the stratum uses a relation of the stratum itself (needs a fixpoint).
    pub recursive: bool,
    /// The stratum depends (transitively) on `true` or `does`: it is evaluated per state.
    pub dynamic: bool,
}

/// The interned names of GDL's keywords.
#[derive(Clone, Copy, Debug)]
pub struct Keywords {
    pub role: Sym,
    pub init: Sym,
    pub true_: Sym,
    pub does: Sym,
    pub next: Sym,
    pub legal: Sym,
    pub goal: Sym,
    pub terminal: Sym,
    pub sees: Sym,
    pub random: Sym,
}

impl Keywords {
    fn intern(symbols: &mut Symbols) -> Keywords {
        Keywords {
            role: symbols.intern("role"),
            init: symbols.intern("init"),
            true_: symbols.intern("true"),
            does: symbols.intern("does"),
            next: symbols.intern("next"),
            legal: symbols.intern("legal"),
            goal: symbols.intern("goal"),
            terminal: symbols.intern("terminal"),
            sees: symbols.intern("sees"),
            random: symbols.intern("random"),
        }
    }

    /// The relations GDL itself gives a meaning (every keyword but `random`, which names a
    /// role, not a relation): a game's own relations are the others.
    pub fn relations(&self) -> [Sym; 9] {
        [
            self.role,
            self.init,
            self.true_,
            self.does,
            self.next,
            self.legal,
            self.goal,
            self.terminal,
            self.sees,
        ]
    }
}

/// A GDL game ready to run: symbols, compiled rules and strata in evaluation order.
#[derive(Clone, Debug)]
pub struct Program {
    pub symbols: Symbols,
    pub keywords: Keywords,
    pub rules: Vec<CompiledRule>,
    /// In dependency order: every stratum uses only relations of earlier strata, of itself
    /// (positively) and the inputs `true` and `does`.
    pub strata: Vec<Stratum>,
    /// The roles of the ground `role` facts, in the order written.
    pub roles: Vec<Sym>,
    /// For each relation defined by rules, the strata it depends on (itself included).
    pub(crate) dependencies: HashMap<RelKey, Vec<usize>>,
}

impl Program {
    /// The strata needed to compute `relations`, in evaluation order.
    pub fn strata_for(&self, relations: &[RelKey]) -> Vec<usize> {
        let mut needed: Vec<usize> = relations
            .iter()
            .filter_map(|key| self.dependencies.get(key))
            .flatten()
            .copied()
            .collect();
        needed.sort_unstable();
        needed.dedup();
        needed
    }

    /// The same game with its compiled rules replaced by `rules` (a rewriting that keeps their
    /// meaning, over `symbols`, which extends this program's table), stratified anew: an error
    /// when the rewritten rules no longer stratify.
    pub(crate) fn with_rules(
        &self,
        symbols: Symbols,
        rules: Vec<CompiledRule>,
    ) -> Result<Program, GdlError> {
        let (strata, dependencies) = stratify(&rules, &symbols, &self.keywords)?;
        Ok(Program {
            symbols,
            keywords: self.keywords,
            rules,
            strata,
            roles: self.roles.clone(),
            dependencies,
        })
    }

    /// Every relation key defined by some rule with this name.
    pub fn keys_named(&self, name: Sym) -> Vec<RelKey> {
        let mut keys: Vec<RelKey> = self
            .strata
            .iter()
            .flat_map(|s| s.relations.iter().copied())
            .filter(|key| key.0 == name)
            .collect();
        keys.sort_unstable();
        keys
    }
}

/// Collects symbols and rules, then checks and compiles them.
#[derive(Debug, Default)]
pub struct ProgramBuilder {
    symbols: Symbols,
    rules: Vec<Rule>,
}

/// How many alternatives one rule may expand to once `or` is distributed; beyond that the rule
/// is refused rather than blowing up memory.
const MAX_ALTERNATIVES: usize = 4096;

impl ProgramBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn symbol(&mut self, name: &str) -> Sym {
        self.symbols.intern(name)
    }

    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    pub fn add_rule(&mut self, rule: Rule) {
        self.rules.push(rule);
    }

    /// Checks that the rules can run and compiles them.
    pub fn build(mut self) -> Result<Program, GdlError> {
        let keywords = Keywords::intern(&mut self.symbols);
        let symbols = self.symbols;
        let mut rules = Vec::new();
        let mut roles = Vec::new();
        for rule in &self.rules {
            let name = |sym: Sym| symbols.name(sym).to_owned();
            if rule.head.relation == keywords.true_ || rule.head.relation == keywords.does {
                return Err(GdlError::Build(format!(
                    "a rule defines `{}`, which only the game state and the moves may give",
                    name(rule.head.relation)
                )));
            }
            if rule.head.relation == keywords.role
                && rule.body.is_empty()
                && let [Term::Const(role)] = rule.head.args.as_slice()
                && !roles.contains(role)
            {
                roles.push(*role);
            }
            for alternative in normal_form(&rule.body, &symbols)? {
                rules.push(compile(&rule.head, alternative, &symbols)?);
            }
        }
        let (strata, dependencies) = stratify(&rules, &symbols, &keywords)?;
        Ok(Program {
            symbols,
            keywords,
            rules,
            strata,
            roles,
            dependencies,
        })
    }
}

/// A literal of the normal form before variables are numbered.
#[derive(Clone, Debug)]
enum Flat<'a> {
    Positive(&'a Atom),
    Negative(&'a Atom),
    Distinct(&'a Term, &'a Term),
    Equal(&'a Term, &'a Term),
}

/// The body as a disjunction of conjunctions of flat literals. `(not (or a b))` becomes
/// `(not a) (not b)`, `(not (not a))` becomes `a`, `(not (distinct a b))` an equality test.
fn normal_form<'a>(body: &'a [Literal], symbols: &Symbols) -> Result<Vec<Vec<Flat<'a>>>, GdlError> {
    // Each pending item is a literal with a polarity; conjunction distributes over the
    // alternatives of each literal. Nesting of `or`/`not` is bounded by the text, and each level
    // is handled by the explicit work list below rather than by recursion.
    let mut alternatives: Vec<Vec<Flat<'a>>> = vec![Vec::new()];
    for literal in body {
        let options = literal_options(literal, symbols)?;
        let mut combined = Vec::new();
        for base in &alternatives {
            for option in &options {
                let mut joined = base.clone();
                joined.extend(option.iter().cloned());
                combined.push(joined);
            }
        }
        if combined.len() > MAX_ALTERNATIVES {
            return Err(GdlError::Build(format!(
                "a rule expands into more than {MAX_ALTERNATIVES} alternatives once its `or`s are distributed"
            )));
        }
        alternatives = combined;
    }
    Ok(alternatives)
}

/// The alternatives (each a conjunction) one literal stands for.
fn literal_options<'a>(
    literal: &'a Literal,
    symbols: &Symbols,
) -> Result<Vec<Vec<Flat<'a>>>, GdlError> {
    // Work list of (literal, negated) with a continuation-free formulation: we compute the DNF of
    // a literal bottom-up over an explicit post-order traversal.
    enum Step<'a> {
        Visit(&'a Literal, bool),
        /// Combine the top `count` results: union (positive `or`) or product (negated `or`).
        Union(usize),
        Product(usize),
    }
    let mut steps = vec![Step::Visit(literal, false)];
    let mut results: Vec<Vec<Vec<Flat<'a>>>> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Visit(Literal::Atom(atom), negated) => results.push(vec![vec![if negated {
                Flat::Negative(atom)
            } else {
                Flat::Positive(atom)
            }]]),
            Step::Visit(Literal::Distinct(a, b), negated) => results.push(vec![vec![if negated {
                Flat::Equal(a, b)
            } else {
                Flat::Distinct(a, b)
            }]]),
            Step::Visit(Literal::Not(inner), negated) => steps.push(Step::Visit(inner, !negated)),
            Step::Visit(Literal::Or(disjuncts), negated) => {
                steps.push(if negated {
                    Step::Product(disjuncts.len())
                } else {
                    Step::Union(disjuncts.len())
                });
                for disjunct in disjuncts {
                    steps.push(Step::Visit(disjunct, negated));
                }
            }
            Step::Union(count) => {
                let parts = results.split_off(results.len() - count);
                let union: Vec<_> = parts.into_iter().flatten().collect();
                if union.len() > MAX_ALTERNATIVES {
                    return Err(too_many(symbols));
                }
                results.push(union);
            }
            Step::Product(count) => {
                let parts = results.split_off(results.len() - count);
                let mut product: Vec<Vec<Flat<'a>>> = vec![Vec::new()];
                for part in parts {
                    let mut next = Vec::new();
                    for base in &product {
                        for option in &part {
                            let mut joined = base.clone();
                            joined.extend(option.iter().cloned());
                            next.push(joined);
                        }
                    }
                    if next.len() > MAX_ALTERNATIVES {
                        return Err(too_many(symbols));
                    }
                    product = next;
                }
                results.push(product);
            }
        }
    }
    Ok(results.pop().unwrap_or_default())
}

fn too_many(_symbols: &Symbols) -> GdlError {
    GdlError::Build(format!(
        "a literal expands into more than {MAX_ALTERNATIVES} alternatives once `or` and `not` are distributed"
    ))
}

/// Numbers the variables of one alternative, checks safety and orders the body.
fn compile(head: &Atom, body: Vec<Flat<'_>>, symbols: &Symbols) -> Result<CompiledRule, GdlError> {
    let mut slots: HashMap<Sym, usize> = HashMap::new();
    let mut positives = Vec::new();
    // Positive literals bind; numbering them first makes "bound after literal i" a slot bound.
    for literal in &body {
        if let Flat::Positive(atom) = literal {
            positives.push(pattern_atom(atom, &mut slots)?);
        }
    }
    let bound_by_positives = slots.len();
    let mut tests = Vec::new();
    for literal in &body {
        let test = match literal {
            Flat::Positive(_) => continue,
            Flat::Negative(atom) => CompiledLiteral::Negative(pattern_atom(atom, &mut slots)?),
            Flat::Distinct(a, b) => {
                CompiledLiteral::Distinct(pattern(a, &mut slots)?, pattern(b, &mut slots)?)
            }
            Flat::Equal(a, b) => {
                CompiledLiteral::Equal(pattern(a, &mut slots)?, pattern(b, &mut slots)?)
            }
        };
        tests.push(test);
    }
    let head = pattern_atom(head, &mut slots)?;
    if slots.len() > bound_by_positives {
        let mut unsafe_names: Vec<(usize, &str)> = slots
            .iter()
            .filter(|(_, slot)| **slot >= bound_by_positives)
            .map(|(sym, slot)| (*slot, symbols.name(*sym)))
            .collect();
        unsafe_names.sort_unstable();
        let names: Vec<&str> = unsafe_names.into_iter().map(|(_, name)| name).collect();
        return Err(GdlError::Build(format!(
            "a rule for `{}` is unsafe: {} must appear in a positive literal of its body",
            symbols.name(head.relation),
            names.join(", ")
        )));
    }
    // Each test goes right after the positive literal that binds its last variable, so that
    // failing tests prune early (the result does not depend on it).
    let mut bound_after: Vec<usize> = Vec::new(); // slot count bound after positive i
    let mut seen = vec![false; bound_by_positives];
    let mut count = 0;
    for atom in &positives {
        for_each_var_atom(atom, &mut |slot| {
            if !seen[slot] {
                seen[slot] = true;
                count += 1;
            }
        });
        bound_after.push(count);
    }
    // Slots are numbered in order of first positive occurrence, so "all slots < n are bound"
    // after the positive literal whose running count reaches n.
    let mut placed: Vec<Vec<CompiledLiteral>> = vec![Vec::new(); positives.len() + 1];
    for test in tests {
        let mut highest = None;
        let mut visit = |slot: usize| highest = Some(highest.map_or(slot, |h: usize| h.max(slot)));
        match &test {
            CompiledLiteral::Negative(atom) => for_each_var_atom(atom, &mut visit),
            CompiledLiteral::Distinct(a, b) | CompiledLiteral::Equal(a, b) => {
                for_each_var(a, &mut visit);
                for_each_var(b, &mut visit);
            }
            CompiledLiteral::Positive(_) => unreachable!("tests only"),
        }
        let position = match highest {
            None => 0,
            Some(slot) => 1 + bound_after.iter().position(|&n| n > slot).unwrap_or(0),
        };
        placed[position].push(test);
    }
    let mut ordered = Vec::new();
    let mut placed = placed.into_iter();
    ordered.extend(placed.next().unwrap_or_default());
    for (atom, tests) in positives.into_iter().zip(placed) {
        ordered.push(CompiledLiteral::Positive(atom));
        ordered.extend(tests);
    }
    Ok(CompiledRule {
        head,
        body: ordered,
        variables: slots.len(),
    })
}

fn for_each_var_atom(atom: &PatternAtom, visit: &mut impl FnMut(usize)) {
    for arg in &atom.args {
        for_each_var(arg, visit);
    }
}

fn for_each_var(pattern: &Pattern, visit: &mut impl FnMut(usize)) {
    let mut pending = vec![pattern];
    while let Some(pattern) = pending.pop() {
        match pattern {
            Pattern::Const(_) => {}
            Pattern::Var(slot) => visit(*slot),
            Pattern::Func(_, args) => pending.extend(args.iter().rev()),
        }
    }
}

fn pattern_atom(atom: &Atom, slots: &mut HashMap<Sym, usize>) -> Result<PatternAtom, GdlError> {
    Ok(PatternAtom {
        relation: atom.relation,
        args: atom
            .args
            .iter()
            .map(|arg| pattern(arg, slots))
            .collect::<Result<_, _>>()?,
    })
}

/// Compiles a term. Recursion is bounded by [`MAX_TERM_DEPTH`], checked first.
fn pattern(term: &Term, slots: &mut HashMap<Sym, usize>) -> Result<Pattern, GdlError> {
    if term_depth(term) > MAX_TERM_DEPTH {
        return Err(GdlError::Build(format!(
            "a term is nested more than {MAX_TERM_DEPTH} levels deep"
        )));
    }
    Ok(pattern_unchecked(term, slots))
}

fn pattern_unchecked(term: &Term, slots: &mut HashMap<Sym, usize>) -> Pattern {
    match term {
        Term::Const(sym) => Pattern::Const(*sym),
        Term::Var(sym) => {
            let next = slots.len();
            Pattern::Var(*slots.entry(*sym).or_insert(next))
        }
        Term::Func(sym, args) => Pattern::Func(
            *sym,
            args.iter().map(|a| pattern_unchecked(a, slots)).collect(),
        ),
    }
}

/// The depth of a written term, without recursion (the term comes from user input).
fn term_depth(term: &Term) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(term, 1)];
    while let Some((term, depth)) = pending.pop() {
        deepest = deepest.max(depth);
        if let Term::Func(_, args) = term {
            pending.extend(args.iter().map(|a| (a, depth + 1)));
        }
    }
    deepest
}

type Dependencies = HashMap<RelKey, Vec<usize>>;

/// Splits the rules into strongly connected components of the rule dependency graph, in
/// dependency order (Tarjan's algorithm with an explicit stack), and refuses negation inside a
/// component.
///
/// A rule depends on another when one of its body literals unifies with the other's head. This
/// is finer than the usual relation-level graph and accepts the games that stratify only once the
/// constants of the heads are considered, such as `(<= (goal robot 100) (not (goal robot 0)))`,
/// which real games use. It stays sound: when a stratum reads a relation, every rule whose head
/// could produce a matching fact has already run (or runs in the same fixpoint, positively).
fn stratify(
    rules: &[CompiledRule],
    symbols: &Symbols,
    keywords: &Keywords,
) -> Result<(Vec<Stratum>, Dependencies), GdlError> {
    let mut rules_by_key: HashMap<RelKey, Vec<usize>> = HashMap::new();
    for (i, rule) in rules.iter().enumerate() {
        rules_by_key.entry(rule.head.key()).or_default().push(i);
    }
    // Edges rule -> rule it reads from, with whether negated.
    let mut edges: Vec<Vec<(usize, bool)>> = vec![Vec::new(); rules.len()];
    let mut reads_input = vec![false; rules.len()];
    for (i, rule) in rules.iter().enumerate() {
        for literal in &rule.body {
            let (atom, negated) = match literal {
                CompiledLiteral::Positive(atom) => (atom, false),
                CompiledLiteral::Negative(atom) => (atom, true),
                _ => continue,
            };
            if atom.relation == keywords.true_ || atom.relation == keywords.does {
                reads_input[i] = true;
            }
            for &j in rules_by_key.get(&atom.key()).into_iter().flatten() {
                if unifiable(atom, &rules[j].head) {
                    edges[i].push((j, negated));
                }
            }
        }
    }
    let successors: Vec<Vec<usize>> = edges
        .iter()
        .map(|targets| targets.iter().map(|&(target, _)| target).collect())
        .collect();
    let components = crate::graph::strongly_connected_components(&successors);
    let components = merge_independent_rules(components, &edges, &reads_input, rules);
    // Tarjan emits components in reverse topological order of the "depends on" edges, i.e. a
    // component comes after every component it depends on: exactly the evaluation order.
    let mut component_of = vec![0; rules.len()];
    for (c, members) in components.iter().enumerate() {
        for &node in members {
            component_of[node] = c;
        }
    }
    let mut strata: Vec<Stratum> = components
        .iter()
        .map(|members| {
            let mut relations: Vec<RelKey> = members.iter().map(|&r| rules[r].head.key()).collect();
            relations.sort_unstable();
            relations.dedup();
            Stratum {
                relations,
                rules: members.clone(),
                recursive: false,
                dynamic: members.iter().any(|&r| reads_input[r]),
            }
        })
        .collect();
    for (node, out) in edges.iter().enumerate() {
        for &(target, negated) in out {
            if component_of[node] == component_of[target] {
                if negated {
                    let (name, arity) = rules[node].head.key();
                    let (other, other_arity) = rules[target].head.key();
                    return Err(GdlError::Build(format!(
                        "the rules are not stratified: `{}/{arity}` depends negatively on `{}/{other_arity}`, which depends on it in turn",
                        symbols.name(name),
                        symbols.name(other)
                    )));
                }
                strata[component_of[node]].recursive = true;
            }
        }
    }
    // Dynamic-ness and dependency sets propagate in evaluation order.
    let mut depends: Vec<Vec<usize>> = vec![Vec::new(); strata.len()];
    for c in 0..strata.len() {
        let mut set = vec![c];
        let mut dynamic = strata[c].dynamic;
        for &node in &components[c] {
            for &(target, _) in &edges[node] {
                let d = component_of[target];
                if d != c {
                    dynamic |= strata[d].dynamic;
                    set.extend(depends[d].iter().copied());
                }
            }
        }
        set.sort_unstable();
        set.dedup();
        depends[c] = set;
        strata[c].dynamic = dynamic;
    }
    let mut dependencies = Dependencies::new();
    for (key, members) in &rules_by_key {
        let mut set: Vec<usize> = members
            .iter()
            .flat_map(|&r| depends[component_of[r]].iter().copied())
            .collect();
        set.sort_unstable();
        set.dedup();
        dependencies.insert(*key, set);
    }
    Ok((strata, dependencies))
}

/// Rules that read no rule (facts above all) are components of one rule each: a game with a
/// million `init` facts would have a million strata, each evaluated and indexed apart (tens of
/// gigabytes before the first state). They depend on nothing, so those of one relation (and
/// of the same dynamic-ness) make one stratum, placed first; the other components keep their
/// order, which still puts every component after those it depends on.
fn merge_independent_rules(
    components: Vec<Vec<usize>>,
    edges: &[Vec<(usize, bool)>],
    reads_input: &[bool],
    rules: &[CompiledRule],
) -> Vec<Vec<usize>> {
    let mut group_of: HashMap<(RelKey, bool), usize> = HashMap::new();
    let mut merged: Vec<Vec<usize>> = Vec::new();
    let mut others = Vec::new();
    for members in components {
        match members[..] {
            [rule] if edges[rule].is_empty() => {
                let group = *group_of
                    .entry((rules[rule].head.key(), reads_input[rule]))
                    .or_insert_with(|| {
                        merged.push(Vec::new());
                        merged.len() - 1
                    });
                merged[group].push(rule);
            }
            _ => others.push(members),
        }
    }
    for group in &mut merged {
        group.sort_unstable();
    }
    merged.extend(others);
    merged
}

/// A term of one of the two atoms being unified: (side, term).
type Side<'a> = (u8, &'a Pattern);

type Bindings<'a> = HashMap<(u8, usize), (u8, &'a Pattern)>;

/// Follows variable bindings to the representative of a term.
fn resolve<'a>(bound: &Bindings<'a>, mut side: u8, mut pattern: &'a Pattern) -> (u8, &'a Pattern) {
    while let Pattern::Var(slot) = pattern {
        match bound.get(&(side, *slot)) {
            Some(&(s, q)) => (side, pattern) = (s, q),
            None => break,
        }
    }
    (side, pattern)
}

/// Whether two atoms of different rules (variables renamed apart) could match the same fact.
/// Without the occurs check, so it may answer yes where no finite fact matches both; that only
/// adds dependencies, never hides one.
fn unifiable(left: &PatternAtom, right: &PatternAtom) -> bool {
    if left.key() != right.key() {
        return false;
    }
    // Sides 0 and 1 keep the two rules' variable slots apart.
    let mut bound: Bindings<'_> = HashMap::new();
    let mut pending: Vec<(Side<'_>, Side<'_>)> = left
        .args
        .iter()
        .zip(&right.args)
        .map(|(a, b)| ((0, a), (1, b)))
        .collect();
    while let Some(((sa, a), (sb, b))) = pending.pop() {
        let (sa, a) = resolve(&bound, sa, a);
        let (sb, b) = resolve(&bound, sb, b);
        match (a, b) {
            (Pattern::Var(x), Pattern::Var(y)) if sa == sb && x == y => {}
            (Pattern::Var(x), _) => {
                bound.insert((sa, *x), (sb, b));
            }
            (_, Pattern::Var(y)) => {
                bound.insert((sb, *y), (sa, a));
            }
            (Pattern::Const(x), Pattern::Const(y)) => {
                if x != y {
                    return false;
                }
            }
            (Pattern::Func(f, xs), Pattern::Func(g, ys)) => {
                if f != g || xs.len() != ys.len() {
                    return false;
                }
                pending.extend(xs.iter().zip(ys).map(|(x, y)| ((sa, x), (sb, y))));
            }
            _ => return false,
        }
    }
    true
}

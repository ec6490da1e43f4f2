//! The GDL rule model: one representation for both syntaxes (prefix KIF and infix), with source
//! ranges on every part so that checks point at the offending text.
//!
//! Names are kept as written. GDL compares symbols case-insensitively in principle, but real
//! games rely on exact spelling; the `gdl/inconsistent-case` check reports names that differ only
//! in case.

use std::sync::Arc;

use crate::TextRange;

/// A relation, function, constant or variable name, as written (KIF variables with their `?`).
pub type Name = Arc<str>;

/// A name and where it is written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub name: Name,
    pub range: TextRange,
}

/// A term: an argument of a sentence or of a function.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A constant, including numbers (`1`, `100`).
    Constant(Symbol),
    Variable(Symbol),
    /// A function term `(f a b)` / `f(a, b)`.
    Function(Compound),
}

/// A function term, or the shape shared with sentences: a name applied to arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Compound {
    pub name: Symbol,
    pub args: Vec<Term>,
    /// The whole term.
    pub range: TextRange,
    /// Written with parentheses but no argument: `(foo)` in KIF, `foo()` in infix. GDL has no
    /// zero-arity parenthesised forms; the `gdl/zero-arity-parentheses` check reports them.
    pub empty_parentheses: bool,
}

/// A sentence: a relation applied to terms (`(cell 1 1 b)`, `terminal`).
pub type Sentence = Compound;

/// One conjunct of a rule body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    Sentence(Sentence),
    /// `(not L)` / `~L`. GDL allows only a sentence under `not`; the model keeps whatever was
    /// written so that the `gdl/negated-non-sentence` check can point at it.
    Not {
        inner: Box<Literal>,
        range: TextRange,
    },
    /// `(distinct t1 t2)`.
    Distinct {
        left: Term,
        right: Term,
        range: TextRange,
    },
    /// `(or L1 L2 ...)` / `L1 | L2 | ...`.
    Or {
        disjuncts: Vec<Literal>,
        range: TextRange,
    },
}

impl Literal {
    pub fn range(&self) -> TextRange {
        match self {
            Literal::Sentence(sentence) => sentence.range,
            Literal::Not { range, .. }
            | Literal::Distinct { range, .. }
            | Literal::Or { range, .. } => *range,
        }
    }
}

/// A rule `head :- body`, or a fact (a rule with no body, written without `<=`/`:-`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub head: Sentence,
    pub body: Vec<Literal>,
    /// Written as a rule (`(<= head ...)`, `head :- ...`) rather than as a fact.
    pub written_as_rule: bool,
    /// False when lowering left out a malformed part of the body (reported there); checks that
    /// such a gap would mislead, like safety or empty bodies, skip the rule.
    pub complete: bool,
    pub range: TextRange,
}

impl Rule {
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }

    /// Calls `visit` on every sentence of the rule: the head, then the body's sentences (under
    /// `not` and `or` too), in source order.
    pub fn for_each_sentence<'a>(&'a self, visit: &mut impl FnMut(&'a Sentence)) {
        visit(&self.head);
        for literal in &self.body {
            literal.for_each_sentence(false, &mut |sentence, _| visit(sentence));
        }
    }

    /// Calls `visit` on every term written in the rule (arguments of sentences, sides of
    /// `distinct`, and the arguments of function terms, outermost first), in source order.
    pub fn for_each_term<'a>(&'a self, visit: &mut impl FnMut(&'a Term)) {
        fn walk<'a>(term: &'a Term, visit: &mut impl FnMut(&'a Term)) {
            visit(term);
            if let Term::Function(function) = term {
                for arg in &function.args {
                    walk(arg, visit);
                }
            }
        }
        for arg in &self.head.args {
            walk(arg, visit);
        }
        for literal in &self.body {
            literal.for_each_term(&mut |term| walk(term, visit));
        }
    }

    /// Moves every range of the rule by `delta` bytes (a wrapping addition, so that a negative
    /// move is the two's complement): how a rule lowered from one top-level form on its own is
    /// placed where the form stands in its file (see `gdl::lower::FormOffsets`).
    pub fn shift(&mut self, delta: usize) {
        self.range = self.range.shifted(delta);
        self.head.shift(delta);
        for literal in &mut self.body {
            literal.shift(delta);
        }
    }

    /// Calls `visit` on every function term of the rule, nested ones too, in source order.
    pub fn for_each_function<'a>(&'a self, visit: &mut impl FnMut(&'a Compound)) {
        self.for_each_term(&mut |term| {
            if let Term::Function(function) = term {
                visit(function);
            }
        });
    }
}

/// The rules of one file, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleSet {
    pub rules: Vec<Rule>,
}

impl Symbol {
    fn shift(&mut self, delta: usize) {
        self.range = self.range.shifted(delta);
    }
}

impl Term {
    fn shift(&mut self, delta: usize) {
        match self {
            Term::Constant(symbol) | Term::Variable(symbol) => symbol.shift(delta),
            Term::Function(function) => function.shift(delta),
        }
    }

    pub fn range(&self) -> TextRange {
        match self {
            Term::Constant(symbol) | Term::Variable(symbol) => symbol.range,
            Term::Function(compound) => compound.range,
        }
    }

    /// Calls `visit` on every variable of the term, in order.
    pub fn for_each_variable<'a>(&'a self, visit: &mut impl FnMut(&'a Symbol)) {
        match self {
            Term::Variable(symbol) => visit(symbol),
            Term::Constant(_) => {}
            Term::Function(compound) => compound.for_each_variable(visit),
        }
    }
}

impl Compound {
    fn shift(&mut self, delta: usize) {
        self.range = self.range.shifted(delta);
        self.name.shift(delta);
        for arg in &mut self.args {
            arg.shift(delta);
        }
    }

    pub fn arity(&self) -> usize {
        self.args.len()
    }

    pub fn for_each_variable<'a>(&'a self, visit: &mut impl FnMut(&'a Symbol)) {
        for arg in &self.args {
            arg.for_each_variable(visit);
        }
    }

    /// Calls `visit` on every function term nested in the arguments (not on `self`), outermost
    /// first.
    pub fn for_each_function<'a>(&'a self, visit: &mut impl FnMut(&'a Compound)) {
        for arg in &self.args {
            if let Term::Function(function) = arg {
                visit(function);
                function.for_each_function(visit);
            }
        }
    }

    /// Calls `visit` on every constant in the arguments, however deeply nested.
    pub fn for_each_constant<'a>(&'a self, visit: &mut impl FnMut(&'a Symbol)) {
        for arg in &self.args {
            match arg {
                Term::Constant(symbol) => visit(symbol),
                Term::Variable(_) => {}
                Term::Function(function) => function.for_each_constant(visit),
            }
        }
    }
}

impl Literal {
    fn shift(&mut self, delta: usize) {
        match self {
            Literal::Sentence(sentence) => sentence.shift(delta),
            Literal::Not { inner, range } => {
                *range = range.shifted(delta);
                inner.shift(delta);
            }
            Literal::Distinct { left, right, range } => {
                *range = range.shifted(delta);
                left.shift(delta);
                right.shift(delta);
            }
            Literal::Or { disjuncts, range } => {
                *range = range.shifted(delta);
                for disjunct in disjuncts {
                    disjunct.shift(delta);
                }
            }
        }
    }

    /// Calls `visit` on every sentence of the literal (under `not` and `or` too), with whether it
    /// is negated.
    pub fn for_each_sentence<'a>(
        &'a self,
        negated: bool,
        visit: &mut impl FnMut(&'a Sentence, bool),
    ) {
        match self {
            Literal::Sentence(sentence) => visit(sentence, negated),
            Literal::Not { inner, .. } => inner.for_each_sentence(!negated, visit),
            Literal::Distinct { .. } => {}
            Literal::Or { disjuncts, .. } => {
                for disjunct in disjuncts {
                    disjunct.for_each_sentence(negated, visit);
                }
            }
        }
    }

    /// Calls `visit` on every term the literal holds directly (sentence arguments, the two sides
    /// of `distinct`), under `not` and `or` too.
    pub fn for_each_term<'a>(&'a self, visit: &mut impl FnMut(&'a Term)) {
        match self {
            Literal::Sentence(sentence) => sentence.args.iter().for_each(&mut *visit),
            Literal::Not { inner, .. } => inner.for_each_term(visit),
            Literal::Distinct { left, right, .. } => {
                visit(left);
                visit(right);
            }
            Literal::Or { disjuncts, .. } => {
                for disjunct in disjuncts {
                    disjunct.for_each_term(visit);
                }
            }
        }
    }

    /// Every variable of the literal, in order.
    pub fn for_each_variable<'a>(&'a self, visit: &mut impl FnMut(&'a Symbol)) {
        self.for_each_term(&mut |term: &'a Term| term.for_each_variable(visit));
    }
}

//! Arbitrary GDL games: roles, initial facts, static facts and rules (`legal`, `next`, `goal`,
//! `terminal`, relations of the game's own) whose bodies hold variables, `true`, `does`, `not`,
//! `distinct` and `or`, printed in prefix KIF or in infix.
//!
//! Names come from small vocabularies, so that rules meet each other (a `next` rule's fluent
//! is some `init`'s, a `does` is some `legal`'s) and games often build and play. Two switches
//! make valid games likelier still: `safe` adds a positive `(dom ?v)` literal for every variable
//! a rule would leave unsafe (with `dom` facts over every constant), and `skeleton` adds a step
//! counter that ends the game after a few moves, with goals for every role.

use arbitrary::{Arbitrary, Result, Unstructured};

const ROLES: &[&str] = &["white", "black", "red", "random"];
const CONSTANTS: &[&str] = &["a", "b", "1", "2", "3", "x", "o", "noop", "white", "black"];
const FUNCTIONS: &[&str] = &["cell", "control", "step", "mark", "f", "pair"];
const RELATIONS: &[&str] = &["p", "q", "line", "open", "succ", "adj"];
const VARIABLES: &[&str] = &["x", "y", "z", "r", "m"];
/// Goal values; the last, out of range, is drawn rarely.
const GOALS: &[&str] = &["0", "50", "100", "7", "101"];

/// How deep terms and literals nest.
const MAX_DEPTH: u32 = 3;

#[derive(Debug)]
pub struct GdlGame {
    pub infix: bool,
    pub safe: bool,
    pub skeleton: bool,
    pub roles: Vec<usize>,
    pub inits: Vec<Term>,
    pub facts: Vec<Atom>,
    pub rules: Vec<GRule>,
}

#[derive(Clone, Debug)]
pub enum Term {
    Constant(usize),
    Variable(usize),
    Function(usize, Vec<Term>),
}

/// A relation of the game's own with its arguments.
#[derive(Clone, Debug)]
pub struct Atom {
    pub relation: usize,
    pub arguments: Vec<Term>,
}

#[derive(Clone, Debug)]
pub enum Head {
    Legal(Term, Term),
    Next(Term),
    Goal(Term, usize),
    Terminal,
    Relation(Atom),
    Init(Term),
    Base(Term),
    Input(Term, Term),
}

#[derive(Clone, Debug)]
pub enum Literal {
    True(Term),
    Does(Term, Term),
    Relation(Atom),
    Role(Term),
    Not(Box<Literal>),
    Distinct(Term, Term),
    Or(Vec<Literal>),
}

#[derive(Clone, Debug)]
pub struct GRule {
    pub head: Head,
    pub body: Vec<Literal>,
}

fn pick(u: &mut Unstructured<'_>, choices: &[&str]) -> Result<usize> {
    u.choose_index(choices.len())
}

fn few<T>(
    u: &mut Unstructured<'_>,
    min: usize,
    max: usize,
    mut item: impl FnMut(&mut Unstructured<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let count = u.int_in_range(min..=max)?;
    (0..count).map(|_| item(u)).collect()
}

/// What a term or literal may hold where it stands.
#[derive(Clone, Copy)]
struct Context {
    /// Variables (not in facts).
    variables: bool,
    /// `true` literals (not in the bodies of `init`, `base`, `input` and relations, which
    /// must not depend on the state: relations may be read by `init`).
    state: bool,
    /// `does` literals (only in `next` bodies).
    moves: bool,
}

const FACT: Context = Context {
    variables: false,
    state: false,
    moves: false,
};

impl Term {
    fn arbitrary_at(u: &mut Unstructured<'_>, depth: u32, context: Context) -> Result<Term> {
        let kinds = if depth >= MAX_DEPTH { 2 } else { 3 };
        Ok(match u.choose_index(kinds)? {
            1 if context.variables => Term::Variable(pick(u, VARIABLES)?),
            0 | 1 => Term::Constant(pick(u, CONSTANTS)?),
            _ => Term::Function(
                pick(u, FUNCTIONS)?,
                few(u, 0, 3, |u| Term::arbitrary_at(u, depth + 1, context))?,
            ),
        })
    }

    /// A fluent or a move: mostly a function term, sometimes a constant.
    fn compound(u: &mut Unstructured<'_>, context: Context) -> Result<Term> {
        if u.ratio(1, 6)? {
            return Term::arbitrary_at(u, MAX_DEPTH, context);
        }
        Ok(Term::Function(
            pick(u, FUNCTIONS)?,
            few(u, 0, 3, |u| Term::arbitrary_at(u, 1, context))?,
        ))
    }

    /// A role: mostly a variable or a role name.
    fn role(u: &mut Unstructured<'_>, context: Context) -> Result<Term> {
        Ok(match u.choose_index(4)? {
            0 if context.variables => Term::Variable(pick(u, VARIABLES)?),
            1 => Term::Constant(pick(u, CONSTANTS)?),
            _ => Term::Constant(CONSTANTS.len() + pick(u, ROLES)?),
        })
    }

    fn variables(&self, out: &mut Vec<usize>) {
        match self {
            Term::Constant(_) => {}
            Term::Variable(v) => out.push(*v),
            Term::Function(_, arguments) => arguments.iter().for_each(|a| a.variables(out)),
        }
    }
}

impl Atom {
    fn arbitrary_at(u: &mut Unstructured<'_>, depth: u32, context: Context) -> Result<Atom> {
        Ok(Atom {
            relation: pick(u, RELATIONS)?,
            arguments: few(u, 0, 3, |u| Term::arbitrary_at(u, depth + 1, context))?,
        })
    }
}

impl Literal {
    /// A literal; `negated` under a `not`, which GDL allows only over atoms and `distinct`.
    fn arbitrary_at(
        u: &mut Unstructured<'_>,
        depth: u32,
        context: Context,
        negated: bool,
    ) -> Result<Literal> {
        let kinds = if depth >= MAX_DEPTH || negated { 5 } else { 7 };
        Ok(match u.choose_index(kinds)? {
            0 if context.state => Literal::True(Term::compound(u, context)?),
            1 if context.moves => {
                Literal::Does(Term::role(u, context)?, Term::compound(u, context)?)
            }
            0..=2 => Literal::Relation(Atom::arbitrary_at(u, depth, context)?),
            3 => Literal::Role(Term::role(u, context)?),
            4 => Literal::Distinct(
                Term::arbitrary_at(u, 1, context)?,
                Term::arbitrary_at(u, 1, context)?,
            ),
            5 => Literal::Not(Box::new(Literal::arbitrary_at(
                u,
                depth + 1,
                context,
                true,
            )?)),
            _ => Literal::Or(few(u, 1, 3, |u| {
                Literal::arbitrary_at(u, depth + 1, context, false)
            })?),
        })
    }

    /// The variables a positive occurrence of this literal binds, and those it only reads.
    fn variables(&self, bound: &mut Vec<usize>, read: &mut Vec<usize>) {
        match self {
            Literal::True(t) | Literal::Role(t) => t.variables(bound),
            Literal::Does(r, m) => {
                r.variables(bound);
                m.variables(bound);
            }
            Literal::Relation(atom) => atom.arguments.iter().for_each(|a| a.variables(bound)),
            // A negation binds nothing; a disjunction only what every disjunct binds: their
            // variables are all read.
            Literal::Not(_) | Literal::Or(_) | Literal::Distinct(..) => self.all_variables(read),
        }
    }

    fn all_variables(&self, out: &mut Vec<usize>) {
        match self {
            Literal::True(t) | Literal::Role(t) => t.variables(out),
            Literal::Does(a, b) | Literal::Distinct(a, b) => {
                a.variables(out);
                b.variables(out);
            }
            Literal::Relation(atom) => atom.arguments.iter().for_each(|a| a.variables(out)),
            Literal::Not(inner) => inner.all_variables(out),
            Literal::Or(disjuncts) => disjuncts.iter().for_each(|d| d.all_variables(out)),
        }
    }
}

impl Head {
    /// A head, and what its rule's body may hold.
    fn arbitrary(u: &mut Unstructured<'_>) -> Result<(Head, Context)> {
        let rule = Context {
            variables: true,
            state: true,
            moves: false,
        };
        let static_rule = Context {
            state: false,
            ..rule
        };
        Ok(match u.choose_index(8)? {
            0 => (
                Head::Legal(Term::role(u, rule)?, Term::compound(u, rule)?),
                rule,
            ),
            1 => (
                Head::Next(Term::compound(u, rule)?),
                Context {
                    moves: true,
                    ..rule
                },
            ),
            2 => {
                let value = if u.ratio(1, 16)? {
                    GOALS.len() - 1
                } else {
                    u.choose_index(GOALS.len() - 1)?
                };
                (Head::Goal(Term::role(u, rule)?, value), rule)
            }
            3 => (Head::Terminal, rule),
            4 => (
                Head::Relation(Atom::arbitrary_at(u, 0, static_rule)?),
                static_rule,
            ),
            5 => (Head::Init(Term::compound(u, static_rule)?), static_rule),
            6 => (Head::Base(Term::compound(u, static_rule)?), static_rule),
            _ => (
                Head::Input(Term::role(u, static_rule)?, Term::compound(u, static_rule)?),
                static_rule,
            ),
        })
    }

    fn variables(&self, out: &mut Vec<usize>) {
        match self {
            Head::Legal(a, b) | Head::Input(a, b) => {
                a.variables(out);
                b.variables(out);
            }
            Head::Next(t) | Head::Init(t) | Head::Base(t) | Head::Goal(t, _) => t.variables(out),
            Head::Terminal => {}
            Head::Relation(atom) => atom.arguments.iter().for_each(|a| a.variables(out)),
        }
    }
}

impl<'a> Arbitrary<'a> for GdlGame {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(GdlGame {
            infix: u.arbitrary()?,
            safe: !u.ratio(1, 4)?,
            skeleton: !u.ratio(1, 3)?,
            roles: few(u, 1, 3, |u| pick(u, ROLES))?,
            inits: few(u, 0, 6, |u| Term::compound(u, FACT))?,
            facts: few(u, 0, 6, |u| Atom::arbitrary_at(u, 0, FACT))?,
            rules: few(u, 0, 12, |u| {
                let (head, context) = Head::arbitrary(u)?;
                Ok(GRule {
                    head,
                    body: few(u, 0, 4, |u| Literal::arbitrary_at(u, 0, context, false))?,
                })
            })?,
        })
    }
}

/// The spelling of one syntax.
struct Printer {
    infix: bool,
}

impl Printer {
    fn constant(&self, index: usize) -> &'static str {
        CONSTANTS
            .get(index)
            .copied()
            .unwrap_or_else(|| ROLES[index - CONSTANTS.len()])
    }

    fn variable(&self, index: usize) -> String {
        let name = VARIABLES[index];
        if self.infix {
            name.to_uppercase()
        } else {
            format!("?{name}")
        }
    }

    /// `name(a, b)` or `(name a b)`; a name alone without arguments.
    fn apply(&self, name: &str, arguments: &[String]) -> String {
        if arguments.is_empty() {
            name.to_owned()
        } else if self.infix {
            format!("{name}({})", arguments.join(", "))
        } else {
            format!("({name} {})", arguments.join(" "))
        }
    }

    fn term(&self, term: &Term) -> String {
        match term {
            Term::Constant(c) => self.constant(*c).to_owned(),
            Term::Variable(v) => self.variable(*v),
            Term::Function(f, arguments) => {
                let arguments: Vec<String> = arguments.iter().map(|a| self.term(a)).collect();
                self.apply(FUNCTIONS[*f], &arguments)
            }
        }
    }

    fn atom(&self, atom: &Atom) -> String {
        let arguments: Vec<String> = atom.arguments.iter().map(|a| self.term(a)).collect();
        self.apply(RELATIONS[atom.relation], &arguments)
    }

    fn head(&self, head: &Head) -> String {
        let apply = |name: &str, terms: &[&Term]| {
            let arguments: Vec<String> = terms.iter().map(|t| self.term(t)).collect();
            self.apply(name, &arguments)
        };
        match head {
            Head::Legal(r, m) => apply("legal", &[r, m]),
            Head::Next(t) => apply("next", &[t]),
            Head::Goal(r, value) => {
                let arguments = [self.term(r), GOALS[*value].to_owned()];
                self.apply("goal", &arguments)
            }
            Head::Terminal => "terminal".to_owned(),
            Head::Relation(atom) => self.atom(atom),
            Head::Init(t) => apply("init", &[t]),
            Head::Base(t) => apply("base", &[t]),
            Head::Input(r, m) => apply("input", &[r, m]),
        }
    }

    fn literal(&self, literal: &Literal) -> String {
        let apply = |name: &str, terms: &[&Term]| {
            let arguments: Vec<String> = terms.iter().map(|t| self.term(t)).collect();
            self.apply(name, &arguments)
        };
        match literal {
            Literal::True(t) => apply("true", &[t]),
            Literal::Does(r, m) => apply("does", &[r, m]),
            Literal::Relation(atom) => self.atom(atom),
            Literal::Role(r) => apply("role", &[r]),
            Literal::Not(inner) if self.infix => format!("~{}", self.literal(inner)),
            Literal::Not(inner) => format!("(not {})", self.literal(inner)),
            Literal::Distinct(a, b) => apply("distinct", &[a, b]),
            Literal::Or(disjuncts) => {
                let parts: Vec<String> = disjuncts.iter().map(|d| self.literal(d)).collect();
                if self.infix {
                    format!("({})", parts.join(" | "))
                } else {
                    format!("(or {})", parts.join(" "))
                }
            }
        }
    }

    fn rule(&self, head: &str, body: &[String]) -> String {
        match (body.is_empty(), self.infix) {
            (true, _) => head.to_owned(),
            (false, true) => format!("{head} :- {}", body.join(" & ")),
            (false, false) => format!("(<= {head} {})", body.join(" ")),
        }
    }
}

impl GdlGame {
    /// The game's text in its syntax.
    pub fn text(&self) -> String {
        let printer = Printer { infix: self.infix };
        let p = &printer;
        let mut out = String::new();
        let mut line = |text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        let mut roles: Vec<&str> = self.roles.iter().map(|&r| ROLES[r]).collect();
        roles.dedup();
        for role in &roles {
            line(p.apply("role", &[(*role).to_owned()]));
        }
        for init in &self.inits {
            line(p.apply("init", &[p.term(init)]));
        }
        for fact in &self.facts {
            line(p.atom(fact));
        }
        if self.safe {
            for constant in CONSTANTS.iter().chain(ROLES) {
                line(p.apply("dom", &[(*constant).to_owned()]));
            }
        }
        if self.skeleton {
            let step = |n: &str| p.apply("step", &[n.to_owned()]);
            line(p.apply("init", &[step("1")]));
            for (a, b) in [("1", "2"), ("2", "3"), ("3", "4")] {
                line(p.apply("succ", &[a.to_owned(), b.to_owned()]));
            }
            let (n, m) = (p.variable(0), p.variable(1));
            let body = [
                p.apply("true", &[p.apply("step", std::slice::from_ref(&n))]),
                p.apply("succ", &[n, m.clone()]),
            ];
            line(p.rule(&p.apply("next", &[p.apply("step", &[m])]), &body));
            line(p.rule("terminal", &[p.apply("true", &[step("4")])]));
            let r = p.variable(3);
            line(p.rule(
                &p.apply("goal", &[r.clone(), "50".to_owned()]),
                &[p.apply("role", std::slice::from_ref(&r))],
            ));
            line(p.rule(
                &p.apply("legal", &[r.clone(), "noop".to_owned()]),
                &[p.apply("role", &[r])],
            ));
        }
        for rule in &self.rules {
            let mut body: Vec<String> = rule.body.iter().map(|l| p.literal(l)).collect();
            if self.safe {
                let (mut bound, mut read) = (Vec::new(), Vec::new());
                for literal in &rule.body {
                    literal.variables(&mut bound, &mut read);
                }
                rule.head.variables(&mut read);
                read.sort_unstable();
                read.dedup();
                for variable in read.into_iter().filter(|v| !bound.contains(v)) {
                    body.insert(0, p.apply("dom", &[p.variable(variable)]));
                }
            }
            line(p.rule(&p.head(&rule.head), &body));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludeme_analysis::fuzzing::Fuzzed;
    use ludeme_analysis::{Syntax, parse_text};

    /// Bytes from a small generator, so that the test needs no fuzzer.
    fn bytes(seed: u64, len: usize) -> Vec<u8> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect()
    }

    /// Every game generated parses without syntax errors, and many are games the engine can
    /// build: the generator reaches past the parser and the checks.
    #[test]
    fn generated_games_parse_and_many_build() {
        let mut built = 0;
        let total = 300;
        for seed in 0..total {
            let data = bytes(seed, 600);
            let game = GdlGame::arbitrary(&mut Unstructured::new(&data)).expect("enough bytes");
            let text = game.text();
            let syntax = if game.infix {
                Syntax::GdlInfix
            } else {
                Syntax::GdlKif
            };
            assert!(
                !parse_text(syntax, &text, None).root().has_error(),
                "{text}"
            );
            let fuzzed = Fuzzed::new(syntax, &text);
            let program = fuzzed
                .analysis
                .with_db(|db| ludeme_analysis::gdl::engine::program_for(db, fuzzed.file).is_ok());
            built += usize::from(program.expect("not cancelled"));
        }
        assert!(
            built >= total as usize / 10,
            "{built} of {total} games build"
        );
    }
}

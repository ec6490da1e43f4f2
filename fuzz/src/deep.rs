//! Hostile sizes: text nested deep (up to [`MAX_DEPTH`] levels) in a chosen shape, runs of
//! openers never closed or closers never opened, and games with many facts (up to
//! [`MAX_FACTS`]), in each syntax.
//!
//! The sizes are a few times past the limits the analyses enforce, not the largest a file may
//! have: the full sizes (a million levels, open or closed, in every syntax; 50,000 KIF facts)
//! are tested by the full suites of `tests/robustness.rs` (`LUDEME_FULL_SUITES=1`, CI). What the fuzzer adds is the shapes and their
//! combinations near and past the limits: [`ludeme_analysis::rules::MAX_NESTING_DEPTH`] (256,
//! also the engine's term depth), the smaller depths of single passes (the English, the ludeme
//! trees, EGGG's lowering), the formatters' tree depth. The target runs its stages on a thread
//! with [`STAGE_STACK`] bytes of stack, so that a pass recursing along the nesting without a
//! bound, with frames of 32 bytes or more, overflows within [`MAX_DEPTH`] levels, as one with
//! frames of 42 bytes or more overflowed the fuzzer's 8 MiB main thread within 200,000 levels
//! (the old largest depth): a frame holds a return address, saved registers and locals.

use arbitrary::Arbitrary;
use ludeme_analysis::Syntax;

/// The deepest nesting generated: 128 times [`ludeme_analysis::rules::MAX_NESTING_DEPTH`].
pub const MAX_DEPTH: usize = 32_768;
/// The most facts (or statements, or ludemes) generated: the passes over them do the same for
/// each, past the few that are listed one by one (the English lists 64). Cost that grows
/// faster than their number is for tests at large sizes to catch, not for the fuzzer's
/// timeout.
pub const MAX_FACTS: usize = 4_096;
/// The stack of the thread the stages of the `deep` target run on: half of a worker thread's
/// 2 MiB (the language server's and the command line's), the stack every analysis of a text
/// nested [`ludeme_analysis::rules::MAX_NESTING_DEPTH`] levels deep must fit in (as the
/// analysis crate's own tests check).
pub const STAGE_STACK: usize = 1 << 20;

/// The scales of [`size`] for depths and bracket runs: small, around the limit of 256, a few
/// times past it, and [`MAX_DEPTH`].
const DEPTH_SCALES: [usize; 4] = [16, 512, 4_096, MAX_DEPTH];
/// The scales of [`size`] for fact counts.
const FACT_SCALES: [usize; 4] = [16, 128, 1_024, MAX_FACTS];

/// Runs `stages` on a thread with [`STAGE_STACK`] bytes of stack, and a panic there again
/// here. (libfuzzer-sys's panic hook aborts on a panic in any thread; a stack overflow aborts
/// the process.)
pub fn on_the_stage_stack(stages: impl FnOnce() + Send) {
    std::thread::scope(|scope| {
        let stages = std::thread::Builder::new()
            .stack_size(STAGE_STACK)
            .spawn_scoped(scope, stages)
            .expect("a thread for the stages");
        if let Err(panic) = stages.join() {
            std::panic::resume_unwind(panic);
        }
    });
}

/// Which syntax.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Language {
    Egg,
    Ludi,
    Kif,
    Infix,
}

impl Language {
    pub fn syntax(self) -> Syntax {
        match self {
            Language::Egg => Syntax::Egg,
            Language::Ludi => Syntax::Ludi,
            Language::Kif => Syntax::GdlKif,
            Language::Infix => Syntax::GdlInfix,
        }
    }
}

/// What nests.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Shape {
    /// Function terms in a fact: `(init (f (f ... a)))`, `x is f(f(...))`.
    Terms,
    /// Negations in a rule body: `(not (not ...))`, `~~~~q`.
    Negations,
    /// Disjunctions: `(or (r) (or (r) ...))`, `(r | (r | ...))`.
    Disjunctions,
    /// Bare brackets: `((((`, Ludi `(and (in-a-row 3) ...)`.
    Groups,
    /// Terms in a rule head, with a variable at the bottom.
    Heads,
    /// Ludemes in Ludi's `end`, EGGG's `means` phrases in brackets, GDL's `distinct`.
    Conditions,
    /// Brackets of every kind, one after another: `([{([{`.
    Mixed,
}

/// How the nesting ends.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Closing {
    /// As many closers as openers.
    Balanced,
    /// No closer at all.
    Unclosed,
    /// Half of them.
    Half,
    /// Twice as many.
    Extra,
}

/// What goes between the openers.
#[derive(Arbitrary, Clone, Copy, Debug)]
pub enum Spacing {
    Tight,
    Spaces,
    Newlines,
    Comments,
}

#[derive(Arbitrary, Clone, Debug)]
pub enum Deep {
    /// One form nested `depth` levels deep.
    Nested {
        language: Language,
        shape: Shape,
        depth: u32,
        closing: Closing,
        spacing: Spacing,
    },
    /// `count` facts (statements in EGGG, ludemes in Ludi), each `width` arguments wide,
    /// optionally with rules that read them.
    Facts {
        language: Language,
        count: u32,
        width: u8,
        rules: bool,
    },
    /// Nothing but `count` closers or openers of one kind.
    Brackets {
        language: Language,
        count: u32,
        opener: bool,
        kind: u8,
    },
}

/// A size from an arbitrary number: its two high bits choose one of `scales`, the rest a size
/// up to it, so that most inputs stay small and fast while every size up to the largest scale
/// can be reached.
fn size(value: u32, scales: [usize; 4]) -> usize {
    let scale = scales[(value >> 30) as usize];
    (value & 0x3FFF_FFFF) as usize % (scale + 1)
}

impl Deep {
    pub fn language(&self) -> Language {
        match self {
            Deep::Nested { language, .. }
            | Deep::Facts { language, .. }
            | Deep::Brackets { language, .. } => *language,
        }
    }

    pub fn text(&self) -> String {
        match *self {
            Deep::Nested {
                language,
                shape,
                depth,
                closing,
                spacing,
            } => nested(language, shape, size(depth, DEPTH_SCALES), closing, spacing),
            Deep::Facts {
                language,
                count,
                width,
                rules,
            } => facts(
                language,
                size(count, FACT_SCALES),
                usize::from(width % 8),
                rules,
            ),
            Deep::Brackets {
                language: _,
                count,
                opener,
                kind,
            } => {
                let brackets = if opener { "([{" } else { ")]}" };
                let bracket = &brackets[usize::from(kind % 3)..][..1];
                bracket.repeat(size(count, DEPTH_SCALES))
            }
        }
    }
}

/// The opener and closer of one level, and the text around the whole chain.
struct Chain {
    before: &'static str,
    open: &'static str,
    inner: &'static str,
    close: &'static str,
    after: &'static str,
}

fn chain(language: Language, shape: Shape) -> Chain {
    use Language::*;
    use Shape::*;
    let c = |before, open, inner, close, after| Chain {
        before,
        open,
        inner,
        close,
        after,
    };
    const LUDI_GAME: &str =
        "(game T (players White Black) (board (tiling square) (size 3 3)) (end (All win ";
    match (language, shape) {
        (Kif, Terms) => c("(role x)\n(init ", "(f ", "a", ")", ")\n(role y)\n"),
        (Kif, Negations) => c("(role x)\n(<= p ", "(not ", "q", ")", ")\n"),
        (Kif, Disjunctions) => c("(<= p ", "(or (r) ", "q", ")", ")\n"),
        (Kif, Groups) => c("", "(", "", ")", "\n"),
        (Kif, Heads) => c("(<= (p ", "(f ", "?x", ")", ") (q ?x))\n"),
        (Kif, Conditions) => c("(<= p (distinct ", "(f ", "a", ")", " b))\n"),
        (Infix, Terms) => c("role(x)\ninit(", "f(", "a", ")", ")\nrole(y)\n"),
        (Infix, Negations) => c("role(x)\np :- ", "~", "q", "", "\n"),
        (Infix, Disjunctions) => c("p :- ", "(r | ", "q", ")", "\n"),
        (Infix, Groups) => c("p :- ", "(", "q", ")", "\n"),
        (Infix, Heads) => c("p(", "f(", "X", ")", ") :- q(X)\n"),
        (Infix, Conditions) => c("p :- distinct(", "f(", "a", ")", ", b)\n"),
        (Ludi, Terms) => c("(game X ", "(a ", "b", ")", ")\n"),
        (Ludi, Negations) => c(LUDI_GAME, "(not ", "(in-a-row 3)", ")", ")))\n"),
        (Ludi, Disjunctions | Conditions) => c(
            LUDI_GAME,
            "(and (in-a-row 3) ",
            "(in-a-row 3)",
            ")",
            ")))\n",
        ),
        (Ludi, Groups | Heads) => c("", "(", "", ")", "\n"),
        (Egg, Terms | Heads) => c("2 players\nx is ", "f(", "a", ")", "\n"),
        (Egg, Negations) => c("2 players\ngoal is ", "not (", "win", ")", "\n"),
        (Egg, Disjunctions | Conditions) => c("Win means ", "(a or ", "b", ")", "\n3 x 3 grid\n"),
        (Egg, Groups) => c("2 players\nx is ", "(", "a", ")", "\n"),
        (_, Mixed) => c("", "([{", "a", "}])", "\n"),
    }
}

fn nested(
    language: Language,
    shape: Shape,
    depth: usize,
    closing: Closing,
    spacing: Spacing,
) -> String {
    let chain = chain(language, shape);
    let separator = match (spacing, language) {
        (Spacing::Tight, _) => "",
        (Spacing::Spaces, _) => " ",
        (Spacing::Newlines, _) => "\n",
        (Spacing::Comments, Language::Kif | Language::Ludi) => " ; c\n",
        (Spacing::Comments, Language::Infix) => " % c\n",
        (Spacing::Comments, Language::Egg) => " # c\n",
    };
    let closers = match closing {
        Closing::Balanced => depth,
        Closing::Unclosed => 0,
        Closing::Half => depth / 2,
        Closing::Extra => depth * 2,
    };
    let mut text = String::with_capacity(
        chain.before.len()
            + depth * (chain.open.len() + separator.len())
            + closers * chain.close.len()
            + chain.after.len()
            + chain.inner.len(),
    );
    text.push_str(chain.before);
    for _ in 0..depth {
        text.push_str(chain.open);
        text.push_str(separator);
    }
    text.push_str(chain.inner);
    for _ in 0..closers {
        text.push_str(chain.close);
    }
    if matches!(closing, Closing::Balanced | Closing::Extra) {
        text.push_str(chain.after);
    }
    text
}

fn facts(language: Language, count: usize, width: usize, rules: bool) -> String {
    let mut text = String::with_capacity(count * (12 + 4 * width));
    let arguments =
        |i: usize| -> Vec<String> { (0..width).map(|k| format!("c{}", (i + k) % 97)).collect() };
    match language {
        Language::Kif => {
            text.push_str("(role x)\n(role y)\n");
            for i in 0..count {
                text.push_str(&format!("(fact{} {i} {})\n", i % 7, arguments(i).join(" ")));
            }
            if rules {
                text.push_str("(<= (legal ?r (pick ?n)) (role ?r) (fact0 ?n))\n");
                text.push_str("(<= (next (picked ?n)) (does ?r (pick ?n)))\n");
                text.push_str("(<= terminal (true (picked ?n)))\n(<= (goal ?r 50) (role ?r))\n");
            }
        }
        Language::Infix => {
            text.push_str("role(x)\nrole(y)\n");
            for i in 0..count {
                let mut all = vec![i.to_string()];
                all.extend(arguments(i));
                text.push_str(&format!("fact{}({})\n", i % 7, all.join(", ")));
            }
            if rules {
                text.push_str("legal(R, pick(N)) :- role(R) & fact0(N)\n");
                text.push_str("next(picked(N)) :- does(R, pick(N))\n");
                text.push_str("terminal :- true(picked(N))\ngoal(R, 50) :- role(R)\n");
            }
        }
        Language::Ludi => {
            text.push_str("(game Many (players White Black) (board (tiling square) (size 3 3))\n");
            for i in 0..count {
                text.push_str(&format!("  (a{} {i} {})\n", i % 7, arguments(i).join(" ")));
            }
            if rules {
                text.push_str("  (end (All win (in-a-row 3)))\n");
            }
            text.push_str(")\n");
        }
        Language::Egg => {
            text.push_str("2 players\n3 x 3 grid\n");
            for i in 0..count {
                text.push_str(&format!("x{i} is {}\n", arguments(i).join(" and ")));
            }
            if rules {
                text.push_str("move is place\ngoal is x0\n");
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use ludeme_analysis::parse_text;

    /// Balanced shallow chains in the GDL and Ludi syntaxes parse without errors: the shapes
    /// are the syntax they claim to be, so the deep ones test depth rather than syntax errors.
    #[test]
    fn balanced_shallow_chains_parse() {
        let shapes = [
            Shape::Terms,
            Shape::Negations,
            Shape::Disjunctions,
            Shape::Groups,
            Shape::Heads,
            Shape::Conditions,
        ];
        for language in [Language::Kif, Language::Infix, Language::Ludi] {
            for shape in shapes {
                for spacing in [Spacing::Tight, Spacing::Spaces, Spacing::Newlines] {
                    let text = nested(language, shape, 5, Closing::Balanced, spacing);
                    let parse = parse_text(language.syntax(), &text, None);
                    assert!(!parse.root().has_error(), "{language:?} {shape:?}: {text}");
                }
            }
        }
    }

    #[test]
    fn sizes_stay_in_range() {
        for value in [0, 1, 16, 17, u32::MAX >> 2, 1 << 30, 3 << 30, u32::MAX] {
            assert!(size(value, DEPTH_SCALES) <= MAX_DEPTH);
            assert!(size(value, FACT_SCALES) <= MAX_FACTS);
        }
        assert_eq!(size(5, DEPTH_SCALES), 5);
        assert_eq!(size(17, DEPTH_SCALES), 0);
    }

    /// The depths that matter are reachable: the limit, one past it (the first `too-deep`
    /// diagnostic) and the deepest.
    #[test]
    fn depths_reach_the_limit_and_past_it() {
        use ludeme_analysis::rules::MAX_NESTING_DEPTH;
        for depth in [MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 1, MAX_DEPTH] {
            let reached = (0..4u32).any(|scale| {
                let value = (scale << 30) | depth as u32;
                size(value, DEPTH_SCALES) == depth
            });
            assert!(reached, "{depth}");
        }
    }
}

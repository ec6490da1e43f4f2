/**
 * @file Stanford GDL in the infix form of the Stanford Gamemaster / Epilog (`.hrf`, and `.gdl` files
 *       whose first form is not `(`)
 * @license MIT OR Apache-2.0
 *
 * What this grammar covers
 * ------------------------
 *     % tic-tac-toe
 *     role(x)
 *     init(cell(1,1,b))
 *     legal(P,mark(M,N)) :- true(cell(M,N,b)) & true(control(P))
 *     terminal :- ~open
 *     goal(x,100) :- line(x) & ~line(o).
 *
 * Nodes (the contract with the analysis crate):
 *   source_file   rules and facts, in order
 *   rule          `head :- body` (a rule may span lines); fields `head` (a sentence) and `body` (one
 *                 formula: a literal, a `conjunction` or a `disjunction`); an optional trailing `.`
 *   fact          a top-level sentence that is not a rule; field `sentence`; optional trailing `.`
 *   atom          a sentence (a relation applied to terms), used in SENTENCE positions only (heads, facts,
 *                 body literals): field `name` (a `constant`, or a `number`) and, unless it is
 *                 zero-arity (`terminal`, `open`), field `arguments` (an `arguments` node). So `terminal`
 *                 as a sentence is `(atom name: (constant))`. A bare variable in a sentence position is
 *                 just `variable`; a capitalised name WITH arguments (`Legal(P)`) is an atom whose `name`
 *                 is a `variable`, left for the checker to report.
 *   compound      a function term inside arguments (`mark(M,N)` in `does(P,mark(M,N))`): fields `name`
 *                 (`constant`, `number`, or `variable` as for atoms) and `arguments`. A bare symbol inside
 *                 arguments is a `constant`.
 *   arguments     `(` terms separated by `,` `)`; `f()` has empty arguments.
 *   negation      `~` literal (`~line(o)`, `~open`, `~(a | b)`)
 *   conjunction   two or more literals joined by `&` (each `&` has the field `operator`)
 *   disjunction   two or more disjuncts (literals or conjunctions) joined by `|` (field `operator`);
 *                 `&` binds tighter
 *   group         a parenthesised formula in a body: `(a | b)`
 *   variable      an identifier starting with an uppercase letter or `_` (`P`, `_`, `_x`)
 *   constant      an identifier starting with a lowercase letter or a digit that is not all digits
 *   number        a run of decimal digits
 *   comment       `%` to the end of the line
 *
 * Identifiers are letters, digits, `_` and `-` (the hyphen is allowed after the first character so that
 * names carried over from KIF, `game-over`, stay one symbol). Variables and negations are accepted in
 * sentence positions and `~` in heads: those are semantic errors for the checker, not syntax errors.
 *
 * Decisions:
 *   - `;` between literals is NOT accepted (it is a syntax error): in Prolog it means "or", in KIF it
 *     starts a comment, so accepting it would guess; `&` and `|` are the Epilog connectives.
 *   - Strings and Epilog lists (`[a,b]`) are not part of GDL and are syntax errors.
 *   - Every other character (`,` outside arguments, `;`, `"`, `[`, `?`, ...) is a syntax error.
 *
 * Error recovery (the external scanner, src/scanner.c)
 * ---------------------------------------------------
 * Whitespace is insignificant, so a rule with a dangling `&` or an unclosed `(` would run into the
 * next rule, and a line that lost its `&` would split a rule in two. Line starts are the signal:
 *
 *   - A line that begins (after any indentation) with `name :-` or `name(...) :-` is a rule head: that
 *     can never continue a body. The scanner lexes such a name as `_rule_head_name` (shown as
 *     `constant` inside the head `atom`), accepted only where a new item may start; inside a broken
 *     rule it is unexpected, so tree-sitter inserts one MISSING token there (a `)`, or a literal after
 *     a dangling `&`) or skips the stray `&`, and the next rule parses normally.
 *   - Nested argument lists (`compound` arguments) are closed by a zero-width `_implicit_close` before
 *     such a head or at the end of the input, so several open parentheses cost one MISSING `)`.
 *   - After a complete literal at the top level of a rule body, a line without `:-` that ends with `&`
 *     or `|`, or that is indented and followed by a line at column 0, must continue the body: the
 *     scanner puts a zero-width `_line_continues` there, which is only accepted after a connective.
 *     When the line ends with a connective, tree-sitter reports a MISSING `&` at the end of the
 *     previous line and keeps the rule whole; otherwise (the lost `&` was before the rule's last
 *     literal) it reports a zero-width ERROR at the start of the line and the literal reads as a fact.
 *     (`&` is lexed by the scanner so that it knows when a body literal has just ended.)
 *
 * `_scanner_probe`, an external token in `extras` that is never produced, makes the scanner run in
 * every state. Apart from the layout case below, these tokens cannot change the parse of valid input:
 * each is either accepted where the ordinary token would be, or only produced where the text is
 * already an error.
 *
 * Limits: a broken rule followed by lines of FACTS absorbs them up to the next rule head (a fact
 * looks exactly like a body literal). A missing `&` before the LAST literal of a rule (`p :- a`
 * newline `  b`) is reported only when that line is indented and the next line starts at column 0;
 * at the end of the file or in a file whose items are all indented, `b` silently reads as a fact.
 * Conversely, a FACT indented right after a rule and followed by a column-0 line (`p :- q` newline
 * `  r(a)` newline `s(b)`) gets the zero-width ERROR: the one layout in which valid text gets a
 * syntax error (Gamemaster files start every rule and fact at column 0).
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

/**
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} sep
 */
function sep1(rule, sep) {
  return seq(rule, repeat(seq(sep, rule)));
}

module.exports = grammar({
  name: 'hrf',

  externals: $ => [
    $._rule_head_name,
    $._implicit_close,
    $._line_continues,
    '&',
    $._scanner_probe,
  ],

  extras: $ => [
    // U+FEFF too: a byte-order mark away from the file's start (as the KIF grammar reads it).
    /[\s\uFEFF]/,
    $.comment,
    $._scanner_probe,
  ],

  rules: {
    source_file: $ => repeat(choice($.rule, $.fact)),

    rule: $ => seq(
      field('head', choice($._sentence, alias($._line_start_head, $.atom))),
      ':-',
      field('body', $._formula),
      optional('.'),
    ),

    fact: $ => seq(field('sentence', $._sentence), optional('.')),

    // What may stand as a head or a fact (groups are excluded: `p (a)` must stay `p(a)`).
    _sentence: $ => choice($.atom, $.negation, $.variable),

    _formula: $ => choice($.disjunction, $.conjunction, $._literal),

    disjunction: $ => seq(
      $._disjunct,
      repeat1(seq(field('operator', '|'), $._continued_disjunct)),
    ),

    _disjunct: $ => choice($.conjunction, $._literal),

    conjunction: $ => seq($._literal, repeat1(seq($._and, $._continued_literal))),

    _continued_disjunct: $ => choice(
      alias($._continued_conjunction, $.conjunction),
      $._continued_literal,
    ),

    _continued_conjunction: $ => seq(
      $._continued_literal,
      repeat1(seq($._and, $._continued_literal)),
    ),

    // `&` as a rule of its own (the field keeps tree-sitter from folding the rule away): after a
    // MISSING `&`, the lookahead `_line_continues` then triggers a reduction, which is what tree-sitter
    // requires before it inserts a missing token.
    _and: _ => field('operator', '&'),

    // A literal after a connective; the scanner's zero-width `_line_continues` may precede it (see
    // the header: it is how a missing `&` at the end of a line is reported).
    _continued_literal: $ => seq(optional($._line_continues), $._literal),

    _literal: $ => choice($.atom, $.negation, $.variable, $.group),

    negation: $ => seq('~', $._literal),

    group: $ => seq('(', $._formula, ')'),

    atom: $ => choice(
      seq(field('name', $._name), optional(field('arguments', $.arguments))),
      // `Legal(P)`: a capitalised name reads as a variable; parsed so the checker can report it.
      seq(field('name', $.variable), field('arguments', $.arguments)),
    ),

    // The head of a rule that begins a line (see the header).
    _line_start_head: $ => seq(
      field('name', alias($._rule_head_name, $.constant)),
      optional(field('arguments', $.arguments)),
    ),

    arguments: $ => seq('(', optional(sep1($._term, ',')), ')'),

    compound: $ => seq(
      field('name', choice($._name, $.variable)),
      field('arguments', alias($._nested_arguments, $.arguments)),
    ),

    _nested_arguments: $ => seq(
      '(',
      optional(sep1($._term, ',')),
      choice(')', $._implicit_close),
    ),

    _term: $ => choice($.compound, $.constant, $.variable, $.number),

    _name: $ => choice($.constant, $.number),

    // Not all digits: `1st` is a constant, `10` a number.
    constant: _ => /([a-z]|[0-9]+[a-zA-Z_-])[a-zA-Z0-9_-]*/,

    variable: _ => /[A-Z_][a-zA-Z0-9_-]*/,

    number: _ => /[0-9]+/,

    comment: _ => token(seq('%', /[^\r\n]*/)),
  },
});

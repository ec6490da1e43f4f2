/**
 * @file Tree-sitter grammar for EGGG, the Extensible Graphical Game Generator's game
 *       description language (J. Orwant, IBM Systems Journal 39(3&4), 2000).
 * @license MIT OR Apache-2.0
 *
 * What this grammar covers
 * ------------------------
 * An EGGG file (`.egg`) is a series of statements in any order. A statement is one line, and it
 * continues on the following lines as long as they are indented. `#` starts a comment anywhere.
 * The language is deliberately close to English (`turns alternate clockwise`, `2..6 players`,
 * `Fold means player loses`), so the grammar is permissive: any sequence of words and values on a
 * line parses as *some* statement. Structure is added where the paper gives it a meaning:
 *
 *   like_statement    `SideTetris is like Tetris`           fields: name, base
 *   assert_statement  `assert VoteYes: lastmove("x")`       fields: name, condition
 *   code_statement    `Tester(1) is Tot++ if grid[x][y]; ...`  fields: name, verb, code
 *   definition        `NAME is|are|means VALUE`             fields: name, verb, value
 *   statement         anything else: a flat sequence of terms
 *
 * Values are single terms (word, number, string, range `2..6`, dimensions `5 × 5`, list `[a, b]`,
 * tuple `(R-1, S)`, group `(bet(money) or Fold)`, call `Deal(cards, 5-N)`, binary_expression) or
 * a `phrase` (two or more terms, e.g. `player removes 0..3 cards or 4 cards if Ace`). The
 * connectives `and`, `or`, `if`, `not` are keyword tokens inside phrases and statements; they are
 * not combined into a boolean tree, because EGGG gives no precedence for them and real
 * descriptions mix them with plain words (`player(Paper) and opponent(Rock)`).
 *
 * The tricky parts, and why they are shaped so
 * --------------------------------------------
 * 1. Lines. Newlines are significant, so they are NOT in `extras` as plain whitespace. The
 *    external scanner (src/scanner.c) owns every newline. At a newline it looks at the next line:
 *      - next line blank, at column 0, or end of file  -> the terminator token `"\n"` (the newline
 *        character itself; an anonymous node between the items of `source_file`);
 *      - next line indented and not blank              -> `_continuation` (newline + indentation),
 *        which is an `extra`, so a statement simply flows onto the next line.
 *    Decision: a blank line ends a statement, and so does a comment line at column 0 (an indented
 *    comment line is part of the statement it sits in). `_continuation` being an extra makes the
 *    scanner run in every parse state, so the terminator is produced even inside an unclosed
 *    `[` or `(`: the broken line gets a MISSING `]` or a small ERROR and the next line parses
 *    normally. The terminator is a *visible* (anonymous) token on purpose: tree-sitter's error
 *    recovery charges for every visible token it skips, so with a hidden terminator it would
 *    rather swallow the newline (and merge two statements) than insert a MISSING token.
 *    `source_file` accepts bare terminators (blank lines) and a last statement without one.
 *
 * 2. Keywords. `word` is the keyword-extraction token, so `is`, `are`, `means`, `like`, `assert`,
 *    `x`, `and` ... are keywords only where the grammar can use them; elsewhere the lexer returns
 *    them as ordinary words (`the board is hexagon` is a plain statement because `is` cannot
 *    follow `the board`). Keywords match case-insensitively (EGGG ignores case where possible).
 *    `x` and `like` may also be words where the keyword would fit (`2 x wins`, `players are X
 *    and O`, `X is like a fox`): three small GLR conflicts, with `prec.dynamic` preferring
 *    like_statement. `assert` at the start of a line always begins an assert_statement, so
 *    `assert VoteYes lastmove(...)` (no colon) is reported rather than read as prose.
 *
 * 3. Dimensions. `x` in `5 x 5` is the dimensions operator only right after a number. `5x5`
 *    written without spaces would lex as the number 5 and the word `x5`, so the scanner produces
 *    the `x` itself (`_compact_times`) when an `x` glued to a number is followed by a digit.
 *    `×` (U+00D7) works with or without spaces. A third size is allowed: `2 × 3 × 4`.
 *
 * 4. Strings are one line at most and made of three tokens, so an unterminated string gets a
 *    MISSING `"` at the end of its line.
 *
 * 5. Hyphens. A hyphen followed by a letter continues a word (`Random-Chess`, `tic-tac-toe`);
 *    a hyphen before a digit or after a number is subtraction (`R-1`, `5-N`). Subtracting one
 *    name from another needs spaces: `R - N`.
 *
 * 6. A `(` right after a word (with or without space) makes a call: `Deal(cards, 5)`.
 *
 * 7. Code escapes. The paper lets designers "burrow down into its implementation language: Perl"
 *    (`Tester(1) is Tot++ if grid[x][y]; return Tot > 12`). Such statements are kept as opaque
 *    text. Recognition is done by the external scanner: when the parser sits right after
 *    `NAME is` or `NAME means` it scans ahead over the rest of the logical statement (including
 *    continuation lines, excluding trailing `# comments`, skipping "string" contents) and produces
 *    one `code` token for all of it if it contains text that ordinary EGGG never uses:
 *      ;  $  @  {  }  =  <  >  &&  ||  ::  `%name`,  `++`/`--` touching a name (`Tot++`,
 *      `--n`; a spaced ` -- ` dash in prose does not count), or `[` right after a name, `)` or
 *      `]` (indexing such as `grid[x]`).
 *    Otherwise the scanner declines and the normal grammar applies, so `StraightFlush is (R, S)
 *    and (R-1, S) ...` and `Fold means player loses` stay definitions. The code token is never
 *    interpreted; a `# ...` inside it is part of the code (it is a Perl comment too).
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// A keyword that matches case-insensitively but shows up as the lowercase anonymous node.
const kw = (w) =>
  alias(
    new RegExp(
      w
        .split('')
        .map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c))
        .join(''),
    ),
    w,
  );

const IS = kw('is');
const ARE = kw('are');
const MEANS = kw('means');
const LIKE = kw('like');
const ASSERT = kw('assert');
const AND = kw('and');
const OR = kw('or');
const IF = kw('if');
const NOT = kw('not');
const X = kw('x');

const PREC = {
  range: 1,
  additive: 2,
  multiplicative: 3,
  call: 4,
};

const commaSep1 = (rule) => seq(rule, repeat(seq(',', rule)), optional(','));

module.exports = grammar({
  name: 'egg',

  word: ($) => $.word,

  externals: ($) => [
    '\n', // the statement terminator (see 1. above)
    $._continuation,
    $.code,
    $._compact_times,
    $._error_sentinel, // never used in the grammar: tells the scanner it is in error recovery
  ],

  // GLR conflicts, all about keywords that may also be plain words (see _primary):
  conflicts: ($) => [
    [$._primary, $.dimensions],
    [$.dimensions],
    [$.like_statement, $._any_word],
  ],

  extras: ($) => [$.comment, /[ \t\r\f\v\uFEFF]/, $._continuation],

  rules: {
    source_file: ($) =>
      seq(
        repeat(choice(seq($._item, '\n'), '\n')),
        optional($._item),
      ),

    _item: ($) =>
      choice(
        $.like_statement,
        $.assert_statement,
        $.code_statement,
        $.definition,
        $.statement,
      ),

    // SideTetris is like Tetris
    // (`X is like a fox` is a definition; the dynamic precedence picks like_statement when both fit)
    like_statement: ($) =>
      prec.dynamic(
        1,
        seq(field('name', $._name), IS, LIKE, field('base', $._any_word)),
      ),

    // assert VoteYes: lastmove("Understand")
    assert_statement: ($) =>
      seq(ASSERT, field('name', $._any_word), ':', field('condition', $._value)),

    // Tester(1) is Tot++ if grid[x][y]; return Tot > 12
    code_statement: ($) =>
      seq(
        field('name', $._name),
        field('verb', choice(IS, MEANS)),
        field('code', $.code),
      ),

    // game is poker / Fold means player loses / players are 0..20
    definition: ($) =>
      seq(
        field('name', $._name),
        field('verb', choice(IS, ARE, MEANS)),
        field('value', $._value),
      ),

    // turns alternate clockwise / 2..6 players / 5 × 5 grid
    statement: ($) => repeat1($._term),

    _name: ($) => choice($._any_word, $.call),

    // A word, or one of the keywords that can stand for a word (a lone `X` is the keyword `x`).
    _any_word: ($) =>
      choice(
        $.word,
        alias(X, $.word),
        alias(LIKE, $.word),
      ),

    _value: ($) => choice($._term, $.phrase),

    // two or more terms: `player removes 0..3 cards or 4 cards if Ace`
    phrase: ($) => seq($._term, repeat1($._term)),

    _term: ($) => choice($._expression, AND, OR, IF, NOT),

    _expression: ($) =>
      choice($._primary, $.binary_expression, $.range, $.dimensions),

    _primary: ($) =>
      choice(
        // Keywords are also ordinary words where their construct does not fit:
        // `2 x wins`, `X is like a fox`. (`assert` is not: a line that starts with it is an
        // assert_statement, so a missing `:` is reported.)
        $._any_word,
        $.number,
        $.string,
        $.list,
        $.tuple,
        $.group,
        $.call,
      ),

    _arithmetic: ($) => choice($._primary, $.binary_expression),

    binary_expression: ($) =>
      choice(
        ...[
          ['+', PREC.additive],
          ['-', PREC.additive],
          ['*', PREC.multiplicative],
          ['/', PREC.multiplicative],
        ].map(([op, p]) =>
          prec.left(
            /** @type {number} */ (p),
            seq(
              field('left', $._arithmetic),
              field('operator', /** @type {string} */ (op)),
              field('right', $._arithmetic),
            ),
          ),
        ),
      ),

    // 2..6, 0..3, 1..N-1
    range: ($) =>
      prec.left(
        PREC.range,
        seq(field('start', $._arithmetic), '..', field('end', $._arithmetic)),
      ),

    // 5 × 5, 3 x 1, 5x5, 2 × 3 × 4
    dimensions: ($) =>
      choice(
        seq(
          field('width', $.number),
          $._times,
          field('height', $.number),
          optional(seq($._times, field('depth', $.number))),
        ),
        seq(
          field('width', $.number),
          alias($._compact_times, 'x'),
          field('height', $.number),
        ),
      ),

    _times: (_) => choice('×', X),

    // [StraightFlush, FourKind], [[Rock, Paper, Scissors]], []
    list: ($) => seq('[', optional(commaSep1($._value)), ']'),

    // (R-1, S) — at least one comma
    tuple: ($) =>
      seq('(', $._value, ',', optional(commaSep1($._value)), ')'),

    // (bet(money) or Fold)
    group: ($) => seq('(', $._value, ')'),

    // Deal(cards, 5-N), bet(money), lastmove("Understand")
    call: ($) =>
      prec(
        PREC.call,
        seq(field('function', $._any_word), field('arguments', $.arguments)),
      ),

    arguments: ($) => seq('(', optional(commaSep1($._value)), ')'),

    word: (_) =>
      /[\p{L}_][\p{L}\p{N}_']*(-[\p{L}_][\p{L}\p{N}_']*)*/,

    number: (_) => /\d+(\.\d+)?/,

    // "Understand" — one line at most (see 4. above).
    string: ($) =>
      seq('"', optional($._string_content), token.immediate('"')),

    _string_content: (_) =>
      token.immediate(prec(1, /([^"\\\r\n]|\\[^\r\n])+/)),

    comment: (_) => token(seq('#', /[^\r\n]*/)),
  },
});

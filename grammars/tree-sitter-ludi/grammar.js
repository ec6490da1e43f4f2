/**
 * @file Tree-sitter grammar for the Ludi game description language
 * @license MIT OR Apache-2.0
 *
 * Ludi GDL (Browne & Maire, "Evolutionary Game Design", IEEE TCIAIG 2(1), 2010,
 * Appendix I) describes a game as a tree of elements
 *
 *     (element [attributes] [(element ...)s])
 *
 * e.g. `(game Tic-Tac-Toe (players White Black) (board ...) (end ...))`.
 * The language has ~200 keywords, but which keyword may appear where is a
 * question for the schema in the analysis crate, not for this grammar: here
 * every element is a generic `list` whose first item, when it is a name or an
 * operator, is exposed as the field `head`. Keeping the grammar generic means
 * that an unknown or misplaced keyword is still a well-formed tree, which the
 * checker reports with a precise diagnostic instead of a syntax error.
 *
 * Tricky parts and why they are shaped so:
 *
 * - `head`. The first item of a list is the `head` field only when it is a
 *   `symbol` or an `operator`. `()` and lists whose first item is a number, a
 *   cell, a string or another list also parse (with no `head` field) so the
 *   checker can report them. The two alternatives are split in the grammar
 *   (head-then-forms | non-head-form-then-forms) so there is no LR conflict.
 *
 * - `cell` vs `symbol`. A cell name is a whole token of upper-case letters
 *   followed by digits (`A1`, `D4`, `AB12`). Such a token is always a `cell`,
 *   never a `symbol`; anything longer (`A1b`, `A1-x`, `P1x`) is a `symbol`,
 *   and lower-case `a1` is a `symbol`. Both tokens are valid wherever a form
 *   is, so the choice is purely lexical: the longest match wins, and on a tie
 *   `cell` wins because its rule comes before `symbol`'s. (Do not give `cell`
 *   a higher `prec`: the lexer would then stop after `A1` in `A1b`.)
 *
 * - Signs. `-3` is one `integer`; a `-` followed by white space, a parenthesis
 *   or a name is the `operator`. Names never start with a sign or a digit.
 *
 * - `string`. A string is `"..."` on one line, with backslash escapes (`\"`,
 *   `\\`, `\n`, and a backslash before a line break to continue on the next
 *   line). A raw line break is not allowed inside, so an unterminated string
 *   costs one ERROR up to the end of its line instead of swallowing the rest
 *   of the file.
 *
 * - `float`. The paper only shows integers, but the `support` ludeme (advisor
 *   weights, estimated scores) naturally carries decimals, so `0.75`/`-1.5`
 *   are accepted as `float` rather than rejected as syntax errors.
 *
 * - Recovery. Every item is a plain `list` or atom, so tree-sitter can
 *   resynchronise at any parenthesis: a stray `)` becomes a small ERROR and
 *   the following forms are parsed normally (a stray `)` inside a game closes
 *   the game early, so the game's later clauses become top-level forms and
 *   the game's own last `)` is the ERROR). A missing `)` becomes one MISSING
 *   `)` where the enclosing list cannot be continued, in practice at the end
 *   of the file: the later forms are then children of the unclosed list.
 *   Where the `)` was really forgotten cannot be known from the parentheses
 *   alone; a checker can point at it with indentation. Characters that are
 *   not Ludi (`#`, `@`, `%`) are single small ERRORs. There is no external
 *   scanner.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

module.exports = grammar({
  name: 'ludi',

  extras: $ => [/\s/, $.comment],

  rules: {
    source_file: $ => repeat($._form),

    _form: $ => choice(
      $.list,
      $._atom,
    ),

    _atom: $ => choice(
      $.symbol,
      $.operator,
      $._non_head_atom,
    ),

    _non_head_atom: $ => choice(
      $.integer,
      $.float,
      $.cell,
      $.string,
    ),

    list: $ => seq(
      '(',
      optional(choice(
        seq(field('head', choice($.symbol, $.operator)), repeat($._form)),
        seq(choice($.list, $._non_head_atom), repeat($._form)),
      )),
      ')',
    ),

    // Cell names: upper-case column letters then a row number. Keep this rule
    // before `symbol`: on a tie (`A1`) the earlier rule wins.
    cell: _ => /[A-Z]+[0-9]+/,

    // Names: keywords (`in-a-row`, `i-nbors`, `mover-wins`), game names
    // (`Tic-Tac-Toe`), player and piece names (`White`, `Stone`, `All`).
    symbol: _ => /[\p{L}_][\p{L}\p{N}_\-]*/,

    operator: _ => token(choice('>=', '<=', '!=', '>', '<', '=', '+', '-', '*', '/')),

    integer: _ => token(seq(optional('-'), /[0-9]+/)),

    float: _ => token(seq(optional('-'), /[0-9]+\.[0-9]+/)),

    string: _ => token(seq(
      '"',
      repeat(choice(/[^"\\\r\n]/, /\\(.|\r?\n)/)),
      '"',
    )),

    comment: _ => token(seq(';', /[^\r\n]*/)),
  },
});

/**
 * @file Stanford GDL in prefix KIF syntax (`.kif`, and `.gdl` files whose first form is `(`)
 * @license MIT OR Apache-2.0
 *
 * What this grammar covers
 * ------------------------
 * A GDL game is a sequence of s-expressions:
 *
 *     ; tic-tac-toe
 *     (role xplayer)
 *     (init (cell 1 1 b))
 *     (<= (legal ?p (mark ?m ?n)) (true (cell ?m ?n b)) (true (control ?p)))
 *
 * Nodes (the contract with the analysis crate):
 *   source_file  the top-level forms, in order
 *   rule         `(<= head body...)`: field `head` (optional, the first form after `<=`) and the
 *                repeated field `body` (every further form). `(<=)` and `(<= p)` are rules too.
 *   list         any other parenthesised form. Field `head` names its first element when that is a
 *                `constant` or a `number` (the checker treats numbers as constants); a list whose first
 *                element is a variable or another form has no `head`. `()` is an empty list.
 *   constant     a symbol: `role`, `true`, `not`, `distinct`, `or`, `map+`, `++`, `<`, `index++` ...
 *                Keywords are ordinary constants; putting them in odd places is a semantic error for
 *                the checker, never a syntax error.
 *   variable     `?` followed by symbol characters (`?x`, `?n++`); a bare `?` is a variable too.
 *   number       a run of decimal digits (`0`, `100`); `1st` or `-1` are constants.
 *   comment      `;` to the end of the line.
 *
 * Symbols
 * -------
 * Real games use far more than letters and digits (`map+`, `++`, `index++`, `?x++`, `<`, `>`,
 * `speed+`...), and GDL tools split symbols only at whitespace and parentheses, so a symbol here is any
 * run of characters other than whitespace, `(`, `)` and `;` (which starts a comment), EXCEPT the
 * characters KIF reserves for quoting and escapes, which never occur in GDL symbols:
 *
 *     "  '  `  ,  \  #  ^     and the ASCII control characters (other than whitespace)
 *
 * Such a character is a syntax error (an ERROR node around it). This also catches infix written in
 * a KIF file (`mark(1,1)` -> the commas are errors). Non-ASCII letters are allowed in symbols.
 *
 * Syntax errors are therefore only: unbalanced parentheses and the characters listed above. Anything
 * balanced parses: `()`, `(foo)`, `(<=)`, `(<= p)`, `(not (<= a b))`, `(?x a)`, `((a) b)`.
 *
 * Error recovery (the external scanner, src/scanner.c)
 * ---------------------------------------------------
 * A missing `)` would otherwise make the rest of the file one deeply nested form. In practice a `(<=`
 * that begins a line always begins a new top-level rule: in the corpus of 351 games, 14,105 of the
 * 14,365 rules begin a line (1,249 of them indented) and no nested `(<=` ever does, while 77 games put
 * nested body literals such as `(true ...)` at column 0, so only `(<=` is used as the signal. Two
 * external tokens implement it:
 *
 *   _implicit_close      zero-width, produced inside a NESTED form (one inside a top-level form) when
 *                        the next thing after whitespace and comments is a `(<=` that begins a line,
 *                        or the end of the file. It closes that form silently, at the end of its last
 *                        token; it is produced again until only the top-level form is open.
 *   _toplevel_rule_open  the `(` of a `(<=` that begins a line, shown as `(`, accepted only at the top
 *                        level. In the still-open top-level form it is unexpected, so tree-sitter
 *                        inserts ONE MISSING `)` there and the new rule parses normally.
 *
 * So each unclosed rule yields exactly one MISSING `)` (the diagnostic), the broken rule keeps its
 * structure, and the following rules are untouched. Top-level forms never close implicitly, so a
 * balanced file never contains a hidden close. The scanner is consulted in every state through
 * `_scanner_probe`, an external token in `extras` that it never produces.
 *
 * Limits: a rule nested inside another form whose `(<=` begins a line (`(foo` newline `(<= a b))`) is
 * reported as a syntax error (nested rules are meaningless in GDL anyway). An unclosed form followed
 * by lines of forms that are not rules (`(role x)`, `(init ...)`) absorbs them up to the next rule or
 * the end of the file: they cannot be told apart from body literals written at the start of a line.
 * An extra `)` is an ERROR around that `)` alone.
 *
 * Two parsers from this one file
 * ------------------------------
 * The recovery above costs about 40 % of parsing speed (the scanner is consulted at every token).
 * So this grammar is generated twice: as `gdl` (kif/src, with the scanner) and, with the
 * environment variable GDL_KIF_FAST=1, as `gdl_fast` (kif-fast/src, no scanner, no recovery
 * tokens). Both give the same tree for text without syntax errors — the scanner only ever acts
 * where a `)` is missing — and a test checks it on every game of the corpus. Batch checking parses
 * with `gdl_fast` and re-parses with `gdl` only the files that have a syntax error; the editor
 * always uses `gdl`. Regenerate both: `tree-sitter generate` in kif/, and
 * `GDL_KIF_FAST=1 tree-sitter generate -o src ../kif/grammar.js` in kif-fast/ (without `-o src`,
 * tree-sitter 0.27 writes over ../kif/src).
 */

const FAST = process.env.GDL_KIF_FAST === '1';

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

// Characters that end a symbol: whitespace, parentheses, `;`, the KIF quoting characters and the
// ASCII control characters. (Kept in one place so constant and variable agree.) U+FEFF, the
// byte-order mark, is whitespace wherever it stands: at the start of a file it is a BOM (which
// tree-sitter skips), elsewhere it is what a concatenation of files leaves, and read as a
// symbol it would name an invisible relation that moves to the file's start on formatting.
const NOT_SYMBOL = '\\s\\uFEFF();"\'`,\\\\#^\\u0000-\\u001f\\u007f';

/**
 * A parenthesised form. Top-level forms close only with `)`; nested forms may also be closed by the
 * scanner's zero-width `_implicit_close` (see the header), so that when the next line-initial `(<=`
 * or the end of the file arrives with several forms open, only the outermost one needs a MISSING `)`.
 * @param {GrammarSymbols<string>} $
 * @param {boolean} nested
 */
function forms($, nested) {
  const close = nested && !FAST ? choice(')', $._implicit_close) : ')';
  const rule_parts = optional(seq(
    field('head', $._term),
    repeat(field('body', $._term)),
  ));
  return {
    rule: seq('(', '<=', rule_parts, close),
    list: seq(
      '(',
      optional(choice(
        seq(field('head', choice($.constant, $.number)), repeat($._term)),
        seq(choice($.variable, $.list, $.rule), repeat($._term)),
      )),
      close,
    ),
    toplevel_rule: FAST ? null : seq(alias($._toplevel_rule_open, '('), '<=', rule_parts, ')'),
  };
}

module.exports = grammar({
  name: FAST ? 'gdl_fast' : 'gdl',

  externals: $ => FAST ? [] : [
    $._toplevel_rule_open,
    $._implicit_close,
    $._scanner_probe,
  ],

  extras: $ => [
    /[\s\uFEFF]/,
    $.comment,
    ...(FAST ? [] : [$._scanner_probe]),
  ],

  word: $ => $.constant,

  rules: {
    source_file: $ => repeat($._item),

    _item: $ => choice(
      $.constant,
      $.variable,
      $.number,
      alias($._top_list, $.list),
      alias($._top_rule, $.rule),
      ...(FAST ? [] : [alias($._toplevel_rule, $.rule)]),
    ),

    // Anything inside a form.
    _term: $ => choice(
      $.constant,
      $.variable,
      $.number,
      $.list,
      $.rule,
    ),

    // `(<= head body...)` anywhere a term may appear (nested rules are a semantic error, not a
    // syntax error).
    rule: $ => forms($, true).rule,

    // Any other form.
    list: $ => forms($, true).list,

    // The same two forms at the top level (no implicit close).
    _top_rule: $ => forms($, false).rule,
    _top_list: $ => forms($, false).list,

    // A rule whose `(<=` begins a line: only valid at the top level (see the header).
    ...(FAST ? {} : {_toplevel_rule: $ => forms($, false).toplevel_rule}),

    // Any symbol that is not a variable and not all digits: `1st` is a constant, `10` a number.
    constant: _ => new RegExp(`([^${NOT_SYMBOL}?0-9]|[0-9]+[^${NOT_SYMBOL}0-9])[^${NOT_SYMBOL}]*`),

    variable: _ => new RegExp(`\\?[^${NOT_SYMBOL}]*`),

    number: _ => /[0-9]+/,

    comment: _ => token(seq(';', /[^\r\n]*/)),
  },
});

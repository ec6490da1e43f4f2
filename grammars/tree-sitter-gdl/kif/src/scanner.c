/*
 * External scanner for the GDL (KIF) grammar: error recovery at rules that start a line.
 *
 *   TOPLEVEL_RULE_OPEN  the `(` of a `(<=` that starts a line (after any indentation). The grammar accepts it only at the
 *                       top level, so inside an unclosed top-level form it is unexpected and
 *                       tree-sitter recovers there (one MISSING `)`).
 *   IMPLICIT_CLOSE      zero-width; closes a NESTED form when the next thing (after whitespace and
 *                       comments) is such a `(<=` or the end of the input. Produced only where the
 *                       grammar allows it (valid_symbols), so balanced input never contains one.
 *   SCANNER_PROBE       listed in the grammar's extras so that this scanner runs in every parse state;
 *                       never produced.
 *
 * "At the start of a line" means: the whitespace skipped before the `(` contains a line break, so
 * indented rules count too. (get_column is not used: it can cost O(column) per call, which made
 * one-line files quadratic. The first line of the file never needs the recovery token, since nothing
 * can be open there.)
 *
 * The scanner is stateless (nothing to serialize). Every loop advances the lexer or stops at EOF.
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  TOPLEVEL_RULE_OPEN,
  IMPLICIT_CLOSE,
  SCANNER_PROBE,
};

void *tree_sitter_gdl_external_scanner_create(void) { return NULL; }

void tree_sitter_gdl_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_gdl_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_gdl_external_scanner_deserialize(void *payload, const char *buffer,
                                                   unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static bool is_newline(int32_t c) { return c == '\n' || c == '\r'; }

// U+FEFF (a byte-order mark away from the file's start) is whitespace, as in the grammar's extras.
static bool is_space(int32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0xFEFF;
}

/*
 * With the lexer on a `(` that starts a line: is it `(<=` + delimiter? Consumes the `(` and, when
 * `mark_paren` is set, marks the end of the token after it; looks further without consuming.
 */
static bool at_rule_open(TSLexer *lexer, bool mark_paren) {
  if (lexer->lookahead != '(') return false;
  lexer->advance(lexer, false);
  if (mark_paren) lexer->mark_end(lexer);
  if (lexer->lookahead != '<') return false;
  lexer->advance(lexer, false);
  if (lexer->lookahead != '=') return false;
  lexer->advance(lexer, false);
  if (lexer->eof(lexer)) return true;
  int32_t c = lexer->lookahead;
  return is_space(c) || c == '(' || c == ')' || c == ';';
}

bool tree_sitter_gdl_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;

  /* During error recovery every symbol is "valid"; the two tokens are never valid together otherwise
   * (one lives only at the top level, the other only inside nested forms). */
  bool error_recovery = valid_symbols[TOPLEVEL_RULE_OPEN] && valid_symbols[IMPLICIT_CLOSE];

  if (valid_symbols[IMPLICIT_CLOSE] && !error_recovery) {
    /* Zero-width token right after the previous token: look ahead without consuming. */
    lexer->mark_end(lexer);
    bool line_start = false;
    for (;;) {
      if (lexer->eof(lexer)) {
        lexer->result_symbol = IMPLICIT_CLOSE;
        return true;
      }
      if (is_space(lexer->lookahead)) {
        if (is_newline(lexer->lookahead)) line_start = true;
        lexer->advance(lexer, false);
      } else if (lexer->lookahead == ';') {
        while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) lexer->advance(lexer, false);
      } else {
        break;
      }
    }
    if (line_start && at_rule_open(lexer, false)) {
      lexer->result_symbol = IMPLICIT_CLOSE;
      return true;
    }
    return false;
  }

  /* Whitespace before the `(` is skipped (not part of the token). */
  bool line_start = false;
  while (!lexer->eof(lexer) && is_space(lexer->lookahead)) {
    if (is_newline(lexer->lookahead)) line_start = true;
    lexer->advance(lexer, true);
  }
  if (line_start && at_rule_open(lexer, true)) {
    lexer->result_symbol = TOPLEVEL_RULE_OPEN;
    return true;
  }
  return false;
}

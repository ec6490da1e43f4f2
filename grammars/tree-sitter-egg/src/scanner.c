/*
 * External scanner for the EGGG grammar (see grammar.js for the overall design).
 *
 * It owns every newline and produces three tokens:
 *
 *   _terminator    a newline after which the statement ends: the next line is blank, starts at
 *                  column 0, or the file ends there. The token is the newline character only.
 *   _continuation  a newline followed by an indented, non-blank line: the statement goes on.
 *                  The token covers the newline and the indentation; it is an `extra`.
 *   code           right after `NAME is` / `NAME means`: the rest of the logical statement, if
 *                  it contains text that ordinary EGGG never uses (Perl escapes).
 *   _compact_times the `x` of `5x5`, glued to the number before it and followed by a digit
 *                  (the internal lexer would read `x5` as a word).
 *
 * The scanner keeps no state (serialize writes nothing). Every token it returns consumes at least
 * one character, so it cannot make the parser loop; at end of file it returns false.
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  TERMINATOR,
  CONTINUATION,
  CODE,
  COMPACT_TIMES,
  ERROR_SENTINEL,
};

void *tree_sitter_egg_external_scanner_create(void) { return NULL; }

void tree_sitter_egg_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_egg_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_egg_external_scanner_deserialize(void *payload, const char *buffer,
                                                  unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static bool is_hspace(int32_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0xFEFF;
}

static bool is_word_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c > 0x7F;
}

static bool is_alpha(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/*
 * Called with the lexer just past a '\n'. Consumes the next line's indentation and tells whether
 * the current statement ends at that newline: the next line is blank, or starts at column 0, or
 * the file ends.
 */
static bool next_line_ends_statement(TSLexer *lexer) {
  bool indented = false;
  while (!lexer->eof(lexer) && is_hspace(lexer->lookahead)) {
    if (lexer->lookahead != '\r') indented = true;
    lexer->advance(lexer, false);
  }
  if (lexer->eof(lexer) || lexer->lookahead == '\n') return true;
  return !indented;
}

/*
 * Positioned on the first non-blank character after `is` / `means`. Reads the rest of the
 * logical statement (continuation lines included) and produces one `code` token for it if it
 * contains a code marker. Markers in "strings" and in `# comments` do not count; a comment at the
 * end of the statement is left out of the token (it becomes an ordinary comment node).
 */
static bool scan_code(TSLexer *lexer) {
  bool is_code = false;
  bool in_string = false;
  bool in_comment = false;
  bool has_content = false;
  bool pending_incdec = false; /* saw `++`/`--` not after a word: code if a name follows */
  int32_t prev2 = ' ';
  int32_t prev = ' ';

  for (;;) {
    if (lexer->eof(lexer)) break;
    int32_t c = lexer->lookahead;

    if (c == '\n') {
      lexer->advance(lexer, false);
      if (next_line_ends_statement(lexer)) break;
      in_comment = false;
      in_string = false;
      pending_incdec = false;
      prev2 = ' ';
      prev = ' ';
      continue;
    }
    if (is_hspace(c)) {
      lexer->advance(lexer, false);
      pending_incdec = false;
      prev2 = prev;
      prev = ' ';
      continue;
    }

    if (!in_comment) {
      if (in_string) {
        if (c == '\\') {
          lexer->advance(lexer, false);
          lexer->mark_end(lexer);
          if (!lexer->eof(lexer) && lexer->lookahead != '\n') {
            lexer->advance(lexer, false);
            lexer->mark_end(lexer);
          }
          prev2 = prev;
          prev = 'a';
          continue;
        }
        if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '#' && prev == ' ') {
        in_comment = true;
      } else {
        if (pending_incdec && (is_word_char(c) || c == '$')) is_code = true;
        pending_incdec = false;
        switch (c) {
          case ';':
          case '$':
          case '@':
          case '{':
          case '}':
          case '=':
          case '<':
          case '>':
            is_code = true;
            break;
          case '+':
          case '-':
            if (prev == c) {
              if (is_word_char(prev2) || prev2 == ')' || prev2 == ']' || prev2 == '}') {
                is_code = true;
              } else {
                pending_incdec = true;
              }
            }
            break;
          case '&':
          case '|':
          case ':':
            if (prev == c) is_code = true;
            break;
          case '[':
            if (is_word_char(prev) || prev == ')' || prev == ']') is_code = true;
            break;
          default:
            if (prev == '%' && (is_alpha(c) || c == '{' || c == '$')) is_code = true;
            break;
        }
      }
    }

    lexer->advance(lexer, false);
    if (!in_comment) {
      lexer->mark_end(lexer);
      has_content = true;
    }
    prev2 = prev;
    prev = c;
  }

  if (!is_code || !has_content) return false;
  lexer->result_symbol = CODE;
  return true;
}

bool tree_sitter_egg_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;
  bool recovering = valid_symbols[ERROR_SENTINEL];

  if (valid_symbols[COMPACT_TIMES] && !recovering &&
      (lexer->lookahead == 'x' || lexer->lookahead == 'X')) {
    lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    if (!lexer->eof(lexer) && lexer->lookahead >= '0' && lexer->lookahead <= '9') {
      lexer->result_symbol = COMPACT_TIMES;
      return true;
    }
    return false;
  }

  while (!lexer->eof(lexer) && is_hspace(lexer->lookahead)) {
    lexer->advance(lexer, true);
  }
  if (lexer->eof(lexer)) return false;

  if (lexer->lookahead == '\n') {
    /* Newlines are never plain whitespace: each one is a terminator or a continuation, in every
     * parse state (even where a terminator is not expected, e.g. inside an unclosed bracket, so
     * that the error stays on its own line). */
    lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    if (next_line_ends_statement(lexer)) {
      lexer->result_symbol = TERMINATOR;
      return true;
    }
    lexer->mark_end(lexer);
    lexer->result_symbol = CONTINUATION;
    return true;
  }

  if (valid_symbols[CODE] && !recovering && lexer->lookahead != '#') {
    return scan_code(lexer);
  }
  return false;
}

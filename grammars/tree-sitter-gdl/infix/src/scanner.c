/*
 * External scanner for the infix GDL grammar (hrf): error recovery at line starts.
 *
 *   RULE_HEAD_NAME   the name of a rule head that begins a line (after any indentation): an
 *                    identifier starting with a lowercase letter, optionally followed by balanced
 *                    `( ... )`, then `:-` (whitespace allowed between). Such text can never continue a
 *                    rule body, so the grammar accepts the token only where a new item may start;
 *                    inside a broken rule (after `&`, inside arguments or a group) it is unexpected and
 *                    tree-sitter recovers right there.
 *   IMPLICIT_CLOSE   zero-width; closes the argument list of a `compound` term when the next thing
 *                    (after whitespace and `%` comments) is such a rule head or the end of the input.
 *                    Produced only where the grammar allows it, so balanced input never contains one.
 *   LINE_CONTINUES   zero-width, at the start of a line that follows a complete body literal (at the
 *                    top level of the body, not inside a group), has no
 *                    `:-`, and either ends with `&` or `|` or is indented and followed by a line that
 *                    starts at column 0: the connective at the end of the previous line is missing.
 *                    The grammar accepts it only before a literal that follows a connective, so
 *                    tree-sitter inserts a MISSING `&` in front of it.
 *   AND              the `&` connective. It is lexed here so that `valid_symbols[AND]` tells the
 *                    scanner that a complete body literal has just ended.
 *   SCANNER_PROBE    listed in the grammar's extras so that this scanner runs in every parse state;
 *                    never produced.
 *
 * "At the start of a line" means: the whitespace skipped before the token contains a line break.
 * (get_column is not used: it can cost O(column) per call, which made one-line files quadratic. The
 * first line of the file never needs the recovery tokens, since nothing can be open there.)
 *
 * The scanner is stateless (nothing to serialize). Every loop advances the lexer, stops at EOF, or
 * stops after MAX_LOOKAHEAD characters.
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  RULE_HEAD_NAME,
  IMPLICIT_CLOSE,
  LINE_CONTINUES,
  AND,
  SCANNER_PROBE,
};

enum LineKind {
  LINE_OTHER,
  LINE_RULE,
  LINE_CONTINUATION,
};

/* How far the rule-head check may look (a head longer than this is just not used for recovery). */
#define MAX_LOOKAHEAD 4096

void *tree_sitter_hrf_external_scanner_create(void) { return NULL; }

void tree_sitter_hrf_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_hrf_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_hrf_external_scanner_deserialize(void *payload, const char *buffer,
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

static bool is_lower(int32_t c) { return c >= 'a' && c <= 'z'; }

static bool is_ident_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

/*
 * With the lexer at the start of a line: is this `name`, `name(...)`, then `:-`?
 * Consumes the name and calls mark_end after it when `mark_name` is set; looks further without
 * caring about the token end otherwise.
 */
static bool rule_head_follows(TSLexer *lexer, bool mark_name) {
  if (!is_lower(lexer->lookahead)) return false;
  while (!lexer->eof(lexer) && is_ident_char(lexer->lookahead)) {
    lexer->advance(lexer, false);
  }
  if (mark_name) lexer->mark_end(lexer);

  unsigned budget = MAX_LOOKAHEAD;
  while (!lexer->eof(lexer) && (lexer->lookahead == ' ' || lexer->lookahead == '\t')) {
    lexer->advance(lexer, false);
  }
  if (lexer->lookahead == '(') {
    unsigned depth = 0;
    for (;;) {
      if (lexer->eof(lexer) || budget-- == 0) return false;
      int32_t c = lexer->lookahead;
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
        if (depth == 0) {
          lexer->advance(lexer, false);
          break;
        }
      } else if (!(is_ident_char(c) || is_space(c) || c == ',')) {
        /* `:-`, `&`, `%`, `~`, ... inside the arguments: not a well-formed head. */
        return false;
      }
      lexer->advance(lexer, false);
    }
  }
  while (!lexer->eof(lexer) && is_space(lexer->lookahead)) {
    if (budget-- == 0) return false;
    lexer->advance(lexer, false);
  }
  if (lexer->lookahead != ':') return false;
  lexer->advance(lexer, false);
  return lexer->lookahead == '-';
}

/*
 * With the lexer on the first character of a line (indented by `indent` columns), right after a
 * complete body literal, classify the line:
 *   LINE_RULE          it contains `:-`: a new rule starts here;
 *   LINE_CONTINUATION  it is the middle of a rule body whose line break lost its `&`: it ends with
 *                      `&` or `|` (ignoring spaces and a `%` comment), or it is indented and the next
 *                      line that is not blank or a comment starts at column 0 (the usual layout: a
 *                      rule's body lines are indented, the next item is not);
 *   LINE_OTHER         anything else.
 */
static enum LineKind classify_line(TSLexer *lexer, unsigned indent) {
  int32_t last = 0;
  unsigned budget = MAX_LOOKAHEAD;
  while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) {
    if (budget-- == 0) return LINE_OTHER;
    int32_t c = lexer->lookahead;
    if (c == '%') break;
    lexer->advance(lexer, false);
    if (c == ':' && lexer->lookahead == '-') return LINE_RULE;
    if (!is_space(c)) last = c;
  }
  if (last == '&' || last == '|') return LINE_CONTINUATION;
  if (indent == 0) return LINE_OTHER;

  /* Find the next line with content. */
  for (;;) {
    while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) {
      if (budget-- == 0) return LINE_OTHER;
      lexer->advance(lexer, false);
    }
    if (lexer->eof(lexer)) return LINE_OTHER;
    while (is_newline(lexer->lookahead)) lexer->advance(lexer, false);
    if (lexer->eof(lexer)) return LINE_OTHER;
    if (!is_space(lexer->lookahead) && lexer->lookahead != '%') return LINE_CONTINUATION;
    while (!lexer->eof(lexer) && is_space(lexer->lookahead) && !is_newline(lexer->lookahead)) {
      if (budget-- == 0) return LINE_OTHER;
      lexer->advance(lexer, false);
    }
    if (lexer->eof(lexer)) return LINE_OTHER;
    if (!is_newline(lexer->lookahead) && lexer->lookahead != '%') return LINE_OTHER;
  }
}

static bool is_literal_start(int32_t c) {
  return is_ident_char(c) || c == '~' || c == '(';
}

bool tree_sitter_hrf_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;

  /* During error recovery every symbol is "valid"; otherwise RULE_HEAD_NAME (an item starts) and
   * IMPLICIT_CLOSE (a compound's arguments end) are never valid together. */
  bool error_recovery = valid_symbols[RULE_HEAD_NAME] && valid_symbols[IMPLICIT_CLOSE];

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
      } else if (lexer->lookahead == '%') {
        while (!lexer->eof(lexer) && !is_newline(lexer->lookahead)) lexer->advance(lexer, false);
      } else {
        break;
      }
    }
    if (line_start && rule_head_follows(lexer, false)) {
      lexer->result_symbol = IMPLICIT_CLOSE;
      return true;
    }
    return false;
  }

  /* Whitespace before a token is skipped (not part of the token). */
  bool line_start = false;
  unsigned indent = 0;
  while (!lexer->eof(lexer) && is_space(lexer->lookahead)) {
    if (is_newline(lexer->lookahead)) {
      line_start = true;
      indent = 0;
    } else if (indent < MAX_LOOKAHEAD) {
      indent++;
    }
    lexer->advance(lexer, true);
  }

  if (lexer->lookahead == '&') {
    if (!valid_symbols[AND]) return false;
    lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    lexer->result_symbol = AND;
    return true;
  }

  if (!line_start) return false;

  if (valid_symbols[AND] && !error_recovery) {
    /* Right after a complete body literal (`&` would be valid). At the top level of a body (a new
     * item could start, so RULE_HEAD_NAME is valid), a line that continues the body gets the
     * zero-width LINE_CONTINUES, unexpected here, so tree-sitter inserts the MISSING `&`; a rule
     * line needs no token there. Inside a group, only the rule-head check below applies. */
    if (valid_symbols[RULE_HEAD_NAME]) {
      if (!is_literal_start(lexer->lookahead)) return false;
      lexer->mark_end(lexer);
      if (classify_line(lexer, indent) == LINE_CONTINUATION) {
        lexer->result_symbol = LINE_CONTINUES;
        return true;
      }
      return false;
    }
  }

  if (rule_head_follows(lexer, true)) {
    lexer->result_symbol = RULE_HEAD_NAME;
    return true;
  }
  return false;
}

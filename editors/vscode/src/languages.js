'use strict';
// The languages of the extension. The ids are the ones the server knows
// (`Syntax::language_id` in analysis/src/source.rs) and the ones package.json contributes.

/** Language ids, in the order of package.json's `contributes.languages`. */
const LANGUAGE_IDS = ['egg', 'ludi', 'gdl', 'hrf'];

/**
 * The language of a `.gdl` file, which may hold either GDL syntax: prefix KIF when the first
 * thing after white space and comments is `(` (or the file is empty), infix otherwise. The same
 * rule as the server's `Syntax::detect`, so the highlighting and the diagnostics agree.
 * @param {string} text
 * @returns {'gdl' | 'hrf'}
 */
function gdlLanguageOf(text) {
  let rest = text;
  for (;;) {
    rest = rest.trimStart();
    if (!rest.startsWith(';') && !rest.startsWith('%')) break;
    const newline = rest.indexOf('\n');
    rest = newline === -1 ? '' : rest.slice(newline + 1);
  }
  return rest === '' || rest.startsWith('(') ? 'gdl' : 'hrf';
}

module.exports = { LANGUAGE_IDS, gdlLanguageOf };

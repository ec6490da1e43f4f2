'use strict';
// The `.gdl` sniffing: prefix KIF when the first form after comments is `(`, infix otherwise.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { LANGUAGE_IDS, gdlLanguageOf } = require('../../src/languages');

test('KIF text is gdl, whatever comments come first', () => {
  assert.equal(gdlLanguageOf('(role white)\n'), 'gdl');
  assert.equal(gdlLanguageOf('; tic-tac-toe\n\n  ; more\n(role x)'), 'gdl');
  assert.equal(gdlLanguageOf('% a comment in the infix style\n(role x)'), 'gdl');
});

test('infix text is hrf', () => {
  assert.equal(gdlLanguageOf('role(white)\n'), 'hrf');
  assert.equal(gdlLanguageOf('% tic-tac-toe\nrole(x)\n'), 'hrf');
  assert.equal(gdlLanguageOf('; only a comment line\nterminal :- true(done)'), 'hrf');
});

test('an empty file or one with only comments is gdl', () => {
  assert.equal(gdlLanguageOf(''), 'gdl');
  assert.equal(gdlLanguageOf('  \n\t\n'), 'gdl');
  assert.equal(gdlLanguageOf('; nothing yet'), 'gdl');
});

test('the corpus games sniff as their extensions say', () => {
  const corpus = path.join(__dirname, '..', '..', '..', '..', 'corpus', 'gdl');
  assert.equal(gdlLanguageOf(fs.readFileSync(path.join(corpus, 'ticTacToe.kif'), 'utf8')), 'gdl');
  assert.equal(gdlLanguageOf(fs.readFileSync(path.join(corpus, 'ticTacToe.hrf'), 'utf8')), 'hrf');
});

test('package.json contributes exactly the languages the extension serves', () => {
  const manifest = require('../../package.json');
  const contributed = manifest.contributes.languages.map((language) => language.id);
  assert.deepEqual(contributed, LANGUAGE_IDS);
  const grammars = manifest.contributes.grammars.map((grammar) => grammar.language);
  assert.deepEqual(grammars, LANGUAGE_IDS);
  for (const language of manifest.contributes.languages) {
    const configuration = path.join(__dirname, '..', '..', language.configuration);
    assert.ok(fs.existsSync(configuration), `${configuration} exists`);
  }
});

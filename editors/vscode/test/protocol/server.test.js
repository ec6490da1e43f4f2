'use strict';
// The real `ludeme lsp` driven through vscode-jsonrpc, as the extension's client drives it: every
// language opens under the language id package.json gives it, gets its diagnostics, and hovers.
// The fixtures (editors/fixtures/broken.*) each hold one known mistake, named in their first line.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { LspSession, textAt, REPOSITORY } = require('../support/lsp-session');
const manifest = require('../../package.json');

const FIXTURES = path.join(REPOSITORY, 'editors', 'fixtures');

/** Each fixture's mistake: the diagnostic code and the word it must point at. */
const MISTAKES = [
  { file: 'broken.egg', code: 'egg/empty-range', word: '6..2' },
  { file: 'broken.ludi', code: 'ludi/unknown-ludeme', word: 'frobnicate' },
  { file: 'broken.kif', code: 'gdl/unsafe-variable', word: '?other' },
  { file: 'broken.hrf', code: 'gdl/unsafe-variable', word: 'Other' },
];

/** The language id package.json assigns to a file name, as VS Code would. */
function languageIdOf(file) {
  const extension = path.extname(file);
  const language = manifest.contributes.languages.find((candidate) =>
    candidate.extensions.includes(extension),
  );
  assert.ok(language, `package.json has a language for ${extension}`);
  return language.id;
}

function fixture(file) {
  const full = path.join(FIXTURES, file);
  return { uri: pathToFileURL(full).href, text: fs.readFileSync(full, 'utf8') };
}

/** The position of `word` where the fixture uses it in a rule, not in the explanatory comment. */
function wordInCode(text, word) {
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line += 1) {
    const commentStart = lines[line].search(/^\s*[#;%]/);
    const column = lines[line].indexOf(word);
    if (commentStart === -1 && column !== -1) return { line, character: column };
  }
  throw new Error(`${word} is not in the code`);
}

let session;
test.before(async () => {
  session = new LspSession();
});
test.after(async () => {
  await session.close();
});

test('initialize: the server names itself and offers diagnostics-driving sync and hovers', async () => {
  const result = await session.initialize({ probe: { enabled: true, games: 10, seconds: 5 } });
  assert.equal(result.serverInfo.name, 'ludeme');
  assert.ok(result.capabilities.hoverProvider, 'hover provider');
  assert.ok(result.capabilities.textDocumentSync, 'text document sync');
});

for (const mistake of MISTAKES) {
  test(`${mistake.file}: its mistake is reported where it is`, async () => {
    const { uri, text } = fixture(mistake.file);
    await session.open(uri, languageIdOf(mistake.file), text);
    const { diagnostics } = await session.diagnostics(uri);
    const found = diagnostics.find((diagnostic) => diagnostic.code === mistake.code);
    assert.ok(found, `${mistake.code} among ${JSON.stringify(diagnostics.map((d) => d.code))}`);
    assert.deepEqual(found.range.start, wordInCode(text, mistake.word));
    assert.equal(textAt(text, found.range), mistake.word);
    assert.equal(found.severity, 1, 'an error');
    assert.ok(found.message.length > 0);
  });
}

test('an untitled document is analysed by its language id alone', async () => {
  for (const [index, mistake] of MISTAKES.entries()) {
    const { text } = fixture(mistake.file);
    const uri = `untitled:Untitled-${index + 1}`;
    await session.open(uri, languageIdOf(mistake.file), text);
    const { diagnostics } = await session.diagnostics(uri);
    assert.ok(
      diagnostics.some((diagnostic) => diagnostic.code === mistake.code),
      `${mistake.file} as ${languageIdOf(mistake.file)}: ${mistake.code}`,
    );
  }
});

test('fixing the mistake with an incremental edit clears the diagnostic', async () => {
  const { uri, text } = fixture('broken.kif');
  // Opened by the test above; reopening would be a protocol error, so wait for its diagnostics.
  await session.diagnostics(uri);
  const start = wordInCode(text, '?other');
  await session.change(uri, 2, [
    {
      range: { start, end: { line: start.line, character: start.character + '?other'.length } },
      text: '?player',
    },
  ]);
  const { diagnostics } = await session.diagnostics(uri, (params) => params.version === 2);
  assert.deepEqual(
    diagnostics.filter((diagnostic) => diagnostic.code === 'gdl/unsafe-variable'),
    [],
  );
});

for (const file of ['broken.hrf', 'broken.kif']) {
  test(`${file}: hovering the keyword legal explains it`, async () => {
    const { uri, text } = fixture(file);
    await session.diagnostics(uri);
    const position = wordInCode(text, 'legal');
    const hover = await session.hover(uri, { line: position.line, character: position.character + 2 });
    assert.ok(hover, 'a hover');
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(hover.contents.value, /\blegal\b/);
    assert.match(hover.contents.value, /keyword/);
    assert.equal(textAt(text, hover.range), 'legal');
  });
}

test('hovering in every language answers without a protocol error', async () => {
  for (const mistake of MISTAKES) {
    const { uri, text } = fixture(mistake.file);
    await session.diagnostics(uri);
    const hover = await session.hover(uri, wordInCode(text, mistake.word));
    assert.ok(hover === null || typeof hover.contents === 'object', `${mistake.file}: ${JSON.stringify(hover)}`);
  }
});

test('a game of the corpus opens without errors', async () => {
  const file = path.join(REPOSITORY, 'corpus', 'gdl', 'ticTacToe.hrf');
  const uri = pathToFileURL(file).href;
  await session.open(uri, languageIdOf(file), fs.readFileSync(file, 'utf8'));
  const { diagnostics } = await session.diagnostics(uri);
  assert.deepEqual(diagnostics.filter((diagnostic) => diagnostic.severity === 1), []);
});

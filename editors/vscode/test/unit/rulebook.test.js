'use strict';
// Open Rulebook: where the rulebook document lives, what it shows for the server's answers and
// failures, the debounce of refreshes, and the command with its provider against the real
// `ludeme lsp` (an unsaved edit shows in the refreshed rulebook).

const test = require('node:test');
const assert = require('node:assert/strict');
const mock = require('../support/vscode-mock');
const { LspSession } = require('../support/lsp-session');
const {
  registerRulebook,
  rulebookLocation,
  rulebookText,
  debouncer,
  SCHEME,
  REFRESH_DELAY_MS,
} = require('../../src/rulebook');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A game document as the extension sees it. */
function gameDocument(uri, languageId) {
  const path = new URL(uri).pathname;
  return { uri: { scheme: 'file', path, fsPath: path, toString: () => uri }, languageId };
}

test('the rulebook of a game is a Markdown document named after it, the game in its query', () => {
  const location = rulebookLocation(gameDocument('file:///games/hex%20big.ludi', 'ludi').uri);
  assert.equal(location.scheme, SCHEME);
  assert.equal(location.path, '/games/hex%20big.ludi.rulebook.md');
  assert.ok(location.path.endsWith('.md'), 'Markdown by its extension');
  assert.equal(location.query, 'file:///games/hex%20big.ludi');
});

test("the rulebook shows the server's Markdown, keeps its text over an edit's cancellation, and says why it failed", () => {
  assert.equal(rulebookText({ markdown: '# Hex\n' }, undefined, undefined), '# Hex\n');
  const cancelled = { code: -32801, message: 'content modified' };
  assert.equal(rulebookText(undefined, cancelled, '# Hex\n'), '# Hex\n');
  assert.match(rulebookText(undefined, cancelled, undefined), /could not be made: content modified/);
  const closed = { code: -32602, message: 'file:///x.ludi is not open' };
  assert.match(rulebookText(undefined, closed, '# Hex\n'), /could not be made: file:\/\/\/x\.ludi is not open/);
  assert.match(rulebookText(null, undefined, undefined), /gave no rulebook/);
});

test('a burst of edits refreshes once, after the pause; each game has its own timer', async () => {
  const ran = [];
  const refreshes = debouncer((key) => ran.push(key), 40);
  refreshes.schedule('a');
  await sleep(10);
  refreshes.schedule('a');
  refreshes.schedule('b');
  await sleep(10);
  refreshes.schedule('a');
  assert.deepEqual(ran, []);
  await sleep(120);
  assert.deepEqual(ran.sort(), ['a', 'b']);
  refreshes.schedule('a');
  refreshes.dispose();
  await sleep(80);
  assert.deepEqual(ran.sort(), ['a', 'b'], 'nothing runs after dispose');
});

test('Open Rulebook previews the live rulebook beside the game and follows unsaved edits', async () => {
  mock.reset();
  const session = new LspSession();
  try {
    await session.initialize();
    const uri = 'file:///workspace/hex.ludi';
    const text =
      '(game Hex (players White Black) (board (tiling hex) (shape rhombus) (size 5 5)) (end (All win (connect All-sides))))';
    await session.open(uri, 'ludi', text);
    const context = { subscriptions: [] };
    registerRulebook(context, () => session.connection);
    const game = gameDocument(uri, 'ludi');
    mock.activeTextEditor = { document: game };
    const rulebook = await mock.commands.get('ludeme.openRulebook')();
    assert.deepEqual(mock.executed.at(-1), ['markdown.showPreviewToSide', rulebook]);
    assert.equal(rulebook.scheme, SCHEME);
    const provider = mock.contentProviders.get(SCHEME);
    const first = await provider.provideTextDocumentContent(rulebook);
    assert.match(first, /^# Hex\n/);
    assert.match(first, /5×5 rhombus board/);

    // Three quick edits, unsaved: one refresh, after the pause, with the last text.
    const refreshed = [];
    provider.onDidChange((changed) => refreshed.push(changed));
    for (const [version, size] of [[2, 6], [3, 7], [4, 8]]) {
      await session.change(uri, version, [{ text: text.replace('(size 5 5)', `(size ${size} ${size})`) }]);
      mock.changeListeners.forEach((listener) => listener({ document: game }));
    }
    // Another document's edit refreshes nothing.
    mock.changeListeners.forEach((listener) => listener({ document: gameDocument('file:///other.ludi', 'ludi') }));
    assert.deepEqual(refreshed, []);
    await sleep(REFRESH_DELAY_MS * 3);
    assert.deepEqual(refreshed, [rulebook]);
    const second = await provider.provideTextDocumentContent(rulebook);
    assert.match(second, /8×8 rhombus board/);
    assert.doesNotMatch(second, /5×5/);

    // Not a game: no rulebook.
    mock.activeTextEditor = { document: gameDocument('file:///notes.txt', 'plaintext') };
    assert.equal(await mock.commands.get('ludeme.openRulebook')(), undefined);
    assert.deepEqual(mock.messages.at(-1), ['information', 'Ludeme: open a game file first.']);
    context.subscriptions.forEach((subscription) => subscription.dispose());
  } finally {
    await session.close();
  }
});

test('Open Rulebook is in the palette, the context menu and the title bar of a game', () => {
  const manifest = require('../../package.json');
  const command = manifest.contributes.commands.find((entry) => entry.command === 'ludeme.openRulebook');
  assert.ok(command, 'ludeme.openRulebook is contributed');
  assert.equal(`${command.category}: ${command.title}`, 'Ludeme: Open Rulebook');
  for (const menu of ['commandPalette', 'editor/context', 'editor/title']) {
    const entry = manifest.contributes.menus[menu].find((item) => item.command === 'ludeme.openRulebook');
    assert.ok(entry, `in ${menu}`);
    assert.equal(entry.when, 'editorLangId =~ /^(egg|ludi|gdl|hrf)$/', `${menu}: on the four languages`);
  }
});

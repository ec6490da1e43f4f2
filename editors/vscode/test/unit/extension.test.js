'use strict';
// The extension's wiring, with a mocked `vscode` and a recording stand-in for the language client:
// which server it starts and how, the settings it passes, the `.gdl` sniffing on open, and the
// commands, which run the real `ludeme` binary on the fixtures.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');
const mock = require('../support/vscode-mock');
const { REPOSITORY, ludemeBinary } = require('../support/lsp-session');

/** Every LanguageClient the extension made: its constructor arguments and whether it started. */
const clients = [];
class RecordingClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, started: false });
    clients.push(this);
  }
  async start() {
    this.started = true;
  }
  async stop() {
    this.started = false;
  }
}
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode-languageclient/node' ? request : resolveFilename.call(this, request, ...rest);
};
require.cache['vscode-languageclient/node'] = {
  id: 'vscode-languageclient/node',
  loaded: true,
  exports: { LanguageClient: RecordingClient, TransportKind: { stdio: 0 } },
};
const extension = require('../../src/extension');

const FIXTURES = path.join(REPOSITORY, 'editors', 'fixtures');
const extensionPath = fs.mkdtempSync(path.join(os.tmpdir(), 'ludeme-extension-'));
test.after(() => fs.rmSync(extensionPath, { recursive: true, force: true }));

async function activate(settings) {
  mock.reset();
  clients.length = 0;
  mock.settings = { 'server.path': ludemeBinary(), ...settings };
  const context = { extensionPath, subscriptions: [] };
  await extension.activate(context);
  return context;
}

test('activation starts `ludeme lsp` from the discovered binary for the four languages', async () => {
  await activate({ 'probe.games': 7, 'probe.seconds': 3, 'probe.enabled': false });
  assert.equal(clients.length, 1);
  const [client] = clients;
  assert.equal(client.id, 'ludeme', 'the id under which ludeme.trace.server is read');
  assert.equal(client.started, true);
  assert.deepEqual(client.serverOptions.args, ['lsp']);
  assert.equal(client.serverOptions.command, ludemeBinary());
  const languages = new Set(client.clientOptions.documentSelector.map((selector) => selector.language));
  assert.deepEqual([...languages].sort(), ['egg', 'gdl', 'hrf', 'ludi']);
  assert.deepEqual(client.clientOptions.initializationOptions, {
    probe: { enabled: false, games: 7, seconds: 3 },
  });
  for (const id of ['probe', 'explain', 'nearest', 'convertToInfix', 'convertToKif', 'restartServer', 'openRulebook']) {
    assert.ok(mock.commands.has(`ludeme.${id}`), `ludeme.${id} is registered`);
  }
  await extension.deactivate();
});

test('budgets the user did not set are not sent: ludeme.toml decides them', async () => {
  await activate({ 'probe.games': 12 });
  assert.deepEqual(clients[0].clientOptions.initializationOptions, { probe: { games: 12 } });
  await extension.deactivate();
});

test("the server's lens commands show their details in a Markdown preview", async () => {
  await activate({});
  for (const id of ['ludeme.showProbe', 'ludeme.showNearest', 'ludeme.showBench', 'ludeme.showSimulation']) {
    assert.ok(mock.commands.has(id), `${id} is registered`);
  }
  await mock.commands.get('ludeme.showSimulation')({ uri: 'file:///g.kif', markdown: 'no terminal state' });
  assert.equal(mock.opened.length, 1);
  assert.equal(mock.opened[0].language, 'markdown');
  assert.match(mock.opened[0].content, /no terminal state/);
  assert.deepEqual(mock.executed.map(([id]) => id), ['markdown.showPreviewToSide']);
  await extension.deactivate();
});

test('without a working binary no client starts and the user is told why', async () => {
  mock.reset();
  clients.length = 0;
  mock.settings = { 'server.path': path.join(extensionPath, 'no-such-ludeme') };
  const savedPath = process.env.PATH;
  process.env.PATH = path.join(extensionPath, 'empty');
  try {
    await extension.activate({ extensionPath, subscriptions: [] });
  } finally {
    process.env.PATH = savedPath;
  }
  assert.equal(clients.length, 0);
  assert.ok(mock.messages.some(([kind, text]) => kind === 'error' && /no working ludeme binary/.test(text)));
});

test('an infix .gdl file is switched to hrf on open; a prefix one stays gdl', async () => {
  await activate({});
  const [onOpen] = mock.openListeners;
  const infix = mock.document('/games/a.gdl', 'gdl', '% infix\nrole(x)\n');
  const prefix = mock.document('/games/b.gdl', 'gdl', '; prefix\n(role x)\n');
  const kif = mock.document('/games/c.kif', 'gdl', 'role(x)\n');
  onOpen(infix);
  onOpen(prefix);
  onOpen(kif);
  assert.deepEqual(mock.languageChanges, [[infix, 'hrf']]);
  await extension.deactivate();
});

test('Explain runs `ludeme explain` on the file and shows the rules beside it', async () => {
  await activate({});
  const file = path.join(FIXTURES, 'broken.ludi');
  mock.activeTextEditor = { document: mock.document(file, 'ludi', fs.readFileSync(file, 'utf8')) };
  await mock.commands.get('ludeme.explain')();
  assert.equal(mock.opened.length, 1, JSON.stringify(mock.messages));
  assert.match(mock.opened[0].content, /White and Black/);
  assert.equal(mock.opened[0].language, 'plaintext');
  await extension.deactivate();
});

test('Convert KIF to Infix shows the game as an hrf document', async () => {
  await activate({});
  const file = path.join(FIXTURES, 'broken.kif');
  mock.activeTextEditor = { document: mock.document(file, 'gdl', fs.readFileSync(file, 'utf8')) };
  await mock.commands.get('ludeme.convertToInfix')();
  assert.equal(mock.opened.length, 1, JSON.stringify(mock.messages));
  assert.equal(mock.opened[0].language, 'hrf');
  assert.match(mock.opened[0].content, /^role\(white\)$/m);
  assert.match(mock.opened[0].content, /legal\(Player, noop\) :-/);
  await extension.deactivate();
});

test('Probe respects ludeme.probe.enabled', async () => {
  await activate({ 'probe.enabled': false });
  const file = path.join(REPOSITORY, 'corpus', 'gdl', 'ticTacToe.kif');
  mock.activeTextEditor = { document: mock.document(file, 'gdl', fs.readFileSync(file, 'utf8')) };
  await mock.commands.get('ludeme.probe')();
  assert.equal(mock.opened.length, 0);
  assert.ok(mock.messages.some(([kind, text]) => kind === 'information' && /turned off/.test(text)));
  await extension.deactivate();
});

test('Probe plays the configured number of games', async () => {
  await activate({ 'probe.games': 4, 'probe.seconds': 20 });
  const file = path.join(REPOSITORY, 'corpus', 'gdl', 'ticTacToe.kif');
  mock.activeTextEditor = { document: mock.document(file, 'gdl', fs.readFileSync(file, 'utf8')) };
  await mock.commands.get('ludeme.probe')();
  assert.equal(mock.opened.length, 1, JSON.stringify(mock.messages));
  assert.match(mock.opened[0].content, /\b4 games of self-play\b/);
  await extension.deactivate();
});

test('a command without a game file open says so', async () => {
  await activate({});
  await mock.commands.get('ludeme.explain')();
  assert.equal(mock.opened.length, 0);
  assert.ok(mock.messages.some(([kind]) => kind === 'information'));
  await extension.deactivate();
});

test('Show Board draws `ludeme render` in a webview and redraws it on save', async () => {
  const context = await activate({});
  const file = path.join(REPOSITORY, 'corpus', 'gdl', 'ticTacToe.kif');
  const document = mock.document(file, 'gdl', fs.readFileSync(file, 'utf8'));
  mock.activeTextEditor = { document };
  await mock.commands.get('ludeme.showBoard')();
  assert.equal(mock.panels.length, 1, JSON.stringify(mock.messages));
  const [panel] = mock.panels;
  assert.equal(panel.viewType, 'ludeme.board');
  assert.equal(panel.options.enableScripts, false);
  assert.match(panel.webview.html, /<img src="data:image\/svg\+xml;base64,/);
  assert.match(panel.webview.html, /Content-Security-Policy/);
  // Saving the file redraws the same panel; the command again reveals it.
  panel.webview.html = '';
  const redrawn = new Promise((resolve) => {
    const timer = setInterval(() => {
      if (panel.webview.html) resolve(clearInterval(timer));
    }, 20);
  });
  mock.saveListeners.forEach((listener) => listener(document));
  await redrawn;
  assert.match(panel.webview.html, /data:image\/svg\+xml/);
  await mock.commands.get('ludeme.showBoard')();
  assert.equal(mock.panels.length, 1);
  assert.equal(panel.revealed, 1);
  context.subscriptions.forEach((item) => item.dispose());
  await extension.deactivate();
});

test('Show Report shows `ludeme report` in a webview', async () => {
  const context = await activate({});
  const file = path.join(FIXTURES, 'broken.ludi');
  mock.activeTextEditor = { document: mock.document(file, 'ludi', fs.readFileSync(file, 'utf8')) };
  await mock.commands.get('ludeme.showReport')();
  assert.equal(mock.panels.length, 1, JSON.stringify(mock.messages));
  const html = mock.panels[0].webview.html;
  assert.equal(mock.panels[0].viewType, 'ludeme.report');
  assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
  assert.match(html, /Ludeme report/);
  context.subscriptions.forEach((item) => item.dispose());
  await extension.deactivate();
});

test('Play This Game frames the page of one `ludeme serve` for the folder', async () => {
  const context = await activate({});
  const file = path.join(FIXTURES, 'broken.ludi');
  mock.activeTextEditor = { document: mock.document(file, 'ludi', fs.readFileSync(file, 'utf8')) };
  const url = await mock.commands.get('ludeme.playGame')();
  assert.equal(mock.panels.length, 1, JSON.stringify(mock.messages));
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/#broken\.ludi$/);
  const html = mock.panels[0].webview.html;
  assert.ok(html.includes(`<iframe src="${url}"`));
  assert.match(html, new RegExp(`frame-src ${new URL(url).origin};`));
  // The server answers, and knows the game by that path.
  const response = await fetch(new URL('/api/game?path=broken.ludi', url));
  assert.equal(response.status, 200);
  // A second game of the same folder uses the same server.
  const again = await mock.commands.get('ludeme.playGame')();
  assert.equal(new URL(again).origin, new URL(url).origin);
  context.subscriptions.forEach((item) => item.dispose());
  await extension.deactivate();
});

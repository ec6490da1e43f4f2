'use strict';
// Play a Match: the report shown for the server's answer and for a failure, and the command run
// against the real `ludeme lsp` on tic-tac-toe.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const mock = require('../support/vscode-mock');
// The mocked API (the mock registers it as the `vscode` module).
const vscode = require('vscode');
const { LspSession, REPOSITORY } = require('../support/lsp-session');
const { registerPlayMatch, matchReport } = require('../../src/play-match');

test("the report shows the server's summary, or says why there is none", () => {
  const summary = '| player | matches | won |\n';
  assert.match(matchReport('ticTacToe.kif', { summary }, undefined), /# Matches of ticTacToe.kif[\s\S]*\| player \| matches/);
  const refused = { message: 'a match sends the rules in prefix KIF: play a .kif game' };
  assert.match(matchReport('hex.ludi', undefined, refused), /could not be played: a match sends the rules in prefix KIF/);
});

test('Play a Match runs matches of the open game on the language server and shows the summary', async () => {
  mock.reset();
  const session = new LspSession();
  try {
    await session.initialize();
    const file = path.join(REPOSITORY, 'corpus', 'gdl', 'ticTacToe.kif');
    const uri = `file://${file}`;
    session.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'gdl', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    const context = { subscriptions: [] };
    registerPlayMatch(context, () => session.connection);
    mock.activeTextEditor = {
      document: { uri: { scheme: 'file', path: file, fsPath: file, toString: () => uri }, languageId: 'gdl' },
    };
    await mock.commands.get('ludeme.playMatch')();
    const shown = mock.opened.at(-1);
    assert.equal(shown.language, 'markdown');
    assert.match(shown.content, /# Matches of ticTacToe.kif/);
    assert.match(shown.content, /\| player \| matches \| won \|/);
    assert.equal((shown.content.match(/goals xplayer/g) ?? []).length, 2, shown.content);
  } finally {
    await session.close();
  }
});

test('Cancelling Play a Match cancels the request and shows no report', async () => {
  mock.reset();
  const session = new LspSession();
  const withProgress = vscode.window.withProgress;
  try {
    await session.initialize();
    const file = path.join(REPOSITORY, 'corpus', 'gdl', 'ticTacToe.kif');
    const uri = `file://${file}`;
    session.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'gdl', version: 1, text: fs.readFileSync(file, 'utf8') },
    });
    // The user presses the notification's cancel button half a second in.
    let options;
    vscode.window.withProgress = (given, task) => {
      options = given;
      const listeners = [];
      const token = {
        isCancellationRequested: false,
        onCancellationRequested(listener) {
          listeners.push(listener);
          return { dispose() {} };
        },
      };
      setTimeout(() => {
        token.isCancellationRequested = true;
        listeners.forEach((listener) => listener());
      }, 500);
      return task({ report() {} }, token);
    };
    const context = { subscriptions: [] };
    registerPlayMatch(context, () => session.connection);
    mock.activeTextEditor = {
      document: { uri: { scheme: 'file', path: file, fsPath: file, toString: () => uri }, languageId: 'gdl' },
    };
    const opened = mock.opened.length;
    const started = Date.now();
    const shown = await mock.commands.get('ludeme.playMatch')();
    assert.equal(options.cancellable, true);
    assert.equal(shown, undefined);
    assert.equal(mock.opened.length, opened, 'no report for a cancelled series');
    // Two MCTS-against-random matches take several seconds of 1 s clocks; cancelled, the
    // answer comes at once.
    assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms`);
  } finally {
    vscode.window.withProgress = withProgress;
    await session.close();
  }
});

'use strict';
// Play a Match: matches of the open GDL game between local players, run by the language server
// (`ludeme/playMatch`: players of its own process speaking the GGP protocol over loopback, on
// the editor's text, unsaved edits included), the summary shown as a Markdown document beside it.

const vscode = require('vscode');

/** The players of a match: MCTS in the first seat, random in the others (the server's default). */
const MATCHES = 2;

/**
 * The Markdown shown for an answer of `ludeme/playMatch`, or for its failure.
 * @param {string} game the game's file name
 * @param {{ summary?: string } | undefined} answer
 * @param {{ message?: string } | undefined} error
 */
function matchReport(game, answer, error) {
  if (!error && answer && typeof answer.summary === 'string') {
    return `# Matches of ${game}\n\nMCTS against random, the seats rotating.\n\n${answer.summary}`;
  }
  const why = error ? error.message : 'the server gave no summary';
  return `*Ludeme: the match could not be played: ${why}.*\n`;
}

/**
 * Registers `ludeme.playMatch`.
 * @param {vscode.ExtensionContext} context
 * @param {() => any} client the running language client, if any
 */
function registerPlayMatch(context, client) {
  async function playMatch() {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || document.languageId !== 'gdl') {
      void vscode.window.showInformationMessage('Ludeme: open a GDL game (.kif) first.');
      return undefined;
    }
    const server = client();
    const game = document.uri.path.split('/').pop();
    let answer;
    let error;
    if (server) {
      // Cancellable: the token cancels the request, and the server stops the matches at their
      // next step instead of playing them out for nobody.
      const cancelled = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation?.Notification,
          title: `Ludeme: playing ${game}`,
          cancellable: true,
        },
        async (_progress, token) => {
          try {
            answer = await server.sendRequest(
              'ludeme/playMatch',
              { textDocument: { uri: document.uri.toString() }, matches: MATCHES },
              token,
            );
          } catch (failure) {
            error = failure;
          }
          return token.isCancellationRequested;
        },
      );
      if (cancelled) {
        return undefined;
      }
    } else {
      error = { message: 'the language server is not running' };
    }
    const report = await vscode.workspace.openTextDocument({
      content: matchReport(game, answer, error),
      language: 'markdown',
    });
    await vscode.window.showTextDocument(report, { viewColumn: vscode.ViewColumn?.Beside, preview: true });
    return report;
  }
  context.subscriptions.push(vscode.commands.registerCommand('ludeme.playMatch', playMatch));
}

module.exports = { registerPlayMatch, matchReport, MATCHES };

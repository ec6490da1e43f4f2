'use strict';
// The commands that run the `ludeme` command line on the current file (probe, explain, nearest,
// KIF ⇄ infix) and show what it prints. The server offers no workspace commands for these, so
// the extension runs the same binary it found for the server.

const path = require('node:path');
const { execFile } = require('node:child_process');
const vscode = require('vscode');
const { explicitSetting } = require('./settings');

/** Output of a run, enough for a probe of a large game. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Runs `ludeme ARGS`; resolves with what it printed and its exit status, even when non-zero
 * (`probe` and `explain` report problems of the game that way).
 * @param {string} binary
 * @param {string[]} args
 * @param {{ cwd?: string, token?: vscode.CancellationToken }} options
 * @returns {Promise<{ stdout: string, stderr: string, status: number | null, cancelled: boolean }>}
 */
function runLudeme(binary, args, { cwd, token } = {}) {
  return new Promise((resolve) => {
    let cancelled = false;
    const child = execFile(
      binary,
      args,
      { cwd, maxBuffer: MAX_OUTPUT_BYTES, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const status = error && typeof error.code === 'number' ? error.code : error ? null : 0;
        const startFailure = error && typeof error.code === 'string' ? `${error.message}\n` : '';
        resolve({ stdout, stderr: startFailure + stderr, status, cancelled });
      },
    );
    token?.onCancellationRequested(() => {
      cancelled = true;
      child.kill();
    });
  });
}

/** The saved game file of the active editor, or undefined after telling the user why not. */
async function activeGameFile() {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Ludeme: open a game file first.');
    return undefined;
  }
  const document = editor.document;
  if (document.uri.scheme !== 'file') {
    void vscode.window.showInformationMessage('Ludeme: save the game to a file first.');
    return undefined;
  }
  // The command line reads the file from disk, so it must hold what the editor shows.
  if (document.isDirty && !(await document.save())) {
    return undefined;
  }
  return document;
}

/** Shows text in a new editor beside the game. */
async function showBeside(content, language) {
  const document = await vscode.workspace.openTextDocument({ content, language });
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

/**
 * Runs one CLI command on the active game under a cancellable progress notification and shows
 * its output beside the game.
 * @param {() => string | undefined} binary the binary found for the server
 * @param {{ title: string, args: (file: string) => string[], language?: string }} spec
 */
async function runOnActiveGame(binary, spec) {
  const command = binary();
  if (!command) {
    void vscode.window.showErrorMessage('Ludeme: the ludeme binary was not found (see the Ludeme output).');
    return;
  }
  const document = await activeGameFile();
  if (!document) return;
  const file = document.uri.fsPath;
  const workspace = vscode.workspace.getWorkspaceFolder(document.uri);
  const cwd = workspace ? workspace.uri.fsPath : path.dirname(file);
  const result = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Ludeme: ${spec.title} ${path.basename(file)}`,
      cancellable: true,
    },
    (_progress, token) => runLudeme(command, spec.args(file), { cwd, token }),
  );
  if (result.cancelled) return;
  // Status 2 is a usage or I/O failure: nothing useful on stdout.
  if (result.status === 2 || result.status === null || result.stdout.trim() === '') {
    void vscode.window.showErrorMessage(`Ludeme: ${spec.title} failed: ${result.stderr.trim() || 'no output'}`);
    return;
  }
  const note = result.stderr.trim() ? `\n\n${result.stderr.trim()}\n` : '';
  await showBeside(result.stdout + note, spec.language ?? 'plaintext');
}

/**
 * Registers the commands.
 * @param {vscode.ExtensionContext} context
 * @param {() => string | undefined} binary
 */
function registerCommands(context, binary) {
  const register = (id, spec) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, () => runOnActiveGame(binary, spec)));

  context.subscriptions.push(
    vscode.commands.registerCommand('ludeme.probe', () => {
      if (explicitSetting('probe.enabled') === false) {
        void vscode.window.showInformationMessage('Ludeme: probes are turned off (ludeme.probe.enabled).');
        return undefined;
      }
      return runOnActiveGame(binary, {
        title: 'probing',
        args: (file) => {
          // Budgets the user did not set are the command line's own defaults.
          const args = ['probe', file];
          const games = explicitSetting('probe.games');
          const seconds = explicitSetting('probe.seconds');
          if (games !== undefined) args.push('--games', String(games));
          if (seconds !== undefined) args.push('--time-limit', String(seconds));
          return args;
        },
      });
    }),
  );
  register('ludeme.explain', { title: 'explaining', args: (file) => ['explain', file] });
  register('ludeme.nearest', { title: 'finding the games nearest to', args: (file) => ['nearest', file] });
  register('ludeme.convertToInfix', {
    title: 'converting to infix',
    args: (file) => ['fmt', '--to', 'infix', '--stdout', file],
    language: 'hrf',
  });
  register('ludeme.convertToKif', {
    title: 'converting to KIF',
    args: (file) => ['fmt', '--to', 'kif', '--stdout', file],
    language: 'gdl',
  });
}

module.exports = { registerCommands, runLudeme, activeGameFile };

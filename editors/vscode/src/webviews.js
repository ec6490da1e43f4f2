'use strict';
// The commands that show a game rather than text: Show Board (`ludeme render`, redrawn on save),
// Play This Game (the page of `ludeme serve`, one server per workspace folder, in a frame) and
// Show Report (`ludeme report`).

const path = require('node:path');
const { spawn } = require('node:child_process');
const vscode = require('vscode');
const { runLudeme, activeGameFile } = require('./cli');
const views = require('./views');

/** How long `ludeme serve` may take to print its address. */
const SERVE_START_MS = 20000;

/** The folder a game is served from: its workspace folder, else its own folder. */
function servedFolder(document) {
  const workspace = vscode.workspace.getWorkspaceFolder(document.uri);
  return workspace ? workspace.uri.fsPath : path.dirname(document.uri.fsPath);
}

/**
 * Starts `ludeme serve FOLDER --port 0` and resolves with the page's address once printed.
 * @param {string} binary
 * @param {string} folder
 * @returns {{ child: import('node:child_process').ChildProcess, url: Promise<string> }}
 */
function startServer(binary, folder) {
  const child = spawn(binary, views.serveArgs(folder), {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const url = new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`ludeme serve printed no address in ${SERVE_START_MS / 1000} s. ${stderr.trim()}`));
    }, SERVE_START_MS);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const found = views.parseServeUrl(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ludeme serve stopped (status ${code}): ${stderr.trim() || 'no message'}`));
    });
  });
  // A rejection after the address was found (the server stopping later) is not an error here.
  url.catch(() => undefined);
  return { child, url };
}

/**
 * Registers the three commands.
 * @param {vscode.ExtensionContext} context
 * @param {() => string | undefined} binary the binary found for the language server
 */
function registerViewCommands(context, binary) {
  /** Running servers by folder. */
  const servers = new Map();
  /** Board panels by game file, redrawn when the file is saved. */
  const boards = new Map();

  const needBinary = () => {
    const command = binary();
    if (!command) {
      void vscode.window.showErrorMessage('Ludeme: the ludeme binary was not found (see the Ludeme output).');
    }
    return command;
  };

  async function drawBoard(command, file, panel) {
    const result = await runLudeme(command, views.renderArgs(file), { cwd: path.dirname(file) });
    if (result.status !== 0 || !result.stdout.includes('<svg')) {
      void vscode.window.showErrorMessage(
        `Ludeme: cannot draw ${path.basename(file)}: ${result.stderr.trim() || 'no picture'}`,
      );
      return false;
    }
    panel.webview.html = views.boardHtml(result.stdout, {
      title: `Board of ${path.basename(file)}`,
      nonce: views.nonce(),
    });
    return true;
  }

  async function showBoard() {
    const command = needBinary();
    if (!command) return;
    const document = await activeGameFile();
    if (!document) return;
    const file = document.uri.fsPath;
    let panel = boards.get(file);
    if (panel) {
      panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      panel = vscode.window.createWebviewPanel(
        'ludeme.board',
        `Board: ${path.basename(file)}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: false, localResourceRoots: [] },
      );
      boards.set(file, panel);
      panel.onDidDispose(() => boards.delete(file));
    }
    await drawBoard(command, file, panel);
  }

  async function serverFor(command, folder) {
    let server = servers.get(folder);
    if (!server || server.child.exitCode !== null || server.child.signalCode !== null) {
      server = startServer(command, folder);
      servers.set(folder, server);
      server.child.on('exit', () => {
        if (servers.get(folder) === server) servers.delete(folder);
      });
    }
    return server.url;
  }

  async function playGame() {
    const command = needBinary();
    if (!command) return;
    const document = await activeGameFile();
    if (!document) return;
    const file = document.uri.fsPath;
    const folder = servedFolder(document);
    let pageUrl;
    try {
      pageUrl = await serverFor(command, folder);
    } catch (error) {
      void vscode.window.showErrorMessage(`Ludeme: cannot start the game page: ${error.message}`);
      return;
    }
    // Remote and web setups reach the server through a forwarded port.
    const external = await vscode.env.asExternalUri(vscode.Uri.parse(pageUrl));
    const gameUrl = views.gamePageUrl(external.toString(true), folder, file);
    if (!gameUrl) {
      void vscode.window.showErrorMessage(`Ludeme: ${file} is not under ${folder}.`);
      return;
    }
    const title = `Play: ${path.basename(file)}`;
    const panel = vscode.window.createWebviewPanel(
      'ludeme.play',
      title,
      vscode.ViewColumn.Beside,
      // A frame inherits the webview's sandbox, so scripts must be on for the page to run its
      // own; the webview's HTML itself runs none (its policy has no script-src).
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [] },
    );
    panel.webview.html = views.playHtml(gameUrl, { title, nonce: views.nonce() });
    return gameUrl;
  }

  async function showReport() {
    const command = needBinary();
    if (!command) return;
    const document = await activeGameFile();
    if (!document) return;
    const file = document.uri.fsPath;
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Ludeme: reporting on ${path.basename(file)}`,
        cancellable: true,
      },
      (_progress, token) => runLudeme(command, views.reportArgs(file), { cwd: path.dirname(file), token }),
    );
    if (result.cancelled) return;
    if (result.status !== 0 || !/<html/i.test(result.stdout)) {
      void vscode.window.showErrorMessage(`Ludeme: the report failed: ${result.stderr.trim() || 'no output'}`);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      'ludeme.report',
      `Report: ${path.basename(file)}`,
      vscode.ViewColumn.Beside,
      { enableScripts: false, localResourceRoots: [] },
    );
    panel.webview.html = views.reportHtml(result.stdout);
  }

  context.subscriptions.push(
    vscode.commands.registerCommand('ludeme.showBoard', showBoard),
    vscode.commands.registerCommand('ludeme.playGame', playGame),
    vscode.commands.registerCommand('ludeme.showReport', showReport),
    vscode.workspace.onDidSaveTextDocument((document) => {
      const panel = boards.get(document.uri.fsPath);
      const command = binary();
      if (panel && command) void drawBoard(command, document.uri.fsPath, panel);
    }),
    {
      dispose() {
        for (const server of servers.values()) server.child.kill();
        servers.clear();
        for (const panel of boards.values()) panel.dispose();
        boards.clear();
      },
    },
  );
}

module.exports = { registerViewCommands, startServer, servedFolder };

'use strict';
// The VS Code client of `ludeme lsp`: finds the binary, starts the server over stdio for the four
// languages, passes the settings, and registers the commands that run the command line.

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { findServer } = require('./discovery');
const { registerCommands } = require('./cli');
const { registerViewCommands } = require('./webviews');
const { registerRulebook } = require('./rulebook');
const { registerPlayMatch } = require('./play-match');
const { LANGUAGE_IDS, gdlLanguageOf } = require('./languages');
const { explicitSetting } = require('./settings');
const { LENS_COMMANDS, lensDetails } = require('./lens-details');

/** @type {LanguageClient | undefined} */
let client;
/** @type {string | undefined} */
let serverCommand;
/** @type {vscode.OutputChannel} */
let output;

/**
 * The settings the server receives, at start (initializationOptions) and on every change. Only
 * what the user set is sent: the server takes the rest from the workspace's ludeme.toml.
 */
function serverSettings() {
  const probe = {};
  for (const name of ['enabled', 'games', 'seconds']) {
    const value = explicitSetting(`probe.${name}`);
    if (value !== undefined) probe[name] = value;
  }
  return { probe };
}

/** @param {vscode.ExtensionContext} context */
async function startClient(context) {
  let server;
  try {
    server = await findServer({ extensionPath: context.extensionPath });
  } catch (error) {
    serverCommand = undefined;
    output.appendLine(String(error.message));
    void vscode.window.showErrorMessage(error.message);
    return;
  }
  serverCommand = server.command;
  output.appendLine(`ludeme ${server.version} from ${server.source}: ${server.command}`);
  client = new LanguageClient(
    'ludeme',
    'Ludeme',
    { command: server.command, args: ['lsp'], transport: TransportKind.stdio },
    {
      documentSelector: LANGUAGE_IDS.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      initializationOptions: serverSettings(),
      outputChannel: output,
      // `ludeme.trace.server` is read by the client itself (its id is `ludeme`).
    },
  );
  await client.start();
}

async function stopClient() {
  const running = client;
  client = undefined;
  if (running) await running.stop();
}

/**
 * A `.gdl` file may be infix: give it the `hrf` language (and so its highlighting) when its text
 * says so, as the server does.
 * @param {vscode.TextDocument} document
 */
function sniffGdl(document) {
  if (document.languageId === 'gdl' && document.uri.path.toLowerCase().endsWith('.gdl')) {
    if (gdlLanguageOf(document.getText()) === 'hrf') {
      void vscode.languages.setTextDocumentLanguage(document, 'hrf');
    }
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  output = vscode.window.createOutputChannel('Ludeme');
  context.subscriptions.push(output);
  registerCommands(context, () => serverCommand);
  registerViewCommands(context, () => serverCommand);
  registerRulebook(context, () => client);
  registerPlayMatch(context, () => client);
  context.subscriptions.push(
    vscode.commands.registerCommand('ludeme.restartServer', async () => {
      await stopClient();
      await startClient(context);
    }),
    vscode.workspace.onDidOpenTextDocument(sniffGdl),
    ...Object.keys(LENS_COMMANDS).map((command) =>
      vscode.commands.registerCommand(command, async (argument) => {
        const document = await vscode.workspace.openTextDocument({
          content: lensDetails(command, argument),
          language: 'markdown',
        });
        await vscode.commands.executeCommand('markdown.showPreviewToSide', document.uri);
      }),
    ),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('ludeme.server.path')) {
        await stopClient();
        await startClient(context);
      } else if (event.affectsConfiguration('ludeme.probe') && client) {
        await client.sendNotification('workspace/didChangeConfiguration', {
          settings: { ludeme: serverSettings() },
        });
      }
    }),
  );
  vscode.workspace.textDocuments.forEach(sniffGdl);
  await startClient(context);
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate, serverSettings };

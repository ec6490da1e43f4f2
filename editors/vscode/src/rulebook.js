'use strict';
// Open Rulebook: the game's rulebook as a Markdown preview beside it. The text comes from the
// language server (`ludeme/rulebook`), which reads the editor's text, so unsaved edits count; a
// virtual document under the `ludeme-rulebook` scheme holds it, and each edit of the game asks
// for it again once the typing pauses.

const vscode = require('vscode');
const { LANGUAGE_IDS } = require('./languages');

const SCHEME = 'ludeme-rulebook';
/** How long the game must stay unedited before its rulebook is asked for again. */
const REFRESH_DELAY_MS = 300;
/** The JSON-RPC code of ContentModified: the game was edited while its rulebook was made. */
const CONTENT_MODIFIED = -32801;
/** How many times a request cancelled by ContentModified is sent. */
const ATTEMPTS = 3;

/**
 * Where the rulebook of a game lives: the game's path with `.rulebook.md` added (the `.md` makes
 * it Markdown, the path names the preview), and the game's URI as the query.
 * @param {{ path: string, toString(): string }} gameUri
 */
function rulebookLocation(gameUri) {
  return { scheme: SCHEME, path: `${gameUri.path}.rulebook.md`, query: gameUri.toString() };
}

/**
 * What the rulebook document shows for an answer of `ludeme/rulebook`, or for its failure (with
 * the last text shown, kept while the game is being edited).
 * @param {{ markdown?: string } | undefined} answer
 * @param {{ code?: number, message?: string } | undefined} error
 * @param {string | undefined} previous
 */
function rulebookText(answer, error, previous) {
  if (!error && answer && typeof answer.markdown === 'string') return answer.markdown;
  if (error && error.code === CONTENT_MODIFIED && previous !== undefined) return previous;
  const why = error ? error.message : 'the server gave no rulebook';
  return `*Ludeme: the rulebook could not be made: ${why}.*\n`;
}

/**
 * Runs `action(key)` once `delayMs` passed without another `schedule(key)`: one timer per key.
 * @param {(key: string) => void} action
 * @param {number} delayMs
 */
function debouncer(action, delayMs) {
  const timers = new Map();
  return {
    schedule(key) {
      clearTimeout(timers.get(key));
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          action(key);
        }, delayMs),
      );
    },
    dispose() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * The content provider of `ludeme-rulebook:` documents: each asks the language server for the
 * rulebook of the game named in its query.
 * @param {() => { sendRequest(method: string, params: unknown): Promise<any> } | undefined} client
 */
function rulebookProvider(client) {
  const changed = new vscode.EventEmitter();
  /** The last text shown per rulebook URI. */
  const shown = new Map();
  return {
    onDidChange: changed.event,
    /** Tells VS Code that the rulebook at `uri` changed: it asks for its content again. */
    refresh(uri) {
      changed.fire(uri);
    },
    forget(uri) {
      shown.delete(uri.toString());
    },
    async provideTextDocumentContent(uri) {
      const server = client();
      let answer;
      let error;
      if (server) {
        // A write elsewhere (the workspace scan landing) can cancel the request a few times
        // over; an edit of the game itself brings its own refresh.
        for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
          try {
            answer = await server.sendRequest('ludeme/rulebook', { textDocument: { uri: uri.query } });
            error = undefined;
            break;
          } catch (failure) {
            error = failure;
            if (failure.code !== CONTENT_MODIFIED) break;
          }
        }
      } else {
        error = { message: 'the language server is not running' };
      }
      const text = rulebookText(answer, error, shown.get(uri.toString()));
      shown.set(uri.toString(), text);
      return text;
    },
    dispose() {
      changed.dispose();
      shown.clear();
    },
  };
}

/**
 * Registers `ludeme.openRulebook` and the provider, and refreshes every open rulebook when its
 * game is edited.
 * @param {vscode.ExtensionContext} context
 * @param {() => any} client the running language client, if any
 */
function registerRulebook(context, client) {
  const provider = rulebookProvider(client);
  /** Rulebook URIs by the game URI they show. */
  const rulebooks = new Map();
  const refreshes = debouncer((game) => {
    const rulebook = rulebooks.get(game);
    if (rulebook) provider.refresh(rulebook);
  }, REFRESH_DELAY_MS);

  async function openRulebook() {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || !LANGUAGE_IDS.includes(document.languageId)) {
      void vscode.window.showInformationMessage('Ludeme: open a game file first.');
      return undefined;
    }
    const game = document.uri.toString();
    const rulebook = vscode.Uri.from(rulebookLocation(document.uri));
    rulebooks.set(game, rulebook);
    // Already open: show what the game says now.
    provider.refresh(rulebook);
    await vscode.commands.executeCommand('markdown.showPreviewToSide', rulebook);
    return rulebook;
  }

  context.subscriptions.push(
    provider,
    refreshes,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider),
    vscode.commands.registerCommand('ludeme.openRulebook', openRulebook),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const game = event.document.uri.toString();
      if (rulebooks.has(game)) refreshes.schedule(game);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme !== SCHEME) return;
      provider.forget(document.uri);
      rulebooks.delete(document.uri.query);
    }),
  );
}

module.exports = {
  registerRulebook,
  rulebookProvider,
  rulebookLocation,
  rulebookText,
  debouncer,
  SCHEME,
  REFRESH_DELAY_MS,
};

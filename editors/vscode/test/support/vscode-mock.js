'use strict';
// A stand-in for the `vscode` module, which exists only inside VS Code: enough of the API for the
// extension's modules, with its state open to the tests (settings, messages shown, commands
// registered, documents opened). Requiring this file makes `require('vscode')` return the mock.

const Module = require('node:module');

const mock = {
  /** Settings under `ludeme.`, keyed without the prefix (`server.path`). */
  settings: {},
  /** Every message the code showed, as [kind, text]. */
  messages: [],
  /** Registered command handlers by id. */
  commands: new Map(),
  /** Documents opened with `workspace.openTextDocument({ content, language })`. */
  opened: [],
  /** Language changes asked with `languages.setTextDocumentLanguage`, as [document, language]. */
  languageChanges: [],
  /** Handlers registered with `workspace.onDidOpenTextDocument`. */
  openListeners: [],
  /** Commands the code ran with `commands.executeCommand`, as [id, ...arguments]. */
  executed: [],
  /** The editor `window.activeTextEditor` returns. */
  activeTextEditor: undefined,
  /** Webview panels made with `window.createWebviewPanel`: { viewType, title, options, webview: { html } }. */
  panels: [],
  /** Handlers registered with `workspace.onDidSaveTextDocument`. */
  saveListeners: [],
  /** Handlers registered with `workspace.onDidChangeTextDocument` and `onDidCloseTextDocument`. */
  changeListeners: [],
  closeListeners: [],
  /** Content providers registered with `workspace.registerTextDocumentContentProvider`, by scheme. */
  contentProviders: new Map(),
  reset() {
    this.changeListeners = [];
    this.closeListeners = [];
    this.contentProviders = new Map();
    this.panels = [];
    this.saveListeners = [];
    this.settings = {};
    this.messages = [];
    this.commands = new Map();
    this.opened = [];
    this.executed = [];
    this.languageChanges = [];
    this.openListeners = [];
    this.activeTextEditor = undefined;
  },
};

const disposable = () => ({ dispose() {} });

/** A text document as the extension sees it, backed by `text`. */
mock.document = (fsPath, languageId, text, { dirty = false } = {}) => ({
  uri: { scheme: 'file', fsPath, path: fsPath },
  languageId,
  isDirty: dirty,
  getText: () => text,
  save: async () => true,
});

/** A minimal `vscode.EventEmitter`: listeners added through `event`, called by `fire`. */
class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return disposable();
    };
  }
  fire(value) {
    this.listeners.forEach((listener) => listener(value));
  }
  dispose() {
    this.listeners = [];
  }
}

const vscode = {
  ViewColumn: { Beside: -2 },
  EventEmitter,
  Uri: {
    parse: (text) => ({ text, toString: () => text }),
    // Query kept as given (VS Code decodes it the same way before handing it back).
    from: ({ scheme, path, query = '' }) => ({
      scheme,
      path,
      query,
      toString: () => `${scheme}:${path}${query ? `?${encodeURIComponent(query)}` : ''}`,
    }),
  },
  env: {
    // Local: the address is reachable as it is.
    asExternalUri: async (uri) => uri,
  },
  ProgressLocation: { Notification: 15 },
  workspace: {
    getConfiguration(section) {
      return {
        get(key, fallback) {
          const value = section === 'ludeme' ? mock.settings[key] : undefined;
          return value === undefined ? fallback : value;
        },
        // The mock's settings are the user's (global) settings.
        inspect(key) {
          const value = section === 'ludeme' ? mock.settings[key] : undefined;
          return { key: `${section}.${key}`, globalValue: value };
        },
      };
    },
    textDocuments: [],
    onDidOpenTextDocument(listener) {
      mock.openListeners.push(listener);
      return disposable();
    },
    onDidChangeConfiguration: () => disposable(),
    onDidSaveTextDocument(listener) {
      mock.saveListeners.push(listener);
      return disposable();
    },
    onDidChangeTextDocument(listener) {
      mock.changeListeners.push(listener);
      return disposable();
    },
    onDidCloseTextDocument(listener) {
      mock.closeListeners.push(listener);
      return disposable();
    },
    registerTextDocumentContentProvider(scheme, provider) {
      mock.contentProviders.set(scheme, provider);
      return disposable();
    },
    getWorkspaceFolder: () => undefined,
    async openTextDocument(options) {
      mock.opened.push(options);
      return { ...options, uri: { scheme: 'untitled', path: `Untitled-${mock.opened.length}` } };
    },
  },
  window: {
    get activeTextEditor() {
      return mock.activeTextEditor;
    },
    createOutputChannel: () => ({ appendLine() {}, dispose() {} }),
    showWarningMessage: async (text) => void mock.messages.push(['warning', text]),
    showErrorMessage: async (text) => void mock.messages.push(['error', text]),
    showInformationMessage: async (text) => void mock.messages.push(['information', text]),
    showTextDocument: async () => undefined,
    createWebviewPanel(viewType, title, showOptions, options) {
      const disposeListeners = [];
      const panel = {
        viewType,
        title,
        showOptions,
        options,
        webview: { html: '' },
        revealed: 0,
        reveal() {
          panel.revealed += 1;
        },
        onDidDispose(listener) {
          disposeListeners.push(listener);
          return disposable();
        },
        dispose() {
          disposeListeners.forEach((listener) => listener());
        },
      };
      mock.panels.push(panel);
      return panel;
    },
    withProgress: (_options, task) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: disposable }),
  },
  commands: {
    async executeCommand(id, ...args) {
      mock.executed.push([id, ...args]);
    },
    registerCommand(id, handler) {
      mock.commands.set(id, handler);
      return disposable();
    },
  },
  languages: {
    async setTextDocumentLanguage(document, language) {
      mock.languageChanges.push([document, language]);
      return document;
    },
  },
};

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolveFilename.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };

module.exports = mock;

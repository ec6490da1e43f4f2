'use strict';
// A language-server session over the same JSON-RPC library vscode-languageclient uses
// (vscode-jsonrpc), against the real `ludeme lsp`.

const path = require('node:path');
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-jsonrpc/node');

const REPOSITORY = path.resolve(__dirname, '..', '..', '..', '..');

/** The binary under test: $LUDEME_BIN, or the debug build of this checkout. */
function ludemeBinary() {
  const binary = process.env.LUDEME_BIN || path.join(REPOSITORY, 'target', 'debug', 'ludeme');
  if (!fs.existsSync(binary)) {
    throw new Error(`${binary} does not exist: run \`cargo build -p ludeme-cli\` or set LUDEME_BIN`);
  }
  return binary;
}

/** LSP's ContentModified error code. */
const CONTENT_MODIFIED = -32801;

/** How long a test waits for the server before it fails. */
const REPLY_TIMEOUT_MS = 30_000;

/** `promise`, or a failure after REPLY_TIMEOUT_MS naming `what` (text, or a function giving it then). */
function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const described = typeof what === 'function' ? what() : what;
      reject(new Error(`timed out waiting for ${described}`));
    }, REPLY_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class LspSession {
  constructor() {
    this.server = spawn(ludemeBinary(), ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.server.stderr.on('data', (chunk) => (this.stderr += chunk));
    this.connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(this.server.stdout),
      new rpc.StreamMessageWriter(this.server.stdin),
    );
    /** Every publishDiagnostics, in order, per URI. */
    this.published = new Map();
    /** Waiters for the next publication of a URI. */
    this.waiters = new Map();
    this.connection.onNotification('textDocument/publishDiagnostics', (params) => {
      const list = this.published.get(params.uri) ?? [];
      list.push(params);
      this.published.set(params.uri, list);
      // Taken off before they run: a waiter this publication does not satisfy registers itself
      // again for the next one, and must not be dropped with the ones it satisfied.
      const waiting = this.waiters.get(params.uri) ?? [];
      this.waiters.delete(params.uri);
      for (const waiter of waiting) waiter(params);
    });
    // Requests from the server that a real client answers (configuration, progress, ...).
    this.connection.onRequest(() => null);
    this.connection.listen();
  }

  async initialize(initializationOptions = {}) {
    return withTimeout(
      this.connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(REPOSITORY).href,
        capabilities: {
          textDocument: {
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
            hover: { contentFormat: ['markdown', 'plaintext'] },
            synchronization: { didSave: true },
          },
          general: { positionEncodings: ['utf-16'] },
        },
        initializationOptions,
      }),
      'initialize',
    ).then(async (result) => {
      await this.connection.sendNotification('initialized', {});
      return result;
    });
  }

  /**
   * Resolves with the next diagnostics published for `uri` that satisfy `accept` (the first one
   * already published counts too).
   */
  diagnostics(uri, accept = () => true) {
    const earlier = (this.published.get(uri) ?? []).find(accept);
    if (earlier) return Promise.resolve(earlier);
    const next = new Promise((resolve) => {
      const wait = (params) => {
        if (accept(params)) resolve(params);
        else this.waiters.set(uri, [...(this.waiters.get(uri) ?? []), wait]);
      };
      this.waiters.set(uri, [...(this.waiters.get(uri) ?? []), wait]);
    });
    const seen = () =>
      JSON.stringify((this.published.get(uri) ?? []).map((params) => params.version ?? null));
    return withTimeout(
      next,
      () => `diagnostics of ${uri} (versions published: ${seen()})${this.stderrTail()}`,
    );
  }

  /** The end of what the server wrote to stderr (a panic's message, say), for a failure. */
  stderrTail() {
    const tail = this.stderr.slice(-2000).trim();
    return tail ? `; the server's stderr ends with:\n${tail}` : '';
  }

  open(uri, languageId, text, version = 1) {
    return this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version, text },
    });
  }

  change(uri, version, contentChanges) {
    return this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges,
    });
  }

  /**
   * A hover. While the server answers ContentModified, ask again: LSP lets a server give up on a
   * request when its state changes under it (here: while it reads the workspace's other games).
   */
  async hover(uri, position) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await withTimeout(
          this.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position }),
          () => `hover in ${uri}${this.stderrTail()}`,
        );
      } catch (error) {
        if (!(error instanceof rpc.ResponseError) || error.code !== CONTENT_MODIFIED || attempt === 20) {
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async close() {
    try {
      await withTimeout(this.connection.sendRequest('shutdown'), 'shutdown');
      await this.connection.sendNotification('exit');
    } finally {
      this.connection.dispose();
      const exited = new Promise((resolve) => this.server.once('exit', resolve));
      if (this.server.exitCode === null) {
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      if (this.server.exitCode === null) this.server.kill();
    }
  }
}

/** The text a range covers. */
function textAt(text, range) {
  const lines = text.split('\n');
  if (range.start.line !== range.end.line) {
    throw new Error('textAt takes single-line ranges');
  }
  return lines[range.start.line].slice(range.start.character, range.end.character);
}

module.exports = { LspSession, textAt, ludemeBinary, REPOSITORY };

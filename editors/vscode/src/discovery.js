'use strict';
// Finding the `ludeme` binary: the `ludeme.server.path` setting, then the binary bundled in the
// extension (server/ludeme), then `ludeme` on PATH. A candidate counts only if `--version`
// answers like ludeme does, so a stale path or an unrelated program of the same name is skipped
// with a message instead of failing later as a broken language server.

const path = require('node:path');
const os = require('node:os');
const { execFile } = require('node:child_process');
const vscode = require('vscode');

const VERSION_TIMEOUT_MS = 10_000;
const BINARY_NAME = process.platform === 'win32' ? 'ludeme.exe' : 'ludeme';

/**
 * Runs `command --version` and returns the version it reports, or undefined when the command
 * does not start, fails, or is not ludeme.
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<string | undefined>}
 */
function ludemeVersion(command, env) {
  return new Promise((resolve) => {
    execFile(command, ['--version'], { env, timeout: VERSION_TIMEOUT_MS }, (error, stdout) => {
      const match = /^ludeme (\S+)/.exec(String(stdout).trim());
      resolve(!error && match ? match[1] : undefined);
    });
  });
}

/** `~/x` → the home folder's `x`, as users write paths in settings. */
function expandHome(file) {
  return file === '~' || file.startsWith('~/') ? path.join(os.homedir(), file.slice(1)) : file;
}

/**
 * The candidates, in the order they are tried.
 * @param {string} extensionPath
 * @returns {{ command: string, source: 'setting' | 'bundled' | 'PATH' }[]}
 */
function candidates(extensionPath) {
  const configured = vscode.workspace.getConfiguration('ludeme').get('server.path');
  const list = [];
  if (typeof configured === 'string' && configured.trim() !== '') {
    list.push({ command: expandHome(configured.trim()), source: 'setting' });
  }
  list.push({ command: path.join(extensionPath, 'server', BINARY_NAME), source: 'bundled' });
  // A bare name: execFile looks it up on the PATH of `env`.
  list.push({ command: BINARY_NAME, source: 'PATH' });
  return list;
}

/**
 * The first candidate that answers `--version` like ludeme.
 * @param {{ extensionPath: string, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<{ command: string, version: string, source: string }>}
 * @throws {Error} when no candidate works; the message says what was tried.
 */
async function findServer({ extensionPath, env = process.env }) {
  const tried = [];
  for (const candidate of candidates(extensionPath)) {
    const version = await ludemeVersion(candidate.command, env);
    if (version !== undefined) {
      return { ...candidate, version };
    }
    tried.push(`${candidate.command} (${candidate.source})`);
    if (candidate.source === 'setting') {
      // The user asked for this binary: say so rather than silently using another one.
      void vscode.window.showWarningMessage(
        `Ludeme: the ludeme.server.path setting names "${candidate.command}", which does not ` +
          'answer `--version` like ludeme; falling back to the bundled binary or PATH.',
      );
    }
  }
  throw new Error(
    `Ludeme: no working ludeme binary found (tried ${tried.join(', ')}). Install it with ` +
      '`cargo install --path cli` or set ludeme.server.path.',
  );
}

module.exports = { findServer, ludemeVersion };

'use strict';
// The pure parts of the board, play and report views: the command lines they run, the page
// address read from what `ludeme serve` prints, the address of one game on that page, and the
// HTML of each webview, always under a Content-Security-Policy that allows only what it shows.

const path = require('node:path');
const crypto = require('node:crypto');

/** `ludeme render FILE`: the SVG of the start position on standard output. */
function renderArgs(file) {
  return ['render', file];
}

/** `ludeme report FILE`: the self-contained HTML report on standard output. */
function reportArgs(file) {
  return ['report', file];
}

/** `ludeme serve FOLDER --port 0`: any free port; the address is printed. */
function serveArgs(folder) {
  return ['serve', folder, '--port', '0'];
}

/**
 * The page's address in what `ludeme serve` printed ("ludeme serve: the games of F at
 * http://127.0.0.1:PORT/"), or undefined while it has not printed it yet.
 * @param {string} output
 * @returns {string | undefined}
 */
function parseServeUrl(output) {
  const match = /\bat (https?:\/\/[^\s/]+\/)\s*$/m.exec(output);
  return match ? match[1] : undefined;
}

/**
 * The address of one game on the page served for `folder`: the page names a game by its path
 * under the folder, with forward slashes, in the fragment (`#` + encodeURIComponent(path)).
 * @param {string} pageUrl the served page, e.g. http://127.0.0.1:41234/
 * @param {string} folder the folder served
 * @param {string} file the game file, under `folder`
 * @param {typeof path} [paths] path functions of the platform (path.win32 in tests)
 * @returns {string | undefined} undefined when the file is not under the folder
 */
function gamePageUrl(pageUrl, folder, file, paths = path) {
  const relative = paths.relative(folder, file);
  if (relative === '' || relative.startsWith('..') || paths.isAbsolute(relative)) return undefined;
  const slashed = relative.split(paths.sep).join('/');
  const base = pageUrl.split('#')[0];
  return `${base.endsWith('/') ? base : `${base}/`}#${encodeURIComponent(slashed)}`;
}

/** A fresh nonce for a webview's own style. */
function nonce() {
  return crypto.randomBytes(16).toString('base64');
}

function escapeHtml(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The scheme, host and port of an address: what a CSP source names. */
function originOf(url) {
  return new URL(url).origin;
}

/**
 * The board view: the SVG as an image (a data: address, so nothing in it runs), on the editor's
 * background. No script; images from data: only; the one style by its nonce.
 * @param {string} svg
 * @param {{ title: string, nonce: string }} options
 */
function boardHtml(svg, { title, nonce: styleNonce }) {
  const data = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
  const csp = `default-src 'none'; img-src data:; style-src 'nonce-${styleNonce}'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(title)}</title>
<style nonce="${styleNonce}">
body { margin: 0; padding: 1em; display: flex; justify-content: center; }
img { max-width: 100%; height: auto; background: white; }
</style>
</head>
<body><img src="${data}" alt="${escapeHtml(title)}"></body>
</html>
`;
}

/**
 * The play view: the page of `ludeme serve` in a frame that fills the panel. Only that origin
 * may be framed; the webview itself loads and runs nothing else.
 * @param {string} url the game's page (already external, see vscode.env.asExternalUri)
 * @param {{ title: string, nonce: string }} options
 */
function playHtml(url, { title, nonce: styleNonce }) {
  const origin = originOf(url);
  const csp = `default-src 'none'; frame-src ${origin}; style-src 'nonce-${styleNonce}'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(title)}</title>
<style nonce="${styleNonce}">
html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; }
iframe { border: 0; width: 100%; height: 100%; background: white; }
</style>
</head>
<body><iframe src="${escapeHtml(url)}" title="${escapeHtml(title)}"></iframe></body>
</html>
`;
}

/**
 * The report view: the report page as it is, under a policy that lets it use its own inline
 * styles and data: images and nothing from elsewhere (the report loads nothing, by design);
 * scripts stay off in the webview.
 * @param {string} html the output of `ludeme report`
 */
function reportHtml(html) {
  const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp}">`;
  // The policy must come before anything it governs: first thing in <head>.
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) {
    const at = head.index + head[0].length;
    return `${html.slice(0, at)}\n${meta}${html.slice(at)}`;
  }
  return `<!DOCTYPE html><html><head>${meta}</head><body>${html}</body></html>`;
}

module.exports = {
  renderArgs,
  reportArgs,
  serveArgs,
  parseServeUrl,
  gamePageUrl,
  nonce,
  escapeHtml,
  boardHtml,
  playHtml,
  reportHtml,
};

'use strict';
// The pure parts of the board, play and report views: command lines, the address read from
// `ludeme serve`, a game's address on the page, and the webviews' HTML and policies.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const views = require('../../src/views');

/** The Content-Security-Policy of a page's <meta>. */
function policyOf(html) {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(match, 'the page has a Content-Security-Policy');
  return match[1];
}

test('the command lines of render, report and serve', () => {
  assert.deepEqual(views.renderArgs('/g/a.ludi'), ['render', '/g/a.ludi']);
  assert.deepEqual(views.reportArgs('/g/a.ludi'), ['report', '/g/a.ludi']);
  assert.deepEqual(views.serveArgs('/g'), ['serve', '/g', '--port', '0']);
});

test("the page's address is read from what ludeme serve prints", () => {
  assert.equal(
    views.parseServeUrl('ludeme serve: the games of /home/a/games at http://127.0.0.1:41237/\n'),
    'http://127.0.0.1:41237/',
  );
  // Folders with spaces, and the line about other machines after it.
  assert.equal(
    views.parseServeUrl(
      'ludeme serve: the games of /my games at http://[::1]:8080/\n' +
        'ludeme serve: listening on ::1: other machines can reach the page\n',
    ),
    'http://[::1]:8080/',
  );
  // Not printed yet, or only in part.
  assert.equal(views.parseServeUrl(''), undefined);
  assert.equal(views.parseServeUrl('ludeme serve: the games of . at http://127.0.0.1:4'), undefined);
});

test("a game's page names its path under the folder in the fragment", () => {
  assert.equal(
    views.gamePageUrl('http://127.0.0.1:5000/', '/w', '/w/corpus/gdl/ticTacToe.kif'),
    'http://127.0.0.1:5000/#corpus%2Fgdl%2FticTacToe.kif',
  );
  assert.equal(
    views.gamePageUrl('http://127.0.0.1:5000', '/w', '/w/a b#.ludi'),
    'http://127.0.0.1:5000/#a%20b%23.ludi',
  );
  assert.equal(
    views.gamePageUrl('http://localhost:9/', 'C:\\w', 'C:\\w\\games\\x.egg', path.win32),
    'http://localhost:9/#games%2Fx.egg',
  );
  assert.equal(views.gamePageUrl('http://127.0.0.1:5000/', '/w', '/elsewhere/a.kif'), undefined);
  assert.equal(views.gamePageUrl('http://127.0.0.1:5000/', '/w', '/w'), undefined);
});

test('the board is a data: image under a policy that runs nothing', () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect/></svg>';
  const html = views.boardHtml(svg, { title: 'Board of <a>.ludi', nonce: 'abc' });
  const policy = policyOf(html);
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, /img-src data:/);
  assert.match(policy, /style-src 'nonce-abc'/);
  assert.doesNotMatch(policy, /script-src/);
  const data = /<img src="data:image\/svg\+xml;base64,([^"]+)"/.exec(html);
  assert.ok(data, 'the SVG is an image');
  assert.equal(Buffer.from(data[1], 'base64').toString('utf8'), svg);
  assert.doesNotMatch(html, /<script/, 'the SVG is not inline');
  assert.match(html, /Board of &lt;a&gt;\.ludi/);
});

test('the play view frames the game page, and only its origin', () => {
  const url = 'http://127.0.0.1:41237/#corpus%2Fgdl%2FticTacToe.kif';
  const html = views.playHtml(url, { title: 'Play: "x"', nonce: 'n1' });
  const policy = policyOf(html);
  assert.equal(policy, "default-src 'none'; frame-src http://127.0.0.1:41237; style-src 'nonce-n1'");
  assert.match(html, /<iframe src="http:\/\/127\.0\.0\.1:41237\/#corpus%2Fgdl%2FticTacToe\.kif"/);
  assert.match(html, /title="Play: &quot;x&quot;"/);
  assert.doesNotMatch(html, /<script/);
});

test('the report keeps its page, under a policy put first in its head', () => {
  const report =
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<style>p{}</style></head><body><p>x</p></body></html>';
  const html = views.reportHtml(report);
  const policy = policyOf(html);
  assert.match(policy, /default-src 'none'/);
  assert.match(policy, /style-src 'unsafe-inline'/);
  assert.doesNotMatch(policy, /script-src/);
  assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<style>'));
  assert.ok(html.includes('<body><p>x</p></body>'));
  // A fragment without a head gets one.
  assert.match(policyOf(views.reportHtml('<p>x</p>')), /default-src 'none'/);
});

test('nonces differ', () => {
  assert.notEqual(views.nonce(), views.nonce());
});

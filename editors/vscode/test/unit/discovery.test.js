'use strict';
// Server discovery: the setting, then the bundled binary, then PATH; each candidate must answer
// `--version` like ludeme. The candidates are small shell scripts standing in for binaries.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const mock = require('../support/vscode-mock');
const { findServer } = require('../../src/discovery');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ludeme-discovery-'));
test.after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Writes an executable named `ludeme` in `folder` that answers `--version` with `versionLine`. */
function fakeBinary(folder, versionLine, status = 0) {
  const file = path.join(root, folder, 'ludeme');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo '${versionLine}'; exit ${status}; fi\nexit 2\n`,
    { mode: 0o755 },
  );
  return file;
}

const extensionWithBundle = path.join(root, 'extension-with-bundle');
const bundled = fakeBinary('extension-with-bundle/server', 'ludeme 1.0.0-bundled');
const extensionWithout = path.join(root, 'extension-without-bundle');
fs.mkdirSync(extensionWithout, { recursive: true });
const configured = fakeBinary('configured', 'ludeme 2.0.0-configured');
const onPath = fakeBinary('on-path', 'ludeme 3.0.0-path');
const impostor = fakeBinary('impostor', 'ludeme-but-not-really 1.0');
const crashing = fakeBinary('crashing', 'ludeme 4.0.0', 1);
const pathEnv = (folder) => ({ ...process.env, PATH: `${path.dirname(folder)}:/usr/bin:/bin` });
const emptyPath = { ...process.env, PATH: path.join(root, 'nothing-here') };

test.beforeEach(() => mock.reset());

test('the setting comes first when it answers --version', async () => {
  mock.settings['server.path'] = configured;
  const found = await findServer({ extensionPath: extensionWithBundle, env: pathEnv(onPath) });
  assert.deepEqual(found, { command: configured, source: 'setting', version: '2.0.0-configured' });
  assert.deepEqual(mock.messages, []);
});

test('a setting that does not answer like ludeme is reported and the bundled binary is used', async () => {
  for (const broken of [impostor, crashing, path.join(root, 'missing', 'ludeme')]) {
    mock.reset();
    mock.settings['server.path'] = broken;
    const found = await findServer({ extensionPath: extensionWithBundle, env: pathEnv(onPath) });
    assert.equal(found.command, bundled);
    assert.equal(found.source, 'bundled');
    assert.equal(mock.messages.length, 1);
    assert.equal(mock.messages[0][0], 'warning');
    assert.match(mock.messages[0][1], new RegExp(broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
});

test('a blank setting counts as unset', async () => {
  mock.settings['server.path'] = '   ';
  const found = await findServer({ extensionPath: extensionWithBundle, env: pathEnv(onPath) });
  assert.equal(found.source, 'bundled');
  assert.deepEqual(mock.messages, []);
});

test('without a setting the bundled binary wins over PATH', async () => {
  const found = await findServer({ extensionPath: extensionWithBundle, env: pathEnv(onPath) });
  assert.deepEqual(found, { command: bundled, source: 'bundled', version: '1.0.0-bundled' });
});

test('without a setting or a bundled binary, ludeme on PATH is used', async () => {
  const found = await findServer({ extensionPath: extensionWithout, env: pathEnv(onPath) });
  assert.deepEqual(found, { command: 'ludeme', source: 'PATH', version: '3.0.0-path' });
});

test('a program named ludeme on PATH that is not ludeme is refused', async () => {
  await assert.rejects(
    findServer({ extensionPath: extensionWithout, env: pathEnv(impostor) }),
    /no working ludeme binary found \(tried .*extension-without-bundle\/server\/ludeme \(bundled\), ludeme \(PATH\)\)/,
  );
});

test('nothing anywhere: the error says what was tried, including the setting', async () => {
  mock.settings['server.path'] = path.join(root, 'missing', 'ludeme');
  await assert.rejects(
    findServer({ extensionPath: extensionWithout, env: emptyPath }),
    (error) => {
      assert.match(error.message, /missing\/ludeme \(setting\)/);
      assert.match(error.message, /ludeme \(PATH\)/);
      assert.match(error.message, /ludeme\.server\.path/);
      return true;
    },
  );
});

test('~ in the setting is the home folder', async () => {
  const home = path.join(root, 'home');
  const inHome = fakeBinary('home/bin', 'ludeme 5.0.0-home');
  const savedHome = process.env.HOME;
  process.env.HOME = home;
  try {
    mock.settings['server.path'] = '~/bin/ludeme';
    const found = await findServer({ extensionPath: extensionWithout, env: emptyPath });
    assert.equal(found.command, inHome);
    assert.equal(found.version, '5.0.0-home');
  } finally {
    process.env.HOME = savedHome;
  }
});

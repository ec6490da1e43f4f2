'use strict';
// The details of the server's lenses, as Markdown.

const test = require('node:test');
const assert = require('node:assert/strict');
const { lensDetails } = require('../../src/lens-details');

test('a lens with its own Markdown shows it under a heading', () => {
  assert.equal(
    lensDetails('ludeme.showSimulation', { uri: 'file:///g.kif', markdown: '**3** games ended' }),
    '# Random play\n\n**3** games ended',
  );
});

test('a probe report lists its figures, without the document link', () => {
  const text = lensDetails('ludeme.showProbe', {
    uri: 'file:///g.ludi',
    viable: false,
    reasons: ['it results in draws more often than not'],
    games: 50,
    balance: null,
    drawishness: 0.8,
  });
  assert.equal(
    text,
    [
      '# Probe',
      '',
      '- **viable**: false',
      '**reasons**',
      '',
      '- it results in draws more often than not',
      '',
      '- **games**: 50',
      '- **balance**: n/a',
      '- **drawishness**: 0.8',
      '',
    ].join('\n'),
  );
  assert.doesNotMatch(text, /file:\/\/\/g\.ludi/);
});

test('nearest games link to their files; an empty list says none', () => {
  const text = lensDetails('ludeme.showNearest', {
    workspace: [],
    corpus: [{ title: 'Gomoku', uri: 'file:///corpus/gomoku.ludi', distance: 0.0123, class: 'variant' }],
  });
  assert.match(text, /\*\*workspace\*\*: none/);
  assert.match(text, /- \[Gomoku\]\(file:\/\/\/corpus\/gomoku\.ludi\) · distance 0\.0123 · class variant/);
});

test('figures: whole numbers from 100 up, three significant digits below', () => {
  const text = lensDetails('ludeme.showBench', {
    playouts: 1234,
    playouts_per_second: 12345.678,
    seconds: 0.1,
    balance: 0.5004,
    length: 10.02,
  });
  assert.match(text, /- \*\*playouts\*\*: 1234$/m);
  assert.match(text, /- \*\*playouts per second\*\*: 12346$/m);
  assert.match(text, /- \*\*seconds\*\*: 0\.1$/m);
  assert.match(text, /- \*\*balance\*\*: 0\.5$/m);
  assert.match(text, /- \*\*length\*\*: 10$/m);
});

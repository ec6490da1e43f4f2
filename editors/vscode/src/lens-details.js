'use strict';
// The server's code lenses (probe verdict, nearest games, playout speed, random-play findings)
// name client commands (`ludeme.showProbe`, ...) whose argument carries the details. This turns
// such an argument into Markdown for a preview: its own `markdown` when it has one, otherwise its
// fields as a list, so a field the server adds later still shows.

const LENS_COMMANDS = {
  'ludeme.showProbe': 'Probe',
  'ludeme.showNearest': 'Nearest games',
  'ludeme.showBench': 'Random playouts',
  'ludeme.showSimulation': 'Random play',
};

/** `first_move_advantage` → `first move advantage`. */
function label(key) {
  return key.replace(/_/g, ' ');
}

function scalar(value) {
  if (typeof value === 'number') {
    if (Number.isInteger(value) || Math.abs(value) >= 100) return String(Math.round(value));
    const figure = value.toPrecision(3);
    // 0.500 → 0.5, 10.0 → 10; never touch an exponent.
    return figure.includes('e') ? figure : figure.replace(/\.?0+$/, '');
  }
  if (value === null || value === undefined) return 'n/a';
  return String(value);
}

/** A game of a list: its title linked to its file when it has both. */
function entry(item) {
  if (item && typeof item === 'object' && !Array.isArray(item)) {
    const { title, uri, ...rest } = item;
    const name = title !== undefined && uri ? `[${title}](${uri})` : scalar(title ?? uri);
    const details = Object.entries(rest).map(([key, value]) => `${label(key)} ${scalar(value)}`);
    return [name, ...details].join(' · ');
  }
  return scalar(item);
}

/**
 * @param {string} command one of LENS_COMMANDS
 * @param {unknown} argument the lens command's first argument
 * @returns {string} Markdown
 */
function lensDetails(command, argument) {
  const heading = `# ${LENS_COMMANDS[command] ?? command}\n\n`;
  if (argument && typeof argument === 'object' && typeof argument.markdown === 'string') {
    return heading + argument.markdown;
  }
  if (!argument || typeof argument !== 'object') {
    return heading + scalar(argument);
  }
  const lines = [];
  for (const [key, value] of Object.entries(argument)) {
    if (key === 'uri') continue;
    if (Array.isArray(value)) {
      lines.push(`**${label(key)}**${value.length === 0 ? ': none' : ''}`, '');
      for (const item of value) lines.push(`- ${entry(item)}`);
      lines.push('');
    } else {
      lines.push(`- **${label(key)}**: ${scalar(value)}`);
    }
  }
  return heading + lines.join('\n').trim() + '\n';
}

module.exports = { LENS_COMMANDS, lensDetails };

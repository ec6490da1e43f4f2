'use strict';
// Reading the extension's settings.

const vscode = require('vscode');

/**
 * The value of `ludeme.<key>` when the user set it (in any scope), else undefined: unset budgets
 * are left to the workspace's ludeme.toml and the command line's defaults, rather than replaced
 * by the defaults package.json shows.
 * @param {string} key e.g. `probe.games`
 */
function explicitSetting(key) {
  const inspected = vscode.workspace.getConfiguration('ludeme').inspect(key);
  if (!inspected) return undefined;
  for (const scope of ['workspaceFolderValue', 'workspaceValue', 'globalValue']) {
    if (inspected[scope] !== undefined) return inspected[scope];
  }
  return undefined;
}

module.exports = { explicitSetting };

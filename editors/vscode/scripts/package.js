'use strict';
// `npm run package`: builds the release `ludeme` binary with cargo, puts it in server/ (where the
// extension looks for its bundled binary), and packages the extension for this platform with
// `vsce package --target`, into dist/ludeme-<target>-<version>.vsix.
//
// LUDEME_BIN=/path/to/ludeme skips the cargo build and bundles that binary instead.

const path = require('node:path');
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');

const extensionDir = path.resolve(__dirname, '..');
const repository = path.resolve(extensionDir, '..', '..');
const manifest = require(path.join(extensionDir, 'package.json'));

/** The VS Code platform target of this machine (the binary only runs where it was built). */
function vsceTarget() {
  const platforms = { linux: 'linux', darwin: 'darwin', win32: 'win32' };
  const architectures = { x64: 'x64', arm64: 'arm64' };
  const platform = platforms[process.platform];
  const architecture = architectures[process.arch];
  if (!platform || !architecture) {
    throw new Error(`no VS Code target for ${process.platform}-${process.arch}`);
  }
  return `${platform}-${architecture}`;
}

function run(command, args, cwd) {
  console.log(`$ ${[command, ...args].join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit' });
}

function releaseBinary() {
  if (process.env.LUDEME_BIN) return process.env.LUDEME_BIN;
  run('cargo', ['build', '--release', '--locked', '-p', 'ludeme', '--bin', 'ludeme'], repository);
  const targetDir = process.env.CARGO_TARGET_DIR
    ? path.resolve(repository, process.env.CARGO_TARGET_DIR)
    : path.join(repository, 'target');
  return path.join(targetDir, 'release', process.platform === 'win32' ? 'ludeme.exe' : 'ludeme');
}

const target = vsceTarget();
const binary = releaseBinary();
const bundled = path.join(extensionDir, 'server', path.basename(binary));
fs.rmSync(path.join(extensionDir, 'server'), { recursive: true, force: true });
fs.mkdirSync(path.dirname(bundled), { recursive: true });
fs.copyFileSync(binary, bundled);
fs.chmodSync(bundled, 0o755);
const version = execFileSync(bundled, ['--version'], { encoding: 'utf8' }).trim();
console.log(`bundling ${version} (${binary})`);

fs.mkdirSync(path.join(extensionDir, 'dist'), { recursive: true });
const vsix = path.join('dist', `ludeme-${target}-${manifest.version}.vsix`);
const vsce = path.join(extensionDir, 'node_modules', '.bin', 'vsce');
run(vsce, ['package', '--target', target, '--out', vsix, '--skip-license', '--allow-missing-repository'], extensionDir);
console.log(`packaged ${path.join(extensionDir, vsix)}`);

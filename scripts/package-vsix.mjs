// Builds the production bundle and packs it into dist/judge-studio.vsix.
// Usage: node scripts/package-vsix.mjs [--out <file.vsix>]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = path.resolve(root, values.out ?? 'dist/judge-studio.vsix');

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`package-vsix: \`node ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

run(['esbuild.mjs', '--production']);

// esbuild.mjs silently skips entry points that do not exist yet; a VSIX without its main
// module would install fine and then fail to activate, so stop here instead.
const main = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).main;
if (main && !existsSync(path.join(root, main))) {
  console.error(`package-vsix: package.json "main" is ${main}, but the build did not produce it`);
  process.exit(1);
}

// The local vsce (a devDependency) rather than npx: no prompt, no registry lookup.
const vsce = path.join(path.dirname(createRequire(import.meta.url).resolve('@vscode/vsce/package.json')), 'vsce');
rmSync(out, { force: true });
// Plain `vsce package` settings: the README's relative links (docs/, docs/images/) become absolute
// URLs of package.json's GitHub repository, which the Marketplace requires. esbuild bundles every
// dependency, so none are packed. vsce runs `vscode:prepublish` (the production build) again: cheap.
run([vsce, 'package', '--no-dependencies', '--out', out]);
console.log(`package-vsix: ${path.relative(root, out)} (${(statSync(out).size / 1024).toFixed(0)} KiB)`);

// `npm run reference`: writes docs/reference/{diagnostics,columns,error-kinds}.md from the
// registries in src/core, and docs/reference/cli.md from the CLI's option tables in src/cli/options
// (bundled in memory with esbuild, so nothing needs compiling first).
// --check: writes nothing, exits 1 when a file differs from what the registries give.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

/** The module `entry` (relative to the root), bundled and imported. */
async function load(entry) {
  const built = await esbuild.build({
    entryPoints: [path.join(root, entry)],
    bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'error',
  });
  return import(`data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString('base64')}`);
}
const { referenceFiles } = await load('src/core/reference/index.ts');
const { cliReferenceFiles } = await load('src/cli/options/reference.ts');

let stale = 0;
for (const { path: rel, text } of [...referenceFiles(), ...cliReferenceFiles()]) {
  const file = path.join(root, rel);
  let current;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) continue;
  stale++;
  if (check) {
    console.error(`reference: ${rel} differs from the registries and option tables; run \`npm run reference\``);
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`reference: wrote ${rel}`);
  }
}
if (check && stale) process.exit(1);
if (!stale) console.log('reference: docs/reference/ matches the registries');

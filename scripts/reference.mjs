// `npm run reference`: writes docs/reference/{diagnostics,columns,error-kinds}.md from the
// registries in src/core (bundled in memory with esbuild, so nothing needs compiling first).
// --check: writes nothing, exits 1 when a file differs from what the registries give.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const built = await esbuild.build({
  entryPoints: [path.join(root, 'src/core/reference/index.ts')],
  bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'error',
});
const url = `data:text/javascript;base64,${Buffer.from(built.outputFiles[0].text).toString('base64')}`;
const { referenceFiles } = await import(url);

let stale = 0;
for (const { path: rel, text } of referenceFiles()) {
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
    console.error(`reference: ${rel} differs from the registry; run \`npm run reference\``);
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`reference: wrote ${rel}`);
  }
}
if (check && stale) process.exit(1);
if (!stale) console.log('reference: docs/reference/ matches the registries');

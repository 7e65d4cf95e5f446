// The extension-host tests (out/test/e2e/suite) in desktop VS Code via @vscode/test-electron, for
// machines that can download VS Code (a laptop, hosted CI; on Linux run it under `xvfb-run -a`).
// Machines without that access use scripts/e2e.mjs (code-server) instead, with the same suite.
// Needs: npm run build && npm run compile-tests. Env: E2E_GREP.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';
import { prepareWorkspace } from '../test/e2e/harness/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, '.test-output/electron');
const suite = path.join(root, 'out/test/e2e/suite/index.js');
const resultsFile = path.join(outDir, 'results.json');

if (!existsSync(suite)) {
  console.error(`test-electron: ${path.relative(root, suite)} is missing: run \`npm run compile-tests\``);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
rmSync(resultsFile, { force: true });

let error;
try {
  await runTests({
    version: '1.100.3', // the VS Code inside code-server 4.100.3, so both paths test the same API
    extensionDevelopmentPath: root,
    extensionTestsPath: suite,
    launchArgs: [prepareWorkspace(root, path.join(outDir, 'workspace')), '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: { E2E_RESULTS: resultsFile, ...(process.env.E2E_GREP ? { E2E_GREP: process.env.E2E_GREP } : {}) },
  });
} catch (e) {
  error = e; // a non-zero exit from the tests, or VS Code could not be downloaded or started
}

const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined;
for (const title of results?.passed ?? []) console.log(`  ✓ ${title}`);
for (const f of results?.failed ?? []) console.log(`  ✗ ${f.title}\n    ${f.error.split('\n').join('\n    ')}`);
// Like scripts/e2e.mjs: the results file and the exit status must agree before it is green.
const problem = !results
  ? `the suite wrote no results (${error?.message ?? 'VS Code exited without an error'})`
  : error && !results.failed.length ? `VS Code failed after the suite reported no failures: ${error.message}` : undefined;
if (problem) console.error(`test-electron: ${problem}`);
const failed = (results?.failed.length ?? 0) + (problem ? 1 : 0);
console.log(`e2e: ${results?.passed.length ?? 0} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

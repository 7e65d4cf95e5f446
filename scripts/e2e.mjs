// End-to-end tests in a real VS Code: code-server 4.100.3 (from test/host/) driven by Chromium.
//  1. extension-host mocha suites (out/test/e2e/suite/*.test.js) against the repo as the
//     extension under development;
//  2. UI tests (out/test/e2e/ui/*.ui.js) against the installed dist/judge-studio.vsix, each in a
//     fresh browser context on its own copy of examples/; `trusted = false` ones on a second
//     server with Workspace Trust on (Restricted Mode).
// Needs: bash scripts/setup-e2e.sh, node scripts/package-vsix.mjs, npm run compile-tests.
// Env: E2E_GREP (a regular expression over test titles); E2E_REPEAT=N runs it all N times in a row
// and reports the tests that passed in some rounds and failed in others (never a retry). Output:
// .test-output/e2e/run-*/.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../test/e2e/harness/browser.mjs';
import {
  QUIET_SETTINGS, codeServerBin, freePort, installExtension, isolatedEnv, startCodeServer, writeConfig, writeUserSettings,
} from '../test/e2e/harness/codeServer.mjs';
import { runExtensionHostTests } from '../test/e2e/harness/extHost.mjs';
import { loadUiTests, runUiTest } from '../test/e2e/harness/ui.mjs';
import { parseRepeat, repeatRuns } from '../test/e2e/harness/repeat.mjs';
import { prepareWorkspace } from '../test/e2e/harness/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let repeat;
try {
  repeat = parseRepeat(process.env.E2E_REPEAT);
} catch (e) {
  console.error(`e2e: ${e.message}`);
  process.exit(2);
}
if (repeat !== undefined) {
  // Ctrl-C reaches each round's process too, which stops its servers and exits 130; the loop then ends.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  const outcomes = await repeatRuns(fileURLToPath(import.meta.url), repeat);
  for (const line of outcomes.report()) console.log(line);
  process.exit(outcomes.ok() ? 0 : 1);
}
const started = Date.now();
const KEEP_RUNS = Math.max(5, Number(process.env.E2E_KEEP_RUNS) || 5);
const SUITE_TIMEOUT_MS = 5 * 60_000;

const runsDir = path.join(root, '.test-output/e2e');
const runDir = path.join(runsDir, `run-${new Date().toISOString().replace(/\D/g, '').slice(0, 17)}`); // run-YYYYMMDDhhmmssSSS
const outDir = path.join(runDir, 'screenshots');
const grep = parseGrep(process.env.E2E_GREP);
const counts = { passed: 0, failed: 0 };
/** Every result, for E2E_OUTCOMES (the repeat report): [{ name, ok, error }] */
const results = [];
const cleanups = [];
let stopping = 0; // the exit code once SIGINT/SIGTERM arrives: start nothing new, report nothing more
let cleaning;

function need(file, hint) {
  if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: ${hint}`);
  return file;
}

/** One code-server with its own HOME, user data and log under runDir/<name>/. */
async function serve(name, { trusted, extensionsDir, env }) {
  if (stopping) throw new Error('interrupted');
  const dir = path.join(runDir, name);
  const userDataDir = path.join(dir, 'user-data');
  writeUserSettings(userDataDir, {
    ...QUIET_SETTINGS,
    'security.workspace.trust.enabled': !trusted,
    // Untrusted runs open straight into Restricted Mode instead of asking in a modal dialog.
    ...(trusted ? {} : { 'security.workspace.trust.startupPrompt': 'never' }),
  });
  const server = await startCodeServer({
    bin: codeServerBin(root), port: await freePort(), userDataDir, extensionsDir, env,
    configFile: writeConfig(path.join(dir, 'config.yaml')), logFile: path.join(dir, 'code-server.log'),
    workspaceTrust: !trusted,
  });
  cleanups.push(() => server.stop());
  return server;
}

function report(ok, label, detail, name = label) {
  if (stopping) return;
  counts[ok ? 'passed' : 'failed']++;
  results.push({ name, ok, error: detail });
  const lines = detail ? detail.split('\n').filter((l) => l.trim()).map((l) => `\n    ${l.trim()}`).join('') : '';
  console.log(`  ${ok ? '✓' : '✗'} ${label}${lines}`);
}

async function runUi(browser, server, tests, driver) {
  for (const test of tests) {
    if (stopping) return;
    const workspace = prepareWorkspace(root, path.join(runDir, 'workspaces', test.name));
    const r = await runUiTest({ browser, baseUrl: server.baseUrl, test, workspace, outDir, driver });
    const label = `${test.name}: ${test.title || '(no title)'} (${(r.ms / 1000).toFixed(1)} s)`;
    report(r.ok, label, r.ok ? '' : `${r.error}${r.screenshot ? `\n    screenshot: ${r.screenshot}` : ''}`, test.name);
    if (r.external.length) console.log(`    note: the page contacted ${r.external.join(', ')}`);
  }
}

async function main() {
  const outTests = path.join(root, 'out/test/e2e');
  const suiteIndex = path.join(outTests, 'suite/index.js');
  const suiteFiles = existsSync(path.dirname(suiteIndex))
    ? readdirSync(path.dirname(suiteIndex)).filter((f) => f.endsWith('.test.js'))
    : [];
  const uiTests = loadUiTests(path.join(outTests, 'ui'), grep);
  if (!suiteFiles.length && !uiTests.length) {
    throw new Error(`no e2e tests under ${path.relative(root, outTests)}${grep ? ` matching E2E_GREP=${grep.source}` : ''} (run \`npm run compile-tests\`)`);
  }
  const vsix = need(path.join(root, 'dist/judge-studio.vsix'), 'run `node scripts/package-vsix.mjs`');
  if (suiteFiles.length) need(suiteIndex, 'run `npm run compile-tests`');
  const driver = uiTests.length
    ? createRequire(import.meta.url)(need(path.join(outTests, 'ui/driver.js'), 'run `npm run compile-tests`'))
    : undefined;

  mkdirSync(runDir, { recursive: true });
  pruneOldRuns();
  // One TMPDIR for code-server and Chromium (sockets, temp profile). Socket paths are limited to
  // 107 bytes, too short for one inside runDir, so it is a short dir under the system temp,
  // linked as runDir/tmp while the run lasts.
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'je2e-'));
  symlinkSync(tmpDir, path.join(runDir, 'tmp'));
  cleanups.push(async () => {
    rmSync(tmpDir, { recursive: true, force: true });
    rmSync(path.join(runDir, 'tmp'), { force: true });
  });
  process.env.TMPDIR = tmpDir;
  const resultsFile = path.join(runDir, 'extension-host-results.json');
  const env = { ...isolatedEnv(runDir, { tmpDir }), EXTENSIONS_GALLERY: '{}', E2E_RESULTS: resultsFile };
  const extensionsDir = path.join(runDir, 'extensions');
  installExtension({
    bin: codeServerBin(root), vsix, extensionsDir, env,
    userDataDir: path.join(runDir, 'trusted/user-data'), configFile: writeConfig(path.join(runDir, 'trusted/config.yaml')),
  });

  const browser = await launchBrowser(env); // its HOME too: Chromium keeps an NSS db there
  cleanups.push(() => browser.close());
  console.log(`e2e: output in ${path.relative(root, runDir)}`);

  const server = await serve('trusted', { trusted: true, extensionsDir, env });
  if (suiteFiles.length) {
    console.log(`extension host (${suiteFiles.length} file(s)):`);
    const r = await runExtensionHostTests({
      browser, baseUrl: server.baseUrl, root, testsPath: suiteIndex, resultsFile, timeoutMs: SUITE_TIMEOUT_MS,
      workspace: prepareWorkspace(root, path.join(runDir, 'workspaces/extension-host')),
    });
    for (const title of r.passed) report(true, title);
    for (const f of r.failed) report(false, f.title, f.error);
  }
  const trustedUi = uiTests.filter((t) => t.trusted);
  if (trustedUi.length) {
    console.log('UI:');
    await runUi(browser, server, trustedUi, driver);
  }
  await server.stop();

  const untrustedUi = uiTests.filter((t) => !t.trusted);
  if (untrustedUi.length && !stopping) {
    console.log('UI, Restricted Mode (untrusted workspace):');
    const restricted = await serve('untrusted', { trusted: false, extensionsDir, env });
    await runUi(browser, restricted, untrustedUi, driver);
    await restricted.stop();
  }
}

function parseGrep(source) {
  if (!source) return undefined;
  try {
    return new RegExp(source);
  } catch (e) {
    console.error(`e2e: E2E_GREP is not a valid regular expression: ${e.message}`);
    process.exit(2);
  }
}

/** Keeps the newest KEEP_RUNS run directories (names sort by start time). */
function pruneOldRuns() {
  const runs = readdirSync(runsDir).filter((d) => d.startsWith('run-')).sort();
  for (const old of runs.slice(0, -KEEP_RUNS)) rmSync(path.join(runsDir, old), { recursive: true, force: true });
}

/** Stops everything started so far, in reverse order; every caller awaits the same run. */
function cleanup() {
  cleaning ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
  })();
  return cleaning;
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  // `on`, not `once`: Ctrl-C under npm delivers SIGINT twice, and the default action for the
  // second would kill this process before code-server is stopped.
  process.on(signal, () => {
    if (stopping) return;
    stopping = code;
    console.error(`\ne2e: ${signal}, stopping code-server and Chromium`);
    cleanup().finally(() => process.exit(code));
  });
}

let error;
try {
  await main();
} catch (e) {
  error = e;
} finally {
  await cleanup();
}
if (stopping) process.exit(stopping); // interrupted: whatever main() saw after that is noise
if (error) {
  counts.failed++;
  results.push({ name: '(the e2e run itself)', ok: false, error: error.message });
  console.error(`e2e: ${error.message}`);
}
if (process.env.E2E_OUTCOMES) writeFileSync(process.env.E2E_OUTCOMES, JSON.stringify(results));
if (!counts.passed && !counts.failed) console.error(`e2e: no test ran${grep ? ` (E2E_GREP=${grep.source} matched none)` : ''}`);
console.log(`e2e: wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`e2e: ${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed || !counts.passed ? 1 : 0);

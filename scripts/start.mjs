// `npm start`: build and package Judge Studio, then open it on a scratch copy of examples/ in a
// real VS Code, so trying the editor never edits the repository's tracked files.
//  - a `code` on PATH: desktop VS Code, with this checkout as the extension under development;
//  - otherwise (or with --code-server): code-server from test/host/ with the VSIX installed,
//    served on http://127.0.0.1:<port> until Ctrl-C. Workspace Trust is on, as for any user.
// Every step says what it does and how long it took; a step that takes minutes (the first install
// of code-server) says so while it runs. The URL comes last, framed, with what to do next.
// The copy lives in .test-output/start/examples and survives restarts; --fresh copies it again.
// A judge endpoint left in the profile or the copy from an earlier session is tried at start.
// Options: --port N (or env PORT; default 8080), --code-server, --fresh.
import { spawn } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  QUIET_SETTINGS, codeServerBin, installExtension, portInUse, startCodeServer, writeConfig, writeUserSettings,
} from '../test/e2e/harness/codeServer.mjs';
import { banner, createProgress, useColor } from './lib/progress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.test-output/start');
/** The workspace opened: a copy of examples/, never examples/ itself. */
const examples = path.join(dir, 'examples');
const CODE_SERVER_VERSION = JSON.parse(readFileSync(path.join(root, 'test/host/package.json'), 'utf8')).dependencies['code-server'];

function fail(message, code = 1) {
  console.error(`\nstart: ${message}`);
  process.exit(code);
}

/** Runs a command with its output shown; resolves when it exits 0, else stops `npm start` with the reason. */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (e) => fail(`\`${cmd}\` could not start: ${e.message}`));
    child.on('exit', (status, signal) => (status === 0 ? resolve() : fail(`\`${cmd} ${args.join(' ')}\` failed (exit ${status ?? signal})`)));
  });
}

function onPath(name) {
  for (const d of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    try {
      accessSync(path.join(d, name), constants.X_OK);
      return path.join(d, name);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * How far the npm install under test/host/ has got: packages are unpacked first, then their
 * install scripts run (native modules build from source), which is most of the wait.
 */
let lastCount = -1;
function installProgress() {
  let count = 0;
  try {
    count = readdirSync(path.join(root, 'test/host/node_modules')).filter((n) => !n.startsWith('.')).length;
  } catch {
    return 'resolving packages';
  }
  const growing = count !== lastCount;
  lastCount = count;
  return growing ? `${count} packages unpacked` : `${count} packages unpacked, running their install scripts (native modules build from source)`;
}

let values;
try {
  ({ values } = parseArgs({ options: { port: { type: 'string' }, 'code-server': { type: 'boolean' }, fresh: { type: 'boolean' } } }));
} catch (e) {
  fail(`${e.message}\nusage: npm start -- [--port N] [--code-server] [--fresh]`, 2);
}
const port = Number(values.port ?? process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a whole number from 1 to 65535, not "${values.port ?? process.env.PORT}"`, 2);

const code = values['code-server'] ? undefined : onPath('code');
const progress = createProgress(code ? 3 : 5);
console.log(
  code
    ? `start: opening Judge Studio in your desktop VS Code (${code}); pass --code-server to use the project's own VS Code in a browser instead.`
    : `start: Judge Studio in the project's own VS Code (code-server ${CODE_SERVER_VERSION}), served on http://127.0.0.1:${port}. ` +
        'Another port: `npm start -- --port 9000` (or PORT=9000 npm start).',
);
// A busy port is found now, not after minutes of building and installing.
if (!code && (await portInUse(port))) fail(`port ${port} on 127.0.0.1 is in use: pass another with \`npm start -- --port N\``);

let step = progress.step(code ? 'Building Judge Studio (esbuild)' : 'Building and packaging Judge Studio (esbuild, then vsce into dist/judge-studio.vsix)');
await run(process.execPath, code ? [path.join(root, 'esbuild.mjs')] : [path.join(root, 'scripts/package-vsix.mjs')]);
step.done();

step = progress.step('Preparing the workspace: a scratch copy of examples/');
if (values.fresh) rmSync(examples, { recursive: true, force: true });
if (!existsSync(examples)) {
  cpSync(path.join(root, 'examples'), examples, { recursive: true });
  step.done(`copied to ${path.relative(root, examples)} (edit it freely; \`npm start -- --fresh\` starts over)`);
} else {
  step.done(`reusing ${path.relative(root, examples)} (\`npm start -- --fresh\` copies examples/ again)`);
}

/** Settings from a VS Code settings.json (comments and trailing commas allowed); {} when absent or unreadable. */
function readSettings(file) {
  try {
    const text = readFileSync(file, 'utf8').replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str) => str ?? '').replace(/,(\s*[}\]])/g, '$1');
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** A judge endpoint saved by an earlier session is tried now, so a dead one is noticed before the first run. */
async function checkEndpoint(settingsFiles) {
  for (const file of settingsFiles) {
    const baseUrl = readSettings(file)['judgeStudio.endpoint.baseUrl'];
    if (typeof baseUrl !== 'string' || baseUrl === '') continue;
    const where = path.relative(root, file);
    try {
      const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, { signal: AbortSignal.timeout(3000) });
      // Any HTTP answer (401 without a key included) means something is listening there.
      console.log(`start: the judge endpoint ${baseUrl} (from ${where}) answers (HTTP ${res.status}).`);
    } catch (e) {
      console.warn(
        `start: WARNING: the judge endpoint ${baseUrl}, saved in ${where} by an earlier session, does not answer ` +
          `(${e.cause?.code ?? e.cause?.message ?? e.message}). Start that server, or change it with "Judge Studio: Configure Endpoint" ` +
          `(or delete the setting) before running a judge.`,
      );
    }
  }
}

const TRUST = [
  'When VS Code asks "Do you trust the authors of the files in this folder?", choose',
  '"Yes, I trust the authors". Until then the folder is in Restricted Mode: templates',
  'highlight, validate and preview, but no judge runs (the endpoint settings are ignored).',
];

if (code) {
  step = progress.step('Opening desktop VS Code with Judge Studio under development');
  await checkEndpoint([path.join(examples, '.vscode/settings.json')]);
  // The desktop CLI hands the window to VS Code and returns; nothing to stop here.
  const child = spawn(code, [`--extensionDevelopmentPath=${root}`, examples], { stdio: 'inherit' });
  child.on('exit', (status) => {
    step.done();
    console.log(`\n${banner(['Judge Studio is open in VS Code on:', `  ${examples}`, '', ...TRUST], { color: useColor() })}\n`);
    process.exit(status ?? 1);
  });
} else {
  step = progress.step(`The project's own VS Code: code-server ${CODE_SERVER_VERSION} in test/host/`);
  if (existsSync(path.join(root, 'test/host/node_modules/.bin/code-server'))) console.log('      installed already, or checked against its lockfile now');
  else console.log('      first time only: an npm install of about 450 MB that takes 2–5 minutes and prints little; progress below');
  await step.watch(run('bash', [path.join(root, 'scripts/setup-e2e.sh')]), 'installing code-server', installProgress);
  step.done();
  const bin = codeServerBin(root);

  // A persistent profile (settings, trust decisions, open editors survive restarts), kept out of
  // the user's own ~/.local/share/code-server.
  const o = {
    bin, port, env: process.env,
    userDataDir: path.join(dir, 'user-data'), extensionsDir: path.join(dir, 'extensions'),
    configFile: writeConfig(path.join(dir, 'config.yaml')), logFile: path.join(dir, 'code-server.log'),
  };
  step = progress.step('Installing Judge Studio into the profile in .test-output/start/');
  writeUserSettings(o.userDataDir, { ...QUIET_SETTINGS, 'security.workspace.trust.enabled': true }, { onlyIfMissing: true });
  installExtension({ ...o, vsix: path.join(root, 'dist/judge-studio.vsix') });
  await checkEndpoint([path.join(o.userDataDir, 'User/settings.json'), path.join(examples, '.vscode/settings.json')]);
  step.done();

  step = progress.step(`Starting VS Code on http://127.0.0.1:${port}`);
  if (await portInUse(port)) fail(`port ${port} on 127.0.0.1 was taken while Judge Studio was being prepared: pass another with \`npm start -- --port N\``);
  const server = await startCodeServer({ ...o, workspaceTrust: true }).catch((e) => fail(e.message));
  step.done(`log: ${path.relative(root, o.logFile)}`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(() => process.exit(0));
  };
  // `on`, not `once`: Ctrl-C under npm delivers SIGINT twice, and the default action for the
  // second would kill this process before code-server is stopped.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  server.exited.then((status) => stopping || fail(`code-server stopped on its own (${status}); log: ${o.logFile}`));
  const folder = encodeURIComponent(examples).replace(/%2F/g, '/');
  const url = `${server.baseUrl}/?folder=${folder}`;
  console.log(`\n${banner(['Judge Studio is running. Open this address in your browser:', '', `  ${url}`, '', ...TRUST], { color: useColor() })}`);
  console.log('\nNo password: it listens on 127.0.0.1 only. Ctrl-C stops it.');
}

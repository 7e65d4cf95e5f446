// `npm start`: build and package Judge Studio, then open it on a scratch copy of examples/ in a
// real VS Code, so trying the editor never edits the repository's tracked files.
//  - a `code` on PATH: desktop VS Code, with this checkout as the extension under development;
//  - otherwise (or with --code-server): code-server from test/host/ with the VSIX installed,
//    served on http://127.0.0.1:<port> until Ctrl-C. Workspace Trust is on, as for any user.
// The copy lives in .test-output/start/examples and survives restarts; --fresh copies it again.
// A judge endpoint left in the profile or the copy from an earlier session is tried at start.
// Options: --port N (or env PORT; default 8080), --code-server, --fresh.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  QUIET_SETTINGS, codeServerBin, installExtension, portInUse, startCodeServer, writeConfig, writeUserSettings,
} from '../test/e2e/harness/codeServer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.test-output/start');
/** The workspace opened: a copy of examples/, never examples/ itself. */
const examples = path.join(dir, 'examples');

function fail(message, code = 1) {
  console.error(`start: ${message}`);
  process.exit(code);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) fail(`\`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return path.join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

let values;
try {
  ({ values } = parseArgs({ options: { port: { type: 'string' }, 'code-server': { type: 'boolean' }, fresh: { type: 'boolean' } } }));
} catch (e) {
  fail(`${e.message}\nusage: npm start -- [--port N] [--code-server] [--fresh]`, 2);
}
const port = Number(values.port ?? process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a whole number from 1 to 65535, not "${values.port ?? process.env.PORT}"`, 2);

run(process.execPath, [path.join(root, 'scripts/package-vsix.mjs')]);

if (values.fresh) rmSync(examples, { recursive: true, force: true });
if (!existsSync(examples)) {
  cpSync(path.join(root, 'examples'), examples, { recursive: true });
  console.log(`start: opened a scratch copy of examples/ in ${path.relative(root, examples)} (edit it freely; \`npm start -- --fresh\` starts over)`);
} else {
  console.log(`start: reopening your scratch copy ${path.relative(root, examples)} (\`npm start -- --fresh\` copies examples/ again)`);
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

const code = values['code-server'] ? undefined : onPath('code');
if (code) {
  // The desktop CLI hands the window to VS Code and returns; nothing to stop here.
  await checkEndpoint([path.join(examples, '.vscode/settings.json')]);
  const child = spawn(code, [`--extensionDevelopmentPath=${root}`, examples], { stdio: 'inherit' });
  child.on('exit', (status) => process.exit(status ?? 1));
} else {
  run('bash', [path.join(root, 'scripts/setup-e2e.sh')]);
  if (await portInUse(port)) fail(`port ${port} on 127.0.0.1 is in use: pass another with \`npm start -- --port N\``);

  // A persistent profile (settings, trust decisions, open editors survive restarts), kept out of
  // the user's own ~/.local/share/code-server.
  const o = {
    bin: codeServerBin(root), port, env: process.env,
    userDataDir: path.join(dir, 'user-data'), extensionsDir: path.join(dir, 'extensions'),
    configFile: writeConfig(path.join(dir, 'config.yaml')), logFile: path.join(dir, 'code-server.log'),
  };
  writeUserSettings(o.userDataDir, { ...QUIET_SETTINGS, 'security.workspace.trust.enabled': true }, { onlyIfMissing: true });
  installExtension({ ...o, vsix: path.join(root, 'dist/judge-studio.vsix') });
  await checkEndpoint([path.join(o.userDataDir, 'User/settings.json'), path.join(examples, '.vscode/settings.json')]);
  const server = await startCodeServer({ ...o, workspaceTrust: true }).catch((e) => fail(e.message));

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
  console.log(`\nJudge Studio is running in code-server. Open:\n\n  ${server.baseUrl}/?folder=${folder}\n`);
  console.log(`(no password; it only listens on 127.0.0.1. Log: ${path.relative(root, o.logFile)}. Ctrl-C stops it.)`);
}

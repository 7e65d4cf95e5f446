// Start, wait for and stop code-server (a real VS Code: browser workbench + Node extension host).
// Used by scripts/e2e.mjs (throwaway, isolated runs) and scripts/start.mjs (a user session).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const HOST = '127.0.0.1';

/** Settings that keep a session quiet and offline: no telemetry, updates, tips or welcome page. */
export const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
};

/** The code-server installed by scripts/setup-e2e.sh into test/host/. */
export function codeServerBin(root) {
  const bin = path.join(root, 'test/host/node_modules/.bin/code-server');
  if (!existsSync(bin)) {
    throw new Error(`code-server is not installed (${path.relative(root, bin)} is missing): run \`bash scripts/setup-e2e.sh\``);
  }
  return bin;
}

/** An unused TCP port on 127.0.0.1 (asked from the OS, then released for code-server to take). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** True when something already listens on HOST:port. */
export function portInUse(port) {
  return new Promise((resolve) => {
    const sock = net.connect({ host: HOST, port });
    sock.once('connect', () => { sock.destroy(); resolve(true); });
    sock.once('error', () => resolve(false));
  });
}

/**
 * Env for a process confined to `dir`: its own HOME, XDG dirs and TMPDIR, so code-server's config,
 * sockets and caches never touch the real ones. code-server and Chromium create Unix sockets
 * in TMPDIR, whose paths may not exceed 107 bytes: pass a short `tmpDir` when `dir` is deep.
 */
export function isolatedEnv(dir, { base = process.env, tmpDir = path.join(dir, 'tmp') } = {}) {
  const env = {
    ...base,
    HOME: path.join(dir, 'home'),
    XDG_CONFIG_HOME: path.join(dir, 'home/.config'),
    XDG_DATA_HOME: path.join(dir, 'home/.local/share'),
    XDG_CACHE_HOME: path.join(dir, 'home/.cache'),
    TMPDIR: tmpDir,
  };
  for (const key of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'TMPDIR']) mkdirSync(env[key], { recursive: true });
  return env;
}

/** Writes `<userDataDir>/User/settings.json`; with `onlyIfMissing`, keeps a user's own edits. */
export function writeUserSettings(userDataDir, settings, { onlyIfMissing = false } = {}) {
  const file = path.join(userDataDir, 'User/settings.json');
  if (onlyIfMissing && existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
  return file;
}

/**
 * A code-server config file. Without --config, code-server writes one with a random password
 * under HOME; ours turns auth off (the server only ever binds to 127.0.0.1).
 */
export function writeConfig(file) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'auth: none\ncert: false\n');
  return file;
}

function baseArgs(o) {
  return ['--config', o.configFile, '--user-data-dir', o.userDataDir, '--extensions-dir', o.extensionsDir];
}

/** code-server reads $PORT as an override of --bind-addr, so never pass the caller's through. */
function serverEnv(env) {
  const { PORT: _ignored, ...rest } = env;
  return rest;
}

/** Installs a .vsix into `extensionsDir` (replacing an older copy of the same extension). */
export function installExtension(o) {
  const r = spawnSync(o.bin, [...baseArgs(o), '--force', '--install-extension', o.vsix], {
    env: serverEnv(o.env), encoding: 'utf8',
  });
  if (r.status !== 0) {
    throw new Error(`code-server --install-extension ${o.vsix} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  }
}

/**
 * Starts code-server in its own process group (so stop() reaches the extension host and every
 * other child), then waits until /healthz answers. Options: bin, port, userDataDir,
 * extensionsDir, configFile, env, logFile, workspaceTrust (false adds --disable-workspace-trust).
 */
export async function startCodeServer(o) {
  const args = [
    ...baseArgs(o), '--bind-addr', `${HOST}:${o.port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened',
    ...(o.workspaceTrust ? [] : ['--disable-workspace-trust']),
  ];
  const log = openSync(o.logFile, 'a');
  const child = spawn(o.bin, args, { env: serverEnv(o.env), detached: true, stdio: ['ignore', log, log] });
  closeSync(log); // the child has its own copy
  const pgid = child.pid;
  let exitCode;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve((exitCode = code ?? signal))));
  // Last resort if this process dies without running its cleanup: do not leave servers behind.
  const killOnExit = () => killGroup(pgid, 'SIGKILL');
  process.on('exit', killOnExit);

  const server = {
    pid: pgid,
    port: o.port,
    baseUrl: `http://${HOST}:${o.port}`,
    exited,
    async stop() {
      process.off('exit', killOnExit);
      await stopGroup(pgid);
    },
  };
  const deadline = Date.now() + (o.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      await server.stop(); // its children may outlive it
      throw new Error(`code-server exited (${exitCode}) before it was ready; its log, ${o.logFile}, ends with:\n${tail(o.logFile)}`);
    }
    if (await healthy(server.baseUrl)) return server;
    await Promise.race([exited, delay(200)]);
  }
  await server.stop();
  throw new Error(`code-server did not answer ${server.baseUrl}/healthz within ${(o.readyTimeoutMs ?? 60_000) / 1000} s; log: ${o.logFile}`);
}

async function healthy(baseUrl) {
  try {
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already empty
  }
}

/** SIGTERM the whole group, wait (with a deadline) until it is empty, then SIGKILL what is left. */
export async function stopGroup(pgid, graceMs = 5000) {
  if (!killGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!killGroup(pgid, 0)) return;
    await delay(100);
  }
  killGroup(pgid, 'SIGKILL');
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

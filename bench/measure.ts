// Running a command the way a user does, as a process, and measuring it: wall time from here, CPU
// time and peak resident memory reported by the process itself (probe.ts). Also the figure rows
// every benchmark returns and the rule for repeated runs on a shared machine.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Figure {
  /** What was measured, e.g. "calibrate 1,000,000 rows vs one JSON.parse pass". */
  work: string;
  /** The measured figure as printed, e.g. "1.21×". */
  value: string;
  /** The target as printed, e.g. "≤ 1.5×". */
  target: string;
  /** undefined: not measured here (say why in `note`). */
  pass: boolean | undefined;
  /** The raw runs or the reason it was not measured. */
  note?: string;
}

export interface Run {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

const PROBE = path.join(__dirname, 'probe.js');

/** Runs `node [nodeArgs] script args…` with the probe preloaded; rejects when it cannot start. */
export async function runNode(script: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; nodeArgs?: readonly string[]; stdin?: string } = {}): Promise<Run> {
  const probe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'js-bench-probe-')), 'usage.json');
  const started = performance.now();
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--require', PROBE, script, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env, JUDGE_STUDIO_BENCH_PROBE: probe },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => void (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  child.stdin.end(opts.stdin ?? '');
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  });
  const wallMs = performance.now() - started;
  let usage = { userMs: NaN, systemMs: NaN, maxRssMb: NaN };
  try {
    usage = JSON.parse(fs.readFileSync(probe, 'utf8')) as typeof usage;
  } catch {
    // The process died before its exit handler ran: the figures stay NaN and the caller sees the code.
  }
  fs.rmSync(path.dirname(probe), { recursive: true, force: true });
  return { wallMs, cpuMs: usage.userMs + usage.systemMs, maxRssMb: usage.maxRssMb, code, stdout, stderr };
}

/** Fails with the process's own words when it did not exit 0. */
export function ok(run: Run, what: string): Run {
  if (run.code !== 0) throw new Error(`${what} exited with ${run.code}: ${(run.stderr || run.stdout).slice(0, 2000)}`);
  return run;
}

/** The best (lowest) of several runs: other processes on a shared machine only ever add time. */
export function best(values: readonly number[]): number {
  return Math.min(...values);
}

export function spread(values: readonly number[], digits = 2, unit = ''): string {
  return values.map((v) => `${v.toFixed(digits)}${unit}`).join(', ');
}

/** How many runs of each measurement (BENCH_RUNS, default 3). */
export function runs(): number {
  const n = Number(process.env['BENCH_RUNS']);
  return Number.isInteger(n) && n > 0 ? n : 3;
}

/** A size from the environment (e.g. BENCH_CALIBRATE_ROWS=100000), or the default. */
export function size(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The repository root (bench files are compiled to out/bench/). */
export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'bin', 'judge-studio.js');

export interface FakeServer {
  baseURL: string;
  /** The server's counters (the rate-limited server's `stats`), or undefined when it has none. */
  stats(): Promise<{ requests: number; refused: number; passed: number; spanMs: number | null } | undefined>;
  close(): void;
}

/** The local test server (test/support/fakeOpenAI.ts) in its own process, like a real endpoint. */
export async function startFake(args: readonly string[]): Promise<FakeServer> {
  const script = path.join(ROOT, 'out', 'test', 'support', 'fakeOpenAI.js');
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const waiters: ((line: string) => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      waiters.splice(0).forEach((w) => w(line));
    }
  });
  const next = (ms: number) =>
    new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ms);
      waiters.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  const first = await Promise.race([next(10_000), new Promise<undefined>((resolve) => child.once('exit', () => resolve(undefined)))]);
  const m = first ? /listening on (\S+)/.exec(first) : null;
  if (!m) {
    child.kill();
    throw new Error(`the fake server did not start (${first ?? 'no output'})`);
  }
  return {
    baseURL: m[1]!,
    async stats() {
      child.stdin.write('stats\n');
      const line = await next(2000);
      return line?.startsWith('stats ') ? (JSON.parse(line.slice(6)) as Awaited<ReturnType<FakeServer['stats']>>) : undefined;
    },
    close: () => void child.kill(),
  };
}

/** A JSONL file of `rows` pointwise rows (prompt, response) for a run. */
export function writeRows(file: string, rows: number, response = (i: number) => `Answer ${i}: the capital of France is Paris.`): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (let i = 0; i < rows; i += 10_000) {
      const lines: string[] = [];
      for (let k = i; k < Math.min(rows, i + 10_000); k++) lines.push(JSON.stringify({ prompt: `Question ${k}: what is the capital of France?`, response: response(k) }));
      fs.writeSync(fd, `${lines.join('\n')}\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A fresh temporary folder, removed by the returned function. */
export function tempDir(name: string): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `js-bench-${name}-`));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// The request path as users run it: the bundled CLI (`dist/cli.js run`) as a process against the
// local fake server (its own process), next to a floor measured in the same run, a bare fetch
// loop in its own process (requestPathFloor.ts) sending the same bodies. Both are timed whole,
// start-up included; CPU is each process's own (cpuReport.ts), so the server's work never counts.
//   overhead   10,000 calls, C=64, 10 ms latency: ours / floor in wall and CPU (target ≤ 1.2×)
//   cpuPerRow  100,000 rows, C=128, 5 ms: CPU per row of the CLI (target ≤ 0.6 ms)
//   rateLimit  300 rows, C=16, a server allowing 20 requests/s (429 with retry-after: 1 beyond), of
//              four kinds (RATE_SERVERS): in every one of ≥ 9 runs, ≥ 95 % of the limit used, ≤ 5 % of
//              requests answered 429, 0 failed rows
//   memory     1,000,000 rows through the engine in-process: heap stays flat
// Figures are medians of several runs (the machine is shared); every run is printed too.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildRequest } from '../src/core/judge/engine/pass';
import { judgeSettings } from '../src/core/judge/engine/settings';
import { chatBody } from '../src/core/judge/transport/openaiClient';
import { prepareJudge, type PreparedJudge } from '../src/core/judge/engine/prepare';
import { runJudge } from '../src/core/judge/run/runner';
import type { JudgeClient } from '../src/core/judge/transport/types';
import type { DatasetItem } from '../src/core/dataset/types';
import { POINTWISE } from '../test/support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const FAKE = path.join(ROOT, 'out', 'test', 'support', 'fakeOpenAI.js');
const FLOOR = path.join(__dirname, 'requestPathFloor.js');
const PRELOAD = path.join(__dirname, 'cpuReport.js');

export const REQUEST_PATH_TARGETS = { wallRatio: 1.2, cpuRatio: 1.2, cpuMsPerRow: 0.6, limitUsed: 0.95, refusedShare: 0.05, failedRows: 0 };

export interface ProcessRun {
  wallS: number;
  cpuS: number;
  maxRssMB: number;
}

interface FakeServer {
  baseURL: string;
  stats(): Promise<{ requests: number; refused: number; passed: number; spanMs: number | null }>;
  close(): void;
}

/** The fake OpenAI server in its own process (`--no-record`: it keeps counters only). */
export async function startFake(args: string[]): Promise<FakeServer> {
  const child: ChildProcess = spawn(process.execPath, [FAKE, '--no-record', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const waiters: ((line: string) => void)[] = [];
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
      const line = out.slice(0, i);
      out = out.slice(i + 1);
      waiters.shift()?.(line);
    }
  });
  const first = await new Promise<string>((resolve, reject) => {
    waiters.push(resolve);
    child.once('exit', (code) => reject(new Error(`fake server exited with ${code}`)));
  });
  const baseURL = /listening on (\S+)/.exec(first)?.[1];
  if (!baseURL) throw new Error(`fake server said: ${first}`);
  return {
    baseURL,
    stats: () =>
      new Promise((resolve) => {
        waiters.push((line) => resolve(JSON.parse(line.replace(/^stats /, '')) as never));
        child.stdin!.write('stats\n');
      }),
    close: () => void child.kill(),
  };
}

/** Runs `node -r cpuReport <args>` and measures it whole. */
export async function timedProcess(args: string[], cwd: string): Promise<ProcessRun & { code: number | null; stderr: string }> {
  const cpuFile = path.join(cwd, `cpu-${process.hrtime.bigint()}.json`);
  const started = performance.now();
  const child = spawn(process.execPath, ['-r', PRELOAD, ...args], { cwd, env: { ...process.env, BENCH_CPU_FILE: cpuFile, OPENAI_API_KEY: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallS = (performance.now() - started) / 1000;
  const usage = JSON.parse(fs.readFileSync(cpuFile, 'utf8')) as { cpuS: number; maxRssMB: number };
  return { wallS, ...usage, code, stderr };
}

interface Workload {
  dir: string;
  template: string;
  data: string;
  body: string;
  rows: number;
}

/** A dataset of `rows` distinct rows, the template, and the floor's request body (the CLI's, with markers). */
function workload(rows: number, tag: string): Workload {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-request-path-'));
  const template = path.join(dir, 'quality.judge');
  fs.writeFileSync(template, POINTWISE);
  const data = path.join(dir, 'd.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify({ prompt: `${tag} question ${i}?`, response: `Answer ${i}.` }));
  fs.writeFileSync(data, `${lines.join('\n')}\n`);
  const judge = prepared();
  const rendered = judge.render({ prompt: '\u0001prompt\u0001', response: '\u0001response\u0001' }, 'AB', 1);
  if (!rendered.ok) throw new Error(rendered.error);
  const request = buildRequest(rendered.prompt.messages, judgeSettings(judge.config, 'm', 'json_schema'), judge.strategy.jsonSchema);
  const body = path.join(dir, 'body.json');
  fs.writeFileSync(body, JSON.stringify(chatBody(request, 'json_schema')));
  return { dir, template, data, body, rows };
}

function cliArgs(w: Workload, baseURL: string, concurrency: number, out: string): string[] {
  return [CLI, 'run', w.template, '--data', w.data, '--base-url', baseURL, '--model', 'm', '--concurrency', String(concurrency), '--no-cache', '--out', out];
}

async function ours(w: Workload, baseURL: string, concurrency: number): Promise<ProcessRun> {
  const out = path.join(w.dir, `ours-${process.hrtime.bigint()}.jsonl`);
  const run = await timedProcess(cliArgs(w, baseURL, concurrency, out), w.dir);
  if (run.code !== 0) throw new Error(`judge-studio run exited ${run.code}:\n${run.stderr.slice(-2000)}`);
  return { wallS: run.wallS, cpuS: run.cpuS, maxRssMB: run.maxRssMB };
}

async function floor(w: Workload, baseURL: string, concurrency: number): Promise<ProcessRun> {
  const out = path.join(w.dir, `floor-${process.hrtime.bigint()}.jsonl`);
  const run = await timedProcess([FLOOR, baseURL, w.data, w.body, String(concurrency), out], w.dir);
  if (run.code !== 0) throw new Error(`the floor loop exited ${run.code}:\n${run.stderr.slice(-2000)}`);
  return { wallS: run.wallS, cpuS: run.cpuS, maxRssMB: run.maxRssMB };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export interface Overhead {
  rows: number;
  concurrency: number;
  latencyMs: number;
  ours: ProcessRun[];
  floor: ProcessRun[];
  /** Medians of ours over medians of the floor. */
  wallRatio: number;
  cpuRatio: number;
}

/** The CLI against the bare fetch loop, alternated after one warm-up each. */
export async function measureOverhead(o: { rows?: number; concurrency?: number; latencyMs?: number; rounds?: number } = {}): Promise<Overhead> {
  const rows = o.rows ?? (Number(process.env.BENCH_ROWS) || 10_000);
  const concurrency = o.concurrency ?? 64;
  const latencyMs = o.latencyMs ?? 10;
  const server = await startFake(['--latency', String(latencyMs)]);
  const w = workload(rows, 'overhead');
  try {
    await floor(w, server.baseURL, concurrency);
    await ours(w, server.baseURL, concurrency);
    const f: ProcessRun[] = [];
    const u: ProcessRun[] = [];
    for (let round = 0; round < (o.rounds ?? 5); round++) {
      f.push(await floor(w, server.baseURL, concurrency));
      u.push(await ours(w, server.baseURL, concurrency));
    }
    const m = (xs: ProcessRun[], k: 'wallS' | 'cpuS') => median(xs.map((x) => x[k]));
    return { rows, concurrency, latencyMs, ours: u, floor: f, wallRatio: m(u, 'wallS') / m(f, 'wallS'), cpuRatio: m(u, 'cpuS') / m(f, 'cpuS') };
  } finally {
    server.close();
    fs.rmSync(w.dir, { recursive: true, force: true });
  }
}

export interface CpuPerRow {
  rows: number;
  runs: ProcessRun[];
  /** Median CPU per row of the CLI process (ms), start-up included. */
  cpuMsPerRow: number;
}

export async function measureCpuPerRow(o: { rows?: number; concurrency?: number; latencyMs?: number; rounds?: number } = {}): Promise<CpuPerRow> {
  const rows = o.rows ?? (Number(process.env.BENCH_CPU_ROWS) || 100_000);
  const server = await startFake(['--latency', String(o.latencyMs ?? 5)]);
  const w = workload(rows, 'cpu');
  try {
    const runs: ProcessRun[] = [];
    for (let round = 0; round < (o.rounds ?? 3); round++) runs.push(await ours(w, server.baseURL, o.concurrency ?? 128));
    return { rows, runs, cpuMsPerRow: (median(runs.map((r) => r.cpuS)) / rows) * 1000 };
  } finally {
    server.close();
    fs.rmSync(w.dir, { recursive: true, force: true });
  }
}

export interface RateLimitRun {
  wallS: number;
  /** Requests let through per second, first to last, over the server's limit. */
  limitUsed: number;
  /** Requests answered 429 over all requests. */
  refusedShare: number;
  failedRows: number;
}

export interface RateLimitFigures {
  server: string;
  runs: RateLimitRun[];
  limitUsed: number;
  refusedShare: number;
  failedRows: number;
  /** Every run met the targets (the median alone can hide a bad run). */
  pass: boolean;
}

/** The kinds of rate limit a server may have, and what its headers mean. */
export const RATE_SERVERS = {
  bucket: { args: ['--rate-model', 'bucket'], label: "bucket refilled continuously, OpenAI's x-ratelimit headers (reset: until full)" },
  window: { args: ['--rate-model', 'window'], label: 'rolling 1 s window, x-ratelimit headers (reset: until the oldest call leaves)' },
  fixed: { args: ['--rate-model', 'fixed'], label: 'fixed clock-second window, x-ratelimit headers (reset: until the second ends)' },
  none: { args: ['--rate-model', 'fixed', '--no-rate-headers'], label: 'fixed clock-second window, retry-after only' },
} as const;
export type RateServer = keyof typeof RATE_SERVERS;

/** 300 rows at C=16 against a server allowing 20 requests/s of the given kind, `rounds` times (9 unless told). */
export async function measureRateLimit(o: { server?: RateServer; rows?: number; perSecond?: number; rounds?: number } = {}): Promise<RateLimitFigures> {
  const perSecond = o.perSecond ?? 20;
  const server = o.server ?? 'bucket';
  const runs: RateLimitRun[] = [];
  for (let round = 0; round < (o.rounds ?? 9); round++) {
    const fake = await startFake(['--rate', String(perSecond), ...RATE_SERVERS[server].args]);
    const w = workload(o.rows ?? 300, `rate${round}`);
    try {
      const out = path.join(w.dir, 'r.jsonl');
      const run = await timedProcess(cliArgs(w, fake.baseURL, 16, out), w.dir);
      const s = await fake.stats();
      const lines = fs.readFileSync(out, 'utf8').split('\n').filter((l) => l !== '');
      const failedRows = lines.filter((l) => l.includes('"quality/error"')).length + (w.rows - lines.length);
      const spanS = (s.spanMs ?? 0) / 1000;
      runs.push({ wallS: run.wallS, limitUsed: spanS > 0 ? (s.passed - 1) / spanS / perSecond : 0, refusedShare: s.refused / Math.max(1, s.requests), failedRows });
    } finally {
      fake.close();
      fs.rmSync(w.dir, { recursive: true, force: true });
    }
  }
  const t = REQUEST_PATH_TARGETS;
  return {
    server: RATE_SERVERS[server].label,
    runs,
    limitUsed: median(runs.map((r) => r.limitUsed)),
    refusedShare: median(runs.map((r) => r.refusedShare)),
    failedRows: Math.max(...runs.map((r) => r.failedRows)),
    pass: runs.every((r) => r.limitUsed >= t.limitUsed && r.refusedShare <= t.refusedShare && r.failedRows === 0),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const range = (xs: number[]) => `${(100 * Math.min(...xs)).toFixed(1)}–${(100 * Math.max(...xs)).toFixed(1)} %`;

/** `98.2 % (95.1–99.0 %) of the limit used, 1.2 % (0.0–3.1 %) answered 429, 0 failed rows`. */
export function rateSummary(r: RateLimitFigures): string {
  const used = r.runs.map((x) => x.limitUsed);
  const refused = r.runs.map((x) => x.refusedShare);
  return `${pct(r.limitUsed)} (${range(used)}) of the limit used, ${pct(r.refusedShare)} (${range(refused)}) answered 429, ${r.failedRows} failed rows`;
}

function prepared(): PreparedJudge {
  const p = prepareJudge(POINTWISE);
  if (!p.ok) throw new Error('bench template is invalid');
  return p.judge;
}

async function* rows(tag: string, n: number): AsyncIterable<DatasetItem> {
  for (let i = 0; i < n; i++) yield { row: i + 1, line: i + 1, record: { prompt: `${tag} question ${i}?`, response: `Answer ${i}.` } };
}

/** Answers at once in-process: the memory run measures the engine, not HTTP. */
const instant: JudgeClient = {
  id: 'bench:instant',
  async complete(req) {
    return { text: `{"justification": "ok", "score": ${1 + (req.messages.length % 5)}}`, model: req.model, usage: { promptTokens: 100, completionTokens: 10, totalTokens: 110 } };
  },
};

export async function measureMemory(total = Number(process.env.BENCH_MEMORY_ROWS) || 1_000_000): Promise<{ rows: number; heapMB: number[]; growthMB: number; seconds: number }> {
  const judge = prepared();
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap = () => {
    gc?.();
    return process.memoryUsage().heapUsed / 1e6;
  };
  const samples: number[] = [];
  let written = 0;
  const every = total / 10;
  const started = performance.now();
  await runJudge({
    judge,
    client: instant,
    concurrency: 64,
    settings: { model: 'm', structured: 'json_schema', schemaName: judge.metric },
    items: rows('mem', total),
    write: () => {
      if (++written % every === 0) samples.push(heap());
    },
  });
  const first = samples[0] as number;
  return { rows: written, heapMB: samples, growthMB: Math.max(...samples) - first, seconds: (performance.now() - started) / 1000 };
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const runs = (xs: ProcessRun[]) => xs.map((x) => `${x.wallS.toFixed(2)} s/${x.cpuS.toFixed(2)} s`).join(', ');

export async function benchRequestPath(log: (line: string) => void = console.log): Promise<void> {
  const t = REQUEST_PATH_TARGETS;
  const o = await measureOverhead();
  const mw = median(o.ours.map((x) => x.wallS));
  const fw = median(o.floor.map((x) => x.wallS));
  log(`request path, ${o.rows} calls at C=${o.concurrency}, ${o.latencyMs} ms latency, whole processes (median wall/CPU):`);
  log(`  judge-studio run ${mw.toFixed(2)} s / ${median(o.ours.map((x) => x.cpuS)).toFixed(2)} s CPU; bare fetch loop ${fw.toFixed(2)} s / ${median(o.floor.map((x) => x.cpuS)).toFixed(2)} s CPU`);
  log(`  wall ${o.wallRatio.toFixed(2)}× (target ≤ ${t.wallRatio}×) ${verdict(o.wallRatio <= t.wallRatio)}; CPU ${o.cpuRatio.toFixed(2)}× (target ≤ ${t.cpuRatio}×) ${verdict(o.cpuRatio <= t.cpuRatio)}`);
  log(`  runs: ours ${runs(o.ours)}; floor ${runs(o.floor)}`);
  const c = await measureCpuPerRow();
  log(`request path, ${c.rows} rows at C=128, 5 ms: ${c.cpuMsPerRow.toFixed(3)} ms CPU per row (target ≤ ${t.cpuMsPerRow}) ${verdict(c.cpuMsPerRow <= t.cpuMsPerRow)}; runs ${runs(c.runs)}; peak RSS ${Math.max(...c.runs.map((r) => r.maxRssMB)).toFixed(0)} MB`);
  for (const server of Object.keys(RATE_SERVERS) as RateServer[]) {
    const r = await measureRateLimit({ server });
    log(`rate limit, 300 rows at C=16, ${r.server}: median (range) ${rateSummary(r)} ${verdict(r.pass)}`);
  }
  const m = await measureMemory();
  log(`request path memory: ${m.rows} rows in ${m.seconds.toFixed(1)} s; heap MB every tenth: ${m.heapMB.map((s) => s.toFixed(1)).join(' ')}; growth ${m.growthMB.toFixed(1)} MB (${m.growthMB < 20 ? 'flat' : 'GROWING'})`);
}

if (require.main === module) {
  const only = process.argv[2];
  const main = async () => {
    if (only === 'overhead') console.log(JSON.stringify(await measureOverhead({ rounds: Number(process.argv[3]) || 3 })));
    else if (only === 'cpu') console.log(JSON.stringify(await measureCpuPerRow({ rounds: Number(process.argv[3]) || 3 })));
    else if (only === 'rate') {
      const servers = process.argv[3] ? (process.argv[3].split(',') as RateServer[]) : (Object.keys(RATE_SERVERS) as RateServer[]);
      for (const server of servers) {
        const r = await measureRateLimit({ server, rounds: Number(process.argv[4]) || 9 });
        console.log(`${server}: ${rateSummary(r)} ${verdict(r.pass)} [${r.runs.map((x) => `${pct(x.limitUsed)}/${pct(x.refusedShare)}`).join(', ')}]`);
      }
    }
    else await benchRequestPath();
  };
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}

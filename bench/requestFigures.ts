// The request-path figures of `npm run bench` (requestPath.ts measures them): the CLI against a
// bare fetch loop on 10,000 calls, CPU per row on 100,000 rows and the engine's heap over
// 1,000,000 rows, each the median of BENCH_RUNS runs (3 unless set), every run listed in its note;
// and (section `rate`) the four kinds of rate-limit server, each over at least 9 runs.
import type { Figure } from './measure';
import { measureCpuPerRow, measureMemory, measureOverhead, measureRateLimit, median, RATE_SERVERS, rateSummary, REQUEST_PATH_TARGETS as T, type ProcessRun, type RateServer } from './requestPath';

const rounds = (): number => Number(process.env['BENCH_RUNS']) || 3;
const list = (xs: readonly ProcessRun[]): string => xs.map((x) => `${x.wallS.toFixed(2)} s / ${x.cpuS.toFixed(2)} s CPU`).join(', ');

export async function requestFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const calls = Number(process.env['BENCH_CALLS']) || 10_000;
  const o = await measureOverhead({ rows: calls, rounds: rounds() });
  const runs = `judge-studio run: ${list(o.ours)}; bare fetch loop: ${list(o.floor)}`;
  const shown = calls.toLocaleString('en-US');
  figures.push(
    { work: `${shown} calls, C=64, 10 ms, CLI vs bare fetch loop: wall`, value: `${o.wallRatio.toFixed(2)}× (${median(o.ours.map((x) => x.wallS)).toFixed(2)} s vs ${median(o.floor.map((x) => x.wallS)).toFixed(2)} s)`, target: `≤ ${T.wallRatio}×`, pass: o.wallRatio <= T.wallRatio, note: runs },
    { work: `${shown} calls, C=64, 10 ms, CLI vs bare fetch loop: CPU`, value: `${o.cpuRatio.toFixed(2)}× (${median(o.ours.map((x) => x.cpuS)).toFixed(2)} s vs ${median(o.floor.map((x) => x.cpuS)).toFixed(2)} s)`, target: `≤ ${T.cpuRatio}×`, pass: o.cpuRatio <= T.cpuRatio },
  );
  const rows = Number(process.env['BENCH_CPU_ROWS']) || 100_000;
  const c = await measureCpuPerRow({ rows, rounds: rounds() });
  figures.push({
    work: `${rows.toLocaleString('en-US')} rows, C=128, 5 ms: CLI CPU per row`,
    value: `${c.cpuMsPerRow.toFixed(3)} ms (peak RSS ${Math.max(...c.runs.map((r) => r.maxRssMB)).toFixed(0)} MB)`,
    target: `≤ ${T.cpuMsPerRow} ms`,
    pass: c.cpuMsPerRow <= T.cpuMsPerRow,
    note: list(c.runs),
  });
  const m = await measureMemory();
  figures.push({
    work: `${m.rows.toLocaleString('en-US')} rows through the engine in-process: heap growth`,
    value: `${m.growthMB.toFixed(1)} MB in ${m.seconds.toFixed(0)} s`,
    target: '< 20 MB (flat)',
    pass: (globalThis as { gc?: unknown }).gc ? m.growthMB < 20 : undefined,
    note: `heap MB every tenth: ${m.heapMB.map((s) => s.toFixed(1)).join(' ')}${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: not judged)'}`,
  });
  return figures;
}

/** The rate-limit figures (BENCH_ONLY=rate): one per kind of server. */
export async function rateFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const rateRows = Number(process.env['BENCH_RATE_ROWS']) || 300;
  // At least 9 runs per server: the target holds in every run, not only in the median.
  const rateRounds = Math.max(9, Number(process.env['BENCH_RATE_RUNS']) || 9);
  for (const server of Object.keys(RATE_SERVERS) as RateServer[]) {
    const r = await measureRateLimit({ server, rows: rateRows, rounds: rateRounds });
    figures.push({
      work: `${rateRows} calls, C=16, 20 requests/s, ${r.server}: median (range of ${r.runs.length} runs)`,
      value: rateSummary(r),
      target: `every run ≥ ${100 * T.limitUsed} %, ≤ ${100 * T.refusedShare} %, 0`,
      pass: r.pass,
      note: r.runs.map((x) => `${(100 * x.limitUsed).toFixed(1)} % / ${(100 * x.refusedShare).toFixed(1)} % / ${x.failedRows}`).join(', '),
    });
  }
  return figures;
}

// One probe pipeline for the CLI and the editor: write the probe dataset, judge it through the
// batch runner next to the originals, and analyse the results into a report on disk.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { DatasetItem } from '../dataset/types';
import type { JudgeCache } from '../judge/engine/cache';
import type { JudgeSettings } from '../judge/engine/pass';
import type { PreparedJudge } from '../judge/engine/prepare';
import { ResultsWriter } from '../judge/run/writer';
import { runJudge } from '../judge/run/runner';
import type { RunStats } from '../judge/run/stats';
import type { JudgeClient } from '../judge/transport/types';
import { latestPerRow } from '../results';
import { parseDataset } from '../dataset';
import { analyseProbes, type ProbeReport } from './analyse';
import { probeDataset, PROBE_FILES } from './dataset';
import { DEFAULT_THRESHOLD, defaultProbes, probeTarget, type ProbeId } from './perturb';

export { DEFAULT_THRESHOLD } from './perturb';

export interface ProbeRunOptions {
  judge: PreparedJudge;
  client: JudgeClient;
  settings: JudgeSettings;
  items: AsyncIterable<DatasetItem> | Iterable<DatasetItem>;
  outDir: string;
  probes?: readonly ProbeId[];
  threshold?: number;
  rows?: { from?: number; to?: number };
  concurrency?: number;
  cache?: JudgeCache;
  cacheScope?: string;
  stats?: RunStats;
  signal?: AbortSignal;
  log?: (message: string) => void;
  /** After the probe dataset is built (done 0) and after each judged copy is written. */
  onProgress?: (done: number, total: number) => void;
}

export interface ProbeRun {
  report: ProbeReport;
  files: { dataset: string; results: string; report: string };
  interrupted: boolean;
  sources: number;
  skipped: number;
}


export async function runProbes(opts: ProbeRunOptions): Promise<ProbeRun> {
  const kind = opts.judge.config.kind;
  const probes = opts.probes ?? defaultProbes(kind);
  const placeholders = opts.judge.template.placeholders.map((p) => p.head);
  const target = probeTarget(kind, placeholders);
  const built = await probeDataset(opts.items, { probes, target, ...(opts.rows ? { rows: opts.rows } : {}) });
  await fs.mkdir(opts.outDir, { recursive: true });
  const files = {
    dataset: path.join(opts.outDir, PROBE_FILES.dataset),
    results: path.join(opts.outDir, PROBE_FILES.results),
    report: path.join(opts.outDir, PROBE_FILES.report),
  };
  await fs.writeFile(files.dataset, built.rows.map((r) => `${JSON.stringify(r.record)}\n`).join(''), 'utf8');
  const writer = new ResultsWriter(files.results, true);
  const total = built.rows.length;
  let done = 0;
  opts.onProgress?.(0, total);
  let interrupted: boolean;
  try {
    ({ interrupted } = await runJudge({
      judge: opts.judge,
      client: opts.client,
      settings: opts.settings,
      items: toAsync(built.rows),
      write: (line) => {
        writer.write(line);
        opts.onProgress?.(++done, total);
      },
      ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
      ...(opts.cache ? { cache: opts.cache } : {}),
      ...(opts.cacheScope ? { cacheScope: opts.cacheScope } : {}),
      ...(opts.stats ? { stats: opts.stats } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    }));
  } finally {
    writer.close();
  }
  const text = await fs.readFile(files.results, 'utf8');
  const report = await analyseProbes(
    latestPerRow(() => parseDataset(text, 'jsonl')),
    { metric: opts.judge.metric, kind, target, probes, threshold: opts.threshold ?? DEFAULT_THRESHOLD },
  );
  await fs.writeFile(files.report, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  return { report, files, interrupted, sources: built.sources, skipped: built.skipped };
}

async function* toAsync<T>(values: readonly T[]): AsyncIterable<T> {
  yield* values;
}

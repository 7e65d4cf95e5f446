// Judging one part of the split (train or held-out) with one template: the engine's run pipeline
// (cache, panels, swap and resume as for `run`) over the part's rows, into a results file of its
// own in the out-dir; then the verdicts read back from that file by `_key`.
import { calibrationRecord } from '../calibration/criteria';
import { promises as fs } from 'node:fs';
import { isLabel, parseChoice, parseRating } from '../calibration/labels';
import { readDataset } from '../dataset';
import { isSkip, type DatasetItem } from '../dataset/types';
import type { JudgeCache } from '../judge/engine/cache';
import type { JudgeSettings } from '../judge/engine/pass';
import type { PreparedJudge } from '../judge/engine/prepare';
import type { Panel } from '../judge/panel/panel';
import { dryRun } from '../judge/reports/dryRun';
import { PipelineError, runPipeline, type ResultsMode, type StopReason } from '../judge/run/pipeline';
import { RunStats } from '../judge/run/stats';
import type { JudgeClient } from '../judge/transport/types';
import { latestPerRow } from '../results';
import type { LabelledRow, Verdict } from './types';

export interface PartJudge {
  judge: PreparedJudge;
  client: JudgeClient;
  settings: JudgeSettings;
  panel?: Panel;
  cache?: JudgeCache;
  cacheScope: string;
  concurrency?: number;
  dataFile: string;
  log?: (message: string) => void;
}

export interface PartRun {
  verdicts: Map<string, Verdict>;
  stats: RunStats;
  stop: StopReason;
}

function itemsOf(rows: readonly LabelledRow[]): (signal: AbortSignal) => AsyncIterable<DatasetItem> {
  return async function* (signal) {
    for (const r of rows) {
      if (signal.aborted) return;
      yield { row: r.row, line: r.line, record: r.record };
    }
  };
}

export async function judgePart(p: PartJudge, rows: readonly LabelledRow[], outFile: string, signal: AbortSignal, onRow?: () => void): Promise<PartRun> {
  const stats = new RunStats();
  const run = (mode: ResultsMode) =>
    runPipeline({
      judge: p.judge,
      client: p.client,
      settings: p.settings,
      dataFile: p.dataFile,
      outFile,
      mode,
      items: itemsOf(rows),
      stats,
      signal,
      cacheScope: p.cacheScope,
      ...(p.cache ? { cache: p.cache } : {}),
      ...(p.panel ? { panel: p.panel } : {}),
      ...(p.concurrency !== undefined ? { concurrency: p.concurrency } : {}),
      ...(p.log ? { log: p.log } : {}),
      onLine: () => onRow?.(),
    });
  const exists = await fs.stat(outFile).then((s) => s.size > 0, () => false);
  let result;
  try {
    result = await run(exists ? 'resume' : 'new');
  } catch (e) {
    // A file of an earlier alignment with another candidate text: these files are align's own.
    if (!(e instanceof PipelineError) || !['resume-template-changed', 'resume-foreign', 'results-exist'].includes(e.code)) throw e;
    result = await run('overwrite');
  }
  const keys = new Set(rows.map((r) => r.key));
  let verdicts = await readVerdicts(outFile, p.judge, keys);
  // Resume keeps rows by number: if the data changed under a kept row, judge the part afresh.
  if (exists && result.stop === 'done' && rows.some((r) => !verdicts.has(r.key))) {
    p.log?.(`${outFile}: some rows of the part were not in the results kept from before; judging the part again`);
    result = await run('overwrite');
    verdicts = await readVerdicts(outFile, p.judge, keys);
  }
  return { verdicts, stats, stop: result.stop };
}

/** The last line per row of a results file, as verdicts by `_key` (failed rows have no label). */
export async function readVerdicts(file: string, judge: PreparedJudge, keys: ReadonlySet<string>, onlyHash?: string): Promise<Map<string, Verdict>> {
  const m = judge.metric;
  const kind = judge.config.kind;
  const criteria = judge.config.criteria?.map((c) => c.name) ?? [];
  const out = new Map<string, Verdict>();
  const exists = await fs.stat(file).then(() => true, () => false);
  if (!exists) return out;
  for await (const item of latestPerRow(() => readDataset(file))) {
    if (isSkip(item)) continue;
    const r = item.record;
    const key = r._key;
    if (typeof key !== 'string' || !keys.has(key)) continue;
    if (onlyHash !== undefined && r[`${m}/template_hash`] !== onlyHash) continue;
    const error = r[`${m}/error`];
    if (typeof error === 'string' && error !== '') {
      const kind = r[`${m}/error_kind`];
      out.set(key, { label: undefined, error, errorKind: typeof kind === 'string' && kind !== '' ? kind : 'unknown' });
      continue;
    }
    // The one overall view of a weighted-criteria judge (its integer), as calibrate and compare read it.
    const raw = kind === 'pointwise' ? calibrationRecord(r, m)[`${m}/score`] : r[`${m}/pairwise_choice`];
    const parsed = kind === 'pointwise' ? parseRating(raw) : parseChoice(raw);
    const verdict: Verdict = { label: isLabel(parsed) ? (parsed as number | string) : undefined };
    const justification = r[`${m}/justification`];
    if (typeof justification === 'string') verdict.justification = justification;
    if (typeof r[`${m}/position_consistent`] === 'boolean') verdict.positionConsistent = r[`${m}/position_consistent`] as boolean;
    for (const c of criteria) {
      const s = r[`${m}/score_${c}`];
      if (typeof s === 'number') (verdict.criteria ??= {})[c] = s;
    }
    out.set(key, verdict);
  }
  return out;
}

/** Requests judging the part would send: cached requests and rows already judged in the file are free (a panel is counted without its cache). */
export async function estimateCalls(p: PartJudge, rows: readonly LabelledRow[], outFile: string): Promise<number> {
  const keys = new Set(rows.map((r) => r.key));
  const kept = await readVerdicts(outFile, p.judge, keys, p.judge.templateHash);
  const unjudged = rows.filter((r) => kept.get(r.key)?.label === undefined);
  if (p.panel) return unjudged.length * p.judge.strategy.orders.length * p.panel.members.length;
  const report = await dryRun({
    judge: p.judge,
    settings: p.settings,
    items: itemsOf(unjudged)(new AbortController().signal),
    cacheScope: p.cacheScope,
    ...(p.cache ? { cache: p.cache } : {}),
  });
  return report.requests - report.cachedRequests;
}

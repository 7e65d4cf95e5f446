// One align pipeline for the CLI and the editor: split the labelled rows, judge the current
// template on both parts, build candidates from the train disagreements, judge each candidate on
// the held-out rows (then on train, to see how much of its gain only fits the rows it was made
// from), and write the candidates, their results and the report into the out-dir. Every judgment
// goes through the engine's run pipeline; front ends add progress and cancellation through hooks.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { JudgeCache } from '../judge/engine/cache';
import type { JudgeSettings } from '../judge/engine/pass';
import { prepareJudge, type PreparedJudge } from '../judge/engine/prepare';
import type { Panel } from '../judge/panel/panel';
import type { JudgeClient } from '../judge/transport/types';
import { CallMeter } from './budget';
import { buildCandidates, type CandidatePlan } from './candidates';
import { estimateCalls, judgePart, type PartJudge, type PartRun } from './parts';
import { HeldOutGuard } from './quotes';
import { assembleReport, finalText } from './report';
import type { LoadedRows } from './rows';
import { splitRows, type Split } from './split';
import type { AlignReport, NotRun } from './types';

export interface AlignOptions {
  judge: PreparedJudge;
  /** The template file (absolute); candidates never replace it. */
  templateFile: string;
  dataFile: string;
  loaded: LoadedRows;
  client: JudgeClient;
  settings: JudgeSettings;
  panel?: Panel;
  /** Model that drafts justifications and clarifications; default the judge's model. */
  authorModel?: string;
  cache?: JudgeCache;
  cacheScope: string;
  concurrency?: number;
  outDir: string;
  share: number;
  seed: number;
  maxExamples: number;
  candidates: number;
  budget?: number;
  signal?: AbortSignal;
  log?: (message: string) => void;
  onProgress?: (p: AlignProgress) => void;
  /** How a file is named in the report (the CLI: relative to the working folder). */
  shown?: (file: string) => string;
  now?: () => Date;
}

export interface AlignProgress {
  /** `baseline`, `author` or a candidate id. */
  id: string;
  part?: 'train' | 'heldout';
  /** Rows judged so far in this step, of `total`. */
  done: number;
  total: number;
}

export interface AlignRun {
  report: AlignReport;
  reportFile: string;
  /** Candidate id → the text its results were judged with (the file adds the held-out figures). */
  judged: Map<string, string>;
  outDir: string;
}

/** Bad input: nothing was judged (exit 2). */
export class AlignInputError extends Error {
  override readonly name = 'AlignInputError';
}

export const REPORT_FILE = 'align-report.json';
export const ID = /^[a-z][a-z0-9-]{0,40}$/;

export function resultsFile(outDir: string, id: string, part: 'train' | 'heldout'): string {
  return path.join(outDir, `${id}.${part}.results.jsonl`);
}

export function candidateFile(outDir: string, id: string): string {
  return path.join(outDir, `${id}.judge`);
}

/** `<dir>/<name without .judge>.align/`, beside the template. */
export function defaultOutDir(templateFile: string): string {
  return path.join(path.dirname(templateFile), `${path.basename(templateFile).replace(/\.judge$/i, '')}.align`);
}

export async function runAlign(o: AlignOptions): Promise<AlignRun> {
  const split = splitRows(o.loaded.rows, o.share, o.seed, o.judge.metric);
  if (!split.ok) throw new AlignInputError(split.error);
  const outDir = path.resolve(o.outDir);
  await fs.mkdir(outDir, { recursive: true });

  const meter = new CallMeter(o.budget);
  const stopped = new AbortController();
  const onAbort = () => stopped.abort();
  if (o.signal?.aborted) onAbort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const base = meteredJudge(o, meter);
  const parts = new Parts(o, base, split.split, outDir, meter, stopped.signal);

  try {
    const baseTrain = await parts.judge('baseline', o.judge, 'train');
    const baseHeld = await parts.judge('baseline', o.judge, 'heldout');
    let plans: CandidatePlan[] = [];
    let built: Awaited<ReturnType<typeof buildCandidates>> | undefined;
    if (baseTrain?.stop === 'done' && baseHeld?.stop === 'done' && !stopped.signal.aborted) {
      o.onProgress?.({ id: 'author', done: 0, total: 1 });
      built = await buildCandidates({
        judge: o.judge,
        train: split.split.train,
        baseTrain: baseTrain.verdicts,
        guard: new HeldOutGuard(split.split.heldout, split.split.train, o.judge.keyFields, [o.judge.template.text]),
        maxExamples: o.maxExamples,
        count: o.candidates,
        seed: o.seed,
        author: { client: base.client, model: o.authorModel ?? o.settings.model, structured: o.settings.structured, cacheScope: o.cacheScope, signal: stopped.signal, ...(o.cache ? { cache: o.cache } : {}) },
        ...(o.log ? { log: o.log } : {}),
      });
      plans = await writeCandidates(outDir, o.templateFile, built, o, split.split);
    }
    const judges = new Map<string, PreparedJudge>();
    for (const plan of plans) {
      const prepared = prepareJudge(plan.text);
      if (prepared.ok) judges.set(plan.id, prepared.judge);
    }
    // Held-out first: they decide; train figures only say how much of a gain is fit.
    for (const plan of plans) await parts.judge(plan.id, judges.get(plan.id)!, 'heldout');
    for (const plan of plans) await parts.judge(plan.id, judges.get(plan.id)!, 'train');

    const report = assembleReport({ o, split: split.split, runs: parts.runs, plans, built, notRun: parts.notRun, meter, interrupted: o.signal?.aborted === true, outDir });
    for (const plan of plans) {
      const c = report.candidates.find((x) => x.id === plan.id);
      if (c) await fs.writeFile(candidateFile(outDir, plan.id), finalText(plan, c, report, o, split.split), 'utf8');
    }
    const reportFile = path.join(outDir, REPORT_FILE);
    await fs.writeFile(reportFile, `${JSON.stringify(report, null, 2)}\n`, 'utf8');
    return { report, reportFile, judged: new Map(plans.map((p) => [p.id, p.text])), outDir };
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/** The engine's inputs with every client behind the budget meter. */
function meteredJudge(o: AlignOptions, meter: CallMeter): Omit<PartJudge, 'judge'> {
  const panel = o.panel ? { ...o.panel, members: o.panel.members.map((m) => ({ ...m, client: meter.wrap(m.client) })) } : undefined;
  return {
    client: meter.wrap(o.client),
    settings: o.settings,
    cacheScope: o.cacheScope,
    dataFile: o.dataFile,
    ...(panel ? { panel } : {}),
    ...(o.cache ? { cache: o.cache } : {}),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.log ? { log: o.log } : {}),
  };
}

/** Judges the parts one after another, and records why a part was not judged. */
class Parts {
  readonly notRun: NotRun[] = [];
  readonly runs = new Map<string, PartRun>();

  constructor(
    private readonly o: AlignOptions,
    private readonly base: Omit<PartJudge, 'judge'>,
    private readonly split: Split,
    private readonly outDir: string,
    private readonly meter: CallMeter,
    private readonly stopped: AbortSignal,
  ) {}

  /** Unless the run was stopped or the budget cannot cover the part. */
  async judge(id: string, judge: PreparedJudge, which: 'train' | 'heldout'): Promise<PartRun | undefined> {
    const { meter, o } = this;
    const rows = which === 'train' ? this.split.train : this.split.heldout;
    const file = resultsFile(this.outDir, id, which);
    const p = { ...this.base, judge };
    if (this.stopped.aborted) {
      this.notRun.push({ id, part: which, reason: meter.exhausted ? 'the budget was spent' : 'the run was stopped', calls_needed: null });
      return undefined;
    }
    if (o.budget !== undefined) {
      const needed = await estimateCalls(p, rows, file);
      if (needed > meter.remaining) {
        this.notRun.push({ id, part: which, reason: `needs about ${needed} call(s); ${meter.remaining} of the budget left`, calls_needed: needed });
        return undefined;
      }
    }
    let done = 0;
    o.onProgress?.({ id, part: which, done, total: rows.length });
    const signal = AbortSignal.any([this.stopped, budgetSignal(meter)]);
    const run = await judgePart(p, rows, file, signal, () => o.onProgress?.({ id, part: which, done: ++done, total: rows.length }));
    this.runs.set(`${id}.${which}`, run);
    if (run.stop !== 'done') {
      const reason = meter.exhausted ? 'the budget was spent before the part was judged' : `the run stopped (${run.stop}); run align again to finish it`;
      this.notRun.push({ id, part: which, reason, calls_needed: null });
    }
    return run;
  }
}

/** Aborted when the meter refuses its first request, so the part stops starting rows. */
function budgetSignal(meter: CallMeter): AbortSignal {
  const c = new AbortController();
  if (meter.exhausted) c.abort();
  else meter.onExhausted(() => c.abort());
  return c.signal;
}

/**
 * Writes each candidate as it is judged (its provenance without figures yet). A file in the
 * out-dir that align did not write, or the template itself, is never replaced.
 */
async function writeCandidates(outDir: string, templateFile: string, built: NonNullable<Awaited<ReturnType<typeof buildCandidates>>>, o: AlignOptions, split: Split): Promise<CandidatePlan[]> {
  const written: CandidatePlan[] = [];
  for (const plan of built.plans) {
    const file = candidateFile(outDir, plan.id);
    if (path.resolve(file) === path.resolve(templateFile)) {
      built.refused.push({ id: plan.id, kind: plan.kind, reason: `${file} is the template itself; choose another --out-dir` });
      continue;
    }
    const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (existing !== undefined && !/^aligned_from:/m.test(existing)) {
      built.refused.push({ id: plan.id, kind: plan.kind, reason: `${file} exists and was not written by align; move it or choose another --out-dir` });
      continue;
    }
    plan.text = finalText(plan, undefined, undefined, o, split);
    await fs.writeFile(file, plan.text, 'utf8');
    written.push(plan);
  }
  return written;
}

// Joins results files written by shards of one run (`run --shard K/N` on N machines) into one file
// ordered by `_row`. The last line per `_row` stands, across files in the order given. Files of
// another metric or template version are refused: one results file holds one judge.
// Memory: only (file, offset, length) per row is kept; line texts are read back by offset.
import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { acquireResultsLock, type ResultsLock } from '../judge/run/lock';
import { rowOf } from './latest';
import type { ShardIdentity } from './shards';

export type MergeErrorCode = 'mixed-metrics' | 'mixed-templates' | 'mixed-datasets' | 'missing-shard' | 'not-results' | 'out-exists' | 'unreadable';

export class MergeError extends Error {
  override readonly name = 'MergeError';
  constructor(
    readonly code: MergeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface MergeOptions {
  inputs: readonly string[];
  out: string;
  /** Replace an existing, non-empty `out`. */
  overwrite?: boolean;
  /** Names shown in messages (default: the paths as given). */
  label?: (file: string) => string;
  /** What each input's run recorded of its shard (`run --shard K/N`), in input order; undefined: not a shard, or not known. */
  shards?: readonly (ShardIdentity | undefined)[];
}

export interface MergeReport {
  rows: number;
  /** Lines dropped because a later line (in that file or a later one) has the same `_row`. */
  replaced: number;
  /** Lines that were not JSON objects (reported, left out). */
  skipped: { file: string; line: number; reason: string }[];
  /** `metric → template hash` shared by every merged line. */
  templates: Record<string, string>;
  /** Standing rows taken from each input, in input order. */
  perFile: number[];
}

interface Standing {
  file: number;
  offset: number;
  length: number;
  /** The line's sorted `[metric, hash]` pairs as JSON: every line that stands must share it. */
  signature: string;
  where: string;
  /** The line's `_key`: a row of another file with another key is another dataset's row. */
  key: string | undefined;
}

/** Each line of a file with its byte offset and length (without the newline). */
async function* linesWithOffsets(file: string): AsyncIterable<{ text: Buffer; offset: number; line: number; complete: boolean }> {
  let carry: Buffer = Buffer.alloc(0);
  let base = 0; // file offset of carry[0]
  let line = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      line++;
      yield { text: buf.subarray(start, nl), offset: base + start, line, complete: true };
      start = nl + 1;
    }
    base += start;
    carry = Buffer.from(buf.subarray(start));
  }
  if (carry.length > 0) yield { text: carry, offset: base, line: line + 1, complete: false };
}

/** `metric → template hash` of a results line, from its `m/template_hash` columns. */
export function templatesOf(record: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k.endsWith('/template_hash') && typeof v === 'string') out[k.slice(0, -'/template_hash'.length)] = v;
  }
  return out;
}

function signatureOf(templates: Record<string, string>): string {
  return JSON.stringify(Object.keys(templates).sort().map((m) => [m, templates[m]]));
}

/**
 * One writer per results file: merge holds the lock of `out` and of every input (a shard a run is
 * still writing is refused, not read half-way), and releases them however it ends.
 */
export async function mergeResults(opts: MergeOptions): Promise<MergeReport> {
  if (opts.shards) checkShards(opts.inputs.map((f, i) => ({ file: (opts.label ?? ((x: string) => x))(f), shard: opts.shards![i] })));
  const locks: ResultsLock[] = [];
  try {
    for (const f of [opts.out, ...opts.inputs]) locks.push(await acquireResultsLock(f, { command: 'judge-studio merge' }));
    return await mergeLocked(opts);
  } finally {
    for (const l of locks) await l.release();
  }
}

async function mergeLocked(opts: MergeOptions): Promise<MergeReport> {
  const label = opts.label ?? ((f: string) => f);
  if (!opts.overwrite) {
    const size = await fs.stat(opts.out).then((s) => s.size, () => -1);
    if (size > 0) throw new MergeError('out-exists', `${label(opts.out)} already exists; pass --overwrite to replace it, or choose another --out`);
  }
  for (const input of opts.inputs) {
    if (path.resolve(input) === path.resolve(opts.out)) throw new MergeError('out-exists', `${label(opts.out)} is also an input; choose another --out`);
  }

  const standing = new Map<number, Standing>();
  const report: MergeReport = { rows: 0, replaced: 0, skipped: [], templates: {}, perFile: opts.inputs.map(() => 0) };
  for (const [fileIndex, file] of opts.inputs.entries()) {
    try {
      for await (const { text, offset, line, complete } of linesWithOffsets(file)) {
        const where = `${label(file)}:${line}`;
        if (text.toString('utf8').trim() === '') continue;
        let record: unknown;
        try {
          record = JSON.parse(text.toString('utf8'));
        } catch {
          report.skipped.push({ file: label(file), line, reason: complete ? 'not valid JSON' : 'a torn last line (no newline)' });
          continue;
        }
        if (!record || typeof record !== 'object' || Array.isArray(record)) {
          report.skipped.push({ file: label(file), line, reason: 'not a JSON object' });
          continue;
        }
        const row = rowOf(record as Record<string, unknown>);
        if (row === undefined) throw new MergeError('not-results', `${where} has no "_row": not a results file written by judge-studio run`);
        const signature = signatureOf(templatesOf(record as Record<string, unknown>));
        const key = typeof (record as Record<string, unknown>)._key === 'string' ? ((record as Record<string, unknown>)._key as string) : undefined;
        const before = standing.get(row);
        if (before) {
          checkSameRow(before, { file: fileIndex, key, where }, row);
          report.replaced++;
        }
        standing.set(row, { file: fileIndex, offset, length: text.length, signature, where, key });
      }
    } catch (e) {
      if (e instanceof MergeError) throw e;
      throw new MergeError('unreadable', `cannot read ${label(file)}: ${(e as Error).message}`);
    }
  }
  checkOneJudge(standing, report);

  const rows = [...standing.keys()].sort((a, b) => a - b);
  const tmp = `${opts.out}.${process.pid}.tmp`;
  const handles = await Promise.all(opts.inputs.map((f) => fs.open(f, 'r')));
  const out = await fs.open(tmp, 'w');
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for (const row of rows) {
      const s = standing.get(row)!;
      const buf = Buffer.alloc(s.length + 1);
      await handles[s.file]!.read(buf, 0, s.length, s.offset);
      buf[s.length] = 10;
      pending.push(buf);
      pendingBytes += buf.length;
      report.perFile[s.file]!++;
      if (pendingBytes >= 1 << 20) {
        await out.write(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      }
    }
    if (pending.length > 0) await out.write(Buffer.concat(pending));
    await out.sync();
  } catch (e) {
    await out.close().catch(() => undefined);
    await fs.rm(tmp, { force: true });
    throw e;
  } finally {
    await Promise.all(handles.map((h) => h.close()));
  }
  await out.close();
  // The merged file appears whole or not at all.
  await fs.rename(tmp, opts.out);
  report.rows = rows.length;
  return report;
}

/**
 * Two files giving a line for one `_row` must mean the same inputs (`_key`): shards of one run, or a
 * shard judged again. Within one file a later line may be another row's (resume re-judged it).
 */
function checkSameRow(before: Standing, now: { file: number; key: string | undefined; where: string }, row: number): void {
  if (before.file === now.file || before.key === undefined || now.key === undefined || before.key === now.key) return;
  throw new MergeError(
    'mixed-datasets',
    `${before.where} and ${now.where} are both row ${row} but of different inputs (_key ${before.key} vs ${now.key}): ` +
      'these files come from different datasets (or the dataset changed between shards); merge only the shards of one run',
  );
}

/**
 * Shards merge only with the other shards of their run: all of one dataset (its fingerprint), all
 * K/N with one N, every K present. Files that are no shard at all merge as before (by `_row` and
 * `_key`), but not mixed with shards, whose rows never share a `_row` to be compared by.
 */
export function checkShards(inputs: readonly { file: string; shard: ShardIdentity | undefined }[]): void {
  const sharded = inputs.filter((i) => i.shard !== undefined);
  if (sharded.length === 0) return;
  const plain = inputs.find((i) => i.shard === undefined);
  if (plain) {
    throw new MergeError(
      'mixed-datasets',
      `${plain.file} records no shard (its run manifest ${plain.file}.run.json is missing, or the run had no --shard), but ${sharded[0]!.file} is shard ${describeShard(sharded[0]!.shard!)}: ` +
        'shards never share a row to be compared by, so merge takes shards only with the manifest each run wrote beside them',
    );
  }
  const first = sharded[0]!;
  const a = first.shard!;
  for (const other of sharded.slice(1)) {
    const b = other.shard!;
    if (b.dataset.keys !== a.dataset.keys || b.dataset.rows !== a.dataset.rows || b.count !== a.count) {
      throw new MergeError(
        'mixed-datasets',
        `${first.file} is shard ${describeShard(a)} of a dataset of ${a.dataset.rows} row(s) (fingerprint ${a.dataset.keys}), but ${other.file} is shard ${describeShard(b)} of ` +
          `${b.dataset.keys === a.dataset.keys ? 'the same dataset' : `a dataset of ${b.dataset.rows} row(s) (fingerprint ${b.dataset.keys})`}: merge only the shards of one run`,
      );
    }
  }
  const given = new Set(sharded.map((i) => i.shard!.index));
  const missing = Array.from({ length: a.count }, (_, k) => k + 1).filter((k) => !given.has(k));
  if (missing.length > 0) {
    throw new MergeError(
      'missing-shard',
      `shard ${missing.map((k) => `${k}/${a.count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (given: ${sharded.map((i) => `${describeShard(i.shard!)} in ${i.file}`).join(', ')}); ` +
        'merge every shard of the run, or its rows are left out',
    );
  }
}

function describeShard(s: ShardIdentity): string {
  return `${s.index}/${s.count}`;
}

/** Every standing line must come from the same metric(s) and template version(s). */
function checkOneJudge(standing: Map<number, Standing>, report: MergeReport): void {
  let first: Standing | undefined;
  for (const s of standing.values()) {
    if (!first) {
      first = s;
      continue;
    }
    if (s.signature === first.signature) continue;
    const a = parse(first.signature);
    const b = parse(s.signature);
    const sameMetrics = Object.keys(a).sort().join(',') === Object.keys(b).sort().join(',');
    if (!sameMetrics) {
      throw new MergeError(
        'mixed-metrics',
        `${first.where} is a result of ${describe(a)} but ${s.where} of ${describe(b)}; merge only the shards of one run`,
      );
    }
    throw new MergeError(
      'mixed-templates',
      `${first.where} was judged by template version ${describe(a)} but ${s.where} by ${describe(b)}; ` +
        'mixing versions would mix two judges in one file: judge the stale shard again with the current template',
    );
  }
  if (first) report.templates = parse(first.signature);
}

function parse(signature: string): Record<string, string> {
  return Object.fromEntries(JSON.parse(signature) as [string, string][]);
}

function describe(t: Record<string, string>): string {
  const entries = Object.entries(t);
  return entries.length === 0 ? 'no metric (no "…/template_hash" column)' : entries.map(([m, h]) => `"${m}" ${h}`).join(', ');
}

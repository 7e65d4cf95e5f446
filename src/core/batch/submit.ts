// `batch submit`: every request a run would send (each sample and pass order of each selected row,
// for each judge of a panel) as Batch API lines with the very body `run` sends, built by the
// engine's own `rowRequests`. Parts hold at most 50,000 requests and 200 MB, one judge each (a
// provider's batch file holds one model), and a row's requests never straddle two parts of a judge.
// The state file is rewritten after every upload and every batch created.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readDataset } from '../dataset';
import type { DatasetItem, DatasetRow } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { repairConversation, type PassRequest } from '../judge/engine/pass';
import type { PreparedJudge } from '../judge/engine/prepare';
import { rowRequests } from '../judge/engine/row';
import type { JudgeSettings } from '../judge/engine/settings';
import { inRange } from '../judge/run/runner';
import { chatBody } from '../judge/transport/openaiClient';
import type { JudgeRequest } from '../judge/transport/types';
import type { BatchApi } from './api';
import { customId, parsePosition, requestId, stateNonce, writeState, type BatchEntry, type BatchState, type RepairEntry } from './state';
import { batchMetadata } from './verify';

/** The providers' limits per input file (OpenAI and Azure alike). */
export const PART_LIMITS = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

export interface SubmitOptions {
  api: BatchApi;
  judge: PreparedJudge;
  /** The state as created by the front end (settings, selection, endpoint); submit fills in the rest. */
  state: BatchState;
  stateFile: string;
  dataFile: string;
  limits?: { maxRequests: number; maxBytes: number };
  items?: () => AsyncIterable<DatasetItem>;
  log?: (message: string) => void;
  signal?: AbortSignal;
}

/** The body a batch line carries for a request: exactly what `run` posts. */
export function batchBody(request: JudgeRequest, state: Pick<BatchState, 'maxTokensKey'>): Record<string, unknown> {
  return chatBody(request, request.responseFormat?.mode ?? 'none', state.maxTokensKey);
}

/** The line for one request: `{custom_id, method, url, body}`; the custom_id names its position, the submission and the body's hash. */
export function batchLine(position: string, request: JudgeRequest, state: Pick<BatchState, 'endpoint' | 'maxTokensKey'>, nonce: string, repair = false): string {
  const body = batchBody(request, state);
  return `${JSON.stringify({ custom_id: customId(position, nonce, body, repair), method: 'POST', url: state.endpoint, body })}\n`;
}

/** The judges of a state: one (undefined) or each panel member (1-based), with the settings its requests use. */
export function stateJudges(state: BatchState): { judge: number | undefined; settings: JudgeSettings }[] {
  const settings = state.settings as JudgeSettings;
  if (!state.panel) return [{ judge: undefined, settings }];
  return state.panel.members.map((m, i) => ({ judge: i + 1, settings: { ...settings, model: m.model } }));
}

/** Accumulates lines into part files and turns each full part into a batch. */
class PartWriter {
  private file: string | undefined;
  private handle: fs.FileHandle | undefined;
  private entry: BatchEntry | undefined;

  constructor(
    private readonly o: SubmitOptions,
    private readonly kind: 'main' | 'repair',
    private readonly judge: number | undefined,
    private readonly nextPart: () => number,
  ) {}

  private get limits() {
    return this.o.limits ?? PART_LIMITS;
  }

  /** Adds one row's lines; they go into the current part if they fit, else into a new one. Returns the part number. */
  async add(row: number, lines: string[]): Promise<number> {
    const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
    if (this.entry && (this.entry.requests + lines.length > this.limits.maxRequests || this.entry.bytes + bytes > this.limits.maxBytes)) await this.flush();
    if (!this.entry) {
      const part = this.nextPart();
      const dir = `${this.o.stateFile}.parts`;
      await fs.mkdir(dir, { recursive: true });
      this.file = path.join(dir, `part-${part}.jsonl`);
      this.handle = await fs.open(this.file, 'w');
      this.entry = { part, kind: this.kind, ...(this.judge !== undefined ? { judge: this.judge } : {}), rows: [row, row], requests: 0, bytes: 0 };
    }
    await this.handle!.write(lines.join(''));
    this.entry.rows[1] = row;
    this.entry.requests += lines.length;
    this.entry.bytes += bytes;
    return this.entry.part;
  }

  /** Uploads the current part and creates its batch, saving the state after each step. */
  async flush(): Promise<void> {
    const entry = this.entry;
    if (!entry || !this.handle || !this.file) return;
    await this.handle.close();
    this.entry = undefined;
    this.handle = undefined;
    const { api, state, stateFile, signal } = this.o;
    state.batches.push(entry);
    state.batches.sort((a, b) => a.part - b.part);
    entry.fileId = await api.upload(this.file, signal);
    await writeState(stateFile, state);
    await createBatch(this.o, entry);
    await fs.rm(this.file, { force: true });
    const who = entry.judge !== undefined ? ` (judge ${state.panel?.members[entry.judge - 1]?.label ?? entry.judge})` : '';
    this.o.log?.(`part ${entry.part}${who}: ${entry.requests} request(s), rows ${entry.rows[0]}–${entry.rows[1]} → batch ${entry.id}`);
  }
}

/** Part numbers in submit order, shared by the judges' writers (their parts are open at once). */
function partCounter(state: BatchState): () => number {
  let last = state.batches.reduce((m, b) => Math.max(m, b.part), 0);
  return () => ++last;
}

async function createBatch(o: Pick<SubmitOptions, 'api' | 'state' | 'stateFile' | 'signal'>, entry: BatchEntry): Promise<void> {
  const { api, state, stateFile, signal } = o;
  const batch = await api.create(entry.fileId!, state.endpoint, batchMetadata(state, entry), signal);
  entry.id = batch.id;
  entry.status = batch.status;
  await writeState(stateFile, state);
}

/** Parts uploaded before an interruption keep their file and get their batch; the others are rendered again. */
async function continueParts(o: SubmitOptions): Promise<void> {
  const { state } = o;
  const uploaded = new Set(state.batches.filter((b) => b.fileId !== undefined).map((b) => b.part));
  state.batches = state.batches.filter((b) => uploaded.has(b.part));
  for (const b of state.batches) if (b.id === undefined) await createBatch(o, b);
  for (const r of state.repairs) if (r.part !== undefined && !uploaded.has(r.part)) delete r.part;
}

/**
 * Submits every selected row. A state left by an interrupted submit is continued: parts already
 * uploaded get their batch, and each judge's rendering resumes after the last row of its last part.
 */
export async function submitBatches(o: SubmitOptions): Promise<BatchState> {
  const { state, judge } = o;
  const nonce = stateNonce(state, o.stateFile);
  await continueParts(o);
  const judges = stateJudges(state);
  const resumeAfter = judges.map((j) => state.batches.filter((b) => b.kind === 'main' && b.judge === j.judge).reduce((m, b) => Math.max(m, b.rows[1]), 0));
  if (resumeAfter.every((r) => r === 0)) {
    state.totals = { rows: 0, requests: 0 };
    state.renderFailures = [];
  }
  await writeState(o.stateFile, state);

  const counter = partCounter(state);
  const writers = judges.map((j) => new PartWriter(o, 'main', j.judge, counter));
  const items = o.items ? o.items() : readDataset(o.dataFile, o.signal ? { signal: o.signal } : {});
  for await (const item of items) {
    if (o.signal?.aborted) throw new Error('cancelled');
    if (state.selection.to !== undefined && item.row > state.selection.to) break;
    if (!inRange(item.row, state.selection) || isSkip(item)) continue;
    const todo = judges.flatMap((_, i) => (item.row > resumeAfter[i]! ? [i] : []));
    if (todo.length === 0) continue;
    if (todo.length === judges.length) state.totals.rows++;
    for (const i of todo) {
      const rendered = rowRequests(item, judge, state.samples, judges[i]!.settings);
      if (!rendered.ok) {
        if (i === todo[0]) state.renderFailures.push({ row: item.row, error: rendered.error });
        continue;
      }
      const lines = rendered.passes.map((p) => batchLine(requestId(item.row, p.sample, p.order, judges[i]!.judge), p.request, state, nonce));
      state.totals.requests += lines.length;
      await writers[i]!.add(item.row, lines);
    }
  }
  for (const w of writers) await w.flush();
  state.submitted = true;
  await writeState(o.stateFile, state);
  return state;
}

/**
 * `batch submit --repairs`: one repair request per invalid reply that collect found, the very
 * request the engine would send (engine/pass.ts repairConversation on the row's own pass), in
 * follow-up batches, one judge per part. Returns how many were submitted.
 */
export async function submitRepairs(o: SubmitOptions): Promise<number> {
  const { state } = o;
  const nonce = stateNonce(state, o.stateFile);
  await continueParts(o);
  const pending = new Map<number, RepairEntry[]>();
  for (const r of state.repairs) {
    const id = r.part === undefined ? parsePosition(r.id) : undefined;
    if (id) pending.set(id.row, [...(pending.get(id.row) ?? []), r]);
  }
  if (pending.size === 0) return 0;
  const judges = stateJudges(state);
  const counter = partCounter(state);
  const writers = new Map(judges.map((j) => [j.judge, new PartWriter(o, 'repair', j.judge, counter)]));
  let n = 0;
  const items = o.items ? o.items() : readDataset(o.dataFile, o.signal ? { signal: o.signal } : {});
  for await (const item of items) {
    const repairs = isSkip(item) ? undefined : pending.get(item.row);
    if (!repairs || isSkip(item)) continue;
    for (const j of judges) {
      const mine = repairs.filter((r) => parsePosition(r.id)!.judge === j.judge);
      const lines = mine.length > 0 ? repairLines(item, o.judge, state, j.settings, mine, nonce) : [];
      if (lines.length === 0) continue;
      const part = await writers.get(j.judge)!.add(item.row, lines);
      for (const r of mine) r.part = part;
      n += lines.length;
    }
  }
  for (const w of writers.values()) await w.flush();
  await writeState(o.stateFile, state);
  return n;
}

function repairLines(row: DatasetRow, judge: PreparedJudge, state: BatchState, settings: JudgeSettings, repairs: RepairEntry[], nonce: string): string[] {
  const rendered = rowRequests(row, judge, state.samples, settings);
  if (!rendered.ok) return [];
  return repairs.flatMap((r) => {
    const id = parsePosition(r.id)!;
    const pass: PassRequest | undefined = rendered.passes.find((p) => p.sample === id.sample && p.order === id.order);
    if (!pass) return [];
    const request = { ...pass.request, messages: repairConversation(pass.request.messages, r.text, r.error, judge.strategy) };
    return [batchLine(r.id, request, state, nonce, true)];
  });
}

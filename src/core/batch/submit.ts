// `batch submit`: renders every request a run would send (each sample and pass order of each
// selected row) as Batch API lines with the very body `run` sends, splits them into parts of at
// most 50,000 requests and 200 MB (a row's requests never straddle two parts), uploads each part
// and creates its batch. The state file is rewritten after every upload and every batch created.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readDataset } from '../dataset';
import type { DatasetItem, DatasetRow } from '../dataset/types';
import { isSkip } from '../dataset/types';
import { buildRequest, repairMessage, type JudgeSettings } from '../judge/engine/pass';
import { chatBody } from '../judge/transport/openaiClient';
import type { PreparedJudge } from '../judge/engine/prepare';
import { inRange } from '../judge/run/runner';
import type { ChatMessage } from '../judge/transport/types';
import type { BatchApi } from './api';
import { parseRequestId, requestId, writeState, type BatchEntry, type BatchState, type RepairEntry } from './state';

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

/** The line for one request: `{custom_id, method, url, body}`. */
export function batchLine(customId: string, messages: ChatMessage[], state: Pick<BatchState, 'endpoint' | 'settings' | 'maxTokensKey'>, jsonSchema: Record<string, unknown>): string {
  const settings = state.settings as JudgeSettings;
  const body = chatBody(buildRequest(messages, settings, jsonSchema), settings.structured, state.maxTokensKey);
  return `${JSON.stringify({ custom_id: customId, method: 'POST', url: state.endpoint, body })}\n`;
}

/** Accumulates lines into part files and turns each full part into a batch. */
class PartWriter {
  private file: string | undefined;
  private handle: fs.FileHandle | undefined;
  private entry: BatchEntry | undefined;

  constructor(
    private readonly o: SubmitOptions,
    private readonly kind: 'main' | 'repair',
  ) {}

  private get limits() {
    return this.o.limits ?? PART_LIMITS;
  }

  /** Adds one row's lines; they go into the current part if they fit, else into a new one. Returns the part number. */
  async add(row: number, lines: string[]): Promise<number> {
    const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
    if (this.entry && (this.entry.requests + lines.length > this.limits.maxRequests || this.entry.bytes + bytes > this.limits.maxBytes)) await this.flush();
    if (!this.entry) {
      const part = this.o.state.batches.length + 1;
      const dir = `${this.o.stateFile}.parts`;
      await fs.mkdir(dir, { recursive: true });
      this.file = path.join(dir, `part-${part}.jsonl`);
      this.handle = await fs.open(this.file, 'w');
      this.entry = { part, kind: this.kind, rows: [row, row], requests: 0, bytes: 0 };
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
    entry.fileId = await api.upload(this.file, signal);
    await writeState(stateFile, state);
    await createBatch(this.o, entry);
    await fs.rm(this.file, { force: true });
    this.o.log?.(`part ${entry.part}: ${entry.requests} request(s), rows ${entry.rows[0]}–${entry.rows[1]} → batch ${entry.id}`);
  }
}

async function createBatch(o: Pick<SubmitOptions, 'api' | 'state' | 'stateFile' | 'signal'>, entry: BatchEntry): Promise<void> {
  const { api, state, stateFile, signal } = o;
  const metadata = { judge_studio_metric: state.metric, judge_studio_template: state.template.hash, judge_studio_part: String(entry.part) };
  const batch = await api.create(entry.fileId!, state.endpoint, metadata, signal);
  entry.id = batch.id;
  entry.status = batch.status;
  await writeState(stateFile, state);
}

/**
 * Submits every selected row. A state left by an interrupted submit is continued: parts already
 * uploaded get their batch, and rendering resumes after the last row of the last uploaded part.
 */
export async function submitBatches(o: SubmitOptions): Promise<BatchState> {
  const { state, judge } = o;
  // Parts that never reached the provider are rendered again; uploaded ones keep their file.
  state.batches = state.batches.filter((b) => b.fileId !== undefined);
  for (const b of state.batches) if (b.id === undefined) await createBatch(o, b);
  const resumeAfter = state.batches.filter((b) => b.kind === 'main').reduce((m, b) => Math.max(m, b.rows[1]), 0);
  if (resumeAfter === 0) {
    state.totals = { rows: 0, requests: 0 };
    state.renderFailures = [];
  }
  await writeState(o.stateFile, state);

  const parts = new PartWriter(o, 'main');
  const items = o.items ? o.items() : readDataset(o.dataFile, o.signal ? { signal: o.signal } : {});
  for await (const item of items) {
    if (o.signal?.aborted) throw new Error('cancelled');
    if (state.selection.to !== undefined && item.row > state.selection.to) break;
    if (item.row <= resumeAfter || !inRange(item.row, state.selection) || isSkip(item)) continue;
    const lines = renderRow(item, judge, state);
    state.totals.rows++;
    if (typeof lines === 'string') {
      state.renderFailures.push({ row: item.row, error: lines });
      continue;
    }
    state.totals.requests += lines.length;
    await parts.add(item.row, lines);
  }
  await parts.flush();
  state.submitted = true;
  await writeState(o.stateFile, state);
  return state;
}

/** The batch lines of one row, or the render error. */
function renderRow(row: DatasetRow, judge: PreparedJudge, state: BatchState): string[] | string {
  const { strategy } = judge;
  const prompts = new Map<'AB' | 'BA', ChatMessage[]>();
  for (const order of strategy.orders) {
    const rendered = judge.render(row.record, order, row.row);
    if (!rendered.ok) return rendered.error;
    prompts.set(order, rendered.prompt.messages);
  }
  const lines: string[] = [];
  for (let sample = 0; sample < state.samples; sample++) {
    for (const order of strategy.orders) lines.push(batchLine(requestId(row.row, sample, order), prompts.get(order)!, state, strategy.jsonSchema));
  }
  return lines;
}

/**
 * `batch submit --repairs`: one repair request per invalid reply that collect found, quoting the
 * error as `run` does, in follow-up batches. Returns how many were submitted.
 */
export async function submitRepairs(o: Omit<SubmitOptions, 'state'> & { state: BatchState }): Promise<number> {
  const { state, judge } = o;
  // Repairs assigned to a part that never reached the provider go into a new one.
  const uploaded = new Set(state.batches.filter((b) => b.fileId !== undefined).map((b) => b.part));
  state.batches = state.batches.filter((b) => uploaded.has(b.part));
  for (const b of state.batches) if (b.id === undefined) await createBatch(o, b);
  for (const r of state.repairs) if (r.part !== undefined && !uploaded.has(r.part)) delete r.part;
  const pending = new Map<number, RepairEntry[]>();
  for (const r of state.repairs) {
    if (r.part !== undefined) continue;
    const id = parseRequestId(r.id);
    if (!id) continue;
    pending.set(id.row, [...(pending.get(id.row) ?? []), r]);
  }
  if (pending.size === 0) return 0;
  const parts = new PartWriter(o, 'repair');
  let n = 0;
  const items = o.items ? o.items() : readDataset(o.dataFile, o.signal ? { signal: o.signal } : {});
  for await (const item of items) {
    const repairs = isSkip(item) ? undefined : pending.get(item.row);
    if (!repairs || isSkip(item)) continue;
    const lines: string[] = [];
    for (const r of repairs) {
      const id = parseRequestId(r.id)!;
      const rendered = judge.render(item.record, id.order, item.row);
      if (!rendered.ok) continue;
      lines.push(batchLine(`${r.id}.repair`, repairConversation(rendered.prompt.messages, r, judge), state, judge.strategy.jsonSchema));
    }
    if (lines.length === 0) continue;
    const part = await parts.add(item.row, lines);
    for (const r of repairs) r.part = part;
    n += lines.length;
  }
  await parts.flush();
  await writeState(o.stateFile, state);
  return n;
}

/** The conversation of a repair request: the prompt, the invalid reply, and the error quoted. */
export function repairConversation(messages: ChatMessage[], r: Pick<RepairEntry, 'text' | 'error'>, judge: PreparedJudge): ChatMessage[] {
  return [...messages, { role: 'assistant', content: r.text }, { role: 'user', content: repairMessage(r.error, judge.strategy.instruction) }];
}

// Assembles the run view (src/protocol/run.ts) from a run's pieces: the rendered prompt, the live
// pass status, the results line or the reason there is none. Pure, so the host stays thin.
import type { DatasetRecord } from '../../../core/dataset/types';
import type { PreparedJudge } from '../../../core/judge/engine/prepare';
import type { Phase, RawReply, RenderedOrder, ResultView, RunView } from '../../../protocol/run';
import type { HistoryEntry, RunEntry } from './history';
import { panelView, rawReplies, resultView, type Line } from './result';
import { criteriaView, tiersView } from './criteria';
import { passLabel, type PassPrompt } from './status';

export type Rendered = { ok: true; orders: RenderedOrder[]; prompts: PassPrompt[] } | { ok: false; error: string };

/** Every pass order's messages for one record, as they will be sent. */
export function renderOrders(judge: PreparedJudge, record: DatasetRecord, row?: number): Rendered {
  const pairwise = judge.config.kind === 'pairwise';
  const orders: RenderedOrder[] = [];
  const prompts: PassPrompt[] = [];
  for (const order of judge.strategy.orders) {
    const out = judge.render(record, order, row);
    if (!out.ok) return { ok: false, error: out.error };
    orders.push({ label: pairwise ? order : 'single', messages: out.prompt.messages.map(({ role, content }) => ({ role, content })) });
    prompts.push({ order, messages: out.prompt.messages });
  }
  return { ok: true, orders, prompts };
}

export interface ViewInput {
  id: string;
  template: RunView['template'];
  source: string;
  note: string | null;
  model: string | null;
  time: string;
  phase: Phase;
  elapsedMs: number | null;
  passes: RunView['passes'];
  messages: RenderedOrder[];
  /** The results line once the judge answered (or failed as a recorded row). */
  line?: Line | undefined;
  /** Why there is no line: refused, cancelled, template or render errors. */
  failure?: { title: string; message: string } | undefined;
  scale: { min: number; max: number } | null;
  /** A categorical template's labels, for the label strip. */
  labels?: readonly string[] | null;
  raw: RawReply[];
  canRerun: boolean;
  /** A pass needed a repair request before its reply was usable (seen live in a single run). */
  repaired?: boolean;
  timeLabel?: string;
}

export function runView(input: ViewInput): RunView {
  const { line, failure } = input;
  let result: ResultView | null = null;
  const raw = [...input.raw];
  if (failure) result = { kind: 'error', title: failure.title, message: failure.message, passes: [] };
  else if (line) {
    result = resultView(line, input.template.metric, input.scale, input.labels ?? null);
    // A panel's passes are shown per judge in the panel table, not as one long row of passes.
    if (result?.kind === 'pairwise' && Array.isArray(line[`${input.template.metric}/judges`])) result = { ...result, passes: [] };
    if (!result) result = { kind: 'error', title: 'The results row has no verdict', message: `No "${input.template.metric}/…" verdict or error column in this row.`, passes: [] };
    if (input.repaired && result.kind !== 'error') result = { ...result, repaired: true };
    // A failed row keeps its raw replies in the line; show those not already tracked live.
    for (const text of rawReplies(line, input.template.metric)) {
      if (!raw.some((r) => r.text === text)) raw.push({ label: `Reply ${raw.length + 1}`, text });
    }
  }
  return {
    id: input.id,
    template: input.template,
    source: input.source,
    note: input.note,
    model: input.model,
    time: input.time,
    ...(input.timeLabel ? { timeLabel: input.timeLabel } : {}),
    phase: input.phase,
    elapsedMs: input.elapsedMs,
    passes: input.passes,
    messages: input.messages,
    result,
    raw,
    canRerun: input.canRerun,
    panel: line && !failure ? panelView(line, input.template.metric) : null,
    ...(line && !failure ? { criteria: criteriaView(line, input.template.metric), tiers: tiersView(line, input.template.metric) } : {}),
  };
}

/** Pass chips for a finished run read back from a line (every pass that ran is answered). */
export function finishedPasses(kind: 'pointwise' | 'pairwise', swap: boolean, failed: boolean): RunView['passes'] {
  const orders = kind === 'pairwise' && swap ? (['AB', 'BA'] as const) : (['AB'] as const);
  return orders.map((order) => ({ order, label: passLabel(order, kind === 'pairwise'), state: failed ? 'failed' : 'answered' }));
}

/** The view of a history entry of a single run (reopened from the side panel). */
export function entryView(entry: RunEntry, messages: RenderedOrder[], scale: { min: number; max: number } | null, canRerun: boolean, swap = true, pair: string[] | null = null): RunView {
  const failed = entry.verdict === 'error';
  return runView({
    id: entry.id,
    template: { file: entry.template, metric: entry.metric, kind: entry.kind, pair },
    source: entry.source,
    note: entry.note,
    model: entry.model,
    time: entry.time,
    phase: 'recorded',
    elapsedMs: entry.elapsedMs,
    passes: finishedPasses(entry.kind, swap, failed),
    messages,
    line: entry.line,
    scale,
    raw: entry.raw,
    canRerun,
    timeLabel: 'judged',
  });
}

export function isRunEntry(e: HistoryEntry): e is RunEntry {
  return e.type === 'run';
}

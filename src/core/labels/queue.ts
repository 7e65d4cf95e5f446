// The review queue: which rows a reviewer sees, in which order. "Uncertain first" puts the rows
// where the judge is least trustworthy at the front (position-inconsistent, panel disagreement,
// rule violations, unstable across samples, low confidence); "random" is a seeded sample, which
// gives an unbiased estimate of agreement. Failed rows have no verdict to check and are left out.
import { rowKey } from '../results/keys';
import type { DatasetRecord, DatasetRow } from '../dataset/types';
import { shuffled, seedOf } from './random';

export type QueueOrder = 'uncertain' | 'random';

export interface QueueItem {
  row: number;
  line: number;
  key: string;
  record: DatasetRecord;
  /** Why the row is uncertain, most important first; empty when nothing stands out. */
  reasons: string[];
  score: number;
}

export interface Queue {
  items: QueueItem[];
  order: QueueOrder;
  /** Rows left out because the judge failed on them (no verdict to review). */
  failed: number;
  /** Rows left out because they have no judge verdict for the metric at all. */
  unjudged: number;
}

export interface QueueOptions {
  metric: string;
  order: QueueOrder;
  seed: string;
  /** Fields for `_key` when a line has none (an older results file); undefined when the template is unknown. */
  fields: readonly string[] | undefined;
}

/** Thrown value when rows carry no `_key` and no key fields are known: the caller explains it. */
export class MissingKeys extends Error {
  constructor(readonly row: number) {
    super(`row ${row} has no "_key" and the template is unknown, so its key cannot be computed`);
  }
}

const CONFIDENCE_LOW = 0.7;

/** The row's `_key`, or one computed from its input fields. */
export function keyOf(record: DatasetRecord, fields: readonly string[] | undefined): string | undefined {
  const key = record['_key'];
  if (typeof key === 'string' && /^[0-9a-f]{16}$/.test(key)) return key;
  return fields ? rowKey(record, fields) : undefined;
}

export function buildQueue(rows: readonly DatasetRow[], o: QueueOptions): Queue {
  const m = o.metric;
  const items: QueueItem[] = [];
  let failed = 0;
  let unjudged = 0;
  for (const { row, line, record } of rows) {
    const verdict = record[`${m}/score`] ?? record[`${m}/pairwise_choice`];
    const error = record[`${m}/error`];
    if (verdict === undefined || verdict === null || verdict === '') {
      if (typeof error === 'string' && error !== '') failed++;
      else unjudged++;
      continue;
    }
    const key = keyOf(record, o.fields);
    if (key === undefined) throw new MissingKeys(row);
    const { reasons, score } = uncertainty(record, m);
    items.push({ row, line, key, record, reasons, score });
  }
  const ordered =
    o.order === 'random'
      ? shuffled(items, seedOf(o.seed))
      : [...items].sort((a, b) => b.score - a.score || a.row - b.row);
  return { items: ordered, order: o.order, failed, unjudged };
}

/** How doubtful a verdict is, and why. Weights: position inconsistency > panel split > rules > instability > confidence. */
export function uncertainty(record: DatasetRecord, m: string): { reasons: string[]; score: number } {
  const reasons: string[] = [];
  let score = 0;
  if (record[`${m}/position_consistent`] === false) {
    reasons.push('position-inconsistent');
    score += 8;
  }
  const panel = record[`${m}/panel_agreement`];
  if (typeof panel === 'number' && panel < 1) {
    reasons.push(`panel split (${Math.round(panel * 100)}% agree)`);
    score += 4 + 2 * (1 - panel);
  } else if (Array.isArray(record[`${m}/judges`]) && distinctVerdicts(record[`${m}/judges`] as unknown[]) > 1) {
    reasons.push('panel split');
    score += 4;
  }
  const violations = record[`${m}/rule_violations`];
  if (Array.isArray(violations) && violations.length > 0) {
    reasons.push(`${violations.length} rule violation${violations.length === 1 ? '' : 's'}`);
    score += 3;
  }
  const flip = record[`${m}/flip_rate`];
  if (typeof flip === 'number' && flip > 0) {
    reasons.push(`flips across samples (${Math.round(flip * 100)}%)`);
    score += 2 + flip;
  }
  const sd = record[`${m}/score_sd`];
  if (typeof sd === 'number' && sd > 0) {
    reasons.push(`score varies across samples (sd ${sd.toFixed(2)})`);
    score += 1 + Math.min(sd, 2);
  }
  const confidence = record[`${m}/confidence`];
  if (typeof confidence === 'number' && Number.isFinite(confidence)) {
    if (confidence < CONFIDENCE_LOW) reasons.push(`low confidence (${confidence.toFixed(2)})`);
    score += 1 - Math.min(1, Math.max(0, confidence));
  }
  return { reasons, score };
}

function distinctVerdicts(judges: unknown[]): number {
  const seen = new Set<string>();
  for (const j of judges) {
    if (j && typeof j === 'object' && 'verdict' in j) {
      const v = (j as { verdict: unknown }).verdict;
      if (v !== undefined && v !== null) seen.add(JSON.stringify(v));
    }
  }
  return seen.size;
}

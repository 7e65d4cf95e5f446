// The result builder: the one function that turns a row and its judge's columns into a results
// line. Nothing else writes `metric/…` keys (an architecture test holds it), so a line never mixes
// two judgments and a judge reply can never name a column.
import type { DatasetRow } from '../../dataset/types';
import { isJudgeColumn } from '../../results/columns';
import { rowKey } from '../../results/keys';
import { ROW_KEY } from '../../results/latest';

export { ROW_KEY } from '../../results/latest';
/** The key under which each results line records its row identity (see core/results/keys.ts). */
export const KEY_KEY = '_key';

/** What a results line needs to know of the judge besides its columns. */
export interface LineIdentity {
  metric: string;
  templateHash: string;
  keyFields: readonly string[];
}

/** A metric column (without its `metric/` prefix) that src/core/results/columns.ts does not list. */
export class UnregisteredColumnError extends Error {
  override readonly name = 'UnregisteredColumnError';
}

/**
 * The input row's fields, `_row`, `_key`, then the metric's columns as `metric/column`, and
 * `metric/template_hash` last. Stale judge columns carried in by the input (a results file judged
 * again) are dropped; its human labels are kept. Every column must be registered and none may be
 * a human label: both would be a bug in a strategy, so they throw.
 */
export function resultLine(row: DatasetRow, id: LineIdentity, columns: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const prefix = `${id.metric}/`;
  const line: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row.record)) {
    if (k === ROW_KEY || k === KEY_KEY) continue;
    if (k.startsWith(prefix) && !k.startsWith(`${prefix}human_`)) continue;
    line[k] = v;
  }
  line[ROW_KEY] = row.row;
  line[KEY_KEY] = rowKey(row.record, id.keyFields);
  for (const [k, v] of Object.entries(columns)) {
    if (k === 'template_hash') continue;
    if (!isJudgeColumn(k)) throw new UnregisteredColumnError(`the engine tried to write the column "${prefix}${k}", which is not a judge column in src/core/results/columns.ts`);
    line[`${prefix}${k}`] = v;
  }
  line[`${prefix}template_hash`] = id.templateHash;
  return line;
}

/** A line's own columns of `metric`, without the prefix (the inverse of resultLine's column part). */
export function judgeColumnsOf(line: Readonly<Record<string, unknown>>, metric: string): Record<string, unknown> {
  const prefix = `${metric}/`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(line)) {
    if (!k.startsWith(prefix)) continue;
    const name = k.slice(prefix.length);
    if (name === 'template_hash' || !isJudgeColumn(name)) continue;
    out[name] = v;
  }
  return out;
}

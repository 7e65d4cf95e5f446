// The examples candidate: train rows where the current judge disagreed with the human, shown as
// few-shot examples with the human's label as the expected verdict. Each block is written by
// "Add as Example" (labels/example.ts), so a block from align reads like one a reviewer added;
// pairwise rows are shown in both orders, so an example never teaches a position.
import { compareLabels } from '../calibration/confusion';
import type { Label } from '../calibration/types';
import { exampleEdit } from '../labels/example';
import { seedOf, shuffled } from '../labels/random';
import type { LabelValue } from '../labels/types';
import { pairFields, pairStyle } from '../template/fields';
import { parseTemplate } from '../template/parse';
import type { ParsedTemplate } from '../template/types';
import type { LabelledRow, Verdict } from './types';

export interface Disagreement {
  row: LabelledRow;
  verdict: Verdict;
}

/**
 * Up to `k` disagreements, spread over the kinds of error: the (human, judge) cells are taken in
 * turn, the most frequent first, each cell's rows in a seeded order.
 */
export function pickExamples(pool: readonly Disagreement[], k: number, seed: number, skip: ReadonlySet<string> = new Set()): Disagreement[] {
  const cells = new Map<string, Disagreement[]>();
  for (const d of pool) {
    if (skip.has(d.row.key)) continue;
    const id = `${String(d.row.label)}\u0000${String(d.verdict.label)}`;
    const list = cells.get(id);
    if (list) list.push(d);
    else cells.set(id, [d]);
  }
  const ordered = [...cells.entries()]
    .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1))
    .map(([id, list]) => shuffled([...list].sort((p, q) => (p.row.key < q.row.key ? -1 : 1)), seedOf(`align-examples\u0000${seed}\u0000${id}`)));
  const out: Disagreement[] = [];
  for (let round = 0; out.length < k; round++) {
    let took = false;
    for (const list of ordered) {
      const d = list[round];
      if (d && out.length < k) {
        out.push(d);
        took = true;
      }
    }
    if (!took) break;
  }
  return out;
}

export interface ExampleBlock {
  row: LabelledRow;
  justification: string;
  /** The author model wrote the justification (no reviewer comment). */
  drafted: { model: string } | undefined;
}

/** The fields an example shows: the template's key fields in the order the prompt uses them. */
export function exampleFields(t: ParsedTemplate, keyFields: readonly string[]): string[] {
  const order = t.placeholders.filter((p) => !p.inBlock).map((p) => p.head);
  const shown = [...new Set(order.filter((f) => keyFields.includes(f)))];
  for (const f of keyFields) if (!shown.includes(f)) shown.push(f);
  return shown;
}

/** The record with its two responses swapped, and the label as it reads in that order. */
function swapped(t: ParsedTemplate, record: Record<string, unknown>, label: Label): { record: Record<string, unknown>; label: Label } {
  const pair = t.config?.pair;
  const pairs: [string, string][] = pair ? pair.a.map((a, i) => [a, pair.b[i] ?? a]) : [pairFields(pairStyle(t))];
  const out = { ...record };
  for (const [a, b] of pairs) {
    out[a] = record[b];
    out[b] = record[a];
  }
  return { record: out, label: label === 'A' ? 'B' : label === 'B' ? 'A' : label };
}

export type WithExamples = { ok: true; text: string } | { ok: false; error: string };

/** The template text with every block added at the end of its Examples section (created when absent). */
export function withExamples(text: string, blocks: readonly ExampleBlock[], keyFields: readonly string[]): WithExamples {
  let current = text;
  for (const block of blocks) {
    const t = parseTemplate(current);
    const fields = exampleFields(t, keyFields);
    const views = t.config?.kind === 'pairwise' ? [{ record: block.row.record, label: block.row.label }, swapped(t, block.row.record, block.row.label)] : [{ record: block.row.record, label: block.row.label }];
    for (const view of views) {
      const parsed = parseTemplate(current);
      const edit = exampleEdit(parsed, view.record, fields, view.label as LabelValue, block.justification);
      if (!edit.ok) return { ok: false, error: `row ${block.row.row} cannot be an example: ${edit.error}` };
      let insert = edit.edit.text;
      if (block.drafted) {
        // A Handlebars comment: the file says who wrote the reasoning, the judge never sees it.
        insert = insert.replace(/(## Example \d+\n)/, `$1{{!-- justification drafted by ${safeName(block.drafted.model)} (no reviewer comment); row ${block.row.key} --}}\n`);
      }
      current = current.slice(0, edit.edit.offset) + insert + current.slice(edit.edit.offset);
    }
  }
  return { ok: true, text: current };
}

/** Disagreements of the current judge on train rows, in a stable order. */
export function disagreements(train: readonly LabelledRow[], verdicts: ReadonlyMap<string, Verdict>): Disagreement[] {
  const out: Disagreement[] = [];
  for (const row of train) {
    const verdict = verdicts.get(row.key);
    if (verdict?.label !== undefined && compareLabels(verdict.label, row.label) !== 0) out.push({ row, verdict });
  }
  return out;
}

/** A model name as the endpoint reported it, safe inside a Handlebars comment. */
function safeName(model: string): string {
  return model.replace(/[^\w.:/@+-]+/g, ' ').trim().slice(0, 80) || 'the author model';
}

// The train / held-out split: stratified by the human label, reproducible from the seed. Rows are
// ordered by `_key` before the seeded shuffle, so the split depends on the rows' content and the
// seed, never on the order of the file. Every label needs 2 rows on each side, or a part cannot
// tell whether the judge learnt that label.
import { compareLabels } from '../calibration/confusion';
import type { Label } from '../calibration/types';
import { seedOf, shuffled } from '../labels/random';
import type { LabelledRow } from './types';

export const MIN_LABELLED = 20;
export const MIN_PER_CLASS_PER_PART = 2;

export interface Split {
  train: LabelledRow[];
  heldout: LabelledRow[];
}

export type SplitOutcome = { ok: true; split: Split } | { ok: false; error: string };

/** `share` of every label's rows held out (at least 2 rows of each label on both sides). */
export function splitRows(rows: readonly LabelledRow[], share: number, seed: number, metric: string): SplitOutcome {
  if (rows.length < MIN_LABELLED) {
    return {
      ok: false,
      error:
        `only ${rows.length} row(s) have a human label for "${metric}"; align needs at least ${MIN_LABELLED}, because it holds part of them out ` +
        `to test the candidates on: label ${MIN_LABELLED - rows.length} more (Judge Studio: Review Judgments, or a ${metric}/human_* column in the data)`,
    };
  }
  const byLabel = new Map<Label, LabelledRow[]>();
  for (const r of rows) {
    const list = byLabel.get(r.label);
    if (list) list.push(r);
    else byLabel.set(r.label, [r]);
  }
  const labels = [...byLabel.keys()].sort(compareLabels);
  const need = 2 * MIN_PER_CLASS_PER_PART;
  const short = labels.filter((l) => (byLabel.get(l)?.length ?? 0) < need);
  if (labels.length < 2 || short.length > 0) {
    const what =
      labels.length < 2
        ? `every labelled row has the label ${String(labels[0])}, so there is no disagreement pattern to learn and no way to tell a judge that always answers ${String(labels[0])} from a good one: label rows that deserve another verdict`
        : short
            .map((l) => {
              const n = byLabel.get(l)?.length ?? 0;
              return `humans gave ${String(l)} to ${n} row(s); label at least ${need - n} more row(s) that deserve ${String(l)}`;
            })
            .join('; ');
    return { ok: false, error: `${what} (each label needs at least ${MIN_PER_CLASS_PER_PART} rows in train and ${MIN_PER_CLASS_PER_PART} in held-out)` };
  }
  const train: LabelledRow[] = [];
  const heldout: LabelledRow[] = [];
  for (const label of labels) {
    const group = [...(byLabel.get(label) ?? [])].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const order = shuffled(group, seedOf(`align\u0000${seed}\u0000${String(label)}`));
    const held = Math.min(Math.max(Math.round(order.length * share), MIN_PER_CLASS_PER_PART), order.length - MIN_PER_CLASS_PER_PART);
    heldout.push(...order.slice(0, held));
    train.push(...order.slice(held));
  }
  // Rows in file order within each part, so results files read like the data.
  const byRow = (a: LabelledRow, b: LabelledRow) => a.row - b.row;
  return { ok: true, split: { train: train.sort(byRow), heldout: heldout.sort(byRow) } };
}

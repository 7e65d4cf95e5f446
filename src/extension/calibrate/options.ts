// The calibration view's own choices, as `calibrate` offers them: `--swap-rule` (re-aggregate the two
// orders of a pairwise verdict from the passes a results line stores) and `--by` (every figure per
// value of a dataset column). Plain node (no `vscode`).
import { MAX_GROUPS } from '../../core/calibration/calibrate';
import { jsonCell } from '../../core/calibration/labels';
import type { GroupReport } from '../../core/calibration/types';
import type { DatasetRow } from '../../core/dataset';
import { sweepThresholds } from '../../core/judge/tiers/thresholdSweep';
import type { GroupRow, SwapChoice, SweepView } from '../../protocol/calibrate';

/** What the user chose in the view; the defaults are the file as the run wrote it, not split. */
export interface ChosenOptions {
  swapRule: SwapChoice;
  by: string | null;
}

export const DEFAULT_OPTIONS: ChosenOptions = { swapRule: 'recorded', by: null };

/** Whether any row stores the two orders of a pairwise verdict (`m/passes` entries with an `order`), so a swap rule can re-aggregate it. */
export function hasPasses(rows: readonly DatasetRow[], metric: string): boolean {
  const column = `${metric}/passes`;
  return rows.some((r) => {
    const passes = jsonCell(r.record[column]);
    return Array.isArray(passes) && passes.some((p: unknown) => typeof p === 'object' && p !== null && 'order' in p);
  });
}

/**
 * The dataset's columns that group rows: scalar values, 2 to MAX_GROUPS of them, at least one of
 * them on several rows (a value per row is an id or a prompt, not a group). Judge Studio's own
 * columns (`_key`, `_row`, `metric/...`) are not the dataset's.
 */
export function groupColumns(rows: readonly DatasetRow[]): string[] {
  const values = new Map<string, Set<string>>();
  const ruledOut = new Set<string>();
  const filled = new Map<string, number>();
  for (const r of rows) {
    for (const [field, cell] of Object.entries(r.record)) {
      if (ruledOut.has(field)) continue;
      if (field.startsWith('_') || field.includes('/') || (cell !== null && typeof cell === 'object')) {
        ruledOut.add(field);
        continue;
      }
      if (cell === null || cell === undefined || cell === '') continue;
      let seen = values.get(field);
      if (!seen) values.set(field, (seen = new Set()));
      seen.add(String(cell));
      filled.set(field, (filled.get(field) ?? 0) + 1);
      if (seen.size > MAX_GROUPS) {
        ruledOut.add(field);
        values.delete(field);
      }
    }
  }
  return [...values]
    .filter(([field, seen]) => !ruledOut.has(field) && seen.size >= 2 && seen.size < (filled.get(field) ?? 0))
    .map(([field]) => field)
    .sort();
}

/** calibrate's `by` report as the view's table rows, in calibrate's order (sorted by value). */
export function groupRows(by: Record<string, GroupReport>): GroupRow[] {
  return Object.entries(by).map(([value, g]) =>
    'error' in g
      ? { value, n: 0, accuracy: null, balanced_accuracy: null, cohen_kappa: null, coverage: null, failed: 0, error: g.error }
      : {
          value,
          n: g.n,
          accuracy: g.accuracy,
          balanced_accuracy: g.balanced_accuracy,
          cohen_kappa: g.cohen_kappa,
          coverage: g.coverage,
          failed: Object.values(g.failed_by_kind).reduce((a, b) => a + b, 0),
          error: null,
        },
  );
}

/** A tiered run's threshold sweep over the rows (as `judge-studio thresholds` sweeps it); undefined when no row is tiered. */
export function sweepOf(rows: readonly DatasetRow[], metric: string): SweepView | { error: string } | undefined {
  const column = `${metric}/tiers`;
  if (!rows.some((r) => r.record[column] !== undefined)) return undefined;
  const sweep = sweepThresholds(
    rows.map((r) => r.record),
    metric,
  );
  if ('error' in sweep) return sweep;
  const { by, rows: n, both, audited, audit_percent, points } = sweep;
  return { by, rows: n, both, audited, audit_percent, points: points.map(({ rule, escalation_rate, agreement_judge, agreement_human, human_n }) => ({ rule, escalation_rate, agreement_judge, agreement_human, human_n })) };
}

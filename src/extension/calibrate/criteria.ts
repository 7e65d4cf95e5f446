// The calibration view's criterion switcher: for a multi-criterion judge, the overall and each
// criterion as choices, with how far judge and humans are apart on each. Plain node (no `vscode`).
import { calibrateCriteria, criterionOf, findCriteria, isCriteriaRecord } from '../../core/calibration/criteria';
import type { DatasetRow } from '../../core/dataset';
import type { CriteriaSwitch } from '../../protocol/calibrate';

export type { CriteriaSwitch } from '../../protocol/calibrate';

/** Null when `metric` is neither a criteria judge's overall nor one of its criteria. */
export async function criteriaSwitch(rows: readonly DatasetRow[], metric: string): Promise<CriteriaSwitch | null> {
  const first = rows[0]?.record;
  if (!first) return null;
  const base = isCriteriaRecord(first, metric) ? metric : criterionOf(first, metric)?.base;
  if (!base) return null;
  const names = await findCriteria(rows, base);
  const result = await calibrateCriteria(() => rows, base, names);
  const summary = result.ok ? result.value.summary : [];
  return {
    base,
    current: metric,
    options: [
      { metric: base, label: 'overall', mean_abs_diff: null, mean_diff: null },
      ...names.map((n) => {
        const s = summary.find((x) => x.criterion === n);
        return { metric: `${base}/${n}`, label: n, mean_abs_diff: s?.mean_abs_diff ?? null, mean_diff: s?.mean_diff ?? null };
      }),
    ],
    most: result.ok ? (result.value.most_disagreement?.criterion ?? null) : null,
  };
}

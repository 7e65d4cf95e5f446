// What counts as a verdict in a results line: one judge column per kind of template (a score, a
// pairwise choice, a categorical label) and the human label column beside it. The one definition
// calibrate, the run summary and every view of the editor read, so a new kind is added once.
import type { TemplateConfig } from '../template/types';

/** `categorical`: the judge answers one of a template's `labels` (`m/label`), a nominal scale. */
export type VerdictKind = 'pointwise' | 'pairwise' | 'categorical';

export const VERDICT_KINDS: readonly VerdictKind[] = ['pointwise', 'pairwise', 'categorical'];

/** The column names after `<metric>/`: the judge's verdict and the human label it is compared with. */
export const VERDICT_COLUMNS: Readonly<Record<VerdictKind, { readonly judge: string; readonly human: string }>> = {
  pointwise: { judge: 'score', human: 'human_rating' },
  pairwise: { judge: 'pairwise_choice', human: 'human_pairwise_choice' },
  categorical: { judge: 'label', human: 'human_label' },
};

/** Every verdict column name after `<metric>/`, each kind's human label then its judge's verdict. */
export const VERDICT_COLUMN_NAMES: readonly string[] = VERDICT_KINDS.flatMap((k) => [VERDICT_COLUMNS[k].human, VERDICT_COLUMNS[k].judge]);

/** The kind of verdict a template gives: a categorical template is pointwise with `labels`. */
export function templateVerdictKind(config: Pick<TemplateConfig, 'kind' | 'labels'>): VerdictKind {
  return config.kind === 'pairwise' ? 'pairwise' : config.labels ? 'categorical' : 'pointwise';
}

/** `{metric, kind}` when `key` is a judge's verdict column (`m/score`, `m/pairwise_choice`, `m/label`), else undefined. */
export function verdictColumn(key: string): { metric: string; kind: VerdictKind } | undefined {
  // Metric names have no slash (`[a-z][a-z0-9_]*`): `m/human_rating/score` is no verdict column.
  const slash = key.indexOf('/');
  if (slash <= 0) return undefined;
  const name = key.slice(slash + 1);
  const kind = VERDICT_KINDS.find((k) => VERDICT_COLUMNS[k].judge === name);
  return kind ? { metric: key.slice(0, slash), kind } : undefined;
}

/** The kind of the verdict column `record` has for `metric` (in VERDICT_KINDS order), else undefined. */
export function verdictKindOf(record: Readonly<Record<string, unknown>>, metric: string): VerdictKind | undefined {
  return VERDICT_KINDS.find((k) => Object.hasOwn(record, `${metric}/${VERDICT_COLUMNS[k].judge}`));
}

/** The judge's verdict columns for messages: `"<metric>/score", "<metric>/pairwise_choice" or "<metric>/label"`. */
export function verdictColumnsText(metric = '<metric>'): string {
  const names = VERDICT_KINDS.map((k) => `"${metric}/${VERDICT_COLUMNS[k].judge}"`);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

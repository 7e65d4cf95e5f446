// The template a results file was judged with, for calibration: its scale (labels outside it are
// refused) and its passing labels (the categorical pass/fail view). Found as the one template
// named after the metric among those under a folder, taken only when it is the version that
// judged the file (its template_hash matches the file's first one). The CLI (`calibrate` without
// --template) and the editor's calibration view both find it this way.
import type { DatasetItem } from '../dataset/types';
import { isSkip } from '../dataset/types';
import type { FoundTemplate } from '../labels/templates';
import { templateHash } from '../results/keys';
import type { TemplateConfig } from '../template/types';
import { scaleOf, type LabelScale } from './scale';

export interface TemplateScale {
  scale?: LabelScale;
  passingLabels?: readonly string[];
  /** Why a template named after the metric was not used, when one was found. */
  note?: string;
}

/** What calibration takes from a template's front matter; `source` names it in messages. */
export function fromConfig(config: TemplateConfig, source: string): TemplateScale {
  const scale = scaleOf(config, source);
  return { ...(scale ? { scale } : {}), ...(config.passing_labels ? { passingLabels: config.passing_labels } : {}) };
}

/** The scale of the one template found for the metric, if it is the version that judged `items`. */
export function fromFound(found: readonly FoundTemplate[], items: Iterable<DatasetItem>, metric: string, shown: (file: string) => string, fileShown: string): TemplateScale {
  const only = found.length === 1 ? found[0] : undefined;
  if (!only?.template.config) return {};
  const judgedWith = firstHash(items, metric);
  if (judgedWith !== undefined && judgedWith !== templateHash(only.template.text)) {
    return {
      note: `${shown(only.file)} is not the template version that judged ${fileShown} (its template_hash differs), so labels are not checked against its scale; pass --template T to check them`,
    };
  }
  return fromConfig(only.template.config, shown(only.file));
}

/** `m/template_hash` of the first row that has one. */
function firstHash(items: Iterable<DatasetItem>, metric: string): string | undefined {
  const column = `${metric}/template_hash`;
  for (const item of items) {
    if (isSkip(item)) continue;
    const hash = item.record[column];
    if (typeof hash === 'string') return hash;
  }
  return undefined;
}

// The labels a metric can have, from its template: a pointwise rating is a whole number on the
// template's scale, a categorical label one of the template's `labels`, a pairwise choice is A, B
// or TIE (or Vertex AI's names for them). With the scale known, calibrate refuses a label outside it (naming the row and line) instead of making a
// class of it in the confusion matrix.
import type { TemplateConfig } from '../template/types';
import { CHOICE_SPELLINGS, InvalidLabel, MISSING, type ParsedLabel } from './labels';
import type { CalibrationKind, CalibrationReport } from './types';

export type LabelScale =
  | { kind: 'pointwise'; min: number; max: number; source: string }
  | { kind: 'pairwise'; source: string }
  | { kind: 'categorical'; labels: readonly string[]; source: string };

/** The scale of a template's verdicts; `source` names the template in messages. */
export function scaleOf(config: TemplateConfig, source: string): LabelScale | undefined {
  if (config.kind === 'pairwise') return { kind: 'pairwise', source };
  if (config.labels) return { kind: 'categorical', labels: config.labels, source };
  return config.scale ? { kind: 'pointwise', min: config.scale.min, max: config.scale.max, source } : undefined;
}

/** Why a file of `kind` cannot be calibrated against `scale`, or undefined when the kinds agree. */
export function kindMismatch(scale: LabelScale, kind: CalibrationKind): string | undefined {
  if (scale.kind === kind) return undefined;
  return `${scale.source} is a ${scale.kind} template, but the file has ${kind} label columns; pass the template that judged it (--template T)`;
}

/** A message when a parsed label is not one the scale allows; undefined when it is (or is missing). */
export function outsideScale<T>(scale: LabelScale, column: string, raw: unknown, label: ParsedLabel<T>): string | undefined {
  if (label === MISSING) return undefined;
  const shown = new InvalidLabel(raw).shown;
  if (scale.kind === 'pairwise') {
    return label instanceof InvalidLabel ? `"${column}" is ${shown}, not a choice of ${scale.source} (${CHOICE_SPELLINGS}); correct the label` : undefined;
  }
  if (scale.kind === 'categorical') {
    if (typeof label === 'string' && scale.labels.includes(label)) return undefined;
    return `"${column}" is ${shown}, not one of the labels of ${scale.source} (${scale.labels.join(', ')}); correct the label (or the template's labels)`;
  }
  const { min, max } = scale;
  if (typeof label === 'number' && Number.isInteger(label) && label >= min && label <= max) return undefined;
  return `"${column}" is ${shown}, not a whole number on the ${min}–${max} scale of ${scale.source}; correct the label (or the template's scale)`;
}

/**
 * Without a template, labels cannot be checked; a hint when some look wrong: not whole numbers,
 * or human ratings beyond every score the judge gave. Undefined when nothing looks wrong.
 */
export function unscaledHint(report: CalibrationReport): string | undefined {
  if (report.kind !== 'pointwise') return undefined;
  const labels = report.labels as number[];
  const judged = labels.filter((_, j) => report.confusion_matrix.some((row) => (row[j] ?? 0) > 0));
  if (judged.length === 0) return undefined;
  const rated = labels.filter((_, i) => (report.confusion_matrix[i] ?? []).some((c) => c > 0));
  const lo = Math.min(...judged);
  const hi = Math.max(...judged);
  const odd = labels.filter((l) => !Number.isInteger(l) || (rated.includes(l) && (l < lo || l > hi)));
  if (odd.length === 0) return undefined;
  return (
    `the labels ${odd.slice(0, 5).join(', ')} look out of place (not whole numbers, or beyond the scores the judge gave, ${lo}–${hi}); ` +
    'the template is unknown, so they were counted as they are: pass --template T (the template that judged the file) to have every label checked against its scale'
  );
}
